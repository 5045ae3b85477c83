//! What the alpha-beta search reads and learns, kept by the [`Engine`]
//! from one search to the next: the evaluation's weights and odds, the
//! switches of the search's parts, the transposition table and the
//! move-ordering tables. The engine owns it; each search borrows it
//! (`alphabeta.rs`).
//!
//! [`Engine`]: super::Engine

use super::board_odds::BoardOdds;
use super::eval::MAX_PLY;
use super::tt::Table;
use super::weights::Weights;
use crate::movelist::MAX_MOVES;

/// Switches for parts of the search, all on by default: for measuring what
/// each is worth in matches (`uttt match hard@lmr=0 hard`), not for play.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct SearchOptions {
    /// Late move reductions.
    pub lmr: bool,
    /// Late move pruning: near the horizon, late quiet moves are skipped.
    pub lmp: bool,
    /// Singular extensions of the table's move.
    pub singular: bool,
    /// Aspiration windows around the previous depth's score.
    pub aspiration: bool,
    /// Score positions that can only end in a draw as drawn at once.
    pub dead_draws: bool,
    /// Follow board-winning moves past the horizon.
    pub quiescence: bool,
    /// How much worse than nothing a draw is for the side to move at the
    /// root (and better for its opponent), in score units (about 100 a
    /// small board): above 0 the engine plays on for a win rather than
    /// settle for a draw. 0, an even draw, by default.
    pub contempt: i32,
    /// Order the quiet moves that hand the opponent a free move (in
    /// Ultimate, that send it to a decided board) after the others.
    pub free_moves_last: bool,
    /// Internal iterative reductions: a node whose table entry has no move
    /// is searched a ply shallower.
    pub iir: bool,
}

impl Default for SearchOptions {
    fn default() -> Self {
        SearchOptions {
            lmr: true,
            lmp: true,
            singular: true,
            aspiration: true,
            dead_draws: true,
            quiescence: true,
            contempt: 0,
            free_moves_last: true,
            iir: true,
        }
    }
}

/// The ceiling of a history score.
pub(super) const HISTORY_MAX: u32 = 1 << 20;

/// See the module's doc.
pub(super) struct Tables {
    pub weights: Weights,
    pub odds: BoardOdds,
    pub options: SearchOptions,
    pub tt: Table,
    /// Per side, per move index: how often the move caused a cutoff,
    /// weighted by depth squared, at most [`HISTORY_MAX`].
    pub history: [[u32; 81]; 2],
    /// Per ply, two quiet moves that recently caused a cutoff.
    pub killers: [[u8; 2]; MAX_PLY],
    /// Per ply, the move-ordering keys of the node being searched there.
    /// Kept here rather than made in every node: zeroing a fresh array per
    /// node is a measurable part of the search's time.
    pub order: [[u32; MAX_MOVES]; MAX_PLY],
    /// Triangular principal-variation table of move indexes.
    pub pv: [[u8; MAX_PLY]; MAX_PLY],
    pub pv_len: [usize; MAX_PLY],
}

impl Tables {
    /// Fresh tables around the transposition table `tt`, with the default
    /// weights and every part of the search on.
    pub fn new(tt: Table) -> Tables {
        Tables {
            weights: Weights::DEFAULT,
            odds: BoardOdds::new(),
            options: SearchOptions::default(),
            tt,
            history: [[0; 81]; 2],
            killers: [[u8::MAX; 2]; MAX_PLY],
            order: [[0; MAX_MOVES]; MAX_PLY],
            pv: [[0; MAX_PLY]; MAX_PLY],
            pv_len: [0; MAX_PLY],
        }
    }
}
