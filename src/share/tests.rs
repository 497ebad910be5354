//! Field-by-field tests of the link format: what each key reads, and what each bad value says.

use super::values::base64url;
use super::*;
use crate::lab::LabAction;
use crate::model::{ClientId, Fault, NodeId, RunQuestions, SimDuration, TimedFault};

fn lab_of(fragment: &str) -> (LabLink, Vec<String>) {
    let decoded = decode(fragment);
    (
        decoded.state.lab.expect("the link carries a lab"),
        decoded.problems,
    )
}

fn only_problem(fragment: &str) -> String {
    let problems = decode(fragment).problems;
    assert_eq!(problems.len(), 1, "{fragment}: {problems:?}");
    problems.into_iter().next().unwrap_or_default()
}

#[test]
fn the_example_link_reads_as_written() {
    let (lab, problems) = lab_of(
        "#/sandbox?v=1&preset=2&t=17.5s&fencing=off&fault=pause:B@20s+5s&compare=trust-flag",
    );
    assert_eq!(problems, Vec::<String>::new());
    let mut expected = presets::preset("2").unwrap().scenario.clone();
    expected.policy.fencing = false;
    expected.faults.0.push(TimedFault {
        at: SimTime::from_secs(20),
        fault: Fault::Pause {
            client: ClientId::B,
            duration: SimDuration::from_secs(5),
            in_write_path: false,
        },
    });
    assert_eq!(lab.preset, Some("2"));
    assert_eq!(lab.scenario, expected);
    assert_eq!(lab.time, SimTime::from_millis(17_500));
    assert_eq!(lab.compare, Some(PolicySwitch::TrustFlagOnly));
}

#[test]
fn every_preset_is_a_short_link() {
    for preset in presets::presets() {
        let state = LinkState {
            tab: Tab::Sandbox,
            lab: Some(LabLink {
                preset: Some(preset.id),
                scenario: preset.scenario.clone(),
                time: SimTime::ZERO,
                compare: None,
            }),
            ..LinkState::default()
        };
        let link = encode(&state);
        assert_eq!(link, format!("#/sandbox?v=1&preset={}&t=0s", preset.id));
        assert_eq!(
            decode(&link),
            Decoded {
                state,
                problems: vec![]
            }
        );
    }
}

#[test]
fn an_edited_lab_is_written_against_its_closest_preset() {
    let mut scenario = presets::preset("8").unwrap().scenario.clone();
    scenario.ttl = SimDuration::from_secs(12);
    let lab = Lab::with_scenario(scenario, None);
    let link = LabLink::of(&lab);
    assert_eq!(link.preset, Some("8"));
    let state = LinkState {
        tab: Tab::Sandbox,
        lab: Some(link),
        ..LinkState::default()
    };
    assert_eq!(encode(&state), "#/sandbox?v=1&preset=8&t=0s&ttl=12s");
}

#[test]
fn links_written_apart_show_the_same_lab_when_their_scenario_time_and_comparison_agree() {
    let (short, _) = lab_of("#/sandbox?v=1&preset=8");
    let (as_the_lab_writes_it, _) = lab_of("#/sandbox?v=1&preset=8&t=0s");
    let (unfenced, _) = lab_of("#/sandbox?v=1&preset=8-unfenced");
    let (switched_off, _) = lab_of("#/sandbox?v=1&fencing=off&preset=8");
    assert!(short.shows_same(&as_the_lab_writes_it));
    assert_ne!(unfenced.preset, switched_off.preset);
    assert!(unfenced.shows_same(&switched_off));
    let (later, _) = lab_of("#/sandbox?v=1&preset=8&t=1s");
    let (compared, _) = lab_of("#/sandbox?v=1&preset=8&compare=fencing");
    assert!(!short.shows_same(&later));
    assert!(!short.shows_same(&compared));
    assert!(!short.shows_same(&unfenced));
}

