//! Live faults, applied at once: freeze this page (a genuine busy loop, announced first and
//! capped), step its wall clock, drop its link, delay its next write, revoke the lease,
//! crash A. Each button hands the fault to the running [`super::driver::LiveRun`].

use crate::lesson::sentences;
use std::cell::RefCell;
use std::rc::Rc;

use gloo::render::{request_animation_frame, AnimationFrame};
use yew::prelude::*;

use super::{LiveAction, LiveHandle, LiveState};
use crate::lesson::content::LIVE;
use crate::model::SimDuration;

/// The longest freeze: three leases of up to three seconds, short enough to wait out.
pub const FREEZE_CAP_MS: i64 = 10_000;
/// The longest link drop or write delay.
const LENGTH_CAP_MS: i64 = 60_000;
/// The largest wall-clock step, either way.
const STEP_CAP_MS: i64 = 600_000;

#[derive(Properties)]
pub struct LiveFaultsProps {
    /// Whether a run is going (faults apply only then).
    pub enabled: bool,
    /// The run to apply them to.
    pub live: LiveHandle,
    /// Where the notices go.
    pub notices: UseReducerDispatcher<LiveState>,
}

impl PartialEq for LiveFaultsProps {
    fn eq(&self, other: &Self) -> bool {
        self.enabled == other.enabled && Rc::ptr_eq(&self.live, &other.live)
    }
}

/// A whole number of milliseconds in `min..=max`, or the sentence saying what to type.
fn read_ms(text: &str, min: i64, max: i64) -> Result<i64, String> {
    text.trim()
        .parse::<i64>()
        .ok()
        .filter(|ms| (min..=max).contains(ms) && *ms != 0)
        .ok_or_else(|| sentences::live::faults::BadNumber { min, max }.to_string())
}

fn ms(n: i64) -> SimDuration {
    SimDuration::from_millis(n.unsigned_abs())
}

/// One labelled number field in milliseconds and its button, with the options that change
/// what the button does between them (so they come first in Tab order too).
fn field(
    id: &'static str,
    label: &'static str,
    value: &UseStateHandle<String>,
    (button, options): (&'static str, Html),
    enabled: bool,
    onclick: Callback<MouseEvent>,
) -> Html {
    let oninput = {
        let value = value.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            value.set(input.value());
        })
    };
    html! {
        <div class="live-fault">
            <label for={id}>{label}</label>
            <input {id} type="number" inputmode="numeric" value={(**value).clone()} {oninput} />
            <span class="unit">{LIVE.faults.milliseconds}</span>
            {options}
            <button type="button" class="button small" disabled={!enabled} {onclick}>{button}</button>
        </div>
    }
}

