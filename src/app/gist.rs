//! The Gist tab.

use yew::prelude::*;

/// The Gist tab's content.
#[component]
pub fn GistTab() -> Html {
    html! {
        <h2>{"The gist"}</h2>
    }
}
