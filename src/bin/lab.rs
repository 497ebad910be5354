//! The laboratory's wasm module: a thin shell around `lease_lab::app::lab_entry`. Trunk
//! builds it as `lab.js` and `lab_bg.wasm` (`index.html`'s `data-bin="lab"` link), which
//! the page does not link: `www/shell/lab-loader.js` imports it when the Sandbox needs it.

#[cfg(target_arch = "wasm32")]
mod exports {
    use lease_lab::app::address::History;
    use lease_lab::app::lab_entry::{self, LabPart, LabRoot};
    use wasm_bindgen::prelude::*;

    /// Reads the link the page shows; `on_problems(sentences)` receives what of it the lab
    /// could not read, now and for each link followed since, for the shell's notice, and
    /// `on_fields(fields, push)` the lab's link fields, for the shell to write into the address.
    #[wasm_bindgen]
    pub fn start(link: String, on_fields: js_sys::Function, on_problems: js_sys::Function) {
        lab_entry::start(
            &link,
            move |fields, history| {
                let push = JsValue::from_bool(history == History::Push);
                let _ = on_fields.call2(&JsValue::NULL, &JsValue::from(fields), &push);
            },
            move |problems| {
                let sentences: js_sys::Array = problems.into_iter().map(JsValue::from).collect();
                let _ = on_problems.call1(&JsValue::NULL, &sentences);
            },
        );
    }

    /// Follows a link the page went to after it opened (see `share::follow_link`).
    #[wasm_bindgen]
    pub fn follow(link: &str) {
        lab_entry::follow(link);
    }

    /// Whether the part mounted at `host` before the lesson hydrated around it can stay: its
    /// root is numbered past the shell's (see `lab_entry::mount`).
    #[wasm_bindgen]
    pub fn fits(host: web_sys::Element) -> bool {
        lab_entry::numbered_past_the_shells(&host)
    }

    /// A part of the laboratory mounted into an element of the shell's.
    #[wasm_bindgen]
    pub struct LabView(yew::AppHandle<LabRoot>);

    /// Mounts the part named `part` (`sandbox` or `laboratory`) into `host`.
    #[wasm_bindgen]
    pub fn mount(host: web_sys::Element, part: &str) -> LabView {
        LabView(lab_entry::mount(host, LabPart::from_slug(part)))
    }

    #[wasm_bindgen]
    impl LabView {
        /// Takes the part off the page, when the shell closes the Sandbox.
        pub fn unmount(self) {
            self.0.destroy();
        }
    }
}

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    eprintln!("The laboratory's module runs in a browser: `make serve` builds the page.");
}
