//! "Your client" natively: the laboratory's runner with learner clients written in Rust
//! against the same protocol the sandbox's runtime speaks. A reference heartbeat must give
//! the built-in Prefer client's checks and outcome on every preset (differential testing);
//! the lesson's mistakes must break checks; runs are deterministic; bad API use is refused.

use lease_lab::lab::own_client::report::pack;
use lease_lab::lab::own_client::runner::{
    own_scenario, run, search, MakeClient, OwnSearch, SearchAt,
};
use lease_lab::lab::own_client::{
    Action, AnswerKind, During, Handled, Handlers, Input, InputKind, LossReason, Refusal, RunStop,
    Settings, Stop,
};
use lease_lab::lesson::checks::ViolationWords;
use lease_lab::model::check::Judging;
use lease_lab::model::search::{random_plan, search_block, with_plan, FaultKind, SearchSpec};
use lease_lab::model::RunQuestions;
use lease_lab::model::{
    presets, trace_hash, CheckId, CheckStatus, ClientConfig, ClientId, EventKind, Message, NodeId,
    Run, Scenario, Simulation, ViolationDetail,
};

/// The lesson's heartbeat, as the reference solutions write it.
struct Reference {
    s: Settings,
    token: Option<u64>,
    deadline: i64,
    /// The outstanding request: id, send time, and whether it is a renew.
    asked: Option<(u32, i64, Asked)>,
    next_req: u32,
    done: bool,
}

#[derive(Clone, Copy, PartialEq)]
enum Asked {
    Acquire,
    Renew,
    Release,
}

impl Reference {
    fn new(s: Settings) -> Reference {
        Reference {
            s,
            token: None,
            deadline: 0,
            asked: None,
            next_req: 0,
            done: false,
        }
    }
    fn after(out: &mut Vec<Action>, name: &str, delay: i64) {
        out.push(Action::After {
            name: name.into(),
            delay: delay.max(0) as u64,
        });
    }
    fn ask(&mut self, out: &mut Vec<Action>, now: i64, what: Asked, action: Action) {
        self.next_req += 1;
        self.asked = Some((self.next_req, now, what));
        out.push(action);
        Self::after(out, "timeout", self.s.request_timeout as i64);
    }
    fn lose(&mut self, out: &mut Vec<Action>, reason: LossReason) {
        for t in ["acquire", "timeout", "renew", "deadline", "work", "release"] {
            out.push(Action::Cancel { name: t.into() });
        }
        out.push(Action::Lost { reason });
        let token = self.token.expect("holding");
        self.next_req += 1;
        self.asked = None;
        self.done = true;
        out.push(Action::Release { token });
    }
    fn step(&mut self, input: &Input<'_>) -> Vec<Action> {
        let now = input.mono;
        let mut out = Vec::new();
        if self.done {
            return out;
        }
        match input.kind {
            InputKind::Start => self.ask(
                &mut out,
                now,
                Asked::Acquire,
                Action::Acquire { ttl: self.s.ttl },
            ),
            InputKind::Reply => self.reply(&mut out, now, input),
            InputKind::Timer => self.timer(&mut out, now, input.timer.unwrap_or_default()),
        }
        out
    }
    fn reply(&mut self, out: &mut Vec<Action>, now: i64, input: &Input<'_>) {
        let answer = input.answer.expect("an answer");
        let Some((req, sent, what)) = self.asked else {
            return;
        };
        if answer.request != req {
            return;
        }
        out.push(Action::Cancel {
            name: "timeout".into(),
        });
        self.asked = None;
        let valid_until = sent + self.s.ttl as i64 - self.s.drift_margin as i64;
        match (what, answer.kind) {
            (Asked::Acquire, AnswerKind::Granted) => {
                self.token = answer.token;
                self.deadline = valid_until;
                Self::after(out, "renew", sent + self.s.renew_every as i64 - now);
                Self::after(out, "deadline", self.deadline - now);
                Self::after(out, "work", 0);
                if let Some(r) = self.s.release_after {
                    Self::after(out, "release", r as i64);
                }
            }
            (Asked::Acquire, _) => {
                Self::after(out, "acquire", sent + self.s.acquire_retry as i64 - now)
            }
            (Asked::Renew, AnswerKind::Renewed) => {
                self.deadline = valid_until;
                Self::after(out, "renew", sent + self.s.renew_every as i64 - now);
                Self::after(out, "deadline", self.deadline - now);
            }
            (Asked::Renew, _) => self.lose(out, LossReason::NotOwner),
            (Asked::Release, _) => self.done = true,
        }
    }
    fn timer(&mut self, out: &mut Vec<Action>, now: i64, name: &str) {
        let holding = self.token.is_some();
        match name {
            "acquire" => self.ask(
                out,
                now,
                Asked::Acquire,
                Action::Acquire { ttl: self.s.ttl },
            ),
            "timeout" => match self.asked.take() {
                Some((_, sent, Asked::Acquire)) => {
                    Self::after(out, "acquire", sent + self.s.acquire_retry as i64 - now)
                }
                Some((_, sent, Asked::Renew)) => {
                    Self::after(out, "renew", sent + self.s.retry_every as i64 - now)
                }
                Some((_, _, Asked::Release)) | None => self.done = true,
            },
            "renew" if holding => {
                if now >= self.deadline {
                    self.lose(out, LossReason::Deadline);
                } else {
                    let token = self.token.unwrap_or_default();
                    self.ask(out, now, Asked::Renew, Action::Renew { token });
                }
            }
            "deadline" if holding => self.lose(out, LossReason::Deadline),
            "work" if holding => {
                if now >= self.deadline {
                    self.lose(out, LossReason::Deadline);
                } else {
                    out.push(Action::Write {
                        token: self.token.unwrap_or_default(),
                    });
                    Self::after(out, "work", self.s.work_every as i64);
                }
            }
            "release" if holding => {
                for t in ["acquire", "timeout", "renew", "deadline", "work"] {
                    out.push(Action::Cancel { name: t.into() });
                }
                let token = self.token.unwrap_or_default();
                self.ask(out, now, Asked::Release, Action::Release { token });
            }
            _ => {}
        }
    }
}

