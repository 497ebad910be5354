//! A challenge's data (`content/challenges.toml`) read into typed values: its start scenario,
//! what a learner may change, and its goal as conditions over the model's checks and metrics.
//! Reading never panics; a challenge that cannot be read is left out of the page, and
//! `tests/challenges.rs` fails for it.

use crate::lab::PolicySwitch;
use crate::lesson::checks::{self, CHECK_TEXTS};
use crate::lesson::content::{Challenge, CHALLENGES};
use crate::model::fields::{self, ScenarioField, Value};
use crate::model::notation::{parse_duration, parse_whole};
use crate::model::search::SearchSpec;
use crate::model::{CheckId, Fault, FaultKind, Metrics, Scenario, SimDuration, TimedFault};
use crate::share::search::parse_search;
use crate::share::{scenario_of, scenario_with};

/// A figure the observer measures that a goal may bound: the keys of `content/checks.toml`'s
/// `[counts]`, which also give each one's label.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Metric {
    RenewsSent,
    RenewsOk,
    RenewsNotOwner,
    RenewsTimedOut,
    RenewsLostOnWire,
    Losses,
    FalseLosses,
    WritesAccepted,
    WritesRejected,
    StaleAccepted,
    /// The longest failover, a length of time; a run with none has no value.
    MaxFailover,
}

impl Metric {
    /// Every metric, in the checks panel's order.
    pub const ALL: [Metric; 11] = [
        Metric::RenewsSent,
        Metric::RenewsOk,
        Metric::RenewsNotOwner,
        Metric::RenewsTimedOut,
        Metric::RenewsLostOnWire,
        Metric::Losses,
        Metric::FalseLosses,
        Metric::WritesAccepted,
        Metric::WritesRejected,
        Metric::StaleAccepted,
        Metric::MaxFailover,
    ];

    /// Its key in a goal and in `content/checks.toml`'s `[counts]`.
    pub fn key(self) -> &'static str {
        match self {
            Metric::RenewsSent => "renews_sent",
            Metric::RenewsOk => "renews_ok",
            Metric::RenewsNotOwner => "renews_not_owner",
            Metric::RenewsTimedOut => "renews_timed_out",
            Metric::RenewsLostOnWire => "renews_lost_on_wire",
            Metric::Losses => "losses",
            Metric::FalseLosses => "false_losses",
            Metric::WritesAccepted => "writes_accepted",
            Metric::WritesRejected => "writes_rejected",
            Metric::StaleAccepted => "stale_accepted",
            Metric::MaxFailover => "max_failover",
        }
    }

    /// Its label, as the checks panel's counts table shows it.
    pub fn label(self) -> &'static str {
        let c = &CHECK_TEXTS.counts;
        match self {
            Metric::RenewsSent => c.renews_sent,
            Metric::RenewsOk => c.renews_ok,
            Metric::RenewsNotOwner => c.renews_not_owner,
            Metric::RenewsTimedOut => c.renews_timed_out,
            Metric::RenewsLostOnWire => c.renews_lost_on_wire,
            Metric::Losses => c.losses,
            Metric::FalseLosses => c.false_losses,
            Metric::WritesAccepted => c.writes_accepted,
            Metric::WritesRejected => c.writes_rejected,
            Metric::StaleAccepted => c.stale_accepted,
            Metric::MaxFailover => c.max_failover,
        }
    }

    /// Its value in `m` (microseconds for the failover), or `None` when no failover happened.
    pub fn read(self, m: &Metrics) -> Option<u64> {
        let count = |n: u32| Some(u64::from(n));
        match self {
            Metric::RenewsSent => count(m.renews_sent),
            Metric::RenewsOk => count(m.renews_ok),
            Metric::RenewsNotOwner => count(m.renews_not_owner),
            Metric::RenewsTimedOut => count(m.renews_timed_out),
            Metric::RenewsLostOnWire => count(m.renews_lost_on_wire),
            Metric::Losses => count(m.losses),
            Metric::FalseLosses => count(m.false_losses),
            Metric::WritesAccepted => count(m.writes_accepted),
            Metric::WritesRejected => count(m.writes_rejected),
            Metric::StaleAccepted => count(m.stale_accepted),
            Metric::MaxFailover => m.max_failover.map(|d| d.0),
        }
    }

    /// A value of this metric as people read it: a count, or a length of time.
    pub fn print(self, value: u64) -> String {
        match self {
            Metric::MaxFailover => SimDuration(value).to_string(),
            _ => value.to_string(),
        }
    }

    fn parse_value(self, text: &str) -> Option<u64> {
        match self {
            Metric::MaxFailover => parse_duration(text).ok(),
            _ => parse_whole(text).ok(),
        }
    }
}

