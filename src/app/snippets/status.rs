//! A snippet's engine and run status: one line of text, and a bar while an engine loads.

use yew::prelude::*;

use super::bridge::{OutputLimit, RunEnding, OUTPUT_LIMITS};
use super::state::{Download, RunPhase};
use super::SnippetLanguage;

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
                    aria-label={format!("Loading {}", language.name())}></progress>
            }
        </>
    }
}

fn status_text(language: SnippetLanguage, phase: RunPhase, limit_secs: u32) -> String {
    let name = language.name();
    match phase {
        RunPhase::NotRun => String::from("Not run yet: nothing runs until you press Run."),
        RunPhase::Preparing { download: None } => format!("Starting {name}…"),
        RunPhase::Preparing {
            download: Some(download),
        } => format!("Downloading {name}… {}", downloaded(download)),
        RunPhase::Running => format!("Running… (stopped after {limit_secs} s)"),
        RunPhase::Ended(ending) => ending_text(name, ending, limit_secs),
    }
}

fn ending_text(name: &str, ending: RunEnding, limit_secs: u32) -> String {
    match ending {
        RunEnding::Finished { millis } => format!("Finished in {millis} ms."),
        RunEnding::Failed { line: Some(line) } => format!("Stopped by an error on line {line}."),
        RunEnding::Failed { line: None } => format!("{name} reported an error."),
        RunEnding::TimedOut => format!("Stopped: the time limit of {limit_secs} s ran out."),
        RunEnding::Stopped => String::from("Stopped."),
        RunEnding::OutputLimitReached { limit } => {
            format!(
                "Output limit reached: {}. The run was stopped.",
                limit_text(limit)
            )
        }
        RunEnding::SandboxCrashed => {
            String::from("The snippet ran out of memory and its sandbox was restarted.")
        }
    }
}

fn limit_text(limit: OutputLimit) -> String {
    match limit {
        OutputLimit::TotalBytes => size_text(OUTPUT_LIMITS.total_bytes),
        OutputLimit::BytesPerSecond => {
            format!(
                "{} in one second",
                size_text(OUTPUT_LIMITS.bytes_per_second)
            )
        }
        OutputLimit::Lines => format!("{} lines", with_thousands(OUTPUT_LIMITS.lines)),
    }
}

/// "1 MB", "500 KB" or "1,234 bytes": decimal units, as the caps are set.
pub fn size_text(bytes: u32) -> String {
    match bytes {
        b if b >= 1_000_000 && b % 100_000 == 0 => {
            format!("{}.{} MB", b / 1_000_000, b % 1_000_000 / 100_000).replace(".0 ", " ")
        }
        b if b >= 1_000 && b % 1_000 == 0 => format!("{} KB", b / 1_000),
        b => format!("{} bytes", with_thousands(b)),
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
        Some(total) if total > 0.0 => format!(
            "{} of {} MB",
            megabytes(download.received_bytes),
            megabytes(total)
        ),
        _ => format!("{} MB", megabytes(download.received_bytes)),
    }
}
