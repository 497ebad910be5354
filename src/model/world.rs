//! The world: wires clients, lock service, storage and network together, applies the fault
//! plan, and steps from one event to the next (the shape of quinn-proto's test `Pair`).
//! After every step the independent observer ([`super::check::observer`]) is told what an
//! outsider could see; with recording on, every event goes to the trace. Deterministic: the
//! same scenario gives the same trace, byte for byte.

use super::check::observer::{Broken, Observer};
use super::check::{CheckId, Failover, Metrics, Verdict};
use super::client::{ClientConfig, ClientEvent, LeaseClient};
use super::faults::{Fault, TimedFault};
use super::ids::{ClientId, FencingToken, NodeId};
use super::msg::Message;
use super::net::{DropReason, LinkConfig, Network, Packet, SendOutcome};
use super::rng::{stream, SimRng};
use super::scenario::Scenario;
use super::service::{LockService, ServiceConfig, ServiceEvent};
use super::storage::{FenceDecision, Storage, WriteRecord, WriteVerdict};
use super::time::{LocalNow, LocalTime, NodeClock, SimTime};
use super::trace::{Event, EventKind};
use std::collections::VecDeque;

#[derive(Clone, Debug)]
struct Slot {
    client: LeaseClient,
    /// Cached real time of the client's next timer (valid unless `dirty`).
    next_timer: Option<SimTime>,
    dirty: bool,
    paused_until: Option<SimTime>,
    crashed: bool,
    write_pause: Option<super::time::SimDuration>,
    held_write: Option<Message>,
    inbox: VecDeque<Packet>,
    /// When the client last went Lost (a fact for the pitfall sweep, not a check).
    lost_at: Option<SimTime>,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Next {
    Fault,
    Deliver,
    ServiceTimer,
    Wake(usize),
    Inbox(usize),
    ClientTimer(usize),
}

/// A running simulation of one scenario. Drive it with [`World::step`] or
/// [`World::run_until`]; inspect it with the getters; turn it into a [`super::Run`] at the end.
#[derive(Clone, Debug)]
pub struct World {
    now: SimTime,
    end: SimTime,
    clocks: Vec<NodeClock>,
    service: LockService,
    service_next: Option<SimTime>,
    service_dirty: bool,
    storage: Storage,
    slots: Vec<Slot>,
    net: Network,
    faults: Vec<TimedFault>,
    next_fault: usize,
    record: bool,
    events: Vec<Event>,
    /// With recording on, the failovers the observer found since the last
    /// [`World::drain_failovers`] (a streaming world's observer keeps no records of them).
    failovers: Vec<Failover>,
    observer: Observer,
}

impl World {
    /// Builds the world for `s`. With `record`, every event is kept for the trace; without,
    /// only the checks and metrics are computed (fast, for property tests and benchmarks).
    /// The scenario should have passed [`Scenario::validate`].
    pub fn new(s: &Scenario, record: bool) -> Self {
        Self::build(s, record, record)
    }

    /// Builds the world for a [`super::Recording`]: every event is streamed for the trace,
    /// but the observer keeps no per-event history, since checkpoints clone the world and
    /// any moment is replayed from one.
    pub fn streaming(s: &Scenario) -> Self {
        Self::build(s, true, false)
    }

