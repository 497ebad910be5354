//! One fault as a link writes it: `kind:target@time` plus an amount where the kind has one.
//!
//! ```text
//! pause:A@2s+15s          stop-the-world pause of client A at 2 s for 15 s
//! pause-write:A@1.5s+15s  the same, between the pre-write check and the write
//! partition:A-service@4.5s+3s   link A ↔ service down for 3 s
//! delay:A-storage@7.5s+90s      A's next packet to storage 90 s late
//! step:A@5s-8s            NTP steps A's wall clock back 8 s (`+8s` forward)
//! drift:service@0s+250ppm the service's clocks run 250 ppm fast from 0 s
//! crash:A@8.5s            client A dies
//! revoke@3.5s             an administrator deletes the lease
//! ```
//!
//! Nodes are client letters (`A`, `B`, …), `service` and `storage`. Parsing checks the
//! syntax and the signs; [`crate::model::Scenario::validate`] checks nodes and ranges.

use super::values::{
    parse_duration, parse_signed_duration, print_duration, print_signed_duration, ValueError,
};
use crate::model::{ClientId, Fault, NodeId, SimDuration, SimTime, TimedFault};

/// Why a fault could not be read, completing "This link's fault plan has …".
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultError {
    /// The word before `:` or `@` is not a kind of fault.
    UnknownKind,
    /// There is no `@time`.
    NoTime,
    /// The time is unreadable.
    BadTime(ValueError),
    /// The node (or pair of nodes) is missing or not a node name.
    BadNode,
    /// The kind needs an amount (`+15s`, `-8s`, `+250ppm`) and there is none.
    NoAmount(&'static str),
    /// The amount of a pause, partition or delay is negative.
    NegativeLength(&'static str),
    /// The amount is unreadable.
    BadAmount(&'static str, ValueError),
    /// Something follows a fault that takes no amount.
    UnexpectedAmount(&'static str),
}

impl FaultError {
    /// The phrase after "This link's fault plan has ".
    pub fn describe(&self) -> String {
        match self {
            FaultError::UnknownKind => {
                "a fault of an unknown kind (known kinds: pause, pause-write, \
                partition, delay, step, drift, crash, revoke)"
                    .to_owned()
            }
            FaultError::NoTime => "a fault without a time (write kind:node@time)".to_owned(),
            FaultError::BadTime(e) => format!("a fault whose time {e}"),
            FaultError::BadNode => {
                "a fault that names no known node (use A, B, …, service or storage)".to_owned()
            }
            FaultError::NoAmount(kind) => format!("a {kind} without its amount, as in +15s"),
            FaultError::NegativeLength(kind) => format!("a {kind} with a negative duration"),
            FaultError::BadAmount(kind, e) => format!("a {kind} whose amount {e}"),
            FaultError::UnexpectedAmount(kind) => {
                format!("a {kind} with an amount it does not take")
            }
        }
    }
}

pub(super) fn node_name(node: NodeId) -> String {
    match node {
        NodeId::Service => "service".to_owned(),
        NodeId::Storage => "storage".to_owned(),
        NodeId::Client(c) => c.letter().to_string(),
    }
}

fn parse_node(text: &str) -> Result<NodeId, FaultError> {
    match text {
        "service" => Ok(NodeId::Service),
        "storage" => Ok(NodeId::Storage),
        _ => match text.as_bytes() {
            [letter @ b'A'..=b'Z'] => Ok(NodeId::Client(ClientId(letter - b'A'))),
            _ => Err(FaultError::BadNode),
        },
    }
}

fn parse_client(text: &str) -> Result<ClientId, FaultError> {
    match parse_node(text)? {
        NodeId::Client(c) => Ok(c),
        _ => Err(FaultError::BadNode),
    }
}

pub(super) fn parse_pair(text: &str) -> Result<(NodeId, NodeId), FaultError> {
    let (a, b) = text.split_once('-').ok_or(FaultError::BadNode)?;
    Ok((parse_node(a)?, parse_node(b)?))
}

/// Prints a fault in link syntax.
pub fn print_fault(fault: &TimedFault) -> String {
    let at = print_duration(fault.at.0);
    match fault.fault {
        Fault::Pause {
            client,
            duration,
            in_write_path,
        } => {
            let kind = if in_write_path {
                "pause-write"
            } else {
                "pause"
            };
            format!("{kind}:{client}@{at}+{}", print_duration(duration.0))
        }
        Fault::Partition { a, b, duration } => format!(
            "partition:{}-{}@{at}+{}",
            node_name(a),
            node_name(b),
            print_duration(duration.0)
        ),
        Fault::DelayNextPacket { from, to, extra } => format!(
            "delay:{}-{}@{at}+{}",
            node_name(from),
            node_name(to),
            print_duration(extra.0)
        ),
        Fault::ClockStep { node, by_micros } => format!(
            "step:{}@{at}{}",
            node_name(node),
            print_signed_duration(by_micros)
        ),
        Fault::ClockDrift { node, ppm } => format!("drift:{}@{at}{ppm:+}ppm", node_name(node)),
        Fault::Crash { client } => format!("crash:{client}@{at}"),
        Fault::RevokeLease => format!("revoke@{at}"),
    }
}

/// Reads a fault in link syntax.
pub fn parse_fault(text: &str) -> Result<TimedFault, FaultError> {
    let (head, tail) = text.split_once('@').ok_or_else(|| {
        if KINDS.iter().any(|k| text.split(':').next() == Some(*k)) {
            FaultError::NoTime
        } else {
            FaultError::UnknownKind
        }
    })?;
    let (kind, target) = head.split_once(':').unwrap_or((head, ""));
    let kind = *KINDS
        .iter()
        .find(|k| **k == kind)
        .ok_or(FaultError::UnknownKind)?;
    let split = tail
        .bytes()
        .skip(1)
        .position(|b| b == b'+' || b == b'-')
        .map(|i| i + 1);
    let (time, amount) = match split {
        Some(i) => (&tail[..i], Some(&tail[i..])),
        None => (tail, None),
    };
    let at = SimTime(parse_duration(time).map_err(FaultError::BadTime)?);
    let label = label_of(kind);
    let length = |amount: Option<&str>| -> Result<SimDuration, FaultError> {
        let amount = amount.ok_or(FaultError::NoAmount(label))?;
        match parse_signed_duration(amount) {
            Ok(v) if v < 0 => Err(FaultError::NegativeLength(label)),
            Ok(v) => Ok(SimDuration(v.unsigned_abs())),
            Err(e) => Err(FaultError::BadAmount(label, e)),
        }
    };
    let none = |amount: Option<&str>| match amount {
        Some(_) => Err(FaultError::UnexpectedAmount(label)),
        None => Ok(()),
    };
    let fault = match kind {
        "pause" | "pause-write" => Fault::Pause {
            client: parse_client(target)?,
            duration: length(amount)?,
            in_write_path: kind == "pause-write",
        },
        "partition" => {
            let (a, b) = parse_pair(target)?;
            Fault::Partition {
                a,
                b,
                duration: length(amount)?,
            }
        }
        "delay" => {
            let (from, to) = parse_pair(target)?;
            Fault::DelayNextPacket {
                from,
                to,
                extra: length(amount)?,
            }
        }
        "step" => Fault::ClockStep {
            node: parse_node(target)?,
            by_micros: parse_signed_duration(amount.ok_or(FaultError::NoAmount(label))?)
                .map_err(|e| FaultError::BadAmount(label, e))?,
        },
        "drift" => {
            let amount = amount.ok_or(FaultError::NoAmount(label))?;
            let ppm = amount
                .strip_suffix("ppm")
                .ok_or(FaultError::BadAmount(label, ValueError::NotANumber))?;
            let (negative, digits) = match ppm.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, ppm.strip_prefix('+').unwrap_or(ppm)),
            };
            let magnitude = super::values::parse_whole(digits)
                .map_err(|e| FaultError::BadAmount(label, e))
                .and_then(|v| {
                    i32::try_from(v).map_err(|_| FaultError::BadAmount(label, ValueError::TooLarge))
                })?;
            Fault::ClockDrift {
                node: parse_node(target)?,
                ppm: if negative { -magnitude } else { magnitude },
            }
        }
        "crash" => {
            none(amount)?;
            Fault::Crash {
                client: parse_client(target)?,
            }
        }
        _ => {
            none(amount)?;
            if !target.is_empty() {
                return Err(FaultError::BadNode);
            }
            Fault::RevokeLease
        }
    };
    Ok(TimedFault { at, fault })
}

const KINDS: [&str; 8] = [
    "pause",
    "pause-write",
    "partition",
    "delay",
    "step",
    "drift",
    "crash",
    "revoke",
];

fn label_of(kind: &str) -> &'static str {
    match kind {
        "pause" | "pause-write" => "pause",
        "partition" => "partition",
        "delay" => "delayed packet",
        "step" => "clock step",
        "drift" => "clock drift",
        "crash" => "crash",
        _ => "revoked lease",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::presets;

    #[test]
    fn every_preset_fault_prints_and_reads_back() {
        for preset in presets::presets() {
            for fault in &preset.scenario.faults.0 {
                let text = print_fault(fault);
                assert_eq!(parse_fault(&text), Ok(*fault), "{text}");
            }
        }
    }

    #[test]
    fn the_lesson_examples_read_as_expected() {
        assert_eq!(
            parse_fault("pause:A@2s+15s"),
            Ok(TimedFault {
                at: SimTime::from_secs(2),
                fault: Fault::Pause {
                    client: ClientId::A,
                    duration: SimDuration::from_secs(15),
                    in_write_path: false
                }
            })
        );
        assert_eq!(
            parse_fault("step:service@2s+8s").map(|f| f.fault),
            Ok(Fault::ClockStep {
                node: NodeId::Service,
                by_micros: 8_000_000
            })
        );
        assert_eq!(
            parse_fault("drift:B@0s-250ppm").map(|f| f.fault),
            Ok(Fault::ClockDrift {
                node: NodeId::Client(ClientId::B),
                ppm: -250
            })
        );
        assert_eq!(
            parse_fault("revoke@3.5s").map(|f| f.at),
            Ok(SimTime::from_millis(3_500))
        );
        let drift = TimedFault {
            at: SimTime::ZERO,
            fault: Fault::ClockDrift {
                node: NodeId::Storage,
                ppm: -7,
            },
        };
        assert_eq!(print_fault(&drift), "drift:storage@0s-7ppm");
        assert_eq!(parse_fault(&print_fault(&drift)), Ok(drift));
    }

    #[test]
    fn each_broken_fault_gets_its_own_reason() {
        let cases = [
            ("pause:A@2s-15s", FaultError::NegativeLength("pause")),
            ("pause:A@2s", FaultError::NoAmount("pause")),
            ("pause:A", FaultError::NoTime),
            ("explode:A@2s", FaultError::UnknownKind),
            ("pause:a@2s+1s", FaultError::BadNode),
            ("pause:service@2s+1s", FaultError::BadNode),
            ("partition:A@2s+1s", FaultError::BadNode),
            ("pause:A@-2s+1s", FaultError::BadTime(ValueError::Negative)),
            (
                "pause:A@NaN+1s",
                FaultError::BadTime(ValueError::NotANumber),
            ),
            (
                "pause:A@2s+1e99s",
                FaultError::BadAmount("pause", ValueError::NotANumber),
            ),
            (
                "drift:A@0s+99999999999ppm",
                FaultError::BadAmount("clock drift", ValueError::TooLarge),
            ),
            ("crash:A@2s+1s", FaultError::UnexpectedAmount("crash")),
            ("revoke:A@2s", FaultError::BadNode),
            ("<script>alert(1)</script>", FaultError::UnknownKind),
        ];
        for (text, error) in cases {
            assert_eq!(parse_fault(text), Err(error), "{text}");
        }
        assert_eq!(
            FaultError::NegativeLength("pause").describe(),
            "a pause with a negative duration"
        );
    }
}
