//! Component tests for the lesson diagrams' selection logic, in headless Chromium.
#![cfg(target_arch = "wasm32")]

use std::cell::RefCell;
use std::rc::Rc;

use lease_lab::app::diagrams::{
    ArchitectureDiagram, ArchitectureDiagramProps, InFlight, LifecycleDiagram,
    LifecycleDiagramProps, SequenceDiagram, SequenceDiagramProps, SequenceMessage, StateMarker,
};
use lease_lab::lesson::content::{ArchEdge, ArchNode, LeaseState};
use lease_lab::lesson::diagram::{ArchSelection, LifecycleSelection};
use wasm_bindgen_test::*;
use yew::{AttrValue, Callback};

wasm_bindgen_test_configure!(run_in_browser);

fn host() -> web_sys::Element {
    let document = gloo::utils::document();
    let host = document.create_element("div").unwrap();
    document.body().unwrap().append_child(&host).unwrap();
    host
}

fn find(host: &web_sys::Element, selector: &str) -> web_sys::Element {
    host.query_selector(selector)
        .unwrap()
        .unwrap_or_else(|| panic!("nothing matches {selector}"))
}

fn click(element: &web_sys::Element) {
    let init = web_sys::MouseEventInit::new();
    init.set_bubbles(true);
    let event = web_sys::MouseEvent::new_with_mouse_event_init_dict("click", &init).unwrap();
    element.dispatch_event(&event).unwrap();
}

fn press(element: &web_sys::Element, key: &str) {
    let init = web_sys::KeyboardEventInit::new();
    init.set_bubbles(true);
    init.set_cancelable(true);
    init.set_key(key);
    let event =
        web_sys::KeyboardEvent::new_with_keyboard_event_init_dict("keydown", &init).unwrap();
    element.dispatch_event(&event).unwrap();
}

fn explanation(host: &web_sys::Element) -> String {
    find(host, ".explanation")
        .text_content()
        .unwrap_or_default()
}

fn pressed(host: &web_sys::Element) -> Vec<String> {
    let list = host.query_selector_all("[aria-pressed=true]").unwrap();
    (0..list.length())
        .filter_map(|i| list.item(i))
        .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
        .map(|e| e.get_attribute("aria-label").unwrap_or_default())
        .collect()
}

#[wasm_bindgen_test]
async fn selecting_a_state_or_a_transition_explains_it_and_tells_the_owner() {
    let host = host();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let props = LifecycleDiagramProps {
        markers: Vec::new(),
        active_transition: None,
        on_select: {
            let seen = seen.clone();
            Callback::from(move |s| seen.borrow_mut().push(s))
        },
        explain: true,
        initial: None,
    };
    let app = yew::Renderer::<LifecycleDiagram>::with_root_and_props(host.clone(), props).render();
    yew::scheduler::flush().await;
    assert!(explanation(&host).contains("Select a state or an arrow"));
    assert!(pressed(&host).is_empty());

    click(&find(&host, ".state-lost"));
    yew::scheduler::flush().await;
    assert_eq!(pressed(&host), ["State 4 Lost — stop writes"]);
    assert!(explanation(&host).contains("Set the lost flag or cancel the context"));

    let unlock = find(
        &host,
        "[aria-label='Transition from Holding to Releasing: unlock']",
    );
    press(&unlock, "Tab");
    yew::scheduler::flush().await;
    assert_eq!(
        pressed(&host),
        ["State 4 Lost — stop writes"],
        "other keys select nothing"
    );
    press(&unlock, "Enter");
    yew::scheduler::flush().await;
    assert_eq!(
        pressed(&host),
        ["Transition from Holding to Releasing: unlock"]
    );
    assert!(explanation(&host).contains("The critical section is done."));
    press(&find(&host, ".state-holding"), " ");
    yew::scheduler::flush().await;

    assert_eq!(
        *seen.borrow(),
        [
            LifecycleSelection::State(LeaseState::Lost),
            LifecycleSelection::Transition {
                from: LeaseState::Holding,
                to: LeaseState::Releasing
            },
            LifecycleSelection::State(LeaseState::Holding),
        ]
    );
    app.destroy();
    host.remove();
}

