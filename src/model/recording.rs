//! A run kept small, whatever its length: instead of the whole trace, a checkpoint of the
//! world every [`CHECKPOINT_EVENTS`] events with the running tallies at that point, the
//! timeline's [`Overview`] (with the failovers the checkers found, which the checkpoints
//! do not keep), and the trace hash computed as the events stream past. Any
//! moment is rebuilt exactly by restoring the nearest earlier checkpoint and replaying from
//! it (as RaftScope's state.js does), so memory grows with the checkpoints (a few kilobytes
//! each) instead of with the events, and a view asks only for the window it shows.
//!
//! The [`Recorder`] simulates in slices of a given number of events, so a driver can yield
//! between slices; the finished [`Recording`] is a [`RunStore`], so it answers the views'
//! questions ([`super::RunQuestions`]) by the same code as a whole trace.

use super::check::{Found, Metrics};
use super::checked::CheckedWorld;
use super::overview::Overview;
use super::reader::{RunStore, RunSummary, Tally};
use super::scenario::Scenario;
use super::time::{SimDuration, SimTime};
use super::trace::{Event, TraceHasher};
use std::cell::RefCell;
use std::ops::Range;

/// Events between two checkpoints: a view's replay costs at most about this many steps.
pub const CHECKPOINT_EVENTS: usize = 4096;

/// A run being simulated, a slice at a time.
#[derive(Debug)]
pub struct Recorder {
    scenario: Scenario,
    world: CheckedWorld,
    tally: Tally,
    hasher: TraceHasher,
    overview: Overview,
    /// The world at each checkpoint.
    checkpoints: Vec<CheckedWorld>,
    /// The tally at each checkpoint.
    bookmarks: Vec<Tally>,
    since_checkpoint: usize,
    finished: bool,
}

impl Recorder {
    /// Starts recording `s`, which should have passed [`Scenario::validate`].
    pub fn new(s: &Scenario) -> Recorder {
        let world = CheckedWorld::new(s);
        let tally = Tally::new(s.clients);
        Recorder {
            scenario: s.clone(),
            checkpoints: vec![world.clone()],
            bookmarks: vec![tally.clone()],
            overview: Overview::new(s.clients),
            world,
            tally,
            hasher: TraceHasher::default(),
            since_checkpoint: 0,
            finished: false,
        }
    }

    /// Simulates about `max_events` more events (whole steps); true once the run is done.
    pub fn advance(&mut self, max_events: usize) -> bool {
        let stop_at = self.tally.events.saturating_add(max_events.max(1));
        while !self.finished && self.tally.events < stop_at {
            if !self.world.step() {
                self.world.run_to_end();
                self.finished = true;
            }
            self.take_events();
        }
        self.finished
    }

    fn take_events(&mut self) {
        let (tally, hasher, overview) = (&mut self.tally, &mut self.hasher, &mut self.overview);
        let before = tally.events;
        self.world.drain(|e, found, failover| {
            tally.add(e, found);
            hasher.event(e);
            overview.add(e, found);
            if let Some(f) = failover {
                overview.add_failover(f);
            }
        });
        self.since_checkpoint += self.tally.events - before;
        if self.since_checkpoint >= CHECKPOINT_EVENTS {
            self.since_checkpoint = 0;
            self.checkpoints.push(self.world.clone());
            self.bookmarks.push(self.tally.clone());
        }
    }

    /// How far the simulation has got.
    pub fn simulated(&self) -> SimTime {
        self.world.now()
    }
    /// Events simulated so far.
    pub fn events(&self) -> usize {
        self.tally.events
    }
    /// The scenario being recorded.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Runs to the end and hands over the recording.
    pub fn finish(mut self) -> Recording {
        while !self.advance(usize::MAX) {}
        let end = self.world.end();
        self.into_recording(end)
    }

    /// Ends the run at `at` (at least where the simulation has got, rounded up to a whole
    /// millisecond): the recording of the same scenario with its length cut to that time
    /// and the faults planned after it left out, which gives exactly the same trace.
    pub fn cut(mut self, at: SimTime) -> Recording {
        let at = SimTime(at.max(self.world.now()).0.div_ceil(1000) * 1000);
        let at = at.min(self.world.end()).max(SimTime::from_millis(1));
        self.world.run_until(at);
        self.take_events();
        self.scenario.duration = SimDuration(at.0);
        self.scenario.faults.0.retain(|f| f.at <= at);
        self.finished = true;
        self.into_recording(at)
    }

    fn into_recording(self, end: SimTime) -> Recording {
        let outcome = self.world.outcome();
        Recording {
            summary: RunSummary {
                end,
                scenario: self.scenario,
                hash: self.hasher.finish(),
                checks: outcome.checks,
                metrics: outcome.metrics,
                events: self.tally.events,
            },
            checkpoints: self.checkpoints,
            bookmarks: self.bookmarks,
            overview: self.overview,
            moment: RefCell::new(None),
        }
    }
}

