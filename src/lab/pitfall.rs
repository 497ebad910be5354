//! The lesson's pitfall exercise: size T from the TTL inequality, then drop a 400 ms
//! stop-the-world pause somewhere in a renew period and see whether the lease survives.

use crate::model::presets::{self, PITFALL_PAUSE};
use crate::model::{
    ClientId, FaultPlan, PauseSweep, PauseTry, Scenario, SimDuration, SimTime, SweepCase,
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

impl PitfallTry {
    /// The try with the pause `permille` thousandths of the way into the renew period, to
    /// the nearest microsecond of the period as stated.
    pub fn at_permille(ttl: SimDuration, permille: u32) -> PitfallTry {
        let start = PitfallTry {
            ttl,
            offset: SimDuration::ZERO,
        };
        PitfallTry {
            offset: start
                .stated_period()
                .mul_ratio_rounded(u64::from(permille.min(1_000)), 1_000),
            ..start
        }
    }

    /// The renew period, T / 3 as the preset schedules it (its timer drops the fraction of
    /// a microsecond).
    pub fn period(&self) -> SimDuration {
        self.base().renew_interval()
    }

    /// The renew period as the lesson states it: T / 3 to the nearest microsecond.
    pub fn stated_period(&self) -> SimDuration {
        let base = self.base();
        let fraction = base.renew_every;
        base.ttl
            .mul_ratio_rounded(u64::from(fraction.num), u64::from(fraction.den.max(1)))
    }

    /// Where the swept renew period starts (see [`presets::pitfall_window_start`]).
    pub fn window_start(&self) -> SimTime {
        presets::pitfall_window_start(self.period())
    }

    /// The scenario without the pause, long enough for the pause and a full lease after it.
    fn base(&self) -> Scenario {
        let ttl = SimDuration(self.ttl.0.clamp(MIN_TTL.0, MAX_TTL.0));
        let mut scenario = presets::pitfall_exercise();
        scenario.ttl = ttl;
        scenario.faults = FaultPlan::none();
        let period = scenario.renew_interval();
        let start = presets::pitfall_window_start(period);
        scenario.duration =
            (start.saturating_since(SimTime::ZERO) + period + PITFALL_PAUSE + ttl + ttl)
                .max(scenario.duration);
        scenario
    }

    /// The exercise's pause: client A, outside the write path, in the swept window.
    fn pause(&self) -> PauseTry {
        PauseTry {
            client: ClientId::A,
            length: PITFALL_PAUSE,
            in_write_path: false,
            window_start: self.window_start(),
        }
    }

    /// The offset actually used: at most one period.
    fn offset(&self) -> SimDuration {
        SimDuration(self.offset.0.min(self.period().0))
    }

    /// The scenario of this try: the base plus the pause at its offset.
    pub fn scenario(&self) -> Scenario {
        self.pause().scenario(&self.base(), self.offset())
    }

    /// What became of client A in this try: the same reading as each case of the sweep.
    pub fn case(&self) -> SweepCase {
        self.pause().case(&self.base(), self.offset())
    }

    /// The pause swept across one renew period.
    pub fn sweep(&self) -> PauseSweep {
        self.pause().sweep(&self.base(), SWEEP_STARTS)
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
        // The pre-write check stops a plain pause's writes: the fence has none to reject.
        assert_eq!(sweep.losing_writes(), (0, 0, 0));
        for case in sweep.cases.iter().filter(|c| c.is_lost()) {
            let single = PitfallTry {
                offset: case.offset,
                ..exercise
            };
            assert_eq!(single.case(), *case);
            let run = crate::model::Simulation::run(&single.scenario());
            let lost_in_trace =
                run.lifecycle_history(ClientId::A)
                    .iter()
                    .find_map(|point| match point.state {
                        crate::model::Lifecycle::Lost(reason) => Some((point.from, reason)),
                        _ => None,
                    });
            assert_eq!(lost_in_trace, case.lost, "{case:?}");
        }
    }

    #[test]
    fn a_lease_far_longer_than_the_pause_survives_every_start() {
        let exercise = PitfallTry {
            ttl: SimDuration::from_secs(3),
            offset: SimDuration::ZERO,
        };
        assert_eq!(exercise.sweep().lost_count(), 0);
        assert!(!exercise.case().is_lost());
    }

    #[test]
    fn stated_periods_and_offsets_are_rounded_not_truncated() {
        let try_at = PitfallTry::at_permille(SimDuration::from_millis(800), 360);
        assert_eq!(try_at.period(), SimDuration::from_micros(266_666));
        assert_eq!(try_at.stated_period().to_string(), "266.667 ms");
        // 0.36 × 266.666 667 ms = 96.000 000 ms, where truncating twice gives 95.999 ms.
        assert_eq!(try_at.offset.to_string(), "96 ms");
        assert_eq!(
            PitfallTry::at_permille(SimDuration::from_millis(800), 1_000).case(),
            PitfallTry {
                offset: try_at.period(),
                ..try_at
            }
            .case()
        );
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
