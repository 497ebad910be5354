//! The laboratory's wasm module (`src/bin/lab.rs` is its thin entry): the page shell loads
//! it on demand ([`super::lab_loader`]), starts it with the link the page was opened with,
//! and mounts it into the Sandbox panel or embed mode's view. It has its own Yew roots and
//! writes no address itself: its fields go to the shell, which owns the address bar.

use web_sys::Element;
use yew::prelude::*;

use super::address::History;
use super::paint::after_paint;
use super::sandbox::{Laboratory, SandboxSections};
use super::share;

/// Installs the panic panel and reads the link the page shows (the one it was opened with,
/// or one followed since); `on_problems` receives what of it the lab could not read, now and
/// for each link followed since, for the shell's notice, and `on_fields` the lab's link
/// fields.
pub fn start(
    link: &str,
    on_fields: impl Fn(String, History) + 'static,
    on_problems: impl Fn(Vec<String>) + 'static,
) {
    yew::set_custom_panic_hook(Box::new(|info| {
        super::show_error_panel(&info.to_string());
    }));
    share::connect_shell(link, Box::new(on_fields), Box::new(on_problems));
}

/// Shows a link the page went to after the laboratory started (see [`share::follow_link`]).
pub fn follow(link: &str) {
    share::follow_link(link);
}

/// What a mount shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabPart {
    /// The laboratory, the pitfall exercise and the snippets (the Sandbox tab).
    Sandbox,
    /// The laboratory alone (embed mode).
    Laboratory,
}

impl LabPart {
    /// The part the shell names (see `lab_loader::LabPart::slug`); anything else is the
    /// Sandbox's.
    pub fn from_slug(slug: &str) -> LabPart {
        match slug {
            "laboratory" => LabPart::Laboratory,
            _ => LabPart::Sandbox,
        }
    }
}

/// Mounts `part` into `host`; the handle unmounts it when the shell takes the host away.
pub fn mount(host: Element, part: LabPart) -> yew::AppHandle<LabRoot> {
    number_roots_past_the_shells(&host);
    yew::Renderer::<LabRoot>::with_root_and_props(host.clone(), LabRootProps { part, host })
        .render()
}

/// The property where Yew writes, on a root's host and on each element with a listener, the
/// number of the root (its "subtree") that handles its events.
const SUBTREE_ID: &str = "__yew_subtree_id";

/// Each wasm module's Yew numbers its roots from 1, and the shell's root holds the
/// laboratory's host, so the shell's event handler sees every click in the laboratory. It
/// takes one as its own when the clicked element's root number is its own root's, and then
/// runs the shell's listener that has the element's listener number: a click on "Jump to
/// end" once opened Maps. The laboratory's next roots are numbered past the numbers of the
/// roots around `host` by mounting (and dropping) empty roots until the count is past them.
fn number_roots_past_the_shells(host: &Element) {
    let around = roots_around(host);
    let document = gloo::utils::document();
    while let Ok(probe) = document.create_element("div") {
        let handle = yew::Renderer::<EmptyRoot>::with_root(probe.clone()).render();
        let numbered = subtree_id(&probe);
        handle.destroy();
        if numbered.is_none_or(|number| number > around) {
            break;
        }
    }
}

/// Whether the laboratory's root at `host` is numbered past the roots around it, as
/// [`mount`] numbers it: one mounted before the shell's roots were (a Sandbox link's, started
/// by the first-paint script) is adopted only if so.
pub fn numbered_past_the_shells(host: &Element) -> bool {
    subtree_id(host).is_some_and(|own| own > roots_around(host))
}

/// The highest number of the roots around `host` (0 where there is none).
fn roots_around(host: &Element) -> f64 {
    std::iter::successors(host.parent_element(), |element| element.parent_element())
        .filter_map(|element| subtree_id(&element))
        .fold(0.0, f64::max)
}

fn subtree_id(element: &Element) -> Option<f64> {
    js_sys::Reflect::get(element, &SUBTREE_ID.into())
        .ok()?
        .as_f64()
}

/// A root that renders nothing, mounted only to use up a root number.
#[component]
fn EmptyRoot() -> Html {
    Html::default()
}

#[derive(Properties, PartialEq)]
pub struct LabRootProps {
    part: LabPart,
    host: Element,
}

/// One of the laboratory's roots. Once the laboratory's first render is on the page, its
/// host says so with `data-lab-ready` (for the load-timing script and the tests). Two
/// paints later (the sections that join after the first one are drawn too), it says
/// `data-lab-settled`: until then the sections below the first screen skip layout (lab.css).
#[component]
pub fn LabRoot(props: &LabRootProps) -> Html {
    {
        let host = props.host.clone();
        use_effect_with((), move |_| {
            let _ = host.set_attribute("data-lab-ready", "");
            let keeper = super::focus::keep_focus_in(&host);
            after_paint(move || {
                after_paint(move || {
                    let _ = host.set_attribute("data-lab-settled", "");
                })
            });
            move || drop(keeper)
        });
    }
    let key = use_remount_key();
    match props.part {
        LabPart::Sandbox => html! { <SandboxSections {key} /> },
        LabPart::Laboratory => html! { <Laboratory {key} /> },
    }
}

/// A key that changes when a followed link asks for the laboratory to be mounted afresh
/// ([`share::use_remount_on_link`]): it reads the link's state only when it mounts.
#[hook]
fn use_remount_key() -> String {
    let mounts = use_mut_ref(|| 0u64);
    let update = use_force_update();
    {
        let mounts = mounts.clone();
        share::use_remount_on_link(Callback::from(move |()| {
            *mounts.borrow_mut() += 1;
            update.force_update();
        }));
    }
    let key = mounts.borrow().to_string();
    key
}
