//! The laboratory's panels read a run through one trait, whichever kind it is: a simulated
//! `Recording` (checkpoints) or a `TracedRun` (a whole trace, as a live run keeps). Both
//! stores feed the same questions (`RunQuestions`), so both readings of the same scenario
//! must answer every question the same way, or a live run would be drawn by different rules
//! than a simulated one. Natively, over every preset at many moments (spread over the run,
//! and just before, at and after sampled events), over runs cut short, and over a trace
//! read as a live run has it so far.
#![cfg(not(target_arch = "wasm32"))]

use std::rc::Rc;

use lease_lab::lab::reading::{RunReading, TracedRun};
use lease_lab::model::{
    presets, CheckId, ClientId, FencingToken, Recorder, Recording, Run, RunQuestions, SimTime,
    Simulation, Violation, ViolationDetail,
};

/// Forty moments spread over the run, the end, and around every 60th event.
fn moments(run: &TracedRun, full: &Run) -> Vec<SimTime> {
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
    let (recording, run) = (Recording::of(scenario), Rc::new(Simulation::run(scenario)));
    agree_runs(&format!("preset {id}"), &recording, &run);
    let traced = TracedRun::new(run.clone());
    assert_eq!(recording.overview(), traced.overview(), "preset {id}");
    for t in moments(&traced, &run) {
        let (sim, full) = (recording.failovers_until(t), traced.failovers_until(t));
        assert_eq!(sim, full, "preset {id} at {t}");
    }
    traced.failovers_until(traced.end()).len()
}

/// Checks that `recording` and `run`, of the same events, answer every question alike and
/// draw the same lanes (a recording cut short too: its lanes are those of its own length).
fn agree_runs(name: &str, recording: &Recording, run: &Rc<Run>) {
    let traced = TracedRun::new(run.clone());
    let times = moments(&traced, run);
    let (sim, full): (&dyn RunReading, &dyn RunReading) = (recording, &traced);
    assert_eq!(sim.overview(), full.overview(), "{name}");
    assert_eq!(sim.end(), full.end(), "{name}");
    assert_eq!(sim.event_count(), full.event_count(), "{name}");
    assert_eq!(sim.checks(), full.checks(), "{name}");
    assert_eq!(sim.metrics(), full.metrics(), "{name}");
    for t in times {
        let at = format!("{name} at {t}");
        assert_eq!(sim.latest_event_at(t), full.latest_event_at(t), "{at}");
        assert_eq!(sim.next_event_after(t), full.next_event_after(t), "{at}");
        let previous = (sim.previous_event_before(t), full.previous_event_before(t));
        assert_eq!(previous.0, previous.1, "{at}");
        assert_eq!(sim.write_counts_at(t), full.write_counts_at(t), "{at}");
        assert_eq!(sim.writes_before(t, 40), full.writes_before(t, 40), "{at}");
        assert_eq!(sim.losses_before(t, 6), full.losses_before(t, 6), "{at}");
        assert_eq!(sim.events_before(t, 60), full.events_before(t, 60), "{at}");
        assert_eq!(
            sim.packets_before(t, 12),
            full.packets_before(t, 12),
            "{at}"
        );
        assert_eq!(sim.metrics_at(t), full.metrics_at(t), "{at}");
        assert_eq!(sim.state_at(t), full.state_at(t), "{at}");
        for check in CheckId::ALL {
            assert_eq!(
                sim.check_at(check, t),
                full.check_at(check, t),
                "{at}: {check:?}"
            );
        }
    }
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
fn a_run_cut_short_reads_like_the_trace_of_the_shorter_scenario() {
    for id in ["2", "2-unfenced", "5a", "8"] {
        let mut recorder = Recorder::new(&presets::preset(id).unwrap().scenario);
        recorder.advance(700);
        let simulated = recorder.simulated();
        let recording = recorder.cut(simulated);
        let run = Rc::new(Simulation::run(recording.scenario()));
        agree_runs(&format!("preset {id} cut"), &recording, &run);
    }
}

#[test]
fn a_trace_so_far_reads_like_the_recording_cut_there() {
    // A live run as it grows: its events so far, read as a whole trace ending now.
    let scenario = &presets::preset("2").unwrap().scenario;
    let full = Simulation::run(scenario);
    for now in [SimTime::from_millis(4_321), SimTime::from_secs(12)] {
        let so_far = Run::from_trace(scenario.clone(), now, full.events_until(now).to_vec());
        let recording = Recorder::new(scenario).cut(now);
        agree_runs(
            &format!("preset 2 so far at {now}"),
            &recording,
            &Rc::new(so_far),
        );
    }
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
