//! The sandbox's state and every change a learner can make to it, apart from any view.
//!
//! Pure and native-tested: the Yew sandbox wraps [`Lab`] in a reducer, and the driver feeds
//! it wall-clock frame gaps. A change to the scenario re-runs the model: a short run at
//! once, a long one in slices the driver asks for ([`LabAction::Simulate`]) while the lab
//! shows its progress. Playback only moves the cursor `now` through that deterministic run,
//! kept as checkpoints ([`Recording`]), so seeking and stepping back are exact.

pub mod challenge;
pub mod describe;
pub mod fault_form;
pub mod live;
pub mod own_client;
pub mod pitfall;
mod playback;
pub mod reading;
pub mod search;
mod sequence;
mod simulating;
pub mod story;
mod switches;
pub mod timeline;

use crate::lesson::sentences;
use std::rc::Rc;

pub use playback::{Speed, MAX_FRAME_GAP_MS};
pub use sequence::{RunArrow, RunSequence};
pub use simulating::{Progress, FIRST_SLICE_EVENTS};
pub use switches::PolicySwitch;

use crate::lesson::content::SANDBOX;
use crate::lesson::reasons;
use crate::model::fields;
use crate::model::{
    presets, Fault, Recorder, Recording, RunQuestions, Scenario, SimTime, TimedFault,
};
use simulating::{Jobs, Role};

/// The sandbox: a scenario, its run, an optional comparison run, and playback.
#[derive(Clone, Debug)]
pub struct Lab {
    scenario: Scenario,
    preset: Option<&'static str>,
    run: Rc<Recording>,
    compare: Option<Comparison>,
    now: SimTime,
    playing: bool,
    speed: Speed,
    problem: Option<Problem>,
    generation: u64,
    jobs: Jobs,
}

/// Why the last change was refused, and the Parameters field it was made in, if it was.
#[derive(Clone, Debug, PartialEq)]
struct Problem {
    text: String,
    field: Option<&'static str>,
}

impl Problem {
    fn general(text: String) -> Option<Problem> {
        Some(Problem { text, field: None })
    }
}

/// The same scenario run again with one policy switch flipped, at the same time cursor.
#[derive(Clone, Debug)]
pub struct Comparison {
    /// The switch flipped relative to the main run.
    pub switch: PolicySwitch,
    /// The flipped run.
    pub run: Rc<Recording>,
}

/// Everything a learner (or the driver) can do to the sandbox.
#[derive(Clone, Debug, PartialEq)]
pub enum LabAction {
    /// A frame: `wall_ms` of real time passed since the last one.
    Tick { wall_ms: f64 },
    /// Start or stop playback.
    TogglePlay,
    /// Stop playback.
    Pause,
    /// Move the cursor to the next event.
    StepForward,
    /// Move the cursor to the previous event.
    StepBack,
    /// Move the cursor to `t` (clamped to the run).
    Seek(SimTime),
    /// Move the cursor to the end of the run.
    JumpToEnd,
    /// Change the playback speed.
    SetSpeed(Speed),
    /// Load a preset by id, at time zero.
    LoadPreset(String),
    /// Replace the scenario (parameters, policy, faults); rejected with a message if invalid.
    SetScenario(Scenario),
    /// Set one field of the scenario (by its key in [`fields::SCENARIO_FIELDS`]) to what the learner
    /// typed, in the unit the Parameters form shows; rejected with a message if unreadable.
    SetField(&'static str, String),
    /// Add a fault to the plan.
    AddFault(TimedFault),
    /// Add a fault to the plan at the cursor.
    AddFaultAtCursor(Fault),
    /// Remove the fault at this index of the plan.
    RemoveFault(usize),
    /// Move the fault at this index to another time.
    MoveFault(usize, SimTime),
    /// Flip one policy switch in the main scenario.
    FlipSwitch(PolicySwitch),
    /// Compare with the same scenario under one switch flipped, or stop comparing.
    SetCompare(Option<PolicySwitch>),
    /// Apply the TTL and renew defaults of a real system (by its slug).
    UseDefaultsOf(String),
    /// Simulate about this many more events of the runs still being simulated.
    Simulate {
        /// How many events, at most about.
        max_events: usize,
    },
    /// Stop simulating: the run ends where the simulation has got (its length is cut to
    /// that time), or, when only the comparison is left, stop comparing.
    StopSimulating,
}

impl Default for Lab {
    fn default() -> Self {
        Lab::from_preset(DEFAULT_PRESET).expect("the default preset exists")
    }
}

/// The preset the sandbox opens with.
pub const DEFAULT_PRESET: &str = "2";

impl Lab {
    /// A lab showing preset `id` at time zero, or `None` if there is no such preset.
    pub fn from_preset(id: &str) -> Option<Lab> {
        let preset = presets::preset(id)?;
        Some(Lab::with_scenario(preset.scenario.clone(), Some(preset.id)))
    }

