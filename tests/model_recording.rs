#![cfg(not(target_arch = "wasm32"))]
//! A recording (checkpoints plus replay) answers every question exactly as the whole trace
//! does: same hash, checks and metrics, and at any time the same state, counts and windows.

use lease_lab::model::presets;
use lease_lab::model::recording::CHECKPOINT_EVENTS;
use lease_lab::model::*;

/// Scenarios with many checkpoints and every kind of fault: the presets, and variants of
/// them with other seeds, more clients, jitter and loss.
fn scenarios() -> Vec<Scenario> {
    let mut out = Vec::new();
    for (i, p) in presets::presets().iter().enumerate() {
        out.push(p.scenario.clone());
        let mut busy = p.scenario.clone();
        busy.seed = 1000 + i as u64;
        busy.clients = busy.clients.max(3);
        busy.jitter = SimDuration::from_millis(7);
        busy.loss_ppm = 20_000;
        busy.work_slice = SimDuration::from_millis(50);
        if busy.validate().is_ok() {
            out.push(busy);
        }
    }
    out
}

/// Times to probe: every event time, just before it, and just after it (sampled).
fn probe_times(run: &Run) -> Vec<SimTime> {
    let mut times = vec![SimTime::ZERO, run.end()];
    let step = (run.events().len() / 150).max(1);
    for e in run.events().iter().step_by(step) {
        times.extend([e.at, SimTime(e.at.0.saturating_sub(1)), SimTime(e.at.0 + 1)]);
    }
    times.retain(|&t| t <= run.end());
    times.sort();
    times
}

fn without_fate(mut s: Snapshot) -> Snapshot {
    for (m, _) in &mut s.in_flight {
        m.fate = MessageFate::InFlight;
    }
    s
}

fn count(events: &[Event], pick: impl Fn(&Event) -> bool) -> usize {
    events.iter().filter(|e| pick(e)).count()
}

/// The last `max` of `items`.
fn last<T: Copy>(items: &[T], max: usize) -> Vec<T> {
    items[items.len().saturating_sub(max)..].to_vec()
}

/// The writes among `events`, each with what the checkers found at it.
fn writes_in(events: &[Event], found: &[Found]) -> Vec<(WriteRecord, Found)> {
    let write = |(e, f): (&Event, &Found)| match e.kind {
        EventKind::Write(w) => Some((w, *f)),
        _ => None,
    };
    events.iter().zip(found).filter_map(write).collect()
}

/// The state at `t` as the run's own records tell it: each client's lifecycle and token,
/// and the service's holder.
fn recorded_state(
    run: &Run,
    t: SimTime,
) -> (Vec<(Lifecycle, Option<FencingToken>)>, Option<ClientId>) {
    let clients = (0..run.scenario().clients)
        .map(|c| {
            let history = run.lifecycle_history(ClientId(c));
            let p = history[history.partition_point(|p| p.from <= t) - 1];
            (p.state, p.token)
        })
        .collect();
    let holder = run.holder_intervals().iter().find(|x| x.span.contains(t));
    (clients, holder.map(|x| x.client))
}

fn assert_same_at(run: &Run, rec: &Recording, t: SimTime) {
    let events = run.events_until(t);
    let tally = rec.tally_at(t);
    assert_eq!(tally.events, events.len(), "events at {t}");
    let writes = writes_in(events, run.found());
    assert_eq!(tally.writes, writes.len(), "writes at {t}");
    let losses = count(events, |e| {
        matches!(
            e.kind,
            EventKind::Lifecycle {
                to: Lifecycle::Lost(_),
                ..
            }
        )
    });
    assert_eq!(tally.losses, losses, "losses at {t}");
    assert_eq!(tally.latest, events.last().map(|e| e.at));
    assert_eq!(
        without_fate(rec.state_at(t)),
        without_fate(run.state_at(t)),
        "state at {t}"
    );
    let state = rec.state_at(t);
    let shown: Vec<_> = state
        .clients
        .iter()
        .map(|c| (c.lifecycle, c.token))
        .collect();
    let holder = state.holder.map(|(c, _)| c);
    assert_eq!((shown, holder), recorded_state(run, t), "state at {t}");
    for id in CheckId::ALL {
        assert_eq!(rec.check_at(id, t), run.check_at(id, t), "{id:?} at {t}");
    }
    let shown = rec.events_before(t, 60);
    assert_eq!(shown.total, events.len());
    let found = &run.found()[..events.len()];
    let expected = last(
        &events
            .iter()
            .copied()
            .zip(found.iter().copied())
            .collect::<Vec<_>>(),
        60,
    );
    assert_eq!(shown.items, expected, "events at {t}");
    let window = rec.writes_before(t, 40);
    assert_eq!(window.items, last(&writes, 40), "writes at {t}");
    let sent = run.messages().partition_point(|m| m.sent_at <= t);
    let packets = rec.packets_before(t, 12);
    assert_eq!(packets.total, sent, "packets at {t}");
    let expected: Vec<MessageRecord> = run.messages()[sent.saturating_sub(12)..sent]
        .iter()
        .map(|m| MessageRecord {
            fate: match m.fate {
                MessageFate::Delivered(at) if at <= t => m.fate,
                MessageFate::Dropped(at, _) if at <= t => m.fate,
                _ => MessageFate::InFlight,
            },
            ..*m
        })
        .collect();
    assert_eq!(packets.items, expected, "packets at {t}");
    let lost = rec.losses_before(t, 3);
    assert_eq!(lost.total, losses);
    assert!(lost.items.iter().all(|(_, p)| p.from <= t));
    let next = run.events().get(events.len()).map(|e| e.at);
    assert_eq!(rec.next_event_after(t), next, "next after {t}");
    let before = run.events().partition_point(|e| e.at < t);
    let previous = before.checked_sub(1).map(|i| run.events()[i].at);
    assert_eq!(
        rec.previous_event_before(t),
        previous,
        "previous before {t}"
    );
}

