//! Embed mode: one view with minimal chrome for an iframe in a course page.
//!
//! It must work inside `<iframe sandbox="allow-scripts">` (an opaque origin: no storage, no
//! clipboard), so nothing here may throw. It reports its content height to the parent as
//! `{ type: "lease-lab:height", height }` (CSS pixels) on load and whenever the content
//! resizes, and it never touches the top window.

use std::cell::Cell;
use std::rc::Rc;

use gloo::events::EventListener;
use js_sys::{Object, Reflect};
use wasm_bindgen::prelude::*;
use web_sys::HtmlElement;
use yew::prelude::*;

use super::address;
use super::diagrams::{ArchitectureDiagram, LifecycleDiagram};
use super::lab_loader::{LabMount, LabPart};
use super::resize::ResizeWatch;
use super::share::{CopyLink, LinkNotice};
use super::{gist::GistTab, maps::MapsTab, qa::QaTab};
use crate::lesson::diagram::{ArchSelection, LifecycleSelection};
use crate::lesson::LESSON;
use crate::route::{Route, Tab};
use crate::share::embed::{DiagramView, EmbedOptions, HEIGHT_MESSAGE_TYPE};

/// Rules that only embed mode needs: no page margin, and controls hidden on request (a theme
/// that the link forces is `data-theme` on `<html>`, which the stylesheet's colours follow).
const EMBED_CSS: &str = "body{margin:0}.embed{padding:0.75rem 1rem}\
.embed-no-controls .playback-buttons,.embed-no-controls .speed,.embed-no-controls .playback .hint,\
.embed-no-controls .live-faults .hint,\
.embed-no-controls .preset-picker>label,.embed-no-controls .preset-picker select,\
.embed-no-controls .lab-mode,.embed-no-controls .lab-settings,.embed-no-controls .search-panel,\
.embed-no-controls .copy-field,.embed-no-controls .embed-builder,\
.embed-no-controls .export{display:none}";

/// Properties of [`EmbedApp`].
#[derive(Properties, PartialEq)]
pub struct EmbedAppProps {
    /// The options read from the address.
    pub options: EmbedOptions,
}

fn current_tab() -> Tab {
    Route::parse(&gloo::utils::window().location().hash().unwrap_or_default()).tab
}

/// Embed mode's options on show: the page's own, then as each followed link sets them.
#[derive(PartialEq)]
struct ShownOptions(EmbedOptions);

impl Reducible for ShownOptions {
    /// The fragment the page followed.
    type Action = String;

    fn reduce(self: Rc<Self>, fragment: String) -> Rc<Self> {
        Rc::new(ShownOptions(address::followed_options(self.0, &fragment)))
    }
}

/// The whole page in embed mode.
#[component]
pub fn EmbedApp(props: &EmbedAppProps) -> Html {
    let tab = use_state(current_tab);
    let follows = use_state(address::selections_followed);
    let options = use_reducer_eq(|| ShownOptions(props.options));
    let root = use_node_ref();
    {
        let (tab, follows, options) = (tab.clone(), follows.clone(), options.clone());
        use_effect_with((), move |_| {
            let listener = EventListener::new(&gloo::utils::window(), "hashchange", move |_| {
                // A course page that points the frame at another link (a new fragment in its
                // src) gets that link's state and options, as a fresh load of it would.
                let hash = gloo::utils::window().location().hash().unwrap_or_default();
                follows.set(address::follow_location(&hash));
                tab.set(current_tab());
                options.dispatch(hash);
            });
            move || drop(listener)
        });
    }
    use_effect_with(options.0.theme, |theme| {
        if let Some(html) = gloo::utils::document().document_element() {
            let _ = match theme {
                Some(theme) => html.set_attribute("data-theme", theme.slug()),
                // The reader's own theme.
                None => html.remove_attribute("data-theme"),
            };
        }
    });
    {
        let root = root.clone();
        use_effect_with((), move |_| {
            let reporter = root.cast::<HtmlElement>().map(HeightReporter::start);
            move || drop(reporter)
        });
    }
    let view = match options.0.diagram {
        Some(diagram) => diagram_view(diagram, *follows),
        None => match *tab {
            Tab::Gist => html! { <GistTab /> },
            Tab::Maps => html! { <MapsTab /> },
            Tab::Qa => html! { <QaTab /> },
            Tab::Sandbox => html! { <LabMount part={LabPart::Laboratory} /> },
        },
    };
    let class = classes!(
        "embed",
        options.0.hide_controls.then_some("embed-no-controls")
    );
    html! {
        <ContextProvider<address::SelectionFollows> context={*follows}>
        <main ref={root} {class}>
            <style>{EMBED_CSS}</style>
            // Every page needs its one `h1`: the lesson's title, out of sight, since each view
            // starts with its own visible heading (a tab's, the laboratory's, a diagram's).
            <h1 class="visually-hidden">{LESSON.masthead.title}</h1>
            <LinkNotice />
            {view}
            <CopyLink />
        </main>
        </ContextProvider<address::SelectionFollows>>
    }
}