#[test]
fn a_link_restores_the_same_run_at_the_same_time() {
    let lab = Lab::from_preset("3")
        .unwrap()
        .apply(LabAction::FlipSwitch(PolicySwitch::Fencing))
        .and_then(|l| {
            l.apply(LabAction::AddFault(TimedFault {
                at: SimTime::from_secs(20),
                fault: Fault::Crash {
                    client: ClientId::B,
                },
            }))
        })
        .and_then(|l| l.apply(LabAction::SetCompare(Some(PolicySwitch::TrustFlagOnly))))
        .and_then(|l| l.apply(LabAction::Seek(SimTime::from_millis(17_250))))
        .unwrap();
    let state = LinkState {
        tab: Tab::Sandbox,
        lab: Some(LabLink::of(&lab)),
        ..LinkState::default()
    };
    let link = decode(&encode(&state)).state.lab.unwrap();
    let restored = Lab::opened(
        link.scenario.clone(),
        link.preset_label(),
        link.compare,
        link.time,
    );
    assert_eq!(restored.run().trace_hash(), lab.run().trace_hash());
    assert_eq!(restored.now(), lab.now());
    assert_eq!(
        restored.compare().map(|c| c.run.trace_hash()),
        lab.compare().map(|c| c.run.trace_hash())
    );
    assert_eq!(restored.preset(), None);
}

#[test]
fn each_scenario_field_reads_its_own_syntax() {
    let (lab, problems) = lab_of(
        "#/sandbox?v=1&seed=42&clients=3&dur=45s&ttl=12s&renew=2/15&timeout=800ms&retry=2s\
         &acquire=1.5s&rtt=40ms&jitter=5ms&loss=0.5%&slice=250ms&margin=1s&lockdelay=15s\
         &token=100&stagger=50ms&release=20s&wall-timers=on&service-wall=on\
         &link=C-service/200ms/5ms/1%",
    );
    assert_eq!(problems, Vec::<String>::new());
    let s = &lab.scenario;
    assert_eq!((s.seed, s.clients, s.token_start), (42, 3, 100));
    assert_eq!(s.duration, SimDuration::from_secs(45));
    assert_eq!((s.renew_every.num, s.renew_every.den), (2, 15));
    assert_eq!(s.request_timeout, SimDuration::from_millis(800));
    assert_eq!(s.acquire_retry, SimDuration::from_millis(1_500));
    assert_eq!(s.loss_ppm, 5_000);
    assert_eq!(s.release_after, Some(SimDuration::from_secs(20)));
    assert_eq!(s.links.len(), 1);
    assert_eq!(s.links[0].b, NodeId::Service);
    assert_eq!(s.links[0].loss_ppm, 10_000);
    assert!(s.policy.wall_clock_timers);
    assert_eq!(s.policy.service_expiry, crate::model::ClockKind::Wall);
    assert_eq!(lab.preset, None);
}

#[test]
fn a_bad_field_names_itself_and_falls_back_to_the_base_scenario() {
    let cases = [
        ("ttl=abc", "This link's TTL (\u{201c}abc\u{201d}) is not a number; showing the scenario of preset 2 instead."),
        ("ttl=-5s", "This link's TTL (\u{201c}-5s\u{201d}) is negative; showing the scenario of preset 2 instead."),
        ("ttl=NaN", "is not a number"),
        ("seed=99999999999999999999999", "seed (\u{201c}99999999999999999999999\u{201d}) is too large"),
        ("clients=300", "number of clients (\u{201c}300\u{201d}) is too large"),
        ("renew=1/0", "This link's renewal fraction (\u{201c}1/0\u{201d}) is not a fraction such as 1/3;"),
        ("clients=9", "does not hold together (Clients: 9 is not between 2 and 8)"),
        ("fencing=maybe", "policy switch \u{201c}fencing\u{201d} (\u{201c}maybe\u{201d}) should be on or off"),
        ("fault=pause:A@2s-15s", "This link's fault plan has a stop-the-world pause with a negative duration (\u{201c}pause:A@2s-15s\u{201d}); showing the scenario of preset 2 instead."),
        ("fault=pause:C@2s+1s", "does not hold together (Faults: the stop-the-world pause at 2.000 s names a node this scenario does not have (its clients are A to B, besides the lock service))"),
        ("fault=crash:A@99s", "a fault at 99.000 s is after the end"),
        ("dur=1e3", "run length (\u{201c}1e3\u{201d}) is not a number"),
        ("loss=150%", "does not hold together (Packet loss: 150% is not between 0% and 100%)"),
        ("margin=20s", "Drift margin: 20.000 s is not shorter than the lease TTL of 10.000 s;"),
        ("link=A-service/200ms", "network has a link override not written as ends/rtt/jitter/loss"),
        ("link=A-C/1s/0s/0%", "does not hold together (Network links: a link names an unknown node"),
        (
            "link=A-service/200ms/5ms/0.5%25&link=service-A/1ms/0ms/0%25",
            "(Network links: the link service-A is set twice (either way round); keep one)",
        ),
    ];
    let base = presets::preset("2").unwrap().scenario.clone();
    for (field, expected) in cases {
        let (lab, problems) = lab_of(&format!("#/sandbox?v=1&preset=2&t=3s&{field}"));
        assert_eq!(problems.len(), 1, "{field}: {problems:?}");
        assert!(problems[0].contains(expected), "{field}: {}", problems[0]);
        assert!(
            problems[0].ends_with("showing the scenario of preset 2 instead."),
            "{field}"
        );
        assert_eq!(lab.scenario, base, "{field}");
        assert_eq!(
            lab.time,
            SimTime::from_secs(3),
            "{field}: the time still applies"
        );
    }
}

