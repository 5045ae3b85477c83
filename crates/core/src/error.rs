//! Why a move was refused.

use core::fmt;

use crate::notation::region_name;

/// The typed reason a move is illegal. The position is never changed by a
/// refused move.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum IllegalMove {
    /// The game has already ended.
    GameOver,
    /// The move is not in the small board the player was sent to.
    WrongBoard {
        /// The board (0-8, reading order) the player must play in.
        required: u8,
    },
    /// The cell already holds an X or an O.
    CellTaken,
    /// The small board is already won or drawn and takes no more moves.
    BoardDecided,
    /// The board or cell index is not in 0-8.
    OutOfRange,
}

impl fmt::Display for IllegalMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match *self {
            IllegalMove::GameOver => f.write_str("the game is over"),
            IllegalMove::WrongBoard { required } => write!(
                f,
                "the move must be in the {} board",
                region_name(required).unwrap_or("required")
            ),
            IllegalMove::CellTaken => f.write_str("that cell is already taken"),
            IllegalMove::BoardDecided => f.write_str("that board is already decided"),
            IllegalMove::OutOfRange => f.write_str("board and cell must each be 0 to 8"),
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for IllegalMove {}

/// A refused move together with the unchanged position, so that a checked
/// `play` that takes the position by value can hand it back.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PlayError<G> {
    /// Why the move was refused.
    pub reason: IllegalMove,
    /// The position, exactly as it was before the attempt.
    pub position: G,
}

impl<G> PlayError<G> {
    /// The position the move was tried on, unchanged.
    pub fn into_inner(self) -> G {
        self.position
    }
}

impl<G> fmt::Display for PlayError<G> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "illegal move: {}", self.reason)
    }
}

#[cfg(feature = "std")]
impl<G: fmt::Debug> std::error::Error for PlayError<G> {}
