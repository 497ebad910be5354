//! A snippet's engine and run status: one line of text, and a bar while an engine loads.

use yew::prelude::*;

use super::bridge::{OutputLimit, RunEnding, OUTPUT_LIMITS};
use super::state::{Download, RunPhase};
use super::SnippetLanguage;
use crate::lesson::content::{fill, SnippetWords, SANDBOX};

#[derive(Properties, PartialEq)]
pub struct EngineStatusProps {
    pub language: SnippetLanguage,
    pub phase: RunPhase,
    pub limit_secs: u32,
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
                {status_text(language, props.phase, props.limit_secs)}
            </p>
            if let Some(fraction) = loading {
                <progress class="snippet-progress" max="1" value={fraction}
                    aria-label={fill(SANDBOX.snippets.loading, &[("name", language.name())])}></progress>
            }
        </>
    }
}

fn status_text(language: SnippetLanguage, phase: RunPhase, limit_secs: u32) -> String {
    let words = &SANDBOX.snippets;
    let name = language.name();
    match phase {
        RunPhase::NotRun => words.not_run.to_owned(),
        RunPhase::Preparing { download: None } => fill(words.starting, &[("name", name)]),
        RunPhase::Preparing {
            download: Some(download),
        } => fill(
            words.downloading,
            &[
                ("name", name),
                ("progress", downloaded(words, download).as_str()),
            ],
        ),
        RunPhase::Running => fill(words.running, &[("secs", limit_secs.to_string())]),
        RunPhase::Ended(ending) => ending_text(words, name, ending, limit_secs),
    }
}

fn ending_text(words: &SnippetWords, name: &str, ending: RunEnding, limit_secs: u32) -> String {
    let secs = [("secs", limit_secs.to_string())];
    match ending {
        RunEnding::Finished { millis } => fill(words.finished, &[("ms", millis.to_string())]),
        RunEnding::Failed { line: Some(line) } => {
            fill(words.failed_on_line, &[("line", line.to_string())])
        }
        RunEnding::Failed { line: None } => fill(words.failed, &[("name", name)]),
        RunEnding::TimedOut => fill(words.timed_out, &secs),
        RunEnding::Stopped => words.stopped.to_owned(),
        RunEnding::OutputLimitReached { limit } => {
            fill(words.output_limit, &[("limit", limit_text(words, limit))])
        }
        RunEnding::SandboxCrashed => words.crashed.to_owned(),
    }
}

fn limit_text(words: &SnippetWords, limit: OutputLimit) -> String {
    match limit {
        OutputLimit::TotalBytes => size_text(OUTPUT_LIMITS.total_bytes),
        OutputLimit::BytesPerSecond => fill(
            words.per_second,
            &[("size", size_text(OUTPUT_LIMITS.bytes_per_second))],
        ),
        OutputLimit::Lines => fill(
            words.lines,
            &[("count", with_thousands(OUTPUT_LIMITS.lines))],
        ),
    }
}

/// "1 MB", "500 KB" or "1,234 bytes": decimal units, as the caps are set.
pub fn size_text(bytes: u32) -> String {
    let words = &SANDBOX.snippets;
    let (unit, size) = match bytes {
        b if b >= 1_000_000 && b % 100_000 == 0 => {
            let tenths = b % 1_000_000 / 100_000;
            let whole = b / 1_000_000;
            let size = if tenths == 0 {
                whole.to_string()
            } else {
                format!("{whole}.{tenths}")
            };
            (words.megabytes, size)
        }
        b if b >= 1_000 && b % 1_000 == 0 => (words.kilobytes, (b / 1_000).to_string()),
        b => (words.bytes, with_thousands(b)),
    };
    fill(unit, &[("size", size)])
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

fn downloaded(words: &SnippetWords, download: Download) -> String {
    let megabytes = |bytes: f64| format!("{:.1}", bytes / 1e6);
    match download.total_bytes {
        Some(total) if total > 0.0 => fill(
            words.download_of,
            &[
                ("received", megabytes(download.received_bytes)),
                ("total", megabytes(total)),
            ],
        ),
        _ => fill(
            words.megabytes,
            &[("size", megabytes(download.received_bytes))],
        ),
    }
}
