//! The fixed search benchmark: its positions and engine settings, shared by
//! `uttt bench` (native) and the browser build's benchmark, so that both
//! search exactly the same trees and their node counts must agree.

use alloc::vec::Vec;

use super::{Engine, Level, Limits, Rng};
use crate::{Game, Rules, Ultimate};

/// The default search depth of the benchmark.
pub const DEPTH: u32 = 10;
/// The default number of positions.
pub const POSITIONS: usize = 16;
/// The default transposition table size, in MiB (Hard's preset).
pub const TABLE_MIB: usize = 16;

/// The bench positions: the same random games every time (a fixed seed),
/// cut between plies 14 and 40, when the game is still open.
#[must_use]
pub fn positions(n: usize) -> Vec<Ultimate> {
    let mut rng = Rng::new(0x000B_EAC4);
    let mut out = Vec::new();
    while out.len() < n {
        let target = 14 + rng.below(27);
        let mut pos = Ultimate::new(Rules::Standard);
        while pos.ply() < target && !pos.is_over() {
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

/// The benchmark's engine: Hard, seed 0, a table of `table_mib` MiB and a
/// fixed depth, so the tree depends on the code and never on a clock. Call
/// [`Engine::new_game`] before each position (outside any timing: it
/// clears the table) and then [`Engine::choose_within_limits`].
#[must_use]
pub fn engine(depth: u32, table_mib: usize) -> Engine {
    let mut engine = Engine::new(Level::Hard, 0, table_mib << 20);
    engine.set_limits(Limits {
        max_depth: depth,
        max_nodes: u64::MAX,
    });
    engine
}
