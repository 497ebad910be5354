//! Grading a try: the one place the challenges run the model. Each trial turns the try into
//! the scenarios it stands for (the try itself, a sweep of a fault's start, or every plan of
//! a seeded counterexample search), runs each through the model's checked path, and reads
//! the independent observer's checks and metrics. The first run that misses a condition is
//! run again with its trace, to say when it failed. Pure and deterministic: the same try
//! gives the same verdict and trace hash natively and in the page.

use super::spec::{Condition, Over, Spec, Trial, SWEEP_STARTS};
use crate::model::presets::pitfall_window_start;
use crate::model::search::{random_plan, with_plan};
use crate::model::{
    CheckStatus, Fault, FaultPlan, Outcome, Run, RunQuestions, RunStore, Scenario, ScenarioError,
    SimDuration, SimTime, Simulation,
};

/// What the model said of a try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Verdict {
    /// The first condition missed, or `None` when the try meets the whole goal.
    pub failure: Option<Failure>,
    /// The trace hash of the run the verdict is about: the failing one, or the try itself.
    pub trace_hash: u64,
    /// How many runs were checked.
    pub runs: u32,
}

impl Verdict {
    /// True when every condition of every trial held.
    pub fn solved(&self) -> bool {
        self.failure.is_none()
    }
}

/// The first condition a try missed: which, in which run, when, and what was measured.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Failure {
    /// The trial's index in the goal.
    pub trial: usize,
    /// The condition missed.
    pub condition: Condition,
    /// When it failed: when the check broke or the metric passed its bound, else the end.
    pub at: SimTime,
    /// What the run showed.
    pub measured: Measured,
    /// Which run of the trial it was.
    pub case: Case,
    /// That run's scenario, for the laboratory's "Go to".
    pub scenario: Scenario,
}

/// What a failing run showed for the condition.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Measured {
    /// The check broke.
    Broken,
    /// The check held to the end.
    Held,
    /// The metric's value when it first passed its bound (`at`), and at the end of the run
    /// (`whole`), which is what the condition is graded on.
    Value { at: u64, whole: u64 },
    /// No failover happened, so a bound on it failed.
    NoFailover,
}

/// Which run of a trial.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Case {
    /// The try itself.
    Run,
    /// The swept fault starting this far into the renew period.
    Sweep { fault: Fault, offset: SimDuration },
    /// This plan of the search.
    Any { index: u64, plan: FaultPlan },
}

/// Grades `attempt` against `spec`'s goal, trial by trial, stopping at the first miss. A run
/// of a trial that cannot be simulated (a swept fault past the end, say) refuses the try.
pub fn grade(spec: &Spec, attempt: &Scenario) -> Result<Verdict, ScenarioError> {
    attempt.validate()?;
    let mut runs = 0;
    for (index, trial) in spec.trials.iter().enumerate() {
        for (case, scenario) in cases(trial, attempt) {
            runs += 1;
            scenario.validate()?;
            let outcome = Simulation::check(&scenario);
            if let Some(&condition) = trial.goal.iter().find(|c| !meets(&outcome, **c)) {
                let run = Simulation::run(&scenario);
                let (at, measured) = when_missed(&run, condition);
                return Ok(Verdict {
                    trace_hash: run.trace_hash(),
                    runs,
                    failure: Some(Failure {
                        trial: index,
                        condition,
                        at,
                        measured,
                        case,
                        scenario,
                    }),
                });
            }
        }
    }
    Ok(Verdict {
        failure: None,
        trace_hash: Simulation::run(attempt).trace_hash(),
        runs,
    })
}

/// The runs a trial stands for, each with the scenario it runs.
fn cases(trial: &Trial, attempt: &Scenario) -> Vec<(Case, Scenario)> {
    match &trial.over {
        Over::Run(added) => {
            let mut scenario = attempt.clone();
            scenario.faults.0.extend(added.iter().copied());
            scenario.faults.0.sort_by_key(|f| f.at);
            vec![(Case::Run, scenario)]
        }
        Over::Sweep(fault) => {
            let period = attempt.renew_interval();
            let window = pitfall_window_start(period);
            (0..u64::from(SWEEP_STARTS))
                .map(|k| {
                    let offset = period.mul_ratio(k, u64::from(SWEEP_STARTS));
                    let mut scenario = attempt.clone();
                    scenario.faults = scenario.faults.with(window + offset, *fault);
                    scenario.faults.0.sort_by_key(|f| f.at);
                    let case = Case::Sweep {
                        fault: *fault,
                        offset,
                    };
                    (case, scenario)
                })
                .collect()
        }
        Over::Any(search) => (0..search.budget)
            .map(|index| {
                let plan = random_plan(attempt, search, index);
                let scenario = with_plan(attempt, plan.clone());
                (Case::Any { index, plan }, scenario)
            })
            .collect(),
    }
}

/// Whether a run's checks and metrics meet `condition`.
fn meets(outcome: &Outcome, condition: Condition) -> bool {
    match condition {
        Condition::Holds(check) => !outcome.status(check).is_broken(),
        Condition::Broken(check) => outcome.status(check).is_broken(),
        Condition::AtMost(metric, bound) => metric
            .read(&outcome.metrics)
            .is_some_and(|value| value <= bound),
    }
}

/// When a run missed `condition`, and what it showed.
fn when_missed(run: &Run, condition: Condition) -> (SimTime, Measured) {
    match condition {
        Condition::Holds(check) => match run.check(check) {
            CheckStatus::Broken { first, .. } => (first.at, Measured::Broken),
            _ => (run.end(), Measured::Held),
        },
        Condition::Broken(_) => (run.end(), Measured::Held),
        Condition::AtMost(metric, bound) => match metric.read(run.metrics()) {
            None => (run.end(), Measured::NoFailover),
            Some(whole) => {
                let events = run.events();
                let over = |t: SimTime| metric.read(&run.metrics_at(t)).is_some_and(|v| v > bound);
                let first = events.partition_point(|e| !over(e.at));
                let at = events.get(first).map_or(run.end(), |e| e.at);
                let then = metric.read(&run.metrics_at(at)).unwrap_or(whole);
                (at, Measured::Value { at: then, whole })
            }
        },
    }
}
