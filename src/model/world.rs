//! The world: wires clients, lock service, storage and network together, applies the fault
//! plan, and steps from one event to the next (the shape of quinn-proto's test `Pair`).
//! Every step's events go to its [`Output`], chosen by whoever builds it: a trace that keeps
//! them, or the checkers, which read them at once ([`super::checked`]); it checks nothing
//! itself. Deterministic: the same scenario gives the same trace, byte for byte.

use super::client::{ClientEvent, ClientMachine, LeaseClient};
use super::faults::{Fault, TimedFault};
use super::ids::{ClientId, FencingToken, NodeId};
use super::msg::Message;
use super::net::{DropReason, Network, Packet, SendOutcome};
use super::rng::{stream, SimRng};
use super::scenario::Scenario;
use super::service::LockService;
use super::storage::{Storage, WriteRecord};
use super::time::{LocalNow, NodeClock, SimTime};
use super::trace::{Event, EventKind};
use std::collections::VecDeque;

#[derive(Clone, Debug)]
struct Slot<C> {
    client: C,
    paused_until: Option<SimTime>,
    crashed: bool,
    write_pause: Option<super::time::SimDuration>,
    held_write: Option<Message>,
    inbox: VecDeque<Packet>,
    /// When the client last went Lost (a fact for the pitfall sweep, not a check).
    lost_at: Option<SimTime>,
}

/// The real time of an event that never comes: no source has one that late, and it lies
/// past every end, so [`World::step_until`] never runs it.
const NEVER: SimTime = SimTime(u64::MAX);

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    Fault,
    Deliver,
    ServiceTimer,
    Wake(usize),
    Inbox(usize),
    ClientTimer(usize),
}

/// The node of client `i` (A is 0).
#[inline]
fn client_node(i: usize) -> NodeId {
    NodeId::Client(ClientId(i as u8))
}

/// Sends `msg` at `at` and tells `out` what became of it.
// Inlined into its callers: the event it tells of is built in place (-5.9 %).
#[inline(always)]
fn send_over<O: Output>(
    net: &mut Network,
    out: &mut O,
    at: SimTime,
    from: NodeId,
    to: NodeId,
    msg: Message,
) {
    let kind = match net.send(at, from, to, msg) {
        SendOutcome::InFlight(p) => EventKind::Sent {
            id: p.id,
            to,
            msg,
            deliver_at: p.deliver_at,
        },
        SendOutcome::Dropped(p, reason) => EventKind::Dropped {
            id: p.id,
            to,
            sent_at: p.sent_at,
            msg,
            reason,
        },
    };
    out.event(Event {
        at,
        node: from,
        kind,
    });
}

/// How much a world tells of what happens.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Detail {
    /// Every event, for a trace.
    Trace,
    /// Only what the checkers read: timer firings and ignored replies are left out.
    ChecksOnly,
}

/// Where a world's events go as they happen, in order.
pub trait Output {
    /// One event.
    fn event(&mut self, e: Event);
}

/// A trace: every event kept, to be taken.
impl Output for Vec<Event> {
    #[inline]
    fn event(&mut self, e: Event) {
        self.push(e);
    }
}

/// A running simulation of one scenario. Drive it with [`World::step`] or
/// [`World::run_until`]; inspect it with the getters; take its events as they come.
#[derive(Clone, Debug)]
pub struct World<O = Vec<Event>, C = LeaseClient> {
    now: SimTime,
    end: SimTime,
    clocks: Vec<NodeClock>,
    service: LockService,
    /// The real time of the service's expiry timer ([`NEVER`] for none). Like every cached
    /// next time here, it is recomputed as soon as what it depends on changes, and is never
    /// earlier than `now`, so choosing the next event is a minimum over a few numbers.
    service_next: SimTime,
    storage: Storage,
    slots: Vec<Slot<C>>,
    /// Each client's next event and its real time ([`NEVER`] for none), by client; kept up
    /// to date by [`World::refresh_client`] whenever its timers, pause, inbox or clock change.
    client_next: Vec<(SimTime, Next)>,
    /// The earliest of `client_next` (the first client of equal ones), so that a step does
    /// not scan the clients when none of them changed.
    earliest_client: (SimTime, Next),
    net: Network,
    faults: Vec<TimedFault>,
    next_fault: usize,
    /// Where its events go.
    out: O,
    steps: u64,
}

