//! The event log: the run as text, up to the cursor, for reading and for screen readers.
//! Only the latest events are rendered, however long the run: the cursor moves the window.

use yew::prelude::*;

use super::RunProps;
use crate::lesson::checks::CheckWords;
use crate::lesson::content::{fill, SANDBOX};
use crate::model::{Event, EventKind, Run};

const SHOWN_EVENTS: usize = 60;

/// The latest events up to the cursor, oldest first.
#[component]
pub fn EventLog(props: &RunProps) -> Html {
    let run = &props.run;
    let window = run.events_before(props.at, SHOWN_EVENTS);
    let total = window.total;
    let first = total - window.items.len() + 1;
    let words = &SANDBOX.event_log;
    html! {
        <details class="card event-log">
            <summary>{fill(words.summary, &[("total", total.to_string())])}</summary>
            <div role="log" aria-label={words.label} class="log-lines" tabindex="0">
                <ol start={first.to_string()}>
                    { for window.items.iter().map(|event| html! {
                        <li><span class="log-time">{run.shown_time(event.at).to_string()}</span>{" "}{line(event)}</li>
                    }) }
                </ol>
            </div>
            if total > SHOWN_EVENTS {
                <p class="muted small">{fill(words.window, &[
                    ("first", first.to_string()),
                    ("total", total.to_string()),
                    ("all", run.event_count().to_string()),
                ])}</p>
            }
        </details>
    }
}

/// One event as a line; a broken check gets its title from the lesson's words.
fn line(event: &Event) -> String {
    match event.kind {
        EventKind::CheckBroken { check } => format!("{}: {}", Run::describe(event), check.title()),
        _ => Run::describe(event),
    }
}
