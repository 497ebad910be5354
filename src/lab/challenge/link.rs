//! A try at a challenge: the scenario the learner's answer describes, checked against what
//! the challenge lets them change, and its share link (the laboratory's own link of the try,
//! plus `challenge=<id>.<fingerprint>`). A link is untrusted: one with an unknown challenge,
//! a changed goal or values the challenge does not allow is refused with a plain sentence,
//! and is never graded.

use super::spec::{by_id, Spec};
use crate::lab::PolicySwitch;
use crate::lesson::content::{CHALLENGES, SANDBOX};
use crate::lesson::reasons;
use crate::lesson::sentences;
use crate::model::faults::text::{parse_fault, FaultError};
use crate::model::fields::SCENARIO_FIELDS;
use crate::model::notation::ValueError;
use crate::model::{FaultKind, Scenario, ScenarioError, SimTime, TimedFault};
use crate::route::Tab;
use crate::share::{LabLink, LinkState};

/// Why a try is refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Refusal {
    /// No challenge has this id.
    UnknownChallenge(String),
    /// The link's fingerprint is not the challenge's: another goal.
    ChangedGoal(&'static str),
    /// A field or switch the challenge keeps fixed, by its name.
    NotAllowed(&'static str),
    /// The network's per-link settings changed.
    LinksChanged,
    /// The challenge's own faults were changed or removed.
    StartFaultsChanged,
    /// A field, by its key, outside its range.
    OutOfRange {
        key: &'static str,
        value: String,
        min: String,
        max: String,
    },
    /// More switches flipped than allowed.
    TooManyFlips(usize),
    /// More faults added than allowed.
    TooManyFaults { count: usize, max: usize },
    /// A kind of fault the challenge does not offer.
    KindNotAllowed(FaultKind),
    /// A fault line that cannot be read.
    BadFault { text: String, why: FaultError },
    /// A field's text, by the field's key, that cannot be read.
    BadValue {
        key: &'static str,
        text: String,
        why: ValueError,
    },
    /// The scenario cannot run.
    Inconsistent(ScenarioError),
}

impl Refusal {
    /// The plain sentence the page shows when a link carried this try.
    pub fn describe(&self) -> String {
        sentences::challenges::words::Refused { why: self.why() }.to_string()
    }

    /// The plain sentence the page shows when the learner typed this try into the form.
    pub fn describe_answer(&self) -> String {
        sentences::challenges::words::RefusedAnswer { why: self.why() }.to_string()
    }

    /// Why, as the clause both sentences end with.
    fn why(&self) -> String {
        let w = &CHALLENGES.words;
        let why = match self {
            Refusal::UnknownChallenge(id) => {
                sentences::challenges::words::UnknownChallenge { id: quote(id) }.to_string()
            }
            Refusal::ChangedGoal(title) => {
                sentences::challenges::words::ChangedGoal { title: *title }.to_string()
            }
            Refusal::NotAllowed(what) => {
                sentences::challenges::words::NotAllowed { what: *what }.to_string()
            }
            Refusal::LinksChanged => sentences::challenges::words::NotAllowed {
                what: w.links_changed,
            }
            .to_string(),
            Refusal::StartFaultsChanged => sentences::challenges::words::NotAllowed {
                what: w.start_faults,
            }
            .to_string(),
            Refusal::OutOfRange {
                key,
                value,
                min,
                max,
            } => sentences::challenges::words::OutOfRange {
                label: SANDBOX.field(key).label,
                value: value.as_str(),
                min: min.as_str(),
                max: max.as_str(),
            }
            .to_string(),
            Refusal::TooManyFlips(count) => {
                sentences::challenges::words::TooManyFlips { count }.to_string()
            }
            Refusal::TooManyFaults { count, max } => {
                sentences::challenges::words::TooManyFaults { count, max }.to_string()
            }
            Refusal::KindNotAllowed(kind) => sentences::challenges::words::KindNotAllowed {
                kind: SANDBOX.fault(kind.keyword()).one,
            }
            .to_string(),
            Refusal::BadFault { text, why } => sentences::challenges::words::BadFault {
                text: quote(text),
                why: reasons::fault(why),
            }
            .to_string(),
            Refusal::BadValue { key, text, why } => sentences::challenges::words::BadValue {
                label: SANDBOX.field(key).label.to_owned(),
                text: quote(text),
                why: reasons::value(*why),
            }
            .to_string(),
            Refusal::Inconsistent(e) => sentences::challenges::words::Inconsistent {
                why: reasons::scenario(e),
            }
            .to_string(),
        };
        why
    }

    /// The input of the answer form this refusal is about, if it is about one.
    pub fn input(&self) -> Option<AnswerInput> {
        match self {
            Refusal::OutOfRange { key, .. } | Refusal::BadValue { key, .. } => {
                Some(AnswerInput::Field(key))
            }
            Refusal::TooManyFaults { .. }
            | Refusal::KindNotAllowed(_)
            | Refusal::BadFault { .. } => Some(AnswerInput::Faults),
            Refusal::Inconsistent(error) if error.field == "faults" => Some(AnswerInput::Faults),
            Refusal::Inconsistent(error) => SCENARIO_FIELDS
                .iter()
                .find(|f| f.field == error.field)
                .map(|f| AnswerInput::Field(f.key)),
            _ => None,
        }
    }
}

/// One input of a challenge's answer form.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnswerInput {
    /// A scenario field, by its key.
    Field(&'static str),
    /// The faults the learner adds.
    Faults,
}

/// Text from a link or a form, shortened for a sentence (shown as text, never as HTML).
fn quote(text: &str) -> String {
    let mut shown: String = text.chars().filter(|c| !c.is_control()).take(40).collect();
    if text.chars().count() > 40 {
        shown.push('\u{2026}');
    }
    shown
}

/// Checks that `attempt` changes only what `spec` allows, within its ranges and budgets.
pub fn check_try(spec: &Spec, attempt: &Scenario) -> Result<(), Refusal> {
    let start = &spec.start;
    for field in &SCENARIO_FIELDS {
        let value = field.value(attempt);
        if value == field.value(start) {
            continue;
        }
        let label = SANDBOX.field(field.key).label;
        let allowed = spec.allowed(field.key).ok_or(Refusal::NotAllowed(label))?;
        if !allowed.allows(value) {
            return Err(Refusal::OutOfRange {
                key: field.key,
                value: field.print(attempt),
                min: allowed.print(allowed.min),
                max: allowed.print(allowed.max),
            });
        }
    }
    if attempt.links != start.links {
        return Err(Refusal::LinksChanged);
    }
    let flipped: Vec<PolicySwitch> = PolicySwitch::ALL
        .into_iter()
        .filter(|s| s.is_on(&attempt.policy) != s.is_on(&start.policy))
        .collect();
    if let Some(fixed) = flipped.iter().find(|s| !spec.switches.contains(s)) {
        return Err(Refusal::NotAllowed(fixed.label()));
    }
    if spec
        .max_flips
        .is_some_and(|max| flipped.len() > max as usize)
    {
        return Err(Refusal::TooManyFlips(flipped.len()));
    }
    let added = added_faults(spec, attempt).ok_or(Refusal::StartFaultsChanged)?;
    if added.len() > spec.max_faults {
        return Err(Refusal::TooManyFaults {
            count: added.len(),
            max: spec.max_faults,
        });
    }
    if let Some(f) = added
        .iter()
        .find(|f| !spec.fault_kinds.contains(&f.fault.kind()))
    {
        return Err(Refusal::KindNotAllowed(f.fault.kind()));
    }
    attempt.validate().map_err(Refusal::Inconsistent)
}

/// The faults `attempt` adds after the challenge's own, or `None` if it changed those.
pub fn added_faults<'a>(spec: &Spec, attempt: &'a Scenario) -> Option<&'a [TimedFault]> {
    attempt
        .faults
        .0
        .strip_prefix(spec.start.faults.0.as_slice())
}

