//! The four safety checks and the run's measurements, as data: which check, when it broke
//! and the facts (the words for people live in `content/checks.toml`, rendered by
//! `crate::lesson::checks`). They are derived by [`Checkers`], fed the trace's events from
//! outside; no component reports its own violation.

pub mod checkers;
mod fence;
mod holder;
mod lost;
mod measures;
#[cfg(test)]
mod mutations;

pub use checkers::{Checkers, Found, Judging, Records};
pub(crate) use measures::Observations;

use super::ids::{ClientId, FencingToken, RequestId};
use super::time::{SimDuration, SimTime};

/// The four checks of the lesson.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum CheckId {
    /// The service never has two unexpired holders.
    SingleHolder,
    /// With fencing on, storage never accepts a stale token.
    NoStaleAccepted,
    /// Under the Prefer policy, no write is issued after the lost flag is set.
    NoWriteAfterLost,
    /// Accepted writes are ordered by token (the real corruption measure).
    OrderedByToken,
}

impl CheckId {
    /// All checks, in display order.
    pub const ALL: [CheckId; 4] = [
        CheckId::SingleHolder,
        CheckId::NoStaleAccepted,
        CheckId::NoWriteAfterLost,
        CheckId::OrderedByToken,
    ];

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

/// The facts of one violation, as the checkers saw them.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViolationDetail {
    /// The service granted or renewed a lease while another lease still had promised TTL
    /// left, counted on the service's own monotonic clock.
    TwoHolders {
        /// The earlier holder.
        previous: ClientId,
        /// Its token.
        previous_token: FencingToken,
        /// The new holder.
        new: ClientId,
        /// Its token.
        new_token: FencingToken,
        /// Promised TTL the earlier holder still had.
        remaining: SimDuration,
    },
    /// Storage accepted `token` after it had accepted the higher `highest`.
    StaleAccepted {
        /// The writer.
        client: ClientId,
        /// The stale token.
        token: FencingToken,
        /// The higher token already stored.
        highest: FencingToken,
    },
    /// A client issued a write after its lost flag was set at `lost_at`.
    WriteAfterLost {
        /// The writer.
        client: ClientId,
        /// Its token.
        token: FencingToken,
        /// When its lost flag was set.
        lost_at: SimTime,
    },
    /// A learner's client issued a write with a token after its code had read the lock
    /// service's NOT_OWNER for that token at `told_at`, without having said it lost it.
    WriteAfterNotOwner {
        /// The writer.
        client: ClientId,
        /// Its token.
        token: FencingToken,
        /// When the NOT_OWNER reached the client's code.
        told_at: SimTime,
    },
    /// A learner's client issued a write with a token when, by its own monotonic clock, more
    /// than `ttl` had passed since it sent (at `sent_at`) the acquire or renew for that token
    /// that last succeeded: past any sound safe deadline, so its lost flag should have been set.
    WriteAfterDeadline {
        /// The writer.
        client: ClientId,
        /// Its token.
        token: FencingToken,
        /// When it sent the request that last succeeded.
        sent_at: SimTime,
        /// The lease's TTL, T.
        ttl: SimDuration,
    },
    /// A learner's client issued a write with a token it had sent a release for, at
    /// `released_at`: letting go of the lease ends its writes with that token.
    WriteAfterRelease {
        /// The writer.
        client: ClientId,
        /// Its token.
        token: FencingToken,
        /// When it sent the release.
        released_at: SimTime,
    },
}

/// One broken check: which, when, and the facts.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Violation {
    /// The broken check.
    pub check: CheckId,
    /// When it broke.
    pub at: SimTime,
    /// What happened.
    pub detail: ViolationDetail,
}

/// The state of one check over a run (or up to a time).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum CheckStatus {
    /// Never broken.
    Holding,
    /// Does not apply under this policy (e.g. the stale-token check with fencing off).
    NotApplicable,
    /// Broken: the first violation and how many there were.
    Broken {
        /// The first violation.
        first: Violation,
        /// How many times it broke.
        count: u32,
    },
}

impl CheckStatus {
    /// True if broken.
    pub fn is_broken(&self) -> bool {
        matches!(self, CheckStatus::Broken { .. })
    }
}

/// One check and its status.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct CheckReport {
    /// Which check.
    pub check: CheckId,
    /// Its status.
    pub status: CheckStatus,
}

