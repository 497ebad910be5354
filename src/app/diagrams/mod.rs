//! The lesson's interactive SVG diagrams and their Mermaid export.
//!
//! Each diagram draws the geometry from `lesson::diagram` and explains a selection in a
//! polite live region. Every box and arrow is a focusable button (Tab to reach it, Enter or
//! Space to select), so mouse, touch and keyboard all work. A diagram fits its column at
//! any width; where that makes its text small, Enlarge opens a live copy at its natural
//! size in a modal dialog. The sandbox reuses the
//! lifecycle, architecture and sequence diagrams live through their optional props.

pub mod architecture;
pub mod export;
pub mod lifecycle;
pub mod sequence;

use crate::lesson::number::Decimal;
use crate::lesson::sentences;
use web_sys::HtmlDialogElement;
use yew::prelude::*;

use crate::lesson::content::LESSON;
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

/// The id of a drawing's arrowhead: the enlarged copy needs its own, as ids are unique.
fn marker_id(base: &str, zoomed: bool) -> String {
    if zoomed {
        format!("{base}-zoomed")
    } else {
        base.to_owned()
    }
}

/// The arrowhead shared by every arrow in one drawing (`id` must be unique in the page).
fn arrow_marker(id: &str) -> Html {
    html! {
        <defs>
            <marker id={id.to_owned()} class="arrowhead" viewBox="0 0 10 10" refX="9" refY="5"
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
    marker: &str,
    select: Callback<()>,
    class: &'static str,
) -> Html {
    let path = curve.path();
    let onclick = select.reform(|_: MouseEvent| ());
    html! {
        <g class={classes!("edge", class)} role="button" tabindex="0" aria-label={aria_label}
            aria-pressed={pressed.to_string()} {onclick} onkeydown={on_activate_key(select)}>
            <path class="hit" d={path.clone()} />
            <path class="line" d={path} marker-end={format!("url(#{marker})")} />
            <text class="edge-label" x={Decimal(curve.label_at.x).to_string()} y={Decimal(curve.label_at.y).to_string()}
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

/// A diagram's selection: the learner's, by click or key, or one given from outside (a
/// link's, which arrives once the page has hydrated, or the sandbox's current step), which
/// takes its place whenever it changes to one.
struct Selection<S: 'static> {
    current: UseStateHandle<Option<S>>,
    on_select: Callback<S>,
}

impl<S: Copy + PartialEq + 'static> Selection<S> {
    fn current(&self) -> Option<S> {
        *self.current
    }

    fn is(&self, selection: S) -> bool {
        self.current() == Some(selection)
    }

    /// Selects `selection` and tells the diagram's owner.
    fn select(&self, selection: S) -> Callback<()> {
        let current = self.current.clone();
        let on_select = self.on_select.clone();
        Callback::from(move |()| {
            current.set(Some(selection));
            on_select.emit(selection);
        })
    }
}

#[hook]
fn use_selection<S: Copy + PartialEq + 'static>(
    outside: Option<S>,
    on_select: &Callback<S>,
) -> Selection<S> {
    let current = use_state(|| outside);
    {
        let current = current.clone();
        use_effect_with(outside, move |outside| {
            if outside.is_some() {
                current.set(*outside);
            }
        });
    }
    Selection {
        current,
        on_select: on_select.clone(),
    }
}

/// What [`diagram_figure`] shows.
struct Figure<'a> {
    /// The figure's own class, beside `diagram`.
    class: &'static str,
    /// The diagram's accessible name.
    label: String,
    /// The drawing's natural width (its viewBox), at which its text has its designed size.
    natural_width: f64,
    /// Draws the diagram; `true` for the enlarged copy, whose ids differ from the inline one's.
    draw: &'a dyn Fn(bool) -> Html,
    /// The explanation of the selection, under the drawing and under its enlarged copy, if
    /// the diagram is explained.
    explanation: Option<Html>,
}

