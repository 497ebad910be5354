//! Live mode's pure core: the same model components as the simulation, driven by real
//! timers instead of the [`crate::model::World`]. Nothing here reads a clock or touches the
//! DOM: every reading is handed in, so the pieces are tested natively with hand-fed times.
//!
//! * [`delay`]: the sans-IO delay queue each node sends through (latency, jitter, loss).
//! * [`node`]: the nodes as thin state machines around the model's own [`LeaseClient`],
//!   [`LockService`] and [`Storage`]: client A on the page, the service and storage in one
//!   worker, contender B in another.
//! * [`recorder`]: merges what the nodes report into one timeline, a trace the model's
//!   checkers read as they read a simulated run's, and gives a [`Run`] the views read alike.
//! * [`trace`]: the recorded run as data, its share-link form, and the plan it implies.
//! * [`protocol`]: the typed messages between the page and its workers.
//! * [`compare`]: the simulation of a live run's plan, and what differs between them.
//!
//! [`LeaseClient`]: crate::model::LeaseClient
//! [`LockService`]: crate::model::LockService
//! [`Storage`]: crate::model::Storage
//! [`Run`]: crate::model::Run

pub mod compare;
pub mod delay;
pub mod node;
pub mod protocol;
pub mod recorder;
pub mod session;
pub mod trace;

use crate::model::{EventKind, MsgId, NodeId, SimDuration};

/// A moment on the shared timeline, in microseconds since the Unix epoch. A node makes one
/// from its own clocks only, as `performance.timeOrigin + performance.now()`: each worker's
/// `performance.now()` counts from its own time origin, and adding that origin is what puts
/// the readings of different nodes on one timeline for the recorder.
#[derive(
    Clone,
    Copy,
    Debug,
    Default,
    PartialEq,
    Eq,
    PartialOrd,
    Ord,
    Hash,
    serde::Serialize,
    serde::Deserialize,
)]
pub struct Stamp(pub u64);

impl Stamp {
    /// A stamp from milliseconds since the epoch (what `timeOrigin + now()` gives).
    pub fn from_epoch_ms(ms: f64) -> Stamp {
        Stamp((ms.max(0.0) * 1_000.0).round() as u64)
    }
    /// This stamp `d` later.
    pub fn plus(self, d: SimDuration) -> Stamp {
        Stamp(self.0.saturating_add(d.0))
    }
    /// The time from `earlier` to this stamp (zero if `earlier` is later).
    pub fn since(self, earlier: Stamp) -> SimDuration {
        SimDuration(self.0.saturating_sub(earlier.0))
    }
}

/// What one node knows about "now": the stamp for the shared timeline and its own clock
/// readings for the model (monotonic from `performance.now()`, wall from `Date.now()` plus
/// any step the learner applied).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct NodeNow {
    /// The moment on the shared timeline.
    pub stamp: Stamp,
    /// The node's own clock readings.
    pub local: crate::model::LocalNow,
}

/// One packet between live nodes, as posted between the page and the workers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct LivePacket {
    /// The sender's own packet number (the recorder renumbers packets on one timeline).
    pub id: MsgId,
    /// Sender.
    pub from: NodeId,
    /// Receiver.
    pub to: NodeId,
    /// When it left the sender.
    pub sent: Stamp,
    /// Content.
    pub msg: crate::model::Message,
}

/// One event as a node reports it, stamped on the shared timeline. A live node's monotonic
/// clock reads zero at the run's origin, so its reading at the event is the event's time
/// since the origin (the reading the service's promise events carry).
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub struct Stamped {
    /// When, on the shared timeline.
    pub at: Stamp,
    /// Where.
    pub node: NodeId,
    /// What. Times inside it (a packet's send and due times, a write's time) are stamps too,
    /// in microseconds since the epoch; the recorder converts them.
    pub kind: EventKind,
}

#[cfg(test)]
mod tests;

/// A live time as the views print it: to the nearest millisecond (the trace keeps µs).
pub fn shown_time(t: crate::model::SimTime) -> crate::model::SimTime {
    crate::model::SimTime::from_millis((t.as_micros() + 500) / 1_000)
}

/// A live duration as the views print it: to the nearest millisecond.
pub fn shown_length(d: SimDuration) -> SimDuration {
    SimDuration::from_millis((d.as_micros() + 500) / 1_000)
}
