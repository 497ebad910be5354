//! The model's typed reasons for refusing a value, a fault or a scenario, in the words of
//! `content/reasons.toml`: each is a phrase that completes a link notice or a form's message.

use super::content::{REASONS, SANDBOX};
use crate::lesson::sentences;
use crate::model::faults::text::{print_node, FaultError};
use crate::model::faults::{FaultLimit, Targets};
use crate::model::fields::SCENARIO_FIELDS;
use crate::model::notation::ValueError;
use crate::model::{FaultKind, LinkDelay, ScenarioError, ScenarioProblem, SimDuration, SimTime};

/// Why a value could not be read: "is not a number".
pub fn value(error: ValueError) -> &'static str {
    let words = &REASONS.value;
    match error {
        ValueError::Empty => words.empty,
        ValueError::Negative => words.negative,
        ValueError::NotANumber => words.not_a_number,
        ValueError::UnknownUnit => words.unknown_unit,
        ValueError::TooPrecise => words.too_precise,
        ValueError::TooLarge => words.too_large,
        ValueError::NotASwitch => words.not_a_switch,
        ValueError::NotAFraction => words.not_a_fraction,
        ValueError::NotText => words.not_text,
    }
}

/// Why a fault could not be read: "a stop-the-world pause with a negative duration".
pub fn fault(error: &FaultError) -> String {
    let words = &REASONS.fault;
    let one = |kind: FaultKind| SANDBOX.fault(kind.keyword()).one;
    match *error {
        FaultError::UnknownKind => {
            let known: Vec<&str> = FaultKind::ALL.iter().map(|k| k.keyword()).collect();
            sentences::reasons::fault::UnknownKind {
                known: known.join(", "),
            }
            .to_string()
        }
        FaultError::NoTime => words.no_time.to_owned(),
        FaultError::BadTime(e) => sentences::reasons::fault::BadTime { why: value(e) }.to_string(),
        FaultError::BadNode(kind) => {
            let fault = one(kind);
            match kind.targets() {
                Targets::Client => sentences::reasons::fault::BadClient { fault }.to_string(),
                Targets::Node => sentences::reasons::fault::BadNode { fault }.to_string(),
                Targets::Link => sentences::reasons::fault::BadLink { fault }.to_string(),
                Targets::Nothing => sentences::reasons::fault::NeedsNoNode { fault }.to_string(),
            }
        }
        FaultError::NoAmount(kind) => {
            sentences::reasons::fault::NoAmount { fault: one(kind) }.to_string()
        }
        FaultError::NegativeLength(kind) => {
            sentences::reasons::fault::NegativeLength { fault: one(kind) }.to_string()
        }
        FaultError::BadAmount(kind, e) => sentences::reasons::fault::BadAmount {
            fault: one(kind),
            why: value(e),
        }
        .to_string(),
        FaultError::UnexpectedAmount(kind) => {
            sentences::reasons::fault::UnexpectedAmount { fault: one(kind) }.to_string()
        }
    }
}

/// Why a scenario was refused, naming its field as the Parameters form labels it:
/// "Packet loss: 101% is not between 0% and 100%".
pub fn scenario(error: &ScenarioError) -> String {
    sentences::reasons::scenario::Refused {
        field: field_label(error.field),
        why: problem(error.problem),
    }
    .to_string()
}

/// The learner's name for a field of [`crate::model::Scenario`]: the form's label.
fn field_label(field: &str) -> &'static str {
    match field {
        "faults" => REASONS.scenario.faults,
        "links" => REASONS.scenario.links,
        _ => SCENARIO_FIELDS
            .iter()
            .find(|f| f.field == field)
            .map_or(REASONS.scenario.other, |f| SANDBOX.field(f.key).label),
    }
}

