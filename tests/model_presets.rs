#![cfg(not(target_arch = "wasm32"))]
//! Every preset of scenarios.md, asserted against its expected outcome, named like the lesson.

use lease_lab::lesson::checks::ViolationWords;
use lease_lab::lesson::content::SANDBOX;
use lease_lab::model::presets::{self, preset};
use lease_lab::model::*;

fn run(id: &str) -> Run {
    let p = preset(id).unwrap_or_else(|| panic!("preset {id}"));
    p.scenario
        .validate()
        .unwrap_or_else(|e| panic!("preset {id}: {e:?}"));
    Simulation::run(&p.scenario)
}

fn secs(t: SimTime) -> f64 {
    t.as_secs_f64()
}

/// When client `c` entered its first state matching `pred`.
fn entered(run: &Run, c: ClientId, pred: impl Fn(Lifecycle) -> bool) -> Option<LifecyclePoint> {
    run.lifecycle_history(c)
        .iter()
        .copied()
        .find(|p| pred(p.state))
}

fn lost_at(run: &Run, c: ClientId) -> Option<(SimTime, LostReason)> {
    entered(run, c, |l| matches!(l, Lifecycle::Lost(_))).map(|p| match p.state {
        Lifecycle::Lost(r) => (p.from, r),
        _ => unreachable!(),
    })
}

fn grants(run: &Run) -> Vec<(SimTime, ClientId, FencingToken)> {
    run.events()
        .iter()
        .filter_map(|e| match e.kind {
            EventKind::Service(ServiceEvent::Granted { client, token, .. }) => {
                Some((e.at, client, token))
            }
            _ => None,
        })
        .collect()
}

fn writes_issued(run: &Run, c: ClientId) -> Vec<SimTime> {
    run.events()
        .iter()
        .filter(|e| e.node == NodeId::Client(c) && matches!(e.kind, EventKind::WriteIssued { .. }))
        .map(|e| e.at)
        .collect()
}

fn all_checks_hold(run: &Run) {
    for r in run.checks() {
        assert!(!r.status.is_broken(), "{:?} broke: {:?}", r.check, r.status);
    }
}

fn ordering_broken_by_a_at(run: &Run) -> SimTime {
    match run.check(CheckId::OrderedByToken) {
        CheckStatus::Broken { first, .. } => {
            assert_eq!(
                first.detail,
                ViolationDetail::StaleAccepted {
                    client: ClientId::A,
                    token: FencingToken(33),
                    highest: FencingToken(34)
                }
            );
            let words = first.explanation();
            assert!(
                words.contains("token 33") && words.contains("token 34"),
                "{words}"
            );
            assert!(first.prevention().contains("Fence"));
            first.at
        }
        other => panic!("ordering check should break, got {other:?}"),
    }
}

#[test]
fn healthy_holder_renews_every_t_over_3_and_never_loses() {
    let run = run("1");
    all_checks_hold(&run);
    let m = run.metrics();
    assert!(
        (11..=12).contains(&m.renews_sent),
        "renews {}",
        m.renews_sent
    );
    assert!(m.renews_ok >= 11);
    assert_eq!(
        (
            m.losses,
            m.false_losses,
            m.writes_rejected,
            m.stale_accepted
        ),
        (0, 0, 0, 0)
    );
    // A believes it holds from its first grant to the end, without a gap.
    let held = run.believed_intervals(ClientId::A);
    assert_eq!(held.len(), 1);
    assert!(held[0].until.is_none());
    assert_eq!(grants(&run).len(), 1);
    assert!(
        m.writes_accepted >= 119,
        "one write a second: {}",
        m.writes_accepted
    );
}

