//! The counterexample search as the page runs it, apart from any view or worker API: the
//! messages between the page and its search workers, what a worker answers, how the page
//! hands out blocks of plan indices, and how it checks every answer before believing it.
//!
//! Pure and native-tested. The worker binary (`src/bin/search_worker.rs`) and the Sandbox's
//! search panel are thin shells around [`answer`] and [`Schedule`].

use crate::model::search::{
    first_broken, random_plan, sampled_steps, search_block, shrink, with_plan, Counterexample,
    FaultKind, SearchSpec,
};
use crate::model::{CheckId, Scenario, SimTime};
use serde::{Deserialize, Serialize};

/// The search's words that the code composes from `content/search.toml` and the Faults form's.
pub mod words {
    /// A length of time as the search's estimates say it: "3 h 20 min", "4 min 5 s", "12 s".
    pub fn rough_time(secs: u64) -> String {
        use crate::lesson::sentences::search::search::{Hours, Minutes, Seconds};
        let (hours, minutes, seconds) = (secs / 3_600, secs % 3_600 / 60, secs % 60);
        if hours > 0 {
            Hours { hours, minutes }.to_string()
        } else if minutes > 0 {
            Minutes { minutes, seconds }.to_string()
        } else {
            Seconds { seconds }.to_string()
        }
    }

    /// The label of a fault kind's checkbox: the Faults form's words for it.
    pub fn kind_label(kind: crate::model::search::FaultKind) -> &'static str {
        crate::lesson::content::SANDBOX.fault(kind.keyword()).choice
    }
}

/// Most plans in one block: small enough that progress and Cancel feel immediate.
pub const MAX_BLOCK: u64 = 4_096;
/// The first block the page hands out: a plan costs anything from microseconds to a tenth of
/// a second, so the page measures before it hands out more ([`next_block`]).
pub const FIRST_BLOCK: u64 = 4;
/// How long a block should keep a worker busy, so progress shows at least every second.
pub const BLOCK_TARGET_MS: u64 = 250;
/// Simulation steps one search worker checks per second, about, as an [`Estimate`] assumes
/// them before a search has measured its own speed. A quarter of what a worker manages on
/// this project's 2-core machine (about 33 million on the 7-client, 10-ms-slice run), so a
/// slower device's estimate still errs long rather than short.
pub const STEPS_PER_SECOND: u64 = 8_000_000;
/// Steps an [`Estimate`] simulates of the base run, at most (a few milliseconds).
pub const SAMPLE_STEPS: u64 = 20_000;
/// Steps a drawn fault may add to a plan, as an [`Estimate`] counts them.
const STEPS_PER_FAULT: u64 = 64;
/// A search estimated to take longer than this asks before it starts.
pub const WARN_AFTER_SECS: u64 = 180;
/// Most search workers, whatever the machine offers.
pub const MAX_WORKERS: u32 = 4;
/// Plans a search tries unless the learner asks otherwise.
pub const DEFAULT_BUDGET: u64 = 20_000;

/// The size of a worker's next block, after its last one of `plans` took `took_ms`: about
/// [`BLOCK_TARGET_MS`] of work, growing at most fourfold a step, within 1 ..= [`MAX_BLOCK`].
pub fn next_block(plans: u64, took_ms: u64) -> u64 {
    let fit = plans.saturating_mul(BLOCK_TARGET_MS) / took_ms.max(1);
    fit.clamp(1, plans.saturating_mul(4).clamp(1, MAX_BLOCK))
}

/// How long a search should take, told before any plan has run: a fault-free run of the base
/// scenario, sampled for a bounded number of steps, stands for a plan.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Estimate {
    steps_per_plan: u128,
    steps_per_second: u128,
}

impl Estimate {
    /// The estimate for searches over `base` drawing at most `max_faults` faults a plan, on
    /// `workers` workers.
    pub fn of(base: &Scenario, max_faults: u8, workers: u32) -> Estimate {
        let steps = sampled_steps(base, SAMPLE_STEPS) + STEPS_PER_FAULT * u64::from(max_faults);
        Estimate {
            steps_per_plan: u128::from(steps.max(1)),
            steps_per_second: u128::from(STEPS_PER_SECOND) * u128::from(workers.max(1)),
        }
    }

