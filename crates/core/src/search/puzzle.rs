//! Puzzles from reviewed games: a position where the player to move had one
//! move that wins (or saves the game) and played a mistake or a blunder
//! instead becomes a "find the best move" exercise, its solution the
//! review's line.
//!
//! [`candidates`] picks them from a review: the move played is marked
//! [`Mark::Mistake`] or [`Mark::Blunder`] and the engine's move keeps the
//! mover at [`SAVES_FROM`] or more (a win from [`WINS_FROM`]). [`is_unique`]
//! then keeps those whose solution is the only good move: a survey of
//! every move puts each other move at least [`UNIQUE_GAP`] below it, so
//! the puzzle has one answer.

use alloc::vec::Vec;

use super::review::{Mark, MoveReview};
use super::{Engine, Eval, Limits, MoveWorth, Searchable, Survey, Surveyor, WinChance};
use crate::Player;

/// The least expected score (0-1) the engine's move must keep for the
/// position to make a puzzle: a draw or near it, so a move that saves the
/// game counts too.
pub const SAVES_FROM: f64 = 0.4;

/// From this expected score on, the engine's move wins (the goal is "win",
/// else "save").
pub const WINS_FROM: f64 = 0.75;

/// How far below the solution (in expected score) every other move must be
/// for the solution to be the one answer.
pub const UNIQUE_GAP: f64 = 0.15;

/// What the solution achieves.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Goal {
    /// It wins.
    Win,
    /// It saves the game (a draw or near it), where the move played lost.
    Save,
}

/// A puzzle: the position before move `ply` of the game, for `mover`.
#[derive(Clone, Debug, PartialEq)]
pub struct Puzzle<M> {
    /// Moves of the game before the puzzle's position.
    pub ply: usize,
    /// The side to find the move.
    pub mover: Player,
    /// What the solution achieves.
    pub goal: Goal,
    /// The move played in the game (the wrong answer that made the puzzle).
    pub played: M,
    /// The engine's line, the answer first.
    pub solution: Vec<M>,
    /// The mover's expected score with the answer (0-1).
    pub expected: f64,
}

/// The puzzles a review offers, in game order, before the uniqueness check
/// ([`is_unique`]).
#[must_use]
pub fn candidates<M: Copy + PartialEq>(reviews: &[MoveReview<M>]) -> Vec<Puzzle<M>> {
    reviews
        .iter()
        .enumerate()
        .filter(|(_, r)| matches!(r.mark, Mark::Mistake | Mark::Blunder))
        .filter(|(_, r)| r.expected_best >= SAVES_FROM && !r.best_line.is_empty())
        .map(|(ply, r)| Puzzle {
            ply,
            mover: r.mover,
            goal: if r.expected_best >= WINS_FROM {
                Goal::Win
            } else {
                Goal::Save
            },
            played: r.played,
            solution: r.best_line.clone(),
            expected: r.expected_best,
        })
        .collect()
}

/// The depth of the survey that checks a puzzle has one answer: 8 plies
/// for Ultimate; Classic is solved to its end.
#[must_use]
pub fn check_depth<G: Searchable>() -> u32 {
    if G::MAX_PLIES <= 9 {
        9
    } else {
        8
    }
}

/// Whether `answer` is the one good move in `pos`: a survey to
/// [`check_depth`] puts it first and every other move at least
/// [`UNIQUE_GAP`] below it. (The worker runs the same survey in slices and
/// judges it with [`has_one_answer`].) The survey runs without the
/// engine's node limit, which would stop a root move's search for good;
/// the limits are put back after.
pub fn is_unique<G: Searchable>(engine: &mut Engine, pos: &G, answer: G::Move) -> bool {
    let Some(mut surveyor) = Surveyor::new(pos, check_depth::<G>()) else {
        return false;
    };
    let own = engine.limits();
    engine.set_limits(Limits::NONE);
    while !surveyor.is_finished() {
        surveyor.step(engine, &mut || false);
    }
    engine.set_limits(own);
    has_one_answer(pos, &surveyor.survey(), answer)
}