/// A check's key in a goal: its section in `content/checks.toml`.
pub fn check_key(check: CheckId) -> &'static str {
    match check {
        CheckId::SingleHolder => "single_holder",
        CheckId::NoStaleAccepted => "no_stale_accepted",
        CheckId::NoWriteAfterLost => "no_write_after_lost",
        CheckId::OrderedByToken => "ordered_by_token",
    }
}

/// One condition of a goal.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Condition {
    /// The check never breaks (a check that does not apply holds).
    Holds(CheckId),
    /// The check breaks ("break it" challenges).
    Broken(CheckId),
    /// The metric is at most this (a run with no failover fails a bound on the failover).
    AtMost(Metric, u64),
}

impl Condition {
    /// Reads `<check> holds`, `<check> broken` or `<metric> <= <value>`.
    pub fn parse(text: &str) -> Option<Condition> {
        let words: Vec<&str> = text.split_whitespace().collect();
        let check = |key: &str| CheckId::ALL.into_iter().find(|&c| check_key(c) == key);
        match words.as_slice() {
            [key, "holds"] => check(key).map(Condition::Holds),
            [key, "broken"] => check(key).map(Condition::Broken),
            [key, "<=", value] => {
                let metric = Metric::ALL.into_iter().find(|m| m.key() == *key)?;
                metric
                    .parse_value(value)
                    .map(|bound| Condition::AtMost(metric, bound))
            }
            _ => None,
        }
    }

    /// The check's title or the metric's label, for the condition's sentence.
    pub fn subject(self) -> &'static str {
        match self {
            Condition::Holds(c) | Condition::Broken(c) => checks::text(c).title,
            Condition::AtMost(m, _) => m.label(),
        }
    }
}

/// How a trial runs a try.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Over {
    /// The try once, with these faults added to its own.
    Run(Vec<TimedFault>),
    /// The try once for each of [`SWEEP_STARTS`] starts of this fault across one renew period.
    Sweep(Fault),
    /// The try with each plan of this search in place of its own faults.
    Any(SearchSpec),
}

/// How many starts a sweep tries: the pitfall exercise's.
pub use crate::lab::pitfall::SWEEP_STARTS;

/// One way of running a try, and the conditions its runs must all meet.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Trial {
    /// How the try is run.
    pub over: Over,
    /// What every run must meet.
    pub goal: Vec<Condition>,
}

/// A scenario field the learner may change, and its range.
#[derive(Clone, Copy)]
pub struct AllowedField {
    /// The field.
    pub field: &'static ScenarioField,
    /// The least value allowed.
    pub min: Value,
    /// The greatest value allowed.
    pub max: Value,
}

impl AllowedField {
    /// True if `value` lies within the range (fractions compared by their value).
    pub fn allows(&self, value: Value) -> bool {
        let key = |v: Value| match v {
            Value::Number(n) => Some((u128::from(n), 1u128)),
            Value::Fraction(f) => Some((u128::from(f.num), u128::from(f.den.max(1)))),
            Value::Never => None,
        };
        match (key(value), key(self.min), key(self.max)) {
            (Some((v, vd)), Some((lo, lod)), Some((hi, hid))) => {
                v * lod >= lo * vd && v * hid <= hi * vd
            }
            _ => false,
        }
    }

    /// A value of the field as a link writes it.
    pub fn print(&self, value: Value) -> String {
        let mut scratch = Scenario::default();
        match self.field.set(&mut scratch, value) {
            Ok(()) => self.field.print(&scratch),
            Err(_) => String::new(),
        }
    }
}

/// A challenge, read.
#[derive(Clone)]
pub struct Spec {
    /// Its words.
    pub text: &'static Challenge,
    /// The scenario it starts from.
    pub start: Scenario,
    /// The fields the learner may change.
    pub fields: Vec<AllowedField>,
    /// The switches the learner may flip.
    pub switches: Vec<PolicySwitch>,
    /// At most this many flips, if limited.
    pub max_flips: Option<u32>,
    /// The kinds of fault the learner may add.
    pub fault_kinds: Vec<FaultKind>,
    /// At most this many faults.
    pub max_faults: usize,
    /// The goal.
    pub trials: Vec<Trial>,
    /// A fingerprint of the start and the goal, which a try's link carries.
    pub fingerprint: String,
}

