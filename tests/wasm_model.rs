//! The model in wasm: every preset's committed trace hash must come out the same as
//! natively (tests/model_presets.rs asserts the same constants), byte for byte.
#![cfg(target_arch = "wasm32")]

use lease_lab::model::{presets, CheckId, Recording, RunQuestions, Scenario, Simulation};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const PRESET_HASHES: &[(&str, u64)] = &include!("model_preset_hashes.in");

#[wasm_bindgen_test]
fn every_preset_has_its_committed_trace_hash_in_wasm() {
    let all = presets::presets();
    assert_eq!(all.len(), PRESET_HASHES.len());
    for p in all {
        let (_, want) = PRESET_HASHES
            .iter()
            .find(|(id, _)| *id == p.id)
            .expect("committed");
        let got = Simulation::run(&p.scenario).trace_hash();
        assert_eq!(got, *want, "preset {} hashes {got:#018x} in wasm", p.id);
        let streamed = Recording::of(&p.scenario).trace_hash();
        assert_eq!(streamed, *want, "preset {} recorded in wasm", p.id);
    }
}

#[wasm_bindgen_test]
fn checks_break_the_same_way_in_wasm() {
    let unfenced = Simulation::run(&presets::preset("2-unfenced").unwrap().scenario);
    assert!(unfenced.check(CheckId::OrderedByToken).is_broken());
    let fenced = Simulation::check(&presets::preset("2").unwrap().scenario);
    assert!(!fenced.any_broken());
    // Random plans with jitter draw from the seeded PRNG identically on every platform.
    let s = Scenario {
        jitter: lease_lab::model::SimDuration::from_millis(9),
        ..Scenario::random_default(42)
    };
    let a = Simulation::run(&s).trace_hash();
    assert_eq!(a, Simulation::run(&s).trace_hash());
}
