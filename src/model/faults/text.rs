//! The textual form of a fault, `kind:target@time` plus an amount where the kind has one,
//! read and written by share links and by the sandbox's fault form alike.
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

use super::{Amount, Fault, FaultKind, Targets, TimedFault};
use crate::model::ids::{ClientId, NodeId};
use crate::model::notation::{
    parse_duration, parse_signed_duration, parse_whole, print_duration, print_signed_duration,
    ValueError,
};
use crate::model::time::{SimDuration, SimTime};

/// Why a fault could not be read (`crate::lesson::reasons` words it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FaultError {
    /// The word before `:` or `@` is not a kind of fault.
    UnknownKind,
    /// There is no `@time`.
    NoTime,
    /// The time is unreadable.
    BadTime(ValueError),
    /// The node (or pair of nodes) is missing or not a node name, or the kind takes none.
    BadNode(FaultKind),
    /// The kind needs an amount (`+15s`, `-8s`, `+250ppm`) and there is none.
    NoAmount(FaultKind),
    /// The amount of a pause, partition or delay is negative.
    NegativeLength(FaultKind),
    /// The amount is unreadable.
    BadAmount(FaultKind, ValueError),
    /// Something follows a fault that takes no amount.
    UnexpectedAmount(FaultKind),
}

/// A node's name in the textual form: `A`, `service`, `storage`.
pub fn print_node(node: NodeId) -> String {
    match node {
        NodeId::Service => "service".to_owned(),
        NodeId::Storage => "storage".to_owned(),
        NodeId::Client(c) => c.letter().to_string(),
    }
}

/// Reads a node's name.
pub fn parse_node(text: &str) -> Option<NodeId> {
    match text {
        "service" => Some(NodeId::Service),
        "storage" => Some(NodeId::Storage),
        _ => match text.as_bytes() {
            [letter @ b'A'..=b'Z'] => Some(NodeId::Client(ClientId(letter - b'A'))),
            _ => None,
        },
    }
}

fn parse_client(text: &str) -> Option<ClientId> {
    match parse_node(text)? {
        NodeId::Client(c) => Some(c),
        _ => None,
    }
}

/// Reads the two ends of a link, `A-service`.
pub fn parse_pair(text: &str) -> Option<(NodeId, NodeId)> {
    let (a, b) = text.split_once('-')?;
    Some((parse_node(a)?, parse_node(b)?))
}

/// What stands between `kind:` and `@`.
fn print_target(fault: &Fault) -> String {
    match fault.kind().targets() {
        Targets::Nothing => String::new(),
        Targets::Client | Targets::Node => format!(":{}", print_node(fault.target())),
        Targets::Link => {
            let peer = fault.peer().unwrap_or(NodeId::Service);
            format!(":{}-{}", print_node(fault.target()), print_node(peer))
        }
    }
}

/// What follows the time.
fn print_amount(fault: &Fault) -> String {
    match *fault {
        Fault::Pause { duration, .. } | Fault::Partition { duration, .. } => {
            format!("+{}", print_duration(duration.0))
        }
        Fault::DelayNextPacket { extra, .. } => format!("+{}", print_duration(extra.0)),
        Fault::ClockStep { by_micros, .. } => print_signed_duration(by_micros),
        Fault::ClockDrift { ppm, .. } => format!("{ppm:+}ppm"),
        Fault::Crash { .. } | Fault::RevokeLease => String::new(),
    }
}

/// Prints a fault in its textual form.
pub fn print_fault(fault: &TimedFault) -> String {
    format!(
        "{}{}@{}{}",
        fault.fault.kind().keyword(),
        print_target(&fault.fault),
        print_duration(fault.at.0),
        print_amount(&fault.fault)
    )
}

/// The pieces of `kind:target@time±amount`, split but not yet read.
struct Pieces<'a> {
    kind: FaultKind,
    target: &'a str,
    time: &'a str,
    amount: Option<&'a str>,
}

fn split(text: &str) -> Result<Pieces<'_>, FaultError> {
    let (head, tail) = text.split_once('@').ok_or_else(|| {
        let keyword = text.split(':').next().unwrap_or_default();
        match FaultKind::from_keyword(keyword) {
            Some(_) => FaultError::NoTime,
            None => FaultError::UnknownKind,
        }
    })?;
    let (keyword, target) = head.split_once(':').unwrap_or((head, ""));
    let kind = FaultKind::from_keyword(keyword).ok_or(FaultError::UnknownKind)?;
    let sign = tail
        .bytes()
        .skip(1)
        .position(|b| b == b'+' || b == b'-')
        .map(|i| i + 1);
    let (time, amount) = match sign {
        Some(i) => (&tail[..i], Some(&tail[i..])),
        None => (tail, None),
    };
    Ok(Pieces {
        kind,
        target,
        time,
        amount,
    })
}

/// The amount of a fault, read as its kind takes it.
enum ReadAmount {
    None,
    Length(SimDuration),
    Step(i64),
    Rate(i32),
}

fn read_amount(kind: FaultKind, amount: Option<&str>) -> Result<ReadAmount, FaultError> {
    let need = || amount.ok_or(FaultError::NoAmount(kind));
    let bad = |e| FaultError::BadAmount(kind, e);
    Ok(match kind.amount() {
        Amount::Nothing => match amount {
            Some(_) => return Err(FaultError::UnexpectedAmount(kind)),
            None => ReadAmount::None,
        },
        Amount::Length => match parse_signed_duration(need()?) {
            Ok(v) if v < 0 => return Err(FaultError::NegativeLength(kind)),
            Ok(v) => ReadAmount::Length(SimDuration(v.unsigned_abs())),
            Err(e) => return Err(bad(e)),
        },
        Amount::Step => ReadAmount::Step(parse_signed_duration(need()?).map_err(bad)?),
        Amount::Rate => {
            let ppm = need()?
                .strip_suffix("ppm")
                .ok_or(bad(ValueError::NotANumber))?;
            let (negative, digits) = match ppm.strip_prefix('-') {
                Some(rest) => (true, rest),
                None => (false, ppm.strip_prefix('+').unwrap_or(ppm)),
            };
            let magnitude = parse_whole(digits)
                .map_err(bad)
                .and_then(|v| i32::try_from(v).map_err(|_| bad(ValueError::TooLarge)))?;
            ReadAmount::Rate(if negative { -magnitude } else { magnitude })
        }
    })
}

