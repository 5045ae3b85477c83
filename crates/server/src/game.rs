//! One online game as the core plays it: the server asks `uttt-core` for
//! every rule (legal moves, the side to move, the end and its winner).

use uttt_core::record::{self, AnyGame};
use uttt_core::{
    Classic, ClassicMove, Game, History, IllegalMove, Move, Outcome, Player, Rules, Ultimate,
};
use uttt_protocol::{Kind, RuleSet, Side};

/// A game of either type from the empty board.
#[derive(Clone, Debug)]
pub struct OnlineGame(AnyGame);

impl OnlineGame {
    /// A new game of `kind` under `rules`.
    #[must_use]
    pub fn new(kind: Kind, rules: RuleSet) -> OnlineGame {
        let rules = match rules {
            RuleSet::Standard => Rules::Standard,
            RuleSet::Tiebreak => Rules::TieBreak,
        };
        OnlineGame(match kind {
            Kind::Ultimate => AnyGame::Ultimate(History::new(Ultimate::new(rules))),
            Kind::Classic => AnyGame::Classic(History::new(Classic::new())),
        })
    }

    /// The game a stored record describes, replayed and checked by the core.
    ///
    /// # Errors
    /// The core's reason when the record is not a legal game.
    pub fn from_record(text: &str) -> Result<OnlineGame, String> {
        record::parse_record(text)
            .map(OnlineGame)
            .map_err(|e| e.to_string())
    }

    /// Plays at `cell` of small board `board` (Classic: board 0).
    ///
    /// # Errors
    /// The core's reason; nothing changes.
    pub fn play(&mut self, board: u8, cell: u8) -> Result<(), IllegalMove> {
        if board > 8 || cell > 8 {
            return Err(IllegalMove::OutOfRange);
        }
        match &mut self.0 {
            AnyGame::Ultimate(h) => h.play(Move::new(board, cell)),
            AnyGame::Classic(h) if board == 0 => h.play(ClassicMove(cell)),
            AnyGame::Classic(_) => Err(IllegalMove::OutOfRange),
        }
    }

    /// Every legal move, as (board, cell); none once the game is over.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<(u8, u8)> {
        match &self.0 {
            AnyGame::Ultimate(h) => h
                .current()
                .legal_moves()
                .iter()
                .map(|m| (m.board, m.cell))
                .collect(),
            AnyGame::Classic(h) => h.current().legal_moves().iter().map(|m| (0, m.0)).collect(),
        }
    }

    /// The record: the header and every move.
    #[must_use]
    pub fn record(&self) -> String {
        match &self.0 {
            AnyGame::Ultimate(h) => record::record_string(h),
            AnyGame::Classic(h) => record::record_string(h),
        }
    }

    /// The number of moves played.
    #[must_use]
    pub fn ply(&self) -> u32 {
        let ply = match &self.0 {
            AnyGame::Ultimate(h) => h.current().ply(),
            AnyGame::Classic(h) => h.current().ply(),
        };
        // At most 81.
        u32::try_from(ply).unwrap_or(u32::MAX)
    }

    /// The side to move (after the end: who would move next).
    #[must_use]
    pub fn to_move(&self) -> Side {
        let player = match &self.0 {
            AnyGame::Ultimate(h) => h.current().side_to_move(),
            AnyGame::Classic(h) => h.current().side_to_move(),
        };
        side(player)
    }

    /// How the game ended, once it has.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        match &self.0 {
            AnyGame::Ultimate(h) => h.current().outcome(),
            AnyGame::Classic(h) => h.current().outcome(),
        }
    }
}

/// The protocol's name for a core player.
#[must_use]
pub fn side(player: Player) -> Side {
    match player {
        Player::X => Side::X,
        Player::O => Side::O,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn plays_by_the_core_rules() {
        let mut g = OnlineGame::new(Kind::Ultimate, RuleSet::Standard);
        assert_eq!(g.to_move(), Side::X);
        g.play(4, 4).unwrap();
        assert_eq!(g.record(), "ultimate-standard:e5");
        assert_eq!(g.to_move(), Side::O);
        // O was sent to the centre board.
        assert!(matches!(
            g.play(0, 0),
            Err(IllegalMove::WrongBoard { required: 4 })
        ));
        assert_eq!(g.play(4, 4), Err(IllegalMove::CellTaken));
        assert_eq!(g.play(9, 0), Err(IllegalMove::OutOfRange));
        assert_eq!(g.ply(), 1);
        assert_eq!(g.legal_moves().len(), 8);
        assert!(g.legal_moves().iter().all(|&(board, _)| board == 4));

        let mut c = OnlineGame::new(Kind::Classic, RuleSet::Tiebreak);
        assert_eq!(c.play(1, 0), Err(IllegalMove::OutOfRange));
        for cell in [0, 3, 1, 4, 2] {
            c.play(0, cell).unwrap();
        }
        assert_eq!(c.outcome(), Some(Outcome::Win(Player::X)));
        assert_eq!(c.play(0, 8), Err(IllegalMove::GameOver));
        let again = OnlineGame::from_record(&c.record()).unwrap();
        assert_eq!(again.record(), c.record());
        assert!(OnlineGame::from_record("classic:a1a1").is_err());
    }
}
