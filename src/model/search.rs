//! The counterexample search: seeded random fault plans run through the trace-less checked
//! path until one breaks a check, and a shrinker that reduces that plan to a minimal one
//! breaking the same check. Pure and deterministic; never reads a clock or the DOM.
//!
//! A search is a bounded random search, not a proof: "no counterexample in N plans" says
//! only that those N plans broke nothing.
//!
//! Plan `i` of a search is drawn from [`plan_seed`]`(seed, i)` alone, so any range of indices
//! can run anywhere (a worker takes blocks) and the first failing index, and the plan at it,
//! are the same however the index space was split.

use super::check::{BrokenCheck, CheckId};
use super::faults::{Fault, FaultPlan, TimedFault};
use super::ids::{ClientId, NodeId};
use super::rng::SimRng;
use super::scenario::{limits, Scenario};
use super::time::{SimDuration, SimTime};
use super::Simulation;
use prefix::SharedPrefix;
use serde::{Deserialize, Serialize};

/// The kinds of fault a search may draw: the model's one list of them.
pub use super::faults::FaultKind;

/// Most faults a search plan may hold.
pub const MAX_PLAN_FAULTS: u8 = 16;
/// Most plans one search may try.
pub const MAX_BUDGET: u64 = 10_000_000;
/// The largest clock drift a search draws, in parts per million (a bad crystal).
const SEARCH_DRIFT_PPM: u64 = 1_000;

/// What a search may do: its seed, the fault kinds allowed, at most how many faults per
/// plan, and how many plans to try.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct SearchSpec {
    /// The search's one seed, shown to the learner.
    pub seed: u64,
    /// The kinds plans may draw from (sorted, no repeats, not empty).
    pub kinds: Vec<FaultKind>,
    /// At most this many faults per plan (1 ..= [`MAX_PLAN_FAULTS`]).
    pub max_faults: u8,
    /// How many plans to try (1 ..= [`MAX_BUDGET`]).
    pub budget: u64,
}

impl SearchSpec {
    /// True if the spec can be searched: some kind, a sane fault count and budget. Specs come
    /// from links and worker messages, so this is checked before any search.
    pub fn is_valid(&self) -> bool {
        !self.kinds.is_empty()
            && self.kinds.windows(2).all(|w| w[0] < w[1])
            && (1..=MAX_PLAN_FAULTS).contains(&self.max_faults)
            && (1..=MAX_BUDGET).contains(&self.budget)
    }
}

/// The first broken check of a scenario and when it broke, from the trace-less checked path.
/// The one place the search asks the model for a verdict.
pub fn first_broken(scenario: &Scenario) -> Option<(CheckId, SimTime)> {
    Simulation::verdict(scenario)
        .first_broken
        .map(|broken| (broken.check, broken.at))
}

/// The seed of plan `index` of the search seeded `search_seed`: SplitMix64's output at
/// position `index`, so every index has its own independent stream.
pub fn plan_seed(search_seed: u64, index: u64) -> u64 {
    SimRng::new(search_seed.wrapping_add(index.wrapping_mul(0x9E37_79B9_7F4A_7C15))).next_u64()
}

/// A random length in whole milliseconds between 1 ms and `max`.
fn length(rng: &mut SimRng, max: SimDuration) -> SimDuration {
    SimDuration::from_millis(rng.between(1, max.as_millis().max(1)))
}

/// The lock service or the storage, each half the time.
fn far_end(rng: &mut SimRng) -> NodeId {
    if rng.up_to(1) == 0 {
        NodeId::Service
    } else {
        NodeId::Storage
    }
}

