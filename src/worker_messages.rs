//! The typed messages between the page and its workers, as JavaScript values: the search's
//! through serde-wasm-bindgen (64-bit numbers as `BigInt`), live mode's as bytes. Reading never
//! panics: a value that is not a well-formed message gives `None`. Shared by the worker
//! binaries and the page (wasm only).

use crate::lab::search::{Reply, Request};
use serde::de::DeserializeOwned;
use serde::Serialize;
use wasm_bindgen::JsValue;

fn to_js(value: &impl Serialize) -> Option<JsValue> {
    let serializer =
        serde_wasm_bindgen::Serializer::new().serialize_large_number_types_as_bigints(true);
    value.serialize(&serializer).ok()
}

fn from_js<T: DeserializeOwned>(value: &JsValue) -> Option<T> {
    serde_wasm_bindgen::from_value(value.clone()).ok()
}

/// A request the page sent, if it is one.
pub fn read_request(value: &JsValue) -> Option<Request> {
    from_js(value)
}

/// A reply a worker sent, if it is one.
pub fn read_reply(value: &JsValue) -> Option<Reply> {
    from_js(value)
}

/// Posts `reply` from a worker to its page.
pub fn post_reply(scope: &web_sys::DedicatedWorkerGlobalScope, reply: &Reply) {
    if let Some(value) = to_js(reply) {
        // A closing page cannot take the reply; nothing is left to do then.
        let _ = scope.post_message(&value);
    }
}

/// Posts `request` from the page to a worker; false if it could not be sent.
pub fn post_request(worker: &web_sys::Worker, request: &Request) -> bool {
    to_js(request).is_some_and(|value| worker.post_message(&value).is_ok())
}

/// A live-mode message as a JavaScript value: its bytes ([`crate::lab::live::protocol`]) in a
/// `Uint8Array`, the one codec of everything live.
pub fn live_to_js(value: &impl Serialize) -> Option<JsValue> {
    let bytes = crate::lab::live::protocol::to_bytes(value)?;
    Some(js_sys::Uint8Array::from(bytes.as_slice()).into())
}

/// A live-mode message read from a JavaScript value, if it is one.
pub fn read_live<T: DeserializeOwned>(value: &JsValue) -> Option<T> {
    use wasm_bindgen::JsCast;
    let bytes = value.dyn_ref::<js_sys::Uint8Array>()?.to_vec();
    crate::lab::live::protocol::from_bytes(&bytes)
}
