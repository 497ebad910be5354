//! Reading the TTL calculator's fields. The arithmetic is the model's
//! (`model::calc::advise_ttl`); this module only turns typed text into durations and
//! refuses bad input with a reason, so a browser form can never make it panic.

use super::LESSON;
use crate::model::calc::TtlInputs;
use crate::model::notation::{parse_whole, ValueError};
use crate::model::time::SimDuration;

/// The largest measurement accepted, one hour, so sums stay meaningful.
pub const MAX_MS: u32 = 3_600_000;

/// Why a measurement typed into the calculator was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum MsError {
    Empty,
    Negative,
    NotWholeNumber,
    TooLarge,
}

impl MsError {
    /// A sentence for the learner, shown beside the field (from the lesson's content).
    pub fn message(self) -> &'static str {
        let ttl = &LESSON.ttl;
        match self {
            MsError::Empty => ttl.error_empty,
            MsError::Negative => ttl.error_negative,
            MsError::NotWholeNumber => ttl.error_not_whole,
            MsError::TooLarge => ttl.error_too_large,
        }
    }
}

/// Reads one field: a whole, non-negative number of milliseconds, optionally followed
/// by "ms".
pub fn parse_ms(text: &str) -> Result<u32, MsError> {
    let text = text.trim();
    let text = text.strip_suffix("ms").unwrap_or(text).trim_end();
    match parse_whole(text) {
        Ok(ms) if ms <= u64::from(MAX_MS) => Ok(ms as u32),
        Ok(_) | Err(ValueError::TooLarge) => Err(MsError::TooLarge),
        Err(ValueError::Empty) => Err(MsError::Empty),
        Err(ValueError::Negative) => Err(MsError::Negative),
        Err(_) => Err(MsError::NotWholeNumber),
    }
}

/// The model's inputs from the four fields (work, renew RTT, GC budget, margin), or the
/// first field's problem, by its position.
pub fn read_inputs(fields: [&str; 4]) -> Result<TtlInputs, (usize, MsError)> {
    let mut ms = [SimDuration::ZERO; 4];
    for (index, text) in fields.iter().enumerate() {
        let value = parse_ms(text).map_err(|e| (index, e))?;
        ms[index] = SimDuration::from_millis(u64::from(value));
    }
    Ok(TtlInputs {
        work_p99: ms[0],
        rtt_p99: ms[1],
        gc_budget: ms[2],
        margin: ms[3],
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::calc::advise_ttl;

    #[test]
    fn the_lesson_exercise_needs_more_than_370_ms() {
        let inputs = read_inputs(["200", "20 ms", "150", "0"]).unwrap();
        assert_eq!(inputs, TtlInputs::LESSON);
        let advice = advise_ttl(inputs);
        assert_eq!(advice.minimum, SimDuration::from_millis(370));
        assert!(advice.proposed > advice.minimum);
        assert_eq!(advice.heartbeat, advice.proposed.mul_ratio_rounded(1, 3));
    }

    #[test]
    fn bad_text_is_refused_with_a_reason() {
        assert_eq!(parse_ms(" 150 "), Ok(150));
        assert_eq!(parse_ms("20ms"), Ok(20));
        assert_eq!(parse_ms(""), Err(MsError::Empty));
        assert_eq!(parse_ms("   "), Err(MsError::Empty));
        assert_eq!(parse_ms("-5"), Err(MsError::Negative));
        assert_eq!(parse_ms("1.5"), Err(MsError::NotWholeNumber));
        assert_eq!(parse_ms("abc"), Err(MsError::NotWholeNumber));
        assert_eq!(parse_ms("3600001"), Err(MsError::TooLarge));
        assert_eq!(parse_ms("99999999999999999999999"), Err(MsError::TooLarge));
        assert_eq!(
            read_inputs(["200", "", "-1", "x"]),
            Err((1, MsError::Empty))
        );
        assert!(MsError::TooLarge.message().contains("3600000"));
    }
}
