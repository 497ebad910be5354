//! "Simulate this plan": the deterministic model run with a live run's parameters, policy and
//! faults (at the times they took effect live, each freeze with the length asked), and what
//! differs between the two: how late the page's timers really fired, how long each freeze
//! really lasted, and how each run ended.

use super::trace::{Freeze, LiveTrace};
use crate::model::{
    ClientId, EventKind, MessageFate, Metrics, NodeId, Run, Scenario, SimDuration, SimTime,
    Simulation,
};

/// The scenario the simulation runs for a live trace.
pub fn simulated_plan(trace: &LiveTrace) -> Scenario {
    let mut s = trace.scenario.clone();
    // Whole milliseconds, at least a second: the model's limits on a run's length.
    let ms = trace.end.as_micros().div_ceil(1_000).max(1_000);
    s.duration = SimDuration::from_millis(ms);
    s.faults.0.retain(|f| f.at < SimTime::ZERO + s.duration);
    s
}

/// The simulation of a live trace's plan, if the plan is one the model accepts.
pub fn simulate(trace: &LiveTrace) -> Option<Run> {
    Simulation::try_run(&simulated_plan(trace)).ok()
}

/// How late a client's timers fired: the median and the worst.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Lateness {
    /// Half of the timers fired later than this.
    pub median: SimDuration,
    /// The latest.
    pub worst: SimDuration,
}

impl Lateness {
    /// The median and the worst of `late`; none when it is empty.
    fn of(mut late: Vec<SimDuration>) -> Option<Lateness> {
        late.sort();
        Some(Lateness {
            median: *late.get(late.len() / 2)?,
            worst: *late.last()?,
        })
    }
}

/// How late client `c`'s timers fired in `run`, leaving out the ones a freeze held back
/// (those are the freeze's, not the scheduler's).
pub fn timer_lateness(run: &Run, c: ClientId, freezes: &[Freeze]) -> Option<Lateness> {
    let frozen = |t: SimTime| {
        freezes
            .iter()
            .any(|f| f.at <= t && t <= f.at + f.measured + SimDuration::from_millis(1))
    };
    let late: Vec<SimDuration> = run
        .events()
        .iter()
        .filter(|e| e.node == NodeId::Client(c) && !frozen(e.at))
        .filter_map(|e| match e.kind {
            EventKind::Timer { late_by, .. } => Some(late_by),
            _ => None,
        })
        .collect();
    Lateness::of(late)
}

/// How much later than planned the packets of `run` arrived (their due time is the delay
/// queue's; the rest is `postMessage` and the receiver's event loop), leaving out the ones
/// in flight during a freeze.
pub fn delivery_lateness(run: &Run, freezes: &[Freeze]) -> Option<Lateness> {
    let overlaps = |from: SimTime, to: SimTime| {
        freezes
            .iter()
            .any(|f| from <= f.at + f.measured && f.at <= to)
    };
    let late: Vec<SimDuration> = run
        .messages()
        .iter()
        .filter_map(|m| match m.fate {
            MessageFate::Delivered(at) if !overlaps(m.sent_at, at) => Some(at - m.deliver_at),
            _ => None,
        })
        .collect();
    Lateness::of(late)
}

/// How a run ended, in the figures a learner compares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ending {
    /// Leases granted.
    pub grants: u32,
    /// Lost flags set.
    pub losses: u32,
    /// Writes accepted.
    pub accepted: u32,
    /// Writes rejected by the fence.
    pub rejected: u32,
}