#[test]
fn gc_pause_in_write_path_is_rejected_by_the_fence() {
    let run = run("2");
    all_checks_hold(&run);
    let g = grants(&run);
    assert_eq!(g[0].1, ClientId::A);
    assert_eq!(g[0].2, FencingToken(33));
    assert!(secs(g[0].0) < 0.1);
    assert_eq!((g[1].1, g[1].2), (ClientId::B, FencingToken(34)));
    assert!(
        (10.0..10.3).contains(&secs(g[1].0)),
        "B acquires at about 10.1 s: {}",
        g[1].0
    );
    // B writes by 11 s.
    assert!(run
        .storage_log()
        .iter()
        .any(|w| w.client == ClientId::B && secs(w.at) <= 11.2));
    // A's token-33 write leaves at about 17 s and the fence rejects it.
    let rejected: Vec<_> = run
        .storage_log()
        .iter()
        .filter(|w| !w.verdict.accepted())
        .collect();
    assert_eq!(rejected.len(), 1);
    assert_eq!(
        (rejected[0].client, rejected[0].token),
        (ClientId::A, FencingToken(33))
    );
    assert_eq!(
        rejected[0].verdict,
        WriteVerdict::Rejected {
            highest: FencingToken(34)
        }
    );
    assert!((17.0..17.1).contains(&secs(rejected[0].at)));
    // The write passed its check at about 2 s, before the pause: no client check could stop it.
    assert!(writes_issued(&run, ClientId::A)
        .iter()
        .any(|t| (2.0..2.1).contains(&secs(*t))));
    assert_eq!(run.metrics().stale_accepted, 0);
}

#[test]
fn gc_pause_in_write_path_without_fencing_breaks_token_order() {
    let run = run("2-unfenced");
    let at = ordering_broken_by_a_at(&run);
    assert!((17.0..17.1).contains(&secs(at)));
    assert_eq!(
        run.check(CheckId::NoStaleAccepted),
        CheckStatus::NotApplicable
    );
    assert!(!run.check(CheckId::SingleHolder).is_broken());
    assert!(run
        .state_at(SimTime::from_secs(18))
        .broken
        .contains(&CheckId::OrderedByToken));
    assert!(run.state_at(SimTime::from_secs(16)).broken.is_empty());
}

#[test]
fn pause_between_writes_is_caught_by_the_pre_write_deadline_check() {
    let run = run("3");
    all_checks_hold(&run);
    let (t, reason) = lost_at(&run, ClientId::A).expect("A loses");
    assert_eq!(reason, LostReason::DeadlinePassedAtWrite);
    assert!((17.5..17.6).contains(&secs(t)));
    // Nothing issued after the pause started at 2.5 s.
    assert!(writes_issued(&run, ClientId::A)
        .iter()
        .all(|w| secs(*w) < 2.5));
    assert_eq!(run.metrics().writes_rejected, 0);
    assert_eq!(grants(&run)[1].2, FencingToken(34));
}

#[test]
fn trusting_the_flag_only_lets_the_stale_write_reach_the_fence() {
    let run = run("3-trust-flag");
    all_checks_hold(&run);
    let late: Vec<_> = writes_issued(&run, ClientId::A)
        .into_iter()
        .filter(|t| secs(*t) > 2.5)
        .collect();
    assert_eq!(late.len(), 1, "one late write leaves on waking");
    assert!((17.5..17.6).contains(&secs(late[0])));
    let rejected: Vec<_> = run
        .storage_log()
        .iter()
        .filter(|w| !w.verdict.accepted())
        .collect();
    assert_eq!(rejected.len(), 1);
    assert_eq!(rejected[0].token, FencingToken(33));
    assert_eq!(run.metrics().zombie_writes, 1);
}

#[test]
fn trusting_the_flag_only_without_fencing_lands_the_write_after_bs() {
    let run = run("3-trust-flag-unfenced");
    let at = ordering_broken_by_a_at(&run);
    assert!((17.5..17.6).contains(&secs(at)));
}

