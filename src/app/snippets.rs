//! The runnable lost-flag snippets (Python and TypeScript) of the Sandbox tab.
//!
//! Learner code never runs in this page: `www/snippets/sandbox/runner.js` runs it in a
//! worker inside a sandboxed iframe with no network, under a time limit. Code runs only
//! when the learner presses Run, and its output is shown as text, never as HTML.

use std::cell::RefCell;
use std::rc::Rc;

use js_sys::Function;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::spawn_local;
use web_sys::{HtmlElement, HtmlInputElement, HtmlTextAreaElement};
use yew::prelude::*;

#[wasm_bindgen(module = "/www/snippets/bridge.js")]
extern "C" {
    /// A mounted CodeMirror editor.
    type EditorHandle;

    #[wasm_bindgen(method, js_name = setText)]
    fn set_text(this: &EditorHandle, text: &str);

    #[wasm_bindgen(method)]
    fn destroy(this: &EditorHandle);

    #[wasm_bindgen(js_name = createEditor, catch)]
    async fn create_editor(
        host: HtmlElement,
        language: &str,
        doc: &str,
        label: &str,
        on_change: &Function,
    ) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = startRun, catch)]
    async fn start_run(
        language: &str,
        code: &str,
        limit_ms: f64,
        on_event: &Function,
    ) -> Result<(), JsValue>;

    #[wasm_bindgen(js_name = stopRun, catch)]
    async fn stop_run(language: &str) -> Result<(), JsValue>;
}

/// The language of a snippet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum SnippetLanguage {
    Python,
    TypeScript,
}

impl SnippetLanguage {
    /// The snippet as Lease Lab ships it; "Reset to original" brings it back.
    pub fn original_code(self) -> &'static str {
        match self {
            Self::Python => include_str!("../../www/snippets/lost_flag.py"),
            Self::TypeScript => include_str!("../../www/snippets/lost_flag.ts"),
        }
    }

    fn id(self) -> &'static str {
        match self {
            Self::Python => "python",
            Self::TypeScript => "typescript",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Python => "Python",
            Self::TypeScript => "TypeScript",
        }
    }

    fn heading(self) -> &'static str {
        match self {
            Self::Python => "Lost flag stops writes (Python)",
            Self::TypeScript => "The same idea in TypeScript",
        }
    }

    fn intro(self) -> &'static str {
        match self {
            Self::Python => {
                "Heartbeats are timed with time.monotonic(), never the wall clock. When a \
                 renew is missed past its budget the lost flag goes up, every later write is \
                 skipped, and the fence turns away a write that was already on its way."
            }
            Self::TypeScript => {
                "The same holder, timed with performance.now(): renew at T/3, give up at the \
                 safe deadline, skip writes once lost, and let the fence catch the straggler."
            }
        }
    }
}

const DEFAULT_LIMIT_SECS: u32 = 5;
const MAX_LIMIT_SECS: u32 = 60;

/// Properties of [`SnippetPanels`].
#[derive(Properties, PartialEq)]
pub struct SnippetPanelsProps {
    /// Python code to show instead of the original, e.g. from a share link. Never run unasked.
    #[prop_or_default]
    pub python: Option<String>,
    /// TypeScript code to show instead of the original. Never run unasked.
    #[prop_or_default]
    pub typescript: Option<String>,
    /// Called after each edit with the new code, or `None` when it is the original again.
    #[prop_or_default]
    pub on_code_change: Callback<(SnippetLanguage, Option<String>)>,
}

/// Both runnable snippets, each with its editor, controls and output console.
#[component]
pub fn SnippetPanels(props: &SnippetPanelsProps) -> Html {
    html! {
        <div class="snippets">
            <p class="snippets-rule">
                {"Press Run to try a snippet right here. Each one has to stand alone: it gets \
                  no network, no files and no native modules, and it is stopped when its time \
                  limit runs out."}
            </p>
            <SnippetPanel
                language={SnippetLanguage::Python}
                initial={props.python.clone()}
                on_code_change={props.on_code_change.clone()}
            />
            <SnippetPanel
                language={SnippetLanguage::TypeScript}
                initial={props.typescript.clone()}
                on_code_change={props.on_code_change.clone()}
            />
        </div>
    }
}

