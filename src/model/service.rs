//! The lock service: authoritative owner of the lease and its expiry, in the sans-IO style.
//! It reads only the clock readings it is handed; it never reads a clock or does I/O.
//!
//! * [`LockService::handle_message`] — an incoming request.
//! * [`LockService::handle_timeout`] — its expiry timer fired.
//! * [`LockService::poll_transmit`] / [`LockService::poll_event`] — replies and events.
//! * [`LockService::poll_timeout`] — the next expiry, on its monotonic clock.

use super::ids::{ClientId, FencingToken, NodeId, RequestId};
use super::msg::Message;
use super::queue::Outbox;
use super::time::{ClockKind, LocalNow, LocalTime, SimDuration};

/// The service's fixed configuration.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ServiceConfig {
    /// The first fencing token.
    pub token_start: u64,
    /// Grants are refused for this long after an expiry.
    pub lock_delay: SimDuration,
    /// The clock leases expire on.
    pub expiry_clock: ClockKind,
}

/// The current lease as the service sees it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lease {
    /// Who holds it.
    pub holder: ClientId,
    /// Its fencing token.
    pub token: FencingToken,
    /// Its TTL.
    pub ttl: SimDuration,
    /// When it expires, on the service's expiry clock.
    pub expires_at: LocalTime,
}

/// How a lease ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum LeaseEnd {
    /// Its TTL ran out on the service's expiry clock.
    Expired,
    /// The holder released it.
    Released,
    /// An administrator revoked it.
    Revoked,
}

/// What the service did, for the trace and the checks.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum ServiceEvent {
    /// A new lease with a new token.
    Granted {
        /// The new holder.
        client: ClientId,
        /// Its new token.
        token: FencingToken,
        /// The service's monotonic clock reading, as handed to it, when it promised the TTL
        /// (the checkers measure every promise on it).
        mono: LocalTime,
    },
    /// The holder asked again and got its own lease back, extended.
    Regranted {
        /// The holder.
        client: ClientId,
        /// Its unchanged token.
        token: FencingToken,
        /// The service's monotonic clock reading when it promised the TTL again.
        mono: LocalTime,
    },
    /// A renew matched: the lease now runs a full TTL from here.
    Renewed {
        /// The holder.
        client: ClientId,
        /// Its token.
        token: FencingToken,
        /// The service's monotonic clock reading when it promised the TTL again.
        mono: LocalTime,
    },
    /// An acquire was refused.
    Busy {
        /// Who asked.
        client: ClientId,
        /// True when the lock was free but lock-delay was still running.
        lock_delay: bool,
    },
    /// A renew or release whose token does not hold the lock.
    NotOwner {
        /// Who asked.
        client: ClientId,
        /// The refused token.
        token: FencingToken,
    },
    /// A lease ended.
    Ended {
        /// The holder whose lease ended.
        client: ClientId,
        /// Its token.
        token: FencingToken,
        /// How.
        how: LeaseEnd,
    },
}

/// The lock service state machine.
#[derive(Clone, Debug)]
pub struct LockService {
    cfg: ServiceConfig,
    next_token: u64,
    lease: Option<Lease>,
    /// Planted bug only: the lease that expired last, which the buggy renew still honours.
    #[cfg(test)]
    expired: Option<Lease>,
    delay_until: Option<LocalTime>,
    out: Outbox<(NodeId, Message), 8>,
    events: Outbox<ServiceEvent, 8>,
}

impl LockService {
    /// A service with no lease; the first grant gets `cfg.token_start`.
    pub fn new(cfg: ServiceConfig) -> Self {
        LockService {
            cfg,
            next_token: cfg.token_start,
            lease: None,
            #[cfg(test)]
            expired: None,
            delay_until: None,
            out: Outbox::new(),
            events: Outbox::new(),
        }
    }

    /// The current lease, if any (it may be due to expire at this instant).
    pub fn lease(&self) -> Option<&Lease> {
        self.lease.as_ref()
    }

    fn end(&mut self, how: LeaseEnd, now: LocalNow) {
        if let Some(l) = self.lease.take() {
            if how == LeaseEnd::Expired && !self.cfg.lock_delay.is_zero() {
                self.delay_until = Some(now.read(self.cfg.expiry_clock) + self.cfg.lock_delay);
            }
            #[cfg(test)]
            if how == LeaseEnd::Expired {
                self.expired = Some(l);
            }
            self.events.push_back(ServiceEvent::Ended {
                client: l.holder,
                token: l.token,
                how,
            });
        }
    }

    fn expire_if_due(&mut self, now: LocalNow) {
        if let Some(l) = self.lease {
            if now.read(self.cfg.expiry_clock) >= l.expires_at {
                self.end(LeaseEnd::Expired, now);
            }
        }
    }

    /// Expires the lease if its deadline has passed. Spurious calls are harmless.
    pub fn handle_timeout(&mut self, now: LocalNow) {
        self.expire_if_due(now);
    }

    /// An administrator deletes the lease (scenario 5b).
    pub fn revoke(&mut self, now: LocalNow) {
        self.expire_if_due(now);
        self.end(LeaseEnd::Revoked, now);
    }

