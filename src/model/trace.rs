//! The trace: typed events (time, node, kind) that the views render, and a stable hash over
//! a hand-written canonical byte encoding (independent of `Debug` output and of the platform).

use super::client::{Lifecycle, LostReason, TimerKind};
use super::faults::Fault;
use super::ids::{ClientId, FencingToken, MsgId, NodeId, RequestId};
use super::msg::Message;
use super::net::DropReason;
use super::service::{LeaseEnd, ServiceEvent};
use super::storage::{WriteRecord, WriteVerdict};
use super::time::{LocalTime, SimDuration, SimTime};

/// One thing that happened, at one time, at one node.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct Event {
    /// When (real simulation time).
    pub at: SimTime,
    /// Where.
    pub node: NodeId,
    /// What.
    pub kind: EventKind,
}

/// The kinds of trace event.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum EventKind {
    /// A client's lifecycle changed.
    Lifecycle {
        /// The new state.
        to: Lifecycle,
        /// The token held or last held.
        token: Option<FencingToken>,
    },
    /// A client's timer fired (`late_by` > 0 after a pause).
    Timer {
        /// Which timer.
        timer: TimerKind,
        /// How late.
        late_by: SimDuration,
    },
    /// A packet left `node`; it will arrive at `deliver_at` unless its link goes down.
    Sent {
        /// Packet id.
        id: MsgId,
        /// Receiver.
        to: NodeId,
        /// Content.
        msg: Message,
        /// Planned arrival.
        deliver_at: SimTime,
    },
    /// A packet arrived at `node`.
    Delivered {
        /// Packet id.
        id: MsgId,
        /// Sender.
        from: NodeId,
        /// When it was sent.
        sent_at: SimTime,
        /// Content.
        msg: Message,
    },
    /// A packet was dropped (at send time, or on arrival). `node` is the sender.
    Dropped {
        /// Packet id.
        id: MsgId,
        /// Intended receiver.
        to: NodeId,
        /// When it was sent.
        sent_at: SimTime,
        /// Content.
        msg: Message,
        /// Why.
        reason: DropReason,
    },
    /// A packet that arrived while `node` (a client) was paused, and waited in its socket
    /// buffer, reached the client's code when it woke.
    Read {
        /// Packet id.
        id: MsgId,
        /// Sender.
        from: NodeId,
        /// Content.
        msg: Message,
    },
    /// A client ignored an answer to an abandoned request.
    StaleReply {
        /// The ignored message.
        msg: Message,
    },
    /// A fault from the plan took effect (`node` is the node it hits, or the service).
    Fault {
        /// The fault.
        fault: Fault,
    },
    /// A client froze until `until`.
    Paused {
        /// When it wakes.
        until: SimTime,
        /// Whether the pause hit between the pre-write check and the write.
        in_write_path: bool,
    },
    /// A client woke from a pause.
    Woke,
    /// A client crashed for good.
    Crashed,
    /// A client put a write on the wire (its pre-write check passed); recorded by whoever
    /// runs the client, from what it transmitted.
    WriteIssued {
        /// The token the write carries.
        token: FencingToken,
        /// The client's write counter.
        seq: u32,
    },
    /// Storage decided on a write (`node` is storage).
    Write(WriteRecord),
    /// The lock service did something (`node` is the service).
    Service(ServiceEvent),
}

/// FNV-1a, 64 bit: the trace hash.
#[derive(Clone, Copy, Debug)]
pub struct TraceHasher(u64);

impl Default for TraceHasher {
    fn default() -> Self {
        TraceHasher(0xcbf2_9ce4_8422_2325)
    }
}

