//! The live nodes wired together with hand-fed times (quinn-proto's `Pair` shape): the page's
//! client A, contender B and the service, each with its own delay queue, the page's freeze
//! as a stretch in which A does nothing, and the recorder taking every report. What the e2e
//! tests see with real timers, here exactly and fast.

use super::node::{ClientNode, ServiceNode};
use super::recorder::{LiveRecorder, Source};
use super::trace::LiveTrace;
use super::{LivePacket, NodeNow, Stamp};
use crate::model::{
    CheckId, ClientId, EventKind, Fault, Lifecycle, LocalNow, LocalTime, NodeId, Policy, Run,
    RunQuestions, Scenario, ServiceEvent, SimDuration, SimTime, WriteVerdict, WALL_EPOCH,
};

const ORIGIN: Stamp = Stamp(1_764_590_000_000_000);

struct Pair {
    now: Stamp,
    a: ClientNode,
    b: ClientNode,
    service: ServiceNode,
    recorder: LiveRecorder,
    a_wall_step: i64,
    a_inbox: Vec<LivePacket>,
}

fn scenario(policy: Policy) -> Scenario {
    Scenario {
        clients: 2,
        duration: SimDuration::from_secs(60),
        ttl: SimDuration::from_secs(1),
        rtt: SimDuration::from_millis(20),
        jitter: SimDuration::from_millis(4),
        work_slice: SimDuration::from_millis(100),
        client_stagger: SimDuration::from_millis(200),
        policy,
        ..Scenario::default()
    }
}

impl Pair {
    fn new(s: &Scenario) -> Pair {
        Pair {
            now: ORIGIN,
            a: ClientNode::new(s, ClientId::A),
            b: ClientNode::new(s, ClientId::B),
            service: ServiceNode::new(s),
            recorder: LiveRecorder::new(s, ORIGIN),
            a_wall_step: 0,
            a_inbox: Vec::new(),
        }
    }

    fn at(&self, wall_step: i64) -> NodeNow {
        let since = self.now.since(ORIGIN).0 as i64;
        NodeNow {
            stamp: self.now,
            local: LocalNow {
                mono: LocalTime(since),
                wall: LocalTime(WALL_EPOCH.0 + since + wall_step),
            },
        }
    }

    fn report(&mut self) {
        let now = self.now;
        let a = self.a.take_events();
        let b = self.b.take_events();
        let s = self.service.take_events();
        self.recorder.report(Source::Page, a, now);
        self.recorder.report(Source::Contender, b, now);
        self.recorder.report(Source::Service, s, now);
        self.recorder.commit();
    }

    /// Runs every node until `until`; A does nothing while `a_frozen`.
    fn run(&mut self, until: Stamp, a_frozen: bool) {
        loop {
            let a_now = self.at(self.a_wall_step);
            let s_now = self.at(0);
            let next = [
                (!a_frozen).then(|| self.a.poll_timeout(a_now)).flatten(),
                self.b.poll_timeout(s_now),
                self.service.poll_timeout(s_now),
            ]
            .into_iter()
            .flatten()
            .min();
            match next {
                Some(t) if t <= until => self.now = t.max(self.now),
                _ => break,
            }
            self.turn(a_frozen);
        }
        self.now = until;
        self.turn(a_frozen);
    }

    fn turn(&mut self, a_frozen: bool) {
        let a_now = self.at(self.a_wall_step);
        let s_now = self.at(0);
        if !a_frozen {
            for p in std::mem::take(&mut self.a_inbox) {
                self.a.handle_packet(a_now, p);
            }
            self.a.handle_timeout(a_now);
            while let Some(p) = self.a.poll_send(a_now) {
                self.service.handle_packet(s_now, p);
            }
        }
        self.b.handle_timeout(s_now);
        while let Some(p) = self.b.poll_send(s_now) {
            self.service.handle_packet(s_now, p);
        }
        self.service.handle_timeout(s_now);
        while let Some(p) = self.service.poll_send(s_now) {
            match p.to {
                NodeId::Client(ClientId::A) => self.a_inbox.push(p),
                _ => self.b.handle_packet(s_now, p),
            }
        }
        self.report();
    }

