//! The live recorder: merges what the live nodes report into one timeline, a trace in the
//! model's own format that the checkers read as they read a simulated run's. Pure: reports
//! arrive with their stamps, whenever and in whatever order the page receives them.
//!
//! Each source (the page, the service's worker, the contender's worker) reports its own
//! events in its own time order, but the sources reach the page at different moments: while
//! the page is frozen, the workers' reports queue up and arrive after the page's own first
//! events on waking. So events wait in a buffer and are committed, in stamp order, only up
//! to the earliest "reported up to" mark over all sources: nothing can still arrive before
//! that. Committed events are converted to times since the run's start ([`Stamp`] minus the
//! origin) and packets are renumbered on the one timeline; nothing else is changed.

use std::collections::BTreeMap;

use super::trace::{Freeze, LiveTrace};
use super::{Stamp, Stamped};
use crate::model::scenario::limits::MAX_FAULTS;
use crate::model::{Event, EventKind, MsgId, NodeId, Run, Scenario, SimTime, TimedFault};

/// A source of reports: one per live node's shell.
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, serde::Serialize, serde::Deserialize,
)]
pub enum Source {
    /// The page: client A, and the faults the learner applies.
    Page,
    /// The worker of the lock service and storage.
    Service,
    /// The worker of contender B.
    Contender,
}

const SOURCES: [Source; 3] = [Source::Page, Source::Service, Source::Contender];

/// The live run being recorded.
#[derive(Clone, Debug)]
pub struct LiveRecorder {
    scenario: Scenario,
    origin: Stamp,
    pending: Vec<(Stamped, u64)>,
    arrivals: u64,
    marks: [Stamp; 3],
    committed_to: SimTime,
    events: Vec<Event>,
    /// Each sender's own packet number → the packet's number on the one timeline.
    ids: BTreeMap<(NodeId, MsgId), MsgId>,
    /// Reports that arrived for a moment already committed (should stay zero).
    late: usize,
}

impl LiveRecorder {
    /// Starts recording a live run of `s` (its faults are ignored: the applied ones are
    /// recorded as they happen) that started at `origin` on the shared timeline.
    pub fn new(s: &Scenario, origin: Stamp) -> LiveRecorder {
        let mut scenario = s.clone();
        scenario.faults.0.clear();
        LiveRecorder {
            scenario,
            origin,
            pending: Vec::new(),
            arrivals: 0,
            marks: [origin; 3],
            committed_to: SimTime::ZERO,
            events: Vec::new(),
            ids: BTreeMap::new(),
            late: 0,
        }
    }

    /// The scenario, with the faults applied so far as its plan.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }

    /// Where the run started on the shared timeline.
    pub fn origin(&self) -> Stamp {
        self.origin
    }

    /// A stamp as time since the run's start.
    pub fn time_of(&self, t: Stamp) -> SimTime {
        SimTime(t.since(self.origin).0)
    }

    /// Takes `events` from `source`, which has now reported everything up to `up_to`.
    pub fn report(&mut self, source: Source, events: Vec<Stamped>, up_to: Stamp) {
        for e in events {
            self.arrivals += 1;
            self.pending.push((e, self.arrivals));
        }
        let mark = &mut self.marks[source as usize];
        *mark = (*mark).max(up_to);
    }

    /// Commits every buffered event that no source can still precede.
    pub fn commit(&mut self) {
        let safe = SOURCES
            .iter()
            .map(|&s| self.marks[s as usize])
            .min()
            .unwrap_or(self.origin);
        self.commit_until(safe);
    }

    /// Commits everything buffered (the run has stopped: nothing more will arrive).
    pub fn commit_all(&mut self) {
        self.commit_until(Stamp(u64::MAX));
    }

    fn commit_until(&mut self, safe: Stamp) {
        self.pending.sort_by_key(|(e, arrival)| (e.at, *arrival));
        let n = self.pending.partition_point(|(e, _)| e.at <= safe);
        let ready: Vec<Stamped> = self.pending.drain(..n).map(|(e, _)| e).collect();
        for e in ready {
            self.commit_one(e);
        }
    }

    /// Events committed so far, times since the start.
    pub fn events(&self) -> &[Event] {
        &self.events
    }

    /// Reports that came in for a moment already committed (they were recorded at it).
    pub fn late_reports(&self) -> usize {
        self.late
    }

    /// The faults applied so far, at their times: the plan this live run followed.
    pub fn plan(&self) -> &[TimedFault] {
        &self.scenario.faults.0
    }

    /// The committed part of the run, as a run the views read (its end: `end`).
    pub fn run(&self, end: SimTime) -> Run {
        let end = end.max(self.committed_to);
        Run::from_trace(self.scenario.clone(), end, self.events.clone())
    }

    /// The run has stopped at `end`: every report is in. The recording's scenario lasts as
    /// long as the recording (whole milliseconds, at least a second), so that it validates
    /// and its plan can be simulated.
    pub fn finish(
        mut self,
        end: Stamp,
        freezes: Vec<Freeze>,
        hidden_at: Option<SimTime>,
    ) -> LiveTrace {
        self.commit_all();
        let end = self.time_of(end).max(self.committed_to);
        let ms = end.as_micros().div_ceil(1_000).max(1_000);
        self.scenario.duration = crate::model::SimDuration::from_millis(ms);
        LiveTrace {
            scenario: self.scenario,
            end,
            events: self.events,
            freezes,
            hidden_at,
        }
    }

    fn renumber(&mut self, sender: NodeId, id: MsgId) -> MsgId {
        let next = MsgId(self.ids.len() as u32);
        *self.ids.entry((sender, id)).or_insert(next)
    }

    /// The packet's number on the one timeline, if its send was recorded.
    fn known(&self, sender: NodeId, id: MsgId) -> Option<MsgId> {
        self.ids.get(&(sender, id)).copied()
    }

    fn commit_one(&mut self, e: Stamped) {
        let mut at = self.time_of(e.at);
        if at < self.committed_to {
            self.late += 1;
            at = self.committed_to;
        }
        self.committed_to = at;
        let node = e.node;
        let origin = self.origin;
        let time = |t: SimTime| SimTime(Stamp(t.0).since(origin).0);
        let kind = match e.kind {
            EventKind::Sent {
                id,
                to,
                msg,
                deliver_at,
            } => EventKind::Sent {
                id: self.renumber(node, id),
                to,
                msg,
                deliver_at: time(deliver_at),
            },
            EventKind::Dropped {
                id,
                to,
                sent_at,
                msg,
                reason,
            } => EventKind::Dropped {
                id: self.renumber(node, id),
                to,
                sent_at: time(sent_at),
                msg,
                reason,
            },
            EventKind::Delivered {
                id,
                from,
                sent_at,
                msg,
            } => {
                let Some(id) = self.known(from, id) else {
                    // A packet whose send was never reported: nothing to draw it from.
                    return;
                };
                EventKind::Delivered {
                    id,
                    from,
                    sent_at: time(sent_at),
                    msg,
                }
            }
            EventKind::Paused {
                until,
                in_write_path,
            } => EventKind::Paused {
                until: time(until),
                in_write_path,
            },
            EventKind::Fault { fault } => {
                // The plan keeps as many faults as a scenario may have; the trace keeps all.
                if self.scenario.faults.0.len() < MAX_FAULTS {
                    self.scenario.faults.0.push(TimedFault { at, fault });
                }
                e.kind
            }
            EventKind::Write(mut w) => {
                w.at = at;
                EventKind::Write(w)
            }
            other => other,
        };
        self.events.push(Event { at, node, kind });
    }
}
