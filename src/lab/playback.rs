//! Playback speed on a logarithmic scale, and how a frame's wall time becomes model time.

/// Frame gaps longer than this (a background tab, a breakpoint) count as one ordinary frame,
/// so returning to the page never jumps the simulation ahead.
pub const MAX_FRAME_GAP_MS: f64 = 500.0;

const ORDINARY_FRAME_MS: f64 = 1000.0 / 60.0;
const STEPS_PER_DECADE: u8 = 10;

/// Playback speed from 0.1× to 100×, in tenths of a decade (so a slider moves it evenly on
/// a log scale, as in RaftScope).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Speed(u8);

impl Speed {
    /// The slowest step (0.1×).
    pub const MIN_STEP: u8 = 0;
    /// The fastest step (100×).
    pub const MAX_STEP: u8 = 3 * STEPS_PER_DECADE;

    /// The speed at `step` tenths of a decade above 0.1×, clamped to the range.
    pub fn from_step(step: u8) -> Speed {
        Speed(step.min(Self::MAX_STEP))
    }

    /// The nearest step to a factor such as 10.0 (clamped to 0.1–100).
    pub fn from_factor(factor: f64) -> Speed {
        let step = ((factor.max(0.1).log10() + 1.0) * f64::from(STEPS_PER_DECADE)).round();
        Speed::from_step(step.clamp(0.0, f64::from(Self::MAX_STEP)) as u8)
    }

    /// The slider position.
    pub fn step(self) -> u8 {
        self.0
    }

    /// Model seconds per wall second.
    pub fn factor(self) -> f64 {
        10f64.powf(f64::from(self.0) / f64::from(STEPS_PER_DECADE) - 1.0)
    }

    /// A short label such as "0.1×", "2.5×" or "100×".
    pub fn label(self) -> String {
        let factor = self.factor();
        if factor >= 10.0 {
            format!("{factor:.0}×")
        } else if factor >= 1.0 {
            format!("{factor:.1}×")
        } else {
            format!("{factor:.2}×")
        }
    }

    /// Model microseconds to advance for a frame that took `wall_ms` of real time.
    pub fn sim_micros_for(self, wall_ms: f64) -> u64 {
        let wall_ms = if !wall_ms.is_finite() || wall_ms < 0.0 {
            0.0
        } else if wall_ms > MAX_FRAME_GAP_MS {
            ORDINARY_FRAME_MS
        } else {
            wall_ms
        };
        (wall_ms * 1000.0 * self.factor()).round() as u64
    }
}

impl Default for Speed {
    /// Real time (1×).
    fn default() -> Self {
        Speed(STEPS_PER_DECADE)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scale_runs_from_a_tenth_to_a_hundred_times_real_time() {
        assert!((Speed::from_step(0).factor() - 0.1).abs() < 1e-9);
        assert!((Speed::default().factor() - 1.0).abs() < 1e-9);
        assert!((Speed::from_step(20).factor() - 10.0).abs() < 1e-9);
        assert!((Speed::from_step(255).factor() - 100.0).abs() < 1e-9);
        assert_eq!(Speed::from_factor(10.0).step(), 20);
        assert_eq!(Speed::from_factor(0.0).step(), 0);
        assert_eq!(Speed::from_step(20).label(), "10×");
        assert_eq!(Speed::from_step(0).label(), "0.10×");
    }

    #[test]
    fn a_frame_advances_model_time_by_wall_time_times_speed() {
        assert_eq!(Speed::default().sim_micros_for(16.0), 16_000);
        assert_eq!(Speed::from_step(20).sim_micros_for(16.0), 160_000);
    }

    #[test]
    fn a_long_gap_counts_as_one_ordinary_frame() {
        let speed = Speed::default();
        assert_eq!(
            speed.sim_micros_for(30_000.0),
            speed.sim_micros_for(ORDINARY_FRAME_MS)
        );
        assert_eq!(speed.sim_micros_for(f64::NAN), 0);
        assert_eq!(speed.sim_micros_for(-5.0), 0);
    }
}
