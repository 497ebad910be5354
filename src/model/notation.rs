//! How the model's numbers are written as text: lengths of time (`17.5s`, `250ms`, `20us`),
//! whole numbers, fractions (`1/3`) and percentages (`0.5%`). Share links, the sandbox's
//! forms and the fault notation all read and print through these, in integer arithmetic
//! only, so every value round-trips exactly. Parsing never panics and never overflows.

/// Why one value could not be read (`crate::lesson::reasons` words it).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// Nothing after the `=`.
    Empty,
    /// A leading minus where only lengths of time or counts make sense.
    Negative,
    /// Not digits (this covers `NaN`, `inf`, `1e9`, `0x10`).
    NotANumber,
    /// A number followed by a unit of time Lease Lab does not read (`10h`, `5min`).
    UnknownUnit,
    /// More decimals than the unit allows (finer than a microsecond, a ppm, …).
    TooPrecise,
    /// More than the field can hold.
    TooLarge,
    /// Not `on` or `off`.
    NotASwitch,
    /// Not a fraction such as `1/3`.
    NotAFraction,
    /// Not valid base64url, or not UTF-8 text once decoded.
    NotText,
}

/// At most this many digits before the decimal point: keeps every product below `u64::MAX`.
const MAX_INT_DIGITS: usize = 12;

/// Reads an unsigned decimal such as `17`, `17.5` or `.5` as an integer count of
/// `10^-max_decimals` units, refusing signs, exponents and anything but ASCII digits.
pub fn parse_decimal(text: &str, max_decimals: u32) -> Result<u64, ValueError> {
    if text.is_empty() {
        return Err(ValueError::Empty);
    }
    if text.starts_with('-') {
        return Err(ValueError::Negative);
    }
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !digits(int) || !digits(frac) {
        return Err(exponent_error(text));
    }
    if text.ends_with('.') {
        return Err(ValueError::NotANumber);
    }
    let frac = frac.trim_end_matches('0');
    if frac.len() > max_decimals as usize {
        return Err(ValueError::TooPrecise);
    }
    let int = int.trim_start_matches('0');
    if int.len() > MAX_INT_DIGITS {
        return Err(ValueError::TooLarge);
    }
    let whole: u64 = if int.is_empty() {
        0
    } else {
        int.parse().map_err(|_| ValueError::NotANumber)?
    };
    let mut fraction: u64 = if frac.is_empty() {
        0
    } else {
        frac.parse().map_err(|_| ValueError::NotANumber)?
    };
    for _ in frac.len()..max_decimals as usize {
        fraction *= 10;
    }
    whole
        .checked_mul(10u64.pow(max_decimals))
        .and_then(|w| w.checked_add(fraction))
        .ok_or(ValueError::TooLarge)
}

/// Why a number written with an exponent (`1e3`) is refused: it is too large when its
/// magnitude is beyond any field, else simply not written as Lease Lab reads numbers.
fn exponent_error(text: &str) -> ValueError {
    let Some((mantissa, exponent)) = text.split_once(['e', 'E']) else {
        return ValueError::NotANumber;
    };
    let (int, frac) = mantissa.split_once('.').unwrap_or((mantissa, ""));
    let digits = |s: &str| !s.is_empty() && s.bytes().all(|b| b.is_ascii_digit());
    let exponent = exponent.strip_prefix('+').unwrap_or(exponent);
    let well_formed = (digits(int) || digits(frac))
        && (int.is_empty() || digits(int))
        && (frac.is_empty() || digits(frac))
        && digits(exponent);
    let leading = int.trim_start_matches('0').len();
    let beyond = exponent.len() > 3
        || leading.saturating_add(exponent.parse().unwrap_or(usize::MAX)) > MAX_INT_DIGITS;
    if well_formed && mantissa.bytes().any(|b| matches!(b, b'1'..=b'9')) && beyond {
        ValueError::TooLarge
    } else {
        ValueError::NotANumber
    }
}

/// Prints `units / 10^decimals` with the fraction's trailing zeros removed.
pub fn print_decimal(units: u64, decimals: u32) -> String {
    let scale = 10u64.pow(decimals);
    let (whole, frac) = (units / scale, units % scale);
    if frac == 0 {
        return whole.to_string();
    }
    let frac = format!("{frac:0width$}", width = decimals as usize);
    format!("{whole}.{}", frac.trim_end_matches('0'))
}

