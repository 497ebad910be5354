//! A run kept small, whatever its length: instead of the whole trace, a checkpoint of the
//! world every [`CHECKPOINT_EVENTS`] events with the running tallies at that point, the
//! timeline's [`Overview`] (with the failovers the checkers found, which the checkpoints
//! do not keep), and the trace hash computed as the events stream past. Any
//! moment is rebuilt exactly by restoring the nearest earlier checkpoint and replaying from
//! it (as RaftScope's state.js does), so memory grows with the checkpoints (a few kilobytes
//! each) instead of with the events, and a view asks only for the window it shows.
//!
//! The [`Recorder`] simulates in slices of a given number of events, so a driver can yield
//! between slices; the finished [`Recording`] answers the views' questions.

use super::check::{CheckId, CheckReport, CheckStatus, Found, Metrics};
use super::checked::CheckedWorld;
use super::client::Lifecycle;
use super::ids::{ClientId, FencingToken, NodeId};
use super::msg::Message;
use super::overview::Overview;
use super::run::{ClientSnapshot, LifecyclePoint, MessageFate, MessageRecord, Snapshot};
use super::scenario::Scenario;
use super::service::ServiceEvent;
use super::storage::WriteRecord;
use super::time::{SimDuration, SimTime};
use super::trace::{Event, EventKind, TraceHasher};
use std::cell::RefCell;

/// Events between two checkpoints: a view's replay costs at most about this many steps.
pub const CHECKPOINT_EVENTS: usize = 4096;

/// Running counts and the state a view draws, as of some point of the trace.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Tally {
    /// Events so far.
    pub events: usize,
    /// Packets so far (sent, or dropped as they were sent).
    pub packets: usize,
    /// Writes storage decided on so far.
    pub writes: usize,
    /// Of which accepted.
    pub writes_accepted: usize,
    /// Of which accepted although a higher token was stored.
    pub writes_stale: usize,
    /// Renews sent (one dropped as it was sent counts too).
    pub renews_sent: usize,
    /// RenewOk answers that reached their client.
    pub renews_ok: usize,
    /// Lost flags set.
    pub losses: usize,
    /// How often each check broke so far.
    pub broken: [u32; 4],
    /// The time of the latest event.
    pub latest: Option<SimTime>,
    lifecycles: Vec<LifecyclePoint>,
    paused_until: Vec<Option<SimTime>>,
    crashed_at: Vec<Option<SimTime>>,
    leases: Vec<(ClientId, FencingToken)>,
    in_flight: Vec<MessageRecord>,
}

impl Tally {
    fn new(clients: u8) -> Tally {
        let n = usize::from(clients);
        Tally {
            events: 0,
            packets: 0,
            writes: 0,
            writes_accepted: 0,
            writes_stale: 0,
            renews_sent: 0,
            renews_ok: 0,
            losses: 0,
            broken: [0; 4],
            latest: None,
            lifecycles: vec![
                LifecyclePoint {
                    from: SimTime::ZERO,
                    state: Lifecycle::Idle,
                    token: None,
                };
                n
            ],
            paused_until: vec![None; n],
            crashed_at: vec![None; n],
            leases: Vec::new(),
            in_flight: Vec::new(),
        }
    }

    /// Writes rejected by the fence so far.
    pub fn writes_rejected(&self) -> usize {
        self.writes - self.writes_accepted
    }

    fn client(&self, node: NodeId) -> Option<usize> {
        match node {
            NodeId::Client(c) if c.index() < self.lifecycles.len() => Some(c.index()),
            _ => None,
        }
    }