    /// Handles one request from `from`. Replies go to [`LockService::poll_transmit`].
    pub fn handle_message(&mut self, now: LocalNow, from: ClientId, msg: Message) {
        self.expire_if_due(now);
        #[cfg(test)]
        self.planted_bugs(from, msg);
        let exp_now = now.read(self.cfg.expiry_clock);
        let reply = match msg {
            Message::Acquire { req, ttl } => self.acquire(now, from, req, ttl),
            Message::Renew { req, token } => match self.lease {
                Some(mut l) if l.holder == from && l.token == token => {
                    l.expires_at = exp_now + l.ttl;
                    self.lease = Some(l);
                    self.events.push_back(ServiceEvent::Renewed {
                        client: from,
                        token,
                        mono: now.mono,
                    });
                    Message::RenewOk { req, token }
                }
                _ => {
                    self.events.push_back(ServiceEvent::NotOwner {
                        client: from,
                        token,
                    });
                    Message::NotOwner { req, token }
                }
            },
            Message::Release { req, token } => match self.lease {
                Some(l) if l.holder == from && l.token == token => {
                    self.end(LeaseEnd::Released, now);
                    Message::ReleaseReply { req, deleted: true }
                }
                _ => Message::ReleaseReply {
                    req,
                    deleted: false,
                },
            },
            _ => return,
        };
        self.out.push_back((NodeId::Client(from), reply));
    }

    /// Answers an acquire: a re-grant to the holder, BUSY while held or in lock-delay, or a
    /// new lease with the next token.
    fn acquire(
        &mut self,
        now: LocalNow,
        from: ClientId,
        req: RequestId,
        ttl: SimDuration,
    ) -> Message {
        let exp_now = now.read(self.cfg.expiry_clock);
        match self.lease {
            Some(mut l) if l.holder == from => {
                l.expires_at = exp_now + ttl;
                l.ttl = ttl;
                self.lease = Some(l);
                self.events.push_back(ServiceEvent::Regranted {
                    client: from,
                    token: l.token,
                    mono: now.mono,
                });
                Message::Granted {
                    req,
                    token: l.token,
                }
            }
            Some(_) => {
                self.events.push_back(ServiceEvent::Busy {
                    client: from,
                    lock_delay: false,
                });
                Message::Busy { req }
            }
            None if self.delay_until.is_some_and(|d| exp_now < d) => {
                self.events.push_back(ServiceEvent::Busy {
                    client: from,
                    lock_delay: true,
                });
                Message::Busy { req }
            }
            None => {
                let token = FencingToken(self.next_token);
                self.next_token += 1;
                self.lease = Some(Lease {
                    holder: from,
                    token,
                    ttl,
                    expires_at: exp_now + ttl,
                });
                self.events.push_back(ServiceEvent::Granted {
                    client: from,
                    token,
                    mono: now.mono,
                });
                Message::Granted { req, token }
            }
        }
    }

    /// The planted bugs of the mutation tests, applied before a request is handled.
    #[cfg(test)]
    fn planted_bugs(&mut self, from: ClientId, msg: Message) {
        use super::planted::{is, Bug};
        match msg {
            // Forgets another client's unexpired lease, so the acquire is granted.
            Message::Acquire { .. }
                if is(Bug::ServiceGrantsWhileHeld)
                    && self.lease.is_some_and(|l| l.holder != from) =>
            {
                self.lease = None;
            }
            // Brings the expired lease back, over whoever holds the lock now.
            Message::Renew { token, .. } if is(Bug::ServiceRenewsExpiredLease) => {
                let lapsed = self
                    .expired
                    .filter(|l| l.holder == from && l.token == token);
                if lapsed.is_some() {
                    self.lease = lapsed;
                }
            }
            _ => {}
        }
    }

    /// The next reply to send, as (destination, message).
    pub fn poll_transmit(&mut self) -> Option<(NodeId, Message)> {
        self.out.pop_front()
    }

    /// The next thing that happened, for the trace and the checks.
    pub fn poll_event(&mut self) -> Option<ServiceEvent> {
        self.events.pop_front()
    }

