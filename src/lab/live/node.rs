//! Live nodes: the model's own components with a delay queue for what they send and a log
//! of what they did, stamped on the shared timeline. A node's shell (the page for client A,
//! a worker for the service and storage, another for contender B) feeds it its own clock
//! readings, posts what [`ClientNode::poll_send`] or [`ServiceNode::poll_send`] hands out,
//! and arms one timer at `poll_timeout`. No second implementation of any rule: the lease
//! logic is [`LeaseClient`], [`LockService`] and [`Storage`].

use super::delay::DelayQueue;
use super::{LivePacket, NodeNow, Stamp, Stamped};
use crate::model::{
    ClientEvent, ClientId, DropReason, EventKind, LeaseClient, LockService, Message, MsgId, NodeId,
    Scenario, SimDuration, SimRng, SimTime, Storage, WriteRecord,
};

/// Seeds of the live nodes' delay queues, one stream per sender.
const LINK_STREAM: u64 = 0x11fe;

fn stamped_at(t: Stamp) -> SimTime {
    SimTime(t.0)
}

/// What a live node sends and logs; shared by both kinds of node.
struct Outgoing {
    node: NodeId,
    next_id: u32,
    events: Vec<Stamped>,
}

impl Outgoing {
    fn log(&mut self, now: NodeNow, node: NodeId, kind: EventKind) {
        self.events.push(Stamped {
            at: now.stamp,
            node,
            kind,
        });
    }

    fn send(
        &mut self,
        queue: &mut DelayQueue<LivePacket>,
        now: NodeNow,
        to: NodeId,
        msg: Message,
        extra: SimDuration,
    ) {
        self.next_id += 1;
        let packet = LivePacket {
            id: MsgId(self.next_id),
            from: self.node,
            to,
            sent: now.stamp,
            msg,
        };
        let kind = match queue.push(now.stamp, packet, extra) {
            Ok(due) => EventKind::Sent {
                id: packet.id,
                to,
                msg,
                deliver_at: stamped_at(due),
            },
            Err((_, reason)) => dropped(&packet, reason),
        };
        self.log(now, self.node, kind);
    }

    fn take_events(&mut self) -> Vec<Stamped> {
        std::mem::take(&mut self.events)
    }
}

fn dropped(p: &LivePacket, reason: DropReason) -> EventKind {
    EventKind::Dropped {
        id: p.id,
        to: p.to,
        sent_at: stamped_at(p.sent),
        msg: p.msg,
        reason,
    }
}

fn delivered(p: &LivePacket) -> EventKind {
    EventKind::Delivered {
        id: p.id,
        from: p.from,
        sent_at: stamped_at(p.sent),
        msg: p.msg,
    }
}

/// One due packet to post, or one that the link dropped as it fell due (already logged).
fn next_due(
    queue: &mut DelayQueue<LivePacket>,
    out: &mut Outgoing,
    now: NodeNow,
) -> Option<LivePacket> {
    loop {
        match queue.pop_due(now.stamp)? {
            Ok(p) => return Some(p),
            Err((p, reason)) => out.log(now, p.from, dropped(&p, reason)),
        }
    }
}

/// A lock client (A on the page, or contender B in its worker).
pub struct ClientNode {
    client: LeaseClient,
    link: DelayQueue<LivePacket>,
    out: Outgoing,
    next_write_extra: SimDuration,
    freeze_at_write: bool,
    held_write: Option<Message>,
}

impl ClientNode {
    /// Client `id` of scenario `s`, its timers measured from `start` (its monotonic zero).
    pub fn new(s: &Scenario, id: ClientId) -> ClientNode {
        let rng = SimRng::child(s.seed, LINK_STREAM + 1 + u64::from(id.0));
        ClientNode {
            client: LeaseClient::new(id, s.client_config(id.index())),
            link: DelayQueue::new(s.link_config(), rng),
            out: Outgoing {
                node: NodeId::Client(id),
                next_id: 0,
                events: Vec::new(),
            },
            next_write_extra: SimDuration::ZERO,
            freeze_at_write: false,
            held_write: None,
        }
    }