#[derive(Properties, PartialEq)]
struct SnippetPanelProps {
    language: SnippetLanguage,
    initial: Option<String>,
    on_code_change: Callback<(SnippetLanguage, Option<String>)>,
}

/// Where a panel's latest run stands.
#[derive(Clone, Debug, PartialEq)]
enum RunPhase {
    NotRun,
    Preparing {
        message: String,
        progress: Option<f64>,
    },
    Running,
    Finished {
        millis: u32,
    },
    Failed {
        line: Option<u32>,
    },
    TimedOut,
    Stopped,
}

impl RunPhase {
    fn is_busy(&self) -> bool {
        matches!(self, Self::Preparing { .. } | Self::Running)
    }
}

#[derive(Clone, Debug, PartialEq)]
struct Panel {
    code: String,
    run_id: u32,
    limit_secs: u32,
    phase: RunPhase,
    stdout: String,
    stderr: String,
}

enum PanelAction {
    Edit(String),
    Start {
        limit_secs: u32,
    },
    /// One event from the runner, see `startRun` in runner.js.
    Report {
        run_id: u32,
        kind: String,
        text: String,
        number: f64,
    },
}

impl Reducible for Panel {
    type Action = PanelAction;

    fn reduce(self: Rc<Self>, action: PanelAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            PanelAction::Edit(code) => next.code = code,
            PanelAction::Start { limit_secs } => {
                next.run_id += 1;
                next.limit_secs = limit_secs;
                next.phase = RunPhase::Preparing {
                    message: String::from("Starting…"),
                    progress: None,
                };
                next.stdout.clear();
                next.stderr.clear();
            }
            PanelAction::Report {
                run_id,
                kind,
                text,
                number,
            } => {
                if run_id != self.run_id || !self.phase.is_busy() {
                    return self;
                }
                match kind.as_str() {
                    "status" if text == "Running…" => next.phase = RunPhase::Running,
                    "status" => {
                        next.phase = RunPhase::Preparing {
                            message: text,
                            progress: (number >= 0.0).then_some(number),
                        }
                    }
                    "stdout" => next.stdout.push_str(&text),
                    "stderr" => next.stderr.push_str(&text),
                    "end" => next.phase = ended_phase(&text, number),
                    _ => return self,
                }
            }
        }
        Rc::new(next)
    }
}

fn ended_phase(outcome: &str, number: f64) -> RunPhase {
    match outcome {
        "finished" => RunPhase::Finished {
            millis: number.max(0.0) as u32,
        },
        "failed" => RunPhase::Failed {
            line: (number >= 1.0).then_some(number as u32),
        },
        "timeout" => RunPhase::TimedOut,
        _ => RunPhase::Stopped,
    }
}

fn status_text(panel: &Panel, language: SnippetLanguage) -> String {
    match &panel.phase {
        RunPhase::NotRun => String::from("Not run yet: nothing runs until you press Run."),
        RunPhase::Preparing { message, .. } => message.clone(),
        RunPhase::Running => format!("Running… (stopped after {} s)", panel.limit_secs),
        RunPhase::Finished { millis } => format!("Finished in {millis} ms."),
        RunPhase::Failed { line: Some(line) } => format!("Stopped by an error on line {line}."),
        RunPhase::Failed { line: None } => format!("{} reported an error.", language.name()),
        RunPhase::TimedOut => format!("Stopped: the time limit of {} s ran out.", panel.limit_secs),
        RunPhase::Stopped => String::from("Stopped."),
    }
}