impl Ending {
    /// The figures of `m`.
    pub fn of(m: &Metrics) -> Ending {
        Ending {
            grants: m.grants,
            losses: m.losses,
            accepted: m.writes_accepted,
            rejected: m.writes_rejected,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::{Event, Fault, Policy, TimedFault, TimerKind};

    #[test]
    fn the_simulated_plan_keeps_the_live_faults_at_their_times() {
        let pause = Fault::Pause {
            client: ClientId::A,
            duration: SimDuration::from_secs(3),
            in_write_path: false,
        };
        let mut scenario = Scenario {
            clients: 2,
            ttl: SimDuration::from_secs(1),
            policy: Policy::prefer(),
            ..Scenario::default()
        };
        scenario.faults.0 = vec![TimedFault {
            at: SimTime::from_micros(2_000_123),
            fault: pause,
        }];
        let trace = LiveTrace {
            scenario,
            end: SimTime::from_micros(8_000_500),
            events: Vec::new(),
            freezes: Vec::new(),
            hidden_at: None,
        };
        let plan = simulated_plan(&trace);
        assert_eq!(plan.duration, SimDuration::from_millis(8_001));
        assert_eq!(plan.faults.0, trace.scenario.faults.0);
        let run = simulate(&trace).expect("a valid plan");
        // In the model B takes over during A's pause, exactly as the live run showed.
        assert!(run
            .holder_intervals()
            .iter()
            .any(|t| t.client == ClientId::B));
    }

    #[test]
    fn delivery_lateness_counts_what_came_after_the_planned_latency() {
        use crate::model::{FencingToken, Message, MsgId};
        let write = Message::Write {
            token: FencingToken(1),
            seq: 1,
        };
        let a = NodeId::Client(ClientId::A);
        let packet = |id: u32, sent: u64, due: u64, arrived: u64| {
            [
                Event {
                    at: SimTime::from_millis(sent),
                    node: a,
                    kind: EventKind::Sent {
                        id: MsgId(id),
                        to: NodeId::Storage,
                        msg: write,
                        deliver_at: SimTime::from_millis(due),
                    },
                },
                Event {
                    at: SimTime::from_millis(arrived),
                    node: NodeId::Storage,
                    kind: EventKind::Delivered {
                        id: MsgId(id),
                        from: a,
                        sent_at: SimTime::from_millis(sent),
                        msg: write,
                    },
                },
            ]
        };
        let mut events: Vec<Event> = [packet(0, 100, 110, 111), packet(1, 200, 210, 213)].concat();
        // In flight across the freeze: not the network's lateness.
        events.extend(packet(2, 2_000, 2_010, 5_001));
        events.sort_by_key(|e| e.at);
        let trace = LiveTrace {
            scenario: Scenario::default(),
            end: SimTime::from_secs(10),
            events,
            freezes: vec![Freeze {
                at: SimTime::from_millis(2_005),
                asked: SimDuration::from_secs(3),
                measured: SimDuration::from_secs(3),
            }],
            hidden_at: None,
        };
        let late = delivery_lateness(&trace.replay(), &trace.freezes).unwrap();
        assert_eq!(late.median, SimDuration::from_millis(3));
        assert_eq!(late.worst, SimDuration::from_millis(3));
    }

    #[test]
    fn lateness_leaves_out_the_timers_a_freeze_held_back() {
        let scenario = Scenario::default();
        let timer = |ms: u64, late_ms: u64| Event {
            at: SimTime::from_millis(ms),
            node: NodeId::Client(ClientId::A),
            kind: EventKind::Timer {
                timer: TimerKind::Work,
                late_by: SimDuration::from_millis(late_ms),
            },
        };
        let trace = LiveTrace {
            scenario,
            end: SimTime::from_secs(10),
            events: vec![
                timer(1_000, 1),
                timer(2_000, 2),
                timer(5_000, 3_000),
                timer(6_000, 4),
            ],
            freezes: vec![Freeze {
                at: SimTime::from_millis(2_000),
                asked: SimDuration::from_secs(3),
                measured: SimDuration::from_secs(3),
            }],
            hidden_at: None,
        };
        let run = trace.replay();
        let late = timer_lateness(&run, ClientId::A, &trace.freezes).unwrap();
        assert_eq!(late.worst, SimDuration::from_millis(4));
        assert_eq!(late.median, SimDuration::from_millis(4));
    }
}