#[test]
fn every_field_out_of_range_is_named_not_just_the_first() {
    let (lab, problems) = lab_of("#/sandbox?v=1&preset=2&clients=9&renew=7/3&loss=150%");
    let named: Vec<bool> = ["Clients: 9", "Renew every: ", "Packet loss: 150%"]
        .iter()
        .map(|field| problems.iter().any(|p| p.contains(field)))
        .collect();
    assert_eq!(named, [true, true, true], "{problems:?}");
    assert_eq!(problems.len(), 3, "{problems:?}");
    assert_eq!(lab.scenario, presets::preset("2").unwrap().scenario);
    // A problem between fields is told once the fields themselves are in range.
    let problems = lab_of("#/sandbox?v=1&preset=2&margin=20s&clients=9").1;
    assert_eq!(problems.len(), 1, "{problems:?}");
    assert!(problems[0].contains("Clients: 9"), "{problems:?}");
}

#[test]
fn time_compare_and_preset_fall_back_on_their_own() {
    assert_eq!(
        only_problem("#/sandbox?v=1&preset=2&t=31s"),
        "This link's time (\u{201c}31s\u{201d}) is after the end of the run (30.000 s); starting at 0 s instead."
    );
    assert!(only_problem("#/sandbox?v=1&preset=2&t=inf").contains("is not a number"));
    assert!(only_problem("#/sandbox?v=1&preset=2&compare=ntp")
        .contains("compares with a switch \u{201c}ntp\u{201d} that does not exist"));
    let decoded = decode("#/sandbox?v=1&preset=99&ttl=3s");
    assert_eq!(decoded.state.lab, None);
    assert_eq!(decoded.problems.len(), 1);
    assert!(decoded.problems[0].contains("preset \u{201c}99\u{201d} that does not exist"));
}

#[test]
fn versions_tabs_unknown_and_repeated_fields_are_explained() {
    let decoded = decode("#/sandbox?v=2&preset=2");
    assert_eq!(
        decoded.state,
        LinkState {
            tab: Tab::Sandbox,
            ..LinkState::default()
        }
    );
    assert!(decoded.problems[0].contains("format version \u{201c}2\u{201d}"));
    assert!(only_problem("#/nowhere").contains("tab \u{201c}nowhere\u{201d}"));
    assert!(only_problem("#/sandbox?v=1&colour=red").contains("field \u{201c}colour\u{201d}"));
    assert!(only_problem("#/sandbox?v=1&ttl=5s&ttl=6s").contains("more than once"));
    assert!(only_problem("#/sandbox?v=1&faults=all").contains("faults=none"));
    assert_eq!(
        decode("#/sandbox?preset=4").problems,
        Vec::<String>::new(),
        "v defaults to 1"
    );
    assert_eq!(decode("").problems, Vec::<String>::new());
    assert_eq!(
        decode("#/qa?embed&theme=dark").problems,
        Vec::<String>::new()
    );
    assert_eq!(decode("#/qa?embed").state.lab, None);
}

