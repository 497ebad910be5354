//! No write after lost: once a client's lost flag is set (its lifecycle went Lost), it puts
//! no write on the wire until it holds a new lease.

use super::ViolationDetail;
use crate::model::client::Lifecycle;
use crate::model::ids::{FencingToken, NodeId};
use crate::model::time::SimTime;
use crate::model::trace::{Event, EventKind};

/// The no-write-after-lost checker.
#[derive(Clone, Debug)]
pub(crate) struct NoWriteAfterLost {
    /// Per client: when its lost flag was set, and for which lease.
    lost: Vec<Option<(SimTime, Option<FencingToken>)>>,
}

impl NoWriteAfterLost {
    /// A checker for `clients` clients.
    pub(crate) fn new(clients: usize) -> NoWriteAfterLost {
        NoWriteAfterLost {
            lost: vec![None; clients],
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
                return lost.map(|(lost_at, _)| ViolationDetail::WriteAfterLost {
                    client,
                    token,
                    lost_at,
                })
            }
            _ => {}
        }
        None
    }
}
