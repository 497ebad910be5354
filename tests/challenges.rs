//! Every challenge of `content/challenges.toml`, run through the model: its data reads, its
//! goal names known checks and metrics, its start misses the goal, its reference answer
//! meets it, the same try always gets the same verdict and trace hash (the committed hashes
//! are checked in wasm too), and its try links survive a round trip while tampered ones are
//! refused. A new challenge is tested by these without a new test.

use lease_lab::lab::challenge::link::{check_try, link_of, read_link};
use lease_lab::lab::challenge::spec::{all, Spec};
use lease_lab::lab::challenge::{grade, words, Refusal};
use lease_lab::lesson::content::CHALLENGES;
use lease_lab::share::{decode, encode};

/// Each challenge's committed trace hashes: its start's verdict and its answer's.
const HASHES: &[(&str, u64, u64)] = &include!("challenge_hashes.in");

#[test]
fn every_challenge_reads_and_there_are_at_least_eight() {
    for challenge in CHALLENGES.challenges {
        if let Err(problem) = Spec::read(challenge) {
            panic!("challenge {}: {problem:?}", challenge.id);
        }
    }
    assert_eq!(all().len(), CHALLENGES.challenges.len());
    assert!(all().len() >= 8);
}

#[test]
fn every_challenge_links_a_lesson_section_that_exists() {
    for spec in all() {
        assert!(
            words::section(spec.text.lesson).is_some(),
            "{}: no lesson section {}",
            spec.text.id,
            spec.text.lesson
        );
    }
}

#[test]
fn every_start_misses_its_goal_and_every_reference_answer_meets_it() {
    for spec in all() {
        let id = spec.text.id;
        check_try(spec, &spec.start).unwrap_or_else(|r| panic!("{id}: start refused: {r:?}"));
        let start = grade(spec, &spec.start).unwrap_or_else(|e| panic!("{id}: {e:?}"));
        assert!(!start.solved(), "{id}: the start already meets the goal");
        let answer = spec
            .answer()
            .unwrap_or_else(|problems| panic!("{id}: answer unreadable: {problems:?}"));
        check_try(spec, &answer).unwrap_or_else(|r| panic!("{id}: answer refused: {r:?}"));
        let verdict = grade(spec, &answer).unwrap_or_else(|e| panic!("{id}: {e:?}"));
        assert!(
            verdict.solved(),
            "{id}: the reference answer fails: {:?}",
            verdict.failure
        );
    }
}

#[test]
fn the_same_try_gets_the_same_verdict_and_its_committed_trace_hash() {
    for spec in all() {
        let id = spec.text.id;
        let answer = spec.answer().unwrap();
        let Some(&(_, start_hash, answer_hash)) = HASHES.iter().find(|(h, _, _)| *h == id) else {
            let start = grade(spec, &spec.start).unwrap().trace_hash;
            let reference = grade(spec, &answer).unwrap().trace_hash;
            panic!(
                "{id} has no committed hashes: once its verdicts are right, add this line to \
                 tests/challenge_hashes.in: (\"{id}\", {start:#018x}, {reference:#018x}),"
            );
        };
        for (attempt, want) in [(&spec.start, start_hash), (&answer, answer_hash)] {
            let first = grade(spec, attempt).unwrap();
            assert_eq!(first, grade(spec, attempt).unwrap(), "{id}");
            assert_eq!(first.trace_hash, want, "{id}: {:#018x}", first.trace_hash);
        }
    }
    assert_eq!(
        HASHES.len(),
        all().len(),
        "a committed line for a challenge that is gone"
    );
}