#[test]
fn blip_inside_the_budget_is_not_a_lost_lease() {
    let run = run("4");
    all_checks_hold(&run);
    assert_eq!(run.metrics().losses, 0);
    assert_eq!(grants(&run).len(), 1);
    // The renew due at 5 s was dropped and retried; the retry after the blip succeeded.
    let renews_a: Vec<_> = run
        .messages()
        .iter()
        .filter(|m| m.from == NodeId::Client(ClientId::A) && matches!(m.msg, Message::Renew { .. }))
        .collect();
    let dropped = renews_a
        .iter()
        .filter(|m| matches!(m.fate, MessageFate::Dropped(..)))
        .count();
    assert!(dropped >= 1);
    assert!(secs(renews_a[0].sent_at) >= 4.9 && secs(renews_a[0].sent_at) <= 5.1);
    let first_ok = renews_a
        .iter()
        .find(|m| matches!(m.fate, MessageFate::Delivered(_)))
        .unwrap();
    assert!(
        (7.5..9.0).contains(&secs(first_ok.sent_at)),
        "retry after the blip: {}",
        first_ok.sent_at
    );
    assert!(run
        .lifecycle_history(ClientId::A)
        .iter()
        .all(|p| !matches!(p.state, Lifecycle::Lost(_))));
}

#[test]
fn renew_deadline_fails_closed_and_the_next_holder_waits_for_the_ttl() {
    let run = run("5a");
    all_checks_hold(&run);
    let (t, reason) = lost_at(&run, ClientId::A).expect("A loses");
    assert_eq!(reason, LostReason::DeadlinePassed);
    assert_eq!(t, SimTime::from_secs(10));
    // Renews at 2 s and retries at 4, 6 and 8 s all time out.
    let attempts: Vec<f64> = run
        .messages()
        .iter()
        .filter(|m| m.from == NodeId::Client(ClientId::A) && matches!(m.msg, Message::Renew { .. }))
        .map(|m| secs(m.sent_at))
        .collect();
    assert_eq!(attempts, vec![2.0, 4.0, 6.0, 8.0]);
    assert!(writes_issued(&run, ClientId::A)
        .iter()
        .all(|w| *w < SimTime::from_secs(10)));
    let b = grants(&run)
        .into_iter()
        .find(|g| g.1 == ClientId::B)
        .expect("B acquires");
    assert!(secs(b.0) >= 15.0, "B acquires from 15 s: {}", b.0);
    // No overlap: A stopped believing before B was granted.
    let a_held = run.believed_intervals(ClientId::A);
    assert!(a_held.iter().all(|i| i.until.is_some_and(|u| u <= b.0)));
}

#[test]
fn not_owner_means_lost_at_once_without_retry() {
    let run = run("5b");
    all_checks_hold(&run);
    let (t, reason) = lost_at(&run, ClientId::A).expect("A loses");
    assert_eq!(reason, LostReason::NotOwner);
    assert!(
        (4.0..4.05).contains(&secs(t)),
        "lost right after the 4 s renew: {t}"
    );
    let renews_after: usize = run
        .messages()
        .iter()
        .filter(|m| {
            m.from == NodeId::Client(ClientId::A)
                && matches!(m.msg, Message::Renew { .. })
                && m.sent_at > t
        })
        .count();
    assert_eq!(renews_after, 0, "no retry after NOT_OWNER");
    assert!(writes_issued(&run, ClientId::A).iter().all(|w| *w <= t));
}

#[test]
fn monotonic_timers_ignore_an_ntp_step() {
    let run = run("6");
    all_checks_hold(&run);
    assert_eq!(run.metrics().losses, 0);
    assert_eq!(grants(&run).len(), 1);
    let wall = run.state_at(SimTime::from_secs(6)).clients[0].clock;
    assert_eq!(
        wall.wall.0 - wall.mono.0,
        WALL_EPOCH.0 - 8_000_000,
        "the wall clock did step"
    );
}

