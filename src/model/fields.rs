//! The scenario's fields as one table: for each, its key (in share links, in the content
//! file and in the form's ids), the name validation reports it by, how its value is written,
//! the unit the Parameters form shows it in, and the range a scenario accepts. The link
//! codec, the Parameters form and [`Scenario::validate`] all read [`SCENARIO_FIELDS`], so
//! adding a parameter is one row. Values stay integers throughout: a seed of 2^64 − 1
//! survives a link and the form exactly.

use super::notation::{
    parse_decimal, parse_duration, parse_fraction, parse_percent_ppm, parse_whole, print_decimal,
    print_duration, print_percent_ppm, ValueError,
};
use super::scenario::{limits, Fraction, Scenario, ScenarioError, ScenarioProblem};
use super::time::SimDuration;

/// How a field's value is written in a link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Notation {
    /// A length of time: `17.5s`, `250ms`.
    Duration,
    /// A whole number.
    Whole,
    /// Parts per million written as a percentage: `0.5%`.
    Percent,
    /// A fraction: `1/3`.
    Fraction,
    /// A length of time, or `never`.
    DurationOrNever,
}

impl Notation {
    /// `n` written this way, as validation reports a range: `17.500 s`, `0.5%`, `3`.
    pub fn print(self, n: u64) -> String {
        match self {
            Notation::Duration | Notation::DurationOrNever => SimDuration(n).to_string(),
            Notation::Percent => print_percent_ppm(n),
            Notation::Whole | Notation::Fraction => n.to_string(),
        }
    }
}

/// The unit the Parameters form shows a field's number in (the form writes no suffix).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum FormUnit {
    /// Seconds, to the microsecond.
    Seconds,
    /// Milliseconds, to the microsecond.
    Millis,
    /// A plain whole number.
    Count,
    /// A percentage, to the ppm.
    Percent,
    /// A fraction `num/den`.
    Fraction,
}

impl FormUnit {
    /// The unit's symbol beside the input.
    pub const fn symbol(self) -> &'static str {
        match self {
            FormUnit::Seconds => "s",
            FormUnit::Millis => "ms",
            FormUnit::Percent => "%",
            FormUnit::Count | FormUnit::Fraction => "",
        }
    }

    /// How many decimals of the shown unit make one unit of the stored integer.
    const fn decimals(self) -> u32 {
        match self {
            FormUnit::Seconds => 6,
            FormUnit::Millis => 3,
            FormUnit::Percent => 4,
            FormUnit::Count | FormUnit::Fraction => 0,
        }
    }
}

/// A field's value: microseconds, a count or ppm; a fraction; or "never".
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Value {
    /// An integer in the field's base unit.
    Number(u64),
    /// A fraction.
    Fraction(Fraction),
    /// No value: a release that never happens.
    Never,
}

/// One field of [`Scenario`].
pub struct ScenarioField {
    /// Its key in share links, in `content/sandbox.toml` and in the form's ids.
    pub key: &'static str,
    /// The [`Scenario`] field it holds, as [`ScenarioError::field`] names it.
    pub field: &'static str,
    /// How a link writes it.
    pub notation: Notation,
    /// How the Parameters form shows it.
    pub form: FormUnit,
    /// The smallest number a scenario accepts.
    pub min: u64,
    /// The largest number a scenario accepts.
    pub max: u64,
    get: fn(&Scenario) -> Value,
    set: fn(&mut Scenario, Value) -> Result<(), ValueError>,
}

fn number(value: Value) -> Result<u64, ValueError> {
    match value {
        Value::Number(n) => Ok(n),
        _ => Err(ValueError::NotANumber),
    }
}

fn micros(value: Value) -> Result<SimDuration, ValueError> {
    number(value).map(SimDuration)
}

/// The number in `value`, narrowed to the field's type.
fn narrow<T: TryFrom<u64>>(value: Value) -> Result<T, ValueError> {
    T::try_from(number(value)?).map_err(|_| ValueError::TooLarge)
}

/// A field's integer as a [`Value`].
fn widen<T: Into<u64>>(n: T) -> Value {
    Value::Number(n.into())
}

/// A row for a whole number, a count or ppm, stored as an unsigned integer.
macro_rules! number {
    ($key:literal, $field:ident, $notation:ident, $form:ident, $min:expr, $max:expr) => {
        ScenarioField {
            key: $key,
            field: stringify!($field),
            notation: Notation::$notation,
            form: FormUnit::$form,
            min: $min,
            max: $max,
            get: |s| widen(s.$field),
            set: |s, v| {
                s.$field = narrow(v)?;
                Ok(())
            },
        }
    };
}

