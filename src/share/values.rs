//! The small value syntaxes of a share link: times (`17.5s`, `250ms`), whole numbers,
//! fractions, percentages, on/off, %-escapes and base64url. Printing and parsing live side
//! by side so each pair round-trips; parsing never panics and never overflows.

use core::fmt;

/// Why one value could not be read. [`fmt::Display`] completes "… (“x”) " in a sentence.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ValueError {
    /// Nothing after the `=`.
    Empty,
    /// A leading minus where only lengths of time or counts make sense.
    Negative,
    /// Not digits (this covers `NaN`, `inf`, `1e9`, `0x10`).
    NotANumber,
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

impl fmt::Display for ValueError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            ValueError::Empty => "is empty",
            ValueError::Negative => "is negative",
            ValueError::NotANumber => "is not a number",
            ValueError::TooPrecise => "is more precise than Lease Lab can hold",
            ValueError::TooLarge => "is too large",
            ValueError::NotASwitch => "should be on or off",
            ValueError::NotAFraction => "is not a fraction such as 1/3",
            ValueError::NotText => "is not readable text",
        })
    }
}

/// At most this many digits before the decimal point: keeps every product below `u64::MAX`.
const MAX_INT_DIGITS: usize = 12;

/// Reads an unsigned decimal such as `17`, `17.5` or `.5` as an integer count of
/// `10^-max_decimals` units, refusing signs, exponents and anything but ASCII digits.
fn parse_decimal(text: &str, max_decimals: u32) -> Result<u64, ValueError> {
    if text.is_empty() {
        return Err(ValueError::Empty);
    }
    if text.starts_with('-') {
        return Err(ValueError::Negative);
    }
    let (int, frac) = text.split_once('.').unwrap_or((text, ""));
    let digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
    if (int.is_empty() && frac.is_empty()) || !digits(int) || !digits(frac) {
        return Err(ValueError::NotANumber);
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

/// Prints `units / 10^decimals` with the fraction's trailing zeros removed.
fn print_decimal(units: u64, decimals: u32) -> String {
    let scale = 10u64.pow(decimals);
    let (whole, frac) = (units / scale, units % scale);
    if frac == 0 {
        return whole.to_string();
    }
    let frac = format!("{frac:0width$}", width = decimals as usize);
    format!("{whole}.{}", frac.trim_end_matches('0'))
}

/// Reads a length of time in microseconds: `15s`, `1.5s`, `250ms`, `166.667ms`, `20us`; a
/// bare number counts as seconds.
pub fn parse_duration(text: &str) -> Result<u64, ValueError> {
    // The decimals kept are exactly those that land on whole microseconds.
    let (number, decimals) = if let Some(n) = text.strip_suffix("ms") {
        (n, 3)
    } else if let Some(n) = text.strip_suffix("us") {
        (n, 0)
    } else {
        (text.strip_suffix('s').unwrap_or(text), 6)
    };
    parse_decimal(number, decimals)
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
    Ok((part(num)?, part(den)?))
}

/// Reads a percentage such as `0.5%` (the `%` may be left out) as parts per million.
pub fn parse_percent_ppm(text: &str) -> Result<u64, ValueError> {
    parse_decimal(text.strip_suffix('%').unwrap_or(text), 4)
}

/// Prints parts per million as a percentage: `0.5%`.
pub fn print_percent_ppm(ppm: u64) -> String {
    format!("{}%", print_decimal(ppm, 4))
}

/// Reads `on` or `off`.
pub fn parse_switch(text: &str) -> Result<bool, ValueError> {
    match text {
        "on" => Ok(true),
        "off" => Ok(false),
        "" => Err(ValueError::Empty),
        _ => Err(ValueError::NotASwitch),
    }
}

/// Prints `on` or `off`.
pub fn print_switch(on: bool) -> &'static str {
    if on {
        "on"
    } else {
        "off"
    }
}

/// Characters written as they are in a link's keys and values; everything else is %-escaped.
/// `:`, `@`, `+` and `/` may stand unescaped in a URL fragment.
fn is_plain(byte: u8) -> bool {
    byte.is_ascii_alphanumeric()
        || matches!(byte, b'-' | b'.' | b'_' | b'~' | b':' | b'@' | b'+' | b'/')
}

/// %-escapes every byte that is not [plain](is_plain) (so `&`, `=`, `#` and spaces never
/// end a field early).
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for &byte in text.as_bytes() {
        if is_plain(byte) {
            out.push(byte as char);
        } else {
            out.push_str(&format!("%{byte:02X}"));
        }
    }
    out
}