#[test]
fn wall_clock_timers_renew_late_and_lose_the_lease() {
    let run = run("6-wall-timers");
    let renews: Vec<f64> = run
        .messages()
        .iter()
        .filter(|m| m.from == NodeId::Client(ClientId::A) && matches!(m.msg, Message::Renew { .. }))
        .map(|m| secs(m.sent_at))
        .collect();
    // 3.33 s on time; the next, due at 6.67 s, goes out 8 s late.
    assert!((3.3..3.4).contains(&renews[0]));
    assert!((14.6..14.7).contains(&renews[1]), "{renews:?}");
    let expired = run.events().iter().find(|e| {
        matches!(
            e.kind,
            EventKind::Service(ServiceEvent::Ended {
                how: LeaseEnd::Expired,
                ..
            })
        )
    });
    assert!(expired.is_some_and(|e| (13.3..13.4).contains(&secs(e.at))));
    assert_eq!(grants(&run)[1].1, ClientId::B);
    let (_, reason) = lost_at(&run, ClientId::A).expect("A loses");
    assert_eq!(reason, LostReason::NotOwner);
    assert!(run.metrics().zombie_writes >= 1);
    assert_eq!(run.metrics().stale_accepted, 0);
}

#[test]
fn writing_until_the_wall_ttl_is_a_zombie_only_fencing_catches() {
    let run = run("6-write-until-wall-ttl");
    all_checks_hold(&run);
    let b_grant = grants(&run)[1].0;
    let zombie: Vec<_> = run
        .storage_log()
        .iter()
        .filter(|w| w.client == ClientId::A && w.at > b_grant)
        .collect();
    assert!(zombie.len() >= 5, "A keeps writing after B acquired");
    assert!(zombie
        .iter()
        .all(|w| matches!(w.verdict, WriteVerdict::Rejected { .. })
            || w.at < b_grant + SimDuration::from_millis(30)));
    assert!(run.metrics().writes_rejected >= 5);
    // Without the fence the same run corrupts the order.
    let mut sc = preset("6-write-until-wall-ttl").unwrap().scenario.clone();
    sc.policy.fencing = false;
    assert!(Simulation::run(&sc)
        .check(CheckId::OrderedByToken)
        .is_broken());
}

#[test]
fn service_wall_clock_jump_grants_a_second_holder() {
    let run = run("7");
    match run.check(CheckId::SingleHolder) {
        CheckStatus::Broken { first, .. } => {
            let ViolationDetail::TwoHolders {
                previous,
                new,
                remaining,
                ..
            } = first.detail
            else {
                panic!()
            };
            assert_eq!((previous, new), (ClientId::A, ClientId::B));
            assert!(remaining > SimDuration::from_secs(7));
            assert!((2.0..3.2).contains(&secs(first.at)));
            assert!(first.explanation().contains("jumped"));
        }
        other => panic!("expected two holders, got {other:?}"),
    }
    // B acquired while A still believed it held the lease.
    let b = grants(&run)[1].0;
    assert!(run.believed_intervals(ClientId::A)[0].contains(b));
    assert!(
        !run.check(CheckId::OrderedByToken).is_broken(),
        "the fence still protects the data"
    );
}

#[test]
fn service_monotonic_expiry_ignores_the_jump() {
    let run = run("7-monotonic");
    all_checks_hold(&run);
    assert_eq!(grants(&run).len(), 1);
    assert_eq!(run.metrics().losses, 0);
}

