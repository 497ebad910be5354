//! How a handler call and the actions it asks for cross between the engine
//! (`src/bin/client_worker.rs`) and the sandbox's runtime
//! (`www/snippets/sandbox/client-runtime.js`) as numbers: a search makes hundreds of
//! thousands of calls, too many to pass as text. The codes and the runtime's limits are
//! defined here once; the engine hands them to the runtime as a [`Table`] when it loads, and
//! reads every number that comes back against the same codes.

use serde::{Serialize, Serializer};

use super::machine::{
    During, MAX_ACTIONS_PER_CALL, MAX_LINE_CHARS, MAX_OUTPUT_LINES, MAX_TIMER_NAME,
};
use super::protocol::{AnswerKind, InputKind, LossReason};
use crate::lesson::content::RUNTIME_WORDS;

/// Numbers per action in the runtime's buffer: the op code and two arguments.
pub const SLOT: usize = 3;

/// The handler a call is for, by its code (the index).
pub const KINDS: [InputKind; 3] = [InputKind::Start, InputKind::Reply, InputKind::Timer];

/// The code, after [`KINDS`], with which the worker tells that a client is being made: its
/// file's top-level code is running. The engine never calls a handler by it.
pub const TOP_LEVEL: usize = KINDS.len();

/// The kind of a reply's answer, by its code (the index).
pub const ANSWERS: [AnswerKind; 5] = [
    AnswerKind::Granted,
    AnswerKind::Busy,
    AnswerKind::Renewed,
    AnswerKind::NotOwner,
    AnswerKind::Released,
];

/// The reason a `lost` action gives, by its code (the index).
pub const LOSSES: [LossReason; 2] = [LossReason::Deadline, LossReason::NotOwner];

/// What an action in the buffer asks for: the node call that wrote it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Op {
    /// `acquire(ttl)`: a = the lease length (µs).
    Acquire,
    /// `renew(token)`: a = the token.
    Renew,
    /// `release(token)`: a = the token.
    Release,
    /// `write(token)`: a = the token.
    Write,
    /// `after(delay, name)`: a = the name's number, b = the delay (µs).
    After,
    /// `at_wall(at, name)`: a = the name's number, b = the wall reading (µs).
    AtWall,
    /// `cancel(name)`: a = the name's number.
    Cancel,
    /// `lost(reason)`: a = the reason's code in [`LOSSES`].
    Lost,
}

/// Ops by their code (the index). Code 0 is no op, so a slot left at zero is refused.
pub const OPS: [Option<Op>; 9] = [
    None,
    Some(Op::Acquire),
    Some(Op::Renew),
    Some(Op::Release),
    Some(Op::Write),
    Some(Op::After),
    Some(Op::AtWall),
    Some(Op::Cancel),
    Some(Op::Lost),
];

/// The code of `kind` in [`KINDS`].
pub fn kind_code(kind: InputKind) -> u32 {
    code_of(&KINDS, kind)
}

/// The code of `kind` in [`ANSWERS`].
pub fn answer_code(kind: AnswerKind) -> u32 {
    code_of(&ANSWERS, kind)
}

/// The op with code `code`, if there is one.
pub fn op(code: u64) -> Option<Op> {
    OPS.get(usize::try_from(code).ok()?).copied().flatten()
}

/// The loss reason with code `code`, if there is one.
pub fn loss(code: u64) -> Option<LossReason> {
    LOSSES.get(usize::try_from(code).ok()?).copied()
}

/// The handler a call was for, from its codes as the worker tells them while a run goes:
/// the call's `kind`, its `x` (a reply's answer code) and, for a timer, its name. `None` for
/// codes that mean nothing, or a timer without its name.
pub fn during(kind: u64, x: u64, timer: Option<&str>) -> Option<During> {
    let kind = usize::try_from(kind).ok()?;
    if kind == TOP_LEVEL {
        return Some(During::TopLevel);
    }
    let input = KINDS.get(kind)?;
    Some(match input {
        InputKind::Start => During::Start,
        InputKind::Reply => During::Reply(*ANSWERS.get(usize::try_from(x).ok()?)?),
        InputKind::Timer => During::Timer(timer?.chars().take(MAX_TIMER_NAME).collect()),
    })
}

