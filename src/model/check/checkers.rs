//! The checkers of a run, fed its trace from outside (the shape of TigerBeetle's
//! `state_checker`): one per invariant, each keeping its own model of what must be true, plus
//! the measures. They read only the events, in order, whoever produced them (the world, a
//! live run's recorder, a trace from a link), so every run is checked by the same code. What
//! they find is their own stream; the events are never rewritten.

use super::fence::StaleWrites;
use super::holder::SingleHolder;
use super::lost::NoWriteAfterLost;
use super::measures::{Measures, Observations};
use super::{
    BrokenCheck, CheckId, CheckReport, CheckStatus, Failover, Metrics, Violation, ViolationDetail,
};
use crate::model::ids::FencingToken;
use crate::model::scenario::Scenario;
use crate::model::time::SimTime;
use crate::model::trace::{Event, EventKind};

/// What the checkers found at one event: the checks it broke (at most two at once), and
/// whether it ended a failover.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub struct Found {
    broken: u8,
    stale_over: Option<FencingToken>,
    failover: bool,
}

impl Found {
    /// The checks broken, in display order.
    pub fn checks(self) -> impl Iterator<Item = CheckId> {
        CheckId::ALL
            .into_iter()
            .filter(move |c| self.broken & (1 << c.index()) != 0)
    }
    /// True if the event broke any check.
    pub fn any(self) -> bool {
        self.broken != 0
    }
    /// For an accepted write below a token already stored: that higher token.
    pub fn stale_over(self) -> Option<FencingToken> {
        self.stale_over
    }
    /// True if the event (a grant) ended a failover.
    pub fn failover(self) -> bool {
        self.failover
    }
}

/// Whether the measures keep records for views: each renew and failover, and the figures
/// after each change (for a run held whole), or only the running figures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Records {
    /// Keep them.
    Keep,
    /// Only the running figures.
    Skip,
}

/// The checkers and measures of one run.
#[derive(Clone, Debug)]
pub struct Checkers {
    single_holder: SingleHolder,
    no_stale_accepted: StaleWrites,
    no_write_after_lost: NoWriteAfterLost,
    ordered_by_token: StaleWrites,
    measures: Measures,
    applicable: [bool; 4],
    first: [Option<Violation>; 4],
    latest: [Option<Violation>; 4],
    count: [u32; 4],
    latest_failover: Option<Failover>,
}

/// Whose clients a run has, which says how a loss is judged.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Judging {
    /// The model's own client: its lost flag is what it says (its policy says whether it
    /// promises to stop there).
    BuiltIn,
    /// A learner's client: judged, as the built-in one is, by what it could know. Its lost
    /// flag is what it says; a NOT_OWNER that reached its code sets it too, whatever its code
    /// does with it (the built-in client sets its flag at that answer), and so does its own
    /// monotonic clock showing more than T since it sent the acquire or renew that last
    /// succeeded (past any sound safe deadline).
    Learner,
}

impl Checkers {
    /// The checkers of a run of `s` with the model's own clients (its TTL, clients and policy
    /// say what applies).
    pub fn new(s: &Scenario, records: Records) -> Checkers {
        Checkers::judging(s, records, Judging::BuiltIn)
    }

    /// The checkers of a run of `s` whose clients are judged as `judging` says.
    pub fn judging(s: &Scenario, records: Records, judging: Judging) -> Checkers {
        let clients = usize::from(s.clients);
        let learner = judging == Judging::Learner;
        Checkers {
            single_holder: SingleHolder::new(s.ttl),
            no_stale_accepted: StaleWrites::default(),
            no_write_after_lost: if learner {
                NoWriteAfterLost::judging_learners(clients)
            } else {
                NoWriteAfterLost::new(clients)
            },
            ordered_by_token: StaleWrites::default(),
            measures: Measures::new(clients, records == Records::Keep),
            applicable: [
                true,
                s.policy.fencing,
                learner || s.policy.client_follows_prefer(),
                true,
            ],
            first: [None; 4],
            latest: [None; 4],
            count: [0; 4],
            latest_failover: None,
        }
    }