impl Handlers for Reference {
    fn handle(&mut self, input: &Input<'_>) -> Option<Handled> {
        Some(Handled::Returned {
            actions: self.step(input),
            output: Vec::new(),
        })
    }
}

/// A client built from a closure over its settings and each call.
struct Scripted<F>(Settings, F);

impl<F: FnMut(&Settings, &Input<'_>) -> Handled> Handlers for Scripted<F> {
    fn handle(&mut self, input: &Input<'_>) -> Option<Handled> {
        Some((self.1)(&self.0, input))
    }
}

fn reference() -> impl FnMut(ClientId, &ClientConfig) -> Box<dyn Handlers> {
    |_, cfg| Box::new(Reference::new(Settings::of(cfg)))
}

fn checked(s: &Scenario, make: &mut MakeClient<'_>) -> (Run, Option<RunStop>) {
    let own = run(s, make);
    let stop = own.stop.clone();
    let s = own_scenario(s);
    (Run::judged(s, own.end, own.events, Judging::Learner), stop)
}

/// The built-in client's run of `s`, judged as the Simulated view judges it (by its own lost
/// flag). The reference must match this, not a judgement made up for the comparison.
fn builtin(s: &Scenario) -> Run {
    let run = Simulation::run(s);
    Run::judged(
        s.clone(),
        run.end(),
        run.events().to_vec(),
        Judging::BuiltIn,
    )
}

fn statuses(run: &Run) -> Vec<(CheckId, bool)> {
    CheckId::ALL
        .iter()
        .map(|&id| (id, matches!(run.check(id), CheckStatus::Broken { .. })))
        .collect()
}

#[test]
fn the_reference_client_gives_the_built_in_clients_checks_and_outcome_on_every_preset() {
    let mut compared = 0;
    for preset in presets::presets() {
        let s = &preset.scenario;
        if !s.policy.client_follows_prefer() {
            continue;
        }
        let builtin = builtin(s);
        let (own, stop) = checked(s, &mut reference());
        assert_eq!(stop, None, "preset {}", preset.id);
        assert_eq!(statuses(&own), statuses(&builtin), "preset {}", preset.id);
        let (a, b) = (own.metrics(), builtin.metrics());
        assert_eq!(
            (
                a.grants,
                a.losses,
                a.writes_accepted,
                a.writes_rejected,
                a.stale_accepted
            ),
            (
                b.grants,
                b.losses,
                b.writes_accepted,
                b.writes_rejected,
                b.stale_accepted
            ),
            "preset {}",
            preset.id
        );
        assert_eq!(a.renews_sent, b.renews_sent, "preset {}", preset.id);
        compared += 1;
    }
    assert!(compared >= 8, "only {compared} presets compared");
}

#[test]
fn the_reference_is_not_blamed_for_a_loss_only_the_lock_service_saw() {
    // Preset 7: the service's wall clock jumps, so it ends A's lease early; A cannot know,
    // and the built-in client keeps "no write after lost" there (fencing rejects A's writes).
    let s = &presets::preset("7").unwrap().scenario;
    let (own, _) = checked(s, &mut reference());
    assert_eq!(own.check(CheckId::NoWriteAfterLost), CheckStatus::Holding);
    assert_eq!(
        builtin(s).check(CheckId::NoWriteAfterLost),
        CheckStatus::Holding
    );
    // An administrator revokes the lease: the client learns it only from the next NOT_OWNER.
    let revoked = scenario("fault=revoke@3.5s");
    let (own, _) = checked(&revoked, &mut reference());
    assert_eq!(statuses(&own), statuses(&builtin(&revoked)));
    assert_eq!(own.check(CheckId::NoWriteAfterLost), CheckStatus::Holding);
}

