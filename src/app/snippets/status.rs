//! A snippet's engine and run status: one line of text, and a bar while an engine loads.

use crate::lesson::sentences;
use yew::prelude::*;

use super::bridge::{OutputLimit, RunEnding, OUTPUT_LIMITS};
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
                {status_text(language, props.phase, props.limit_secs, props.searching)}
            </p>
            if let Some(fraction) = loading {
                <progress class="snippet-progress" max="1" value={fraction}
                    aria-label={sentences::sandbox::snippets::Loading { name: language.name() }.to_string()}></progress>
            }
        </>
    }
}

fn status_text(
    language: SnippetLanguage,
    phase: RunPhase,
    limit_secs: u32,
    searching: bool,
) -> String {
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
        RunPhase::Ended(ending) => ending_text(words, name, ending, limit_secs),
    }
}

fn ending_text(words: &SnippetWords, name: &str, ending: RunEnding, limit_secs: u32) -> String {
    match ending {
        RunEnding::Finished { millis } => {
            sentences::sandbox::snippets::Finished { ms: millis }.to_string()
        }
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
        RunEnding::OutputLimitReached { limit } => sentences::sandbox::snippets::OutputLimit {
            limit: limit_text(limit),
        }
        .to_string(),
        RunEnding::SandboxCrashed => words.crashed.to_owned(),
        RunEnding::Reported { ms: Some(ms) } => {
            sentences::sandbox::snippets::ReportedIn { ms }.to_string()
        }
        RunEnding::Reported { ms: None } => words.reported.to_owned(),
    }
}

fn limit_text(limit: OutputLimit) -> String {
    match limit {
        OutputLimit::TotalBytes => size_text(OUTPUT_LIMITS.total_bytes),
        OutputLimit::BytesPerSecond => sentences::sandbox::snippets::PerSecond {
            size: size_text(OUTPUT_LIMITS.bytes_per_second),
        }
        .to_string(),
        OutputLimit::Lines => sentences::sandbox::snippets::Lines {
            count: with_thousands(OUTPUT_LIMITS.lines),
        }
        .to_string(),
    }
}

/// "1 MB", "500 KB" or "1,234 bytes": decimal units, as the caps are set.
pub fn size_text(bytes: u32) -> String {
    use sentences::sandbox::snippets::{Bytes, Kilobytes, Megabytes};
    match bytes {
        b if b >= 1_000_000 && b % 100_000 == 0 => {
            let tenths = b % 1_000_000 / 100_000;
            let whole = b / 1_000_000;
            let size = if tenths == 0 {
                whole.to_string()
            } else {
                format!("{whole}.{tenths}")
            };
            Megabytes { size }.to_string()
        }
        b if b >= 1_000 && b % 1_000 == 0 => Kilobytes { size: b / 1_000 }.to_string(),
        b => Bytes {
            size: with_thousands(b),
        }
        .to_string(),
    }
}

fn with_thousands(n: u32) -> String {
    let digits = n.to_string();
    let mut grouped = String::new();
    for (i, digit) in digits.chars().enumerate() {
        if i > 0 && (digits.len() - i) % 3 == 0 {
            grouped.push(',');
        }
        grouped.push(digit);
    }
    grouped
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
