//! Either game behind one type.
//!
//! A record names its game, so whatever reads one holds an [`AnyGame`]: its
//! methods play, take back and answer for whichever game it holds (record.rs
//! adds reading and writing its text), and [`AnyGame::visit`] runs code
//! written once for both games (a [`Visit`]), so callers never match on the
//! game. This is the one place that does.

use alloc::vec::Vec;

use crate::search::Searchable;
use crate::{Classic, Game, GameKind, History, IllegalMove, Outcome, Player, Rules, Ultimate};

/// A game of either kind with its history, as read from a record or a
/// position string.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum AnyGame {
    /// An Ultimate game.
    Ultimate(History<Ultimate>),
    /// A Classic game.
    Classic(History<Classic>),
}

/// A game type an [`AnyGame`] holds: both are searchable, and hand a game
/// of theirs back as an `AnyGame`.
pub trait AnyKind: Searchable {
    /// `history` as a game of either kind.
    fn into_any(history: History<Self>) -> AnyGame;
}

impl AnyKind for Ultimate {
    fn into_any(history: History<Ultimate>) -> AnyGame {
        AnyGame::Ultimate(history)
    }
}

impl AnyKind for Classic {
    fn into_any(history: History<Classic>) -> AnyGame {
        AnyGame::Classic(history)
    }
}

/// Code written once for both games, which [`AnyGame::visit`] runs on the
/// history the game holds: the generic closure Rust does not have.
pub trait Visit {
    /// What the code returns.
    type Output;

    /// Runs the code on `history`.
    fn visit<G: AnyKind>(self, history: &History<G>) -> Self::Output;
}

impl AnyGame {
    /// A new game from the empty board. Classic ignores `rules`: it has no
    /// tie-break.
    #[must_use]
    pub fn new(kind: GameKind, rules: Rules) -> AnyGame {
        match kind {
            GameKind::Ultimate => AnyGame::Ultimate(History::new(Ultimate::new(rules))),
            GameKind::Classic => AnyGame::Classic(History::new(Classic::new())),
        }
    }

    /// Runs `code` on the history this game holds.
    pub fn visit<V: Visit>(&self, code: V) -> V::Output {
        match self {
            AnyGame::Ultimate(h) => code.visit(h),
            AnyGame::Classic(h) => code.visit(h),
        }
    }

    /// Which game this is.
    #[must_use]
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::Ultimate(_) => GameKind::Ultimate,
            AnyGame::Classic(_) => GameKind::Classic,
        }
    }

    /// The rule set (always standard for Classic).
    #[must_use]
    pub fn rules(&self) -> Rules {
        self.visit(RulesOf)
    }

    /// Plays at `cell` of small board `board` (Classic: board 0) at the
    /// cursor, dropping any taken-back moves after it.
    ///
    /// # Errors
    /// Why the move is illegal ([`IllegalMove::OutOfRange`] for a board or
    /// cell that does not exist); the game is then unchanged.
    pub fn play(&mut self, board: u8, cell: u8) -> Result<(), IllegalMove> {
        match self {
            AnyGame::Ultimate(h) => play_at(h, board, cell),
            AnyGame::Classic(h) => play_at(h, board, cell),
        }
    }

    /// Takes back the move before the cursor; false (no change) at the start.
    pub fn undo(&mut self) -> bool {
        match self {
            AnyGame::Ultimate(h) => h.undo().is_some(),
            AnyGame::Classic(h) => h.undo().is_some(),
        }
    }

    /// Replays the move after the cursor; false (no change) at the end.
    pub fn redo(&mut self) -> bool {
        match self {
            AnyGame::Ultimate(h) => h.redo().is_some(),
            AnyGame::Classic(h) => h.redo().is_some(),
        }
    }

    /// Moves the cursor to `ply` moves from the start; false (no change)
    /// past the end.
    pub fn jump(&mut self, ply: usize) -> bool {
        match self {
            AnyGame::Ultimate(h) => h.jump(ply),
            AnyGame::Classic(h) => h.jump(ply),
        }
    }

    /// Drops the moves after the cursor.
    pub fn truncate(&mut self) {
        match self {
            AnyGame::Ultimate(h) => h.truncate(),
            AnyGame::Classic(h) => h.truncate(),
        }
    }

    /// The number of moves recorded, including those after the cursor.
    #[must_use]
    pub fn len(&self) -> usize {
        self.visit(Len)
    }

    /// True when no move is recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The number of moves before the cursor.
    #[must_use]
    pub fn cursor(&self) -> usize {
        self.visit(CursorOf)
    }

    /// The player to move at the cursor (also once the game is over: the
    /// player who would move next).
    #[must_use]
    pub fn side_to_move(&self) -> Player {
        self.visit(SideToMove)
    }

    /// The result at the cursor once the game is over, `None` while it goes on.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.visit(OutcomeOf)
    }

    /// Moves played from the empty board to the position at the cursor
    /// (more than [`AnyGame::cursor`] for a game set up from a position).
    #[must_use]
    pub fn ply(&self) -> usize {
        self.visit(PlyOf)
    }

    /// Every legal move at the cursor as (board, cell), Classic's board 0.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<(u8, u8)> {
        self.visit(LegalMoves)
    }
}

