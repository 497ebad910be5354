//! The laboratory's wasm module (`src/bin/lab.rs` is its thin entry): the page shell loads
//! it on demand ([`super::lab_loader`]), starts it with the link the page was opened with,
//! and mounts it into the Sandbox panel or embed mode's view. It has its own Yew roots and
//! writes no address itself: its fields go to the shell, which owns the address bar.

use web_sys::Element;
use yew::prelude::*;

use super::address::History;
use super::paint::after_paint;
use super::sandbox::{Laboratory, SandboxSections};
use super::share::{self, LinkNotice};

/// The id of the element where the shell wants the link notice about the lab's fields.
const NOTICE_SLOT: &str = "lab-notice";

/// Installs the panic panel, reads the page's original link, and shows its problems in the
/// shell's notice slot (if it has one); `on_fields` then receives the lab's link fields.
pub fn start(opened_with: &str, on_fields: impl Fn(String, History) + 'static) {
    yew::set_custom_panic_hook(Box::new(|info| {
        super::show_error_panel(&info.to_string());
    }));
    share::connect_shell(opened_with, Box::new(on_fields));
    if let Some(slot) = gloo::utils::document().get_element_by_id(NOTICE_SLOT) {
        // The notice stays for the page's life, as the shell's own does.
        std::mem::forget(
            yew::Renderer::<LabRoot>::with_root_and_props(
                slot.clone(),
                LabRootProps {
                    part: LabPart::Notice,
                    host: slot,
                },
            )
            .render(),
        );
    }
}

/// What a mount shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum LabPart {
    /// The laboratory, the pitfall exercise and the snippets (the Sandbox tab).
    Sandbox,
    /// The link notice and the laboratory alone (embed mode).
    Laboratory,
    /// The problems with the lab's part of the page's link.
    Notice,
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
    yew::Renderer::<LabRoot>::with_root_and_props(host.clone(), LabRootProps { part, host })
        .render()
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
        let part = props.part;
        use_effect_with((), move |_| {
            if part != LabPart::Notice {
                let _ = host.set_attribute("data-lab-ready", "");
                after_paint(move || {
                    after_paint(move || {
                        let _ = host.set_attribute("data-lab-settled", "");
                    })
                });
            }
        });
    }
    match props.part {
        LabPart::Sandbox => html! { <SandboxSections /> },
        LabPart::Laboratory => html! { <><LinkNotice /><Laboratory /></> },
        LabPart::Notice => html! { <LinkNotice /> },
    }
}
