//! Numbers the page prints and reads besides the model's times (diagram coordinates and
//! sizes, the readout's speed), with integer arithmetic: Rust's own float formatting and
//! parsing would add their code and tables to the lesson's wasm.

use std::fmt;

/// A number printed to at most two decimals, without trailing zeros: `360`, `12.5`,
/// `-3.25`. Not-a-number prints as `0`, and magnitudes past 10¹⁶ saturate.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Decimal(pub f64);

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // `as` saturates, and takes NaN to 0.
        let hundredths = (self.0 * 100.0).round() as i64;
        if hundredths < 0 {
            f.write_str("-")?;
        }
        let magnitude = hundredths.unsigned_abs();
        write!(f, "{}", magnitude / 100)?;
        match magnitude % 100 {
            0 => Ok(()),
            tenths if tenths % 10 == 0 => write!(f, ".{}", tenths / 10),
            fraction => write!(f, ".{fraction:02}"),
        }
    }
}

/// Reads a plain decimal such as `1.25`, `2` or `0.5` (digits, at most one point, at most
/// six decimals); anything else is `None`.
pub fn parse_decimal(text: &str) -> Option<f64> {
    let (whole, fraction) = match text.split_once('.') {
        Some((_, "")) => return None,
        Some(parts) => parts,
        None => (text, ""),
    };
    let digits = |part: &str| part.bytes().all(|b| b.is_ascii_digit());
    if whole.is_empty()
        || whole.len() > 9
        || fraction.len() > 6
        || !digits(whole)
        || !digits(fraction)
    {
        return None;
    }
    let whole: u32 = whole.parse().ok()?;
    let fraction_value = if fraction.is_empty() {
        0
    } else {
        fraction.parse::<u32>().ok()?
    };
    let scale = 10_u32.pow(fraction.len() as u32);
    Some(f64::from(whole) + f64::from(fraction_value) / f64::from(scale))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn prints_at_most_two_decimals_without_trailing_zeros() {
        let printed = |v: f64| Decimal(v).to_string();
        assert_eq!(printed(360.0), "360");
        assert_eq!(printed(12.5), "12.5");
        assert_eq!(printed(-3.25), "-3.25");
        assert_eq!(printed(0.05), "0.05");
        assert_eq!(printed(123.333_333), "123.33");
        assert_eq!(printed(2.0 / 3.0), "0.67");
        assert_eq!(printed(-0.001), "0");
        assert_eq!(printed(f64::NAN), "0");
        assert_eq!(printed(1.0 / 3.0 * 720.0), "240");
    }

    #[test]
    fn reads_plain_decimals_only() {
        assert_eq!(parse_decimal("1.25"), Some(1.25));
        assert_eq!(parse_decimal("2"), Some(2.0));
        assert_eq!(parse_decimal("0.5"), Some(0.5));
        for bad in [
            "",
            ".5",
            "1.",
            "-1",
            "1e3",
            "1.2.3",
            "NaN",
            " 1",
            "1,5",
            "1.2345678",
        ] {
            assert_eq!(parse_decimal(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn what_it_prints_it_reads_back() {
        for hundredths in 0..1_000 {
            let value = f64::from(hundredths) / 100.0;
            let read = parse_decimal(&Decimal(value).to_string()).unwrap();
            assert!((read - value).abs() < 1e-9, "{value}");
        }
    }
}
