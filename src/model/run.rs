//! A finished run: the full trace plus indexes that let a view ask "what was true at time
//! t?" cheaply (binary searches over time-sorted vectors; no re-simulation needed).

use super::check::{
    CheckId, CheckReport, CheckStatus, Checkers, Failover, Found, Judging, Metrics, Observations,
    Records, RenewRecord,
};
use super::client::Lifecycle;
use super::faults::Fault;
use super::ids::{ClientId, FencingToken, MsgId, NodeId};
use super::msg::Message;
use super::net::DropReason;
use super::scenario::Scenario;
use super::service::{LeaseEnd, ServiceEvent};
use super::storage::WriteRecord;
use super::time::{LocalNow, NodeClock, SimTime};
use super::trace::{trace_hash, Event, EventKind};

/// What became of a packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum MessageFate {
    /// Arrived at this time.
    Delivered(SimTime),
    /// Dropped at this time.
    Dropped(SimTime, DropReason),
    /// Still on the wire when the run ended.
    InFlight,
}

/// One packet's life, for drawing it along its edge (RaftScope-style).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct MessageRecord {
    /// Packet id.
    pub id: MsgId,
    /// Sender.
    pub from: NodeId,
    /// Receiver.
    pub to: NodeId,
    /// Content.
    pub msg: Message,
    /// When it left.
    pub sent_at: SimTime,
    /// When it was due to arrive.
    pub deliver_at: SimTime,
    /// What became of it.
    pub fate: MessageFate,
}

impl MessageRecord {
    /// The record of the packet an event starts: a send, or a drop as it was sent. For a
    /// drop it always answers; callers keep it only when no send came first.
    pub fn started_by(e: &Event) -> Option<MessageRecord> {
        let record = match e.kind {
            EventKind::Sent {
                id,
                to,
                msg,
                deliver_at,
            } => MessageRecord {
                id,
                from: e.node,
                to,
                msg,
                sent_at: e.at,
                deliver_at,
                fate: MessageFate::InFlight,
            },
            EventKind::Dropped {
                id,
                to,
                sent_at,
                msg,
                reason,
            } => MessageRecord {
                id,
                from: e.node,
                to,
                msg,
                sent_at,
                deliver_at: e.at,
                fate: MessageFate::Dropped(e.at, reason),
            },
            _ => return None,
        };
        Some(record)
    }

    /// When the packet stopped being on the wire (arrival or drop), if it did.
    pub fn gone_at(&self) -> Option<SimTime> {
        match self.fate {
            MessageFate::Delivered(t) | MessageFate::Dropped(t, _) => Some(t),
            MessageFate::InFlight => None,
        }
    }
    /// True if the packet is on the wire at `t`.
    pub fn in_flight_at(&self, t: SimTime) -> bool {
        self.sent_at <= t && self.gone_at().is_none_or(|g| t < g)
    }
    /// How far along its edge the packet is at `t`, in thousandths (0 = sent, 1000 = due).
    pub fn progress_permille(&self, t: SimTime) -> u32 {
        let total = self.deliver_at.saturating_since(self.sent_at).0.max(1);
        let done = t.saturating_since(self.sent_at).0.min(total);
        (done * 1000 / total) as u32
    }
}

/// One client's lifecycle from `from` on.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct LifecyclePoint {
    /// When it entered this state.
    pub from: SimTime,
    /// The state.
    pub state: Lifecycle,
    /// The token held or last held.
    pub token: Option<FencingToken>,
}

/// A time interval; `until: None` means it was still open at the end of the run.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Interval {
    /// Start.
    pub from: SimTime,
    /// End, if it ended.
    pub until: Option<SimTime>,
}

impl Interval {
    /// True if `t` lies inside.
    pub fn contains(&self, t: SimTime) -> bool {
        self.from <= t && self.until.is_none_or(|u| t < u)
    }
}

/// A holder interval at the service: one token's lease from grant to end.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Tenure {
    /// The holder.
    pub client: ClientId,
    /// Its token.
    pub token: FencingToken,
    /// From grant to end.
    pub span: Interval,
    /// How it ended, if it did.
    pub end: Option<LeaseEnd>,
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
    /// Packets on the wire, with their progress in thousandths.
    pub in_flight: Vec<(MessageRecord, u32)>,
    /// Storage log entries so far.
    pub writes_so_far: usize,
    /// Checks broken at or before this instant.
    pub broken: Vec<CheckId>,
}

