//! A survey of the root: every legal move's worth, for an overlay that
//! shows on each cell what playing there is worth.
//!
//! Iterative deepening over the root moves, best first by the last depth's
//! scores. At each depth the first move is searched with the whole window,
//! so its score is exact; every other move with the window (best − margin,
//! ∞), so a move within [`SURVEY_MARGIN`] of the best so far gets an exact
//! score and a worse one an upper bound ("at most"), for a fraction of
//! the cost. A survey searched in slices ([`Surveyor::step`]) goes on where
//! it stopped: the moves already searched at the depth under way keep their
//! new scores and the others their last, so the better moves are always the
//! deeper searched.

use alloc::vec::Vec;

use super::engine::Engine;
use super::eval::{Eval, MAX_PLY};
use super::searchable::Searchable;

/// How far below the best move (in score units, about 100 a small board) a
/// move's score is still made exact; below that, an upper bound is enough
/// to show that the move is clearly worse.
pub const SURVEY_MARGIN: i32 = 100;

/// What one root move is worth.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct MoveWorth<M> {
    /// The move.
    pub mv: M,
    /// Its score for the side to move: exact when `exact`, otherwise an
    /// upper bound (the move is worth at most this).
    pub score: Eval,
    /// Whether `score` is exact.
    pub exact: bool,
    /// The depth it was searched to, in plies (0: not searched yet).
    pub depth: u32,
}

/// Every root move's worth, the best first.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Survey<M> {
    /// The last depth every move was searched to.
    pub depth: u32,
    /// Nodes searched so far.
    pub nodes: u64,
    /// Every legal move, the best first, the others by score.
    pub moves: Vec<MoveWorth<M>>,
    /// The best move's line, from it.
    pub pv: Vec<M>,
}

/// A survey under way (see the module's documentation).
#[derive(Clone, Debug)]
pub struct Surveyor<G: Searchable> {
    pos: G,
    /// The root moves in the order the depth under way searches them.
    moves: Vec<MoveWorth<G::Move>>,
    /// The depth under way.
    depth: u32,
    /// How many of `moves` are searched at `depth`.
    next: usize,
    /// The best exact score at `depth` so far, and its move's place.
    best: Option<(i32, usize)>,
    /// The best move's line (move indexes) at the last depth it was found.
    pv: Vec<u8>,
    max_depth: u32,
    nodes: u64,
    finished: bool,
}

impl<G: Searchable> Surveyor<G> {
    /// A survey of `pos` up to `max_depth` plies (at most the search's
    /// deepest); `None` when the game is over.
    #[must_use]
    pub fn new(pos: &G, max_depth: u32) -> Option<Surveyor<G>> {
        let moves: Vec<MoveWorth<G::Move>> = pos
            .legal_moves()
            .iter()
            .map(|&mv| MoveWorth {
                mv,
                score: Eval(0),
                exact: false,
                depth: 0,
            })
            .collect();
        if pos.is_over() || moves.is_empty() {
            return None;
        }
        Some(Surveyor {
            pos: *pos,
            moves,
            depth: 1,
            next: 0,
            best: None,
            pv: Vec::new(),
            max_depth: max_depth.clamp(1, MAX_PLY as u32 - 2),
            nodes: 0,
            finished: false,
        })
    }

    /// The position surveyed.
    #[must_use]
    pub fn position(&self) -> &G {
        &self.pos
    }

    /// True once deeper search cannot change the survey: the depth limit,
    /// or every line reaches the end of the game, or every move's score is
    /// proven.
    #[must_use]
    pub fn is_finished(&self) -> bool {
        self.finished
    }

    /// Searches on with `engine` until `stop` says so (asked every
    /// [`POLL_INTERVAL`](super::POLL_INTERVAL) nodes) or the survey is
    /// finished. True when this call completed at least one depth: the
    /// caller then shows the new [`Surveyor::survey`]. The first depth
    /// always completes.
    pub fn step(&mut self, engine: &mut Engine, stop: &mut dyn FnMut() -> bool) -> bool {
        if self.depth == 1 && self.next == 0 {
            engine.prepare();
        }
        let mut completed = false;
        while !self.finished {
            // A root move's search may be too small to poll `stop` itself
            // (every POLL_INTERVAL nodes), so it is asked between moves too.
            if self.depth > 1 && stop() {
                break;
            }
            if !self.search_next(engine, stop) {
                break;
            }
            if self.next == self.moves.len() {
                self.complete_depth();
                completed = true;
            }
        }
        completed
    }

