//! A tiny seeded random source (SplitMix64). The crate has no randomness of
//! its own: the caller supplies the seed, so every choice is reproducible.

/// SplitMix64: 64 bits of state, passes BigCrush, one multiply-xorshift per call.
#[derive(Clone, Debug)]
pub struct Rng(u64);

impl Rng {
    /// A generator started from `seed` (any value, including 0).
    #[must_use]
    pub const fn new(seed: u64) -> Rng {
        Rng(seed)
    }

    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// A value in `0..n` (`n` > 0), by multiply-shift so it has no modulo bias
    /// worth mentioning for the small `n` used here.
    pub fn below(&mut self, n: usize) -> usize {
        debug_assert!(n > 0);
        ((u128::from(self.next_u64()) * n as u128) >> 64) as usize
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn same_seed_same_stream_and_values_in_range() {
        let mut a = Rng::new(7);
        let mut b = Rng::new(7);
        let mut c = Rng::new(8);
        let mut differs = false;
        let mut seen = [false; 5];
        for _ in 0..1000 {
            let x = a.next_u64();
            assert_eq!(x, b.next_u64());
            differs |= x != c.next_u64();
            let k = a.below(5);
            b.below(5);
            seen[k] = true;
        }
        assert!(differs);
        assert!(seen.iter().all(|&s| s), "every value of 0..5 appears");
    }
}