#[test]
fn plan_by_plan_the_reference_is_judged_as_the_built_in_client_under_the_lock_services_faults() {
    // The faults only the lock service sees (a revoke, its clock jumping on a wall-clock
    // expiry), alone and with the faults that delay what a client hears.
    let wall = scenario("service-wall=on");
    for (base, kinds) in [
        (
            &presets::preset("1").unwrap().scenario,
            vec![FaultKind::RevokeLease],
        ),
        (
            &presets::preset("1").unwrap().scenario,
            vec![
                FaultKind::Pause,
                FaultKind::DelayNextPacket,
                FaultKind::RevokeLease,
            ],
        ),
        (&wall, vec![FaultKind::ClockStep, FaultKind::RevokeLease]),
        // And every fault a client sees, with drift on its own clock: the built-in client
        // never writes past its own safe deadline, so neither is the reference blamed for it.
        (
            &presets::preset("1").unwrap().scenario,
            FaultKind::ALL
                .into_iter()
                .filter(|&kind| kind != FaultKind::RevokeLease)
                .collect(),
        ),
    ] {
        let spec = SearchSpec {
            seed: 1,
            kinds,
            max_faults: 3,
            budget: 300,
        };
        for index in 0..spec.budget {
            let s = with_plan(base, random_plan(base, &spec, index));
            let (own, stop) = checked(&s, &mut reference());
            assert_eq!(stop, None, "plan {index}: {:?}", s.faults);
            assert_eq!(
                statuses(&own),
                statuses(&builtin(&s)),
                "plan {index}: {:?}",
                s.faults
            );
        }
        // What "Attack your client" reports is what the main search reports.
        let own = match search(base, &spec, &mut reference(), |_| {}) {
            OwnSearch::Held { ran } => (ran, None),
            OwnSearch::Broke { ran, first, .. } => (ran, Some(first)),
            other => panic!("{other:?}"),
        };
        assert_eq!(own, search_block(base, &spec, 0, spec.budget), "{spec:?}");
    }
}

/// A client that writes every work slice with its first token, whatever it hears; with
/// `says_lost`, it calls `node.lost()` on NOT_OWNER and writes on all the same.
fn deaf(says_lost: bool) -> impl FnMut(ClientId, &ClientConfig) -> Box<dyn Handlers> {
    move |_, cfg| {
        let mut token = None;
        Box::new(Scripted(
            Settings::of(cfg),
            move |s: &Settings, input: &Input<'_>| {
                let mut actions = Vec::new();
                match (input.kind, input.timer) {
                    (InputKind::Start, _) => actions.push(Action::Acquire { ttl: s.ttl }),
                    (InputKind::Reply, _) => {
                        let a = input.answer.unwrap();
                        if a.kind == AnswerKind::Granted {
                            token = a.token;
                            actions.push(work_after(0));
                            actions.push(Action::After {
                                name: "renew".into(),
                                delay: s.renew_every,
                            });
                        }
                        if a.kind == AnswerKind::NotOwner && says_lost {
                            actions.push(Action::Lost {
                                reason: LossReason::NotOwner,
                            });
                        }
                    }
                    (InputKind::Timer, Some("renew")) => {
                        let token = token.unwrap();
                        actions.push(Action::Renew { token });
                        actions.push(Action::After {
                            name: "renew".into(),
                            delay: s.renew_every,
                        });
                    }
                    (InputKind::Timer, _) => {
                        write_and_work_again(&mut actions, token, s);
                    }
                }
                Handled::Returned {
                    actions,
                    output: Vec::new(),
                }
            },
        ))
    }
}

#[test]
fn a_client_that_writes_after_not_owner_or_after_its_own_lost_flag_is_caught() {
    let revoked = scenario("fault=revoke@3.5s");
    for says_lost in [false, true] {
        let (own, stop) = checked(&revoked, &mut deaf(says_lost));
        assert_eq!(stop, None);
        let CheckStatus::Broken { first, .. } = own.check(CheckId::NoWriteAfterLost) else {
            panic!("says_lost {says_lost}: {:?}", statuses(&own));
        };
        // Caught at its first write after the NOT_OWNER it was sent, not at the revoke.
        let told = own
            .events()
            .iter()
            .find(|e| {
                e.node == NodeId::Client(ClientId::A)
                    && matches!(
                        e.kind,
                        EventKind::Delivered {
                            msg: Message::NotOwner { .. },
                            ..
                        }
                    )
            })
            .expect("A hears NOT_OWNER")
            .at;
        assert!(first.at > told, "says_lost {says_lost}: {first:?} {told:?}");
        match first.detail {
            ViolationDetail::WriteAfterLost { lost_at, .. } => {
                assert!(says_lost, "{first:?}");
                assert_eq!(lost_at, told, "its own flag came with the answer");
            }
            _ => {
                assert!(!says_lost, "{first:?}");
                let words = first.explanation();
                assert!(words.contains("NOT_OWNER"), "{words}");
            }
        }
    }
}