    fn build(s: &Scenario, record: bool, observe_history: bool) -> Self {
        let n = s.clients as usize;
        let renew_interval = s.renew_interval();
        let slots = (0..n)
            .map(|i| {
                let cfg = ClientConfig {
                    ttl: s.ttl,
                    renew_interval,
                    request_timeout: s.request_timeout,
                    retry_interval: s.retry_interval,
                    acquire_retry: s.acquire_retry,
                    work_slice: s.work_slice,
                    drift_margin: s.drift_margin,
                    start_at: LocalTime(0) + s.client_stagger.mul_ratio(i as u64, 1),
                    release_after: s.release_after,
                    policy: s.policy,
                };
                let client = LeaseClient::new(ClientId(i as u8), cfg);
                Slot {
                    client: if record { client } else { client.quiet() },
                    next_timer: None,
                    dirty: true,
                    paused_until: None,
                    crashed: false,
                    write_pause: None,
                    held_write: None,
                    inbox: VecDeque::new(),
                    lost_at: None,
                }
            })
            .collect();
        let mut faults = s.faults.0.clone();
        faults.sort_by_key(|f| f.at);
        let link = LinkConfig {
            latency: s.rtt.mul_ratio(1, 2),
            jitter: s.jitter,
            loss_ppm: s.loss_ppm,
        };
        let mut net = Network::new(link, SimRng::child(s.seed, stream::NETWORK));
        for l in &s.links {
            let cfg = LinkConfig {
                latency: l.rtt.mul_ratio(1, 2),
                jitter: l.jitter,
                loss_ppm: l.loss_ppm,
            };
            net.configure_link(l.a, l.b, cfg);
        }
        World {
            now: SimTime::ZERO,
            end: SimTime::ZERO + s.duration,
            clocks: vec![NodeClock::new(); 2 + n],
            service: LockService::new(ServiceConfig {
                token_start: s.token_start,
                lock_delay: s.lock_delay,
                expiry_clock: s.policy.service_expiry,
            }),
            service_next: None,
            service_dirty: true,
            storage: Storage::new(s.policy.fencing),
            slots,
            net,
            faults,
            next_fault: 0,
            record,
            events: if record {
                Vec::with_capacity(1024)
            } else {
                Vec::new()
            },
            failovers: Vec::new(),
            observer: Observer::new(
                s.ttl,
                n,
                s.policy.fencing,
                s.policy.client_follows_prefer(),
                observe_history,
            ),
        }
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
    pub fn client(&self, c: ClientId) -> &LeaseClient {
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
    /// Measurements so far.
    pub fn metrics(&self) -> Metrics {
        self.observer.metrics()
    }
    /// The check reports so far.
    pub fn checks(&self) -> [super::check::CheckReport; 4] {
        self.observer.reports()
    }
    /// The events recorded so far (empty without recording).
    pub fn events(&self) -> &[Event] {
        &self.events
    }
    /// Hands each event recorded since the last call to `visit` and forgets it, so a long
    /// run can stream its trace instead of keeping it (see [`super::recording`]).
    pub fn drain_events(&mut self, mut visit: impl FnMut(&Event)) {
        for event in self.events.drain(..) {
            visit(&event);
        }
    }

    /// Hands each failover the observer found since the last call to `visit` and forgets
    /// it: how a [`super::Recording`], whose world keeps no observer records, learns them
    /// as it streams the trace. Empty without recording.
    pub fn drain_failovers(&mut self, mut visit: impl FnMut(&Failover)) {
        for failover in self.failovers.drain(..) {
            visit(&failover);
        }
    }

    #[inline]
    fn local(&self, n: NodeId) -> LocalNow {
        self.clocks[n.index()].now(self.now)
    }

    #[inline]
    fn push(&mut self, node: NodeId, kind: EventKind) {
        if self.record {
            self.events.push(Event {
                at: self.now,
                node,
                kind,
            });
        }
    }

    /// Marks in the trace each check the observer found broken just now.
    fn broken(&mut self, node: NodeId, broken: Broken) {
        for check in broken.checks() {
            self.push(node, EventKind::CheckBroken { check });
        }
    }

    fn next_event(&mut self) -> Option<(SimTime, Next)> {
        let mut best: Option<(SimTime, Next)> = None;
        let mut consider = |t: SimTime, k: Next| {
            if best.is_none_or(|(b, _)| t < b) {
                best = Some((t, k));
            }
        };
        if let Some(f) = self.faults.get(self.next_fault) {
            consider(f.at.max(self.now), Next::Fault);
        }
        if let Some(t) = self.net.poll_timeout() {
            consider(t.max(self.now), Next::Deliver);
        }
        if self.service_dirty {
            let clock = &self.clocks[NodeId::Service.index()];
            let now = clock.now(self.now);
            self.service_next = self
                .service
                .poll_timeout(now)
                .map(|m| clock.real_at_mono(m));
            self.service_dirty = false;
        }
        if let Some(t) = self.service_next {
            consider(t.max(self.now), Next::ServiceTimer);
        }
        for (i, slot) in self.slots.iter_mut().enumerate() {
            if slot.crashed {
                continue;
            }
            if let Some(w) = slot.paused_until {
                consider(w.max(self.now), Next::Wake(i));
                continue;
            }
            if slot.dirty {
                let clock = &self.clocks[NodeId::Client(ClientId(i as u8)).index()];
                let now = clock.now(self.now);
                slot.next_timer = slot.client.poll_timeout(now).map(|m| clock.real_at_mono(m));
                slot.dirty = false;
            }
            let inbox = slot.inbox.front().map(|p| p.deliver_at);
            match (slot.next_timer, inbox) {
                (Some(t), Some(m)) if m <= t => consider(self.now, Next::Inbox(i)),
                (_, Some(_)) if slot.next_timer.is_none() => consider(self.now, Next::Inbox(i)),
                (Some(t), _) => consider(t.max(self.now), Next::ClientTimer(i)),
                _ => {}
            }
        }
        best
    }

    /// Processes the next event if it falls at or before the end; returns false when there
    /// is nothing left to do before the end.
    pub fn step(&mut self) -> bool {
        self.step_until(self.end)
    }

    fn step_until(&mut self, limit: SimTime) -> bool {
        let Some((t, next)) = self.next_event() else {
            return false;
        };
        if t > limit {
            return false;
        }
        self.now = t;
        self.observer.count_step();
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
                self.service_dirty = true;
                self.drain_service();
            }
            Next::Wake(i) => self.wake(i),
            Next::Inbox(i) => {
                let p = self.slots[i].inbox.pop_front().expect("inbox");
                self.client_message(i, p.msg);
            }
            Next::ClientTimer(i) => {
                let now = self.local(NodeId::Client(ClientId(i as u8)));
                self.slots[i].client.handle_timeout(now);
                self.slots[i].dirty = true;
                self.drain_client(i);
            }
        }
        true
    }