    /// A lab for an arbitrary scenario; it must already be valid. A long run is still
    /// being simulated when this returns (see [`Lab::simulating`]).
    pub fn with_scenario(scenario: Scenario, preset: Option<&'static str>) -> Lab {
        let mut lab = Lab {
            run: Rc::new(Recorder::new(&scenario).cut(SimTime::ZERO)),
            scenario: scenario.clone(),
            preset,
            compare: None,
            now: SimTime::ZERO,
            playing: false,
            speed: Speed::default(),
            problem: None,
            generation: 0,
            jobs: Jobs::default(),
        };
        lab.simulate(scenario, [Role::Main]);
        lab
    }

    /// The lab a link opens: `scenario` (labelled `preset`), comparing as asked, at `time`.
    /// A scenario that does not validate (never the case after a link's decoding) gives the
    /// default lab.
    pub fn opened(
        scenario: Scenario,
        preset: Option<&'static str>,
        compare: Option<PolicySwitch>,
        time: SimTime,
    ) -> Lab {
        if scenario.validate().is_err() {
            return Lab::default();
        }
        let mut lab = Lab::with_scenario(scenario, preset);
        for action in [LabAction::SetCompare(compare), LabAction::Seek(time)] {
            if let Some(next) = lab.apply(action) {
                lab = next;
            }
        }
        lab
    }

    /// The scenario being run.
    pub fn scenario(&self) -> &Scenario {
        &self.scenario
    }
    /// The preset the scenario came from, while it is unchanged.
    pub fn preset(&self) -> Option<&'static str> {
        self.preset
    }
    /// The main run. While a new one is being simulated, the last finished one (at first,
    /// the new run's first millisecond).
    pub fn run(&self) -> &Rc<Recording> {
        &self.run
    }
    /// How far the runs still being simulated have got, or `None` when they are ready.
    pub fn simulating(&self) -> Option<Progress> {
        self.jobs.progress()
    }
    /// Where the scenario ends (also while it is being simulated).
    fn end(&self) -> SimTime {
        SimTime(self.scenario.duration.0)
    }
    /// The comparison run, if comparing.
    pub fn compare(&self) -> Option<&Comparison> {
        self.compare.as_ref()
    }
    /// The playback cursor.
    pub fn now(&self) -> SimTime {
        self.now
    }
    /// True while playing.
    pub fn playing(&self) -> bool {
        self.playing
    }
    /// The playback speed.
    pub fn speed(&self) -> Speed {
        self.speed
    }
    /// Why the last change was refused, in plain words.
    pub fn problem(&self) -> Option<&str> {
        self.problem.as_ref().map(|p| p.text.as_str())
    }

