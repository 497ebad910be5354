//! Faults as data: a plan of (time, fault) that the world applies. This is the one home of
//! what the model knows about faults: their kinds ([`FaultKind`]), the node each one hits
//! ([`Fault::target`]), whether the nodes it names exist ([`Fault::names_known_nodes`]), its
//! limit ([`Fault::amount_over_limit`]) and its textual form ([`text`]), which share links and
//! the sandbox's fault form both use. How a fault reads to people is `src/lab/describe.rs`'s,
//! in the words of `content/sandbox.toml`. A seeded generator of random plans for property
//! tests lives in [`random`]. Nothing here acts.

pub mod random;
pub mod text;

use super::ids::{ClientId, NodeId};
use super::scenario::limits::MAX_INTERVAL;
use super::time::{SimDuration, SimTime, MAX_DRIFT_PPM};

pub use random::RandomFaults;

/// One thing that goes wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub enum Fault {
    /// A stop-the-world pause (GC, swap, VM migration): the client is frozen for `duration`;
    /// its clocks keep running and its timers fire late when it wakes. With
    /// `in_write_path`, the pause waits for the client's next write and hits after the
    /// pre-write check passed but before the write leaves.
    Pause {
        /// The paused client.
        client: ClientId,
        /// How long it is frozen.
        duration: SimDuration,
        /// Pause between the pre-write check and the write.
        in_write_path: bool,
    },
    /// The link between `a` and `b` is down both ways for `duration` (a blip if short, a
    /// partition if long). Packets on it are dropped.
    Partition {
        /// One end.
        a: NodeId,
        /// The other end.
        b: NodeId,
        /// How long the link stays down.
        duration: SimDuration,
    },
    /// The next packet from `from` to `to` is delayed by `extra` on top of its latency.
    DelayNextPacket {
        /// Sender.
        from: NodeId,
        /// Receiver.
        to: NodeId,
        /// The added delay.
        extra: SimDuration,
    },
    /// An NTP step: the node's wall clock jumps by `by_micros` (negative = back). Its
    /// monotonic clock does not move. A step at t = 0 models a constant skew.
    ClockStep {
        /// The node whose clock steps.
        node: NodeId,
        /// The step in microseconds.
        by_micros: i64,
    },
    /// From now on the node's clocks run `ppm` parts per million fast (or slow if negative).
    ClockDrift {
        /// The node whose oscillator drifts.
        node: NodeId,
        /// The new rate error.
        ppm: i32,
    },
    /// The client process dies for good. Packets it already sent still arrive.
    Crash {
        /// The crashed client.
        client: ClientId,
    },
    /// An administrator deletes the lease at the service; the holder's next renew gets
    /// NOT_OWNER.
    RevokeLease,
}

impl Fault {
    /// Whether the fault changes nothing at all: a pause, partition or delay of no length,
    /// or a clock step of zero. A drift of 0 ppm does change something: it ends a drift.
    pub fn changes_nothing(&self) -> bool {
        match *self {
            Fault::Pause { duration, .. }
            | Fault::Partition { duration, .. }
            | Fault::DelayNextPacket {
                extra: duration, ..
            } => duration == SimDuration::ZERO,
            Fault::ClockStep { by_micros, .. } => by_micros == 0,
            Fault::ClockDrift { .. } | Fault::Crash { .. } | Fault::RevokeLease => false,
        }
    }
}

/// The kinds of fault, each with its keyword in the textual form (`pause`, `step`, …).
#[derive(
    Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize, serde::Deserialize,
)]
pub enum FaultKind {
    /// [`Fault::Pause`] outside the write path.
    Pause,
    /// [`Fault::Pause`] between the pre-write check and the write.
    PauseInWritePath,
    /// [`Fault::Partition`].
    Partition,
    /// [`Fault::DelayNextPacket`].
    DelayNextPacket,
    /// [`Fault::ClockStep`].
    ClockStep,
    /// [`Fault::ClockDrift`].
    ClockDrift,
    /// [`Fault::Crash`].
    Crash,
    /// [`Fault::RevokeLease`].
    RevokeLease,
}

/// What a kind of fault names before its `@time`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Targets {
    /// Nothing (`revoke@3s`).
    Nothing,
    /// One client (`pause:A@…`).
    Client,
    /// One node: a client, the service or storage (`step:service@…`).
    Node,
    /// The two ends of a link (`partition:A-service@…`).
    Link,
}

/// What a kind of fault takes after its time.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Amount {
    /// Nothing.
    Nothing,
    /// A length of time, zero or more (`+15s`).
    Length,
    /// A signed length of time (`-8s`).
    Step,
    /// A signed rate in parts per million (`+250ppm`).
    Rate,
}

impl FaultKind {
    /// Every kind, in the order the sandbox offers them.
    pub const ALL: [FaultKind; 8] = [
        FaultKind::Pause,
        FaultKind::PauseInWritePath,
        FaultKind::Partition,
        FaultKind::DelayNextPacket,
        FaultKind::ClockStep,
        FaultKind::ClockDrift,
        FaultKind::Crash,
        FaultKind::RevokeLease,
    ];

