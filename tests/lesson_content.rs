//! The compiled-in lesson keeps every question, table row, step, number and link of the
//! source lesson, and the Mermaid exports say exactly what the diagrams show.
#![cfg(not(target_arch = "wasm32"))]

use lease_lab::lesson::content::{ArchEdge, ArchNode, LeaseState};
use lease_lab::lesson::mermaid::{
    architecture_flowchart, heartbeat_sequence, lifecycle_state_diagram,
};
use lease_lab::lesson::LESSON;

#[test]
fn the_masthead_names_the_lesson_and_its_place_in_the_series() {
    assert_eq!(
        LESSON.masthead.series,
        "Concurrency · Part 5 of 6 · Distributed locks"
    );
    assert_eq!(
        LESSON.masthead.title,
        "Lease Renewal, Clock Skew & Heartbeat Failure Modes"
    );
    assert_eq!(
        LESSON.voice.unsupported,
        "Voice readout needs Web Speech Synthesis in this browser."
    );
}

#[test]
fn the_prefer_and_alternative_cards_keep_their_three_bullets_each() {
    let gist = &LESSON.gist;
    assert_eq!(gist.prefer.title, "Monotonic renew + fail-closed + fencing");
    assert_eq!(
        gist.alternative.title,
        "Wall-clock sleep, or write until you feel the TTL"
    );
    assert_eq!(gist.prefer.bullets.len(), 3);
    assert_eq!(gist.alternative.bullets.len(), 3);
    let prefer = format!("{:?}", gist.prefer);
    for fact in [
        "time.monotonic",
        "performance.now",
        "T/3",
        "three",
        "hard expiry",
        "soft TTL",
        "remaining",
        "stale fence",
    ] {
        assert!(
            prefer.contains(fact) || prefer.contains(&fact.replace("remaining", "left")),
            "Prefer card lacks {fact}"
        );
    }
    let alternative = format!("{:?}", gist.alternative);
    for fact in [
        "NTP",
        "GC pause",
        "Redlock",
        "zombie",
        "false loss",
        "unlock",
        "critical section",
    ] {
        assert!(alternative.contains(fact), "Alternative card lacks {fact}");
    }
}

#[test]
fn heartbeat_renewal_has_four_steps_in_order() {
    let steps = LESSON.gist.heartbeat.steps;
    let titles: Vec<&str> = steps.iter().map(|s| s.title).collect();
    assert_eq!(
        titles,
        [
            "Acquire with TTL T plus a fence",
            "Renew every T/3 if the token matches",
            "Retry a blip inside the remaining budget",
            "Renew failure or TTL expiry means lost",
        ]
    );
    let body = format!("{steps:?}");
    for fact in [
        "PEXPIRE",
        "keep-alive",
        "Lua",
        "NOT_OWNER",
        "lost flag",
        "best-effort unlock",
        "compare-and-expire",
    ] {
        assert!(body.contains(fact), "heartbeat steps lack {fact}");
    }
}

#[test]
fn the_overview_has_three_objectives() {
    let overview = &LESSON.gist.overview;
    assert_eq!(overview.objectives.len(), 3);
    assert!(overview.objectives[0].contains("acquiring → holding (renew OK) → lost (stop writes)"));
    assert!(overview.objectives[1].contains("TTL inequality"));
    assert!(overview.objectives[2].contains("Redlock"));
    assert!(format!("{overview:?}").contains("fencing tokens"));
}

#[test]
fn the_lifecycle_has_five_states_and_the_lessons_five_transitions() {
    let labels: Vec<&str> = LeaseState::ALL.iter().map(|s| s.text().label).collect();
    assert_eq!(
        labels,
        [
            "Acquiring",
            "Holding",
            "Renew result",
            "Lost — stop writes",
            "Releasing"
        ]
    );
    let numbers: Vec<&str> = LeaseState::ALL.iter().map(|s| s.text().number).collect();
    assert_eq!(numbers, ["1", "2", "?", "4", "5"]);
    let transitions: Vec<(LeaseState, LeaseState, &str)> = LESSON
        .lifecycle
        .transitions
        .iter()
        .map(|t| (t.from, t.to, t.label))
        .collect();
    use LeaseState::*;
    assert_eq!(
        transitions,
        [
            (Acquiring, Holding, "acquire OK + fence"),
            (Holding, RenewResult, "next"),
            (Holding, Releasing, "unlock"),
            (RenewResult, Holding, "OK"),
            (RenewResult, Lost, "fail / TTL expiry"),
        ]
    );
    for state in LeaseState::ALL {
        assert!(
            state.text().decision.len() > 40,
            "{state:?} explains its decision"
        );
    }
}

