//! Live mode's state as the page keeps it, pure and tested natively: the phase of the run
//! (idle, starting, running, stopped with its recording, failed), the freezes measured so
//! far, the latest notice, and the scrub cursor. The Yew view only renders it and feeds it
//! [`LiveAction`]s; the driver's [`LiveUpdate`]s arrive as one of them.

use crate::lesson::sentences;
use std::rc::Rc;

use super::trace::{Freeze, LiveTrace, TraceRefusal};
use super::{shown_length, shown_time};
use crate::lab::reading::TracedRun;
use crate::model::{Run, SimTime};

/// What the live driver tells the views.
#[derive(Clone)]
pub enum LiveUpdate {
    /// The run so far, at `now` since its start.
    Running {
        /// The run so far.
        run: Rc<Run>,
        /// How long it has run.
        now: SimTime,
    },
    /// The run stopped; this is its recording (`why` says so when it stopped by itself).
    Stopped {
        /// The recording.
        trace: Rc<LiveTrace>,
        /// Why it stopped, when it stopped by itself.
        why: Option<String>,
    },
    /// It could not start or keep going.
    Failed(String),
    /// A freeze finished.
    Froze(Freeze),
}

/// Where the live run is.
#[derive(Clone)]
pub enum Phase {
    /// Nothing has run.
    Idle,
    /// The workers are starting.
    Starting,
    /// Running: the run so far, as the views read it, at `now`.
    Running {
        /// The run so far.
        run: Rc<TracedRun>,
        /// How long it has run.
        now: SimTime,
    },
    /// Stopped, with its recording.
    Stopped {
        /// The recording.
        trace: Rc<LiveTrace>,
        /// The recording replayed.
        run: Rc<Run>,
        /// The same run, as the views read it.
        shown: Rc<TracedRun>,
        /// Whether the recording fits in a link (compressing it once, not at every render).
        fits_link: Result<(), TraceRefusal>,
        /// Why it stopped, when it did by itself or the tab was hidden.
        why: Option<String>,
    },
    /// It failed, and why.
    Failed(String),
}

/// Live mode's state.
#[derive(Clone)]
pub struct LiveState {
    /// Where the run is.
    pub phase: Phase,
    /// The page's freezes so far, measured.
    pub freezes: Vec<Freeze>,
    /// The latest notice (a freeze's measure, a fault refused).
    pub notice: Option<String>,
    /// Where the recorded run is scrubbed to (its end when `None`).
    pub cursor: Option<SimTime>,
}

/// What changes live mode's state.
pub enum LiveAction {
    /// A run is starting: everything before it is forgotten.
    Starting,
    /// The driver's news.
    Update(LiveUpdate),
    /// A notice to show.
    Notice(String),
    /// Move the recorded run's cursor.
    Seek(SimTime),
}

impl LiveState {
    /// Nothing has run yet.
    pub fn idle() -> LiveState {
        LiveState {
            phase: Phase::Idle,
            freezes: Vec::new(),
            notice: None,
            cursor: None,
        }
    }

    /// A stopped run's recording, replayed for the views.
    pub fn recorded(trace: Rc<LiveTrace>, why: Option<String>) -> LiveState {
        let run = Rc::new(trace.replay());
        let shown = Rc::new(TracedRun::new(run.clone()));
        let why = why.or_else(|| {
            let at = shown_time(trace.hidden_at?).to_string();
            Some(sentences::live::live::Hidden { at }.to_string())
        });
        let fits_link = trace.to_link().map(drop);
        LiveState {
            freezes: trace.freezes.clone(),
            phase: Phase::Stopped {
                trace,
                run,
                shown,
                fits_link,
                why,
            },
            notice: None,
            cursor: None,
        }
    }

