//! "Your client": a learner's own lease client, written in Python or TypeScript, run as
//! every client of a scenario inside the deterministic world, in place of the model's own
//! [`LeaseClient`](crate::model::LeaseClient). Pure: the learner's code is reached through
//! [`Handlers`], which the snippet sandbox's worker implements around the code
//! (`src/bin/client_worker.rs`, `www/snippets/sandbox/worker.js`) and native tests implement
//! in Rust. The lock service, network, clocks, storage and faults stay the model's.
//!
//! * [`protocol`]: the calls, answers, settings and actions, as plain data;
//! * [`machine`]: the client the world drives ([`OwnClient`]), its timers and refusals;
//! * [`runner`]: a run with its trace, and the counterexample search against the code;
//! * [`report`]: what the sandbox sends back, read by the page as untrusted;
//! * [`wire`]: the numbers a handler call and its actions cross to the runtime as.

pub mod machine;
pub mod protocol;
pub mod report;
pub mod runner;
pub mod wire;

pub use machine::{ClientStop, During, Handlers, OwnClient, Refusal, Stop};
pub use protocol::{Action, Answer, AnswerKind, Handled, Input, InputKind, LossReason, Settings};
pub use report::{Report, RunReport};
pub use runner::{own_scenario, switch_applies, OwnRun, OwnSearch, Printed, RunStop, SearchAt};

/// The language a learner's client is written in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Language {
    /// Python, run by CPython (Pyodide).
    Python,
    /// TypeScript, with its types stripped (sucrase).
    TypeScript,
}

impl Language {
    /// Both, in the order offered.
    pub const ALL: [Language; 2] = [Language::Python, Language::TypeScript];

    /// The name in links and in the sandbox's protocol.
    pub fn slug(self) -> &'static str {
        match self {
            Language::Python => "python",
            Language::TypeScript => "typescript",
        }
    }

    /// The language a slug names.
    pub fn from_slug(slug: &str) -> Option<Language> {
        Language::ALL.into_iter().find(|l| l.slug() == slug)
    }
}
