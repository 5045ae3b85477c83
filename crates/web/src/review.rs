//! A game review in the worker (see [`crate::worker`]): core's
//! [`Reviewer`] over either game, one move a step, each reviewed move in
//! the shape the page reads, and both players' summaries at the end.

use serde::Serialize;
use uttt_core::record::AnyGame;
use uttt_core::search::review::{review_limits, MoveReview, Reviewer, Summary, REVIEW_NODES};
use uttt_core::search::Searchable;
use uttt_core::{Classic, Player, Ultimate};

use crate::engine::WebEngine;
use crate::error::ApiError;
use crate::game::WebGame;

/// One reviewed move, as the page reads it.
#[derive(Clone, Debug, PartialEq, Serialize)]
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
#[derive(Clone, Copy, Debug, PartialEq, Serialize)]
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

/// The review of one game's moves so far.
#[derive(Clone, Debug)]
struct Reviewing<G: Searchable> {
    reviewer: Reviewer<G>,
    reviews: Vec<MoveReview<G::Move>>,
}

/// A review under way, of either game.
#[derive(Clone, Debug)]
pub struct Review(Either);

#[derive(Clone, Debug)]
enum Either {
    Ultimate(Reviewing<Ultimate>),
    Classic(Reviewing<Classic>),
}

/// Runs `$body` with `$r` bound to the [`Reviewing`] inside a [`Review`].
macro_rules! with_review {
    ($review:expr, $r:ident => $body:expr) => {
        match &mut $review.0 {
            Either::Ultimate($r) => $body,
            Either::Classic($r) => $body,
        }
    };
    (ref $review:expr, $r:ident => $body:expr) => {
        match &$review.0 {
            Either::Ultimate($r) => $body,
            Either::Classic($r) => $body,
        }
    };
}

impl<G: Searchable> Reviewing<G> {
    fn new(start: &G, moves: &[G::Move]) -> Reviewing<G> {
        Reviewing {
            reviewer: Reviewer::new(start, moves),
            reviews: Vec::with_capacity(moves.len()),
        }
    }

    fn step(&mut self, engine: &mut WebEngine) -> Option<ReviewedMove> {
        let reviewer = &mut self.reviewer;
        let r = engine.with_limits(review_limits(REVIEW_NODES), |e| reviewer.step(e))?;
        let x_share = |mover_expected: f64| {
            if r.mover == Player::X {
                mover_expected
            } else {
                1.0 - mover_expected
            }
        };
        let reviewed = ReviewedMove {
            ply: u32::try_from(self.reviews.len() + 1).unwrap_or(u32::MAX),
            played: r.played.to_string(),
            best: r.best.to_string(),
            line: r.best_line.iter().map(ToString::to_string).collect(),
            mark: r.mark.name(),
            loss: r.loss,
            x_before: x_share(r.expected_best),
            x_after: x_share(r.expected_played),
        };
        self.reviews.push(r);
        Some(reviewed)
    }
}

impl Review {
    /// A review of every move of the game `text` (a record; a position
    /// string has no moves to review).
    ///
    /// # Errors
    /// `parse-error` for text that is neither.
    pub fn begin(text: &str) -> Result<Review, ApiError> {
        Ok(Review(match WebGame::parse(text)?.any() {
            AnyGame::Ultimate(h) => Either::Ultimate(Reviewing::new(h.start(), h.moves())),
            AnyGame::Classic(h) => Either::Classic(Reviewing::new(h.start(), h.moves())),
        }))
    }

    /// Reviews the next move with `engine`, at [`REVIEW_NODES`] a
    /// position; `None` once the review is over.
    pub fn step(&mut self, engine: &mut WebEngine) -> Option<ReviewedMove> {
        with_review!(self, r => r.step(engine))
    }

    /// How many moves the game has.
    #[must_use]
    pub fn total(&self) -> usize {
        with_review!(ref self, r => r.reviewer.total())
    }

    /// X's and O's summaries of the moves reviewed.
    #[must_use]
    pub fn summaries(&self) -> [ReviewSummary; 2] {
        with_review!(ref self, r => [Player::X, Player::O].map(|p| Summary::of(&r.reviews, p).into()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uttt_core::search::review::{review, review_engine};
    use uttt_core::ClassicMove;

    #[test]
    fn the_worker_review_is_core_review_seen_from_x() {
        let mut engine = WebEngine::create("hard", 9).unwrap();
        let mut web = Review::begin("classic:a1b2c3c1a3").unwrap();
        assert_eq!(web.total(), 5);
        let steps: Vec<ReviewedMove> = core::iter::from_fn(|| web.step(&mut engine)).collect();
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
        assert_eq!(Review::begin("classic:zz").unwrap_err().code, "parse-error");
        let mut engine = WebEngine::create("hard", 9).unwrap();
        let mut empty = Review::begin("ultimate-standard:").unwrap();
        assert_eq!(empty.total(), 0);
        assert_eq!(empty.step(&mut engine), None);
        assert_eq!(empty.summaries()[0].accuracy, 100.0);
    }
}