impl World {
    /// Builds the world for `s`, keeping every event it tells of (see `detail`) until taken.
    /// The scenario should have passed [`Scenario::validate`].
    pub fn new(s: &Scenario, detail: Detail) -> Self {
        World::with_output(s, detail, Vec::with_capacity(64))
    }

    /// The events since they were last taken, in order.
    pub fn events(&self) -> &[Event] {
        &self.out
    }
    /// Every event not taken yet: the whole trace, when none was.
    pub fn into_events(self) -> Vec<Event> {
        self.out
    }
    /// Forgets the events handed out so far.
    pub fn clear_events(&mut self) {
        self.out.clear();
    }
    /// Hands each event since the last call to `visit` and forgets it.
    pub fn drain_events(&mut self, mut visit: impl FnMut(&Event)) {
        for event in self.out.drain(..) {
            visit(&event);
        }
    }
}

impl<O: Output> World<O> {
    /// Builds the world for `s`, telling `out` of what happens (as much as `detail` says).
    /// The scenario should have passed [`Scenario::validate`].
    pub fn with_output(s: &Scenario, detail: Detail, out: O) -> Self {
        let clients = (0..s.clients as usize).map(|i| {
            let client = LeaseClient::new(ClientId(i as u8), s.client_config(i));
            match detail {
                Detail::Trace => client,
                Detail::ChecksOnly => client.quiet(),
            }
        });
        World::with_clients(s, out, clients)
    }
}

impl<O: Output, C: ClientMachine> World<O, C> {
    /// Builds the world for `s` with `clients` (A, B, … in order, one per client of the
    /// scenario) on the clients' nodes, telling `out` of what happens.
    pub fn with_clients(s: &Scenario, out: O, clients: impl IntoIterator<Item = C>) -> Self {
        let slots: Vec<Slot<C>> = clients
            .into_iter()
            .take(s.clients as usize)
            .map(|client| Slot {
                client,
                paused_until: None,
                crashed: false,
                write_pause: None,
                held_write: None,
                inbox: VecDeque::new(),
                lost_at: None,
            })
            .collect();
        let mut faults = s.faults.0.clone();
        faults.sort_by_key(|f| f.at);
        let mut net = Network::new(s.link_config(), SimRng::child(s.seed, stream::NETWORK));
        for l in &s.links {
            net.configure_link(l.a, l.b, l.config());
        }
        let mut world = World {
            now: SimTime::ZERO,
            end: SimTime::ZERO + s.duration,
            clocks: vec![NodeClock::new(); 2 + slots.len()],
            service: LockService::new(s.service_config()),
            service_next: NEVER,
            storage: Storage::new(s.policy.fencing),
            client_next: vec![(NEVER, Next::ClientTimer(0)); slots.len()],
            earliest_client: (NEVER, Next::ClientTimer(0)),
            slots,
            net,
            faults,
            next_fault: 0,
            out,
            steps: 0,
        };
        world.refresh_service(world.local(NodeId::Service));
        for i in 0..world.slots.len() {
            world.refresh_client(i, world.local(client_node(i)));
        }
        world
    }

    /// The current simulation time.
    pub fn now(&self) -> SimTime {
        self.now
    }
    /// When the scenario ends.
    pub fn end(&self) -> SimTime {
        self.end
    }
    /// The client `c`.
    pub fn client(&self, c: ClientId) -> &C {
        &self.slots[c.index()].client
    }
    /// When client `c` went Lost, if it did.
    pub fn lost_at(&self, c: ClientId) -> Option<SimTime> {
        self.slots[c.index()].lost_at
    }
    /// The lock service.
    pub fn service(&self) -> &LockService {
        &self.service
    }
    /// The storage.
    pub fn storage(&self) -> &Storage {
        &self.storage
    }
    /// The network (packets in flight, links down).
    pub fn network(&self) -> &Network {
        &self.net
    }
    /// What node `n`'s clocks read now.
    pub fn clock(&self, n: NodeId) -> LocalNow {
        self.clocks[n.index()].now(self.now)
    }
    /// What node `n`'s clocks read at `t`, a time no earlier than the last step.
    pub fn clock_at(&self, n: NodeId, t: SimTime) -> LocalNow {
        self.clocks[n.index()].now(t)
    }
    /// How many steps the world has taken.
    pub fn steps(&self) -> u64 {
        self.steps
    }
    /// Client `c`, to take what it keeps for the laboratory (a learner's printed lines).
    pub fn client_mut(&mut self, c: ClientId) -> &mut C {
        &mut self.slots[c.index()].client
    }
    /// Where its events went.
    pub fn output(&self) -> &O {
        &self.out
    }