/// The starter's mistakes: renew on the wall clock, write without checking the deadline.
fn starter() -> impl FnMut(ClientId, &ClientConfig) -> Box<dyn Handlers> {
    |_, cfg| {
        let mut token = None;
        Box::new(Scripted(
            Settings::of(cfg),
            move |s: &Settings, input: &Input<'_>| {
                let mut actions = Vec::new();
                match (input.kind, input.timer) {
                    (InputKind::Start, _) | (InputKind::Timer, Some("acquire")) => {
                        actions.push(Action::Acquire { ttl: s.ttl })
                    }
                    (InputKind::Reply, _) => {
                        let a = input.answer.unwrap();
                        if a.kind == AnswerKind::NotOwner && token.is_some() {
                            // The service says it is gone: stop (cancel, say lost, unlock).
                            for name in ["renew", "work"] {
                                actions.push(Action::Cancel { name: name.into() });
                            }
                            actions.push(Action::Lost {
                                reason: LossReason::NotOwner,
                            });
                            actions.push(Action::Release {
                                token: token.take().unwrap(),
                            });
                        }
                        if a.kind == AnswerKind::Busy {
                            actions.push(Action::After {
                                name: "acquire".into(),
                                delay: s.acquire_retry,
                            });
                        }
                        if a.kind == AnswerKind::Granted {
                            token = a.token;
                            actions.push(Action::AtWall {
                                name: "renew".into(),
                                at: input.wall + s.renew_every as i64,
                            });
                            actions.push(work_after(0));
                        }
                    }
                    (InputKind::Timer, _) if token.is_none() => {}
                    (InputKind::Timer, Some("renew")) => {
                        actions.push(Action::Renew {
                            token: token.unwrap(),
                        });
                        actions.push(Action::AtWall {
                            name: "renew".into(),
                            at: input.wall + s.renew_every as i64,
                        });
                    }
                    (InputKind::Timer, _) => write_and_work_again(&mut actions, token, s),
                }
                Handled::Returned {
                    actions,
                    output: Vec::new(),
                }
            },
        ))
    }
}

fn scenario(link_fields: &str) -> Scenario {
    lease_lab::share::scenario_of(link_fields).expect("a readable scenario")
}

#[test]
fn the_starters_mistakes_break_checks_that_the_reference_keeps() {
    // Fencing off, B contending, and a write-path pause longer than the lease.
    let s = scenario("clients=2&ttl=2s&dur=20s&fencing=off&fault=pause-write:A@3s+5s");
    let (starter_run, _) = checked(&s, &mut starter());
    assert!(statuses(&starter_run).iter().any(|(_, broken)| *broken));
    let (reference_run, _) = checked(&s, &mut reference());
    assert_eq!(statuses(&reference_run), statuses(&builtin(&s)));
}

#[test]
fn a_run_is_deterministic() {
    let s = &presets::presets()[3].scenario;
    let a = run(s, &mut reference());
    let b = run(s, &mut reference());
    assert_eq!(trace_hash(&a.events), trace_hash(&b.events));
    assert!(a.events.len() > 10);
}

fn stop_of(
    s: &Scenario,
    f: impl FnMut(&Settings, &Input<'_>) -> Handled + Clone + 'static,
) -> RunStop {
    let mut make = move |_: ClientId, cfg: &ClientConfig| -> Box<dyn Handlers> {
        Box::new(Scripted(Settings::of(cfg), f.clone()))
    };
    run(s, &mut make).stop.expect("the run stops")
}

fn returned(actions: Vec<Action>) -> Handled {
    Handled::Returned {
        actions,
        output: Vec::new(),
    }
}

#[test]
fn bad_api_use_is_refused_in_the_learners_terms_never_a_panic() {
    let s = scenario("clients=2&ttl=2s&dur=10s");
    let refused = |stop: RunStop| match stop {
        RunStop::Client { stop, .. } => match stop.stop {
            Stop::Refused(r) => r,
            other => panic!("{other:?}"),
        },
        other => panic!("{other:?}"),
    };
    let forged = stop_of(&s, |_, _| returned(vec![Action::Write { token: 999 }]));
    assert_eq!(refused(forged), Refusal::TokenNeverGranted(999));
    let flood = stop_of(&s, |_, _| {
        returned(vec![Action::Acquire { ttl: 1_000_000 }; 1_001])
    });
    assert_eq!(refused(flood), Refusal::TooManyActions);
    let timers = stop_of(&s, |_, _| {
        returned(
            (0..40)
                .map(|i| Action::After {
                    name: format!("t{i}"),
                    delay: 1_000,
                })
                .collect(),
        )
    });
    assert_eq!(refused(timers), Refusal::TooManyTimers);
    let nameless = stop_of(&s, |_, _| {
        returned(vec![Action::After {
            name: String::new(),
            delay: 1,
        }])
    });
    assert_eq!(refused(nameless), Refusal::BadTimerName);
    // A timer re-armed at zero delay forever spins at one instant.
    let spin = stop_of(&s, |_, _| {
        returned(vec![Action::After {
            name: "again".into(),
            delay: 0,
        }])
    });
    assert!(matches!(spin, RunStop::Spin { .. }), "{spin:?}");
    let threw = stop_of(&s, |_, input| match input.kind {
        InputKind::Start => returned(vec![Action::After {
            name: "boom".into(),
            delay: 1_500_000,
        }]),
        _ => Handled::Threw {
            error: lease_lab::lab::own_client::protocol::Thrown {
                text: "ValueError: no".into(),
                line: 7,
                top_level: false,
            },
            output: Vec::new(),
        },
    });
    let RunStop::Client { at, stop, .. } = threw else {
        panic!("{threw:?}")
    };
    assert_eq!(at.as_micros(), 1_500_000);
    assert!(matches!(stop.stop, Stop::Threw(ref t) if t.line == 7));
    assert_eq!(stop.during, During::Timer("boom".into()));
    // A client whose top-level code threw as it was made is stopped by its first call, and
    // the stop names the top level, not that call's handler.
    let made_badly = stop_of(&s, |_, _| Handled::Threw {
        error: lease_lab::lab::own_client::protocol::Thrown {
            text: "NameError: name 'x' is not defined".into(),
            line: 2,
            top_level: true,
        },
        output: Vec::new(),
    });
    let RunStop::Client { at, stop, .. } = made_badly else {
        panic!("{made_badly:?}")
    };
    assert_eq!(at.as_micros(), 0);
    assert_eq!(stop.during, During::TopLevel);
}

#[test]
fn a_pause_freezes_the_learners_client() {
    // A 3 s pause of A at 1 s: no call of A's code between 1 s and 4 s.
    let s = scenario("clients=2&ttl=10s&dur=8s&fault=pause:A@1s+3s");
    let calls = std::rc::Rc::new(std::cell::RefCell::new(Vec::new()));
    let seen = calls.clone();
    let mut make = move |c: ClientId, cfg: &ClientConfig| -> Box<dyn Handlers> {
        let seen = seen.clone();
        let mut inner = Reference::new(Settings::of(cfg));
        Box::new(Scripted(
            Settings::of(cfg),
            move |_: &Settings, input: &Input<'_>| {
                if c == ClientId::A {
                    seen.borrow_mut().push(input.mono);
                }
                returned(inner.step(input))
            },
        ))
    };
    let own = run(&s, &mut make);
    assert_eq!(own.stop, None);
    let calls = calls.borrow();
    assert!(
        calls.iter().all(|&t| !(1_000_001..4_000_000).contains(&t)),
        "{calls:?}"
    );
    assert!(calls.iter().any(|&t| t >= 4_000_000));
}