    /// About how many seconds `budget` plans take (rounded up).
    pub fn secs(&self, budget: u64) -> u64 {
        let steps = self.steps_per_plan * u128::from(budget);
        u64::try_from(steps.div_ceil(self.steps_per_second)).unwrap_or(u64::MAX)
    }

    /// About how many plans fit in `secs` (at least one).
    pub fn plans_within(&self, secs: u64) -> u64 {
        let plans = u128::from(secs) * self.steps_per_second / self.steps_per_plan;
        u64::try_from(plans).unwrap_or(u64::MAX).max(1)
    }
}

/// The seconds left once `tried` of `budget` plans took `elapsed_ms`; `None` until the speed
/// is known (a plan done, and half a second measured).
pub fn secs_left(tried: u64, budget: u64, elapsed_ms: u64) -> Option<u64> {
    if tried == 0 || elapsed_ms < 500 {
        return None;
    }
    let left = u128::from(budget.saturating_sub(tried)) * u128::from(elapsed_ms);
    u64::try_from(left.div_ceil(u128::from(tried) * 1_000)).ok()
}

/// The workers to start on a machine reporting `hardware_concurrency` cores (0 if unknown):
/// one per core but one, which the page keeps for playback and input (with a worker on every
/// core, the OS stretched the page's frames past 50 ms), and at least one.
pub fn worker_count(hardware_concurrency: u32) -> u32 {
    hardware_concurrency.saturating_sub(1).clamp(1, MAX_WORKERS)
}

/// The search the learner set up, as a link carries it; the base scenario is the lab's.
pub fn default_spec(seed: u64) -> SearchSpec {
    SearchSpec {
        seed,
        kinds: vec![FaultKind::Pause, FaultKind::PauseInWritePath],
        max_faults: 3,
        budget: DEFAULT_BUDGET,
    }
}

/// What the page asks a worker. Messages use serde's default (externally tagged) enum form,
/// which decodes without buffering: much less code in the page than a `tag` field.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Request {
    /// Run plans `from..to` of `spec` over `base`; stop at the first that breaks a check.
    Search {
        /// The scenario whose faults each plan replaces.
        base: Scenario,
        /// The search.
        spec: SearchSpec,
        /// First plan index.
        from: u64,
        /// One past the last plan index.
        to: u64,
    },
    /// Shrink a counterexample of `base`.
    Shrink {
        /// The scenario whose faults the plan replaces.
        base: Scenario,
        /// The plan to shrink.
        found: Counterexample,
    },
}

/// What a worker answers.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub enum Reply {
    /// The worker has loaded and listens.
    Ready,
    /// Plans `from..to` ran (`tried` of them, up to and including a counterexample).
    Searched {
        /// First plan index of the block.
        from: u64,
        /// One past its last.
        to: u64,
        /// How many ran.
        tried: u64,
        /// The first plan of the block that broke a check.
        found: Option<Counterexample>,
    },
    /// The shrunk counterexample.
    Shrunk {
        /// The minimal plan.
        shrunk: Counterexample,
    },
    /// The request could not be read or made no sense.
    Refused,
}

/// A worker's answer to one request: the whole of what a worker does.
pub fn answer(request: Request) -> Reply {
    match request {
        Request::Search {
            base,
            spec,
            from,
            to,
        } => {
            let block_ok = from < to && to - from <= MAX_BLOCK && to <= spec.budget;
            if !block_ok || !spec.is_valid() || base.validate().is_err() {
                return Reply::Refused;
            }
            let (tried, found) = search_block(&base, &spec, from, to);
            Reply::Searched {
                from,
                to,
                tried,
                found,
            }
        }
        Request::Shrink { base, found } => {
            if base.validate().is_err() || confirmed(&base, &found).is_none() {
                return Reply::Refused;
            }
            Reply::Shrunk {
                shrunk: shrink(&base, &found),
            }
        }
    }
}

/// `found` re-run on `base`: `Some` only if its plan is valid and really breaks `found.check`
/// first, at `found.at`. The page believes no worker without this.
pub fn confirmed(base: &Scenario, found: &Counterexample) -> Option<(CheckId, SimTime)> {
    let scenario = with_plan(base, found.plan.clone());
    scenario.validate().ok()?;
    first_broken(&scenario).filter(|&verdict| verdict == (found.check, found.at))
}

