//! The independent checker: an outside observer of a run (the shape of TigerBeetle's
//! `state_checker`). The world feeds it what an observer standing outside the components
//! could see: the service's grants, renewals and lease ends on the real timeline, each
//! client's lifecycle, the requests and writes it put on the wire, what reached it, and what
//! storage accepted. From that alone it keeps its own model of what must be true and derives
//! every check and measurement. It never reads a component's state or its conclusions.

use super::{
    BrokenCheck, CheckId, CheckReport, CheckStatus, Failover, Metrics, Overlap, RenewOutcome,
    RenewRecord, Violation, ViolationDetail,
};
use crate::model::client::Lifecycle;
use crate::model::ids::{ClientId, FencingToken, RequestId};
use crate::model::msg::Message;
use crate::model::service::LeaseEnd;
use crate::model::time::{LocalTime, SimDuration, SimTime};

/// Which checks broke at one observation, in [`CheckId::ALL`] order.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Broken([bool; 4]);

impl Broken {
    /// The broken checks, in display order.
    pub(crate) fn checks(self) -> impl Iterator<Item = CheckId> {
        CheckId::ALL.into_iter().filter(move |c| self.0[c.index()])
    }
}

/// One lease as the observer saw the service promise it.
#[derive(Clone, Copy, Debug)]
struct Promise {
    holder: ClientId,
    token: FencingToken,
    /// The promised TTL ends here, on the service's monotonic clock.
    until: LocalTime,
    /// The holder released it or an administrator revoked it: the promise is void.
    void: bool,
    /// The service said the lease ended (expired, released or revoked).
    ended: bool,
}

/// A renew the client is waiting for.
#[derive(Clone, Copy, Debug)]
struct PendingRenew {
    req: RequestId,
    sent_at: SimTime,
    lost_on_wire: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct ClientView {
    /// When the lost flag was set, and for which lease.
    lost: Option<(SimTime, Option<FencingToken>)>,
    renew: Option<PendingRenew>,
}

/// What the observer recorded for views when the run keeps a trace.
#[derive(Clone, Debug, Default)]
pub(crate) struct Observations {
    /// Every renew request and its outcome, in send order.
    pub renews: Vec<RenewRecord>,
    /// Every failover, in time order.
    pub failovers: Vec<Failover>,
    /// The measurements after each change, for "as of time t" views.
    pub history: Vec<(SimTime, Metrics)>,
}

/// The observer of one run.
#[derive(Clone, Debug)]
pub(crate) struct Observer {
    ttl: SimDuration,
    applicable: [bool; 4],
    first: [Option<Violation>; 4],
    count: [u32; 4],
    metrics: Metrics,
    promises: Vec<Promise>,
    /// The most recent grant the service has not said ended.
    current: Option<(ClientId, FencingToken)>,
    /// The holder's last effective moment, unless it released the lease politely since.
    last_effective: Option<(ClientId, SimTime)>,
    highest_accepted: Option<FencingToken>,
    clients: Vec<ClientView>,
    recording: Option<Observations>,
}

impl Observer {
    /// An observer for a run whose clients ask for leases of `ttl`; `fencing` and
    /// `prefer` say which checks apply; with `record`, it keeps records for views.
    pub(crate) fn new(
        ttl: SimDuration,
        clients: usize,
        fencing: bool,
        prefer: bool,
        record: bool,
    ) -> Self {
        Observer {
            ttl,
            applicable: [true, fencing, prefer, true],
            first: [None; 4],
            count: [0; 4],
            metrics: Metrics::default(),
            promises: Vec::with_capacity(4),
            current: None,
            last_effective: None,
            highest_accepted: None,
            clients: vec![ClientView::default(); clients],
            recording: record.then(Observations::default),
        }
    }

    /// One simulation step happened.
    #[inline]
    pub(crate) fn count_step(&mut self) {
        self.metrics.events += 1;
    }