/// The starter's search: pauses in and out of the write path, up to three, over an unfenced
/// 20-s run where the starter's flaw shows.
fn starter_search() -> (Scenario, SearchSpec) {
    let spec = SearchSpec {
        seed: 7,
        kinds: vec![FaultKind::Pause, FaultKind::PauseInWritePath],
        max_faults: 3,
        budget: 300,
    };
    (scenario("clients=2&ttl=2s&dur=20s&fencing=off"), spec)
}

#[test]
fn the_search_breaks_the_starter_and_shrinks_and_finds_nothing_against_the_reference() {
    let (base, spec) = starter_search();
    match search(&base, &spec, &mut starter(), |_: SearchAt| {}) {
        OwnSearch::Broke { found, .. } => assert!(found.plan.0.len() <= 2, "{found:?}"),
        other => panic!("{other:?}"),
    }
    let fenced = scenario("clients=2&ttl=2s&dur=20s");
    let spec = SearchSpec {
        budget: 100,
        ..spec
    };
    assert_eq!(
        search(&fenced, &spec, &mut reference(), |_: SearchAt| {}),
        OwnSearch::Held { ran: 100 }
    );
}

/// A client that releases its lease after 500 ms and writes on with the released token.
fn writes_after_release() -> impl FnMut(ClientId, &ClientConfig) -> Box<dyn Handlers> {
    |_, cfg| {
        let mut token = None;
        Box::new(Scripted(
            Settings::of(cfg),
            move |s: &Settings, input: &Input<'_>| {
                let mut actions = Vec::new();
                match (input.kind, input.answer, input.timer) {
                    (InputKind::Start, ..) => actions.push(Action::Acquire { ttl: s.ttl }),
                    (InputKind::Reply, Some(answer), _) if answer.kind == AnswerKind::Granted => {
                        token = answer.token;
                        actions.push(Action::After {
                            name: "release".into(),
                            delay: 500_000,
                        });
                        actions.push(Action::After {
                            name: "work".into(),
                            delay: 0,
                        });
                    }
                    (InputKind::Timer, _, Some("release")) => {
                        actions.extend(token.map(|token| Action::Release { token }));
                    }
                    (InputKind::Timer, _, Some("work")) => {
                        actions.extend(token.map(|token| Action::Write { token }));
                        actions.push(Action::After {
                            name: "work".into(),
                            delay: s.work_every,
                        });
                    }
                    _ => {}
                }
                returned(actions)
            },
        ))
    }
}

