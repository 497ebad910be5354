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

/// Installs the panic panel, reads the link the page shows (the one it was opened with, or
/// one followed since), and shows its problems in the shell's notice slot (if it has one);
/// `on_fields` then receives the lab's link fields.
pub fn start(link: &str, on_fields: impl Fn(String, History) + 'static) {
    yew::set_custom_panic_hook(Box::new(|info| {
        super::show_error_panel(&info.to_string());
    }));
    share::connect_shell(link, Box::new(on_fields));
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

/// Shows a link the page went to after the laboratory started (see [`share::follow_link`]).
pub fn follow(link: &str) {
    share::follow_link(link);
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
    let key = use_remount_key(props.part != LabPart::Notice);
    match props.part {
        LabPart::Sandbox => html! { <SandboxSections {key} /> },
        LabPart::Laboratory => html! { <><LinkNotice /><Laboratory {key} /></> },
        LabPart::Notice => html! { <LinkNotice /> },
    }
}

/// A key that changes when a followed link asks for the laboratory to be mounted afresh
/// ([`share::use_remount_on_link`], only when `enabled`): it reads the link's state only
/// when it mounts.
#[hook]
fn use_remount_key(enabled: bool) -> String {
    let mounts = use_mut_ref(|| 0u64);
    let update = use_force_update();
    {
        let mounts = mounts.clone();
        share::use_remount_on_link(
            enabled,
            Callback::from(move |()| {
                *mounts.borrow_mut() += 1;
                update.force_update();
            }),
        );
    }
    let key = mounts.borrow().to_string();
    key
}
