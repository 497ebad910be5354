//! The run's measurements (liveness and cost as well as safety), counted from the events as
//! an outsider sees them: grants and failovers, each renew's outcome as its client met it,
//! losses and false losses, writes issued, zombie, accepted, rejected and stale.

use super::fence::HighestAccepted;
use super::{Failover, Metrics, RenewOutcome, RenewRecord};
use crate::model::client::Lifecycle;
use crate::model::ids::{ClientId, FencingToken, NodeId, RequestId};
use crate::model::msg::Message;
use crate::model::service::{LeaseEnd, ServiceEvent};
use crate::model::storage::WriteVerdict;
use crate::model::time::SimTime;
use crate::model::trace::{Event, EventKind};

/// A renew the client is waiting for.
#[derive(Clone, Copy, Debug)]
struct PendingRenew {
    req: RequestId,
    sent_at: SimTime,
    lost_on_wire: bool,
}

#[derive(Clone, Copy, Debug, Default)]
struct ClientView {
    renew: Option<PendingRenew>,
    /// Frozen: what arrives waits in its socket buffer until it reads it.
    paused: bool,
}

/// What the measures keep for views when the run keeps a trace.
#[derive(Clone, Debug, Default)]
pub(crate) struct Observations {
    /// Every renew request and its outcome, in send order.
    pub renews: Vec<RenewRecord>,
    /// Every failover, in time order.
    pub failovers: Vec<Failover>,
    /// The measurements after each change, for "as of time t" views.
    pub history: Vec<(SimTime, Metrics)>,
}

/// The measures of one run.
#[derive(Clone, Debug)]
pub(crate) struct Measures {
    metrics: Metrics,
    /// The most recent grant the service has not said ended.
    current: Option<(ClientId, FencingToken)>,
    /// The holder's last effective moment, unless it released the lease politely since.
    last_effective: Option<(ClientId, SimTime)>,
    highest: HighestAccepted,
    clients: Vec<ClientView>,
    records: Option<Observations>,
}

impl Measures {
    /// Measures for `clients` clients; with `keep_records`, records for views too.
    pub(crate) fn new(clients: usize, keep_records: bool) -> Measures {
        Measures {
            metrics: Metrics::default(),
            current: None,
            last_effective: None,
            highest: HighestAccepted::default(),
            clients: vec![ClientView::default(); clients],
            records: keep_records.then(Observations::default),
        }
    }

    /// The measurements so far.
    pub(crate) fn metrics(&self) -> Metrics {
        self.metrics
    }

    /// Reads one event; returns the failover it ends, if any.
    #[inline(always)]
    pub(crate) fn observe(&mut self, e: &Event) -> Option<Failover> {
        let before = self.records.is_some().then_some(self.metrics);
        let failover = match e.kind {
            EventKind::Service(ev) => self.service(e.at, ev),
            EventKind::Write(w) => {
                match w.verdict {
                    WriteVerdict::Accepted => {
                        self.metrics.writes_accepted += 1;
                        if self.highest.accept(w.token).is_some() {
                            self.metrics.stale_accepted += 1;
                        }
                    }
                    WriteVerdict::Rejected { .. } => self.metrics.writes_rejected += 1,
                }
                None
            }
            _ => {
                self.client(e);
                None
            }
        };
        if before.is_some_and(|m| m != self.metrics) {
            self.note(e.at);
        }
        failover
    }

