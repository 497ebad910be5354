//! The event log: the run as text, up to the cursor, for reading and for screen readers.
//! Only the latest events are rendered, however long the run: the cursor moves the window.

use crate::lesson::sentences;
use crate::model::RunQuestions;
use yew::prelude::*;

use super::RunProps;
use crate::lab::describe;
use crate::lesson::content::SANDBOX;

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
            <summary>{sentences::sandbox::event_log::Summary { total }.to_string()}</summary>
            <div role="log" aria-label={words.label} class="log-lines" tabindex="0">
                <ol start={first.to_string()}>
                    { for window.items.iter().map(|(event, found)| html! {
                        <li><span class="log-time">{run.shown_time(event.at).to_string()}</span>{" "}{describe::event(event, *found)}</li>
                    }) }
                </ol>
            </div>
            if total > SHOWN_EVENTS {
                <p class="muted small">{sentences::sandbox::event_log::Window { first, total, all: run.event_count() }.to_string()}</p>
            }
        </details>
    }
}
