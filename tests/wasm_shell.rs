//! Component tests for the app shell, run in headless Chromium by wasm-bindgen-test.
#![cfg(target_arch = "wasm32")]

use lease_lab::app::{shell::App, show_error_panel};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn document() -> web_sys::Document {
    gloo::utils::document()
}

fn fresh_host() -> web_sys::Element {
    let host = document().create_element("div").unwrap();
    document().body().unwrap().append_child(&host).unwrap();
    host
}

/// Lets queued browser tasks (such as `hashchange`) run, then flushes Yew's renders.
async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        gloo::utils::window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 20)
            .unwrap();
    });
    JsFuture::from(promise).await.unwrap();
    yew::scheduler::flush().await;
}

fn selected_tab(host: &web_sys::Element) -> String {
    host.query_selector("[role=tab][aria-selected=true]")
        .unwrap()
        .expect("one tab is selected")
        .text_content()
        .unwrap_or_default()
}

fn visible_panel_id(host: &web_sys::Element) -> String {
    host.query_selector("[role=tabpanel]:not([hidden])")
        .unwrap()
        .expect("one panel is visible")
        .id()
}

#[wasm_bindgen_test]
async fn clicking_a_tab_switches_the_visible_panel() {
    gloo::utils::window().location().set_hash("#/gist").unwrap();
    settle().await;
    let host = fresh_host();
    let app = yew::Renderer::<App>::with_root(host.clone()).render();
    yew::scheduler::flush().await;

    assert!(selected_tab(&host).ends_with("Gist"));
    assert_eq!(visible_panel_id(&host), "panel-gist");
    assert_eq!(host.query_selector_all("[role=tab]").unwrap().length(), 4);

    let maps: web_sys::HtmlElement = host
        .query_selector("#tab-maps")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    maps.click();
    settle().await;

    assert_eq!(gloo::utils::window().location().hash().unwrap(), "#/maps");
    assert!(selected_tab(&host).ends_with("Maps"));
    assert_eq!(visible_panel_id(&host), "panel-maps");
    let gist_panel = host.query_selector("#panel-gist").unwrap().unwrap();
    assert!(gist_panel.has_attribute("hidden"));
    assert_eq!(gist_panel.child_element_count(), 0);

    app.destroy();
    host.remove();
}

#[wasm_bindgen_test]
async fn the_error_panel_shows_the_report_as_text_never_as_markup() {
    let app_root = document().create_element("div").unwrap();
    app_root.set_id("app");
    document().body().unwrap().append_child(&app_root).unwrap();

    show_error_panel("boom <img src=x onerror=alert(1)>");
    show_error_panel("a second panic does not add a second panel");

    let panels = document().query_selector_all("#error-panel").unwrap();
    assert_eq!(panels.length(), 1);
    let panel = app_root.query_selector("[role=alert]").unwrap().unwrap();
    assert!(panel
        .text_content()
        .unwrap()
        .contains("stopped because of a bug"));
    assert!(panel.query_selector("img").unwrap().is_none());
    let report: web_sys::HtmlTextAreaElement = panel
        .query_selector("textarea")
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap();
    assert!(report.value().contains("boom <img src=x onerror=alert(1)>"));
    app_root.remove();
}

fn tab_button(host: &web_sys::Element, slug: &str) -> web_sys::HtmlElement {
    host.query_selector(&format!("#tab-{slug}"))
        .unwrap()
        .unwrap()
        .dyn_into()
        .unwrap()
}

/// Focuses the tab `from` (without selecting it) and presses `key` there.
async fn press_on_tab(host: &web_sys::Element, from: &str, key: &str) {
    let tab = tab_button(host, from);
    tab.focus().unwrap();
    let init = web_sys::KeyboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_key(key);
    let event =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    tab.dispatch_event(&event).unwrap();
    settle().await;
}

fn focused_id() -> String {
    document()
        .active_element()
        .map(|e| e.id())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn arrow_keys_move_from_the_focused_tab_not_the_selected_one() {
    gloo::utils::window().location().set_hash("#/qa").unwrap();
    settle().await;
    let host = fresh_host();
    let app = yew::Renderer::<App>::with_root(host.clone()).render();
    yew::scheduler::flush().await;
    assert!(selected_tab(&host).ends_with("Q&A"));

    // Q&A is open, focus is on Gist: ArrowRight goes on from Gist.
    press_on_tab(&host, "gist", "ArrowRight").await;
    assert!(selected_tab(&host).ends_with("Maps"));
    assert_eq!(focused_id(), "tab-maps");
    assert_eq!(tab_button(&host, "maps").tab_index(), 0);
    assert_eq!(tab_button(&host, "qa").tab_index(), -1);

    // Maps is open, focus is on Q&A: ArrowLeft goes back from Q&A, to Maps.
    press_on_tab(&host, "qa", "ArrowLeft").await;
    assert!(selected_tab(&host).ends_with("Maps"));
    assert_eq!(focused_id(), "tab-maps");

    // Home from anywhere opens the first tab; other keys do nothing.
    press_on_tab(&host, "qa", "Home").await;
    assert!(selected_tab(&host).ends_with("Gist"));
    assert_eq!(focused_id(), "tab-gist");
    press_on_tab(&host, "maps", "ArrowDown").await;
    assert!(selected_tab(&host).ends_with("Gist"));
    assert_eq!(visible_panel_id(&host), "panel-gist");

    app.destroy();
    host.remove();
}
