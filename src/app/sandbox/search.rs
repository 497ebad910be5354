//! The Sandbox's "Find a counterexample" region: seeded random fault plans against the lab's
//! scenario and policy, run off the main thread in Web Workers ([`pool`]), the winner shrunk
//! and told as a story ([`view`]), ready to load into the lab or share.

mod pool;
pub(crate) mod view;

use crate::lesson::sentences;
use std::cell::RefCell;
use yew::prelude::*;

use super::SetupProps;
use crate::lab::search::{default_spec, worker_count, Estimate, WARN_AFTER_SECS};
use crate::lab::LabAction;
use crate::lesson::content::SEARCH;
use crate::model::search::{with_plan, Counterexample, FaultKind, SearchSpec};
use crate::model::Scenario;

/// Where a search stands.
#[derive(Clone, Debug, PartialEq)]
pub enum Phase {
    /// Nothing started yet.
    Idle,
    /// The settings cannot run, and why.
    Problem(String),
    /// The search would take about `secs`; it waits for the learner to start it anyway
    /// (`plans` would take about a minute).
    TooLong { secs: u64, plans: u64 },
    /// Workers are running plans.
    Running {
        tried: u64,
        budget: u64,
        elapsed_ms: f64,
        workers: u32,
    },
    /// A counterexample was found; a worker is shrinking it.
    Shrinking {
        found: Counterexample,
        tried: u64,
        elapsed_ms: f64,
    },
    /// The shrunk counterexample, with what is needed to replay and share it.
    Found(Box<Finding>),
    /// The whole budget ran and no check broke.
    NoneFound { plans: u64, seed: u64 },
    /// The learner cancelled.
    Cancelled { tried: u64, seed: u64 },
    /// A worker failed or could not be believed.
    Failed(&'static str),
}

/// A shrunk counterexample of `base` found by `spec` (`original` before shrinking).
#[derive(Clone, Debug, PartialEq)]
pub struct Finding {
    pub base: Scenario,
    pub spec: SearchSpec,
    pub original: Counterexample,
    pub shrunk: Counterexample,
}

/// The form's values as typed; they are read when Start is pressed.
#[derive(Clone, Debug, PartialEq)]
pub struct Settings {
    pub kinds: Vec<FaultKind>,
    pub max_faults: String,
    pub budget: String,
    pub seed: String,
}

impl Settings {
    pub(crate) fn of(spec: &SearchSpec) -> Settings {
        Settings {
            kinds: spec.kinds.clone(),
            max_faults: spec.max_faults.to_string(),
            budget: spec.budget.to_string(),
            seed: spec.seed.to_string(),
        }
    }

