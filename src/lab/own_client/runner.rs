//! Running a learner's client in the deterministic world: one run with its whole trace (for
//! the views, which re-check it), or the counterexample search against it. Every client of
//! the scenario gets a fresh instance of the learner's code from `make`. A run ends early
//! when a client's code throws or asks for what the lab refuses, or when the clients spin
//! (too many steps at one instant, or in all).

use super::machine::{ClientStop, Handlers, OwnClient};
use crate::model::check::{Checkers, Judging, Records};
use crate::model::search::{random_plan_into, shrink_by, Counterexample, SearchSpec};
use crate::model::{
    CheckId, ClientConfig, ClientId, Event, FaultPlan, Output, Policy, Scenario, SimTime, World,
};

/// Most steps at one instant before the run is taken to spin (timers re-armed at zero).
pub const MAX_STEPS_AT_ONE_INSTANT: u32 = 10_000;
/// Most steps in one run.
pub const MAX_STEPS: u64 = 2_000_000;

/// Makes a fresh instance of the learner's code for one client.
pub type MakeClient<'a> = dyn FnMut(ClientId, &ClientConfig) -> Box<dyn Handlers> + 'a;

/// A line the learner's code printed.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Printed {
    /// When.
    pub at: SimTime,
    /// Which client printed it.
    pub client: ClientId,
    /// The line.
    pub text: String,
}

/// Why a run ended before the scenario's end.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum RunStop {
    /// A client's code threw, or asked for what the lab refuses.
    Client {
        /// Which client.
        client: ClientId,
        /// When.
        at: SimTime,
        /// Why, and in which handler.
        stop: ClientStop,
    },
    /// More than [`MAX_STEPS_AT_ONE_INSTANT`] steps at `at`.
    Spin {
        /// The instant.
        at: SimTime,
    },
    /// More than [`MAX_STEPS`] steps in all.
    TooManySteps {
        /// Where the run had got.
        at: SimTime,
    },
}

/// A learner's client run to the end of its scenario (or to where it stopped).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OwnRun {
    /// Where the run ended.
    pub end: SimTime,
    /// The whole trace.
    pub events: Vec<Event>,
    /// What the code printed.
    pub printed: Vec<Printed>,
    /// Why it ended early, if it did.
    pub stop: Option<RunStop>,
}

/// The scenario a learner's client runs in: `s` with the built-in client's Alternative
/// switches off (the learner's code is the client's policy; fencing and the service's
/// expiry clock stay as set), so every check applies to it.
pub fn own_scenario(s: &Scenario) -> Scenario {
    Scenario {
        policy: Policy {
            fencing: s.policy.fencing,
            service_expiry: s.policy.service_expiry,
            ..Policy::prefer()
        },
        ..s.clone()
    }
}

/// Whether flipping `switch` changes how the learner's client runs (see [`own_scenario`]):
/// the rest of the policy is the client's own code.
pub fn switch_applies(switch: crate::lab::PolicySwitch) -> bool {
    let base = Scenario::default();
    let mut flipped = base.clone();
    switch.flip(&mut flipped.policy);
    own_scenario(&base) != own_scenario(&flipped)
}

fn world<O: Output>(s: &Scenario, out: O, make: &mut MakeClient<'_>) -> World<O, OwnClient> {
    let clients: Vec<OwnClient> = (0..s.clients)
        .map(|i| {
            let cfg = s.client_config(usize::from(i));
            OwnClient::new(&cfg, make(ClientId(i), &cfg))
        })
        .collect();
    World::with_clients(s, out, clients)
}

/// Steps `world` to its end, handing printed lines to `printed`; stops early as the module
/// says.
fn drive<O: Output>(
    world: &mut World<O, OwnClient>,
    clients: u8,
    mut printed: impl FnMut(Printed),
) -> Option<RunStop> {
    let mut instant = (SimTime::ZERO, 0u32);
    while world.step() {
        let at = world.now();
        instant = if instant.0 == at {
            (at, instant.1 + 1)
        } else {
            (at, 1)
        };
        for client in (0..clients).map(ClientId) {
            for (_, text) in world.client_mut(client).take_output() {
                printed(Printed { at, client, text });
            }
            if let Some(stop) = world.client(client).stopped() {
                let stop = stop.clone();
                return Some(RunStop::Client { client, at, stop });
            }
        }
        if instant.1 > MAX_STEPS_AT_ONE_INSTANT {
            return Some(RunStop::Spin { at });
        }
        if world.steps() > MAX_STEPS {
            return Some(RunStop::TooManySteps { at });
        }
    }
    world.run_to_end();
    None
}

