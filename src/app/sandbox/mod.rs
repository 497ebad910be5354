//! The Sandbox tab's laboratory, the pitfall exercise and the runnable snippets: the
//! laboratory's own wasm module (see [`crate::app::lab_entry`]).
//!
//! The laboratory keeps a [`Lab`] in a reducer; `driver` feeds it frame times from
//! `performance.now`, and every panel renders the lab's run at its cursor.

mod challenges;
mod checks;
mod controls;
mod driver;
mod faults;
mod live;
pub(crate) mod live_mode;
pub(crate) mod log;
pub mod own_client;
mod pitfall;
mod progress;
pub mod reading;
pub(crate) mod search;
mod storage;
mod timeline;

use crate::lesson::sentences;
use std::rc::Rc;

use yew::prelude::*;

use crate::lab::{Lab, LabAction};
use crate::lesson::content::{PresetText, SANDBOX};
use crate::model::{presets, RunQuestions, SimTime};
use reading::ShownRun;

/// The lab as a Yew reducer state. An action that changes nothing keeps the same `Rc`,
/// so Yew skips the render.
pub struct LabStore(pub Lab);

/// Cheap equality for props: a new run always comes with a new generation.
impl PartialEq for LabStore {
    fn eq(&self, other: &Self) -> bool {
        let (a, b) = (&self.0, &other.0);
        a.generation() == b.generation()
            && a.now() == b.now()
            && a.playing() == b.playing()
            && a.speed() == b.speed()
            && a.problem() == b.problem()
            && a.simulating() == b.simulating()
    }
}

impl Reducible for LabStore {
    type Action = LabAction;

    fn reduce(self: Rc<Self>, action: LabAction) -> Rc<Self> {
        match self.0.apply(action) {
            Some(next) => Rc::new(LabStore(next)),
            None => self,
        }
    }
}

/// Props shared by every laboratory panel: the lab, which also takes actions.
#[derive(Properties, PartialEq, Clone)]
pub struct LabProps {
    pub lab: UseReducerHandle<LabStore>,
}

impl LabProps {
    /// A callback that sends `make(value)` to the lab.
    fn send<T: 'static>(&self, make: impl Fn(T) -> LabAction + 'static) -> Callback<T> {
        send(&self.lab, make)
    }
}

fn send<T: 'static>(
    lab: &UseReducerHandle<LabStore>,
    make: impl Fn(T) -> LabAction + 'static,
) -> Callback<T> {
    let lab = lab.clone();
    Callback::from(move |value| lab.dispatch(make(value)))
}

/// What identifies a lab's setup: the lab's generation changes with every new run. Kept as
/// plain values because every clone of a reducer handle reads the latest state.
#[derive(Clone, Debug, PartialEq)]
pub struct SetupKey {
    generation: u64,
    problem: Option<String>,
    simulating: bool,
}

impl SetupKey {
    fn of(lab: &Lab) -> SetupKey {
        SetupKey {
            generation: lab.generation(),
            problem: lab.problem().map(str::to_owned),
            simulating: lab.simulating().is_some(),
        }
    }
}

/// Props for panels that change only when an event happens: `at` is the time of the
/// latest event at or before the cursor, so playback between events skips their render.
#[derive(Properties, Clone)]
pub struct StepProps {
    pub lab: UseReducerHandle<LabStore>,
    pub setup: SetupKey,
    pub at: SimTime,
}

impl PartialEq for StepProps {
    fn eq(&self, other: &Self) -> bool {
        self.at == other.at && self.setup == other.setup
    }
}

impl StepProps {
    fn send<T: 'static>(&self, make: impl Fn(T) -> LabAction + 'static) -> Callback<T> {
        send(&self.lab, make)
    }
}

/// Props of the panels drawn from a run at one time, whichever kind of run it is: `at` is
/// the latest event at or before the cursor, so playback between events skips their render.
#[derive(Properties, Clone)]
pub struct RunProps {
    pub run: ShownRun,
    pub at: SimTime,
    /// Moves the cursor; `None` where there is no cursor to move (a live run going on).
    #[prop_or_default]
    pub on_seek: Option<Callback<SimTime>>,
}

/// The seek callback is not compared: each render makes a new one that does the same.
impl PartialEq for RunProps {
    fn eq(&self, other: &Self) -> bool {
        self.run == other.run
            && self.at == other.at
            && self.on_seek.is_some() == other.on_seek.is_some()
    }
}

