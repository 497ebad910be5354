//! The run a view shows, read through [`RunReading`] (`crate::lab::reading`) and its
//! questions (`crate::model::RunQuestions`), whichever kind of run it is.

use std::ops::Deref;
use std::rc::Rc;

pub use crate::lab::reading::{RunReading, TracedRun};
use crate::model::{Recording, Run};

/// The run a view shows. Props compare it by identity: a run is never changed in place, so a
/// new one always comes in a new `Rc`.
#[derive(Clone)]
pub struct ShownRun(Rc<dyn RunReading>);

impl ShownRun {
    /// Shows `run`.
    pub fn new(run: Rc<dyn RunReading>) -> ShownRun {
        ShownRun(run)
    }
}

impl PartialEq for ShownRun {
    fn eq(&self, other: &Self) -> bool {
        Rc::ptr_eq(&self.0, &other.0)
    }
}

impl Deref for ShownRun {
    type Target = dyn RunReading;
    fn deref(&self) -> &Self::Target {
        &*self.0
    }
}

impl From<Rc<Recording>> for ShownRun {
    fn from(run: Rc<Recording>) -> ShownRun {
        ShownRun(run)
    }
}

impl From<Rc<Run>> for ShownRun {
    fn from(run: Rc<Run>) -> ShownRun {
        ShownRun(Rc::new(TracedRun::new(run)))
    }
}