#[test]
fn a_client_that_writes_on_after_its_own_release_is_caught() {
    let s = scenario("clients=2&ttl=5s&dur=10s&faults=none");
    let (own, stop) = checked(&s, &mut writes_after_release());
    assert_eq!(stop, None);
    let CheckStatus::Broken { first, .. } = own.check(CheckId::NoWriteAfterLost) else {
        panic!("{:?}", statuses(&own));
    };
    let ViolationDetail::WriteAfterRelease { released_at, .. } = first.detail else {
        panic!("{first:?}");
    };
    // The first write after the release is the one judged.
    assert!(first.at > released_at, "{first:?}");
    assert!(first.at.as_micros() - released_at.as_micros() <= s.work_slice.as_micros());
    assert!(first
        .explanation()
        .contains("sent the release of that lease"));
}

/// A client that ticks every 100 ms and throws when a tick comes more than 50 ms late on its
/// monotonic clock: a pause of the node stops it; a wall-clock step does not.
fn throws_when_late() -> impl FnMut(ClientId, &ClientConfig) -> Box<dyn Handlers> {
    const TICK: i64 = 100_000;
    |_, cfg| {
        let mut due = 0;
        Box::new(Scripted(
            Settings::of(cfg),
            move |_: &Settings, input: &Input<'_>| {
                if input.kind == InputKind::Timer && input.mono > due + TICK / 2 {
                    return Handled::Threw {
                        error: lease_lab::lab::own_client::protocol::Thrown {
                            text: "Error: late".into(),
                            line: 1,
                            top_level: false,
                        },
                        output: Vec::new(),
                    };
                }
                due = input.mono + TICK;
                returned(vec![Action::After {
                    name: "tick".into(),
                    delay: TICK as u64,
                }])
            },
        ))
    }
}

#[test]
fn the_search_says_which_plan_it_runs_so_the_page_can_name_one_the_code_hung_under() {
    let base = scenario("clients=2&ttl=2s&dur=10s");
    let spec = SearchSpec {
        seed: 3,
        kinds: vec![FaultKind::Pause, FaultKind::ClockStep],
        max_faults: 1,
        budget: 500,
    };
    let mut told = Vec::new();
    let outcome = search(&base, &spec, &mut throws_when_late(), |at| told.push(at));
    let OwnSearch::Stopped { ran, index, plan } = outcome else {
        panic!("{outcome:?}");
    };
    // Plans with a clock step alone held first, so the plan that stopped is not the first.
    assert!(index > 0, "{index}");
    let plans: Vec<SearchAt> = (1..=ran).map(|ran| SearchAt::Plan { ran }).collect();
    assert_eq!(told, plans);
    // The page names the plan from the last progress alone, as the search drew it.
    assert_eq!(random_plan(&own_scenario(&base), &spec, ran - 1), plan);

    let (base, spec) = starter_search();
    let mut told = Vec::new();
    let OwnSearch::Broke { ran, first, .. } =
        search(&base, &spec, &mut starter(), |at| told.push(at))
    else {
        panic!("the starter must break");
    };
    assert_eq!(first.index + 1, ran);
    let shrinking = told
        .iter()
        .position(|at| matches!(at, SearchAt::Shrinking { .. }));
    let (plans, shrinks) = told.split_at(shrinking.expect("the shrinker tries smaller plans"));
    assert_eq!(
        plans,
        (1..=ran)
            .map(|ran| SearchAt::Plan { ran })
            .collect::<Vec<_>>()
    );
    assert!(shrinks.iter().all(|at| *at == SearchAt::Shrinking { ran }));
}

/// When client A's first write past its safe deadline was issued, found from the trace by
/// hand: the first write more than T after the send of the acquire or renew whose answer
/// (Granted or RenewOk) last reached A's code. A's clock must not drift (its monotonic
/// reading is then real time), which the caller's scenario assures.
fn first_write_past_the_deadline(run: &Run, ttl: u64) -> Option<u64> {
    let a = NodeId::Client(ClientId::A);
    let mut sent = Vec::new();
    let mut basis = None;
    let mut paused = false;
    for e in run.events().iter().filter(|e| e.node == a) {
        let answer = match e.kind {
            EventKind::Sent {
                msg: Message::Acquire { req, .. } | Message::Renew { req, .. },
                ..
            } => {
                sent.push((req, e.at.as_micros()));
                continue;
            }
            EventKind::Paused { .. } => {
                paused = true;
                continue;
            }
            EventKind::Woke => {
                paused = false;
                continue;
            }
            EventKind::Delivered { msg, .. } if !paused => msg,
            EventKind::Read { msg, .. } => msg,
            EventKind::WriteIssued { .. } => {
                if basis.is_some_and(|b: u64| e.at.as_micros() - b > ttl) {
                    return Some(e.at.as_micros());
                }
                continue;
            }
            _ => continue,
        };
        if let Message::Granted { req, .. } | Message::RenewOk { req, .. } = answer {
            let at = sent.iter().find(|(r, _)| *r == req).map(|(_, at)| *at);
            basis = basis.max(at);
        }
    }
    None
}

