//! The one trait both game types implement, so the search, perft and history
//! are written once.

use core::fmt::{Debug, Display};
use core::hash::Hash;

use crate::notation::ParseError;
use crate::{IllegalMove, MoveList, Outcome, PlayError, Player, Rules};

/// Which game a position or record belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum GameKind {
    /// Nine small boards in a 3x3 grid.
    Ultimate,
    /// One 3x3 board.
    Classic,
}

/// A position of a two-player, alternating-move game on 3x3 boards.
///
/// Positions are small `Copy` values; the search copies a position to make
/// a move rather than undoing it.
pub trait Game: Clone + Copy + Debug + Eq + Hash + Sized + 'static {
    /// A move of this game; `Display` writes it in the documented notation.
    type Move: Copy + Debug + Default + Display + Eq + Hash;

    /// Which game this is.
    const KIND: GameKind;

    /// The longest possible game, in plies.
    const MAX_PLIES: usize;

    /// The empty board. Classic ignores `rules`: it has no tie-break.
    fn start(rules: Rules) -> Self;

    /// The rule set the game is played under (always standard for Classic).
    fn rules(&self) -> Rules;

    /// A move in range as one byte (Ultimate: `board * 9 + cell`, Classic:
    /// the cell), for compact storage such as [`crate::tree`]'s.
    fn move_code(m: Self::Move) -> u8;

    /// The move [`Game::move_code`] stored as `code`.
    fn move_from_code(code: u8) -> Self::Move;

    /// The move at `cell` (0-8) of small board `board` (0-8; Classic has
    /// board 0 alone), or `None` when there is no such board or cell: how
    /// the page, the server and the protocol address a move in either game.
    fn move_at(board: u8, cell: u8) -> Option<Self::Move>;

    /// The small board and cell of a move (Classic: board 0), the inverse
    /// of [`Game::move_at`].
    fn board_and_cell(m: Self::Move) -> (u8, u8);

    /// Reads a move in this game's notation (see [`crate::notation`]).
    ///
    /// # Errors
    /// Where and why the text is not a move.
    fn parse_move(text: &str) -> Result<Self::Move, ParseError>;

    /// The player whose turn it is (also when the game is over: the player who
    /// would move next).
    fn side_to_move(&self) -> Player;

    /// The number of moves played from the empty board.
    fn ply(&self) -> usize;

    /// The move that led here, if it is known.
    fn last_move(&self) -> Option<Self::Move>;

    /// Every legal move; empty once the game is over.
    fn legal_moves(&self) -> MoveList<Self::Move>;

    /// The number of legal moves, without listing them (bulk counting in perft).
    fn legal_move_count(&self) -> u32;

    /// Perft to depth 2 from here: for every legal move, the number of legal
    /// replies after it, summed (a move that ends the game adds nothing).
    ///
    /// The default plays each move; [`crate::Ultimate`] counts the replies
    /// from the move alone, without making it, which is what makes its perft
    /// fast. Tests check the two agree.
    fn count_replies(&self) -> u64 {
        self.legal_moves()
            .iter()
            .map(|&m| {
                let mut next = *self;
                next.play_unchecked(m);
                u64::from(next.legal_move_count())
            })
            .sum()
    }

    /// Perft to depth 3 from here: [`Game::count_replies`] after every legal
    /// move, summed. The default plays each move; [`crate::Ultimate`] counts
    /// without making any of the three plies.
    fn count_three_plies(&self) -> u64 {
        self.legal_moves()
            .iter()
            .map(|&m| {
                let mut next = *self;
                next.play_unchecked(m);
                next.count_replies()
            })
            .sum()
    }

    /// Checks a move without playing it.
    ///
    /// # Errors
    /// The reason the move is illegal in this position.
    fn check(&self, m: Self::Move) -> Result<(), IllegalMove>;

    /// Plays a move that is known to be legal.
    ///
    /// # Panics
    /// May panic, or leave a position that breaks the rules, when `m` is not
    /// in [`Game::legal_moves`]. The search only passes generated moves.
    fn play_unchecked(&mut self, m: Self::Move);

    /// The result once the game is over, `None` while it goes on.
    fn outcome(&self) -> Option<Outcome>;

    /// A 64-bit Zobrist hash of everything that decides the future of the
    /// game: the pieces, the side to move and where the next move must go.
    fn hash(&self) -> u64;

    /// Plays a move after checking it.
    ///
    /// # Errors
    /// A [`PlayError`] with the reason and the unchanged position.
    fn play(mut self, m: Self::Move) -> Result<Self, PlayError<Self>> {
        match self.check(m) {
            Ok(()) => {
                self.play_unchecked(m);
                Ok(self)
            }
            Err(reason) => Err(PlayError {
                reason,
                position: self,
            }),
        }
    }

    /// Plays a move in place after checking it; on error `self` is unchanged.
    ///
    /// # Errors
    /// The reason the move is illegal.
    fn try_play(&mut self, m: Self::Move) -> Result<(), IllegalMove> {
        self.check(m)?;
        self.play_unchecked(m);
        Ok(())
    }

    /// True once the game has ended.
    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
}
