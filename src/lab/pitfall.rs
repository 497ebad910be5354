//! The lesson's pitfall exercise: size T from the TTL inequality, then drop a 400 ms
//! stop-the-world pause somewhere in a renew period and see whether the lease survives.

use crate::model::presets::{self, PITFALL_PAUSE};
use crate::model::{
    pause_phase_sweep, CheckId, ClientId, Fault, FaultPlan, Lifecycle, LostReason, PauseSweep, Run,
    Scenario, SimDuration, SimTime, Simulation,
};

/// The shortest and longest T the exercise accepts.
pub const MIN_TTL: SimDuration = SimDuration::from_millis(50);
/// See [`MIN_TTL`].
pub const MAX_TTL: SimDuration = SimDuration::from_secs(60);
/// How many pause starts the sweep tries across one renew period.
pub const SWEEP_STARTS: u32 = 24;

/// One try of the exercise: the learner's T and where the pause starts within a period.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PitfallTry {
    /// The lease length chosen.
    pub ttl: SimDuration,
    /// How far into the renew period the pause starts.
    pub offset: SimDuration,
}

/// What happened to client A in one try.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PitfallOutcome {
    /// When and why A lost the lease, if it did.
    pub lost: Option<(SimTime, LostReason)>,
    /// Writes A issued after its lost flag was set (the lost flag's job is to keep this 0).
    pub writes_after_lost_flag: u32,
    /// Writes the fence rejected.
    pub fence_rejections: u32,
    /// Stale writes storage accepted (fencing's job is to keep this 0).
    pub stale_accepted: u32,
}

impl PitfallTry {
    /// The renew period, T / 3 as the preset schedules it.
    pub fn period(&self) -> SimDuration {
        self.base().renew_interval()
    }

    /// Where the swept renew period starts: the first renewal after one second, so the
    /// client is settled in Holding.
    pub fn window_start(&self) -> SimTime {
        first_renewal_after_one_second(self.period())
    }

    /// The scenario without the pause, long enough for the pause and a full lease after it.
    fn base(&self) -> Scenario {
        let ttl = SimDuration(self.ttl.0.clamp(MIN_TTL.0, MAX_TTL.0));
        let mut scenario = presets::pitfall_exercise();
        scenario.ttl = ttl;
        scenario.faults = FaultPlan::none();
        let period = scenario.renew_interval();
        let start = first_renewal_after_one_second(period);
        scenario.duration =
            (start.saturating_since(SimTime::ZERO) + period + PITFALL_PAUSE + ttl + ttl)
                .max(scenario.duration);
        scenario
    }

    /// The scenario of this try: the base plus the pause at its offset.
    pub fn scenario(&self) -> Scenario {
        let mut scenario = self.base();
        let offset = SimDuration(self.offset.0.min(self.period().0));
        scenario.faults = FaultPlan::none().with(
            self.window_start() + offset,
            Fault::Pause {
                client: ClientId::A,
                duration: PITFALL_PAUSE,
                in_write_path: false,
            },
        );
        scenario
    }

    /// Runs this try.
    pub fn run(&self) -> Run {
        Simulation::run(&self.scenario())
    }

    /// The pause swept across one renew period.
    pub fn sweep(&self) -> PauseSweep {
        pause_phase_sweep(
            &self.base(),
            ClientId::A,
            PITFALL_PAUSE,
            false,
            self.window_start(),
            SWEEP_STARTS,
        )
    }
}

/// The first multiple of `period` at or after one second.
fn first_renewal_after_one_second(period: SimDuration) -> SimTime {
    let period = period.0.max(1);
    SimTime(1_000_000u64.div_ceil(period) * period)
}

/// Reads client A's fate from a run of the exercise.
pub fn outcome(run: &Run) -> PitfallOutcome {
    let lost = run
        .lifecycle_history(ClientId::A)
        .iter()
        .find_map(|point| match point.state {
            Lifecycle::Lost(reason) => Some((point.from, reason)),
            _ => None,
        });
    let writes_after_lost_flag = match run.check(CheckId::NoWriteAfterLost) {
        crate::model::CheckStatus::Broken { count, .. } => count,
        _ => 0,
    };
    let metrics = run.metrics();
    PitfallOutcome {
        lost,
        writes_after_lost_flag,
        fence_rejections: metrics.writes_rejected,
        stale_accepted: metrics.stale_accepted,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{advise_ttl, TtlInputs};

    #[test]
    fn the_lesson_numbers_lose_the_lease_for_some_pause_starts_and_never_corrupt_data() {
        let advice = advise_ttl(TtlInputs::LESSON);
        assert_eq!(advice.minimum, SimDuration::from_millis(370));
        let exercise = PitfallTry {
            ttl: advice.proposed,
            offset: SimDuration::ZERO,
        };
        let sweep = exercise.sweep();
        assert_eq!(sweep.cases.len(), SWEEP_STARTS as usize);
        let lost = sweep.lost_count();
        assert!(
            lost > 0 && lost < sweep.cases.len(),
            "lost {lost} of {}",
            sweep.cases.len()
        );
        for case in &sweep.cases {
            assert_eq!(case.writes_after_lost_flag, 0, "{case:?}");
            assert_eq!(case.stale_accepted, 0, "{case:?}");
        }
        for case in sweep.cases.iter().filter(|c| c.lost) {
            let single = PitfallTry {
                offset: case.offset,
                ..exercise
            };
            let result = outcome(&single.run());
            assert!(result.lost.is_some(), "{case:?}");
            assert_eq!(result.writes_after_lost_flag, 0);
            assert_eq!(result.stale_accepted, 0);
        }
    }

    #[test]
    fn a_lease_far_longer_than_the_pause_survives_every_start() {
        let exercise = PitfallTry {
            ttl: SimDuration::from_secs(3),
            offset: SimDuration::ZERO,
        };
        assert_eq!(exercise.sweep().lost_count(), 0);
        assert!(outcome(&exercise.run()).lost.is_none());
    }

    #[test]
    fn out_of_range_choices_are_clamped_rather_than_refused() {
        let exercise = PitfallTry {
            ttl: SimDuration::ZERO,
            offset: SimDuration::from_secs(999),
        };
        assert!(exercise.scenario().validate().is_ok());
        assert!(exercise.period() > SimDuration::ZERO);
    }
}