#[test]
fn a_try_link_round_trips_and_a_tampered_one_is_refused() {
    for spec in all() {
        let id = spec.text.id;
        let answer = spec.answer().unwrap();
        let decoded = decode(&encode(&link_of(spec, &answer)));
        assert!(decoded.problems.is_empty(), "{id}: {:?}", decoded.problems);
        let challenge = decoded.state.challenge.clone().unwrap();
        let (read, attempt) = read_link(&challenge, decoded.state.lab.as_ref()).unwrap();
        assert_eq!((read.text.id, &attempt), (id, &answer));

        let other_goal = format!("{id}.0123456789abcdef");
        assert_eq!(
            read_link(&other_goal, decoded.state.lab.as_ref()).err(),
            Some(Refusal::ChangedGoal(spec.text.title))
        );
        let unknown = challenge.replacen(id, "no-such-challenge", 1);
        assert_eq!(
            read_link(&unknown, decoded.state.lab.as_ref()).err(),
            Some(Refusal::UnknownChallenge("no-such-challenge".to_owned()))
        );
        let mut reseeded = decoded.state.lab.clone().unwrap();
        reseeded.scenario.seed += 1;
        assert!(matches!(
            read_link(&challenge, Some(&reseeded)).err(),
            Some(Refusal::NotAllowed(_))
        ));
    }
}

#[test]
fn a_link_with_a_value_outside_the_allowed_range_is_refused_with_the_range_named() {
    let spec = all().iter().find(|s| s.text.id == "pitfall").unwrap();
    let link = encode(&link_of(spec, &spec.start)).replacen("ttl=500ms", "ttl=20s", 1);
    let link = if link.contains("ttl=20s") {
        link
    } else {
        format!("{link}&ttl=20s")
    };
    let decoded = decode(&link);
    let refusal = read_link(
        decoded.state.challenge.as_deref().unwrap(),
        decoded.state.lab.as_ref(),
    )
    .err()
    .expect("refused");
    let sentence = refusal.describe();
    assert!(
        sentence.contains("is 20s, outside the allowed range from 300ms to 3s"),
        "{sentence}"
    );
}

#[test]
fn a_wrong_try_names_the_failed_condition_and_when() {
    for spec in all() {
        let verdict = grade(spec, &spec.start).unwrap();
        let failure = verdict.failure.unwrap();
        let sentence = words::failed(&failure);
        assert!(sentence.contains(&words::condition(failure.condition)));
        assert!(sentence.contains(&failure.at.to_string()), "{sentence}");
        assert!(!sentence.contains('{'), "{sentence}");
        assert!(failure.scenario.validate().is_ok());
    }
}

/// The pause challenge's last hint gives the smallest T that survives the pause at T/3 and
/// at T/2 ("about 640 ms", "about 830 ms"): those tries are solved, and ones a few per cent
/// lower are not, so the hint's figures are the model's.
#[test]
fn the_pause_challenges_hint_names_the_model_s_threshold() {
    let spec = all().iter().find(|s| s.text.id == "pitfall").unwrap();
    let hint = spec.text.hints.last().unwrap();
    assert!(hint.contains("640 ms") && hint.contains("830 ms"), "{hint}");
    for (fields, solved) in [
        ("ttl=640ms&renew=1/3", true),
        ("ttl=610ms&renew=1/3", false),
        ("ttl=830ms&renew=1/2", true),
        ("ttl=800ms&renew=1/2", false),
    ] {
        let attempt = lease_lab::share::scenario_with(&spec.start, fields).unwrap();
        check_try(spec, &attempt).unwrap();
        let verdict = grade(spec, &attempt).unwrap();
        assert_eq!(verdict.solved(), solved, "{fields}: {:?}", verdict.failure);
    }
}

/// A bound on a metric is graded on the whole run, and the sentence names the moment it was
/// first passed: the count it gives for that moment is the one "Go to" shows there (it gave
/// the whole run's 21 renewals "at t = 14 s", where the laboratory shows 11).
#[test]
fn a_missed_bound_gives_the_count_at_the_moment_it_names_and_over_the_whole_run() {
    use lease_lab::lab::challenge::grade::Measured;
    use lease_lab::model::{RunQuestions, RunStore, Simulation};
    let mut bounds = 0;
    for spec in all() {
        let failure = grade(spec, &spec.start).unwrap().failure.unwrap();
        let Measured::Value { at, whole } = failure.measured else {
            continue;
        };
        bounds += 1;
        let lease_lab::lab::challenge::Condition::AtMost(metric, _) = failure.condition else {
            panic!("{}: a value for a condition without a metric", spec.text.id);
        };
        let run = Simulation::run(&failure.scenario);
        assert_eq!(Some(at), metric.read(&run.metrics_at(failure.at)));
        assert_eq!(Some(whole), metric.read(run.metrics()));
        let sentence = words::failed(&failure);
        assert!(sentence.contains(&metric.print(at)), "{sentence}");
        assert!(sentence.contains(&metric.print(whole)), "{sentence}");
    }
    assert!(bounds > 0);
    let blip = all().iter().find(|s| s.text.id == "blip-renewals").unwrap();
    let failure = grade(blip, &blip.start).unwrap().failure.unwrap();
    assert_eq!(
        words::failed(&failure),
        "Not yet. This condition failed: Renewals sent: at most 10. At t = 14.000 s, Renewals \
         sent had reached 11 (21 over the whole run)."
    );
}

