//! What the laboratory shows while a long run is being simulated: how far it has got, and
//! a button that ends the run there.

use crate::lesson::sentences;
use yew::prelude::*;

use super::LabStore;
use crate::lab::{LabAction, Progress};
use crate::lesson::content::SANDBOX;

/// Props: the progress to show, and the lab to stop.
#[derive(Properties, PartialEq, Clone)]
pub struct ProgressProps {
    pub progress: Progress,
    pub lab: UseReducerHandle<LabStore>,
}

/// The simulation's progress, with Stop.
#[component]
pub fn SimulationProgress(props: &ProgressProps) -> Html {
    let Progress {
        simulated,
        end,
        events,
        runs,
    } = props.progress;
    let percent = props.progress.percent();
    let words = &SANDBOX.progress;
    let runs = if runs > 1 {
        words.both_runs
    } else {
        words.this_run
    };
    let status = sentences::sandbox::progress::Status {
        runs,
        simulated,
        end,
        percent,
        events,
    }
    .to_string();
    let stop = {
        let lab = props.lab.clone();
        Callback::from(move |_: MouseEvent| lab.dispatch(LabAction::StopSimulating))
    };
    html! {
        <section class="card simulation-progress" aria-labelledby="simulating-title">
            <h4 id="simulating-title">{words.heading}</h4>
            <p role="status">{status}</p>
            <progress max="100" value={percent.to_string()} aria-labelledby="simulating-title"></progress>
            <p class="muted small">{words.note}</p>
            <button type="button" class="button" onclick={stop}>{words.stop}</button>
        </section>
    }
}