/// Undoes %-escapes. A `%` not followed by two hex digits stays a `%` (as typed in `0.5%`);
/// `+` stays `+`. Fails only when the bytes are not UTF-8.
pub fn unescape(text: &str) -> Result<String, ValueError> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        let hex = |b: u8| (b as char).to_digit(16);
        match (bytes[i], bytes.get(i + 1), bytes.get(i + 2)) {
            (b'%', Some(&hi), Some(&lo)) if hex(hi).is_some() && hex(lo).is_some() => {
                out.push((hex(hi).unwrap_or(0) * 16 + hex(lo).unwrap_or(0)) as u8);
                i += 3;
            }
            (byte, _, _) => {
                out.push(byte);
                i += 1;
            }
        }
    }
    String::from_utf8(out).map_err(|_| ValueError::NotText)
}

const BASE64URL: &[u8; 64] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_";

/// Encodes bytes as base64url without padding.
pub fn base64url(bytes: &[u8]) -> String {
    let mut out = String::with_capacity(bytes.len().div_ceil(3) * 4);
    for chunk in bytes.chunks(3) {
        let n = chunk
            .iter()
            .enumerate()
            .fold(0u32, |n, (i, &b)| n | (b as u32) << (16 - 8 * i));
        for i in 0..=chunk.len() {
            out.push(BASE64URL[(n >> (18 - 6 * i) & 63) as usize] as char);
        }
    }
    out
}

/// The value of one base64url character.
fn sextet(c: u8) -> Option<u32> {
    let v = match c {
        b'A'..=b'Z' => c - b'A',
        b'a'..=b'z' => c - b'a' + 26,
        b'0'..=b'9' => c - b'0' + 52,
        b'-' => 62,
        b'_' => 63,
        _ => return None,
    };
    Some(u32::from(v))
}

/// Decodes base64url (padding optional) into text, refusing anything longer than
/// `max_bytes` once decoded, stray characters, impossible lengths and non-UTF-8 bytes.
pub fn unbase64url(text: &str, max_bytes: usize) -> Result<String, ValueError> {
    let text = text.trim_end_matches('=');
    if text.len() / 4 * 3 > max_bytes + 3 {
        return Err(ValueError::TooLarge);
    }
    if text.len() % 4 == 1 {
        return Err(ValueError::NotText);
    }
    let mut out = Vec::with_capacity(text.len() / 4 * 3 + 2);
    for chunk in text.as_bytes().chunks(4) {
        let mut n = 0u32;
        for (i, &c) in chunk.iter().enumerate() {
            n |= sextet(c).ok_or(ValueError::NotText)? << (18 - 6 * i);
        }
        for i in 0..chunk.len() - 1 {
            out.push((n >> (16 - 8 * i)) as u8);
        }
    }
    if out.len() > max_bytes {
        return Err(ValueError::TooLarge);
    }
    String::from_utf8(out).map_err(|_| ValueError::NotText)
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
        assert_eq!(parse_percent_ppm("0.5%"), Ok(5_000));
        assert_eq!(parse_percent_ppm("100"), Ok(1_000_000));
        assert_eq!(print_percent_ppm(5_000), "0.5%");
        assert_eq!(parse_percent_ppm("0.00001%"), Err(ValueError::TooPrecise));
        assert_eq!(parse_switch("off"), Ok(false));
        assert_eq!(parse_switch("OFF"), Err(ValueError::NotASwitch));
    }

    #[test]
    fn escapes_round_trip_and_tolerate_a_bare_percent_sign() {
        let text = "a&b=c #<script>é 100%";
        assert_eq!(unescape(&escape(text)).as_deref(), Ok(text));
        assert!(!escape(text).contains(['&', '=', '#', '<', ' ']));
        assert_eq!(unescape("0.5%").as_deref(), Ok("0.5%"));
        assert_eq!(unescape("a+b%2B").as_deref(), Ok("a+b+"));
        assert_eq!(unescape("%FF"), Err(ValueError::NotText));
    }

    #[test]
    fn base64url_round_trips_and_refuses_junk() {
        for text in ["", "a", "ab", "abc", "abcd", "def f():\n    return 'é'\n"] {
            assert_eq!(
                unbase64url(&base64url(text.as_bytes()), 100).as_deref(),
                Ok(text)
            );
        }
        assert_eq!(base64url(b"\xfb\xff"), "-_8");
        assert_eq!(unbase64url("YWJj====", 10).as_deref(), Ok("abc"));
        assert_eq!(unbase64url("a", 10), Err(ValueError::NotText));
        assert_eq!(unbase64url("a*bc", 10), Err(ValueError::NotText));
        assert_eq!(unbase64url("_w", 10), Err(ValueError::NotText));
        assert_eq!(
            unbase64url(&base64url(&[b'x'; 11]), 10),
            Err(ValueError::TooLarge)
        );
    }
}
