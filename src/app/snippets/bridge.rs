//! The typed bridge to the JavaScript side of the snippets (`www/snippets/bridge.js`).
//!
//! Requests go out and events come back as plain objects, (de)serialized with
//! serde-wasm-bindgen. An event that does not parse is dropped: JavaScript can never make
//! the app panic, and no number stands in for "none".

use js_sys::Function;
use serde::{Deserialize, Serialize};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;

use super::state::Task;
use super::SnippetLanguage;
use crate::lesson::content::SANDBOX;

#[wasm_bindgen(module = "/www/snippets/bridge.js")]
extern "C" {
    /// A mounted CodeMirror editor.
    #[derive(Clone)]
    pub type EditorHandle;

    #[wasm_bindgen(method, js_name = setText)]
    pub fn set_text(this: &EditorHandle, text: &str);

    #[wasm_bindgen(method)]
    pub fn destroy(this: &EditorHandle);

    #[wasm_bindgen(js_name = createEditor, catch)]
    async fn create_editor_js(
        host: HtmlElement,
        language: &str,
        doc: &str,
        label: &str,
        tab_moves: &str,
        tab_indents: &str,
        on_change: &Function,
    ) -> Result<JsValue, JsValue>;

    #[wasm_bindgen(js_name = startLab, catch)]
    async fn start_lab_js(request: JsValue, on_event: &Function) -> Result<(), JsValue>;

    #[wasm_bindgen(js_name = stopLab, catch)]
    async fn stop_lab_js(language: &str) -> Result<(), JsValue>;
}

/// One task, as `startLab` in `www/snippets/sandbox/runner.js` takes it: the scenario (and
/// the search's spec) packed as text the sandbox hands, unread, to the client engine.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct LabRequest<'a> {
    language: SnippetLanguage,
    code: &'a str,
    link: String,
    task: &'static str,
    #[serde(skip_serializing_if = "Option::is_none")]
    search: Option<String>,
    time_limit_ms: u32,
}

/// Which output stream a piece of text belongs to.
#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "camelCase")]
pub enum Stream {
    Stdout,
    Stderr,
}

/// News of a run that is still going.
#[derive(Deserialize, Clone, Debug, PartialEq)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum RunProgress {
    /// The engine's files are downloading; the total is unknown when the server compresses.
    Downloading {
        received_bytes: f64,
        total_bytes: Option<f64>,
    },
    /// The engine is starting in a fresh worker.
    Starting,
    /// The learner's code has started; the time limit runs from here.
    Running,
    Output {
        stream: Stream,
        text: String,
    },
    /// Why the runner or the sandbox's worker cannot go on, for the page to word.
    Problem {
        problem: RunnerProblem,
    },
    /// A run's handler call is about to start: the client's letter, the call's codes
    /// (`crate::lab::own_client::wire::during`), a timer's name, and the node's monotonic
    /// clock (µs). The latest one is a few hundred milliseconds old at most.
    Calling {
        client: String,
        call: f64,
        x: f64,
        timer: Option<String>,
        mono: f64,
    },
    /// A line a run's code printed, as it printed it, with its client and the node's
    /// monotonic clock (µs) when the call began.
    Printed {
        client: String,
        mono: f64,
        line: String,
    },
    /// Plan `ran - 1` of a search is about to run, or, `shrinking`, a smaller plan made of it.
    #[serde(rename = "progress")]
    Searched {
        ran: f64,
        #[serde(default)]
        shrinking: bool,
    },
    /// The task's report, packed (`crate::lab::own_client::report`): the run's ending, and
    /// how long it took in the worker.
    Result {
        json: String,
        ms: Option<u32>,
    },
}

