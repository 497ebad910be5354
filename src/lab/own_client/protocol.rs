//! What passes between the laboratory and a learner's client, as plain data: the calls the
//! lab makes ([`Input`]), the answers it hands over ([`Answer`]), the settings a client is
//! built with ([`Settings`]) and the actions it may ask for ([`Action`]). Times are integer
//! microseconds. The engine (`src/bin/client_worker.rs`) carries these across to the
//! runtime in the snippet sandbox (`www/snippets/sandbox/client-runtime.js`), mostly as
//! numbers; anything it reads back that is not one of these is refused, never trusted.

use serde::{Deserialize, Serialize};

use crate::model::{ClientConfig, LostReason, Message, SimDuration};

/// Why the lab calls the learner's code.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum InputKind {
    /// `start(node)`: once, at the client's start time.
    Start,
    /// `reply(node, answer)`: an answer from the lock service.
    Reply,
    /// `timer(node, name)`: a timer the client armed fell due.
    Timer,
}

/// What kind of answer the lock service sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum AnswerKind {
    /// The lock is yours, with this token.
    Granted,
    /// Someone else holds it.
    Busy,
    /// The renew extended the lease.
    Renewed,
    /// The token no longer holds the lock: definitive.
    NotOwner,
    /// The answer to a release.
    Released,
}

/// An answer from the lock service, as the learner's `reply` handler sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Answer {
    /// Which answer.
    pub kind: AnswerKind,
    /// The request id the call returned.
    pub request: u32,
    /// The token (granted, renewed, not owner).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub token: Option<u64>,
    /// Whether the lock was deleted (released).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub deleted: Option<bool>,
}

impl Answer {
    /// The answer a message from the lock service carries, if it is one.
    pub fn of(msg: &Message) -> Option<Answer> {
        let (kind, request, token, deleted) = match *msg {
            Message::Granted { req, token } => (AnswerKind::Granted, req, Some(token.0), None),
            Message::Busy { req } => (AnswerKind::Busy, req, None, None),
            Message::RenewOk { req, token } => (AnswerKind::Renewed, req, Some(token.0), None),
            Message::NotOwner { req, token } => (AnswerKind::NotOwner, req, Some(token.0), None),
            Message::ReleaseReply { req, deleted } => {
                (AnswerKind::Released, req, None, Some(deleted))
            }
            Message::Acquire { .. }
            | Message::Renew { .. }
            | Message::Release { .. }
            | Message::Write { .. } => return None,
        };
        Some(Answer {
            kind,
            request: request.0,
            token,
            deleted,
        })
    }
}

/// One call of the learner's code: why, and what the node's clocks read.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Input<'a> {
    /// Which handler.
    pub kind: InputKind,
    /// The node's monotonic clock (µs).
    pub mono: i64,
    /// The node's wall clock (µs).
    pub wall: i64,
    /// For `reply`.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub answer: Option<Answer>,
    /// For `timer`: its name.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub timer: Option<&'a str>,
}

/// The lab form's numbers a client is built with (µs), as `node.settings` shows them in
/// milliseconds.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Settings {
    /// T, the lease length to ask for.
    pub ttl: u64,
    /// Renew this long after the send time of the last successful acquire or renew.
    pub renew_every: u64,
    /// Retry a timed-out renew this long after the failed attempt was sent.
    pub retry_every: u64,
    /// Retry an acquire this long after the last attempt was sent.
    pub acquire_retry: u64,
    /// Give up waiting for an answer after this long.
    pub request_timeout: u64,
    /// Time between writes.
    pub work_every: u64,
    /// Safe deadline = send time + T − this margin.
    pub drift_margin: u64,
    /// Release politely after holding this long, if set.
    pub release_after: Option<u64>,
}

impl Settings {
    /// The settings of a client configured as `cfg`.
    pub fn of(cfg: &ClientConfig) -> Settings {
        Settings {
            ttl: cfg.ttl.as_micros(),
            renew_every: cfg.renew_interval.as_micros(),
            retry_every: cfg.retry_interval.as_micros(),
            acquire_retry: cfg.acquire_retry.as_micros(),
            request_timeout: cfg.request_timeout.as_micros(),
            work_every: cfg.work_slice.as_micros(),
            drift_margin: cfg.drift_margin.as_micros(),
            release_after: cfg.release_after.map(SimDuration::as_micros),
        }
    }
}

/// Why the learner's client says it lost the lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum LossReason {
    /// The service answered NOT_OWNER.
    NotOwner,
    /// Its safe deadline passed.
    Deadline,
}

impl LossReason {
    /// The model's reason for the lifecycle drawn.
    pub fn lost(self) -> LostReason {
        match self {
            LossReason::NotOwner => LostReason::NotOwner,
            LossReason::Deadline => LostReason::DeadlinePassed,
        }
    }
}

/// What a learner's client may ask for in a handler.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "do", rename_all = "snake_case", deny_unknown_fields)]
pub enum Action {
    /// ACQUIRE(ttl) to the lock service.
    Acquire {
        /// The lease length asked for (µs).
        ttl: u64,
    },
    /// RENEW(token).
    Renew {
        /// The token to extend.
        token: u64,
    },
    /// RELEASE(token).
    Release {
        /// The token to release.
        token: u64,
    },
    /// One write to storage carrying `token`.
    Write {
        /// The fencing token the write carries.
        token: u64,
    },
    /// Arm timer `name` on the monotonic clock, `delay` from now.
    After {
        /// The timer's name.
        name: String,
        /// How long from now (µs).
        delay: u64,
    },
    /// Arm timer `name` to fire when the wall clock reads `at`.
    AtWall {
        /// The timer's name.
        name: String,
        /// The wall reading (µs).
        at: i64,
    },
    /// Disarm timer `name`.
    Cancel {
        /// The timer's name.
        name: String,
    },
    /// The client declares its lost flag set.
    Lost {
        /// Why.
        reason: LossReason,
    },
}

/// What one call of the learner's code gave back.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Handled {
    /// It returned, asking for these actions, and printed these lines.
    Returned {
        /// The actions, in the order asked.
        actions: Vec<Action>,
        /// Lines printed.
        #[serde(default)]
        output: Vec<String>,
    },
    /// It threw, after printing these lines.
    Threw {
        /// The error as the language tells it, and the learner's line.
        error: Thrown,
        /// Lines printed before it threw.
        #[serde(default)]
        output: Vec<String>,
    },
}

/// An exception in the learner's code.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Thrown {
    /// The error's text.
    pub text: String,
    /// The learner's line (0 when unknown).
    #[serde(default)]
    pub line: u32,
    /// Thrown by the file's top-level code, as the lab made the client, not by a handler.
    /// Always written: a report's codec (bincode) reads fields by position, not by name.
    #[serde(default)]
    pub top_level: bool,
}
