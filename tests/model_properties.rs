#![cfg(not(target_arch = "wasm32"))]
//! Property tests over seeds, parameters, policies and random fault plans (10,000 cases
//! each), plus the counter-property: with fencing off and pauses allowed, the search does
//! find an ordering violation, so the checks can fail.

use lease_lab::lesson::checks::ViolationWords;
use lease_lab::model::*;
use proptest::prelude::*;
use proptest::test_runner::{Config, TestError, TestRunner};

const CASES: u32 = 10_000;

fn config(cases: u32) -> Config {
    Config {
        cases,
        failure_persistence: None,
        ..Config::default()
    }
}

/// Random but valid scenario parameters; the faults come from the seeded plan generator.
#[derive(Clone, Debug)]
struct Shape {
    seed: u64,
    plan_seed: u64,
    clients: u8,
    ttl_ms: u64,
    jitter_ms: u64,
    loss_ppm: u32,
    alternatives: u8,
    max_faults: u32,
}

fn shapes() -> impl Strategy<Value = Shape> {
    (
        any::<u64>(),
        any::<u64>(),
        2u8..=3,
        1_000u64..=15_000,
        0u64..=50,
        0u32..=50_000,
        any::<u8>(),
        0u32..=8,
    )
        .prop_map(
            |(seed, plan_seed, clients, ttl_ms, jitter_ms, loss_ppm, alternatives, max_faults)| {
                Shape {
                    seed,
                    plan_seed,
                    clients,
                    ttl_ms,
                    jitter_ms,
                    loss_ppm,
                    alternatives,
                    max_faults,
                }
            },
        )
}

fn scenario(sh: &Shape, policy: Policy) -> Scenario {
    let duration = SimDuration::from_secs(30);
    let ttl = SimDuration::from_millis(sh.ttl_ms);
    let s = Scenario {
        seed: sh.seed,
        clients: sh.clients,
        duration,
        ttl,
        drift_margin: ttl.mul_ratio(1, 20),
        request_timeout: SimDuration::from_millis(500),
        retry_interval: SimDuration::from_millis(500),
        acquire_retry: SimDuration::from_millis(700),
        jitter: SimDuration::from_millis(sh.jitter_ms),
        loss_ppm: sh.loss_ppm,
        policy,
        faults: FaultPlan::random(
            sh.plan_seed,
            &RandomFaults {
                duration,
                clients: sh.clients,
                max_faults: sh.max_faults,
                max_pause: ttl.mul_ratio(2, 1),
                allow_crash: true,
            },
        ),
        ..Scenario::default()
    };
    s.validate().expect("generated scenarios are valid");
    s
}

/// Any combination of the Alternative switches, chosen by the bits of `b`.
fn alternatives(b: u8) -> Policy {
    Policy {
        wall_clock_timers: b & 1 != 0,
        trust_flag_only: b & 2 != 0,
        write_until_wall_ttl: b & 4 != 0,
        soft_ttl: b & 8 != 0,
        stop_writes_after_unlock: b & 16 != 0,
        redlock_validity: b & 32 != 0,
        fencing: true,
        service_expiry: if b & 64 != 0 {
            ClockKind::Wall
        } else {
            ClockKind::Monotonic
        },
    }
}

#[test]
fn with_fencing_no_stale_token_is_ever_accepted() {
    let mut runner = TestRunner::new(config(CASES));
    runner
        .run(&shapes(), |sh| {
            let o = Simulation::check(&scenario(&sh, alternatives(sh.alternatives)));
            prop_assert_eq!(o.metrics.stale_accepted, 0);
            prop_assert!(!o.status(CheckId::NoStaleAccepted).is_broken());
            prop_assert!(!o.status(CheckId::OrderedByToken).is_broken());
            Ok(())
        })
        .unwrap();
}

#[test]
fn under_prefer_no_write_is_issued_after_the_lost_flag() {
    let mut runner = TestRunner::new(config(CASES));
    runner
        .run(&shapes(), |sh| {
            let policy = Policy {
                fencing: sh.alternatives & 1 != 0,
                ..Policy::prefer()
            };
            let o = Simulation::check(&scenario(&sh, policy));
            prop_assert_eq!(o.status(CheckId::NoWriteAfterLost), CheckStatus::Holding);
            Ok(())
        })
        .unwrap();
}

