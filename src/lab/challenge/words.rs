//! The challenges' sentences: goals, verdicts and the lesson section each one builds on, in
//! the words of `content/challenges.toml`, `content/checks.toml` and `content/lesson.toml`.

use super::grade::{Case, Failure, Measured};
use super::spec::{Condition, Over, Trial};
use crate::lab::describe;
use crate::lesson::content::{fill, CHALLENGES, SANDBOX};
use crate::lesson::LESSON;
use crate::model::faults::text::print_fault;
use crate::route::Tab;

/// A condition as a sentence: "“Accepted writes are ordered by fencing token” holds".
pub fn condition(c: Condition) -> String {
    let w = &CHALLENGES.words;
    match c {
        Condition::Holds(_) => fill(w.condition_holds, &[("check", c.subject())]),
        Condition::Broken(_) => fill(w.condition_broken, &[("check", c.subject())]),
        Condition::AtMost(metric, bound) => fill(
            w.condition_at_most,
            &[
                ("metric", metric.label().to_owned()),
                ("value", metric.print(bound)),
            ],
        ),
    }
}

/// How a trial runs the try, as the sentence before its conditions.
pub fn over(trial: &Trial) -> String {
    let w = &CHALLENGES.words;
    match &trial.over {
        Over::Run(added) if added.is_empty() => w.over_run.to_owned(),
        Over::Run(added) => {
            let faults: Vec<String> = added
                .iter()
                .map(|f| describe::fault_at(&f.fault, f.at))
                .collect();
            fill(w.over_run_with, &[("faults", faults.join(", "))])
        }
        Over::Sweep(fault) => fill(
            w.over_sweep,
            &[
                ("fault", describe::fault(fault)),
                ("starts", super::spec::SWEEP_STARTS.to_string()),
            ],
        ),
        Over::Any(search) => {
            let kinds: Vec<&str> = search
                .kinds
                .iter()
                .map(|k| SANDBOX.fault(k.keyword()).label)
                .collect();
            fill(
                w.over_any,
                &[
                    ("seed", search.seed.to_string()),
                    ("plans", search.budget.to_string()),
                    ("max", search.max_faults.to_string()),
                    ("kinds", kinds.join(", ")),
                ],
            )
        }
    }
}

/// The failed condition, when, and what was measured, in one sentence.
pub fn failed(failure: &Failure) -> String {
    let w = &CHALLENGES.words;
    let measured = match failure.measured {
        Measured::Broken => w.measured_broken.to_owned(),
        Measured::Held => w.measured_held.to_owned(),
        Measured::NoFailover => w.measured_no_failover.to_owned(),
        Measured::Value(value) => match failure.condition {
            Condition::AtMost(metric, _) => format!("{}: {}", metric.label(), metric.print(value)),
            _ => value.to_string(),
        },
    };
    fill(
        w.failed,
        &[
            ("condition", condition(failure.condition)),
            ("measured", measured),
            ("at", failure.at.to_string()),
        ],
    )
}

/// Which run of its trial failed, when the trial has more than one.
pub fn case(case: &Case) -> Option<String> {
    let w = &CHALLENGES.words;
    match case {
        Case::Run => None,
        Case::Sweep { fault, offset } => Some(fill(
            w.case_sweep,
            &[
                ("fault", describe::fault(fault)),
                ("offset", offset.to_string()),
            ],
        )),
        Case::Any { index, plan } => {
            let faults: Vec<String> = plan.0.iter().map(print_fault).collect();
            Some(fill(
                w.case_any,
                &[("index", index.to_string()), ("plan", faults.join(", "))],
            ))
        }
    }
}

/// The lesson section a challenge builds on, by its heading's id: its tab and heading.
pub fn section(id: &str) -> Option<(Tab, &'static str)> {
    let gist = &LESSON.gist;
    let found = match id {
        "gist-holding" => (Tab::Gist, gist.holding_heading),
        "gist-heartbeat" => (Tab::Gist, gist.heartbeat.heading),
        "gist-lifecycle" => (Tab::Gist, LESSON.lifecycle.heading),
        "maps-blips" => (Tab::Maps, LESSON.blips.heading),
        "maps-ttl" => (Tab::Maps, LESSON.ttl.heading),
        "maps-unlock" => (Tab::Maps, LESSON.unlock.heading),
        "maps-pattern" => (Tab::Maps, LESSON.pattern.heading),
        _ => {
            let table = id.strip_prefix("maps-")?;
            let table = LESSON.tables.iter().find(|t| t.id == table)?;
            (Tab::Maps, table.heading)
        }
    };
    Some(found)
}