/// The learner's answer as typed: each allowed field's text, each allowed switch's state,
/// and the added faults, one per line.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Answer {
    /// Text by field key, for the allowed fields.
    pub fields: Vec<(&'static str, String)>,
    /// On or off, for the allowed switches.
    pub switches: Vec<(PolicySwitch, bool)>,
    /// Added faults, one per line.
    pub faults: String,
}

impl Answer {
    /// The answer that `attempt` is: what the form shows for it.
    pub fn of(spec: &Spec, attempt: &Scenario) -> Answer {
        Answer {
            fields: spec
                .fields
                .iter()
                .map(|f| (f.field.key, f.field.print(attempt)))
                .collect(),
            switches: spec
                .switches
                .iter()
                .map(|&s| (s, s.is_on(&attempt.policy)))
                .collect(),
            faults: added_faults(spec, attempt)
                .unwrap_or_default()
                .iter()
                .map(crate::model::faults::text::print_fault)
                .collect::<Vec<_>>()
                .join("\n"),
        }
    }

    /// The try this answer describes, checked against what `spec` allows.
    pub fn attempt(&self, spec: &Spec) -> Result<Scenario, Refusal> {
        let mut attempt = spec.start.clone();
        for (key, text) in &self.fields {
            let field = spec.allowed(key).ok_or(Refusal::NotAllowed(key))?.field;
            field
                .read(&mut attempt, text.trim())
                .map_err(|why| Refusal::BadValue {
                    key,
                    text: text.clone(),
                    why,
                })?;
        }
        for &(switch, on) in &self.switches {
            if switch.is_on(&attempt.policy) != on {
                switch.flip(&mut attempt.policy);
            }
        }
        for line in self.faults.lines().map(str::trim).filter(|l| !l.is_empty()) {
            let fault = parse_fault(line).map_err(|why| Refusal::BadFault {
                text: line.to_owned(),
                why,
            })?;
            attempt.faults.0.push(fault);
        }
        check_try(spec, &attempt)?;
        Ok(attempt)
    }
}

/// The share link of a try: the laboratory opens the try's scenario, and the challenge.
pub fn link_of(spec: &Spec, attempt: &Scenario) -> LinkState {
    LinkState {
        tab: Tab::Sandbox,
        lab: Some(LabLink::for_scenario(attempt.clone(), SimTime::ZERO)),
        challenge: Some(format!("{}.{}", spec.text.id, spec.fingerprint)),
        ..LinkState::default()
    }
}

/// The try a link carries: its `challenge=` and its scenario (the default scenario if it
/// has none), or why it is refused.
pub fn read_link(
    challenge: &str,
    lab: Option<&LabLink>,
) -> Result<(&'static Spec, Scenario), Refusal> {
    let (id, goal) = challenge.rsplit_once('.').unwrap_or((challenge, ""));
    let spec = by_id(id).ok_or_else(|| Refusal::UnknownChallenge(id.to_owned()))?;
    if goal != spec.fingerprint {
        return Err(Refusal::ChangedGoal(spec.text.title));
    }
    let attempt = lab.map(|l| l.scenario.clone()).unwrap_or_default();
    check_try(spec, &attempt)?;
    Ok((spec, attempt))
}
