//! Late move reductions: how many plies shallower a late move is searched
//! first, from the remaining depth and the move's place in the ordering.
//!
//! The reduction grows with the logarithm of both, as in most modern
//! alpha-beta engines: `0.5 + ln(depth) * ln(place + 1) / 2.25`, rounded
//! down. Shallow nodes keep a reduction of one ply; deep nodes cut their
//! late moves by three or four, which is where a longer search gains depth.

use crate::movelist::MAX_MOVES;

/// Fixed-point scale of [`LN`]: ln(n) is stored as ln(n) * 2^12, fine enough
/// that no reduction differs from the one computed in floating point.
const LN_SHIFT: u32 = 12;

/// ln(n) * 2^12 for n in 0..=MAX_MOVES (0 for n = 0), rounded.
const LN: [u32; MAX_MOVES + 1] = {
    let mut t = [0u32; MAX_MOVES + 1];
    let mut n = 1;
    while n <= MAX_MOVES {
        t[n] = (ln(n as f64) * (1 << LN_SHIFT) as f64 + 0.5) as u32;
        n += 1;
    }
    t
};

/// The natural logarithm for `x >= 1`, at compile time (`core` has no
/// `f64::ln`): ln x = 2 atanh(y) with y = (x - 1) / (x + 1), summed as
/// 2 (y + y^3/3 + y^5/5 + ...). For x <= 81, y^2 < 0.952, so 400 terms leave
/// an error far below the table's resolution.
const fn ln(x: f64) -> f64 {
    let y = (x - 1.0) / (x + 1.0);
    let y2 = y * y;
    let (mut term, mut sum, mut k, mut i) = (y, 0.0, 1.0, 0);
    while i < 400 {
        sum += term / k;
        term *= y2;
        k += 2.0;
        i += 1;
    }
    2.0 * sum
}

/// The reduction of the move at `place` (0 = first searched) in a node of
/// `depth` plies: at least 1, and it always leaves at least one ply. Depths
/// past [`MAX_MOVES`] (never reached in practice) use its logarithm.
/// Callers reduce only from depth 3 and the third move.
#[inline]
pub(super) fn late_move_reduction(depth: i32, place: usize) -> i32 {
    // 2.25 and 0.5 in the scale of a product of two LN entries.
    const DIVISOR: u32 = 9 << (2 * LN_SHIFT - 2);
    const HALF: u32 = DIVISOR / 2;
    let d = LN[(depth.max(1) as usize).min(MAX_MOVES)];
    let p = LN[(place + 1).min(MAX_MOVES)];
    let r = ((d * p + HALF) / DIVISOR) as i32;
    r.clamp(1, (depth - 2).max(1))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn logarithms_are_accurate() {
        // ln 2, ln 10 and ln 81 to the table's resolution.
        assert_eq!(LN[1], 0);
        assert_eq!(LN[2], 2839);
        assert_eq!(LN[10], 9431);
        assert_eq!(LN[81], 18000);
    }

    #[test]
    fn fixed_point_agrees_with_floating_point() {
        for depth in 3..96i32 {
            for place in 3..MAX_MOVES {
                let d = f64::from(depth.min(MAX_MOVES as i32));
                let exact = 0.5 + d.ln() * ((place + 1) as f64).ln() / 2.25;
                let want = (exact as i32).clamp(1, depth - 2);
                assert_eq!(late_move_reduction(depth, place), want, "{depth} {place}");
            }
        }
    }

    #[test]
    fn reductions_grow_with_depth_and_place() {
        // Shallow nodes and early moves: one ply, never the whole depth.
        assert_eq!(late_move_reduction(3, 3), 1);
        assert_eq!(late_move_reduction(3, 80), 1);
        assert_eq!(late_move_reduction(5, 3), 1);
        // 0.5 + ln 9 ln 9 / 2.25 = 2.6; 0.5 + ln 16 ln 21 / 2.25 = 4.3.
        assert_eq!(late_move_reduction(9, 8), 2);
        assert_eq!(late_move_reduction(16, 20), 4);
        for depth in 3..90 {
            for place in 3..MAX_MOVES {
                let r = late_move_reduction(depth, place);
                assert!(r >= 1 && r <= (depth - 2).max(1), "{depth} {place}");
                assert!(r >= late_move_reduction(depth - 1, place));
                assert!(r >= late_move_reduction(depth, place - 1));
            }
        }
    }
}