#[wasm_bindgen_test]
async fn the_sandbox_can_mark_where_each_client_is_and_hide_the_explanation() {
    let host = host();
    let props = LifecycleDiagramProps {
        markers: vec![
            StateMarker {
                state: LeaseState::Holding,
                label: AttrValue::from("A"),
            },
            StateMarker {
                state: LeaseState::Holding,
                label: AttrValue::from("B"),
            },
        ],
        active_transition: Some((LeaseState::RenewResult, LeaseState::Lost)),
        on_select: Callback::noop(),
        explain: false,
        initial: None,
    };
    let app = yew::Renderer::<LifecycleDiagram>::with_root_and_props(host.clone(), props).render();
    yew::scheduler::flush().await;
    let holding = find(&host, ".state-holding");
    assert_eq!(
        holding.get_attribute("aria-label").unwrap(),
        "State 2 Holding A B (current state of client A, client B)"
    );
    assert_eq!(holding.query_selector_all(".badge").unwrap().length(), 2);
    assert_eq!(host.query_selector_all(".badge").unwrap().length(), 2);
    assert_eq!(host.query_selector_all(".edge.active").unwrap().length(), 1);
    assert!(find(&host, ".edge.active")
        .get_attribute("aria-label")
        .unwrap()
        .ends_with("fail / TTL expiry"));
    assert!(host.query_selector(".explanation").unwrap().is_none());
    app.destroy();
    host.remove();
}

#[wasm_bindgen_test]
async fn architecture_selection_explains_nodes_and_edges_and_draws_messages_in_flight() {
    let host = host();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let props = ArchitectureDiagramProps {
        in_flight: vec![
            InFlight {
                edge: ArchEdge::Acquire,
                progress: 0.5,
                label: AttrValue::from("acquire #7"),
            },
            InFlight {
                edge: ArchEdge::Fail,
                progress: 2.0,
                label: AttrValue::from("NOT_OWNER"),
            },
        ],
        on_select: {
            let seen = seen.clone();
            Callback::from(move |s| seen.borrow_mut().push(s))
        },
        explain: true,
        initial: None,
        acquire_label: None,
    };
    let app =
        yew::Renderer::<ArchitectureDiagram>::with_root_and_props(host.clone(), props).render();
    yew::scheduler::flush().await;

    let dots = host.query_selector_all(".in-flight circle").unwrap();
    assert_eq!(dots.length(), 2);
    let first: web_sys::Element = wasm_bindgen::JsCast::dyn_into(dots.item(0).unwrap()).unwrap();
    assert_eq!(first.get_attribute("cx").unwrap(), "360");
    let second: web_sys::Element = wasm_bindgen::JsCast::dyn_into(dots.item(1).unwrap()).unwrap();
    assert_eq!(
        second.get_attribute("cx").unwrap(),
        "200",
        "progress past 1 stops at the client"
    );

    click(&find(&host, ".node-lock_service"));
    yew::scheduler::flush().await;
    assert!(explanation(&host).contains("Why it exists"));
    assert!(explanation(&host).contains("single authority"));

    press(&find(&host, "[aria-label^='Edge FAIL']"), "Enter");
    yew::scheduler::flush().await;
    let text = explanation(&host);
    for part in [
        "Protocol",
        "Direction",
        "Effect",
        "Consequence",
        "Lock service to client.",
    ] {
        assert!(text.contains(part), "{part} in {text}");
    }
    assert_eq!(
        *seen.borrow(),
        [
            ArchSelection::Node(ArchNode::LockService),
            ArchSelection::Edge(ArchEdge::Fail)
        ]
    );
    app.destroy();
    host.remove();
}

#[wasm_bindgen_test]
async fn a_runs_messages_draw_as_a_sequence_and_selection_follows_the_sandbox() {
    let host = host();
    let seen = Rc::new(RefCell::new(Vec::new()));
    let message = |from, to, label: &'static str, time: Option<&'static str>| SequenceMessage {
        from,
        to,
        label: AttrValue::from(label),
        time: time.map(AttrValue::from),
    };
    let props = SequenceDiagramProps {
        participants: vec!["Client A".into(), "Lock service".into(), "Storage".into()],
        messages: vec![
            message(0, 1, "acquire", Some("0 ms")),
            message(0, 2, "write token=1", Some("5 ms")),
            message(0, 0, "GC pause 400 ms", Some("10 ms")),
            message(1, 9, "to nobody", None),
        ],
        explanations: vec!["granted".into(), "accepted".into(), "frozen".into()],
        label: AttrValue::from("A run"),
        hint: AttrValue::from("Pick a message"),
        selected: Some(1),
        on_select: {
            let seen = seen.clone();
            Callback::from(move |i| seen.borrow_mut().push(i))
        },
    };
    let app = yew::Renderer::<SequenceDiagram>::with_root_and_props(host.clone(), props).render();
    yew::scheduler::flush().await;
    yew::scheduler::flush().await;

    assert_eq!(host.query_selector_all(".participant").unwrap().length(), 3);
    assert_eq!(
        host.query_selector_all("[role=button]").unwrap().length(),
        3,
        "the arrow to a missing participant is skipped"
    );
    assert_eq!(host.query_selector_all(".step-time").unwrap().length(), 3);
    assert_eq!(
        pressed(&host),
        ["Step 2: Client A to Storage: write token=1"]
    );
    assert!(explanation(&host).contains("accepted"));

    click(&find(
        &host,
        "[aria-label='Step 3: Client A GC pause 400 ms']",
    ));
    yew::scheduler::flush().await;
    assert_eq!(pressed(&host), ["Step 3: Client A GC pause 400 ms"]);
    assert!(explanation(&host).contains("3. Client A: GC pause 400 ms"));
    assert!(explanation(&host).contains("frozen"));
    assert_eq!(*seen.borrow(), [2]);
    app.destroy();
    host.remove();
}

