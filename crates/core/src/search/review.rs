//! Game review: every move of a game marked by how much of the mover's
//! expected score it gave away, against the engine's best move.
//!
//! Each position before a move is searched within the engine's limits (a
//! node budget makes a review repeatable); its score, mapped by
//! [`WinChance`], is the mover's expected score with the best move. The
//! position after the move, searched the same way (or its result, once the
//! game is over), gives the expected score of the move played. The
//! difference, never below 0, is the move's loss, and [`Mark::of`] turns it
//! into a mark by the thresholds below.

use alloc::vec::Vec;

use super::{Engine, Level, Limits, Searchable, WinChance};
use crate::{Outcome, Player};

/// The largest loss (expected score, 0-1) of a move marked good; smaller
/// still, or the engine's own move, is best (see [`Mark::of`]).
pub const GOOD_LOSS: f64 = 0.05;
/// The largest loss of an inaccuracy.
pub const INACCURACY_LOSS: f64 = 0.10;
/// The largest loss of a mistake; past it, a blunder.
pub const MISTAKE_LOSS: f64 = 0.20;
/// A loss below this is a best move: the engine's scores of two moves
/// this close are within its own noise.
pub const BEST_LOSS: f64 = 0.01;

/// What a move was worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Mark {
    /// The engine's move, or one as good (loss under [`BEST_LOSS`]).
    Best,
    /// Loss up to [`GOOD_LOSS`].
    Good,
    /// Loss up to [`INACCURACY_LOSS`].
    Inaccuracy,
    /// Loss up to [`MISTAKE_LOSS`].
    Mistake,
    /// Loss above [`MISTAKE_LOSS`].
    Blunder,
}

impl Mark {
    /// Every mark, best first.
    pub const ALL: [Mark; 5] = [
        Mark::Best,
        Mark::Good,
        Mark::Inaccuracy,
        Mark::Mistake,
        Mark::Blunder,
    ];

    /// The mark of a move that lost `loss` of the mover's expected score;
    /// `engine_move` when it is the move the engine chose.
    #[must_use]
    pub fn of(loss: f64, engine_move: bool) -> Mark {
        if engine_move || loss < BEST_LOSS {
            Mark::Best
        } else if loss <= GOOD_LOSS {
            Mark::Good
        } else if loss <= INACCURACY_LOSS {
            Mark::Inaccuracy
        } else if loss <= MISTAKE_LOSS {
            Mark::Mistake
        } else {
            Mark::Blunder
        }
    }

    /// The mark's name in English, lower case.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Mark::Best => "best",
            Mark::Good => "good",
            Mark::Inaccuracy => "inaccuracy",
            Mark::Mistake => "mistake",
            Mark::Blunder => "blunder",
        }
    }
}

/// One move of a reviewed game.
#[derive(Clone, Debug, PartialEq)]
pub struct MoveReview<M> {
    /// Who played it.
    pub mover: Player,
    /// The move played.
    pub played: M,
    /// The engine's move in the position before it.
    pub best: M,
    /// The engine's line from the position before it, `best` first.
    pub best_line: Vec<M>,
    /// The mover's expected score (0-1) with the engine's move.
    pub expected_best: f64,
    /// The mover's expected score after the move played.
    pub expected_played: f64,
    /// `expected_best - expected_played`, never below 0; 0 for the
    /// engine's move.
    pub loss: f64,
    /// The mark the loss earns.
    pub mark: Mark,
}

/// The side to move's expected score in `pos`, searched by `engine`, with
/// the search's move and line; `None` once the game is over.
fn searched<G: Searchable>(engine: &mut Engine, pos: &G) -> Option<(f64, Vec<G::Move>)> {
    let result = engine.choose_within_limits(pos)?;
    let chance = WinChance::of(result.score, pos.ply(), G::MAX_PLIES, pos.rules());
    Some((chance.expected(), result.pv))
}

/// The expected score of `side` in a finished game.
fn result_for(outcome: Outcome, side: Player) -> f64 {
    match outcome {
        Outcome::Draw => 0.5,
        Outcome::Win(p) if p == side => 1.0,
        Outcome::Win(_) => 0.0,
    }
}

/// The node budget of a position in a review by default, the same in the
/// terminal and the browser: natively some 25 ms of Hard's search a
/// position, and deep enough (depth 9 to 12 in the middle game) that its
/// marks seldom change with more.
pub const REVIEW_NODES: u64 = 200_000;