/// A diagram in its figure: the drawing with its Enlarge button and dialog ([`zoom_frame`]),
/// and its explanation.
fn diagram_figure(zoom: &Zoom, figure: Figure) -> Html {
    let open = zoom.is_open();
    html! {
        <figure class={classes!("diagram", figure.class)}>
            { zoom_frame(zoom, Framed {
                label: figure.label,
                natural_width: figure.natural_width,
                inline: (figure.draw)(false),
                zoomed: if open { (figure.draw)(true) } else { Html::default() },
                caption: figure.explanation.clone().filter(|_| open).unwrap_or_default(),
            }) }
            { figure.explanation.unwrap_or_default() }
        </figure>
    }
}

/// A diagram's enlarged view: whether it is open, its `<dialog>`, and the button that
/// opens it (focus goes back there when it closes).
struct Zoom {
    open: UseStateHandle<bool>,
    dialog: NodeRef,
    button: NodeRef,
}

impl Zoom {
    /// Whether the enlarged copy is shown (only then is it drawn).
    fn is_open(&self) -> bool {
        *self.open
    }
}

/// The state of one diagram's enlarged view; the dialog opens as a modal once drawn.
#[hook]
fn use_zoom() -> Zoom {
    let open = use_state_eq(|| false);
    let dialog = use_node_ref();
    let button = use_node_ref();
    {
        let dialog = dialog.clone();
        use_effect_with(*open, move |&open| {
            if let Some(dialog) = dialog.cast::<HtmlDialogElement>().filter(|_| open) {
                if !dialog.open() {
                    let _ = dialog.show_modal();
                }
            }
        });
    }
    Zoom {
        open,
        dialog,
        button,
    }
}

/// What [`zoom_frame`] shows.
struct Framed {
    /// The diagram's accessible name.
    label: String,
    /// The drawing's natural width (its viewBox), at which its text has its designed size.
    natural_width: f64,
    /// The drawing fitted to the column.
    inline: Html,
    /// The enlarged copy (drawn only while open; its ids differ from the inline one's).
    zoomed: Html,
    /// Shown under the enlarged copy, such as the explanation of the selection.
    caption: Html,
}

/// A drawing that fits its column (nothing is cut off on a phone), with an Enlarge button
/// that opens it at least at its natural size in a modal dialog, where it scrolls and can
/// be pinch-zoomed. Escape or Close closes the dialog and focus returns to the button.
fn zoom_frame(zoom: &Zoom, framed: Framed) -> Html {
    let open = {
        let state = zoom.open.clone();
        Callback::from(move |_: MouseEvent| state.set(true))
    };
    let on_close = {
        let state = zoom.open.clone();
        let button = zoom.button.clone();
        Callback::from(move |_: Event| {
            state.set(false);
            if let Some(button) = button.cast::<web_sys::HtmlElement>() {
                let _ = button.focus();
            }
        })
    };
    let close = {
        let dialog = zoom.dialog.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(dialog) = dialog.cast::<HtmlDialogElement>() {
                dialog.close();
            }
        })
    };
    let words = &LESSON.zoom;
    let diagram = framed.label.to_string();
    let title = sentences::lesson::zoom::Title { diagram: &diagram }.to_string();
    let enlarge_label = sentences::lesson::zoom::EnlargeLabel { diagram }.to_string();
    html! {
        <>
            <div class="diagram-scroll">{framed.inline}</div>
            <div class="diagram-tools">
                <button ref={zoom.button.clone()} type="button" class="button small diagram-zoom-open"
                    aria-haspopup="dialog" aria-label={enlarge_label} onclick={open}>
                    <span aria-hidden="true">{"⤢ "}</span>{words.enlarge}
                </button>
            </div>
            if zoom.is_open() {
                <dialog ref={zoom.dialog.clone()} class="diagram-zoom" aria-label={title.clone()} onclose={on_close}>
                    <div class="diagram-zoom-bar">
                        <p class="diagram-zoom-title" aria-hidden="true">{title}</p>
                        <button type="button" class="button small" onclick={close}>{words.close}</button>
                    </div>
                    <div class="diagram-zoom-scroll" tabindex="0" role="group"
                        aria-label={words.scroll_hint}
                        style={format!("--natural-width: {}px", Decimal(framed.natural_width))}>
                        {framed.zoomed}
                    </div>
                    {framed.caption}
                </dialog>
            }
        </>
    }
}
