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
//!
//! The parts: [`messages`] (the requests and replies, and the reading of a
//! message into a request), `jobs` (what the worker is doing between
//! requests, one slice at a time: a search, a pondering or analysis, a
//! survey, a review), `handler` (the [`Worker`] that takes requests and
//! runs the job under way) and `event_loop` (the loop in the browser's
//! worker, [`run_worker`]).

mod event_loop;
mod handler;
mod jobs;
pub mod messages;
#[cfg(test)]
mod tests;

pub use event_loop::run_worker;
pub use handler::Worker;
pub use jobs::Timing;
pub use messages::{read_request, Reply, Request};
