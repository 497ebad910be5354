//! Faults as data: a plan of (time, fault) that the world applies, plus a seeded generator
//! of random plans for property tests. Nothing here acts on its own.

use super::ids::{ClientId, NodeId};
use super::rng::{stream, SimRng};
use super::time::{SimDuration, SimTime};
use serde::{Deserialize, Serialize};

/// One thing that goes wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
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
    /// A short name for views and the trace.
    pub fn label(&self) -> &'static str {
        match self {
            Fault::Pause {
                in_write_path: true,
                ..
            } => "pause in the write path",
            Fault::Pause { .. } => "stop-the-world pause",
            Fault::Partition { .. } => "partition",
            Fault::DelayNextPacket { .. } => "delayed packet",
            Fault::ClockStep { .. } => "NTP step",
            Fault::ClockDrift { .. } => "clock drift",
            Fault::Crash { .. } => "crash",
            Fault::RevokeLease => "lease revoked",
        }
    }
}

/// A fault that happens at a given simulation time.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
pub struct TimedFault {
    /// When it happens.
    pub at: SimTime,
    /// What happens.
    pub fault: Fault,
}

/// A fault plan: the faults of one scenario. The world applies them in time order (ties in
/// plan order).
#[derive(Clone, Debug, Default, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(transparent)]
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

    /// A random plan for property tests and benchmarks, drawn from `seed` alone.
    pub fn random(seed: u64, shape: &RandomFaults) -> Self {
        let mut plan = Vec::new();
        Self::random_into(seed, shape, &mut plan);
        FaultPlan(plan)
    }

    /// Like [`FaultPlan::random`], but fills `out` (cleared first) to reuse its allocation.
    pub fn random_into(seed: u64, shape: &RandomFaults, out: &mut Vec<TimedFault>) {
        out.clear();
        let mut rng = SimRng::child(seed, stream::FAULTS);
        let n = rng.up_to(shape.max_faults as u64) as usize;
        let clients = shape.clients.max(1) as u64;
        let end = shape.duration.as_micros().max(1);
        let max_pause = shape.max_pause.as_micros().max(1);
        for _ in 0..n {
            let at = SimTime(rng.up_to(end - 1));
            let client = ClientId(rng.up_to(clients - 1) as u8);
            let kinds = if shape.allow_crash { 8 } else { 7 };
            let fault = match rng.up_to(kinds - 1) {
                0 | 1 => Fault::Pause {
                    client,
                    duration: SimDuration(rng.between(1_000, max_pause)),
                    in_write_path: rng.up_to(1) == 0,
                },
                2 => Fault::Partition {
                    a: NodeId::Client(client),
                    b: if rng.up_to(3) == 0 {
                        NodeId::Storage
                    } else {
                        NodeId::Service
                    },
                    duration: SimDuration(rng.between(1_000, max_pause)),
                },
                3 => Fault::DelayNextPacket {
                    from: NodeId::Client(client),
                    to: if rng.up_to(1) == 0 {
                        NodeId::Storage
                    } else {
                        NodeId::Service
                    },
                    extra: SimDuration(rng.between(1_000, max_pause)),
                },
                4 => Fault::ClockStep {
                    node: if rng.up_to(3) == 0 {
                        NodeId::Service
                    } else {
                        NodeId::Client(client)
                    },
                    by_micros: rng.between(0, 2 * max_pause) as i64 - max_pause as i64,
                },
                5 => Fault::ClockDrift {
                    node: if rng.up_to(3) == 0 {
                        NodeId::Service
                    } else {
                        NodeId::Client(client)
                    },
                    ppm: rng.between(0, 2_000) as i32 - 1_000,
                },
                6 => Fault::RevokeLease,
                _ => Fault::Crash { client },
            };
            out.push(TimedFault { at, fault });
        }
        out.sort_by_key(|f| f.at);
    }
}

/// The shape of random fault plans: how many faults, how long, which clients.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RandomFaults {
    /// The scenario length faults are spread over.
    pub duration: SimDuration,
    /// The number of clients faults may hit.
    pub clients: u8,
    /// At most this many faults (uniform 0..=max).
    pub max_faults: u32,
    /// The longest pause, partition, delay, and clock step.
    pub max_pause: SimDuration,
    /// Whether clients may crash.
    pub allow_crash: bool,
}

impl Default for RandomFaults {
    fn default() -> Self {
        RandomFaults {
            duration: SimDuration::from_secs(60),
            clients: 2,
            max_faults: 6,
            max_pause: SimDuration::from_secs(20),
            allow_crash: true,
        }
    }
}
