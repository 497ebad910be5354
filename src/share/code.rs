//! Edited snippet code in a link. Code up to [`MAX_SNIPPET_BYTES`] travels as plain base64url
//! (`py=`, `ts=`); longer code is deflated first (`pyz=`, `tsz=`), as a recorded live run is.
//! Code that is still too long stays out of the link, and the page says so
//! ([`super::LinkState::left_out`]) and offers it as a download.

use super::values::{base64url, unbase64url, unbase64url_bytes, ValueError};
use super::MAX_SNIPPET_BYTES;

/// Longest code a link carries at all, once inflated, in bytes of UTF-8.
pub const MAX_CODE_BYTES: usize = 65_536;
/// Longest deflated field, in characters: two of them and a recorded live run still fit
/// most of a link.
pub const MAX_PACKED_CHARS: usize = 10_000;

/// How a link writes one snippet's code.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum CodeField {
    /// Plain base64url.
    Plain(String),
    /// Deflated, then base64url.
    Packed(String),
}

/// The field for `code`, or `None` when it is too long for a link even deflated.
pub fn to_field(code: &str) -> Option<CodeField> {
    if code.len() <= MAX_SNIPPET_BYTES {
        return Some(CodeField::Plain(base64url(code.as_bytes())));
    }
    if code.len() > MAX_CODE_BYTES {
        return None;
    }
    let packed = base64url(&miniz_oxide::deflate::compress_to_vec(code.as_bytes(), 9));
    (packed.len() <= MAX_PACKED_CHARS).then_some(CodeField::Packed(packed))
}

/// Reads a plain field.
pub fn from_plain(text: &str) -> Result<String, ValueError> {
    unbase64url(text, MAX_SNIPPET_BYTES)
}

/// Reads a deflated field; never panics, and never inflates past [`MAX_CODE_BYTES`].
pub fn from_packed(text: &str) -> Result<String, ValueError> {
    if text.len() > MAX_PACKED_CHARS {
        return Err(ValueError::TooLarge);
    }
    let packed = unbase64url_bytes(text, MAX_PACKED_CHARS)?;
    let bytes = miniz_oxide::inflate::decompress_to_vec_with_limit(&packed, MAX_CODE_BYTES)
        .map_err(|e| match e.status {
            miniz_oxide::inflate::TINFLStatus::HasMoreOutput => ValueError::TooLarge,
            _ => ValueError::NotText,
        })?;
    String::from_utf8(bytes).map_err(|_| ValueError::NotText)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Code that deflate cannot shrink much: every line different.
    fn varied_code(lines: usize) -> String {
        (0..lines)
            .map(|i| {
                format!(
                    "v{i} = {} * {} + {}\n",
                    i * 7919 % 10007,
                    i * 104_729 % 99991,
                    i ^ 0x5a5a
                )
            })
            .collect()
    }

    #[test]
    fn short_code_stays_plain_and_longer_code_is_deflated_within_its_caps() {
        assert_eq!(
            to_field("print(1)"),
            Some(CodeField::Plain("cHJpbnQoMSk".into()))
        );
        let long = "print('the lease is held')\n".repeat(400);
        assert!(long.len() > MAX_SNIPPET_BYTES);
        let Some(CodeField::Packed(packed)) = to_field(&long) else {
            panic!("long code should be deflated");
        };
        assert!(packed.len() < long.len() / 10);
        assert_eq!(from_packed(&packed), Ok(long));
        let varied = varied_code(1_500);
        assert!(varied.len() < MAX_CODE_BYTES, "{}", varied.len());
        assert_eq!(to_field(&varied), None);
        assert_eq!(to_field(&"x".repeat(MAX_CODE_BYTES + 1)), None);
    }

    #[test]
    fn a_packed_field_that_inflates_past_the_cap_or_is_not_deflate_is_refused() {
        let bomb = base64url(&miniz_oxide::deflate::compress_to_vec(
            &vec![b'a'; MAX_CODE_BYTES + 1],
            9,
        ));
        assert_eq!(from_packed(&bomb), Err(ValueError::TooLarge));
        assert_eq!(from_packed("AAAA"), Err(ValueError::NotText));
        assert_eq!(from_packed("%%"), Err(ValueError::NotText));
        assert_eq!(
            from_packed(&"A".repeat(MAX_PACKED_CHARS + 4)),
            Err(ValueError::TooLarge)
        );
    }
}
