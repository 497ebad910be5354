//! Single holder: the service never has two unexpired holders. Every grant and renewal is a
//! promise of a TTL from that moment on the service's own monotonic clock (the reading each
//! promise event carries); a promise that starts while another still runs is a violation.

use super::ViolationDetail;
use crate::model::ids::{ClientId, FencingToken};
use crate::model::service::{LeaseEnd, ServiceEvent};
use crate::model::time::{LocalTime, SimDuration};
use crate::model::trace::{Event, EventKind};

/// One lease as the checker saw the service promise it.
#[derive(Clone, Copy, Debug)]
struct Promise {
    holder: ClientId,
    token: FencingToken,
    /// The promised TTL ends here, on the service's monotonic clock.
    until: LocalTime,
    /// The holder released it or an administrator revoked it: the promise is void.
    void: bool,
    /// The service said the lease ended (expired, released or revoked).
    ended: bool,
}

/// The single-holder checker.
#[derive(Clone, Debug)]
pub(crate) struct SingleHolder {
    ttl: SimDuration,
    promises: Vec<Promise>,
}

impl SingleHolder {
    /// A checker for leases of `ttl`.
    pub(crate) fn new(ttl: SimDuration) -> SingleHolder {
        SingleHolder {
            ttl,
            promises: Vec::with_capacity(4),
        }
    }

    /// Reads one event; a promise overlapping another is the violation.
    #[inline]
    pub(crate) fn observe(&mut self, e: &Event) -> Option<ViolationDetail> {
        let EventKind::Service(ev) = e.kind else {
            return None;
        };
        match ev {
            ServiceEvent::Granted {
                client,
                token,
                mono,
            }
            | ServiceEvent::Regranted {
                client,
                token,
                mono,
            }
            | ServiceEvent::Renewed {
                client,
                token,
                mono,
            } => self.promised(mono, client, token),
            ServiceEvent::Ended { token, how, .. } => {
                if let Some(p) = self.promises.iter_mut().find(|p| p.token == token) {
                    p.ended = true;
                    p.void |= how != LeaseEnd::Expired;
                }
                None
            }
            ServiceEvent::Busy { .. } | ServiceEvent::NotOwner { .. } => None,
        }
    }

    /// The service promised `token` to `client` for a TTL from `mono`: no other promise may
    /// still be running.
    fn promised(
        &mut self,
        mono: LocalTime,
        client: ClientId,
        token: FencingToken,
    ) -> Option<ViolationDetail> {
        self.promises
            .retain(|p| !p.void && (p.until > mono || !p.ended));
        // Extending a promise that still runs starts no new holding; a grant, or a renewal
        // that brings back a lapsed lease, does, and must not overlap another promise.
        let extends = self
            .promises
            .iter()
            .any(|p| p.token == token && p.holder == client && p.until > mono && !p.ended);
        let overlap = self
            .promises
            .iter()
            .filter(|p| !extends && p.token != token && p.until > mono)
            .max_by_key(|p| p.until)
            .map(|p| ViolationDetail::TwoHolders {
                previous: p.holder,
                previous_token: p.token,
                new: client,
                new_token: token,
                remaining: SimDuration(p.until.0.saturating_sub(mono.0).max(0) as u64),
            });
        // Saturating: the readings of a trace from a link are untrusted.
        let until = LocalTime(
            mono.0
                .saturating_add(self.ttl.0.min(i64::MAX as u64) as i64),
        );
        match self.promises.iter_mut().find(|p| p.token == token) {
            Some(p) => {
                p.holder = client;
                p.until = until;
                p.ended = false;
            }
            None => self.promises.push(Promise {
                holder: client,
                token,
                until,
                void: false,
                ended: false,
            }),
        }
        overlap
    }
}