    /// The state after `action`.
    pub fn after(&self, action: LiveAction) -> LiveState {
        let mut next = self.clone();
        match action {
            LiveAction::Starting => {
                next = LiveState {
                    phase: Phase::Starting,
                    ..LiveState::idle()
                }
            }
            LiveAction::Update(LiveUpdate::Running { run, now }) => {
                next.phase = Phase::Running {
                    run: Rc::new(TracedRun::new(run)),
                    now,
                }
            }
            LiveAction::Update(LiveUpdate::Stopped { trace, why }) => {
                let notice = next.notice.take();
                next = LiveState::recorded(trace, why);
                next.notice = notice;
            }
            LiveAction::Update(LiveUpdate::Failed(why)) => {
                next.phase = Phase::Failed(sentences::live::live::Failed { why }.to_string())
            }
            LiveAction::Update(LiveUpdate::Froze(freeze)) => {
                next.notice = Some(
                    sentences::live::faults::FreezeDone {
                        measured: shown_length(freeze.measured),
                        asked: shown_length(freeze.asked),
                    }
                    .to_string(),
                );
                next.freezes.push(freeze);
            }
            LiveAction::Notice(text) => next.notice = Some(text),
            LiveAction::Seek(t) => next.cursor = Some(t),
        }
        next
    }

    /// True while a run is starting or running.
    pub fn running(&self) -> bool {
        matches!(self.phase, Phase::Running { .. } | Phase::Starting)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Scenario, SimDuration};

    fn trace(hidden_at: Option<SimTime>) -> Rc<LiveTrace> {
        Rc::new(LiveTrace {
            scenario: Scenario {
                duration: SimDuration::from_secs(2),
                ..Scenario::default()
            },
            end: SimTime::from_secs(2),
            events: Vec::new(),
            freezes: vec![Freeze {
                at: SimTime::from_secs(1),
                asked: SimDuration::from_millis(300),
                measured: SimDuration::from_millis(304),
            }],
            hidden_at,
        })
    }

    #[test]
    fn a_run_goes_from_starting_to_running_to_its_recording_keeping_the_latest_notice() {
        let state = LiveState::idle()
            .after(LiveAction::Seek(SimTime::from_secs(1)))
            .after(LiveAction::Starting);
        assert!(state.running() && state.cursor.is_none());
        let run = Rc::new(Run::from_trace(
            Scenario::default(),
            SimTime::from_secs(1),
            Vec::new(),
        ));
        let now = SimTime::from_millis(700);
        let state = state.after(LiveAction::Update(LiveUpdate::Running { run, now }));
        assert!(matches!(state.phase, Phase::Running { now: n, .. } if n == now));
        let freeze = trace(None).freezes[0];
        let state = state.after(LiveAction::Update(LiveUpdate::Froze(freeze)));
        assert_eq!(state.freezes, [freeze]);
        let notice = state.notice.clone().expect("the freeze is reported");
        assert!(notice.contains("304") && notice.contains("300"), "{notice}");
        let state = state.after(LiveAction::Update(LiveUpdate::Stopped {
            trace: trace(None),
            why: None,
        }));
        assert!(!state.running());
        assert_eq!(state.notice, Some(notice));
        assert!(matches!(state.phase, Phase::Stopped { why: None, .. }));
        let state = state.after(LiveAction::Seek(SimTime::from_millis(500)));
        assert_eq!(state.cursor, Some(SimTime::from_millis(500)));
    }

    #[test]
    fn a_recording_stopped_by_a_hidden_tab_says_when_and_a_failure_says_why() {
        let hidden = LiveState::recorded(trace(Some(SimTime::from_millis(1_500))), None);
        let Phase::Stopped { why: Some(why), .. } = &hidden.phase else {
            panic!("stopped with a reason");
        };
        assert!(why.contains("1.5"), "{why}");
        let failed = LiveState::idle().after(LiveAction::Update(LiveUpdate::Failed("no".into())));
        assert!(matches!(&failed.phase, Phase::Failed(w) if w.contains("no")));
    }
}
