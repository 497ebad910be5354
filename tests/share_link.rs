//! Share links as untrusted input: arbitrary valid states round-trip through the link text,
//! and decoding arbitrary text never panics and always yields a state that is valid and
//! re-encodes to itself.
//!
//! `SHARE_FUZZ_CASES` raises the number of decode cases (`make fuzz` runs millions).

#![cfg(not(target_arch = "wasm32"))]

use std::time::Instant;

use lease_lab::lab::own_client::Language;
use lease_lab::lab::PolicySwitch;
use lease_lab::lesson::content::{ArchEdge, ArchNode, LeaseState};
use lease_lab::lesson::diagram::{ArchSelection, LifecycleSelection};
use lease_lab::model::scenario::LinkOverride;
use lease_lab::model::search::{FaultKind, SearchSpec, MAX_BUDGET, MAX_PLAN_FAULTS};
use lease_lab::model::{
    presets, ClientId, Fault, Fraction, NodeId, Scenario, SimDuration, SimTime, TimedFault,
};
use lease_lab::route::Tab;
use lease_lab::share::{
    decode, encode, LabLink, LinkState, SnippetCode, MAX_PROBLEMS_SHOWN, MAX_SELECTION_CHARS,
};
use proptest::prelude::*;
use proptest::strategy::ValueTree;
use proptest::test_runner::{Config, TestRunner};

/// How many presets there are, so every one of them can be drawn.
fn preset_count() -> usize {
    presets::presets().len()
}

fn preset_id(index: usize) -> &'static str {
    let all = presets::presets();
    all[index % all.len()].id
}

fn node(raw: u8, clients: u8) -> NodeId {
    match raw % 4 {
        0 => NodeId::Service,
        1 => NodeId::Storage,
        _ => NodeId::Client(ClientId(raw / 4 % clients)),
    }
}

fn other(a: NodeId, raw: u8, clients: u8) -> NodeId {
    let b = node(raw, clients);
    if b != a {
        b
    } else if a == NodeId::Service {
        NodeId::Storage
    } else {
        NodeId::Service
    }
}

/// A valid fault for a scenario of `clients` clients and `duration`, from raw numbers.
fn fault(raw: (u8, u64, u64, u8, u8, bool, i32), clients: u8, duration: u64) -> TimedFault {
    let (kind, at, amount, n1, n2, flag, ppm) = raw;
    let at = SimTime(at % (duration + 1));
    let length = SimDuration(amount % 86_400_000_001);
    let client = ClientId(n1 % clients);
    let a = node(n1, clients);
    let fault = match kind % 7 {
        0 => Fault::Pause {
            client,
            duration: length,
            in_write_path: flag,
        },
        1 => Fault::Partition {
            a,
            b: other(a, n2, clients),
            duration: length,
        },
        2 => Fault::DelayNextPacket {
            from: a,
            to: other(a, n2, clients),
            extra: length,
        },
        3 => Fault::ClockStep {
            node: a,
            by_micros: if flag {
                -(length.0 as i64)
            } else {
                length.0 as i64
            },
        },
        4 => Fault::ClockDrift {
            node: a,
            ppm: ppm % 100_001,
        },
        5 => Fault::Crash { client },
        _ => Fault::RevokeLease,
    };
    TimedFault { at, fault }
}

type RawFault = (u8, u64, u64, u8, u8, bool, i32);

fn raw_fault() -> impl Strategy<Value = RawFault> {
    (
        any::<u8>(),
        any::<u64>(),
        any::<u64>(),
        any::<u8>(),
        any::<u8>(),
        any::<bool>(),
        any::<i32>(),
    )
}

