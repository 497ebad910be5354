//! What the laboratory's views read from a run, whichever kind it is: a simulated
//! [`Recording`] (checkpoints, replayed on demand) or a [`TracedRun`] that keeps its whole
//! trace (a live run as it grows, its recording, or the simulation set beside it). Pure and
//! tested natively (`tests/run_reading.rs`): both kinds answer every question alike; the
//! views (`app::sandbox::reading::ShownRun`) never know which they read.

use std::rc::Rc;

use crate::model::overview::{FailoverGroup, Overview};
use crate::model::{
    CheckId, CheckStatus, ClientId, Event, Found, Lifecycle, LifecyclePoint, Metrics, Recording,
    Run, Scenario, SimDuration, SimTime, Snapshot, Violation, ViolationDetail, Window, WriteRecord,
};

/// How many writes had reached storage by some time, and how they fared.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WriteCounts {
    /// Writes storage decided on.
    pub total: usize,
    /// Of which the fence rejected.
    pub rejected: usize,
    /// Of which accepted although a higher token was stored.
    pub stale: usize,
}

/// The questions the views ask of a run, every one as of a time `t`.
pub trait RunReading {
    /// The scenario the run followed (for a live run: the faults applied, at their times).
    fn scenario(&self) -> &Scenario;
    /// When the run ends (for a live run still going: now).
    fn end(&self) -> SimTime;
    /// The timeline's lanes over the whole run.
    fn overview(&self) -> &Overview;
    /// The failovers up to `t`, at the timeline's resolution (each kind of run puts the
    /// checkers' failovers into its overview, so both answer by the overview's rules).
    fn failovers_until(&self, t: SimTime) -> &[FailoverGroup] {
        self.overview().failovers_until(t)
    }
    /// Everything a view draws at `t`.
    fn state_at(&self, t: SimTime) -> Snapshot;
    /// The time of the latest event at or before `t`.
    fn latest_event_at(&self, t: SimTime) -> Option<SimTime>;
    /// The writes storage decided on up to `t`, counted.
    fn write_counts_at(&self, t: SimTime) -> WriteCounts;
    /// The last `max` writes storage decided on at or before `t`, with the checkers' findings.
    fn writes_before(&self, t: SimTime, max: usize) -> Window<(WriteRecord, Found)>;
    /// One check's status as of `t`.
    fn check_at(&self, id: CheckId, t: SimTime) -> CheckStatus;
    /// The last `max` times a lost flag was set at or before `t`.
    fn losses_before(&self, t: SimTime, max: usize) -> Window<(ClientId, LifecyclePoint)>;
    /// The checkers' measurements as of `t`.
    fn metrics_at(&self, t: SimTime) -> Metrics;
    /// The checkers' measurements over the whole run.
    fn metrics(&self) -> &Metrics;
    /// The last `max` events at or before `t`, with the checkers' findings.
    fn events_before(&self, t: SimTime, max: usize) -> Window<(Event, Found)>;
    /// How many events the whole run has.
    fn event_count(&self) -> usize;
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
            ViolationDetail::WriteAfterLeaseEnded { ended_at, .. } => {
                *ended_at = self.shown_time(*ended_at)
            }
            ViolationDetail::StaleAccepted { .. } => {}
        }
        shown
    }
}

