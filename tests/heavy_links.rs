//! Links whose every value passes validation but whose run is heavy (hour-long, a 10 ms
//! work slice, eight clients, jitter, loss, faults, a comparison): opening one does only
//! bounded work before the page answers. Each generated link goes through what the page
//! does on load: decode and validate, build the lab (its first simulation slice, the main
//! run and the comparison), one more slice, and the first render's questions at the cursor.
//! Nothing may panic; the worst time per link is reported.
//!
//! `HEAVY_FUZZ_CASES` sets the number of links (`make fuzz-heavy` runs a million) and
//! `HEAVY_FUZZ_SEED` the seed; the seed printed reproduces a run.

#![cfg(not(target_arch = "wasm32"))]

use std::time::{Duration, Instant};

use lease_lab::lab::{Lab, LabAction, PolicySwitch, FIRST_SLICE_EVENTS};
use lease_lab::model::RunQuestions;
use lease_lab::share::decode;

/// xorshift64*: a tiny deterministic generator, so a seed reproduces a run.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n.max(1)
    }
    fn pick<'a>(&mut self, from: &[&'a str]) -> &'a str {
        from[self.below(from.len() as u64) as usize]
    }
    /// A time, mostly in range and often at its heavy end.
    fn time(&mut self, heavy_ms: u64) -> String {
        match self.below(6) {
            0 => format!("{}ms", 10 + self.below(40)),
            1 => format!("{}s", self.below(3_601)),
            2 => format!("{}us", self.below(10_000_000)),
            3 => format!("{}.{}s", self.below(100), self.below(1000)),
            _ => format!("{heavy_ms}ms"),
        }
    }
    /// One `key=value` field.
    fn field(&mut self) -> String {
        let switches: Vec<&str> = PolicySwitch::ALL.iter().map(|s| s.slug()).collect();
        match self.below(16) {
            0 | 1 => format!("dur={}", self.time(3_600_000)),
            2 | 3 => format!("slice={}", self.time(10)),
            4 => format!("clients={}", 2 + self.below(7)),
            5 => format!("jitter={}", self.time(3)),
            6 => format!("loss={}.{}%", self.below(20), self.below(10)),
            7 => format!("ttl={}", self.time(30)),
            8 => format!("retry={}", self.time(10)),
            9 => format!("acquire={}", self.time(10)),
            10 => format!("t={}", self.time(3_000_000)),
            11 => format!("compare={}", self.pick(&switches)),
            12 => format!("{}={}", self.pick(&switches), self.pick(&["on", "off"])),
            13 => format!("seed={}", self.next()),
            14 => format!(
                "fault={}:{}@{}s+{}s",
                self.pick(&[
                    "pause",
                    "partition",
                    "crash",
                    "step",
                    "drift",
                    "delay",
                    "revoke"
                ]),
                self.pick(&["A", "B", "C", "H", "service", "storage"]),
                self.below(3_600),
                self.below(60)
            ),
            _ => format!(
                "preset={}",
                self.pick(&["1", "2", "2-unfenced", "3", "4", "5a", "6", "7", "8", "9"])
            ),
        }
    }
    /// A sandbox link of a few fields, heavy values likely.
    fn link(&mut self) -> String {
        let fields: Vec<String> = (0..1 + self.below(9)).map(|_| self.field()).collect();
        format!("#/sandbox?v=1&{}", fields.join("&"))
    }
}

/// What the page does with a link before it first answers, and one more slice; true if
/// the run was too long to simulate at once.
fn open(link: &str) -> bool {
    let Some(lab_link) = decode(link).state.lab else {
        return false;
    };
    assert!(
        lab_link.scenario.validate().is_ok(),
        "{link}: an invalid lab"
    );
    let lab = Lab::opened(
        lab_link.scenario.clone(),
        lab_link.preset_label(),
        lab_link.compare,
        lab_link.time,
    );
    let long = lab.simulating().is_some();
    if let Some(progress) = lab.simulating() {
        // The main run and the comparison, a slice each, and at most a step's events more.
        let bound = 2 * FIRST_SLICE_EVENTS + 64;
        assert!(
            progress.events <= bound,
            "{link}: {} events at once",
            progress.events
        );
    }
    let lab = lab
        .apply(LabAction::Simulate { max_events: 10_000 })
        .unwrap_or(lab);
    let run = lab.run();
    let now = lab.now().min(run.end());
    let _ = run.state_at(now);
    let _ = run.events_before(now, 60);
    let _ = run.writes_before(now, 40);
    let _ = run.packets_before(now, 12);
    let _ = run.losses_before(now, 6);
    let _ = run.next_event_after(now);
    long
}

#[test]
fn heavy_links_do_bounded_work_and_never_panic() {
    let number = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(default)
    };
    let cases = number("HEAVY_FUZZ_CASES", 300);
    let seed = number("HEAVY_FUZZ_SEED", 0x4ea7_7e11) | 1;
    let mut draw = Draw(seed);
    let started = Instant::now();
    let mut worst = (Duration::ZERO, String::new());
    let mut long = 0;
    for case in 0..cases {
        let link = draw.link();
        let began = Instant::now();
        match std::panic::catch_unwind(|| open(&link)) {
            Ok(was_long) => long += usize::from(was_long),
            Err(_) => panic!("case {case} (seed {seed}): opening {link:?} panicked"),
        }
        let took = began.elapsed();
        if took > worst.0 {
            worst = (took, link);
        }
    }
    assert!(long > 0, "some links are too long to simulate at once");
    eprintln!(
        "opened {cases} heavy links ({long} too long to simulate at once) in {:.1} s, \
         seed {seed}; the worst took {:.1} ms: {}",
        started.elapsed().as_secs_f64(),
        worst.0.as_secs_f64() * 1e3,
        worst.1
    );
}