    /// Searches the next move at the depth under way; false when stopped.
    fn search_next(&mut self, engine: &mut Engine, stop: &mut dyn FnMut() -> bool) -> bool {
        let depth = self.depth as i32;
        let floor = self
            .best
            .map_or(-Eval::INFINITE, |(best, _)| floor_below(best));
        let i = self.next;
        let mv = self.moves[i].mv;
        let polling = self.depth > 1;
        let Some(found) = engine.search_root_move(&self.pos, mv, depth, floor, stop, polling)
        else {
            return false;
        };
        self.nodes += found.nodes;
        let exact = found.score > floor;
        self.moves[i] = MoveWorth {
            mv,
            score: Eval(found.score),
            exact,
            depth: self.depth,
        };
        if exact && self.best.is_none_or(|(best, _)| found.score > best) {
            self.best = Some((found.score, i));
            self.pv = found.pv;
        }
        self.next += 1;
        true
    }

    /// Ends the depth under way: the moves sorted best first for the next.
    fn complete_depth(&mut self) {
        sort_by_worth(&mut self.moves);
        let remaining = G::MAX_PLIES.saturating_sub(self.pos.ply());
        let proven = self.moves.iter().all(|w| w.score.is_mate());
        self.finished =
            self.depth >= self.max_depth || self.depth as usize >= 3 * remaining || proven;
        self.depth += 1;
        self.next = 0;
        self.best = None;
    }

    /// The survey so far: each move at the deepest it was searched to, the
    /// best first (the move of the best line), the others by score.
    #[must_use]
    pub fn survey(&self) -> Survey<G::Move> {
        let mut moves = self.moves.clone();
        sort_by_worth(&mut moves);
        let pv: Vec<G::Move> = self.pv.iter().map(|&i| G::move_from_index(i)).collect();
        if let Some(at) = pv
            .first()
            .and_then(|&best| moves.iter().position(|w| w.mv == best))
        {
            moves[..=at].rotate_right(1);
        }
        Survey {
            depth: self.depth - 1,
            nodes: self.nodes,
            moves,
            pv,
        }
    }
}

/// The lowest score still made exact below `best`: a proven score keeps
/// every other proven one exact too, so "win in 3" and "win in 5" both show.
fn floor_below(best: i32) -> i32 {
    if Eval(best).is_mate() {
        -Eval::INFINITE
    } else {
        best - SURVEY_MARGIN
    }
}