/// The engine a review searches with: Hard's, with its own table, limited
/// to `nodes` a position, so that a review is the same on every machine.
#[must_use]
pub fn review_engine(nodes: u64) -> Engine {
    let mut engine = Engine::for_level(Level::Hard, 1);
    engine.set_limits(review_limits(nodes));
    engine
}

/// The limits of a review's searches: `nodes` a position, any depth.
#[must_use]
pub const fn review_limits(nodes: u64) -> Limits {
    Limits {
        max_nodes: nodes,
        ..Limits::NONE
    }
}

/// A review under way, one move at a time: [`Reviewer::step`] searches the
/// position after the next move (and, at the first step, the start), so a
/// caller that must return to an event loop can do so between moves.
#[derive(Clone, Debug)]
pub struct Reviewer<G: Searchable> {
    /// The position before the next move.
    pos: G,
    moves: Vec<G::Move>,
    /// How many moves are reviewed.
    done: usize,
    /// The search of `pos` (`None` before the first step).
    before: Option<(f64, Vec<G::Move>)>,
    /// Set once a move is illegal, comes after the end, or the search has
    /// nothing to say: no more steps.
    ended: bool,
}

impl<G: Searchable> Reviewer<G> {
    /// A review of the game from `start` through `moves`.
    #[must_use]
    pub fn new(start: &G, moves: &[G::Move]) -> Reviewer<G> {
        Reviewer {
            pos: *start,
            moves: moves.to_vec(),
            done: 0,
            before: None,
            ended: false,
        }
    }

    /// How many moves the game has: the most [`Reviewer::step`] reviews.
    #[must_use]
    pub fn total(&self) -> usize {
        self.moves.len()
    }

    /// How many moves are reviewed so far.
    #[must_use]
    pub fn done(&self) -> usize {
        self.done
    }

    /// Reviews the next move with `engine` at its limits; `None` once every
    /// move is reviewed, or at the first move that is illegal or comes
    /// after the end (the review stops there).
    pub fn step(&mut self, engine: &mut Engine) -> Option<MoveReview<G::Move>> {
        if self.ended || self.done == self.moves.len() {
            return None;
        }
        let before = match self.before.take() {
            Some(before) => Some(before),
            None => searched(engine, &self.pos),
        };
        let reviewed = before.and_then(|before| self.review_next(engine, before));
        self.ended = reviewed.is_none();
        reviewed
    }

    /// The review of the next move, whose position's search is `before`;
    /// keeps the search after it for the next step.
    fn review_next(
        &mut self,
        engine: &mut Engine,
        (expected_best, best_line): (f64, Vec<G::Move>),
    ) -> Option<MoveReview<G::Move>> {
        let played = self.moves[self.done];
        self.pos.check(played).ok()?;
        let mover = self.pos.side_to_move();
        self.pos.play_unchecked(played);
        let after = searched(engine, &self.pos);
        let expected_played = match (&after, self.pos.outcome()) {
            (_, Some(outcome)) => result_for(outcome, mover),
            (Some((opponent, _)), None) => 1.0 - opponent,
            (None, None) => return None,
        };
        let best = best_line.first().copied().unwrap_or(played);
        // The engine's own move loses nothing: a difference between its two
        // searches is the search's noise, not the player's.
        let loss = if best == played {
            0.0
        } else {
            (expected_best - expected_played).max(0.0)
        };
        self.before = after;
        self.done += 1;
        Some(MoveReview {
            mover,
            played,
            best,
            best_line,
            expected_best,
            expected_played,
            loss,
            mark: Mark::of(loss, best == played),
        })
    }
}

/// Reviews the game from `start` through `moves` (legal, as a record's are)
/// with `engine` at its limits: one entry per move, in order. The review
/// stops at the first move that is illegal or comes after the end.
pub fn review<G: Searchable>(
    engine: &mut Engine,
    start: &G,
    moves: &[G::Move],
) -> Vec<MoveReview<G::Move>> {
    let mut reviewer = Reviewer::new(start, moves);
    core::iter::from_fn(|| reviewer.step(engine)).collect()
}

/// A player's part of a review: how many moves got each mark, and the
/// accuracy, 100 times one minus the mean loss (100: every move kept the
/// expected score the engine saw).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Summary {
    /// Moves per mark, in the order of [`Mark::ALL`].
    pub counts: [u32; 5],
    /// 0-100; 100 with no moves.
    pub accuracy: f64,
}

