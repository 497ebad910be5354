//! Live mode in the laboratory: the same lease client for real on this page's timers, the
//! lock service with storage and contender B in Web Workers ([`driver`]), faults applied at
//! once, and the run drawn as it grows by the simulated laboratory's own views (lifecycle
//! badges, timeline, diagrams, storage table, checks and counts), read through [`ShownRun`].
//! After it stops, the recorded run is scrubbed like a simulated one, exported, shared as a
//! link, and set beside the simulation of the same plan ([`compare`]).

pub(super) mod compare;
mod driver;
mod faults;

use crate::lesson::sentences;
use std::cell::RefCell;
use std::rc::Rc;

use yew::prelude::*;

use super::checks::ChecksPanel;
use super::controls::Summary;
use super::live::LiveDiagrams;
use super::log::EventLog;
use super::reading::ShownRun;
use super::storage::StoragePanel;
use super::timeline::Timeline;
use super::RunProps;
use crate::lab::describe;
use crate::lab::live::session::{LiveAction, LiveState, Phase};
use crate::lab::live::trace::{Freeze, LiveTrace, TraceRefusal};
use crate::lab::live::{shown_length, shown_time};
use crate::lesson::content::LIVE;
use crate::model::{Run, RunQuestions, Scenario, SimTime};
use driver::{LiveRun, LiveUpdate, LIVE_CLIENTS};

impl Reducible for LiveState {
    type Action = LiveAction;

    fn reduce(self: Rc<Self>, action: LiveAction) -> Rc<Self> {
        Rc::new(self.after(action))
    }
}

/// The live run's handle, shared by the controls; `None` when nothing runs.
type LiveHandle = Rc<RefCell<Option<LiveRun>>>;

#[derive(Properties, PartialEq)]
pub struct LiveLabProps {
    /// The laboratory's scenario: parameters and policy for the next live run.
    pub scenario: Scenario,
}

/// A recording with what the status line said about it.
type Recording = (Rc<LiveTrace>, Option<String>);

thread_local! {
    /// The recording of the live lab last shown, kept while the learner is elsewhere (another
    /// tab, the simulated run) and shown again when live mode comes back.
    static KEPT: RefCell<Option<Recording>> = const { RefCell::new(None) };
}

/// Stops the live run in `live` when the learner leaves live mode, the Sandbox tab or the
/// page (keeping its recording, or the one `shown`, for when live mode comes back), and when
/// `scenario` changes (telling `dispatcher` why).
#[hook]
fn use_live_run_stops(
    live: &LiveHandle,
    shown: Rc<RefCell<Option<Recording>>>,
    dispatcher: UseReducerDispatcher<LiveState>,
    scenario: &Scenario,
) {
    {
        let live = live.clone();
        // Leaving live mode, the Sandbox tab or the page stops the run (workers and timer go)
        // and keeps its recording, or the one on show, for when live mode comes back.
        use_effect_with((), move |_| {
            move || {
                let run = live.borrow_mut().take();
                let stopped = run.and_then(|run| run.stop_because(LIVE.live.left));
                let keep = stopped
                    .map(|(trace, why)| (trace, Some(why)))
                    .or_else(|| shown.borrow_mut().take());
                KEPT.with(|kept| *kept.borrow_mut() = keep);
            }
        });
    }
    {
        // A live run follows the scenario it started with; when that changes, it stops.
        let (live, dispatcher) = (live.clone(), dispatcher);
        use_effect_with(scenario.clone(), move |_| {
            let run = live.borrow_mut().take();
            if let Some((trace, why)) =
                run.and_then(|run| run.stop_because(LIVE.live.scenario_changed))
            {
                dispatcher.dispatch(LiveAction::Update(LiveUpdate::Stopped {
                    trace,
                    why: Some(why),
                }));
            }
        });
    }
}