/// Reads a length of time in microseconds: `15s`, `1.5s`, `250ms`, `166.667ms`, `20us`; a
/// bare number counts as seconds. A space may stand before the unit, as in `1 s`.
pub fn parse_duration(text: &str) -> Result<u64, ValueError> {
    // The decimals kept are exactly those that land on whole microseconds.
    let (number, decimals) = if let Some(n) = text.strip_suffix("ms") {
        (n, 3)
    } else if let Some(n) = text.strip_suffix("us") {
        (n, 0)
    } else {
        (text.strip_suffix('s').unwrap_or(text), 6)
    };
    let number = match number.strip_suffix(' ') {
        Some(n) if n.ends_with(|c: char| c.is_ascii_digit()) && number.len() < text.len() => n,
        _ => number,
    };
    parse_decimal(number, decimals).map_err(|error| match error {
        ValueError::NotANumber if has_unknown_unit(text) => ValueError::UnknownUnit,
        other => other,
    })
}

/// Whether `text` is a plain number followed by letters, as in `10h` or `2.5 min`: a unit
/// was meant, just not one of `s`, `ms` and `us`.
fn has_unknown_unit(text: &str) -> bool {
    let unit_at = text
        .find(|c: char| !(c.is_ascii_digit() || c == '.'))
        .unwrap_or(text.len());
    let (number, unit) = text.split_at(unit_at);
    let unit = unit.trim_start();
    let well_formed = number.bytes().any(|b| b.is_ascii_digit())
        && number.matches('.').count() <= 1
        && !number.ends_with('.');
    well_formed && !matches!(unit, "" | "s" | "ms" | "us") && unit.chars().all(char::is_alphabetic)
}

/// Prints microseconds the way [`parse_duration`] reads them: seconds from one second up
/// (`17.5s`), milliseconds below (`250ms`, `166.667ms`), and `0s`.
pub fn print_duration(micros: u64) -> String {
    if micros == 0 || micros >= 1_000_000 {
        format!("{}s", print_decimal(micros, 6))
    } else {
        format!("{}ms", print_decimal(micros, 3))
    }
}

/// Reads a signed length of time: `+8s`, `-8s` or `8s`.
pub fn parse_signed_duration(text: &str) -> Result<i64, ValueError> {
    let (negative, rest) = match text.as_bytes().first() {
        Some(b'-') => (true, &text[1..]),
        Some(b'+') => (false, &text[1..]),
        _ => (false, text),
    };
    if rest.starts_with(['-', '+']) {
        return Err(ValueError::NotANumber);
    }
    let magnitude = i64::try_from(parse_duration(rest)?).map_err(|_| ValueError::TooLarge)?;
    Ok(if negative { -magnitude } else { magnitude })
}

/// Prints a signed length of time with its sign: `+8s`, `-250ms`.
pub fn print_signed_duration(micros: i64) -> String {
    let sign = if micros < 0 { '-' } else { '+' };
    format!("{sign}{}", print_duration(micros.unsigned_abs()))
}

/// Reads a whole number such as a seed or a token.
pub fn parse_whole(text: &str) -> Result<u64, ValueError> {
    if text.is_empty() {
        return Err(ValueError::Empty);
    }
    if text.starts_with('-') {
        return Err(ValueError::Negative);
    }
    if !text.bytes().all(|b| b.is_ascii_digit()) {
        return Err(ValueError::NotANumber);
    }
    text.parse().map_err(|_| ValueError::TooLarge)
}

/// Reads a fraction `num/den` of two whole numbers.
pub fn parse_fraction(text: &str) -> Result<(u32, u32), ValueError> {
    let (num, den) = text.split_once('/').ok_or(ValueError::NotAFraction)?;
    let part = |s: &str| -> Result<u32, ValueError> {
        u32::try_from(parse_whole(s)?).map_err(|_| ValueError::TooLarge)
    };
    match (part(num)?, part(den)?) {
        // Nothing divided by zero is a share of anything.
        (_, 0) => Err(ValueError::NotAFraction),
        fraction => Ok(fraction),
    }
}

/// Reads a percentage such as `0.5%` (the `%` may be left out) as parts per million.
pub fn parse_percent_ppm(text: &str) -> Result<u64, ValueError> {
    parse_decimal(text.strip_suffix('%').unwrap_or(text), 4)
}

