//! The Qa tab.

use yew::prelude::*;

/// The Qa tab's content.
#[component]
pub fn QaTab() -> Html {
    html! {
        <h2>{"Interview Q&A"}</h2>
    }
}
