//! A lock client: the lease lifecycle state machine, in the sans-IO style. It sees only its
//! own clock readings, handed in as [`LocalNow`]; it never reads a clock or does I/O.
//!
//! * getters: [`LeaseClient::lifecycle`], [`LeaseClient::lost_flag`], [`LeaseClient::token`],
//!   [`LeaseClient::safe_deadline`];
//! * inputs: [`LeaseClient::handle_timeout`] (fires at most one due timer per call) and
//!   [`LeaseClient::handle_message`];
//! * outputs: [`LeaseClient::poll_transmit`], [`LeaseClient::poll_event`], and
//!   [`LeaseClient::poll_timeout`] (the next deadline, as a monotonic reading).
//!
//! Lifecycle: Idle → Acquiring → Holding ⇄ RenewInFlight → Lost(reason) | Releasing → Released.

use super::ids::{ClientId, FencingToken, NodeId, RequestId};
use super::msg::Message;
#[cfg(test)]
use super::planted;
use super::policy::Policy;
use super::queue::Outbox;
use super::time::{ClockKind, LocalNow, LocalTime, SimDuration};
use timers::Timers;

mod timers;

/// A client's fixed configuration, derived from the scenario.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ClientConfig {
    /// The lease length T asked for.
    pub ttl: SimDuration,
    /// Renew this long after the send time of the last successful acquire or renew.
    pub renew_interval: SimDuration,
    /// Give up waiting for an answer after this long.
    pub request_timeout: SimDuration,
    /// Retry a timed-out renew this long after the failed attempt was sent.
    pub retry_interval: SimDuration,
    /// Retry an acquire this long after the last attempt was sent.
    pub acquire_retry: SimDuration,
    /// Time between writes.
    pub work_slice: SimDuration,
    /// Safe deadline = send time + T − this margin.
    pub drift_margin: SimDuration,
    /// The monotonic reading at which the client starts acquiring.
    pub start_at: LocalTime,
    /// Release politely after holding this long.
    pub release_after: Option<SimDuration>,
    /// The policy switches.
    pub policy: Policy,
}

/// Why a client concluded that it lost the lease.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum LostReason {
    /// The service answered NOT_OWNER to a renew: definitive, no retry.
    NotOwner,
    /// The safe deadline passed without a confirmed renew (fail closed).
    DeadlinePassed,
    /// The pre-write check found the safe deadline already passed (typically after a pause).
    DeadlinePassedAtWrite,
}

/// Where a client is in the lease lifecycle (what the state-machine diagram highlights).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Lifecycle {
    /// Not started yet.
    Idle,
    /// Asking for the lock (including waiting between BUSY answers).
    Acquiring,
    /// Holding the lease, no renew outstanding.
    Holding,
    /// Holding, with a renew sent and not yet answered.
    RenewInFlight,
    /// Lost: the lost flag is set and writes have stopped.
    Lost(LostReason),
    /// Unlocking: politely, or (under "stop writes only after unlock") still writing.
    Releasing,
    /// Released politely.
    Released,
}

impl Lifecycle {
    /// True while the client believes it holds the lease (Holding or RenewInFlight).
    pub fn believes_holding(self) -> bool {
        matches!(self, Lifecycle::Holding | Lifecycle::RenewInFlight)
    }
}

/// The client's timers; each is one absolute deadline on one of its clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum TimerKind {
    /// Send the next acquire.
    Acquire,
    /// The outstanding request has waited `request_timeout`.
    RequestTimeout,
    /// Send the next renew (or retry, or unlock retry).
    Renew,
    /// The safe deadline: unconfirmed at this point means lost.
    SafeDeadline,
    /// The next write of the critical section.
    Work,
    /// Release politely.
    Release,
}

const TIMERS: [TimerKind; 6] = [
    TimerKind::Acquire,
    TimerKind::RequestTimeout,
    TimerKind::Renew,
    TimerKind::SafeDeadline,
    TimerKind::Work,
    TimerKind::Release,
];