    #[inline]
    fn local(&self, n: NodeId) -> LocalNow {
        self.clocks[n.index()].now(self.now)
    }

    #[inline(always)]
    fn push(&mut self, node: NodeId, kind: EventKind) {
        self.out.event(Event {
            at: self.now,
            node,
            kind,
        });
    }

    /// The earliest pending event and its time; ties go to the source listed first (faults,
    /// deliveries, the service, then the clients in order). [`NEVER`] when nothing is pending.
    #[inline]
    fn next_event(&self) -> (SimTime, Next) {
        let mut best = (NEVER, Next::Fault);
        if let Some(f) = self.faults.get(self.next_fault) {
            best.0 = f.at;
        }
        if let Some(t) = self.net.poll_timeout() {
            if t < best.0 {
                best = (t, Next::Deliver);
            }
        }
        if self.service_next < best.0 {
            best = (self.service_next, Next::ServiceTimer);
        }
        if self.earliest_client.0 < best.0 {
            best = self.earliest_client;
        }
        debug_assert!(best.0 >= self.now, "a cached next time lies in the past");
        best
    }

    /// Works out the service's next event (its expiry timer) after it changed; `now` is what
    /// its clocks read.
    #[inline]
    fn refresh_service(&mut self, now: LocalNow) {
        let clock = &self.clocks[NodeId::Service.index()];
        self.service_next = self
            .service
            .poll_timeout(now)
            .map_or(NEVER, |m| clock.real_at_mono(m).max(self.now));
    }

    /// Works out client `i`'s next event after it changed (`now` is what its clocks read):
    /// waking from its pause, reading a packet that waited in its socket buffer (at once,
    /// unless a timer falls first), or its timer.
    // Inlined into the drain that follows each input, which has the client at hand.
    #[inline(always)]
    fn refresh_client(&mut self, i: usize, now: LocalNow) {
        let clock = &self.clocks[client_node(i).index()];
        let slot = &self.slots[i];
        self.client_next[i] = if slot.crashed {
            (NEVER, Next::ClientTimer(i))
        } else if let Some(w) = slot.paused_until {
            (w, Next::Wake(i))
        } else {
            let timer = slot.client.poll_timeout(now).map(|m| clock.real_at_mono(m));
            match (timer, slot.inbox.front()) {
                (None, Some(_)) => (self.now, Next::Inbox(i)),
                (Some(t), Some(p)) if p.deliver_at <= t => (self.now, Next::Inbox(i)),
                // A timer that fell due during a pause fires now.
                (Some(t), _) => (t.max(self.now), Next::ClientTimer(i)),
                (None, None) => (NEVER, Next::ClientTimer(i)),
            }
        };
        self.earliest_client =
            self.client_next
                .iter()
                .fold((NEVER, Next::ClientTimer(0)), |best, &next| {
                    if next.0 < best.0 {
                        next
                    } else {
                        best
                    }
                });
    }

    /// Processes the next event if it falls at or before the end; returns false when there
    /// is nothing left to do before the end.
    pub fn step(&mut self) -> bool {
        self.step_until(self.end)
    }

    /// Processes the next event if it falls at or before `limit`.
    pub(crate) fn step_until(&mut self, limit: SimTime) -> bool {
        let (t, next) = self.next_event();
        if t > limit {
            return false;
        }
        self.now = t;
        self.steps += 1;
        match next {
            Next::Fault => {
                let f = self.faults[self.next_fault];
                self.next_fault += 1;
                self.apply_fault(f.fault);
            }
            Next::Deliver => self.deliver(),
            Next::ServiceTimer => {
                let now = self.local(NodeId::Service);
                self.service.handle_timeout(now);
                self.drain_service(now);
            }
            Next::Wake(i) => self.wake(i),
            Next::Inbox(i) => {
                let p = self.slots[i].inbox.pop_front().expect("inbox");
                let node = client_node(i);
                let (id, from, msg) = (p.id, p.from, p.msg);
                self.push(node, EventKind::Read { id, from, msg });
                self.client_message(i, p.msg);
            }
            Next::ClientTimer(i) => {
                let now = self.local(client_node(i));
                self.slots[i].client.handle_timeout(now);
                self.drain_client(i, now);
            }
        }
        true
    }

    /// Runs every event up to and including time `t` (capped at the end), then sets the
    /// clock to `t`.
    pub fn run_until(&mut self, t: SimTime) {
        while self.step_until(t.min(self.end)) {}
        self.rest_at(t);
    }

