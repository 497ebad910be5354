//! Component tests for the runnable snippets, run in headless Chromium by wasm-bindgen-test.
//! The editor bundle is not served here, so the panels keep their plain textarea.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use lease_lab::app::snippets::{SnippetLanguage, SnippetPanels, SnippetPanelsProps};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::Callback;

wasm_bindgen_test_configure!(run_in_browser);

fn fresh_host() -> web_sys::Element {
    let document = gloo::utils::document();
    let host = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    host
}

/// Lets the editor's failed lazy import settle, then flushes Yew's renders.
async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        gloo::utils::window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 100)
            .unwrap();
    });
    JsFuture::from(promise).await.unwrap();
    yew::scheduler::flush().await;
}

fn python_code(host: &web_sys::Element) -> HtmlTextAreaElement {
    host.query_selector("#snippet-python-code")
        .unwrap()
        .expect("the Python panel has its code textarea")
        .unchecked_into()
}

fn text_of(host: &web_sys::Element, selector: &str) -> String {
    host.query_selector(selector)
        .unwrap()
        .map(|element| element.text_content().unwrap_or_default())
        .unwrap_or_default()
}

#[wasm_bindgen_test]
async fn code_from_a_link_is_shown_but_never_run_unasked() {
    let shared = "print('this came with a link')\n";
    let host = fresh_host();
    let props = SnippetPanelsProps {
        python: Some(shared.to_owned()),
        typescript: None,
        on_code_change: Callback::noop(),
    };
    let panels = yew::Renderer::<SnippetPanels>::with_root_and_props(host.clone(), props).render();
    settle().await;

    assert_eq!(python_code(&host).value(), shared);
    let python_panel = text_of(&host, "[aria-labelledby=snippet-python-heading]");
    assert!(python_panel.contains("This code came with the link you opened"));
    assert!(python_panel.contains("Not run yet: nothing runs until you press Run."));
    // The TypeScript panel shows the original snippet, with no link notice.
    let typescript: HtmlTextAreaElement = host
        .query_selector("#snippet-typescript-code")
        .unwrap()
        .unwrap()
        .unchecked_into();
    assert_eq!(
        typescript.value(),
        SnippetLanguage::TypeScript.original_code()
    );
    assert!(!text_of(&host, "[aria-labelledby=snippet-typescript-heading]").contains("link"));
    // Nothing ran: the sandbox iframe is made only by the first Run.
    assert!(gloo::utils::document()
        .query_selector("iframe[sandbox]")
        .unwrap()
        .is_none());
    panels.destroy();
    host.remove();
}

#[wasm_bindgen_test]
async fn edits_are_reported_and_reset_brings_back_the_original() {
    let host = fresh_host();
    let changes = Rc::new(RefCell::new(Vec::new()));
    let props = SnippetPanelsProps {
        python: None,
        typescript: None,
        on_code_change: {
            let changes = changes.clone();
            Callback::from(move |change| changes.borrow_mut().push(change))
        },
    };
    let panels = yew::Renderer::<SnippetPanels>::with_root_and_props(host.clone(), props).render();
    settle().await;

    let code = python_code(&host);
    assert_eq!(code.value(), SnippetLanguage::Python.original_code());
    let reset: HtmlElement = host
        .query_selector(
            "[aria-labelledby=snippet-python-heading] .snippet-controls button:nth-child(3)",
        )
        .unwrap()
        .expect("the Python panel has its Reset button")
        .unchecked_into();
    assert_eq!(reset.text_content().unwrap(), "Reset to original");
    assert!(reset.has_attribute("disabled"));

    code.set_value("print('edited')\n");
    code.dispatch_event(&web_sys::InputEvent::new("input").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    assert_eq!(
        changes.borrow().as_slice(),
        [(
            SnippetLanguage::Python,
            Some(String::from("print('edited')\n"))
        )]
    );
    assert!(!reset.has_attribute("disabled"));

    reset.click();
    yew::scheduler::flush().await;
    assert_eq!(
        python_code(&host).value(),
        SnippetLanguage::Python.original_code()
    );
    assert_eq!(
        changes.borrow().last(),
        Some(&(SnippetLanguage::Python, None))
    );
    panels.destroy();
    host.remove();
}