    /// When the lease expires, as a reading of the service's monotonic clock (given the
    /// clocks' current relation), or `None` without a lease.
    pub fn poll_timeout(&self, now: LocalNow) -> Option<LocalTime> {
        self.lease
            .map(|l| now.to_mono(self.cfg.expiry_clock, l.expires_at))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::ids::RequestId;
    use crate::model::time::{NodeClock, SimTime};

    fn svc() -> LockService {
        LockService::new(ServiceConfig {
            token_start: 33,
            lock_delay: SimDuration::ZERO,
            expiry_clock: ClockKind::Monotonic,
        })
    }
    fn at(s: u64) -> LocalNow {
        NodeClock::new().now(SimTime::from_secs(s))
    }
    const T: SimDuration = SimDuration::from_secs(10);

    #[test]
    fn acquire_grants_increasing_tokens_and_busy_while_held() {
        let mut s = svc();
        s.handle_message(
            at(0),
            ClientId::A,
            Message::Acquire {
                req: RequestId(1),
                ttl: T,
            },
        );
        assert_eq!(
            s.poll_transmit().unwrap().1,
            Message::Granted {
                req: RequestId(1),
                token: FencingToken(33)
            }
        );
        s.handle_message(
            at(1),
            ClientId::B,
            Message::Acquire {
                req: RequestId(1),
                ttl: T,
            },
        );
        assert_eq!(
            s.poll_transmit().unwrap().1,
            Message::Busy { req: RequestId(1) }
        );
        s.handle_message(
            at(11),
            ClientId::B,
            Message::Acquire {
                req: RequestId(2),
                ttl: T,
            },
        );
        assert_eq!(
            s.poll_transmit().unwrap().1,
            Message::Granted {
                req: RequestId(2),
                token: FencingToken(34)
            }
        );
    }

    #[test]
    fn renew_is_compare_and_expire() {
        let mut s = svc();
        s.handle_message(
            at(0),
            ClientId::A,
            Message::Acquire {
                req: RequestId(1),
                ttl: T,
            },
        );
        s.handle_message(
            at(5),
            ClientId::A,
            Message::Renew {
                req: RequestId(2),
                token: FencingToken(33),
            },
        );
        assert!(matches!(
            s.poll_transmit().unwrap().1,
            Message::Granted { .. }
        ));
        assert!(matches!(
            s.poll_transmit().unwrap().1,
            Message::RenewOk { .. }
        ));
        assert_eq!(s.poll_timeout(at(5)), Some(LocalTime(15_000_000)));
        // After expiry a renew with the old token is refused: no resurrection.
        s.handle_message(
            at(16),
            ClientId::A,
            Message::Renew {
                req: RequestId(3),
                token: FencingToken(33),
            },
        );
        assert!(matches!(
            s.poll_transmit().unwrap().1,
            Message::NotOwner { .. }
        ));
        assert!(s.lease().is_none());
    }

    #[test]
    fn release_is_compare_and_delete() {
        let mut s = svc();
        s.handle_message(
            at(0),
            ClientId::A,
            Message::Acquire {
                req: RequestId(1),
                ttl: T,
            },
        );
        s.poll_transmit();
        s.handle_message(
            at(1),
            ClientId::A,
            Message::Release {
                req: RequestId(2),
                token: FencingToken(32),
            },
        );
        assert_eq!(
            s.poll_transmit().unwrap().1,
            Message::ReleaseReply {
                req: RequestId(2),
                deleted: false
            }
        );
        s.handle_message(
            at(1),
            ClientId::A,
            Message::Release {
                req: RequestId(3),
                token: FencingToken(33),
            },
        );
        assert_eq!(
            s.poll_transmit().unwrap().1,
            Message::ReleaseReply {
                req: RequestId(3),
                deleted: true
            }
        );
        assert!(s.lease().is_none());
    }

    #[test]
    fn lock_delay_refuses_grants_after_an_expiry() {
        let mut s = LockService::new(ServiceConfig {
            token_start: 1,
            lock_delay: SimDuration::from_secs(15),
            expiry_clock: ClockKind::Monotonic,
        });
        s.handle_message(
            at(0),
            ClientId::A,
            Message::Acquire {
                req: RequestId(1),
                ttl: T,
            },
        );
        s.handle_timeout(at(10));
        s.handle_message(
            at(20),
            ClientId::B,
            Message::Acquire {
                req: RequestId(1),
                ttl: T,
            },
        );
        s.handle_message(
            at(25),
            ClientId::B,
            Message::Acquire {
                req: RequestId(2),
                ttl: T,
            },
        );
        let replies: Vec<_> = core::iter::from_fn(|| s.poll_transmit())
            .map(|r| r.1)
            .collect();
        assert_eq!(replies[1], Message::Busy { req: RequestId(1) });
        assert!(matches!(
            replies[2],
            Message::Granted {
                token: FencingToken(2),
                ..
            }
        ));
    }

    #[test]
    fn wall_clock_expiry_jumps_with_the_clock_and_grants_early() {
        let mut s = LockService::new(ServiceConfig {
            token_start: 33,
            lock_delay: SimDuration::ZERO,
            expiry_clock: ClockKind::Wall,
        });
        let mut clock = NodeClock::new();
        s.handle_message(
            clock.now(SimTime::ZERO),
            ClientId::A,
            Message::Acquire {
                req: RequestId(1),
                ttl: T,
            },
        );
        clock.step_wall(8_000_000);
        let now = clock.now(SimTime::from_secs(2));
        assert!(s.poll_timeout(now).unwrap() <= now.mono);
        s.handle_timeout(now);
        s.handle_message(
            now,
            ClientId::B,
            Message::Acquire {
                req: RequestId(1),
                ttl: T,
            },
        );
        // B is granted 2 s into A's 10 s lease: the service cannot see its mistake (the
        // checkers do, see `check::holder`).
        let granted = core::iter::from_fn(|| s.poll_event()).any(|e| {
            e == ServiceEvent::Granted {
                client: ClientId::B,
                token: FencingToken(34),
                mono: now.mono,
            }
        });
        assert!(granted);
    }
}