/// The refusal of `spec`'s start with one input of the form changed to `text`.
fn refused_with(spec: &Spec, key: &str, text: &str) -> Refusal {
    use lease_lab::lab::challenge::link::Answer;
    let mut answer = Answer::of(spec, &spec.start);
    if key == "faults" {
        answer.faults = text.to_owned();
    } else {
        answer.fields.iter_mut().find(|(k, _)| *k == key).unwrap().1 = text.to_owned();
    }
    answer.attempt(spec).expect_err("refused")
}

/// What the learner typed into a challenge's form is refused as their answer, not as a link,
/// in sentences that read: a value that is not a number, a kind named with its own article.
#[test]
fn a_refused_answer_from_the_form_is_the_learner_s_answer_in_plain_sentences() {
    let pitfall = all().iter().find(|s| s.text.id == "pitfall").unwrap();
    let typed =
        |spec: &Spec, key: &str, text: &str| refused_with(spec, key, text).describe_answer();
    let out_of_range = typed(pitfall, "ttl", "5s");
    assert!(!out_of_range.contains("link"), "{out_of_range}");
    assert!(out_of_range.starts_with("Your answer"), "{out_of_range}");
    assert!(
        out_of_range.contains("is 5s, outside the allowed range"),
        "{out_of_range}"
    );
    assert_eq!(
        typed(pitfall, "ttl", "banana"),
        "Your answer was not checked: its Lease TTL (T) “banana” is not a number. Change it and \
         press Check my answer again."
    );
    let unfenced = all().iter().find(|s| s.text.id == "break-it").unwrap();
    let step = typed(unfenced, "faults", "step:A@2s-8s");
    assert!(step.contains("it uses an NTP step, which"), "{step}");
    let hours = typed(pitfall, "ttl", "10h");
    assert!(hours.contains("“10h” has a unit"), "{hours}");
    assert!(!hours.contains("not a number"), "{hours}");
}

/// A refusal names the input of the form it is about, so the form can mark that one.
#[test]
fn a_refused_answer_marks_the_input_it_is_about() {
    use lease_lab::lab::challenge::link::AnswerInput;
    let pitfall = all().iter().find(|s| s.text.id == "pitfall").unwrap();
    let unfenced = all().iter().find(|s| s.text.id == "break-it").unwrap();
    let refused = |spec: &Spec, key: &str, text: &str| refused_with(spec, key, text).input();
    assert_eq!(
        refused(pitfall, "ttl", "x"),
        Some(AnswerInput::Field("ttl"))
    );
    assert_eq!(
        refused(pitfall, "renew", "9/10"),
        Some(AnswerInput::Field("renew"))
    );
    assert_eq!(
        refused(unfenced, "faults", "step:A@2s-8s"),
        Some(AnswerInput::Faults)
    );
    assert_eq!(
        refused(unfenced, "faults", "pause:A"),
        Some(AnswerInput::Faults)
    );
}

/// A solved challenge's text must not credit an answer the learner may not have given: where
/// the learner chooses the heartbeat, it names no fraction of T ("at T/3" was shown for T/2).
#[test]
fn a_success_text_names_no_heartbeat_the_learner_chooses() {
    for spec in all().iter().filter(|s| s.allowed("renew").is_some()) {
        let solved = spec.text.solved;
        let names_fraction = solved
            .match_indices("T/")
            .any(|(i, _)| solved[i + 2..].starts_with(|c: char| c.is_ascii_digit()));
        assert!(!names_fraction, "{}: {solved}", spec.text.id);
    }
}