/// Props for panels that show the scenario itself: they render only when it changes.
#[derive(Properties, Clone)]
pub struct SetupProps {
    pub lab: UseReducerHandle<LabStore>,
    pub setup: SetupKey,
    /// The panels set up the learner's client, which takes only some of the policies.
    pub own_client: bool,
}

impl PartialEq for SetupProps {
    fn eq(&self, other: &Self) -> bool {
        (&self.setup, self.own_client) == (&other.setup, other.own_client)
    }
}

impl SetupProps {
    fn send<T: 'static>(&self, make: impl Fn(T) -> LabAction + 'static) -> Callback<T> {
        send(&self.lab, make)
    }
}

/// The Sandbox tab's part that the laboratory's module renders (its introduction is the
/// shell's, [`crate::app::lab_loader::SandboxTab`]). The laboratory comes first; the pitfall
/// exercise and the snippets below it join once it has been painted, so that it works that
/// much sooner. They only add to the page's end, so nothing above them moves.
#[component]
pub fn SandboxSections() -> Html {
    let painted = use_painted();
    html! {
        <>
            <Laboratory />
            if painted {
                <challenges::Challenges />
                <pitfall::PitfallExercise />
            }
        </>
    }
}

/// The mounted laboratory as the sections beside it reach it ("Go to" a challenge's
/// failure), which have no reducer handle of their own.
#[derive(Clone)]
struct LabDoor {
    dispatch: Callback<LabAction>,
    /// Shows the model's own run: what "Go to" points into, whatever mode is open.
    show_simulated: Callback<()>,
}

thread_local! {
    static LAB_DOOR: std::cell::RefCell<Option<LabDoor>> = const { std::cell::RefCell::new(None) };
}

/// Keeps [`LAB_DOOR`] pointing at this laboratory while it is mounted.
#[hook]
fn use_lab_door(dispatch: &Callback<LabAction>, mode: &UseStateHandle<Mode>) {
    let door = LabDoor {
        dispatch: dispatch.clone(),
        show_simulated: choose_mode(mode, Mode::Simulated),
    };
    use_effect_with((), move |_| {
        LAB_DOOR.with(|slot| *slot.borrow_mut() = Some(door));
        || LAB_DOOR.with(|slot| *slot.borrow_mut() = None)
    });
}

/// Opens `scenario` in the laboratory, in the mode it is in, with its cursor at `at`, and
/// scrolls it into view: Your client's plans load into the scenario its code runs in.
pub fn go_to(scenario: crate::model::Scenario, at: SimTime) {
    open_in_lab(scenario, at, false);
}

/// [`go_to`] in the simulated run, whatever mode was open: a challenge's failure is a moment
/// of the model's own run.
pub fn go_to_simulated(scenario: crate::model::Scenario, at: SimTime) {
    open_in_lab(scenario, at, true);
}

fn open_in_lab(scenario: crate::model::Scenario, at: SimTime, simulated: bool) {
    let Some(door) = LAB_DOOR.with(|slot| slot.borrow().clone()) else {
        return;
    };
    if simulated {
        door.show_simulated.emit(());
    }
    door.dispatch.emit(LabAction::SetScenario(scenario));
    door.dispatch.emit(LabAction::Seek(at));
    if let Some(lab) = gloo::utils::document().get_element_by_id("lab-title") {
        lab.scroll_into_view();
    }
}

/// Turns true once the first render has been painted.
#[hook]
fn use_painted() -> bool {
    let painted = use_state_eq(|| false);
    {
        let painted = painted.clone();
        use_effect_with((), move |_| {
            // A component gone by then ignores the change.
            crate::app::paint::after_paint(move || painted.set(true));
        });
    }
    *painted
}

/// The lease laboratory.
#[component]
pub fn Laboratory() -> Html {
    let painted = use_painted();
    let store = use_reducer(|| LabStore(crate::app::share::initial_lab()));
    let dispatch = {
        let store = store.clone();
        Callback::from(move |action: LabAction| store.dispatch(action))
    };
    let mode = use_state(initial_mode);
    use_lab_door(&dispatch, &mode);
    driver::use_playback(store.0.playing(), dispatch.clone());
    driver::use_simulation(store.0.simulating().map(|p| p.events), dispatch.clone());
    crate::app::share::use_lab_link(&store.0, dispatch.clone());
    let shown_step = use_mut_ref(driver::ShownStep::default);
    let onkeydown = lab_keys(dispatch);
    let lab = &store.0;
    let body = match *mode {
        Mode::Live => live_view(&store),
        Mode::OwnClient => own_client_view(&store),
        Mode::Simulated => match lab.simulating() {
            Some(progress) => simulating_view(&store, progress),
            None => {
                let latest_event = lab
                    .run()
                    .latest_event_at(lab.now())
                    .unwrap_or(SimTime::ZERO);
                let at = driver::refresh_while_playing(&shown_step, lab, latest_event);
                lab_view(&store, at, painted)
            }
        },
    };
    html! {
        <section class="lab" aria-labelledby="lab-title" {onkeydown}>
            <h3 id="lab-title">{SANDBOX.lab.heading}</h3>
            { mode_switch(&mode) }
            { body }
        </section>
    }
}

