//! The worker's tests, by job: a clock that ticks 1 ms a reading stands in
//! for the browser's, and replies are collected instead of posted.

mod analysis;
mod review;
mod search;
mod survey;

pub(super) use super::{Reply, Request, Timing, Worker};
pub(super) use crate::engine::tests::ticking;
pub(super) use crate::engine::Report;
pub(super) use crate::error::ErrorCode;
pub(super) use crate::survey::SurveyReport;
pub(super) use core::cell::Cell;
pub(super) use std::rc::Rc;

/// Slices of 5 ms and pondering of at most 400 ms, by a clock that
/// ticks 1 ms per reading.
pub(super) const TEST_TIMING: Timing = Timing {
    slice_ms: 5.0,
    ponder_ms: 400.0,
};

pub(super) fn worker(seed: u64) -> Worker {
    Worker::new(Box::new(move || seed), TEST_TIMING)
}

/// A worker whose engines all get seed 1, and how many it has made.
pub(super) fn counting_worker() -> (Worker, Rc<Cell<u32>>) {
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
pub(super) fn replies(worker: &mut Worker, request: Request) -> Vec<Reply> {
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

/// Every reply to `request` and to the work it sets up, until the worker
/// rests (an analysis or a review to its end).
pub(super) fn replies_to_the_end(worker: &mut Worker, request: Request) -> Vec<Reply> {
    let clock = ticking();
    let mut out = Vec::new();
    worker.handle(request, &clock, &mut |r| out.push(r));
    for _ in 0..100_000 {
        if !worker.work(&clock, &mut |r| out.push(r)) {
            return out;
        }
    }
    panic!("the worker never came to rest: {out:?}");
}

pub(super) fn search(id: u32, text: &str, level: &str) -> Request {
    search_for(id, text, level, 50.0, false)
}

pub(super) fn search_for(
    id: u32,
    text: &str,
    level: &str,
    budget_ms: f64,
    ponder: bool,
) -> Request {
    Request::Search {
        id,
        text: text.into(),
        level: level.into(),
        budget_ms,
        ponder,
    }
}
