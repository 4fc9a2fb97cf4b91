//! Numbers from the command line checked against their ranges in clap (`value_parser`),
//! so a value out of range is one clap error that states the range, before any work.
//! Whole numbers use clap's own ranged parsers (`clap::value_parser!(u64).range(..)`);
//! this holds the parser clap lacks, for finite decimals in a range.

/// A parser of a finite `f32` from `min` (excluded when `min_open`) to `max` (included),
/// for `#[arg(value_parser = ...)]`: `NaN`, the infinities and values outside are refused
/// with the range in the message (`koma nnue-train`'s options).
#[cfg(any(feature = "train", test))]
pub(crate) fn float_in(
    min: f32,
    max: f32,
    min_open: bool,
) -> impl Fn(&str) -> Result<f32, String> + Clone + Send + Sync {
    move |text: &str| {
        let v: f32 = text.trim().parse().map_err(|_| format!("expected a number, got '{}'", super::shown(text)))?;
        let low_ok = if min_open { v > min } else { v >= min };
        if v.is_finite() && low_ok && v <= max {
            Ok(v)
        } else {
            let low = if min_open { "above" } else { "at least" };
            Err(format!("expected a number {low} {min} and at most {max}"))
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn floats_outside_their_range_are_refused_with_the_range() {
        let holdout = float_in(0.0, 0.5, true);
        assert_eq!(holdout("0.25"), Ok(0.25));
        assert_eq!(holdout("0.5"), Ok(0.5));
        for bad in ["0", "NaN", "inf", "-1", "1", "0.5000001"] {
            assert_eq!(holdout(bad), Err("expected a number above 0 and at most 0.5".to_string()), "{bad}");
        }
        assert!(holdout("x").unwrap_err().starts_with("expected a number, got 'x'"));
        assert_eq!(float_in(0.0, 1.0, false)("0"), Ok(0.0));
    }
}
