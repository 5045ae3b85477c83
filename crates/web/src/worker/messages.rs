//! What the page and the worker say to each other: [`Request`], read from
//! a message field by field by [`read_request`], and [`Reply`].

use serde::Serialize;
use tsify::Tsify;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::args;
use crate::engine::{Report, SearchReply};
use crate::error::{ApiError, ErrorCode};
use crate::review::{FoundPuzzle, ReviewSummary, ReviewedMove};
use crate::survey::SurveyReport;

/// A request from the page. [`read_request`] reads one field by field and
/// refuses any other shape; the serde attributes say that same shape to
/// the generated TypeScript declaration the page is checked against.
#[derive(Clone, Debug, PartialEq, Serialize, Tsify)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Request {
    /// `{type: 'search', id, text, level, budgetMs}`: the best move in
    /// `text` (a record without variations, or a position string) at `level`
    /// within `budgetMs`.
    Search {
        /// Chosen by the page; every reply to this search carries it.
        id: u32,
        /// A record without variations (the worker has no tree of lines), or
        /// a position string.
        text: String,
        /// A level name (`"hard"`).
        level: String,
        /// The time to think, in milliseconds.
        budget_ms: f64,
        /// Think on after answering, on the position the opponent's
        /// expected reply would bring (`ponder: true`; off when missing).
        #[tsify(optional)]
        ponder: bool,
    },
    /// `{type: 'analyse', id, text}`: the position at the cursor of `text`
    /// analysed by the analyst, slice by slice, until the next request or
    /// [`Timing::ponder_ms`], each completed depth reported as `analysis`.
    Analyse {
        /// Chosen by the page; every report of this analysis carries it.
        id: u32,
        /// A record without variations (the worker has no tree of lines), or
        /// a position string.
        text: String,
    },
    /// `{type: 'survey', id, text}`: every legal move at the cursor of
    /// `text` surveyed by the analyst (core's
    /// [`Surveyor`](uttt_core::search::Surveyor)), slice by slice, until the
    /// next request or [`Timing::ponder_ms`], each completed depth reported
    /// as `survey`: every cell's worth and the best line. With `ponder:
    /// true` it runs on the AI's engine instead, when that engine ponders
    /// (Hard, Master): the survey then warms its table for every reply the
    /// person may play, as pondering would.
    Survey {
        /// Chosen by the page; every report of this survey carries it.
        id: u32,
        /// A record without variations (the worker has no tree of lines), or
        /// a position string.
        text: String,
        /// Survey on the AI's engine, if it ponders (off when missing).
        #[tsify(optional)]
        ponder: bool,
    },
    /// `{type: 'review', id, text}`: every move of the game `text` (a
    /// record) reviewed by the analyst at
    /// [`REVIEW_NODES`](uttt_core::search::review::REVIEW_NODES) a position, one
    /// move a turn of the event loop, each reported as `reviewMove`; then
    /// each candidate puzzle checked, reported as `puzzleChecked`; then
    /// both players' summaries and the puzzles as `reviewed`. A new request
    /// stops it.
    Review {
        /// Chosen by the page; every reply of this review carries it.
        id: u32,
        /// A record.
        text: String,
    },
    /// `{type: 'stop'}`: stops the search, pondering or analysis under way;
    /// a search stopped so gets a `cancelled` error. The engines and their
    /// tables stay.
    Stop,
    /// `{type: 'newGame', level}`: a game begins; the engine for `level` is
    /// made now (or told to forget the last game), before the first search.
    NewGame {
        /// A level name.
        level: String,
    },
}

/// A message as it arrives: every field a request may have.
#[derive(Default)]
struct Message {
    kind: Option<String>,
    id: Option<u32>,
    text: Option<String>,
    level: Option<String>,
    budget_ms: Option<f64>,
    ponder: Option<bool>,
}

/// The fields a request may have; any other is refused.
const FIELDS: [&str; 6] = ["type", "id", "text", "level", "budgetMs", "ponder"];

