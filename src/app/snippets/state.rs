//! A snippet panel's state: its code, its time limit and its latest run, changed only by
//! [`PanelAction`]s. Each run has its own number, so news of an older run changes nothing,
//! and a run takes its news in order: progress while it is going, then one ending.

use crate::lesson::content::SANDBOX;
use crate::lesson::sentences;
use std::rc::Rc;

use yew::prelude::*;

use super::bridge::{RunEnding, RunEvent, RunProgress, RunnerProblem, Stream};
use crate::lab::describe;
use crate::lab::own_client::{wire, with_controls_visible, During};
use crate::model::search::SearchSpec;
use crate::model::{ClientId, Scenario, SimTime};

pub const DEFAULT_LIMIT_SECS: u32 = 5;
pub const MAX_LIMIT_SECS: u32 = 60;

/// An engine download's progress.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Download {
    pub received_bytes: f64,
    pub total_bytes: Option<f64>,
}

/// Where a panel's latest run stands.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum RunPhase {
    NotRun,
    /// Waiting for the engine; `download` while its files come in.
    Preparing {
        download: Option<Download>,
    },
    Running,
    Ended(RunEnding),
}

impl RunPhase {
    pub fn is_busy(self) -> bool {
        matches!(self, Self::Preparing { .. } | Self::Running)
    }
}

/// What a run printed, as the pieces it arrived in: appending shares the earlier pieces.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct OutputText(Rc<Vec<AttrValue>>);

impl OutputText {
    /// Appends `text`, the characters that would reorder it written out
    /// ([`with_controls_visible`]).
    fn push(&mut self, text: String) {
        let text = match with_controls_visible(&text) {
            std::borrow::Cow::Borrowed(_) => text,
            std::borrow::Cow::Owned(shown) => shown,
        };
        Rc::make_mut(&mut self.0).push(AttrValue::from(text));
    }

    pub fn pieces(&self) -> impl Iterator<Item = &AttrValue> {
        self.0.iter()
    }

    /// This text with `text` appended.
    pub fn with(mut self, text: String) -> Self {
        self.push(text);
        self
    }
}

/// What a run asks of the lab: run the scenario, or search fault plans over it.
#[derive(Clone, Debug, PartialEq)]
pub struct Task {
    /// The code, as it was when the button was pressed.
    pub code: Rc<str>,
    /// The scenario, as the lab had it when the button was pressed.
    pub scenario: Rc<Scenario>,
    /// The search, if this is one.
    pub search: Option<SearchSpec>,
}

#[derive(Clone, Debug, PartialEq)]
pub struct Panel {
    pub code: String,
    /// Counts changes of `code`, so an effect can tell an edit from the first render.
    pub revision: u32,
    pub limit_secs: u32,
    /// The number of the latest run; 0 before the first.
    pub run_id: u32,
    pub phase: RunPhase,
    pub stdout: OutputText,
    pub stderr: OutputText,
    /// What the latest run asked.
    pub task: Option<Task>,
    /// The sandbox's report of the latest run, unread (the lab reads and re-checks it).
    pub report: Option<Rc<str>>,
    /// Plans a search has tried so far, the one running included.
    pub ran: u64,
    /// The search is shrinking the counterexample plan `ran - 1` was.
    pub shrinking: bool,
    /// The handler call a run was last told it is in.
    pub calling: Option<Calling>,
    /// The lines a run's code printed as it printed them, shown if it never ends (a
    /// finished run's report has them).
    pub printing: OutputText,
    /// When (the page's clock, ms) the latest `calling` arrived.
    pub calling_at_ms: f64,
    /// The task was going when its tab closed, and was stopped then.
    pub stopped_on_leaving: bool,
}

/// A whole number the runner sent, if it is one.
fn code(n: f64) -> Option<u64> {
    (n >= 0.0 && n.fract() == 0.0).then_some(n as u64)
}

/// The client a runner's letter names, if the lab can have it.
fn client_named(letter: &str) -> Option<ClientId> {
    let index = u32::from(letter.chars().next()?).checked_sub(u32::from('A'))?;
    let index = u8::try_from(index).ok()?;
    (index < crate::model::scenario::limits::MAX_CLIENTS).then_some(ClientId(index))
}

/// A node's clock reading the runner sent (µs), to the microsecond.
fn clock_reading(mono: f64) -> Option<SimTime> {
    code(mono.round()).map(SimTime)
}

/// Calls told this recently (ms) when the time limit ran out mean the run was still going,
/// not stuck in one call: the sandbox tells the latest call every 250 ms while calls come.
const BUSY_WITHIN_MS: f64 = 1_000.0;