/// A finished run held as its whole trace (simulated, live, or from a link): the events, its
/// hash, what the checkers found reading them, the metrics and view indexes.
#[derive(Clone, Debug)]
pub struct Run {
    scenario: Scenario,
    end: SimTime,
    events: Vec<Event>,
    /// What the checkers found at each event.
    found: Vec<Found>,
    hash: u64,
    checks: [CheckReport; 4],
    metrics: Metrics,
    observed: Observations,
    messages: Vec<MessageRecord>,
    writes: Vec<WriteRecord>,
    /// What the checkers found at each write.
    writes_found: Vec<Found>,
    lifecycles: Vec<Vec<LifecyclePoint>>,
    tenures: Vec<Tenure>,
    pauses: Vec<(ClientId, Interval)>,
    crashes: Vec<(ClientId, SimTime)>,
}

impl Run {
    /// The run whose trace is `events` (in time order) of `scenario`, ending at `end`: the
    /// checkers read every event, as they read a simulation's while it runs.
    pub fn from_trace(scenario: Scenario, end: SimTime, events: Vec<Event>) -> Run {
        Run::judged(scenario, end, events, Judging::BuiltIn)
    }

    /// [`Run::from_trace`], with the clients judged as `judging` says (a learner's client is
    /// held to stopping once the service ended its lease).
    pub fn judged(scenario: Scenario, end: SimTime, events: Vec<Event>, judging: Judging) -> Run {
        let mut checkers = Checkers::judging(&scenario, Records::Keep, judging);
        let mut index = RunIndex::new(scenario.clients as usize);
        let mut found = Vec::with_capacity(events.len());
        for e in &events {
            let f = checkers.observe(e);
            index.add(e, f);
            found.push(f);
        }
        index.end_pauses_at_crashes();
        let end = end.max(events.last().map_or(SimTime::ZERO, |e| e.at));
        let (checks, metrics, observed) = checkers.finish(end);
        let RunIndex {
            messages,
            writes,
            writes_found,
            lifecycles,
            tenures,
            pauses,
            crashes,
            ..
        } = index;
        Run {
            hash: trace_hash(&events),
            scenario,
            end,
            events,
            found,
            checks,
            metrics,
            observed,
            messages,
            writes,
            writes_found,
            lifecycles,
            tenures,
            pauses,
            crashes,
        }
    }

