//! One vocabulary: the Faults form and share links read faults with one parser, and the
//! scenario's field table is what the link codec, the Parameters form and validation use.

use lease_lab::lab::fault_form::FaultDraft;
use lease_lab::lab::{Lab, LabAction};
use lease_lab::lesson::content::SANDBOX;
use lease_lab::model::fields::{Value, SCENARIO_FIELDS};
use lease_lab::model::{presets, FaultKind, Scenario, SimTime};
use lease_lab::route::Tab;
use lease_lab::share::{decode, encode, LabLink, LinkState};

fn link_of(lab: &Lab) -> String {
    encode(&LinkState {
        tab: Tab::Sandbox,
        lab: Some(LabLink::of(lab)),
        ..LinkState::default()
    })
}

fn decoded_scenario(link: &str) -> Scenario {
    let decoded = decode(link);
    assert_eq!(decoded.problems, Vec::<String>::new(), "{link}");
    decoded.state.lab.expect("a lab").scenario
}

/// What a learner might type for each kind: node, peer, time, amount.
fn typed(kind: FaultKind) -> FaultDraft {
    let (node, peer, at, amount) = match kind {
        FaultKind::Pause => ("B", "", "3.25", "4"),
        FaultKind::PauseInWritePath => ("A", "", "1.000001", "0.5s"),
        FaultKind::Partition => ("B", "storage", "7", "250ms"),
        FaultKind::DelayNextPacket => ("A", "service", "2", "12.5"),
        FaultKind::ClockStep => ("service", "", "5", "-1.5"),
        FaultKind::ClockDrift => ("B", "", "0", "-250"),
        FaultKind::Crash => ("B", "", "9", ""),
        FaultKind::RevokeLease => ("", "", "4.5", ""),
    };
    FaultDraft {
        kind,
        node: node.to_owned(),
        peer: peer.to_owned(),
        at: at.to_owned(),
        amount: amount.to_owned(),
    }
}

#[test]
fn a_fault_typed_in_the_form_is_the_one_its_link_carries() {
    for kind in FaultKind::ALL {
        let draft = typed(kind);
        let (at, fault) = draft.read().unwrap_or_else(|e| panic!("{kind:?}: {e:?}"));
        assert_eq!(fault.kind(), kind);
        let at = at.expect("a time was typed");
        let lab = Lab::default()
            .apply(LabAction::AddFault(lease_lab::model::TimedFault {
                at,
                fault,
            }))
            .expect("the fault is accepted");
        assert_eq!(lab.problem(), None, "{kind:?}");
        let link = link_of(&lab);
        assert!(
            link.contains(&format!("fault={}", kind.keyword())),
            "{link}"
        );
        let carried = decoded_scenario(&link).faults.0;
        assert!(
            carried.iter().any(|f| f.at == at && f.fault == fault),
            "{kind:?}: {link}"
        );
        assert!(SANDBOX.fault(kind.keyword()).choice.len() > 3);
    }
}

#[test]
fn a_seed_and_a_first_token_above_two_to_the_53_round_trip_through_the_form() {
    let seed = (1u64 << 53) + 1;
    let token = (1u64 << 60) + 3;
    let mut lab = Lab::default();
    for (key, value) in [("seed", seed), ("token", token)] {
        lab = lab
            .apply(LabAction::SetField(key, format!(" {value} ")))
            .unwrap();
        assert_eq!(lab.problem(), None);
    }
    assert_eq!(
        (lab.scenario().seed, lab.scenario().token_start),
        (seed, token)
    );
    let seed_field = SCENARIO_FIELDS.iter().find(|f| f.key == "seed").unwrap();
    assert_eq!(seed_field.print_form(lab.scenario()), seed.to_string());
    // What the form shows, typed back, changes nothing; and the link carries it exactly.
    let again = lab
        .apply(LabAction::SetField(
            "seed",
            seed_field.print_form(lab.scenario()),
        ))
        .unwrap();
    assert_eq!(again.scenario(), lab.scenario());
    assert_eq!(decoded_scenario(&link_of(&lab)).seed, seed);
}

#[test]
fn every_row_of_the_field_table_is_read_by_the_codec_the_form_and_validation() {
    let base = presets::preset("2").unwrap().scenario.clone();
    for field in &SCENARIO_FIELDS {
        let words = SANDBOX.field(field.key);
        assert!(
            !words.label.is_empty() && !words.name.is_empty(),
            "{}",
            field.key
        );

        // The form: what it shows reads back to the same scenario.
        let lab = Lab::from_preset("2").unwrap();
        let shown = field.print_form(&base);
        let same = lab
            .apply(LabAction::SetField(field.key, shown.clone()))
            .unwrap();
        assert_eq!(same.problem(), None, "{} shows {shown:?}", field.key);
        assert_eq!(same.scenario(), &base, "{} via the form", field.key);

        // The codec: the key is read, and a bad value is named with the field's words.
        let text = field.print(&base);
        let link = format!("#/sandbox?v=1&preset=2&{}={text}", field.key);
        assert_eq!(decoded_scenario(&link), base, "{link}");
        let bad = decode(&format!("#/sandbox?v=1&preset=2&{}=x", field.key));
        assert!(
            bad.problems.iter().any(|p| p.contains(words.name)),
            "{}: {:?}",
            field.key,
            bad.problems
        );

        // Validation: a number just past the row's range is refused under its name.
        if let Value::Number(_) = field.value(&base) {
            if field.max < u64::MAX {
                let mut s = base.clone();
                if field.set(&mut s, Value::Number(field.max + 1)).is_ok() {
                    let error = s.validate().expect_err(field.key);
                    assert_eq!(error.field, field.field);
                }
            }
            if field.min > 0 {
                let mut s = base.clone();
                field.set(&mut s, Value::Number(field.min - 1)).unwrap();
                let error = s.validate().expect_err(field.key);
                assert_eq!(error.field, field.field);
            }
        }
    }
    assert_eq!(SANDBOX.fields.len(), SCENARIO_FIELDS.len());
}

#[test]
fn the_event_log_prints_each_time_once_and_clock_steps_exactly() {
    let mut scenario = presets::preset("6").unwrap().scenario.clone();
    scenario.faults.0[0].fault = lease_lab::model::Fault::ClockStep {
        node: lease_lab::model::NodeId::Service,
        by_micros: -1_500_250,
    };
    let run = lease_lab::model::Simulation::run(&scenario);
    let step = run
        .events()
        .iter()
        .find(|e| matches!(e.kind, lease_lab::model::EventKind::Fault { .. }))
        .unwrap();
    let line = lease_lab::lab::describe::event(step, Default::default());
    assert!(!line.contains(&step.at.to_string()), "{line}");
    assert!(line.contains("1.500250 s"), "{line}");
    for (event, found) in run.events().iter().zip(run.found()) {
        let line = lease_lab::lab::describe::event(event, *found);
        assert!(
            !line.contains("Timer") && !line.contains("LinkDown"),
            "{line}"
        );
    }
    assert!(run.events().iter().any(|e| e.at > SimTime::ZERO));
}

#[test]
fn every_real_system_and_only_those_is_worded() {
    let systems = presets::system_defaults();
    for d in &systems {
        let words = SANDBOX.system(d.slug);
        assert!(!words.system.is_empty() && !words.renew.is_empty());
    }
    assert_eq!(SANDBOX.systems.len(), systems.len());
    for kind in FaultKind::ALL {
        assert_eq!(SANDBOX.fault(kind.keyword()).keyword, kind.keyword());
    }
    assert_eq!(SANDBOX.faults.len(), FaultKind::ALL.len());
}
