//! One component with state and a click: hydrated into the page's body (or rendered, without
//! the `hydration` feature).

use yew::prelude::*;

#[function_component]
fn Counter() -> Html {
    let clicks = use_state(|| 0u32);
    let onclick = {
        let clicks = clicks.clone();
        Callback::from(move |_| clicks.set(*clicks + 1))
    };
    html! { <main><button {onclick}>{"Clicked "}{*clicks}</button></main> }
}

fn main() {
    let Some(body) = web_sys::window()
        .and_then(|w| w.document())
        .and_then(|d| d.body())
    else {
        return;
    };
    let renderer = yew::Renderer::<Counter>::with_root(body.into());
    #[cfg(feature = "hydration")]
    renderer.hydrate();
    #[cfg(not(feature = "hydration"))]
    renderer.render();
}