/// Why the page stopped believing a worker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Distrust {
    /// An answer to a block the page never handed out (or handed out already answered).
    UnknownBlock,
    /// A counterexample that is not the plan at its index or does not break what it claims.
    WrongCounterexample,
}

/// How the page hands out blocks of plan indices to any number of workers, and decides the
/// result: the counterexample with the lowest index in `0..budget`, whatever the split.
///
/// Blocks go out in index order. Once a counterexample at index `f` is known, no block
/// starting at or after `f` is handed out, and the search ends when every block handed out
/// has answered; every index below the winner has then run.
#[derive(Clone, Debug, PartialEq)]
pub struct Schedule {
    base: Scenario,
    spec: SearchSpec,
    block: u64,
    next: u64,
    outstanding: Vec<(u64, u64)>,
    tried: u64,
    best: Option<Counterexample>,
}

impl Schedule {
    /// A new search of `spec` over `base`, handed out in blocks of `block` plans (clamped to
    /// 1 ..= [`MAX_BLOCK`]).
    pub fn new(base: Scenario, spec: SearchSpec, block: u64) -> Schedule {
        Schedule {
            base,
            spec,
            block: block.clamp(1, MAX_BLOCK),
            next: 0,
            outstanding: Vec::new(),
            tried: 0,
            best: None,
        }
    }

    /// Hands out blocks of `block` plans from now on (clamped to 1 ..= [`MAX_BLOCK`]); the
    /// result does not depend on the sizes.
    pub fn set_block(&mut self, block: u64) {
        self.block = block.clamp(1, MAX_BLOCK);
    }

    /// The base scenario.
    pub fn base(&self) -> &Scenario {
        &self.base
    }
    /// The search.
    pub fn spec(&self) -> &SearchSpec {
        &self.spec
    }
    /// Plans run so far.
    pub fn tried(&self) -> u64 {
        self.tried
    }
    /// The lowest-index counterexample known so far.
    pub fn best(&self) -> Option<&Counterexample> {
        self.best.as_ref()
    }

    fn limit(&self) -> u64 {
        self.best.as_ref().map_or(self.spec.budget, |b| b.index)
    }

    /// The next request for an idle worker, or `None` if no block is left to hand out.
    pub fn next_request(&mut self) -> Option<Request> {
        let from = self.next;
        if from >= self.limit() {
            return None;
        }
        let to = (from + self.block).min(self.spec.budget);
        self.next = to;
        self.outstanding.push((from, to));
        Some(Request::Search {
            base: self.base.clone(),
            spec: self.spec.clone(),
            from,
            to,
        })
    }

    /// Takes a worker's answer to a block, after checking it against the page's own re-run.
    pub fn record(
        &mut self,
        from: u64,
        to: u64,
        tried: u64,
        found: Option<Counterexample>,
    ) -> Result<(), Distrust> {
        let Some(slot) = self.outstanding.iter().position(|&b| b == (from, to)) else {
            return Err(Distrust::UnknownBlock);
        };
        if let Some(found) = &found {
            let in_block = (from..to).contains(&found.index)
                && tried == found.index - from + 1
                && found.plan == random_plan(&self.base, &self.spec, found.index);
            if !in_block || confirmed(&self.base, found).is_none() {
                return Err(Distrust::WrongCounterexample);
            }
        } else if tried != to - from {
            return Err(Distrust::WrongCounterexample);
        }
        self.outstanding.swap_remove(slot);
        self.tried += tried;
        if let Some(found) = found {
            if self
                .best
                .as_ref()
                .is_none_or(|best| found.index < best.index)
            {
                self.best = Some(found);
            }
        }
        Ok(())
    }

    /// True once every block that matters has answered.
    pub fn is_finished(&self) -> bool {
        self.outstanding.is_empty() && self.next >= self.limit()
    }
}

/// Checks a shrunk counterexample against the one it came from: valid, no more faults, and
/// re-run it breaks the same check first at the time it claims.
pub fn shrunk_holds(base: &Scenario, original: &Counterexample, shrunk: &Counterexample) -> bool {
    shrunk.check == original.check
        && shrunk.plan.0.len() <= original.plan.0.len()
        && confirmed(base, shrunk).is_some()
}

#[cfg(test)]
mod tests;
