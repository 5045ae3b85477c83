//! What the worker is doing between requests, one slice at a time: a
//! search, a pondering or an analysis, a survey, a review. Each slice posts
//! what it found and hands the job back while there is more to do.

use crate::engine::{Report, Search, WebEngine};
use crate::review::{Review, Step};
use crate::survey::WebSurvey;

use super::messages::Reply;

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
pub(super) enum Job {
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
    Think { think: Think, search: Search },
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

impl Job {
    /// Whether the job runs on the analyst's engine; else on the AI's.
    pub(super) fn on_analyst(&self) -> bool {
        matches!(
            self,
            Job::Think {
                think: Think { reply: None, .. },
                ..
            } | Job::Survey { on_ai: false, .. }
                | Job::Review { .. }
        )
    }

    /// Runs one slice of the job with `engine`, posting its progress and,
    /// when a search ends, its answer; the job as it goes on, or `None`
    /// once it is over.
    pub(super) fn slice(
        self,
        engine: &mut WebEngine,
        timing: Timing,
        now: &dyn Fn() -> f64,
        post: &mut dyn FnMut(Reply),
    ) -> Option<Job> {
        match self {
            Job::Search { id, search, ponder } => {
                search_slice(engine, id, search, ponder, timing, now, post)
            }
            Job::Think { think, search } => think_slice(engine, think, search, timing, now, post),
            Job::Survey { id, survey, on_ai } => {
                survey_slice(engine, id, survey, on_ai, timing, now, post)
            }
            Job::Review { id, review } => review_slice(engine, id, review, timing, now, post),
        }
    }
}

/// A slice of the search for request `id`; at its end, the answer, then
/// the pondering on the expected reply when it was asked for.
fn search_slice(
    engine: &mut WebEngine,
    id: u32,
    search: Search,
    ponder: bool,
    timing: Timing,
    now: &dyn Fn() -> f64,
    post: &mut dyn FnMut(Reply),
) -> Option<Job> {
    let Timing {
        slice_ms,
        ponder_ms,
    } = timing;
    let step = engine.step(&search, slice_ms, now, &mut |report| {
        post(Reply::Progress { id, report });
    });
    match step {
        Ok(None) => Some(Job::Search { id, search, ponder }),
        Ok(Some(done)) => {
            let next = done
                .expected
                .filter(|_| ponder && engine.ponders())
                .map(|(reply, pos)| {
                    let start = now();
                    let search = WebEngine::ponder(pos, start, start + ponder_ms);
                    Job::Think {
                        think: Think::new(id, Some(reply)),
                        search,
                    }
                });
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

/// What a pondering or an analysis reports as: its request `id`, the
/// expected `reply` a pondering searches after, and whether it reported yet.
pub(super) struct Think {
    id: u32,
    reply: Option<String>,
    reported: bool,
}

impl Think {
    /// A pondering (after `reply`) or an analysis (no reply) for request `id`, yet to report.
    pub(super) fn new(id: u32, reply: Option<String>) -> Think {
        Think {
            id,
            reply,
            reported: false,
        }
    }
}

/// A slice of a pondering or of the analyst's analysis, each depth
/// reported as analysis `id`. A search that ends without having reported
/// (the engine had already settled this position, so nothing was searched)
/// reports its answer once: every request hears where its position stands.
fn think_slice(
    engine: &mut WebEngine,
    think: Think,
    search: Search,
    timing: Timing,
    now: &dyn Fn() -> f64,
    post: &mut dyn FnMut(Reply),
) -> Option<Job> {
    let Think {
        id,
        reply,
        mut reported,
    } = think;
    let as_asked = |report: Report| match &reply {
        Some(mv) => report.after_move(mv),
        None => report,
    };
    let step = engine.step(&search, timing.slice_ms, now, &mut |report| {
        reported = true;
        post(Reply::Analysis {
            id,
            report: as_asked(report),
        });
    });
    match step {
        Ok(None) => Some(Job::Think {
            think: Think {
                id,
                reply,
                reported,
            },
            search,
        }),
        // It ends with the time or when deeper cannot change the
        // answer: its last report stands, and pondering leaves
        // the AI's table warm for the reply it expected.
        Ok(Some(done)) => {
            if !reported {
                post(Reply::Analysis {
                    id,
                    report: as_asked(done.reply.report()),
                });
            }
            None
        }
        Err(_) => None,
    }
}

/// A slice of the survey for request `id`.
fn survey_slice(
    engine: &mut WebEngine,
    id: u32,
    mut survey: Box<WebSurvey>,
    on_ai: bool,
    timing: Timing,
    now: &dyn Fn() -> f64,
    post: &mut dyn FnMut(Reply),
) -> Option<Job> {
    let slice_ms = timing.slice_ms;
    if let Some(report) = survey.step(engine, now() + slice_ms, now) {
        let report = Box::new(report);
        post(Reply::Survey { id, report });
    }
    // Its last report stands once it is over.
    let more = !survey.is_over(now());
    more.then_some(Job::Survey { id, survey, on_ai })
}

/// A slice of the review for request `id`: a move, or a puzzle's check.
fn review_slice(
    engine: &mut WebEngine,
    id: u32,
    mut review: Review,
    timing: Timing,
    now: &dyn Fn() -> f64,
    post: &mut dyn FnMut(Reply),
) -> Option<Job> {
    let slice_ms = timing.slice_ms;
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