#[test]
fn a_recording_answers_exactly_as_the_whole_trace() {
    let mut checkpoints = 0;
    for s in scenarios() {
        let run = Simulation::run(&s);
        let rec = Recording::of(&s);
        assert_eq!(rec.trace_hash(), run.trace_hash());
        assert_eq!(rec.event_count(), run.events().len());
        assert_eq!(rec.checks(), run.checks());
        assert_eq!(rec.metrics(), run.metrics());
        assert_eq!(rec.end(), run.end());
        assert_eq!(
            rec.checkpoint_count(),
            1 + run.events().len() / CHECKPOINT_EVENTS
        );
        checkpoints = checkpoints.max(rec.checkpoint_count());
        // Forward (each moment continues from the last) and backward (each replays).
        let times = probe_times(&run);
        for &t in times.iter().chain(times.iter().rev().step_by(7)) {
            assert_same_at(&run, &rec, t);
        }
    }
    assert!(checkpoints > 3, "some scenario spans several checkpoints");
}

#[test]
fn recording_in_slices_gives_the_same_run() {
    let s = scenarios()
        .into_iter()
        .max_by_key(|s| Simulation::run(s).events().len())
        .unwrap();
    let mut recorder = Recorder::new(&s);
    let mut slices = 0;
    while !recorder.advance(1000) {
        slices += 1;
        assert!(recorder.simulated().0 <= recorder.scenario().duration.0);
    }
    assert!(slices > 3);
    let rec = recorder.finish();
    assert_eq!(rec.trace_hash(), Simulation::run(&s).trace_hash());
}

#[test]
fn a_run_cut_short_is_the_run_of_the_shorter_scenario() {
    for s in scenarios().into_iter().step_by(3) {
        let mut recorder = Recorder::new(&s);
        recorder.advance(5_000);
        let simulated = recorder.simulated();
        let rec = recorder.cut(simulated);
        let mut shorter = s.clone();
        shorter.duration = SimDuration(rec.end().0);
        shorter.faults.0.retain(|f| f.at <= rec.end());
        assert!(rec.end() >= simulated);
        assert_eq!(rec.scenario(), &shorter);
        assert!(shorter.validate().is_ok());
        let run = Simulation::run(&shorter);
        assert_eq!(rec.trace_hash(), run.trace_hash());
        assert_eq!(rec.checks(), run.checks());
        assert_eq!(rec.next_event_after(rec.end()), None);
    }
}

#[test]
fn the_overview_stays_small_and_draws_what_happened() {
    let s = presets::preset("2").unwrap().scenario.clone();
    let run = Simulation::run(&s);
    let rec = Recording::of(&s);
    let view = rec.overview();
    let a = &view.clients[0];
    let writes_in_marks: u32 = [
        overview::Mark::WriteAccepted,
        overview::Mark::WriteStale,
        overview::Mark::WriteRejected,
    ]
    .into_iter()
    .flat_map(|m| a.marks(m).map(|g| g.count).collect::<Vec<_>>())
    .sum();
    let writes_by_a = run
        .storage_log()
        .iter()
        .filter(|w| w.client == ClientId::A)
        .count();
    assert_eq!(writes_in_marks as usize, writes_by_a);
    for m in overview::Mark::ALL {
        assert!(a.marks(m).count() as u64 <= overview::BUCKETS);
    }
    let rejected = a.marks(overview::Mark::WriteRejected).next();
    let first_rejected = run
        .storage_log()
        .iter()
        .find(|w| w.client == ClientId::A && !w.verdict.accepted());
    assert_eq!(rejected.map(|g| g.first), first_rejected.map(|w| w.at));
    assert_eq!(
        view.tenures.all().first().map(|t| (t.client, t.token)),
        run.holder_intervals()
            .first()
            .map(|t| (t.client, Some(t.token)))
    );
}

