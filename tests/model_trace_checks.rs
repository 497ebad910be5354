#![cfg(not(target_arch = "wasm32"))]
//! The checkers read a run's events and nothing else: the same events give the same findings
//! and measurements whether the checkers read them as the simulation runs (with and without
//! a trace kept) or from the trace exported as a recorded run and read back.

use lease_lab::lab::live::protocol::{from_bytes, to_bytes};
use lease_lab::lab::live::trace::LiveTrace;
use lease_lab::model::*;

/// The run read back from its export, the format a recorded run travels in.
fn exported_and_read_back(run: &Run) -> Run {
    let trace = LiveTrace {
        scenario: run.scenario().clone(),
        end: run.end(),
        events: run.events().to_vec(),
        freezes: Vec::new(),
        hidden_at: None,
    };
    let bytes = to_bytes(&trace).expect("a preset's trace fits");
    let back: LiveTrace = from_bytes(&bytes).expect("reads back");
    assert_eq!(back, trace);
    back.replay()
}

#[test]
fn every_preset_is_checked_alike_as_it_runs_and_from_its_exported_trace() {
    for preset in presets::presets() {
        let s = &preset.scenario;
        let id = preset.id;
        let simulated = Recording::of(s);
        let replayed = exported_and_read_back(&Simulation::run(s));
        assert_eq!(replayed.trace_hash(), simulated.trace_hash(), "{id}");
        assert_eq!(replayed.checks(), simulated.checks(), "{id}");
        assert_eq!(replayed.metrics(), simulated.metrics(), "{id}");
        // Every event's findings, as the simulation's checkers found them while it ran.
        let streamed = simulated.events_before(simulated.end(), usize::MAX);
        assert_eq!(streamed.total, replayed.events().len(), "{id}");
        let as_simulated: Vec<(Event, Found)> = streamed.items;
        let as_replayed: Vec<(Event, Found)> = replayed
            .events()
            .iter()
            .copied()
            .zip(replayed.found().iter().copied())
            .collect();
        assert_eq!(as_simulated, as_replayed, "{id}");
        // The fast path keeps no trace and leaves out what no checker reads: same answers.
        let fast = Simulation::check(s);
        assert_eq!(&fast.checks, replayed.checks(), "{id}");
        assert_eq!(&fast.metrics, replayed.metrics(), "{id}");
        let verdict = Simulation::verdict(s);
        assert_eq!(&verdict.metrics, replayed.metrics(), "{id}");
    }
}

#[test]
fn the_presets_break_checks_so_the_comparison_covers_findings() {
    // The other two checks break only with a planted bug: `check::mutations` compares the
    // simulation's findings with its trace's for each.
    let broken: Vec<CheckId> = CheckId::ALL
        .into_iter()
        .filter(|&c| {
            presets::presets()
                .iter()
                .any(|p| Simulation::run(&p.scenario).check(c).is_broken())
        })
        .collect();
    assert_eq!(broken, [CheckId::SingleHolder, CheckId::OrderedByToken]);
}