#[test]
fn a_monotonic_service_never_has_two_unexpired_holders() {
    let mut runner = TestRunner::new(config(CASES));
    runner
        .run(&shapes(), |sh| {
            let mut policy = alternatives(sh.alternatives);
            policy.service_expiry = ClockKind::Monotonic;
            policy.fencing = sh.alternatives & 128 != 0;
            let o = Simulation::check(&scenario(&sh, policy));
            prop_assert_eq!(o.status(CheckId::SingleHolder), CheckStatus::Holding);
            Ok(())
        })
        .unwrap();
}

#[test]
fn without_fencing_the_search_finds_an_ordering_violation() {
    // The same property as above, with the fence off: proptest must find a counterexample
    // (a pause or delay that lets an old token's write land after a newer one).
    let mut runner = TestRunner::new(config(CASES));
    let result = runner.run(&shapes(), |sh| {
        let policy = Policy {
            fencing: false,
            ..Policy::prefer()
        };
        let o = Simulation::check(&scenario(&sh, policy));
        prop_assert!(!o.status(CheckId::OrderedByToken).is_broken());
        Ok(())
    });
    match result {
        Err(TestError::Fail(_, sh)) => {
            // The shrunk counterexample replays with its full trace and explanation.
            let run = Simulation::run(&scenario(
                &sh,
                Policy {
                    fencing: false,
                    ..Policy::prefer()
                },
            ));
            let CheckStatus::Broken { first, .. } = run.check(CheckId::OrderedByToken) else {
                panic!("the counterexample must replay");
            };
            assert!(first.explanation().contains("after it had already stored"));
            // With the fence on, the same scenario is safe.
            let fenced = Simulation::check(&scenario(&sh, Policy::prefer()));
            assert!(!fenced.status(CheckId::OrderedByToken).is_broken());
        }
        other => panic!("expected a counterexample, got {other:?}"),
    }
}

#[test]
fn the_same_seed_and_plan_give_the_same_trace_hash() {
    let mut runner = TestRunner::new(config(1_000));
    runner
        .run(&shapes(), |sh| {
            let s = scenario(&sh, alternatives(sh.alternatives));
            let a = Simulation::run(&s);
            let b = Simulation::run(&s);
            prop_assert_eq!(a.trace_hash(), b.trace_hash());
            prop_assert_eq!(a.events().len(), b.events().len());
            // The traceless fast paths compute the same checks and metrics.
            let fast = Simulation::check(&s);
            prop_assert_eq!(&fast.checks, a.checks());
            prop_assert_eq!(&fast.metrics, a.metrics());
            let verdict = Simulation::verdict(&s);
            prop_assert_eq!(&verdict.metrics, a.metrics());
            let first = a
                .checks()
                .iter()
                .filter_map(|r| match r.status {
                    CheckStatus::Broken { first, .. } => Some((first.at, first.check)),
                    _ => None,
                })
                .min();
            prop_assert_eq!(verdict.first_broken.map(|b| (b.at, b.check)), first);
            // Each broken check is found at the events where and as often as it broke.
            for r in a.checks() {
                let marks: Vec<SimTime> = a
                    .events()
                    .iter()
                    .zip(a.found())
                    .filter(|(_, f)| f.checks().any(|c| c == r.check))
                    .map(|(e, _)| e.at)
                    .collect();
                match r.status {
                    CheckStatus::Broken { first, count } => {
                        prop_assert_eq!(marks.len() as u32, count);
                        prop_assert_eq!(marks.first().copied(), Some(first.at));
                    }
                    _ => prop_assert!(marks.is_empty()),
                }
            }
            Ok(())
        })
        .unwrap();
}