#[test]
fn the_starter_writes_on_as_a_zombie_past_its_safe_deadline_on_the_ntp_step_and_the_write_path_pause(
) {
    // The scenarios the starter's comment names, with their defaults (fencing on). It stops
    // at NOT_OWNER, but before that answer comes it writes on past its safe deadline (its
    // renewals wait on the wall clock, and no check stands before its writes): caught at the
    // first such write, by its own monotonic clock, while the built-in client breaks nothing.
    for id in ["2", "6"] {
        let s = &presets::preset(id).unwrap().scenario;
        assert!(s.policy.fencing, "preset {id}");
        assert!(
            !s.faults
                .0
                .iter()
                .any(|f| matches!(f.fault, lease_lab::model::Fault::ClockDrift { .. })),
            "preset {id}: A's clock must not drift for the hand count"
        );
        let (own, _) = checked(s, &mut starter());
        let theirs = builtin(s);
        assert!(statuses(&theirs).iter().all(|(_, b)| !b), "preset {id}");
        let CheckStatus::Broken { first, .. } = own.check(CheckId::NoWriteAfterLost) else {
            panic!("preset {id}: {:?}", statuses(&own));
        };
        let ttl = s.ttl.as_micros();
        let expected = first_write_past_the_deadline(&own, ttl).expect("a write past it");
        assert_eq!(first.at.as_micros(), expected, "preset {id}: {first:?}");
        let ViolationDetail::WriteAfterDeadline {
            sent_at, ttl: t, ..
        } = first.detail
        else {
            panic!("preset {id}: {first:?}");
        };
        assert_eq!(t, s.ttl);
        assert!(first.at.as_micros() - sent_at.as_micros() > ttl);
        let words = first.explanation();
        for part in [
            "monotonic clock",
            "safe deadline had passed",
            &format!("T = {}", s.ttl),
            &format!("at {sent_at}"),
        ] {
            assert!(words.contains(part), "preset {id}: {part:?} in {words}");
        }
        // The NOT_OWNER came later: the deadline is what catches the starter.
        if let Some(told) = own.events().iter().find(|e| {
            e.node == NodeId::Client(ClientId::A)
                && matches!(
                    e.kind,
                    EventKind::Delivered {
                        msg: Message::NotOwner { .. },
                        ..
                    } | EventKind::Read {
                        msg: Message::NotOwner { .. },
                        ..
                    }
                )
        }) {
            assert!(told.at > first.at, "preset {id}");
        }
        // Its zombie writes reach storage, where the fence rejects them.
        assert!(
            own.metrics().writes_rejected > theirs.metrics().writes_rejected,
            "preset {id}: {:?} {:?}",
            own.metrics(),
            theirs.metrics()
        );
    }
    // On preset 2 the write the pause held is judged when the starter issued it, before the
    // pause (as the built-in client's is): the first blamed write comes after A woke.
    let s = &presets::preset("2").unwrap().scenario;
    let (own, _) = checked(s, &mut starter());
    let woke = (own.events().iter())
        .find(|e| e.kind == EventKind::Woke)
        .expect("A wakes")
        .at;
    let CheckStatus::Broken { first, .. } = own.check(CheckId::NoWriteAfterLost) else {
        panic!()
    };
    assert!(first.at >= woke, "{first:?} {woke:?}");
    let mut unfenced = presets::preset("6").unwrap().scenario.clone();
    unfenced.policy.fencing = false;
    let (own, _) = checked(&unfenced, &mut starter());
    let broken: Vec<CheckId> = (statuses(&own).into_iter())
        .filter(|(_, b)| *b)
        .map(|(c, _)| c)
        .collect();
    assert_eq!(broken, [CheckId::NoWriteAfterLost, CheckId::OrderedByToken]);
    assert!(statuses(&builtin(&unfenced)).iter().all(|(_, b)| !b));
}

#[test]
fn a_late_write_is_judged_on_the_clients_own_monotonic_clock() {
    // A client that takes the lease once, never renews and writes every slice: with its
    // clock running 10 % slow it is blamed only once its own clock shows more than T since
    // the acquire was sent, later in real time than with a true clock.
    let blamed = |fields: &str| {
        let s = scenario(fields);
        let (own, _) = checked(&s, &mut deaf_once());
        let CheckStatus::Broken { first, .. } = own.check(CheckId::NoWriteAfterLost) else {
            panic!("{fields}: {:?}", statuses(&own));
        };
        let ViolationDetail::WriteAfterDeadline { sent_at, ttl, .. } = first.detail else {
            panic!("{fields}: {first:?}");
        };
        (first.at.as_micros() - sent_at.as_micros(), ttl.as_micros())
    };
    let (true_clock, ttl) = blamed("ttl=2s&dur=10s");
    assert!(true_clock > ttl, "{true_clock} {ttl}");
    let (slow, _) = blamed("ttl=2s&dur=10s&fault=drift:A@0s-100000ppm");
    assert!(slow * 9 / 10 > ttl, "{slow} {ttl}");
    assert!(slow > true_clock, "{slow} {true_clock}");
}

/// Arms the scripted clients' work timer `delay` (µs) from now.
fn work_after(delay: u64) -> Action {
    Action::After {
        name: "work".into(),
        delay,
    }
}

