//! Checking arguments that arrive from JavaScript, where any value may be
//! passed where a number or a string is expected.

use crate::error::ApiError;

/// Reads a whole number from 0 to `max`: a JavaScript number that is finite,
/// integral and in range. `None` stands for "not a number at all".
///
/// # Errors
/// `bad-argument`, naming `what`, for anything else.
pub fn index(value: Option<f64>, what: &str, max: u32) -> Result<u32, ApiError> {
    match value {
        Some(v) if v.is_finite() && v.fract() == 0.0 && (0.0..=f64::from(max)).contains(&v) => {
            // In range and integral, so the cast is exact.
            Ok(v as u32)
        }
        // The value is not echoed: formatting a float would bring Rust's
        // float printing (about 20 KB) into the wasm for one message.
        Some(_) => Err(ApiError::bad_argument(format!(
            "{what} must be a whole number from 0 to {max}"
        ))),
        None => Err(ApiError::bad_argument(format!(
            "{what} must be a number from 0 to {max}"
        ))),
    }
}

/// Reads a string argument.
///
/// # Errors
/// `bad-argument`, naming `what`, when the value is not a string.
#[cfg(any(feature = "page", feature = "bench"))]
pub fn text(value: Option<String>, what: &str) -> Result<String, ApiError> {
    value.ok_or_else(|| ApiError::bad_argument(format!("{what} must be a string")))
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;

    #[test]
    fn only_whole_numbers_in_range_pass() {
        assert_eq!(index(Some(0.0), "cell", 8), Ok(0));
        assert_eq!(index(Some(8.0), "cell", 8), Ok(8));
        for bad in [-1.0, 9.0, 0.5, f64::NAN, f64::INFINITY, -0.5, 1e20] {
            let e = index(Some(bad), "cell", 8).unwrap_err();
            assert_eq!(e.code, ErrorCode::BadArgument, "{bad}");
        }
        assert!(index(None, "cell", 8).is_err());
        assert!(text(None, "rules").is_err());
    }
}