/// Sorts best first: by score, an exact score before a bound of the same
/// value, ties in their order. An insertion sort: 81 moves at most, and no
/// second stable sort in the wasm.
fn sort_by_worth<M: Copy>(moves: &mut [MoveWorth<M>]) {
    let key = |w: &MoveWorth<M>| (w.score.0, w.exact);
    for i in 1..moves.len() {
        let item = moves[i];
        let mut j = i;
        while j > 0 && key(&moves[j - 1]) < key(&item) {
            moves[j] = moves[j - 1];
            j -= 1;
        }
        moves[j] = item;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::search::{ClassicValues, Level, Limits, Rng, SearchOptions};
    use crate::{Classic, Game, Outcome, Rules, Ultimate};

    /// The search with nothing that depends on the order of searching:
    /// no reductions, pruning, extensions or aspiration, so a fixed depth
    /// has one value whoever searches it.
    fn plain_engine(max_depth: u32) -> Engine {
        let mut engine = Engine::new(Level::Hard, 1, 1 << 20);
        engine.set_options(SearchOptions {
            lmr: false,
            lmp: false,
            singular: false,
            aspiration: false,
            ..SearchOptions::default()
        });
        engine.set_limits(Limits {
            max_depth,
            ..Limits::NONE
        });
        engine
    }

    fn run_to_end<G: Searchable>(pos: &G, depth: u32) -> Survey<G::Move> {
        let mut engine = plain_engine(depth);
        let mut surveyor = Surveyor::new(pos, depth).expect("the game is on");
        surveyor.step(&mut engine, &mut || false);
        assert!(surveyor.is_finished());
        surveyor.survey()
    }

    /// The root's score of playing `mv`, from a separate search of the
    /// position after it to `depth - 1` (a proven result one ply further).
    fn separately<G: Searchable>(pos: &G, mv: G::Move, depth: u32) -> i32 {
        let mut child = *pos;
        child.play_unchecked(mv);
        if let Some(outcome) = child.outcome() {
            return match outcome {
                Outcome::Draw => 0,
                Outcome::Win(p) if p == pos.side_to_move() => Eval::MATE - 1,
                Outcome::Win(_) => -(Eval::MATE - 1),
            };
        }
        let result = plain_engine(depth - 1)
            .choose_within_limits(&child)
            .expect("the game is on");
        match result.score.mate_in() {
            Some(n) if n > 0 => -(Eval::MATE - (n + 1)),
            Some(n) => Eval::MATE - (1 - n),
            None => -result.score.0,
        }
    }

    fn ultimate_positions(seed: u64, n: usize) -> Vec<Ultimate> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Ultimate::new(Rules::Standard);
            let plies = 4 + rng.below(40);
            while pos.ply() < plies && !pos.is_over() {
                let moves = pos.legal_moves();
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
            if !pos.is_over() {
                out.push(pos);
            }
        }
        out
    }

    #[test]
    fn every_move_agrees_with_its_own_search_at_a_fixed_depth() {
        for (i, pos) in ultimate_positions(5, 12).iter().enumerate() {
            let depth = 2 + (i as u32 % 3);
            let survey = run_to_end(pos, depth);
            assert_eq!(survey.moves.len(), pos.legal_moves().len());
            assert_eq!(survey.depth, depth);
            for w in &survey.moves {
                let alone = separately(pos, w.mv, depth);
                assert_eq!(w.depth, depth);
                if w.exact {
                    assert_eq!(w.score.0, alone, "{} at depth {depth}", w.mv);
                } else {
                    assert!(alone <= w.score.0, "{} bound {:?} < {alone}", w.mv, w.score);
                }
            }
            let best = survey.moves[0];
            assert!(best.exact);
            assert!(survey.moves.iter().all(|w| w.score <= best.score));
            assert_eq!(survey.pv.first(), Some(&best.mv));
        }
    }

    #[test]
    fn moves_within_the_margin_are_exact_and_the_others_clearly_worse() {
        for pos in ultimate_positions(9, 6) {
            let survey = run_to_end(&pos, 4);
            let best = survey.moves[0].score.0;
            for w in &survey.moves {
                if !w.exact {
                    assert!(w.score.0 <= best - SURVEY_MARGIN, "{w:?} against {best}");
                }
            }
        }
    }

    #[test]
    fn classic_moves_get_their_exact_values() {
        let mut values = ClassicValues::new();
        let mut rng = Rng::new(3);
        for _ in 0..20 {
            let mut pos = Classic::new();
            let plies = rng.below(6);
            while pos.ply() < plies && !pos.is_over() {
                let moves = pos.legal_moves();
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
            if pos.is_over() {
                continue;
            }
            for w in run_to_end(&pos, 9).moves {
                let value = match w.score.mate_in() {
                    Some(n) if n > 0 => 10 - n,
                    Some(n) => -(10 + n),
                    None => {
                        assert_eq!(w.score, Eval::DRAW);
                        0
                    }
                };
                let exact = i32::from(values.value_of(&pos, w.mv));
                if w.exact {
                    assert_eq!(value, exact, "{} in {pos:?}", w.mv);
                } else {
                    assert!(exact <= value);
                }
            }
        }
    }

    #[test]
    fn a_survey_in_slices_ends_as_one_run_does() {
        for pos in ultimate_positions(11, 4) {
            let whole = run_to_end(&pos, 6);
            let mut engine = plain_engine(6);
            let mut surveyor = Surveyor::new(&pos, 6).unwrap();
            let mut polls = 0;
            let mut steps = 0;
            while !surveyor.is_finished() {
                // Stop at every other poll: each step gets a few thousand nodes.
                surveyor.step(&mut engine, &mut || {
                    polls += 1;
                    polls % 2 == 0
                });
                steps += 1;
                let so_far = surveyor.survey();
                assert_eq!(so_far.moves.len(), whole.moves.len());
            }
            assert!(
                steps > 1,
                "the survey was never cut: {} nodes, {polls} polls",
                whole.nodes
            );
            let sliced = surveyor.survey();
            let scores = |s: &Survey<_>| {
                let mut v: Vec<_> = s.moves.iter().map(|w| (w.mv, w.score, w.exact)).collect();
                v.sort_by_key(|&(m, _, _)| Ultimate::move_index(m));
                v
            };
            assert_eq!(scores(&sliced), scores(&whole));
        }
    }

    #[test]
    fn a_finished_game_has_no_survey() {
        let mut pos = Classic::new();
        for i in [0, 3, 1, 4, 2] {
            pos.play_unchecked(crate::ClassicMove(i));
        }
        assert!(Surveyor::new(&pos, 4).is_none());
    }
}
