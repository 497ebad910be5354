//! Work that waits until the page has been painted.

use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

/// Runs `then` once the next frame has been painted: a timer set from an animation frame
/// fires after that frame's paint.
pub fn after_paint(then: impl FnOnce() + 'static) {
    let from_frame = Closure::once_into_js(move || {
        gloo::timers::callback::Timeout::new(0, then).forget();
    });
    let _ = gloo::utils::window().request_animation_frame(from_frame.unchecked_ref());
}
