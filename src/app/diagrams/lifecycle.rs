//! The lease lifecycle state machine: Acquiring, Holding, Renew result, Lost, Releasing.
//!
//! Props for live use (the sandbox):
//! - `markers: Vec<StateMarker>`: badges such as "A" and "B" drawn on the state each client
//!   is in; several may share a state.
//! - `active_transition: Option<(LeaseState, LeaseState)>`: an arrow to emphasise, such as
//!   the transition just taken.
//! - `on_select: Callback<LifecycleSelection>`: told of every selection by click or key.
//! - `explain: bool` (default true): whether to show the explanation panel under it.

use crate::lesson::number::Decimal;
use crate::lesson::sentences;
use yew::prelude::*;

use super::{
    arrow, arrow_marker, diagram_figure, explanation_panel, marker_id, on_activate_key,
    use_selection, use_zoom, Figure,
};
use crate::lesson::content::{LeaseState, TransitionText, LESSON};
use crate::lesson::diagram::{
    explain_lifecycle, lifecycle_box, lifecycle_curve, LifecycleSelection, LIFECYCLE_VIEW,
};

/// A badge on a state, e.g. where client "A" is now.
#[derive(Clone, Debug, PartialEq)]
pub struct StateMarker {
    pub state: LeaseState,
    pub label: AttrValue,
}

#[derive(Properties, PartialEq)]
pub struct LifecycleDiagramProps {
    #[prop_or_default]
    pub markers: Vec<StateMarker>,
    #[prop_or_default]
    pub active_transition: Option<(LeaseState, LeaseState)>,
    #[prop_or_default]
    pub on_select: Callback<LifecycleSelection>,
    /// The part selected when the diagram first shows (from a share link).
    #[prop_or_default]
    pub initial: Option<LifecycleSelection>,
    #[prop_or(true)]
    pub explain: bool,
}

const MARKER: &str = "lifecycle-arrow";

/// The state machine as SVG, with its explanation panel.
#[component]
pub fn LifecycleDiagram(props: &LifecycleDiagramProps) -> Html {
    let selection = use_selection(props.initial, &props.on_select);
    let zoom = use_zoom();
    let (width, height) = LIFECYCLE_VIEW;
    let lifecycle = &LESSON.lifecycle;
    let draw = |zoomed: bool| {
        let marker = marker_id(MARKER, zoomed);
        let transitions = lifecycle.transitions.iter().filter_map(|t| {
            let picked = LifecycleSelection::Transition {
                from: t.from,
                to: t.to,
            };
            let active = props.active_transition == Some((t.from, t.to));
            transition_arrow(
                t,
                active,
                selection.is(picked),
                &marker,
                selection.select(picked),
            )
        });
        let states = LeaseState::ALL.into_iter().map(|state| {
            let picked = LifecycleSelection::State(state);
            let badges: Vec<&StateMarker> =
                props.markers.iter().filter(|m| m.state == state).collect();
            state_box(
                state,
                &badges,
                selection.is(picked),
                selection.select(picked),
            )
        });
        html! {
            <svg viewBox={format!("0 0 {} {}", Decimal(width), Decimal(height))} role="group" aria-label={lifecycle.diagram_label}
                class="diagram-svg" preserveAspectRatio="xMidYMid meet">
                { arrow_marker(&marker) }
                { for transitions }
                { for states }
            </svg>
        }
    };
    diagram_figure(
        &zoom,
        Figure {
            class: "lifecycle-diagram",
            label: lifecycle.diagram_label.to_owned(),
            natural_width: width,
            draw: &draw,
            explanation: props.explain.then(|| {
                explanation_panel(
                    selection.current().and_then(explain_lifecycle),
                    lifecycle.hint,
                )
            }),
        },
    )
}

/// A transition's arrow, if the lesson's geometry draws it.
fn transition_arrow(
    t: &TransitionText,
    active: bool,
    pressed: bool,
    marker: &str,
    select: Callback<()>,
) -> Option<Html> {
    let curve = lifecycle_curve(t.from, t.to)?;
    let aria = sentences::lesson::names::Transition {
        from: t.from.text().label,
        to: t.to.text().label,
        label: t.label,
    }
    .to_string();
    let class = if active { "active" } else { "" };
    Some(arrow(&curve, t.label, aria, pressed, marker, select, class))
}

/// A state's box, with a badge for each client in it.
fn state_box(
    state: LeaseState,
    badges: &[&StateMarker],
    pressed: bool,
    select: Callback<()>,
) -> Html {
    let text = state.text();
    let rect = lifecycle_box(state);
    let names = &LESSON.names;
    let aria = if badges.is_empty() {
        sentences::lesson::names::State {
            number: text.number,
            label: text.label,
        }
        .to_string()
    } else {
        let who: Vec<&str> = badges.iter().map(|m| m.label.as_str()).collect();
        // The badges are visible text, so the name repeats them (WCAG "label in name").
        sentences::lesson::names::StateWith {
            number: text.number,
            label: text.label,
            badges: who.join(" "),
            clients: who.join(names.clients_joiner),
        }
        .to_string()
    };
    let onclick = select.reform(|_: MouseEvent| ());
    html! {
        <g class={classes!("node", format!("state-{}", state.slug()))} role="button" tabindex="0"
            aria-label={aria} aria-pressed={pressed.to_string()}
            {onclick} onkeydown={on_activate_key(select)}>
            <rect x={Decimal(rect.left()).to_string()} y={Decimal(rect.top()).to_string()}
                width={Decimal(rect.width).to_string()} height={Decimal(rect.height).to_string()} rx="10" />
            <text class="node-label" x={Decimal(rect.center.x).to_string()} y={Decimal(rect.center.y + 5.0).to_string()}
                text-anchor="middle">
                <tspan class="node-number">{text.number}</tspan>{" "}<tspan>{text.label}</tspan>
            </text>
            { for badges.iter().enumerate().map(|(i, m)| {
                let cx = rect.left() + rect.width - 12.0 - 24.0 * i as f64;
                let cy = rect.top();
                // The space keeps the badge's letter apart from the state's name.
                html! {
                    <>{" "}<g class="badge" aria-hidden="true">
                        <circle cx={Decimal(cx).to_string()} cy={Decimal(cy).to_string()} r="11" />
                        <text x={Decimal(cx).to_string()} y={Decimal(cy + 4.0).to_string()} text-anchor="middle">{m.label.clone()}</text>
                    </g></>
                }
            }) }
        </g>
    }
}
