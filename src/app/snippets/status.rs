//! A snippet's engine and run status: one line of text, and a bar while an engine loads.

use crate::lesson::sentences;
use yew::prelude::*;

use super::bridge::RunEnding;
use super::state::{Download, RunPhase};
use super::SnippetLanguage;
use crate::lesson::content::{SnippetWords, SANDBOX};

#[derive(Properties, PartialEq)]
pub struct EngineStatusProps {
    pub language: SnippetLanguage,
    pub phase: RunPhase,
    pub limit_secs: u32,
    /// The run is a search: the limit bounds each stretch without progress, not the whole.
    #[prop_or_default]
    pub searching: bool,
    /// The reported run stopped before the scenario's end (the learner's code threw, …).
    #[prop_or_default]
    pub stopped_early: bool,
}

#[component]
pub fn EngineStatus(props: &EngineStatusProps) -> Html {
    let language = props.language;
    // While an engine loads: a bar that fills when sizes are known, else an indeterminate one.
    let loading = match props.phase {
        RunPhase::Preparing { download } => Some(download.and_then(|d| {
            d.total_bytes
                .filter(|total| *total > 0.0)
                .map(|total| (d.received_bytes / total).clamp(0.0, 1.0).to_string())
        })),
        _ => None,
    };
    html! {
        <>
            <p class="snippet-status" role="status">
                {status_text(props)}
            </p>
            if let Some(fraction) = loading {
                <progress class="snippet-progress" max="1" value={fraction}
                    aria-label={sentences::sandbox::snippets::Loading { name: language.name() }.to_string()}></progress>
            }
        </>
    }
}

fn status_text(props: &EngineStatusProps) -> String {
    let EngineStatusProps {
        language,
        phase,
        limit_secs,
        searching,
        stopped_early,
    } = *props;
    let words = &SANDBOX.snippets;
    let name = language.name();
    match phase {
        RunPhase::NotRun => words.not_run.to_owned(),
        RunPhase::Preparing { download: None } => {
            sentences::sandbox::snippets::Starting { name }.to_string()
        }
        RunPhase::Preparing {
            download: Some(download),
        } => sentences::sandbox::snippets::Downloading {
            name,
            progress: downloaded(download).as_str(),
        }
        .to_string(),
        RunPhase::Running if searching => {
            sentences::sandbox::snippets::Searching { secs: limit_secs }.to_string()
        }
        RunPhase::Running => sentences::sandbox::snippets::Running { secs: limit_secs }.to_string(),
        RunPhase::Ended(RunEnding::TimedOut) if searching => {
            sentences::sandbox::snippets::SearchTimedOut { secs: limit_secs }.to_string()
        }
        RunPhase::Ended(RunEnding::Reported { ms }) if stopped_early => match ms {
            Some(ms) => sentences::sandbox::snippets::ReportedStoppedIn { ms }.to_string(),
            None => words.reported_stopped.to_owned(),
        },
        RunPhase::Ended(ending) => ending_text(words, name, ending, limit_secs),
    }
}

fn ending_text(words: &SnippetWords, name: &str, ending: RunEnding, limit_secs: u32) -> String {
    match ending {
        RunEnding::Failed { line: Some(line) } => {
            sentences::sandbox::snippets::FailedOnLine { line }.to_string()
        }
        RunEnding::Failed { line: None } => {
            sentences::sandbox::snippets::Failed { name }.to_string()
        }
        RunEnding::TimedOut => {
            sentences::sandbox::snippets::TimedOut { secs: limit_secs }.to_string()
        }
        RunEnding::Stopped => words.stopped.to_owned(),
        RunEnding::SandboxCrashed => words.crashed.to_owned(),
        RunEnding::Reported { ms: Some(ms) } => {
            sentences::sandbox::snippets::ReportedIn { ms }.to_string()
        }
        RunEnding::Reported { ms: None } => words.reported.to_owned(),
    }
}

fn downloaded(download: Download) -> String {
    let megabytes = |bytes: f64| format!("{:.1}", bytes / 1e6);
    match download.total_bytes {
        Some(total) if total > 0.0 => sentences::sandbox::snippets::DownloadOf {
            received: megabytes(download.received_bytes),
            total: megabytes(total),
        }
        .to_string(),
        _ => sentences::sandbox::snippets::Megabytes {
            size: megabytes(download.received_bytes),
        }
        .to_string(),
    }
}
