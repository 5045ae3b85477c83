//! A game review in the worker (see [`crate::worker`]): core's
//! [`Reviewer`] over either game, one move a step, each reviewed move in
//! the shape the page reads; then the puzzles the review offers
//! ([`uttt_core::search::puzzle`]), each checked for its one answer by a
//! survey in slices; and both players' summaries and the puzzles at the end.

use serde::Serialize;
use tsify::Tsify;
use uttt_core::search::puzzle::{candidates, Goal, Puzzle};
use uttt_core::search::review::{review_limits, MoveReview, Reviewer, Summary, REVIEW_NODES};
use uttt_core::search::{Limits, Searchable};
use uttt_core::AnyGame;
use uttt_core::{AnyKind, History, Player, Visit};

use crate::engine::WebEngine;
use crate::error::ApiError;
use crate::survey::WebSurvey;

/// One reviewed move, as the page reads it.
#[derive(Clone, Debug, PartialEq, Serialize, Tsify)]
#[tsify(missing_as_null)]
#[serde(rename_all = "camelCase")]
pub struct ReviewedMove {
    /// The move's number in the game, from 1.
    pub ply: u32,
    /// The move played, in notation.
    pub played: String,
    /// The engine's move in the position before it.
    pub best: String,
    /// The engine's line from the position before it, `best` first.
    pub line: Vec<String>,
    /// `best`, `good`, `inaccuracy`, `mistake` or `blunder` (see
    /// [`uttt_core::search::review::Mark`] for the thresholds).
    pub mark: &'static str,
    /// The mover's expected score (0-1) the move gave away.
    pub loss: f64,
    /// X's expected score (0-1: a loss, a draw is 0.5, a win) before it.
    pub x_before: f64,
    /// X's expected score after it.
    pub x_after: f64,
}

/// A player's summary, as the page reads it.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Tsify)]
#[tsify(missing_as_null)]
pub struct ReviewSummary {
    /// 0-100: 100 times one minus the mean loss.
    pub accuracy: f64,
    /// Moves marked best, good, inaccuracy, mistake and blunder.
    pub counts: [u32; 5],
}

impl From<Summary> for ReviewSummary {
    fn from(s: Summary) -> ReviewSummary {
        ReviewSummary {
            accuracy: s.accuracy,
            counts: s.counts,
        }
    }
}

/// A puzzle from the reviewed game, as the page reads it: the position
/// after `ply` moves, where `mover` had one move that wins or saves the
/// game and played another.
#[derive(Clone, Debug, PartialEq, Serialize, Tsify)]
#[tsify(missing_as_null)]
pub struct FoundPuzzle {
    /// Moves of the game before the puzzle's position.
    pub ply: u32,
    /// The side to find the move: `x` or `o`.
    pub mover: &'static str,
    /// `win` or `save`: what the answer achieves.
    pub goal: &'static str,
    /// The move played in the game, in notation.
    pub played: String,
    /// The engine's line, the answer first, in notation.
    pub solution: Vec<String>,
    /// The mover's expected score (0-1) with the answer.
    pub expected: f64,
}

/// A candidate puzzle and the survey that checks it has one answer.
#[derive(Debug)]
struct Check {
    puzzle: FoundPuzzle,
    /// The answer, as (board, cell).
    answer: (u8, u8),
    survey: WebSurvey,
}

/// What one step of a [`Review`] did.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// It reviewed a move.
    Move(ReviewedMove),
    /// It searched on in a puzzle's check.
    Checking,
    /// It finished checking a puzzle: `done` of `total`.
    Checked {
        /// Checks finished, this one included.
        done: u32,
        /// Candidate puzzles in the game.
        total: u32,
    },
    /// The review is over: see [`Review::summaries`] and [`Review::puzzles`].
    Done,
}

/// A review under way, of either game.
#[derive(Debug)]
pub struct Review {
    /// The game reviewed, for the puzzles' positions.
    record: AnyGame,
    reviewer: Box<dyn Reviewing>,
    /// Each move reviewed so far, its moves as (board, cell).
    reviews: Vec<MoveReview<(u8, u8)>>,
    /// Each move reviewed so far, as the page read it.
    reviewed: Vec<ReviewedMove>,
    /// The puzzle checks still to do, the last first; `None` until every
    /// move is reviewed.
    checks: Option<Vec<Check>>,
    /// How many checks there were.
    check_total: u32,
    /// The puzzles whose check found one answer, in game order.
    puzzles: Vec<FoundPuzzle>,
}