/// One fault of `kind` for `base`: lengths up to twice the TTL, clients and nodes uniform.
fn random_fault(rng: &mut SimRng, base: &Scenario, kind: FaultKind) -> Fault {
    let longest = base.ttl.mul_ratio(2, 1).min(limits::MAX_INTERVAL);
    let client = ClientId(rng.up_to(u64::from(base.clients.max(1)) - 1) as u8);
    let node = if rng.up_to(2) == 0 {
        NodeId::Service
    } else {
        NodeId::Client(client)
    };
    match kind {
        FaultKind::Pause | FaultKind::PauseInWritePath => Fault::Pause {
            client,
            duration: length(rng, longest),
            in_write_path: kind == FaultKind::PauseInWritePath,
        },
        FaultKind::Partition => Fault::Partition {
            a: NodeId::Client(client),
            b: far_end(rng),
            duration: length(rng, longest),
        },
        FaultKind::DelayNextPacket => Fault::DelayNextPacket {
            from: NodeId::Client(client),
            to: far_end(rng),
            extra: length(rng, longest),
        },
        FaultKind::ClockStep => {
            let by = length(rng, longest).as_micros() as i64;
            Fault::ClockStep {
                node,
                by_micros: if rng.up_to(1) == 0 { by } else { -by },
            }
        }
        FaultKind::ClockDrift => Fault::ClockDrift {
            node,
            ppm: rng.between(0, 2 * SEARCH_DRIFT_PPM) as i32 - SEARCH_DRIFT_PPM as i32,
        },
        FaultKind::Crash => Fault::Crash { client },
        FaultKind::RevokeLease => Fault::RevokeLease,
    }
}

/// Plan `index` of the search `spec` over `base`, written into `out` (cleared first): one to
/// `max_faults` faults of the allowed kinds at whole milliseconds of the run, in time order.
pub fn random_plan_into(base: &Scenario, spec: &SearchSpec, index: u64, out: &mut Vec<TimedFault>) {
    out.clear();
    if spec.kinds.is_empty() {
        return;
    }
    let mut rng = SimRng::new(plan_seed(spec.seed, index));
    let count = rng.between(1, u64::from(spec.max_faults.max(1)));
    let last_ms = base.duration.as_millis().saturating_sub(1);
    for _ in 0..count {
        let at = SimTime::from_millis(rng.up_to(last_ms));
        let kind = spec.kinds[rng.up_to(spec.kinds.len() as u64 - 1) as usize];
        let fault = random_fault(&mut rng, base, kind);
        out.push(TimedFault { at, fault });
    }
    out.sort_by_key(|f| f.at);
}

/// Plan `index` of the search `spec` over `base`.
pub fn random_plan(base: &Scenario, spec: &SearchSpec, index: u64) -> FaultPlan {
    let mut plan = Vec::new();
    random_plan_into(base, spec, index, &mut plan);
    FaultPlan(plan)
}

/// `base` with its fault plan replaced by `plan`: the search explores fault plans for the
/// base's parameters and policy.
pub fn with_plan(base: &Scenario, plan: FaultPlan) -> Scenario {
    Scenario {
        faults: plan,
        ..base.clone()
    }
}

/// About how many steps a plan of a search over `base` takes: `base`'s fault-free run, stepped
/// to its end when that takes at most `sample` steps, or else for `sample` steps and scaled
/// by the share of the run those covered. Bounded, so a page can ask before a search starts.
pub fn sampled_steps(base: &Scenario, sample: u64) -> u64 {
    let mut world = super::world::World::checked(&with_plan(base, FaultPlan::default()));
    while world.steps() < sample {
        if !world.step() {
            return world.steps();
        }
    }
    let covered = world.now().0.max(1);
    let steps = u128::from(world.steps()) * u128::from(world.end().0) / u128::from(covered);
    u64::try_from(steps).unwrap_or(u64::MAX)
}

/// A plan that broke a check: its index in the search, the plan, the check and when.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Counterexample {
    /// The plan's index in the search.
    pub index: u64,
    /// The faults.
    pub plan: FaultPlan,
    /// The first check it broke.
    pub check: CheckId,
    /// When that check broke.
    pub at: SimTime,
}

