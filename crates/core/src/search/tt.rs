//! The transposition table: a fixed-size, always-allocated hash table of
//! search results, sized by the caller.

use alloc::collections::TryReserveError;
use alloc::vec;
use alloc::vec::Vec;

use super::eval::{Eval, MAX_PLY};

/// How a stored score bounds the true value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Bound {
    /// The true value is at most the score (no move raised alpha).
    Upper = 1,
    /// The true value is at least the score (a move reached beta).
    Lower = 2,
    /// The score is exact.
    Exact = 3,
}

/// One slot: the full key to reject collisions, and the packed result.
#[derive(Clone, Copy, Default)]
struct Slot {
    key: u64,
    /// score (16 bits) | depth (8) | bound (2) | age (6) | move+1 (8).
    data: u64,
}

/// What a probe found.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Hit {
    /// The best move's dense index, if one was stored.
    pub mv: Option<u8>,
    pub depth: i32,
    pub bound: Bound,
    /// Already converted back to "distance from this node".
    pub score: i32,
}

/// Buckets of two slots: one kept by depth, one always replaced.
pub(crate) struct Table {
    slots: Vec<Slot>,
    mask: usize,
    age: u64,
}

impl Table {
    /// The number of slots of a table of at most `bytes` (at least two),
    /// rounded down to a power of two.
    fn slots_for(bytes: usize) -> usize {
        let want = (bytes / core::mem::size_of::<Slot>()).max(2);
        if want.is_power_of_two() {
            want
        } else {
            want.next_power_of_two() / 2
        }
    }

    /// A table using at most `bytes` (at least two slots), rounded down to a
    /// power of two.
    pub fn new(bytes: usize) -> Table {
        let n = Table::slots_for(bytes);
        Table {
            slots: vec![Slot::default(); n],
            mask: n / 2 - 1,
            age: 0,
        }
    }

    /// [`Table::new`], or an error when the memory cannot be had.
    pub fn try_new(bytes: usize) -> Result<Table, TryReserveError> {
        let n = Table::slots_for(bytes);
        let mut slots = Vec::new();
        slots.try_reserve_exact(n)?;
        slots.resize(n, Slot::default());
        Ok(Table {
            slots,
            mask: n / 2 - 1,
            age: 0,
        })
    }

    /// Forgets everything (a new game).
    pub fn clear(&mut self) {
        self.slots.fill(Slot::default());
        self.age = 0;
    }

    /// Marks later stores as newer, so entries of older searches are replaced
    /// first.
    pub fn next_age(&mut self) {
        self.age = (self.age + 1) & 63;
    }

    fn bucket(&self, key: u64) -> usize {
        (key as usize & self.mask) * 2
    }

    /// The stored result for `key`, with mate scores made relative to `ply`.
    pub fn probe(&self, key: u64, ply: usize) -> Option<Hit> {
        let b = self.bucket(key);
        let slot = self.slots[b..b + 2]
            .iter()
            .find(|s| s.key == key && s.data != 0)?;
        let d = slot.data;
        let mut score = i32::from(d as u16 as i16);
        if score >= Eval::MATE - MAX_PLY as i32 {
            score -= ply as i32;
        } else if score <= -(Eval::MATE - MAX_PLY as i32) {
            score += ply as i32;
        }
        let bound = match (d >> 24) & 3 {
            1 => Bound::Upper,
            2 => Bound::Lower,
            _ => Bound::Exact,
        };
        let mv = ((d >> 32) & 0xFF) as u8;
        Some(Hit {
            mv: mv.checked_sub(1),
            depth: i32::from((d >> 16) as u8),
            bound,
            score,
        })
    }

    /// Stores a result; mate scores are stored relative to this node.
    pub fn store(
        &mut self,
        key: u64,
        ply: usize,
        depth: i32,
        bound: Bound,
        score: i32,
        mv: Option<u8>,
    ) {
        let mut s = score;
        if s >= Eval::MATE - MAX_PLY as i32 {
            s += ply as i32;
        } else if s <= -(Eval::MATE - MAX_PLY as i32) {
            s -= ply as i32;
        }
        let depth = depth.clamp(0, 255) as u64;
        let data = u64::from(s as i16 as u16)
            | depth << 16
            | (bound as u64) << 24
            | self.age << 26
            | u64::from(mv.map_or(0, |m| m + 1)) << 32;
        let b = self.bucket(key);
        let first = self.slots[b];
        let first_age = (first.data >> 26) & 63;
        let first_depth = (first.data >> 16) & 0xFF;
        // The first slot keeps the deepest result of the current search; the
        // second takes everything else, so fresh results are never lost.
        let i =
            if first.key == key || first.data == 0 || first_age != self.age || depth >= first_depth
            {
                b
            } else {
                b + 1
            };
        // Keep a known best move when re-storing the same position without one.
        let data = if mv.is_none() && self.slots[i].key == key {
            data | (self.slots[i].data & (0xFF << 32))
        } else {
            data
        };
        self.slots[i] = Slot { key, data };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn stores_and_probes_with_mate_distance() {
        let mut t = Table::new(1 << 12);
        assert!(t.probe(42, 0).is_none());
        t.store(42, 3, 5, Bound::Lower, -17, Some(80));
        let h = t.probe(42, 7).unwrap();
        assert_eq!(
            (h.mv, h.depth, h.bound, h.score),
            (Some(80), 5, Bound::Lower, -17)
        );
        // A win 2 plies after a node at ply 3 is a win 2 plies after the same
        // node reached at ply 5.
        t.store(99, 3, 4, Bound::Exact, Eval::MATE - 5, None);
        let h = t.probe(99, 5).unwrap();
        assert_eq!(h.score, Eval::MATE - 7);
        assert_eq!(h.mv, None);
        t.store(99, 3, 6, Bound::Exact, -(Eval::MATE - 5), Some(0));
        assert_eq!(t.probe(99, 1).unwrap().score, -(Eval::MATE - 3));
        assert_eq!(t.probe(99, 1).unwrap().mv, Some(0));
        t.clear();
        assert!(t.probe(99, 1).is_none());
    }

    #[test]
    fn tiny_tables_still_work() {
        let mut t = Table::new(0);
        t.store(1, 0, 1, Bound::Exact, 5, Some(3));
        t.store(3, 0, 1, Bound::Exact, 6, Some(4));
        assert_eq!(t.probe(3, 0).unwrap().score, 6);
    }
}
