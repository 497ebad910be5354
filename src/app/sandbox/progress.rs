//! What the laboratory shows while a long run is being simulated: how far it has got, and
//! a button that ends the run there.

use yew::prelude::*;

use super::LabStore;
use crate::lab::{LabAction, Progress};

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
    let runs = if runs > 1 {
        "this run and the comparison"
    } else {
        "the run"
    };
    let stop = {
        let lab = props.lab.clone();
        Callback::from(move |_: MouseEvent| lab.dispatch(LabAction::StopSimulating))
    };
    html! {
        <section class="card simulation-progress" aria-labelledby="simulating-title">
            <h4 id="simulating-title">{"Simulating…"}</h4>
            <p role="status">
                {format!("Simulating {runs}: {simulated} of {end} ({percent} %), {events} events so far.")}
            </p>
            <progress max="100" value={percent.to_string()} aria-labelledby="simulating-title"></progress>
            <p class="muted small">
                {"A long run is simulated in small slices, so the page keeps answering. \
                  Stop here ends the run at the time reached (its length is cut to it)."}
            </p>
            <button type="button" class="button" onclick={stop}>{"Stop here"}</button>
        </section>
    }
}