#[test]
fn delayed_write_packet_is_rejected_by_the_fence() {
    let run = run("8");
    all_checks_hold(&run);
    let renews: Vec<f64> = run
        .messages()
        .iter()
        .filter(|m| m.from == NodeId::Client(ClientId::A) && matches!(m.msg, Message::Renew { .. }))
        .map(|m| secs(m.sent_at))
        .collect();
    assert!(
        (6.6..6.7).contains(renews.last().unwrap()),
        "last renew about 6.7 s: {renews:?}"
    );
    let expired = run.holder_intervals()[0];
    assert_eq!(expired.end, Some(LeaseEnd::Expired));
    assert!((16.6..16.8).contains(&secs(expired.span.until.unwrap())));
    let b = grants(&run)[1];
    assert_eq!((b.1, b.2), (ClientId::B, FencingToken(34)));
    let late = run
        .storage_log()
        .iter()
        .find(|w| w.client == ClientId::A && secs(w.at) > 90.0)
        .unwrap();
    assert!(
        (97.9..98.2).contains(&secs(late.at)),
        "arrives about 98 s: {}",
        late.at
    );
    assert_eq!(
        late.verdict,
        WriteVerdict::Rejected {
            highest: FencingToken(34)
        }
    );
    // The packet was sent at about 8 s, before the crash.
    let m = run
        .messages()
        .iter()
        .find(|m| m.deliver_at == late.at)
        .unwrap();
    assert!((8.0..8.1).contains(&secs(m.sent_at)));
    let mid_flight = run.state_at(SimTime::from_secs(53));
    assert!(mid_flight.clients[0].crashed);
    // Mid-flight it is drawn half way along its edge.
    assert!(mid_flight
        .in_flight
        .iter()
        .any(|(r, p)| r.id == m.id && (490..=510).contains(p)));
}

#[test]
fn delayed_write_packet_without_fencing_breaks_token_order() {
    let run = run("8-unfenced");
    let at = ordering_broken_by_a_at(&run);
    assert!((97.9..98.2).contains(&secs(at)));
}

#[test]
fn pitfall_exercise_sizes_t_and_a_400ms_pause_loses_the_lease() {
    let advice = advise_ttl(TtlInputs::LESSON);
    assert_eq!(advice.minimum, SimDuration::from_millis(370));
    assert_eq!(preset("9").unwrap().scenario.ttl, advice.proposed);
    let run = run("9");
    all_checks_hold(&run);
    let (t, _) = lost_at(&run, ClientId::A).expect("the chosen pause loses the lease");
    assert!(t >= presets::PITFALL_PAUSE_AT + presets::PITFALL_PAUSE);
    assert!(writes_issued(&run, ClientId::A)
        .iter()
        .all(|w| *w < presets::PITFALL_PAUSE_AT));
}

/// A sweep window of scenario 9 that starts 6 µs after the ninth renewal (T/3 = 166.666 ms).
const SWEEP_START: SimTime = SimTime::from_millis(1_500);

#[test]
fn pitfall_sweep_loss_depends_on_where_the_pause_falls() {
    let base = preset("9").unwrap().scenario.clone();
    let mut base = base;
    base.faults = FaultPlan::none();
    for in_write_path in [false, true] {
        let sweep = pause_phase_sweep(
            &base,
            ClientId::A,
            presets::PITFALL_PAUSE,
            in_write_path,
            SWEEP_START,
            40,
        );
        let lost = sweep.lost_count();
        assert!(lost > 0, "some starts lose the lease");
        if !in_write_path {
            assert!(
                lost < sweep.cases.len(),
                "some starts lose, some do not: {lost}/40"
            );
            assert!(
                sweep.cases.iter().take(5).all(|c| !c.is_lost()),
                "a pause right after a renew is survived"
            );
        }
        for c in sweep.cases.iter().filter(|c| c.is_lost()) {
            assert_eq!(
                c.writes_after_lost_flag, 0,
                "the lost flag stops the writes"
            );
            assert_eq!(c.stale_accepted, 0, "fencing rejects the stale one");
        }
        if in_write_path {
            assert!(
                sweep
                    .cases
                    .iter()
                    .any(|c| c.is_lost() && c.fence_rejections > 0),
                "some stale write meets the fence"
            );
        }
    }
    // A longer lease survives every start.
    let mut long = base.clone();
    long.ttl = SimDuration::from_secs(2);
    let sweep = pause_phase_sweep(
        &long,
        ClientId::A,
        presets::PITFALL_PAUSE,
        false,
        SWEEP_START,
        20,
    );
    assert_eq!(sweep.lost_count(), 0);
}

