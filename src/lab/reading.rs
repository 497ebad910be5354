//! What the laboratory's views read from a run, whichever kind it is: a simulated
//! [`Recording`] (checkpoints, replayed on demand) or a [`TracedRun`] that keeps its whole
//! trace (a live run as it grows, its recording, or the simulation set beside it). Each is
//! a [`RunStore`], so every question is a [`RunQuestions`] method, answered by the same code
//! for both; this adds only the timeline's lanes and how times are printed. Tested natively
//! (`tests/run_reading.rs`); the views (`app::sandbox::reading::ShownRun`) never know which
//! kind they read.
//!
//! [`RunQuestions`]: crate::model::RunQuestions

use std::ops::Range;
use std::rc::Rc;

use crate::model::overview::{FailoverGroup, Overview};
use crate::model::{
    Event, Found, Metrics, Recording, Run, RunStore, RunSummary, SimDuration, SimTime, Tally,
    Violation, ViolationDetail,
};

/// A run as the views read it: its store (and so every question), the timeline's lanes, and
/// how its times are printed.
pub trait RunReading: RunStore {
    /// The timeline's lanes over the whole run.
    fn overview(&self) -> &Overview;
    /// The failovers up to `t`, at the timeline's resolution (each kind of run puts the
    /// checkers' failovers into its overview, so both answer by the overview's rules).
    fn failovers_until(&self, t: SimTime) -> &[FailoverGroup] {
        self.overview().failovers_until(t)
    }
    /// A time as the views print it.
    fn shown_time(&self, t: SimTime) -> SimTime {
        t
    }
    /// A length of time as the views print it.
    fn shown_length(&self, d: SimDuration) -> SimDuration {
        d
    }
    /// A violation with its times as the views print them.
    fn shown_violation(&self, v: Violation) -> Violation {
        let mut shown = v;
        shown.at = self.shown_time(v.at);
        match &mut shown.detail {
            ViolationDetail::TwoHolders { remaining, .. } => {
                *remaining = self.shown_length(*remaining)
            }
            ViolationDetail::WriteAfterLost { lost_at, .. } => *lost_at = self.shown_time(*lost_at),
            ViolationDetail::WriteAfterNotOwner { told_at, .. } => {
                *told_at = self.shown_time(*told_at)
            }
            ViolationDetail::WriteAfterDeadline { sent_at, .. } => {
                *sent_at = self.shown_time(*sent_at)
            }
            ViolationDetail::WriteAfterRelease { released_at, .. } => {
                *released_at = self.shown_time(*released_at)
            }
            ViolationDetail::StaleAccepted { .. } => {}
        }
        shown
    }
}

impl RunReading for Recording {
    fn overview(&self) -> &Overview {
        Recording::overview(self)
    }
}

/// A run that keeps its whole trace, on a live run's timeline (real time since the live run
/// started, printed to the millisecond), with the timeline's lanes built once from its events.
pub struct TracedRun {
    run: Rc<Run>,
    overview: Overview,
}

impl TracedRun {
    /// Reads `run`, building its lanes over the run's length from its events and the
    /// checkers' findings and failovers.
    pub fn new(run: Rc<Run>) -> TracedRun {
        let overview = Overview::of_run(&run);
        TracedRun { run, overview }
    }
}

/// The run's own store answers.
impl RunStore for TracedRun {
    fn summary(&self) -> &RunSummary {
        self.run.summary()
    }
    fn tally_at(&self, t: SimTime) -> Tally {
        self.run.tally_at(t)
    }
    fn metrics_at(&self, t: SimTime) -> Metrics {
        self.run.metrics_at(t)
    }
    fn bookmarks(&self) -> &[Tally] {
        self.run.bookmarks()
    }
    fn visit(&self, range: Range<usize>, visit: &mut dyn FnMut(&Event, Found, &Tally)) {
        self.run.visit(range, visit)
    }
}

impl RunReading for TracedRun {
    fn overview(&self) -> &Overview {
        &self.overview
    }
    fn shown_time(&self, t: SimTime) -> SimTime {
        crate::lab::live::shown_time(t)
    }
    fn shown_length(&self, d: SimDuration) -> SimDuration {
        crate::lab::live::shown_length(d)
    }
}