/// What the laboratory runs: the model's own clients, live mode, or the learner's client.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Mode {
    Simulated,
    Live,
    OwnClient,
}

thread_local! {
    /// The mode the learner last chose, so coming back to the Sandbox tab keeps it.
    static MODE: std::cell::Cell<Option<Mode>> = const { std::cell::Cell::new(None) };
}

/// The link's "Your client" wins (a followed link shows what it says); otherwise the mode
/// last chosen, or live mode for a link with a recorded live run.
fn initial_mode() -> Mode {
    if crate::app::share::initial_snippets().client.is_some() {
        return Mode::OwnClient;
    }
    match MODE.get() {
        Some(mode) if mode != Mode::OwnClient => mode,
        _ if crate::app::share::initial_live().is_some() => Mode::Live,
        _ => Mode::Simulated,
    }
}

/// Opens `chosen`, and keeps it for coming back to the Sandbox.
fn choose_mode(mode: &UseStateHandle<Mode>, chosen: Mode) -> Callback<()> {
    let mode = mode.clone();
    Callback::from(move |()| {
        MODE.set(Some(chosen));
        if chosen != Mode::OwnClient {
            crate::app::share::record_client(None);
        }
        mode.set(chosen)
    })
}

/// The switch between the simulated run, live mode and "Your client".
fn mode_switch(mode: &UseStateHandle<Mode>) -> Html {
    use crate::lesson::content::LIVE;
    let choose = |chosen: Mode| choose_mode(mode, chosen).reform(|_: MouseEvent| ());
    let pressed = |m: Mode| (**mode == m).to_string();
    html! {
        <div class="lab-mode" role="group" aria-label={LIVE.mode.label}>
            <button type="button" class="button" aria-pressed={pressed(Mode::Simulated)} onclick={choose(Mode::Simulated)}>
                {LIVE.mode.simulated}
            </button>
            <button type="button" class="button" aria-pressed={pressed(Mode::Live)} onclick={choose(Mode::Live)}>
                {LIVE.mode.live}
            </button>
            <button type="button" class="button" aria-pressed={pressed(Mode::OwnClient)} onclick={choose(Mode::OwnClient)}>
                {SANDBOX.own_client.mode}
            </button>
            <span class="muted hint">{LIVE.mode.switch_hint}</span>
        </div>
    }
}

/// "Your client": the learner's code and its runs, then the scenario it runs in: the
/// preset, the fault plan, the policies and the parameters.
fn own_client_view(store: &UseReducerHandle<LabStore>) -> Html {
    let setup = SetupProps {
        lab: store.clone(),
        setup: SetupKey::of(&store.0),
        own_client: true,
    };
    html! {
        <>
            <own_client::OwnClientLab scenario={store.0.scenario().clone()} />
            <p class="muted">{SANDBOX.own_client.settings_note}</p>
            <controls::PresetPicker ..setup />
            { settings_panels(store, true) }
        </>
    }
}

/// The panels a live or learner's run starts from: the policies and parameters, and for the
/// learner's client the fault plan too (live mode brings its own faults as they happen).
fn settings_panels(store: &UseReducerHandle<LabStore>, own_client: bool) -> Html {
    let setup = SetupProps {
        lab: store.clone(),
        setup: SetupKey::of(&store.0),
        own_client,
    };
    html! {
        <div class="lab-settings">
            if own_client {
                <faults::FaultsPanel ..setup.clone() />
            }
            <controls::PolicyPanel ..setup.clone() />
            <controls::ParametersPanel ..setup />
        </div>
    }
}

/// Live mode: the live laboratory, then the settings it starts from.
fn live_view(store: &UseReducerHandle<LabStore>) -> Html {
    html! {
        <>
            <live_mode::LiveLab scenario={store.0.scenario().clone()} />
            { settings_panels(store, false) }
        </>
    }
}

