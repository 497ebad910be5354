//! No write after lost: once a client's lost flag is set (its lifecycle went Lost), it puts
//! no write on the wire until it holds a new lease. A learner's client is held to more: its
//! lease is also lost once the lock service has ended it, whether or not the client noticed
//! (a client that never says "lost" must not escape the check).

use super::ViolationDetail;
use crate::model::client::Lifecycle;
use crate::model::ids::{FencingToken, NodeId};
use crate::model::service::ServiceEvent;
use crate::model::time::SimTime;
use crate::model::trace::{Event, EventKind};

/// The no-write-after-lost checker.
#[derive(Clone, Debug)]
pub(crate) struct NoWriteAfterLost {
    /// Per client: when its lost flag was set, and for which lease.
    lost: Vec<Option<(SimTime, Option<FencingToken>)>>,
    /// Per client, when the service's leases are judged too: when its lease with a token ended.
    ended: Option<Vec<Option<(SimTime, FencingToken)>>>,
}

impl NoWriteAfterLost {
    /// A checker for `clients` clients.
    pub(crate) fn new(clients: usize) -> NoWriteAfterLost {
        NoWriteAfterLost {
            lost: vec![None; clients],
            ended: None,
        }
    }

    /// The checker for learner clients: a lease the service ended is lost too.
    pub(crate) fn judging_leases(clients: usize) -> NoWriteAfterLost {
        NoWriteAfterLost {
            ended: Some(vec![None; clients]),
            ..NoWriteAfterLost::new(clients)
        }
    }

    /// Reads one of the service's events (only when judging leases).
    #[inline]
    pub(crate) fn observe_service(&mut self, e: &Event) {
        let (Some(ended), EventKind::Service(ev)) = (&mut self.ended, e.kind) else {
            return;
        };
        match ev {
            ServiceEvent::Ended { client, token, .. } => {
                if let Some(slot) = ended.get_mut(client.index()) {
                    *slot = Some((e.at, token));
                }
            }
            ServiceEvent::Granted { client, .. } | ServiceEvent::Regranted { client, .. } => {
                if let Some(slot) = ended.get_mut(client.index()) {
                    *slot = None;
                }
            }
            _ => {}
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
                let ended = self.ended.as_ref()?.get(client.index())?;
                return ended.filter(|(_, t)| *t == token).map(|(ended_at, _)| {
                    ViolationDetail::WriteAfterLeaseEnded {
                        client,
                        token,
                        ended_at,
                    }
                });
            }
            _ => {}
        }
        None
    }
}