    fn ms(&self, ms: u64) -> Stamp {
        ORIGIN.plus(SimDuration::from_millis(ms))
    }

    /// The page freezes for `d` now: A sees nothing until it wakes.
    fn freeze(&mut self, d: SimDuration, in_write_path: bool) {
        let start = self.at(self.a_wall_step);
        let fault = Fault::Pause {
            client: ClientId::A,
            duration: d,
            in_write_path,
        };
        self.a.note(start, EventKind::Fault { fault });
        let wake = self.now.plus(d);
        let until = SimTime(wake.0);
        self.a.note(
            start,
            EventKind::Paused {
                until,
                in_write_path,
            },
        );
        self.run(wake, true);
        let woke = self.at(self.a_wall_step);
        self.a.note(woke, EventKind::Woke);
        self.a.release_held_write(woke);
        self.turn(false);
    }

    /// Runs until A holds a write for a write-path freeze, then freezes for `d`.
    fn freeze_at_next_write(&mut self, d: SimDuration) {
        self.a.freeze_at_next_write();
        while !self.a.holds_write() {
            let step = self.now.plus(SimDuration::from_millis(1));
            self.run(step, false);
        }
        self.freeze(d, true);
    }

    fn step_a_wall(&mut self, by: SimDuration, back: bool) {
        let by = by.0 as i64 * if back { -1 } else { 1 };
        self.a_wall_step += by;
        let fault = Fault::ClockStep {
            node: NodeId::Client(ClientId::A),
            by_micros: by,
        };
        let now = self.at(self.a_wall_step);
        self.a.note(now, EventKind::Fault { fault });
        self.turn(false);
    }

    /// Stops the run: the recorder's run, checked to equal the replay of the recording
    /// after a trip through its link.
    fn finish(mut self) -> Run {
        self.recorder.commit_all();
        assert_eq!(self.recorder.late_reports(), 0);
        let run = self.recorder.run(SimTime(self.now.since(ORIGIN).0));
        let trace = self.recorder.finish(self.now, Vec::new(), None);
        let link = trace.to_link().expect("a short run fits in a link");
        let back = LiveTrace::from_link(&link).expect("its link reads back");
        assert_eq!(back, trace);
        assert_eq!(back.replay().trace_hash(), run.trace_hash());
        run
    }
}

fn granted_to(run: &Run, c: ClientId) -> Vec<SimTime> {
    run.events()
        .iter()
        .filter(|e| matches!(e.kind, EventKind::Service(ServiceEvent::Granted { client, .. }) if client == c))
        .map(|e| e.at)
        .collect()
}

fn lost_at(run: &Run, c: ClientId) -> Option<SimTime> {
    run.lifecycle_history(c)
        .iter()
        .find(|p| matches!(p.state, Lifecycle::Lost(_)))
        .map(|p| p.from)
}

#[test]
fn a_healthy_holder_keeps_the_lease_and_every_check_holds() {
    let s = scenario(Policy::prefer());
    let mut pair = Pair::new(&s);
    pair.run(pair.ms(6_000), false);
    let run = pair.finish();
    assert_eq!(granted_to(&run, ClientId::A).len(), 1);
    assert!(granted_to(&run, ClientId::B).is_empty());
    assert_eq!(lost_at(&run, ClientId::A), None);
    assert!(run.storage_log().len() > 40, "A wrote every work slice");
    assert!(run.checks().iter().all(|c| !c.status.is_broken()));
}

