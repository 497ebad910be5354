//! One way to read a run, however it is stored. A [`RunStore`] offers a few primitives: the
//! [`Tally`] after every event up to a moment, the checkers' measures then, the tallies it
//! keeps as bookmarks, and the events of an index range, each with the tally after it. Every
//! question a view asks ([`RunQuestions`]) is answered once, from those primitives alone. A
//! [`super::Recording`] keeps checkpoints of the world and replays them; a [`super::Run`]
//! keeps its whole trace and slices it. Both fold events into their tallies with the same
//! `Tally::add`, so both count by the same rules.

use std::ops::Range;

use super::check::{CheckId, CheckReport, CheckStatus, Found, Metrics};
use super::client::Lifecycle;
use super::faults::Fault;
use super::ids::{ClientId, FencingToken, NodeId};
use super::msg::Message;
use super::run::{LifecyclePoint, MessageFate, MessageRecord};
use super::scenario::Scenario;
use super::service::ServiceEvent;
use super::storage::WriteRecord;
use super::time::{LocalNow, NodeClock, SimTime};
use super::trace::{Event, EventKind};

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
    /// The tally before any event of a run with `clients` clients.
    pub(crate) fn new(clients: u8) -> Tally {
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

    /// Counts event `e`, at which the checkers found `found`.
    pub(crate) fn add(&mut self, e: &Event, found: Found) {
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

/// The last few items of some kind at or before a time, and how many there were in all.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window<T> {
    /// The items, oldest first.
    pub items: Vec<T>,
    /// How many there were at or before the time.
    pub total: usize,
}

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

/// One client as a view draws it at one instant.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct ClientSnapshot {
    /// The client.
    pub id: ClientId,
    /// Its lifecycle state.
    pub lifecycle: Lifecycle,
    /// The token held or last held.
    pub token: Option<FencingToken>,
    /// Whether its lost flag is set.
    pub lost_flag: bool,
    /// Whether it is frozen by a pause.
    pub paused: bool,
    /// Whether it has crashed.
    pub crashed: bool,
    /// What its own clocks read.
    pub clock: LocalNow,
}

/// Everything a view needs at one instant.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The instant.
    pub at: SimTime,
    /// Each client.
    pub clients: Vec<ClientSnapshot>,
    /// The service's holder and token at that instant.
    pub holder: Option<(ClientId, FencingToken)>,
    /// The service's clocks.
    pub service_clock: LocalNow,
    /// Packets on the wire, with their progress in thousandths (their fate is not known yet:
    /// each reads [`MessageFate::InFlight`]).
    pub in_flight: Vec<(MessageRecord, u32)>,
    /// Storage log entries so far.
    pub writes_so_far: usize,
    /// Checks broken at or before this instant.
    pub broken: Vec<CheckId>,
}

/// What holds for a whole run, however it is stored.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct RunSummary {
    /// The scenario the run followed (for a live run: the faults applied, at their times).
    pub scenario: Scenario,
    /// When the run ends.
    pub end: SimTime,
    /// How many events the run has.
    pub events: usize,
    /// The stable trace hash (FNV-1a over the canonical encoding of every event).
    pub hash: u64,
    /// The four check reports.
    pub checks: [CheckReport; 4],
    /// The checkers' measurements.
    pub metrics: Metrics,
}

/// How a run is stored: its summary, and the primitives every question is answered from.
pub trait RunStore {
    /// What holds for the whole run.
    fn summary(&self) -> &RunSummary;
    /// The tally after every event at or before `t`.
    fn tally_at(&self, t: SimTime) -> Tally;
    /// The checkers' measurements after every event at or before `t`, by the same rules as
    /// the whole run's [`RunQuestions::metrics`].
    fn metrics_at(&self, t: SimTime) -> Metrics;
    /// The tallies the store keeps along the trace, oldest first, the first before any
    /// event: a replay starts at one of them, so a stretch between two of them in which a
    /// count stays the same holds nothing of that kind and need not be visited.
    fn bookmarks(&self) -> &[Tally];
    /// Visits the events whose positions in the trace lie in `range` (within the run), in
    /// order, each with what the checkers found at it and the tally after it.
    fn visit(&self, range: Range<usize>, visit: &mut dyn FnMut(&Event, Found, &Tally));
}