impl Summary {
    /// The summary of `player`'s moves in `reviews`.
    #[must_use]
    pub fn of<M>(reviews: &[MoveReview<M>], player: Player) -> Summary {
        let mut counts = [0u32; 5];
        let mut total = 0.0;
        let mut n = 0u32;
        for r in reviews.iter().filter(|r| r.mover == player) {
            counts[r.mark as usize] += 1;
            total += r.loss;
            n += 1;
        }
        let accuracy = if n == 0 {
            100.0
        } else {
            100.0 * (1.0 - total / f64::from(n))
        };
        Summary { counts, accuracy }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Classic, ClassicMove};

    #[test]
    fn marks_follow_the_documented_thresholds() {
        assert_eq!(Mark::of(0.3, true), Mark::Best);
        assert_eq!(Mark::of(0.009, false), Mark::Best);
        assert_eq!(Mark::of(0.05, false), Mark::Good);
        assert_eq!(Mark::of(0.0501, false), Mark::Inaccuracy);
        assert_eq!(Mark::of(0.10, false), Mark::Inaccuracy);
        assert_eq!(Mark::of(0.2, false), Mark::Mistake);
        assert_eq!(Mark::of(0.21, false), Mark::Blunder);
        let names: Vec<_> = Mark::ALL.iter().map(|m| m.name()).collect();
        assert_eq!(names, ["best", "good", "inaccuracy", "mistake", "blunder"]);
    }

    #[test]
    fn a_planted_blunder_is_marked_blunder() {
        // X takes a corner, O the centre, X the opposite corner: O must take
        // an edge. The corner (cell 2) lets X fork and win.
        let moves = [0, 4, 8, 2, 6].map(ClassicMove);
        let mut engine = Engine::for_level(Level::Hard, 1);
        let reviews = review(&mut engine, &Classic::new(), &moves);
        assert_eq!(reviews.len(), 5);
        let marks: Vec<Mark> = reviews.iter().map(|r| r.mark).collect();
        assert_eq!(marks[3], Mark::Blunder, "{reviews:?}");
        assert!(reviews[3].loss > 0.4, "{:?}", reviews[3]);
        assert_ne!(reviews[3].best, ClassicMove(2));
        assert_eq!(reviews[3].best_line.first(), Some(&reviews[3].best));
        // The rest keep the draw (or, last, press the win home).
        for i in [0, 1, 2, 4] {
            assert!(marks[i] <= Mark::Good, "{i}: {:?}", reviews[i]);
        }
        assert_eq!(reviews[4].mover, Player::X);
        assert!(reviews[4].expected_played > 0.99);

        let o = Summary::of(&reviews, Player::O);
        assert_eq!(o.counts[Mark::Blunder as usize], 1);
        assert_eq!(o.counts.iter().sum::<u32>(), 2);
        assert!(o.accuracy < 80.0, "{o:?}");
        let x = Summary::of(&reviews, Player::X);
        assert_eq!(x.counts.iter().sum::<u32>(), 3);
        assert!(x.accuracy > 95.0, "{x:?}");
    }

    #[test]
    fn the_review_stops_at_an_illegal_move_or_the_end() {
        let mut engine = Engine::for_level(Level::Hard, 1);
        let taken_twice = [4, 4].map(ClassicMove);
        assert_eq!(review(&mut engine, &Classic::new(), &taken_twice).len(), 1);
        // X wins on its third move; a move after that is not reviewed.
        let past_the_end = [0, 3, 1, 4, 2, 5].map(ClassicMove);
        assert_eq!(review(&mut engine, &Classic::new(), &past_the_end).len(), 5);
        assert_eq!(Summary::of::<ClassicMove>(&[], Player::X).accuracy, 100.0);
    }

    #[test]
    fn a_review_step_by_step_is_the_whole_review() {
        let moves = [0, 4, 8, 2, 6].map(ClassicMove);
        let whole = review(&mut review_engine(REVIEW_NODES), &Classic::new(), &moves);
        let mut engine = review_engine(REVIEW_NODES);
        let mut reviewer = Reviewer::new(&Classic::new(), &moves);
        assert_eq!((reviewer.done(), reviewer.total()), (0, 5));
        let mut steps = Vec::new();
        while let Some(r) = reviewer.step(&mut engine) {
            steps.push(r);
            assert_eq!(reviewer.done(), steps.len());
        }
        assert_eq!(steps, whole);
        assert_eq!(reviewer.step(&mut engine), None);
        assert_eq!(engine.limits(), review_limits(REVIEW_NODES));
    }
}