impl Message {
    /// Reads the fields of `data`, each with its type checked. Read by hand
    /// rather than by serde-wasm-bindgen: serde's deserializer brings Rust's
    /// float printing (for its "invalid type: floating point" messages) and
    /// its buffering into the wasm, 30,339 B raw and 12,701 B gzip of it,
    /// which the size budget has no room for.
    fn read(data: &JsValue) -> Result<Message, String> {
        if !data.is_object() || js_sys::Array::is_array(data) {
            return Err("a request is an object".into());
        }
        let object: &js_sys::Object = data.unchecked_ref();
        let mut message = Message::default();
        for key in js_sys::Object::keys(object).iter() {
            let name = key.as_string().unwrap_or_default();
            let value = js_sys::Reflect::get(data, &key).unwrap_or(JsValue::UNDEFINED);
            let text = || value.as_string().ok_or(format!("{name} must be a string"));
            match name.as_str() {
                "type" => message.kind = Some(text()?),
                "text" => message.text = Some(text()?),
                "level" => message.level = Some(text()?),
                "id" => {
                    message.id = Some(
                        whole_u32(&value).ok_or("id must be a whole number from 0 to 2^32 - 1")?,
                    )
                }
                "budgetMs" => {
                    message.budget_ms = Some(value.as_f64().ok_or("budgetMs must be a number")?)
                }
                "ponder" => {
                    message.ponder = Some(value.as_bool().ok_or("ponder must be true or false")?)
                }
                _ => {
                    return Err(format!(
                        "unknown field '{name}': a request has only {}",
                        FIELDS.join(", ")
                    ))
                }
            }
        }
        Ok(message)
    }

    fn into_request(self) -> Result<Request, String> {
        let kind = self.kind.ok_or("a request needs a type")?;
        let (id, text, budget_ms, ponder) = (self.id, self.text, self.budget_ms, self.ponder);
        match (kind.as_str(), self.level) {
            ("search", Some(level)) => match (id, text, budget_ms) {
                (Some(id), Some(text), Some(budget_ms)) => Ok(Request::Search {
                    id,
                    text,
                    level,
                    budget_ms,
                    ponder: ponder.unwrap_or(false),
                }),
                _ => Err("a search needs an id, a text and budgetMs".into()),
            },
            ("newGame", Some(level)) => match (id, text, budget_ms, ponder) {
                (None, None, None, None) => Ok(Request::NewGame { level }),
                _ => Err("newGame takes only a level".into()),
            },
            ("analyse", None) => match (id, text, budget_ms, ponder) {
                (Some(id), Some(text), None, None) => Ok(Request::Analyse { id, text }),
                _ => Err("analyse takes an id and a text".into()),
            },
            ("analyse", Some(_)) => Err("analyse takes an id and a text".into()),
            ("survey", None) => match (id, text, budget_ms) {
                (Some(id), Some(text), None) => Ok(Request::Survey {
                    id,
                    text,
                    ponder: ponder.unwrap_or(false),
                }),
                _ => Err("survey takes an id, a text and ponder".into()),
            },
            ("survey", Some(_)) => Err("survey takes an id, a text and ponder".into()),
            ("review", None) => match (id, text, budget_ms, ponder) {
                (Some(id), Some(text), None, None) => Ok(Request::Review { id, text }),
                _ => Err("review takes an id and a text".into()),
            },
            ("review", Some(_)) => Err("review takes an id and a text".into()),
            ("search" | "newGame", None) => Err("a request needs a level".into()),
            ("stop", None) => match (id, text, budget_ms, ponder) {
                (None, None, None, None) => Ok(Request::Stop),
                _ => Err("stop takes no fields".into()),
            },
            ("stop", Some(_)) => Err("stop takes no fields".into()),
            (other, _) => Err(format!("unknown request type '{other}'")),
        }
    }
}