/// Any valid scenario: either a preset with switches flipped and faults added, or every
/// field drawn anew.
fn scenario() -> impl Strategy<Value = (Option<&'static str>, Scenario)> {
    let edited_preset = (
        0..preset_count(),
        any::<u8>(),
        proptest::collection::vec(raw_fault(), 0..4),
    )
        .prop_map(|(index, flips, faults)| {
            let id = preset_id(index);
            let mut s = presets::preset(id)
                .map(|p| p.scenario.clone())
                .unwrap_or_default();
            for (bit, switch) in PolicySwitch::ALL.into_iter().enumerate() {
                if flips & (1 << bit) != 0 {
                    switch.flip(&mut s.policy);
                }
            }
            let (clients, duration) = (s.clients, s.duration.0);
            s.faults
                .0
                .extend(faults.into_iter().map(|f| fault(f, clients, duration)));
            (Some(id), s)
        });
    let fields = (
        (
            any::<u64>(),
            2u8..=8,
            1u64..=3_600_000_000,
            10_000u64..=86_400_000_000,
        ),
        (
            1u32..1000,
            2u32..=1000,
            1u64..=86_400_000_000,
            10_000u64..=86_400_000_000,
        ),
        (
            10_000u64..=86_400_000_000,
            0u64..=60_000_000,
            0u64..=60_000_000,
            0u32..=1_000_000,
        ),
        (
            10_000u64..=86_400_000_000,
            any::<u64>(),
            0u64..=86_400_000_000,
            any::<u64>(),
        ),
        (any::<Option<u64>>(), any::<u8>(), any::<u64>()),
        proptest::collection::vec(raw_fault(), 0..12),
        proptest::collection::vec(
            (
                any::<u8>(),
                any::<u8>(),
                0u64..=60_000_000,
                0u64..=60_000_000,
                0u32..=1_000_000,
            ),
            0..4,
        ),
    );
    let drawn = (fields, proptest::option::of(0..preset_count())).prop_map(
        |(
            (
                (seed, clients, dur, ttl),
                (num, den, timeout, retry),
                (acquire, rtt, jitter, loss),
                (slice, margin, delay, token),
                (release, flips, stagger),
                faults,
                links,
            ),
            base,
        )| {
            let mut s = Scenario {
                seed,
                clients,
                duration: SimDuration(dur),
                ttl: SimDuration(ttl),
                renew_every: Fraction {
                    num: num % den.max(2),
                    den,
                },
                request_timeout: SimDuration(timeout),
                retry_interval: SimDuration(retry),
                acquire_retry: SimDuration(acquire),
                rtt: SimDuration(rtt),
                jitter: SimDuration(jitter),
                loss_ppm: loss,
                work_slice: SimDuration(slice),
                drift_margin: SimDuration(margin % ttl),
                lock_delay: SimDuration(delay),
                token_start: token % (u64::MAX / 2),
                client_stagger: SimDuration(stagger % 86_400_000_001),
                release_after: release.map(|r| SimDuration(1 + r % 86_400_000_000)),
                ..Scenario::default()
            };
            s.renew_every.num = s.renew_every.num.max(1);
            for (bit, switch) in PolicySwitch::ALL.into_iter().enumerate() {
                if flips & (1 << bit) != 0 {
                    switch.flip(&mut s.policy);
                }
            }
            s.links = links
                .into_iter()
                .map(|(n1, n2, rtt, jitter, loss_ppm)| {
                    let a = node(n1, clients);
                    LinkOverride {
                        a,
                        b: other(a, n2, clients),
                        rtt: SimDuration(rtt),
                        jitter: SimDuration(jitter),
                        loss_ppm,
                    }
                })
                .collect();
            s.faults.0 = faults.into_iter().map(|f| fault(f, clients, dur)).collect();
            (base.map(preset_id), s)
        },
    );
    prop_oneof![edited_preset, drawn]
        .prop_filter("valid scenarios only", |(_, s)| s.validate().is_ok())
}

fn code() -> impl Strategy<Value = Option<String>> {
    proptest::option::of(
        proptest::collection::vec(any::<char>(), 0..300).prop_map(|c| c.into_iter().collect()),
    )
}

