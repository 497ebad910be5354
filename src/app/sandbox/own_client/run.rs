//! A reported run of the learner's client: read as untrusted, replayed through the page's own
//! checkers, and drawn by the laboratory's views with a cursor, the event log, what the code
//! printed, the trace hash, a link, and the built-in client beside it.

use std::rc::Rc;

use yew::prelude::*;

use super::search::SearchOutcome;
use crate::app::sandbox::live_mode::compare::whole_timeline;
use crate::app::sandbox::live_mode::views;
use crate::app::sandbox::log::EventLog;
use crate::app::sandbox::reading::ShownRun;
use crate::app::share::{address_of, CopyField};
use crate::app::snippets::{SnippetLanguage, Task};
use crate::lab::live::compare::Ending;
use crate::lab::own_client::report::unpack;
use crate::lab::own_client::{
    own_scenario, with_controls_visible, ClientStop, During, Refusal, Report, RunReport, RunStop,
    Stop,
};
use crate::lesson::checks::CheckWords;
use crate::lesson::content::SANDBOX;
use crate::lesson::sentences::sandbox::own_client as says;
use crate::model::{
    CheckId, CheckStatus, ClientId, Run, RunQuestions, Scenario, SimTime, Simulation,
};
use crate::share::{LabLink, LinkState, SnippetCode};

#[derive(Properties, PartialEq)]
pub struct ReportedProps {
    pub task: Task,
    /// The sandbox's report, read; `None` when it could not be.
    pub report: Rc<Option<Report>>,
    pub language: SnippetLanguage,
}

/// The sandbox's report, read from its text; `None` when it cannot be.
pub fn read_report(text: &str) -> Option<Report> {
    unpack::<Report>(text)
}

/// The run a report is about: the run itself, or the run of the plan a search ended on.
pub fn run_of(report: &Report) -> Option<&RunReport> {
    match report {
        Report::Ran(run) => Some(run),
        Report::Searched { run, .. } => run.as_ref(),
    }
}

/// What the code of `run` printed, one line each, as "Printed by your code" shows it.
pub fn printed_text(run: &RunReport) -> String {
    run.printed
        .iter()
        .map(|p| {
            says::PrintedLine {
                at: p.at,
                client: p.client.letter(),
                text: &p.text,
            }
            .to_string()
                + "\n"
        })
        .collect()
}

/// The sandbox's report, read: a run, or a search's outcome with its plan's run.
#[component]
pub fn Reported(props: &ReportedProps) -> Html {
    let unreadable =
        html! { <p class="status-warn" role="alert">{SANDBOX.own_client.unreadable}</p> };
    let base = own_scenario(&props.task.scenario);
    match &*props.report {
        None => unreadable,
        Some(Report::Ran(run)) => html! {
            <ClientRun scenario={base} run={Rc::new(run.clone())} task={props.task.clone()}
                language={props.language} />
        },
        Some(Report::Searched { outcome, run }) => html! {
            <SearchOutcome {base} outcome={outcome.clone()} run={run.clone().map(Rc::new)}
                task={props.task.clone()} language={props.language} />
        },
    }
}

#[derive(Properties, PartialEq)]
pub struct ClientRunProps {
    /// The scenario the run followed (its plan included).
    pub scenario: Scenario,
    pub run: Rc<RunReport>,
    pub task: Task,
    pub language: SnippetLanguage,
}