/// Builds the fault of `kind` on `target` with `amount` (already read for that kind).
fn build(kind: FaultKind, target: &str, amount: ReadAmount) -> Result<Fault, FaultError> {
    build_on(kind, target, amount).ok_or(FaultError::BadNode(kind))
}

/// The fault [`build`] makes, or `None` when `target` is not what `kind` takes.
fn build_on(kind: FaultKind, target: &str, amount: ReadAmount) -> Option<Fault> {
    let length = match amount {
        ReadAmount::Length(d) => d,
        _ => SimDuration::ZERO,
    };
    Some(match (kind, amount) {
        (FaultKind::Pause | FaultKind::PauseInWritePath, _) => Fault::Pause {
            client: parse_client(target)?,
            duration: length,
            in_write_path: kind == FaultKind::PauseInWritePath,
        },
        (FaultKind::Partition, _) => {
            let (a, b) = parse_pair(target)?;
            Fault::Partition {
                a,
                b,
                duration: length,
            }
        }
        (FaultKind::DelayNextPacket, _) => {
            let (from, to) = parse_pair(target)?;
            Fault::DelayNextPacket {
                from,
                to,
                extra: length,
            }
        }
        (FaultKind::ClockStep, ReadAmount::Step(by_micros)) => Fault::ClockStep {
            node: parse_node(target)?,
            by_micros,
        },
        (FaultKind::ClockDrift, ReadAmount::Rate(ppm)) => Fault::ClockDrift {
            node: parse_node(target)?,
            ppm,
        },
        (FaultKind::Crash, _) => Fault::Crash {
            client: parse_client(target)?,
        },
        (FaultKind::RevokeLease, _) if target.is_empty() => Fault::RevokeLease,
        _ => return None,
    })
}

/// Reads a fault in its textual form.
pub fn parse_fault(text: &str) -> Result<TimedFault, FaultError> {
    let pieces = split(text)?;
    let at = SimTime(parse_duration(pieces.time).map_err(FaultError::BadTime)?);
    let amount = read_amount(pieces.kind, pieces.amount)?;
    let fault = build(pieces.kind, pieces.target, amount)?;
    Ok(TimedFault { at, fault })
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
    fn every_kind_prints_its_keyword_and_reads_back() {
        for kind in FaultKind::ALL {
            let fault = match kind {
                FaultKind::Pause | FaultKind::PauseInWritePath => Fault::Pause {
                    client: ClientId::B,
                    duration: SimDuration::from_micros(1_500_001),
                    in_write_path: kind == FaultKind::PauseInWritePath,
                },
                FaultKind::Partition => Fault::Partition {
                    a: NodeId::Storage,
                    b: NodeId::Client(ClientId::A),
                    duration: SimDuration::ZERO,
                },
                FaultKind::DelayNextPacket => Fault::DelayNextPacket {
                    from: NodeId::Client(ClientId(7)),
                    to: NodeId::Service,
                    extra: SimDuration::from_millis(250),
                },
                FaultKind::ClockStep => Fault::ClockStep {
                    node: NodeId::Service,
                    by_micros: -250,
                },
                FaultKind::ClockDrift => Fault::ClockDrift {
                    node: NodeId::Client(ClientId::A),
                    ppm: 0,
                },
                FaultKind::Crash => Fault::Crash {
                    client: ClientId(2),
                },
                FaultKind::RevokeLease => Fault::RevokeLease,
            };
            assert_eq!(fault.kind(), kind);
            let timed = TimedFault {
                at: SimTime(3),
                fault,
            };
            let text = print_fault(&timed);
            assert!(text.starts_with(kind.keyword()), "{text}");
            assert_eq!(parse_fault(&text), Ok(timed), "{text}");
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
        use FaultKind::*;
        let cases = [
            ("pause:A@2s-15s", FaultError::NegativeLength(Pause)),
            ("pause:A@2s", FaultError::NoAmount(Pause)),
            ("pause:A", FaultError::NoTime),
            ("explode:A@2s", FaultError::UnknownKind),
            ("pause:a@2s+1s", FaultError::BadNode(Pause)),
            ("pause:service@2s+1s", FaultError::BadNode(Pause)),
            ("partition:A@2s+1s", FaultError::BadNode(Partition)),
            ("pause:A@-2s+1s", FaultError::BadTime(ValueError::Negative)),
            (
                "pause:A@NaN+1s",
                FaultError::BadTime(ValueError::NotANumber),
            ),
            (
                "pause:A@2s+1e99s",
                FaultError::BadAmount(Pause, ValueError::TooLarge),
            ),
            (
                "drift:A@0s+99999999999ppm",
                FaultError::BadAmount(ClockDrift, ValueError::TooLarge),
            ),
            ("crash:A@2s+1s", FaultError::UnexpectedAmount(Crash)),
            ("revoke:A@2s", FaultError::BadNode(RevokeLease)),
            ("<script>alert(1)</script>", FaultError::UnknownKind),
        ];
        for (text, error) in cases {
            assert_eq!(parse_fault(text), Err(error), "{text}");
        }
    }
}
