//! The page's side of the search: blocks, answers and distrust, with simulated workers.

use super::*;
use crate::model::search::FaultKind;
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
    let one = run_search(&unfenced(), &spec, 1, BLOCK);
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
    let mut schedule = Schedule::new(base.clone(), spec.clone(), BLOCK);
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
fn words_fill_in_and_the_worker_count_is_capped() {
    assert_eq!(
        words::fill("{a} and {b}, {a}", &[("a", "1"), ("b", "2")]),
        "1 and 2, 1"
    );
    assert_eq!(worker_count(0), 1);
    assert_eq!(worker_count(1), 1);
    assert_eq!(worker_count(2), 1, "one core stays with the page");
    assert_eq!(worker_count(4), 3);
    assert_eq!(worker_count(64), MAX_WORKERS);
}
