//! The laboratory's panels read a run through one trait, whichever kind it is: a simulated
//! `Recording` (checkpoints) or a `TracedRun` (a whole trace, as a live run keeps). Both
//! readings of the same scenario must answer every question the same way, or a live run
//! would be drawn by different rules than a simulated one. Natively, over every preset at
//! many moments: spread over the run, and just before, at and after sampled events.
#![cfg(not(target_arch = "wasm32"))]

use std::rc::Rc;

use lease_lab::lab::reading::{RunReading, TracedRun};
use lease_lab::model::{
    presets, CheckId, ClientId, FencingToken, Recording, RunQuestions, RunStore, SimTime,
    Simulation, Violation, ViolationDetail,
};

/// Forty moments spread over the run, the end, and around every 60th event.
fn moments(run: &TracedRun, full: &lease_lab::model::Run) -> Vec<SimTime> {
    let end = run.end();
    let mut times: Vec<SimTime> = (0..=40).map(|k| SimTime(end.0 / 40 * k)).collect();
    for e in full.events().iter().step_by(60) {
        times.extend([SimTime(e.at.0.saturating_sub(1)), e.at, SimTime(e.at.0 + 1)]);
    }
    times.retain(|&t| t <= end);
    times.sort();
    times.dedup();
    times
}

/// Checks that both readings of preset `id` agree; returns how many failovers it has.
fn agree(id: &str) -> usize {
    let scenario = &presets::preset(id).expect("preset").scenario;
    let recording = Recording::of(scenario);
    let run = Rc::new(Simulation::run(scenario));
    let traced = TracedRun::new(run.clone());
    let times = moments(&traced, &run);
    let (sim, full): (&dyn RunReading, &dyn RunReading) = (&recording, &traced);
    assert_eq!(sim.end(), full.end(), "preset {id}");
    assert_eq!(sim.event_count(), full.event_count(), "preset {id}");
    assert_eq!(sim.metrics(), full.metrics(), "preset {id}");
    assert_eq!(sim.overview(), full.overview(), "preset {id}");
    for t in times {
        let at = format!("preset {id} at {t}");
        assert_eq!(sim.latest_event_at(t), full.latest_event_at(t), "{at}");
        assert_eq!(sim.write_counts_at(t), full.write_counts_at(t), "{at}");
        assert_eq!(sim.writes_before(t, 40), full.writes_before(t, 40), "{at}");
        assert_eq!(sim.losses_before(t, 6), full.losses_before(t, 6), "{at}");
        assert_eq!(sim.events_before(t, 60), full.events_before(t, 60), "{at}");
        assert_eq!(sim.failovers_until(t), full.failovers_until(t), "{at}");
        assert_eq!(sim.metrics_at(t), full.metrics_at(t), "{at}");
        let (a, b) = (sim.state_at(t), full.state_at(t));
        assert_eq!(
            (a.holder, &a.clients, &a.broken),
            (b.holder, &b.clients, &b.broken),
            "{at}"
        );
        for check in CheckId::ALL {
            assert_eq!(
                sim.check_at(check, t),
                full.check_at(check, t),
                "{at}: {check:?}"
            );
        }
    }
    full.failovers_until(full.end()).len()
}

#[test]
fn a_traced_run_reads_like_the_recording_of_the_same_scenario() {
    let with_failover = presets::presets()
        .iter()
        .filter(|p| agree(p.id) > 0)
        .count();
    assert!(with_failover > 3, "{with_failover} presets have a failover");
}

#[test]
fn the_readings_agree_where_writes_are_rejected_and_checks_break() {
    // The fenced takeover rejects a held write; without fencing the order of writes breaks.
    let fenced = Simulation::run(&presets::preset("2").unwrap().scenario);
    assert!(fenced.storage_log().iter().any(|w| !w.verdict.accepted()));
    let unfenced = presets::preset("2-unfenced").unwrap();
    let traced = TracedRun::new(Rc::new(Simulation::run(&unfenced.scenario)));
    assert!(traced
        .check_at(CheckId::OrderedByToken, traced.end())
        .is_broken());
    agree("2");
    agree("2-unfenced");
}

#[test]
fn a_traced_run_prints_times_to_the_millisecond() {
    let run = TracedRun::new(Rc::new(Simulation::run(
        &presets::preset("2").unwrap().scenario,
    )));
    assert_eq!(
        run.shown_time(SimTime(3_004_499)),
        SimTime::from_millis(3_004)
    );
    assert_eq!(
        run.shown_time(SimTime(3_004_500)),
        SimTime::from_millis(3_005)
    );
    let lost = Violation {
        check: CheckId::NoWriteAfterLost,
        at: SimTime(5_000_600),
        detail: ViolationDetail::WriteAfterLost {
            client: ClientId::A,
            token: FencingToken(1),
            lost_at: SimTime(4_999_400),
        },
    };
    let shown = run.shown_violation(lost);
    assert_eq!(shown.at, SimTime::from_millis(5_001));
    assert!(matches!(shown.detail,
        ViolationDetail::WriteAfterLost { lost_at, .. } if lost_at == SimTime::from_millis(4_999)));
    let recording = Recording::of(&presets::preset("2").unwrap().scenario);
    assert_eq!(
        RunReading::shown_time(&recording, SimTime(3_004_499)),
        SimTime(3_004_499)
    );
    assert_eq!(recording.shown_violation(lost), lost);
}
