//! The client's run controls: Run in the lab, Stop, Reset, Show a solution, and the time
//! limit.

use web_sys::HtmlInputElement;
use yew::prelude::*;

use super::state::MAX_LIMIT_SECS;
use crate::lesson::content::SANDBOX;
use crate::lesson::sentences;

#[derive(Properties, PartialEq)]
pub struct RunControlsProps {
    pub busy: bool,
    /// Whether the code differs from the original.
    pub edited: bool,
    pub limit_secs: u32,
    pub on_run: Callback<()>,
    pub on_stop: Callback<()>,
    pub on_reset: Callback<()>,
    /// Whether the code is the reference solution already.
    pub solved: bool,
    pub on_solution: Callback<()>,
    /// Called with a new time limit in seconds, already checked to be in range.
    pub on_limit: Callback<u32>,
}

#[component]
pub fn RunControls(props: &RunControlsProps) -> Html {
    // A limit it cannot take puts the field back and says why, beside it.
    let refused = use_state(|| false);
    let on_limit_change = {
        let on_limit = props.on_limit.clone();
        let current = props.limit_secs;
        let refused = refused.clone();
        Callback::from(move |event: Event| {
            if let Some(input) = event.target_dyn_into::<HtmlInputElement>() {
                match input.value().trim().parse::<u32>() {
                    Ok(secs) if (1..=MAX_LIMIT_SECS).contains(&secs) => {
                        refused.set(false);
                        on_limit.emit(secs)
                    }
                    _ => {
                        refused.set(true);
                        input.set_value(&current.to_string())
                    }
                }
            }
        })
    };
    let refusal = refused.then(|| {
        sentences::sandbox::snippets::LimitRefused {
            max: MAX_LIMIT_SECS,
            kept: props.limit_secs,
        }
        .to_string()
    });
    let click = |callback: &Callback<()>| callback.reform(|_: MouseEvent| ());
    let words = &SANDBOX.snippets;
    html! {
        <div class="snippet-controls">
            <button type="button" class="button primary" onclick={click(&props.on_run)}
                disabled={props.busy}>
                {words.run}
            </button>
            <button type="button" class="button" onclick={click(&props.on_stop)}
                disabled={!props.busy}>
                {words.stop}
            </button>
            <button type="button" class="button" onclick={click(&props.on_reset)}
                disabled={!props.edited}>
                {words.reset}
            </button>
            <button type="button" class="button" onclick={click(&props.on_solution)}
                disabled={props.solved}>
                {words.solution}
            </button>
            <label class="snippet-limit">
                {words.time_limit}
                <input type="number" min="1" max={MAX_LIMIT_SECS.to_string()} step="1"
                    value={props.limit_secs.to_string()} onchange={on_limit_change}
                    aria-invalid={refusal.is_some().to_string()}
                    aria-describedby={refusal.is_some().then_some("snippet-limit-problem")} />
            </label>
            if let Some(why) = refusal {
                <p id="snippet-limit-problem" class="field-error" role="status">{why}</p>
            }
        </div>
    }
}
