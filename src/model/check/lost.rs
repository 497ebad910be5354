//! No write after lost: once a client's lost flag is set (its lifecycle went Lost), it puts
//! no write on the wire until it holds a new lease.
//!
//! A learner's client is judged by the same measure: what the client itself could know. Its
//! lost flag is what its own `node.lost()` says; and since a client's word is not trusted,
//! a NOT_OWNER answer that reached its code ends that token for it too, whether or not it
//! said "lost" (the built-in client sets its flag at that very answer). What only the lock
//! service saw (its clock jumped, an administrator revoked the lease) is no loss the client
//! could have noticed: fencing is what protects the data then, and the other checks judge it.

use super::ViolationDetail;
use crate::model::client::Lifecycle;
use crate::model::ids::{FencingToken, NodeId};
use crate::model::msg::Message;
use crate::model::time::SimTime;
use crate::model::trace::{Event, EventKind};

/// What the checker knows of one learner's client beyond its lost flag.
#[derive(Clone, Copy, Debug, Default)]
struct Heard {
    /// Frozen: a packet that arrives waits in its socket buffer, unread.
    paused: bool,
    /// The latest NOT_OWNER its code read: when, and for which token.
    not_owner: Option<(SimTime, FencingToken)>,
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

    /// Reads what reached a client's code, or froze it (only when judging learners).
    #[inline]
    pub(crate) fn observe_heard(&mut self, e: &Event) {
        let (Some(heard), NodeId::Client(client)) = (&mut self.heard, e.node) else {
            return;
        };
        let Some(heard) = heard.get_mut(client.index()) else {
            return;
        };
        let msg = match e.kind {
            EventKind::Paused { .. } => return heard.paused = true,
            EventKind::Woke => return heard.paused = false,
            // A packet that arrived at a frozen client is read when it wakes (`Read`).
            EventKind::Delivered { msg, .. } if !heard.paused => msg,
            EventKind::Read { msg, .. } => msg,
            _ => return,
        };
        if let Message::NotOwner { token, .. } = msg {
            heard.not_owner = Some((e.at, token));
        }
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
                return (heard.not_owner)
                    .filter(|(_, t)| *t == token)
                    .map(|(told_at, _)| ViolationDetail::WriteAfterNotOwner {
                        client,
                        token,
                        told_at,
                    });
            }
            _ => {}
        }
        None
    }
}