/// Space plays or pauses and the arrows step between events, unless a control owns the key.
fn lab_keys(dispatch: Callback<LabAction>) -> Callback<KeyboardEvent> {
    Callback::from(move |event: KeyboardEvent| {
        if driver::belongs_to_control(&event) {
            return;
        }
        let action = match event.key().as_str() {
            " " => LabAction::TogglePlay,
            "ArrowRight" => LabAction::StepForward,
            "ArrowLeft" => LabAction::StepBack,
            _ => return,
        };
        event.prevent_default();
        dispatch.emit(action);
    })
}

/// While a long run is simulated: the preset, the progress and the settings.
fn simulating_view(store: &UseReducerHandle<LabStore>, progress: crate::lab::Progress) -> Html {
    let setup = SetupProps {
        lab: store.clone(),
        setup: SetupKey::of(&store.0),
        own_client: false,
    };
    html! {
        <>
            <controls::PresetPicker ..setup.clone() />
            <progress::SimulationProgress {progress} lab={store.clone()} />
            <div class="lab-settings">
                <faults::FaultsPanel ..setup.clone() />
                <controls::PolicyPanel ..setup.clone() />
                <controls::ParametersPanel ..setup />
            </div>
        </>
    }
}

/// The laboratory at event time `at`. Its first render draws what the first screen holds
/// (the picker, the playback bar and the timeline), so that Play works sooner; the panels
/// below join once that has been `painted`, where they move nothing already shown.
fn lab_view(store: &UseReducerHandle<LabStore>, at: SimTime, painted: bool) -> Html {
    let lab = &store.0;
    let setup = SetupProps {
        lab: store.clone(),
        setup: SetupKey::of(lab),
        own_client: false,
    };
    let run = RunProps {
        run: ShownRun::from(lab.run().clone()),
        at,
        on_seek: Some(send(store, LabAction::Seek)),
    };
    html! {
        <>
            <controls::PresetPicker ..setup.clone() />
            // A refused Parameters field says so beside that field instead.
            if let (Some(problem), None) = (lab.problem(), lab.problem_field()) {
                <p class="lab-problem status-warn" role="status">{problem}</p>
            }
            <controls::PlaybackBar lab={store.clone()} />
            <timeline::Timeline lanes={run.clone()} now={lab.now()} label={SANDBOX.timeline.simulated_label} />
            if painted {
                { lab_panels(store, setup, run) }
            }
        </>
    }
}

/// The laboratory's panels below its timeline: the run's readings, the settings, the search
/// and the event log.
fn lab_panels(store: &UseReducerHandle<LabStore>, setup: SetupProps, run: RunProps) -> Html {
    let lab = &store.0;
    let step = StepProps {
        lab: store.clone(),
        setup: setup.setup.clone(),
        at: run.at,
    };
    let compare = lab.compare().map(|c| checks::ComparedRun {
        switch: c.switch,
        run: ShownRun::from(c.run.clone()),
    });
    html! {
        <>
            <live::LiveDiagrams run={run.run.clone()} now={lab.now()} />
            <div class="lab-grid">
                <div class="lab-main">
                    <controls::Summary ..run.clone() />
                    <storage::StoragePanel ..run.clone() />
                    <live::RunSequenceView ..step />
                </div>
                <div class="lab-side">
                    <checks::ChecksPanel step={run.clone()} {compare} />
                </div>
            </div>
            <div class="lab-settings">
                <faults::FaultsPanel ..setup.clone() />
                <controls::PolicyPanel ..setup.clone() />
                <controls::ParametersPanel ..setup.clone() />
            </div>
            <search::SearchPanel ..setup />
            <log::EventLog ..run />
            <p class="trace-id">
                {sentences::sandbox::lab::TraceId { hash: format!("{:016x}", lab.run().trace_hash()), seed: lab.scenario().seed, events: lab.run().event_count() }.to_string()}
            </p>
        </>
    }
}

/// The preset ids in lesson order, with their visible names from the content file.
fn preset_choices() -> Vec<(&'static str, String)> {
    presets::presets()
        .iter()
        .map(|p| {
            let name = match SANDBOX.preset(p.id) {
                Some(PresetText {
                    title,
                    variant: Some(variant),
                    ..
                }) => format!("{}. {title} ({variant})", p.number),
                Some(words) => format!("{}. {}", p.number, words.title),
                None => format!("{}. {}", p.number, p.id),
            };
            (p.id, name)
        })
        .collect()
}
