//! Component tests for "Your client"'s code panel, run in headless Chromium by
//! wasm-bindgen-test. The editor bundle is not served here, so the panel keeps its plain
//! textarea.
#![cfg(target_arch = "wasm32")]

use std::rc::Rc;

use lease_lab::app::sandbox::own_client::{OwnClientLab, OwnClientProps};
use lease_lab::app::snippets::{
    Panel, PanelAction, RunEnding, RunEvent, RunPhase, RunProgress, SnippetLanguage, Stream, Task,
};
use lease_lab::model::presets;
use wasm_bindgen::JsCast;
use wasm_bindgen_futures::JsFuture;
use wasm_bindgen_test::*;
use web_sys::{HtmlElement, HtmlTextAreaElement};
use yew::functional::Reducible;

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

/// Opens `link` as the page would, then mounts "Your client" on the healthy holder.
async fn mount(link: &str, host: &web_sys::Element) -> yew::AppHandle<OwnClientLab> {
    lease_lab::app::share::connect_shell(link, Box::new(|_, _| {}), Box::new(|_| {}));
    let props = OwnClientProps {
        scenario: presets::preset("1").unwrap().scenario.clone(),
    };
    let app = yew::Renderer::<OwnClientLab>::with_root_and_props(host.clone(), props).render();
    settle().await;
    app
}

fn button(host: &web_sys::Element, text: &str) -> HtmlElement {
    let buttons = host.query_selector_all("button").unwrap();
    (0..buttons.length())
        .filter_map(|i| buttons.item(i))
        .find(|b| b.text_content().unwrap_or_default().trim() == text)
        .unwrap_or_else(|| panic!("a {text} button"))
        .unchecked_into()
}

#[wasm_bindgen_test]
async fn code_from_a_link_is_shown_but_never_run_unasked() {
    let host = fresh_host();
    let Some(lease_lab::share::code::CodeField::Plain(field)) =
        lease_lab::share::code::to_field("print('this came with a link')")
    else {
        panic!("short code travels plain")
    };
    let app = mount(&format!("#/sandbox?v=1&client=python&py={field}"), &host).await;
    assert_eq!(python_code(&host).value(), "print('this came with a link')");
    let panel = host.text_content().unwrap_or_default();
    assert!(panel.contains("This code came with the link you opened"));
    assert!(panel.contains("Not run yet: nothing runs until you press Run in the lab."));
    assert_eq!(
        button(&host, "Python")
            .get_attribute("aria-pressed")
            .as_deref(),
        Some("true")
    );
    // Nothing ran: the sandbox iframe is made only by the first run.
    assert!(gloo::utils::document()
        .query_selector("iframe[sandbox]")
        .unwrap()
        .is_none());
    app.destroy();
    host.remove();
}

#[wasm_bindgen_test]
async fn reset_brings_back_the_starter_and_the_solution_is_one_click_away() {
    let host = fresh_host();
    let app = mount("#/sandbox?v=1&client=python", &host).await;
    let code = python_code(&host);
    assert_eq!(code.value(), SnippetLanguage::Python.original_code());
    let reset = button(&host, "Reset");
    assert!(reset.has_attribute("disabled"));

    code.set_value("print('edited')\n");
    code.dispatch_event(&web_sys::InputEvent::new("input").unwrap())
        .unwrap();
    yew::scheduler::flush().await;
    assert!(!reset.has_attribute("disabled"));
    assert_eq!(
        lease_lab::app::share::initial_snippets().python.as_deref(),
        Some("print('edited')\n")
    );

    reset.click();
    yew::scheduler::flush().await;
    assert_eq!(
        python_code(&host).value(),
        SnippetLanguage::Python.original_code()
    );
    assert_eq!(lease_lab::app::share::initial_snippets().python, None);

    button(&host, "Show a solution").click();
    yew::scheduler::flush().await;
    assert_eq!(
        python_code(&host).value(),
        SnippetLanguage::Python.solution_code()
    );
    assert!(button(&host, "Show a solution").has_attribute("disabled"));
    app.destroy();
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
        "\"stopped\"",
        "{}",
        "{\"kind\":\"finished\",\"millis\":12}",
        "{\"kind\":\"result\"}",
        "{\"kind\":\"result\",\"json\":\"{}\",\"ms\":-1}",
        "{\"kind\":\"result\",\"json\":\"{}\",\"ms\":1.5}",
        "{\"kind\":\"result\",\"json\":\"{}\",\"ms\":1e20}",
        "{\"kind\":\"failed\",\"line\":-1}",
        "{\"kind\":\"failed\",\"line\":\"3\"}",
        "{\"kind\":\"output\",\"stream\":\"stdin\",\"text\":\"x\"}",
        "{\"kind\":\"output\",\"stream\":\"stdout\",\"text\":5}",
        "{\"kind\":\"outputLimitReached\",\"limit\":\"lines\"}",
        "{\"kind\":\"downloading\",\"receivedBytes\":\"lots\",\"totalBytes\":null}",
        "{\"kind\":\"end\",\"outcome\":\"finished\"}",
        "{\"kind\":\"result\",\"json\":7}",
        "{\"kind\":\"progress\",\"ran\":\"many\"}",
        "{\"kind\":\"reported\"}",
    ] {
        assert_eq!(event(bad), None, "{bad} must not parse");
    }
    let nan = js_sys::Object::new();
    js_sys::Reflect::set(&nan, &"kind".into(), &"result".into()).unwrap();
    js_sys::Reflect::set(&nan, &"json".into(), &"{}".into()).unwrap();
    js_sys::Reflect::set(&nan, &"ms".into(), &f64::NAN.into()).unwrap();
    assert_eq!(RunEvent::from_js(nan.into()), None);

    assert_eq!(
        event("{\"kind\":\"failed\",\"line\":null}"),
        Some(RunEvent::Ended(RunEnding::Failed { line: None }))
    );
    assert_eq!(
        event("{\"kind\":\"output\",\"stream\":\"stderr\",\"text\":\"<b>no</b>\"}"),
        Some(RunEvent::Progress(RunProgress::Output {
            stream: Stream::Stderr,
            text: String::from("<b>no</b>")
        }))
    );
}

