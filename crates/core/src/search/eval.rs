//! [`Eval`]: a score from the point of view of the side to move, either a
//! positional estimate or an exact "win/loss in N plies".

use core::fmt;

use crate::Player;

/// The longest line the search follows, in plies (an Ultimate game has at
/// most 81). Mate scores sit within this distance of [`Eval::MATE`].
pub const MAX_PLY: usize = 96;

/// A score for the side to move, in "centipawn-like" units: about 100 for a
/// won small board in Ultimate. Exact results are `±(MATE - plies)`, so a
/// faster win scores higher and a slower loss scores higher than a faster one.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Default)]
pub struct Eval(pub i32);

impl Eval {
    /// The score of a win on the board (0 plies away).
    pub const MATE: i32 = 30_000;
    /// A drawn or balanced position.
    pub const DRAW: Eval = Eval(0);
    /// Above every reachable score: the search window's bound.
    pub(crate) const INFINITE: i32 = 31_000;

    /// A win for the side to move `plies` plies from now.
    #[must_use]
    pub const fn win_in(plies: u32) -> Eval {
        Eval(Eval::MATE - plies as i32)
    }

    /// A loss for the side to move `plies` plies from now.
    #[must_use]
    pub const fn loss_in(plies: u32) -> Eval {
        Eval(-(Eval::MATE - plies as i32))
    }

    /// True when the score is an exact, proven win or loss.
    #[must_use]
    pub const fn is_mate(self) -> bool {
        self.0.abs() >= Eval::MATE - MAX_PLY as i32
    }

    /// For a proven result, the plies until the game ends: positive when the
    /// side to move wins, negative when it loses. `None` for an estimate.
    #[must_use]
    pub const fn mate_in(self) -> Option<i32> {
        if !self.is_mate() {
            None
        } else if self.0 > 0 {
            Some(Eval::MATE - self.0)
        } else {
            Some(-(Eval::MATE + self.0))
        }
    }

    /// The same score seen by `viewer`, given that `to_move` is the side the
    /// score belongs to (e.g. to draw an evaluation bar always from X's side).
    #[must_use]
    pub const fn for_player(self, to_move: Player, viewer: Player) -> Eval {
        if to_move as u8 == viewer as u8 {
            self
        } else {
            Eval(-self.0)
        }
    }

    /// The score negated: the other side's view.
    #[must_use]
    pub const fn flip(self) -> Eval {
        Eval(-self.0)
    }
}

impl fmt::Display for Eval {
    /// `+1.25` / `-0.40` (hundredths of a won board) for estimates, and
    /// `win in 5` / `loss in 4` (plies) for proven results.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.mate_in() {
            Some(n) if n >= 0 => write!(f, "win in {n}"),
            Some(n) => write!(f, "loss in {}", -n),
            None => {
                let sign = if self.0 < 0 { '-' } else { '+' };
                let a = self.0.unsigned_abs();
                write!(f, "{sign}{}.{:02}", a / 100, a % 100)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn mate_scores_order_and_read_back() {
        assert!(Eval::win_in(1) > Eval::win_in(3));
        assert!(Eval::loss_in(4) > Eval::loss_in(2));
        assert!(Eval::loss_in(2) < Eval(-2000));
        assert_eq!(Eval::win_in(5).mate_in(), Some(5));
        assert_eq!(Eval::loss_in(4).mate_in(), Some(-4));
        assert_eq!(Eval(250).mate_in(), None);
        assert!(!Eval(2500).is_mate());
        assert_eq!(Eval(-40).to_string(), "-0.40");
        assert_eq!(Eval(125).to_string(), "+1.25");
        assert_eq!(Eval::win_in(3).to_string(), "win in 3");
        assert_eq!(Eval::loss_in(2).to_string(), "loss in 2");
        assert_eq!(Eval(30).for_player(Player::O, Player::X), Eval(-30));
        assert_eq!(Eval(30).for_player(Player::O, Player::O), Eval(30));
    }
}