/// One snippet: heading, intro, editor, controls, status and output.
#[component]
fn SnippetPanel(props: &SnippetPanelProps) -> Html {
    let language = props.language;
    let original = language.original_code();
    let panel = use_reducer(|| Panel {
        code: props.initial.clone().unwrap_or_else(|| original.to_owned()),
        run_id: 0,
        limit_secs: DEFAULT_LIMIT_SECS,
        phase: RunPhase::NotRun,
        stdout: String::new(),
        stderr: String::new(),
    });
    let limit_secs = use_state(|| DEFAULT_LIMIT_SECS);
    let editor_host = use_node_ref();
    let editor = use_mut_ref(|| None::<EditorHandle>);
    let editor_ready = use_state(|| false);
    let came_from_link = props
        .initial
        .as_deref()
        .is_some_and(|code| code != original);

    // Edits reach the parent through the newest callback, even from the editor's closure.
    let on_code_change = use_mut_ref(Callback::noop);
    *on_code_change.borrow_mut() = props.on_code_change.clone();
    let latest_code = use_mut_ref(String::new);
    latest_code.borrow_mut().clone_from(&panel.code);

    let apply_edit = {
        let dispatcher = panel.dispatcher();
        let on_code_change = on_code_change.clone();
        Rc::new(move |code: String| {
            let change = (code != original).then(|| code.clone());
            dispatcher.dispatch(PanelAction::Edit(code));
            on_code_change.borrow().emit((language, change));
        })
    };

    {
        let editor = editor.clone();
        let editor_host = editor_host.clone();
        let editor_ready = editor_ready.clone();
        let apply_edit = apply_edit.clone();
        let latest_code = latest_code.clone();
        use_effect_with((), move |_| {
            let mounted = Rc::new(RefCell::new(true));
            if let Some(host) = editor_host.cast::<HtmlElement>() {
                let mounted = mounted.clone();
                let editor = editor.clone();
                spawn_local(async move {
                    let on_change =
                        Closure::<dyn Fn(String)>::new(move |code: String| apply_edit(code))
                            .into_js_value();
                    let label = format!("{} code", language.name());
                    let doc = latest_code.borrow().clone();
                    // Without the editor bundle the accessible textarea simply stays.
                    if let Ok(handle) =
                        create_editor(host, language.id(), &doc, &label, on_change.unchecked_ref())
                            .await
                    {
                        let handle: EditorHandle = handle.unchecked_into();
                        if *mounted.borrow() {
                            // Keeps what was typed into the textarea while the editor loaded.
                            handle.set_text(&latest_code.borrow());
                            *editor.borrow_mut() = Some(handle);
                            editor_ready.set(true);
                        } else {
                            handle.destroy();
                        }
                    }
                });
            }
            move || {
                *mounted.borrow_mut() = false;
                if let Some(handle) = editor.borrow_mut().take() {
                    handle.destroy();
                }
            }
        });
    }

    // Code that arrives later (a share link) replaces the shown code, and still waits for Run.
    {
        let apply_edit = apply_edit.clone();
        let editor = editor.clone();
        let latest_code = latest_code.clone();
        use_effect_with(props.initial.clone(), move |initial| {
            if let Some(code) = initial
                .as_ref()
                .filter(|code| **code != *latest_code.borrow())
            {
                match editor.borrow().as_ref() {
                    Some(handle) => handle.set_text(code),
                    None => apply_edit(code.clone()),
                }
            }
        });
    }

    // A run still going when the panel goes away is stopped with it.
    {
        let busy = use_mut_ref(|| false);
        *busy.borrow_mut() = panel.phase.is_busy();
        use_effect_with((), move |_| {
            move || {
                if *busy.borrow() {
                    spawn_local(async move {
                        let _ = stop_run(language.id()).await;
                    });
                }
            }
        });
    }

    let on_run = {
        let panel = panel.clone();
        let limit_secs = *limit_secs;
        Callback::from(move |_: MouseEvent| {
            if panel.phase.is_busy() {
                return;
            }
            let run_id = panel.run_id + 1;
            panel.dispatch(PanelAction::Start { limit_secs });
            let dispatcher = panel.dispatcher();
            let report = move |kind: String, text: String, number: f64| {
                dispatcher.dispatch(PanelAction::Report {
                    run_id,
                    kind,
                    text,
                    number,
                })
            };
            let on_event =
                Closure::<dyn Fn(String, String, f64)>::new(report.clone()).into_js_value();
            let code = panel.code.clone();
            spawn_local(async move {
                let limit_ms = f64::from(limit_secs) * 1000.0;
                if let Err(error) =
                    start_run(language.id(), &code, limit_ms, on_event.unchecked_ref()).await
                {
                    let reason = error
                        .dyn_ref::<js_sys::Error>()
                        .map(|error| String::from(error.message()))
                        .unwrap_or_else(|| String::from("unknown error"));
                    report(
                        String::from("stderr"),
                        format!("The sandbox could not start: {reason}\n"),
                        -1.0,
                    );
                    report(String::from("end"), String::from("failed"), -1.0);
                }
            });
        })
    };

    let on_stop = Callback::from(move |_: MouseEvent| {
        spawn_local(async move {
            let _ = stop_run(language.id()).await;
        });
    });

    let on_reset = {
        let editor = editor.clone();
        let apply_edit = apply_edit.clone();
        Callback::from(move |_: MouseEvent| match editor.borrow().as_ref() {
            Some(handle) => handle.set_text(original),
            None => apply_edit(original.to_owned()),
        })
    };

    let on_textarea_input = {
        let apply_edit = apply_edit.clone();
        Callback::from(move |event: InputEvent| {
            if let Some(textarea) = event.target_dyn_into::<HtmlTextAreaElement>() {
                apply_edit(textarea.value());
            }
        })
    };

    let on_limit_change = {
        let limit_secs = limit_secs.clone();
        Callback::from(move |event: Event| {
            if let Some(input) = event.target_dyn_into::<HtmlInputElement>() {
                match input.value().trim().parse::<u32>() {
                    Ok(secs) if (1..=MAX_LIMIT_SECS).contains(&secs) => limit_secs.set(secs),
                    _ => input.set_value(&limit_secs.to_string()),
                }
            }
        })
    };

    let id = |part: &str| format!("snippet-{}-{part}", language.id());
    let busy = panel.phase.is_busy();
    // While an engine loads: a bar that fills when sizes are known, else an indeterminate one.
    let loading = match &panel.phase {
        RunPhase::Preparing { progress, .. } => Some(progress.map(|fraction| fraction.to_string())),
        _ => None,
    };

    html! {
        <section class="snippet" aria-labelledby={id("heading")}>
            <h3 id={id("heading")}>{language.heading()}</h3>
            <p>{language.intro()}</p>
            if came_from_link {
                <p class="snippet-note">
                    {"This code came with the link you opened and may differ from the \
                      original. Read it first: it runs only when you press Run."}
                </p>
            }
            <div class="snippet-editor">
                <div class="snippet-editor-host" ref={editor_host}></div>
                if !*editor_ready {
                    <label class="visually-hidden" for={id("code")}>
                        {format!("{} code", language.name())}
                    </label>
                    <textarea
                        id={id("code")}
                        class="snippet-textarea"
                        spellcheck="false"
                        rows="20"
                        value={panel.code.clone()}
                        oninput={on_textarea_input}
                    />
                }
            </div>
            <div class="snippet-controls">
                <button type="button" class="button primary" onclick={on_run} disabled={busy}>
                    {"Run"}
                </button>
                <button type="button" class="button" onclick={on_stop} disabled={!busy}>
                    {"Stop"}
                </button>
                <button
                    type="button"
                    class="button"
                    onclick={on_reset}
                    disabled={panel.code == original}
                >
                    {"Reset to original"}
                </button>
                <label class="snippet-limit">
                    {"Time limit (s) "}
                    <input
                        type="number"
                        min="1"
                        max={MAX_LIMIT_SECS.to_string()}
                        step="1"
                        value={limit_secs.to_string()}
                        onchange={on_limit_change}
                    />
                </label>
            </div>
            <p class="snippet-status" role="status">{status_text(&panel, language)}</p>
            if let Some(fraction) = loading {
                <progress
                    class="snippet-progress"
                    max="1"
                    value={fraction}
                    aria-label={format!("Loading {}", language.name())}
                ></progress>
            }
            <h4 id={id("stdout-heading")}>{"Output"}</h4>
            <pre
                class="snippet-stdout"
                role="region"
                tabindex="0"
                aria-labelledby={format!("{} {}", id("heading"), id("stdout-heading"))}
            >{panel.stdout.clone()}</pre>
            <h4 id={id("stderr-heading")}>{"Errors"}</h4>
            <pre
                class="snippet-stderr"
                role="region"
                tabindex="0"
                aria-labelledby={format!("{} {}", id("heading"), id("stderr-heading"))}
            >{panel.stderr.clone()}</pre>
        </section>
    }
}
