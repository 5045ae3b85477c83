//! The engine as the terminal uses it: the core's search driven by the
//! wall clock, since the core itself has none, and pondering: searching the
//! opponent's expected reply on a thread of its own while the opponent
//! thinks.

use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
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
    /// The principal variation after the move: its first move is the
    /// opponent's expected reply, the one pondered on.
    pub expected: Option<M>,
}

/// A search of the expected position running on its own thread.
struct Pondering {
    stop: Arc<AtomicBool>,
    thread: JoinHandle<search::Engine>,
}

/// One side's engine: keeps its table between moves of a game.
pub struct Engine {
    /// The engine, except while a thread ponders with it.
    inner: Option<search::Engine>,
    pondering: Option<Pondering>,
    level: Level,
    seed: u64,
    limits: Limits,
}

impl Engine {
    /// An engine at `level` with that level's table, its choices drawn from
    /// `seed`. The table is allocated (and its memory touched) here, so
    /// callers make the engine before any clock starts.
    ///
    /// # Errors
    /// The table does not fit in the machine's memory.
    pub fn new(level: Level, seed: u64) -> Result<Engine, String> {
        let inner =
            search::Engine::try_new(level, seed, level.table_bytes()).map_err(|e| e.to_string())?;
        Ok(Engine {
            limits: inner.limits(),
            inner: Some(inner),
            pondering: None,
            level,
            seed,
        })
    }