/// The questions the views ask of a run, each answered once for every kind of store.
pub trait RunQuestions: RunStore {
    /// The scenario the run followed (for a live run: the faults applied, at their times).
    fn scenario(&self) -> &Scenario {
        &self.summary().scenario
    }
    /// When the run ends.
    fn end(&self) -> SimTime {
        self.summary().end
    }
    /// How many events the whole run has.
    fn event_count(&self) -> usize {
        self.summary().events
    }
    /// The stable trace hash, the same for every store of the same events.
    fn trace_hash(&self) -> u64 {
        self.summary().hash
    }
    /// The four check reports for the whole run.
    fn checks(&self) -> &[CheckReport; 4] {
        &self.summary().checks
    }
    /// The checkers' measurements over the whole run.
    fn metrics(&self) -> &Metrics {
        &self.summary().metrics
    }

    /// The status of one check over the whole run.
    fn check(&self, id: CheckId) -> CheckStatus {
        self.checks()[id.index()].status
    }

    /// The status of one check as of `t` (broken only if it broke at or before `t`).
    fn check_at(&self, id: CheckId, t: SimTime) -> CheckStatus {
        // Only a check broken by `t` needs the tally, for its count.
        let status = self.check(id);
        match status {
            CheckStatus::Broken { first, .. } if first.at <= t => {
                check_as_of(status, id, t, &self.tally_at(t))
            }
            CheckStatus::Broken { .. } => CheckStatus::Holding,
            _ => status,
        }
    }

    /// Everything a view draws at `t`.
    fn state_at(&self, t: SimTime) -> Snapshot {
        let tally = self.tally_at(t);
        let scenario = self.scenario();
        let clients = (0..scenario.clients)
            .map(|i| client_at(&tally, scenario, ClientId(i), t))
            .collect();
        Snapshot {
            at: t,
            clients,
            holder: tally.leases.first().copied(),
            service_clock: clock_at(scenario, NodeId::Service, t),
            in_flight: tally
                .in_flight
                .iter()
                .map(|m| (*m, m.progress_permille(t)))
                .collect(),
            writes_so_far: tally.writes,
            broken: CheckId::ALL
                .into_iter()
                .filter(|&id| check_as_of(self.check(id), id, t, &tally).is_broken())
                .collect(),
        }
    }

    /// The time of the latest event at or before `t`.
    fn latest_event_at(&self, t: SimTime) -> Option<SimTime> {
        self.tally_at(t).latest
    }

    /// The time of the last event before `t`.
    fn previous_event_before(&self, t: SimTime) -> Option<SimTime> {
        self.latest_event_at(SimTime(t.0.checked_sub(1)?))
    }

    /// The time of the first event after `t`.
    fn next_event_after(&self, t: SimTime) -> Option<SimTime> {
        let next = self.tally_at(t).events;
        let mut at = None;
        if next < self.event_count() {
            self.visit(next..next + 1, &mut |e, _, _| at = Some(e.at));
        }
        at
    }

    /// The writes storage decided on up to `t`, counted.
    fn write_counts_at(&self, t: SimTime) -> WriteCounts {
        let tally = self.tally_at(t);
        WriteCounts {
            total: tally.writes,
            rejected: tally.writes_rejected(),
            stale: tally.writes_stale,
        }
    }

    /// The last `max` events at or before `t`, with what the checkers found at each.
    fn events_before(&self, t: SimTime, max: usize) -> Window<(Event, Found)> {
        last_of(
            self,
            t,
            max,
            |tally| tally.events,
            |e, found| Some((*e, found)),
        )
    }

    /// The last `max` writes storage decided on at or before `t`, with what the checkers
    /// found at each.
    fn writes_before(&self, t: SimTime, max: usize) -> Window<(WriteRecord, Found)> {
        let write = |e: &Event, found| match e.kind {
            EventKind::Write(w) => Some((w, found)),
            _ => None,
        };
        last_of(self, t, max, |tally| tally.writes, write)
    }

    /// The last `max` times a client's lost flag was set at or before `t`.
    fn losses_before(&self, t: SimTime, max: usize) -> Window<(ClientId, LifecyclePoint)> {
        last_of(self, t, max, |tally| tally.losses, |e, _| loss(e))
    }

    /// The last `max` packets sent at or before `t`, with their fate as of `t`.
    fn packets_before(&self, t: SimTime, max: usize) -> Window<MessageRecord> {
        let now = self.tally_at(t);
        let first = now.packets.saturating_sub(max);
        let bookmarks = self.bookmarks();
        let from = &bookmarks[bookmark_holding(bookmarks, &now, first, |tally| tally.packets)];
        let mut seen = from.packets;
        let mut items: Vec<MessageRecord> = Vec::new();
        // Every event from there on: a packet's fate may come in a stretch that sends none.
        self.visit(from.events..now.events, &mut |e, _, tally| {
            if tally.packets > seen {
                seen = tally.packets;
                if seen > first {
                    items.extend(MessageRecord::started_by(e));
                }
            } else {
                settle(&mut items, e);
            }
        });
        Window {
            items,
            total: now.packets,
        }
    }
}