#[test]
fn every_preset_is_valid_and_unique() {
    let all = presets::presets();
    assert!(all.len() >= 17);
    for (i, p) in all.iter().enumerate() {
        p.scenario
            .validate()
            .unwrap_or_else(|e| panic!("{}: {e:?}", p.id));
        assert!(
            all[..i].iter().all(|q| q.id != p.id),
            "duplicate id {}",
            p.id
        );
        let words = SANDBOX
            .preset(p.id)
            .unwrap_or_else(|| panic!("content/sandbox.toml words preset {}", p.id));
        assert!(words.narrative.len() > 80 && !words.try_this.is_empty());
        assert!(!words.title.is_empty() && !words.expected.is_empty());
    }
    for words in SANDBOX.presets {
        assert!(
            preset(words.id).is_some(),
            "{} is worded but not a preset",
            words.id
        );
    }
    for n in ["1", "2", "3", "4", "5a", "5b", "6", "7", "8", "9"] {
        assert!(all.iter().any(|p| p.number == n), "scenario {n}");
    }
}

/// What each system's defaults must produce, from the table "defaults from real systems"
/// in scenarios.md: its lease, how often it renews, when the client gives up, and how long
/// the service waits before granting again.
struct SystemSpec {
    system: &'static str,
    lease: SimDuration,
    renew_period: SimDuration,
    /// Set where the table gives one ("renew deadline 10 s"); otherwise only "before the
    /// service expires the lease" is required.
    renew_deadline: Option<SimDuration>,
    lock_delay: SimDuration,
    fencing: bool,
}

fn system_specs() -> Vec<SystemSpec> {
    let secs = SimDuration::from_secs;
    let third = |t: SimDuration| SimDuration(t.0 / 3);
    vec![
        SystemSpec {
            system: "etcd",
            lease: secs(60),
            renew_period: third(secs(60)),
            renew_deadline: None,
            lock_delay: SimDuration::ZERO,
            fencing: true,
        },
        SystemSpec {
            system: "redisson",
            lease: secs(30),
            renew_period: secs(10),
            renew_deadline: None,
            lock_delay: SimDuration::ZERO,
            fencing: false,
        },
        SystemSpec {
            system: "client-go",
            lease: secs(15),
            renew_period: secs(2),
            renew_deadline: Some(secs(10)),
            lock_delay: SimDuration::ZERO,
            fencing: false,
        },
        SystemSpec {
            system: "consul",
            lease: secs(10),
            renew_period: third(secs(10)),
            renew_deadline: None,
            lock_delay: secs(15),
            fencing: false,
        },
        SystemSpec {
            system: "chubby",
            lease: secs(12),
            renew_period: third(secs(12)),
            renew_deadline: None,
            lock_delay: secs(60),
            fencing: true,
        },
    ]
}

/// The send times of client A's renew requests.
fn renews_sent_by_a(run: &Run) -> Vec<SimTime> {
    run.messages()
        .iter()
        .filter(|m| m.from == NodeId::Client(ClientId::A) && matches!(m.msg, Message::Renew { .. }))
        .map(|m| m.sent_at)
        .collect()
}

/// When the service ended A's lease by expiry, and when it last renewed it before that.
fn expiry_of_a(run: &Run) -> (SimTime, SimTime) {
    let mut last_renewed = None;
    for e in run.events() {
        match e.kind {
            EventKind::Service(ServiceEvent::Renewed {
                client: ClientId::A,
                ..
            }) => last_renewed = Some(e.at),
            EventKind::Service(ServiceEvent::Ended {
                client: ClientId::A,
                how: LeaseEnd::Expired,
                ..
            }) => {
                return (
                    e.at,
                    last_renewed.expect("A renewed before its lease expired"),
                )
            }
            _ => {}
        }
    }
    panic!("A's lease never expired")
}

