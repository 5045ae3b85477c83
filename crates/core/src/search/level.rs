//! The difficulty ladder: five named presets shared by the page, the worker
//! and the CLI.

use core::fmt;

/// A difficulty level. Each is a preset of how the engine chooses a move;
/// see [`crate::search`] for what each one does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Level {
    /// The tutorials' rule player: win, block, else a (seeded) random move.
    Beginner,
    /// Depth-3 minimax with the tutorials' evaluation.
    Easy,
    /// The real search, shallow, choosing among near-equal moves at random.
    /// In Classic its four plies see every trap (a fork counts as the loss
    /// it is), so it never loses there.
    Medium,
    /// The full search with a 1 second budget.
    Hard,
    /// The full search with a 3 second budget and a larger table.
    Master,
}

impl Level {
    /// Every level, weakest first.
    pub const ALL: [Level; 5] = [
        Level::Beginner,
        Level::Easy,
        Level::Medium,
        Level::Hard,
        Level::Master,
    ];

    /// The lower-case name used in the page, the CLI and saved settings.
    #[must_use]
    pub const fn name(self) -> &'static str {
        match self {
            Level::Beginner => "beginner",
            Level::Easy => "easy",
            Level::Medium => "medium",
            Level::Hard => "hard",
            Level::Master => "master",
        }
    }

    /// True for Hard and Master, which search in full until told to stop:
    /// [`Engine::resume`](super::Engine::resume) carries their search on,
    /// so it can be cut into slices and can ponder. The other levels answer
    /// in milliseconds and search afresh each time.
    #[must_use]
    pub const fn resumes(self) -> bool {
        matches!(self, Level::Hard | Level::Master)
    }

    /// Parses a name as written by [`Level::name`], in any case.
    #[must_use]
    pub fn from_name(name: &str) -> Option<Level> {
        Level::ALL
            .into_iter()
            .find(|l| l.name().eq_ignore_ascii_case(name.trim()))
    }

    /// The default thinking time in milliseconds. The core has no clock: the
    /// caller turns this into the answer of its `stop` callback (and may use
    /// another budget, e.g. a configurable Master time).
    ///
    /// The three lower levels finish in a few milliseconds whatever the
    /// budget; their budget only bounds them on a slow device.
    #[must_use]
    pub const fn budget_ms(self) -> u64 {
        match self {
            Level::Beginner | Level::Easy => 200,
            Level::Medium => 500,
            Level::Hard => 1000,
            Level::Master => 3000,
        }
    }

    /// The default transposition-table size in bytes for this level.
    #[must_use]
    pub const fn table_bytes(self) -> usize {
        match self {
            Level::Beginner | Level::Easy => 64 << 10,
            Level::Medium => 1 << 20,
            Level::Hard => 16 << 20,
            Level::Master => 64 << 20,
        }
    }
}

impl fmt::Display for Level {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn names_round_trip_and_budgets_grow() {
        for l in Level::ALL {
            assert_eq!(Level::from_name(l.name()), Some(l));
            assert_eq!(Level::from_name(&l.name().to_uppercase()), Some(l));
        }
        assert_eq!(Level::from_name("grandmaster"), None);
        assert_eq!(Level::Hard.budget_ms(), 1000);
        assert_eq!(Level::Master.budget_ms(), 3000);
        assert!(Level::Master.table_bytes() > Level::Hard.table_bytes());
    }
}
