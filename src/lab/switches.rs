//! The policy switches a learner flips: fencing, the service's expiry clock, and each
//! "Alternative" mistake from the lesson.

use crate::lesson::content::SANDBOX;
use crate::model::{ClockKind, Policy, Scenario};

/// One switch of [`Policy`], named for the lesson.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum PolicySwitch {
    /// Fencing tokens checked at storage.
    Fencing,
    /// The lock service expires leases on its wall clock.
    ServiceWallClock,
    /// Renewals scheduled on the wall clock ("wall-clock sleep").
    WallClockTimers,
    /// No deadline check before a write; trust the lost flag only.
    TrustFlagOnly,
    /// Ignore renew failures and write until the wall clock says T has passed.
    WriteUntilWallTtl,
    /// A soft TTL that keeps writing past the service's expiry.
    SoftTtl,
    /// Keep writing until the unlock succeeds.
    StopWritesAfterUnlock,
    /// Lease validity computed from the client's wall clock (Redlock-style).
    RedlockValidity,
}

impl PolicySwitch {
    /// Every switch, fencing first, then the service clock, then the client mistakes.
    pub const ALL: [PolicySwitch; 8] = [
        PolicySwitch::Fencing,
        PolicySwitch::ServiceWallClock,
        PolicySwitch::WallClockTimers,
        PolicySwitch::TrustFlagOnly,
        PolicySwitch::WriteUntilWallTtl,
        PolicySwitch::SoftTtl,
        PolicySwitch::StopWritesAfterUnlock,
        PolicySwitch::RedlockValidity,
    ];

    /// A stable short name, used in share links.
    pub fn slug(self) -> &'static str {
        match self {
            PolicySwitch::Fencing => "fencing",
            PolicySwitch::ServiceWallClock => "service-wall",
            PolicySwitch::WallClockTimers => "wall-timers",
            PolicySwitch::TrustFlagOnly => "trust-flag",
            PolicySwitch::WriteUntilWallTtl => "feel-ttl",
            PolicySwitch::SoftTtl => "soft-ttl",
            PolicySwitch::StopWritesAfterUnlock => "wait-unlock",
            PolicySwitch::RedlockValidity => "redlock",
        }
    }

    /// The switch with this slug.
    pub fn from_slug(slug: &str) -> Option<PolicySwitch> {
        PolicySwitch::ALL.into_iter().find(|s| s.slug() == slug)
    }

    /// The visible label of the switch (from `content/sandbox.toml`).
    pub fn label(self) -> &'static str {
        SANDBOX.switch(self.slug()).label
    }

    /// What the switch does, in a sentence.
    pub fn description(self) -> &'static str {
        SANDBOX.switch(self.slug()).description
    }

    /// True when this switch departs from the lesson's advice (fencing off counts).
    pub fn is_mistake(self, policy: &Policy) -> bool {
        self.is_on(policy) != (self == PolicySwitch::Fencing)
    }

    /// Whether the switch is on in `policy`.
    pub fn is_on(self, policy: &Policy) -> bool {
        match self {
            PolicySwitch::Fencing => policy.fencing,
            PolicySwitch::ServiceWallClock => policy.service_expiry == ClockKind::Wall,
            PolicySwitch::WallClockTimers => policy.wall_clock_timers,
            PolicySwitch::TrustFlagOnly => policy.trust_flag_only,
            PolicySwitch::WriteUntilWallTtl => policy.write_until_wall_ttl,
            PolicySwitch::SoftTtl => policy.soft_ttl,
            PolicySwitch::StopWritesAfterUnlock => policy.stop_writes_after_unlock,
            PolicySwitch::RedlockValidity => policy.redlock_validity,
        }
    }

    /// Turns the switch over in `policy`.
    pub fn flip(self, policy: &mut Policy) {
        let flag = match self {
            PolicySwitch::Fencing => &mut policy.fencing,
            PolicySwitch::WallClockTimers => &mut policy.wall_clock_timers,
            PolicySwitch::TrustFlagOnly => &mut policy.trust_flag_only,
            PolicySwitch::WriteUntilWallTtl => &mut policy.write_until_wall_ttl,
            PolicySwitch::SoftTtl => &mut policy.soft_ttl,
            PolicySwitch::StopWritesAfterUnlock => &mut policy.stop_writes_after_unlock,
            PolicySwitch::RedlockValidity => &mut policy.redlock_validity,
            PolicySwitch::ServiceWallClock => {
                policy.service_expiry = match policy.service_expiry {
                    ClockKind::Wall => ClockKind::Monotonic,
                    ClockKind::Monotonic => ClockKind::Wall,
                };
                return;
            }
        };
        *flag = !*flag;
    }

    /// A copy of `scenario` with this switch flipped.
    pub fn flipped(self, scenario: &Scenario) -> Scenario {
        let mut flipped = scenario.clone();
        self.flip(&mut flipped.policy);
        flipped
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_switch_flips_exactly_its_own_field_and_back() {
        for switch in PolicySwitch::ALL {
            let prefer = Policy::prefer();
            let mut policy = prefer;
            switch.flip(&mut policy);
            assert_ne!(policy, prefer, "{switch:?}");
            assert!(switch.is_mistake(&policy), "{switch:?}");
            for other in PolicySwitch::ALL.into_iter().filter(|&o| o != switch) {
                assert_eq!(
                    other.is_on(&policy),
                    other.is_on(&prefer),
                    "{switch:?} moved {other:?}"
                );
            }
            switch.flip(&mut policy);
            assert_eq!(policy, prefer);
            assert_eq!(PolicySwitch::from_slug(switch.slug()), Some(switch));
        }
    }

    #[test]
    fn every_switch_is_worded_in_the_content_file() {
        for switch in PolicySwitch::ALL {
            assert!(!switch.label().is_empty(), "{switch:?}");
            assert!(!switch.description().is_empty(), "{switch:?}");
        }
        assert_eq!(SANDBOX.switches.len(), PolicySwitch::ALL.len());
    }
}
