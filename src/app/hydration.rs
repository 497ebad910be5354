//! The lesson is pre-rendered into `index.html` by the same components (natively, through
//! Yew's server renderer: `src/bin/prerender.rs`), and the browser's first render hydrates
//! that markup. Hydration adopts the DOM node by node, so that first render must build the
//! same tree as the server did: while [`matching_server`] is true, views leave out what
//! only the browser knows (saved grades, speech, the link's selection and problems). Once
//! hydrated, the shell renders the page as the browser sees it.

use std::cell::Cell;

thread_local! {
    static HYDRATING: Cell<bool> = const { Cell::new(false) };
}

/// Whether this render must match the server's: always in the prerenderer, and in the
/// browser during the hydrating render.
pub fn matching_server() -> bool {
    cfg!(not(target_arch = "wasm32")) || HYDRATING.with(Cell::get)
}

/// Whether this is the prerenderer's render (natively): it shows every panel, for readers
/// without JavaScript; in the browser the open tab's panel alone shows.
pub fn on_server() -> bool {
    cfg!(not(target_arch = "wasm32"))
}

/// Marks the start and the end of the browser's hydrating render.
pub fn set_hydrating(hydrating: bool) {
    HYDRATING.with(|h| h.set(hydrating));
}

/// The page's fragment, or none where there is no page (the prerenderer).
pub fn location_hash() -> String {
    if cfg!(target_arch = "wasm32") {
        gloo::utils::window().location().hash().unwrap_or_default()
    } else {
        String::new()
    }
}
