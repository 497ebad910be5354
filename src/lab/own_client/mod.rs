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

/// `text` from the learner's code (a printed line, an error) as the page shows it: the
/// characters that reorder text around them (bidirectional overrides, embeddings and
/// isolates) are written out as `\u{…}`, so a line cannot make itself, or what follows it,
/// read other than it was printed; everything else is kept.
pub fn with_controls_visible(text: &str) -> std::borrow::Cow<'_, str> {
    let reorders = |c: char| matches!(c, '\u{202A}'..='\u{202E}' | '\u{2066}'..='\u{2069}' | '\u{200E}' | '\u{200F}' | '\u{061C}');
    if !text.contains(reorders) {
        return text.into();
    }
    text.chars()
        .map(|c| {
            if reorders(c) {
                format!("\\u{{{:04X}}}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect::<String>()
        .into()
}

#[cfg(test)]
mod tests {
    use super::with_controls_visible;

    #[test]
    fn characters_that_reorder_text_are_written_out_and_the_rest_kept() {
        assert_eq!(with_controls_visible("plain é ✓ \0"), "plain é ✓ \0");
        assert_eq!(
            with_controls_visible("RTL \u{202E}llun\u{2069} \u{200F}x"),
            "RTL \\u{202E}llun\\u{2069} \\u{200F}x"
        );
        // Arabic and Hebrew letters themselves are text, not controls.
        assert_eq!(with_controls_visible("שלום مرحبا"), "שלום مرحبا");
    }
}
