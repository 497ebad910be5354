//! Watching an element's size: a `ResizeObserver` that lives as long as its handle, and a
//! hook for the width of an element in CSS pixels.

use js_sys::{Array, Function, Reflect};
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;
use web_sys::HtmlElement;
use yew::prelude::*;

/// Calls a callback whenever `target` resizes, until dropped.
pub struct ResizeWatch {
    observer: Option<JsValue>,
    _callback: Closure<dyn FnMut()>,
}

impl ResizeWatch {
    /// Starts watching. Where the browser has no `ResizeObserver` (looked up by name), the
    /// callback is simply never called.
    pub fn new(target: &HtmlElement, on_resize: impl FnMut() + 'static) -> ResizeWatch {
        let callback = Closure::<dyn FnMut()>::new(on_resize);
        let observer = observe(&callback, target);
        ResizeWatch {
            observer,
            _callback: callback,
        }
    }
}

impl Drop for ResizeWatch {
    fn drop(&mut self) {
        if let Some(observer) = &self.observer {
            if let Ok(disconnect) = Reflect::get(observer, &JsValue::from_str("disconnect")) {
                if let Some(disconnect) = disconnect.dyn_ref::<Function>() {
                    let _ = disconnect.call0(observer);
                }
            }
        }
    }
}

/// A `ResizeObserver` watching `target`, if the browser has one.
fn observe(callback: &Closure<dyn FnMut()>, target: &HtmlElement) -> Option<JsValue> {
    let window = gloo::utils::window();
    let constructor = Reflect::get(&window, &JsValue::from_str("ResizeObserver")).ok()?;
    let constructor = constructor.dyn_ref::<Function>()?;
    let observer = Reflect::construct(constructor, &Array::of1(callback.as_ref())).ok()?;
    let observe = Reflect::get(&observer, &JsValue::from_str("observe")).ok()?;
    observe
        .dyn_ref::<Function>()?
        .call1(&observer, target)
        .ok()?;
    Some(observer)
}

/// The inner width (CSS pixels) of the element behind `node`, following its resizes;
/// `fallback` until it has been measured, or while it has no width (hidden).
#[hook]
pub fn use_element_width(node: NodeRef, fallback: u32) -> u32 {
    let width = use_state_eq(|| fallback);
    {
        let width = width.clone();
        use_effect_with((), move |_| {
            let watch = node.cast::<HtmlElement>().map(|element| {
                let measure = {
                    let element = element.clone();
                    move || {
                        if let Ok(px) = u32::try_from(element.client_width()) {
                            if px > 0 {
                                width.set(px);
                            }
                        }
                    }
                };
                measure();
                ResizeWatch::new(&element, measure)
            });
            move || drop(watch)
        });
    }
    *width
}
