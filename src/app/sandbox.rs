//! The Sandbox tab: the lease laboratory and the runnable lost-flag snippets.

use yew::prelude::*;

/// The Sandbox tab's content.
#[component]
pub fn SandboxTab() -> Html {
    html! {
        <>
            <h2>{"Sandbox"}</h2>
            <crate::app::snippets::SnippetPanels />
        </>
    }
}
