//! Why an API call was refused, as a Rust value (testable natively) that
//! becomes a JavaScript `Error` with a stable `code` at the boundary.

use serde::Serialize;
use tsify::Tsify;
use uttt_core::notation::{ParseError, ParseErrorKind};
use uttt_core::IllegalMove;
use wasm_bindgen::JsValue;

/// Why a call or a request was refused: the stable code programs read, in
/// kebab-case in JavaScript (`"wrong-board"`), where the generated
/// declarations make it a union of these names.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Tsify)]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// An argument of the wrong type or value.
    BadArgument,
    /// A message to the worker that is not a request.
    BadRequest,
    /// The game is over: no move to play, search or survey.
    GameOver,
    /// The move is outside the board the rules send the player to.
    WrongBoard,
    /// The cell is taken.
    CellTaken,
    /// The small board is already won or full.
    BoardDecided,
    /// No such board or cell.
    OutOfRange,
    /// A record or position string that cannot be read (with `at`).
    ParseError,
    /// A jump past the moves recorded.
    NoSuchPly,
    /// A position id the game's tree does not have.
    NoSuchPosition,
    /// The game's tree holds as many moves as it can.
    TooManyMoves,
    /// A search or review ended by a newer request.
    Cancelled,
    /// Something that cannot happen did: a bug to report.
    Crash,
}

impl ErrorCode {
    /// The code as JavaScript sees it.
    #[must_use]
    pub fn as_str(self) -> &'static str {
        match self {
            ErrorCode::BadArgument => "bad-argument",
            ErrorCode::BadRequest => "bad-request",
            ErrorCode::GameOver => "game-over",
            ErrorCode::WrongBoard => "wrong-board",
            ErrorCode::CellTaken => "cell-taken",
            ErrorCode::BoardDecided => "board-decided",
            ErrorCode::OutOfRange => "out-of-range",
            ErrorCode::ParseError => "parse-error",
            ErrorCode::NoSuchPly => "no-such-ply",
            ErrorCode::NoSuchPosition => "no-such-position",
            ErrorCode::TooManyMoves => "too-many-moves",
            ErrorCode::Cancelled => "cancelled",
            ErrorCode::Crash => "crash",
        }
    }
}

/// A refused call: a stable code for programs and a sentence for people.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiError {
    /// The machine-readable reason.
    pub code: ErrorCode,
    /// A human-readable explanation in English.
    pub message: String,
    /// For parse errors: the 0-based character offset where reading failed.
    pub at: Option<usize>,
    /// For a record with an illegal move: the move's 0-based index.
    pub ply: Option<usize>,
    /// For a record with an illegal move: why, as an illegal-move code.
    pub reason: Option<ErrorCode>,
}

impl ApiError {
    /// An error with the given code and message.
    #[must_use]
    pub fn new(code: ErrorCode, message: impl Into<String>) -> ApiError {
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
        ApiError::new(ErrorCode::BadArgument, message)
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
        set("code", JsValue::from_str(self.code.as_str()));
        if let Some(at) = self.at {
            set("at", JsValue::from(u32::try_from(at).unwrap_or(u32::MAX)));
        }
        if let Some(ply) = self.ply {
            set("ply", JsValue::from(u32::try_from(ply).unwrap_or(u32::MAX)));
        }
        if let Some(reason) = self.reason {
            set("reason", JsValue::from_str(reason.as_str()));
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
            code: ErrorCode::ParseError,
            message: e.to_string(),
            at: Some(e.at),
            ply,
            reason,
        }
    }
}

/// The stable code of an illegal-move reason.
#[must_use]
pub fn illegal_code(reason: IllegalMove) -> ErrorCode {
    match reason {
        IllegalMove::GameOver => ErrorCode::GameOver,
        IllegalMove::WrongBoard { .. } => ErrorCode::WrongBoard,
        IllegalMove::CellTaken => ErrorCode::CellTaken,
        IllegalMove::BoardDecided => ErrorCode::BoardDecided,
        IllegalMove::OutOfRange => ErrorCode::OutOfRange,
    }
}