#[test]
fn faults_none_replaces_the_plan_and_faults_add_in_order() {
    let (lab, problems) =
        lab_of("#/sandbox?v=1&preset=8&faults=none&fault=revoke@2s&fault=delay:B-storage@1s+3s");
    assert!(problems.is_empty(), "{problems:?}");
    assert_eq!(lab.scenario.faults.0.len(), 2);
    assert_eq!(lab.scenario.faults.0[0].fault, Fault::RevokeLease);
    assert_eq!(
        lab.scenario.faults.0[1].fault,
        Fault::DelayNextPacket {
            from: NodeId::Client(ClientId::B),
            to: NodeId::Storage,
            extra: SimDuration::from_secs(3),
        }
    );
    let state = LinkState {
        tab: Tab::Sandbox,
        lab: Some(lab),
        ..LinkState::default()
    };
    assert_eq!(decode(&encode(&state)).state, state);
}

#[test]
fn snippets_and_selection_are_carried_as_text() {
    let code = "print('<script>alert(1)</script> & é')\n";
    let state = LinkState {
        tab: Tab::Maps,
        lab: None,
        selection: Some("architecture.edge.renew".to_owned()),
        snippets: SnippetCode {
            python: Some(code.to_owned()),
            typescript: None,
            client: Some(crate::lab::own_client::Language::Python),
        },
        search: None,
        live: None,
        challenge: None,
    };
    let link = encode(&state);
    assert!(!link.contains(['<', '>', '\'', ' ']), "{link}");
    assert_eq!(
        decode(&link),
        Decoded {
            state,
            problems: vec![]
        }
    );
    assert!(only_selection_problem("v=1&sel=%3Cimg%20src%3Dx%3E")
        .contains("\u{201c}<img src=x>\u{201d}"));
    assert!(only_problem("#/sandbox?v=1&py=%%%").contains("Python code could not be decoded"));
    assert!(only_problem("#/sandbox?v=1&client=cobol").contains("\u{201c}cobol\u{201d}"));
    let huge = base64url(&vec![b'#'; MAX_SNIPPET_BYTES + 1]);
    assert!(only_problem(&format!("#/sandbox?v=1&ts={huge}")).contains("code is too long to read"));
    // Longer code than a plain field holds travels deflated, and comes back whole.
    let long = LinkState {
        snippets: SnippetCode {
            python: Some("print('still holding')\n".repeat(700)),
            typescript: None,
            client: None,
        },
        ..LinkState::default()
    };
    let link = encode(&long);
    assert!(link.starts_with("#/gist?v=1&pyz="), "{link}");
    assert_eq!(decode(&link).state.snippets, long.snippets);
    assert!(long.left_out().is_empty());
    // Code that deflate cannot bring under the cap is left out, and said to be.
    let mut state = 0x2545_f491_u32;
    let noise: String = (0..30_000)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 17;
            state ^= state << 5;
            char::from(b'!' + (state % 90) as u8)
        })
        .collect();
    let too_long = LinkState {
        snippets: SnippetCode {
            python: Some(noise),
            typescript: None,
            client: None,
        },
        ..LinkState::default()
    };
    assert_eq!(encode(&too_long), "#/gist?v=1");
    assert_eq!(too_long.left_out().len(), 1);
}

#[test]
fn huge_links_and_floods_of_fields_are_capped() {
    let huge = format!("#/sandbox?v=1&py={}", "A".repeat(MAX_LINK_CHARS));
    let decoded = decode(&huge);
    assert_eq!(decoded.state.tab, Tab::Sandbox);
    assert_eq!(decoded.state.snippets, SnippetCode::default());
    assert!(decoded.problems[0].contains("characters long"));
    let flood = format!("#/sandbox?v=1{}", "&x=1".repeat(1_000));
    let problems = decode(&flood).problems;
    assert_eq!(problems.len(), MAX_PROBLEMS_SHOWN + 1);
    assert!(
        problems[MAX_PROBLEMS_SHOWN].starts_with("…and "),
        "{problems:?}"
    );
    let faults = format!("#/sandbox?v=1{}", "&fault=revoke@1s".repeat(300));
    assert!(decode(&faults).problems[0].contains("more than 256 faults"));
}

