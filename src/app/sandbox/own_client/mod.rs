//! "Your client" in the laboratory: the learner's lease client in Python or TypeScript, run
//! in the snippet sandbox as every client of the lab's scenario, its run drawn by the
//! laboratory's own views from the trace the sandbox reports (`run`), and the
//! counterexample search against it (`search`). The page never takes a verdict from the
//! sandbox: it replays every reported trace through its own checkers.

mod reference;
mod run;
mod search;

use std::cell::RefCell;
use std::rc::Rc;

use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::app::share::{initial_snippets, record_client, record_snippet, written_here};
use crate::app::snippets::{
    use_code_from_link, use_reported_edits, use_runner, EditorHost, EngineStatus, OutputConsole,
    OutputText, Panel, PanelAction, RunControls, RunEnding, RunPhase, SnippetLanguage, Task,
    TooLongForLink,
};
use crate::lab::own_client::RunReport;
use crate::lesson::content::SANDBOX;
use crate::model::Scenario;

thread_local! {
    /// The language last chosen, so coming back keeps it.
    static LANGUAGE: std::cell::Cell<Option<SnippetLanguage>> =
        const { std::cell::Cell::new(None) };
    /// Each language's workbench as it last stood: another tab unmounts the Sandbox, and
    /// coming back shows the latest run's result rather than "Not run yet".
    static KEPT: RefCell<Vec<(SnippetLanguage, Panel)>> = const { RefCell::new(Vec::new()) };
}

/// The workbench of `language` as it was left, if it held `code` (a link followed since
/// with other code starts afresh).
fn kept_panel(language: SnippetLanguage, code: &str) -> Option<Panel> {
    KEPT.with(|kept| {
        kept.borrow()
            .iter()
            .find(|(l, panel)| *l == language && panel.code == code)
            .map(|(_, panel)| panel.clone().resumed())
    })
}

fn keep_panel(language: SnippetLanguage, panel: Panel) {
    KEPT.with(|kept| {
        let mut kept = kept.borrow_mut();
        kept.retain(|(l, _)| *l != language);
        kept.push((language, panel));
    });
}

#[derive(Properties, PartialEq)]
pub struct OwnClientProps {
    /// The lab's scenario: what the next run and search use.
    pub scenario: Scenario,
}

