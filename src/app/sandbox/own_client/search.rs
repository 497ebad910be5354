//! "Attack your client": the counterexample search against the learner's code, run plan
//! after plan in the sandbox, and its outcome: the shrunk plan's story and run (re-checked
//! here: a counterexample that does not break its check on the page is not shown), "no
//! counterexample in N plans (seed S)", or the plan under which the code itself stopped.

use std::rc::Rc;

use yew::prelude::*;

use super::run::ClientRun;
use crate::app::sandbox::search::view::SearchForm;
use crate::app::sandbox::search::Settings;
use crate::app::snippets::{SnippetLanguage, Task};
use crate::lab::describe;
use crate::lab::own_client::runner::default_search;
use crate::lab::own_client::{own_scenario, OwnSearch, RunReport};
use crate::lesson::content::SANDBOX;
use crate::lesson::sentences;
use crate::model::search::{random_plan, with_plan, SearchSpec};
use crate::model::{CheckStatus, FaultPlan, RunQuestions, Scenario, SimTime};

#[derive(Properties, PartialEq)]
pub struct ClientSearchProps {
    /// A run or search is going.
    pub busy: bool,
    /// The one going is a search.
    pub searching: bool,
    /// Plans it has tried.
    pub ran: u64,
    /// The last search was going when the Sandbox tab closed, and was stopped then.
    pub stopped_on_leaving: bool,
    pub on_start: Callback<SearchSpec>,
    /// Stops the search going.
    pub on_stop: Callback<()>,
}

/// The search form against the learner's client, and its progress.
#[component]
pub fn ClientSearch(props: &ClientSearchProps) -> Html {
    let settings = use_state(|| Settings::of(&default_search()));
    let problem = use_state(|| None::<String>);
    let budget = (*settings).spec().map_or(0, |s| s.budget);
    let on_change = {
        let settings = settings.clone();
        Callback::from(move |next| settings.set(next))
    };
    let on_start = {
        let (settings, problem, start) =
            (settings.clone(), problem.clone(), props.on_start.clone());
        Callback::from(move |()| match settings.spec() {
            Ok(spec) => {
                problem.set(None);
                start.emit(spec)
            }
            Err(why) => problem.set(Some(why)),
        })
    };
    let stop = use_stop_focus(props.searching);
    let on_stop = props.on_stop.reform(|_: MouseEvent| ());
    let words = &SANDBOX.own_client;
    html! {
        <section class="search own-client-search" aria-labelledby="own-client-search-title">
            <h5 id="own-client-search-title">{words.search_heading}</h5>
            <p class="muted">{words.search_intro}</p>
            <SearchForm settings={(*settings).clone()} {on_change} {on_start} busy={props.busy} />
            if let Some(why) = &*problem {
                <p class="search-outcome" role="status">{why.clone()}</p>
            }
            if props.stopped_on_leaving {
                <p class="search-outcome" role="status">{SANDBOX.snippets.stopped_on_leaving}</p>
            }
            if props.searching {
                <div class="search-progress">
                    <progress aria-label={crate::lesson::content::SEARCH.search.progress}
                        max={budget.to_string()} value={props.ran.to_string()} />
                    <p aria-live="polite">{sentences::sandbox::own_client::Searching { ran: props.ran, budget }.to_string()}</p>
                    <button type="button" class="button" ref={stop} onclick={on_stop}>{words.search_stop}</button>
                </div>
            }
        </section>
    }
}

/// The Stop button's ref: focus moves there when a search starts from the keyboard, as it
/// does to a run's Stop, rather than to the form's first box.
#[hook]
fn use_stop_focus(searching: bool) -> NodeRef {
    let stop = use_node_ref();
    {
        let stop = stop.clone();
        use_effect_with(searching, move |&searching| {
            let document = gloo::utils::document();
            // Focus on the page's body, on a control the search disabled, or anywhere in
            // the search's own form (its Start, even before it reads as disabled).
            let focus_left = document.active_element().is_none_or(|active| {
                document.body().is_some_and(|body| *body == active)
                    || active.has_attribute("disabled")
                    || active
                        .closest(".own-client-search .search-form")
                        .ok()
                        .flatten()
                        .is_some()
            });
            if searching && focus_left {
                if let Some(stop) = stop.cast::<web_sys::HtmlElement>() {
                    let _ = stop.focus();
                }
            }
        });
    }
    stop
}

#[derive(Properties, PartialEq)]
pub struct HungPlanProps {
    /// The search's task.
    pub task: Task,
    /// Its last progress: plan `ran - 1` was running…
    pub ran: u64,
    /// …or a smaller plan made of it, to shrink it.
    pub shrinking: bool,
}