/// Measurements of a run, counted by the checkers' measures from the events (liveness and cost as
/// well as safety). [`super::RunStore::metrics_at`] gives the same figures as of any instant.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Metrics {
    /// Renew requests sent (renew traffic).
    pub renews_sent: u32,
    /// Renews whose OK reached the client while it was still waiting.
    pub renews_ok: u32,
    /// Renews answered NOT_OWNER while the client was still waiting.
    pub renews_not_owner: u32,
    /// Renews the client stopped waiting for with no answer (its request timed out or its
    /// safe deadline passed first).
    pub renews_timed_out: u32,
    /// Renews a live client is still waiting for (at most one a client): at the run's end,
    /// those sent too late for an answer to arrive.
    pub renews_awaiting: u32,
    /// Renews whose request or answer the network dropped while the client waited.
    pub renews_lost_on_wire: u32,
    /// Clients that went Lost.
    pub losses: u32,
    /// Losses while the service still held that client's lease: the lease was lost only in
    /// the client's mind (a pause or slow network ate the budget).
    pub false_losses: u32,
    /// Grants of a new token.
    pub grants: u32,
    /// Grants to another client after the previous holder stopped renewing (it died, was
    /// paused or cut off), not after a polite release.
    pub failovers: u32,
    /// Longest failover: from the previous holder's last effective moment at the service
    /// (its last grant or renewal) to the next client's grant.
    pub max_failover: Option<SimDuration>,
    /// Writes issued by clients.
    pub writes_issued: u32,
    /// Writes issued while the writer's lease was no longer current at the service (zombie
    /// writes, whatever storage then does with them).
    pub zombie_writes: u32,
    /// Writes storage accepted.
    pub writes_accepted: u32,
    /// Writes the fence rejected.
    pub writes_rejected: u32,
    /// Accepted writes whose token was below one already accepted (unfenced corruption).
    pub stale_accepted: u32,
}

/// What became of one renew request, as the client experienced it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum RenewOutcome {
    /// The OK reached the client while it waited.
    Ok(SimTime),
    /// NOT_OWNER reached the client while it waited.
    NotOwner(SimTime),
    /// The client stopped waiting at this time with no answer.
    TimedOut(SimTime),
    /// Still unanswered when the run ended or the client crashed.
    Unanswered,
}

/// One renew request from send to outcome (DESIGN.md: the per-renew outcome record).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RenewRecord {
    /// The renewing client.
    pub client: ClientId,
    /// Its request id.
    pub req: RequestId,
    /// When it was sent.
    pub sent_at: SimTime,
    /// What became of it.
    pub outcome: RenewOutcome,
    /// Whether the network dropped the request or its answer while the client waited.
    pub lost_on_wire: bool,
}

impl RenewRecord {
    /// When the outcome became known, if it did.
    pub fn settled_at(&self) -> Option<SimTime> {
        match self.outcome {
            RenewOutcome::Ok(t) | RenewOutcome::NotOwner(t) | RenewOutcome::TimedOut(t) => Some(t),
            RenewOutcome::Unanswered => None,
        }
    }
}

/// One failover: the lease passed from a holder that stopped renewing to another client.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Failover {
    /// The holder that stopped renewing.
    pub from: ClientId,
    /// The client granted next.
    pub to: ClientId,
    /// The previous holder's last effective moment: its last grant or renewal.
    pub last_effective: SimTime,
    /// When the next client was granted.
    pub granted_at: SimTime,
}

impl Failover {
    /// The time to failover.
    pub fn duration(&self) -> SimDuration {
        self.granted_at.saturating_since(self.last_effective)
    }
}

/// The first broken check of a run, the answer the counterexample search needs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct BrokenCheck {
    /// Which check.
    pub check: CheckId,
    /// When it first broke.
    pub at: SimTime,
}

/// The result of a checked run without a trace ([`super::Simulation::verdict`]): the first
/// broken check, if any, and the measurements.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Verdict {
    /// The earliest violation of any check (ties in [`CheckId::ALL`] order).
    pub first_broken: Option<BrokenCheck>,
    /// The run's measurements.
    pub metrics: Metrics,
    /// How many steps the simulation took (its cost, for the benchmarks).
    pub steps: u64,
}