/// The language choice, then the workbench of the chosen language.
#[component]
pub fn OwnClientLab(props: &OwnClientProps) -> Html {
    let language = use_state(|| {
        let code = initial_snippets();
        code.client
            .or_else(|| LANGUAGE.get())
            .or_else(|| code.only_language())
            .unwrap_or(SnippetLanguage::TypeScript)
    });
    use_effect_with(*language, |language| {
        LANGUAGE.set(Some(*language));
        record_client(Some(*language));
    });
    let code = initial_snippets();
    let initial = code.code(*language).map(str::to_owned);
    let words = &SANDBOX.own_client;
    let choice = |l: SnippetLanguage| {
        let pressed = (*language == l).to_string();
        let language = language.clone();
        let onclick = Callback::from(move |_: MouseEvent| language.set(l));
        html! {
            <button type="button" class="button" aria-pressed={pressed} {onclick}>
                {l.name()}
            </button>
        }
    };
    html! {
        <section class="own-client" aria-labelledby="own-client-title">
            <h4 id="own-client-title">{words.heading}</h4>
            <p class="muted">{words.intro}</p>
            <p class="muted">{SANDBOX.snippets.rule}</p>
            <div class="lab-mode" role="group" aria-label={words.language}>
                { for SnippetLanguage::ALL.into_iter().map(choice) }
            </div>
            <Workbench key={language.slug()} language={*language} {initial}
                scenario={props.scenario.clone()} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct WorkbenchProps {
    language: SnippetLanguage,
    /// Code from the link (or edited before), shown and never run unasked.
    initial: Option<String>,
    scenario: Scenario,
}

/// One language's panel, kept across tabs, fed by a link's code and by the runner.
#[hook]
fn use_workbench_panel(
    language: SnippetLanguage,
    initial: Option<String>,
) -> UseReducerHandle<Panel> {
    let original = language.original_code();
    let panel = {
        let initial = initial.clone();
        use_reducer(move || {
            let code = initial.unwrap_or_else(|| original.into());
            kept_panel(language, &code).unwrap_or_else(|| Panel::new(code))
        })
    };
    {
        let panel = (*panel).clone();
        use_effect(move || keep_panel(language, panel));
    }
    use_code_from_link(initial, &panel);
    use_reported_edits(
        language,
        &panel,
        Callback::from(|(l, c)| record_snippet(l, c)),
    );
    use_runner(language, &panel);
    panel
}

/// The printed and error consoles' text: the sandbox's own lines, then what the run prints
/// as it goes, or what the reported run printed and why it stopped.
fn consoles(panel: &Panel, run: Option<&RunReport>, searched: bool) -> (OutputText, OutputText) {
    let stdout = match run.filter(|r| !r.printed.is_empty()) {
        Some(r) => panel.stdout.clone().with(run::printed_text(r)),
        // While a run goes, its lines show as they are printed.
        None if panel.phase.is_busy() => panel
            .printing
            .pieces()
            .fold(panel.stdout.clone(), |text, piece| {
                text.with(piece.to_string())
            }),
        None => panel.stdout.clone(),
    };
    let mut stderr = match run.and_then(|r| r.stop.as_ref()) {
        Some(stop) => panel.stderr.clone().with(run::stop_text(stop) + "\n"),
        None => panel.stderr.clone(),
    };
    // A search stopped on leaving says so under the search instead.
    if panel.stopped_on_leaving && !searched {
        stderr = stderr.with(SANDBOX.snippets.stopped_on_leaving.to_owned() + "\n");
    }
    (stdout, stderr)
}

/// A result, or a search still going, about code the editor no longer holds says so.
fn other_code_note(panel: &Panel) -> Html {
    match &panel.task {
        Some(task) if *task.code != *panel.code => html! {
            <p class="note" role="status">{SANDBOX.own_client.other_code}</p>
        },
        _ => Html::default(),
    }
}

/// One language's editor, controls, status, printed output, run and search.
#[component]
fn Workbench(props: &WorkbenchProps) -> Html {
    let language = props.language;
    let original = language.original_code();
    let solution = language.solution_code();
    let panel = use_workbench_panel(language, props.initial.clone());

    let actions = panel.dispatcher().to_callback();
    let scenario = Rc::new(props.scenario.clone());
    let code: Rc<str> = Rc::from(panel.code.as_str());
    let task = move |search| Task {
        code: code.clone(),
        scenario: scenario.clone(),
        search,
    };
    let on_run = {
        let task = task.clone();
        actions.reform(move |()| PanelAction::Start(task(None)))
    };
    let on_search = actions.reform(move |spec| PanelAction::Start(task(Some(spec))));
    let on_reset = actions.reform(move |()| PanelAction::Edit(original.to_owned()));
    let on_solution = actions.reform(move |()| PanelAction::Edit(solution.to_owned()));
    let on_edit = actions.reform(PanelAction::Edit);
    let on_limit = actions.reform(PanelAction::SetLimit);
    let on_stop = Callback::from(move |()| spawn_local(crate::app::snippets::stop(language)));
    let came_from_link = props
        .initial
        .as_deref()
        .is_some_and(|code| code != original && code != solution && !written_here(language, code));
    // The printed and error consoles name themselves after this heading too.
    let heading = format!("snippet-{}-heading", language.slug());
    let busy = panel.phase.is_busy();
    // A run's result shows under the controls, a search's under the search form.
    let searched = panel.task.as_ref().is_some_and(|t| t.search.is_some());
    let report = use_memo(panel.report.clone(), |text| {
        text.as_deref().and_then(run::read_report)
    });
    let reported = match (&panel.task, &panel.report) {
        (Some(task), Some(_)) => html! {
            <run::Reported task={task.clone()} report={report.clone()} {language} />
        },
        _ => Html::default(),
    };
    // The console under Run tells what the run itself printed and why it stopped, as the
    // run below does, after anything the sandbox had to say.
    let run = (*report).as_ref().and_then(run::run_of);
    let (stdout, stderr) = consoles(&panel, run, searched);
    let searching = busy && searched;
    let other_code = other_code_note(&panel);
    html! {
        <section class="snippet own-client-code" aria-labelledby={heading.clone()}>
            <h5 id={heading}>{language.heading()}</h5>
            <p>{language.intro()}</p>
            if came_from_link {
                <p class="snippet-note">{SANDBOX.snippets.from_link}</p>
            }
            <EditorHost {language} code={panel.code.clone()} {on_edit} />
            <TooLongForLink {language} code={panel.code.clone()} />
            <RunControls {busy} edited={panel.code != original} solved={panel.code == solution}
                limit_secs={panel.limit_secs} {on_run} on_stop={on_stop.clone()} {on_reset} {on_solution} {on_limit} />
            <EngineStatus {language} phase={panel.phase} limit_secs={panel.limit_secs} searching={searched}
                stopped_early={!searched && run.is_some_and(|r| r.stop.is_some())} />
            <OutputConsole {language} {stdout} {stderr} />
            <reference::ClientReference {language} />
            if !searched {
                { other_code.clone() }
                { reported.clone() }
            }
            <search::ClientSearch {busy} {searching} ran={panel.ran} on_start={on_search}
                {on_stop} stopped_on_leaving={searched && panel.stopped_on_leaving} />
            if searched {
                { other_code }
                { reported }
            }
            if searched && panel.phase == RunPhase::Ended(RunEnding::TimedOut) {
                if let Some(task) = panel.task.clone() {
                    <search::HungPlan {task} ran={panel.ran} shrinking={panel.shrinking} />
                }
            }
        </section>
    }
}