    /// Reads the next event of the run. Each checker is handed the kinds of event it reads
    /// (the trace-less search runs this for every event, so nothing else is looked at).
    #[inline(always)]
    pub fn observe(&mut self, e: &Event) -> Found {
        let mut found = Found::default();
        match e.kind {
            EventKind::Service(_) => {
                if let Some(detail) = self.single_holder.observe(e) {
                    self.violation(&mut found, CheckId::SingleHolder, e.at, detail);
                }
            }
            EventKind::Write(_) => {
                if let Some(detail) = self.no_stale_accepted.observe(e) {
                    self.violation(&mut found, CheckId::NoStaleAccepted, e.at, detail);
                }
                if let Some(detail) = self.ordered_by_token.observe(e) {
                    self.violation(&mut found, CheckId::OrderedByToken, e.at, detail);
                }
            }
            EventKind::Lifecycle { .. } | EventKind::WriteIssued { .. } => {
                if let Some(detail) = self.no_write_after_lost.observe(e) {
                    self.violation(&mut found, CheckId::NoWriteAfterLost, e.at, detail);
                }
            }
            // What a client sent and what reached its code, for judging a learner's client;
            // and the measures.
            EventKind::Sent { .. }
            | EventKind::Delivered { .. }
            | EventKind::Read { .. }
            | EventKind::Paused { .. }
            | EventKind::Woke => self.no_write_after_lost.observe_heard(e),
            // A learner's client's clock, replayed; read by no other checker nor measure.
            EventKind::Fault { .. } => {
                self.no_write_after_lost.observe_heard(e);
                return found;
            }
            // Read by no checker nor measure.
            EventKind::Timer { .. } | EventKind::StaleReply { .. } => return found,
            _ => {}
        }
        if let Some(f) = self.measures.observe(e) {
            found.failover = true;
            self.latest_failover = Some(f);
        }
        found
    }

    #[cold]
    fn violation(
        &mut self,
        found: &mut Found,
        check: CheckId,
        at: SimTime,
        detail: ViolationDetail,
    ) {
        let i = check.index();
        if !self.applicable[i] {
            return;
        }
        let v = Violation { check, at, detail };
        self.count[i] += 1;
        self.first[i].get_or_insert(v);
        self.latest[i] = Some(v);
        found.broken |= 1 << i;
        if let ViolationDetail::StaleAccepted { highest, .. } = detail {
            found.stale_over = Some(highest);
        }
    }

    /// The latest violation of `check`: the details of a [`Found`] that names it.
    pub fn latest(&self, check: CheckId) -> Option<Violation> {
        self.latest[check.index()]
    }

    /// The failover of the latest [`Found`] that says it ended one.
    pub fn latest_failover(&self) -> Option<Failover> {
        self.latest_failover
    }

