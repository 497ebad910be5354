//! The architecture diagram: a client, a lock service, and the four messages between them.
//!
//! Props for live use (the sandbox):
//! - `in_flight: Vec<InFlight>`: messages travelling now, each drawn as a dot with a label
//!   at `progress` (0 = just sent, 1 = arriving; clamped) along its edge's arrow.
//! - `on_select: Callback<ArchSelection>`: told of every selection by click or key.
//! - `explain: bool` (default true): whether to show the explanation panel under it.
//! - `acquire_label`: the acquire arrow's label naming the run's own TTL (the lesson's
//!   diagram names its example's 30 s).

use crate::lesson::number::Decimal;
use crate::lesson::sentences;
use yew::prelude::*;

use super::{
    arrow, arrow_marker, diagram_figure, explanation_panel, marker_id, on_activate_key,
    use_selection, use_zoom, Figure,
};
use crate::lesson::content::{ArchEdge, ArchNode, LESSON};
use crate::lesson::diagram::{
    architecture_box, architecture_curve, explain_architecture, ArchSelection, ARCHITECTURE_VIEW,
};

/// A message on its way along an edge.
#[derive(Clone, Debug, PartialEq)]
pub struct InFlight {
    pub edge: ArchEdge,
    /// 0.0 when sent, 1.0 on arrival.
    pub progress: f64,
    pub label: AttrValue,
}

#[derive(Properties, PartialEq)]
pub struct ArchitectureDiagramProps {
    #[prop_or_default]
    pub in_flight: Vec<InFlight>,
    #[prop_or_default]
    pub on_select: Callback<ArchSelection>,
    /// The part selected when the diagram first shows (from a share link).
    #[prop_or_default]
    pub initial: Option<ArchSelection>,
    #[prop_or(true)]
    pub explain: bool,
    #[prop_or_default]
    pub acquire_label: Option<AttrValue>,
}

const MARKER: &str = "architecture-arrow";

#[component]
pub fn ArchitectureDiagram(props: &ArchitectureDiagramProps) -> Html {
    let selection = use_selection(props.initial, &props.on_select);
    let zoom = use_zoom();
    let architecture = &LESSON.architecture;
    let draw = |zoomed: bool| {
        let marker = marker_id(MARKER, zoomed);
        html! {
            <svg viewBox={format!("0 0 {} {}", Decimal(ARCHITECTURE_VIEW.0), Decimal(ARCHITECTURE_VIEW.1))} role="group"
                aria-label={architecture.diagram_label} class="diagram-svg">
                { arrow_marker(&marker) }
                { for ArchNode::ALL.into_iter().map(|node| {
                    let picked = ArchSelection::Node(node);
                    node_box(node, selection.is(picked), selection.select(picked))
                }) }
                { for ArchEdge::ALL.into_iter().map(|edge| {
                    let label = match (edge, &props.acquire_label) {
                        (ArchEdge::Acquire, Some(label)) => label.as_str(),
                        _ => edge.text().label,
                    };
                    let picked = ArchSelection::Edge(edge);
                    edge_arrow(edge, label, selection.is(picked), &marker, selection.select(picked))
                }) }
                { for props.in_flight.iter().map(in_flight_dot) }
            </svg>
        }
    };
    diagram_figure(
        &zoom,
        Figure {
            class: "architecture-diagram",
            label: architecture.diagram_label.to_owned(),
            natural_width: ARCHITECTURE_VIEW.0,
            draw: &draw,
            explanation: props.explain.then(|| {
                explanation_panel(
                    selection.current().map(explain_architecture),
                    architecture.intro,
                )
            }),
        },
    )
}

/// A node: its title and duties, selectable.
fn node_box(node: ArchNode, pressed: bool, select: Callback<()>) -> Html {
    let rect = architecture_box(node);
    let onclick = select.reform(|_: MouseEvent| ());
    let names = &LESSON.names;
    let aria = sentences::lesson::names::Node {
        title: node.title(),
        duties: node.text().duties.join(names.duties_joiner),
    }
    .to_string();
    html! {
        <g class={classes!("node", format!("node-{}", node.slug()))} role="button" tabindex="0"
            aria-label={aria}
            aria-pressed={pressed.to_string()}
            {onclick} onkeydown={on_activate_key(select)}>
            <rect x={Decimal(rect.left()).to_string()} y={Decimal(rect.top()).to_string()}
                width={Decimal(rect.width).to_string()} height={Decimal(rect.height).to_string()} rx="12" />
            <text class="node-label" x={Decimal(rect.center.x).to_string()} y={Decimal(rect.top() + 26.0).to_string()}
                text-anchor="middle">{node.title()}</text>
            { for node.text().duties.iter().enumerate().map(|(i, duty)| html! {
                // The space keeps the visible words apart, so they match the name.
                <>{" "}<text class="node-duty" x={Decimal(rect.center.x).to_string()} y={Decimal(rect.top() + 62.0 + 26.0 * i as f64).to_string()}
                    text-anchor="middle">{*duty}</text></>
            }) }
        </g>
    }
}

/// A message between the nodes: requests drawn solid, replies dashed.
fn edge_arrow(
    edge: ArchEdge,
    label: &str,
    pressed: bool,
    marker: &str,
    select: Callback<()>,
) -> Html {
    let text = edge.text();
    let aria = sentences::lesson::names::Edge {
        label,
        from: text.from.title(),
        to: text.to.title(),
    }
    .to_string();
    let class = if matches!(edge, ArchEdge::Ok | ArchEdge::Fail) {
        "reply"
    } else {
        "request"
    };
    arrow(
        &architecture_curve(edge),
        label,
        aria,
        pressed,
        marker,
        select,
        class,
    )
}

/// A message on its way, as a dot with its label along its edge.
fn in_flight_dot(message: &InFlight) -> Html {
    let at = architecture_curve(message.edge).point_at(message.progress);
    html! {
        <g class="in-flight" aria-hidden="true">
            <circle cx={Decimal(at.x).to_string()} cy={Decimal(at.y).to_string()} r="7" />
            <text x={Decimal(at.x).to_string()} y={Decimal(at.y + 22.0).to_string()} text-anchor="middle">{message.label.clone()}</text>
        </g>
    }
}
