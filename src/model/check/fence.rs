//! The checks on what storage accepted: no stale token accepted (it applies with fencing on)
//! and accepted writes ordered by token (the real corruption measure, with or without
//! fencing). Both read the same fact, a token stored below one already stored, so each is a
//! [`StaleWrites`] of its own, with its own record of the highest token stored.

use super::ViolationDetail;
use crate::model::ids::FencingToken;
use crate::model::storage::WriteVerdict;
use crate::model::trace::{Event, EventKind};

/// The highest token storage has accepted, as an outsider counts it.
#[derive(Clone, Copy, Debug, Default)]
pub(crate) struct HighestAccepted(Option<FencingToken>);

impl HighestAccepted {
    /// Storage accepted `token`: the higher token already stored if it is stale.
    #[inline]
    pub(crate) fn accept(&mut self, token: FencingToken) -> Option<FencingToken> {
        let stale_over = self.0.filter(|&h| token < h);
        if stale_over.is_none() {
            self.0 = Some(token);
        }
        stale_over
    }
}

/// A checker of the accepted writes' tokens: a write stored below a token already stored
/// is the violation.
#[derive(Clone, Debug, Default)]
pub(crate) struct StaleWrites(HighestAccepted);

impl StaleWrites {
    /// Reads one event.
    #[inline]
    pub(crate) fn observe(&mut self, e: &Event) -> Option<ViolationDetail> {
        let EventKind::Write(w) = e.kind else {
            return None;
        };
        if w.verdict != WriteVerdict::Accepted {
            return None;
        }
        self.0
            .accept(w.token)
            .map(|highest| ViolationDetail::StaleAccepted {
                client: w.client,
                token: w.token,
                highest,
            })
    }
}