/// A reviewer of either game, behind the calls a review makes: the game's
/// type is gone once it is made.
trait Reviewing: core::fmt::Debug {
    /// Reviews the next move with `engine`; `None` once every move is.
    fn next(&mut self, engine: &mut WebEngine) -> Option<Reviewed>;
    /// How many moves the game has.
    fn total(&self) -> usize;
}

impl<G: Searchable> Reviewing for Reviewer<G> {
    fn next(&mut self, engine: &mut WebEngine) -> Option<Reviewed> {
        review_next(self, engine)
    }

    fn total(&self) -> usize {
        Reviewer::total(self)
    }
}

/// Makes the reviewer of every move of a game.
struct NewReviewer;

impl Visit for NewReviewer {
    type Output = Box<dyn Reviewing>;
    fn visit<G: AnyKind>(self, history: &History<G>) -> Self::Output {
        Box::new(Reviewer::new(history.start(), history.moves()))
    }
}

/// A reviewed move with the game's type gone: moves as (board, cell), and
/// the notation of the move played, the engine's move and its line.
struct Reviewed {
    review: MoveReview<(u8, u8)>,
    played: String,
    best: String,
    line: Vec<String>,
}

/// Reviews the next move with `reviewer`, at [`REVIEW_NODES`]: the one
/// generic step, so the rest of the review is made once in the wasm.
fn review_next<G: Searchable>(
    reviewer: &mut Reviewer<G>,
    engine: &mut WebEngine,
) -> Option<Reviewed> {
    let r = engine.with_limits(review_limits(REVIEW_NODES), |e| reviewer.step(e))?;
    Some(Reviewed {
        played: r.played.to_string(),
        best: r.best.to_string(),
        line: r.best_line.iter().map(ToString::to_string).collect(),
        review: MoveReview {
            mover: r.mover,
            played: G::board_and_cell(r.played),
            best: G::board_and_cell(r.best),
            best_line: r.best_line.iter().map(|&m| G::board_and_cell(m)).collect(),
            expected_best: r.expected_best,
            expected_played: r.expected_played,
            loss: r.loss,
            mark: r.mark,
        },
    })
}

impl Review {
    /// A review of every move of the game `text` (a record without
    /// variations; a position string has no moves to review).
    ///
    /// # Errors
    /// `parse-error` for text that is neither.
    pub fn begin(text: &str) -> Result<Review, ApiError> {
        let record = AnyGame::parse(text)?;
        let reviewer = record.visit(NewReviewer);
        Ok(Review {
            record,
            reviewer,
            reviews: Vec::new(),
            reviewed: Vec::new(),
            checks: None,
            check_total: 0,
            puzzles: Vec::new(),
        })
    }

    /// One step with `engine`: the next move reviewed, at [`REVIEW_NODES`]
    /// a position; once every move is, a slice until `slice_end` of the
    /// next puzzle's check (a survey to
    /// [`check_depth`](uttt_core::search::puzzle::check_depth), without a
    /// node limit).
    pub fn step(&mut self, engine: &mut WebEngine, slice_end: f64, now: &dyn Fn() -> f64) -> Step {
        if let Some(next) = self.reviewer.next(engine) {
            return Step::Move(self.keep(next));
        }
        if self.checks.is_none() {
            let checks = self.checks();
            self.check_total = u32::try_from(checks.len()).unwrap_or(u32::MAX);
            self.checks = Some(checks);
        }
        let Some(checks) = &mut self.checks else {
            return Step::Done;
        };
        let Some(check) = checks.last_mut() else {
            return Step::Done;
        };
        engine.with_limits(Limits::NONE, |e| check.survey.step_on(e, slice_end, now));
        if !check.survey.is_over(now()) {
            return Step::Checking;
        }
        if let Some(check) = checks.pop() {
            if check.survey.has_one_answer(check.answer) {
                self.puzzles.push(check.puzzle);
            }
        }
        let left = u32::try_from(checks.len()).unwrap_or(u32::MAX);
        Step::Checked {
            done: self.check_total - left,
            total: self.check_total,
        }
    }