#[test]
fn the_architecture_has_two_nodes_and_four_edges_each_fully_explained() {
    assert_eq!(ArchNode::Client.title(), "1 Client");
    assert_eq!(ArchNode::LockService.title(), "2 Lock service");
    let edges: Vec<(&str, ArchNode, ArchNode)> = ArchEdge::ALL
        .iter()
        .map(|e| (e.text().label, e.text().from, e.text().to))
        .collect();
    use ArchNode::*;
    assert_eq!(
        edges,
        [
            ("acquire TTL=30s", Client, LockService),
            ("renew if token", Client, LockService),
            ("OK", LockService, Client),
            ("FAIL", LockService, Client),
        ]
    );
    for edge in ArchEdge::ALL {
        let t = edge.text();
        for part in [t.protocol, t.direction, t.effect, t.consequence] {
            assert!(!part.is_empty(), "{edge:?}");
        }
    }
}

#[test]
fn the_sequence_is_acquire_renew_ok_renew_fail_cancel() {
    let labels: Vec<&str> = LESSON.sequence.messages.iter().map(|m| m.label).collect();
    assert_eq!(
        labels,
        [
            "acquire TTL=30s",
            "renew if token matches",
            "OK",
            "renew if token matches",
            "FAIL",
            "cancel context — stop writes"
        ]
    );
    let last = &LESSON.sequence.messages[5];
    assert_eq!((last.from, last.to), (ArchNode::Client, ArchNode::Client));
}

#[test]
fn every_table_row_of_the_lesson_is_there() {
    let soft = LESSON.table("soft_hard");
    assert_eq!(soft.columns, ["Axis", "Soft TTL", "Hard TTL"]);
    let axes: Vec<&str> = soft.rows.iter().map(|r| r[0]).collect();
    assert_eq!(axes, ["Meaning", "Client", "Storage", "Example"]);
    assert_eq!(
        soft.rows[2],
        ["Storage", "Should still fence", "Must fence"]
    );
    assert!(soft.rows[3][2].contains("etcd lease") && soft.rows[3][2].contains("Redis PX"));

    let skew = LESSON.table("clock_skew");
    assert_eq!(skew.columns, ["Skew", "Symptom", "Mitigation"]);
    let kinds: Vec<&str> = skew.rows.iter().map(|r| r[0]).collect();
    assert_eq!(
        kinds,
        [
            "Client clock ahead",
            "Client clock behind",
            "NTP step backwards",
            "Redis vs client"
        ]
    );
    assert!(
        skew.rows[0][2].contains("time.monotonic") && skew.rows[0][2].contains("performance.now")
    );
    assert!(skew.rows[3][2].contains("Redlock critique"));

    let length = LESSON.table("lease_length");
    assert_eq!(length.columns, ["Longer lease", "Shorter lease"]);
    assert_eq!(length.rows.len(), 3);
    let text = format!("{length:?}");
    for fact in [
        "stop-the-world",
        "crash",
        "renew traffic",
        "zombie window",
        "false losses",
    ] {
        assert!(text.contains(fact), "lease length table lacks {fact}");
    }
}

#[test]
fn blips_the_pattern_and_the_inequality_are_kept() {
    assert_eq!(LESSON.blips.bullets.len(), 4);
    assert!(LESSON.blips.bullets[2].contains("NOT_OWNER"));
    assert!(LESSON.blips.note.contains("regional") || LESSON.blips.note.contains("own region"));
    assert_eq!(LESSON.pattern.steps.len(), 4);
    assert!(
        LESSON.pattern.steps[1].contains("T/3")
            && LESSON.pattern.steps[1].contains("compare-and-expire")
    );
    assert_eq!(
        LESSON.ttl.formula,
        "T > work_slice_p99 + renew_rtt_p99 + gc_budget + safety_margin"
    );
    assert_eq!(
        (
            LESSON.ttl.work_default,
            LESSON.ttl.rtt_default,
            LESSON.ttl.gc_default,
            LESSON.ttl.margin_default
        ),
        (200, 20, 150, 0)
    );
    assert!(LESSON.ttl.exercise.contains("400 ms"));
    assert!(format!("{:?}", LESSON.ttl.after).contains("SLO"));
    assert!(LESSON.unlock.answer.contains("best effort"));
}

