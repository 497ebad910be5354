//! The search region's parts: the settings form, the progress bar with Cancel, and the
//! result (the shrunk counterexample's story, "Load into the lab" and its link).

use crate::lesson::sentences;
use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::{Finding, Phase, Settings};
use crate::app::share::{address_of, CopyField};
use crate::lab::search::words::{self, kind_label};
use crate::lesson::content::SEARCH;
use crate::model::search::{with_plan, Counterexample, FaultKind, MAX_PLAN_FAULTS};
use crate::model::{Scenario, Simulation};
use crate::share::search::counterexample_link;

#[derive(Properties, PartialEq)]
pub struct FormProps {
    pub settings: Settings,
    pub on_change: Callback<Settings>,
    pub on_start: Callback<()>,
    pub busy: bool,
}

/// A text or number field of the settings, written back through `set`.
fn field(
    settings: &Settings,
    on_change: &Callback<Settings>,
    set: fn(&mut Settings, String),
) -> Callback<Event> {
    let (settings, on_change) = (settings.clone(), on_change.clone());
    Callback::from(move |event: Event| {
        if let Some(input) = event.target_dyn_into::<HtmlInputElement>() {
            let mut next = settings.clone();
            set(&mut next, input.value());
            on_change.emit(next);
        }
    })
}

/// Which fault kinds, how many faults, how many plans, which seed; and Start.
#[component]
pub fn SearchForm(props: &FormProps) -> Html {
    let s = &props.settings;
    let toggle = |kind: FaultKind| {
        let (settings, on_change) = (s.clone(), props.on_change.clone());
        Callback::from(move |_: Event| {
            let mut next = settings.clone();
            match next.kinds.iter().position(|&k| k == kind) {
                Some(i) => drop(next.kinds.remove(i)),
                None => next.kinds.push(kind),
            }
            on_change.emit(next);
        })
    };
    let onclick = props.on_start.reform(|_: MouseEvent| ());
    html! {
        <div class="search-form">
            <fieldset>
                <legend>{SEARCH.search.kinds}</legend>
                { for FaultKind::ALL.into_iter().map(|kind| html! {
                    <label class="check-option">
                        <input type="checkbox" checked={s.kinds.contains(&kind)} onchange={toggle(kind)} />
                        {kind_label(kind)}
                    </label>
                }) }
            </fieldset>
            <label>{SEARCH.search.max_faults}
                <input type="number" min="1" max={MAX_PLAN_FAULTS.to_string()} value={s.max_faults.clone()}
                    onchange={field(s, &props.on_change, |s, v| s.max_faults = v)} />
            </label>
            <label>{SEARCH.search.budget}
                <input type="number" min="1" step="1000" value={s.budget.clone()}
                    onchange={field(s, &props.on_change, |s, v| s.budget = v)} />
            </label>
            <label>{SEARCH.search.seed}
                <input type="text" inputmode="numeric" value={s.seed.clone()}
                    onchange={field(s, &props.on_change, |s, v| s.seed = v)} />
            </label>
            <button type="button" class="button" disabled={props.busy} {onclick}>{SEARCH.search.start}</button>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ProgressProps {
    pub phase: Phase,
    pub on_cancel: Callback<()>,
}

/// The progress bar, plans tried, plans per second, elapsed time, and Cancel.
#[component]
pub fn SearchProgress(props: &ProgressProps) -> Html {
    let (tried, budget, elapsed_ms, workers) = match props.phase {
        Phase::Running {
            tried,
            budget,
            elapsed_ms,
            workers,
        } => (tried, budget, elapsed_ms, workers),
        Phase::Shrinking {
            tried, elapsed_ms, ..
        } => (tried, tried, elapsed_ms, 1),
        _ => return html! {},
    };
    let elapsed = elapsed_ms.max(0.0) as u64;
    let rate = (tried * 1_000).checked_div(elapsed).unwrap_or(0);
    let stats = sentences::search::search::Stats {
        tried,
        budget,
        rate,
        elapsed: &format!("{}.{}", elapsed / 1_000, elapsed % 1_000 / 100),
        workers,
    }
    .to_string();
    let left = crate::lab::search::secs_left(tried, budget, elapsed)
        .filter(|_| matches!(props.phase, Phase::Running { .. }))
        .map(|secs| {
            sentences::search::search::TimeLeft {
                time: &words::rough_time(secs),
            }
            .to_string()
        });
    let onclick = props.on_cancel.reform(|_: MouseEvent| ());
    html! {
        <div class="search-progress">
            <progress aria-label={SEARCH.search.progress} max={budget.to_string()} value={tried.to_string()} />
            <p aria-live="polite">{stats}{ for left.map(|left| format!(" {left}")) }</p>
            if let Phase::Shrinking { found, .. } = &props.phase {
                <p role="status">{sentences::search::search::Shrinking { plan: &(found.index + 1).to_string() }.to_string()}</p>
            }
            <button type="button" class="button" {onclick}>{SEARCH.search.cancel}</button>
        </div>
    }
}

#[derive(Properties, PartialEq)]
pub struct ResultProps {
    pub phase: Phase,
    pub on_load: Callback<(Scenario, Counterexample)>,
    /// Starts a search that was estimated to take long.
    pub on_start_anyway: Callback<()>,
}

/// How the search ended: the counterexample's story, or a plain sentence.
#[component]
pub fn SearchResult(props: &ResultProps) -> Html {
    let sentence = |text: String| html! { <p class="search-outcome" role="status">{text}</p> };
    match &props.phase {
        Phase::Problem(why) => sentence(why.clone()),
        Phase::TooLong { secs, plans } => {
            let warning = sentences::search::search::TooLong {
                time: &words::rough_time(*secs),
                plans,
            }
            .to_string();
            let onclick = props.on_start_anyway.reform(|_: MouseEvent| ());
            html! {
                <div class="search-too-long status-warn">
                    <p role="alert">{warning}</p>
                    <button type="button" class="button" {onclick}>{SEARCH.search.start_anyway}</button>
                </div>
            }
        }
        Phase::NoneFound { plans, seed } => {
            sentence(sentences::search::search::None { plans, seed }.to_string())
        }
        Phase::Cancelled { tried, seed } => {
            sentence(sentences::search::search::Cancelled { tried, seed }.to_string())
        }
        Phase::Failed(why) => sentence(sentences::search::search::WorkerFailed { why }.to_string()),
        Phase::Found(finding) => {
            let Finding {
                base,
                spec,
                original,
                shrunk,
            } = &**finding;
            let summary = sentences::search::search::Found {
                plan: &(original.index + 1).to_string(),
                seed: spec.seed,
                before: original.plan.0.len(),
                after: shrunk.plan.0.len(),
            }
            .to_string();
            let run = Simulation::run(&with_plan(base, shrunk.plan.clone()));
            let story = crate::lab::story::story(&run, shrunk.check);
            let load = (base.clone(), shrunk.clone());
            let onclick = props.on_load.reform(move |_: MouseEvent| load.clone());
            let link = address_of(&counterexample_link(base, spec, shrunk));
            html! {
                <div class="search-found">
                    {sentence(summary)}
                    <h5>{SEARCH.story.heading}</h5>
                    <ol class="search-story">{ for story.into_iter().map(|line| html! { <li>{line}</li> }) }</ol>
                    <button type="button" class="button" {onclick}>{SEARCH.search.load}</button>
                    <CopyField label={SEARCH.search.copy} field_label={SEARCH.search.link}
                        text={Callback::from(move |()| link.clone())} />
                </div>
            }
        }
        Phase::Idle | Phase::Running { .. } | Phase::Shrinking { .. } => html! {},
    }
}
