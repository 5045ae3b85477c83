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
//! so the page never takes an old answer for a new question.
//!
//! A search runs in slices of [`Timing::slice_ms`], and the worker returns
//! to its event loop between them, so a new request (the person's move, a
//! `stop`) is seen within a slice. After a search asked to ponder, Hard and
//! Master go on searching the position the opponent's expected reply would
//! bring, slice by slice, until the next request or [`Timing::ponder_ms`]:
//! when that reply comes, the search carries on from there.
//!
//! The page's live evaluation comes from the same searches, as `analysis`
//! reports of the position a person is to move in: the pondering's, read
//! back through the expected reply, or an `analyse` request's. An analysis
//! runs on an engine of its own (the analyst, at Hard), so it never warms or
//! cools the AI's table: with pondering off, the AI gains nothing from the
//! person's time.
//!
//! A `survey` request surveys every legal move of the position a person is
//! to move in, on the analyst too, for the page's overlay of each cell's
//! worth: it stands in for an analysis (its best line feeds the bar).
//!
//! A `review` request reviews a whole game on the analyst too, one move a
//! turn of the event loop (a search of some 200,000 nodes), reporting each
//! move as it is done; then checks the puzzles the review offers, a survey
//! each in slices, reporting each check; and sends both players' summaries
//! and the puzzles at the end.

use serde::Serialize;
use std::cell::{Cell, RefCell};
use std::rc::Rc;
use tsify::Tsify;
use wasm_bindgen::prelude::*;
use wasm_bindgen::JsCast;

use crate::args;
use crate::convert::to_js;
use crate::engine::{Report, Search, SearchReply, WebEngine};
use crate::error::{ApiError, ErrorCode};
use crate::review::{FoundPuzzle, Review, ReviewSummary, ReviewedMove, Step};
use crate::survey::{SurveyReport, WebSurvey};

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
        /// A record or a position string.
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
        /// A record or a position string.
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
    fn error(id: Option<u32>, e: ApiError) -> Reply {
        Reply::Error {
            id,
            code: e.code,
            message: e.message,
        }
    }
}

/// How the worker divides its time.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Timing {
    /// How long a search or pondering runs before the worker returns to its
    /// event loop: a request waits at most about this long. Each return
    /// costs the search some repeated work (its depth under way starts again
    /// from the root, the finished parts found in the table): measured
    /// natively at 1,000 to 2,000 nodes a return, while the browser searches
    /// some 6 M nodes a second, so a slice of 10 ms (60,000 nodes) loses a
    /// few percent.
    pub slice_ms: f64,
    /// The longest pondering after an answer: past it the person has likely
    /// gone, and a phone's battery matters more than a deeper search.
    pub ponder_ms: f64,
}

impl Timing {
    /// The browser's timing.
    pub const BROWSER: Timing = Timing {
        slice_ms: 10.0,
        ponder_ms: 120_000.0,
    };
}

/// What the worker is doing between requests.
enum Job {
    /// Searching for the answer to request `id`.
    Search {
        id: u32,
        search: Search,
        ponder: bool,
    },
    /// Searching a position a person is to move in, reporting it as
    /// analysis `id`: with the expected `reply`, the pondering after search
    /// `id` (the AI's engine searches the position after that reply, see
    /// [`WebEngine::ponder`]); without, the analyst's analysis `id`.
    Think {
        id: u32,
        reply: Option<String>,
        search: Search,
    },
    /// Surveying every move of a position for survey request `id`, on the
    /// AI's engine when `on_ai`, else on the analyst.
    Survey {
        id: u32,
        survey: Box<WebSurvey>,
        on_ai: bool,
    },
    /// Reviewing a game for review request `id`, on the analyst.
    Review { id: u32, review: Review },
}

/// The level of the analyst's engine: deep enough to teach, and its table
/// (16 MiB) a quarter of Master's, beside the AI's own.
const ANALYST_LEVEL: &str = "hard";

/// The worker's state: the engine of the last level used, kept across
/// searches so its table carries over within a game; the analyst, made at
/// the first analysis; and the search, pondering or analysis under way.
pub struct Worker {
    engine: Option<(String, WebEngine)>,
    analyst: Option<WebEngine>,
    seed: Box<dyn FnMut() -> u64>,
    job: Option<Job>,
    timing: Timing,
}

