//! The AI worker's message loop: `www/worker.js` loads the wasm and calls
//! [`run_worker`], which answers the page's requests (`www/ai.js`) from then
//! on. Requests and replies are the typed [`Request`] and [`Reply`]; a
//! message that is not a request gets a `bad-request` error and changes
//! nothing.
//!
//! For each search the worker says `received` first, `started` once the
//! engine for the level is ready, `progress` after each completed depth, and
//! ends with `result` or `error`: the page gives each step a deadline and
//! replaces a worker that misses one. Every reply carries the request's id,
//! so the page never takes an old answer for a new question. A search runs
//! to its budget without yielding; the page stops one early by terminating
//! the worker.

use serde::Serialize;
use std::cell::RefCell;
use std::rc::Rc;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::args;
use crate::convert::to_js;
use crate::engine::{Report, SearchReply, WebEngine};
use crate::error::ApiError;

/// A request from the page.
#[derive(Clone, Debug, PartialEq)]
pub enum Request {
    /// `{type: 'search', id, text, level, budgetMs}`: the best move in
    /// `text` (a record or position string) at `level` within `budgetMs`.
    Search {
        /// Chosen by the page; every reply to this search carries it.
        id: u32,
        /// A record or a position string.
        text: String,
        /// A level name (`"hard"`).
        level: String,
        /// The time to think, in milliseconds.
        budget_ms: f64,
    },
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
}

/// The fields a request may have; any other is refused.
const FIELDS: [&str; 5] = ["type", "id", "text", "level", "budgetMs"];

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
        let level = self.level.ok_or("a request needs a level")?;
        match (kind.as_str(), self.id, self.text, self.budget_ms) {
            ("search", Some(id), Some(text), Some(budget_ms)) => Ok(Request::Search {
                id,
                text,
                level,
                budget_ms,
            }),
            ("search", ..) => Err("a search needs an id, a text and budgetMs".into()),
            ("newGame", None, None, None) => Ok(Request::NewGame { level }),
            ("newGame", ..) => Err("newGame takes only a level".into()),
            (other, ..) => Err(format!("unknown request type '{other}'")),
        }
    }
}

/// A JavaScript number that is a whole number in u32's range.
fn whole_u32(value: &JsValue) -> Option<u32> {
    args::index(value.as_f64(), "id", u32::MAX).ok()
}

/// A message to the page.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
    /// A request was refused; `id` is `null` when it had none.
    Error {
        /// The request's id, if it had one.
        id: Option<u32>,
        /// A stable code (see [`ApiError`]) or `bad-request`.
        code: &'static str,
        /// What went wrong, in English.
        message: String,
    },
}

impl Reply {
    fn error(id: Option<u32>, e: ApiError) -> Reply {
        Reply::Error {
            id,
            code: e.code,
            message: e.message,
        }
    }
}

/// The worker's state: the engine of the last level used, kept across
/// searches so its table carries over within a game.
pub struct Worker {
    engine: Option<(String, WebEngine)>,
    seed: Box<dyn FnMut() -> u64>,
}

impl Worker {
    /// A worker whose engines draw their seeds from `seed`.
    #[must_use]
    pub fn new(seed: Box<dyn FnMut() -> u64>) -> Worker {
        Worker { engine: None, seed }
    }

    /// The engine for `level`, made on first use; a change of level makes a
    /// new one.
    fn engine_for(&mut self, level: &str) -> Result<&mut WebEngine, ApiError> {
        if !matches!(&self.engine, Some((l, _)) if l == level) {
            // The old engine goes first, so two tables (up to 64 MiB each)
            // are never held at once.
            self.engine = None;
            let engine = WebEngine::create(level, (self.seed)())?;
            self.engine = Some((level.to_string(), engine));
        }
        match &mut self.engine {
            Some((_, engine)) => Ok(engine),
            None => Err(ApiError::new("crash", "the engine was not made")),
        }
    }

    /// Answers `request` through `post`, timing searches by `now`.
    pub fn handle(&mut self, request: Request, now: &dyn Fn() -> f64, post: &mut dyn FnMut(Reply)) {
        match request {
            Request::Search {
                id,
                text,
                level,
                budget_ms,
            } => {
                post(Reply::Received { id });
                let engine = match self.engine_for(&level) {
                    Ok(engine) => engine,
                    Err(e) => return post(Reply::error(Some(id), e)),
                };
                post(Reply::Started { id });
                let result = engine.run(&text, Some(budget_ms), now, &mut |report| {
                    post(Reply::Progress { id, report });
                });
                post(match result {
                    Ok(reply) => Reply::Result { id, reply },
                    Err(e) => Reply::error(Some(id), e),
                });
            }
            Request::NewGame { level } => {
                let same = matches!(&self.engine, Some((l, _)) if *l == level);
                let made = self.engine_for(&level);
                match made {
                    Ok(engine) if same => engine.new_game(),
                    Ok(_) => {}
                    Err(e) => post(Reply::error(None, e)),
                }
            }
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
                code: "bad-request",
                message: format!("not a request the AI worker knows: {why}"),
            }
        })
}

/// Posts `reply` to the page. A reply that cannot be posted has nowhere to
/// go: the page's deadline for it notices instead.
fn post_to(scope: &web_sys::DedicatedWorkerGlobalScope, reply: &Reply) {
    if let Ok(value) = to_js(reply) {
        let _ = scope.post_message(&value);
    }
}

