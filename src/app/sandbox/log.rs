//! The event log: the run as text, up to the cursor, for reading and for screen readers.

use yew::prelude::*;

use super::StepProps;
use crate::lesson::checks::CheckWords;
use crate::model::{Event, EventKind, Run};

const SHOWN_EVENTS: usize = 60;

/// The latest events up to the cursor, oldest first.
#[component]
pub fn EventLog(props: &StepProps) -> Html {
    let lab = &props.lab.0;
    let events = lab.run().events_until(props.at);
    let shown = &events[events.len().saturating_sub(SHOWN_EVENTS)..];
    html! {
        <details class="card event-log">
            <summary>{format!("Event log ({} events so far)", events.len())}</summary>
            <div role="log" aria-label="Event log" class="log-lines" tabindex="0">
                <ol>
                    { for shown.iter().map(|event| html! {
                        <li><span class="log-time">{event.at.to_string()}</span>{" "}{line(event)}</li>
                    }) }
                </ol>
            </div>
            if events.len() > SHOWN_EVENTS {
                <p class="muted small">{format!("Showing the last {SHOWN_EVENTS} events; step back or scrub to read earlier ones.")}</p>
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
