//! The challenges graded in wasm: every challenge's start and reference answer must get the
//! same verdict and the same committed trace hash as natively (tests/challenges.rs asserts
//! the same constants).
#![cfg(target_arch = "wasm32")]

use lease_lab::lab::challenge::grade;
use lease_lab::lab::challenge::spec::all;
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

const HASHES: &[(&str, u64, u64)] = &include!("challenge_hashes.in");

#[wasm_bindgen_test]
fn every_challenge_gets_its_native_verdict_and_trace_hash_in_wasm() {
    assert_eq!(all().len(), HASHES.len());
    for spec in all() {
        let id = spec.text.id;
        let &(_, start_hash, answer_hash) = HASHES.iter().find(|(h, _, _)| *h == id).unwrap();
        let start = grade(spec, &spec.start).unwrap();
        assert!(!start.solved(), "{id}");
        assert_eq!(
            start.trace_hash, start_hash,
            "{id}: start {:#018x}",
            start.trace_hash
        );
        let answer = grade(spec, &spec.answer().unwrap()).unwrap();
        assert!(answer.solved(), "{id}: {:?}", answer.failure);
        assert_eq!(
            answer.trace_hash, answer_hash,
            "{id}: answer {:#018x}",
            answer.trace_hash
        );
    }
}
