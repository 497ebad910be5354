//! Component tests for the runnable snippets, run in headless Chromium by wasm-bindgen-test.
//! The editor bundle is not served here, so the panels keep their plain textarea.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use lease_lab::app::snippets::{
    OutputLimit, Panel, PanelAction, RunEnding, RunEvent, RunPhase, RunProgress, SnippetLanguage,
    SnippetPanels, SnippetPanelsProps, Stream,
};
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::functional::Reducible;
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

fn event(json: &str) -> Option<RunEvent> {
    RunEvent::from_js(js_sys::JSON::parse(json).expect("test JSON parses"))
}

#[wasm_bindgen_test]
fn malformed_runner_events_are_dropped_never_trusted() {
    for bad in [
        "null",
        "42",
        "\"finished\"",
        "{}",
        "{\"kind\":\"finished\"}",
        "{\"kind\":\"finished\",\"millis\":-1}",
        "{\"kind\":\"finished\",\"millis\":1.5}",
        "{\"kind\":\"finished\",\"millis\":1e20}",
        "{\"kind\":\"failed\",\"line\":-1}",
        "{\"kind\":\"failed\",\"line\":\"3\"}",
        "{\"kind\":\"output\",\"stream\":\"stdin\",\"text\":\"x\"}",
        "{\"kind\":\"output\",\"stream\":\"stdout\",\"text\":5}",
        "{\"kind\":\"outputLimitReached\",\"limit\":\"kilobytes\"}",
        "{\"kind\":\"downloading\",\"receivedBytes\":\"lots\",\"totalBytes\":null}",
        "{\"kind\":\"end\",\"outcome\":\"finished\"}",
    ] {
        assert_eq!(event(bad), None, "{bad} must not parse");
    }
    let nan = js_sys::Object::new();
    js_sys::Reflect::set(&nan, &"kind".into(), &"finished".into()).unwrap();
    js_sys::Reflect::set(&nan, &"millis".into(), &f64::NAN.into()).unwrap();
    assert_eq!(RunEvent::from_js(nan.into()), None);

    assert_eq!(
        event("{\"kind\":\"failed\",\"line\":null}"),
        Some(RunEvent::Ended(RunEnding::Failed { line: None }))
    );
    assert_eq!(
        event("{\"kind\":\"outputLimitReached\",\"limit\":\"lines\"}"),
        Some(RunEvent::Ended(RunEnding::OutputLimitReached {
            limit: OutputLimit::Lines
        }))
    );
    assert_eq!(
        event("{\"kind\":\"output\",\"stream\":\"stderr\",\"text\":\"<b>no</b>\"}"),
        Some(RunEvent::Progress(RunProgress::Output {
            stream: Stream::Stderr,
            text: String::from("<b>no</b>")
        }))
    );
}

fn reduce(panel: Rc<Panel>, run_id: u32, json: &str) -> Rc<Panel> {
    let event = event(json).expect("a well-formed event");
    panel.reduce(PanelAction::Report { run_id, event })
}

#[wasm_bindgen_test]
fn a_run_takes_its_news_in_order_and_ends_once() {
    let panel = Rc::new(Panel::new(String::from("print(1)")));
    // News of a run that never started changes nothing.
    let panel = reduce(panel, 1, "{\"kind\":\"running\"}");
    assert_eq!(panel.phase, RunPhase::NotRun);

    let panel = panel.reduce(PanelAction::Start);
    assert_eq!(panel.run_id, 1);
    // A second Start while the run goes is ignored.
    let panel = panel.reduce(PanelAction::Start);
    assert_eq!(panel.run_id, 1);
    let panel = reduce(panel, 1, "{\"kind\":\"running\"}");
    let panel = reduce(
        panel,
        1,
        "{\"kind\":\"output\",\"stream\":\"stdout\",\"text\":\"a\\n\"}",
    );
    // An older run's output and endings are dropped.
    let panel = reduce(
        panel,
        0,
        "{\"kind\":\"output\",\"stream\":\"stdout\",\"text\":\"old\\n\"}",
    );
    let panel = reduce(panel, 0, "{\"kind\":\"stopped\"}");
    assert_eq!(panel.phase, RunPhase::Running);
    // A look-alike "running" cannot go back to preparing or restart anything.
    let panel = reduce(panel, 1, "{\"kind\":\"starting\"}");
    assert_eq!(panel.phase, RunPhase::Running);

    let panel = reduce(panel, 1, "{\"kind\":\"finished\",\"millis\":12}");
    assert_eq!(
        panel.phase,
        RunPhase::Ended(RunEnding::Finished { millis: 12 })
    );
    // Exactly one ending: later endings, output and "running" are ignored.
    let panel = reduce(panel, 1, "{\"kind\":\"timedOut\"}");
    let panel = reduce(
        panel,
        1,
        "{\"kind\":\"output\",\"stream\":\"stdout\",\"text\":\"late\\n\"}",
    );
    let panel = reduce(panel, 1, "{\"kind\":\"running\"}");
    assert_eq!(
        panel.phase,
        RunPhase::Ended(RunEnding::Finished { millis: 12 })
    );
    let printed: Vec<_> = panel
        .stdout
        .pieces()
        .map(|piece| piece.to_string())
        .collect();
    assert_eq!(printed, ["a\n"]);

    // The next run starts with empty output.
    let panel = panel.reduce(PanelAction::Start);
    assert_eq!(panel.run_id, 2);
    assert_eq!(panel.stdout.pieces().count(), 0);
}

#[wasm_bindgen_test]
async fn output_is_shown_as_text_never_as_html() {
    let host = fresh_host();
    let props = SnippetPanelsProps {
        python: None,
        typescript: None,
        on_code_change: Callback::noop(),
    };
    let panels = yew::Renderer::<SnippetPanels>::with_root_and_props(host.clone(), props).render();
    settle().await;
    // The status line and output areas exist; nothing ran, so they are empty of output.
    assert!(text_of(
        &host,
        "[aria-labelledby=snippet-python-heading] [role=status]"
    )
    .starts_with("Not run yet"));
    assert_eq!(text_of(&host, ".snippet-stdout"), "");
    assert!(host.query_selector(".snippet-stdout *").unwrap().is_none());
    panels.destroy();
    host.remove();
}