/// Each system's defaults, applied to the sandbox's scenario, renew on the system's period,
/// give up at its renew deadline before the service expires the lease, and make the next
/// holder wait out the lease and the lock-delay.
#[test]
fn system_defaults_produce_their_renew_period_and_deadlines() {
    let defaults = presets::system_defaults();
    let specs = system_specs();
    assert_eq!(
        defaults.len(),
        specs.len(),
        "one spec per system of the table"
    );
    let close = |a: SimDuration, b: SimDuration| a.0.abs_diff(b.0) <= 1_000;
    for spec in &specs {
        let system = defaults
            .iter()
            .find(|d| d.slug == spec.system)
            .unwrap_or_else(|| panic!("{} is in the table", spec.system));
        let mut healthy = Scenario::default();
        system.apply(&mut healthy);
        healthy.duration = SimDuration(spec.lease.0 * 4);
        healthy.validate().unwrap();
        let run = Simulation::run(&healthy);
        all_checks_hold(&run);
        assert_eq!(
            run.metrics().losses,
            0,
            "{}: a healthy holder keeps it",
            spec.system
        );
        assert_eq!(
            healthy.policy.fencing, spec.fencing,
            "{}: fencing",
            spec.system
        );

        let renews = renews_sent_by_a(&run);
        assert!(renews.len() >= 3, "{}: renews {renews:?}", spec.system);
        for pair in renews.windows(2) {
            let gap = pair[1] - pair[0];
            assert!(
                close(gap, spec.renew_period),
                "{}: renews every {gap}, not {}",
                spec.system,
                spec.renew_period
            );
        }

        // Cut A off from the service just after its first renew was confirmed.
        let mut cut_off = healthy.clone();
        let first_renew = renews[0];
        cut_off.faults = FaultPlan::none().with(
            first_renew + SimDuration::from_millis(100),
            Fault::Partition {
                a: NodeId::Client(ClientId::A),
                b: NodeId::Service,
                duration: healthy.duration,
            },
        );
        // Long enough for the lease to expire and the lock-delay to pass.
        cut_off.duration = healthy.duration + system.lock_delay;
        cut_off.validate().unwrap();
        let run = Simulation::run(&cut_off);
        all_checks_hold(&run);
        let (lost, reason) = lost_at(&run, ClientId::A).expect("A loses the lease");
        assert_eq!(reason, LostReason::DeadlinePassed, "{}", spec.system);
        let deadline = lost - first_renew;
        if let Some(expected) = spec.renew_deadline {
            assert!(
                close(deadline, expected),
                "{}: gives up {deadline} after its last confirmed renew, not {expected}",
                spec.system
            );
        }
        assert!(
            deadline > spec.renew_period,
            "{}: survives one missed renew",
            spec.system
        );
        let (expired, renewed) = expiry_of_a(&run);
        assert!(
            close(expired - renewed, spec.lease),
            "{}: the service keeps a lease {}, not {}",
            spec.system,
            expired - renewed,
            spec.lease
        );
        assert!(
            lost < expired,
            "{}: A stops before the service lets go",
            spec.system
        );
        let next = grants(&run)
            .into_iter()
            .find(|g| g.1 == ClientId::B)
            .unwrap_or_else(|| panic!("{}: B acquires after the lease", spec.system));
        assert!(
            next.0 >= expired + spec.lock_delay,
            "{}: B granted at {}, lease expired at {expired}, lock-delay {}",
            spec.system,
            next.0,
            spec.lock_delay
        );
    }
}

/// The committed trace hash of every preset; the wasm test asserts the same constants.
pub const PRESET_HASHES: &[(&str, u64)] = &include!("model_preset_hashes.in");

