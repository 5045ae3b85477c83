//! How likely each side is to win a small board from its current cells,
//! precomputed for all 3^9 fillings, for the evaluation's meta lines.
//!
//! In Ultimate a player cannot choose which small board to play in, nor who
//! plays there next, so the odds assume nobody chooses: each remaining move
//! goes to X or O by a fair coin, on an empty cell drawn uniformly. The
//! resulting chances rank the boards sensibly (a board with a two-in-a-row
//! and an open third is likely won, one where every line is blocked is worth
//! nothing to anyone) and, multiplied along a meta line, say how close a line
//! of boards is to being completed.

use crate::lines::{has_line, FULL};
use alloc::boxed::Box;

/// The number of fillings of a small board: each cell empty, X or O.
const STATES: usize = 19_683;

/// For every 9-bit mask, the base-3 number with a digit 1 for each cell in
/// it, so that a board's state index is `TERNARY[x] + 2 * TERNARY[o]`.
pub(crate) const TERNARY: [u16; 512] = {
    let mut t = [0u16; 512];
    let mut m = 0;
    while m < 512 {
        let mut pow = 1u16;
        let mut i = 0;
        while i < 9 {
            if m >> i & 1 == 1 {
                t[m] += pow;
            }
            pow *= 3;
            i += 1;
        }
        m += 1;
    }
    t
};

/// The chance of a board already won, the unit of [`BoardOdds`].
pub(crate) const CERTAIN: u32 = 255;

/// The state index of a board holding `x` for X and `o` for O.
#[inline(always)]
pub(crate) fn state(x: u16, o: u16) -> usize {
    usize::from(TERNARY[usize::from(x)]) + 2 * usize::from(TERNARY[usize::from(o)])
}

/// The chance that X and that O wins a small board (out of 255), for every
/// filling: 255/0 for a board X has won, 0/0 for one nobody can win.
///
/// Built when an engine is made (1.2 ms natively) rather than stored in
/// the program: as a constant it was 39 KB of the game's wasm.
pub struct BoardOdds(Box<[[u8; 2]]>);

impl BoardOdds {
    /// Computes the table. Placing a mark raises a state's index, so walking
    /// the indexes downwards meets every state after all the states it
    /// leads to.
    #[must_use]
    pub fn new() -> BoardOdds {
        let mut p = alloc::vec![[0f64; 2]; STATES];
        let mut out = alloc::vec![[0u8; 2]; STATES];
        for s in (0..STATES).rev() {
            let (mut x, mut o, mut rest) = (0u16, 0u16, s);
            for i in 0..9 {
                match rest % 3 {
                    1 => x |= 1 << i,
                    2 => o |= 1 << i,
                    _ => {}
                }
                rest /= 3;
            }
            let v = if has_line(x) {
                [1.0, 0.0]
            } else if has_line(o) {
                [0.0, 1.0]
            } else if x | o == FULL {
                [0.0, 0.0]
            } else {
                let (mut sum, mut n, mut pow) = ([0.0, 0.0], 0.0, 1);
                for i in 0..9 {
                    if (x | o) >> i & 1 == 0 {
                        let (by_x, by_o) = (p[s + pow], p[s + 2 * pow]);
                        sum[0] += by_x[0] + by_o[0];
                        sum[1] += by_x[1] + by_o[1];
                        n += 2.0;
                    }
                    pow *= 3;
                }
                [sum[0] / n, sum[1] / n]
            };
            p[s] = v;
            // Both chances are in [0, 1], so the rounded values fit a u8.
            out[s] = [
                (v[0] * f64::from(CERTAIN) + 0.5) as u8,
                (v[1] * f64::from(CERTAIN) + 0.5) as u8,
            ];
        }
        BoardOdds(out.into_boxed_slice())
    }

    /// The chances of X and of O on a board holding `x` for X and `o` for O
    /// (disjoint 9-bit masks).
    #[inline(always)]
    #[must_use]
    pub fn of(&self, x: u16, o: u16) -> [u8; 2] {
        self.0[state(x, o)]
    }
}

impl Default for BoardOdds {
    fn default() -> BoardOdds {
        BoardOdds::new()
    }
}

impl core::fmt::Debug for BoardOdds {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("BoardOdds")
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn odds_of(x: u16, o: u16) -> [u8; 2] {
        BoardOdds::new().of(x, o)
    }

    #[test]
    fn decided_boards_are_certain_and_the_empty_board_is_even() {
        assert_eq!(odds_of(0b111, 0b1000), [255, 0]);
        assert_eq!(odds_of(0b1000, 0b111_000_000), [0, 255]);
        // A full board with no line: X 0,1,5,6,8; O 2,3,4,7.
        assert_eq!(odds_of(0b101_100_011, 0b010_011_100), [0, 0]);
        let [x, o] = odds_of(0, 0);
        assert_eq!(x, o);
        assert!(x > 50 && x < 128, "{x}");
    }

    #[test]
    fn odds_follow_the_threats() {
        // X holds 0 and 1 with 2 open: far better for X than the empty board.
        let [x, o] = odds_of(0b11, 0);
        assert!(x > 2 * o && x > odds_of(0, 0)[0], "{x} {o}");
        // Blocking the threat at 2 takes most of that away.
        assert!(odds_of(0b11, 0b100)[0] < x);
        // Swapping the sides swaps their odds.
        assert_eq!(odds_of(0b1_0001, 0b100), {
            let [a, b] = odds_of(0b100, 0b1_0001);
            [b, a]
        });
        // Nobody's chances exceed certainty together.
        for (s, &[x, o]) in BoardOdds::new().0.iter().enumerate() {
            assert!(u32::from(x) + u32::from(o) <= CERTAIN + 1, "state {s}");
        }
    }

    #[test]
    fn state_indexes_are_distinct_for_distinct_boards() {
        let mut seen = alloc::vec![false; STATES];
        for x in 0u16..512 {
            for o in 0u16..512 {
                if x & o == 0 {
                    let s = state(x, o);
                    assert!(!seen[s]);
                    seen[s] = true;
                }
            }
        }
        assert!(seen.iter().all(|&b| b));
    }
}