fn task() -> Task {
    Task {
        code: Rc::from("print(1)"),
        scenario: Rc::new(presets::preset("1").unwrap().scenario.clone()),
        search: None,
    }
}

fn reduce(panel: Rc<Panel>, run_id: u32, json: &str) -> Rc<Panel> {
    reduce_at(panel, run_id, json, 0.0)
}

/// As [`reduce`], the news arriving at `at_ms` by the page's clock.
fn reduce_at(panel: Rc<Panel>, run_id: u32, json: &str, at_ms: f64) -> Rc<Panel> {
    let event = event(json).expect("a well-formed event");
    panel.reduce(PanelAction::Report {
        run_id,
        event,
        at_ms,
    })
}

/// The time limit ran out: in one call that never returned (no call told for seconds), or
/// with calls still coming (a timer re-armed with a tiny delay), which is no hang.
#[wasm_bindgen_test]
fn a_time_limit_says_a_call_hung_only_when_calls_had_stopped_coming() {
    let errors_at_limit = |last_call_ms: f64| {
        let panel = Rc::new(Panel::new(String::from("def start(node): pass")));
        let panel = panel.reduce(PanelAction::Start(task()));
        let panel = reduce_at(panel, 1, "{\"kind\":\"running\"}", 0.0);
        let call = "{\"kind\":\"calling\",\"client\":\"A\",\"call\":2,\"x\":0,\"timer\":\"tick\",\"mono\":1200000}";
        let panel = reduce_at(panel, 1, call, last_call_ms);
        let panel = reduce_at(panel, 1, "{\"kind\":\"timedOut\"}", 5_000.0);
        panel
            .stderr
            .pieces()
            .map(|p| p.to_string())
            .collect::<String>()
    };
    let hung = errors_at_limit(40.0);
    assert!(
        hung.contains("client A was still in timer(node, \"tick\")"),
        "{hung}"
    );
    assert!(hung.contains("never returned"), "{hung}");
    let busy = errors_at_limit(4_800.0);
    assert!(busy.contains("was not stuck in one call"), "{busy}");
    assert!(busy.contains("client A's timer(node, \"tick\")"), "{busy}");
    assert!(!busy.contains("never returned"), "{busy}");
}

#[wasm_bindgen_test]
fn a_run_takes_its_news_in_order_and_ends_once() {
    let panel = Rc::new(Panel::new(String::from("print(1)")));
    // News of a run that never started changes nothing.
    let panel = reduce(panel, 1, "{\"kind\":\"running\"}");
    assert_eq!(panel.phase, RunPhase::NotRun);

    let panel = panel.reduce(PanelAction::Start(task()));
    assert_eq!(panel.run_id, 1);
    // A second Start while the run goes is ignored.
    let panel = panel.reduce(PanelAction::Start(task()));
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

    let panel = reduce(panel, 1, "{\"kind\":\"failed\",\"line\":3}");
    assert_eq!(
        panel.phase,
        RunPhase::Ended(RunEnding::Failed { line: Some(3) })
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
        RunPhase::Ended(RunEnding::Failed { line: Some(3) })
    );
    let printed: Vec<_> = panel
        .stdout
        .pieces()
        .map(|piece| piece.to_string())
        .collect();
    assert_eq!(printed, ["a\n"]);

    // A report is the run's ending, taken once; later ones are ignored.
    let panel = panel.reduce(PanelAction::Start(task()));
    let panel = reduce(panel, 2, "{\"kind\":\"running\"}");
    let panel = reduce(panel, 2, "{\"kind\":\"progress\",\"ran\":40}");
    assert_eq!(panel.ran, 40);
    let panel = reduce(panel, 2, "{\"kind\":\"result\",\"json\":\"abc\"}");
    assert_eq!(
        panel.phase,
        RunPhase::Ended(RunEnding::Reported { ms: None })
    );
    assert_eq!(panel.report.as_deref(), Some("abc"));
    let panel = reduce(panel, 2, "{\"kind\":\"result\",\"json\":\"forged\"}");
    assert_eq!(panel.report.as_deref(), Some("abc"));

    // The next run starts with empty output.
    let panel = panel.reduce(PanelAction::Start(task()));
    assert_eq!(panel.run_id, 3);
    assert_eq!(panel.stdout.pieces().count(), 0);
    assert_eq!(panel.report, None);
}

#[wasm_bindgen_test]
async fn output_is_shown_as_text_never_as_html() {
    let host = fresh_host();
    let app = mount("#/sandbox?v=1&client=typescript", &host).await;
    // The status line and output areas exist; nothing ran, so they are empty of output.
    assert!(text_of(&host, ".snippet-status").starts_with("Not run yet"));
    assert_eq!(text_of(&host, ".snippet-stdout"), "");
    assert!(host.query_selector(".snippet-stdout *").unwrap().is_none());
    app.destroy();
    host.remove();
}