/// A run's handler call: whose, which handler, and the node's monotonic clock when it began.
#[derive(Clone, Debug, PartialEq)]
pub struct Calling {
    pub client: ClientId,
    pub during: During,
    pub mono: SimTime,
}

impl Calling {
    /// The call the runner reported, if its codes mean something.
    fn read(client: &str, call: f64, x: f64, timer: Option<&str>, mono: f64) -> Option<Calling> {
        let during = wire::during(code(call)?, code(x).unwrap_or(u64::MAX), timer)?;
        Some(Calling {
            client: client_named(client)?,
            during,
            mono: clock_reading(mono)?,
        })
    }

    /// What the learner reads when the run ended `ending` during or after this call: the
    /// time limit ran out in it (or, `busy`, just after it, with calls still coming), or the
    /// learner stopped the run.
    fn ended_text(&self, ending: RunEnding, busy: bool) -> Option<String> {
        use sentences::sandbox::own_client::{HungTopLevel, StoppedInTopLevel};
        if self.during == During::TopLevel {
            let client = self.client.letter();
            return match ending {
                RunEnding::TimedOut => Some(HungTopLevel { client }.to_string()),
                RunEnding::Stopped => Some(StoppedInTopLevel { client }.to_string()),
                _ => None,
            };
        }
        let (client, during, at) = (
            self.client.letter(),
            describe::during(&self.during),
            self.mono,
        );
        match ending {
            RunEnding::TimedOut if busy => {
                Some(sentences::sandbox::own_client::HungBusy { client, during, at }.to_string())
            }
            RunEnding::TimedOut => {
                Some(sentences::sandbox::own_client::Hung { client, during, at }.to_string())
            }
            RunEnding::Stopped => {
                Some(sentences::sandbox::own_client::StoppedIn { client, during, at }.to_string())
            }
            _ => None,
        }
    }
}

impl Panel {
    pub fn new(code: String) -> Self {
        Self {
            code,
            revision: 0,
            limit_secs: DEFAULT_LIMIT_SECS,
            run_id: 0,
            phase: RunPhase::NotRun,
            stdout: OutputText::default(),
            stderr: OutputText::default(),
            task: None,
            report: None,
            ran: 0,
            shrinking: false,
            calling: None,
            printing: OutputText::default(),
            calling_at_ms: 0.0,
            stopped_on_leaving: false,
        }
    }
}

impl Panel {
    /// This panel as a later mount takes it up: a task that was going when its tab closed
    /// was stopped then (the sandbox ends a task whose panel goes); the view says so where
    /// that task's result would be.
    pub fn resumed(mut self) -> Self {
        if self.phase.is_busy() {
            self.phase = RunPhase::Ended(RunEnding::Stopped);
            self.stopped_on_leaving = true;
        }
        self
    }
}

pub enum PanelAction {
    Edit(String),
    SetLimit(u32),
    /// Starts a new run of this task, unless one is going.
    Start(Task),
    /// News of run `run_id`.
    Report {
        run_id: u32,
        event: RunEvent,
        /// When it arrived, by the page's clock (ms).
        at_ms: f64,
    },
    /// Run `run_id` could not start at all.
    NotStarted {
        run_id: u32,
        reason: String,
    },
}

impl Reducible for Panel {
    type Action = PanelAction;

    fn reduce(self: Rc<Self>, action: PanelAction) -> Rc<Self> {
        let mut next = (*self).clone();
        match action {
            PanelAction::Edit(code) if code != self.code => {
                next.code = code;
                next.revision += 1;
            }
            PanelAction::SetLimit(secs) if (1..=MAX_LIMIT_SECS).contains(&secs) => {
                next.limit_secs = secs;
            }
            PanelAction::Start(task) if !self.phase.is_busy() => {
                next.run_id += 1;
                next.phase = RunPhase::Preparing { download: None };
                next.stdout = OutputText::default();
                next.stderr = OutputText::default();
                next.task = Some(task);
                next.report = None;
                next.ran = 0;
                next.shrinking = false;
                next.calling = None;
                next.printing = OutputText::default();
                next.stopped_on_leaving = false;
            }
            PanelAction::Report {
                run_id,
                event,
                at_ms,
            } if run_id == self.run_id => {
                if !next.take(event, at_ms) {
                    return self;
                }
            }
            PanelAction::NotStarted { run_id, reason } if run_id == self.run_id => {
                if !self.phase.is_busy() {
                    return self;
                }
                next.stderr.push(
                    sentences::sandbox::snippets::CouldNotStart { reason }.to_string() + "\n",
                );
                next.phase = RunPhase::Ended(RunEnding::Failed { line: None });
            }
            _ => return self,
        }
        Rc::new(next)
    }
}