#[test]
fn every_renew_has_one_outcome_and_the_figures_at_the_end_are_the_whole_run() {
    let mut runner = TestRunner::new(config(1_000));
    runner
        .run(&shapes(), |sh| {
            let run = Simulation::run(&scenario(&sh, alternatives(sh.alternatives)));
            let m = *run.metrics();
            let renews = run.renews();
            prop_assert_eq!(renews.len() as u32, m.renews_sent);
            let count = |f: fn(&RenewOutcome) -> bool| renews.iter().filter(|r| f(&r.outcome)).count() as u32;
            prop_assert_eq!(count(|o| matches!(o, RenewOutcome::Ok(_))), m.renews_ok);
            prop_assert_eq!(count(|o| matches!(o, RenewOutcome::NotOwner(_))), m.renews_not_owner);
            prop_assert_eq!(count(|o| matches!(o, RenewOutcome::TimedOut(_))), m.renews_timed_out);
            let on_wire = renews.iter().filter(|r| r.lost_on_wire).count() as u32;
            prop_assert_eq!(on_wire, m.renews_lost_on_wire);
            // Still awaited at the end: unanswered, by a client that did not crash.
            let crashed: Vec<NodeId> = (run.events().iter())
                .filter(|e| e.kind == EventKind::Crashed)
                .map(|e| e.node)
                .collect();
            let awaited = (renews.iter())
                .filter(|r| r.outcome == RenewOutcome::Unanswered)
                .filter(|r| !crashed.contains(&NodeId::Client(r.client)))
                .count() as u32;
            prop_assert_eq!(awaited, m.renews_awaiting);
            for r in renews {
                prop_assert!(r.settled_at().is_none_or(|t| t >= r.sent_at));
            }
            // The renew traffic seen on the wire matches the records.
            let sent_on_wire = run
                .events()
                .iter()
                .filter(|e| {
                    matches!(
                        e.kind,
                        EventKind::Sent { msg: Message::Renew { .. }, .. }
                    ) || matches!(
                        e.kind,
                        EventKind::Dropped { msg: Message::Renew { .. }, sent_at, .. } if sent_at == e.at
                    )
                })
                .count() as u32;
            prop_assert_eq!(sent_on_wire, m.renews_sent);
            let failovers = run.failovers();
            prop_assert_eq!(failovers.len() as u32, m.failovers);
            prop_assert_eq!(failovers.iter().map(|f| f.duration()).max(), m.max_failover);
            // Figures as of the end are the whole run's.
            prop_assert_eq!(run.metrics_at(run.end()), m);
            Ok(())
        })
        .unwrap();
}

#[test]
fn arbitrary_scenarios_never_panic_once_validated() {
    let durations = prop_oneof![Just(1u64), 1u64..=120_000];
    let strategy = (
        any::<u64>(),
        durations,
        0u64..=100_000,
        any::<u32>(),
        any::<u32>(),
        0u8..=10,
        any::<u64>(),
    );
    let mut runner = TestRunner::new(config(2_000));
    runner
        .run(
            &strategy,
            |(seed, dur_ms, ttl_ms, num, den, clients, plan)| {
                let s = Scenario {
                    seed,
                    duration: SimDuration::from_millis(dur_ms),
                    ttl: SimDuration::from_millis(ttl_ms),
                    renew_every: Fraction {
                        num: num % 7,
                        den: den % 9,
                    },
                    clients,
                    faults: FaultPlan::random(plan, &RandomFaults::default()),
                    ..Scenario::default()
                };
                if s.validate().is_ok() {
                    let _ = Simulation::check(&s);
                }
                Ok(())
            },
        )
        .unwrap();
}

#[test]
fn unvalidated_scenarios_with_unknown_clients_do_not_panic() {
    let s = Scenario {
        clients: 2,
        duration: SimDuration::from_secs(5),
        faults: FaultPlan::none()
            .with(
                SimTime::from_secs(1),
                Fault::Crash {
                    client: ClientId(9),
                },
            )
            .with(
                SimTime::from_secs(1),
                Fault::ClockStep {
                    node: NodeId::Client(ClientId(7)),
                    by_micros: 5,
                },
            )
            .with(
                SimTime::from_secs(1),
                Fault::Pause {
                    client: ClientId(5),
                    duration: SimDuration::from_secs(1),
                    in_write_path: true,
                },
            ),
        ..Scenario::default()
    };
    assert!(s.validate().is_err());
    assert!(!Simulation::check(&s).any_broken());
}