/// Prints parts per million as a percentage: `0.5%`.
pub fn print_percent_ppm(ppm: u64) -> String {
    format!("{}%", print_decimal(ppm, 4))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn times_read_as_people_write_them() {
        assert_eq!(parse_duration("17.5s"), Ok(17_500_000));
        assert_eq!(parse_duration("17.5"), Ok(17_500_000));
        assert_eq!(parse_duration("250ms"), Ok(250_000));
        assert_eq!(parse_duration("166.667ms"), Ok(166_667));
        assert_eq!(parse_duration("20us"), Ok(20));
        assert_eq!(parse_duration(".5s"), Ok(500_000));
        assert_eq!(parse_duration("0s"), Ok(0));
        assert_eq!(parse_duration("1.500000000s"), Ok(1_500_000));
    }

    #[test]
    fn one_space_may_stand_before_the_unit() {
        assert_eq!(parse_duration("1 s"), Ok(1_000_000));
        assert_eq!(parse_duration("250 ms"), Ok(250_000));
        assert_eq!(parse_duration("1.5 s"), Ok(1_500_000));
        assert_eq!(parse_duration("20 us"), Ok(20));
        for text in ["1  s", " s", "5 ", "1 5s", ". s"] {
            assert!(parse_duration(text).is_err(), "{text}");
        }
    }

    #[test]
    fn a_unit_of_time_it_does_not_read_is_named_as_such() {
        for text in ["10h", "2.5min", "3sec", "10S", "7µs", "2 min"] {
            assert_eq!(parse_duration(text), Err(ValueError::UnknownUnit), "{text}");
        }
        for text in ["zz7", "NaN", "1e3x", "10 s", "s10", "h", "1.2.3h", "5.h"] {
            assert_ne!(parse_duration(text), Err(ValueError::UnknownUnit), "{text}");
        }
    }

    #[test]
    fn bad_times_say_what_is_wrong() {
        assert_eq!(parse_duration(""), Err(ValueError::Empty));
        assert_eq!(parse_duration("s"), Err(ValueError::Empty));
        assert_eq!(parse_duration("-2s"), Err(ValueError::Negative));
        for text in [
            "NaN", "inf", "1e9s", "0x10", "1.2.3s", ".s", "5.s", "+5s", " 5s", "٣s",
        ] {
            assert_eq!(parse_duration(text), Err(ValueError::NotANumber), "{text}");
        }
        assert_eq!(parse_duration("1.0000001s"), Err(ValueError::TooPrecise));
        assert_eq!(parse_duration("0.5us"), Err(ValueError::TooPrecise));
        assert_eq!(
            parse_duration("99999999999999999999s"),
            Err(ValueError::TooLarge)
        );
        assert_eq!(parse_duration("999999999999ms"), Ok(999_999_999_999_000));
        // An exponent is not how links write numbers, but a huge one is named as too large.
        assert_eq!(parse_duration("1e300ms"), Err(ValueError::TooLarge));
        assert_eq!(parse_duration("2.5E+20s"), Err(ValueError::TooLarge));
        assert_eq!(parse_duration("1e3"), Err(ValueError::NotANumber));
        assert_eq!(parse_duration("0e999"), Err(ValueError::NotANumber));
    }

    #[test]
    fn times_print_short_and_read_back_exactly() {
        for (micros, text) in [
            (0, "0s"),
            (17_500_000, "17.5s"),
            (250_000, "250ms"),
            (166_667, "166.667ms"),
            (1, "0.001ms"),
            (60_000_000, "60s"),
            (1_000_001, "1.000001s"),
        ] {
            assert_eq!(print_duration(micros), text);
            assert_eq!(parse_duration(text), Ok(micros));
        }
        assert_eq!(print_signed_duration(-8_000_000), "-8s");
        assert_eq!(parse_signed_duration("-8s"), Ok(-8_000_000));
        assert_eq!(parse_signed_duration("+250ms"), Ok(250_000));
        assert_eq!(parse_signed_duration("--8s"), Err(ValueError::NotANumber));
    }

    #[test]
    fn numbers_fractions_percentages_and_switches() {
        assert_eq!(parse_whole("18446744073709551615"), Ok(u64::MAX));
        assert_eq!(
            parse_whole("18446744073709551616"),
            Err(ValueError::TooLarge)
        );
        assert_eq!(parse_whole("-1"), Err(ValueError::Negative));
        assert_eq!(parse_fraction("2/15"), Ok((2, 15)));
        assert_eq!(parse_fraction("1/99999999999"), Err(ValueError::TooLarge));
        assert_eq!(parse_fraction("third"), Err(ValueError::NotAFraction));
        assert_eq!(parse_fraction("1/0"), Err(ValueError::NotAFraction));
        assert_eq!(parse_percent_ppm("0.5%"), Ok(5_000));
        assert_eq!(parse_percent_ppm("100"), Ok(1_000_000));
        assert_eq!(print_percent_ppm(5_000), "0.5%");
        assert_eq!(parse_percent_ppm("0.00001%"), Err(ValueError::TooPrecise));
    }
}