/// A row for a length of time stored as a [`SimDuration`].
macro_rules! duration {
    ($key:literal, $field:ident, $form:ident, $min:expr, $max:expr) => {
        ScenarioField {
            key: $key,
            field: stringify!($field),
            notation: Notation::Duration,
            form: FormUnit::$form,
            min: $min.0,
            max: $max.0,
            get: |s| Value::Number(s.$field.0),
            set: |s, v| {
                s.$field = micros(v)?;
                Ok(())
            },
        }
    };
}

const MS: SimDuration = SimDuration::from_millis(1);
const ZERO: SimDuration = SimDuration::ZERO;
const MINUTE: SimDuration = SimDuration::from_secs(60);
use limits::{MAX_CLIENTS, MAX_DURATION, MAX_INTERVAL, MIN_INTERVAL};

/// Every field, in the order links write them.
pub const SCENARIO_FIELDS: [ScenarioField; 17] = [
    number!("seed", seed, Whole, Count, 0, u64::MAX),
    number!("clients", clients, Whole, Count, 2, MAX_CLIENTS as u64),
    duration!("dur", duration, Seconds, MS, MAX_DURATION),
    duration!("ttl", ttl, Seconds, MIN_INTERVAL, MAX_INTERVAL),
    ScenarioField {
        key: "renew",
        field: "renew_every",
        notation: Notation::Fraction,
        form: FormUnit::Fraction,
        min: 0,
        max: 0,
        get: |s| Value::Fraction(s.renew_every),
        set: |s, v| match v {
            Value::Fraction(f) => {
                s.renew_every = f;
                Ok(())
            }
            _ => Err(ValueError::NotAFraction),
        },
    },
    duration!("timeout", request_timeout, Millis, MS, MAX_INTERVAL),
    duration!("retry", retry_interval, Millis, MIN_INTERVAL, MAX_INTERVAL),
    duration!("acquire", acquire_retry, Millis, MIN_INTERVAL, MAX_INTERVAL),
    duration!("rtt", rtt, Millis, ZERO, MINUTE),
    duration!("jitter", jitter, Millis, ZERO, MINUTE),
    number!("loss", loss_ppm, Percent, Percent, 0, 1_000_000),
    duration!("slice", work_slice, Millis, MIN_INTERVAL, MAX_INTERVAL),
    duration!("margin", drift_margin, Millis, ZERO, MAX_INTERVAL),
    duration!("lockdelay", lock_delay, Seconds, ZERO, MAX_INTERVAL),
    number!("token", token_start, Whole, Count, 0, u64::MAX / 2),
    duration!("stagger", client_stagger, Millis, ZERO, MAX_INTERVAL),
    ScenarioField {
        key: "release",
        field: "release_after",
        notation: Notation::DurationOrNever,
        form: FormUnit::Seconds,
        min: MS.0,
        max: MAX_INTERVAL.0,
        get: |s| s.release_after.map_or(Value::Never, |d| Value::Number(d.0)),
        set: |s, v| {
            s.release_after = match v {
                Value::Never => None,
                other => Some(micros(other)?),
            };
            Ok(())
        },
    },
];

/// The field with this key.
pub fn field(key: &str) -> Option<&'static ScenarioField> {
    SCENARIO_FIELDS.iter().find(|f| f.key == key)
}

impl ScenarioField {
    /// Its value in `s`.
    pub fn value(&self, s: &Scenario) -> Value {
        (self.get)(s)
    }

    /// Sets its value in `s`; fails only when the value does not fit the field's type.
    pub fn set(&self, s: &mut Scenario, value: Value) -> Result<(), ValueError> {
        (self.set)(s, value)
    }

    /// Its value in `s` as a link writes it.
    pub fn print(&self, s: &Scenario) -> String {
        match (self.value(s), self.notation) {
            (Value::Never, _) => "never".to_owned(),
            (Value::Fraction(f), _) => format!("{}/{}", f.num, f.den),
            (Value::Number(n), Notation::Duration | Notation::DurationOrNever) => print_duration(n),
            (Value::Number(n), Notation::Percent) => print_percent_ppm(n),
            (Value::Number(n), Notation::Whole | Notation::Fraction) => n.to_string(),
        }
    }

    /// Reads a link's text into `s`.
    pub fn read(&self, s: &mut Scenario, text: &str) -> Result<(), ValueError> {
        let value = match self.notation {
            Notation::DurationOrNever if text == "never" => Value::Never,
            Notation::Duration | Notation::DurationOrNever => Value::Number(parse_duration(text)?),
            Notation::Whole => Value::Number(parse_whole(text)?),
            Notation::Percent => Value::Number(parse_percent_ppm(text)?),
            Notation::Fraction => {
                let (num, den) = parse_fraction(text)?;
                Value::Fraction(Fraction { num, den })
            }
        };
        self.set(s, value)
    }