#[test]
fn freezing_the_page_for_three_ttls_hands_the_lease_to_b_and_the_fence_rejects_a() {
    let s = scenario(Policy::prefer());
    let mut pair = Pair::new(&s);
    pair.run(pair.ms(2_000), false);
    let frozen_at = SimTime::from_millis(2_000);
    pair.freeze_at_next_write(SimDuration::from_secs(3));
    let woke = SimTime(pair.now.since(ORIGIN).0);
    pair.run(pair.ms(8_000), false);
    let run = pair.finish();

    let b_granted = granted_to(&run, ClientId::B);
    assert!(
        b_granted.iter().any(|&t| frozen_at < t && t < woke),
        "B was granted during the freeze: {b_granted:?}"
    );
    let lost = lost_at(&run, ClientId::A).expect("A lost the lease");
    assert!(
        lost >= woke && lost < woke + SimDuration::from_millis(50),
        "on waking"
    );
    let a_after_wake: Vec<_> = run
        .storage_log()
        .iter()
        .filter(|w| w.client == ClientId::A && w.at >= woke)
        .collect();
    assert_eq!(a_after_wake.len(), 1, "only the held write left");
    assert!(matches!(
        a_after_wake[0].verdict,
        WriteVerdict::Rejected { .. }
    ));
    assert!(!run.check(CheckId::OrderedByToken).is_broken());
    assert!(!run.check(CheckId::SingleHolder).is_broken());
}

#[test]
fn without_fencing_the_same_freeze_breaks_the_order_of_writes() {
    let s = scenario(Policy {
        fencing: false,
        ..Policy::prefer()
    });
    let mut pair = Pair::new(&s);
    pair.run(pair.ms(2_000), false);
    pair.freeze_at_next_write(SimDuration::from_secs(3));
    pair.run(pair.ms(8_000), false);
    let run = pair.finish();
    assert!(run.check(CheckId::OrderedByToken).is_broken());
}

fn wall_step_back(policy: Policy) -> Run {
    let s = scenario(policy);
    let mut pair = Pair::new(&s);
    pair.run(pair.ms(2_000), false);
    pair.step_a_wall(SimDuration::from_secs(5), true);
    pair.run(pair.ms(9_000), false);
    pair.finish()
}

#[test]
fn stepping_the_wall_clock_back_loses_the_lease_under_wall_clock_timers_only() {
    let wall = wall_step_back(Policy {
        wall_clock_timers: true,
        ..Policy::prefer()
    });
    assert!(lost_at(&wall, ClientId::A).is_some());
    assert!(!granted_to(&wall, ClientId::B).is_empty());

    let prefer = wall_step_back(Policy::prefer());
    assert_eq!(lost_at(&prefer, ClientId::A), None);
    assert!(granted_to(&prefer, ClientId::B).is_empty());
}

#[test]
fn late_reports_from_the_workers_are_ordered_before_the_pages_wake() {
    let s = scenario(Policy::prefer());
    let mut recorder = LiveRecorder::new(&s, ORIGIN);
    let at = |ms| ORIGIN.plus(SimDuration::from_millis(ms));
    let event = |ms, node, kind| super::Stamped {
        at: at(ms),
        node,
        kind,
    };
    // The page wakes at 5 s and reports first; the service's reports from the freeze were
    // queued behind it.
    recorder.report(
        Source::Page,
        vec![event(5_000, NodeId::Client(ClientId::A), EventKind::Woke)],
        at(5_000),
    );
    recorder.commit();
    assert!(
        recorder.events().is_empty(),
        "nothing is safe before every source reports"
    );
    let expiry = ServiceEvent::Ended {
        client: ClientId::A,
        token: crate::model::FencingToken(1),
        how: crate::model::LeaseEnd::Expired,
    };
    recorder.report(
        Source::Service,
        vec![event(3_000, NodeId::Service, EventKind::Service(expiry))],
        at(5_000),
    );
    recorder.report(Source::Contender, Vec::new(), at(5_000));
    recorder.commit();
    let times: Vec<_> = recorder.events().iter().map(|e| e.at).collect();
    assert_eq!(
        times,
        [SimTime::from_millis(3_000), SimTime::from_millis(5_000)]
    );
    assert_eq!(recorder.late_reports(), 0);
}
