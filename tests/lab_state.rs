//! The sandbox's state transitions: playback, stepping, editing and comparing.
#![cfg(not(target_arch = "wasm32"))]

use lease_lab::lab::{Lab, LabAction, PolicySwitch, Speed};
use lease_lab::model::{
    presets, CheckId, ClientId, Fault, RunQuestions, Scenario, SimDuration, SimTime, Simulation,
    TimedFault,
};

fn apply(lab: &Lab, action: LabAction) -> Lab {
    lab.apply(action).expect("the action changes the lab")
}

#[test]
fn playing_advances_time_by_wall_time_times_speed_and_stops_at_the_end() {
    let lab = Lab::from_preset("2").unwrap();
    assert!(
        lab.apply(LabAction::Tick { wall_ms: 16.0 }).is_none(),
        "paused labs ignore frames"
    );
    let lab = apply(&lab, LabAction::TogglePlay);
    let lab = apply(&lab, LabAction::SetSpeed(Speed::from_factor(10.0)));
    let lab = apply(&lab, LabAction::Tick { wall_ms: 100.0 });
    assert_eq!(lab.now(), SimTime::from_secs(1));
    let lab = apply(&lab, LabAction::Tick { wall_ms: 60_000.0 });
    assert!(
        lab.now() < SimTime::from_millis(1_200),
        "a background-tab gap is clamped"
    );
    let mut lab = lab;
    while lab.playing() {
        lab = apply(&lab, LabAction::Tick { wall_ms: 400.0 });
    }
    assert_eq!(lab.now(), lab.run().end());
    let again = apply(&lab, LabAction::TogglePlay);
    assert_eq!(again.now(), SimTime::ZERO, "play at the end starts over");
}

#[test]
fn stepping_lands_exactly_on_the_neighbouring_events() {
    let lab = Lab::from_preset("1").unwrap();
    let whole = Simulation::run(lab.scenario());
    let times: Vec<SimTime> = whole.events().iter().map(|e| e.at).collect();
    let first_after_zero = *times.iter().find(|&&t| t > SimTime::ZERO).unwrap();
    let stepped = apply(&lab, LabAction::StepForward);
    assert_eq!(stepped.now(), first_after_zero);
    let later = apply(&lab, LabAction::Seek(SimTime::from_secs(25)));
    let back = apply(&later, LabAction::StepBack);
    let expected = *times
        .iter()
        .rev()
        .find(|&&t| t < SimTime::from_secs(25))
        .unwrap();
    assert_eq!(back.now(), expected);
    let start = apply(&lab, LabAction::StepBack);
    assert_eq!(start.now(), SimTime::ZERO);
    let end = apply(&lab, LabAction::JumpToEnd);
    assert_eq!(end.now(), end.run().end());
    assert_eq!(apply(&end, LabAction::StepForward).now(), end.run().end());
}

#[test]
fn flipping_fencing_off_in_the_zombie_preset_breaks_the_ordering_check() {
    let lab = Lab::from_preset("2").unwrap();
    assert!(!lab.run().check(CheckId::OrderedByToken).is_broken());
    let unfenced = apply(&lab, LabAction::FlipSwitch(PolicySwitch::Fencing));
    assert!(unfenced.run().check(CheckId::OrderedByToken).is_broken());
    assert_eq!(
        unfenced.preset(),
        Some("2-unfenced"),
        "an edited scenario that is another preset's is that preset, as its link says"
    );
    let back = apply(&unfenced, LabAction::FlipSwitch(PolicySwitch::Fencing));
    assert_eq!(back.run().trace_hash(), lab.run().trace_hash());
    assert_eq!(back.preset(), Some("2"));
    let longer = apply(
        &lab,
        LabAction::SetScenario(Scenario {
            duration: SimDuration::from_secs(41),
            ..lab.scenario().clone()
        }),
    );
    assert_eq!(
        longer.preset(),
        None,
        "an edited scenario no longer claims to be a preset"
    );
}

#[test]
fn comparing_runs_the_same_scenario_with_one_switch_flipped() {
    let lab = Lab::from_preset("2").unwrap();
    let compared = apply(&lab, LabAction::SetCompare(Some(PolicySwitch::Fencing)));
    let comparison = compared.compare().unwrap();
    assert_eq!(
        comparison.run.trace_hash(),
        lease_lab::model::Simulation::run(&presets::preset("2-unfenced").unwrap().scenario)
            .trace_hash()
    );
    let edited = apply(
        &compared,
        LabAction::AddFault(TimedFault {
            at: SimTime::from_secs(30),
            fault: Fault::Crash {
                client: ClientId::B,
            },
        }),
    );
    let recomputed = edited.compare().unwrap();
    assert_ne!(
        recomputed.run.trace_hash(),
        comparison.run.trace_hash(),
        "the comparison follows edits"
    );
    assert!(apply(&edited, LabAction::SetCompare(None))
        .compare()
        .is_none());
}

#[test]
fn faults_are_added_moved_and_removed_and_the_run_follows() {
    let lab = Lab::from_preset("1").unwrap();
    assert_eq!(lab.run().metrics().losses, 0);
    let pause = TimedFault {
        at: SimTime::from_secs(40),
        fault: Fault::Pause {
            client: ClientId::A,
            duration: SimDuration::from_secs(45),
            in_write_path: false,
        },
    };
    let paused = apply(&lab, LabAction::AddFault(pause));
    assert_eq!(paused.scenario().faults.0, vec![pause]);
    assert!(
        paused.run().metrics().losses >= 1,
        "a pause longer than T loses the lease"
    );
    let moved = apply(&paused, LabAction::MoveFault(0, SimTime::from_secs(100)));
    assert_eq!(moved.scenario().faults.0[0].at, SimTime::from_secs(100));
    assert!(moved.apply(LabAction::RemoveFault(3)).is_none());
    let removed = apply(&moved, LabAction::RemoveFault(0));
    assert_eq!(removed.run().trace_hash(), lab.run().trace_hash());
}

