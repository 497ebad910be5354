//! The thin driver: a `requestAnimationFrame` loop that reads `performance.now()` and tells
//! the lab how much wall time passed. It runs only while playing and is dropped on cleanup.
//! While a long run is being simulated, it asks for one slice per task.

use std::cell::{Cell, RefCell};
use std::rc::Rc;

use gloo::render::{request_animation_frame, AnimationFrame};
use wasm_bindgen::JsCast;
use yew::prelude::*;

use crate::lab::{Lab, LabAction};
use crate::model::SimTime;

/// While playing, the panels that follow events refresh at most this often, so a fast
/// playback with many events per second never turns a frame into a long task.
const PANEL_REFRESH_MS: f64 = 100.0;

struct FrameLoop {
    dispatch: Callback<LabAction>,
    last_ms: Cell<Option<f64>>,
    frame: RefCell<Option<AnimationFrame>>,
    stopped: Cell<bool>,
}

fn performance_now() -> f64 {
    gloo::utils::window()
        .performance()
        .map(|p| p.now())
        .unwrap_or_default()
}

fn schedule(frames: &Rc<FrameLoop>) {
    if frames.stopped.get() {
        return;
    }
    let next = Rc::clone(frames);
    let handle = request_animation_frame(move |_| {
        let now = performance_now();
        if let Some(last) = next.last_ms.replace(Some(now)) {
            next.dispatch.emit(LabAction::Tick {
                wall_ms: now - last,
            });
        }
        schedule(&next);
    });
    *frames.frame.borrow_mut() = Some(handle);
}

/// Runs the frame loop while `playing` is true.
#[hook]
pub fn use_playback(playing: bool, dispatch: Callback<LabAction>) {
    use_effect_with(playing, move |&playing| {
        let frames = playing.then(|| {
            let frames = Rc::new(FrameLoop {
                dispatch,
                last_ms: Cell::new(None),
                frame: RefCell::new(None),
                stopped: Cell::new(false),
            });
            schedule(&frames);
            frames
        });
        move || {
            if let Some(frames) = frames {
                frames.stopped.set(true);
                // Dropping the handle cancels the pending frame and breaks the Rc cycle.
                frames.frame.borrow_mut().take();
            }
        }
    });
}

/// A simulation slice aims at this long, well under the 50 ms of a long task.
const SLICE_TARGET_MS: f64 = 12.0;
/// The first slice's size in events; later ones follow from how long slices take.
const FIRST_SLICE_EVENTS: f64 = 10_000.0;

/// While runs are being simulated (`events` is how many so far), asks the lab for one slice
/// at a time, each in its own task so the page answers in between. The slice size adapts
/// so that a slice takes about [`SLICE_TARGET_MS`].
#[hook]
pub fn use_simulation(events: Option<usize>, dispatch: Callback<LabAction>) {
    let slice = use_mut_ref(|| FIRST_SLICE_EVENTS);
    use_effect_with(events, move |events| {
        let pending = events.map(|_| {
            gloo::timers::callback::Timeout::new(0, move || {
                let max_events = *slice.borrow() as usize;
                let started = performance_now();
                dispatch.emit(LabAction::Simulate { max_events });
                let took = (performance_now() - started).max(0.5);
                let next = *slice.borrow() * (SLICE_TARGET_MS / took).clamp(0.5, 2.0);
                *slice.borrow_mut() = next.clamp(1_000.0, 200_000.0);
            })
        });
        move || drop(pending)
    });
}

/// True when a key press belongs to the focused control rather than to the lab's
/// shortcuts: form fields keep every key, and buttons keep Space (which presses them).
pub fn belongs_to_control(event: &KeyboardEvent) -> bool {
    let Some(element) = event
        .target()
        .and_then(|t| t.dyn_into::<web_sys::Element>().ok())
    else {
        return false;
    };
    let field = matches!(element.tag_name().as_str(), "INPUT" | "SELECT" | "TEXTAREA")
        || element
            .closest("[contenteditable], .cm-editor")
            .ok()
            .flatten()
            .is_some();
    let pressable = matches!(element.tag_name().as_str(), "BUTTON" | "SUMMARY" | "A")
        || element.get_attribute("role").as_deref() == Some("button");
    field || (pressable && event.key() == " ")
}

/// The event time the step-driven panels show, and when they last moved.
#[derive(Default)]
pub struct ShownStep {
    generation: u64,
    at: SimTime,
    wall_ms: f64,
}

/// The event time to show: the latest one when paused, on a new run, or when the panels
/// have not refreshed for [`PANEL_REFRESH_MS`]; otherwise the one already shown.
pub fn refresh_while_playing(shown: &RefCell<ShownStep>, lab: &Lab, latest: SimTime) -> SimTime {
    let mut shown = shown.borrow_mut();
    let generation = lab.generation();
    let wall_ms = performance_now();
    if !lab.playing()
        || shown.generation != generation
        || wall_ms - shown.wall_ms >= PANEL_REFRESH_MS
    {
        *shown = ShownStep {
            generation,
            at: latest,
            wall_ms,
        };
    }
    shown.at
}