/// The live laboratory.
#[component]
pub fn LiveLab(props: &LiveLabProps) -> Html {
    let state = use_reducer(|| {
        let kept = KEPT.with(|kept| kept.borrow_mut().take());
        match kept.or_else(|| crate::app::share::initial_live().map(|t| (Rc::new(t), None))) {
            Some((trace, why)) => LiveState::recorded(trace, why),
            None => LiveState::idle(),
        }
    });
    let live: LiveHandle = use_mut_ref(|| None);
    // The recording on show, for the clean-up to keep.
    let shown: Rc<RefCell<Option<Recording>>> = use_mut_ref(|| None);
    *shown.borrow_mut() = match &state.phase {
        Phase::Stopped { trace, why, .. } => Some((trace.clone(), why.clone())),
        _ => None,
    };
    use_live_run_stops(&live, shown, state.dispatcher(), &props.scenario);
    let running = state.running();
    let on_start = {
        let (state, live, scenario) = (state.clone(), live.clone(), props.scenario.clone());
        Callback::from(move |_| {
            drop(live.borrow_mut().take());
            state.dispatch(LiveAction::Starting);
            let updates = state.dispatcher();
            let publish = Callback::from(move |u| updates.dispatch(LiveAction::Update(u)));
            match LiveRun::start(&scenario, publish) {
                Ok(run) => *live.borrow_mut() = Some(run),
                Err(why) => state.dispatch(LiveAction::Update(LiveUpdate::Failed(why))),
            }
        })
    };
    let on_stop = {
        let live = live.clone();
        Callback::from(move |_| {
            let run = live.borrow_mut().take();
            if let Some(run) = run {
                run.stop();
            }
        })
    };
    let status = status_line(&state.phase, &props.scenario);
    html! {
        <section class="live-lab" aria-labelledby="live-run-title">
            <h4 id="live-run-title">{LIVE.live.heading}</h4>
            <p class="muted">{LIVE.live.intro}</p>
            if props.scenario.clients > LIVE_CLIENTS {
                <p class="snippet-note">
                    { sentences::live::live::ClientsLeftOut { count: props.scenario.clients }.to_string() }
                </p>
            }
            <div class="live-controls">
                if running {
                    <button type="button" class="button primary" onclick={on_stop}>{LIVE.live.stop}</button>
                } else {
                    <button type="button" class="button primary" onclick={on_start}>{LIVE.live.start}</button>
                }
            </div>
            if let Some(status) = status {
                <p class="live-status" role="status">{status}</p>
            }
            <faults::LiveFaults enabled={matches!(state.phase, Phase::Running { .. })}
                live={live.clone()} notices={state.dispatcher()} />
            if let Some(notice) = &state.notice {
                <p class="live-notice status-warn" role="alert">{notice.clone()}</p>
            }
            { body(&state) }
        </section>
    }
}

/// What the status line says of the live run in `phase`, of `scenario`.
fn status_line(phase: &Phase, scenario: &Scenario) -> Option<String> {
    match phase {
        Phase::Idle => None,
        Phase::Starting => Some(LIVE.live.starting.to_owned()),
        Phase::Running { now, .. } => Some(
            sentences::live::live::Running {
                elapsed: SimTime::from_millis(now.as_micros() / 1_000),
                limit: scenario.duration.min(driver::LIVE_LIMIT),
            }
            .to_string(),
        ),
        Phase::Stopped { trace, why, .. } => Some(why.clone().unwrap_or_else(|| {
            sentences::live::live::Stopped {
                elapsed: shown_time(trace.end),
            }
            .to_string()
        })),
        Phase::Failed(why) => Some(why.clone()),
    }
}

fn body(state: &UseReducerHandle<LiveState>) -> Html {
    match &state.phase {
        Phase::Running { run, now } => html! {
            <div class="live-views">
                { views(&ShownRun::new(run.clone()), *now, None, LIVE.views.timeline_running) }
            </div>
        },
        Phase::Stopped {
            trace,
            run,
            shown,
            fits_link,
            ..
        } => recorded(state, trace, run, &ShownRun::new(shown.clone()), fits_link),
        _ => Html::default(),
    }
}

