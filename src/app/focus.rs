//! Keeps keyboard focus in the laboratory when the focused control is disabled or removed by
//! what it did: Run disables itself while the run goes, removing the last fault removes its
//! list, the third hint's button is done. Focus then moves to the nearest control still
//! there (Stop, the fault form, the challenge's next field) instead of falling to the top
//! of the page, where a keyboard user would have to tab back through everything.

use std::cell::RefCell;

use gloo::events::EventListener;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::{Element, HtmlElement, MutationObserver, MutationObserverInit};

/// What a keyboard user can land on, when enabled.
const FOCUSABLE: &str = "button:not([disabled]), input:not([disabled]), select:not([disabled]), \
     textarea:not([disabled]), a[href], summary, [tabindex]:not([tabindex=\"-1\"])";

thread_local! {
    /// The focused element and its ancestors up to the laboratory's host, nearest first,
    /// taken when it got focus: a removed element no longer knows where it was.
    static FOCUSED: RefCell<Vec<Element>> = const { RefCell::new(Vec::new()) };
}

/// Watches focus inside the laboratory's `host` for as long as the returned guard lives.
pub fn keep_focus_in(host: &Element) -> FocusKeeper {
    let on_focus = {
        let inside = host.clone();
        EventListener::new(host.as_ref(), "focusin", move |event| {
            if let Some(target) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) {
                let chain = std::iter::successors(Some(target), |e| e.parent_element())
                    .take_while(|e| inside.contains(Some(e)))
                    .collect();
                FOCUSED.with(|focused| *focused.borrow_mut() = chain);
            }
        })
    };
    // Moving focus away on purpose (a click on text) leaves the focused control as it was:
    // forget it, so a later change to it does not pull focus back.
    let on_leave = EventListener::new(host.as_ref(), "focusout", move |event| {
        let Some(left) = event.target().and_then(|t| t.dyn_into::<Element>().ok()) else {
            return;
        };
        wasm_bindgen_futures::spawn_local(async move {
            if !focus_lost() {
                return;
            }
            if left.is_connected() && !left.has_attribute("disabled") {
                FOCUSED.with(|focused| focused.borrow_mut().clear());
            } else {
                recover();
            }
        });
    });
    let callback = Closure::<dyn FnMut()>::new(recover);
    let observer = MutationObserver::new(callback.as_ref().unchecked_ref()).ok();
    if let Some(observer) = &observer {
        let options = MutationObserverInit::new();
        options.set_subtree(true);
        options.set_child_list(true);
        options.set_attributes(true);
        options.set_attribute_filter(&js_sys::Array::of1(&JsValue::from_str("disabled")));
        let _ = observer.observe_with_options(host, &options);
    }
    FocusKeeper {
        _listeners: [on_focus, on_leave],
        observer,
        _callback: callback,
    }
}

/// Stops watching when dropped (the laboratory unmounted).
pub struct FocusKeeper {
    _listeners: [EventListener; 2],
    observer: Option<MutationObserver>,
    _callback: Closure<dyn FnMut()>,
}

impl Drop for FocusKeeper {
    fn drop(&mut self) {
        if let Some(observer) = &self.observer {
            observer.disconnect();
        }
        FOCUSED.with(|focused| focused.borrow_mut().clear());
    }
}

/// Whether nothing has focus (the page's body has it).
fn focus_lost() -> bool {
    let document = gloo::utils::document();
    match document.active_element() {
        None => true,
        Some(active) => document.body().is_some_and(|body| *body == active),
    }
}

/// After the DOM changed: if the focused control went (disabled or removed) and focus is
/// still on it or nowhere, focuses the first control still there in its nearest remaining
/// ancestor. Only the first element is copied out on every change; the climb is rare.
fn recover() {
    let Some(was) = FOCUSED.with(|focused| focused.borrow().first().cloned()) else {
        return;
    };
    if was.is_connected() && !was.has_attribute("disabled") {
        return;
    }
    // Chromium lets go of a disabled control only at its next rendering, and Firefox not at
    // all: either way, focus still on it is as good as lost.
    let still_on_it = gloo::utils::document().active_element().as_ref() == Some(&was);
    if !(still_on_it || focus_lost()) {
        return;
    }
    let landing = FOCUSED.with(|focused| {
        focused
            .borrow()
            .iter()
            .skip(1)
            .filter(|ancestor| ancestor.is_connected())
            .find_map(first_visible_control)
    });
    if let Some(landing) = landing {
        let _ = landing.focus();
    }
}

/// The first enabled control inside `container` that is laid out (not in a closed part).
fn first_visible_control(container: &Element) -> Option<HtmlElement> {
    let found = container.query_selector_all(FOCUSABLE).ok()?;
    (0..found.length())
        .filter_map(|i| found.item(i)?.dyn_into::<HtmlElement>().ok())
        .find(|control| control.offset_width() > 0 || control.offset_height() > 0)
}
