//! The typed messages between the page and its live workers, and between the two workers
//! (over a `MessagePort` the page hands both, so that contender B reaches the service while
//! the page is frozen). Plain data, serialized with serde-wasm-bindgen by the shells.

use super::recorder::Source;
use super::{LivePacket, Stamp, Stamped};
use crate::model::{ClientId, Scenario};

/// Which live node a worker runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
pub enum Role {
    /// The lock service and the fenced storage.
    Service,
    /// Contender B.
    Contender,
}

impl Role {
    /// The recorder's name for what this worker reports.
    pub fn source(self) -> Source {
        match self {
            Role::Service => Source::Service,
            Role::Contender => Source::Contender,
        }
    }
}

/// From the page to a worker.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum ToWorker {
    /// Become this node of `scenario`, whose run started at `origin`. The worker's monotonic
    /// clock reads zero at `origin` (its own `timeOrigin + now()` minus the origin).
    Start {
        /// The node to run.
        role: Role,
        /// The parameters and policy.
        scenario: Box<Scenario>,
        /// The run's start on the shared timeline.
        origin: Stamp,
    },
    /// A packet for this worker's node, from client A.
    Packet(LivePacket),
    /// An administrator revokes the lease (service only).
    Revoke,
    /// The link to `client` is down until `until` (service only).
    LinkDown {
        /// The client whose link drops.
        client: ClientId,
        /// Until when, on the shared timeline.
        until: Stamp,
    },
}

/// From a worker to the page.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
pub enum FromWorker {
    /// The worker's wasm is loaded: it can take `Start`.
    Ready,
    /// A packet for client A.
    Packet(LivePacket),
    /// What the node did, and that it has reported everything up to `up_to`.
    Report {
        /// The events since the last report.
        events: Vec<Stamped>,
        /// Everything before this moment has been reported.
        up_to: Stamp,
    },
}
