//! The lesson's interactive SVG diagrams and their Mermaid export.
//!
//! Each diagram draws the geometry from `lesson::diagram` and explains a selection in a
//! polite live region. Every box and arrow is a focusable button (Tab to reach it, Enter or
//! Space to select), so mouse, touch and keyboard all work. The sandbox reuses the
//! lifecycle, architecture and sequence diagrams live through their optional props.

pub mod architecture;
pub mod export;
pub mod lifecycle;
pub mod sequence;

use yew::prelude::*;

use crate::lesson::diagram::{Curve, Explanation};

pub use architecture::{ArchitectureDiagram, ArchitectureDiagramProps, InFlight};
pub use export::MermaidExport;
pub use lifecycle::{LifecycleDiagram, LifecycleDiagramProps, StateMarker};
pub use sequence::{SequenceDiagram, SequenceDiagramProps, SequenceMessage};

/// Runs `select` on Enter or Space, as a native button would.
fn on_activate_key(select: Callback<()>) -> Callback<KeyboardEvent> {
    Callback::from(move |event: KeyboardEvent| {
        if matches!(event.key().as_str(), "Enter" | " ") {
            event.prevent_default();
            select.emit(());
        }
    })
}

/// The arrowhead shared by every arrow in one diagram (`id` must be unique in the page).
fn arrow_marker(id: &'static str) -> Html {
    html! {
        <defs>
            <marker {id} class="arrowhead" viewBox="0 0 10 10" refX="9" refY="5"
                markerUnits="userSpaceOnUse" markerWidth="12" markerHeight="12" orient="auto-start-reverse">
                <path d="M0 0 L10 5 L0 10 z" />
            </marker>
        </defs>
    }
}

/// One selectable arrow: a wide invisible hit line, the drawn line and its label.
fn arrow(
    curve: &Curve,
    label: &str,
    aria_label: String,
    pressed: bool,
    marker: &'static str,
    select: Callback<()>,
    class: &'static str,
) -> Html {
    let path = curve.path();
    let onclick = {
        let select = select.clone();
        Callback::from(move |_: MouseEvent| select.emit(()))
    };
    html! {
        <g class={classes!("edge", class)} role="button" tabindex="0" aria-label={aria_label}
            aria-pressed={pressed.to_string()} {onclick} onkeydown={on_activate_key(select)}>
            <path class="hit" d={path.clone()} />
            <path class="line" d={path} marker-end={format!("url(#{marker})")} />
            <text class="edge-label" x={curve.label_at.x.to_string()} y={curve.label_at.y.to_string()}
                text-anchor={curve.label_anchor.svg()}>{label.to_owned()}</text>
        </g>
    }
}

/// The live region under a diagram: the selection's explanation, or the hint.
fn explanation_panel(explanation: Option<Explanation>, hint: &str) -> Html {
    html! {
        <div class="explanation" aria-live="polite">
            { match explanation {
                Some(explanation) => html! {
                    <>
                        <p class="explanation-title">{explanation.title}</p>
                        <dl>
                            { for explanation.lines.into_iter().map(|(label, text)| html! {
                                <div class="explanation-line"><dt>{label}</dt><dd>{text}</dd></div>
                            }) }
                        </dl>
                    </>
                },
                None => html! { <p class="hint">{hint.to_owned()}</p> },
            } }
        </div>
    }
}