impl RunReading for Recording {
    fn scenario(&self) -> &Scenario {
        Recording::scenario(self)
    }
    fn end(&self) -> SimTime {
        Recording::end(self)
    }
    fn overview(&self) -> &Overview {
        Recording::overview(self)
    }
    fn state_at(&self, t: SimTime) -> Snapshot {
        Recording::state_at(self, t)
    }
    fn latest_event_at(&self, t: SimTime) -> Option<SimTime> {
        self.tally_at(t).latest
    }
    fn write_counts_at(&self, t: SimTime) -> WriteCounts {
        let tally = self.tally_at(t);
        WriteCounts {
            total: tally.writes,
            rejected: tally.writes_rejected(),
            stale: tally.writes_stale,
        }
    }
    fn writes_before(&self, t: SimTime, max: usize) -> Window<(WriteRecord, Found)> {
        Recording::writes_before(self, t, max)
    }
    fn check_at(&self, id: CheckId, t: SimTime) -> CheckStatus {
        Recording::check_at(self, id, t)
    }
    fn losses_before(&self, t: SimTime, max: usize) -> Window<(ClientId, LifecyclePoint)> {
        Recording::losses_before(self, t, max)
    }
    fn metrics_at(&self, t: SimTime) -> Metrics {
        Recording::metrics_at(self, t)
    }
    fn metrics(&self) -> &Metrics {
        Recording::metrics(self)
    }
    fn events_before(&self, t: SimTime, max: usize) -> Window<(Event, Found)> {
        Recording::events_before(self, t, max)
    }
    fn event_count(&self) -> usize {
        Recording::event_count(self)
    }
}

/// The last `max` of `items` with what the checkers found at each, and how many there were.
fn last<T: Clone>(items: &[T], found: &[Found], max: usize) -> Window<(T, Found)> {
    let first = items.len().saturating_sub(max);
    Window {
        items: items[first..]
            .iter()
            .cloned()
            .zip(found[first..].iter().copied())
            .collect(),
        total: items.len(),
    }
}

/// The last `max` of `items`, and how many there were.
fn last_plain<T: Clone>(items: &[T], max: usize) -> Window<T> {
    Window {
        items: items[items.len().saturating_sub(max)..].to_vec(),
        total: items.len(),
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

impl RunReading for TracedRun {
    fn scenario(&self) -> &Scenario {
        self.run.scenario()
    }
    fn end(&self) -> SimTime {
        self.run.end()
    }
    fn overview(&self) -> &Overview {
        &self.overview
    }
    fn state_at(&self, t: SimTime) -> Snapshot {
        self.run.state_at(t)
    }
    fn latest_event_at(&self, t: SimTime) -> Option<SimTime> {
        self.run.events_until(t).last().map(|e| e.at)
    }
    fn write_counts_at(&self, t: SimTime) -> WriteCounts {
        let log = self.run.storage_log_until(t);
        let found = &self.run.storage_found()[..log.len()];
        WriteCounts {
            total: log.len(),
            rejected: log.iter().filter(|w| !w.verdict.accepted()).count(),
            stale: found.iter().filter(|f| f.stale_over().is_some()).count(),
        }
    }
    fn writes_before(&self, t: SimTime, max: usize) -> Window<(WriteRecord, Found)> {
        last(self.run.storage_log_until(t), self.run.storage_found(), max)
    }
    fn check_at(&self, id: CheckId, t: SimTime) -> CheckStatus {
        self.run.check_at(id, t)
    }
    fn losses_before(&self, t: SimTime, max: usize) -> Window<(ClientId, LifecyclePoint)> {
        let mut losses: Vec<(ClientId, LifecyclePoint)> = (0..self.run.scenario().clients)
            .map(ClientId)
            .flat_map(|c| {
                self.run
                    .lifecycle_history(c)
                    .iter()
                    .filter(move |p| p.from <= t && matches!(p.state, Lifecycle::Lost(_)))
                    .map(move |p| (c, *p))
            })
            .collect();
        losses.sort_by_key(|(c, p)| (p.from, c.0));
        last_plain(&losses, max)
    }
    fn metrics_at(&self, t: SimTime) -> Metrics {
        self.run.metrics_at(t)
    }
    fn metrics(&self) -> &Metrics {
        self.run.metrics()
    }
    fn events_before(&self, t: SimTime, max: usize) -> Window<(Event, Found)> {
        last(self.run.events_until(t), self.run.found(), max)
    }
    fn event_count(&self) -> usize {
        self.run.events().len()
    }
    fn shown_time(&self, t: SimTime) -> SimTime {
        crate::lab::live::shown_time(t)
    }
    fn shown_length(&self, d: SimDuration) -> SimDuration {
        crate::lab::live::shown_length(d)
    }
}
