//! The search and the shrinker on small scenarios, natively.

use super::*;
use crate::model::Policy;

fn unfenced() -> Scenario {
    Scenario {
        policy: Policy {
            fencing: false,
            ..Policy::prefer()
        },
        ..Scenario::default()
    }
}

fn spec(kinds: &[FaultKind], max_faults: u8, seed: u64) -> SearchSpec {
    SearchSpec {
        seed,
        kinds: kinds.to_vec(),
        max_faults,
        budget: 20_000,
    }
}

const PAUSES: [FaultKind; 2] = [FaultKind::Pause, FaultKind::PauseInWritePath];

#[test]
fn plans_are_reproducible_and_use_only_allowed_kinds() {
    let base = Scenario::default();
    let spec = spec(&[FaultKind::Partition, FaultKind::ClockStep], 3, 99);
    for index in 0..500 {
        let plan = random_plan(&base, &spec, index);
        assert_eq!(plan, random_plan(&base, &spec, index));
        assert!((1..=3).contains(&plan.0.len()), "plan {index}: {plan:?}");
        assert!(plan.0.iter().all(|f| spec.kinds.contains(&f.fault.kind())));
        assert!(plan.0.windows(2).all(|w| w[0].at <= w[1].at));
        with_plan(&base, plan).validate().expect("valid plan");
    }
    let other_seed = SearchSpec {
        seed: 100,
        ..spec.clone()
    };
    assert_ne!(
        random_plan(&base, &spec, 0),
        random_plan(&base, &other_seed, 0)
    );
}

#[test]
fn the_first_failing_index_does_not_depend_on_how_the_index_space_is_split() {
    let base = unfenced();
    let spec = spec(&PAUSES, 3, 7);
    let (_, whole) = search_block(&base, &spec, 0, 2_000);
    let whole = whole.expect("fencing off breaks under pauses");
    for block in [1, 3, 64] {
        let first = (0..2_000u64)
            .step_by(block)
            .find_map(|from| search_block(&base, &spec, from, (from + block as u64).min(2_000)).1)
            .expect("found in blocks");
        assert_eq!(first, whole, "blocks of {block}");
    }
}

#[test]
fn fencing_off_with_pauses_breaks_the_ordering_quickly() {
    let base = unfenced();
    for seed in [1, 2, 3] {
        let (tried, found) = search_block(&base, &spec(&PAUSES, 2, seed), 0, 1_000);
        let found = found.unwrap_or_else(|| panic!("seed {seed}: nothing in {tried} plans"));
        assert_eq!(found.check, CheckId::OrderedByToken, "seed {seed}");
        assert_eq!(tried, found.index + 1);
    }
}

#[test]
fn prefer_with_fencing_survives_every_fault_kind() {
    let base = Scenario::default();
    let (tried, found) = search_block(&base, &spec(&FaultKind::ALL, 4, 5), 0, 1_500);
    assert_eq!(found, None);
    assert_eq!(tried, 1_500);
}

/// A write-path pause of A longer than the TTL, hidden among nine faults that do not matter.
fn ten_fault_plan() -> FaultPlan {
    let ms = SimTime::from_millis;
    let d = SimDuration::from_millis;
    FaultPlan::none()
        .with(
            ms(700),
            Fault::ClockDrift {
                node: NodeId::Service,
                ppm: 300,
            },
        )
        .with(
            ms(1_234),
            Fault::DelayNextPacket {
                from: NodeId::Client(ClientId::B),
                to: NodeId::Service,
                extra: d(37),
            },
        )
        .with(
            ms(2_345),
            Fault::Pause {
                client: ClientId::A,
                duration: d(17_321),
                in_write_path: true,
            },
        )
        .with(
            ms(4_010),
            Fault::ClockStep {
                node: NodeId::Client(ClientId::B),
                by_micros: 1_234,
            },
        )
        .with(
            ms(6_500),
            Fault::Partition {
                a: NodeId::Client(ClientId::B),
                b: NodeId::Storage,
                duration: d(120),
            },
        )
        .with(
            ms(9_999),
            Fault::ClockDrift {
                node: NodeId::Client(ClientId::A),
                ppm: -250,
            },
        )
        .with(
            ms(30_000),
            Fault::Pause {
                client: ClientId::B,
                duration: d(55),
                in_write_path: false,
            },
        )
        .with(
            ms(41_000),
            Fault::DelayNextPacket {
                from: NodeId::Client(ClientId::A),
                to: NodeId::Storage,
                extra: d(80),
            },
        )
        .with(
            ms(47_500),
            Fault::ClockStep {
                node: NodeId::Service,
                by_micros: -3_000,
            },
        )
        .with(
            ms(52_000),
            Fault::Partition {
                a: NodeId::Client(ClientId::A),
                b: NodeId::Service,
                duration: d(200),
            },
        )
}

