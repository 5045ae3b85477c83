//! One online game as the core plays it: the server asks `uttt-core` for
//! every rule (legal moves, the side to move, the end and its winner).

use uttt_core::{record, AnyGame, GameKind, IllegalMove, Outcome, Player, Rules};
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
        let kind = match kind {
            Kind::Ultimate => GameKind::Ultimate,
            Kind::Classic => GameKind::Classic,
        };
        OnlineGame(AnyGame::new(kind, rules))
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
        self.0.play(board, cell)
    }

    /// Every legal move, as (board, cell); none once the game is over.
    #[must_use]
    pub fn legal_moves(&self) -> Vec<(u8, u8)> {
        self.0.legal_moves()
    }

    /// The record: the header and every move.
    #[must_use]
    pub fn record(&self) -> String {
        // An online game starts from the empty board, so it has a record.
        self.0.record().unwrap_or_default()
    }

    /// The number of moves played.
    #[must_use]
    pub fn ply(&self) -> u32 {
        // At most 81.
        u32::try_from(self.0.ply()).unwrap_or(u32::MAX)
    }

    /// The side to move (after the end: who would move next).
    #[must_use]
    pub fn to_move(&self) -> Side {
        side(self.0.side_to_move())
    }

    /// How the game ended, once it has.
    #[must_use]
    pub fn outcome(&self) -> Option<Outcome> {
        self.0.outcome()
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