    /// An engine around `inner`, set up by the caller (table, limits,
    /// weights); `seed` makes a new one should a pondering thread fail.
    #[must_use]
    pub fn wrap(inner: search::Engine, seed: u64) -> Engine {
        Engine {
            limits: inner.limits(),
            level: inner.level(),
            inner: Some(inner),
            pondering: None,
            seed,
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
    /// deadline already past still gets a legal move. When the position is
    /// the one pondered on, the search carries on from where the pondering
    /// stopped.
    ///
    /// # Panics
    /// If the game is over: callers only ask for a move in a live game.
    pub fn think_until<G, P>(&mut self, pos: &G, deadline: Instant, progress: P) -> Thought<G::Move>
    where
        G: Searchable,
        P: FnMut(&Progress<'_, G::Move>),
    {
        let left = plies_left(pos);
        let engine = self.engine_for(pos);
        let result = engine.resume(pos, || Instant::now() >= deadline, progress);
        let result = result.expect("the engine is only asked to move in a live game");
        Thought {
            mv: result.best,
            depth: result.depth,
            score: result.score,
            nodes: result.nodes,
            // A search that reached the end of the game saw every line end.
            complete: result.depth >= left,
            expected: result.pv.get(1).copied(),
        }
    }

    /// The engine, back from any pondering thread, with its depth limited
    /// to the rest of the game in `pos`: searching deeper only repeats the
    /// last depth (and floods `analyse` with copies).
    fn engine_for<G: Searchable>(&mut self, pos: &G) -> &mut search::Engine {
        self.stop_pondering();
        let left = plies_left(pos);
        let limits = self.limits;
        let (level, seed) = (self.level, self.seed);
        let engine = self
            .inner
            .get_or_insert_with(|| search::Engine::for_level(level, seed));
        engine.set_limits(Limits {
            max_depth: limits.max_depth.min(left.max(1)),
            ..limits
        });
        engine
    }

    /// Starts searching `expected` (the position after the opponent's
    /// expected reply) on a thread, until [`Engine::stop_pondering`] or the
    /// next move asked of this engine. Only Hard and Master ponder: the
    /// other levels answer in milliseconds and play no better for it.
    pub fn ponder<G>(&mut self, expected: &G)
    where
        G: Searchable + Send + 'static,
        G::Move: Send,
    {
        if !self.level.resumes() || expected.is_over() {
            return;
        }
        // A search of an older expected position is of no use any more.
        self.stop_pondering();
        let Some(mut engine) = self.inner.take() else {
            return;
        };
        let left = plies_left(expected);
        engine.set_limits(Limits {
            max_depth: self.limits.max_depth.min(left.max(1)),
            ..self.limits
        });
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let pos = *expected;
        let spawned = std::thread::Builder::new()
            .name("ponder".into())
            .spawn(move || {
                engine.resume(&pos, || flag.load(Ordering::Relaxed), |_| {});
                engine
            });
        match spawned {
            Ok(thread) => self.pondering = Some(Pondering { stop, thread }),
            // No thread to be had: play without pondering. The engine went
            // into the closure that was never run, so a new one is made
            // when it is next needed.
            Err(_) => self.inner = None,
        }
    }

    /// After this engine's move, which left `now` on the board, ponders on
    /// `expected` (the opponent's reply its search expects), when there is
    /// one and it is legal in `now`.
    pub fn ponder_reply<G>(&mut self, now: &G, expected: Option<G::Move>)
    where
        G: Searchable + Send + 'static,
        G::Move: Send,
    {
        if let Some(reply) = expected.filter(|&m| now.check(m).is_ok()) {
            let mut after = *now;
            after.play_unchecked(reply);
            self.ponder(&after);
        }
    }

    /// Stops pondering at once and takes the engine back, its table warm.
    pub fn stop_pondering(&mut self) {
        if let Some(p) = self.pondering.take() {
            p.stop.store(true, Ordering::Relaxed);
            // A thread that panicked took its engine with it; a fresh one is
            // made when it is next needed.
            self.inner = p.thread.join().ok();
        }
    }

    /// The level's own thinking time.
    #[must_use]
    pub fn budget(&self) -> Duration {
        Duration::from_millis(self.level.budget_ms())
    }

    /// Stops every search at `depth` plies, whatever the clock says.
    pub fn limit_depth(&mut self, depth: u32) {
        self.limits.max_depth = depth;
    }
}

/// The plies left in the game at `pos`, at most: no search needs to be
/// deeper.
fn plies_left<G: Searchable>(pos: &G) -> u32 {
    u32::try_from(G::MAX_PLIES - pos.ply()).unwrap_or(u32::MAX)
}

impl Drop for Engine {
    fn drop(&mut self) {
        self.stop_pondering();
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uttt_core::{Game, Rules, Ultimate};

    #[test]
    fn a_pondered_reply_is_carried_on_when_it_comes() {
        let mut engine = Engine::new(Level::Hard, 1).unwrap();
        let start = Ultimate::new(Rules::Standard);
        let first = engine.think_until(&start, Instant::now() + Duration::from_millis(30), |_| {});
        let mut pos = start;
        pos.play_unchecked(first.mv);
        let reply = first.expected.unwrap_or_else(|| pos.legal_moves()[0]);
        let mut expected = pos;
        expected.play_unchecked(reply);
        engine.ponder(&expected);
        std::thread::sleep(Duration::from_millis(100));
        // The reply came as expected: the search goes on from the pondered
        // depth, so even a deadline already past answers from it.
        let mut depths = Vec::new();
        let thought = engine.think_until(&expected, Instant::now(), |p| depths.push(p.depth));
        assert!(
            thought.depth >= 4,
            "pondering reached depth {}",
            thought.depth
        );
        assert!(expected.check(thought.mv).is_ok());
    }

    #[test]
    fn another_reply_is_searched_afresh_and_pondering_stops_at_once() {
        let mut engine = Engine::new(Level::Master, 1).unwrap();
        let mut pos = Ultimate::new(Rules::Standard);
        pos.play_unchecked(pos.legal_moves()[40]);
        let mut expected = pos;
        expected.play_unchecked(pos.legal_moves()[0]);
        engine.ponder(&expected);
        std::thread::sleep(Duration::from_millis(20));
        let mut actual = pos;
        actual.play_unchecked(pos.legal_moves()[5]);
        let asked = Instant::now();
        let thought = engine.think_until(&actual, asked + Duration::from_millis(10), |_| {});
        assert!(actual.check(thought.mv).is_ok());
        assert!(asked.elapsed() < Duration::from_millis(500));
    }
}
