//! Nine small counts in one `u64`: one 7-bit field per small board, board
//! `b` at bit `7 * b` (63 bits in all). Seven bits hold any sum of fields (at
//! most 81), so one multiplication adds them all up ([`field_sum`]) and one
//! table lookup selects any set of boards ([`FIELD_MASKS`]).

/// The width of a field.
pub(crate) const FIELD_BITS: u32 = 7;
/// A field's mask, at board 0.
pub(crate) const FIELD: u64 = 0x7F;
/// A 1 in the low bit of every field.
const FIELD_ONES: u64 = {
    let mut ones = 0;
    let mut b = 0;
    while b < 9 {
        ones |= 1 << (FIELD_BITS * b);
        b += 1;
    }
    ones
};
/// Nine counts of 9: the empty cells of an empty board.
pub(crate) const ALL_EMPTY: u64 = 9 * FIELD_ONES;

/// For every 9-bit set of boards, the mask of their fields.
pub(crate) const FIELD_MASKS: [u64; 512] = {
    let mut table = [0u64; 512];
    let mut set = 0;
    while set < 512 {
        let mut b = 0;
        while b < 9 {
            if set & (1 << b) != 0 {
                table[set] |= FIELD << (FIELD_BITS * b);
            }
            b += 1;
        }
        set += 1;
    }
    table
};

/// The sum of the nine fields: the multiplication adds every field into the
/// top one, and no partial sum carries out of its seven bits.
#[inline(always)]
pub(crate) const fn field_sum(packed: u64) -> u32 {
    ((packed.wrapping_mul(FIELD_ONES) >> (FIELD_BITS * 8)) & FIELD) as u32
}

/// The field of board `b`.
#[inline(always)]
pub(crate) const fn field(packed: u64, b: usize) -> u32 {
    ((packed >> (FIELD_BITS as usize * b)) & FIELD) as u32
}

/// `packed` with 1 taken from the field of board `b` (which must be > 0).
#[inline(always)]
pub(crate) const fn decrement(packed: u64, b: usize) -> u64 {
    packed - (1 << (FIELD_BITS as usize * b))
}

/// `packed` with the field of board `b` set to 0.
#[inline(always)]
pub(crate) const fn clear(packed: u64, b: usize) -> u64 {
    packed & !(FIELD << (FIELD_BITS as usize * b))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fields_sum_select_and_update() {
        let mut packed = 0;
        for b in 0..9 {
            packed |= (b as u64 + 1) << (FIELD_BITS as usize * b);
        }
        assert_eq!(field_sum(packed), 45);
        assert_eq!(field_sum(ALL_EMPTY), 81);
        for b in 0..9 {
            assert_eq!(field(packed, b), b as u32 + 1);
            assert_eq!(field_sum(clear(packed, b)), 45 - (b as u32 + 1));
            assert_eq!(field(decrement(packed, b), b), b as u32);
        }
        for (set, &mask) in FIELD_MASKS.iter().enumerate() {
            let want: u32 = (0..9).filter(|b| set & (1 << b) != 0).map(|b| b + 1).sum();
            assert_eq!(field_sum(packed & mask), want);
        }
    }
}