    fn service(&mut self, at: SimTime, ev: ServiceEvent) -> Option<Failover> {
        let (client, token, grant) = match ev {
            ServiceEvent::Granted { client, token, .. } => (client, token, true),
            ServiceEvent::Regranted { client, token, .. }
            | ServiceEvent::Renewed { client, token, .. } => (client, token, false),
            ServiceEvent::Ended { token, how, .. } => {
                if self.current.is_some_and(|(_, t)| t == token) {
                    self.current = None;
                }
                if how == LeaseEnd::Released {
                    // A polite handover is not a failover.
                    self.last_effective = None;
                }
                return None;
            }
            ServiceEvent::Busy { .. } | ServiceEvent::NotOwner { .. } => return None,
        };
        let mut failover = None;
        if grant {
            self.metrics.grants += 1;
            failover = self
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
                if let Some(r) = self.records.as_mut() {
                    r.failovers.push(f);
                }
            }
            self.current = Some((client, token));
        }
        self.last_effective = Some((client, at));
        failover
    }

    /// An event at a client, or a packet to or from one.
    #[inline(always)]
    fn client(&mut self, e: &Event) {
        let at = e.at;
        match (e.node, e.kind) {
            (NodeId::Client(c), EventKind::Lifecycle { to, token }) => {
                self.lifecycle(at, c, to, token)
            }
            (NodeId::Client(c), EventKind::Sent { msg, .. }) => self.sent(at, c, msg),
            (NodeId::Client(c), EventKind::Delivered { msg, .. })
                if !self.view(c).is_some_and(|v| v.paused) =>
            {
                self.received(at, c, msg)
            }
            (NodeId::Client(c), EventKind::Read { msg, .. }) => self.received(at, c, msg),
            (NodeId::Client(c), EventKind::Paused { .. }) => {
                if let Some(v) = self.view(c) {
                    v.paused = true;
                }
            }
            (NodeId::Client(c), EventKind::Woke) => {
                if let Some(v) = self.view(c) {
                    v.paused = false;
                }
            }
            (NodeId::Client(c), EventKind::Crashed) => {
                // What it waited for stays unanswered, and it waits no more.
                if let Some(p) = self.view(c).and_then(|v| v.renew.take()) {
                    self.metrics.renews_awaiting -= 1;
                    self.settle(c, p, RenewOutcome::Unanswered);
                }
            }
            (NodeId::Client(c), EventKind::WriteIssued { token, .. }) => {
                self.metrics.writes_issued += 1;
                if self.current != Some((c, token)) {
                    self.metrics.zombie_writes += 1;
                }
            }
            (
                from,
                EventKind::Dropped {
                    to, msg, sent_at, ..
                },
            ) => {
                let ((NodeId::Client(c), _) | (_, NodeId::Client(c))) = (from, to) else {
                    return;
                };
                let at_send = from == NodeId::Client(c) && sent_at == at;
                let waiting = self.view(c).and_then(|v| v.renew).map(|p| p.req);
                if at_send && msg.renew_request().is_some_and(|r| Some(r) != waiting) {
                    // Dropped as it left: it was put on the wire all the same.
                    self.sent(at, c, msg);
                }
                self.dropped(c, msg);
            }
            _ => {}
        }
    }

    fn view(&mut self, c: ClientId) -> Option<&mut ClientView> {
        self.clients.get_mut(c.index())
    }

    fn lifecycle(&mut self, at: SimTime, c: ClientId, to: Lifecycle, token: Option<FencingToken>) {
        if to != Lifecycle::RenewInFlight {
            if let Some(p) = self.view(c).and_then(|v| v.renew.take()) {
                self.settle(c, p, RenewOutcome::TimedOut(at));
            }
        }
        if let Lifecycle::Lost(_) = to {
            self.metrics.losses += 1;
            if token.is_some_and(|t| self.current == Some((c, t))) {
                self.metrics.false_losses += 1;
            }
        }
    }

    /// `c` put `msg` on the wire.
    fn sent(&mut self, at: SimTime, c: ClientId, msg: Message) {
        let Some(req) = msg.renew_request() else {
            return;
        };
        self.metrics.renews_sent += 1;
        if let Some(p) = self.view(c).and_then(|v| v.renew.take()) {
            self.settle(c, p, RenewOutcome::TimedOut(at));
        }
        if let Some(v) = self.view(c) {
            v.renew = Some(PendingRenew {
                req,
                sent_at: at,
                lost_on_wire: false,
            });
            self.metrics.renews_awaiting += 1;
        }
    }

    /// `msg` reached `c`'s code.
    fn received(&mut self, at: SimTime, c: ClientId, msg: Message) {
        let (req, outcome) = match msg {
            Message::RenewOk { req, .. } => (req, RenewOutcome::Ok(at)),
            Message::NotOwner { req, .. } => (req, RenewOutcome::NotOwner(at)),
            _ => return,
        };
        let Some(view) = self.view(c) else {
            return;
        };
        if let Some(p) = view.renew.filter(|p| p.req == req) {
            view.renew = None;
            self.settle(c, p, outcome);
        }
    }

    /// The network dropped `msg` between `c` and the service.
    fn dropped(&mut self, c: ClientId, msg: Message) {
        let req = match msg {
            Message::Renew { req, .. }
            | Message::RenewOk { req, .. }
            | Message::NotOwner { req, .. } => req,
            _ => return,
        };
        let waiting = self.view(c).and_then(|v| v.renew.as_mut());
        if let Some(p) = waiting.filter(|p| p.req == req && !p.lost_on_wire) {
            p.lost_on_wire = true;
            self.metrics.renews_lost_on_wire += 1;
        }
    }

    /// Records what became of `p`; a renew answered or given up on is no longer awaited (one
    /// left unanswered is taken off by the caller: a crash, or awaited still at the end).
    fn settle(&mut self, client: ClientId, p: PendingRenew, outcome: RenewOutcome) {
        match outcome {
            RenewOutcome::Ok(_) => self.metrics.renews_ok += 1,
            RenewOutcome::NotOwner(_) => self.metrics.renews_not_owner += 1,
            RenewOutcome::TimedOut(_) => self.metrics.renews_timed_out += 1,
            RenewOutcome::Unanswered => {}
        }
        if outcome != RenewOutcome::Unanswered {
            self.metrics.renews_awaiting -= 1;
        }
        if let Some(r) = self.records.as_mut() {
            r.renews.push(RenewRecord {
                client,
                req: p.req,
                sent_at: p.sent_at,
                outcome,
                lost_on_wire: p.lost_on_wire,
            });
        }
    }

    /// Keeps the measurements as of `at` for views.
    fn note(&mut self, at: SimTime) {
        let Some(r) = self.records.as_mut() else {
            return;
        };
        let m = self.metrics;
        match r.history.last_mut() {
            Some((t, last)) if *t == at => *last = m,
            Some((_, last)) if *last == m => {}
            _ => r.history.push((at, m)),
        }
    }

    /// Ends the run at `at`: renews still awaited stay unanswered; returns the measurements
    /// and the records for views.
    pub(crate) fn finish(mut self, at: SimTime) -> (Metrics, Observations) {
        for i in 0..self.clients.len() {
            if let Some(p) = self.clients[i].renew.take() {
                self.settle(ClientId(i as u8), p, RenewOutcome::Unanswered);
            }
        }
        self.note(at);
        let mut obs = self.records.unwrap_or_default();
        obs.renews.sort_by_key(|r| (r.sent_at, r.client));
        (self.metrics, obs)
    }
}