#[test]
fn preset_trace_hashes_are_committed() {
    let all = presets::presets();
    let mut lines = String::new();
    let mut mismatches = 0;
    for p in all {
        let h = Simulation::run(&p.scenario).trace_hash();
        lines.push_str(&format!("    (\"{}\", {h:#018x}),\n", p.id));
        match PRESET_HASHES.iter().find(|(id, _)| *id == p.id) {
            Some((_, want)) if *want == h => {}
            _ => mismatches += 1,
        }
    }
    assert!(
        mismatches == 0 && PRESET_HASHES.len() == all.len(),
        "trace hashes changed; if intended, update model_preset_hashes.in:\n[\n{lines}]"
    );
}

#[test]
fn the_same_seed_and_plan_give_the_same_hash_twice() {
    for p in presets::presets() {
        let mut s = p.scenario.clone();
        s.jitter = SimDuration::from_millis(7);
        s.loss_ppm = 20_000;
        let a = Simulation::run(&s).trace_hash();
        let b = Simulation::run(&s).trace_hash();
        assert_eq!(a, b, "{}", p.id);
        s.seed += 1;
        assert_ne!(
            a,
            Simulation::run(&s).trace_hash(),
            "{}: the seed must matter with jitter",
            p.id
        );
    }
}

#[test]
fn seeking_a_ten_minute_scenario_is_cheap() {
    let s = Scenario {
        duration: SimDuration::from_secs(600),
        jitter: SimDuration::from_millis(5),
        faults: FaultPlan::random(
            9,
            &RandomFaults {
                duration: SimDuration::from_secs(600),
                max_faults: 20,
                ..RandomFaults::default()
            },
        ),
        ..Scenario::default()
    };
    let t0 = std::time::Instant::now();
    let run = Simulation::run(&s);
    for k in 0..100 {
        let snap = run.state_at(SimTime::from_secs(6 * k));
        assert_eq!(snap.clients.len(), 2);
    }
    assert!(
        t0.elapsed().as_millis() < 2_000,
        "debug build, generous bound"
    );
    assert!(run.events().len() > 1_000);
}

#[test]
fn a_far_client_pays_its_own_round_trip() {
    // Multi-region renew latency: RTT eats the budget.
    let far = LinkOverride {
        a: NodeId::Client(ClientId::A),
        b: NodeId::Service,
        rtt: SimDuration::from_millis(400),
        jitter: SimDuration::ZERO,
        loss_ppm: 0,
    };
    let s = Scenario {
        links: vec![far],
        client_stagger: SimDuration::from_secs(1),
        ..preset("1").unwrap().scenario.clone()
    };
    s.validate().unwrap();
    let run = Simulation::run(&s);
    let granted = run
        .lifecycle_history(ClientId::A)
        .iter()
        .find(|p| p.state == Lifecycle::Holding)
        .unwrap();
    assert_eq!(granted.from, SimTime::from_millis(400));
    let write = run.storage_log()[0];
    assert_eq!(
        write.at,
        SimTime::from_millis(410),
        "the storage link keeps the default 20 ms RTT"
    );
}

#[test]
fn a_scenario_that_would_build_a_huge_trace_is_refused() {
    let s = Scenario {
        clients: 8,
        duration: SimDuration::from_secs(3_600),
        work_slice: SimDuration::from_millis(10),
        acquire_retry: SimDuration::from_millis(10),
        ..Scenario::default()
    };
    let e = s.validate().unwrap_err();
    assert_eq!(e.field, "duration");
    assert!(
        matches!(
            e.problem,
            lease_lab::model::ScenarioProblem::TooManyEvents { estimate, max }
                if estimate > max && estimate == s.estimated_events()
        ),
        "{e:?}"
    );
    // A ten-minute default scenario is far inside the bound.
    let ten = Scenario {
        duration: SimDuration::from_secs(600),
        ..Scenario::default()
    };
    assert!(ten.estimated_events() < 20_000);
    ten.validate().unwrap();
}