    /// Sets the clock to `t` (capped at the end) once every event up to it has run.
    pub(crate) fn rest_at(&mut self, t: SimTime) {
        self.now = self.now.max(t.min(self.end));
    }

    /// Runs to the end of the scenario.
    pub fn run_to_end(&mut self) {
        self.run_until(self.end);
    }

    // Cold: a few per run, kept out of the step loop's hot path.
    #[cold]
    fn apply_fault(&mut self, f: Fault) {
        // Faults naming a client the scenario does not have are ignored (validation
        // refuses them; this keeps an unvalidated scenario from panicking).
        if !f.names_known_nodes(self.slots.len() as u8) {
            return;
        }
        let node = f.target();
        self.push(node, EventKind::Fault { fault: f });
        match f {
            Fault::Pause {
                client,
                duration,
                in_write_path,
            } => {
                let slot = &mut self.slots[client.index()];
                if slot.crashed {
                    return;
                }
                if in_write_path {
                    slot.write_pause = Some(duration);
                } else {
                    let until =
                        (self.now + duration).max(slot.paused_until.unwrap_or(SimTime::ZERO));
                    slot.paused_until = Some(until);
                    self.refresh_node(node);
                    self.push(
                        node,
                        EventKind::Paused {
                            until,
                            in_write_path: false,
                        },
                    );
                }
            }
            Fault::Partition { a, b, duration } => self.net.partition(a, b, self.now + duration),
            Fault::DelayNextPacket { from, to, extra } => self.net.delay_next(from, to, extra),
            Fault::ClockStep { node, by_micros } => {
                self.clocks[node.index()].step_wall(by_micros);
                self.refresh_node(node);
            }
            Fault::ClockDrift { node, ppm } => {
                self.clocks[node.index()].set_drift(self.now, ppm);
                self.refresh_node(node);
            }
            Fault::Crash { client } => {
                let slot = &mut self.slots[client.index()];
                if !slot.crashed {
                    slot.crashed = true;
                    slot.paused_until = None;
                    slot.held_write = None;
                    slot.inbox.clear();
                    self.refresh_node(node);
                    self.push(node, EventKind::Crashed);
                }
            }
            Fault::RevokeLease => {
                let now = self.local(NodeId::Service);
                self.service.revoke(now);
                self.drain_service(now);
            }
        }
    }

    /// Works out node `n`'s next event after a fault changed it.
    fn refresh_node(&mut self, n: NodeId) {
        let now = self.local(n);
        match n {
            NodeId::Service => self.refresh_service(now),
            NodeId::Storage => {}
            NodeId::Client(c) => self.refresh_client(c.index(), now),
        }
    }

    // Cold: a few per run, kept out of the step loop's hot path.
    #[cold]
    fn wake(&mut self, i: usize) {
        let node = client_node(i);
        let slot = &mut self.slots[i];
        slot.paused_until = None;
        let held = slot.held_write.take();
        self.refresh_node(node);
        self.push(node, EventKind::Woke);
        // The write that was past its check when the pause hit leaves first.
        if let Some(msg) = held {
            self.send(node, NodeId::Storage, msg);
        }
    }

    /// Sends `msg` from `from` now, as `send_over` does.
    #[inline(always)]
    fn send(&mut self, from: NodeId, to: NodeId, msg: Message) {
        send_over(&mut self.net, &mut self.out, self.now, from, to, msg);
    }

    fn deliver(&mut self) {
        let Some(r) = self.net.poll_deliver(self.now) else {
            return;
        };
        let p = match r {
            Ok(p) => p,
            Err((p, reason)) => {
                self.push(
                    p.from,
                    EventKind::Dropped {
                        id: p.id,
                        to: p.to,
                        sent_at: p.sent_at,
                        msg: p.msg,
                        reason,
                    },
                );
                return;
            }
        };
        match p.to {
            NodeId::Client(c) if self.slots[c.index()].crashed => {
                self.push(
                    p.from,
                    EventKind::Dropped {
                        id: p.id,
                        to: p.to,
                        sent_at: p.sent_at,
                        msg: p.msg,
                        reason: DropReason::ReceiverCrashed,
                    },
                );
                return;
            }
            _ => {}
        }
        self.push(
            p.to,
            EventKind::Delivered {
                id: p.id,
                from: p.from,
                sent_at: p.sent_at,
                msg: p.msg,
            },
        );
        match p.to {
            NodeId::Service => {
                let NodeId::Client(from) = p.from else { return };
                let now = self.local(NodeId::Service);
                self.service.handle_message(now, from, p.msg);
                self.drain_service(now);
            }
            NodeId::Storage => {
                let (NodeId::Client(client), Message::Write { token, seq }) = (p.from, p.msg)
                else {
                    return;
                };
                self.storage_write(client, token, seq);
            }
            NodeId::Client(c) => {
                let i = c.index();
                if self.slots[i].paused_until.is_some() {
                    // Sits in the socket buffer until the process wakes.
                    self.slots[i].inbox.push_back(p);
                } else {
                    self.client_message(i, p.msg);
                }
            }
        }
    }