/// What in a challenge's data could not be read (for `tests/challenges.rs`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SpecError {
    /// The start's link fields, with the share codec's sentences.
    Start(Vec<String>),
    /// An allowed field's key or range.
    Field(&'static str),
    /// A switch slug.
    Switch(&'static str),
    /// A fault word.
    FaultKind(&'static str),
    /// A trial's `over`, faults or search, by its index.
    Trial(usize),
    /// A goal's condition.
    Condition(&'static str),
}

impl Spec {
    /// Reads one challenge.
    pub fn read(text: &'static Challenge) -> Result<Spec, SpecError> {
        let start = scenario_of(text.start).map_err(SpecError::Start)?;
        let fields = text
            .fields
            .iter()
            .map(|allowed| {
                let field = fields::field(allowed.key).ok_or(SpecError::Field(allowed.key))?;
                let bound = |bound: &str| {
                    let mut scratch = Scenario::default();
                    field
                        .read(&mut scratch, bound)
                        .map(|()| field.value(&scratch))
                        .map_err(|_| SpecError::Field(allowed.key))
                };
                Ok(AllowedField {
                    field,
                    min: bound(allowed.min)?,
                    max: bound(allowed.max)?,
                })
            })
            .collect::<Result<Vec<_>, _>>()?;
        let switches = text
            .switches
            .iter()
            .map(|slug| PolicySwitch::from_slug(slug).ok_or(SpecError::Switch(slug)))
            .collect::<Result<Vec<_>, _>>()?;
        let fault_kinds = text
            .fault_kinds
            .iter()
            .map(|word| FaultKind::from_keyword(word).ok_or(SpecError::FaultKind(word)))
            .collect::<Result<Vec<_>, _>>()?;
        let trials = text
            .trials
            .iter()
            .enumerate()
            .map(|(index, trial)| read_trial(index, trial))
            .collect::<Result<Vec<_>, _>>()?;
        Ok(Spec {
            text,
            start,
            fields,
            switches,
            max_flips: text.max_flips,
            fault_kinds,
            max_faults: text.max_faults as usize,
            trials,
            fingerprint: fingerprint(text),
        })
    }

    /// The reference answer: the start with the answer's link fields applied.
    pub fn answer(&self) -> Result<Scenario, Vec<String>> {
        scenario_with(&self.start, self.text.answer)
    }

    /// The allowed range of the field with this key, if the learner may change it.
    pub fn allowed(&self, key: &str) -> Option<&AllowedField> {
        self.fields.iter().find(|f| f.field.key == key)
    }
}

fn read_trial(
    index: usize,
    trial: &'static crate::lesson::content::Trial,
) -> Result<Trial, SpecError> {
    let bad = || SpecError::Trial(index);
    let faults = trial
        .faults
        .unwrap_or_default()
        .iter()
        .map(|text| crate::model::faults::text::parse_fault(text).map_err(|_| bad()))
        .collect::<Result<Vec<_>, _>>()?;
    let over = match (trial.over, trial.search) {
        ("run", None) => Over::Run(faults),
        ("sweep", None) => match faults.as_slice() {
            [only] => Over::Sweep(only.fault),
            _ => return Err(bad()),
        },
        ("any", Some(search)) if faults.is_empty() => {
            Over::Any(parse_search(search).map_err(|_| bad())?)
        }
        _ => return Err(bad()),
    };
    let goal = trial
        .goal
        .iter()
        .map(|text| Condition::parse(text).ok_or(SpecError::Condition(text)))
        .collect::<Result<Vec<_>, _>>()?;
    Ok(Trial { over, goal })
}

/// FNV-1a over the start and every trial, as sixteen hex digits: a link made for another
/// goal (edited, or from before the challenge changed) does not match.
fn fingerprint(text: &Challenge) -> String {
    let mut hash: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |part: &str| {
        for byte in part.bytes().chain([0]) {
            hash ^= u64::from(byte);
            hash = hash.wrapping_mul(0x0100_0000_01b3);
        }
    };
    eat(text.start);
    for trial in text.trials {
        eat(trial.over);
        for fault in trial.faults.unwrap_or_default() {
            eat(fault);
        }
        eat(trial.search.unwrap_or_default());
        for condition in trial.goal {
            eat(condition);
        }
    }
    format!("{hash:016x}")
}

/// Every challenge that can be read, in the file's order (read once).
pub fn all() -> &'static [Spec] {
    static ALL: std::sync::OnceLock<Vec<Spec>> = std::sync::OnceLock::new();
    ALL.get_or_init(|| {
        CHALLENGES
            .challenges
            .iter()
            .filter_map(|c| Spec::read(c).ok())
            .collect()
    })
}

/// The challenge with this id.
pub fn by_id(id: &str) -> Option<&'static Spec> {
    all().iter().find(|c| c.text.id == id)
}
