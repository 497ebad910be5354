//! A world with its checkers beside it. The checkers read every event the world puts out, in
//! order, as they would read the same events from any trace; the world never calls them.
//! Two shapes: the checkers as the world's [`Output`] (nothing kept: the search's and the
//! benchmarks' fast path, [`World::checked`]), or a [`CheckedWorld`] whose events wait, each
//! with what the checkers found at it, for a recording to take them.

use super::check::{
    CheckId, CheckReport, CheckStatus, Checkers, Failover, Found, Metrics, Records, Verdict,
};
use super::ids::NodeId;
use super::scenario::Scenario;
use super::time::{LocalNow, SimTime};
use super::trace::Event;
use super::world::{Detail, Output, World};

/// The checkers read each event as it happens.
impl Output for Checkers {
    #[inline(always)]
    fn event(&mut self, e: Event) {
        self.observe(&e);
    }
}

impl World<Checkers> {
    /// The world for `s` with its checkers reading its events as they happen, none kept.
    pub fn checked(s: &Scenario) -> Self {
        World::with_output(s, Detail::ChecksOnly, Checkers::new(s, Records::Skip))
    }

    /// The check reports and measurements so far.
    pub fn outcome(&self) -> Outcome {
        Outcome::of(self.output(), self.steps())
    }

    /// The first broken check and the measurements so far.
    pub fn verdict(&self) -> Verdict {
        Verdict {
            first_broken: self.output().first_broken(),
            metrics: self.output().metrics(),
            steps: self.steps(),
        }
    }
}

/// A world whose events wait to be taken, each with what the checkers found at it.
#[derive(Clone, Debug)]
pub struct CheckedWorld {
    world: World,
    checkers: Checkers,
    /// What the checkers found at each event not taken yet.
    found: Vec<Found>,
    /// The failovers among them, in order.
    failovers: Vec<Failover>,
}

impl CheckedWorld {
    /// Builds the world for `s` (which should have passed [`Scenario::validate`]).
    pub fn new(s: &Scenario) -> CheckedWorld {
        CheckedWorld {
            world: World::new(s, Detail::Trace),
            checkers: Checkers::new(s, Records::Skip),
            found: Vec::new(),
            failovers: Vec::new(),
        }
    }

    /// Processes the next event if it falls at or before the end; false when nothing is
    /// left to do before the end.
    pub fn step(&mut self) -> bool {
        let stepped = self.world.step();
        self.check();
        stepped
    }

    /// Runs every event up to and including `t` (capped at the end); the clock then reads `t`.
    pub fn run_until(&mut self, t: SimTime) {
        while self.world.step_until(t.min(self.world.end())) {
            self.check();
        }
        self.world.rest_at(t);
    }

    /// Runs to the end of the scenario.
    pub fn run_to_end(&mut self) {
        self.run_until(self.world.end());
    }

    fn check(&mut self) {
        for e in &self.world.events()[self.found.len()..] {
            let found = self.checkers.observe(e);
            if found.failover() {
                self.failovers.extend(self.checkers.latest_failover());
            }
            self.found.push(found);
        }
    }

    /// Hands each event since the last call to `visit`, with what the checkers found at it
    /// (and the failover it ended, if it did), and forgets it.
    pub fn drain(&mut self, mut visit: impl FnMut(&Event, Found, Option<&Failover>)) {
        let mut found = self.found.drain(..);
        let mut failovers = self.failovers.drain(..);
        self.world.drain_events(|e| {
            let found = found.next().unwrap_or_default();
            let failover = if found.failover() {
                failovers.next()
            } else {
                None
            };
            visit(e, found, failover.as_ref());
        });
    }

    /// The current simulation time.
    pub fn now(&self) -> SimTime {
        self.world.now()
    }
    /// When the scenario ends.
    pub fn end(&self) -> SimTime {
        self.world.end()
    }
    /// What node `n`'s clocks read at `t`, a time no earlier than the last step.
    pub fn clock_at(&self, n: NodeId, t: SimTime) -> LocalNow {
        self.world.clock_at(n, t)
    }
    /// The measurements so far.
    pub fn metrics(&self) -> Metrics {
        self.checkers.metrics()
    }
    /// The check reports and measurements so far.
    pub fn outcome(&self) -> Outcome {
        Outcome::of(&self.checkers, self.world.steps())
    }
}

/// The result of a run without a trace: its checks and measurements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The four checks.
    pub checks: [CheckReport; 4],
    /// The measurements.
    pub metrics: Metrics,
    /// How many steps the simulation took (its cost, for the benchmarks).
    pub steps: u64,
}

impl Outcome {
    fn of(checkers: &Checkers, steps: u64) -> Outcome {
        Outcome {
            checks: checkers.reports(),
            metrics: checkers.metrics(),
            steps,
        }
    }
    /// True if any check broke.
    pub fn any_broken(&self) -> bool {
        self.checks.iter().any(|c| c.status.is_broken())
    }
    /// The status of one check.
    pub fn status(&self, check: CheckId) -> CheckStatus {
        self.checks[check.index()].status
    }
}
