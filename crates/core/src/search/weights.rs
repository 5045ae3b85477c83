//! The weights of the Ultimate evaluation, kept as a named vector so the
//! match runner can tune them by self-play.

use core::fmt;

/// How many weights there are.
pub const WEIGHT_COUNT: usize = 16;

/// How many weight units make one unit of the evaluation. The meta lines'
/// odds make a won board worth some 500 weight units in engine games;
/// dividing by this keeps the evaluation at its documented scale of about
/// 100 per won small board (which the evaluation bar, Medium's margin and
/// the aspiration window assume) while the weights keep a fine resolution.
pub const WEIGHT_UNITS: i32 = 5;

/// The weights of the Ultimate evaluation, indexed by the `W_*` constants,
/// in units of 1/[`WEIGHT_UNITS`] of the evaluation.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Weights(pub [i32; WEIGHT_COUNT]);

/// Each won small board.
pub const W_BOARD: usize = 0;
/// Extra for holding the centre board.
pub const W_BOARD_CENTRE: usize = 1;
/// Extra for each corner board held.
pub const W_BOARD_CORNER: usize = 2;
/// A meta line holding one of my boards and none of theirs (nor a draw).
pub const W_META_ONE: usize = 3;
/// A meta line holding two of my boards and an open third.
pub const W_META_TWO: usize = 4;
/// A meta two whose missing board I can win in one move there.
pub const W_META_LIVE: usize = 5;
/// Two in a line with the third cell empty, on an open small board.
pub const W_SMALL_TWO: usize = 6;
/// Extra per small two, per live meta line through its board.
pub const W_SMALL_TWO_IMP: usize = 7;
/// Holding the centre cell of an open small board.
pub const W_CELL_CENTRE: usize = 8;
/// Each corner cell held in an open small board.
pub const W_CELL_CORNER: usize = 9;
/// Extra per cell held in an open board, per live meta line through the board.
pub const W_CELL_IMP: usize = 10;
/// For the side to move: a free move (any open board).
pub const W_FREE_MOVE: usize = 11;
/// For the side to move: sent to a board it can win at once.
pub const W_SEND_WIN: usize = 12;
/// For the side to move: the initiative.
pub const W_TEMPO: usize = 13;
/// Each meta line, by the chance that a side wins all three of its boards
/// (the product of the boards' odds): a line of won boards counts in full.
pub const W_LINE_ODDS: usize = 14;
/// Under the tie-break rule only: each small board of the count (won boards
/// in full, open ones by their odds), by the chance that no meta line is
/// completed, so that the count decides the game.
pub const W_TB_COUNT: usize = 15;

/// The name of each weight, in index order (for the tuner and the CLI).
pub const WEIGHT_NAMES: [&str; WEIGHT_COUNT] = [
    "board",
    "board_centre",
    "board_corner",
    "meta_one",
    "meta_two",
    "meta_live",
    "small_two",
    "small_two_imp",
    "cell_centre",
    "cell_corner",
    "cell_imp",
    "free_move",
    "send_win",
    "tempo",
    "line_odds",
    "tb_count",
];

impl Weights {
    /// The weights the levels play with, chosen by self-play: SPSA runs of
    /// `uttt tune` from hand-set weights, `line_odds` set by hand and then
    /// re-tuned with the rest (the runs and their results are in
    /// `docs/engine.md`). `tb_count` is for the tie-break rule alone (the
    /// standard rules never read it): see `TB_COUNT`.
    pub const DEFAULT: Weights = Weights([
        57, 18, 9, 22, 97, 76, 12, 13, 1, 0, -5, 32, 46, 10, 1295, TB_COUNT,
    ]);

    /// Reads `name=value` pairs separated by commas over the defaults,
    /// e.g. `board=120,free_move=30`.
    ///
    /// # Errors
    /// The first pair that names no weight or has no integer value.
    pub fn parse(text: &str) -> Result<Weights, &str> {
        let mut w = Weights::DEFAULT;
        for pair in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
            let (name, value) = pair.split_once('=').ok_or(pair)?;
            let i = WEIGHT_NAMES
                .iter()
                .position(|n| *n == name.trim())
                .ok_or(pair)?;
            w.0[i] = value.trim().parse().map_err(|_| pair)?;
        }
        Ok(w)
    }
}

/// The default of `tb_count`, per board of the count when no meta line can
/// be completed: the best of the values tried under the tie-break rule
/// (`docs/engine.md`).
pub const TB_COUNT: i32 = 500;

impl Default for Weights {
    fn default() -> Self {
        Weights::DEFAULT
    }
}

impl fmt::Display for Weights {
    /// The form [`Weights::parse`] reads.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for (i, (name, v)) in WEIGHT_NAMES.iter().zip(self.0).enumerate() {
            if i > 0 {
                f.write_str(",")?;
            }
            write!(f, "{name}={v}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn parse_round_trips_and_rejects_junk() {
        let w = Weights::parse("board=120, tempo=-3").unwrap();
        assert_eq!(w.0[W_BOARD], 120);
        assert_eq!(w.0[W_TEMPO], -3);
        assert_eq!(Weights::parse(&w.to_string()), Ok(w));
        assert_eq!(Weights::parse("nope=1"), Err("nope=1"));
        assert_eq!(Weights::parse("board=x"), Err("board=x"));
        assert_eq!(Weights::parse("board"), Err("board"));
    }
}