    fn add(&mut self, e: &Event, found: Found) {
        self.events += 1;
        for check in found.checks() {
            self.broken[check.index()] += 1;
        }
        self.latest = Some(e.at);
        match e.kind {
            EventKind::Sent { msg, .. } => {
                self.packets += 1;
                self.renews_sent += usize::from(matches!(msg, Message::Renew { .. }));
                self.in_flight.extend(MessageRecord::started_by(e));
            }
            EventKind::Delivered { id, msg, .. } => {
                self.in_flight.retain(|m| m.id != id);
                self.renews_ok += usize::from(matches!(msg, Message::RenewOk { .. }));
            }
            EventKind::Dropped {
                id, msg, sent_at, ..
            } => {
                let before = self.in_flight.len();
                self.in_flight.retain(|m| m.id != id);
                if self.in_flight.len() == before {
                    self.packets += 1;
                }
                let renew_at_send = matches!(msg, Message::Renew { .. }) && sent_at == e.at;
                self.renews_sent += usize::from(renew_at_send);
            }
            EventKind::Write(w) => {
                self.writes += 1;
                if w.verdict.accepted() {
                    self.writes_accepted += 1;
                    self.writes_stale += usize::from(found.stale_over().is_some());
                }
            }
            EventKind::Lifecycle { to, token } => {
                if let Some(i) = self.client(e.node) {
                    self.lifecycles[i] = LifecyclePoint {
                        from: e.at,
                        state: to,
                        token,
                    };
                    self.losses += usize::from(matches!(to, Lifecycle::Lost(_)));
                }
            }
            EventKind::Service(ServiceEvent::Granted { client, token, .. }) => {
                self.leases.push((client, token))
            }
            EventKind::Service(ServiceEvent::Ended { token, .. }) => {
                if let Some(i) = self.leases.iter().rposition(|l| l.1 == token) {
                    self.leases.remove(i);
                }
            }
            EventKind::Paused { until, .. } => {
                if let Some(i) = self.client(e.node) {
                    let longest = self.paused_until[i].map_or(until, |u| u.max(until));
                    self.paused_until[i] = Some(longest);
                }
            }
            EventKind::Crashed => {
                if let Some(i) = self.client(e.node) {
                    self.crashed_at[i].get_or_insert(e.at);
                }
            }
            _ => {}
        }
    }
}

/// The world and the tallies at one point of the trace.
#[derive(Clone, Debug)]
struct Checkpoint {
    world: CheckedWorld,
    tally: Tally,
}

/// A run being simulated, a slice at a time.
#[derive(Debug)]
pub struct Recorder {
    scenario: Scenario,
    world: CheckedWorld,
    tally: Tally,
    hasher: TraceHasher,
    overview: Overview,
    checkpoints: Vec<Checkpoint>,
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
            checkpoints: vec![Checkpoint {
                world: world.clone(),
                tally: tally.clone(),
            }],
            overview: Overview::new(s.clients, world.end()),
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
            self.checkpoints.push(Checkpoint {
                world: self.world.clone(),
                tally: self.tally.clone(),
            });
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
            end,
            scenario: self.scenario,
            hash: self.hasher.finish(),
            checks: outcome.checks,
            metrics: outcome.metrics,
            events: self.tally.events,
            checkpoints: self.checkpoints,
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
    scenario: Scenario,
    end: SimTime,
    hash: u64,
    checks: [CheckReport; 4],
    metrics: Metrics,
    events: usize,
    checkpoints: Vec<Checkpoint>,
    overview: Overview,
    moment: RefCell<Option<Moment>>,
}

/// The last few items of some kind at or before a time, and how many there were in all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window<T> {
    /// The items, oldest first.
    pub items: Vec<T>,
    /// How many there were at or before the time.
    pub total: usize,
}

impl Recording {
    /// Records `s` to its end in one go.
    pub fn of(s: &Scenario) -> Recording {
        Recorder::new(s).finish()
    }

