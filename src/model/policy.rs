//! The switches between the lesson's "Prefer" discipline and each "Alternative" mistake.
//! Pure data: the client, service and storage read them; nothing here has behaviour.

use super::time::ClockKind;

/// Every policy switch. [`Policy::prefer`] (the default) is the lesson's advice: monotonic
/// timers, renew at T × fraction, retry inside the budget, fail closed, fencing at storage.
/// Each `bool` turns on one mistake; they can be combined.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Policy {
    /// Alternative: schedule renewals, retries and the deadline on the wall clock, and
    /// measure the lease on it too ("wall-clock sleep"). NTP steps then move the schedule.
    pub wall_clock_timers: bool,
    /// Alternative: the write path trusts the lost flag only and skips its own check of the
    /// safe deadline ("trust the heartbeat").
    pub trust_flag_only: bool,
    /// Alternative: ignore failed renewals (even NOT_OWNER) and keep writing until the
    /// client's own wall clock says a full TTL has passed ("write until you feel the TTL").
    pub write_until_wall_ttl: bool,
    /// Alternative: a soft TTL of 1.5 × T on the client, which keeps writing after the
    /// service's hard expiry when renewals cannot get through.
    pub soft_ttl: bool,
    /// Alternative: on loss, keep writing until the unlock is answered ("block stopping
    /// writes on unlock success").
    pub stop_writes_after_unlock: bool,
    /// Alternative: compute the lease's validity from the client's wall clock
    /// (Redlock-style validity math).
    pub redlock_validity: bool,
    /// Storage rejects a write whose token is below the highest it has accepted.
    pub fencing: bool,
    /// The clock on which the lock service expires leases; `Wall` shows the clock-jump bug.
    pub service_expiry: ClockKind,
}

impl Default for Policy {
    fn default() -> Self {
        Policy::prefer()
    }
}

impl Policy {
    /// The lesson's advice: monotonic renew, fail closed, fencing; service expiry on its
    /// monotonic clock.
    pub const fn prefer() -> Self {
        Policy {
            wall_clock_timers: false,
            trust_flag_only: false,
            write_until_wall_ttl: false,
            soft_ttl: false,
            stop_writes_after_unlock: false,
            redlock_validity: false,
            fencing: true,
            service_expiry: ClockKind::Monotonic,
        }
    }

    /// True when no client-side Alternative is switched on (fencing and the service's
    /// expiry clock do not matter here). The "no write after the lost flag" check is
    /// defined for this case.
    pub const fn client_follows_prefer(&self) -> bool {
        !(self.wall_clock_timers
            || self.trust_flag_only
            || self.write_until_wall_ttl
            || self.soft_ttl
            || self.stop_writes_after_unlock
            || self.redlock_validity)
    }

    /// The clock on which the client schedules renewals and retries.
    pub const fn timer_clock(&self) -> ClockKind {
        if self.wall_clock_timers {
            ClockKind::Wall
        } else {
            ClockKind::Monotonic
        }
    }

    /// The clock on which the client measures its safe deadline.
    pub const fn validity_clock(&self) -> ClockKind {
        if self.wall_clock_timers || self.redlock_validity || self.write_until_wall_ttl {
            ClockKind::Wall
        } else {
            ClockKind::Monotonic
        }
    }
}
