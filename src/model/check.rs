//! The invariants checked during every run, their violations with plain-English
//! explanations (built lazily, only when a view asks), and the run's measurements.

use super::ids::{ClientId, FencingToken};
use super::time::{SimDuration, SimTime};

/// The four checks of the lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
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

    /// The check as a sentence for views.
    pub fn title(self) -> &'static str {
        match self {
            CheckId::SingleHolder => "The lock service never has two unexpired holders",
            CheckId::NoStaleAccepted => "With fencing on, storage accepts no stale token",
            CheckId::NoWriteAfterLost => "No write is issued after the lost flag is set",
            CheckId::OrderedByToken => "Accepted writes are ordered by fencing token",
        }
    }

    pub(crate) const fn index(self) -> usize {
        self as usize
    }
}

/// The facts of one violation; [`Violation::explanation`] turns them into words.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ViolationDetail {
    /// A grant while the previous lease still had promised TTL left on the service's
    /// monotonic clock (its expiry clock jumped).
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

impl Violation {
    /// What went wrong, in plain English.
    pub fn explanation(&self) -> String {
        match self.detail {
            ViolationDetail::TwoHolders { previous, previous_token, new, new_token, remaining } => format!(
                "At {} the lock service granted token {new_token} to client {new} although client \
                 {previous}'s lease (token {previous_token}) still had {remaining} of its promised TTL: \
                 the service's expiry clock jumped, so two clients held the lock at once.",
                self.at
            ),
            ViolationDetail::StaleAccepted { client, token, highest } => match self.check {
                CheckId::OrderedByToken => format!(
                    "At {} storage accepted client {client}'s write with token {token} after it had \
                     already stored a write with token {highest}: an old holder overwrote the new \
                     holder's data.",
                    self.at
                ),
                _ => format!(
                    "At {} fenced storage accepted client {client}'s stale token {token} although it \
                     had already seen token {highest}.",
                    self.at
                ),
            },
            ViolationDetail::WriteAfterLost { client, token, lost_at } => format!(
                "At {} client {client} issued a write with token {token} although its lost flag had \
                 been set at {lost_at}.",
                self.at
            ),
        }
    }

    /// What would have prevented it.
    pub fn prevention(&self) -> &'static str {
        match self.check {
            CheckId::SingleHolder => {
                "Expire leases on the service's monotonic clock; a wall clock can jump. \
                 Fencing at storage still protects the data when it happens."
            }
            CheckId::NoStaleAccepted | CheckId::OrderedByToken => {
                "Fence at storage: reject any write whose token is below the highest accepted. \
                 No client-side check can stop a write that was already past the check or on the wire."
            }
            CheckId::NoWriteAfterLost => {
                "Read the lost flag and the safe deadline immediately before every write."
            }
        }
    }
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

/// Measurements of a run.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Metrics {
    /// Simulation events processed.
    pub events: u64,
    /// Renew requests sent (renew traffic).
    pub renews_sent: u32,
    /// Renews answered OK.
    pub renews_ok: u32,
    /// Clients that went Lost.
    pub losses: u32,
    /// Losses while the service still held that client's lease: the lease was lost only in
    /// the client's mind (a pause or slow network ate the budget).
    pub false_losses: u32,
    /// Grants of a new token.
    pub grants: u32,
    /// Longest failover: from the previous holder's last acquire/renew at the service to the
    /// next client's grant.
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

/// Records violations as the world reports them.
#[derive(Clone, Debug)]
pub(crate) struct Checker {
    first: [Option<Violation>; 4],
    count: [u32; 4],
    applicable: [bool; 4],
}

impl Checker {
    pub(crate) fn new(fencing: bool, prefer: bool) -> Self {
        Checker {
            first: [None; 4],
            count: [0; 4],
            applicable: [true, fencing, prefer, true],
        }
    }

    /// Records a violation; returns true if the check applies (and so counts as broken).
    pub(crate) fn report(&mut self, v: Violation) -> bool {
        let i = v.check.index();
        if !self.applicable[i] {
            return false;
        }
        self.count[i] += 1;
        if self.first[i].is_none() {
            self.first[i] = Some(v);
        }
        true
    }

    pub(crate) fn reports(&self) -> [CheckReport; 4] {
        CheckId::ALL.map(|check| {
            let i = check.index();
            let status = match (self.applicable[i], self.first[i]) {
                (false, _) => CheckStatus::NotApplicable,
                (true, None) => CheckStatus::Holding,
                (true, Some(first)) => CheckStatus::Broken {
                    first,
                    count: self.count[i],
                },
            };
            CheckReport { check, status }
        })
    }
}