    /// The key of the Parameters field whose change was refused, if the last refusal was one.
    pub fn problem_field(&self) -> Option<&'static str> {
        self.problem.as_ref().and_then(|p| p.field)
    }
    /// Counts the runs this lab has shown: it changes whenever the main or the comparison
    /// run is replaced, so views can tell a new setup from a moved cursor.
    pub fn generation(&self) -> u64 {
        self.generation
    }

    /// Applies `action`. Returns `None` when nothing changed, so a view can skip a render.
    pub fn apply(&self, action: LabAction) -> Option<Lab> {
        let mut next = self.change(action)?;
        let same_compare = match (&self.compare, &next.compare) {
            (Some(a), Some(b)) => Rc::ptr_eq(&a.run, &b.run),
            (a, b) => a.is_none() && b.is_none(),
        };
        next.generation = if Rc::ptr_eq(&self.run, &next.run) && same_compare {
            self.generation
        } else {
            self.generation + 1
        };
        Some(next)
    }

    fn change(&self, action: LabAction) -> Option<Lab> {
        if self.simulating().is_some() {
            if let Some(next) = self.apply_while_simulating(&action) {
                return next;
            }
        }
        match action {
            LabAction::Tick { .. }
            | LabAction::TogglePlay
            | LabAction::Pause
            | LabAction::StepForward
            | LabAction::StepBack
            | LabAction::Seek(_)
            | LabAction::JumpToEnd
            | LabAction::SetSpeed(_) => self.move_cursor(action),
            LabAction::AddFaultAtCursor(fault) => self.change(LabAction::AddFault(TimedFault {
                at: self.now,
                fault,
            })),
            LabAction::AddFault(_) | LabAction::RemoveFault(_) | LabAction::MoveFault(..) => {
                self.edit_faults(action)
            }
            _ => self.change_setup(action),
        }
    }

    /// Playback: the cursor, play and pause, and the speed.
    fn move_cursor(&self, action: LabAction) -> Option<Lab> {
        let mut next = self.clone();
        let end = self.run.end();
        match action {
            LabAction::Tick { wall_ms } => {
                if !self.playing {
                    return None;
                }
                let advanced = SimTime(
                    self.now
                        .0
                        .saturating_add(self.speed.sim_micros_for(wall_ms)),
                );
                next.now = advanced.min(end);
                next.playing = next.now < end;
            }
            LabAction::TogglePlay => {
                next.playing = !self.playing;
                if next.playing && self.now >= end {
                    next.now = SimTime::ZERO;
                }
            }
            LabAction::Pause => next.playing = false,
            LabAction::StepForward => {
                next.playing = false;
                next.now = self.next_event_after(self.now).unwrap_or(end);
            }
            LabAction::StepBack => {
                next.playing = false;
                next.now = self
                    .previous_event_before(self.now)
                    .unwrap_or(SimTime::ZERO);
            }
            LabAction::Seek(t) => next.now = t.min(end),
            LabAction::JumpToEnd => {
                next.playing = false;
                next.now = end;
            }
            LabAction::SetSpeed(speed) => next.speed = speed,
            _ => return None,
        }
        Some(next)
    }

    /// Adds, removes or moves a planned fault.
    fn edit_faults(&self, action: LabAction) -> Option<Lab> {
        let mut scenario = self.scenario.clone();
        let plan = &mut scenario.faults.0;
        match action {
            LabAction::AddFault(fault) => plan.push(fault),
            LabAction::RemoveFault(index) if index < plan.len() => {
                plan.remove(index);
            }
            LabAction::MoveFault(index, at) => plan.get_mut(index)?.at = at,
            _ => return None,
        }
        plan.sort_by_key(|f| f.at);
        let mut next = self.clone();
        next.replace_scenario(scenario);
        Some(next)
    }

    /// Presets, whole scenarios, switches, comparisons and real systems' defaults.
    fn change_setup(&self, action: LabAction) -> Option<Lab> {
        let mut next = self.clone();
        match action {
            LabAction::LoadPreset(id) => match Lab::from_preset(&id) {
                Some(lab) => {
                    next = Lab {
                        speed: self.speed,
                        ..lab
                    }
                }
                None => {
                    next.problem = Problem::general(
                        sentences::sandbox::lab_problems::NoPreset { id }.to_string(),
                    )
                }
            },
            LabAction::SetScenario(scenario) => next.replace_scenario(scenario),
            LabAction::SetField(key, text) => {
                let field = fields::field(key)?;
                let mut scenario = self.scenario.clone();
                match field.read_form(&mut scenario, &text) {
                    Ok(()) => next.replace_scenario(scenario),
                    Err(e) => {
                        let label = SANDBOX.field(key).label;
                        next.problem = Problem::general(
                            sentences::sandbox::lab_problems::BadField {
                                label,
                                text: text.trim(),
                                why: reasons::value(e),
                            }
                            .to_string(),
                        );
                    }
                }
                // Refused beside the field it was typed in.
                if let Some(problem) = &mut next.problem {
                    problem.field = Some(key);
                }
            }
            LabAction::FlipSwitch(switch) => {
                let mut scenario = self.scenario.clone();
                switch.flip(&mut scenario.policy);
                next.replace_scenario(scenario);
            }
            LabAction::SetCompare(switch) => {
                next.jobs.drop_comparisons();
                next.compare = None;
                if let Some(switch) = switch {
                    next.simulate(self.scenario.clone(), [Role::Compare(switch)]);
                }
            }
            LabAction::Simulate { .. } | LabAction::StopSimulating => return None,
            LabAction::UseDefaultsOf(system) => {
                let Some(defaults) = presets::system_defaults()
                    .into_iter()
                    .find(|d| d.slug == system)
                else {
                    next.problem = Problem::general(
                        sentences::sandbox::lab_problems::NoDefaults { system }.to_string(),
                    );
                    return Some(next);
                };
                let mut scenario = self.scenario.clone();
                defaults.apply(&mut scenario);
                next.replace_scenario(scenario);
            }
            _ => return None,
        }
        Some(next)
    }

    /// Validates and runs a new scenario, keeping the cursor where it was (clamped). The
    /// preset label is dropped because the scenario no longer matches it.
    fn replace_scenario(&mut self, scenario: Scenario) {
        if let Err(error) = scenario.validate() {
            self.problem = Problem::general(reasons::scenario(&error));
            return;
        }
        let compare = self.compare.as_ref().map(|c| c.switch).or_else(|| {
            PolicySwitch::ALL
                .into_iter()
                .find(|&s| self.jobs.has(Role::Compare(s)))
        });
        // The preset the scenario still is, or the one it has become (fencing unticked on
        // preset 8 is preset 8 with fencing off), as a link to it would name it.
        let is_it = |p: &presets::Preset| p.scenario == scenario;
        self.preset = self
            .preset
            .filter(|id| presets::preset(id).is_some_and(is_it))
            .or_else(|| presets::presets().iter().find(|p| is_it(p)).map(|p| p.id));
        self.problem = None;
        self.compare = None;
        self.playing = false;
        self.jobs = Jobs::default();
        let roles = std::iter::once(Role::Main).chain(compare.map(Role::Compare));
        self.simulate(scenario, roles);
    }

    /// Starts simulating `scenario` in each role; what finishes in the first slice is ready
    /// at once, the rest continues on [`LabAction::Simulate`].
    fn simulate(&mut self, scenario: Scenario, roles: impl IntoIterator<Item = Role>) {
        self.scenario = scenario;
        let started = Jobs::start(&self.scenario, roles);
        let ready = started.advance(FIRST_SLICE_EVENTS);
        if self.jobs.is_empty() {
            self.jobs = started;
        } else {
            self.jobs.merge(started);
        }
        self.install(ready);
        self.now = self.now.min(self.end());
    }

    /// Puts finished runs in place.
    fn install(&mut self, ready: Vec<(Role, Recording)>) {
        for (role, recording) in ready {
            match role {
                Role::Main => {
                    self.scenario = recording.scenario().clone();
                    self.run = Rc::new(recording);
                }
                Role::Compare(switch) => {
                    self.compare = Some(Comparison {
                        switch,
                        run: Rc::new(recording),
                    })
                }
            }
        }
        self.now = self.now.min(self.end());
    }

    /// The actions that act differently while runs are being simulated: `Some(result)` for
    /// those, `None` for the ones that act as usual (a new scenario replaces the simulation).
    fn apply_while_simulating(&self, action: &LabAction) -> Option<Option<Lab>> {
        let mut next = self.clone();
        match *action {
            LabAction::Simulate { max_events } => {
                let ready = next.jobs.advance(max_events);
                next.install(ready);
            }
            LabAction::StopSimulating if self.jobs.has(Role::Main) => {
                let ready = next.jobs.cut();
                next.compare = None;
                next.preset = None;
                next.install(ready);
            }
            LabAction::StopSimulating => next.jobs.drop_comparisons(),
            LabAction::Seek(t) => next.now = t.min(self.end()),
            LabAction::JumpToEnd => next.now = self.end(),
            LabAction::SetSpeed(speed) => next.speed = speed,
            LabAction::Tick { .. }
            | LabAction::TogglePlay
            | LabAction::Pause
            | LabAction::StepForward
            | LabAction::StepBack => return Some(None),
            _ => return None,
        }
        Some(Some(next))
    }

    fn next_event_after(&self, t: SimTime) -> Option<SimTime> {
        self.run.next_event_after(t)
    }

    fn previous_event_before(&self, t: SimTime) -> Option<SimTime> {
        self.run.previous_event_before(t)
    }
}
