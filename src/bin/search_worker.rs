//! The counterexample search's Web Worker: a thin shell that reads each typed request,
//! answers it with [`lease_lab::lab::search::answer`] (the model and the search, no Yew), and
//! posts the typed reply. Trunk builds it from `index.html`'s `data-type="worker"` link, for
//! speed rather than size (the `worker` profile), and it loads only when a search starts.

#[cfg(target_arch = "wasm32")]
fn main() {
    use lease_lab::lab::search::{answer, Reply};
    use lease_lab::worker_messages::{post_reply, read_request};
    use wasm_bindgen::closure::Closure;
    use wasm_bindgen::JsCast;
    use web_sys::{DedicatedWorkerGlobalScope, MessageEvent};

    let scope: DedicatedWorkerGlobalScope = js_sys::global().unchecked_into();
    let replies = scope.clone();
    let on_message = Closure::<dyn Fn(MessageEvent)>::new(move |event: MessageEvent| {
        let reply = read_request(&event.data()).map_or(Reply::Refused, answer);
        post_reply(&replies, &reply);
    });
    scope.set_onmessage(Some(on_message.as_ref().unchecked_ref()));
    // The worker lives as long as its page keeps it, so the handler is never dropped.
    on_message.forget();
    // Messages posted before the wasm loaded are lost, so the page waits for this one.
    post_reply(&scope, &Reply::Ready);
}

/// Natively there is nothing to run: the search itself is tested through the library.
#[cfg(not(target_arch = "wasm32"))]
fn main() {
    eprintln!("The search worker runs in a browser; the search is lease_lab::model::search.");
}
