//! The run every plan of a search shares. A plan replaces the base scenario's faults and
//! nothing else, so until its first fault a plan's run is the base's fault-free run, event
//! for event. That run is kept at evenly spaced moments, and each plan resumes from the last
//! one before its first fault: the verdict is the same as a run from zero (the tests compare
//! them over many plans), and a plan whose first fault comes late costs only its tail.

use super::super::check::{Checkers, Verdict};
use super::super::faults::{FaultPlan, TimedFault};
use super::super::scenario::Scenario;
use super::super::time::{SimDuration, SimTime};
use super::super::world::World;
use super::with_plan;

/// How many moments of the fault-free run are kept. A plan re-runs at most one spacing
/// before its first fault; each kept world is about a kilobyte.
const KEPT_MOMENTS: u64 = 64;

/// The base scenario's fault-free run, kept at `spacing` intervals from time zero.
pub(super) struct SharedPrefix {
    spacing: SimDuration,
    /// `worlds[k]` has run every event at or before `k × spacing` (`worlds[0]` none at all).
    worlds: Vec<World<Checkers>>,
}

impl SharedPrefix {
    /// Runs `base` without faults once, keeping its world at evenly spaced moments.
    pub(super) fn of(base: &Scenario) -> Self {
        let spacing = SimDuration(base.duration.as_micros().div_ceil(KEPT_MOMENTS).max(1));
        Self::spaced(base, spacing)
    }

    /// Runs `base` without faults once, keeping its world every `spacing` (at least 1 µs).
    pub(super) fn spaced(base: &Scenario, spacing: SimDuration) -> Self {
        let mut world = World::checked(&with_plan(base, FaultPlan::default()));
        let mut worlds = vec![world.clone()];
        let mut at = SimTime::ZERO + spacing;
        while at < world.end() {
            world.run_until(at);
            worlds.push(world.clone());
            at += spacing;
        }
        SharedPrefix { spacing, worlds }
    }

    /// The verdict of the base scenario with `faults` (in time order) as its plan.
    pub(super) fn verdict(&self, faults: &[TimedFault]) -> Verdict {
        let mut world = self.last_before(faults.first()).resumed_with_faults(faults);
        world.run_to_end();
        world.verdict()
    }

    /// The last kept world that has run only events strictly before `first`: a fault at a
    /// kept moment comes before that moment's other events, so that moment's world is too late.
    fn last_before(&self, first: Option<&TimedFault>) -> &World<Checkers> {
        let Some(first) = first else {
            return self.worlds.last().expect("the start is always kept");
        };
        let k = first.at.0.saturating_sub(1) / self.spacing.as_micros();
        &self.worlds[(k as usize).min(self.worlds.len() - 1)]
    }
}
