//! The eight lines of a 3x3 board and the precomputed tables that make
//! "is there a line?" a single lookup on a 9-bit mask.
//!
//! Cells are numbered 0 to 8 in reading order (0 top-left, 4 centre,
//! 8 bottom-right); bit `i` of a mask is cell `i`. The same numbering is used
//! for the cells of a small board and for the small boards of the big board.

/// A mask with all nine cells set.
pub const FULL: u16 = 0x1FF;

/// The eight lines of three, each as its three cells: rows, columns, then
/// the two diagonals.
pub const LINES: [[u8; 3]; 8] = [
    [0, 1, 2],
    [3, 4, 5],
    [6, 7, 8],
    [0, 3, 6],
    [1, 4, 7],
    [2, 5, 8],
    [0, 4, 8],
    [2, 4, 6],
];

/// The eight lines as masks, in the order of [`LINES`].
pub const LINE_MASKS: [u16; 8] = {
    let mut masks = [0u16; 8];
    let mut i = 0;
    while i < 8 {
        masks[i] = (1 << LINES[i][0]) | (1 << LINES[i][1]) | (1 << LINES[i][2]);
        i += 1;
    }
    masks
};

/// For every 9-bit mask, one bit: whether it contains a full line.
/// 512 bits packed into eight words, so the table stays in one cache line pair.
const WIN_BITS: [u64; 8] = {
    let mut bits = [0u64; 8];
    let mut mask = 0usize;
    while mask < 512 {
        let mut l = 0;
        while l < 8 {
            let m = LINE_MASKS[l] as usize;
            if mask & m == m {
                bits[mask >> 6] |= 1 << (mask & 63);
            }
            l += 1;
        }
        mask += 1;
    }
    bits
};

/// Whether the 9-bit `mask` contains a line of three. Bits above 8 are ignored.
#[inline(always)]
#[must_use]
pub const fn has_line(mask: u16) -> bool {
    let m = (mask & FULL) as usize;
    (WIN_BITS[m >> 6] >> (m & 63)) & 1 != 0
}

/// For every 9-bit mask, its number of cells. The baseline x86-64 target has
/// no popcount instruction (`count_ones` becomes a dozen instructions there),
/// and hot loops count 9-bit masks, so one lookup is cheaper.
const CELL_COUNTS: [u8; 512] = {
    let mut counts = [0u8; 512];
    let mut mask = 0usize;
    while mask < 512 {
        counts[mask] = (mask as u16).count_ones() as u8;
        mask += 1;
    }
    counts
};

/// The number of cells in the 9-bit `mask` (bits above 8 are ignored).
#[inline(always)]
#[must_use]
pub const fn cell_count(mask: u16) -> u32 {
    CELL_COUNTS[(mask & FULL) as usize] as u32
}

/// The first line (in [`LINES`] order) fully inside `mask`, as its index.
#[must_use]
pub fn line_in(mask: u16) -> Option<usize> {
    LINE_MASKS.iter().position(|&l| mask & l == l)
}

/// For every 9-bit mask, the cells that would complete a line of three if
/// added to it, whether or not they are empty: the third cell of every line
/// holding exactly two of the mask's cells. A player's threats on a board are
/// `COMPLETING[mine] & empty` (see [`completing_cells`]).
pub const COMPLETING: [u16; 512] = {
    let mut table = [0u16; 512];
    let mut mask = 0usize;
    while mask < 512 {
        let mut l = 0;
        while l < 8 {
            let have = mask as u16 & LINE_MASKS[l];
            if have.count_ones() == 2 {
                table[mask] |= LINE_MASKS[l] & !have;
            }
            l += 1;
        }
        mask += 1;
    }
    table
};

/// The cells that would complete a line for a player holding `mine`, given
/// that `empty` cells are free: the player's immediate threats on one board.
#[inline]
#[must_use]
pub fn completing_cells(mine: u16, empty: u16) -> u16 {
    COMPLETING[usize::from(mine & FULL)] & empty
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tables_agree_with_a_direct_scan() {
        for mask in 0u16..512 {
            let direct = LINES
                .iter()
                .any(|c| c.iter().all(|&i| mask & (1 << i) != 0));
            assert_eq!(has_line(mask), direct, "mask {mask:#011b}");
            assert_eq!(line_in(mask).is_some(), direct);
            assert_eq!(cell_count(mask), mask.count_ones());
        }
    }

    #[test]
    fn completing_table_agrees_with_adding_each_cell() {
        for mask in 0u16..512 {
            for c in 0..9 {
                let bit = 1 << c;
                let completes = mask & bit == 0
                    && LINE_MASKS
                        .iter()
                        .any(|&l| l & bit != 0 && (mask | bit) & l == l);
                assert_eq!(COMPLETING[usize::from(mask)] & bit != 0, completes);
            }
        }
    }

    #[test]
    fn completing_cells_finds_threats() {
        // X on 0 and 1, 2 empty: 2 completes the top row.
        assert_eq!(completing_cells(0b11, FULL & !0b11), 1 << 2);
        // Blocked by the opponent: 2 not empty.
        assert_eq!(completing_cells(0b11, FULL & !0b111), 0);
    }
}
