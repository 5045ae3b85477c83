//! A game's history: the moves played, a cursor for undo and redo, and the
//! position after every move so that stepping back is exact and instant.

use alloc::vec;
use alloc::vec::Vec;

use crate::{Game, IllegalMove};

/// A game record with undo and redo.
///
/// Holds the starting position, every move, and the position after each
/// move. The cursor says how many moves are "on the board": undo moves it
/// back, redo forward, and playing a new move from an earlier point drops the
/// moves after it (unless it is the same move as the next one, which is kept
/// as a redo).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct History<G: Game> {
    moves: Vec<G::Move>,
    /// `positions[i]` is the position after the first `i` moves.
    positions: Vec<G>,
    cursor: usize,
}

impl<G: Game> History<G> {
    /// A history that starts at `start` with no moves.
    #[must_use]
    pub fn new(start: G) -> Self {
        History {
            moves: Vec::new(),
            positions: vec![start],
            cursor: 0,
        }
    }

    /// Replays `moves` from `start`, leaving the cursor at the end.
    ///
    /// # Errors
    /// The index of the first illegal move and why it is illegal.
    pub fn from_moves(start: G, moves: &[G::Move]) -> Result<Self, (usize, IllegalMove)> {
        let mut history = History::new(start);
        for (i, &m) in moves.iter().enumerate() {
            history.play(m).map_err(|e| (i, e))?;
        }
        Ok(history)
    }

    /// The position at the cursor.
    #[must_use]
    pub fn current(&self) -> &G {
        &self.positions[self.cursor]
    }

    /// The position the history starts from.
    #[must_use]
    pub fn start(&self) -> &G {
        &self.positions[0]
    }

    /// Every move recorded, including those after the cursor.
    #[must_use]
    pub fn moves(&self) -> &[G::Move] {
        &self.moves
    }

    /// How many moves are on the board (0 at the start).
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.cursor
    }

    /// How many moves are recorded in all.
    #[must_use]
    pub fn len(&self) -> usize {
        self.moves.len()
    }

    /// True when no move is recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.moves.is_empty()
    }

    /// The position after the first `ply` moves, if that many are recorded.
    #[must_use]
    pub fn position_at(&self, ply: usize) -> Option<&G> {
        self.positions.get(ply)
    }

    /// Plays `m` at the cursor. Moves after the cursor are dropped, unless `m`
    /// is the next of them, in which case this is a redo.
    ///
    /// # Errors
    /// Why `m` is illegal; nothing changes.
    pub fn play(&mut self, m: G::Move) -> Result<(), IllegalMove> {
        let mut next = *self.current();
        next.try_play(m)?;
        if self.moves.get(self.cursor) == Some(&m) {
            self.cursor += 1;
            return Ok(());
        }
        self.moves.truncate(self.cursor);
        self.positions.truncate(self.cursor + 1);
        self.moves.push(m);
        self.positions.push(next);
        self.cursor += 1;
        Ok(())
    }

    /// Whether there is a move to take back.
    #[must_use]
    pub fn can_undo(&self) -> bool {
        self.cursor > 0
    }

    /// Whether there is a taken-back move to replay.
    #[must_use]
    pub fn can_redo(&self) -> bool {
        self.cursor < self.moves.len()
    }

    /// Takes back the last move on the board; returns it, or `None` at the start.
    pub fn undo(&mut self) -> Option<G::Move> {
        if self.cursor == 0 {
            return None;
        }
        self.cursor -= 1;
        Some(self.moves[self.cursor])
    }

    /// Replays the next taken-back move; returns it, or `None` at the end.
    pub fn redo(&mut self) -> Option<G::Move> {
        let m = *self.moves.get(self.cursor)?;
        self.cursor += 1;
        Some(m)
    }

    /// Moves the cursor to `ply` (0 to [`History::len`]).
    /// Returns false, changing nothing, when `ply` is past the end.
    pub fn jump(&mut self, ply: usize) -> bool {
        if ply > self.moves.len() {
            return false;
        }
        self.cursor = ply;
        true
    }

    /// Drops every move after the cursor.
    pub fn truncate(&mut self) {
        self.moves.truncate(self.cursor);
        self.positions.truncate(self.cursor + 1);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Move, Rules, Ultimate};

    #[test]
    fn undo_redo_and_branching() {
        let mut h = History::new(Ultimate::new(Rules::Standard));
        let a = Move::new(4, 4);
        let b = Move::new(4, 0);
        h.play(a).unwrap();
        h.play(b).unwrap();
        let after_two = *h.current();
        assert_eq!(h.undo(), Some(b));
        assert_eq!(h.current(), h.position_at(1).unwrap());
        assert_eq!(h.redo(), Some(b));
        assert_eq!(*h.current(), after_two);
        assert_eq!(h.redo(), None);
        // Play the same move as the redo: the tail is kept.
        h.jump(1);
        h.play(b).unwrap();
        assert_eq!(h.len(), 2);
        // A different move drops the tail.
        h.jump(1);
        h.play(Move::new(4, 8)).unwrap();
        assert_eq!(h.len(), 2);
        assert_eq!(h.moves()[1], Move::new(4, 8));
        // An illegal move changes nothing.
        let before = h.clone();
        assert!(h.play(Move::new(0, 0)).is_err());
        assert_eq!(h, before);
        assert!(!h.jump(3));
    }
}
