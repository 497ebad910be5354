//! No write after lost: once a client's lost flag is set (its lifecycle went Lost), it puts
//! no write on the wire until it holds a new lease.
//!
//! A learner's client is judged by the same measure: what the client itself could know. Its
//! lost flag is what its own `node.lost()` says; but since a client's word is not trusted,
//! the checker also sets the flag where the client should have, from the trace alone:
//! - a NOT_OWNER answer that reached its code ends that token for it, whether or not it said
//!   "lost" (the built-in client sets its flag at that very answer);
//! - so does its own monotonic clock (replayed from the drift faults that hit its node)
//!   showing more than T since it sent the acquire or renew that last succeeded for that
//!   token. The service's expiry is at least T after that send, so every sound safe deadline
//!   (the built-in client's is that send + T − the drift margin) has passed by then. The one
//!   write a write-path pause holds is judged when the client issued it, before the pause
//!   froze it (the trace records it there), as the built-in client's is;
//! - and so does a release it sent for that token: it let go of the lease itself.
//!
//! What only the lock service saw (its clock jumped, an administrator revoked the lease) is
//! no loss the client could have noticed: fencing is what protects the data then, and the
//! other checks judge it.

use super::ViolationDetail;
use crate::model::client::Lifecycle;
use crate::model::faults::Fault;
use crate::model::ids::{FencingToken, NodeId, RequestId};
use crate::model::msg::Message;
use crate::model::time::{LocalTime, NodeClock, SimDuration, SimTime};
use crate::model::trace::{Event, EventKind};

/// An acquire or renew a learner's client sent and has not heard answered yet.
#[derive(Clone, Copy, Debug)]
struct Asked {
    req: RequestId,
    /// When it was sent, in real time and on the client's monotonic clock.
    sent_at: SimTime,
    mono: LocalTime,
    /// The TTL an acquire asked for (a renew extends by the lease's).
    ttl: Option<SimDuration>,
}

/// The lease a learner's client last heard granted or renewed.
#[derive(Clone, Copy, Debug)]
struct Basis {
    token: FencingToken,
    ttl: SimDuration,
    /// The latest send, among its requests that succeeded, in real time and on its clock.
    sent_at: SimTime,
    mono: LocalTime,
}

/// What the checker knows of one learner's client beyond its lost flag.
#[derive(Clone, Debug, Default)]
struct Heard {
    /// Frozen: a packet that arrives waits in its socket buffer, unread.
    paused: bool,
    /// The latest NOT_OWNER its code read: when, and for which token.
    not_owner: Option<(SimTime, FencingToken)>,
    /// The latest release it sent: when, and for which token.
    released: Option<(SimTime, FencingToken)>,
    /// Its node's clocks, replayed from the clock faults in the trace.
    clock: NodeClock,
    /// Its acquires and renews still unanswered.
    asked: Vec<Asked>,
    /// The lease whose safe deadline it should keep.
    basis: Option<Basis>,
}

/// At most this many unanswered requests are remembered per client (the oldest are
/// forgotten: an answer to one of them then extends nothing, which only spares the client).
const ASKED_KEPT: usize = 32;

impl Heard {
    /// The client sent `msg` at `at`.
    fn sent(&mut self, at: SimTime, msg: Message) {
        let (req, ttl) = match msg {
            Message::Acquire { req, ttl } => (req, Some(ttl)),
            Message::Renew { req, .. } => (req, None),
            Message::Release { token, .. } => return self.released = Some((at, token)),
            _ => return,
        };
        if self.asked.len() >= ASKED_KEPT {
            self.asked.remove(0);
        }
        self.asked.retain(|a| a.req != req);
        self.asked.push(Asked {
            req,
            sent_at: at,
            mono: self.clock.mono_at(at),
            ttl,
        });
    }

    /// `msg` reached the client's code at `at`.
    fn read(&mut self, at: SimTime, msg: Message) {
        let (req, token) = match msg {
            Message::NotOwner { req, token } => {
                self.asked.retain(|a| a.req != req);
                return self.not_owner = Some((at, token));
            }
            Message::Granted { req, token } | Message::RenewOk { req, token } => (req, token),
            Message::Busy { req } | Message::ReleaseReply { req, .. } => {
                return self.asked.retain(|a| a.req != req)
            }
            _ => return,
        };
        let Some(i) = self.asked.iter().position(|a| a.req == req) else {
            return;
        };
        let asked = self.asked.remove(i);
        let same = self.basis.filter(|b| b.token == token);
        let ttl = match (asked.ttl, same) {
            (Some(ttl), _) => ttl,
            (None, Some(b)) => b.ttl,
            // A renew of a lease it never heard granted: nothing to measure from.
            (None, None) => return,
        };
        // A late answer to an earlier request never moves the basis back.
        let later = same.is_none_or(|b| asked.mono >= b.mono);
        self.basis = Some(match same {
            Some(b) if !later => Basis { ttl, ..b },
            _ => Basis {
                token,
                ttl,
                sent_at: asked.sent_at,
                mono: asked.mono,
            },
        });
    }

