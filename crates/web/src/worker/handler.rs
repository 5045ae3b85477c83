//! The [`Worker`]: takes the page's requests and runs the job under way,
//! on the engine for the AI's level or on the analyst's.

use crate::engine::WebEngine;
use crate::error::{ApiError, ErrorCode};
use crate::review::Review;
use crate::survey::WebSurvey;

use super::jobs::{Job, Think, Timing};
use super::messages::{Reply, Request};

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

    /// The level of the AI's engine, once one is made.
    #[cfg(test)]
    pub(super) fn ai_level(&self) -> Option<&str> {
        self.engine.as_ref().map(|(level, _)| level.as_str())
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
                            think: Think::new(id, None),
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
        let engine = if job.on_analyst() {
            self.analyst.as_mut()
        } else {
            self.engine.as_mut().map(|(_, e)| e)
        };
        let Some(engine) = engine else {
            return false;
        };
        self.job = job.slice(engine, self.timing, now, post);
        self.job.is_some()
    }
}