    /// The service granted `token` to `client` (`service_mono`: its monotonic reading).
    /// Returns the broken checks, the promise the grant overlaps, and the failover it ends
    /// (for a caller that keeps failovers without the observer's records).
    pub(crate) fn granted(
        &mut self,
        at: SimTime,
        service_mono: LocalTime,
        client: ClientId,
        token: FencingToken,
    ) -> (Broken, Option<Overlap>, Option<Failover>) {
        self.metrics.grants += 1;
        let failover = self
            .last_effective
            .filter(|(p, _)| *p != client)
            .map(|(prev, last)| Failover {
                from: prev,
                to: client,
                last_effective: last,
                granted_at: at,
            });
        if let Some(f) = failover {
            self.metrics.failovers += 1;
            let d = f.duration();
            self.metrics.max_failover = Some(self.metrics.max_failover.map_or(d, |m| m.max(d)));
            if let Some(r) = self.recording.as_mut() {
                r.failovers.push(f);
            }
        }
        self.current = Some((client, token));
        let (broken, overlap) = self.promised(at, service_mono, client, token);
        self.note(at);
        (broken, overlap, failover)
    }

    /// The service extended `client`'s lease `token` (a renewal, or the holder acquiring its
    /// own lease again).
    pub(crate) fn renewed(
        &mut self,
        at: SimTime,
        service_mono: LocalTime,
        client: ClientId,
        token: FencingToken,
    ) -> Broken {
        let (broken, _) = self.promised(at, service_mono, client, token);
        self.note(at);
        broken
    }

    /// The service promised `token` to `client` for a TTL from now: no other promise may
    /// still be running.
    fn promised(
        &mut self,
        at: SimTime,
        mono: LocalTime,
        client: ClientId,
        token: FencingToken,
    ) -> (Broken, Option<Overlap>) {
        self.promises
            .retain(|p| !p.void && (p.until > mono || !p.ended));
        // Extending a promise that still runs starts no new holding; a grant, or a renewal
        // that brings back a lapsed lease, does, and must not overlap another promise.
        let extends = self
            .promises
            .iter()
            .any(|p| p.token == token && p.holder == client && p.until > mono && !p.ended);
        let running = self
            .promises
            .iter()
            .filter(|p| !extends && p.token != token && p.until > mono)
            .max_by_key(|p| p.until);
        let overlap = running.map(|p| Overlap {
            previous: p.holder,
            previous_token: p.token,
            remaining: SimDuration((p.until.0 - mono.0) as u64),
        });
        let until = mono + self.ttl;
        match self.promises.iter_mut().find(|p| p.token == token) {
            Some(p) => {
                p.holder = client;
                p.until = until;
                p.ended = false;
            }
            None => self.promises.push(Promise {
                holder: client,
                token,
                until,
                void: false,
                ended: false,
            }),
        }
        self.last_effective = Some((client, at));
        let mut broken = Broken::default();
        if let Some(o) = overlap {
            let detail = ViolationDetail::TwoHolders {
                previous: o.previous,
                previous_token: o.previous_token,
                new: client,
                new_token: token,
                remaining: o.remaining,
            };
            self.violation(&mut broken, CheckId::SingleHolder, at, detail);
        }
        (broken, overlap)
    }

    /// The service said `token`'s lease ended.
    pub(crate) fn lease_ended(&mut self, token: FencingToken, how: LeaseEnd) {
        if let Some(p) = self.promises.iter_mut().find(|p| p.token == token) {
            p.ended = true;
            p.void |= how != LeaseEnd::Expired;
        }
        if self.current.is_some_and(|(_, t)| t == token) {
            self.current = None;
        }
        if how == LeaseEnd::Released {
            // A polite handover is not a failover.
            self.last_effective = None;
        }
    }