    /// The scenario that produced this run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    /// When the run ended.
    pub fn end(&self) -> SimTime {
        self.end
    }
    /// How many events the trace has.
    pub fn event_count(&self) -> usize {
        self.events
    }
    /// The stable trace hash, the same as [`super::Run::trace_hash`] of the same scenario.
    pub fn trace_hash(&self) -> u64 {
        self.hash
    }
    /// The four check reports for the whole run.
    pub fn checks(&self) -> &[CheckReport; 4] {
        &self.checks
    }
    /// The status of one check over the whole run.
    pub fn check(&self, id: CheckId) -> CheckStatus {
        self.checks[id.index()].status
    }
    /// The run's measurements.
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }
    /// The timeline's view of the whole run.
    pub fn overview(&self) -> &Overview {
        &self.overview
    }
    /// How many checkpoints are kept (memory grows with these, not with the events).
    pub fn checkpoint_count(&self) -> usize {
        self.checkpoints.len()
    }

    /// The status of one check as of `t` (broken only if it broke at or before `t`).
    pub fn check_at(&self, id: CheckId, t: SimTime) -> CheckStatus {
        match self.check(id) {
            CheckStatus::Broken { first, .. } if first.at <= t => {
                self.check_as_of(id, t, &self.tally_at(t))
            }
            _ => self.check_as_of(id, t, &Tally::new(0)),
        }
    }

    /// The status of one check as of `t`, given the tally at `t` (saves a replay).
    pub fn check_as_of(&self, id: CheckId, t: SimTime, tally: &Tally) -> CheckStatus {
        match self.check(id) {
            CheckStatus::Broken { first, .. } if first.at > t => CheckStatus::Holding,
            CheckStatus::Broken { first, .. } => CheckStatus::Broken {
                first,
                count: tally.broken[id.index()],
            },
            s => s,
        }
    }

    /// The checkers' measurements as of `t` (every event at or before `t`), by the same
    /// rules as the whole run's [`Recording::metrics`].
    pub fn metrics_at(&self, t: SimTime) -> Metrics {
        self.with_moment(t, |m| m.world.metrics())
    }

    /// The counts and state as of `t` (every event at or before `t`).
    pub fn tally_at(&self, t: SimTime) -> Tally {
        self.with_moment(t, |m| m.tally.clone())
    }

    /// The time of the first event after `t`.
    pub fn next_event_after(&self, t: SimTime) -> Option<SimTime> {
        let mut world = self.with_moment(t, |m| m.world.clone());
        let mut next = None;
        while next.is_none() && world.step() {
            world.drain(|e, _, _| {
                next.get_or_insert(e.at);
            });
        }
        // A run cut short keeps the world of the longer one: its events end at the cut.
        next.filter(|&at| at <= self.end)
    }

    /// The time of the last event before `t`.
    pub fn previous_event_before(&self, t: SimTime) -> Option<SimTime> {
        let before = SimTime(t.0.checked_sub(1)?);
        self.tally_at(before).latest
    }

    /// Everything a view draws at `t`, as [`super::Run::state_at`] gives it (except that an
    /// in-flight packet's fate is not known yet: it reads [`MessageFate::InFlight`]).
    pub fn state_at(&self, t: SimTime) -> Snapshot {
        self.with_moment(t, |m| self.snapshot(t, &m.world, &m.tally))
    }

    fn snapshot(&self, t: SimTime, world: &CheckedWorld, tally: &Tally) -> Snapshot {
        let clients = tally
            .lifecycles
            .iter()
            .enumerate()
            .map(|(i, p)| {
                let id = ClientId(i as u8);
                let crashed = tally.crashed_at[i].is_some();
                ClientSnapshot {
                    id,
                    lifecycle: p.state,
                    token: p.token,
                    lost_flag: matches!(p.state, Lifecycle::Lost(_)),
                    paused: !crashed && tally.paused_until[i].is_some_and(|u| u > t),
                    crashed,
                    clock: world.clock_at(NodeId::Client(id), t),
                }
            })
            .collect();
        Snapshot {
            at: t,
            clients,
            holder: tally.leases.first().copied(),
            service_clock: world.clock_at(NodeId::Service, t),
            in_flight: tally
                .in_flight
                .iter()
                .map(|m| (*m, m.progress_permille(t)))
                .collect(),
            writes_so_far: tally.writes,
            broken: CheckId::ALL
                .into_iter()
                .filter(|&c| self.check_as_of(c, t, tally).is_broken())
                .collect(),
        }
    }

    /// The last `max` events at or before `t`, with what the checkers found at each.
    pub fn events_before(&self, t: SimTime, max: usize) -> Window<(Event, Found)> {
        self.last_of(
            t,
            max,
            |tally| tally.events,
            |e, found, _| Some((*e, found)),
        )
    }

    /// The last `max` writes storage decided on at or before `t`, with what the checkers
    /// found at each.
    pub fn writes_before(&self, t: SimTime, max: usize) -> Window<(WriteRecord, Found)> {
        self.last_of(
            t,
            max,
            |tally| tally.writes,
            |e, found, _| match e.kind {
                EventKind::Write(w) => Some((w, found)),
                _ => None,
            },
        )
    }

    /// The last `max` times a client's lost flag was set at or before `t`.
    pub fn losses_before(&self, t: SimTime, max: usize) -> Window<(ClientId, LifecyclePoint)> {
        self.last_of(
            t,
            max,
            |tally| tally.losses,
            |e, _, _| match (e.node, e.kind) {
                (
                    NodeId::Client(c),
                    EventKind::Lifecycle {
                        to: to @ Lifecycle::Lost(_),
                        token,
                    },
                ) => Some((
                    c,
                    LifecyclePoint {
                        from: e.at,
                        state: to,
                        token,
                    },
                )),
                _ => None,
            },
        )
    }

    /// The last `max` packets sent at or before `t`, with their fate as of `t`.
    pub fn packets_before(&self, t: SimTime, max: usize) -> Window<MessageRecord> {
        let total = self.tally_at(t).packets;
        let first = total.saturating_sub(max);
        let start = self.checkpoint_holding(first, |tally| tally.packets, t);
        let mut seen = self.checkpoints[start].tally.packets;
        let mut items: Vec<MessageRecord> = Vec::new();
        let mut visit = |e: &Event, _: Found, tally: &Tally| {
            if tally.packets > seen {
                seen = tally.packets;
                if seen > first {
                    items.extend(MessageRecord::started_by(e));
                }
                return;
            }
            let (id, fate) = match e.kind {
                EventKind::Delivered { id, .. } => (id, MessageFate::Delivered(e.at)),
                EventKind::Dropped { id, reason, .. } => (id, MessageFate::Dropped(e.at, reason)),
                _ => return,
            };
            if let Some(m) = items.iter_mut().find(|m| m.id == id) {
                m.fate = fate;
            }
        };
        for i in start..=self.checkpoint_before(t) {
            self.visit_stretch(i, t, &mut visit);
        }
        Window { items, total }
    }

    /// The last `max` items that `pick` finds at or before `t`, where `count` tells how many
    /// a tally has seen (`pick` finds one exactly when the count goes up). Stretches between
    /// checkpoints that hold none of them are not replayed.
    fn last_of<T>(
        &self,
        t: SimTime,
        max: usize,
        count: impl Fn(&Tally) -> usize,
        pick: impl Fn(&Event, Found, &Tally) -> Option<T>,
    ) -> Window<T> {
        let total = count(&self.tally_at(t));
        let first = total.saturating_sub(max);
        let last = self.checkpoint_before(t);
        let mut items = Vec::new();
        for i in self.checkpoint_holding(first, &count, t)..=last {
            let begin = count(&self.checkpoints[i].tally).max(first);
            let limit = match self.checkpoints.get(i + 1).filter(|_| i < last) {
                Some(next) => count(&next.tally),
                None => total,
            };
            if limit <= begin {
                continue;
            }
            self.visit_stretch(i, t, &mut |e, found, tally| {
                let index = count(tally);
                if index > begin && index <= limit {
                    items.extend(pick(e, found, tally));
                }
            });
        }
        Window { items, total }
    }

    /// The index of the checkpoint at or before `t` whose tally had seen at most `first`
    /// items.
    fn checkpoint_holding(
        &self,
        first: usize,
        count: impl Fn(&Tally) -> usize,
        t: SimTime,
    ) -> usize {
        let holding = self
            .checkpoints
            .partition_point(|c| count(&c.tally) <= first)
            .saturating_sub(1);
        holding.min(self.checkpoint_before(t))
    }

    fn checkpoint_before(&self, t: SimTime) -> usize {
        self.checkpoints
            .partition_point(|c| c.world.now() <= t)
            .saturating_sub(1)
    }

    /// Reads the moment `t`: the world and tally after every event at or before `t`, and
    /// the events since their checkpoint. The last moment asked about serves when no event
    /// lies between it and `t` (the world may then stand a little after `t`: read its clocks
    /// at `t`); it is continued when it is earlier in the same stretch; otherwise the
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
                let Checkpoint { world, tally } = &self.checkpoints[checkpoint];
                Moment {
                    checkpoint,
                    at: world.now(),
                    world: world.clone(),
                    tally: tally.clone(),
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

    /// Visits, in order and with the tally after each, the events after checkpoint `i` up
    /// to the next checkpoint, or up to `t` when `i` is the last checkpoint before `t`.
    fn visit_stretch(&self, i: usize, t: SimTime, visit: &mut impl FnMut(&Event, Found, &Tally)) {
        let Some(from) = self.checkpoints.get(i) else {
            return;
        };
        let mut tally = from.tally.clone();
        if i == self.checkpoint_before(t) {
            return self.with_moment(t, |m| {
                for (e, found) in &m.events {
                    tally.add(e, *found);
                    visit(e, *found, &tally);
                }
            });
        }
        let Some(next) = self.checkpoints.get(i + 1) else {
            return;
        };
        let mut world = from.world.clone();
        world.run_until(next.world.now());
        world.drain(|e, found, _| {
            if tally.events < next.tally.events {
                tally.add(e, found);
                visit(e, found, &tally);
            }
        });
    }
}
