//! Starting the app's own Web Workers (the search's and live mode's) so that they also start
//! inside `<iframe sandbox="allow-scripts">`: an opaque origin may not start a worker from
//! the server's URL, nor a module worker at all, but may start a classic worker from a
//! `blob:` URL whose script imports the worker's module.

use wasm_bindgen::JsValue;
use web_sys::{Blob, BlobPropertyBag, Url, Worker};

/// Starts the worker Trunk built as `<name>.js` and `<name>_bg.wasm` beside the page. If its
/// module cannot load, the worker posts `{ failed: <why> }` instead of its first message.
pub fn start(name: &str) -> Result<Worker, JsValue> {
    let base = gloo::utils::document()
        .base_uri()?
        .unwrap_or_else(|| gloo::utils::window().location().href().unwrap_or_default());
    let js = Url::new_with_base(&format!("{name}.js"), &base)?.href();
    let wasm = Url::new_with_base(&format!("{name}_bg.wasm"), &base)?.href();
    let source = format!(
        "import({js:?}).then((m) => m.default({{ module_or_path: {wasm:?} }}))\
         .catch((e) => postMessage({{ failed: String(e) }}));"
    );
    let options = BlobPropertyBag::new();
    options.set_type("text/javascript");
    let parts = js_sys::Array::of1(&JsValue::from_str(&source));
    let blob = Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = Url::create_object_url_with_blob(&blob)?;
    let worker = Worker::new(&url);
    // The worker has its script once it is created; the URL is not needed after that.
    Url::revoke_object_url(&url)?;
    worker
}
