//! Model speed in wasm (headless Chromium): events per second and checked 60-second
//! scenarios per second, the same workload as `benches/model.rs` (`Simulation::verdict`).
//! Timing uses `performance.now()`; the model itself never reads a clock. Run by
//! `scripts/bench.sh`.
#![cfg(all(target_arch = "wasm32", feature = "wasm-bench"))]

use lease_lab::model::{Scenario, Simulation};
use wasm_bindgen_test::*;

wasm_bindgen_test_configure!(run_in_browser);

fn now_ms() -> f64 {
    web_sys::window()
        .expect("window")
        .performance()
        .expect("performance")
        .now()
}

#[wasm_bindgen_test]
fn model_speed_in_wasm() {
    // Warm up for about two seconds, so V8 has tiered the module up from its baseline
    // compiler (Liftoff) to the optimizing one before we measure for another two.
    let warm = now_ms();
    let mut w = 0;
    while now_ms() - warm < 2_000.0 {
        w += 1;
        std::hint::black_box(Simulation::verdict(&Scenario::random_default(u64::MAX - w)));
    }
    let mut seed = 0u64;
    let mut events = 0u64;
    let mut scenarios = 0u64;
    let start = now_ms();
    while now_ms() - start < 2_000.0 {
        for _ in 0..1_000 {
            seed += 1;
            let o = Simulation::verdict(&Scenario::random_default(seed));
            events += o.steps;
            scenarios += 1;
        }
    }
    let secs = (now_ms() - start) / 1e3;
    console_log!(
        "wasm: {:.0} events/s, {:.0} checked scenarios/s ({} scenarios, {:.0} events each)",
        events as f64 / secs,
        scenarios as f64 / secs,
        scenarios,
        events as f64 / scenarios as f64
    );
    assert!(scenarios > 0);
}
