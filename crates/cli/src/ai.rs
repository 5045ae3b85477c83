//! The engine as the terminal uses it: the core's search driven by the
//! wall clock, since the core itself has none.

use std::time::{Duration, Instant};

use uttt_core::search::{self, Eval, Level, Limits, Progress, Searchable};

/// A search's answer with what the terminal shows about it.
#[derive(Clone, Debug)]
pub struct Thought<M> {
    /// The move chosen; always legal in the searched position.
    pub mv: M,
    /// The last completed depth (0 for Beginner, which does not search).
    pub depth: u32,
    /// The score for the side that moves.
    pub score: Eval,
    /// Nodes searched.
    pub nodes: u64,
    /// True when the search reached the end of every line, so the score
    /// is exact (a score of 0 is then a proven draw).
    pub complete: bool,
}

/// One side's engine: keeps its table between moves of a game.
pub struct Engine {
    inner: search::Engine,
    level: Level,
}

impl Engine {
    /// An engine at `level` with that level's table, its choices drawn from `seed`.
    #[must_use]
    pub fn new(level: Level, seed: u64) -> Engine {
        Engine {
            inner: search::Engine::for_level(level, seed),
            level,
        }
    }

    /// Chooses a move within the level's own time budget.
    ///
    /// # Panics
    /// If the game is over: callers only ask for a move in a live game.
    pub fn think<G, P>(&mut self, pos: &G, progress: P) -> Thought<G::Move>
    where
        G: Searchable,
        P: FnMut(&Progress<'_, G::Move>),
    {
        let deadline = Instant::now() + Duration::from_millis(self.level.budget_ms());
        self.think_until(pos, deadline, progress)
    }

    /// Chooses a move, stopping the search at `deadline` (the level's own
    /// budget does not apply). The search always completes depth 1, so a
    /// deadline already past still gets a legal move.
    ///
    /// # Panics
    /// If the game is over: callers only ask for a move in a live game.
    pub fn think_until<G, P>(&mut self, pos: &G, deadline: Instant, progress: P) -> Thought<G::Move>
    where
        G: Searchable,
        P: FnMut(&Progress<'_, G::Move>),
    {
        // No line is longer than the rest of the game: searching deeper
        // only repeats the last depth (and floods `analyse` with copies).
        let limits = self.inner.limits();
        let left = u32::try_from(G::MAX_PLIES - pos.ply()).unwrap_or(u32::MAX);
        self.inner.set_limits(Limits {
            max_depth: limits.max_depth.min(left.max(1)),
            ..limits
        });
        let result = self
            .inner
            .choose(pos, || Instant::now() >= deadline, progress);
        self.inner.set_limits(limits);
        let result = result.expect("the engine is only asked to move in a live game");
        Thought {
            mv: result.best,
            depth: result.depth,
            score: result.score,
            nodes: result.nodes,
            complete: result.depth >= left,
        }
    }

    /// The level's own thinking time.
    #[must_use]
    pub fn budget(&self) -> Duration {
        Duration::from_millis(self.level.budget_ms())
    }

    /// Stops every search at `depth` plies, whatever the clock says.
    pub fn limit_depth(&mut self, depth: u32) {
        let limits = self.inner.limits();
        self.inner.set_limits(Limits {
            max_depth: depth,
            ..limits
        });
    }
}
