//! The page's side of the search: blocks, answers and distrust, with simulated workers.

use super::*;
use crate::model::search::FaultKind;
use crate::model::{Policy, SimDuration, Simulation};

fn unfenced() -> Scenario {
    Scenario {
        policy: Policy {
            fencing: false,
            ..Policy::prefer()
        },
        ..Scenario::default()
    }
}

/// Runs a whole search with `workers` simulated workers; each round every idle worker takes
/// a block, and the answers come back in reverse order (the slowest first).
fn run_search(base: &Scenario, spec: &SearchSpec, workers: usize, block: u64) -> Schedule {
    let mut schedule = Schedule::new(base.clone(), spec.clone(), block);
    while !schedule.is_finished() {
        let requests: Vec<Request> = (0..workers)
            .filter_map(|_| schedule.next_request())
            .collect();
        for request in requests.into_iter().rev() {
            match answer(request) {
                Reply::Searched {
                    from,
                    to,
                    tried,
                    found,
                } => schedule
                    .record(from, to, tried, found)
                    .expect("an honest worker"),
                other => panic!("unexpected {other:?}"),
            }
        }
    }
    schedule
}

#[test]
fn the_result_is_the_same_for_any_number_of_workers() {
    let spec = SearchSpec {
        budget: 6_000,
        ..default_spec(2024)
    };
    let one = run_search(&unfenced(), &spec, 1, FIRST_BLOCK);
    let found = one.best().cloned().expect("fencing off breaks");
    assert!(
        found.index >= 4,
        "the winner should lie beyond the first small blocks"
    );
    for (workers, block) in [(2, 1), (3, 2), (4, 3), (4, 1)] {
        let other = run_search(&unfenced(), &spec, workers, block);
        assert_eq!(
            other.best(),
            Some(&found),
            "{workers} workers, blocks of {block}"
        );
    }
    let (_, direct) = search_block(&unfenced(), &spec, 0, found.index + 1);
    assert_eq!(direct, Some(found));
}

#[test]
fn with_prefer_and_fencing_every_plan_of_the_budget_runs_and_none_breaks() {
    let spec = SearchSpec {
        kinds: FaultKind::ALL.to_vec(),
        budget: 1_200,
        ..default_spec(9)
    };
    let done = run_search(&Scenario::default(), &spec, 3, 100);
    assert_eq!(done.best(), None);
    assert_eq!(done.tried(), 1_200);
}

#[test]
fn a_worker_that_lies_is_not_believed() {
    let base = unfenced();
    let spec = default_spec(5);
    let mut schedule = Schedule::new(base.clone(), spec.clone(), 512);
    let Some(Request::Search { from, to, .. }) = schedule.next_request() else {
        panic!("a first block");
    };
    assert_eq!(
        schedule.record(to, to + 1, 1, None),
        Err(Distrust::UnknownBlock)
    );
    assert_eq!(
        schedule.record(from, to, 3, None),
        Err(Distrust::WrongCounterexample)
    );
    let (tried, found) = search_block(&base, &spec, from, to);
    let mut found = found.expect("a counterexample in the first block");
    let honest = found.clone();
    found.at = SimTime(found.at.0 + 1);
    assert_eq!(
        schedule.record(from, to, tried, Some(found)),
        Err(Distrust::WrongCounterexample)
    );
    let mut other_plan = honest.clone();
    other_plan.plan.0.pop();
    assert_eq!(
        schedule.record(from, to, tried, Some(other_plan)),
        Err(Distrust::WrongCounterexample)
    );
    assert_eq!(
        schedule.record(from, to, tried, Some(honest.clone())),
        Ok(())
    );
    assert_eq!(
        schedule.record(from, to, tried, Some(honest)),
        Err(Distrust::UnknownBlock)
    );
}

#[test]
fn workers_refuse_requests_that_make_no_sense() {
    let base = unfenced();
    let spec = default_spec(1);
    let search = |from, to, spec: &SearchSpec, base: &Scenario| {
        answer(Request::Search {
            base: base.clone(),
            spec: spec.clone(),
            from,
            to,
        })
    };
    assert_eq!(search(10, 10, &spec, &base), Reply::Refused);
    assert_eq!(search(0, MAX_BLOCK + 1, &spec, &base), Reply::Refused);
    assert_eq!(
        search(
            0,
            10,
            &SearchSpec {
                kinds: vec![],
                ..spec.clone()
            },
            &base
        ),
        Reply::Refused
    );
    let broken_base = Scenario {
        clients: 0,
        ..base.clone()
    };
    assert_eq!(search(0, 10, &spec, &broken_base), Reply::Refused);
    let made_up = Counterexample {
        index: 0,
        plan: crate::model::FaultPlan::none(),
        check: CheckId::OrderedByToken,
        at: SimTime::ZERO,
    };
    assert_eq!(
        answer(Request::Shrink {
            base,
            found: made_up
        }),
        Reply::Refused
    );
}

#[test]
fn a_shrunk_counterexample_is_checked_before_it_is_shown() {
    let base = unfenced();
    let (_, found) = search_block(&base, &default_spec(3), 0, 500);
    let found = found.expect("found");
    let Reply::Shrunk { shrunk } = answer(Request::Shrink {
        base: base.clone(),
        found: found.clone(),
    }) else {
        panic!("shrunk");
    };
    assert!(shrunk_holds(&base, &found, &shrunk));
    let mut wrong = shrunk.clone();
    wrong.check = CheckId::SingleHolder;
    assert!(!shrunk_holds(&base, &found, &wrong));
}