/// An absolute deadline on one of the node's clocks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Deadline {
    /// The clock it is measured on.
    pub clock: ClockKind,
    /// The reading of that clock at which it falls due.
    pub at: LocalTime,
}

impl Deadline {
    #[inline]
    pub(super) fn passed(self, now: LocalNow) -> bool {
        now.read(self.clock) >= self.at
    }
}

/// What the client did, for the trace.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum ClientEvent {
    /// The lifecycle changed (`token` is the lease's token where there is one).
    Lifecycle {
        /// The new state.
        to: Lifecycle,
        /// The token held or last held.
        token: Option<FencingToken>,
    },
    /// A timer fired, `late_by` after its deadline (late after a pause).
    TimerFired {
        /// Which timer.
        timer: TimerKind,
        /// How late, on the timer's own clock.
        late_by: SimDuration,
    },
    /// An answer to an old or abandoned request arrived and was ignored.
    StaleReply {
        /// The ignored message.
        msg: Message,
    },
}

/// An outgoing packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Transmit {
    /// Destination.
    pub to: NodeId,
    /// Content.
    pub msg: Message,
}

/// The client's side of the sans-IO contract, as the world drives it: the model's own
/// [`LeaseClient`], or a learner's client run by the laboratory (`crate::lab::own`). The world
/// calls nothing else, so every client is checked and drawn by the same code.
pub trait ClientMachine {
    /// Fires the earliest timer due at `now`, if any; true if one fired.
    fn handle_timeout(&mut self, now: LocalNow) -> bool;
    /// Handles a reply from the lock service.
    fn handle_message(&mut self, now: LocalNow, msg: Message);
    /// The earliest timer, as a reading of the monotonic clock.
    fn poll_timeout(&self, now: LocalNow) -> Option<LocalTime>;
    /// The next packet to send.
    fn poll_transmit(&mut self) -> Option<Transmit>;
    /// The next event for the trace.
    fn poll_event(&mut self) -> Option<ClientEvent>;
    /// The current lifecycle state.
    fn lifecycle(&self) -> Lifecycle;
}

