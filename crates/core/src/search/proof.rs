//! The endgame proof: once few cells remain, an exact search to the end of
//! the game of whether the side to move wins, draws or loses.
//!
//! It is the ordinary alpha-beta ([`Searcher::root_pvs`]) with everything
//! that makes the iterations inexact switched off (late move reductions and
//! pruning, singular extensions) and a depth no line can use up: each ply
//! fills a cell, so [`Searchable::open_cells`] plies reach the end of every
//! line, and no leaf is ever scored by the evaluation. The window (-1, 1)
//! asks only "win, draw or loss?", far cheaper than the exact distance.
//!
//! Its table entries are stored at depths of [`PROOF_DEPTH`] and more, above
//! any iteration's (at most [`MAX_PLY`]), so the proof only ever takes its
//! own entries, which are exact, and the iterations may take them too.

use super::alphabeta::Searcher;
use super::eval::MAX_PLY;
use super::searchable::Searchable;

/// The depth added to the cells left, so that every entry the proof stores is
/// deeper than any the iterations store.
const PROOF_DEPTH: i32 = MAX_PLY as i32 + 8;

/// What the proof found for the side to move at the root.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Proven<M> {
    /// This move wins; the score is a mate score, the win coming at the
    /// latest that many plies away (a lower bound of the true score).
    Win(M, i32),
    /// This move draws, and no move wins.
    Draw(M),
    /// Every move loses.
    Loss,
}

impl<S: FnMut() -> bool> Searcher<'_, S> {
    /// Proves the result of `pos`, trying the `root` moves in their order
    /// (best first from the last iteration, so a draw is the best-looking
    /// drawing move). `None` when stopped first. The root list, the
    /// options and the history are left as they were: the proof's fail-high
    /// counts at its huge depths would swamp the history.
    pub fn prove<G: Searchable>(
        &mut self,
        pos: &G,
        root: &[(G::Move, i32)],
    ) -> Option<Proven<G::Move>> {
        let options = self.engine.options;
        let history = self.engine.history;
        self.engine.options.lmr = false;
        self.engine.options.lmp = false;
        self.engine.options.singular = false;
        let mut moves = root.to_vec();
        let depth = PROOF_DEPTH + pos.open_cells() as i32;
        let (best, score) = self.root_pvs(pos, &mut moves, depth, -1, 1);
        self.engine.options = options;
        self.engine.history = history;
        self.improved = None;
        if self.aborted {
            return None;
        }
        Some(match score {
            v if v >= 1 => Proven::Win(best, v),
            0 => Proven::Draw(best),
            _ => Proven::Loss,
        })
    }
}
