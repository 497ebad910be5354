//! The code panel of "Your client": the learner's lease client in Python or TypeScript, its
//! editor, run controls, status and printed output.
//!
//! Learner code never runs in this page: `www/snippets/sandbox/runner.js` runs it in a
//! worker inside a sandboxed iframe with no network, under a time limit, as every client of
//! the lab's scenario inside the model's world (`src/bin/client_worker.rs`). Code runs only
//! when the learner presses a button, and what it prints is shown as text, never as HTML.

mod bridge;
mod controls;
mod editor;
mod hooks;
mod output;
mod state;
mod status;

use crate::lesson::sentences;
use yew::prelude::*;

use crate::lesson::content::SANDBOX;

pub use crate::lab::own_client::Language as SnippetLanguage;
pub use bridge::{stop_lab as stop, RunEnding, RunEvent, RunProgress, Stream};
pub use controls::RunControls;
pub use editor::EditorHost;
pub use hooks::{use_code_from_link, use_reported_edits, use_runner};
pub use output::OutputConsole;
pub use state::{OutputText, Panel, PanelAction, RunPhase, Task};
pub use status::EngineStatus;

impl SnippetLanguage {
    /// The starter client, broken in ways the lesson names; "Reset" brings it back.
    pub fn original_code(self) -> &'static str {
        match self {
            Self::Python => include_str!("../../../www/snippets/client/starter.py"),
            Self::TypeScript => include_str!("../../../www/snippets/client/starter.ts"),
        }
    }

    /// The reference client, behind "Show a solution".
    pub fn solution_code(self) -> &'static str {
        match self {
            Self::Python => include_str!("../../../www/snippets/client/reference.py"),
            Self::TypeScript => include_str!("../../../www/snippets/client/reference.ts"),
        }
    }

    fn id(self) -> &'static str {
        self.slug()
    }

    /// The language's name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Python => "Python",
            Self::TypeScript => "TypeScript",
        }
    }

    /// The editor's accessible name.
    fn code_label(self) -> String {
        sentences::sandbox::snippets::CodeLabel { name: self.name() }.to_string()
    }

    /// The name a download of the code gets.
    fn file_name(self) -> &'static str {
        match self {
            Self::Python => "client.py",
            Self::TypeScript => "client.ts",
        }
    }

    /// The panel's heading.
    pub fn heading(self) -> &'static str {
        match self {
            Self::Python => SANDBOX.snippets.python_heading,
            Self::TypeScript => SANDBOX.snippets.typescript_heading,
        }
    }

    /// The panel's introduction.
    pub fn intro(self) -> &'static str {
        match self {
            Self::Python => SANDBOX.snippets.python_intro,
            Self::TypeScript => SANDBOX.snippets.typescript_intro,
        }
    }
}

#[derive(Properties, PartialEq)]
pub struct TooLongProps {
    pub language: SnippetLanguage,
    pub code: String,
}

/// When the code is too long for a link even compressed: says so, and offers it as a file.
#[component]
pub fn TooLongForLink(props: &TooLongProps) -> Html {
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