impl ClientMachine for LeaseClient {
    #[inline]
    fn handle_timeout(&mut self, now: LocalNow) -> bool {
        LeaseClient::handle_timeout(self, now)
    }
    #[inline]
    fn handle_message(&mut self, now: LocalNow, msg: Message) {
        LeaseClient::handle_message(self, now, msg)
    }
    #[inline]
    fn poll_timeout(&self, now: LocalNow) -> Option<LocalTime> {
        LeaseClient::poll_timeout(self, now)
    }
    #[inline]
    fn poll_transmit(&mut self) -> Option<Transmit> {
        LeaseClient::poll_transmit(self)
    }
    #[inline]
    fn poll_event(&mut self) -> Option<ClientEvent> {
        LeaseClient::poll_event(self)
    }
    #[inline]
    fn lifecycle(&self) -> Lifecycle {
        LeaseClient::lifecycle(self)
    }
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Attempt {
    req: RequestId,
    sent: LocalNow,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Held {
    token: FencingToken,
    deadline: Deadline,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum State {
    Idle,
    Acquiring {
        attempt: Option<Attempt>,
    },
    Holding {
        lease: Held,
        renew: Option<Attempt>,
    },
    /// Loss detected under "stop writes only after unlock": still writing.
    Unlocking {
        lease: Held,
        unlock: Option<Attempt>,
        reason: LostReason,
    },
    Lost {
        token: FencingToken,
        reason: LostReason,
    },
    Releasing {
        token: FencingToken,
        unlock: Option<Attempt>,
    },
    Released,
}

/// One lock client (A, B, …) with its critical-section work loop.
#[derive(Clone, Debug)]
pub struct LeaseClient {
    id: ClientId,
    cfg: ClientConfig,
    state: State,
    timers: Timers,
    next_req: u32,
    write_seq: u32,
    lost_flag: bool,
    reported: Lifecycle,
    /// Whether to report trace-only events (timers, stale replies).
    verbose: bool,
    out: Outbox<Transmit, 8>,
    events: Outbox<ClientEvent, 16>,
}

impl LeaseClient {
    /// A client in Idle that starts acquiring at `cfg.start_at` on its monotonic clock.
    pub fn new(id: ClientId, cfg: ClientConfig) -> Self {
        #[cfg(test)]
        let cfg = planted::renew_from_wall_clock(cfg);
        let mut timers = Timers::new();
        timers.set(
            TimerKind::Acquire,
            Deadline {
                clock: ClockKind::Monotonic,
                at: cfg.start_at,
            },
        );
        LeaseClient {
            id,
            cfg,
            state: State::Idle,
            timers,
            next_req: 0,
            write_seq: 0,
            lost_flag: false,
            reported: Lifecycle::Idle,
            verbose: true,
            out: Outbox::new(),
            events: Outbox::new(),
        }
    }

    /// Stops reporting [`ClientEvent::TimerFired`] and [`ClientEvent::StaleReply`], which
    /// only feed the trace (the world does this when it records no trace).
    pub fn quiet(mut self) -> Self {
        self.verbose = false;
        self
    }

    /// This client's id.
    pub fn id(&self) -> ClientId {
        self.id
    }

    /// The current lifecycle state.
    pub fn lifecycle(&self) -> Lifecycle {
        match self.state {
            State::Idle => Lifecycle::Idle,
            State::Acquiring { .. } => Lifecycle::Acquiring,
            State::Holding { renew: None, .. } => Lifecycle::Holding,
            State::Holding { renew: Some(_), .. } => Lifecycle::RenewInFlight,
            State::Unlocking { .. } | State::Releasing { .. } => Lifecycle::Releasing,
            State::Lost { reason, .. } => Lifecycle::Lost(reason),
            State::Released => Lifecycle::Released,
        }
    }

    /// The volatile lost flag the critical section reads before each write.
    pub fn lost_flag(&self) -> bool {
        self.lost_flag
    }

    /// The fencing token held, or last held.
    pub fn token(&self) -> Option<FencingToken> {
        match self.state {
            State::Idle | State::Acquiring { .. } | State::Released => None,
            State::Holding { lease, .. } | State::Unlocking { lease, .. } => Some(lease.token),
            State::Lost { token, .. } | State::Releasing { token, .. } => Some(token),
        }
    }

    /// The safe deadline while holding: send time of the last successful acquire or renew
    /// + T − drift margin (other formulas under the Alternative policies).
    pub fn safe_deadline(&self) -> Option<Deadline> {
        match self.state {
            State::Holding { lease, .. } => Some(lease.deadline),
            _ => None,
        }
    }

    /// How many writes this client has issued.
    pub fn writes_issued(&self) -> u32 {
        self.write_seq
    }

    /// The earliest timer, as a reading of the monotonic clock (wall deadlines converted with
    /// the clocks' current relation). `None` when no timer is armed.
    #[inline]
    pub fn poll_timeout(&self, now: LocalNow) -> Option<LocalTime> {
        self.timers.earliest(now)
    }

    /// The next packet to send.
    pub fn poll_transmit(&mut self) -> Option<Transmit> {
        self.out.pop_front()
    }

    /// The next event for the trace.
    pub fn poll_event(&mut self) -> Option<ClientEvent> {
        self.events.pop_front()
    }

    fn set(&mut self, t: TimerKind, d: Deadline) {
        self.timers.set(t, d);
    }
    fn clear(&mut self, t: TimerKind) {
        self.timers.clear(t);
    }
    fn timer_at(&self, base: LocalNow, plus: SimDuration) -> Deadline {
        let clock = self.cfg.policy.timer_clock();
        Deadline {
            clock,
            at: base.read(clock) + plus,
        }
    }
    /// `base + interval`, but not before now.
    fn retry_at(&self, base: LocalNow, interval: SimDuration, now: LocalNow) -> Deadline {
        let d = self.timer_at(base, interval);
        Deadline {
            clock: d.clock,
            at: d.at.max(now.read(d.clock)),
        }
    }
    fn deadline_from(&self, sent: LocalNow) -> Deadline {
        let p = &self.cfg.policy;
        let clock = p.validity_clock();
        let base = sent.read(clock);
        let t = self.cfg.ttl;
        let at = if p.write_until_wall_ttl {
            base + t
        } else if p.soft_ttl {
            base + t + t.mul_ratio(1, 2)
        } else {
            base + t - self.cfg.drift_margin
        };
        Deadline { clock, at }
    }
    fn next_req(&mut self) -> RequestId {
        self.next_req += 1;
        RequestId(self.next_req)
    }
    fn send(&mut self, to: NodeId, msg: Message) {
        self.out.push_back(Transmit { to, msg });
    }
    fn sync_lifecycle(&mut self) {
        let now = self.lifecycle();
        if now != self.reported {
            self.reported = now;
            self.events.push_back(ClientEvent::Lifecycle {
                to: now,
                token: self.token(),
            });
        }
    }

    fn send_acquire(&mut self, now: LocalNow) {
        let req = self.next_req();
        self.send(
            NodeId::Service,
            Message::Acquire {
                req,
                ttl: self.cfg.ttl,
            },
        );
        self.state = State::Acquiring {
            attempt: Some(Attempt { req, sent: now }),
        };
        self.clear(TimerKind::Acquire);
        self.set(
            TimerKind::RequestTimeout,
            self.timer_at(now, self.cfg.request_timeout),
        );
    }

    fn send_unlock(&mut self, now: LocalNow, token: FencingToken, with_timeout: bool) -> Attempt {
        let req = self.next_req();
        self.send(NodeId::Service, Message::Release { req, token });
        if with_timeout {
            self.set(
                TimerKind::RequestTimeout,
                self.timer_at(now, self.cfg.request_timeout),
            );
        }
        Attempt { req, sent: now }
    }

    /// The lease is lost: set the lost flag (so the next write is skipped), send a
    /// best-effort unlock and do not wait for it. Under "stop writes only after unlock",
    /// keep writing until the unlock is answered instead.
    fn lose(&mut self, lease: Held, reason: LostReason, now: LocalNow) {
        for t in [
            TimerKind::Renew,
            TimerKind::SafeDeadline,
            TimerKind::RequestTimeout,
            TimerKind::Release,
        ] {
            self.clear(t);
        }
        if self.cfg.policy.stop_writes_after_unlock {
            let a = self.send_unlock(now, lease.token, true);
            self.state = State::Unlocking {
                lease,
                unlock: Some(a),
                reason,
            };
        } else {
            self.lost_flag = true;
            #[cfg(test)]
            let work = self.timers.get(TimerKind::Work);
            self.timers.clear_all();
            #[cfg(test)]
            if let Some(work) = work.filter(|_| planted::is(planted::Bug::ClientSkipsLostFlag)) {
                self.timers.set(TimerKind::Work, work);
            }
            self.state = State::Lost {
                token: lease.token,
                reason,
            };
            self.send_unlock(now, lease.token, false);
        }
    }

    /// Fires the earliest timer that is due at `now`, if any, and returns whether one fired.
    /// Timers that fell due during a pause fire one by one, oldest first.
    pub fn handle_timeout(&mut self, now: LocalNow) -> bool {
        let Some(timer) = self.timers.due(now) else {
            return false;
        };
        let d = self.timers.take(timer).expect("due timer");
        if self.verbose {
            let late_by = SimDuration((now.read(d.clock).0 - d.at.0).max(0) as u64);
            self.events
                .push_back(ClientEvent::TimerFired { timer, late_by });
        }
        self.fire(timer, now);
        self.sync_lifecycle();
        true
    }

    fn fire(&mut self, timer: TimerKind, now: LocalNow) {
        // Matched by reference: only the fields an arm uses are copied, not the whole state.
        match (timer, &self.state) {
            (TimerKind::Acquire, &State::Idle | &State::Acquiring { attempt: None }) => {
                self.send_acquire(now)
            }
            (TimerKind::RequestTimeout, _) => self.request_timed_out(now),
            (TimerKind::Renew, _) => self.renew_due(now),
            (TimerKind::SafeDeadline, &State::Holding { lease, .. }) => {
                self.lose(lease, LostReason::DeadlinePassed, now);
            }
            (TimerKind::Work, &State::Holding { lease, .. }) => {
                if !self.lost_flag && !self.cfg.policy.trust_flag_only && lease.deadline.passed(now)
                {
                    self.lose(lease, LostReason::DeadlinePassedAtWrite, now);
                } else if !self.lost_flag {
                    self.write(lease.token, now);
                }
            }
            (TimerKind::Work, &State::Unlocking { lease, .. }) => self.write(lease.token, now),
            #[cfg(test)]
            (TimerKind::Work, &State::Lost { token, .. })
                if planted::is(planted::Bug::ClientSkipsLostFlag) =>
            {
                self.write(token, now)
            }
            (TimerKind::Release, &State::Holding { lease, .. }) => {
                self.timers.clear_all();
                let a = self.send_unlock(now, lease.token, true);
                self.state = State::Releasing {
                    token: lease.token,
                    unlock: Some(a),
                };
            }
            _ => {}
        }
    }

    /// The outstanding request got no answer in time: retry it later, or give up on a
    /// polite release.
    fn request_timed_out(&mut self, now: LocalNow) {
        match self.state {
            State::Acquiring { attempt: Some(a) } => {
                self.state = State::Acquiring { attempt: None };
                self.set(
                    TimerKind::Acquire,
                    self.retry_at(a.sent, self.cfg.acquire_retry, now),
                );
            }
            State::Holding {
                lease,
                renew: Some(a),
            } => {
                // A timeout is not a loss while the budget remains: retry (the safe
                // deadline timer ends the budget).
                self.state = State::Holding { lease, renew: None };
                self.set(
                    TimerKind::Renew,
                    self.retry_at(a.sent, self.cfg.retry_interval, now),
                );
            }
            State::Unlocking {
                lease,
                unlock: Some(a),
                reason,
            } => {
                self.state = State::Unlocking {
                    lease,
                    unlock: None,
                    reason,
                };
                self.set(
                    TimerKind::Renew,
                    self.retry_at(a.sent, self.cfg.retry_interval, now),
                );
            }
            State::Releasing {
                unlock: Some(_), ..
            } => {
                self.timers.clear_all();
                self.state = State::Released;
            }
            _ => {}
        }
    }

    /// Time to renew (or retry a renew, or retry a best-effort unlock).
    fn renew_due(&mut self, now: LocalNow) {
        match self.state {
            State::Holding { lease, renew: None } => {
                if lease.deadline.passed(now) {
                    // No budget left: fail closed rather than renew late.
                    self.lose(lease, LostReason::DeadlinePassed, now);
                    return;
                }
                let req = self.next_req();
                self.send(
                    NodeId::Service,
                    Message::Renew {
                        req,
                        token: lease.token,
                    },
                );
                self.state = State::Holding {
                    lease,
                    renew: Some(Attempt { req, sent: now }),
                };
                self.set(
                    TimerKind::RequestTimeout,
                    self.timer_at(now, self.cfg.request_timeout),
                );
            }
            State::Unlocking {
                lease,
                unlock: None,
                reason,
            } => {
                let a = self.send_unlock(now, lease.token, true);
                self.state = State::Unlocking {
                    lease,
                    unlock: Some(a),
                    reason,
                };
            }
            _ => {}
        }
    }

    fn write(&mut self, token: FencingToken, now: LocalNow) {
        self.write_seq += 1;
        let seq = self.write_seq;
        self.send(NodeId::Storage, Message::Write { token, seq });
        self.set(
            TimerKind::Work,
            Deadline {
                clock: ClockKind::Monotonic,
                at: now.mono + self.cfg.work_slice,
            },
        );
    }

    /// Handles a reply from the lock service.
    pub fn handle_message(&mut self, now: LocalNow, msg: Message) {
        // Matched by reference, as in `fire`.
        let handled = match (msg, &self.state) {
            (Message::Granted { req, token }, &State::Acquiring { attempt: Some(a) })
                if a.req == req =>
            {
                self.granted(a, token, now);
                true
            }
            (Message::Busy { req }, &State::Acquiring { attempt: Some(a) }) if a.req == req => {
                self.state = State::Acquiring { attempt: None };
                self.clear(TimerKind::RequestTimeout);
                self.set(
                    TimerKind::Acquire,
                    self.retry_at(a.sent, self.cfg.acquire_retry, now),
                );
                true
            }
            (
                Message::RenewOk { req, .. } | Message::NotOwner { req, .. },
                &State::Holding {
                    lease,
                    renew: Some(a),
                },
            ) if a.req == req => {
                self.renew_answered(msg, lease, a, now);
                true
            }
            (Message::ReleaseReply { req, .. }, _) => self.release_answered(req),
            _ => false,
        };
        // The answer to a best-effort unlock is expected and needs no note.
        let best_effort_unlock = matches!(
            (msg, &self.state),
            (Message::ReleaseReply { .. }, State::Lost { .. })
        );
        if !handled && !best_effort_unlock && self.verbose {
            self.events.push_back(ClientEvent::StaleReply { msg });
        }
        self.sync_lifecycle();
    }

    /// The lease is ours: hold it, schedule the renewals and the safe deadline, and start
    /// the critical section.
    fn granted(&mut self, a: Attempt, token: FencingToken, now: LocalNow) {
        let lease = Held {
            token,
            deadline: self.deadline_from(a.sent),
        };
        self.state = State::Holding { lease, renew: None };
        self.clear(TimerKind::RequestTimeout);
        self.set(
            TimerKind::Renew,
            self.timer_at(a.sent, self.cfg.renew_interval),
        );
        self.set(TimerKind::SafeDeadline, lease.deadline);
        // The critical section starts now: its first write goes out at once.
        self.set(
            TimerKind::Work,
            Deadline {
                clock: ClockKind::Monotonic,
                at: now.mono,
            },
        );
        if let Some(r) = self.cfg.release_after {
            self.set(
                TimerKind::Release,
                Deadline {
                    clock: ClockKind::Monotonic,
                    at: now.mono + r,
                },
            );
        }
    }

    /// The answer to the outstanding renew: OK extends the deadline; NOT_OWNER is final
    /// (unless the policy treats it as a blip).
    fn renew_answered(&mut self, msg: Message, mut lease: Held, a: Attempt, now: LocalNow) {
        self.clear(TimerKind::RequestTimeout);
        let ok = matches!(msg, Message::RenewOk { .. });
        if ok {
            lease.deadline = self.deadline_from(a.sent);
        }
        if ok || self.cfg.policy.write_until_wall_ttl {
            // Without OK this is the mistake: a definitive NOT_OWNER treated as a blip.
            self.state = State::Holding { lease, renew: None };
            self.set(
                TimerKind::Renew,
                self.timer_at(a.sent, self.cfg.renew_interval),
            );
            if ok {
                self.set(TimerKind::SafeDeadline, lease.deadline);
            }
        } else {
            self.lose(lease, LostReason::NotOwner, now);
        }
    }

    /// The answer to an unlock: a lost lease is now released at the service too, a polite
    /// release is done. Returns whether the reply was the one awaited.
    fn release_answered(&mut self, req: RequestId) -> bool {
        match self.state {
            State::Unlocking {
                lease,
                unlock: Some(a),
                reason,
            } if a.req == req => {
                self.lost_flag = true;
                self.timers.clear_all();
                self.state = State::Lost {
                    token: lease.token,
                    reason,
                };
                true
            }
            State::Releasing {
                unlock: Some(a), ..
            } if a.req == req => {
                self.timers.clear_all();
                self.state = State::Released;
                true
            }
            _ => false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::time::{NodeClock, SimTime};

    fn cfg(policy: Policy) -> ClientConfig {
        ClientConfig {
            ttl: SimDuration::from_secs(10),
            renew_interval: SimDuration::from_micros(3_333_333),
            request_timeout: SimDuration::from_secs(1),
            retry_interval: SimDuration::from_secs(1),
            acquire_retry: SimDuration::from_secs(1),
            work_slice: SimDuration::from_secs(1),
            drift_margin: SimDuration::from_millis(500),
            start_at: LocalTime(0),
            release_after: None,
            policy,
        }
    }
    fn at_ms(ms: u64) -> LocalNow {
        NodeClock::new().now(SimTime::from_millis(ms))
    }
    /// Takes what the client sent, and drops its events as the world would read them.
    fn drain(c: &mut LeaseClient) -> Vec<Message> {
        while c.poll_event().is_some() {}
        core::iter::from_fn(|| c.poll_transmit())
            .map(|t| t.msg)
            .collect()
    }
    /// Fires every due timer at `ms` and returns the request id of the renew sent.
    fn renew_at(c: &mut LeaseClient, ms: u64) -> RequestId {
        while c.handle_timeout(at_ms(ms)) {}
        drain(c)
            .into_iter()
            .find_map(|m| match m {
                Message::Renew { req, .. } => Some(req),
                _ => None,
            })
            .expect("a renew")
    }
    fn holding_client(policy: Policy) -> LeaseClient {
        let mut c = LeaseClient::new(ClientId::A, cfg(policy));
        assert!(c.handle_timeout(at_ms(0)));
        let sent = drain(&mut c);
        let Message::Acquire { req, .. } = sent[0] else {
            panic!()
        };
        c.handle_message(
            at_ms(20),
            Message::Granted {
                req,
                token: FencingToken(33),
            },
        );
        assert_eq!(c.lifecycle(), Lifecycle::Holding);
        c
    }

    #[test]
    fn renews_on_schedule_and_extends_the_safe_deadline_from_send_time() {
        let mut c = holding_client(Policy::prefer());
        assert!(c.handle_timeout(at_ms(20))); // first write
        assert!(matches!(
            drain(&mut c)[0],
            Message::Write {
                token: FencingToken(33),
                seq: 1
            }
        ));
        assert_eq!(c.poll_timeout(at_ms(20)), Some(LocalTime(1_020_000)));
        for ms in [1_020, 2_020, 3_020] {
            assert!(c.handle_timeout(at_ms(ms)));
        }
        assert!(c.handle_timeout(at_ms(3_334)));
        let Message::Renew { req, .. } = drain(&mut c).pop().unwrap() else {
            panic!()
        };
        assert_eq!(c.lifecycle(), Lifecycle::RenewInFlight);
        c.handle_message(
            at_ms(3_354),
            Message::RenewOk {
                req,
                token: FencingToken(33),
            },
        );
        assert_eq!(c.lifecycle(), Lifecycle::Holding);
        // Deadline = send time 3.334 s + 10 s − 0.5 s.
        assert_eq!(c.safe_deadline().unwrap().at, LocalTime(12_834_000));
    }

    #[test]
    fn not_owner_means_lost_at_once_with_a_best_effort_unlock() {
        let mut c = holding_client(Policy::prefer());
        c.handle_timeout(at_ms(20));
        drain(&mut c);
        let req = renew_at(&mut c, 3_334);
        c.handle_message(
            at_ms(3_354),
            Message::NotOwner {
                req,
                token: FencingToken(33),
            },
        );
        assert_eq!(c.lifecycle(), Lifecycle::Lost(LostReason::NotOwner));
        assert!(c.lost_flag());
        assert!(matches!(drain(&mut c)[..], [Message::Release { .. }]));
        // Nothing is scheduled: no retry, no write, no waiting for the unlock.
        assert_eq!(c.poll_timeout(at_ms(3_354)), None);
    }

    #[test]
    fn a_timed_out_renew_is_retried_inside_the_budget_then_fails_closed() {
        let mut c = holding_client(Policy::prefer());
        let mut renews = 0;
        let mut ms = 20;
        while c.lifecycle().believes_holding() && ms < 20_000 {
            while c.handle_timeout(at_ms(ms)) {}
            renews += drain(&mut c)
                .iter()
                .filter(|m| matches!(m, Message::Renew { .. }))
                .count();
            ms += 1;
        }
        assert_eq!(c.lifecycle(), Lifecycle::Lost(LostReason::DeadlinePassed));
        assert_eq!(ms - 1, 9_500, "lost exactly at send time 0 + T − margin");
        // Renews at 3.333 s, retries at 4.333 … 9.333 s: never after the deadline.
        assert_eq!(renews, 7);
    }

    #[test]
    fn pre_write_check_sets_the_lost_flag_after_a_long_pause() {
        let mut c = holding_client(Policy::prefer());
        c.handle_timeout(at_ms(20));
        drain(&mut c);
        // Wake at 17.5 s: the overdue write fires first and finds the deadline passed.
        assert!(c.handle_timeout(at_ms(17_500)));
        assert_eq!(
            c.lifecycle(),
            Lifecycle::Lost(LostReason::DeadlinePassedAtWrite)
        );
        assert!(!drain(&mut c)
            .iter()
            .any(|m| matches!(m, Message::Write { .. })));
        assert_eq!(c.writes_issued(), 1);
    }

    #[test]
    fn trusting_the_flag_only_lets_the_late_write_out() {
        let mut c = holding_client(Policy {
            trust_flag_only: true,
            ..Policy::prefer()
        });
        c.handle_timeout(at_ms(20));
        drain(&mut c);
        assert!(c.handle_timeout(at_ms(17_500)));
        assert!(matches!(
            drain(&mut c)[..],
            [Message::Write {
                token: FencingToken(33),
                seq: 2
            }]
        ));
        assert!(c.handle_timeout(at_ms(17_500)));
        assert_eq!(c.lifecycle(), Lifecycle::Lost(LostReason::DeadlinePassed));
    }

    #[test]
    fn stop_writes_after_unlock_keeps_writing_until_the_unlock_answers() {
        let mut c = holding_client(Policy {
            stop_writes_after_unlock: true,
            ..Policy::prefer()
        });
        c.handle_timeout(at_ms(20));
        drain(&mut c);
        let req = renew_at(&mut c, 3_334);
        c.handle_message(
            at_ms(3_354),
            Message::NotOwner {
                req,
                token: FencingToken(33),
            },
        );
        assert_eq!(c.lifecycle(), Lifecycle::Releasing);
        assert!(!c.lost_flag());
        let Message::Release { req, .. } = drain(&mut c)[0] else {
            panic!()
        };
        assert!(c.handle_timeout(at_ms(4_334)));
        assert!(matches!(drain(&mut c)[..], [Message::Write { .. }]));
        c.handle_message(
            at_ms(4_400),
            Message::ReleaseReply {
                req,
                deleted: false,
            },
        );
        assert_eq!(c.lifecycle(), Lifecycle::Lost(LostReason::NotOwner));
        assert!(c.lost_flag());
    }
}