    fn storage_write(&mut self, client: ClientId, token: FencingToken, seq: u32) {
        let verdict = self.storage.handle_write(token);
        let record = WriteRecord {
            at: self.now,
            client,
            token,
            seq,
            verdict,
        };
        self.push(NodeId::Storage, EventKind::Write(record));
    }

    // Inlined into its two callers, so the reply is not passed through a call (-0.9 %).
    #[inline(always)]
    fn client_message(&mut self, i: usize, msg: Message) {
        let now = self.local(client_node(i));
        self.slots[i].client.handle_message(now, msg);
        self.drain_client(i, now);
    }

    /// Takes client `i`'s events and packets after an input at `now` (its clocks' reading),
    /// then works out its next event.
    fn drain_client(&mut self, i: usize, now: LocalNow) {
        let node = client_node(i);
        let at = self.now;
        // Borrowed apart, so the slot is looked up once, not again after every event.
        let (slot, out, net) = (&mut self.slots[i], &mut self.out, &mut self.net);
        let event = |out: &mut O, kind| out.event(Event { at, node, kind });
        while let Some(ev) = slot.client.poll_event() {
            match ev {
                ClientEvent::Lifecycle { to, token } => {
                    event(out, EventKind::Lifecycle { to, token });
                    if let super::client::Lifecycle::Lost(_) = to {
                        slot.lost_at = Some(at);
                    }
                }
                ClientEvent::TimerFired { timer, late_by } => {
                    event(out, EventKind::Timer { timer, late_by })
                }
                ClientEvent::StaleReply { msg } => event(out, EventKind::StaleReply { msg }),
            }
        }
        while let Some(tx) = slot.client.poll_transmit() {
            // The trace records what the client put on the wire, not what it says it did.
            if let Message::Write { token, seq } = tx.msg {
                event(out, EventKind::WriteIssued { token, seq });
            }
            if let (Message::Write { .. }, Some(d)) = (tx.msg, slot.write_pause) {
                // The pause hits after the pre-write check passed, before the write leaves.
                slot.write_pause = None;
                slot.held_write = Some(tx.msg);
                let until = at + d;
                slot.paused_until = Some(until);
                event(
                    out,
                    EventKind::Paused {
                        until,
                        in_write_path: true,
                    },
                );
                continue;
            }
            if slot.paused_until.is_some() && matches!(tx.msg, Message::Write { .. }) {
                slot.held_write = Some(tx.msg);
                continue;
            }
            send_over(net, out, at, node, tx.to, tx.msg);
        }
        self.refresh_client(i, now);
    }

    /// Takes the service's events and replies after an input at `now` (its clocks' reading),
    /// then works out its next event.
    fn drain_service(&mut self, now: LocalNow) {
        while let Some(ev) = self.service.poll_event() {
            self.push(NodeId::Service, EventKind::Service(ev));
        }
        while let Some((to, msg)) = self.service.poll_transmit() {
            self.send(NodeId::Service, to, msg);
        }
        self.refresh_service(now);
    }
}

impl<O: Output + Clone> World<O> {
    /// A copy of this world whose fault plan from here on is `faults` (in time order, none
    /// earlier than the events already run). How the search resumes the fault-free run it
    /// shares with every plan (see [`super::search`]): up to a plan's first fault, the world
    /// is the same whatever the plan.
    pub(crate) fn resumed_with_faults(&self, faults: &[TimedFault]) -> World<O> {
        debug_assert!(faults.windows(2).all(|w| w[0].at <= w[1].at));
        debug_assert!(faults.first().is_none_or(|f| f.at >= self.now));
        let mut world = self.clone();
        world.faults.clear();
        world.faults.extend_from_slice(faults);
        world.next_fault = 0;
        world
    }
}