/// The simulated laboratory's views of the live run with the cursor at `t` (the panels show
/// the latest event at or before it, as in the simulated run): lifecycle badges, timeline,
/// the diagrams with the messages in flight and each client on its lifecycle state, storage
/// table, checks and counts.
pub(in crate::app::sandbox) fn views(
    run: &ShownRun,
    t: SimTime,
    on_seek: Option<Callback<SimTime>>,
    timeline: &'static str,
) -> Html {
    let step = RunProps {
        run: run.clone(),
        at: run.latest_event_at(t).unwrap_or(SimTime::ZERO),
        on_seek,
    };
    html! {
        <>
            <Summary ..step.clone() />
            <Timeline lanes={step.clone()} now={t} label={timeline} />
            <LiveDiagrams run={run.clone()} now={t} />
            <div class="lab-grid live-run-grid">
                <StoragePanel ..step.clone() />
                <ChecksPanel {step} />
            </div>
        </>
    }
}

/// Each freeze of the page, measured against what was asked.
fn freezes(freezes: &[Freeze]) -> Html {
    if freezes.is_empty() {
        return Html::default();
    }
    html! {
        <ul class="live-freezes" aria-label={LIVE.record.freezes}>
            { for freezes.iter().map(|f| html! { <li>{sentences::live::record::FreezeLine { at: shown_time(f.at), measured: shown_length(f.measured), asked: shown_length(f.asked) }.to_string()}</li> }) }
        </ul>
    }
}

/// A stopped run: scrub, views at the cursor, link, export, and the comparison.
fn recorded(
    state: &UseReducerHandle<LiveState>,
    trace: &Rc<LiveTrace>,
    run: &Rc<Run>,
    shown: &ShownRun,
    fits_link: &Result<(), TraceRefusal>,
) -> Html {
    let end = run.end();
    let t = state.cursor.unwrap_or(end).min(end);
    let seek = {
        let state = state.clone();
        Callback::from(move |t: SimTime| state.dispatch(LiveAction::Seek(t)))
    };
    let on_seek = {
        let state = state.clone();
        Callback::from(move |e: InputEvent| {
            let input: web_sys::HtmlInputElement = e.target_unchecked_into();
            if let Ok(ms) = input.value().parse::<u64>() {
                state.dispatch(LiveAction::Seek(SimTime::from_millis(ms)));
            }
        })
    };
    let hash = format!("{:016x}", run.trace_hash());
    let link = match fits_link {
        Ok(()) => {
            let trace = trace.clone();
            let text = Callback::from(move |_| {
                crate::app::share::address_of(&crate::share::LinkState {
                    tab: crate::route::Tab::Sandbox,
                    live: Some((*trace).clone()),
                    ..Default::default()
                })
            });
            html! { <crate::app::share::CopyField label={LIVE.record.link}
            field_label={LIVE.record.link_field} {text} /> }
        }
        Err(_) => {
            html! { <p class="status-warn">{sentences::live::record::TooBig { events: trace.events.len() }.to_string()}</p> }
        }
    };
    let on_export = {
        let (run, hash) = (run.clone(), hash.clone());
        Callback::from(move |_| {
            let mut text = sentences::live::record::ExportHeading { hash: &hash }.to_string();
            text.push('\n');
            for (e, found) in run.events().iter().zip(run.found()) {
                text.push_str(&format!("{} {}\n", e.at, describe::event(e, *found)));
            }
            let _ = crate::app::diagrams::export::save_file(&text, "lease-lab-live-run.txt");
        })
    };
    html! {
        <div class="live-views recorded">
            <h4>{LIVE.live.recorded}</h4>
            <label class="live-scrub">
                <span>{LIVE.views.cursor}</span>
                <input type="range" min="0" max={end.as_micros().div_ceil(1_000).to_string()}
                    step="1" value={(t.as_micros() / 1_000).to_string()} oninput={on_seek} />
            </label>
            { freezes(&state.freezes) }
            { views(shown, t, Some(seek), LIVE.views.timeline_recorded) }
            <EventLog run={shown.clone()} at={t} />
            <section class="live-record" aria-label={LIVE.record.heading}>
                <h4>{LIVE.record.heading}</h4>
                <p class="trace-id live-trace-id">{sentences::live::record::TraceHash { hash, events: run.events().len() }.to_string()}</p>
                { link }
                <button type="button" class="button" onclick={on_export}>{LIVE.record.export}</button>
            </section>
            <compare::Comparison trace={trace.clone()} live={run.clone()} shown={shown.clone()} />
        </div>
    }
}
