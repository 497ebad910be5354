//! "Simulate this plan": the recorded live run beside the deterministic model's run of the
//! same parameters and fault times, and the differences named (timer lateness, each freeze
//! asked against measured, how each run ended).

use crate::lesson::sentences;
use std::rc::Rc;

use yew::prelude::*;

use crate::app::sandbox::reading::ShownRun;
use crate::app::sandbox::timeline::Timeline;
use crate::app::sandbox::RunProps;
use crate::lab::live::compare::{delivery_lateness, simulate, timer_lateness, Ending};
use crate::lab::live::trace::LiveTrace;
use crate::lab::live::{shown_length, shown_time};
use crate::lesson::content::LIVE;
use crate::model::{ClientId, Run, RunQuestions};

#[derive(Properties)]
pub struct ComparisonProps {
    /// The recorded live run.
    pub trace: Rc<LiveTrace>,
    /// Its replay.
    pub live: Rc<Run>,
    /// The replay as the views read it.
    pub shown: ShownRun,
}

impl PartialEq for ComparisonProps {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.trace, &other.trace)
    }
}

fn ending(e: Ending) -> String {
    sentences::live::compare::Grants {
        grants: e.grants,
        losses: e.losses,
        accepted: e.accepted,
        rejected: e.rejected,
    }
    .to_string()
}

/// The differences between a live run and its simulation, as sentences.
fn differences(trace: &LiveTrace, live: &Run, simulated: &Run) -> Vec<String> {
    let mut out = Vec::new();
    if let Some(late) = timer_lateness(live, ClientId::A, &trace.freezes) {
        out.push(
            sentences::live::compare::Jitter {
                median: late.median,
                worst: late.worst,
            }
            .to_string(),
        );
    }
    if let Some(late) = delivery_lateness(live, &trace.freezes) {
        out.push(
            sentences::live::compare::Delivery {
                median: shown_length(late.median),
                worst: shown_length(late.worst),
            }
            .to_string(),
        );
    }
    for f in &trace.freezes {
        out.push(
            sentences::live::compare::Pause {
                at: shown_time(f.at),
                asked: shown_length(f.asked),
                measured: shown_length(f.measured),
                diff: shown_length(f.measured - f.asked),
            }
            .to_string(),
        );
    }
    let (live_end, sim_end) = (Ending::of(live.metrics()), Ending::of(simulated.metrics()));
    out.push(if live_end == sim_end {
        sentences::live::compare::OutcomeSame {
            outcome: ending(live_end),
        }
        .to_string()
    } else {
        sentences::live::compare::OutcomeDiffers {
            live: ending(live_end),
            simulated: ending(sim_end),
        }
        .to_string()
    });
    out
}

/// A whole run's timeline, with no cursor to move.
pub(in crate::app::sandbox) fn whole_timeline(run: &ShownRun, label: &'static str) -> Html {
    let end = run.end();
    let lanes = RunProps {
        run: run.clone(),
        at: end,
        on_seek: None,
    };
    html! { <Timeline {lanes} now={end} {label} /> }
}

/// The button, then the two timelines and the differences.
#[component]
pub fn Comparison(props: &ComparisonProps) -> Html {
    let simulated = use_state(|| None::<(Rc<Run>, ShownRun)>);
    let on_simulate = {
        let (simulated, trace) = (simulated.clone(), props.trace.clone());
        Callback::from(move |_| {
            simulated.set(simulate(&trace).map(|run| {
                let run = Rc::new(run);
                (run.clone(), ShownRun::from(run))
            }))
        })
    };
    let Some((sim, sim_shown)) = (*simulated).clone() else {
        return html! {
            <button type="button" class="button" onclick={on_simulate}>{LIVE.record.simulate}</button>
        };
    };
    html! {
        <section class="live-compare" aria-label={LIVE.compare.heading}>
            <h4>{LIVE.compare.heading}</h4>
            <p class="muted">{LIVE.compare.intro}</p>
            <div class="live-compare-grid">
                <div>
                    <h5>{LIVE.compare.live}</h5>
                    { whole_timeline(&props.shown, LIVE.compare.live_timeline) }
                </div>
                <div>
                    <h5>{LIVE.compare.simulated}</h5>
                    { whole_timeline(&sim_shown, LIVE.compare.simulated_timeline) }
                </div>
            </div>
            <ul class="live-differences">
                { for differences(&props.trace, &props.live, &sim).into_iter().map(|d| html! { <li>{d}</li> }) }
            </ul>
        </section>
    }
}
