//! A diagram's Mermaid text: shown, copied to the clipboard, or downloaded as `.mmd`.
//!
//! Copying fails gracefully: where the Clipboard API is missing or refuses (an insecure
//! page, a sandboxed frame), the status line says to copy by hand instead of erroring.

use wasm_bindgen::{JsCast, JsValue};
use yew::prelude::*;

use crate::lesson::LESSON;

#[derive(Properties, PartialEq)]
pub struct MermaidExportProps {
    /// What the export is of, e.g. "Architecture"; names the buttons for screen readers.
    pub title: AttrValue,
    /// The Mermaid source.
    pub text: AttrValue,
    /// The download's file name, ending in `.mmd`.
    pub file: AttrValue,
}

#[component]
pub fn MermaidExport(props: &MermaidExportProps) -> Html {
    let status = use_state(String::new);
    let words = &LESSON.maps;

    let copy = {
        let status = status.clone();
        let text = props.text.clone();
        Callback::from(move |_: MouseEvent| {
            let status = status.clone();
            let text = text.clone();
            wasm_bindgen_futures::spawn_local(async move {
                let done = copy_to_clipboard(&text).await;
                status.set(
                    if done {
                        words.copied
                    } else {
                        words.copy_failed
                    }
                    .to_owned(),
                );
            });
        })
    };
    let download = {
        let status = status.clone();
        let text = props.text.clone();
        let file = props.file.clone();
        Callback::from(move |_: MouseEvent| {
            let message = if save_file(&text, &file).is_ok() {
                words.downloaded
            } else {
                words.download_failed
            };
            status.set(message.to_owned());
        })
    };

    html! {
        <details class="mermaid-export readout-skip">
            <summary>{format!("{}: {}", words.export_heading, props.title)}</summary>
            <p class="muted">{words.export_intro}</p>
            <pre class="mermaid-text"><code>{props.text.clone()}</code></pre>
            <div class="button-row">
                <button type="button" class="button" onclick={copy}
                    aria-label={format!("{} ({})", words.copy, props.title)}>{words.copy}</button>
                <button type="button" class="button" onclick={download}
                    aria-label={format!("{} ({})", words.download, props.title)}>{words.download}</button>
            </div>
            <p class="status-line" role="status">{(*status).clone()}</p>
        </details>
    }
}

/// Writes `text` to the clipboard; false where the API is missing or refuses.
async fn copy_to_clipboard(text: &str) -> bool {
    let navigator = gloo::utils::window().navigator();
    let available = js_sys::Reflect::get(&navigator, &JsValue::from_str("clipboard"))
        .map(|c| !c.is_undefined() && !c.is_null())
        .unwrap_or(false);
    if !available {
        return false;
    }
    let promise = navigator.clipboard().write_text(text);
    wasm_bindgen_futures::JsFuture::from(promise).await.is_ok()
}

/// Offers `text` as a download named `file`.
pub(crate) fn save_file(text: &str, file: &str) -> Result<(), JsValue> {
    let parts = js_sys::Array::of1(&JsValue::from_str(text));
    let options = web_sys::BlobPropertyBag::new();
    options.set_type("text/plain;charset=utf-8");
    let blob = web_sys::Blob::new_with_str_sequence_and_options(&parts, &options)?;
    let url = web_sys::Url::create_object_url_with_blob(&blob)?;
    let document = gloo::utils::document();
    let link: web_sys::HtmlAnchorElement = document.create_element("a")?.dyn_into()?;
    link.set_href(&url);
    link.set_download(file);
    link.click();
    // The download reads the blob asynchronously; free it once that has surely happened.
    gloo::timers::callback::Timeout::new(10_000, move || {
        let _ = web_sys::Url::revoke_object_url(&url);
    })
    .forget();
    Ok(())
}