impl<S: RunStore + ?Sized> RunQuestions for S {}

/// A check's whole-run `status` as of `t`, given the tally at `t`.
fn check_as_of(status: CheckStatus, id: CheckId, t: SimTime, tally: &Tally) -> CheckStatus {
    match status {
        CheckStatus::Broken { first, .. } if first.at > t => CheckStatus::Holding,
        CheckStatus::Broken { first, .. } => CheckStatus::Broken {
            first,
            count: tally.broken[id.index()],
        },
        s => s,
    }
}

/// Client `id` as `tally` (taken at `t`) shows it: a crash ends any pause.
fn client_at(tally: &Tally, scenario: &Scenario, id: ClientId, t: SimTime) -> ClientSnapshot {
    let point = tally.lifecycles[id.index()];
    let crashed = tally.crashed_at[id.index()].is_some();
    ClientSnapshot {
        id,
        lifecycle: point.state,
        token: point.token,
        lost_flag: matches!(point.state, Lifecycle::Lost(_)),
        paused: !crashed && tally.paused_until[id.index()].is_some_and(|u| u > t),
        crashed,
        clock: clock_at(scenario, NodeId::Client(id), t),
    }
}

/// What node `n`'s clocks read at `t`, replaying the plan's clock faults up to `t`.
fn clock_at(scenario: &Scenario, n: NodeId, t: SimTime) -> LocalNow {
    let mut clock = NodeClock::new();
    let mut faults: Vec<_> = scenario.faults.0.iter().filter(|f| f.at <= t).collect();
    faults.sort_by_key(|f| f.at);
    for f in faults {
        match f.fault {
            Fault::ClockStep { node, by_micros } if node == n => clock.step_wall(by_micros),
            Fault::ClockDrift { node, ppm } if node == n => clock.set_drift(f.at, ppm),
            _ => {}
        }
    }
    clock.now(t)
}

/// The lost flag that event `e` sets, if it sets one.
fn loss(e: &Event) -> Option<(ClientId, LifecyclePoint)> {
    match (e.node, e.kind) {
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
    }
}

/// The index of the last bookmark at or before `now` whose `count` was at most `first`: the
/// items after the `first` all lie after it.
fn bookmark_holding(
    bookmarks: &[Tally],
    now: &Tally,
    first: usize,
    count: impl Fn(&Tally) -> usize,
) -> usize {
    let holding = bookmarks.partition_point(|b| count(b) <= first && b.events <= now.events);
    holding.saturating_sub(1)
}

/// Records the fate that event `e` gives a packet among `items`.
fn settle(items: &mut [MessageRecord], e: &Event) {
    let (id, fate) = match e.kind {
        EventKind::Delivered { id, .. } => (id, MessageFate::Delivered(e.at)),
        EventKind::Dropped { id, reason, .. } => (id, MessageFate::Dropped(e.at, reason)),
        _ => return,
    };
    if let Some(m) = items.iter_mut().find(|m| m.id == id) {
        m.fate = fate;
    }
}

/// The last `max` items that `pick` finds at or before `t`, where `count` tells how many a
/// tally has seen (`pick` finds one exactly when the count goes up). Only the stretches
/// between bookmarks in which the count passes the first item wanted are visited.
fn last_of<S: RunStore + ?Sized, T>(
    store: &S,
    t: SimTime,
    max: usize,
    count: impl Fn(&Tally) -> usize,
    mut pick: impl FnMut(&Event, Found) -> Option<T>,
) -> Window<T> {
    let now = store.tally_at(t);
    let total = count(&now);
    let first = total.saturating_sub(max);
    let marks = store.bookmarks();
    let mut items = Vec::new();
    let start = bookmark_holding(marks, &now, first, &count);
    for (i, from) in marks.iter().enumerate().skip(start) {
        if from.events >= now.events {
            break;
        }
        let to = marks
            .get(i + 1)
            .filter(|b| b.events < now.events)
            .unwrap_or(&now);
        if count(to) <= count(from).max(first) {
            continue;
        }
        store.visit(from.events..to.events, &mut |e, found, tally| {
            if count(tally) > first {
                items.extend(pick(e, found));
            }
        });
    }
    Window { items, total }
}