/// Blocks of at least this many plans resume each plan from the run they all share.
const SHARED_PREFIX_FROM: u64 = 8;

/// Runs plans `from..to` of the search `spec` over `base` in index order and stops at the
/// first that breaks a check. Returns how many plans ran and the counterexample, if any.
pub fn search_block(
    base: &Scenario,
    spec: &SearchSpec,
    from: u64,
    to: u64,
) -> (u64, Option<Counterexample>) {
    let mut scenario = base.clone();
    // The shared run costs about one plan to build, so a tiny block runs its plans whole.
    let prefix = (to.saturating_sub(from) >= SHARED_PREFIX_FROM).then(|| SharedPrefix::of(base));
    for index in from..to {
        random_plan_into(base, spec, index, &mut scenario.faults.0);
        let verdict = match &prefix {
            Some(prefix) => prefix.verdict(&scenario.faults.0),
            None => Simulation::verdict(&scenario),
        };
        if let Some(BrokenCheck { check, at }) = verdict.first_broken {
            let found = Counterexample {
                index,
                plan: scenario.faults,
                check,
                at,
            };
            return (index - from + 1, Some(found));
        }
    }
    (to.saturating_sub(from), None)
}

/// How many shrink rounds at most; each round that changes nothing ends the shrink earlier.
const SHRINK_ROUNDS: usize = 6;

/// Reduces `found` to a minimal plan that still breaks the same check first: fewest faults,
/// then shortest lengths and smallest clock changes, then earliest times, each rounded to
/// readable steps. Every candidate is re-run; the result depends only on the inputs.
pub fn shrink(base: &Scenario, found: &Counterexample) -> Counterexample {
    shrink_by(base, found, first_broken)
}

/// [`shrink`] with another judge of a scenario's first broken check: how the laboratory
/// shrinks against a learner's own client.
pub fn shrink_by(
    base: &Scenario,
    found: &Counterexample,
    mut first_broken: impl FnMut(&Scenario) -> Option<(CheckId, SimTime)>,
) -> Counterexample {
    let target = found.check;
    let mut best = found.clone();
    let mut attempt = |plan: &[TimedFault]| -> Option<SimTime> {
        let mut plan = plan.to_vec();
        plan.sort_by_key(|f| f.at);
        match first_broken(&with_plan(base, FaultPlan(plan))) {
            Some((check, at)) if check == target => Some(at),
            _ => None,
        }
    };
    for _ in 0..SHRINK_ROUNDS {
        let before = best.plan.clone();
        drop_faults(&mut best, &mut attempt);
        for i in 0..best.plan.0.len() {
            shrink_amount(&mut best, i, &mut attempt);
        }
        for i in 0..best.plan.0.len() {
            shrink_time(&mut best, i, &mut attempt);
        }
        best.plan.0.sort_by_key(|f| f.at);
        if best.plan == before {
            break;
        }
    }
    best
}

/// Removes every fault whose removal still breaks the target check, first to last, down to
/// none: a base that breaks the check by itself shrinks to the empty plan, so no fault (and
/// no node it names) is blamed for it.
fn drop_faults(
    best: &mut Counterexample,
    attempt: &mut impl FnMut(&[TimedFault]) -> Option<SimTime>,
) {
    let mut i = 0;
    while i < best.plan.0.len() {
        let mut fewer = best.plan.0.clone();
        fewer.remove(i);
        match attempt(&fewer) {
            Some(at) => {
                best.plan.0 = fewer;
                best.at = at;
            }
            None => i += 1,
        }
    }
}

/// The size of a fault that shrinking makes smaller: its length, the size of its clock step
/// (µs) or of its drift (ppm). `None` for faults without one.
fn amount(fault: &Fault) -> Option<u64> {
    match *fault {
        Fault::Pause { duration, .. } => Some(duration.as_micros()),
        Fault::Partition { duration, .. } => Some(duration.as_micros()),
        Fault::DelayNextPacket { extra, .. } => Some(extra.as_micros()),
        Fault::ClockStep { by_micros, .. } => Some(by_micros.unsigned_abs()),
        Fault::ClockDrift { ppm, .. } => Some(u64::from(ppm.unsigned_abs())),
        Fault::Crash { .. } | Fault::RevokeLease => None,
    }
}

