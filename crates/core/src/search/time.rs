//! How Hard and Master spend a thinking budget: a move the search keeps
//! changing its mind about gets more time, a settled one less, so that on
//! average a move takes about the budget.
//!
//! The core has no clock. [`Engine::choose_timed`](super::Engine::choose_timed)
//! asks the caller's clock for the milliseconds since the search began, and
//! a [`TimePlan`] turns that and each completed depth into "stop now?".
//!
//! At equal mean time per move this is worth about +20 Elo against a fixed
//! time per move: 52.9% over 600 games at 100 ms
//! (`uttt match hard@movetime=100 hard@movetime=100@tm=0`, three runs of
//! 200 games: 53.8%, 53.2% and 51.7%).

use super::eval::Eval;

/// Per-mille factors of the budget (integers keep the plan the same on
/// every target).
const PER_MILLE: u64 = 1000;
/// The target time of a settled search, before the factors below.
const BASE: u64 = 770;
/// Added to the target for each recent change of the best move; halved
/// after every depth, so only recent changes count.
const CHANGE: u64 = 880;
/// A score that fell by more than this since the previous depth...
const SCORE_DROP: i32 = 25;
/// ...multiplies the target by this (per mille): the search is finding
/// trouble and should look further.
const DROP_FACTOR: u64 = 1500;
/// The target stays within these (per mille of the budget).
const MIN_TARGET: u64 = 440;
const MAX_TARGET: u64 = 2750;
/// A new depth is not started past this share (per mille) of the target: it
/// would take about as long as all the depths before it.
const START_SHARE: u64 = 550;
/// The search is abandoned at this multiple of the budget, whatever the plan.
const HARD_LIMIT: u64 = 3;
/// Changes of the best move at or below this depth are noise.
const SHALLOW: u32 = 4;

/// The time plan of one search with a budget of `budget_ms`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TimePlan {
    budget_ms: u64,
    /// The best move's index and the score of the last completed depth.
    last: Option<(Option<u8>, i32)>,
    /// Recent changes of the best move, per mille, decaying by half a depth.
    instability: u64,
    /// Set after a depth that left no time for another.
    done: bool,
}

impl TimePlan {
    /// A plan for a search that may take about `budget_ms` on average.
    #[must_use]
    pub const fn new(budget_ms: u64) -> TimePlan {
        TimePlan {
            budget_ms,
            last: None,
            instability: 0,
            done: false,
        }
    }

    /// The longest a search with `budget_ms` can take, in milliseconds
    /// (plus the time to reach the next poll of its clock).
    #[must_use]
    pub const fn hard_limit_ms(budget_ms: u64) -> u64 {
        budget_ms.saturating_mul(HARD_LIMIT)
    }

    /// "Stop now?" at `elapsed_ms` after the search began.
    #[must_use]
    pub fn should_stop(&self, elapsed_ms: u64) -> bool {
        self.done || elapsed_ms >= Self::hard_limit_ms(self.budget_ms)
    }

    /// Records a completed `depth` whose best move has the index `best` and
    /// the score `score`, finished `elapsed_ms` after the search began.
    pub fn depth_done(&mut self, depth: u32, best: Option<u8>, score: Eval, elapsed_ms: u64) {
        self.instability /= 2;
        let mut target = BASE;
        if let Some((last_best, last_score)) = self.last {
            if depth > SHALLOW {
                if best != last_best {
                    self.instability += PER_MILLE;
                }
                target += self.instability * CHANGE / PER_MILLE;
                if score.0 < last_score - SCORE_DROP {
                    target = target * DROP_FACTOR / PER_MILLE;
                }
            }
        }
        let target = target.clamp(MIN_TARGET, MAX_TARGET);
        let start_by = self.budget_ms.saturating_mul(target) / PER_MILLE * START_SHARE / PER_MILLE;
        if elapsed_ms > start_by {
            self.done = true;
        }
        self.last = Some((best, score.0));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_settled_search_stops_early() {
        let mut plan = TimePlan::new(1000);
        for depth in 1..=10 {
            plan.depth_done(depth, Some(40), Eval(30), 40 * u64::from(depth));
            assert!(!plan.should_stop(40 * u64::from(depth)), "depth {depth}");
        }
        // Target 770 ms: no depth is started after 423 ms.
        plan.depth_done(11, Some(40), Eval(30), 430);
        assert!(plan.should_stop(431));
    }

    #[test]
    fn a_changing_best_move_or_a_falling_score_gets_more_time() {
        let mut plan = TimePlan::new(1000);
        for depth in 1..=8 {
            plan.depth_done(depth, Some(40), Eval(30), 50);
        }
        plan.depth_done(9, Some(41), Eval(30), 800);
        assert!(!plan.should_stop(800), "a new best move extends the target");
        plan.depth_done(10, Some(41), Eval(30), 1000);
        assert!(plan.should_stop(1000), "settled again, the target shrinks");

        let mut plan = TimePlan::new(1000);
        for depth in 1..=8 {
            plan.depth_done(depth, Some(40), Eval(30), 50);
        }
        plan.depth_done(9, Some(40), Eval(-20), 600);
        assert!(!plan.should_stop(600), "a falling score extends the target");
    }

    #[test]
    fn shallow_changes_do_not_count_and_the_hard_limit_holds() {
        let mut plan = TimePlan::new(1000);
        for depth in 1..=4 {
            plan.depth_done(depth, Some(depth as u8), Eval(0), 10);
        }
        assert_eq!(plan.instability, 0);
        plan.depth_done(5, Some(9), Eval(0), 10);
        assert!(!plan.should_stop(2999));
        assert!(plan.should_stop(3000));
        assert_eq!(TimePlan::hard_limit_ms(u64::MAX), u64::MAX);
    }
}