/// A JavaScript number that is a whole number in u32's range.
fn whole_u32(value: &JsValue) -> Option<u32> {
    args::index(value.as_f64(), "id", u32::MAX).ok()
}

/// A message to the page.
#[derive(Clone, Debug, PartialEq, Serialize, Tsify)]
#[tsify(missing_as_null)]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase"
)]
pub enum Reply {
    /// The loop runs: requests are answered from now on.
    Ready,
    /// The search `id` arrived (sent before any work).
    Received {
        /// The request's id.
        id: u32,
    },
    /// The engine is ready and the search `id` begins.
    Started {
        /// The request's id.
        id: u32,
    },
    /// A depth of the search `id` is complete.
    Progress {
        /// The request's id.
        id: u32,
        /// What the search knows so far.
        report: Report,
    },
    /// The answer to the search `id`.
    Result {
        /// The request's id.
        id: u32,
        /// The move and what the search found.
        reply: SearchReply,
    },
    /// Right after the answer to the search `id`: the engine ponders on,
    /// and `analysis` reports under `id` follow the position the opponent
    /// is to move in. (A reply of its own: a boolean field on `result`
    /// cost the wasm 0.7 KB of serializer.)
    Pondering {
        /// The search's id.
        id: u32,
    },
    /// A depth of the analysis `id` (or of the pondering after the search
    /// `id`) is complete: a report of the position the person is to move in.
    Analysis {
        /// The request's id.
        id: u32,
        /// What the analysis knows so far.
        report: Report,
    },
    /// A depth of the survey `id` is complete: every legal cell's worth
    /// and the best line.
    Survey {
        /// The request's id.
        id: u32,
        /// What the survey knows so far (boxed, as `reviewed` below).
        report: Box<SurveyReport>,
    },
    /// A move of the review `id` is reviewed: `done` of `total`.
    ReviewMove {
        /// The request's id.
        id: u32,
        /// Moves reviewed so far, this one included.
        done: u32,
        /// Moves in the game.
        total: u32,
        /// What this move was worth (boxed: the largest reply by far, it
        /// would make every reply, and `read_request`'s error, that large).
        reviewed: Box<ReviewedMove>,
    },
    /// A puzzle of the review `id` is checked for its one answer: `done`
    /// of the game's `total` candidates.
    PuzzleChecked {
        /// The request's id.
        id: u32,
        /// Checks finished, this one included.
        done: u32,
        /// Candidate puzzles in the game.
        total: u32,
    },
    /// The review `id` is over: each player's summary and the game's
    /// puzzles.
    Reviewed {
        /// The request's id.
        id: u32,
        /// X's summary.
        x: ReviewSummary,
        /// O's summary.
        o: ReviewSummary,
        /// The puzzles with one answer, in game order.
        puzzles: Vec<FoundPuzzle>,
    },
    /// A request was refused; `id` is `null` when it had none.
    Error {
        /// The request's id, if it had one.
        id: Option<u32>,
        /// Why (see [`ErrorCode`]).
        code: ErrorCode,
        /// What went wrong, in English.
        message: String,
    },
}

impl Reply {
    /// The error reply to request `id` (none when it had no id).
    pub(super) fn error(id: Option<u32>, e: ApiError) -> Reply {
        Reply::Error {
            id,
            code: e.code,
            message: e.message,
        }
    }
}

/// Reads a message from the page as a [`Request`].
///
/// # Errors
/// `bad-request`, with the message's `id` when it has a usable one.
pub fn read_request(data: &JsValue) -> Result<Request, Reply> {
    Message::read(data)
        .and_then(Message::into_request)
        .map_err(|why| {
            let id = js_sys::Reflect::get(data, &JsValue::from_str("id"))
                .ok()
                .as_ref()
                .and_then(whole_u32);
            Reply::Error {
                id,
                code: ErrorCode::BadRequest,
                message: format!("not a request the AI worker knows: {why}"),
            }
        })
}