    /// Keeps the move just reviewed; it as the page reads it.
    fn keep(&mut self, next: Reviewed) -> ReviewedMove {
        let r = &next.review;
        let x_share = |mover_expected: f64| {
            if r.mover == Player::X {
                mover_expected
            } else {
                1.0 - mover_expected
            }
        };
        let reviewed = ReviewedMove {
            ply: u32::try_from(self.reviews.len() + 1).unwrap_or(u32::MAX),
            played: next.played,
            best: next.best,
            line: next.line,
            mark: r.mark.name(),
            loss: r.loss,
            x_before: x_share(r.expected_best),
            x_after: x_share(r.expected_played),
        };
        self.reviews.push(next.review);
        self.reviewed.push(reviewed.clone());
        reviewed
    }

    /// The check of every puzzle the reviewed moves offer, the last first
    /// (each is popped when done).
    fn checks(&self) -> Vec<Check> {
        let check = |p: Puzzle<(u8, u8)>| {
            let answer = *p.solution.first()?;
            let survey = WebSurvey::puzzle_check(&self.record, p.ply)?;
            let notation = self.reviewed.get(p.ply)?;
            let puzzle = FoundPuzzle {
                ply: u32::try_from(p.ply).unwrap_or(u32::MAX),
                mover: if p.mover == Player::X { "x" } else { "o" },
                goal: if p.goal == Goal::Win { "win" } else { "save" },
                played: notation.played.clone(),
                solution: notation.line.clone(),
                expected: p.expected,
            };
            Some(Check {
                puzzle,
                answer,
                survey,
            })
        };
        let found = candidates(&self.reviews).into_iter().rev();
        found.filter_map(check).collect()
    }

    /// The puzzles found so far, in game order.
    #[must_use]
    pub fn puzzles(&self) -> &[FoundPuzzle] {
        &self.puzzles
    }

    /// How many moves the game has.
    #[must_use]
    pub fn total(&self) -> usize {
        self.reviewer.total()
    }

    /// X's and O's summaries of the moves reviewed.
    #[must_use]
    pub fn summaries(&self) -> [ReviewSummary; 2] {
        [Player::X, Player::O].map(|p| Summary::of(&self.reviews, p).into())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::error::ErrorCode;
    use uttt_core::search::review::{review, review_engine};
    use uttt_core::{Classic, ClassicMove};

    #[test]
    fn the_worker_review_is_core_review_seen_from_x() {
        let mut engine = WebEngine::create("hard", 9).unwrap();
        let mut web = Review::begin("classic:a1b2c3c1a3").unwrap();
        assert_eq!(web.total(), 5);
        let steps: Vec<ReviewedMove> =
            core::iter::from_fn(|| match web.step(&mut engine, 1e9, &|| 0.0) {
                Step::Move(m) => Some(m),
                _ => None,
            })
            .collect();
        let moves = [0, 4, 8, 2, 6].map(ClassicMove);
        let core = review(&mut review_engine(REVIEW_NODES), &Classic::new(), &moves);
        assert_eq!(steps.len(), 5);
        for (i, (web, core)) in steps.iter().zip(&core).enumerate() {
            assert_eq!(web.ply as usize, i + 1);
            assert_eq!((web.mark, web.loss), (core.mark.name(), core.loss));
            assert_eq!(web.best, core.best.to_string());
        }
        assert_eq!(steps[3].mark, "blunder");
        // O's blunder moves X's expected score from a draw to a win.
        assert!((steps[3].x_before - 0.5).abs() < 0.05, "{:?}", steps[3]);
        assert!(steps[3].x_after > 0.9, "{:?}", steps[3]);
        assert_eq!(steps[4].x_before, steps[3].x_after);
        let [x, o] = web.summaries();
        assert_eq!(o.counts[4], 1);
        assert_eq!(x.counts.iter().sum::<u32>(), 3);
        assert!(x.accuracy > o.accuracy);
        // The engine's own limits come back: a search afterwards is Hard's.
        assert_eq!(
            engine.limits(),
            uttt_core::search::Limits::for_level(uttt_core::search::Level::Hard)
        );
    }

    #[test]
    fn a_review_needs_a_game() {
        assert_eq!(
            Review::begin("classic:zz").unwrap_err().code,
            ErrorCode::ParseError
        );
        let mut engine = WebEngine::create("hard", 9).unwrap();
        let mut empty = Review::begin("ultimate-standard:").unwrap();
        assert_eq!(empty.total(), 0);
        assert_eq!(empty.step(&mut engine, 1e9, &|| 0.0), Step::Done);
        assert!(empty.puzzles().is_empty());
        assert_eq!(empty.summaries()[0].accuracy, 100.0);
    }
}