/// Whether a finished survey of `pos` shows `answer` as its one good move:
/// first, and every other move at least [`UNIQUE_GAP`] below it. A bound
/// counts as its value: the move is at most that good.
#[must_use]
pub fn has_one_answer<G: Searchable>(pos: &G, survey: &Survey<G::Move>, answer: G::Move) -> bool {
    let expected = |score| WinChance::of(score, pos.ply(), G::MAX_PLIES, pos.rules()).expected();
    is_one_answer(&survey.moves, answer, expected)
}

/// [`has_one_answer`] with the game's type gone, for a caller that holds
/// the survey's moves in a form of its own: `moves` best first, and
/// `expected` the mover's expected score (0-1) of a score.
#[must_use]
pub fn is_one_answer<M: PartialEq>(
    moves: &[MoveWorth<M>],
    answer: M,
    expected: impl Fn(Eval) -> f64,
) -> bool {
    match moves {
        [best, rest @ ..] => {
            let bar = expected(best.score) - UNIQUE_GAP;
            best.mv == answer && rest.iter().all(|w| expected(w.score) <= bar)
        }
        [] => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::review::{review, review_engine};
    use crate::search::{ClassicValues, Level, Rng};
    use crate::{Classic, ClassicMove, Game};

    /// Random Classic games, each move a random legal one.
    fn random_games(seed: u64, n: usize) -> Vec<Vec<ClassicMove>> {
        let mut rng = Rng::new(seed);
        (0..n)
            .map(|_| {
                let mut pos = Classic::new();
                let mut moves = Vec::new();
                while !pos.is_over() {
                    let legal: Vec<ClassicMove> = pos.legal_moves().iter().copied().collect();
                    let m = legal[rng.below(legal.len())];
                    pos.play_unchecked(m);
                    moves.push(m);
                }
                moves
            })
            .collect()
    }

    #[test]
    fn classic_puzzles_have_the_one_answer_exact_values_agree_on() {
        let mut reviewer = review_engine(20_000);
        let mut engine = Engine::for_level(Level::Hard, 1);
        let mut values = ClassicValues::new();
        let (mut found, mut unique) = (0, 0);
        for moves in random_games(7, 60) {
            let reviews = review(&mut reviewer, &Classic::new(), &moves);
            for p in candidates(&reviews) {
                found += 1;
                let mut pos = Classic::new();
                for &m in &moves[..p.ply] {
                    pos.play_unchecked(m);
                }
                assert_eq!(pos.side_to_move(), p.mover);
                let answer = p.solution[0];
                let best = values.value_of(&pos, answer);
                // The answer is exactly as good as the position allows, and
                // better than the move played.
                let legal: Vec<ClassicMove> = pos.legal_moves().iter().copied().collect();
                assert!(legal.iter().all(|&m| values.value_of(&pos, m) <= best));
                assert!(values.value_of(&pos, p.played) < best, "{p:?}");
                assert_eq!(p.goal == Goal::Win, best > 0, "{p:?}");
                if is_unique(&mut engine, &pos, answer) {
                    unique += 1;
                    let others = legal.iter().filter(|&&m| m != answer);
                    let mut others = others.map(|&m| values.value_of(&pos, m));
                    assert!(others.all(|v| v < best.min(1)), "{p:?}");
                }
            }
        }
        assert!(
            found > 10 && unique > 0,
            "{found} candidates, {unique} unique"
        );
    }

    #[test]
    fn a_game_without_mistakes_has_no_puzzle() {
        let mut engine = review_engine(20_000);
        // The engine's own drawn line from the start: every move keeps the draw.
        let moves: Vec<ClassicMove> = [4, 0, 3, 5, 7, 1, 2, 6, 8]
            .into_iter()
            .map(ClassicMove)
            .collect();
        let reviews = review(&mut engine, &Classic::new(), &moves);
        assert!(candidates(&reviews).is_empty(), "{reviews:?}");
    }

    #[test]
    fn a_check_ends_under_a_node_limit_and_gives_the_limit_back() {
        // A review's engine stops each search after its nodes; the check's
        // survey must not stop for good on a root move (it would never end).
        let mut engine = review_engine(1000);
        let pos = crate::Ultimate::new(crate::Rules::Standard)
            .play(crate::Move::new(4, 4))
            .unwrap();
        let answer = pos.legal_moves()[0];
        let _ = is_unique(&mut engine, &pos, answer);
        assert_eq!(engine.limits(), crate::search::review::review_limits(1000));
    }
}