impl Panel {
    /// Applies one event of the current run; false when it does not fit the run's phase.
    fn take(&mut self, event: RunEvent, at_ms: f64) -> bool {
        match (self.phase, event) {
            (RunPhase::Preparing { .. }, RunEvent::Progress(RunProgress::Starting)) => {
                self.phase = RunPhase::Preparing { download: None };
            }
            (
                RunPhase::Preparing { .. },
                RunEvent::Progress(RunProgress::Downloading {
                    received_bytes,
                    total_bytes,
                }),
            ) => {
                let download = Download {
                    received_bytes,
                    total_bytes,
                };
                self.phase = RunPhase::Preparing {
                    download: Some(download),
                };
            }
            (RunPhase::Preparing { .. }, RunEvent::Progress(RunProgress::Running)) => {
                self.phase = RunPhase::Running;
            }
            // Before the code runs, only the runner's own words can arrive, e.g. why it
            // could not start.
            (phase, RunEvent::Progress(RunProgress::Output { stream, text }))
                if phase.is_busy() =>
            {
                match stream {
                    Stream::Stdout => self.stdout.push(text),
                    Stream::Stderr => self.stderr.push(text),
                }
            }
            (phase, RunEvent::Progress(RunProgress::Problem { problem })) if phase.is_busy() => {
                self.stderr.push(said(&problem) + "\n");
            }
            (RunPhase::Running, RunEvent::Progress(RunProgress::Searched { ran, shrinking })) => {
                self.ran = ran.clamp(0.0, 1e12) as u64;
                self.shrinking = shrinking;
            }
            (RunPhase::Running, RunEvent::Progress(RunProgress::Result { json, ms })) => {
                self.report = Some(Rc::from(json));
                self.phase = RunPhase::Ended(RunEnding::Reported { ms });
            }
            (
                RunPhase::Running,
                RunEvent::Progress(RunProgress::Calling {
                    client,
                    call,
                    x,
                    timer,
                    mono,
                }),
            ) => {
                self.calling = Calling::read(&client, call, x, timer.as_deref(), mono);
                self.calling_at_ms = at_ms;
            }
            (
                RunPhase::Running,
                RunEvent::Progress(RunProgress::Printed { client, mono, line }),
            ) => {
                let (Some(client), Some(at)) = (client_named(&client), clock_reading(mono)) else {
                    return false;
                };
                let text = sentences::sandbox::own_client::PrintedLine {
                    at,
                    client: client.letter(),
                    text: &line,
                };
                self.printing.push(text.to_string() + "\n");
            }
            (phase, RunEvent::Ended(ending)) if phase.is_busy() => {
                let searching = self.task.as_ref().is_some_and(|t| t.search.is_some());
                // A run cut short keeps what it printed and says where it was.
                let cut_short = matches!(ending, RunEnding::TimedOut | RunEnding::Stopped);
                if cut_short && !searching {
                    for piece in self.printing.pieces() {
                        self.stdout.push(piece.to_string());
                    }
                    // Calls still arriving as the time ran out: the run was busy, not stuck.
                    let busy = at_ms - self.calling_at_ms < BUSY_WITHIN_MS;
                    let text = self
                        .calling
                        .as_ref()
                        .and_then(|c| c.ended_text(ending, busy));
                    if let Some(text) = text {
                        self.stderr.push(text + "\n");
                    }
                }
                self.phase = RunPhase::Ended(ending);
            }
            _ => return false,
        }
        true
    }
}

/// What the learner reads under Errors for a runner's or a worker's `problem`.
fn said(problem: &RunnerProblem) -> String {
    use sentences::sandbox::snippets as words;
    let plain = &SANDBOX.snippets;
    match problem {
        RunnerProblem::SandboxDidNotStart => plain.sandbox_did_not_start.to_owned(),
        RunnerProblem::SandboxCouldNotStart { detail } => {
            words::CouldNotStart { reason: detail }.to_string()
        }
        RunnerProblem::EngineTooSlow => plain.engine_too_slow.to_owned(),
        RunnerProblem::EngineDidNotLoad { detail } => {
            words::EngineDidNotLoad { detail }.to_string()
        }
        RunnerProblem::LabFailed { detail } => words::LabFailed { detail }.to_string(),
        RunnerProblem::ReportTooLarge { limit_chars } => words::ReportTooLarge {
            size: words::Megabytes {
                size: format!("{:.0}", limit_chars / 1e6),
            },
        }
        .to_string(),
    }
}
