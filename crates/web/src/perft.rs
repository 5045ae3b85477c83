//! Perft in the browser: the same move counting as the native CLI, so the
//! wasm build's speed can be compared with native (issue 3).

use uttt_core::perft::perft as count;
use uttt_core::{Classic, Rules, Ultimate};
use wasm_bindgen::prelude::*;

use crate::args;
use crate::error::ApiError;

/// The deepest perft the API accepts: depth 9 of Ultimate already takes minutes.
const MAX_DEPTH: u32 = 9;

/// Counts the leaves `depth` plies from the empty board of `kind`.
///
/// # Errors
/// `bad-argument` for an unknown kind or a depth outside 0-9.
pub fn leaves(kind: &str, depth: Option<f64>) -> Result<u64, ApiError> {
    let depth = args::index(depth, "depth", MAX_DEPTH)?;
    match kind {
        "ultimate" => Ok(count(&Ultimate::new(Rules::Standard), depth)),
        "classic" => Ok(count(&Classic::new(), depth)),
        _ => Err(ApiError::bad_argument(format!(
            "unknown game type '{kind}': expected ultimate or classic"
        ))),
    }
}

/// `perft(kind, depth)`: leaves `depth` plies from the start of `"ultimate"`
/// or `"classic"`, as a number (exact below 2^53).
///
/// # Errors
/// Throws `bad-argument` for an unknown kind or a depth outside 0-9.
#[wasm_bindgen]
pub fn perft(kind: JsValue, depth: JsValue) -> Result<f64, JsValue> {
    let kind = args::text(kind.as_string(), "game type").map_err(ApiError::into_js)?;
    // Perft counts stay far below 2^53 up to depth 9, where f64 is exact.
    leaves(&kind, depth.as_f64())
        .map(|n| n as f64)
        .map_err(ApiError::into_js)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_counts_and_refusals() {
        assert_eq!(leaves("ultimate", Some(2.0)), Ok(720));
        assert_eq!(leaves("classic", Some(9.0)), Ok(127_872));
        assert!(leaves("ultimate", Some(10.0)).is_err());
        assert!(leaves("ultimate", Some(1.5)).is_err());
        assert!(leaves("chess", Some(1.0)).is_err());
    }
}