    /// `client`'s lifecycle changed to `to` (its lease is `token`).
    pub(crate) fn lifecycle(
        &mut self,
        at: SimTime,
        client: ClientId,
        to: Lifecycle,
        token: Option<FencingToken>,
    ) {
        let Some(view) = self.clients.get_mut(client.index()) else {
            return;
        };
        if to != Lifecycle::RenewInFlight {
            if let Some(p) = view.renew.take() {
                Self::settle(
                    &mut self.metrics,
                    &mut self.recording,
                    client,
                    p,
                    RenewOutcome::TimedOut(at),
                );
            }
        }
        match to {
            Lifecycle::Lost(_) => {
                view.lost = Some((at, token));
                self.metrics.losses += 1;
                let still_held = token.is_some_and(|t| self.current == Some((client, t)));
                if still_held {
                    self.metrics.false_losses += 1;
                }
            }
            Lifecycle::Holding if view.lost.is_some_and(|(_, t)| t != token) => view.lost = None,
            _ => {}
        }
        self.note(at);
    }

    /// `client` put a renew request on the wire.
    pub(crate) fn renew_sent(&mut self, at: SimTime, client: ClientId, req: RequestId) {
        self.metrics.renews_sent += 1;
        if let Some(view) = self.clients.get_mut(client.index()) {
            if let Some(p) = view.renew.take() {
                Self::settle(
                    &mut self.metrics,
                    &mut self.recording,
                    client,
                    p,
                    RenewOutcome::TimedOut(at),
                );
            }
            view.renew = Some(PendingRenew {
                req,
                sent_at: at,
                lost_on_wire: false,
            });
        }
        self.note(at);
    }

    /// `msg` reached `client`, which is about to handle it.
    pub(crate) fn client_received(&mut self, at: SimTime, client: ClientId, msg: Message) {
        let (req, outcome) = match msg {
            Message::RenewOk { req, .. } => (req, RenewOutcome::Ok(at)),
            Message::NotOwner { req, .. } => (req, RenewOutcome::NotOwner(at)),
            _ => return,
        };
        let Some(view) = self.clients.get_mut(client.index()) else {
            return;
        };
        if let Some(p) = view.renew.filter(|p| p.req == req) {
            view.renew = None;
            Self::settle(&mut self.metrics, &mut self.recording, client, p, outcome);
            self.note(at);
        }
    }

    /// The network dropped `msg` between `client` and the service.
    pub(crate) fn dropped(&mut self, at: SimTime, client: ClientId, msg: Message) {
        let req = match msg {
            Message::Renew { req, .. }
            | Message::RenewOk { req, .. }
            | Message::NotOwner { req, .. } => req,
            _ => return,
        };
        let waiting = self
            .clients
            .get_mut(client.index())
            .and_then(|v| v.renew.as_mut());
        if let Some(p) = waiting.filter(|p| p.req == req && !p.lost_on_wire) {
            p.lost_on_wire = true;
            self.metrics.renews_lost_on_wire += 1;
            self.note(at);
        }
    }

    /// `client` crashed: what it waited for stays unanswered.
    pub(crate) fn crashed(&mut self, at: SimTime, client: ClientId) {
        if let Some(p) = self
            .clients
            .get_mut(client.index())
            .and_then(|v| v.renew.take())
        {
            Self::settle(
                &mut self.metrics,
                &mut self.recording,
                client,
                p,
                RenewOutcome::Unanswered,
            );
            self.note(at);
        }
    }

    /// `client` put a write carrying `token` on the wire (its pre-write check passed).
    pub(crate) fn write_issued(
        &mut self,
        at: SimTime,
        client: ClientId,
        token: FencingToken,
    ) -> Broken {
        self.metrics.writes_issued += 1;
        if self.current != Some((client, token)) {
            self.metrics.zombie_writes += 1;
        }
        let mut broken = Broken::default();
        let lost = self.clients.get(client.index()).and_then(|v| v.lost);
        if let Some((lost_at, _)) = lost {
            let detail = ViolationDetail::WriteAfterLost {
                client,
                token,
                lost_at,
            };
            self.violation(&mut broken, CheckId::NoWriteAfterLost, at, detail);
        }
        self.note(at);
        broken
    }

