//! Why an API call was refused, as a Rust value (testable natively) that
//! becomes a JavaScript `Error` with a stable `code` at the boundary.

use uttt_core::notation::{ParseError, ParseErrorKind};
use uttt_core::IllegalMove;
use wasm_bindgen::JsValue;

/// A refused call: a stable code for programs and a sentence for people.
///
/// Codes: `bad-argument`, `game-over`, `wrong-board`, `cell-taken`,
/// `board-decided`, `out-of-range`, `parse-error`, `no-such-ply`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The machine-readable reason, one of the codes above.
    pub code: &'static str,
    /// A human-readable explanation in English.
    pub message: String,
    /// For parse errors: the 0-based character offset where reading failed.
    pub at: Option<usize>,
    /// For a record with an illegal move: the move's 0-based index.
    pub ply: Option<usize>,
    /// For a record with an illegal move: why, as an illegal-move code.
    pub reason: Option<&'static str>,
}

impl ApiError {
    /// An error with the given code and message.
    #[must_use]
    pub fn new(code: &'static str, message: impl Into<String>) -> ApiError {
        ApiError {
            code,
            message: message.into(),
            at: None,
            ply: None,
            reason: None,
        }
    }

    /// A call whose argument has the wrong type or value.
    #[must_use]
    pub fn bad_argument(message: impl Into<String>) -> ApiError {
        ApiError::new("bad-argument", message)
    }

    /// Converts to a thrown JavaScript `Error` with `name`, `code`, `message`
    /// and, where they apply, `at`, `ply` and `reason`.
    #[must_use]
    pub fn into_js(self) -> JsValue {
        let e = js_sys::Error::new(&self.message);
        e.set_name("UtttError");
        let set = |key: &str, value: JsValue| {
            // Setting a property on a fresh Error object cannot fail.
            let _ = js_sys::Reflect::set(&e, &JsValue::from_str(key), &value);
        };
        set("code", JsValue::from_str(self.code));
        if let Some(at) = self.at {
            set("at", JsValue::from(u32::try_from(at).unwrap_or(u32::MAX)));
        }
        if let Some(ply) = self.ply {
            set("ply", JsValue::from(u32::try_from(ply).unwrap_or(u32::MAX)));
        }
        if let Some(reason) = self.reason {
            set("reason", JsValue::from_str(reason));
        }
        e.into()
    }
}

impl From<IllegalMove> for ApiError {
    fn from(reason: IllegalMove) -> ApiError {
        ApiError::new(illegal_code(reason), reason.to_string())
    }
}

impl From<ParseError> for ApiError {
    fn from(e: ParseError) -> ApiError {
        let (ply, reason) = match e.kind {
            ParseErrorKind::Illegal { ply, reason } => (Some(ply), Some(illegal_code(reason))),
            _ => (None, None),
        };
        ApiError {
            code: "parse-error",
            message: e.to_string(),
            at: Some(e.at),
            ply,
            reason,
        }
    }
}

/// The stable code of an illegal-move reason.
#[must_use]
pub fn illegal_code(reason: IllegalMove) -> &'static str {
    match reason {
        IllegalMove::GameOver => "game-over",
        IllegalMove::WrongBoard { .. } => "wrong-board",
        IllegalMove::CellTaken => "cell-taken",
        IllegalMove::BoardDecided => "board-decided",
        IllegalMove::OutOfRange => "out-of-range",
    }
}
