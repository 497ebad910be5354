//! The runnable lost-flag snippets (Python and TypeScript) of the Sandbox tab.
//!
//! Learner code never runs in this page: `www/snippets/sandbox/runner.js` runs it in a
//! worker inside a sandboxed iframe with no network, under a time limit and output caps.
//! Code runs only when the learner presses Run, and its output is shown as text, never as
//! HTML. Each panel is a few parts: the editor, the run controls, the status and the output.

mod bridge;
mod controls;
mod editor;
mod hooks;
mod output;
mod state;
mod status;

use crate::lesson::sentences;
use serde::Serialize;
use wasm_bindgen_futures::spawn_local;
use yew::prelude::*;

use crate::lesson::content::SANDBOX;

pub use bridge::{OutputLimit, RunEnding, RunEvent, RunProgress, Stream};
pub use state::{Panel, PanelAction, RunPhase};

use bridge::OUTPUT_LIMITS;
use controls::RunControls;
use editor::EditorHost;
use hooks::{use_code_from_link, use_reported_edits, use_runner};
use output::OutputConsole;
use status::{size_text, EngineStatus};

/// The language of a snippet.
#[derive(Serialize, Clone, Copy, Debug, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum SnippetLanguage {
    Python,
    TypeScript,
}

impl SnippetLanguage {
    /// The snippet as Lease Lab ships it; "Reset to original" brings it back.
    pub fn original_code(self) -> &'static str {
        match self {
            Self::Python => include_str!("../../../www/snippets/lost_flag.py"),
            Self::TypeScript => include_str!("../../../www/snippets/lost_flag.ts"),
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

    /// The editor's accessible name: "Python code".
    fn code_label(self) -> String {
        sentences::sandbox::snippets::CodeLabel { name: self.name() }.to_string()
    }

    /// The name a download of the code gets.
    fn file_name(self) -> &'static str {
        match self {
            Self::Python => "lost_flag.py",
            Self::TypeScript => "lost_flag.ts",
        }
    }

    fn heading(self) -> &'static str {
        match self {
            Self::Python => SANDBOX.snippets.python_heading,
            Self::TypeScript => SANDBOX.snippets.typescript_heading,
        }
    }

    fn intro(self) -> &'static str {
        match self {
            Self::Python => SANDBOX.snippets.python_intro,
            Self::TypeScript => SANDBOX.snippets.typescript_intro,
        }
    }
}

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
                {sentences::sandbox::snippets::Rule { limit: size_text(OUTPUT_LIMITS.total_bytes) }.to_string()}
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

/// One snippet: heading, intro, editor, controls, status and output.
#[component]
fn SnippetPanel(props: &SnippetPanelProps) -> Html {
    let language = props.language;
    let original = language.original_code();
    let panel =
        use_reducer(|| Panel::new(props.initial.clone().unwrap_or_else(|| original.into())));
    use_code_from_link(props.initial.clone(), &panel);
    use_reported_edits(language, &panel, props.on_code_change.clone());
    use_runner(language, &panel);

    let actions = panel.dispatcher().to_callback();
    let on_run = actions.reform(|()| PanelAction::Start);
    let on_reset = actions.reform(move |()| PanelAction::Edit(original.to_owned()));
    let on_edit = actions.reform(PanelAction::Edit);
    let on_limit = actions.reform(PanelAction::SetLimit);
    let on_stop = Callback::from(move |()| spawn_local(bridge::stop_run(language)));
    let came_from_link = props
        .initial
        .as_deref()
        .is_some_and(|code| code != original);
    let heading = format!("snippet-{}-heading", language.id());

    html! {
        <section class="snippet" aria-labelledby={heading.clone()}>
            <h3 id={heading}>{language.heading()}</h3>
            <p>{language.intro()}</p>
            if came_from_link {
                <p class="snippet-note">
                    {SANDBOX.snippets.from_link}
                </p>
            }
            <EditorHost {language} code={panel.code.clone()} {on_edit} />
            <TooLongForLink {language} code={panel.code.clone()} />
            <RunControls busy={panel.phase.is_busy()} edited={panel.code != original}
                limit_secs={panel.limit_secs} {on_run} {on_stop} {on_reset} {on_limit} />
            <EngineStatus {language} phase={panel.phase} limit_secs={panel.limit_secs} />
            <OutputConsole {language} stdout={panel.stdout.clone()} stderr={panel.stderr.clone()} />
        </section>
    }
}

#[derive(Properties, PartialEq)]
struct TooLongProps {
    language: SnippetLanguage,
    code: String,
}

/// When the code is too long for a link even compressed: says so, and offers it as a file.
#[component]
fn TooLongForLink(props: &TooLongProps) -> Html {
    let fits = use_memo(props.code.clone(), |code| {
        crate::share::code::to_field(code).is_some()
    });
    if *fits {
        return Html::default();
    }
    let language = props.language;
    let name = language.name();
    let onclick = {
        let code = props.code.clone();
        Callback::from(move |_: MouseEvent| {
            let _ = crate::app::diagrams::export::save_file(&code, language.file_name());
        })
    };
    html! {
        <div class="snippet-note status-warn" role="status">
            <p>{sentences::sandbox::snippets::TooLongForLink { name }.to_string()}</p>
            <button type="button" class="button" {onclick}>{sentences::sandbox::snippets::DownloadCode { name }.to_string()}</button>
        </div>
    }
}