/// Freezing this page: how long, and whether at its next write, announced before it starts.
#[component]
fn FreezeFields(props: &LiveFaultsProps) -> Html {
    let freeze = use_state(|| "3000".to_owned());
    let in_write_path = use_state(|| false);
    let frames: Rc<RefCell<Vec<AnimationFrame>>> = use_mut_ref(Vec::new);
    let on_freeze = {
        let (text, live, notices) = (freeze.clone(), props.live.clone(), props.notices.clone());
        let (in_write_path, frames) = (in_write_path.clone(), frames.clone());
        Callback::from(move |_: MouseEvent| {
            let asked = match read_ms(&text, 1, FREEZE_CAP_MS) {
                Ok(n) => ms(n),
                Err(why) => {
                    // Only a whole number over the cap is told the cap; anything else, what
                    // to type.
                    let over_cap = text.trim().parse::<i64>().is_ok_and(|n| n > FREEZE_CAP_MS);
                    let why = if over_cap {
                        let cap = ms(FREEZE_CAP_MS).to_string();
                        sentences::live::faults::FreezeCap { cap }.to_string()
                    } else {
                        why
                    };
                    notices.dispatch(LiveAction::Notice(why));
                    return;
                }
            };
            let write_path = *in_write_path;
            let notice = if write_path {
                sentences::live::faults::FreezeArmed { asked }.to_string()
            } else {
                sentences::live::faults::FreezeNotice { asked }.to_string()
            };
            notices.dispatch(LiveAction::Notice(notice));
            // Let the notice paint: the freeze starts after the second animation frame.
            let (live, inner_frames, notices) = (live.clone(), frames.clone(), notices.clone());
            let first = request_animation_frame(move |_| {
                let second = request_animation_frame(move |_| {
                    if let Some(run) = live.borrow().as_ref() {
                        if !write_path {
                            run.freeze_now(asked);
                        } else if !run.freeze_at_next_write(asked) {
                            let why = LIVE.faults.freeze_no_write.to_owned();
                            notices.dispatch(LiveAction::Notice(why));
                        }
                    }
                });
                inner_frames.borrow_mut().push(second);
            });
            let mut frames = frames.borrow_mut();
            frames.clear();
            frames.push(first);
        })
    };
    let on_write_path = {
        let in_write_path = in_write_path.clone();
        Callback::from(move |e: Event| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            in_write_path.set(input.checked());
        })
    };
    let write_path_option = html! {
        <label class="live-check-option">
            <input type="checkbox" checked={*in_write_path} onchange={on_write_path} />
            {LIVE.faults.freeze_write}
        </label>
    };
    let button = (LIVE.faults.freeze_button, write_path_option);
    field(
        "live-freeze",
        LIVE.faults.freeze,
        &freeze,
        button,
        props.enabled,
        on_freeze,
    )
}

/// The faults panel.
#[component]
pub fn LiveFaults(props: &LiveFaultsProps) -> Html {
    let step = use_state(|| "-5000".to_owned());
    let drop_for = use_state(|| "2000".to_owned());
    let delay = use_state(|| "2000".to_owned());
    let apply = |text: &UseStateHandle<String>, min, max, act: fn(&super::driver::LiveRun, i64)| {
        let (text, live, notices) = (text.clone(), props.live.clone(), props.notices.clone());
        Callback::from(move |_: MouseEvent| match read_ms(&text, min, max) {
            Ok(n) => {
                if let Some(run) = live.borrow().as_ref() {
                    act(run, n);
                }
            }
            Err(why) => notices.dispatch(LiveAction::Notice(why)),
        })
    };
    let on_step = apply(&step, -STEP_CAP_MS, STEP_CAP_MS, |run, n| {
        run.step_wall_clock(n * 1_000)
    });
    let on_drop = apply(&drop_for, 1, LENGTH_CAP_MS, |run, n| run.drop_link(ms(n)));
    let on_delay = apply(&delay, 1, LENGTH_CAP_MS, |run, n| {
        run.delay_next_write(ms(n))
    });
    let on_revoke = {
        let live = props.live.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(run) = live.borrow().as_ref() {
                run.revoke();
            }
        })
    };
    let on_crash = {
        let live = props.live.clone();
        Callback::from(move |_: MouseEvent| {
            if let Some(run) = live.borrow().as_ref() {
                run.crash_a();
            }
        })
    };
    let enabled = props.enabled;
    html! {
        <fieldset class="live-faults">
            <legend>{LIVE.faults.heading}</legend>
            <FreezeFields {enabled} live={props.live.clone()} notices={props.notices.clone()} />
            { field("live-step", LIVE.faults.step, &step, (LIVE.faults.step_button, Html::default()), enabled, on_step) }
            <p class="muted hint">{LIVE.faults.step_hint}</p>
            { field("live-drop", LIVE.faults.drop, &drop_for, (LIVE.faults.drop_button, Html::default()), enabled, on_drop) }
            { field("live-delay", LIVE.faults.delay, &delay, (LIVE.faults.delay_button, Html::default()), enabled, on_delay) }
            <div class="live-fault buttons">
                <button type="button" class="button small" disabled={!enabled} onclick={on_revoke}>{LIVE.faults.revoke}</button>
                <button type="button" class="button small" disabled={!enabled} onclick={on_crash}>{LIVE.faults.crash}</button>
            </div>
        </fieldset>
    }
}