/// Any valid counterexample search.
fn search() -> impl Strategy<Value = SearchSpec> {
    (
        any::<u64>(),
        proptest::sample::subsequence(FaultKind::ALL.to_vec(), 1..=FaultKind::ALL.len()),
        1..=MAX_PLAN_FAULTS,
        1..=MAX_BUDGET,
    )
        .prop_map(|(seed, kinds, max_faults, budget)| SearchSpec {
            seed,
            kinds,
            max_faults,
            budget,
        })
}

/// Every part of a diagram a link can select (the states, nodes and edges).
fn diagram_parts() -> Vec<String> {
    let states = LeaseState::ALL.map(|state| LifecycleSelection::State(state).id());
    let nodes = ArchNode::ALL.map(|node| ArchSelection::Node(node).id());
    let edges = ArchEdge::ALL.map(|edge| ArchSelection::Edge(edge).id());
    states.into_iter().chain(nodes).chain(edges).collect()
}

fn link_state() -> impl Strategy<Value = LinkState> {
    let lab = proptest::option::of(
        (
            scenario(),
            any::<u64>(),
            proptest::option::of(0..PolicySwitch::ALL.len()),
        )
            .prop_map(|((preset, scenario), t, compare)| LabLink {
                time: SimTime(t % (scenario.duration.0 + 1)),
                preset,
                scenario,
                compare: compare.map(|i| PolicySwitch::ALL[i]),
            }),
    );
    (
        0..Tab::ALL.len(),
        lab,
        proptest::option::of(proptest::sample::select(diagram_parts())),
        (code(), code(), proptest::option::of(0..Language::ALL.len())),
        proptest::option::of(search()),
    )
        .prop_map(
            |(tab, lab, selection, (python, typescript, client), search)| LinkState {
                tab: Tab::ALL[tab],
                lab,
                selection,
                snippets: SnippetCode {
                    python,
                    typescript,
                    client: client.map(|i| Language::ALL[i]),
                },
                search,
                live: None,
                challenge: None,
            },
        )
}

proptest! {
    #![proptest_config(Config { cases: 2_000, failure_persistence: None, ..Config::default() })]

    #[test]
    fn any_valid_state_round_trips_through_its_link(state in link_state()) {
        let link = encode(&state);
        let decoded = decode(&link);
        prop_assert_eq!(decoded.problems, Vec::<String>::new(), "{}", link);
        prop_assert_eq!(decoded.state, state);
    }
}

/// Pieces that look like link syntax, so random text reaches deep into the decoder.
const PIECES: &[&str] = &[
    "#/",
    "sandbox",
    "maps",
    "qa",
    "?",
    "&",
    "=",
    "v=1",
    "v=2",
    "preset=",
    "2",
    "8",
    "5a",
    "t=",
    "ttl=",
    "dur=",
    "renew=",
    "1/3",
    "/0",
    "loss=",
    "%",
    "%2",
    "%41",
    "%FF",
    "%E2%80",
    "fault=",
    "faults=none",
    "pause:",
    "pause-write:",
    "partition:",
    "delay:",
    "step:",
    "drift:",
    "crash:",
    "revoke",
    "A",
    "B",
    "Z",
    "service",
    "storage",
    "-",
    "+",
    "@",
    ":",
    "s",
    "ms",
    "us",
    "ppm",
    ".",
    "0",
    "1",
    "9",
    "99999999999999999999",
    "NaN",
    "inf",
    "-1",
    "1e9",
    "fencing=",
    "on",
    "off",
    "compare=",
    "trust-flag",
    "sel=",
    "py=",
    "ts=",
    "QUJD",
    "<script>alert(1)</script>",
    "\"'><img src=x onerror=alert(1)>",
    "é",
    "\u{0}",
    "\n",
    "embed",
    "theme=dark",
    "clients=",
    "seed=",
    "release=never",
    "token=",
    "link=",
    "links=none",
    "A-service/",
    "200ms/",
    "0.5%",
];

/// A small seeded generator (xorshift64*), so the many decode cases cost almost nothing to
/// draw; a failure prints the seed and the text.
struct Draw(u64);