/// The latest moment a view asked about, replayed from its checkpoint: the panels of one
/// render ask about the same moment, and playback moves forward from it.
#[derive(Clone, Debug)]
struct Moment {
    checkpoint: usize,
    at: SimTime,
    world: CheckedWorld,
    tally: Tally,
    /// The events from the checkpoint up to `at`, with what the checkers found at each.
    events: Vec<(Event, Found)>,
}

/// A finished run: its hash, checks and metrics, and exact answers about any moment.
#[derive(Clone, Debug)]
pub struct Recording {
    summary: RunSummary,
    checkpoints: Vec<CheckedWorld>,
    bookmarks: Vec<Tally>,
    overview: Overview,
    moment: RefCell<Option<Moment>>,
}

impl Recording {
    /// Records `s` to its end in one go.
    pub fn of(s: &Scenario) -> Recording {
        Recorder::new(s).finish()
    }

    /// The timeline's view of the whole run.
    pub fn overview(&self) -> &Overview {
        &self.overview
    }
    /// How many checkpoints are kept (memory grows with these, not with the events).
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }

    fn checkpoint_before(&self, t: SimTime) -> usize {
        self.checkpoints
            .partition_point(|world| world.now() <= t)
            .saturating_sub(1)
    }

    /// Reads the moment `t`: the world and tally after every event at or before `t`, and
    /// the events since their checkpoint. The last moment asked about serves when no event
    /// lies between it and `t` (the world may then stand a little after `t`); it is continued when it is earlier in the same stretch; otherwise the
    /// checkpoint is replayed.
    fn with_moment<R>(&self, t: SimTime, read: impl FnOnce(&Moment) -> R) -> R {
        let checkpoint = self.checkpoint_before(t);
        let mut cache = self.moment.borrow_mut();
        if let Some(m) = cache.as_ref() {
            let nothing_between = m.tally.latest.is_none_or(|latest| latest <= t) && t <= m.at;
            if m.checkpoint == checkpoint && nothing_between {
                return read(m);
            }
        }
        let moment = match cache.take() {
            Some(m) if m.checkpoint == checkpoint && m.at <= t => m,
            _ => {
                let world = &self.checkpoints[checkpoint];
                Moment {
                    checkpoint,
                    at: world.now(),
                    world: world.clone(),
                    tally: self.bookmarks[checkpoint].clone(),
                    events: Vec::new(),
                }
            }
        };
        let Moment {
            mut world,
            mut tally,
            mut events,
            ..
        } = moment;
        world.run_until(t);
        world.drain(|e, found, _| {
            tally.add(e, found);
            events.push((*e, found));
        });
        let moment = cache.insert(Moment {
            checkpoint,
            at: t,
            world,
            tally,
            events,
        });
        read(moment)
    }

    /// Visits the events in `range`, all after `checkpoint` and before the next one:
    /// replayed from the last moment asked about when it lies in that stretch, otherwise
    /// from the checkpoint.
    fn visit_stretch(
        &self,
        checkpoint: usize,
        range: Range<usize>,
        visit: &mut dyn FnMut(&Event, Found, &Tally),
    ) {
        let cache = self.moment.borrow();
        let moment = cache.as_ref().filter(|m| m.checkpoint == checkpoint);
        let mut tally = self.bookmarks[checkpoint].clone();
        let mut at_each = |tally: &mut Tally, e: &Event, found: Found| {
            if tally.events < range.end {
                tally.add(e, found);
                if tally.events > range.start {
                    visit(e, found, tally);
                }
            }
        };
        for (e, found) in moment.map_or(&[][..], |m| &m.events) {
            at_each(&mut tally, e, *found);
        }
        if tally.events < range.end {
            let mut world = moment
                .map_or(&self.checkpoints[checkpoint], |m| &m.world)
                .clone();
            while tally.events < range.end && world.step() {
                world.drain(|e, found, _| at_each(&mut tally, e, found));
            }
        }
    }
}

impl RunStore for Recording {
    fn summary(&self) -> &RunSummary {
        &self.summary
    }
    fn tally_at(&self, t: SimTime) -> Tally {
        self.with_moment(t, |m| m.tally.clone())
    }
    fn metrics_at(&self, t: SimTime) -> Metrics {
        self.with_moment(t, |m| m.world.metrics())
    }
    fn bookmarks(&self) -> &[Tally] {
        &self.bookmarks
    }
    /// Replays each stretch between checkpoints that `range` covers (`visit` must not read
    /// the recording meanwhile).
    fn visit(&self, range: Range<usize>, visit: &mut dyn FnMut(&Event, Found, &Tally)) {
        let mut start = range.start;
        while start < range.end {
            let checkpoint = self
                .bookmarks
                .partition_point(|b| b.events <= start)
                .saturating_sub(1);
            let next = self.bookmarks.get(checkpoint + 1);
            let end = next.map_or(range.end, |b| b.events.min(range.end));
            self.visit_stretch(checkpoint, start..end, visit);
            start = end;
        }
    }
}