    /// The scenario that produced this run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    /// When the run ended.
    pub fn end(&self) -> SimTime {
        self.end
    }
    /// Every event, in order.
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// The events at or before `t`.
    pub fn events_until(&self, t: SimTime) -> &[Event] {
        &self.events[..self.events_count_until(t)]
    }
    fn events_count_until(&self, t: SimTime) -> usize {
        self.events.partition_point(|e| e.at <= t)
    }
    /// What the checkers found at each event (beside [`Run::events`]).
    pub fn found(&self) -> &[Found] {
        &self.found
    }
    /// What the checkers found at each event at or before `t`.
    pub fn found_until(&self, t: SimTime) -> &[Found] {
        &self.found[..self.events_count_until(t)]
    }
    /// The stable trace hash (FNV-1a over the canonical encoding of every event).
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
    /// The status of one check as of time `t` (broken only if it broke at or before `t`).
    pub fn check_at(&self, id: CheckId, t: SimTime) -> CheckStatus {
        match self.check(id) {
            CheckStatus::Broken { first, .. } if first.at > t => CheckStatus::Holding,
            CheckStatus::Broken { first, .. } => {
                let count = self
                    .found_until(t)
                    .iter()
                    .filter(|f| f.checks().any(|c| c == id))
                    .count() as u32;
                CheckStatus::Broken { first, count }
            }
            s => s,
        }
    }
    /// The run's measurements (whole run).
    pub fn metrics(&self) -> &Metrics {
        &self.metrics
    }
    /// The same measurements as of time `t`: counted by the same checkers, so a view that
    /// shows figures at the cursor and for the whole run never mixes two definitions.
    pub fn metrics_at(&self, t: SimTime) -> Metrics {
        let h = &self.observed.history;
        let n = h.partition_point(|(at, _)| *at <= t);
        h.get(n.wrapping_sub(1))
            .map_or_else(Metrics::default, |(_, m)| *m)
    }
    /// Every renew request and what became of it, in send order.
    pub fn renews(&self) -> &[RenewRecord] {
        &self.observed.renews
    }
    /// Every failover (the lease passing from a holder that stopped renewing), in order.
    pub fn failovers(&self) -> &[Failover] {
        &self.observed.failovers
    }
    /// Every packet, in send order.
    pub fn messages(&self) -> &[MessageRecord] {
        &self.messages
    }
    /// The packets on the wire at `t`, each with its progress in thousandths.
    pub fn in_flight_at(&self, t: SimTime) -> Vec<(MessageRecord, u32)> {
        let n = self.messages.partition_point(|m| m.sent_at <= t);
        self.messages[..n]
            .iter()
            .filter(|m| m.in_flight_at(t))
            .map(|m| (*m, m.progress_permille(t)))
            .collect()
    }
    /// The storage log: every write storage decided on, in arrival order.
    pub fn storage_log(&self) -> &[WriteRecord] {
        &self.writes
    }
    /// The storage log up to and including `t`.
    pub fn storage_log_until(&self, t: SimTime) -> &[WriteRecord] {
        let n = self.writes.partition_point(|w| w.at <= t);
        &self.writes[..n]
    }
    /// What the checkers found at each write of the storage log (beside it).
    pub fn storage_found(&self) -> &[Found] {
        &self.writes_found
    }
    /// Client `c`'s lifecycle changes, starting with Idle at 0.
    pub fn lifecycle_history(&self, c: ClientId) -> &[LifecyclePoint] {
        self.lifecycles.get(c.index()).map_or(&[], |v| v.as_slice())
    }
    /// Client `c`'s lifecycle state and token at `t`.
    pub fn lifecycle_at(&self, c: ClientId, t: SimTime) -> LifecyclePoint {
        let h = self.lifecycle_history(c);
        let n = h.partition_point(|p| p.from <= t);
        h.get(n.wrapping_sub(1)).copied().unwrap_or(LifecyclePoint {
            from: SimTime::ZERO,
            state: Lifecycle::Idle,
            token: None,
        })
    }
    /// The service's holder intervals: one per granted token.
    pub fn holder_intervals(&self) -> &[Tenure] {
        &self.tenures
    }
    /// The intervals in which client `c` believed it held the lease (Holding or renew in
    /// flight). Compare with [`Run::holder_intervals`] to see zombies and false losses.
    pub fn believed_intervals(&self, c: ClientId) -> Vec<Interval> {
        let mut out: Vec<Interval> = Vec::new();
        for p in self.lifecycle_history(c) {
            let open = out.last().is_some_and(|i| i.until.is_none());
            if p.state.believes_holding() && !open {
                out.push(Interval {
                    from: p.from,
                    until: None,
                });
            } else if !p.state.believes_holding() && open {
                out.last_mut().expect("open").until = Some(p.from);
            }
        }
        out
    }
    /// Client `c`'s pauses.
    pub fn pauses(&self, c: ClientId) -> impl Iterator<Item = Interval> + '_ {
        self.pauses
            .iter()
            .filter(move |(cc, _)| *cc == c)
            .map(|(_, i)| *i)
    }
    /// When client `c` crashed, if it did.
    pub fn crashed_at(&self, c: ClientId) -> Option<SimTime> {
        self.crashes
            .iter()
            .find(|(cc, _)| *cc == c)
            .map(|(_, t)| *t)
    }
    /// What node `n`'s clocks read at `t` (replaying the plan's clock faults).
    pub fn clock_at(&self, n: NodeId, t: SimTime) -> LocalNow {
        let mut clock = NodeClock::new();
        let mut faults: Vec<_> = self
            .scenario
            .faults
            .0
            .iter()
            .filter(|f| f.at <= t)
            .collect();
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
    /// The service's holder at `t`.
    pub fn holder_at(&self, t: SimTime) -> Option<(ClientId, FencingToken)> {
        self.tenures
            .iter()
            .find(|x| x.span.contains(t))
            .map(|x| (x.client, x.token))
    }
    /// Everything a view draws at `t`.
    pub fn state_at(&self, t: SimTime) -> Snapshot {
        let clients = (0..self.scenario.clients)
            .map(|i| {
                let id = ClientId(i);
                let p = self.lifecycle_at(id, t);
                let crashed = self.crashed_at(id).is_some_and(|c| c <= t);
                ClientSnapshot {
                    id,
                    lifecycle: p.state,
                    token: p.token,
                    lost_flag: matches!(p.state, Lifecycle::Lost(_)),
                    paused: !crashed && self.pauses(id).any(|iv| iv.contains(t)),
                    crashed,
                    clock: self.clock_at(NodeId::Client(id), t),
                }
            })
            .collect();
        Snapshot {
            at: t,
            clients,
            holder: self.holder_at(t),
            service_clock: self.clock_at(NodeId::Service, t),
            in_flight: self.in_flight_at(t),
            writes_so_far: self.storage_log_until(t).len(),
            broken: CheckId::ALL
                .into_iter()
                .filter(|&c| self.check_at(c, t).is_broken())
                .collect(),
        }
    }
}