    /// The search these settings ask for, or why they cannot run.
    pub(crate) fn spec(&self) -> Result<SearchSpec, String> {
        use crate::model::search::{MAX_BUDGET, MAX_PLAN_FAULTS};
        let bad = |field: &str| sentences::search::search::BadSettings { why: field }.to_string();
        let mut kinds = self.kinds.clone();
        kinds.sort();
        kinds.dedup();
        if kinds.is_empty() {
            return Err(SEARCH.search.no_kind.to_owned());
        }
        let seed = self
            .seed
            .trim()
            .parse()
            .map_err(|_| bad(SEARCH.search.seed))?;
        let max_faults = self.max_faults.trim().parse().ok();
        let max_faults = max_faults
            .filter(|n| (1..=MAX_PLAN_FAULTS).contains(n))
            .ok_or_else(|| bad(SEARCH.search.max_faults))?;
        let budget = self.budget.trim().parse().ok();
        let budget = budget
            .filter(|n| (1..=MAX_BUDGET).contains(n))
            .ok_or_else(|| bad(SEARCH.search.budget))?;
        Ok(SearchSpec {
            seed,
            kinds,
            max_faults,
            budget,
        })
    }
}

/// The search region as it was left, with the search the page's link carried then.
#[derive(Clone, PartialEq)]
struct Kept {
    link_search: Option<SearchSpec>,
    settings: Settings,
    phase: Phase,
}

thread_local! {
    /// Another tab unmounts the Sandbox; coming back shows the form as it was typed and the
    /// search's result. A link followed since with another search starts afresh.
    static KEPT: RefCell<Option<Kept>> = const { RefCell::new(None) };
}

/// What was kept, unless a link with another search was followed since.
fn kept() -> Option<Kept> {
    let link_search = crate::app::share::initial_search();
    KEPT.with(|kept| kept.borrow().clone())
        .filter(|kept| kept.link_search == link_search)
}

/// The form as it was left, else the search the link carried, else the usual one with a
/// fresh seed to show.
fn initial_settings() -> Settings {
    if let Some(kept) = kept() {
        return kept.settings;
    }
    let fresh = || default_spec((js_sys::Math::random() * 4_294_967_296.0) as u64);
    Settings::of(&crate::app::share::initial_search().unwrap_or_else(fresh))
}

/// The result as it was left; a search still going then was stopped by the tab's change.
fn initial_phase() -> Phase {
    match kept().map(|kept| kept.phase) {
        Some(Phase::Running { tried, .. } | Phase::Shrinking { tried, .. }) => cancelled(tried),
        Some(phase) => phase,
        None => Phase::Idle,
    }
}

/// A search stopped after `tried` plans, with the seed the page's link records for it.
fn cancelled(tried: u64) -> Phase {
    let seed = crate::app::share::initial_search().map_or(0, |s| s.seed);
    Phase::Cancelled { tried, seed }
}

fn workers_available() -> bool {
    js_sys::Reflect::has(&gloo::utils::window(), &"Worker".into()).unwrap_or(false)
}

/// A search's phase, and the callbacks that start it (from settings; `true` to start one
/// estimated to take long) and cancel it.
struct Search {
    phase: UseStateHandle<Phase>,
    start: Callback<(Settings, bool)>,
    cancel: Callback<()>,
}

#[hook]
fn use_search(lab: &UseReducerHandle<super::LabStore>) -> Search {
    let phase = use_state(initial_phase);
    let pool = use_mut_ref(|| None::<pool::Pool>);
    {
        let pool = pool.clone();
        use_effect_with((), move |_| move || drop(pool.borrow_mut().take()));
    }
    let start = {
        let (phase, pool, lab) = (phase.clone(), pool.clone(), lab.clone());
        Callback::from(move |(settings, anyway): (Settings, bool)| {
            drop(pool.borrow_mut().take());
            let spec = match settings.spec() {
                Ok(spec) => spec,
                Err(why) => return phase.set(Phase::Problem(why)),
            };
            let cores = gloo::utils::window().navigator().hardware_concurrency() as u32;
            let workers = worker_count(cores);
            let base = lab.0.scenario();
            if !anyway {
                let estimate = Estimate::of(base, spec.max_faults, workers);
                let secs = estimate.secs(spec.budget);
                if secs > WARN_AFTER_SECS {
                    let plans = estimate.plans_within(60);
                    return phase.set(Phase::TooLong { secs, plans });
                }
            }
            crate::app::share::record_search(spec.clone());
            let budget = spec.budget;
            let report = phase.setter();
            let report = Callback::from(move |next| report.set(next));
            match pool::Pool::start(lab.0.scenario().clone(), spec, workers, report) {
                Ok(started) => {
                    *pool.borrow_mut() = Some(started);
                    phase.set(Phase::Running {
                        tried: 0,
                        budget,
                        elapsed_ms: 0.0,
                        workers,
                    });
                }
                Err(()) => phase.set(Phase::Failed(SEARCH.search.worker_start)),
            }
        })
    };
    let cancel = {
        let (phase, pool) = (phase.clone(), pool.clone());
        Callback::from(move |()| {
            drop(pool.borrow_mut().take());
            if let Phase::Running { tried, .. } | Phase::Shrinking { tried, .. } = *phase {
                phase.set(cancelled(tried));
            }
        })
    };
    Search {
        phase,
        start,
        cancel,
    }
}

/// The "Find a counterexample" region.
#[component]
pub fn SearchPanel(props: &SetupProps) -> Html {
    let settings = use_state(initial_settings);
    let search = use_search(&props.lab);
    let on_start = {
        let (settings, start) = (settings.clone(), search.start.clone());
        Callback::from(move |anyway: bool| start.emit(((*settings).clone(), anyway)))
    };
    let on_load = {
        let lab = props.lab.clone();
        Callback::from(move |(base, shrunk): (Scenario, Counterexample)| {
            let at = shrunk.at;
            lab.dispatch(LabAction::SetScenario(with_plan(&base, shrunk.plan)));
            lab.dispatch(LabAction::Seek(at));
        })
    };
    let on_change = {
        let settings = settings.clone();
        Callback::from(move |next| settings.set(next))
    };
    let phase = (*search.phase).clone();
    let now = Kept {
        link_search: crate::app::share::initial_search(),
        settings: (*settings).clone(),
        phase: phase.clone(),
    };
    use_effect_with(now, |now| KEPT.set(Some(now.clone())));
    let busy = matches!(phase, Phase::Running { .. } | Phase::Shrinking { .. });
    html! {
        <section class="card search-panel" aria-labelledby="search-title">
            <h4 id="search-title">{SEARCH.search.heading}</h4>
            <p>{SEARCH.search.intro}</p>
            <p class="muted small">{SEARCH.search.caveat}</p>
            if workers_available() {
                <view::SearchForm settings={(*settings).clone()} {on_change}
                    on_start={on_start.reform(|()| false)} {busy} />
                <view::SearchProgress phase={phase.clone()} on_cancel={search.cancel.clone()} />
                <view::SearchResult {phase} {on_load} on_start_anyway={on_start.reform(|()| true)} />
            } else {
                <p class="status-warn" role="status">{SEARCH.search.unavailable}</p>
            }
        </section>
    }
}
