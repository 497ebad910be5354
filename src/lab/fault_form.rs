//! What the Faults form holds, read through the model's textual form of a fault: the form
//! writes its inputs as `kind:target@time±amount` and parses that with the same parser
//! share links use, so a fault typed in the form is exactly the one its link carries.

use crate::model::faults::text::{parse_fault, FaultError};
use crate::model::faults::{Amount, FaultKind, Targets};
use crate::model::{Fault, ScenarioProblem, SimTime};

/// The form's inputs, as typed or chosen.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FaultDraft {
    /// The kind of fault.
    pub kind: FaultKind,
    /// The node it hits (a node name: `A`, `service`, …), or the sending end of a link.
    pub node: String,
    /// The other end of a link.
    pub peer: String,
    /// When, in seconds unless it carries a unit; empty means at the cursor.
    pub at: String,
    /// The amount, in the kind's unit unless it carries one; a bare number means forward.
    pub amount: String,
}

impl Default for FaultDraft {
    fn default() -> Self {
        FaultDraft {
            kind: FaultKind::Pause,
            node: "A".to_owned(),
            peer: "service".to_owned(),
            at: String::new(),
            amount: "15".to_owned(),
        }
    }
}

/// `text` with a `+` in front unless it already has a sign.
fn signed(text: &str) -> String {
    if text.is_empty() || text.starts_with(['+', '-']) {
        text.to_owned()
    } else {
        format!("+{text}")
    }
}

impl FaultDraft {
    /// The draft in the textual form of a fault (at 0 s when the time is left empty).
    pub fn text(&self) -> String {
        let target = match self.kind.targets() {
            Targets::Nothing => String::new(),
            Targets::Client | Targets::Node => format!(":{}", self.node),
            Targets::Link => format!(":{}-{}", self.node, self.peer),
        };
        let at = match self.at.trim() {
            "" => "0s",
            at => at,
        };
        let amount = self.amount.trim();
        let amount = match self.kind.amount() {
            Amount::Nothing => String::new(),
            Amount::Length | Amount::Step => signed(amount),
            Amount::Rate if amount.is_empty() => String::new(),
            Amount::Rate => format!("{}ppm", signed(amount.trim_end_matches("ppm"))),
        };
        format!("{}{target}@{at}{amount}", self.kind.keyword())
    }

    /// The fault, and its time unless it is to go at the cursor.
    pub fn read(&self) -> Result<(Option<SimTime>, Fault), FaultError> {
        let timed = parse_fault(&self.text())?;
        let at = (!self.at.trim().is_empty()).then_some(timed.at);
        Ok((at, timed.fault))
    }
}

/// The input of the form a refusal is about, so the form can mark it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum DraftInput {
    /// The time.
    At,
    /// The amount.
    Amount,
}

impl DraftInput {
    /// The input a fault that cannot be read is wrong in (kind and nodes are chosen from
    /// lists, so only the two typed inputs can be).
    pub fn of_fault_error(error: &FaultError) -> Option<DraftInput> {
        match error {
            FaultError::NoTime | FaultError::BadTime(_) => Some(DraftInput::At),
            FaultError::NoAmount(_)
            | FaultError::NegativeLength(_)
            | FaultError::BadAmount(..)
            | FaultError::UnexpectedAmount(_) => Some(DraftInput::Amount),
            FaultError::UnknownKind | FaultError::BadNode(_) => None,
        }
    }

    /// The input a fault the run cannot take is wrong in, if it is one input's fault.
    pub fn of_problem(problem: &ScenarioProblem) -> Option<DraftInput> {
        match problem {
            ScenarioProblem::FaultAfterEnd { .. } => Some(DraftInput::At),
            ScenarioProblem::FaultOverLimit { .. } => Some(DraftInput::Amount),
            _ => None,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{ClientId, NodeId, SimDuration};

    fn draft(kind: FaultKind, node: &str, at: &str, amount: &str) -> FaultDraft {
        FaultDraft {
            kind,
            node: node.to_owned(),
            at: at.to_owned(),
            amount: amount.to_owned(),
            ..FaultDraft::default()
        }
    }

    #[test]
    fn a_clock_step_is_written_as_links_write_it() {
        let step = draft(FaultKind::ClockStep, "service", "2.5", "-8");
        assert_eq!(step.text(), "step:service@2.5-8");
        assert_eq!(
            step.read(),
            Ok((
                Some(SimTime::from_millis(2_500)),
                Fault::ClockStep {
                    node: NodeId::Service,
                    by_micros: -8_000_000
                }
            ))
        );
    }

    #[test]
    fn an_empty_time_means_the_cursor_and_a_missing_amount_is_named() {
        let pause = draft(FaultKind::Pause, "B", " ", "0.25");
        assert_eq!(
            pause.read(),
            Ok((
                None,
                Fault::Pause {
                    client: ClientId::B,
                    duration: SimDuration::from_millis(250),
                    in_write_path: false
                }
            ))
        );
        let empty = draft(FaultKind::Partition, "A", "1", "");
        assert_eq!(
            empty.read(),
            Err(FaultError::NoAmount(FaultKind::Partition))
        );
        let drift = draft(FaultKind::ClockDrift, "A", "0", "-250");
        assert_eq!(
            drift.read().map(|(_, f)| f),
            Ok(Fault::ClockDrift {
                node: NodeId::Client(ClientId::A),
                ppm: -250
            })
        );
    }

    #[test]
    fn a_refusal_marks_the_input_it_is_about() {
        let late = draft(FaultKind::Pause, "A", "1h", "1");
        let at = late.read().unwrap_err();
        assert_eq!(DraftInput::of_fault_error(&at), Some(DraftInput::At));
        let negative = draft(FaultKind::Partition, "A", "1", "-2");
        let amount = negative.read().unwrap_err();
        assert_eq!(
            DraftInput::of_fault_error(&amount),
            Some(DraftInput::Amount)
        );
    }

    #[test]
    fn only_a_fault_of_no_amount_changes_nothing() {
        let zero = |kind, amount: &str| draft(kind, "A", "1", amount).read().unwrap().1;
        for kind in [
            FaultKind::Pause,
            FaultKind::Partition,
            FaultKind::DelayNextPacket,
        ] {
            assert!(zero(kind, "0").changes_nothing(), "{kind:?}");
            assert!(!zero(kind, "0.001").changes_nothing(), "{kind:?}");
        }
        assert!(zero(FaultKind::ClockStep, "-0").changes_nothing());
        assert!(!zero(FaultKind::ClockDrift, "0").changes_nothing());
    }
}