    /// Each check's status so far.
    pub fn reports(&self) -> [CheckReport; 4] {
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
    pub fn first_broken(&self) -> Option<BrokenCheck> {
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
    pub fn metrics(&self) -> Metrics {
        self.measures.metrics()
    }

    /// Ends the run at `at`: the reports, the measurements and the records for views.
    pub(crate) fn finish(self, at: SimTime) -> ([CheckReport; 4], Metrics, Observations) {
        let reports = self.reports();
        let (metrics, observed) = self.measures.finish(at);
        (reports, metrics, observed)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::client::{Lifecycle, LostReason};
    use crate::model::ids::{ClientId, MsgId, NodeId, RequestId};
    use crate::model::msg::Message;
    use crate::model::net::DropReason;
    use crate::model::service::{LeaseEnd, ServiceEvent};
    use crate::model::storage::{WriteRecord, WriteVerdict};
    use crate::model::time::{LocalTime, SimDuration};
    use crate::model::trace::EventKind;
    use crate::model::{Policy, RenewOutcome};

    const A: ClientId = ClientId::A;
    const B: ClientId = ClientId::B;

    fn checkers(fencing: bool) -> Checkers {
        let mut policy = Policy::prefer();
        policy.fencing = fencing;
        let s = Scenario {
            ttl: SimDuration::from_secs(10),
            policy,
            ..Scenario::default()
        };
        Checkers::new(&s, Records::Keep)
    }
    fn s(secs: u64) -> SimTime {
        SimTime::from_secs(secs)
    }
    fn at(secs: u64, node: NodeId, kind: EventKind) -> Event {
        Event {
            at: s(secs),
            node,
            kind,
        }
    }
    /// The service promises `token` to `client` at `secs`, its monotonic clock reading
    /// `mono` seconds.
    fn granted(secs: u64, mono: i64, client: ClientId, token: u64) -> Event {
        let ev = ServiceEvent::Granted {
            client,
            token: FencingToken(token),
            mono: LocalTime(mono * 1_000_000),
        };
        at(secs, NodeId::Service, EventKind::Service(ev))
    }
    fn ended(secs: u64, client: ClientId, token: u64, how: LeaseEnd) -> Event {
        let ev = ServiceEvent::Ended {
            client,
            token: FencingToken(token),
            how,
        };
        at(secs, NodeId::Service, EventKind::Service(ev))
    }
    fn write(secs: u64, client: ClientId, token: u64, verdict: WriteVerdict) -> Event {
        let w = WriteRecord {
            at: s(secs),
            client,
            token: FencingToken(token),
            seq: 1,
            verdict,
        };
        at(secs, NodeId::Storage, EventKind::Write(w))
    }
    fn checks(f: Found) -> Vec<CheckId> {
        f.checks().collect()
    }

    #[test]
    fn a_grant_inside_another_promise_is_two_holders_with_the_time_left() {
        let mut c = checkers(true);
        c.observe(&granted(0, 0, A, 1));
        // The service says A's lease ended at 2 s (its wall clock jumped), then grants B.
        c.observe(&ended(2, A, 1, LeaseEnd::Expired));
        let found = c.observe(&granted(2, 2, B, 2));
        assert_eq!(checks(found), [CheckId::SingleHolder]);
        let v = c.latest(CheckId::SingleHolder).unwrap();
        assert_eq!(v.at, s(2));
        assert_eq!(
            v.detail,
            ViolationDetail::TwoHolders {
                previous: A,
                previous_token: FencingToken(1),
                new: B,
                new_token: FencingToken(2),
                remaining: SimDuration::from_secs(8),
            }
        );
    }

    #[test]
    fn renewing_a_running_lease_or_granting_after_the_promise_is_fine() {
        let mut c = checkers(true);
        c.observe(&granted(0, 0, A, 1));
        let renewed = ServiceEvent::Renewed {
            client: A,
            token: FencingToken(1),
            mono: LocalTime(3_000_000),
        };
        assert!(!c
            .observe(&at(3, NodeId::Service, EventKind::Service(renewed)))
            .any());
        c.observe(&ended(13, A, 1, LeaseEnd::Expired));
        assert!(!c.observe(&granted(13, 13, B, 2)).any());
        // A revoked lease is no promise: the next grant may follow at once.
        c.observe(&ended(14, B, 2, LeaseEnd::Revoked));
        assert!(!c.observe(&granted(14, 14, A, 3)).any());
        assert_eq!(c.metrics().failovers, 2);
        assert_eq!(c.first_broken(), None);
    }

    #[test]
    fn storage_accepting_a_lower_token_breaks_both_storage_checks() {
        let mut c = checkers(true);
        assert!(!c.observe(&write(1, B, 2, WriteVerdict::Accepted)).any());
        let found = c.observe(&write(2, A, 1, WriteVerdict::Accepted));
        assert_eq!(found.stale_over(), Some(FencingToken(2)));
        assert_eq!(
            checks(found),
            [CheckId::NoStaleAccepted, CheckId::OrderedByToken]
        );
        // A refused write and an equal token are fine.
        let refused = WriteVerdict::Rejected {
            highest: FencingToken(2),
        };
        assert!(!c.observe(&write(3, A, 1, refused)).any());
        assert!(!c.observe(&write(4, B, 2, WriteVerdict::Accepted)).any());
        assert_eq!(c.metrics().stale_accepted, 1);
    }

    #[test]
    fn without_fencing_only_the_order_check_applies() {
        let mut c = checkers(false);
        c.observe(&write(1, B, 2, WriteVerdict::Accepted));
        let found = c.observe(&write(2, A, 1, WriteVerdict::Accepted));
        assert_eq!(checks(found), [CheckId::OrderedByToken]);
        assert_eq!(
            c.reports()[CheckId::NoStaleAccepted.index()].status,
            CheckStatus::NotApplicable
        );
    }

    #[test]
    fn a_write_after_the_lost_flag_is_caught_with_when_the_flag_was_set() {
        let mut c = checkers(true);
        let a = NodeId::Client(A);
        let issued = EventKind::WriteIssued {
            token: FencingToken(1),
            seq: 1,
        };
        c.observe(&granted(0, 0, A, 1));
        assert!(!c.observe(&at(1, a, issued)).any());
        let lost = EventKind::Lifecycle {
            to: Lifecycle::Lost(LostReason::NotOwner),
            token: Some(FencingToken(1)),
        };
        c.observe(&at(5, a, lost));
        assert_eq!(
            checks(c.observe(&at(6, a, issued))),
            [CheckId::NoWriteAfterLost]
        );
        assert_eq!(
            c.latest(CheckId::NoWriteAfterLost).map(|v| v.detail),
            Some(ViolationDetail::WriteAfterLost {
                client: A,
                token: FencingToken(1),
                lost_at: s(5)
            })
        );
        // Lost while the service still held the lease: a false loss.
        assert_eq!(c.metrics().false_losses, 1);
    }

    #[test]
    fn each_renew_gets_one_outcome_as_its_client_reads_the_answer() {
        let mut c = checkers(true);
        let a = NodeId::Client(A);
        let token = FencingToken(1);
        let renew = |req| Message::Renew {
            req: RequestId(req),
            token,
        };
        let ok = |req| Message::RenewOk {
            req: RequestId(req),
            token,
        };
        let sent = |req| EventKind::Sent {
            id: MsgId(req),
            to: NodeId::Service,
            msg: renew(req),
            deliver_at: s(100),
        };
        let delivered = |msg| EventKind::Delivered {
            id: MsgId(0),
            from: NodeId::Service,
            sent_at: s(0),
            msg,
        };
        let holding = EventKind::Lifecycle {
            to: Lifecycle::Holding,
            token: Some(token),
        };
        c.observe(&at(3, a, sent(2)));
        c.observe(&at(3, a, delivered(ok(2))));
        c.observe(&at(3, a, holding));
        c.observe(&at(6, a, sent(3)));
        let dropped = EventKind::Dropped {
            id: MsgId(3),
            to: NodeId::Service,
            sent_at: s(6),
            msg: renew(3),
            reason: DropReason::Lost,
        };
        c.observe(&at(6, a, dropped));
        c.observe(&at(7, a, holding));
        // The late answer to the abandoned renew counts for nothing.
        c.observe(&at(8, a, delivered(ok(3))));
        // An answer that arrives while the client is paused counts when it reads it.
        c.observe(&at(9, a, sent(4)));
        let paused = EventKind::Paused {
            until: s(12),
            in_write_path: false,
        };
        c.observe(&at(9, a, paused));
        c.observe(&at(10, a, delivered(ok(4))));
        c.observe(&at(12, a, EventKind::Woke));
        let read = EventKind::Read {
            id: MsgId(4),
            from: NodeId::Service,
            msg: ok(4),
        };
        c.observe(&at(12, a, read));
        // Dropped as it left: sent all the same, and lost on the wire.
        let dropped_at_send = EventKind::Dropped {
            id: MsgId(5),
            to: NodeId::Service,
            sent_at: s(13),
            msg: renew(5),
            reason: DropReason::LinkDown,
        };
        c.observe(&at(13, a, dropped_at_send));
        let (_, m, obs) = c.finish(s(14));
        assert_eq!(
            (
                m.renews_sent,
                m.renews_ok,
                m.renews_timed_out,
                m.renews_lost_on_wire
            ),
            (4, 2, 1, 2)
        );
        // The fourth still waits when the run ends.
        assert_eq!(m.renews_awaiting, 1);
        let outcomes: Vec<_> = obs.renews.iter().map(|r| r.outcome).collect();
        assert_eq!(
            outcomes,
            [
                RenewOutcome::Ok(s(3)),
                RenewOutcome::TimedOut(s(7)),
                RenewOutcome::Ok(s(12)),
                RenewOutcome::Unanswered
            ]
        );
        assert_eq!(obs.history.last().map(|(_, m)| m.renews_sent), Some(4));
    }
}