/// The longest of some failovers.
fn longest<'a>(failovers: impl Iterator<Item = &'a Failover>) -> Option<SimDuration> {
    failovers.map(|f| f.duration()).max()
}

#[test]
fn a_takeover_after_a_pause_longer_than_the_ttl_is_a_failover_on_the_timeline() {
    let s = presets::preset("2").unwrap().scenario.clone();
    let run = Simulation::run(&s);
    let rec = Recording::of(&s);
    let kept = rec.overview().failovers_until(rec.end());
    assert!(!kept.is_empty(), "B takes over from the paused A");
    // The recording kept, as it streamed, exactly what the observer recorded on the trace.
    let recorded: Vec<Failover> = kept.iter().map(|g| g.longest).collect();
    assert_eq!(recorded, run.failovers());
    assert_eq!(
        longest(recorded.iter()),
        rec.metrics().max_failover,
        "the longest drawn is the counts panel's"
    );
    // As of any moment, the failovers shown are those the observer had measured by then.
    for t in probe_times(&run) {
        let shown = rec.overview().failovers_until(t);
        assert_eq!(
            longest(shown.iter().map(|g| &g.longest)),
            rec.metrics_at(t).max_failover,
            "at {t}"
        );
        assert!(shown.iter().all(|g| g.longest.granted_at <= t));
    }
    let granted = recorded[0].granted_at;
    assert!(rec
        .overview()
        .failovers_until(SimTime(granted.0 - 1))
        .is_empty());
}

#[test]
fn a_run_without_failover_draws_none() {
    for id in ["1", "4", "6"] {
        let rec = Recording::of(&presets::preset(id).unwrap().scenario);
        assert_eq!(rec.metrics().failovers, 0, "preset {id}");
        assert!(rec.overview().failovers_until(rec.end()).is_empty());
    }
}

#[test]
fn an_hour_of_failovers_stays_within_one_per_bucket_and_keeps_the_longest() {
    // Eight clients; every 450 s the holder's lease is revoked and the next one takes over.
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
    assert!(s.validate().is_ok());
    let rec = Recording::of(&s);
    let run = Simulation::run(&s);
    assert!(rec.checkpoint_count() > 10);
    let kept = rec.overview().failovers_until(rec.end());
    assert!(kept.len() as u64 <= overview::BUCKETS);
    assert_eq!(
        kept.iter().map(|g| g.count).sum::<u32>(),
        rec.metrics().failovers
    );
    assert!(rec.metrics().failovers > 3);
    assert_eq!(
        longest(kept.iter().map(|g| &g.longest)),
        rec.metrics().max_failover
    );
    assert_eq!(
        kept.iter().map(|g| g.longest).collect::<Vec<_>>(),
        run.failovers()
    );
}

#[test]
fn a_long_run_stopped_early_draws_as_finely_as_a_run_of_that_length() {
    let long = Scenario {
        duration: SimDuration::from_secs(3_600),
        ..Scenario::default()
    };
    let mut recorder = Recorder::new(&long);
    while recorder.simulated() < SimTime::from_secs(90) {
        recorder.advance(500);
    }
    let stopped = recorder.simulated();
    let cut = recorder.cut(stopped);
    let short = Recording::of(cut.scenario());
    assert_eq!(cut.overview(), short.overview());
    // A bucket of 90 s is far shorter than the time between renews: each is its own mark.
    let run = Simulation::run(cut.scenario());
    let renews_sent = run
        .events()
        .iter()
        .filter(|e| {
            e.node == NodeId::Client(ClientId::A)
                && matches!(
                    e.kind,
                    EventKind::Sent {
                        msg: Message::Renew { .. },
                        ..
                    }
                )
        })
        .count();
    assert!(renews_sent > 20, "{renews_sent} renews");
    let marks = cut.overview().clients[0].marks(overview::Mark::RenewSent);
    assert!(marks.map(|g| g.count).all(|count| count == 1));
    assert_eq!(
        cut.overview().clients[0]
            .marks(overview::Mark::RenewSent)
            .count(),
        renews_sent
    );
}
