//! Zobrist keys, generated at compile time so the crate needs no randomness
//! source at run time and every build hashes identically.

/// SplitMix64: a tiny, well-mixed generator, good enough for hash keys.
const fn splitmix(state: u64) -> (u64, u64) {
    let state = state.wrapping_add(0x9E37_79B9_7F4A_7C15);
    let mut z = state;
    z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
    z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
    (state, z ^ (z >> 31))
}

const fn keys<const N: usize>(seed: u64) -> [u64; N] {
    let mut out = [0u64; N];
    let mut state = seed;
    let mut i = 0;
    while i < N {
        let (s, k) = splitmix(state);
        state = s;
        out[i] = k;
        i += 1;
    }
    out
}

/// One key per player per cell of the 9x9 grid, indexed `player * 81 + board * 9 + cell`.
pub(crate) const PIECE: [u64; 162] = keys(0x5EED_0001);
/// One key per "where must the next move go": boards 0-8, and 9 for any board.
pub(crate) const TARGET: [u64; 10] = keys(0x5EED_0002);
/// Xored in while O is to move.
pub(crate) const O_TO_MOVE: u64 = keys::<1>(0x5EED_0003)[0];