/// What is wrong with a scenario: "a fault at 70.000 s is after the end of the run (60.000 s)".
fn problem(problem: ScenarioProblem) -> String {
    let words = &REASONS.scenario;
    match problem {
        ScenarioProblem::OutOfRange {
            value,
            min,
            max,
            notation,
        } => sentences::reasons::scenario::OutOfRange {
            value: notation.print(value),
            min: notation.print(min),
            max: notation.print(max),
        }
        .to_string(),
        ScenarioProblem::NotARenewFraction => words.not_a_renew_fraction.to_owned(),
        ScenarioProblem::RenewsTooOften => words.renews_too_often.to_owned(),
        ScenarioProblem::MarginNotUnderTtl { margin, ttl } => {
            sentences::reasons::scenario::MarginNotUnderTtl { margin, ttl }.to_string()
        }
        ScenarioProblem::TooManyEvents { estimate, max } => {
            sentences::reasons::scenario::TooManyEvents { estimate, max }.to_string()
        }
        ScenarioProblem::TooManyFaults { max } => {
            sentences::reasons::scenario::TooManyFaults { max }.to_string()
        }
        ScenarioProblem::FaultAfterEnd { at, end } => {
            sentences::reasons::scenario::FaultAfterEnd { at, end }.to_string()
        }
        ScenarioProblem::FaultUnknownNode { kind, at, last } => {
            sentences::reasons::scenario::FaultUnknownNode {
                fault: SANDBOX.fault(kind.keyword()).label,
                at,
                last: last.letter(),
            }
            .to_string()
        }
        ScenarioProblem::FaultSameNode { kind, at } => {
            sentences::reasons::scenario::FaultSameNode {
                fault: SANDBOX.fault(kind.keyword()).label,
                at,
            }
            .to_string()
        }
        ScenarioProblem::FaultOverLimit { kind, at, limit } => fault_over_limit(kind, at, limit),
        ScenarioProblem::TooManyLinks { max } => {
            sentences::reasons::scenario::TooManyLinks { max }.to_string()
        }
        ScenarioProblem::LinkNodes => words.link_nodes.to_owned(),
        ScenarioProblem::LinkTooSlow { delay, value, max } => link_too_slow(delay, value, max),
        ScenarioProblem::LinkLoss => words.link_loss.to_owned(),
        ScenarioProblem::LinkTwice { a, b } => sentences::reasons::scenario::LinkTwice {
            link: format!("{}-{}", print_node(a), print_node(b)),
        }
        .to_string(),
    }
}

fn fault_over_limit(kind: FaultKind, at: SimTime, limit: FaultLimit) -> String {
    let fault = SANDBOX.fault(kind.keyword()).label;
    match limit {
        FaultLimit::Interval(max) => {
            sentences::reasons::scenario::FaultOverInterval { fault, at, max }.to_string()
        }
        FaultLimit::DriftPpm(max) => {
            sentences::reasons::scenario::FaultOverDrift { fault, at, max }.to_string()
        }
    }
}

