//! The Yew views. They render the model's state and trace; they never re-derive model logic.
//!
//! Two wasm modules share them: the lesson's (`src/main.rs`, [`start`]: the shell, the
//! lesson tabs, the diagrams, embed mode) and the laboratory's (`src/bin/lab.rs`,
//! [`lab_entry`]: the sandbox, the pitfall exercise, the snippets), loaded on demand by
//! [`lab_loader`]. Each module keeps only the code its entry reaches.

pub mod address;
pub mod clock;
pub mod course;
pub mod diagrams;
pub mod embed;
mod error_panel;
mod focus;
pub mod gist;
pub mod hydration;
pub mod lab_entry;
pub mod lab_loader;
pub mod maps;
pub mod paint;
pub mod qa;
mod resize;
pub mod sandbox;
pub mod share;
pub mod shell;
pub mod snippets;
pub mod speech;
pub mod workers;

pub use error_panel::show_error_panel;

/// Empties the pre-rendered panels of the closed tabs: in the browser only the open tab's
/// panel has content, so hydration adopts that one and builds no other (the shell reads the
/// same address for its first render).
fn keep_only_the_open_panel(open: crate::route::Tab) {
    let document = gloo::utils::document();
    for tab in crate::route::Tab::ALL
        .into_iter()
        .filter(|&tab| tab != open)
    {
        if let Some(panel) = document.get_element_by_id(&shell::panel_id(tab)) {
            panel.set_text_content(None);
        }
    }
}

/// Installs the panic panel and starts the app in `#app`, in a course package once the
/// course bridge has answered (it may restore the learner's progress first). Called by
/// `main` in the browser.
pub fn start() {
    yew::set_custom_panic_hook(Box::new(|info| {
        show_error_panel(&info.to_string());
    }));
    match course::pending() {
        Some(pending) => wasm_bindgen_futures::spawn_local(async move {
            let channel = wasm_bindgen_futures::JsFuture::from(pending).await;
            course::connect(channel.unwrap_or(wasm_bindgen::JsValue::NULL));
            mount();
        }),
        None => mount(),
    }
}

/// Hydrates the pre-rendered lesson, or in embed mode renders its one view instead, once a
/// laboratory started before the lesson has stepped out of the markup.
fn mount() {
    let Some(root) = gloo::utils::document().get_element_by_id("app") else {
        show_error_panel("The page has no element with id \"app\" to mount Lease Lab into.");
        return;
    };
    let sandbox_open = !address::embed_asked() && open_tab() == crate::route::Tab::Sandbox;
    match lab_loader::before_the_lesson_hydrates(sandbox_open) {
        Some(aside) => wasm_bindgen_futures::spawn_local(async move {
            // It settles or is taken down; either way the markup is the server's again.
            let _ = wasm_bindgen_futures::JsFuture::from(aside).await;
            render(root);
        }),
        None => render(root),
    }
}

/// The tab the address opens (the first-paint script's tabs may change it until hydrated).
fn open_tab() -> crate::route::Tab {
    crate::route::Route::parse(&hydration::location_hash()).tab
}

/// Hydrates the lesson's pre-rendered markup in `root` (or renders it, where there is none),
/// or renders embed mode's one view over it.
fn render(root: web_sys::Element) {
    // Read now, after any wait for a laboratory started early: a link followed meanwhile
    // (whose hashchange the shell, not yet listening, never hears) is the one to show.
    let options = address::restore_from_location();
    if options.embed {
        // The pre-rendered markup is the whole lesson's: embed mode replaces it.
        yew::Renderer::<embed::EmbedApp>::with_root_and_props(
            root,
            embed::EmbedAppProps { options },
        )
        .render();
        hydration::release_controls();
    } else {
        // The page's own script hides the lesson when it takes the link for an embed one.
        if let Some(page) = gloo::utils::document().document_element() {
            let _ = page.remove_attribute("data-embed");
        }
        let prerendered = root.query_selector(".masthead").ok().flatten().is_some();
        if prerendered {
            keep_only_the_open_panel(open_tab());
        }
        let props = shell::AppProps {
            hydrating: prerendered,
        };
        let renderer = yew::Renderer::<shell::App>::with_root_and_props(root, props);
        if prerendered {
            renderer.hydrate();
        } else {
            renderer.render();
        }
    }
}
