//! What the search needs from a game beyond the rules: evaluations, the rule
//! player of the tutorials, and a dense move index for its tables.

use super::board_odds::BoardOdds;
use super::rng::Rng;
use super::weights::Weights;
use crate::Game;

/// A [`Game`] the engine can play. Both [`crate::Ultimate`] and
/// [`crate::Classic`] implement it, so the search is written once.
pub trait Searchable: Game {
    /// Whether the search may skip the late quiet moves of shallow nodes
    /// (late move pruning). Off by default: Classic is searched to the end
    /// in milliseconds, and a pruned move could cost it its perfect play.
    const PRUNE_LATE_MOVES: bool = false;

    /// Whether the search may search late moves shallower first (late move
    /// reductions). On by default; off in Classic, whose whole tree is a few
    /// thousand positions: at Medium's fixed depth a reduced move can stop
    /// short of the fork that loses the game, and Medium then plays into it.
    const REDUCE_LATE_MOVES: bool = true;

    /// A dense index below 81 for the move, for history and table entries.
    fn move_index(m: Self::Move) -> u8;

    /// The move with that index (the inverse of [`Searchable::move_index`]).
    fn move_from_index(i: u8) -> Self::Move;

    /// The static evaluation of an ongoing position for the side to move,
    /// with the engine's weights and its table of small-board odds.
    fn evaluate(&self, w: &Weights, odds: &BoardOdds) -> i32;

    /// The tutorials' evaluation for the side to move, used by Easy: a win is
    /// +100/-100, and each line holding only my won boards (cells in Classic)
    /// is +10 per board, only theirs -10 per board.
    fn tutorial_eval(&self) -> i32;

    /// The tutorials' rule player (Beginner). `None` once the game is over.
    fn rule_player_move(&self, rng: &mut Rng) -> Option<Self::Move>;

    /// True when the game goes on but can only end in a draw, whatever is
    /// played: the search then scores it as a draw without going deeper.
    fn dead_draw(&self) -> bool {
        false
    }

    /// True when the game goes on but the side to move has lost it two plies
    /// from now whatever it plays: it cannot win at once, and the opponent
    /// threatens to complete two lines, so blocking one leaves the other.
    /// The search scores such a position as that loss without searching it.
    /// Never true in Ultimate (the default), where a threat on the big board
    /// is a small board to win and may take many moves.
    fn faces_a_fork(&self) -> bool {
        false
    }

    /// Whether the move with index `index` (legal here) hands the opponent
    /// a free move: in Ultimate, sends it to a board that is decided once
    /// the move is played. Never in Classic (the default).
    #[inline]
    fn frees_opponent(&self, _index: u8) -> bool {
        false
    }

    /// The moves the quiescence search follows past the horizon: those that
    /// decide something at once (in Ultimate, win a small board).
    fn tactical_moves(&self) -> crate::MoveList<Self::Move> {
        crate::MoveList::new()
    }
}

/// For every 9-bit mask, the set of the eight lines (bit `l` for
/// [`crate::lines::LINE_MASKS`]`[l]`) holding exactly `k` of its cells, for
/// k = 1, 2; and the lines touching it at all.
pub(crate) struct LineTables {
    pub one: [u8; 512],
    pub two: [u8; 512],
    pub touch: [u8; 512],
}

pub(crate) const LINE_TABLES: LineTables = {
    let mut t = LineTables {
        one: [0; 512],
        two: [0; 512],
        touch: [0; 512],
    };
    let mut m = 0;
    while m < 512 {
        let mut l = 0;
        while l < 8 {
            let n = (m as u16 & crate::lines::LINE_MASKS[l]).count_ones();
            if n == 1 {
                t.one[m] |= 1 << l;
            }
            if n == 2 {
                t.two[m] |= 1 << l;
            }
            if n > 0 {
                t.touch[m] |= 1 << l;
            }
            l += 1;
        }
        m += 1;
    }
    t
};

/// The cells completing a line for `mine` on a board where `theirs` is the
/// opponent's: empty third cells of lines holding two of mine and none of theirs.
#[inline]
pub(crate) fn threats(mine: u16, theirs: u16) -> u16 {
    let mut lines = LINE_TABLES.two[usize::from(mine)] & !LINE_TABLES.touch[usize::from(theirs)];
    let mut out = 0;
    while lines != 0 {
        out |= crate::lines::LINE_MASKS[lines.trailing_zeros() as usize];
        lines &= lines - 1;
    }
    out & !mine & !theirs & crate::lines::FULL
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::lines::{completing_cells, FULL};

    #[test]
    fn threats_agree_with_completing_cells() {
        for mine in 0u16..512 {
            for theirs in (0u16..512).step_by(7) {
                if mine & theirs != 0 {
                    continue;
                }
                assert_eq!(
                    threats(mine, theirs),
                    completing_cells(mine, FULL & !mine & !theirs),
                    "{mine:09b} {theirs:09b}"
                );
            }
        }
    }
}