/// Runs the learner's client on every client of `s` (see [`own_scenario`]), keeping the
/// whole trace.
pub fn run(s: &Scenario, make: &mut MakeClient<'_>) -> OwnRun {
    let s = own_scenario(s);
    let mut world = world(&s, Vec::with_capacity(256), make);
    let mut lines = Vec::new();
    let stop = drive(&mut world, s.clients, |p| lines.push(p));
    let end = world.now();
    OwnRun {
        end,
        events: world.output().clone(),
        printed: lines,
        stop,
    }
}

/// What one plan of a search did to the learner's client.
enum Judged {
    Holds,
    Broke(CheckId, SimTime),
    Stopped,
}

fn judge(s: &Scenario, make: &mut MakeClient<'_>) -> Judged {
    let mut world = world(
        s,
        Checkers::judging(s, Records::Skip, Judging::Learner),
        make,
    );
    if drive(&mut world, s.clients, |_| {}).is_some() {
        return Judged::Stopped;
    }
    match world.output().first_broken() {
        Some(broken) => Judged::Broke(broken.check, broken.at),
        None => Judged::Holds,
    }
}

/// How a search against a learner's client ended.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum OwnSearch {
    /// No plan broke a check.
    Held {
        /// Plans tried.
        ran: u64,
    },
    /// A plan broke a check; shrunk to `found`.
    Broke {
        /// Plans tried, the breaking one included.
        ran: u64,
        /// The plan as first found.
        first: Counterexample,
        /// The shrunk plan.
        found: Counterexample,
    },
    /// Under plan `index` the learner's code itself stopped (threw, or was refused).
    Stopped {
        /// Plans tried, that one included.
        ran: u64,
        /// Its index.
        index: u64,
        /// The plan.
        plan: FaultPlan,
    },
}

/// Where a search is, told before each run of the learner's code: so that when the code
/// never returns, the page can name the plan it hung under.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SearchAt {
    /// Plan `ran - 1` is about to run.
    Plan { ran: u64 },
    /// Plan `ran - 1` broke a check, and a smaller plan the shrinker made of it is about to run.
    Shrinking { ran: u64 },
}

/// Searches `spec`'s plans over `base` (see [`own_scenario`]) against the learner's client,
/// telling `progress` where it is before each run, and shrinks the first counterexample as
/// the model's search does.
pub fn search(
    base: &Scenario,
    spec: &SearchSpec,
    make: &mut MakeClient<'_>,
    mut progress: impl FnMut(SearchAt),
) -> OwnSearch {
    let base = own_scenario(base);
    let mut scenario = base.clone();
    for index in 0..spec.budget {
        random_plan_into(&base, spec, index, &mut scenario.faults.0);
        let ran = index + 1;
        progress(SearchAt::Plan { ran });
        match judge(&scenario, make) {
            Judged::Holds => {}
            Judged::Stopped => {
                let plan = scenario.faults;
                return OwnSearch::Stopped { ran, index, plan };
            }
            Judged::Broke(check, at) => {
                let first = Counterexample {
                    index,
                    plan: scenario.faults,
                    check,
                    at,
                };
                let found = shrink_by(&base, &first, |s| {
                    progress(SearchAt::Shrinking { ran });
                    match judge(s, make) {
                        Judged::Broke(check, at) => Some((check, at)),
                        Judged::Holds | Judged::Stopped => None,
                    }
                });
                return OwnSearch::Broke { ran, first, found };
            }
        }
    }
    OwnSearch::Held { ran: spec.budget }
}

/// The search "Your client" offers first: pauses (in and out of the write path) and clock
/// steps, at most two faults, 2,000 plans, seed 1. Against the reference with fencing on it
/// finds nothing; against the starter it finds a counterexample at once.
pub fn default_search() -> SearchSpec {
    use crate::model::search::FaultKind;
    SearchSpec {
        seed: 1,
        kinds: vec![
            FaultKind::Pause,
            FaultKind::PauseInWritePath,
            FaultKind::ClockStep,
        ],
        max_faults: 2,
        budget: 2_000,
    }
}
