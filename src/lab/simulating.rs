//! Runs still being simulated: the main run and the comparison, each a [`Recorder`] that
//! advances a slice at a time so the page can answer between slices.

use std::cell::RefCell;
use std::rc::Rc;

use super::PolicySwitch;
use crate::model::{Recorder, Recording, Scenario, SimTime};

/// Events simulated at once when a scenario changes: a preset finishes within this, a long
/// run continues in slices the driver asks for.
pub const FIRST_SLICE_EVENTS: usize = 10_000;

/// Which run a recorder is making.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// The main run.
    Main,
    /// The comparison run, with this switch flipped.
    Compare(PolicySwitch),
}

/// How far a simulation still running has got.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Progress {
    /// Simulated time reached by the run furthest behind.
    pub simulated: SimTime,
    /// Where the runs end.
    pub end: SimTime,
    /// Events simulated so far, over every run.
    pub events: usize,
    /// How many runs are being simulated (two while comparing).
    pub runs: usize,
}

impl Progress {
    /// How much is done, in percent (0 to 100).
    pub fn percent(&self) -> u32 {
        (self.simulated.0.saturating_mul(100) / self.end.0.max(1)).min(100) as u32
    }
}

/// The recorders still running. A lab's clones share them: the reducer keeps only the
/// newest lab, and a slice simulated for it need not be simulated again.
#[derive(Clone, Debug, Default)]
pub struct Jobs(Rc<RefCell<Vec<(Role, Recorder)>>>);

impl Jobs {
    /// Starts recording `scenario` in each role.
    pub fn start(scenario: &Scenario, roles: impl IntoIterator<Item = Role>) -> Jobs {
        let jobs = roles
            .into_iter()
            .map(|role| {
                let s = match role {
                    Role::Main => scenario.clone(),
                    Role::Compare(switch) => switch.flipped(scenario),
                };
                (role, Recorder::new(&s))
            })
            .collect();
        Jobs(Rc::new(RefCell::new(jobs)))
    }

    /// True when nothing is left to simulate.
    pub fn is_empty(&self) -> bool {
        self.0.borrow().is_empty()
    }

    /// Whether a run in `role` is being simulated.
    pub fn has(&self, role: Role) -> bool {
        self.0.borrow().iter().any(|(r, _)| *r == role)
    }

    /// Stops simulating every comparison run.
    pub fn drop_comparisons(&self) {
        self.0.borrow_mut().retain(|(r, _)| *r == Role::Main);
    }

    /// Takes over the runs of `other`.
    pub fn merge(&self, other: Jobs) {
        let more = std::mem::take(&mut *other.0.borrow_mut());
        self.0.borrow_mut().extend(more);
    }

    /// The progress, or `None` when nothing runs.
    pub fn progress(&self) -> Option<Progress> {
        let jobs = self.0.borrow();
        let simulated = jobs.iter().map(|(_, r)| r.simulated()).min()?;
        Some(Progress {
            simulated,
            end: SimTime(jobs[0].1.scenario().duration.0),
            events: jobs.iter().map(|(_, r)| r.events()).sum(),
            runs: jobs.len(),
        })
    }

    /// Simulates about `max_events` more, on the run furthest behind; returns the runs that
    /// finished.
    pub fn advance(&self, max_events: usize) -> Vec<(Role, Recording)> {
        let mut jobs = self.0.borrow_mut();
        let mut budget = max_events;
        let mut finished = Vec::new();
        while budget > 0 && !jobs.is_empty() {
            let behind = (0..jobs.len())
                .min_by_key(|&i| jobs[i].1.simulated())
                .unwrap_or(0);
            let before = jobs[behind].1.events();
            let slice = budget.min(FIRST_SLICE_EVENTS / 4);
            let done = jobs[behind].1.advance(slice);
            budget = budget.saturating_sub((jobs[behind].1.events() - before).max(1));
            if done {
                let (role, recorder) = jobs.remove(behind);
                finished.push((role, recorder.finish()));
            }
        }
        finished
    }

    /// Ends every run where the simulation has got (see [`Recorder::cut`]).
    pub fn cut(&self) -> Vec<(Role, Recording)> {
        let jobs = std::mem::take(&mut *self.0.borrow_mut());
        let at = jobs
            .iter()
            .map(|(_, r)| r.simulated())
            .max()
            .unwrap_or_default();
        jobs.into_iter()
            .map(|(role, recorder)| (role, recorder.cut(at)))
            .collect()
    }
}
