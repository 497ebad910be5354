//! A seeded generator of random fault plans, for property tests and benchmarks.

use super::{Fault, FaultPlan, TimedFault};
use crate::model::ids::{ClientId, NodeId};
use crate::model::rng::{stream, SimRng};
use crate::model::time::{SimDuration, SimTime};

impl FaultPlan {
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
                    b: one_in(&mut rng, 4, NodeId::Storage, NodeId::Service),
                    duration: SimDuration(rng.between(1_000, max_pause)),
                },
                3 => Fault::DelayNextPacket {
                    from: NodeId::Client(client),
                    to: one_in(&mut rng, 2, NodeId::Storage, NodeId::Service),
                    extra: SimDuration(rng.between(1_000, max_pause)),
                },
                4 => Fault::ClockStep {
                    node: one_in(&mut rng, 4, NodeId::Service, NodeId::Client(client)),
                    by_micros: rng.between(0, 2 * max_pause) as i64 - max_pause as i64,
                },
                5 => Fault::ClockDrift {
                    node: one_in(&mut rng, 4, NodeId::Service, NodeId::Client(client)),
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

/// `rare` one time in `n`, else `usual` (one draw from `rng`).
fn one_in(rng: &mut SimRng, n: u64, rare: NodeId, usual: NodeId) -> NodeId {
    if rng.up_to(n - 1) == 0 {
        rare
    } else {
        usual
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
