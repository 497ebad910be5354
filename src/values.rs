//! The value syntaxes of share links and of live mode's recorded runs (a leaf module: it
//! depends on nothing but the model's notation): the numbers of [`crate::model::notation`] (times,
//! whole numbers, fractions, percentages), and on/off, %-escapes and base64url. Printing and
//! parsing live side by side so each pair round-trips; parsing never panics.

pub use crate::model::notation::{
    parse_duration, parse_fraction, parse_percent_ppm, parse_signed_duration, parse_whole,
    print_duration, print_percent_ppm, print_signed_duration, ValueError,
};

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

/// %-escapes every byte that is not plain (`is_plain`) (so `&`, `=`, `#` and spaces never
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
    String::from_utf8(unbase64url_bytes(text, max_bytes)?).map_err(|_| ValueError::NotText)
}

/// Decodes base64url (padding optional) into bytes, refusing anything longer than
/// `max_bytes` once decoded, stray characters and impossible lengths.
pub fn unbase64url_bytes(text: &str, max_bytes: usize) -> Result<Vec<u8>, ValueError> {
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
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn switches_are_lowercase_on_or_off() {
        assert_eq!(parse_switch("off"), Ok(false));
        assert_eq!(parse_switch("on"), Ok(true));
        assert_eq!(parse_switch("OFF"), Err(ValueError::NotASwitch));
        assert_eq!(print_switch(true), "on");
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