    /// The client state machine (for views and tests).
    pub fn client(&self) -> &LeaseClient {
        &self.client
    }

    /// Fires every client timer that is due at `now`, oldest first.
    pub fn handle_timeout(&mut self, now: NodeNow) {
        while self.client.handle_timeout(now.local) {
            self.drain(now);
        }
    }

    /// A packet arrived from the service.
    pub fn handle_packet(&mut self, now: NodeNow, p: LivePacket) {
        self.out.log(now, self.out.node, delivered(&p));
        self.client.handle_message(now.local, p.msg);
        self.drain(now);
    }

    /// Notes something the shell did to this node (a fault, a pause, waking, a crash).
    pub fn note(&mut self, now: NodeNow, kind: EventKind) {
        self.out.log(now, self.out.node, kind);
    }

    /// The next write gets `extra` delay on top of its latency.
    pub fn delay_next_write(&mut self, extra: SimDuration) {
        self.next_write_extra = extra;
    }

    /// The next write is held once its pre-write check has passed: the shell freezes, then
    /// calls [`ClientNode::release_held_write`] (a pause in the write path).
    pub fn freeze_at_next_write(&mut self) {
        self.freeze_at_write = true;
    }

    /// True when a write is held for the shell's freeze.
    pub fn holds_write(&self) -> bool {
        self.held_write.is_some()
    }

    /// After the freeze: the held write leaves now.
    pub fn release_held_write(&mut self, now: NodeNow) {
        if let Some(msg) = self.held_write.take() {
            self.send(now, NodeId::Storage, msg);
        }
    }

    /// Takes this node's link down until `until` (a dropped link).
    pub fn take_link_down(&mut self, until: Stamp) {
        self.link.take_down(until);
    }

    /// When the shell should call again: the earlier of the client's next timer and the next
    /// packet due to leave, as a stamp.
    pub fn poll_timeout(&self, now: NodeNow) -> Option<Stamp> {
        let timer = self.client.poll_timeout(now.local).map(|m| {
            let wait = m.0.saturating_sub(now.local.mono.0).max(0) as u64;
            now.stamp.plus(SimDuration(wait))
        });
        match (timer, self.link.poll_timeout()) {
            (Some(a), Some(b)) => Some(a.min(b)),
            (a, b) => a.or(b),
        }
    }

    /// The next packet due to leave now, if any.
    pub fn poll_send(&mut self, now: NodeNow) -> Option<LivePacket> {
        next_due(&mut self.link, &mut self.out, now)
    }

    /// What this node did since the last call.
    pub fn take_events(&mut self) -> Vec<Stamped> {
        self.out.take_events()
    }

    fn send(&mut self, now: NodeNow, to: NodeId, msg: Message) {
        let extra = if matches!(msg, Message::Write { .. }) {
            std::mem::take(&mut self.next_write_extra)
        } else {
            SimDuration::ZERO
        };
        self.out.send(&mut self.link, now, to, msg, extra);
    }

    fn drain(&mut self, now: NodeNow) {
        let node = self.out.node;
        while let Some(ev) = self.client.poll_event() {
            let kind = match ev {
                ClientEvent::Lifecycle { to, token } => EventKind::Lifecycle { to, token },
                ClientEvent::TimerFired { timer, late_by } => EventKind::Timer { timer, late_by },
                ClientEvent::StaleReply { msg } => EventKind::StaleReply { msg },
            };
            self.out.log(now, node, kind);
        }
        while let Some(tx) = self.client.poll_transmit() {
            // What the client put on the wire, as the world records it.
            if let Message::Write { token, seq } = tx.msg {
                self.out
                    .log(now, node, EventKind::WriteIssued { token, seq });
            }
            if matches!(tx.msg, Message::Write { .. }) && self.freeze_at_write {
                self.freeze_at_write = false;
                self.held_write = Some(tx.msg);
                continue;
            }
            self.send(now, tx.to, tx.msg);
        }
    }
}