#[test]
fn quoted_link_text_is_short_and_has_no_control_characters() {
    let problem =
        only_problem("#/sandbox?v=1&ttl=%0A%1B[31m0123456789012345678901234567890123456789");
    assert!(!problem.chars().any(char::is_control), "{problem:?}");
    assert!(problem.contains('…'));
}

/// The one sentence the shell says about a query's selection.
fn only_selection_problem(query: &str) -> String {
    let (selection, problems) = selection_of(query);
    assert_eq!(selection, None, "{query}");
    assert_eq!(problems.len(), 1, "{query}: {problems:?}");
    problems[0].clone()
}

#[test]
fn a_selection_that_names_no_part_of_a_diagram_is_named_by_the_shell() {
    assert!(only_selection_problem("v=1&sel=lifecycle.nope").contains("the diagram does not have"));
    assert!(only_selection_problem("v=1&sel=architecture.edge.x")
        .contains("\u{201c}architecture.edge.x\u{201d}"));
    assert!(
        only_selection_problem("embed=diagram&diagram=lifecycle&sel=holdin")
            .contains("\u{201c}holdin\u{201d}")
    );
    assert!(only_selection_problem("v=1&sel=%3Cimg%3E").contains("not a valid name"));
    assert!(only_selection_problem("v=1&sel=%E0%A4").contains("not a valid name"));
    for id in [
        "lifecycle.holding",
        "architecture.edge.renew",
        "lifecycle.holding-renew_result",
    ] {
        assert_eq!(
            selection_of(&format!("v=1&sel={id}")),
            (Some(id.to_owned()), Vec::new())
        );
        let decoded = decode(&format!("#/maps?v=1&sel={id}"));
        assert_eq!(decoded.problems, Vec::<String>::new(), "{id}");
        assert_eq!(decoded.state.selection.as_deref(), Some(id));
    }
    // The lab's own reading stays quiet about it: the notice says it once.
    assert_eq!(
        decode("#/maps?v=1&sel=lifecycle.nope").problems,
        Vec::<String>::new()
    );
}

#[test]
fn a_search_rides_along_with_the_lab_and_a_bad_one_leaves_the_lab_alone() {
    let link = "#/sandbox?v=1&preset=2-unfenced&t=20.14s&search=7/pause.pause-write/2/20000";
    let decoded = decode(link);
    assert_eq!(decoded.problems, Vec::<String>::new());
    let spec = decoded.state.search.clone().expect("the search");
    assert_eq!((spec.seed, spec.max_faults, spec.budget), (7, 2, 20_000));
    assert_eq!(decode(&encode(&decoded.state)).state, decoded.state);
    let (lab, _) = lab_of("#/sandbox?v=1&preset=2-unfenced&search=7/wobble/2/20000");
    assert_eq!(lab.preset, Some("2-unfenced"));
    let problem = only_problem("#/sandbox?v=1&preset=2-unfenced&search=7/wobble/2/20000");
    assert!(problem.contains("search"), "{problem}");
    assert_eq!(decode("#/sandbox?v=1&search=7/pause/2/10").state.lab, None);
}

#[test]
fn the_shell_and_the_lab_rebuild_a_link_from_their_own_parts() {
    let state = decode(
        "#/maps?v=1&preset=4&t=2.5s&fault=crash:A@3s&search=7/pause/2/500&py=cHJpbnQoMSk&sel=architecture.edge.renew",
    )
    .state;
    let fragment = encode(&state);
    let query = fragment.split_once('?').map_or("", |(_, q)| q);
    let (selection, _) = selection_of(query);
    assert_eq!(selection.as_deref(), Some("architecture.edge.renew"));
    let rebuilt = compose(state.tab, &lab_fields_of(query), selection.as_deref());
    assert_eq!(rebuilt, fragment);
    assert_eq!(lab_fields_of(query), lab_fields(&state));
    assert!(
        !lab_fields(&state).contains("sel="),
        "{}",
        lab_fields(&state)
    );
    assert_eq!(decode(&rebuilt).state, state);
}

