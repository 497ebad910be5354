//! The challenges' sentences: goals, verdicts and the lesson section each one builds on, in
//! the words of `content/challenges.toml`, `content/checks.toml` and `content/lesson.toml`.

use super::grade::{Case, Failure, Measured};
use super::spec::{Condition, Over, Trial};
use crate::lab::describe;
use crate::lesson::content::{CHALLENGES, SANDBOX};
use crate::lesson::sentences;
use crate::lesson::LESSON;
use crate::model::faults::text::print_fault;
use crate::route::Tab;

/// A condition as a sentence: "“Accepted writes are ordered by fencing token” holds".
pub fn condition(c: Condition) -> String {
    match c {
        Condition::Holds(_) => {
            sentences::challenges::words::ConditionHolds { check: c.subject() }.to_string()
        }
        Condition::Broken(_) => {
            sentences::challenges::words::ConditionBroken { check: c.subject() }.to_string()
        }
        Condition::AtMost(metric, bound) => sentences::challenges::words::ConditionAtMost {
            metric: metric.label(),
            value: metric.print(bound),
        }
        .to_string(),
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
            sentences::challenges::words::OverRunWith {
                faults: faults.join(", "),
            }
            .to_string()
        }
        Over::Sweep(fault) => sentences::challenges::words::OverSweep {
            fault: describe::fault(fault),
            starts: super::spec::SWEEP_STARTS,
        }
        .to_string(),
        Over::Any(search) => {
            let kinds: Vec<&str> = search
                .kinds
                .iter()
                .map(|k| SANDBOX.fault(k.keyword()).label)
                .collect();
            sentences::challenges::words::OverAny {
                seed: search.seed,
                plans: search.budget,
                max: search.max_faults,
                kinds: kinds.join(", "),
            }
            .to_string()
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
        Measured::Value { at, whole } => match failure.condition {
            Condition::AtMost(metric, _) => sentences::challenges::words::MeasuredValue {
                metric: metric.label(),
                value: metric.print(at),
                whole: metric.print(whole),
            }
            .to_string(),
            _ => at.to_string(),
        },
    };
    sentences::challenges::words::Failed {
        condition: condition(failure.condition),
        measured,
        at: failure.at,
    }
    .to_string()
}

/// Which run of its trial failed, when the trial has more than one.
pub fn case(case: &Case) -> Option<String> {
    match case {
        Case::Run => None,
        Case::Sweep { fault, offset } => Some(
            sentences::challenges::words::CaseSweep {
                fault: describe::fault(fault),
                offset,
            }
            .to_string(),
        ),
        Case::Any { index, plan } => {
            let faults: Vec<String> = plan.0.iter().map(print_fault).collect();
            Some(
                sentences::challenges::words::CaseAny {
                    index,
                    plan: faults.join(", "),
                }
                .to_string(),
            )
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