/// One run: why it stopped, if it did, then the views at the cursor and the rest.
#[component]
pub fn ClientRun(props: &ClientRunProps) -> Html {
    let replayed = use_memo((props.scenario.clone(), props.run.clone()), |(s, run)| {
        run.replay(s).map(|run| {
            let run = Rc::new(run);
            (run.clone(), ShownRun::from(run))
        })
    });
    let cursor = use_state(|| None::<SimTime>);
    let Some((run, shown)) = (*replayed).clone() else {
        return html! { <p class="status-warn" role="alert">{SANDBOX.own_client.unreadable}</p> };
    };
    let words = &SANDBOX.own_client;
    let end = run.end();
    let t = cursor.unwrap_or(end).min(end);
    let seek = {
        let cursor = cursor.clone();
        Callback::from(move |t: SimTime| cursor.set(Some(t)))
    };
    let on_slide = {
        let cursor = cursor.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Ok(ms) = input.value().parse::<u64>() {
                cursor.set(Some(SimTime::from_millis(ms)));
            }
        })
    };
    let hash = format!("{:016x}", run.trace_hash());
    html! {
        <div class="live-views recorded own-client-run">
            <h5>{words.run_heading}</h5>
            if let Some(stop) = &props.run.stop {
                // Its own lines kept (a traceback), as text.
                <p class="status-warn own-client-stop" role="alert">{with_controls_visible(&stop_text(stop)).into_owned()}</p>
                // Checks that hold over a few milliseconds prove little: say how much ran.
                <p class="muted">{says::StoppedCovers { end, duration: props.scenario.duration }.to_string()}</p>
            }
            <p class="trace-id">{says::Trace { hash, events: run.events().len(), end }.to_string()}</p>
            <label class="live-scrub">
                <span>{words.cursor}</span>
                <input type="range" min="0" max={end.as_micros().div_ceil(1_000).to_string()}
                    step="1" value={(t.as_micros() / 1_000).to_string()} oninput={on_slide} />
            </label>
            { views(&shown, t, Some(seek), words.timeline) }
            <EventLog run={shown.clone()} at={t} />
            { printed(&props.run) }
            { link(props) }
            <BesideBuiltIn scenario={props.scenario.clone()} yours={run.clone()} shown={shown} />
        </div>
    }
}

fn printed(run: &RunReport) -> Html {
    if run.printed.is_empty() {
        return Html::default();
    }
    html! {
        <section class="own-client-printed" aria-label={SANDBOX.own_client.printed}>
            <h5>{SANDBOX.own_client.printed}</h5>
            // The console's box: a flood scrolls inside it, and the keyboard can scroll it.
            <pre class="snippet-stdout" tabindex="0">{ with_controls_visible(&printed_text(run)).into_owned() }</pre>
        </section>
    }
}

/// A link to this client's code in this scenario (with its plan): opening it shows the code
/// in "Your client", to be run with a click.
fn link(props: &ClientRunProps) -> Html {
    let mut snippets = SnippetCode {
        client: Some(props.language),
        ..SnippetCode::default()
    };
    let code = props.task.code.to_string();
    let edited = (code != props.language.original_code()).then_some(code);
    match props.language {
        SnippetLanguage::Python => snippets.python = edited,
        SnippetLanguage::TypeScript => snippets.typescript = edited,
    }
    let state = LinkState {
        tab: crate::route::Tab::Sandbox,
        lab: Some(LabLink::for_scenario(
            (*props.task.scenario).clone(),
            SimTime::ZERO,
        )),
        snippets,
        ..LinkState::default()
    };
    let scenario_with_plan = props.scenario.faults.clone();
    let state = LinkState {
        lab: state.lab.map(|mut lab| {
            lab.scenario.faults = scenario_with_plan;
            lab
        }),
        ..state
    };
    let text = Callback::from(move |()| address_of(&state));
    html! { <CopyField label={SANDBOX.own_client.link} field_label={SANDBOX.own_client.link_field} {text} /> }
}

/// A stopped run, in the learner's terms.
pub fn stop_text(stop: &RunStop) -> String {
    match stop {
        RunStop::Client { client, at, stop } => client_stop_text(*client, *at, stop),
        RunStop::Spin { at } => says::Spin {
            at: *at,
            steps: crate::lab::own_client::runner::MAX_STEPS_AT_ONE_INSTANT,
        }
        .to_string(),
        RunStop::TooManySteps { at } => says::TooManySteps {
            at: *at,
            steps: crate::lab::own_client::runner::MAX_STEPS,
        }
        .to_string(),
    }
}