#[test]
fn a_ten_fault_plan_shrinks_to_at_most_two_faults_the_same_way_twice() {
    let base = unfenced();
    let plan = ten_fault_plan();
    let (check, at) = first_broken(&with_plan(&base, plan.clone())).expect("the plan is bad");
    let found = Counterexample {
        index: 0,
        plan,
        check,
        at,
    };
    let shrunk = shrink(&base, &found);
    assert!(shrunk.plan.0.len() <= 2, "{:?}", shrunk.plan);
    assert_eq!(shrunk.check, check);
    assert_eq!(
        first_broken(&with_plan(&base, shrunk.plan.clone())),
        Some((check, shrunk.at))
    );
    assert_eq!(shrink(&base, &found), shrunk);
    // Readable: every time and length is a whole number of 10 ms.
    for f in &shrunk.plan.0 {
        assert_eq!(f.at.as_micros() % 10_000, 0, "{f:?}");
        assert_eq!(amount(&f.fault).unwrap_or(0) % 10_000, 0, "{f:?}");
    }
}

#[test]
fn searched_plans_of_up_to_ten_faults_shrink_to_at_most_two() {
    let base = unfenced();
    let kinds = [
        FaultKind::PauseInWritePath,
        FaultKind::Partition,
        FaultKind::DelayNextPacket,
        FaultKind::ClockDrift,
    ];
    for seed in [11, 12, 13] {
        let (_, found) = search_block(&base, &spec(&kinds, 10, seed), 0, 5_000);
        let found = found.unwrap_or_else(|| panic!("seed {seed} found nothing"));
        let shrunk = shrink(&base, &found);
        assert!(shrunk.plan.0.len() <= 2, "seed {seed}: {:?}", shrunk.plan);
        assert!(shrunk.plan.0.len() <= found.plan.0.len());
        assert_eq!(shrunk.check, found.check);
        assert_eq!(shrink(&base, &found), shrunk, "seed {seed}");
    }
}

#[test]
fn a_base_that_breaks_by_itself_shrinks_to_no_faults() {
    // The judge a learner's own client gives: its run breaks whatever the plan holds.
    let base = unfenced();
    let plan = ten_fault_plan();
    let found = Counterexample {
        index: 0,
        plan,
        check: CheckId::NoWriteAfterLost,
        at: SimTime::from_millis(1_500),
    };
    let breaks_anyway =
        |_: &Scenario| Some((CheckId::NoWriteAfterLost, SimTime::from_millis(1_500)));
    let shrunk = shrink_by(&base, &found, breaks_anyway);
    assert_eq!(shrunk.plan, FaultPlan::none());
    assert_eq!(shrunk.check, CheckId::NoWriteAfterLost);
}

#[test]
fn a_plan_that_cannot_shrink_stays_as_it_is() {
    let base = Scenario::default();
    let plan = FaultPlan::none();
    let found = Counterexample {
        index: 3,
        plan: plan.clone(),
        check: CheckId::SingleHolder,
        at: SimTime::ZERO,
    };
    assert_eq!(shrink(&base, &found).plan, plan);
}

#[test]
fn readable_values_are_found_from_coarse_to_fine() {
    // Fails from 12.34 s up: the smallest readable value found is 12.4 s.
    let threshold = 12_340_000;
    let found = smallest_failing(17_321_000, 10_000, |v| {
        (v >= threshold).then_some(SimTime(v))
    });
    assert_eq!(found.map(|(v, _)| v), Some(12_400_000));
    assert_eq!(
        smallest_failing(5, 1, |v| (v >= 3).then_some(SimTime(v))).map(|(v, _)| v),
        Some(3)
    );
    assert_eq!(smallest_failing(100, 1, |_| None), None);
}