fn link_too_slow(delay: LinkDelay, value: SimDuration, max: SimDuration) -> String {
    let words = &REASONS.scenario;
    let delay = match delay {
        LinkDelay::RoundTrip => words.round_trip,
        LinkDelay::Jitter => words.jitter,
    };
    sentences::reasons::scenario::LinkTooSlow { delay, value, max }.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::faults::text::parse_fault;
    use crate::model::{ClientId, LinkOverride, NodeId, Scenario};

    #[test]
    fn each_value_error_has_its_own_words() {
        let all = [
            ValueError::Empty,
            ValueError::Negative,
            ValueError::NotANumber,
            ValueError::UnknownUnit,
            ValueError::TooPrecise,
            ValueError::TooLarge,
            ValueError::NotASwitch,
            ValueError::NotAFraction,
            ValueError::NotText,
        ];
        let words: Vec<&str> = all.into_iter().map(value).collect();
        for (i, w) in words.iter().enumerate() {
            assert!(!w.is_empty() && !words[..i].contains(w), "{w:?}");
        }
    }

    #[test]
    fn a_fault_reason_names_the_kind_and_the_value_reason() {
        let negative = fault(&parse_fault("pause:A@2s-15s").unwrap_err());
        assert!(
            negative.contains(SANDBOX.fault(FaultKind::Pause.keyword()).one),
            "{negative}"
        );
        let bad_time = fault(&parse_fault("pause:A@-2s+1s").unwrap_err());
        assert!(bad_time.contains(value(ValueError::Negative)), "{bad_time}");
        let unknown = fault(&parse_fault("explode:A@2s").unwrap_err());
        for kind in FaultKind::ALL {
            assert!(unknown.contains(kind.keyword()), "{unknown}");
        }
        for reason in [negative, bad_time, unknown] {
            assert!(!reason.contains('{'), "{reason}");
        }
    }

    #[test]
    fn a_scenario_reason_names_its_field_and_numbers() {
        let short_ttl = Scenario {
            ttl: SimDuration::ZERO,
            ..Scenario::default()
        };
        let reason = scenario(&short_ttl.validate().unwrap_err());
        assert!(reason.starts_with("Lease TTL (T): "), "{reason}");
        assert!(reason.contains(&SimDuration::ZERO.to_string()), "{reason}");
        let slow = SimDuration::from_secs(120);
        let slow_link = Scenario {
            links: vec![LinkOverride {
                a: NodeId::Client(ClientId(0)),
                b: NodeId::Service,
                rtt: slow,
                jitter: SimDuration::ZERO,
                loss_ppm: 0,
            }],
            ..Scenario::default()
        };
        let reason = scenario(&slow_link.validate().unwrap_err());
        assert!(reason.starts_with(REASONS.scenario.links), "{reason}");
        assert!(reason.contains(REASONS.scenario.round_trip), "{reason}");
        assert!(reason.contains(&slow.to_string()), "{reason}");
        assert!(!reason.contains('{'), "{reason}");
    }

    #[test]
    fn a_fault_over_its_limit_names_the_limit_and_an_unknown_node_says_so() {
        let with = |fault: &str| {
            let mut s = Scenario::default();
            s.faults.0.push(parse_fault(fault).unwrap());
            scenario(&s.validate().unwrap_err())
        };
        let drift = with("drift:A@1s+250000ppm");
        assert!(drift.contains("100000 ppm either way"), "{drift}");
        let step = with("step:A@1s-172800s");
        let max = crate::model::scenario::limits::MAX_INTERVAL;
        assert!(
            step.ends_with(&format!("over its limit of {max}")),
            "{step}"
        );
        let unknown = with("pause:C@1s+1s");
        assert!(
            unknown.contains("names a node this scenario does not have (its clients are A to B"),
            "{unknown}"
        );
        let twice = with("partition:A-A@1s+1s");
        assert!(
            twice.contains("names the same node at both ends"),
            "{twice}"
        );
        for reason in [drift, step, unknown, twice] {
            assert!(reason.starts_with(REASONS.scenario.faults), "{reason}");
            assert!(!reason.contains('{'), "{reason}");
        }
    }

    #[test]
    fn a_fault_without_the_target_its_kind_takes_says_what_that_is() {
        let reason = |text: &str| fault(&parse_fault(text).unwrap_err());
        let cases = [
            ("partition:A@2s+40s", "a partition", "A-service"),
            ("delay:A@2s+40s", "", "A-service"),
            ("pause:service@2s+1s", "a stop-the-world pause", "a client"),
            ("crash:storage@2s", "a crash", "a client"),
            ("step:x@2s-8s", "", "service or storage"),
            ("revoke:A@2s", "a revoked lease", "takes none"),
        ];
        for (text, starts, names) in cases {
            let said = reason(text);
            assert!(said.starts_with(starts), "{text}: {said}");
            assert!(said.contains(names), "{text}: {said}");
            assert!(!said.contains('{'), "{text}: {said}");
        }
    }

    #[test]
    fn a_scenario_reason_speaks_the_forms_words_not_the_models() {
        let lossy = Scenario {
            loss_ppm: 1_020_000,
            ..Scenario::default()
        };
        let reason = scenario(&lossy.validate().unwrap_err());
        assert_eq!(reason, "Packet loss: 102% is not between 0% and 100%");
        let late_token = Scenario {
            token_start: u64::MAX,
            ..Scenario::default()
        };
        let reason = scenario(&late_token.validate().unwrap_err());
        assert!(reason.starts_with("First fencing token: "), "{reason}");
        for scenario_field in SCENARIO_FIELDS.iter() {
            assert_ne!(field_label(scenario_field.field), REASONS.scenario.other);
        }
    }

    #[test]
    fn a_short_ttl_under_the_default_margin_names_the_margin_and_what_to_do() {
        let short = Scenario {
            ttl: SimDuration::from_millis(40),
            ..Scenario::default()
        };
        let reason = scenario(&short.validate().unwrap_err());
        assert!(reason.starts_with("Drift margin: "), "{reason}");
        assert!(
            reason.contains(&Scenario::default().drift_margin.to_string()),
            "{reason}"
        );
        assert!(reason.contains("TTL of 40 ms"), "{reason}");
        assert!(reason.contains("lower the drift margin"), "{reason}");
    }
}
