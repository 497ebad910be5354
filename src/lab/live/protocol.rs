//! The typed messages between the page and its live workers, and between the two workers
//! (over a `MessagePort` the page hands both, so that contender B reaches the service while
//! the page is frozen), and their one byte format: bincode, the format of a recorded run's
//! link too, so the page carries one codec for everything live. Reading never panics: bytes
//! that are not a well-formed message, or that would decode to more than a cap, give `None`.

use bincode::Options;
use serde::de::DeserializeOwned;
use serde::Serialize;

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

/// The most bytes one message or recording decodes from.
pub const MAX_MESSAGE_BYTES: u64 = 1 << 20;

fn codec() -> impl Options {
    bincode::DefaultOptions::new().with_limit(MAX_MESSAGE_BYTES)
}

/// `value` as bytes (`None` only if it is larger than [`MAX_MESSAGE_BYTES`]).
pub fn to_bytes(value: &impl Serialize) -> Option<Vec<u8>> {
    codec().serialize(value).ok()
}

/// A `T` read from `bytes`, if they are one.
pub fn from_bytes<T: DeserializeOwned>(bytes: &[u8]) -> Option<T> {
    codec().deserialize(bytes).ok()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{EventKind, Lifecycle, NodeId};

    #[test]
    fn a_report_survives_its_bytes_and_garbage_reads_as_nothing() {
        let report = FromWorker::Report {
            events: vec![Stamped {
                at: Stamp(1_764_590_000_123_456),
                node: NodeId::Service,
                kind: EventKind::Lifecycle {
                    to: Lifecycle::Acquiring,
                    token: None,
                },
            }],
            up_to: Stamp(1_764_590_000_200_000),
        };
        let bytes = to_bytes(&report).unwrap();
        assert_eq!(from_bytes::<FromWorker>(&bytes), Some(report));
        assert_eq!(from_bytes::<FromWorker>(&bytes[..bytes.len() - 1]), None);
        assert_eq!(from_bytes::<FromWorker>(&[0xff; 16]), None);
        // A length prefix claiming a huge vector is refused, not allocated.
        assert_eq!(
            from_bytes::<FromWorker>(&[2, 0xfc, 0xff, 0xff, 0xff, 0x7f]),
            None
        );
    }
}
