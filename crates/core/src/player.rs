//! The small value types every game shares: players, rule sets, outcomes.

use core::fmt;

/// One of the two players. X always moves first.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Player {
    /// The first player.
    X = 0,
    /// The second player.
    O = 1,
}

impl Player {
    /// The other player.
    #[inline]
    #[must_use]
    pub const fn opponent(self) -> Player {
        match self {
            Player::X => Player::O,
            Player::O => Player::X,
        }
    }

    /// 0 for X, 1 for O: the index of this player's half of any per-player array.
    #[inline]
    #[must_use]
    pub const fn index(self) -> usize {
        self as usize
    }

    /// The lower-case letter used in notation and position strings.
    #[must_use]
    pub const fn char(self) -> char {
        match self {
            Player::X => 'x',
            Player::O => 'o',
        }
    }

    /// Parses `x` or `o` in either case.
    #[must_use]
    pub const fn from_char(c: char) -> Option<Player> {
        match c {
            'x' | 'X' => Some(Player::X),
            'o' | 'O' => Some(Player::O),
            _ => None,
        }
    }
}

impl fmt::Display for Player {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Player::X => "X",
            Player::O => "O",
        })
    }
}

/// How an Ultimate game ends when every small board is decided without a
/// line of three on the big board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
pub enum Rules {
    /// The game is a draw.
    #[default]
    Standard,
    /// The player with more won small boards wins; equal counts draw
    /// (the rule used by CodinGame).
    TieBreak,
}

impl Rules {
    /// The name used in records and on the command line: `standard` or `tiebreak`.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Rules::Standard => "standard",
            Rules::TieBreak => "tiebreak",
        }
    }

    /// Parses the name written by [`Rules::name`].
    #[must_use]
    pub fn from_name(name: &str) -> Option<Rules> {
        match name {
            "standard" => Some(Rules::Standard),
            "tiebreak" => Some(Rules::TieBreak),
            _ => None,
        }
    }
}

impl fmt::Display for Rules {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// How a finished game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Outcome {
    /// The given player won.
    Win(Player),
    /// Nobody won.
    Draw,
}

impl Outcome {
    /// The winner, if any.
    #[must_use]
    pub const fn winner(self) -> Option<Player> {
        match self {
            Outcome::Win(p) => Some(p),
            Outcome::Draw => None,
        }
    }
}

impl fmt::Display for Outcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Outcome::Win(p) => write!(f, "{p} wins"),
            Outcome::Draw => f.write_str("draw"),
        }
    }
}

/// The state of one 3x3 board: a small board of Ultimate, or the whole
/// board of Classic.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum BoardStatus {
    /// Still has empty cells and no line.
    Open,
    /// Won by the given player with a line of three.
    Won(Player),
    /// Full with no line; belongs to nobody.
    Drawn,
}

impl BoardStatus {
    /// True once the board takes no more moves.
    #[must_use]
    pub const fn is_decided(self) -> bool {
        !matches!(self, BoardStatus::Open)
    }
}
