//! The Maps tab.

use yew::prelude::*;

/// The Maps tab's content.
#[component]
pub fn MapsTab() -> Html {
    html! {
        <h2>{"Maps"}</h2>
    }
}