    /// Its value in `s` as the Parameters form shows it, in [`ScenarioField::form`] units
    /// (empty for "never").
    pub fn print_form(&self, s: &Scenario) -> String {
        match self.value(s) {
            Value::Never => String::new(),
            Value::Fraction(f) => format!("{}/{}", f.num, f.den),
            Value::Number(n) => print_decimal(n, self.form.decimals()),
        }
    }

    /// Reads what the learner typed into the form (surrounding spaces ignored; empty means
    /// "never" where the field allows it).
    pub fn read_form(&self, s: &mut Scenario, text: &str) -> Result<(), ValueError> {
        let text = text.trim();
        let value = match (self.notation, self.form) {
            (Notation::DurationOrNever, _) if text.is_empty() => Value::Never,
            (_, FormUnit::Count) => Value::Number(parse_whole(text)?),
            (_, FormUnit::Fraction) => {
                let (num, den) = parse_fraction(text)?;
                Value::Fraction(Fraction { num, den })
            }
            (_, unit) => Value::Number(parse_decimal(text, unit.decimals())?),
        };
        self.set(s, value)
    }

    /// Checks the field's value in `s` against its range.
    pub fn check(&self, s: &Scenario) -> Result<(), ScenarioError> {
        let n = match self.value(s) {
            Value::Never => return Ok(()),
            Value::Fraction(f) => return check_renew_fraction(f, s.ttl),
            Value::Number(n) => n,
        };
        if (self.min..=self.max).contains(&n) {
            return Ok(());
        }
        Err(ScenarioError {
            field: self.field,
            problem: ScenarioProblem::OutOfRange {
                value: n,
                min: self.min,
                max: self.max,
                notation: self.notation,
            },
        })
    }
}

/// The renewal fraction must lie strictly between 0 and 1 and renew at most once a ms.
fn check_renew_fraction(f: Fraction, ttl: SimDuration) -> Result<(), ScenarioError> {
    let problem = if f.den == 0 || f.num == 0 || f.num >= f.den || f.den > 1_000 {
        ScenarioProblem::NotARenewFraction
    } else if f.of(ttl) < MS {
        ScenarioProblem::RenewsTooOften
    } else {
        return Ok(());
    };
    Err(ScenarioError {
        field: "renew_every",
        problem,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_field_names_are_unique() {
        for (i, f) in SCENARIO_FIELDS.iter().enumerate() {
            assert!(SCENARIO_FIELDS[..i]
                .iter()
                .all(|g| g.key != f.key && g.field != f.field));
        }
    }

    #[test]
    fn every_field_round_trips_through_the_link_and_the_form() {
        let s = Scenario {
            seed: u64::MAX,
            token_start: (1 << 53) + 1,
            release_after: Some(SimDuration(1_234_567)),
            ..Scenario::default()
        };
        for f in &SCENARIO_FIELDS {
            let mut link = Scenario::default();
            f.read(&mut link, &f.print(&s)).unwrap();
            assert_eq!(f.value(&link), f.value(&s), "{} via the link", f.key);
            let mut form = Scenario::default();
            f.read_form(&mut form, &f.print_form(&s)).unwrap();
            assert_eq!(f.value(&form), f.value(&s), "{} via the form", f.key);
        }
    }

    #[test]
    fn a_seed_above_two_to_the_53_survives_the_form_exactly() {
        let seed = field("seed").unwrap();
        let mut s = Scenario::default();
        seed.read_form(&mut s, " 9007199254740993 ").unwrap();
        assert_eq!(s.seed, 9_007_199_254_740_993);
        assert_eq!(seed.print_form(&s), "9007199254740993");
        assert!(seed.read_form(&mut s, "9007199254740993.5").is_err());
        assert_eq!(s.seed, 9_007_199_254_740_993);
    }

    #[test]
    fn the_form_reads_its_units_exactly() {
        let mut s = Scenario::default();
        field("ttl").unwrap().read_form(&mut s, "0.000001").unwrap();
        assert_eq!(s.ttl, SimDuration(1));
        field("rtt").unwrap().read_form(&mut s, "166.667").unwrap();
        assert_eq!(s.rtt, SimDuration(166_667));
        field("loss").unwrap().read_form(&mut s, "0.5").unwrap();
        assert_eq!(s.loss_ppm, 5_000);
        let release = field("release").unwrap();
        release.read_form(&mut s, "").unwrap();
        assert_eq!(s.release_after, None);
        assert_eq!(
            field("clients").unwrap().read_form(&mut s, "300"),
            Err(ValueError::TooLarge)
        );
    }
}