impl Worker {
    /// A worker whose engines draw their seeds from `seed`.
    #[must_use]
    pub fn new(seed: Box<dyn FnMut() -> u64>, timing: Timing) -> Worker {
        Worker {
            engine: None,
            analyst: None,
            seed,
            job: None,
            timing,
        }
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
            None => Err(ApiError::new(ErrorCode::Crash, "the engine was not made")),
        }
    }

    /// True while a search, pondering or analysis waits for [`Worker::work`].
    #[must_use]
    pub fn busy(&self) -> bool {
        self.job.is_some()
    }

    /// Stops the search, pondering or analysis under way; a search says so.
    fn stop(&mut self, post: &mut dyn FnMut(Reply)) {
        if let Some(Job::Search { id, .. }) = self.job.take() {
            post(Reply::error(
                Some(id),
                ApiError::new(
                    ErrorCode::Cancelled,
                    "the search was stopped by a newer request",
                ),
            ));
        }
    }

    /// Takes `request`: answers at once what needs no search, and sets up
    /// the search that [`Worker::work`] carries out. Any search, pondering
    /// or analysis under way stops first.
    pub fn handle(&mut self, request: Request, now: &dyn Fn() -> f64, post: &mut dyn FnMut(Reply)) {
        match request {
            Request::Search {
                id,
                text,
                level,
                budget_ms,
                ponder,
            } => {
                post(Reply::Received { id });
                self.stop(post);
                let engine = match self.engine_for(&level) {
                    Ok(engine) => engine,
                    Err(e) => return post(Reply::error(Some(id), e)),
                };
                post(Reply::Started { id });
                match engine.begin(&text, Some(budget_ms), now) {
                    Ok(search) => self.job = Some(Job::Search { id, search, ponder }),
                    Err(e) => post(Reply::error(Some(id), e)),
                }
            }
            Request::NewGame { level } => {
                self.stop(post);
                let same = matches!(&self.engine, Some((l, _)) if *l == level);
                let made = self.engine_for(&level);
                match made {
                    Ok(engine) if same => engine.new_game(),
                    Ok(_) => {}
                    Err(e) => post(Reply::error(None, e)),
                }
            }
            Request::Analyse { id, text } => {
                self.stop(post);
                let ponder_ms = self.timing.ponder_ms;
                let analyst = match self.analyst() {
                    Ok(analyst) => analyst,
                    Err(e) => return post(Reply::error(Some(id), e)),
                };
                match analyst.begin(&text, Some(ponder_ms), now) {
                    Ok(search) => {
                        self.job = Some(Job::Think {
                            id,
                            reply: None,
                            search,
                        });
                    }
                    Err(e) => post(Reply::error(Some(id), e)),
                }
            }
            Request::Survey { id, text, ponder } => {
                self.stop(post);
                let deadline = now() + self.timing.ponder_ms;
                let on_ai = ponder && self.engine.as_ref().is_some_and(|(_, e)| e.ponders());
                let survey = WebSurvey::begin(&text, deadline);
                let engine = if on_ai {
                    Ok(())
                } else {
                    self.analyst().map(|_| ())
                };
                match (engine, survey) {
                    (Ok(()), Ok(survey)) => {
                        let survey = Box::new(survey);
                        self.job = Some(Job::Survey { id, survey, on_ai });
                    }
                    (Err(e), _) | (_, Err(e)) => post(Reply::error(Some(id), e)),
                }
            }
            Request::Review { id, text } => {
                self.stop(post);
                let review = Review::begin(&text);
                match (self.analyst(), review) {
                    (Ok(analyst), Ok(review)) => {
                        // A fresh table: the same record reviews the same
                        // in every tab and in the terminal.
                        analyst.new_game();
                        self.job = Some(Job::Review { id, review });
                    }
                    (Err(e), _) | (_, Err(e)) => post(Reply::error(Some(id), e)),
                }
            }
            Request::Stop => self.stop(post),
        }
    }

    /// The analyst's engine, made on first use.
    fn analyst(&mut self) -> Result<&mut WebEngine, ApiError> {
        if self.analyst.is_none() {
            self.analyst = Some(WebEngine::create(ANALYST_LEVEL, (self.seed)())?);
        }
        self.analyst
            .as_mut()
            .ok_or_else(|| ApiError::new(ErrorCode::Crash, "the analyst was not made"))
    }

    /// Runs one slice of the search, pondering or analysis under way,
    /// posting its progress and, when a search ends, its answer. True while
    /// there is more to do: the caller calls again after a turn of the event
    /// loop.
    pub fn work(&mut self, now: &dyn Fn() -> f64, post: &mut dyn FnMut(Reply)) -> bool {
        let Some(job) = self.job.take() else {
            return false;
        };
        let Timing {
            slice_ms,
            ponder_ms,
        } = self.timing;
        let engine = match &job {
            Job::Think { reply: None, .. }
            | Job::Survey { on_ai: false, .. }
            | Job::Review { .. } => self.analyst.as_mut(),
            Job::Search { .. } | Job::Think { .. } | Job::Survey { .. } => {
                self.engine.as_mut().map(|(_, e)| e)
            }
        };
        let Some(engine) = engine else {
            return false;
        };
        self.job = match job {
            Job::Search { id, search, ponder } => {
                let step = engine.step(&search, slice_ms, now, &mut |report| {
                    post(Reply::Progress { id, report });
                });
                match step {
                    Ok(None) => Some(Job::Search { id, search, ponder }),
                    Ok(Some(done)) => {
                        let next = done.expected.filter(|_| ponder && engine.ponders()).map(
                            |(reply, pos)| {
                                let start = now();
                                let search = WebEngine::ponder(pos, start, start + ponder_ms);
                                let reply = Some(reply);
                                Job::Think { id, reply, search }
                            },
                        );
                        post(Reply::Result {
                            id,
                            reply: done.reply,
                        });
                        if next.is_some() {
                            post(Reply::Pondering { id });
                        }
                        next
                    }
                    Err(e) => {
                        post(Reply::error(Some(id), e));
                        None
                    }
                }
            }
            Job::Think { id, reply, search } => {
                let step = engine.step(&search, slice_ms, now, &mut |report| {
                    let report = match &reply {
                        Some(mv) => report.after_move(mv),
                        None => report,
                    };
                    post(Reply::Analysis { id, report });
                });
                match step {
                    Ok(None) => Some(Job::Think { id, reply, search }),
                    // It ends with the time or when deeper cannot change the
                    // answer: its last report stands, and pondering leaves
                    // the AI's table warm for the reply it expected.
                    Ok(Some(_)) | Err(_) => None,
                }
            }
            Job::Survey {
                id,
                mut survey,
                on_ai,
            } => {
                if let Some(report) = survey.step(engine, now() + slice_ms, now) {
                    let report = Box::new(report);
                    post(Reply::Survey { id, report });
                }
                // Its last report stands once it is over.
                let more = !survey.is_over(now());
                more.then_some(Job::Survey { id, survey, on_ai })
            }
            Job::Review { id, mut review } => {
                let total = u32::try_from(review.total()).unwrap_or(u32::MAX);
                match review.step(engine, now() + slice_ms, now) {
                    Step::Move(reviewed) => {
                        let done = reviewed.ply;
                        post(Reply::ReviewMove {
                            id,
                            done,
                            total,
                            reviewed: Box::new(reviewed),
                        });
                        Some(Job::Review { id, review })
                    }
                    Step::Checking => Some(Job::Review { id, review }),
                    Step::Checked { done, total } => {
                        post(Reply::PuzzleChecked { id, done, total });
                        Some(Job::Review { id, review })
                    }
                    Step::Done => {
                        let [x, o] = review.summaries();
                        let puzzles = review.puzzles().to_vec();
                        post(Reply::Reviewed { id, x, o, puzzles });
                        None
                    }
                }
            }
        };
        self.job.is_some()
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
/// Between slices of a search the worker returns to its event loop by
/// posting itself a message on a `MessageChannel` (a timer would be held
/// back to 4 ms after a few in a row), so requests from the page, queued
/// meanwhile, are taken in their turn.
///
/// # Errors
/// Throws when not called inside a dedicated worker, or when the browser
/// refuses a `MessageChannel`.
#[wasm_bindgen(js_name = runWorker)]
pub fn run_worker(early: js_sys::Array) -> Result<(), JsValue> {
    let scope: web_sys::DedicatedWorkerGlobalScope = js_sys::global().dyn_into().map_err(|_| {
        ApiError::new(
            ErrorCode::BadArgument,
            "runWorker runs only in a dedicated worker",
        )
        .into_js()
    })?;
    let channel = web_sys::MessageChannel::new()?;
    let seed_scope = scope.clone();
    let worker = Rc::new(RefCell::new(Worker::new(
        Box::new(move || random_seed(&seed_scope)),
        Timing::BROWSER,
    )));
    // True while a wake-up message is on its way: one at a time.
    let waking = Rc::new(Cell::new(false));
    let wake = {
        let (port, waking) = (channel.port2(), waking.clone());
        move || {
            if !waking.replace(true) {
                // A port that cannot post leaves the search where it is: the
                // page's deadline notices and replaces the worker.
                let _ = port.post_message(&JsValue::NULL);
            }
        }
    };
    let mut post = {
        let scope = scope.clone();
        move |reply: Reply| post_to(&scope, &reply)
    };
    let mut answer = {
        let (worker, wake, mut post) = (worker.clone(), wake.clone(), post.clone());
        move |data: &JsValue| {
            match read_request(data) {
                Err(refusal) => post(refusal),
                // Each message and each slice is a task of its own, so the
                // worker is never borrowed twice; the check only keeps a
                // broken promise from panicking.
                Ok(request) => match worker.try_borrow_mut() {
                    Ok(mut w) => {
                        w.handle(request, &js_sys::Date::now, &mut post);
                        if w.busy() {
                            wake();
                        }
                    }
                    Err(_) => post(Reply::error(
                        None,
                        ApiError::new(ErrorCode::Crash, "the worker is busy"),
                    )),
                },
            }
        }
    };
    let slice =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |_: web_sys::MessageEvent| {
            waking.set(false);
            let more = worker
                .try_borrow_mut()
                .is_ok_and(|mut w| w.work(&js_sys::Date::now, &mut post));
            if more {
                wake();
            }
        });
    channel
        .port1()
        .set_onmessage(Some(slice.as_ref().unchecked_ref()));
    post_to(&scope, &Reply::Ready);
    for data in early.iter() {
        answer(&data);
    }
    let onmessage =
        Closure::<dyn FnMut(web_sys::MessageEvent)>::new(move |event: web_sys::MessageEvent| {
            answer(&event.data());
        });
    scope.set_onmessage(Some(onmessage.as_ref().unchecked_ref()));
    // The handlers live as long as the worker does.
    onmessage.forget();
    slice.forget();
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::engine::tests::ticking;
    use core::cell::Cell;

    /// Slices of 5 ms and pondering of at most 400 ms, by a clock that
    /// ticks 1 ms per reading.
    const TEST_TIMING: Timing = Timing {
        slice_ms: 5.0,
        ponder_ms: 400.0,
    };

    fn worker(seed: u64) -> Worker {
        Worker::new(Box::new(move || seed), TEST_TIMING)
    }

    /// A worker whose engines all get seed 1, and how many it has made.
    fn counting_worker() -> (Worker, Rc<Cell<u32>>) {
        let seeds = Rc::new(Cell::new(0));
        let count = seeds.clone();
        let seed = move || {
            count.set(count.get() + 1);
            1
        };
        (Worker::new(Box::new(seed), TEST_TIMING), seeds)
    }

    /// The replies to `request` and to the slices of work it sets up, up to
    /// the search's answer (pondering after it is left to go on).
    fn replies(worker: &mut Worker, request: Request) -> Vec<Reply> {
        let clock = ticking();
        let mut out = Vec::new();
        worker.handle(request, &clock, &mut |r| out.push(r));
        while !out
            .iter()
            .any(|r| matches!(r, Reply::Result { .. } | Reply::Error { .. }))
            && worker.work(&clock, &mut |r| out.push(r))
        {}
        out
    }

    fn search(id: u32, text: &str, level: &str) -> Request {
        search_for(id, text, level, 50.0, false)
    }

    fn search_for(id: u32, text: &str, level: &str, budget_ms: f64, ponder: bool) -> Request {
        Request::Search {
            id,
            text: text.into(),
            level: level.into(),
            budget_ms,
            ponder,
        }
    }

    #[test]
    fn a_search_is_received_started_reported_and_answered_under_its_id() {
        let mut w = worker(7);
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
        let mut w = worker(7);
        let out = replies(&mut w, search(1, "ultimate-standard:e5", "grandmaster"));
        assert_eq!(out[0], Reply::Received { id: 1 });
        assert!(matches!(
            &out[1],
            Reply::Error {
                id: Some(1),
                code: ErrorCode::BadArgument,
                ..
            }
        ));
        let out = replies(&mut w, search(2, "classic:zz", "easy"));
        assert!(matches!(
            out.last(),
            Some(Reply::Error {
                id: Some(2),
                code: ErrorCode::ParseError,
                ..
            })
        ));
        let out = replies(&mut w, search(4, "classic:a1b1a2b2a3", "easy"));
        assert!(matches!(
            out.last(),
            Some(Reply::Error {
                id: Some(4),
                code: ErrorCode::GameOver,
                ..
            })
        ));
    }

    #[test]
    fn the_engine_is_kept_for_its_level_and_made_anew_for_another() {
        let (mut w, seeds) = counting_worker();
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
                code: ErrorCode::BadArgument,
                ..
            }]
        ));
    }

    #[test]
    fn a_search_runs_in_slices_and_a_stop_cancels_it() {
        let mut w = worker(7);
        let clock = ticking();
        let mut out = Vec::new();
        let request = search_for(5, "ultimate-standard:e5", "hard", 100_000.0, false);
        w.handle(request, &clock, &mut |r| out.push(r));
        assert_eq!(out, [Reply::Received { id: 5 }, Reply::Started { id: 5 }]);
        assert!(w.busy());
        for _ in 0..20 {
            assert!(
                w.work(&clock, &mut |r| out.push(r)),
                "a slice ended the search"
            );
        }
        assert!(out
            .iter()
            .any(|r| matches!(r, Reply::Progress { id: 5, .. })));
        w.handle(Request::Stop, &clock, &mut |r| out.push(r));
        assert!(matches!(
            out.last(),
            Some(Reply::Error {
                id: Some(5),
                code: ErrorCode::Cancelled,
                ..
            })
        ));
        assert!(!w.busy());
        assert!(!w.work(&clock, &mut |r| out.push(r)));
        // The engine stays: the next search answers as usual.
        let out = replies(&mut w, search(6, "ultimate-standard:e5", "hard"));
        assert!(matches!(out.last(), Some(Reply::Result { id: 6, .. })));
    }

    /// The depth of the first progress report of each search in `out`.
    fn first_depth(out: &[Reply], id: u32) -> Option<u32> {
        out.iter().find_map(|r| match r {
            Reply::Progress { id: i, report } if *i == id => Some(report.depth),
            _ => None,
        })
    }

    #[test]
    fn after_a_pondering_search_the_expected_reply_is_carried_on() {
        let mut w = worker(3);
        let first = search_for(1, "ultimate-standard:e5", "hard", 50.0, true);
        let out = replies(&mut w, first);
        let [.., Reply::Result { reply, .. }, Reply::Pondering { id: 1 }] = &out[..] else {
            panic!("{out:?}");
        };
        assert!(w.busy(), "the worker does not ponder");
        let clock = ticking();
        let expected = format!("ultimate-standard:e5{}{}", reply.pv[0], reply.pv[1]);
        // The person thinks: the worker ponders until its time is up,
        // reporting the person's position through the expected reply.
        let mut slices = 0;
        let mut reports = Vec::new();
        while w.work(&clock, &mut |r| match r {
            Reply::Analysis { id: 1, report } => reports.push(report),
            other => panic!("pondering replied {other:?}"),
        }) {
            slices += 1;
            assert!(slices < 10_000, "pondering never stopped");
        }
        assert!(slices > 10, "{slices} slices of pondering");
        assert!(reports.len() > 3, "{} reports of pondering", reports.len());
        assert!(
            reports.iter().all(|r| r.pv[0] == reply.pv[1]),
            "{reports:?}"
        );
        assert!(reports.windows(2).all(|w| w[0].depth < w[1].depth));
        // The reply comes as expected: the search carries on from the
        // pondered depth, deeper than a fresh engine gets in the same time.
        let out = replies(&mut w, search_for(2, &expected, "hard", 10.0, false));
        let fresh = replies(
            &mut worker(3),
            search_for(2, &expected, "hard", 10.0, false),
        );
        let depth = |out: &[Reply]| match out.last() {
            Some(Reply::Result { reply, .. }) => reply.depth,
            other => panic!("{other:?}"),
        };
        assert!(depth(&out) >= depth(&fresh) + 2, "{out:?} {fresh:?}");
        assert!(first_depth(&out, 2).is_none_or(|d| d > depth(&fresh)));
        // Another reply is searched from depth 1.
        let out = replies(&mut w, search(3, "ultimate-standard:e5e4", "hard"));
        assert_eq!(first_depth(&out, 3), Some(1));
    }

    #[test]
    fn without_ponder_or_below_hard_the_worker_rests_after_answering() {
        let mut w = worker(3);
        replies(&mut w, search(1, "ultimate-standard:e5", "hard"));
        assert!(!w.busy());
        replies(
            &mut w,
            search_for(2, "ultimate-standard:e5", "medium", 50.0, true),
        );
        assert!(!w.busy());
    }

    /// The analysis replies of `out` under `id`, in order.
    fn analysis(out: &[Reply], id: u32) -> Vec<&Report> {
        out.iter()
            .filter_map(|r| match r {
                Reply::Analysis { id: i, report } if *i == id => Some(report),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn an_analysis_reports_each_depth_until_the_next_request_takes_over() {
        let mut w = worker(5);
        let clock = ticking();
        let mut out = Vec::new();
        let request = Request::Analyse {
            id: 9,
            text: "ultimate-standard:e5".into(),
        };
        w.handle(request, &clock, &mut |r| out.push(r));
        assert!(out.is_empty(), "{out:?}");
        for _ in 0..40 {
            assert!(w.work(&clock, &mut |r| out.push(r)), "the analysis ended");
        }
        let reports = analysis(&out, 9);
        assert_eq!(reports.len(), out.len(), "{out:?}");
        assert_eq!(reports[0].depth, 1);
        assert!(reports.windows(2).all(|w| w[0].depth < w[1].depth));
        // O is to move after e5: the line starts in board 4, where X sent O.
        assert!(reports.iter().all(|r| r.pv[0].starts_with(['d', 'e', 'f'])));
        // A search stops it without a word, and is answered as usual.
        let out = replies(&mut w, search(10, "ultimate-standard:e5", "easy"));
        assert!(analysis(&out, 9).is_empty());
        assert!(matches!(out.last(), Some(Reply::Result { id: 10, .. })));
        assert!(!w.busy());
    }

    #[test]
    fn the_analyst_is_an_engine_of_its_own_and_leaves_the_ais_alone() {
        let (mut w, seeds) = counting_worker();
        replies(&mut w, search(1, "ultimate-standard:", "easy"));
        let clock = ticking();
        for id in [2, 3] {
            let request = Request::Analyse {
                id,
                text: "ultimate-standard:e5".into(),
            };
            w.handle(request, &clock, &mut |r| panic!("{r:?}"));
            w.work(&clock, &mut |_| {});
        }
        // One analyst for both analyses; the AI's Easy engine is still there.
        assert_eq!(seeds.get(), 2);
        assert!(matches!(&w.engine, Some((level, _)) if level == "easy"));
        replies(&mut w, search(4, "ultimate-standard:e5", "easy"));
        assert_eq!(seeds.get(), 2);
    }

    #[test]
    fn a_bad_analysis_is_refused_under_its_id() {
        let mut w = worker(5);
        for (text, code) in [
            ("ultimate-standard:zz", ErrorCode::ParseError),
            ("classic:a1b1a2b2a3", ErrorCode::GameOver),
        ] {
            let mut out = Vec::new();
            let request = Request::Analyse {
                id: 4,
                text: text.into(),
            };
            w.handle(request, &ticking(), &mut |r| out.push(r));
            assert!(
                matches!(&out[..], [Reply::Error { id: Some(4), code: c, .. }] if *c == code),
                "{out:?}"
            );
            assert!(!w.busy());
        }
    }

    #[test]
    fn a_new_request_stops_pondering_at_once() {
        let mut w = worker(3);
        let first = search_for(1, "ultimate-standard:e5", "master", 50.0, true);
        replies(&mut w, first);
        assert!(w.busy());
        let clock = ticking();
        w.work(&clock, &mut |_| {});
        let mut out = Vec::new();
        w.handle(Request::Stop, &clock, &mut |r| out.push(r));
        assert!(out.is_empty(), "stopping pondering replied {out:?}");
        assert!(!w.busy());
        replies(&mut w, search(2, "ultimate-standard:e5", "master"));
        w.handle(
            Request::NewGame {
                level: "master".into(),
            },
            &clock,
            &mut |r| out.push(r),
        );
        assert!(out.is_empty() && !w.busy());
    }

    /// The survey reports of `out` under `id`, in order.
    fn surveys(out: &[Reply], id: u32) -> Vec<&SurveyReport> {
        out.iter()
            .filter_map(|r| match r {
                Reply::Survey { id: i, report } if *i == id => Some(&**report),
                _ => None,
            })
            .collect()
    }

    #[test]
    fn a_survey_reports_every_cell_at_each_depth_until_a_search_takes_over() {
        let (mut w, seeds) = counting_worker();
        replies(&mut w, search(1, "ultimate-standard:", "easy"));
        let clock = ticking();
        let mut out = Vec::new();
        let request = Request::Survey {
            id: 8,
            text: "ultimate-standard:e5".into(),
            ponder: true,
        };
        w.handle(request, &clock, &mut |r| out.push(r));
        assert!(out.is_empty(), "{out:?}");
        for _ in 0..40 {
            assert!(w.work(&clock, &mut |r| out.push(r)), "the survey ended");
        }
        let reports = surveys(&out, 8);
        assert_eq!(reports.len(), out.len(), "{out:?}");
        assert!(reports.len() > 2, "{} depths", reports.len());
        assert!(reports
            .windows(2)
            .all(|w| w[0].report.depth < w[1].report.depth));
        for r in &reports {
            // O, sent to board 4, has its eight empty cells.
            assert_eq!(r.cells.len(), 8);
            assert!(r.cells.iter().all(|c| c.board == 4 && c.cell != 4));
            assert!(r.cells[0].exact);
            let best = format!("{}", uttt_core::Move::new(4, r.cells[0].cell));
            assert_eq!(r.report.pv[0], best);
        }
        // On the analyst (Easy does not ponder): the AI's Easy engine is
        // still there, and a search stops the survey without a word.
        assert_eq!(seeds.get(), 2);
        let out = replies(&mut w, search(9, "ultimate-standard:e5", "easy"));
        assert!(surveys(&out, 8).is_empty());
        assert!(matches!(out.last(), Some(Reply::Result { id: 9, .. })));
        assert!(!w.busy());
    }

    #[test]
    fn a_pondering_survey_runs_on_the_ais_engine_and_warms_its_table() {
        let (mut w, seeds) = counting_worker();
        replies(&mut w, search(1, "ultimate-standard:", "hard"));
        let clock = ticking();
        let request = Request::Survey {
            id: 2,
            text: "ultimate-standard:e5".into(),
            ponder: true,
        };
        w.handle(request, &clock, &mut |r| panic!("{r:?}"));
        let mut depths = Vec::new();
        for _ in 0..150 {
            w.work(&clock, &mut |r| match r {
                Reply::Survey { report, .. } => depths.push(report.report.depth),
                other => panic!("{other:?}"),
            });
        }
        // No analyst was made: the survey ran on the AI's Hard engine.
        assert_eq!(seeds.get(), 1);
        let deepest = *depths.last().expect("a depth completed");
        // The person plays one of the surveyed moves: the AI's search of the
        // position after it starts from a warm table, and completes each
        // depth in fewer nodes than a fresh engine.
        let text = "ultimate-standard:e5e4";
        let warm = replies(&mut w, search_for(3, text, "hard", 10.0, false));
        let fresh = replies(&mut worker(1), search_for(3, text, "hard", 10.0, false));
        // The nodes each search took to complete `depth`.
        let nodes = |out: &[Reply], depth: u32| {
            out.iter().find_map(|r| match r {
                Reply::Progress { report, .. } if report.depth == depth => Some(report.nodes),
                _ => None,
            })
        };
        let last = |out: &[Reply]| match out.last() {
            Some(Reply::Result { reply, .. }) => reply.depth,
            other => panic!("{other:?}"),
        };
        let depth = last(&warm).min(last(&fresh));
        assert!(deepest > depth, "{depths:?}");
        assert!(
            nodes(&warm, depth) < nodes(&fresh, depth),
            "{warm:?} {fresh:?}"
        );
    }

    #[test]
    fn a_survey_ends_when_solved_and_a_bad_one_is_refused() {
        let mut w = worker(5);
        let clock = ticking();
        let mut out = Vec::new();
        let request = Request::Survey {
            id: 3,
            text: "classic:a1a2b2".into(),
            ponder: false,
        };
        w.handle(request, &clock, &mut |r| out.push(r));
        let mut slices = 0;
        while w.work(&clock, &mut |r| out.push(r)) {
            slices += 1;
            assert!(slices < 1_000, "a solved survey went on");
        }
        let last = surveys(&out, 3).pop().expect("a report");
        // O must block at c3, or X wins there.
        assert_eq!((last.cells[0].board, last.cells[0].cell), (0, 8));
        assert!(
            last.cells[1..].iter().all(|c| c.mate == Some(-2)),
            "{last:?}"
        );
        for (text, code) in [
            ("ultimate-standard:zz", ErrorCode::ParseError),
            ("classic:a1b1a2b2a3", ErrorCode::GameOver),
        ] {
            let mut out = Vec::new();
            let request = Request::Survey {
                id: 4,
                text: text.into(),
                ponder: false,
            };
            w.handle(request, &clock, &mut |r| out.push(r));
            assert!(
                matches!(&out[..], [Reply::Error { id: Some(4), code: c, .. }] if *c == code),
                "{out:?}"
            );
            assert!(!w.busy());
        }
    }

    /// Every reply to the review `id` of `text`, to its end.
    fn review_replies(worker: &mut Worker, id: u32, text: &str) -> Vec<Reply> {
        let clock = ticking();
        let mut out = Vec::new();
        let request = Request::Review {
            id,
            text: text.into(),
        };
        worker.handle(request, &clock, &mut |r| out.push(r));
        while worker.work(&clock, &mut |r| out.push(r)) {}
        out
    }

    #[test]
    fn a_review_reports_every_move_then_both_summaries() {
        let (mut w, seeds) = counting_worker();
        let out = review_replies(&mut w, 6, "classic:a1b2c3c1a3");
        assert_eq!(out.len(), 7, "{out:?}");
        for (i, r) in out[..5].iter().enumerate() {
            match r {
                Reply::ReviewMove {
                    id: 6,
                    done,
                    total: 5,
                    reviewed,
                } => assert_eq!((*done as usize, reviewed.ply as usize), (i + 1, i + 1)),
                other => panic!("{other:?}"),
            }
        }
        assert!(
            matches!(&out[3], Reply::ReviewMove { reviewed, .. } if reviewed.mark == "blunder")
        );
        // O's blunder is a candidate puzzle, but four moves save the game
        // there: the check finds no one answer.
        assert!(matches!(
            &out[5],
            Reply::PuzzleChecked {
                id: 6,
                done: 1,
                total: 1
            }
        ));
        match &out[6] {
            Reply::Reviewed {
                id: 6,
                x,
                o,
                puzzles,
            } => {
                assert!(x.accuracy > o.accuracy);
                assert!(puzzles.is_empty(), "{puzzles:?}");
            }
            other => panic!("{other:?}"),
        }
        // It ran on the analyst, made once; the same record reviews the same.
        assert_eq!(seeds.get(), 1);
        assert_eq!(review_replies(&mut w, 7, "classic:a1b2c3c1a3")[3..], {
            let mut again = out[3..].to_vec();
            for r in &mut again {
                match r {
                    Reply::ReviewMove { id, .. }
                    | Reply::PuzzleChecked { id, .. }
                    | Reply::Reviewed { id, .. } => *id = 7,
                    _ => {}
                }
            }
            again
        });
        assert!(!w.busy());
    }

    #[test]
    fn a_review_ends_with_the_puzzles_whose_answer_is_alone() {
        let mut w = worker(5);
        // O's a2 loses to X's corner; only the centre, b2, would have held.
        let out = review_replies(&mut w, 8, "classic:a1a2b2b3c3");
        let checked = out
            .iter()
            .filter(|r| matches!(r, Reply::PuzzleChecked { id: 8, .. }));
        assert_eq!(checked.count(), 1, "{out:?}");
        match out.last() {
            Some(Reply::Reviewed { id: 8, puzzles, .. }) => {
                let [p] = &puzzles[..] else {
                    panic!("{puzzles:?}")
                };
                assert_eq!((p.ply, p.mover, p.goal), (1, "o", "save"));
                assert_eq!(p.played, "a2");
                assert_eq!(p.solution.first().map(String::as_str), Some("b2"));
                assert!((p.expected - 0.5).abs() < 0.05, "{p:?}");
            }
            other => panic!("{other:?}"),
        }
        assert!(!w.busy());
    }

    #[test]
    fn a_new_request_stops_a_review_and_a_bad_one_is_refused() {
        let mut w = worker(5);
        let clock = ticking();
        let mut out = Vec::new();
        let request = Request::Review {
            id: 2,
            text: "ultimate-standard:e5e4d2".into(),
        };
        w.handle(request, &clock, &mut |r| out.push(r));
        assert!(w.work(&clock, &mut |r| out.push(r)));
        assert!(matches!(
            &out[..],
            [Reply::ReviewMove {
                id: 2,
                done: 1,
                total: 3,
                ..
            }]
        ));
        let later = replies(&mut w, search(3, "ultimate-standard:e5", "easy"));
        assert!(matches!(later.last(), Some(Reply::Result { id: 3, .. })));
        assert!(later.iter().all(|r| !matches!(r, Reply::ReviewMove { .. })));
        assert!(!w.busy());

        let refused = review_replies(&mut w, 4, "ultimate-standard:zz");
        assert!(
            matches!(
                &refused[..],
                [Reply::Error {
                    id: Some(4),
                    code: ErrorCode::ParseError,
                    ..
                }]
            ),
            "{refused:?}"
        );
        let nothing = review_replies(&mut w, 5, "classic:");
        assert!(
            matches!(&nothing[..], [Reply::Reviewed { id: 5, .. }]),
            "{nothing:?}"
        );
    }
}