fn client_stop_text(client: ClientId, at: SimTime, stop: &ClientStop) -> String {
    use crate::lab::own_client::machine::{MAX_ACTIONS_PER_CALL, MAX_TIMERS, MAX_TIMER_NAME};
    let during = &crate::lab::describe::during(&stop.during);
    let client = client.letter();
    match &stop.stop {
        Stop::Threw(thrown) if stop.during == During::TopLevel => {
            let error = thrown.text.trim_end();
            match thrown.line {
                0 => says::ThrewTopLevelNoLine { client, error }.to_string(),
                line => says::ThrewTopLevel {
                    client,
                    line,
                    error,
                }
                .to_string(),
            }
        }
        Stop::Threw(thrown) if thrown.line > 0 => says::Threw {
            client,
            during,
            at,
            line: thrown.line,
            error: thrown.text.trim_end(),
        }
        .to_string(),
        Stop::Threw(thrown) => says::ThrewNoLine {
            client,
            during,
            at,
            error: thrown.text.trim_end(),
        }
        .to_string(),
        Stop::Unreadable => says::Garbled { client, during, at }.to_string(),
        Stop::Refused(refusal) => {
            let why = match refusal {
                Refusal::TooManyActions => says::TooManyActions {
                    max: MAX_ACTIONS_PER_CALL,
                }
                .to_string(),
                Refusal::TooManyTimers => says::TooManyTimers { max: MAX_TIMERS }.to_string(),
                Refusal::BadTimerName => says::BadTimerName {
                    max: MAX_TIMER_NAME,
                }
                .to_string(),
                Refusal::OutOfRange => SANDBOX.own_client.out_of_range.to_owned(),
                Refusal::TokenNeverGranted(token) => {
                    says::TokenNeverGranted { token: *token }.to_string()
                }
                Refusal::TtlNotScenarios { asked } => says::TtlNotScenarios {
                    asked: crate::model::SimDuration(*asked),
                }
                .to_string(),
            };
            says::Refused {
                client,
                why: &why,
                during,
                at,
            }
            .to_string()
        }
    }
}

/// The checks a run broke, named, or that all hold.
fn checks_text(run: &Run) -> String {
    let broken: Vec<&str> = CheckId::ALL
        .into_iter()
        .filter(|&id| matches!(run.check(id), CheckStatus::Broken { .. }))
        .map(CheckWords::title)
        .collect();
    if broken.is_empty() {
        SANDBOX.own_client.checks_hold.to_owned()
    } else {
        says::ChecksBroken {
            names: &broken.join(", "),
        }
        .to_string()
    }
}

fn ending_text(run: &Run) -> String {
    let e = Ending::of(run.metrics());
    crate::lesson::sentences::live::compare::Grants {
        grants: e.grants,
        losses: e.losses,
        accepted: e.accepted,
        rejected: e.rejected,
    }
    .to_string()
}

#[derive(Properties)]
pub struct BesideProps {
    pub scenario: Scenario,
    pub yours: Rc<Run>,
    pub shown: ShownRun,
}

impl PartialEq for BesideProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.yours, &other.yours)
    }
}

/// "Compare with the built-in client": both whole timelines and how each run ended.
#[component]
fn BesideBuiltIn(props: &BesideProps) -> Html {
    let builtin = use_state(|| None::<(Rc<Run>, ShownRun)>);
    let words = &SANDBOX.own_client;
    let Some((theirs, theirs_shown)) = (*builtin).clone() else {
        let onclick = {
            let (builtin, scenario) = (builtin.clone(), props.scenario.clone());
            Callback::from(move |_: MouseEvent| {
                // Judged exactly as the Simulated view judges it, so that what this shows
                // of the built-in client is what the learner saw of it there.
                let run = Simulation::run(&scenario);
                let run = Rc::new(Run::from_trace(
                    scenario.clone(),
                    run.end(),
                    run.events().to_vec(),
                ));
                builtin.set(Some((run.clone(), ShownRun::from(run))));
            })
        };
        return html! { <button type="button" class="button" {onclick}>{words.compare}</button> };
    };
    let (yours, your_checks) = (ending_text(&props.yours), checks_text(&props.yours));
    let (builtin_end, builtin_checks) = (ending_text(&theirs), checks_text(&theirs));
    let outcome = if yours == builtin_end && your_checks == builtin_checks {
        says::OutcomeSame {
            outcome: &yours,
            checks: &your_checks,
        }
        .to_string()
    } else {
        says::OutcomeDiffers {
            yours: &yours,
            your_checks: &your_checks,
            builtin: &builtin_end,
            builtin_checks: &builtin_checks,
        }
        .to_string()
    };
    html! {
        <section class="live-compare" aria-label={words.compare_heading}>
            <h5>{words.compare_heading}</h5>
            <p class="muted">{words.compare_intro}</p>
            <div class="live-compare-grid">
                <div>
                    <h6>{words.yours}</h6>
                    { whole_timeline(&props.shown, words.yours_timeline) }
                </div>
                <div>
                    <h6>{words.builtin}</h6>
                    { whole_timeline(&theirs_shown, words.builtin_timeline) }
                </div>
            </div>
            <p class="own-client-outcome" role="status">{outcome}</p>
        </section>
    }
}