#[test]
fn all_twelve_interview_questions_have_answers() {
    let questions: Vec<&str> = LESSON.qa.questions.iter().map(|q| q.question).collect();
    assert_eq!(
        questions,
        [
            "Why renew at T/3?",
            "Wall clock or monotonic for renew timers?",
            "Soft vs hard TTL?",
            "Renew timeout but lock still valid?",
            "GC pause longer than TTL?",
            "Leader election heartbeats vs locks?",
            "Multi-region renew latency?",
            "Should you unlock on renew failure?",
            "Clock skew between Redis nodes (Redlock)?",
            "How do you test renew paths?",
            "Lease much longer than the work?",
            "The one-liner?",
        ]
    );
    for q in LESSON.qa.questions {
        assert!(q.answer.len() > 20, "{} has an answer", q.id);
    }
    assert!(LESSON.qa.questions[5].answer.contains("Raft hub"));
}

#[test]
fn go_deeper_keeps_the_five_references() {
    let labels: Vec<&str> = LESSON.deeper.links.iter().map(|l| l.label).collect();
    assert_eq!(
        labels,
        [
            "Kleppmann — distributed locking",
            "etcd leases and keep-alive",
            "Redis SET / PEXPIRE",
            "Related heartbeat shape: Raft leader election",
            "Next: CAS and optimistic coordination",
        ]
    );
    assert!(LESSON
        .deeper
        .links
        .iter()
        .all(|l| l.url.starts_with("https://")));
}

#[test]
fn the_architecture_export_is_this_exact_flowchart() {
    assert_eq!(
        architecture_flowchart(),
        "flowchart LR\n  client[\"1 Client\"]\n  lock_service[\"2 Lock service\"]\n  \
         client -->|\"acquire TTL=30s\"| lock_service\n  client -->|\"renew if token\"| lock_service\n  \
         lock_service -->|\"OK\"| client\n  lock_service -->|\"FAIL\"| client\n"
    );
}

#[test]
fn the_lifecycle_export_is_this_exact_state_diagram() {
    assert_eq!(
        lifecycle_state_diagram(),
        "stateDiagram-v2\n  state \"1 Acquiring\" as acquiring\n  state \"2 Holding\" as holding\n  \
         state \"? Renew result\" as renew_result\n  state \"4 Lost — stop writes\" as lost\n  \
         state \"5 Releasing\" as releasing\n  [*] --> acquiring\n  acquiring --> holding : acquire OK + fence\n  \
         holding --> renew_result : next\n  holding --> releasing : unlock\n  renew_result --> holding : OK\n  \
         renew_result --> lost : fail / TTL expiry\n  lost --> [*]\n  releasing --> [*]\n"
    );
}

#[test]
fn the_sequence_export_is_this_exact_sequence_diagram() {
    assert_eq!(
        heartbeat_sequence(),
        "sequenceDiagram\n  participant client as 1 Client\n  participant lock_service as 2 Lock service\n  \
         client->>lock_service: acquire TTL=30s\n  client->>lock_service: renew if token matches\n  \
         lock_service->>client: OK\n  client->>lock_service: renew if token matches\n  \
         lock_service->>client: FAIL\n  client->>client: cancel context — stop writes\n"
    );
}

/// Each "use the defaults of…" choice reads as a phrase: its `renew` follows the sentence's
/// own word "renew", so it must not say it again ("renew renew deadline 10 s").
#[test]
fn each_real_system_s_defaults_choice_names_no_word_twice_in_a_row() {
    use lease_lab::lesson::content::SANDBOX;
    use lease_lab::lesson::sentences::sandbox::parameters::System;
    for d in lease_lab::model::presets::system_defaults() {
        let system = SANDBOX.system(d.slug);
        let choice = System {
            system: system.system,
            ttl: d.ttl,
            renew: system.renew,
        }
        .to_string();
        let words: Vec<&str> = choice.split_whitespace().collect();
        for pair in words.windows(2) {
            assert_ne!(pair[0], pair[1], "{choice}");
        }
    }
}