#[test]
fn the_shell_names_a_tab_that_does_not_exist() {
    assert_eq!(
        tab_problems("#/maps?v=1&sel=lifecycle.lost"),
        Vec::<String>::new()
    );
    assert_eq!(tab_problems("#/"), Vec::<String>::new());
    assert_eq!(tab_problems(""), Vec::<String>::new());
    let problems = tab_problems("#/%3Cb%3Enope?v=1");
    assert_eq!(problems.len(), 1);
    assert!(
        problems[0].contains("\u{201c}<b>nope\u{201d} that does not exist; showing the Gist"),
        "{problems:?}"
    );
    // The same sentence as the whole link's.
    assert_eq!(tab_problems("#/nope?v=1"), decode("#/nope?v=1").problems);
}

#[test]
fn the_shell_drops_a_selection_that_names_nothing() {
    assert_eq!(selection_of("v=1&sel=%3Cimg%3E").0, None);
    assert_eq!(selection_of("v=1&sel=lifecycle.nope").0, None);
    assert_eq!(selection_of("v=1&preset=2"), (None, Vec::new()));
    assert_eq!(lab_fields_of("v=1&sel=lifecycle.lost&embed&theme=dark"), "");
}

#[test]
fn a_recorded_live_run_travels_in_its_link_and_a_damaged_one_is_explained() {
    use crate::lab::live::trace::LiveTrace;
    use crate::model::{ClientId, Event, EventKind, Lifecycle, NodeId};
    let scenario = Scenario {
        clients: 2,
        ..Scenario::default()
    };
    let trace = LiveTrace {
        scenario,
        end: SimTime::from_secs(3),
        events: vec![Event {
            at: SimTime::from_millis(7),
            node: NodeId::Client(ClientId::A),
            kind: EventKind::Lifecycle {
                to: Lifecycle::Acquiring,
                token: None,
            },
        }],
        freezes: Vec::new(),
        hidden_at: None,
    };
    let state = LinkState {
        tab: Tab::Sandbox,
        live: Some(trace.clone()),
        ..LinkState::default()
    };
    let link = encode(&state);
    let decoded = decode(&link);
    assert_eq!(decoded.problems, Vec::<String>::new());
    assert_eq!(decoded.state.live, Some(trace));
    assert_eq!(
        decoded.state.lab, None,
        "a live link alone opens no simulated lab"
    );

    let damaged = link.replace("live=", "live=x");
    let decoded = decode(&damaged);
    assert_eq!(decoded.state.live, None);
    assert_eq!(decoded.problems.len(), 1);
    assert!(
        decoded.problems[0].contains("recorded live run"),
        "{:?}",
        decoded.problems
    );
}

#[test]
fn a_percentage_is_percent_encoded_in_a_link_and_read_back() {
    let mut lab = Lab::default();
    let mut scenario = lab.scenario().clone();
    scenario.loss_ppm = 25_000;
    lab = lab.apply(LabAction::SetScenario(scenario)).unwrap();
    let link = encode(&LinkState {
        tab: Tab::Sandbox,
        lab: Some(LabLink::of(&lab)),
        ..LinkState::default()
    });
    assert!(link.contains("&loss=2.5%25"), "{link}");
    assert!(!link.contains("2.5%&") && !link.ends_with('%'), "{link}");
    let read = decode(&link).state.lab.unwrap();
    assert_eq!(read.scenario.loss_ppm, 25_000);
    assert_eq!(decode(&link.replace("%25", "%")).state.lab.unwrap(), read);
}

#[test]
fn code_for_one_language_names_the_language_your_client_opens_in() {
    use crate::lab::own_client::Language;
    let carried = |link: &str| decode(link).state.snippets.only_language();
    assert_eq!(
        carried("#/sandbox?v=1&py=cHJpbnQoMSk"),
        Some(Language::Python)
    );
    assert_eq!(
        carried("#/sandbox?v=1&ts=bm9kZQ"),
        Some(Language::TypeScript)
    );
    assert_eq!(carried("#/sandbox?v=1&py=cHJpbnQoMSk&ts=bm9kZQ"), None);
    assert_eq!(carried("#/sandbox?v=1&client=python"), None);
}