/// Why the runner or the sandbox's worker cannot go on. The page words it
/// (`content/sandbox.toml`), so the runner and the worker send a reason, not a sentence;
/// a detail is an error's own text, shown as text.
#[derive(Deserialize, Clone, Debug, PartialEq)]
#[serde(tag = "why", rename_all = "camelCase", rename_all_fields = "camelCase")]
pub enum RunnerProblem {
    /// The sandbox's frame never said it was ready.
    SandboxDidNotStart,
    /// The runner could not set the sandbox up.
    SandboxCouldNotStart { detail: String },
    /// A fresh worker's engine was not up within the runner's limit.
    EngineTooSlow,
    /// The engine's files did not load in the worker.
    EngineDidNotLoad { detail: String },
    /// The lab's own wasm threw while it ran the learner's client.
    LabFailed { detail: String },
    /// The lab's report was longer than the sandbox relays, in characters.
    ReportTooLarge { limit_chars: f64 },
}

/// How a run ended; the runner sends exactly one of these per run.
#[derive(Deserialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(
    tag = "kind",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum RunEnding {
    /// An error, on this line of the learner's code when it is known.
    Failed {
        line: Option<u32>,
    },
    TimedOut,
    Stopped,
    /// The sandbox stopped answering (its process died, most often out of memory) and was
    /// replaced.
    SandboxCrashed,
    /// The task's report arrived, after this long in the worker (set by the panel, never
    /// sent by the runner).
    #[serde(skip)]
    Reported {
        ms: Option<u32>,
    },
}

/// One event from the runner.
#[derive(Deserialize, Clone, Debug, PartialEq)]
#[serde(untagged)]
pub enum RunEvent {
    Progress(RunProgress),
    Ended(RunEnding),
}

impl RunEvent {
    /// Reads an event the runner sent; anything malformed is `None`, never a panic.
    pub fn from_js(value: JsValue) -> Option<Self> {
        serde_wasm_bindgen::from_value(value).ok()
    }
}

/// Mounts CodeMirror into `host`; `on_change` receives the whole text after each edit.
pub async fn create_editor(
    host: HtmlElement,
    language: SnippetLanguage,
    doc: &str,
    on_change: impl Fn(String) + 'static,
) -> Result<EditorHandle, JsValue> {
    let on_change = Closure::<dyn Fn(String)>::new(on_change).into_js_value();
    let label = language.code_label();
    let words = &SANDBOX.snippets;
    let handle = create_editor_js(
        host,
        language.id(),
        doc,
        &label,
        words.editor_tab_moves,
        words.editor_tab_indents,
        on_change.unchecked_ref(),
    );
    Ok(handle.await?.unchecked_into())
}

/// Starts `task` with the learner's `code`; `on_event` receives each well-formed event until
/// the run's ending.
pub async fn start_lab(
    language: SnippetLanguage,
    task: &Task,
    time_limit_secs: u32,
    on_event: impl Fn(RunEvent) + 'static,
) -> Result<(), String> {
    use crate::lab::own_client::report::pack;
    let unknown = || SANDBOX.snippets.unknown_error.to_owned();
    let request = LabRequest {
        language,
        code: &task.code,
        link: pack(&*task.scenario).ok_or_else(unknown)?,
        task: if task.search.is_some() {
            "search"
        } else {
            "run"
        },
        search: task.search.as_ref().and_then(pack),
        time_limit_ms: time_limit_secs.saturating_mul(1000),
    };
    let request = serde_wasm_bindgen::to_value(&request).map_err(|error| error.to_string())?;
    let on_event = Closure::<dyn Fn(JsValue)>::new(move |value: JsValue| {
        if let Some(event) = RunEvent::from_js(value) {
            on_event(event);
        }
    })
    .into_js_value();
    start_lab_js(request, on_event.unchecked_ref())
        .await
        .map_err(|error| {
            error
                .dyn_ref::<js_sys::Error>()
                .map(|error| String::from(error.message()))
                .unwrap_or_else(|| SANDBOX.snippets.unknown_error.to_owned())
        })
}

/// Stops the current run of `language`, if there is one.
pub async fn stop_lab(language: SnippetLanguage) {
    // Nothing to report: without the runner there is no run to stop.
    let _ = stop_lab_js(language.slug()).await;
}
