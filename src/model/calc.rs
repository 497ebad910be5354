//! The lesson's two calculators: the TTL inequality (T > work p99 + renew RTT p99 + GC
//! budget + margin) and the pause-phase sweep of scenario 9 (does a pause lose the lease,
//! depending on where it falls in the renew schedule?).

use super::check::CheckId;
use super::client::{Lifecycle, LostReason};
use super::faults::Fault;
use super::ids::ClientId;
use super::scenario::Scenario;
use super::time::{SimDuration, SimTime};
use super::world::World;

/// The inputs of the TTL inequality.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TtlInputs {
    /// p99 of one slice of work in the critical section.
    pub work_p99: SimDuration,
    /// p99 of a renew round trip.
    pub rtt_p99: SimDuration,
    /// The longest stop-the-world pause budgeted for.
    pub gc_budget: SimDuration,
    /// Extra safety margin.
    pub margin: SimDuration,
}

impl TtlInputs {
    /// The lesson's pitfall exercise: 200 ms work, 20 ms RTT, 150 ms GC, no margin.
    pub const LESSON: TtlInputs = TtlInputs {
        work_p99: SimDuration::from_millis(200),
        rtt_p99: SimDuration::from_millis(20),
        gc_budget: SimDuration::from_millis(150),
        margin: SimDuration::ZERO,
    };
}

/// The calculator's answer.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct TtlAdvice {
    /// T must exceed this sum.
    pub minimum: SimDuration,
    /// A proposed T: the minimum plus 25 % headroom, rounded up to a round number.
    pub proposed: SimDuration,
    /// The heartbeat: proposed T / 3.
    pub heartbeat: SimDuration,
}

/// Applies the TTL inequality and proposes a T and a T/3 heartbeat.
pub fn advise_ttl(i: TtlInputs) -> TtlAdvice {
    let minimum = i.work_p99 + i.rtt_p99 + i.gc_budget + i.margin;
    let with_headroom = minimum + minimum.mul_ratio(1, 4);
    let step = if minimum < SimDuration::from_secs(10) {
        SimDuration::from_millis(100)
    } else {
        SimDuration::from_secs(1)
    };
    let mut proposed = SimDuration(with_headroom.0.div_ceil(step.0) * step.0);
    if proposed <= minimum {
        proposed = proposed + step;
    }
    TtlAdvice {
        minimum,
        proposed,
        heartbeat: proposed.mul_ratio_rounded(1, 3),
    }
}

/// The outcome of one pause start in a sweep.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct SweepCase {
    /// When the pause started.
    pub pause_at: SimTime,
    /// Its offset into the renew period.
    pub offset: SimDuration,
    /// When and why the paused client went Lost, if it did.
    pub lost: Option<(SimTime, LostReason)>,
    /// Whether that loss was only in the client's mind (the service still held its lease).
    pub false_loss: bool,
    /// Writes issued after the lost flag was set (must be 0 under Prefer).
    pub writes_after_lost_flag: u32,
    /// Writes the fence rejected.
    pub fence_rejections: u32,
    /// Stale writes storage accepted (must be 0 with fencing).
    pub stale_accepted: u32,
}

impl SweepCase {
    /// True if the paused client lost the lease.
    pub fn is_lost(&self) -> bool {
        self.lost.is_some()
    }
}

/// A sweep of pause starts across one renew period.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct PauseSweep {
    /// The renew period swept.
    pub period: SimDuration,
    /// The pause length.
    pub pause: SimDuration,
    /// One case per start offset.
    pub cases: Vec<SweepCase>,
}

impl PauseSweep {
    /// How many starts lost the lease.
    pub fn lost_count(&self) -> usize {
        self.cases.iter().filter(|c| c.is_lost()).count()
    }
    /// The fraction of starts that lost the lease, in thousandths.
    pub fn lost_permille(&self) -> u32 {
        (self.lost_count() * 1000 / self.cases.len().max(1)) as u32
    }
    /// Over the starts that lost the lease: writes issued after the lost flag, writes the
    /// fence rejected, and stale writes storage accepted.
    pub fn losing_writes(&self) -> (u32, u32, u32) {
        (self.cases.iter().filter(|c| c.is_lost())).fold(
            (0, 0, 0),
            |(after, rejected, accepted), c| {
                (
                    after + c.writes_after_lost_flag,
                    rejected + c.fence_rejections,
                    accepted + c.stale_accepted,
                )
            },
        )
    }
}

