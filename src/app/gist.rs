//! The Gist tab: how you know you still hold the lease, heartbeat renewal, the overview and
//! the interactive lease lifecycle. Every word comes from `lesson::LESSON`.

use yew::prelude::*;

use super::address;
use super::diagrams::LifecycleDiagram;
use crate::lesson::content::{Card, LeaseState};
use crate::lesson::diagram::LifecycleSelection;
use crate::lesson::LESSON;

#[component]
pub fn GistTab() -> Html {
    let hydrated = super::hydration::use_hydrated();
    let key = address::use_selection_key();
    let gist = &LESSON.gist;
    let lifecycle = &LESSON.lifecycle;
    html! {
        <div class="lesson gist">
            <section aria-labelledby="gist-holding">
                <h2 id="gist-holding">{gist.holding_heading}</h2>
                <p class="lead">{gist.holding_intro}</p>
                <div class="card-pair">
                    { card(&gist.prefer, "prefer") }
                    { card(&gist.alternative, "alternative") }
                </div>
            </section>

            <section aria-labelledby="gist-heartbeat">
                <h2 id="gist-heartbeat">{gist.heartbeat.heading}</h2>
                <p class="lead">{gist.heartbeat.lead}</p>
                <ol class="steps">
                    { for gist.heartbeat.steps.iter().map(|step| html! {
                        <li class="step">
                            <h3>{step.title}</h3>
                            <p>{step.body.join(" ")}</p>
                        </li>
                    }) }
                </ol>
            </section>

            <section aria-labelledby="gist-overview">
                <h2 id="gist-overview">{gist.overview.heading}</h2>
                { for gist.overview.paragraphs.iter().map(|p| html! { <p>{*p}</p> }) }
                <h3>{gist.overview.objectives_heading}</h3>
                <ul class="objectives">
                    { for gist.overview.objectives.iter().map(|o| html! { <li>{*o}</li> }) }
                </ul>
            </section>

            <section aria-labelledby="gist-lifecycle">
                <h2 id="gist-lifecycle">{lifecycle.heading}</h2>
                <p>{lifecycle.intro}</p>
                <LifecycleDiagram {key}
                    initial={hydrated.then(address::initial_selection).flatten().and_then(|id| LifecycleSelection::from_id(&id))}
                    on_select={Callback::from(|s: LifecycleSelection| address::record_selection(Some(s.id())))} />
                <p class="muted">{lifecycle.summary}</p>
                <h3>{lifecycle.decisions_heading}</h3>
                <ol class="decisions">
                    { for LeaseState::ALL.into_iter().map(decision_item) }
                </ol>
            </section>
        </div>
    }
}

/// A "Prefer" or "Alternative" card.
fn card(card: &'static Card, kind: &'static str) -> Html {
    html! {
        <article class={classes!("card", "advice", kind)}>
            <p class="tag">{card.tag}</p>
            <h3>{card.title}</h3>
            <p>{card.body.join(" ")}</p>
            <ul>
                { for card.bullets.iter().map(|b| html! { <li>{*b}</li> }) }
            </ul>
        </article>
    }
}

/// A state with its ways out, as a text companion to the diagram.
fn decision_item(state: LeaseState) -> Html {
    let text = state.text();
    let exits: Vec<_> = LESSON
        .lifecycle
        .transitions
        .iter()
        .filter(|t| t.from == state)
        .collect();
    html! {
        <li>
            <span class="state-chip" aria-hidden="true">{text.number}</span>
            <strong>{text.label}</strong>
            if exits.is_empty() {
                <span class="muted">{" — "}{LESSON.lifecycle.end_state}</span>
            } else {
                <ul class="exits">
                    { for exits.into_iter().map(|t| {
                        let to = t.to.text();
                        html! { <li><em>{t.label}</em>{" → "}{format!("{} {}", to.number, to.label)}</li> }
                    }) }
                </ul>
            }
        </li>
    }
}
