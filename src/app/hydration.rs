//! The lesson is pre-rendered into `index.html` by the same components (natively, through
//! Yew's server renderer: `src/bin/prerender.rs`), and the browser's first render hydrates
//! that markup. Hydration adopts the DOM node by node, so that first render must build the
//! same tree as the server did. The shell provides [`Hydrated`]: while it is false, views
//! leave out what only the browser knows (saved grades, speech, the link's selection);
//! once it turns true they take it in, in place.

use yew::prelude::*;

/// Whether the page has hydrated, as a context the shell provides.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hydrated(pub bool);

/// Whether the view may use what only the browser knows: false in the server's render and
/// the browser's hydrating one, true after (and wherever nothing was pre-rendered).
#[hook]
pub fn use_hydrated() -> bool {
    use_context::<Hydrated>().is_none_or(|hydrated| hydrated.0)
}

/// Whether this is the prerenderer's render (natively): it shows every panel, for readers
/// without JavaScript; in the browser the open tab's panel alone shows.
pub fn on_server() -> bool {
    cfg!(not(target_arch = "wasm32"))
}

/// Lets the page's controls take input: until now the first-paint script held them (see
/// `www/shell/first-paint.js`), so that nothing is lost to a click nothing handles yet.
pub fn release_controls() {
    if let Some(root) = gloo::utils::document().document_element() {
        let _ = root.remove_attribute("data-pending");
    }
}

/// The page's fragment, or none where there is no page (the prerenderer).
pub fn location_hash() -> String {
    if on_server() {
        String::new()
    } else {
        gloo::utils::window().location().hash().unwrap_or_default()
    }
}