/// A seed from the browser's cryptographic random numbers, so two tabs
/// never play the same game; the clock's milliseconds if they are refused.
fn random_seed(scope: &web_sys::DedicatedWorkerGlobalScope) -> u64 {
    let mut bytes = [0u8; 8];
    let filled = scope
        .crypto()
        .and_then(|c| c.get_random_values_with_u8_array(&mut bytes).map(|_| ()))
        .is_ok();
    if filled {
        u64::from_le_bytes(bytes)
    } else {
        // Milliseconds since 1970 fit a u64 with room to spare.
        js_sys::Date::now() as u64
    }
}

/// `runWorker(early)`: starts the loop in this worker. `early` holds the
/// messages that arrived while the wasm loaded, answered first, in order.
///
/// # Errors
/// Throws when not called inside a dedicated worker.
#[wasm_bindgen(js_name = runWorker)]
pub fn run_worker(early: js_sys::Array) -> Result<(), JsValue> {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().dyn_into().map_err(|_| {
        ApiError::new("bad-argument", "runWorker runs only in a dedicated worker").into_js()
    })?;
    let seed_scope = scope.clone();
    let worker = Rc::new(RefCell::new(Worker::new(Box::new(move || {
        random_seed(&seed_scope)
    }))));
    let answer = {
        let scope = scope.clone();
        move |data: &JsValue| {
            let mut post = |reply: Reply| post_to(&scope, &reply);
            match read_request(data) {
                Err(refusal) => post(refusal),
                // A search never yields, so no message can arrive while one
                // runs; the check only keeps a broken promise from panicking.
                Ok(request) => match worker.try_borrow_mut() {
                    Ok(mut w) => w.handle(request, &js_sys::Date::now, &mut post),
                    Err(_) => post(Reply::error(
                        None,
                        ApiError::new("crash", "the worker is busy"),
                    )),
                },
            }
        }
    };
    post_to(&scope, &Reply::Ready);
    for data in early.iter() {
        answer(&data);
    }
    let onmessage =
        Closure::<dyn Fn(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            answer(&event.data());
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The handler lives as long as the worker does.
    onmessage.forget();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tests::ticking;
    use core::cell::Cell;

    fn replies(worker: &mut Worker, request: Request) -> Vec<Reply> {
        let mut out = Vec::new();
        worker.handle(request, &ticking(), &mut |r| out.push(r));
        out
    }

    fn search(id: u32, text: &str, level: &str) -> Request {
        Request::Search {
            id,
            text: text.into(),
            level: level.into(),
            budget_ms: 50.0,
        }
    }

    #[test]
    fn a_search_is_received_started_reported_and_answered_under_its_id() {
        let mut w = Worker::new(Box::new(|| 7));
        let out = replies(&mut w, search(3, "ultimate-standard:e5", "medium"));
        assert_eq!(out[0], Reply::Received { id: 3 });
        assert_eq!(out[1], Reply::Started { id: 3 });
        assert!(out[2..out.len() - 1]
            .iter()
            .all(|r| matches!(r, Reply::Progress { id: 3, .. })));
        assert!(out.len() > 3, "no progress was reported");
        match out.last() {
            Some(Reply::Result { id: 3, reply }) => assert_eq!(reply.board, 4),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn refused_searches_answer_an_error_under_their_id() {
        let mut w = Worker::new(Box::new(|| 7));
        let out = replies(&mut w, search(1, "ultimate-standard:e5", "grandmaster"));
        assert_eq!(out[0], Reply::Received { id: 1 });
        assert!(matches!(
            &out[1],
            Reply::Error {
                id: Some(1),
                code: "bad-argument",
                ..
            }
        ));
        let out = replies(&mut w, search(2, "classic:zz", "easy"));
        assert!(matches!(
            out.last(),
            Some(Reply::Error {
                id: Some(2),
                code: "parse-error",
                ..
            })
        ));
        let out = replies(&mut w, search(4, "classic:a1b1a2b2a3", "easy"));
        assert!(matches!(
            out.last(),
            Some(Reply::Error {
                id: Some(4),
                code: "game-over",
                ..
            })
        ));
    }

    #[test]
    fn the_engine_is_kept_for_its_level_and_made_anew_for_another() {
        let seeds = Rc::new(Cell::new(0));
        let count = seeds.clone();
        let mut w = Worker::new(Box::new(move || {
            count.set(count.get() + 1);
            1
        }));
        assert!(replies(
            &mut w,
            Request::NewGame {
                level: "hard".into()
            }
        )
        .is_empty());
        replies(&mut w, search(1, "ultimate-standard:", "hard"));
        assert!(replies(
            &mut w,
            Request::NewGame {
                level: "hard".into()
            }
        )
        .is_empty());
        assert_eq!(seeds.get(), 1);
        replies(&mut w, search(2, "ultimate-standard:", "easy"));
        assert_eq!(seeds.get(), 2);
        let out = replies(
            &mut w,
            Request::NewGame {
                level: "nope".into(),
            },
        );
        assert!(matches!(
            &out[..],
            [Reply::Error {
                id: None,
                code: "bad-argument",
                ..
            }]
        ));
    }
}
