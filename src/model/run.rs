//! A finished run: the full trace plus the records its checkers, exports and tests read
//! (packets, the storage log, lifecycles, tenures). As a [`RunStore`] it slices its trace,
//! with a tally kept every [`BOOKMARK_EVENTS`] events, so a view's questions
//! ([`super::RunQuestions`]) cost at most that many steps, however long the run.

use std::cell::OnceCell;
use std::ops::Range;

use super::check::{
    Checkers, Failover, Found, Judging, Metrics, Observations, Records, RenewRecord,
};
use super::client::Lifecycle;
use super::ids::{ClientId, FencingToken, MsgId, NodeId};
use super::msg::Message;
use super::net::DropReason;
use super::reader::{RunStore, RunSummary, Tally};
use super::scenario::Scenario;
use super::service::{LeaseEnd, ServiceEvent};
use super::storage::WriteRecord;
use super::time::SimTime;
use super::trace::{trace_hash, Event, EventKind};

/// Events between two of a whole trace's bookmarks: a question folds at most this many.
pub const BOOKMARK_EVENTS: usize = 256;

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

/// A finished run held as its whole trace (simulated, live, or from a link): the events, its
/// hash, what the checkers found reading them, the metrics and records.
#[derive(Clone, Debug)]
pub struct Run {
    summary: RunSummary,
    events: Vec<Event>,
    /// What the checkers found at each event.
    found: Vec<Found>,
    observed: Observations,
    messages: Vec<MessageRecord>,
    writes: Vec<WriteRecord>,
    lifecycles: Vec<Vec<LifecyclePoint>>,
    tenures: Vec<Tenure>,
    /// The tally every [`BOOKMARK_EVENTS`] events, made when a view first reads the run.
    bookmarks: OnceCell<Vec<Tally>>,
}

impl Run {
    /// The run whose trace is `events` (in time order) of `scenario`, ending at `end`: the
    /// checkers read every event, as they read a simulation's while it runs.
    pub fn from_trace(scenario: Scenario, end: SimTime, events: Vec<Event>) -> Run {
        Run::judged(scenario, end, events, Judging::BuiltIn)
    }

    /// [`Run::from_trace`], with the clients judged as `judging` says (a learner's client's
    /// lost flag is also set by a NOT_OWNER that reached its code).
    pub fn judged(scenario: Scenario, end: SimTime, events: Vec<Event>, judging: Judging) -> Run {
        let mut checkers = Checkers::judging(&scenario, Records::Keep, judging);
        let mut index = RunIndex::new(scenario.clients as usize);
        let mut found = Vec::with_capacity(events.len());
        for e in &events {
            let f = checkers.observe(e);
            index.add(e);
            found.push(f);
        }
        let end = end.max(events.last().map_or(SimTime::ZERO, |e| e.at));
        let (checks, metrics, observed) = checkers.finish(end);
        let RunIndex {
            messages,
            writes,
            lifecycles,
            tenures,
            ..
        } = index;
        Run {
            summary: RunSummary {
                hash: trace_hash(&events),
                events: events.len(),
                scenario,
                end,
                checks,
                metrics,
            },
            events,
            found,
            observed,
            messages,
            writes,
            lifecycles,
            tenures,
            bookmarks: OnceCell::new(),
        }
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
    /// The tally after the first `end` events, folded from the last bookmark at or before
    /// event `start`; `each` sees every event folded, with the tally after it.
    fn fold(&self, start: usize, end: usize, mut each: impl FnMut(&Event, Found, &Tally)) -> Tally {
        let mut tally = self.bookmarks()[start / BOOKMARK_EVENTS].clone();
        let from = tally.events;
        for (e, found) in self.events[from..end].iter().zip(&self.found[from..]) {
            tally.add(e, *found);
            each(e, *found, &tally);
        }
        tally
    }
    /// What the checkers found at each event (beside [`Run::events`]).
    pub fn found(&self) -> &[Found] {
        &self.found
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
    /// The storage log: every write storage decided on, in arrival order.
    pub fn storage_log(&self) -> &[WriteRecord] {
        &self.writes
    }
    /// Client `c`'s lifecycle changes, starting with Idle at 0.
    pub fn lifecycle_history(&self, c: ClientId) -> &[LifecyclePoint] {
        self.lifecycles.get(c.index()).map_or(&[], |v| v.as_slice())
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
}

/// The per-time views of a run, built in one pass over its events.
struct RunIndex {
    messages: Vec<MessageRecord>,
    /// Each message id's position in `messages` (`u32::MAX`: none yet).
    by_id: Vec<u32>,
    writes: Vec<WriteRecord>,
    lifecycles: Vec<Vec<LifecyclePoint>>,
    tenures: Vec<Tenure>,
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
            lifecycles: vec![vec![idle]; clients],
            tenures: Vec::new(),
        }
    }

    fn add(&mut self, e: &Event) {
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
            EventKind::Write(r) => self.writes.push(r),
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

    /// A client's lifecycle.
    fn client(&mut self, e: &Event) {
        if let (NodeId::Client(c), EventKind::Lifecycle { to, token }) = (e.node, e.kind) {
            self.lifecycles[c.index()].push(LifecyclePoint {
                from: e.at,
                state: to,
                token,
            });
        }
    }
}

impl RunStore for Run {
    fn summary(&self) -> &RunSummary {
        &self.summary
    }
    fn tally_at(&self, t: SimTime) -> Tally {
        let end = self.events_count_until(t);
        self.fold(end, end, |_, _, _| {})
    }
    fn metrics_at(&self, t: SimTime) -> Metrics {
        let h = &self.observed.history;
        let n = h.partition_point(|(at, _)| *at <= t);
        h.get(n.wrapping_sub(1))
            .map_or_else(Metrics::default, |(_, m)| *m)
    }
    fn bookmarks(&self) -> &[Tally] {
        self.bookmarks.get_or_init(|| {
            let mut tally = Tally::new(self.summary.scenario.clients);
            let mut bookmarks = vec![tally.clone()];
            for chunk in self.events.chunks(BOOKMARK_EVENTS) {
                let found = &self.found[tally.events..tally.events + chunk.len()];
                chunk.iter().zip(found).for_each(|(e, f)| tally.add(e, *f));
                bookmarks.push(tally.clone());
            }
            bookmarks
        })
    }
    fn visit(&self, range: Range<usize>, visit: &mut dyn FnMut(&Event, Found, &Tally)) {
        self.fold(range.start, range.end, |e, found, tally| {
            if tally.events > range.start {
                visit(e, found, tally);
            }
        });
    }
}