/// The plan a search was at when the time limit stopped it, so the learner can meet the
/// hang in a single run. The sandbox only says which plan; the page draws it again.
#[component]
pub fn HungPlan(props: &HungPlanProps) -> Html {
    let Some(spec) = props.task.search.as_ref() else {
        return Html::default();
    };
    if !(1..=spec.budget).contains(&props.ran) {
        return Html::default();
    }
    let base = own_scenario(&props.task.scenario);
    let plan = random_plan(&base, spec, props.ran - 1);
    let (plan_number, budget) = (props.ran, spec.budget);
    let said = if props.shrinking {
        sentences::sandbox::own_client::SearchHungShrinking {
            plan: plan_number,
            budget,
        }
        .to_string()
    } else {
        sentences::sandbox::own_client::SearchHung {
            plan: plan_number,
            budget,
        }
        .to_string()
    };
    html! {
        <div class="search-found">
            <p class="search-outcome" role="status">{said}</p>
            {fault_list(&plan)}
            <p class="muted">{SANDBOX.own_client.search_hung_next}</p>
            {load_button(with_plan(&base, plan.clone()), SimTime::ZERO)}
        </div>
    }
}

/// A plan's faults, one line each.
fn fault_list(plan: &FaultPlan) -> Html {
    html! {
        <ul class="search-story">
            { for plan.0.iter().map(|f| html! { <li>{describe::fault_at(&f.fault, f.at)}</li> }) }
        </ul>
    }
}

/// "Load this plan into the lab": the laboratory shows `scenario` at `at`.
fn load_button(scenario: Scenario, at: SimTime) -> Html {
    let onclick =
        Callback::from(move |_: MouseEvent| crate::app::sandbox::go_to(scenario.clone(), at));
    html! { <button type="button" class="button" {onclick}>{SANDBOX.own_client.load}</button> }
}

#[derive(Properties, PartialEq)]
pub struct SearchOutcomeProps {
    /// The scenario the plans replaced the faults of.
    pub base: Scenario,
    pub outcome: OwnSearch,
    pub run: Option<Rc<RunReport>>,
    pub task: Task,
    pub language: SnippetLanguage,
}

/// How the search ended, re-checked on the page.
#[component]
pub fn SearchOutcome(props: &SearchOutcomeProps) -> Html {
    let sentence = |text: String| html! { <p class="search-outcome" role="status">{text}</p> };
    let Some(spec) = props.task.search.clone() else {
        return Html::default();
    };
    let plan_run = |plan: crate::model::FaultPlan| match &props.run {
        Some(run) => html! {
            <ClientRun scenario={with_plan(&props.base, plan)} run={run.clone()}
                task={props.task.clone()} language={props.language} />
        },
        None => html! { <p class="status-warn" role="alert">{SANDBOX.own_client.unreadable}</p> },
    };
    match &props.outcome {
        OwnSearch::Held { ran } => sentence(
            sentences::search::search::None {
                plans: ran,
                seed: spec.seed,
            }
            .to_string(),
        ),
        OwnSearch::Stopped { index, plan, .. } => html! {
            <div class="search-found">
                {sentence(sentences::sandbox::own_client::SearchStopped { plan: index + 1 }.to_string())}
                {fault_list(plan)}
                {load_button(with_plan(&props.base, plan.clone()), SimTime::ZERO)}
                {plan_run(plan.clone())}
            </div>
        },
        OwnSearch::Broke { first, found, .. } => {
            let scenario = with_plan(&props.base, found.plan.clone());
            let holds = props
                .run
                .as_ref()
                .and_then(|run| run.replay(&scenario))
                .is_some_and(|run| matches!(run.check(found.check), CheckStatus::Broken { .. }));
            if !holds {
                return sentence(SANDBOX.own_client.search_forged.to_owned());
            }
            let run = props.run.as_ref().and_then(|r| r.replay(&scenario));
            let story = run
                .map(|run| crate::lab::story::story(&run, found.check))
                .unwrap_or_default();
            let summary = sentences::search::search::Found {
                plan: &(first.index + 1).to_string(),
                seed: spec.seed,
                before: first.plan.0.len(),
                after: found.plan.0.len(),
            }
            .to_string();
            html! {
                <div class="search-found">
                    {sentence(summary)}
                    <h6>{crate::lesson::content::SEARCH.story.heading}</h6>
                    <ol class="search-story">{ for story.into_iter().map(|line| html! { <li>{line}</li> }) }</ol>
                    {load_button(scenario.clone(), found.at)}
                    {plan_run(found.plan.clone())}
                </div>
            }
        }
    }
}