fn code_of<T: PartialEq>(table: &[T], item: T) -> u32 {
    let at = table.iter().position(|t| *t == item);
    // Every variant is in its table (tests below); a missing one would read as code 0.
    at.and_then(|i| u32::try_from(i).ok()).unwrap_or_default()
}

/// What the runtime needs to speak to the engine: every code by name (names as the
/// learner's code and the JSON actions spell them) and the limits it applies first.
#[derive(Clone, Debug, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Table {
    /// Handler names by call code.
    pub kinds: [InputKind; 3],
    /// The code that tells of a client's making ([`TOP_LEVEL`]).
    pub top_level: usize,
    /// Answer kinds by code.
    pub answers: [AnswerKind; 5],
    /// Loss reasons by code.
    pub losses: [LossReason; 2],
    /// Ops by code (null at 0).
    pub ops: [Option<Op>; 9],
    /// Numbers per action.
    pub slot: usize,
    /// Most actions one call may ask for.
    pub max_actions: usize,
    /// Most printed lines a run keeps.
    pub max_output_lines: usize,
    /// Longest printed line kept, in characters.
    pub max_line_chars: usize,
    /// Longest timer name, in characters.
    pub max_name_chars: usize,
    /// The sentences the runtime fills, by key.
    pub words: Words,
}

/// Sentences by key, an object to JavaScript ([`RUNTIME_WORDS`]).
#[derive(Clone, Copy, Debug)]
pub struct Words(pub &'static [(&'static str, &'static str)]);

impl Serialize for Words {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_map(self.0.iter().copied())
    }
}

/// The table the engine hands the runtime.
pub fn table() -> Table {
    Table {
        kinds: KINDS,
        top_level: TOP_LEVEL,
        answers: ANSWERS,
        losses: LOSSES,
        ops: OPS,
        slot: SLOT,
        max_actions: MAX_ACTIONS_PER_CALL,
        max_output_lines: MAX_OUTPUT_LINES,
        max_line_chars: MAX_LINE_CHARS,
        max_name_chars: MAX_TIMER_NAME,
        words: Words(RUNTIME_WORDS),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_code_reads_back_as_what_it_was_made_from() {
        for (code, kind) in KINDS.iter().enumerate() {
            assert_eq!(kind_code(*kind) as usize, code);
        }
        for (code, kind) in ANSWERS.iter().enumerate() {
            assert_eq!(answer_code(*kind) as usize, code);
        }
        for (code, reason) in LOSSES.iter().enumerate() {
            assert_eq!(loss(code as u64), Some(*reason));
        }
        for (code, entry) in OPS.iter().enumerate() {
            assert_eq!(op(code as u64), *entry);
        }
        assert_eq!(op(0), None);
        assert_eq!(op(OPS.len() as u64), None);
        assert_eq!(loss(LOSSES.len() as u64), None);
    }

    #[test]
    fn a_call_reads_back_as_the_handler_it_was_for() {
        let (start, reply, timer) = (
            u64::from(kind_code(InputKind::Start)),
            u64::from(kind_code(InputKind::Reply)),
            u64::from(kind_code(InputKind::Timer)),
        );
        assert_eq!(during(start, 9, None), Some(During::Start));
        let busy = u64::from(answer_code(AnswerKind::Busy));
        assert_eq!(
            during(reply, busy, None),
            Some(During::Reply(AnswerKind::Busy))
        );
        assert_eq!(during(reply, ANSWERS.len() as u64, None), None);
        let tick = Some(During::Timer("tick".into()));
        assert_eq!(during(timer, 0, Some("tick")), tick);
        assert_eq!(during(timer, 0, None), None);
        assert_eq!(during(TOP_LEVEL as u64, 0, None), Some(During::TopLevel));
        assert_eq!(during(TOP_LEVEL as u64 + 1, 0, Some("tick")), None);
        let long = "x".repeat(MAX_TIMER_NAME + 5);
        let Some(During::Timer(kept)) = during(timer, 0, Some(&long)) else {
            panic!("a timer");
        };
        assert_eq!(kept.chars().count(), MAX_TIMER_NAME);
    }
}
