//! The event log: the run as text, up to the cursor, for reading and for screen readers.

use yew::prelude::*;

use super::StepProps;
use crate::model::Run;

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
                        <li><span class="log-time">{event.at.to_string()}</span>{" "}{Run::describe(event)}</li>
                    }) }
                </ol>
            </div>
            if events.len() > SHOWN_EVENTS {
                <p class="muted small">{format!("Showing the last {SHOWN_EVENTS} events; step back or scrub to read earlier ones.")}</p>
            }
        </details>
    }
}
