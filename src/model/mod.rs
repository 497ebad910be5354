//! The lease model: a deterministic, sans-IO simulation of lock clients, a lock service,
//! a network, per-node clocks and fenced storage. Never touches clocks, the DOM or web crates.
//!
//! Data flows one way: [`Scenario`] → [`Simulation::run`] → [`Run`] (trace, checks,
//! metrics), read at any time through [`RunQuestions`]. Each component ([`LeaseClient`],
//! [`LockService`], [`Storage`], [`Network`]) is a state machine with `handle_*` inputs,
//! `poll_*` outputs and absolute deadlines; [`World`] steps them from event to event. Faults are data ([`FaultPlan`]).
//! One `u64` seed drives all randomness, so the same scenario gives the same trace hash
//! natively and in wasm.
//!
//! ```
//! use lease_lab::model::{presets, CheckId, ClientId, RunQuestions, Simulation, SimTime};
//! let preset = presets::preset("2").unwrap();
//! let run = Simulation::run(&preset.scenario);
//! assert!(!run.check(CheckId::OrderedByToken).is_broken());
//! let at_11s = run.state_at(SimTime::from_secs(11));
//! assert_eq!(at_11s.holder.map(|h| h.0), Some(ClientId::B));
//! ```

#![warn(missing_docs)]

pub mod calc;
pub mod check;
pub mod checked;
pub mod client;
pub mod faults;
pub mod fields;
pub mod ids;
pub mod msg;
pub mod net;
pub mod notation;
pub mod overview;
#[cfg(test)]
mod planted;
pub mod policy;
pub mod presets;
mod queue;
pub mod reader;
pub mod recording;
pub mod rng;
pub mod run;
pub mod scenario;
pub mod search;
pub mod service;
pub mod storage;
pub mod time;
pub mod trace;
pub mod world;

pub use calc::{
    advise_ttl, pause_phase_sweep, PauseSweep, PauseTry, SweepCase, TtlAdvice, TtlInputs,
};
pub use check::{
    BrokenCheck, CheckId, CheckReport, CheckStatus, Checkers, Failover, Found, Metrics, Records,
    RenewOutcome, RenewRecord, Verdict, Violation, ViolationDetail,
};
pub use checked::{CheckedWorld, Outcome};
pub use client::{
    ClientConfig, ClientEvent, ClientMachine, Deadline, LeaseClient, Lifecycle, LostReason,
    TimerKind, Transmit,
};
pub use faults::{Fault, FaultKind, FaultPlan, RandomFaults, TimedFault};
pub use ids::{ClientId, FencingToken, MsgId, NodeId, RequestId};
pub use msg::Message;
pub use net::{DropReason, LinkConfig, Network};
pub use policy::Policy;
pub use presets::{Preset, SystemDefaults};
pub use reader::{
    ClientSnapshot, RunQuestions, RunStore, RunSummary, Snapshot, Tally, Window, WriteCounts,
};
pub use recording::{Recorder, Recording};
pub use rng::SimRng;
pub use run::{Interval, LifecyclePoint, MessageFate, MessageRecord, Run, Tenure};
pub use scenario::{Fraction, LinkDelay, LinkOverride, Scenario, ScenarioError, ScenarioProblem};
pub use service::{LeaseEnd, LockService, ServiceConfig, ServiceEvent};
pub use storage::{Storage, WriteRecord, WriteVerdict};
pub use time::{ClockKind, LocalNow, LocalTime, NodeClock, SimDuration, SimTime, WALL_EPOCH};
pub use trace::{trace_hash, Event, EventKind};
pub use world::{Detail, Output, World};

/// Entry points that run a whole scenario.
pub struct Simulation;

impl Simulation {
    /// Runs `s` to its end with the full trace. `s` should have passed
    /// [`Scenario::validate`]; use [`Simulation::try_run`] for untrusted input.
    pub fn run(s: &Scenario) -> Run {
        let mut w = World::new(s, Detail::Trace);
        w.run_to_end();
        let end = w.end();
        Run::from_trace(s.clone(), end, w.into_events())
    }

    /// Validates `s`, then runs it.
    pub fn try_run(s: &Scenario) -> Result<Run, ScenarioError> {
        s.validate()?;
        Ok(Simulation::run(s))
    }

    /// Runs `s` to its end keeping only the checks and metrics (no trace): the fast path for
    /// property tests and sweeps.
    pub fn check(s: &Scenario) -> Outcome {
        let mut w = World::checked(s);
        w.run_to_end();
        w.outcome()
    }

    /// Runs `s` to its end with the checkers but no trace, and answers the counterexample
    /// search's question: the first broken check (which, and when) and the measurements.
    /// This is the path `make bench` times as "checked scenarios/s".
    pub fn verdict(s: &Scenario) -> Verdict {
        let mut w = World::checked(s);
        w.run_to_end();
        w.verdict()
    }
}