/// `fault` with its amount set to `to` (the sign of a step or drift kept).
fn with_amount(fault: Fault, to: u64) -> Fault {
    let sign = |negative: bool, v: u64| if negative { -(v as i64) } else { v as i64 };
    match fault {
        Fault::Pause {
            client,
            in_write_path,
            ..
        } => Fault::Pause {
            client,
            duration: SimDuration(to),
            in_write_path,
        },
        Fault::Partition { a, b, .. } => Fault::Partition {
            a,
            b,
            duration: SimDuration(to),
        },
        Fault::DelayNextPacket { from, to: dest, .. } => Fault::DelayNextPacket {
            from,
            to: dest,
            extra: SimDuration(to),
        },
        Fault::ClockStep { node, by_micros } => Fault::ClockStep {
            node,
            by_micros: sign(by_micros < 0, to),
        },
        Fault::ClockDrift { node, ppm } => Fault::ClockDrift {
            node,
            ppm: sign(ppm < 0, to) as i32,
        },
        other => other,
    }
}

fn shrink_amount(
    best: &mut Counterexample,
    i: usize,
    attempt: &mut impl FnMut(&[TimedFault]) -> Option<SimTime>,
) {
    let fault = best.plan.0[i].fault;
    let Some(current) = amount(&fault) else {
        return;
    };
    let finest = if matches!(fault, Fault::ClockDrift { .. }) {
        1
    } else {
        10_000
    };
    let mut plan = best.plan.0.clone();
    let smallest = smallest_failing(current, finest, |v| {
        plan[i].fault = with_amount(fault, v);
        attempt(&plan)
    });
    if let Some((v, at)) = smallest {
        best.plan.0[i].fault = with_amount(fault, v);
        best.at = at;
    }
}

fn shrink_time(
    best: &mut Counterexample,
    i: usize,
    attempt: &mut impl FnMut(&[TimedFault]) -> Option<SimTime>,
) {
    let mut plan = best.plan.0.clone();
    let current = plan[i].at.as_micros();
    let earliest = smallest_failing(current, 10_000, |v| {
        plan[i].at = SimTime(v);
        attempt(&plan)
    });
    if let Some((v, at)) = earliest {
        best.plan.0[i].at = SimTime(v);
        best.at = at;
    }
}

/// The smallest readable value below `current` for which `fails` holds, searched from coarse
/// steps to fine: the multiples of the largest power of ten up to `current`, then of each
/// tenth of it between the last miss and the hit, down to three significant digits and never
/// finer than `finest`. Zero is tried first. `None` if no candidate below `current` fails.
fn smallest_failing(
    current: u64,
    finest: u64,
    mut fails: impl FnMut(u64) -> Option<SimTime>,
) -> Option<(u64, SimTime)> {
    if current == 0 {
        return None;
    }
    if let Some(at) = fails(0) {
        return Some((0, at));
    }
    let mut step = 1u64;
    while step <= current / 10 {
        step *= 10;
    }
    let floor = (step / 100).max(finest);
    let mut found: Option<(u64, SimTime)> = None;
    let mut lower = 0u64;
    while step >= floor.max(1) {
        let upper = found.map_or(current, |(v, _)| v);
        let mut candidate = lower + step;
        while candidate < upper {
            if let Some(at) = fails(candidate) {
                found = Some((candidate, at));
                break;
            }
            lower = candidate;
            candidate += step;
        }
        if step == 1 {
            break;
        }
        step /= 10;
    }
    found
}

mod prefix;
#[cfg(test)]
mod tests;