    /// The keyword of the textual form, which is also the kind's stable id.
    pub const fn keyword(self) -> &'static str {
        match self {
            FaultKind::Pause => "pause",
            FaultKind::PauseInWritePath => "pause-write",
            FaultKind::Partition => "partition",
            FaultKind::DelayNextPacket => "delay",
            FaultKind::ClockStep => "step",
            FaultKind::ClockDrift => "drift",
            FaultKind::Crash => "crash",
            FaultKind::RevokeLease => "revoke",
        }
    }

    /// The kind with this keyword.
    pub fn from_keyword(keyword: &str) -> Option<FaultKind> {
        FaultKind::ALL.into_iter().find(|k| k.keyword() == keyword)
    }

    /// What a fault of this kind names.
    pub const fn targets(self) -> Targets {
        match self {
            FaultKind::Pause | FaultKind::PauseInWritePath | FaultKind::Crash => Targets::Client,
            FaultKind::Partition | FaultKind::DelayNextPacket => Targets::Link,
            FaultKind::ClockStep | FaultKind::ClockDrift => Targets::Node,
            FaultKind::RevokeLease => Targets::Nothing,
        }
    }

    /// What a fault of this kind takes as its amount.
    pub const fn amount(self) -> Amount {
        match self {
            FaultKind::Pause
            | FaultKind::PauseInWritePath
            | FaultKind::Partition
            | FaultKind::DelayNextPacket => Amount::Length,
            FaultKind::ClockStep => Amount::Step,
            FaultKind::ClockDrift => Amount::Rate,
            FaultKind::Crash | FaultKind::RevokeLease => Amount::Nothing,
        }
    }
}

impl Fault {
    /// Its kind.
    pub const fn kind(&self) -> FaultKind {
        match self {
            Fault::Pause {
                in_write_path: true,
                ..
            } => FaultKind::PauseInWritePath,
            Fault::Pause { .. } => FaultKind::Pause,
            Fault::Partition { .. } => FaultKind::Partition,
            Fault::DelayNextPacket { .. } => FaultKind::DelayNextPacket,
            Fault::ClockStep { .. } => FaultKind::ClockStep,
            Fault::ClockDrift { .. } => FaultKind::ClockDrift,
            Fault::Crash { .. } => FaultKind::Crash,
            Fault::RevokeLease => FaultKind::RevokeLease,
        }
    }

    /// The node the fault happens to: the paused, crashed or stepped node, the first end of
    /// a link or the sender of a delayed packet, and the service for a revoked lease.
    pub const fn target(&self) -> NodeId {
        match *self {
            Fault::Pause { client, .. } | Fault::Crash { client } => NodeId::Client(client),
            Fault::Partition { a, .. } => a,
            Fault::DelayNextPacket { from, .. } => from,
            Fault::ClockStep { node, .. } | Fault::ClockDrift { node, .. } => node,
            Fault::RevokeLease => NodeId::Service,
        }
    }

    /// The other end, for a fault on a link.
    pub const fn peer(&self) -> Option<NodeId> {
        match *self {
            Fault::Partition { b, .. } => Some(b),
            Fault::DelayNextPacket { to, .. } => Some(to),
            _ => None,
        }
    }

    /// True if every node the fault names exists among `clients` clients (and a link joins
    /// two different nodes).
    pub fn names_known_nodes(&self, clients: u8) -> bool {
        let peer_ok = self
            .peer()
            .is_none_or(|peer| peer.is_known(clients) && peer != self.target());
        self.target().is_known(clients) && peer_ok
    }

    /// The limit the fault's amount goes over, if it does: what a scenario accepts.
    pub fn amount_over_limit(&self) -> Option<FaultLimit> {
        let over = match *self {
            Fault::Pause { duration, .. } | Fault::Partition { duration, .. } => {
                duration > MAX_INTERVAL
            }
            Fault::DelayNextPacket { extra, .. } => extra > MAX_INTERVAL,
            Fault::ClockStep { by_micros, .. } => by_micros.unsigned_abs() > MAX_INTERVAL.0,
            Fault::ClockDrift { ppm, .. } => {
                return (ppm.abs() > MAX_DRIFT_PPM).then_some(FaultLimit::DriftPpm(MAX_DRIFT_PPM));
            }
            Fault::Crash { .. } | Fault::RevokeLease => false,
        };
        over.then_some(FaultLimit::Interval(MAX_INTERVAL))
    }
}

/// The most a fault's amount may be: a length of time (a pause, a partition, a delay, a
/// clock step either way), or a drift rate either way.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FaultLimit {
    /// The longest interval.
    Interval(SimDuration),
    /// The fastest drift, in parts per million.
    DriftPpm(i32),
}

/// A fault that happens at a given simulation time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct TimedFault {
    /// When it happens.
    pub at: SimTime,
    /// What happens.
    pub fault: Fault,
}

/// A fault plan: the faults of one scenario. The world applies them in time order (ties in
/// plan order).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, serde::Serialize, serde::Deserialize)]
pub struct FaultPlan(pub Vec<TimedFault>);

impl FaultPlan {
    /// An empty plan.
    pub const fn none() -> Self {
        FaultPlan(Vec::new())
    }

    /// Adds `fault` at `at` (builder style).
    pub fn with(mut self, at: SimTime, fault: Fault) -> Self {
        self.0.push(TimedFault { at, fault });
        self
    }
}
