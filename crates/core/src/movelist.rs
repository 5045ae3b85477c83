//! A fixed-capacity list of moves that lives on the stack.

use core::ops::Deref;

/// The most legal moves any position of either game has (an empty Ultimate
/// board has 81).
pub const MAX_MOVES: usize = 81;

/// Up to `MAX_MOVES` (81) moves without heap allocation, so move generation in
/// the search never allocates. Dereferences to a slice.
#[derive(Clone, Copy)]
pub struct MoveList<M> {
    moves: [M; MAX_MOVES],
    len: u8,
}

impl<M: Copy + Default> MoveList<M> {
    /// An empty list.
    #[inline]
    #[must_use]
    pub fn new() -> Self {
        MoveList {
            moves: [M::default(); MAX_MOVES],
            len: 0,
        }
    }

    /// Appends a move.
    ///
    /// # Panics
    /// If the list already holds `MAX_MOVES` (81) moves, which no position of
    /// either game can produce.
    #[inline]
    pub fn push(&mut self, m: M) {
        self.moves[usize::from(self.len)] = m;
        self.len += 1;
    }

    /// The moves as a mutable slice, for in-place ordering by the search.
    #[inline]
    pub fn as_mut_slice(&mut self) -> &mut [M] {
        &mut self.moves[..usize::from(self.len)]
    }
}

impl<M: Copy + Default> Default for MoveList<M> {
    fn default() -> Self {
        Self::new()
    }
}

impl<M> Deref for MoveList<M> {
    type Target = [M];
    #[inline]
    fn deref(&self) -> &[M] {
        &self.moves[..usize::from(self.len)]
    }
}

impl<M: core::fmt::Debug> core::fmt::Debug for MoveList<M> {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.debug_list().entries(self.iter()).finish()
    }
}