/// The per-time views of a run, built in one pass over its events.
struct RunIndex {
    messages: Vec<MessageRecord>,
    /// Each message id's position in `messages` (`u32::MAX`: none yet).
    by_id: Vec<u32>,
    writes: Vec<WriteRecord>,
    writes_found: Vec<Found>,
    lifecycles: Vec<Vec<LifecyclePoint>>,
    tenures: Vec<Tenure>,
    pauses: Vec<(ClientId, Interval)>,
    crashes: Vec<(ClientId, SimTime)>,
}

impl RunIndex {
    fn new(clients: usize) -> RunIndex {
        let idle = LifecyclePoint {
            from: SimTime::ZERO,
            state: Lifecycle::Idle,
            token: None,
        };
        RunIndex {
            messages: Vec::new(),
            by_id: Vec::new(),
            writes: Vec::new(),
            writes_found: Vec::new(),
            lifecycles: vec![vec![idle]; clients],
            tenures: Vec::new(),
            pauses: Vec::new(),
            crashes: Vec::new(),
        }
    }

    fn add(&mut self, e: &Event, found: Found) {
        match e.kind {
            EventKind::Sent { .. } => self.push_message(MessageRecord::started_by(e)),
            EventKind::Delivered { id, .. } => {
                if let Some(m) = self.message_mut(id) {
                    m.fate = MessageFate::Delivered(e.at);
                }
            }
            EventKind::Dropped { id, reason, .. } => match self.message_mut(id) {
                Some(m) => m.fate = MessageFate::Dropped(e.at, reason),
                // Dropped as it was sent: the drop is its only event.
                None => self.push_message(MessageRecord::started_by(e)),
            },
            EventKind::Write(r) => {
                self.writes.push(r);
                self.writes_found.push(found);
            }
            EventKind::Service(s) => self.service(e.at, s),
            _ => self.client(e),
        }
    }

    fn push_message(&mut self, m: Option<MessageRecord>) {
        let Some(m) = m else {
            return;
        };
        let id = m.id.0 as usize;
        if self.by_id.len() <= id {
            self.by_id.resize(id + 1, u32::MAX);
        }
        self.by_id[id] = self.messages.len() as u32;
        self.messages.push(m);
    }

    fn message_mut(&mut self, id: MsgId) -> Option<&mut MessageRecord> {
        let i = *self.by_id.get(id.0 as usize).filter(|&&i| i != u32::MAX)?;
        self.messages.get_mut(i as usize)
    }

    /// Tenures at the service: a grant opens one, a lease end closes it.
    fn service(&mut self, at: SimTime, s: ServiceEvent) {
        match s {
            ServiceEvent::Granted { client, token, .. } => self.tenures.push(Tenure {
                client,
                token,
                span: Interval {
                    from: at,
                    until: None,
                },
                end: None,
            }),
            ServiceEvent::Ended { token, how, .. } => {
                if let Some(t) = self
                    .tenures
                    .iter_mut()
                    .rev()
                    .find(|t| t.token == token && t.end.is_none())
                {
                    t.span.until = Some(at);
                    t.end = Some(how);
                }
            }
            _ => {}
        }
    }

    /// A client's lifecycle, pauses and crash.
    fn client(&mut self, e: &Event) {
        let NodeId::Client(c) = e.node else {
            return;
        };
        match e.kind {
            EventKind::Lifecycle { to, token } => self.lifecycles[c.index()].push(LifecyclePoint {
                from: e.at,
                state: to,
                token,
            }),
            EventKind::Paused { until, .. } => self.pauses.push((
                c,
                Interval {
                    from: e.at,
                    until: Some(until),
                },
            )),
            EventKind::Crashed => self.crashes.push((c, e.at)),
            _ => {}
        }
    }

    /// A crash ends any pause.
    fn end_pauses_at_crashes(&mut self) {
        for (c, iv) in self.pauses.iter_mut() {
            if let Some(&(_, t)) = self.crashes.iter().find(|(cc, _)| cc == c) {
                if iv.from <= t && iv.until.is_some_and(|u| u > t) {
                    iv.until = Some(t);
                }
            }
        }
    }
}
