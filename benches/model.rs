//! Model speed, natively: events per second and checked 60-second scenarios per second
//! (default parameters, random fault plans, the independent observer on, no trace): the
//! path the counterexample search runs, `Simulation::verdict`. Goal: ≥ 100,000 checked
//! 60-s plans/s on one core.
//! `scripts/bench.sh` compares the summary line with the wasm measurement.
//! The benchmark runs natively only; on wasm32 (linted with --all-targets) it is empty.

fn main() {
    #[cfg(not(target_arch = "wasm32"))]
    native::run();
}

#[cfg(not(target_arch = "wasm32"))]
mod native {
    use lease_lab::model::search::{search_block, FaultKind, SearchSpec};
    use lease_lab::model::{
        presets, Fault, FaultPlan, Recording, RunQuestions, Scenario, SimDuration, SimTime,
        Simulation, TimedFault,
    };
    use std::hint::black_box;
    use std::time::Instant;

    pub fn run() {
        if let Ok(work) = std::env::var("MODEL_BENCH_WORK") {
            fixed_work(&work);
            return;
        }
        divan::main();
        summary();
        search_summary();
    }

    /// A fixed amount of work and nothing else, for counting instructions under callgrind
    /// (repeatable where wall-clock rates on a shared machine are not):
    /// `MODEL_BENCH_WORK=scenarios` runs checked 60-s scenarios of seeds 1..=2,000,
    /// `MODEL_BENCH_WORK=search` the search's plans 0..2,048 in blocks of 512, as a worker does.
    fn fixed_work(work: &str) {
        match work {
            "scenarios" => {
                let steps: u64 = (1..=2_000u64)
                    .map(|seed| Simulation::verdict(&Scenario::random_default(seed)).steps)
                    .sum();
                println!("2000 checked scenarios, {steps} steps");
            }
            "search" => {
                let (base, spec) = search_spec(2_048);
                for from in (0..2_048).step_by(512) {
                    let (_, found) = search_block(&base, &spec, from, from + 512);
                    assert!(found.is_none(), "Prefer with fencing broke a check");
                }
                println!("2048 checked search plans");
            }
            other => panic!("MODEL_BENCH_WORK is scenarios or search, not {other:?}"),
        }
    }

    /// One checked 60-second scenario per iteration, a different random fault plan each time
    /// (`Simulation::verdict`: observer on, no trace).
    #[divan::bench]
    fn checked_60s_scenario(bencher: divan::Bencher) {
        let mut seed = 0u64;
        bencher
            .counter(divan::counter::ItemsCount::new(1usize))
            .bench_local(|| {
                seed += 1;
                black_box(Simulation::verdict(&Scenario::random_default(black_box(
                    seed,
                ))))
            });
    }

    /// A 60-second scenario with the full trace recorded (what the sandbox does when seeking).
    #[divan::bench]
    fn traced_60s_scenario(bencher: divan::Bencher) {
        let mut seed = 0u64;
        bencher.bench_local(|| {
            seed += 1;
            black_box(Simulation::run(&Scenario::random_default(black_box(seed))).trace_hash())
        });
    }

    /// A fault-free 10-minute default scenario re-simulated with its full trace, as a scrub to a
    /// late time does (about 3,600 steps).
    #[divan::bench]
    fn traced_10min_scenario(bencher: divan::Bencher) {
        let s = Scenario {
            duration: SimDuration::from_secs(600),
            ..Scenario::default()
        };
        bencher.bench_local(|| black_box(Simulation::run(black_box(&s)).events().len()));
    }

    /// An hour-long run recorded as the sandbox keeps it (`Recording`: checkpoints and the
    /// timeline's overview, failovers included): eight clients contending, the holder's
    /// lease revoked every 450 s so it passes to the next, about 100,000 events.
    #[divan::bench]
    fn recorded_1h_scenario(bencher: divan::Bencher) {
        let revokes = (1..=7).map(|k| TimedFault {
            at: SimTime::from_secs(450 * k),
            fault: Fault::RevokeLease,
        });
        let s = Scenario {
            clients: 8,
            duration: SimDuration::from_secs(3_600),
            faults: FaultPlan(revokes.collect()),
            ..Scenario::default()
        };
        bencher.bench_local(|| black_box(Recording::of(black_box(&s)).event_count()));
    }

    /// CPU time this thread has run, in seconds, from /proc (Linux); `None` elsewhere. On a
    /// shared machine wall time also counts the time other processes held the core.
    fn thread_cpu_secs() -> Option<f64> {
        let s = std::fs::read_to_string("/proc/thread-self/schedstat").ok()?;
        let ns: f64 = s.split_whitespace().next()?.parse().ok()?;
        Some(ns / 1e9)
    }

    /// A fixed-length measurement in the same units as the wasm harness, for the ratio.
    fn summary() {
        let cpu0 = thread_cpu_secs();
        let mut seed = 0u64;
        let mut events = 0u64;
        let mut scenarios = 0u64;
        let start = Instant::now();
        while start.elapsed().as_secs_f64() < 2.0 {
            for _ in 0..1_000 {
                seed += 1;
                let o = Simulation::verdict(&Scenario::random_default(seed));
                events += o.steps;
                scenarios += 1;
            }
        }
        let wall = start.elapsed().as_secs_f64();
        let cpu = match (cpu0, thread_cpu_secs()) {
            (Some(a), Some(b)) if b > a => b - a,
            _ => wall,
        };
        println!(
            "native: {:.0} events/s, {:.0} checked scenarios/s per CPU-second \
             ({scenarios} scenarios, {:.0} events each; wall-clock rate {:.0}/s, CPU share {:.0} %)",
            events as f64 / cpu,
            scenarios as f64 / cpu,
            events as f64 / scenarios as f64,
            scenarios as f64 / wall,
            100.0 * cpu / wall
        );
    }

    /// The counterexample search's workload, as `scripts/search-bench.mjs` runs it in the
    /// page's workers: preset 1 (Prefer, fencing on), every fault kind, at most 3 faults per
    /// plan, seed 1; nothing breaks, so every plan runs to its end with all checks on.
    fn search_spec(budget: u64) -> (Scenario, SearchSpec) {
        let base = presets::preset("1").expect("preset 1").scenario.clone();
        let spec = SearchSpec {
            seed: 1,
            kinds: FaultKind::ALL.to_vec(),
            max_faults: 3,
            budget,
        };
        (base, spec)
    }

    /// Checked search plans per second on this one core, in blocks like a worker's.
    fn search_summary() {
        let (base, spec) = search_spec(u64::MAX >> 1);
        let cpu0 = thread_cpu_secs();
        let start = Instant::now();
        let mut plans = 0u64;
        while start.elapsed().as_secs_f64() < 2.0 {
            let (tried, found) = search_block(&base, &spec, plans, plans + 512);
            assert!(found.is_none(), "Prefer with fencing broke a check");
            plans += tried;
        }
        let wall = start.elapsed().as_secs_f64();
        let cpu = match (cpu0, thread_cpu_secs()) {
            (Some(a), Some(b)) if b > a => b - a,
            _ => wall,
        };
        println!(
            "native search: {:.0} checked plans/s on one core (wall clock; {:.0} per CPU-second, {plans} plans)",
            plans as f64 / wall,
            plans as f64 / cpu
        );
    }
}
