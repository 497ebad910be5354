//! Renders the lesson's shell natively, with Yew's own server renderer, for
//! `tools/post-build.mjs` to write into `dist/index.html`. It prints one line of the tabs
//! as JSON (`[["gist","Gist"],…]`, for the page's first-paint script and its no-script
//! links), then the hydratable HTML of `#app`: the browser's first render adopts it. The
//! views are the app's own components; `lease_lab::app::hydration` says what they leave out.

use lease_lab::app::shell::{App, AppProps};
use lease_lab::route::Tab;

fn main() {
    let tabs: Vec<String> = Tab::ALL
        .iter()
        .map(|tab| format!("[\"{}\",\"{}\"]", tab.slug(), tab.label()))
        .collect();
    println!("[{}]", tabs.join(","));
    let runtime = tokio::runtime::Builder::new_current_thread()
        .build()
        .expect("a current-thread runtime builds");
    let local = tokio::task::LocalSet::new();
    let html = runtime.block_on(local.run_until(
        yew::LocalServerRenderer::<App>::with_props(AppProps { hydrating: true }).render(),
    ));
    println!("{html}");
}