impl Draw {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: usize) -> usize {
        (self.next() % n.max(1) as u64) as usize
    }

    /// Link-like pieces glued together.
    fn pieces(&mut self) -> String {
        (0..self.below(40))
            .map(|_| PIECES[self.below(PIECES.len())])
            .collect()
    }

    /// Any bytes, made into text.
    fn bytes(&mut self) -> String {
        let bytes: Vec<u8> = (0..self.below(200)).map(|_| self.next() as u8).collect();
        String::from_utf8_lossy(&bytes).into_owned()
    }

    /// A valid link with a few bytes inserted, replaced or removed, maybe cut short.
    fn mutated(&mut self, links: &[String]) -> String {
        let mut bytes = links[self.below(links.len())].clone().into_bytes();
        for _ in 0..1 + self.below(5) {
            let at = self.below(bytes.len() + 1);
            let byte = (self.next() % 0x80) as u8;
            match self.below(3) {
                0 => bytes.insert(at, byte),
                1 if at < bytes.len() => bytes[at] = byte,
                _ if at < bytes.len() => {
                    bytes.remove(at);
                }
                _ => {}
            }
        }
        let cut = self.below(bytes.len() / 4 + 1);
        bytes.truncate(bytes.len() - cut);
        String::from_utf8_lossy(&bytes).into_owned()
    }
}

/// Valid links to mutate, drawn once from the same strategy as the round trip.
fn valid_links() -> Vec<String> {
    let mut runner = TestRunner::deterministic();
    let states = link_state();
    (0..64)
        .filter_map(|_| states.new_tree(&mut runner).ok())
        .map(|tree| encode(&tree.current()))
        .collect()
}

/// Decodes `text` and checks what must hold of any result.
fn check_decoded(text: &str) -> Result<(), String> {
    let decoded = decode(text);
    let fail = |what: &str| Err(format!("{what}: {decoded:?}"));
    if decoded.problems.len() > MAX_PROBLEMS_SHOWN + 1 {
        return fail("too many problems");
    }
    if decoded
        .problems
        .iter()
        .any(|p| p.chars().any(char::is_control))
    {
        return fail("a control character in a problem");
    }
    if let Some(lab) = &decoded.state.lab {
        if lab.scenario.validate().is_err() || lab.time.0 > lab.scenario.duration.0 {
            return fail("an invalid lab");
        }
    }
    if let Some(selection) = &decoded.state.selection {
        if selection.len() > MAX_SELECTION_CHARS || selection.contains(['<', '>', '"', '\'', '&']) {
            return fail("an unsafe selection");
        }
    }
    let again = decode(&encode(&decoded.state));
    if !again.problems.is_empty() || again.state != decoded.state {
        return fail("the decoded state does not re-encode to itself");
    }
    Ok(())
}

#[test]
fn decoding_any_text_never_panics_and_yields_a_valid_state() {
    let number = |name: &str, default: u64| {
        std::env::var(name)
            .ok()
            .and_then(|n| n.parse().ok())
            .unwrap_or(default)
    };
    let cases = number("SHARE_FUZZ_CASES", 100_000);
    let seed = number("SHARE_FUZZ_SEED", 0x1ea5_e1ab) | 1;
    let links = valid_links();
    let mut draw = Draw(seed);
    let started = Instant::now();
    for case in 0..cases {
        let text = match draw.below(8) {
            0..=3 => draw.pieces(),
            4..=6 => draw.bytes(),
            _ => draw.mutated(&links),
        };
        let outcome = std::panic::catch_unwind(|| check_decoded(&text));
        match outcome {
            Ok(Ok(())) => {}
            Ok(Err(why)) => panic!("case {case} (seed {seed}): {text:?}: {why}"),
            Err(_) => panic!("case {case} (seed {seed}): decoding {text:?} panicked"),
        }
    }
    let seconds = started.elapsed().as_secs_f64();
    eprintln!(
        "decoded {cases} links in {seconds:.1} s ({:.0} links/s), seed {seed}",
        cases as f64 / seconds
    );
}