impl TraceHasher {
    #[inline]
    fn byte(&mut self, b: u8) {
        self.0 ^= b as u64;
        self.0 = self.0.wrapping_mul(0x0000_0100_0000_01b3);
    }
    #[inline]
    fn u64(&mut self, v: u64) {
        for b in v.to_le_bytes() {
            self.byte(b);
        }
    }
    #[inline]
    fn u32(&mut self, v: u32) {
        for b in v.to_le_bytes() {
            self.byte(b);
        }
    }
    /// The hash so far.
    pub fn finish(&self) -> u64 {
        self.0
    }
    /// Feeds one event's canonical encoding.
    pub fn event(&mut self, e: &Event) {
        self.u64(e.at.0);
        self.node(e.node);
        match e.kind {
            EventKind::Lifecycle { to, token } => {
                self.byte(1);
                self.lifecycle(to);
                self.opt_token(token);
            }
            EventKind::Timer { timer, late_by } => {
                self.byte(2);
                self.byte(timer as u8);
                self.u64(late_by.0);
            }
            EventKind::Sent {
                id,
                to,
                msg,
                deliver_at,
            } => {
                self.byte(3);
                self.u32(id.0);
                self.node(to);
                self.msg(msg);
                self.u64(deliver_at.0);
            }
            EventKind::Delivered {
                id,
                from,
                sent_at,
                msg,
            } => {
                self.byte(4);
                self.u32(id.0);
                self.node(from);
                self.u64(sent_at.0);
                self.msg(msg);
            }
            EventKind::Dropped {
                id,
                to,
                sent_at,
                msg,
                reason,
            } => {
                self.byte(5);
                self.u32(id.0);
                self.node(to);
                self.u64(sent_at.0);
                self.msg(msg);
                self.byte(reason as u8);
            }
            EventKind::StaleReply { msg } => {
                self.byte(6);
                self.msg(msg);
            }
            EventKind::Fault { fault } => {
                self.byte(7);
                self.fault(fault);
            }
            EventKind::Paused {
                until,
                in_write_path,
            } => {
                self.byte(8);
                self.u64(until.0);
                self.byte(in_write_path as u8);
            }
            EventKind::Woke => self.byte(9),
            EventKind::Crashed => self.byte(10),
            EventKind::WriteIssued { token, seq } => {
                self.byte(11);
                self.u64(token.0);
                self.u32(seq);
            }
            EventKind::Write(r) => {
                self.byte(12);
                self.u64(r.at.0);
                self.client(r.client);
                self.u64(r.token.0);
                self.u32(r.seq);
                match r.verdict {
                    WriteVerdict::Accepted => self.byte(0),
                    WriteVerdict::Rejected { highest } => {
                        self.byte(1);
                        self.u64(highest.0);
                    }
                }
            }
            EventKind::Service(s) => {
                self.byte(13);
                self.service(s);
            }
            EventKind::Read { id, from, msg } => {
                self.byte(14);
                self.u32(id.0);
                self.node(from);
                self.msg(msg);
            }
        }
    }
    fn promise(&mut self, c: ClientId, token: FencingToken, mono: LocalTime) {
        self.client(c);
        self.u64(token.0);
        self.u64(mono.0 as u64);
    }
    fn client(&mut self, c: ClientId) {
        self.byte(c.0);
    }
    fn node(&mut self, n: NodeId) {
        match n {
            NodeId::Service => self.byte(0xF0),
            NodeId::Storage => self.byte(0xF1),
            NodeId::Client(c) => self.client(c),
        }
    }
    fn opt_token(&mut self, t: Option<FencingToken>) {
        match t {
            None => self.byte(0),
            Some(t) => {
                self.byte(1);
                self.u64(t.0);
            }
        }
    }
    fn req(&mut self, r: RequestId) {
        self.u32(r.0);
    }
    fn lifecycle(&mut self, l: Lifecycle) {
        match l {
            Lifecycle::Idle => self.byte(0),
            Lifecycle::Acquiring => self.byte(1),
            Lifecycle::Holding => self.byte(2),
            Lifecycle::RenewInFlight => self.byte(3),
            Lifecycle::Lost(r) => {
                self.byte(4);
                self.byte(match r {
                    LostReason::NotOwner => 0,
                    LostReason::DeadlinePassed => 1,
                    LostReason::DeadlinePassedAtWrite => 2,
                });
            }
            Lifecycle::Releasing => self.byte(5),
            Lifecycle::Released => self.byte(6),
        }
    }
    fn msg(&mut self, m: Message) {
        match m {
            Message::Acquire { req, ttl } => {
                self.byte(0);
                self.req(req);
                self.u64(ttl.0);
            }
            Message::Renew { req, token } => {
                self.byte(1);
                self.req(req);
                self.u64(token.0);
            }
            Message::Release { req, token } => {
                self.byte(2);
                self.req(req);
                self.u64(token.0);
            }
            Message::Granted { req, token } => {
                self.byte(3);
                self.req(req);
                self.u64(token.0);
            }
            Message::Busy { req } => {
                self.byte(4);
                self.req(req);
            }
            Message::RenewOk { req, token } => {
                self.byte(5);
                self.req(req);
                self.u64(token.0);
            }
            Message::NotOwner { req, token } => {
                self.byte(6);
                self.req(req);
                self.u64(token.0);
            }
            Message::ReleaseReply { req, deleted } => {
                self.byte(7);
                self.req(req);
                self.byte(deleted as u8);
            }
            Message::Write { token, seq } => {
                self.byte(8);
                self.u64(token.0);
                self.u32(seq);
            }
        }
    }
    fn fault(&mut self, f: Fault) {
        match f {
            Fault::Pause {
                client,
                duration,
                in_write_path,
            } => {
                self.byte(0);
                self.client(client);
                self.u64(duration.0);
                self.byte(in_write_path as u8);
            }
            Fault::Partition { a, b, duration } => {
                self.byte(1);
                self.node(a);
                self.node(b);
                self.u64(duration.0);
            }
            Fault::DelayNextPacket { from, to, extra } => {
                self.byte(2);
                self.node(from);
                self.node(to);
                self.u64(extra.0);
            }
            Fault::ClockStep { node, by_micros } => {
                self.byte(3);
                self.node(node);
                self.u64(by_micros as u64);
            }
            Fault::ClockDrift { node, ppm } => {
                self.byte(4);
                self.node(node);
                self.u32(ppm as u32);
            }
            Fault::Crash { client } => {
                self.byte(5);
                self.client(client);
            }
            Fault::RevokeLease => self.byte(6),
        }
    }
    fn service(&mut self, s: ServiceEvent) {
        match s {
            ServiceEvent::Granted {
                client,
                token,
                mono,
            } => {
                self.byte(0);
                self.promise(client, token, mono);
            }
            ServiceEvent::Regranted {
                client,
                token,
                mono,
            } => {
                self.byte(1);
                self.promise(client, token, mono);
            }
            ServiceEvent::Renewed {
                client,
                token,
                mono,
            } => {
                self.byte(2);
                self.promise(client, token, mono);
            }
            ServiceEvent::Busy { client, lock_delay } => {
                self.byte(3);
                self.client(client);
                self.byte(lock_delay as u8);
            }
            ServiceEvent::NotOwner { client, token } => {
                self.byte(4);
                self.client(client);
                self.u64(token.0);
            }
            ServiceEvent::Ended { client, token, how } => {
                self.byte(5);
                self.client(client);
                self.u64(token.0);
                self.byte(match how {
                    LeaseEnd::Expired => 0,
                    LeaseEnd::Released => 1,
                    LeaseEnd::Revoked => 2,
                });
            }
        }
    }
}

/// The stable hash of a whole trace.
pub fn trace_hash(events: &[Event]) -> u64 {
    let mut h = TraceHasher::default();
    for e in events {
        h.event(e);
    }
    h.finish()
}