#[test]
fn specs_from_outside_are_checked() {
    let good = spec(&PAUSES, 2, 1);
    assert!(good.is_valid());
    for bad in [
        SearchSpec {
            kinds: vec![],
            ..good.clone()
        },
        SearchSpec {
            kinds: vec![FaultKind::Crash, FaultKind::Pause],
            ..good.clone()
        },
        SearchSpec {
            max_faults: 0,
            ..good.clone()
        },
        SearchSpec {
            max_faults: MAX_PLAN_FAULTS + 1,
            ..good.clone()
        },
        SearchSpec {
            budget: 0,
            ..good.clone()
        },
    ] {
        assert!(!bad.is_valid(), "{bad:?}");
    }
    for kind in FaultKind::ALL {
        assert_eq!(FaultKind::from_keyword(kind.keyword()), Some(kind));
    }
}

/// A plan resumed from the shared fault-free run gets the verdict, measurements included,
/// of the same plan run from zero: over every preset (policies, clocks, fencing off), every
/// fault kind, and faults placed on the kept moments themselves and just around them.
#[test]
fn a_plan_resumed_from_the_shared_run_gets_the_verdict_of_a_run_from_zero() {
    use super::prefix::SharedPrefix;
    let every_kind = spec(&FaultKind::ALL, 4, 7);
    for preset in crate::model::presets::presets() {
        let base = &preset.scenario;
        let prefix = SharedPrefix::of(base);
        let spacing = base.duration.as_micros().div_ceil(64).max(1);
        let mut plans: Vec<FaultPlan> =
            (0..40).map(|i| random_plan(base, &every_kind, i)).collect();
        for at in [0, 1, spacing - 1, spacing, spacing + 1, 5 * spacing] {
            let mut plan = random_plan(base, &every_kind, at);
            plan.0[0].at = SimTime(at);
            plan.0.sort_by_key(|f| f.at);
            plans.push(plan);
        }
        plans.push(FaultPlan::default());
        for plan in plans {
            let from_zero = Simulation::verdict(&with_plan(base, plan.clone()));
            assert_eq!(
                prefix.verdict(&plan.0),
                from_zero,
                "preset {}: {plan:?}",
                preset.id
            );
        }
    }
}

/// A fault at the very moment a world was kept comes before that moment's own events, so
/// the plan resumes from the moment before. Kept moments are placed on the base run's own
/// events here, and a crash or a pause lands on each.
#[test]
fn a_fault_at_a_kept_moment_comes_before_that_moments_events() {
    use super::prefix::SharedPrefix;
    use crate::model::{ClientId, Fault};
    let base = &crate::model::presets::preset("1")
        .expect("preset 1")
        .scenario;
    let events = Simulation::run(base).events().to_vec();
    let client = ClientId(0);
    for event in events.iter().step_by(7).filter(|e| e.at > SimTime::ZERO) {
        let prefix = SharedPrefix::spaced(base, event.at - SimTime::ZERO);
        for fault in [
            Fault::Crash { client },
            Fault::Pause {
                client,
                duration: SimDuration::from_millis(1),
                in_write_path: false,
            },
        ] {
            let plan = FaultPlan(vec![TimedFault {
                at: event.at,
                fault,
            }]);
            let from_zero = Simulation::verdict(&with_plan(base, plan.clone()));
            assert_eq!(prefix.verdict(&plan.0), from_zero, "{plan:?}");
        }
    }
}

/// The block's answer does not depend on whether it resumed from the shared run: a block
/// too small to share runs each plan from zero and finds the same counterexample.
#[test]
fn small_and_large_blocks_find_the_same_counterexample() {
    let base = unfenced();
    let spec = spec(&PAUSES, 3, 11);
    let (_, large) = search_block(&base, &spec, 0, 400);
    let found = large.expect("unfenced storage breaks under pauses");
    let mut small = None;
    for from in (0..=found.index).step_by(4) {
        if let (_, Some(c)) = search_block(&base, &spec, from, (from + 4).min(found.index + 1)) {
            small = Some(c);
            break;
        }
    }
    assert_eq!(small, Some(found));
}