    /// Storage accepted (or refused) `client`'s write with `token`. Returns the broken
    /// checks and, for an accepted stale write, the higher token already stored.
    pub(crate) fn storage_decided(
        &mut self,
        at: SimTime,
        client: ClientId,
        token: FencingToken,
        accepted: bool,
    ) -> (Broken, Option<FencingToken>) {
        let mut broken = Broken::default();
        if !accepted {
            self.metrics.writes_rejected += 1;
            self.note(at);
            return (broken, None);
        }
        self.metrics.writes_accepted += 1;
        let stale_over = self.highest_accepted.filter(|&h| token < h);
        match stale_over {
            Some(highest) => {
                self.metrics.stale_accepted += 1;
                let detail = ViolationDetail::StaleAccepted {
                    client,
                    token,
                    highest,
                };
                self.violation(&mut broken, CheckId::NoStaleAccepted, at, detail);
                self.violation(&mut broken, CheckId::OrderedByToken, at, detail);
            }
            None => self.highest_accepted = Some(token),
        }
        self.note(at);
        (broken, stale_over)
    }

    fn settle(
        metrics: &mut Metrics,
        recording: &mut Option<Observations>,
        client: ClientId,
        p: PendingRenew,
        outcome: RenewOutcome,
    ) {
        match outcome {
            RenewOutcome::Ok(_) => metrics.renews_ok += 1,
            RenewOutcome::NotOwner(_) => metrics.renews_not_owner += 1,
            RenewOutcome::TimedOut(_) => metrics.renews_timed_out += 1,
            RenewOutcome::Unanswered => {}
        }
        if let Some(r) = recording.as_mut() {
            r.renews.push(RenewRecord {
                client,
                req: p.req,
                sent_at: p.sent_at,
                outcome,
                lost_on_wire: p.lost_on_wire,
            });
        }
    }

    fn violation(
        &mut self,
        broken: &mut Broken,
        check: CheckId,
        at: SimTime,
        detail: ViolationDetail,
    ) {
        let i = check.index();
        if !self.applicable[i] {
            return;
        }
        self.count[i] += 1;
        self.first[i].get_or_insert(Violation { check, at, detail });
        broken.0[i] = true;
    }

    /// Keeps the measurements as of `at` for views.
    fn note(&mut self, at: SimTime) {
        let Some(r) = self.recording.as_mut() else {
            return;
        };
        let m = self.metrics;
        match r.history.last_mut() {
            Some((t, last)) if *t == at => *last = m,
            Some((_, last))
                if Metrics {
                    events: m.events,
                    ..*last
                } == m => {}
            _ => r.history.push((at, m)),
        }
    }

    /// Each check's status so far.
    pub(crate) fn reports(&self) -> [CheckReport; 4] {
        CheckId::ALL.map(|check| {
            let i = check.index();
            let status = match (self.applicable[i], self.first[i]) {
                (false, _) => CheckStatus::NotApplicable,
                (true, None) => CheckStatus::Holding,
                (true, Some(first)) => CheckStatus::Broken {
                    first,
                    count: self.count[i],
                },
            };
            CheckReport { check, status }
        })
    }

    /// The earliest violation of any applicable check.
    pub(crate) fn first_broken(&self) -> Option<BrokenCheck> {
        self.first
            .iter()
            .flatten()
            .min_by_key(|v| (v.at, v.check))
            .map(|v| BrokenCheck {
                check: v.check,
                at: v.at,
            })
    }

    /// The measurements so far.
    pub(crate) fn metrics(&self) -> Metrics {
        self.metrics
    }