/// A work slice of the scripted clients: one write with their token, then the next slice.
fn write_and_work_again(actions: &mut Vec<Action>, token: Option<u64>, s: &Settings) {
    actions.push(Action::Write {
        token: token.expect("a work slice runs only once the lease is granted"),
    });
    actions.push(work_after(s.work_every));
}

/// Takes the lease once and writes every work slice with it, never renewing.
fn deaf_once() -> impl FnMut(ClientId, &ClientConfig) -> Box<dyn Handlers> {
    |_, cfg| {
        let mut token = None;
        Box::new(Scripted(
            Settings::of(cfg),
            move |s: &Settings, input: &Input<'_>| {
                let mut actions = Vec::new();
                match input.kind {
                    InputKind::Start => actions.push(Action::Acquire { ttl: s.ttl }),
                    InputKind::Reply => {
                        let a = input.answer.unwrap();
                        if a.kind == AnswerKind::Granted {
                            token = a.token;
                            actions.push(work_after(0));
                        }
                    }
                    InputKind::Timer => write_and_work_again(&mut actions, token, s),
                }
                Handled::Returned {
                    actions,
                    output: Vec::new(),
                }
            },
        ))
    }
}

/// Every preset's task as the page packs it for the sandbox's worker. The Node layer
/// (`tests/sandbox/solutions.test.mjs`) runs both reference solutions on these through the
/// real client_worker wasm, so the file must follow the model's scenario format.
#[test]
fn the_node_layers_preset_tasks_are_the_presets_packed_as_the_page_packs_them() {
    let entries: Vec<String> = presets::presets()
        .iter()
        .map(|preset| {
            let task = pack(&preset.scenario).expect("a preset packs");
            format!("  \"{}\": \"{task}\"", preset.id)
        })
        .collect();
    let expected = format!("{{\n{}\n}}\n", entries.join(",\n"));
    let path = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/tests/sandbox/preset-tasks.json"
    );
    let file = std::fs::read_to_string(path).unwrap_or_default();
    assert!(
        file == expected,
        "tests/sandbox/preset-tasks.json is out of date; if the scenario format changed on \
         purpose, write this into it:\n{expected}"
    );
}

#[test]
fn the_lines_printed_before_a_handler_threw_are_kept() {
    let s = scenario("clients=2&ttl=2s&dur=10s");
    let mut make = move |_: ClientId, cfg: &ClientConfig| -> Box<dyn Handlers> {
        Box::new(Scripted(
            Settings::of(cfg),
            move |_: &Settings, input: &Input<'_>| match input.kind {
                InputKind::Start => Handled::Returned {
                    actions: vec![Action::After {
                        name: "boom".into(),
                        delay: 520_000,
                    }],
                    output: vec!["started".into()],
                },
                _ => Handled::Threw {
                    error: lease_lab::lab::own_client::protocol::Thrown {
                        text: "Error: kaboom".into(),
                        line: 3,
                        top_level: false,
                    },
                    output: vec!["timer boom".into()],
                },
            },
        ))
    };
    let own = run(&s, &mut make);
    assert!(
        matches!(own.stop, Some(RunStop::Client { .. })),
        "{:?}",
        own.stop
    );
    let a: Vec<(u64, &str)> = (own.printed.iter())
        .filter(|p| p.client == ClientId::A)
        .map(|p| (p.at.0, p.text.as_str()))
        .collect();
    assert_eq!(a.last().map(|(_, text)| *text), Some("timer boom"), "{a:?}");
    assert!(a.last().unwrap().0 >= 520_000, "{a:?}");
}

#[test]
fn a_run_keeps_each_clients_first_lines_and_the_runtimes_note_that_more_were_dropped() {
    // The runtime sends its cap's worth of lines and one note; a flood in one call keeps both,
    // and lines printed by later calls are not kept once a client's run is full.
    let s = scenario("clients=2&ttl=2s&dur=10s");
    let cap = lease_lab::lab::own_client::machine::MAX_OUTPUT_LINES;
    let mut make = move |_: ClientId, cfg: &ClientConfig| -> Box<dyn Handlers> {
        Box::new(Scripted(
            Settings::of(cfg),
            move |_: &Settings, input: &Input<'_>| match input.kind {
                InputKind::Start => {
                    let mut output: Vec<String> = (0..cap).map(|i| format!("line {i}")).collect();
                    output.push("more output was dropped".into());
                    output.push("one line too many".into());
                    let after = Action::After {
                        name: "later".into(),
                        delay: 100_000,
                    };
                    Handled::Returned {
                        actions: vec![after],
                        output,
                    }
                }
                _ => Handled::Returned {
                    actions: Vec::new(),
                    output: vec!["printed later".into()],
                },
            },
        ))
    };
    let own = run(&s, &mut make);
    let texts: Vec<&str> = (own.printed.iter())
        .filter(|p| p.client == ClientId::A)
        .map(|p| p.text.as_str())
        .collect();
    assert_eq!(texts.len(), cap + 1);
    assert_eq!(texts[0], "line 0");
    assert_eq!(texts[cap - 1], format!("line {}", cap - 1));
    assert_eq!(texts[cap], "more output was dropped");
}