/// The lock service and the fenced storage, which share one worker (and one clock).
pub struct ServiceNode {
    service: LockService,
    storage: Storage,
    /// One queue per client link.
    links: Vec<DelayQueue<LivePacket>>,
    out: Outgoing,
}

impl ServiceNode {
    /// The service and storage of scenario `s`, with a link to each of its clients.
    pub fn new(s: &Scenario) -> ServiceNode {
        let links = (0..s.clients)
            .map(|i| {
                DelayQueue::new(
                    s.link_config(),
                    SimRng::child(s.seed, LINK_STREAM + 16 + u64::from(i)),
                )
            })
            .collect();
        ServiceNode {
            service: LockService::new(s.service_config()),
            storage: Storage::new(s.policy.fencing),
            links,
            out: Outgoing {
                node: NodeId::Service,
                next_id: 0,
                events: Vec::new(),
            },
        }
    }

    /// A packet arrived from a client, for the service or for storage.
    pub fn handle_packet(&mut self, now: NodeNow, p: LivePacket) {
        let NodeId::Client(client) = p.from else {
            return;
        };
        if client.index() >= self.links.len() {
            return;
        }
        match (p.to, p.msg) {
            (NodeId::Service, msg) => {
                self.out.log(now, NodeId::Service, delivered(&p));
                self.service.handle_message(now.local, client, msg);
                self.drain(now);
            }
            (NodeId::Storage, Message::Write { token, seq }) => {
                self.out.log(now, NodeId::Storage, delivered(&p));
                let verdict = self.storage.handle_write(token);
                let record = WriteRecord {
                    at: stamped_at(now.stamp),
                    client,
                    token,
                    seq,
                    verdict,
                };
                self.out.log(now, NodeId::Storage, EventKind::Write(record));
            }
            _ => {}
        }
    }

    /// Fires the service's expiry timer if it is due.
    pub fn handle_timeout(&mut self, now: NodeNow) {
        self.service.handle_timeout(now.local);
        self.drain(now);
    }

    /// An administrator deletes the lease.
    pub fn revoke(&mut self, now: NodeNow) {
        self.service.revoke(now.local);
        self.drain(now);
    }

    /// Notes a fault that hit this node's side.
    pub fn note(&mut self, now: NodeNow, kind: EventKind) {
        self.out.log(now, NodeId::Service, kind);
    }

    /// Takes the link to `client` down until `until`.
    pub fn take_link_down(&mut self, client: ClientId, until: Stamp) {
        if let Some(link) = self.links.get_mut(client.index()) {
            link.take_down(until);
        }
    }

    /// When to call again: the service's expiry or the next packet due to leave.
    pub fn poll_timeout(&self, now: NodeNow) -> Option<Stamp> {
        let expiry = self.service.poll_timeout(now.local).map(|m| {
            let wait = m.0.saturating_sub(now.local.mono.0).max(0) as u64;
            now.stamp.plus(SimDuration(wait))
        });
        self.links
            .iter()
            .filter_map(DelayQueue::poll_timeout)
            .chain(expiry)
            .min()
    }

    /// The next packet due to leave now, if any.
    pub fn poll_send(&mut self, now: NodeNow) -> Option<LivePacket> {
        for i in 0..self.links.len() {
            if let Some(p) = next_due(&mut self.links[i], &mut self.out, now) {
                return Some(p);
            }
        }
        None
    }

    /// What this node did since the last call.
    pub fn take_events(&mut self) -> Vec<Stamped> {
        self.out.take_events()
    }

    fn drain(&mut self, now: NodeNow) {
        while let Some(ev) = self.service.poll_event() {
            self.out.log(now, NodeId::Service, EventKind::Service(ev));
        }
        while let Some((to, msg)) = self.service.poll_transmit() {
            let NodeId::Client(c) = to else { continue };
            if let Some(link) = self.links.get_mut(c.index()) {
                self.out.send(link, now, to, msg, SimDuration::ZERO);
            }
        }
    }
}