#[test]
fn rough_times_fill_in_their_sentences_and_the_worker_count_is_capped() {
    assert_eq!(words::rough_time(3 * 3_600 + 20 * 60), "3 h 20 min");
    assert_eq!(words::rough_time(4 * 60 + 5), "4 min 5 s");
    assert_eq!(words::rough_time(12), "12 s");
    assert_eq!(worker_count(0), 1);
    assert_eq!(worker_count(1), 1);
    assert_eq!(worker_count(2), 1, "one core stays with the page");
    assert_eq!(worker_count(4), 3);
    assert_eq!(worker_count(64), MAX_WORKERS);
}

#[test]
fn blocks_grow_for_cheap_plans_and_shrink_to_one_for_slow_ones() {
    assert_eq!(next_block(FIRST_BLOCK, 0), FIRST_BLOCK * 4);
    let mut block = FIRST_BLOCK;
    for _ in 0..8 {
        block = next_block(block, 1);
    }
    assert_eq!(block, MAX_BLOCK);
    // 30 plans in 3 s: 100 ms a plan, so a quarter of a second holds two.
    assert_eq!(next_block(30, 3_000), 2);
    assert_eq!(next_block(2, 900), 1);
    assert_eq!(next_block(1, 60_000), 1);
}

#[test]
fn a_schedule_with_changing_block_sizes_finds_the_same_counterexample() {
    let spec = SearchSpec {
        budget: 3_000,
        ..default_spec(77)
    };
    let fixed = run_search(&unfenced(), &spec, 2, 64);
    let mut schedule = Schedule::new(unfenced(), spec, FIRST_BLOCK);
    let mut sizes = [1, 7, 300, 2, 4_096].into_iter().cycle();
    while !schedule.is_finished() {
        schedule.set_block(sizes.next().unwrap());
        let Some(request) = schedule.next_request() else {
            continue;
        };
        let Reply::Searched {
            from,
            to,
            tried,
            found,
        } = answer(request)
        else {
            panic!("an honest worker");
        };
        schedule.record(from, to, tried, found).unwrap();
    }
    assert_eq!(schedule.best(), fixed.best());
    assert!(schedule.best().is_some());
}

#[test]
fn an_estimate_follows_the_steps_a_run_really_takes() {
    // Seven clients writing every 10 ms for 250 s: tens of thousands of steps a plan.
    let heavy = Scenario {
        clients: 7,
        duration: SimDuration::from_secs(250),
        work_slice: SimDuration::from_millis(10),
        ..Scenario::default()
    };
    heavy.validate().unwrap();
    // The model's own upper bound says this of a 40-ms lease too, but its run takes under a
    // hundred steps (the lease is too short to keep): an estimate must not warn of hours.
    let quick = Scenario {
        ttl: SimDuration::from_millis(40),
        drift_margin: SimDuration::from_millis(5),
        ..heavy.clone()
    };
    quick.validate().unwrap();
    assert!(quick.estimated_events() > 10_000);
    let all_kinds = SearchSpec {
        kinds: FaultKind::ALL.to_vec(),
        budget: 700_000,
        ..default_spec(5)
    };
    let heavy_estimate = Estimate::of(&heavy, all_kinds.max_faults, 2);
    assert!(heavy_estimate.secs(all_kinds.budget) > 1_800);
    let quick_secs = Estimate::of(&quick, all_kinds.max_faults, 2).secs(all_kinds.budget);
    assert!(quick_secs < WARN_AFTER_SECS, "{quick_secs} s");
    let light = Estimate::of(&Scenario::default(), 5, 2).secs(default_spec(5).budget);
    assert!(light < 60, "{light} s");
    let minute = heavy_estimate.plans_within(60);
    assert!((1..100_000).contains(&minute), "{minute}");
    assert!((55..=65).contains(&heavy_estimate.secs(minute)));
}

#[test]
fn a_long_run_is_sampled_and_scaled_not_run_to_its_end() {
    let long = Scenario {
        duration: SimDuration::from_secs(1_000),
        work_slice: SimDuration::from_millis(10),
        ..Scenario::default()
    };
    long.validate().unwrap();
    let whole = Simulation::verdict(&long).steps;
    assert!(whole > 10 * SAMPLE_STEPS);
    let sampled = sampled_steps(&long, SAMPLE_STEPS);
    // A steady run: the sample's rate holds for the rest within a few per cent.
    assert!(
        sampled.abs_diff(whole) * 20 < whole,
        "sampled {sampled}, whole {whole}"
    );
    let short = Scenario::default();
    assert_eq!(
        sampled_steps(&short, SAMPLE_STEPS),
        Simulation::verdict(&short).steps
    );
}

#[test]
fn time_left_follows_the_measured_speed_once_it_is_known() {
    assert_eq!(secs_left(0, 1_000, 5_000), None);
    assert_eq!(secs_left(10, 1_000, 200), None);
    // 50 plans in 4 s: 12.5 plans/s, so 950 more take 76 s.
    assert_eq!(secs_left(50, 1_000, 4_000), Some(76));
    assert_eq!(secs_left(1_000, 1_000, 9_000), Some(0));
}

#[test]
fn estimates_are_told_in_hours_minutes_or_seconds() {
    assert_eq!(words::rough_time(12), "12 s");
    assert_eq!(words::rough_time(245), "4 min 5 s");
    assert_eq!(words::rough_time(3 * 3_600 + 20 * 60 + 59), "3 h 20 min");
}
