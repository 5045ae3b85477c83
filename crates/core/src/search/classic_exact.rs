//! Classic solved exactly: the value of every position ([`ClassicValues`]),
//! and the trap player built on it ([`Trap`]), the match runner's sparring
//! partner for Classic (`uttt match medium trap --game classic`) and the
//! opponent the search's tests hold every level against. Not a level.
//!
//! The trap player never loses a game that can be held and never lets a
//! win go. Among the moves that keep its best result it plays the one that
//! leaves the opponent the most traps: replies that throw the game away
//! without giving a win at once (a missed block is no trap: every level
//! blocks). Ties go at random by its seed. As X that is a corner first
//! (seven of O's eight replies lose), and against the centre reply the
//! opposite corner or a far edge (two of O's replies then lose to a fork).
//! A level that falls for these traps loses to it; a level that never does
//! draws every game.

use alloc::vec::Vec;

use super::Rng;
use crate::{Classic, ClassicMove, Game, Outcome, Player};

/// A game result for the side to move, in plies: `10 - n` for a win in `n`
/// plies, `-(10 - n)` for a loss in `n`, 0 for a draw. A faster win scores
/// higher, a slower loss less low; Classic ends within 9 plies.
pub type Value = i8;

/// The value of a win with the next move.
pub const WIN_IN_ONE: Value = 9;

/// Exact Classic values by position, computed on first use and kept (a
/// table over X's cells and O's shifted by 9: 2^18 entries, 512 KiB).
pub struct ClassicValues(Vec<Option<Value>>);

impl Default for ClassicValues {
    fn default() -> Self {
        Self::new()
    }
}

impl ClassicValues {
    /// An empty table.
    #[must_use]
    pub fn new() -> ClassicValues {
        ClassicValues(alloc::vec![None; 1 << 18])
    }

    /// The exact value of `pos` for the side to move.
    pub fn value(&mut self, pos: &Classic) -> Value {
        let key = usize::from(pos.cells(Player::X)) | usize::from(pos.cells(Player::O)) << 9;
        if let Some(v) = self.0[key] {
            return v;
        }
        let v = match pos.outcome() {
            Some(Outcome::Win(p)) if p == pos.side_to_move() => 10,
            Some(Outcome::Win(_)) => -10,
            Some(Outcome::Draw) => 0,
            None => pos
                .legal_moves()
                .iter()
                .map(|&m| self.value_of(pos, m))
                .max()
                .unwrap_or(0),
        };
        self.0[key] = Some(v);
        v
    }

    /// The exact value of playing `m` in `pos`, for the side that plays it.
    pub fn value_of(&mut self, pos: &Classic, m: ClassicMove) -> Value {
        let mut child = *pos;
        child.play_unchecked(m);
        // One ply further from the end than the reply's value.
        let v = -self.value(&child);
        v - v.signum()
    }

    /// Whether `m` throws away the result of `pos` (a loss rather than a
    /// draw, a draw rather than a win).
    pub fn is_mistake(&mut self, pos: &Classic, m: ClassicMove) -> bool {
        self.value_of(pos, m).signum() < self.value(pos).signum()
    }
}

/// The trap player; see the module documentation.
pub struct Trap {
    rng: Rng,
    values: ClassicValues,
}

impl Trap {
    /// A trap player whose ties are broken by `seed`.
    #[must_use]
    pub fn new(seed: u64) -> Trap {
        Trap {
            rng: Rng::new(seed),
            values: ClassicValues::new(),
        }
    }

    /// The move to play, `None` once the game is over.
    pub fn choose(&mut self, pos: &Classic) -> Option<ClassicMove> {
        let moves = pos.legal_moves();
        let best = moves.iter().map(|&m| self.values.value_of(pos, m)).max()?;
        let keep: Vec<ClassicMove> = moves
            .iter()
            .copied()
            .filter(|&m| self.values.value_of(pos, m) == best)
            .collect();
        let most = keep.iter().map(|&m| self.traps(pos, m)).max()?;
        let traps: Vec<ClassicMove> = keep
            .into_iter()
            .filter(|&m| self.traps(pos, m) == most)
            .collect();
        Some(traps[self.rng.below(traps.len())])
    }

    /// How many of the opponent's replies to `m` are traps: mistakes that do
    /// not give away a win at once. Not blocking a line is a mistake every
    /// level sees; walking into a fork two moves later is the trap.
    fn traps(&mut self, pos: &Classic, m: ClassicMove) -> usize {
        let mut child = *pos;
        child.play_unchecked(m);
        child
            .legal_moves()
            .iter()
            .filter(|&&r| {
                let mut after = child;
                after.play_unchecked(r);
                self.values.is_mistake(&child, r) && self.values.value(&after) != WIN_IN_ONE
            })
            .count()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(cells: &[u8]) -> Classic {
        cells
            .iter()
            .fold(Classic::new(), |p, &c| p.play(ClassicMove(c)).unwrap())
    }

    /// Whether some sequence of replies beats `trap` playing `side`.
    fn beaten(trap: &mut Trap, pos: Classic, side: Player) -> bool {
        match pos.outcome() {
            Some(Outcome::Win(p)) => return p != side,
            Some(Outcome::Draw) => return false,
            None => {}
        }
        if pos.side_to_move() == side {
            let m = trap.choose(&pos).unwrap();
            beaten(trap, pos.play(m).unwrap(), side)
        } else {
            pos.legal_moves()
                .iter()
                .any(|&m| beaten(trap, pos.play(m).unwrap(), side))
        }
    }

    #[test]
    fn values_are_exact() {
        let mut v = ClassicValues::new();
        assert_eq!(v.value(&Classic::new()), 0);
        // X 0 and 4, O 1: X wins at 8 next move.
        assert_eq!(v.value(&play(&[0, 1, 4, 2])), WIN_IN_ONE);
        // O answers the corner with an edge: lost, X wins in 5 plies.
        assert_eq!(v.value(&play(&[0, 1])), 5);
        assert_eq!(v.value(&play(&[0, 4])), 0);
        assert!(v.is_mistake(&play(&[0]), ClassicMove(1)));
        assert!(!v.is_mistake(&play(&[0]), ClassicMove(4)));
    }

    #[test]
    fn never_loses_and_sets_the_corner_traps() {
        for seed in 0..4 {
            let mut t = Trap::new(seed);
            assert!(!beaten(&mut t, Classic::new(), Player::X), "seed {seed}");
            assert!(!beaten(&mut t, Classic::new(), Player::O), "seed {seed}");
            // A corner first. Against the centre, the opposite corner or
            // a far edge: two of O's replies then walk into a fork.
            let first = t.choose(&Classic::new()).unwrap().0;
            assert!([0, 2, 6, 8].contains(&first), "{first}");
            let second = t.choose(&play(&[0, 4])).unwrap().0;
            assert!([5, 7, 8].contains(&second), "{second}");
            assert_eq!(t.traps(&play(&[0, 4]), ClassicMove(second)), 2);
            // As O against the centre: a corner, the only moves that hold.
            let reply = t.choose(&play(&[4])).unwrap().0;
            assert!([0, 2, 6, 8].contains(&reply), "{reply}");
            // A won game is won as fast as possible.
            assert_eq!(t.choose(&play(&[0, 1, 4, 2])), Some(ClassicMove(8)));
        }
    }
}