/// Plays at (board, cell) in `history`.
fn play_at<G: Game>(history: &mut History<G>, board: u8, cell: u8) -> Result<(), IllegalMove> {
    let m = G::move_at(board, cell).ok_or(IllegalMove::OutOfRange)?;
    history.play(m)
}

struct RulesOf;
impl Visit for RulesOf {
    type Output = Rules;
    fn visit<G: AnyKind>(self, history: &History<G>) -> Rules {
        history.start().rules()
    }
}

struct Len;
impl Visit for Len {
    type Output = usize;
    fn visit<G: AnyKind>(self, history: &History<G>) -> usize {
        history.len()
    }
}

struct CursorOf;
impl Visit for CursorOf {
    type Output = usize;
    fn visit<G: AnyKind>(self, history: &History<G>) -> usize {
        history.cursor()
    }
}

struct SideToMove;
impl Visit for SideToMove {
    type Output = Player;
    fn visit<G: AnyKind>(self, history: &History<G>) -> Player {
        history.current().side_to_move()
    }
}

struct OutcomeOf;
impl Visit for OutcomeOf {
    type Output = Option<Outcome>;
    fn visit<G: AnyKind>(self, history: &History<G>) -> Option<Outcome> {
        history.current().outcome()
    }
}

struct PlyOf;
impl Visit for PlyOf {
    type Output = usize;
    fn visit<G: AnyKind>(self, history: &History<G>) -> usize {
        history.current().ply()
    }
}

struct LegalMoves;
impl Visit for LegalMoves {
    type Output = Vec<(u8, u8)>;
    fn visit<G: AnyKind>(self, history: &History<G>) -> Vec<(u8, u8)> {
        let moves = history.current().legal_moves();
        moves.iter().map(|&m| G::board_and_cell(m)).collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_and_answers_for_either_game() {
        let mut u = AnyGame::new(GameKind::Ultimate, Rules::TieBreak);
        u.play(4, 4).unwrap();
        assert_eq!(u.play(0, 0), Err(IllegalMove::WrongBoard { required: 4 }));
        assert_eq!(u.play(9, 0), Err(IllegalMove::OutOfRange));
        assert_eq!(u.record().as_deref(), Some("ultimate-tiebreak:e5"));
        assert_eq!((u.len(), u.cursor(), u.ply()), (1, 1, 1));
        assert_eq!(u.side_to_move(), Player::O);
        assert!(u.legal_moves().iter().all(|&(b, _)| b == 4));
        assert!(u.undo() && !u.undo() && u.redo() && !u.redo());

        let mut c = AnyGame::new(GameKind::Classic, Rules::TieBreak);
        assert_eq!(c.rules(), Rules::Standard);
        assert_eq!(c.play(1, 0), Err(IllegalMove::OutOfRange));
        for cell in [0, 3, 1, 4, 2] {
            c.play(0, cell).unwrap();
        }
        assert_eq!(c.outcome(), Some(Outcome::Win(Player::X)));
        assert_eq!(c.record().as_deref(), Some("classic:a1a2b1b2c1"));
        assert!(c.legal_moves().is_empty());
        assert!(c.jump(2));
        c.truncate();
        assert_eq!(c.len(), 2);
    }

    #[test]
    fn reads_records_and_positions() {
        let g = AnyGame::parse("ultimate-standard:e5e4").unwrap();
        assert_eq!(g.kind(), GameKind::Ultimate);
        let set_up = AnyGame::parse(&g.position_string()).unwrap();
        assert_eq!(set_up.record(), None);
        assert_eq!((set_up.len(), set_up.ply()), (0, 2));
        assert_eq!(set_up.position_string(), g.position_string());
        assert!(AnyGame::parse("classic:zz").is_err());
        assert!(AnyGame::parse("nonsense").is_err());
    }
}
