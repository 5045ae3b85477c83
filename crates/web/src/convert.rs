//! Rust values to plain JavaScript objects, one way for the whole crate.

use serde::Serialize;
use wasm_bindgen::JsValue;

use crate::error::{ApiError, ErrorCode};

/// `value` as a plain JavaScript value: structs become objects with their
/// serde names, vectors arrays, and `None` becomes `null` (not `undefined`),
/// so the page can compare with `=== null` and the value survives
/// `postMessage` and `JSON.stringify` alike.
///
/// # Errors
/// `crash` if serde-wasm-bindgen refuses the value, which the types this
/// crate serialises (numbers, strings, vectors, options) never make it do.
pub fn to_js<T: Serialize + ?Sized>(value: &T) -> Result<JsValue, ApiError> {
    value
        .serialize(&serde_wasm_bindgen::Serializer::new().serialize_missing_as_null(true))
        .map_err(|e| {
            ApiError::new(
                ErrorCode::Crash,
                format!("cannot convert a value for JavaScript: {e}"),
            )
        })
}