/// One diagram alone, under its heading, mounted afresh when a followed link changes the
/// selection.
fn diagram_view(diagram: DiagramView, follows: address::SelectionFollows) -> Html {
    let key = follows.0;
    let (heading, body) = match diagram {
        // The link's selection shows selected, as on the lesson's tabs.
        DiagramView::Architecture => (
            LESSON.architecture.heading,
            html! {
                <ArchitectureDiagram {key}
                    initial={address::initial_selection().and_then(|id| ArchSelection::from_id(&id))} />
            },
        ),
        DiagramView::Lifecycle => (
            LESSON.lifecycle_map.heading,
            html! {
                <LifecycleDiagram {key}
                    initial={address::initial_selection().and_then(|id| LifecycleSelection::from_id(&id))} />
            },
        ),
        DiagramView::Sequence => (
            LESSON.sequence.heading,
            super::maps::heartbeat_sequence_diagram(key, true),
        ),
    };
    html! {
        <section class="lesson" aria-labelledby="embed-diagram">
            <h2 id="embed-diagram">{heading}</h2>
            {body}
        </section>
    }
}

/// Posts the root's height to the parent window on start and on every resize, while alive.
struct HeightReporter {
    _watch: ResizeWatch,
}

impl HeightReporter {
    fn start(root: HtmlElement) -> HeightReporter {
        let last = Rc::new(Cell::new(-1));
        let post = {
            let root = root.clone();
            // The page's wrapper (`#app`) pads the view at the bottom: the frame needs that too,
            // or it scrolls by the padding.
            let measured = root
                .parent_element()
                .and_then(|wrapper| wrapper.dyn_into::<HtmlElement>().ok())
                .unwrap_or_else(|| root.clone());
            move || {
                let height = measured.offset_height().max(root.scroll_height());
                if height != last.get() {
                    last.set(height);
                    post_height(height);
                }
            }
        };
        post();
        HeightReporter {
            _watch: ResizeWatch::new(&root, post),
        }
    }
}

/// Sends `{ type: "lease-lab:height", height }` to the parent window, if there is one.
/// The target origin is `*`: the parent's origin is unknown, and the height is no secret.
fn post_height(height: i32) {
    let window = gloo::utils::window();
    let Ok(Some(parent)) = window.parent() else {
        return;
    };
    if JsValue::from(parent.clone()) == JsValue::from(window) {
        return;
    }
    let message = Object::new();
    let _ = Reflect::set(
        &message,
        &JsValue::from_str("type"),
        &JsValue::from_str(HEIGHT_MESSAGE_TYPE),
    );
    let _ = Reflect::set(
        &message,
        &JsValue::from_str("height"),
        &JsValue::from(height),
    );
    let _ = parent.post_message(&message, "*");
}