    /// Runs every event up to and including time `t` (capped at the end), then sets the
    /// clock to `t`.
    pub fn run_until(&mut self, t: SimTime) {
        let t = t.min(self.end);
        while self.step_until(t) {}
        self.now = self.now.max(t);
    }

    /// Runs to the end of the scenario.
    pub fn run_to_end(&mut self) {
        self.run_until(self.end);
    }

    /// A copy of this world whose fault plan from here on is `faults` (in time order, none
    /// earlier than the events already run). How the search resumes the fault-free run it
    /// shares with every plan (see [`super::search`]): up to a plan's first fault, the world
    /// is the same whatever the plan.
    pub(crate) fn resumed_with_faults(&self, faults: &[TimedFault]) -> World {
        debug_assert!(faults.windows(2).all(|w| w[0].at <= w[1].at));
        debug_assert!(faults.first().is_none_or(|f| f.at >= self.now));
        let mut world = self.clone();
        world.faults.clear();
        world.faults.extend_from_slice(faults);
        world.next_fault = 0;
        world
    }

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
                self.mark_dirty(node);
            }
            Fault::ClockDrift { node, ppm } => {
                self.clocks[node.index()].set_drift(self.now, ppm);
                self.mark_dirty(node);
            }
            Fault::Crash { client } => {
                let slot = &mut self.slots[client.index()];
                if !slot.crashed {
                    slot.crashed = true;
                    slot.paused_until = None;
                    slot.held_write = None;
                    slot.inbox.clear();
                    self.push(node, EventKind::Crashed);
                    self.observer.crashed(self.now, client);
                }
            }
            Fault::RevokeLease => {
                let now = self.local(NodeId::Service);
                self.service.revoke(now);
                self.service_dirty = true;
                self.drain_service();
            }
        }
    }

    fn mark_dirty(&mut self, n: NodeId) {
        match n {
            NodeId::Service => self.service_dirty = true,
            NodeId::Storage => {}
            NodeId::Client(c) => self.slots[c.index()].dirty = true,
        }
    }

    fn wake(&mut self, i: usize) {
        let node = NodeId::Client(ClientId(i as u8));
        let slot = &mut self.slots[i];
        slot.paused_until = None;
        slot.dirty = true;
        let held = slot.held_write.take();
        self.push(node, EventKind::Woke);
        // The write that was past its check when the pause hit leaves first.
        if let Some(msg) = held {
            self.send(node, NodeId::Storage, msg);
        }
    }

    fn send(&mut self, from: NodeId, to: NodeId, msg: Message) {
        match self.net.send(self.now, from, to, msg) {
            SendOutcome::InFlight(p) => self.push(
                from,
                EventKind::Sent {
                    id: p.id,
                    to,
                    msg,
                    deliver_at: p.deliver_at,
                },
            ),
            SendOutcome::Dropped(p, reason) => {
                self.observe_drop(from, to, msg);
                self.push(
                    from,
                    EventKind::Dropped {
                        id: p.id,
                        to,
                        sent_at: p.sent_at,
                        msg,
                        reason,
                    },
                )
            }
        }
    }

    fn observe_drop(&mut self, from: NodeId, to: NodeId, msg: Message) {
        if let (NodeId::Client(c), _) | (_, NodeId::Client(c)) = (from, to) {
            self.observer.dropped(self.now, c, msg);
        }
    }

    fn deliver(&mut self) {
        let Some(r) = self.net.poll_deliver(self.now) else {
            return;
        };
        let p = match r {
            Ok(p) => p,
            Err((p, reason)) => {
                self.observe_drop(p.from, p.to, p.msg);
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
                self.service_dirty = true;
                self.drain_service();
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
        let decision = self.storage.handle_write(token);
        let accepted = decision == FenceDecision::Accepted;
        let (broken, stale_over) = self
            .observer
            .storage_decided(self.now, client, token, accepted);
        self.broken(NodeId::Storage, broken);
        let verdict = match decision {
            FenceDecision::Accepted => WriteVerdict::Accepted { stale_over },
            FenceDecision::Rejected { highest } => WriteVerdict::Rejected { highest },
        };
        let record = WriteRecord {
            at: self.now,
            client,
            token,
            seq,
            verdict,
        };
        self.push(NodeId::Storage, EventKind::Write(record));
    }

    fn client_message(&mut self, i: usize, msg: Message) {
        self.observer
            .client_received(self.now, ClientId(i as u8), msg);
        let now = self.local(NodeId::Client(ClientId(i as u8)));
        self.slots[i].client.handle_message(now, msg);
        self.slots[i].dirty = true;
        self.drain_client(i);
    }

    fn drain_client(&mut self, i: usize) {
        let c = ClientId(i as u8);
        let node = NodeId::Client(c);
        while let Some(ev) = self.slots[i].client.poll_event() {
            match ev {
                ClientEvent::Lifecycle { to, token } => {
                    self.push(node, EventKind::Lifecycle { to, token });
                    if let super::client::Lifecycle::Lost(_) = to {
                        self.slots[i].lost_at = Some(self.now);
                    }
                    self.observer.lifecycle(self.now, c, to, token);
                }
                ClientEvent::TimerFired { timer, late_by } => {
                    self.push(node, EventKind::Timer { timer, late_by })
                }
                ClientEvent::WriteIssued { token, seq } => {
                    self.push(node, EventKind::WriteIssued { token, seq })
                }
                ClientEvent::StaleReply { msg } => self.push(node, EventKind::StaleReply { msg }),
            }
        }
        while let Some(tx) = self.slots[i].client.poll_transmit() {
            // The observer sees what the client put on the wire, not what it says it did.
            match tx.msg {
                Message::Write { token, .. } => {
                    let broken = self.observer.write_issued(self.now, c, token);
                    self.broken(node, broken);
                }
                Message::Renew { req, .. } => self.observer.renew_sent(self.now, c, req),
                _ => {}
            }
            let slot = &mut self.slots[i];
            if let (Message::Write { .. }, Some(d)) = (tx.msg, slot.write_pause) {
                // The pause hits after the pre-write check passed, before the write leaves.
                slot.write_pause = None;
                slot.held_write = Some(tx.msg);
                let until = self.now + d;
                slot.paused_until = Some(until);
                self.push(
                    node,
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
            self.send(node, tx.to, tx.msg);
        }
    }

    fn drain_service(&mut self) {
        while let Some(ev) = self.service.poll_event() {
            let mono = self.local(NodeId::Service).mono;
            let (ev, broken) = match ev {
                ServiceEvent::Granted { client, token, .. } => {
                    let (broken, overlap, failover) =
                        self.observer.granted(self.now, mono, client, token);
                    if self.record {
                        self.failovers.extend(failover);
                    }
                    // The trace carries the observer's finding, never the service's.
                    let ev = ServiceEvent::Granted {
                        client,
                        token,
                        overlap,
                    };
                    (ev, broken)
                }
                ServiceEvent::Regranted { client, token }
                | ServiceEvent::Renewed { client, token } => {
                    (ev, self.observer.renewed(self.now, mono, client, token))
                }
                ServiceEvent::Ended { token, how, .. } => {
                    self.observer.lease_ended(token, how);
                    (ev, Broken::default())
                }
                _ => (ev, Broken::default()),
            };
            self.push(NodeId::Service, EventKind::Service(ev));
            self.broken(NodeId::Service, broken);
        }
        while let Some((to, msg)) = self.service.poll_transmit() {
            self.send(NodeId::Service, to, msg);
        }
    }

    /// Finishes the run: consumes the world and returns its trace and results.
    pub fn into_run(self, scenario: Scenario) -> super::run::Run {
        let checks = self.observer.reports();
        let (metrics, observed) = self.observer.finish(self.now);
        super::run::Run::build(scenario, self.end, self.events, checks, metrics, observed)
    }

    /// Finishes without a trace: the check reports and measurements.
    pub fn outcome(&self) -> Outcome {
        Outcome {
            checks: self.observer.reports(),
            metrics: self.observer.metrics(),
        }
    }

    /// Finishes without a trace: the first broken check and the measurements.
    pub fn verdict(&self) -> Verdict {
        Verdict {
            first_broken: self.observer.first_broken(),
            metrics: self.observer.metrics(),
        }
    }
}

/// The result of a run without a trace: its checks and measurements.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Outcome {
    /// The four checks.
    pub checks: [super::check::CheckReport; 4],
    /// The measurements.
    pub metrics: Metrics,
}

impl Outcome {
    /// True if any check broke.
    pub fn any_broken(&self) -> bool {
        self.checks.iter().any(|c| c.status.is_broken())
    }
    /// The status of one check.
    pub fn status(&self, check: CheckId) -> super::check::CheckStatus {
        self.checks[check.index()].status
    }
}