#[wasm_bindgen_test]
async fn a_selection_from_a_share_link_is_shown_on_first_render() {
    let host = host();
    let props = LifecycleDiagramProps {
        markers: Vec::new(),
        active_transition: None,
        on_select: Callback::noop(),
        explain: true,
        initial: LifecycleSelection::from_id("lifecycle.lost"),
    };
    let app = yew::Renderer::<LifecycleDiagram>::with_root_and_props(host.clone(), props).render();
    yew::scheduler::flush().await;
    assert_eq!(pressed(&host).len(), 1);
    assert!(pressed(&host)[0].contains("Lost"), "{:?}", pressed(&host));
    assert!(!explanation(&host).contains("Select a state or an arrow"));
    app.destroy();
    host.remove();
}

/// Lets queued browser tasks (such as a dialog's `close` event) run, then flushes renders.
async fn settle() {
    let promise = js_sys::Promise::new(&mut |resolve, _| {
        gloo::utils::window()
            .set_timeout_with_callback_and_timeout_and_arguments_0(&resolve, 20)
            .unwrap();
    });
    wasm_bindgen_futures::JsFuture::from(promise).await.unwrap();
    yew::scheduler::flush().await;
}

/// Settles until `done` holds, for at most about two seconds; tells whether it held.
async fn settle_until(done: impl Fn() -> bool) -> bool {
    for _ in 0..100 {
        if done() {
            return true;
        }
        settle().await;
    }
    done()
}

#[wasm_bindgen_test]
async fn enlarging_draws_a_live_copy_in_a_modal_dialog_that_closes_back_to_its_button() {
    let host = host();
    let props = ArchitectureDiagramProps {
        in_flight: Vec::new(),
        on_select: Callback::noop(),
        explain: true,
        initial: None,
        acquire_label: None,
    };
    let app =
        yew::Renderer::<ArchitectureDiagram>::with_root_and_props(host.clone(), props).render();
    yew::scheduler::flush().await;
    assert!(
        host.query_selector("dialog").unwrap().is_none(),
        "drawn only when asked"
    );

    let button = find(&host, ".diagram-zoom-open");
    click(&button);
    settle().await;
    let dialog = find(&host, "dialog.diagram-zoom");
    assert!(dialog.has_attribute("open"), "shown as a modal");
    // Two drawings, each with its own arrowhead: ids stay unique in the page.
    let markers = host.query_selector_all("marker").unwrap();
    let ids: Vec<String> = (0..markers.length())
        .filter_map(|i| markers.item(i))
        .filter_map(|n| wasm_bindgen::JsCast::dyn_into::<web_sys::Element>(n).ok())
        .map(|m| m.id())
        .collect();
    assert_eq!(ids.len(), 2);
    assert_ne!(ids[0], ids[1]);

    // The enlarged copy is live: selecting in it selects in both, and it explains.
    click(&find(&dialog, ".node-lock_service"));
    settle().await;
    assert_eq!(pressed(&host).len(), 2, "{:?}", pressed(&host));
    let dialog = find(&host, "dialog.diagram-zoom");
    assert!(find(&dialog, ".explanation")
        .text_content()
        .unwrap_or_default()
        .contains("single authority"));

    wasm_bindgen::JsCast::dyn_into::<web_sys::HtmlDialogElement>(dialog)
        .unwrap()
        .close();
    // Chromium fires `close` on a later frame, which a loaded machine can delay.
    let closed = settle_until(|| host.query_selector("dialog").unwrap().is_none()).await;
    assert!(closed, "closed");
    assert_eq!(
        gloo::utils::document().active_element(),
        Some(button),
        "focus returns to the Enlarge button"
    );
    app.destroy();
    host.remove();
}