    /// Ends the run: renews still awaited stay unanswered; returns the records for views.
    pub(crate) fn finish(mut self, at: SimTime) -> (Metrics, Observations) {
        for i in 0..self.clients.len() {
            if let Some(p) = self.clients[i].renew.take() {
                Self::settle(
                    &mut self.metrics,
                    &mut self.recording,
                    ClientId(i as u8),
                    p,
                    RenewOutcome::Unanswered,
                );
            }
        }
        self.note(at);
        let mut obs = self.recording.unwrap_or_default();
        obs.renews.sort_by_key(|r| (r.sent_at, r.client));
        (self.metrics, obs)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const T: SimDuration = SimDuration::from_secs(10);
    const A: ClientId = ClientId::A;
    const B: ClientId = ClientId::B;

    fn observer() -> Observer {
        Observer::new(T, 2, true, true, true)
    }
    fn s(secs: u64) -> SimTime {
        SimTime::from_secs(secs)
    }
    fn mono(secs: i64) -> LocalTime {
        LocalTime(secs * 1_000_000)
    }
    fn broken(o: &Observer, c: CheckId) -> Option<Violation> {
        match o.reports()[c.index()].status {
            CheckStatus::Broken { first, .. } => Some(first),
            _ => None,
        }
    }

    #[test]
    fn a_grant_inside_another_promise_is_two_holders_with_the_time_left() {
        let mut o = observer();
        o.granted(s(0), mono(0), A, FencingToken(1));
        // The service says A's lease ended at 2 s (its wall clock jumped), then grants B.
        o.lease_ended(FencingToken(1), LeaseEnd::Expired);
        let (b, found, _) = o.granted(s(2), mono(2), B, FencingToken(2));
        assert_eq!(b.checks().collect::<Vec<_>>(), [CheckId::SingleHolder]);
        assert_eq!(
            found,
            Some(Overlap {
                previous: A,
                previous_token: FencingToken(1),
                remaining: SimDuration::from_secs(8),
            })
        );
        assert_eq!(
            broken(&o, CheckId::SingleHolder).map(|v| v.detail),
            Some(ViolationDetail::TwoHolders {
                previous: A,
                previous_token: FencingToken(1),
                new: B,
                new_token: FencingToken(2),
                remaining: SimDuration::from_secs(8),
            })
        );
        assert_eq!(broken(&o, CheckId::SingleHolder).map(|v| v.at), Some(s(2)));
    }

    #[test]
    fn renewing_a_running_lease_or_granting_after_the_promise_is_fine() {
        let mut o = observer();
        o.granted(s(0), mono(0), A, FencingToken(1));
        assert_eq!(
            o.renewed(s(3), mono(3), A, FencingToken(1)),
            Broken::default()
        );
        o.lease_ended(FencingToken(1), LeaseEnd::Expired);
        let (b, _, _) = o.granted(s(13), mono(13), B, FencingToken(2));
        assert_eq!(b, Broken::default());
        // A revoked lease is no promise: the next grant may follow at once.
        o.lease_ended(FencingToken(2), LeaseEnd::Revoked);
        let (b, _, _) = o.granted(s(14), mono(14), A, FencingToken(3));
        assert_eq!(b, Broken::default());
        assert_eq!(broken(&o, CheckId::SingleHolder), None);
        assert_eq!(o.metrics().failovers, 2);
    }

    #[test]
    fn renewing_a_lapsed_lease_while_another_holds_is_two_holders() {
        let mut o = observer();
        o.granted(s(0), mono(0), A, FencingToken(1));
        o.lease_ended(FencingToken(1), LeaseEnd::Expired);
        o.granted(s(10), mono(10), B, FencingToken(2));
        let b = o.renewed(s(12), mono(12), A, FencingToken(1));
        assert_eq!(b.checks().collect::<Vec<_>>(), [CheckId::SingleHolder]);
    }

    #[test]
    fn storage_accepting_a_lower_token_breaks_both_storage_checks() {
        let mut o = observer();
        assert_eq!(o.storage_decided(s(1), B, FencingToken(2), true).1, None);
        let (b, stale) = o.storage_decided(s(2), A, FencingToken(1), true);
        assert_eq!(stale, Some(FencingToken(2)));
        assert_eq!(
            b.checks().collect::<Vec<_>>(),
            [CheckId::NoStaleAccepted, CheckId::OrderedByToken]
        );
        // A refused write and an equal token are fine.
        assert_eq!(
            o.storage_decided(s(3), A, FencingToken(1), false).0,
            Broken::default()
        );
        assert_eq!(
            o.storage_decided(s(4), B, FencingToken(2), true).0,
            Broken::default()
        );
        assert_eq!(o.metrics().stale_accepted, 1);
    }

    #[test]
    fn without_fencing_only_the_order_check_applies() {
        let mut o = Observer::new(T, 2, false, true, false);
        o.storage_decided(s(1), B, FencingToken(2), true);
        let (b, _) = o.storage_decided(s(2), A, FencingToken(1), true);
        assert_eq!(b.checks().collect::<Vec<_>>(), [CheckId::OrderedByToken]);
        assert_eq!(
            o.reports()[CheckId::NoStaleAccepted.index()].status,
            CheckStatus::NotApplicable
        );
    }

    #[test]
    fn a_write_after_the_lost_flag_is_caught_with_when_the_flag_was_set() {
        let mut o = observer();
        o.granted(s(0), mono(0), A, FencingToken(1));
        assert_eq!(o.write_issued(s(1), A, FencingToken(1)), Broken::default());
        o.lifecycle(
            s(5),
            A,
            Lifecycle::Lost(crate::model::LostReason::NotOwner),
            Some(FencingToken(1)),
        );
        let b = o.write_issued(s(6), A, FencingToken(1));
        assert_eq!(b.checks().collect::<Vec<_>>(), [CheckId::NoWriteAfterLost]);
        let v = broken(&o, CheckId::NoWriteAfterLost).unwrap();
        assert_eq!(
            v.detail,
            ViolationDetail::WriteAfterLost {
                client: A,
                token: FencingToken(1),
                lost_at: s(5)
            }
        );
        // Lost while the service still held the lease: a false loss.
        assert_eq!(o.metrics().false_losses, 1);
    }

    #[test]
    fn each_renew_gets_one_outcome() {
        let mut o = observer();
        let renew = |o: &mut Observer, at, req| {
            o.renew_sent(s(at), A, RequestId(req));
            o.lifecycle(s(at), A, Lifecycle::RenewInFlight, Some(FencingToken(1)));
        };
        renew(&mut o, 3, 2);
        o.client_received(
            s(3),
            A,
            Message::RenewOk {
                req: RequestId(2),
                token: FencingToken(1),
            },
        );
        o.lifecycle(s(3), A, Lifecycle::Holding, Some(FencingToken(1)));
        renew(&mut o, 6, 3);
        o.dropped(
            s(6),
            A,
            Message::Renew {
                req: RequestId(3),
                token: FencingToken(1),
            },
        );
        o.lifecycle(s(7), A, Lifecycle::Holding, Some(FencingToken(1)));
        // The late answer to the abandoned renew counts for nothing.
        o.client_received(
            s(8),
            A,
            Message::RenewOk {
                req: RequestId(3),
                token: FencingToken(1),
            },
        );
        renew(&mut o, 9, 4);
        o.client_received(
            s(9),
            A,
            Message::NotOwner {
                req: RequestId(4),
                token: FencingToken(1),
            },
        );
        renew(&mut o, 10, 5);
        let (m, obs) = o.finish(s(11));
        assert_eq!(
            (
                m.renews_sent,
                m.renews_ok,
                m.renews_timed_out,
                m.renews_not_owner,
                m.renews_lost_on_wire
            ),
            (4, 1, 1, 1, 1)
        );
        let outcomes: Vec<_> = obs.renews.iter().map(|r| r.outcome).collect();
        assert_eq!(
            outcomes,
            [
                RenewOutcome::Ok(s(3)),
                RenewOutcome::TimedOut(s(7)),
                RenewOutcome::NotOwner(s(9)),
                RenewOutcome::Unanswered
            ]
        );
        assert_eq!(obs.history.last().map(|(_, m)| m.renews_sent), Some(4));
    }
}