    /// The deadline violation of a write with `token` issued at `at`, if it is one.
    fn past_deadline(&self, at: SimTime, token: FencingToken) -> Option<(SimTime, SimDuration)> {
        let b = self.basis.filter(|b| b.token == token)?;
        let elapsed = self.clock.mono_at(at).0 - b.mono.0;
        (elapsed > b.ttl.0 as i64).then_some((b.sent_at, b.ttl))
    }
}

/// The no-write-after-lost checker.
#[derive(Clone, Debug)]
pub(crate) struct NoWriteAfterLost {
    /// Per client: when its lost flag was set, and for which lease.
    lost: Vec<Option<(SimTime, Option<FencingToken>)>>,
    /// Per client, when judging learners' clients: the NOT_OWNER answers it read.
    heard: Option<Vec<Heard>>,
}

impl NoWriteAfterLost {
    /// A checker for `clients` clients.
    pub(crate) fn new(clients: usize) -> NoWriteAfterLost {
        NoWriteAfterLost {
            lost: vec![None; clients],
            heard: None,
        }
    }

    /// The checker for learner clients: a NOT_OWNER the client read sets its flag too.
    pub(crate) fn judging_learners(clients: usize) -> NoWriteAfterLost {
        NoWriteAfterLost {
            heard: Some(vec![Heard::default(); clients]),
            ..NoWriteAfterLost::new(clients)
        }
    }

    /// Reads what a client sent, what reached its code or froze it, and the faults that
    /// move its clock (only when judging learners).
    #[inline]
    pub(crate) fn observe_heard(&mut self, e: &Event) {
        let Some(heard) = &mut self.heard else {
            return;
        };
        if let EventKind::Fault {
            fault:
                Fault::ClockDrift {
                    node: NodeId::Client(c),
                    ppm,
                },
        } = e.kind
        {
            if let Some(h) = heard.get_mut(c.index()) {
                h.clock.set_drift(e.at, ppm);
            }
            return;
        }
        let NodeId::Client(client) = e.node else {
            return;
        };
        let Some(heard) = heard.get_mut(client.index()) else {
            return;
        };
        let msg = match e.kind {
            EventKind::Paused { .. } => return heard.paused = true,
            EventKind::Woke => return heard.paused = false,
            EventKind::Sent { msg, .. } => return heard.sent(e.at, msg),
            // A packet that arrived at a frozen client is read when it wakes (`Read`).
            EventKind::Delivered { msg, .. } if !heard.paused => msg,
            EventKind::Read { msg, .. } => msg,
            _ => return,
        };
        heard.read(e.at, msg);
    }

    /// Reads one event.
    #[inline]
    pub(crate) fn observe(&mut self, e: &Event) -> Option<ViolationDetail> {
        let NodeId::Client(client) = e.node else {
            return None;
        };
        let lost = self.lost.get_mut(client.index())?;
        match e.kind {
            EventKind::Lifecycle {
                to: Lifecycle::Lost(_),
                token,
            } => *lost = Some((e.at, token)),
            EventKind::Lifecycle {
                to: Lifecycle::Holding,
                token,
            } if lost.is_some_and(|(_, t)| t != token) => *lost = None,
            EventKind::WriteIssued { token, .. } => {
                if let Some((lost_at, _)) = *lost {
                    return Some(ViolationDetail::WriteAfterLost {
                        client,
                        token,
                        lost_at,
                    });
                }
                let heard = self.heard.as_ref()?.get(client.index())?;
                if let Some((told_at, _)) = heard.not_owner.filter(|(_, t)| *t == token) {
                    return Some(ViolationDetail::WriteAfterNotOwner {
                        client,
                        token,
                        told_at,
                    });
                }
                if let Some((released_at, _)) = heard.released.filter(|(_, t)| *t == token) {
                    return Some(ViolationDetail::WriteAfterRelease {
                        client,
                        token,
                        released_at,
                    });
                }
                return heard.past_deadline(e.at, token).map(|(sent_at, ttl)| {
                    ViolationDetail::WriteAfterDeadline {
                        client,
                        token,
                        sent_at,
                        ttl,
                    }
                });
            }
            _ => {}
        }
        None
    }
}
