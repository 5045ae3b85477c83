//! What the load and fault clients share: a seeded source of variety for
//! their random moves and pauses.

/// A small, fast, seeded generator (xorshift64): the test clients need
/// variety, not quality.
pub struct Dice(u64);

impl Dice {
    /// A generator from `seed` (any value).
    pub fn new(seed: u64) -> Dice {
        Dice(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    /// The next number.
    pub fn roll(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// One of `items`, or `None` when there are none.
    pub fn choose<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        let index = usize::try_from(self.roll() % items.len().max(1) as u64).ok()?;
        items.get(index).copied()
    }
}