#[test]
fn an_invalid_scenario_is_refused_with_a_message_and_the_old_run_kept() {
    let lab = Lab::from_preset("1").unwrap();
    let mut broken = lab.scenario().clone();
    broken.ttl = SimDuration::ZERO;
    let refused = apply(&lab, LabAction::SetScenario(broken));
    assert!(refused.problem().is_some());
    assert_eq!(refused.run().trace_hash(), lab.run().trace_hash());
    let unknown = apply(&lab, LabAction::LoadPreset("nope".into()));
    assert!(unknown.problem().unwrap().contains("nope"));
}

/// A refused Parameters field is named, so the form can say why beside it; a refusal from
/// anywhere else names none, and the next accepted change clears both.
#[test]
fn a_refused_field_is_named_with_its_problem() {
    let lab = Lab::from_preset("1").unwrap();
    let tiny = apply(&lab, LabAction::SetField("ttl", "0.001".into()));
    assert!(tiny.problem().is_some());
    assert_eq!(tiny.problem_field(), Some("ttl"));
    assert_eq!(tiny.run().trace_hash(), lab.run().trace_hash());
    let unreadable = apply(&tiny, LabAction::SetField("loss", "lots".into()));
    assert_eq!(unreadable.problem_field(), Some("loss"));
    let elsewhere = apply(&unreadable, LabAction::LoadPreset("nope".into()));
    assert!(elsewhere.problem().unwrap().contains("nope"));
    assert_eq!(elsewhere.problem_field(), None);
    let fixed = apply(&tiny, LabAction::SetField("ttl", "12".into()));
    assert_eq!((fixed.problem(), fixed.problem_field()), (None, None));
}

#[test]
fn the_defaults_of_a_real_system_change_the_lease() {
    let lab = Lab::from_preset("1").unwrap();
    for defaults in presets::system_defaults() {
        let applied = apply(&lab, LabAction::UseDefaultsOf(defaults.slug.to_string()));
        assert_eq!(applied.scenario().ttl, defaults.ttl, "{}", defaults.slug);
        assert!(applied.problem().is_none());
    }
    let unknown = apply(&lab, LabAction::UseDefaultsOf("ZooKeeper?".into()));
    assert!(unknown.problem().is_some());
}

/// A long run: many writes, more events than the lab simulates at once.
fn long_scenario() -> lease_lab::model::Scenario {
    let mut s = presets::preset("2").unwrap().scenario.clone();
    s.duration = SimDuration::from_secs(900);
    s.work_slice = SimDuration::from_millis(20);
    s.validate().expect("a valid long scenario");
    s
}

fn simulate_all(mut lab: Lab) -> (Lab, usize) {
    let mut slices = 0;
    while lab.simulating().is_some() {
        lab = apply(&lab, LabAction::Simulate { max_events: 25_000 });
        slices += 1;
    }
    (lab, slices)
}

#[test]
fn a_long_run_is_simulated_in_slices_and_gives_the_same_trace() {
    let s = long_scenario();
    let lab = Lab::with_scenario(s.clone(), None);
    let progress = lab
        .simulating()
        .expect("still simulating after the first slice");
    assert!(progress.simulated < progress.end && progress.percent() < 100);
    assert!(
        lab.apply(LabAction::TogglePlay).is_none(),
        "no playback before the run exists"
    );
    let lab = apply(&lab, LabAction::Seek(SimTime::from_secs(800)));
    let lab = apply(&lab, LabAction::SetCompare(Some(PolicySwitch::Fencing)));
    let (lab, slices) = simulate_all(lab);
    assert!(slices > 3, "{slices} slices");
    assert_eq!(lab.now(), SimTime::from_secs(800), "the cursor waited");
    assert_eq!(lab.run().trace_hash(), Simulation::run(&s).trace_hash());
    let flipped = PolicySwitch::Fencing.flipped(&s);
    assert_eq!(
        lab.compare().map(|c| c.run.trace_hash()),
        Some(Simulation::run(&flipped).trace_hash())
    );
}

#[test]
fn stopping_a_simulation_ends_the_run_where_it_got() {
    let s = long_scenario();
    let lab = Lab::with_scenario(s.clone(), None);
    let lab = apply(&lab, LabAction::SetCompare(Some(PolicySwitch::Fencing)));
    let lab = apply(&lab, LabAction::Simulate { max_events: 30_000 });
    let reached = lab.simulating().unwrap().simulated;
    let lab = apply(&lab, LabAction::StopSimulating);
    assert!(lab.simulating().is_none());
    let end = lab.run().end();
    assert!(end >= reached && end < SimTime::from_secs(900));
    assert_eq!(lab.scenario().duration, SimDuration(end.0));
    assert_eq!(
        lab.run().trace_hash(),
        Simulation::run(lab.scenario()).trace_hash()
    );
    let compared = lab.compare().expect("the comparison is cut too");
    assert_eq!(compared.run.end(), end);
    let played = apply(&lab, LabAction::JumpToEnd);
    assert_eq!(played.now(), end);
}

#[test]
fn of_the_policies_only_fencing_and_the_service_s_expiry_clock_change_the_learner_s_client() {
    use lease_lab::lab::own_client::switch_applies;
    let applying: Vec<PolicySwitch> = PolicySwitch::ALL
        .into_iter()
        .filter(|&s| switch_applies(s))
        .collect();
    assert_eq!(
        applying,
        [PolicySwitch::Fencing, PolicySwitch::ServiceWallClock]
    );
}