/// One pause to try: a stop-the-world pause of `client` for `length`, in the write path or
/// not, starting `offset` into the renew period that starts at `window_start`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct PauseTry {
    /// The paused client.
    pub client: ClientId,
    /// How long it is frozen.
    pub length: SimDuration,
    /// Whether it hits between the pre-write check and the write.
    pub in_write_path: bool,
    /// Where the swept renew period starts.
    pub window_start: SimTime,
}

impl PauseTry {
    /// `base` with this pause added `offset` into the window.
    pub fn scenario(&self, base: &Scenario, offset: SimDuration) -> Scenario {
        let mut s = base.clone();
        s.faults = s.faults.with(
            self.window_start + offset,
            Fault::Pause {
                client: self.client,
                duration: self.length,
                in_write_path: self.in_write_path,
            },
        );
        s
    }

    /// Runs `base` with this pause `offset` into the window, keeping only checks and
    /// metrics, and reads what became of the paused client.
    pub fn case(&self, base: &Scenario, offset: SimDuration) -> SweepCase {
        let mut w = World::checked(&self.scenario(base, offset));
        w.run_to_end();
        let o = w.outcome();
        let lost = match w.client(self.client).lifecycle() {
            Lifecycle::Lost(reason) => w.lost_at(self.client).map(|at| (at, reason)),
            _ => None,
        };
        let after = match o.status(CheckId::NoWriteAfterLost) {
            super::check::CheckStatus::Broken { count, .. } => count,
            _ => 0,
        };
        SweepCase {
            pause_at: self.window_start + offset,
            offset,
            lost,
            false_loss: o.metrics.false_losses > 0,
            writes_after_lost_flag: after,
            fence_rejections: o.metrics.writes_rejected,
            stale_accepted: o.metrics.stale_accepted,
        }
    }

    /// `n` cases, at `k × period / n` into the window for k in 0..n, where the period is
    /// the renew interval. Each run keeps only checks and metrics, so a sweep of dozens of
    /// runs takes milliseconds.
    pub fn sweep(&self, base: &Scenario, n: u32) -> PauseSweep {
        let period = base.renew_interval();
        let n = n.max(1);
        let cases = (0..n)
            .map(|k| self.case(base, period.mul_ratio(k as u64, n as u64)))
            .collect();
        PauseSweep {
            period,
            pause: self.length,
            cases,
        }
    }
}

/// Runs `base` once per start offset: `n` pauses of `pause` on `client`, starting at
/// `window_start + k × period / n` (see [`PauseTry::sweep`]).
pub fn pause_phase_sweep(
    base: &Scenario,
    client: ClientId,
    pause: SimDuration,
    in_write_path: bool,
    window_start: SimTime,
    n: u32,
) -> PauseSweep {
    PauseTry {
        client,
        length: pause,
        in_write_path,
        window_start,
    }
    .sweep(base, n)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn lesson_inputs_give_370_ms_and_a_rounded_proposal() {
        let a = advise_ttl(TtlInputs::LESSON);
        assert_eq!(a.minimum, SimDuration::from_millis(370));
        assert_eq!(a.proposed, SimDuration::from_millis(500));
        // Advice, not a simulated timer: T/3 to the nearest microsecond.
        assert_eq!(a.heartbeat, SimDuration::from_micros(166_667));
    }

    #[test]
    fn margin_raises_the_minimum() {
        let a = advise_ttl(TtlInputs {
            margin: SimDuration::from_millis(130),
            ..TtlInputs::LESSON
        });
        assert_eq!(a.minimum, SimDuration::from_millis(500));
        assert!(a.proposed > a.minimum);
    }
}
