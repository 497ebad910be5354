//! One link override as a link writes it: `A-service/200ms/5ms/0.5%` is the link between
//! client A and the lock service with a 200 ms round trip, 5 ms of jitter and 0.5 % loss.

use super::values::{
    parse_duration, parse_percent_ppm, print_duration, print_percent_ppm, ValueError,
};
use crate::lesson::reasons;
use crate::lesson::sentences;
use crate::lesson::LESSON;
use crate::model::faults::text::{parse_pair, print_node as node_name};
use crate::model::scenario::LinkOverride;
use crate::model::SimDuration;

/// Why a link override could not be read, completing "This link's network has …".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LinkError {
    /// Not `ends/rtt/jitter/loss`.
    Shape,
    /// The ends are not two node names joined by `-`.
    BadNodes,
    /// One of the three values is unreadable; its name is from `content/lesson.toml`.
    BadValue(&'static str, ValueError),
}

impl LinkError {
    /// The phrase after "This link's network has ".
    pub fn describe(&self) -> String {
        let words = &LESSON.link_problems;
        match self {
            LinkError::Shape => words.link_shape.to_owned(),
            LinkError::BadNodes => words.link_nodes.to_owned(),
            LinkError::BadValue(what, e) => sentences::lesson::link_problems::LinkValue {
                what: *what,
                why: reasons::value(*e),
            }
            .to_string(),
        }
    }
}

/// Prints a link override.
pub fn print_link(link: &LinkOverride) -> String {
    format!(
        "{}-{}/{}/{}/{}",
        node_name(link.a),
        node_name(link.b),
        print_duration(link.rtt.0),
        print_duration(link.jitter.0),
        print_percent_ppm(u64::from(link.loss_ppm))
    )
}

/// Reads a link override.
pub fn parse_link(text: &str) -> Result<LinkOverride, LinkError> {
    let mut parts = text.split('/');
    let (Some(ends), Some(rtt), Some(jitter), Some(loss), None) = (
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
        parts.next(),
    ) else {
        return Err(LinkError::Shape);
    };
    let (a, b) = parse_pair(ends).ok_or(LinkError::BadNodes)?;
    let time = |what, v| {
        parse_duration(v)
            .map(SimDuration)
            .map_err(|e| LinkError::BadValue(what, e))
    };
    let loss = parse_percent_ppm(loss)
        .and_then(|ppm| u32::try_from(ppm).map_err(|_| ValueError::TooLarge))
        .map_err(|e| LinkError::BadValue(LESSON.link_problems.loss, e))?;
    Ok(LinkOverride {
        a,
        b,
        rtt: time(LESSON.link_problems.rtt, rtt)?,
        jitter: time(LESSON.link_problems.jitter, jitter)?,
        loss_ppm: loss,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ClientId, NodeId};

    #[test]
    fn a_far_client_reads_back_exactly() {
        let link = LinkOverride {
            a: NodeId::Client(ClientId::A),
            b: NodeId::Service,
            rtt: SimDuration::from_millis(200),
            jitter: SimDuration::from_millis(5),
            loss_ppm: 5_000,
        };
        assert_eq!(print_link(&link), "A-service/200ms/5ms/0.5%");
        assert_eq!(parse_link("A-service/200ms/5ms/0.5%"), Ok(link));
    }

    #[test]
    fn broken_overrides_say_why() {
        assert_eq!(parse_link("A-service/200ms"), Err(LinkError::Shape));
        assert_eq!(parse_link("A-service/1s/1s/1%/x"), Err(LinkError::Shape));
        assert_eq!(parse_link("A/1s/1s/1%"), Err(LinkError::BadNodes));
        assert_eq!(
            parse_link("A-B/-1s/0s/0%"),
            Err(LinkError::BadValue("round-trip time", ValueError::Negative))
        );
        assert_eq!(
            parse_link("A-B/1s/0s/99999999999%"),
            Err(LinkError::BadValue("loss", ValueError::TooLarge))
        );
    }
}
