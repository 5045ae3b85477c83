//! The engine the Web Worker runs (see [`crate::worker`]): search a position
//! given as text at a level, within a time budget by a given clock,
//! reporting progress. Also the level facts the page reads.

use serde::Serialize;
use tsify::Tsify;
use uttt_core::search::{Engine, Eval, Limits, Progress, SearchResult, Searchable, WinChance};
use uttt_core::AnyGame;
use uttt_core::{AnyKind, History, Player, Visit};

use crate::args;
use crate::error::{ApiError, ErrorCode};
use crate::levels;

/// The longest budget a caller may ask for: ten minutes.
const MAX_BUDGET_MS: u32 = 600_000;

/// One progress report, with the score from X's point of view.
#[derive(Clone, Debug, PartialEq, Serialize, Tsify)]
#[tsify(missing_as_null)]
pub struct Report {
    /// The depth just completed.
    pub depth: u32,
    /// The score for X (positive: X is better), about 100 per small board.
    pub score: i32,
    /// Plies to a proven end: positive when X wins, negative when O wins.
    pub mate: Option<i32>,
    /// The score as chances (0-1, summing to 1) that X wins, that the game
    /// is drawn, and that O wins: flat fields rather than a nested object,
    /// whose serializer cost the wasm about 0.1 KB.
    #[serde(rename = "xWins")]
    pub x_wins: f64,
    /// See `x_wins`.
    pub draw: f64,
    /// See `x_wins`.
    #[serde(rename = "oWins")]
    pub o_wins: f64,
    /// The principal variation, one move in notation per entry.
    pub pv: Vec<String>,
    /// Nodes searched so far (far below 2^53, where f64 is exact).
    pub nodes: f64,
}

impl Report {
    /// This report of the position after `mv`, as a report of the position
    /// before it: the line starts with `mv`, and a proven end is one ply
    /// further away. The score and the chances, X's, stay as they are.
    #[must_use]
    pub fn after_move(mut self, mv: &str) -> Report {
        self.pv.insert(0, mv.to_string());
        self.mate = self.mate.map(|plies| plies + plies.signum());
        self
    }
}

/// X's chances (win for X, draw, loss for X) of the search's `score`, which
/// is for the side to move in `pos`, by core's [`WinChance`] (the mapping
/// `uttt calibrate` fitted).
fn x_chances<G: Searchable>(pos: &G, score: Eval) -> WinChance {
    let c = WinChance::of(score, pos.ply(), G::MAX_PLIES, pos.rules());
    if pos.side_to_move() == Player::X {
        c
    } else {
        c.flip()
    }
}

/// The engine's answer to one search; crosses to JavaScript with the
/// notation as `move` and the time as `elapsedMs`.
#[derive(Clone, Debug, PartialEq, Serialize, Tsify)]
#[tsify(missing_as_null)]
#[serde(rename_all = "camelCase")]
pub struct SearchReply {
    /// The small board of the chosen move (Classic: 0).
    pub board: u8,
    /// The cell of the chosen move.
    pub cell: u8,
    /// The move in notation, e.g. `e5`.
    #[serde(rename = "move")]
    pub notation: String,
    /// The score for X (positive: X is better).
    pub score: i32,
    /// Plies to a proven end: positive when X wins, negative when O wins.
    pub mate: Option<i32>,
    /// The score as chances that X wins, that the game is drawn, and that O
    /// wins, as in [`Report`].
    pub x_wins: f64,
    /// See `x_wins`.
    pub draw: f64,
    /// See `x_wins`.
    pub o_wins: f64,
    /// The last completed depth (0 for Beginner, which does not search).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: f64,
    /// The principal variation in notation.
    pub pv: Vec<String>,
    /// Wall time of the search in milliseconds.
    pub elapsed_ms: f64,
}

impl SearchReply {
    /// The answer as a report of its last completed depth.
    #[must_use]
    pub fn report(&self) -> Report {
        Report {
            depth: self.depth,
            score: self.score,
            mate: self.mate,
            x_wins: self.x_wins,
            draw: self.draw,
            o_wins: self.o_wins,
            pv: self.pv.clone(),
            nodes: self.nodes,
        }
    }
}

pub(crate) fn for_x(score: Eval, to_move: Player) -> (i32, Option<i32>) {
    let x = score.for_player(to_move, Player::X);
    (x.0, x.mate_in())
}

pub(crate) fn pv_notation<M: core::fmt::Display>(pv: &[M]) -> Vec<String> {
    pv.iter().map(ToString::to_string).collect()
}

/// A search under way: what it searches, and by when.
#[derive(Clone, Debug, PartialEq)]
pub struct Search {
    /// The game whose position at the cursor is searched.
    pos: AnyGame,
    /// When the search began, by the caller's clock.
    started: f64,
    /// When it must answer.
    deadline: f64,
}

/// A finished search: the answer, and the opponent's expected reply (to
/// ponder on), when the search expects one.
#[derive(Clone, Debug, PartialEq)]
pub struct Finished {
    /// What the page is told.
    pub reply: SearchReply,
    /// The expected reply in notation, and the position after the chosen
    /// move and it (a game set up there).
    pub expected: Option<(String, AnyGame)>,
}

/// One slice of a search of `pos`: until `slice_end`, or in one go up to
/// `deadline` for a level that cannot be sliced. The result so far, and
/// whether the search is over (its deadline came, or deeper search cannot
/// change its answer).
fn slice_of<G: Searchable>(
    engine: &mut Engine,
    pos: &G,
    slice_end: f64,
    deadline: f64,
    now: &dyn Fn() -> f64,
    report: &mut dyn FnMut(Report),
) -> Option<(SearchResult<G::Move>, bool)> {
    let sliced = engine.level().resumes();
    let stop_at = if sliced {
        slice_end.min(deadline)
    } else {
        deadline
    };
    let to_move = pos.side_to_move();
    let result = engine.resume(
        pos,
        || now() >= stop_at,
        |p: &Progress<'_, G::Move>| {
            let (score, mate) = for_x(p.score, to_move);
            let c = x_chances(pos, p.score);
            report(Report {
                depth: p.depth,
                score,
                mate,
                x_wins: c.win,
                draw: c.draw,
                o_wins: c.loss,
                pv: pv_notation(p.pv),
                // Node counts stay far below 2^53, where f64 is exact.
                nodes: p.nodes as f64,
            });
        },
    )?;
    let done = !sliced || engine.is_settled(pos) || now() >= deadline;
    Some((result, done))
}

/// One slice of a search (see [`WebEngine::step`]), for either game.
struct Slice<'a> {
    engine: &'a mut Engine,
    slice_end: f64,
    search: &'a Search,
    now: &'a dyn Fn() -> f64,
    report: &'a mut dyn FnMut(Report),
}

impl Visit for Slice<'_> {
    type Output = Result<Option<Finished>, ApiError>;
    fn visit<G: AnyKind>(self, history: &History<G>) -> Self::Output {
        let pos = history.current();
        let Slice {
            engine,
            slice_end,
            search,
            now,
            report,
        } = self;
        let (result, done) =
            slice_of(engine, pos, slice_end, search.deadline, now, report).ok_or_else(game_over)?;
        Ok(done.then(|| finish(pos, &result, now() - search.started)))
    }
}

/// The answer of a finished search of `pos` that took `elapsed_ms`.
fn finish<G: AnyKind>(pos: &G, result: &SearchResult<G::Move>, elapsed_ms: f64) -> Finished {
    let (board, cell) = G::board_and_cell(result.best);
    let (score, mate) = for_x(result.score, pos.side_to_move());
    let chances = x_chances(pos, result.score);
    let mut after = *pos;
    after.play_unchecked(result.best);
    let expected = result
        .pv
        .get(1)
        .filter(|&&m| after.check(m).is_ok())
        .map(|&m| {
            let mut next = after;
            next.play_unchecked(m);
            (m.to_string(), next)
        })
        .filter(|(_, p)| !p.is_over())
        .map(|(m, next)| (m, G::into_any(History::new(next))));
    Finished {
        reply: SearchReply {
            board,
            cell,
            notation: result.best.to_string(),
            score,
            mate,
            x_wins: chances.win,
            draw: chances.draw,
            o_wins: chances.loss,
            depth: result.depth,
            // Node counts stay far below 2^53, where f64 is exact.
            nodes: result.nodes as f64,
            pv: pv_notation(&result.pv),
            elapsed_ms,
        },
        expected,
    }
}

fn game_over() -> ApiError {
    ApiError::new(
        ErrorCode::GameOver,
        "the game is over: there is no move to search",
    )
}

/// An engine at one level, kept by the worker across moves so its tables
/// carry over within a game. It lives in the worker's Rust side only: the
/// page never holds one, so no JavaScript code can free it mid-search.
///
/// A search is begun with [`WebEngine::begin`] and carried on by
/// [`WebEngine::step`] in slices, so the worker can return to its event loop
/// between them and see a new request within a slice's time.
pub struct WebEngine {
    engine: Engine,
}

/// Usable with any clock: the worker passes `Date.now`, tests a counter.
impl WebEngine {
    /// An engine at the level named `level`, its random choices drawn from
    /// `seed`.
    ///
    /// # Errors
    /// `bad-argument` for an unknown level.
    pub fn create(level: &str, seed: u64) -> Result<WebEngine, ApiError> {
        Ok(WebEngine {
            engine: Engine::for_level(levels::parse(level)?, seed),
        })
    }

    /// True when this level thinks on the opponent's time: Hard and Master.
    #[must_use]
    pub fn ponders(&self) -> bool {
        self.engine.level().resumes()
    }

    /// A search of the position at the cursor of `text` (a record
    /// without variations, or a position string; see [`AnyGame::parse`])
    /// for at most `budget_ms`, starting now by `now`.
    ///
    /// # Errors
    /// `bad-argument` for a bad budget, `parse-error` for bad text,
    /// `game-over` when there is nothing to search.
    pub fn begin(
        &self,
        text: &str,
        budget_ms: Option<f64>,
        now: &dyn Fn() -> f64,
    ) -> Result<Search, ApiError> {
        let budget = f64::from(args::index(
            budget_ms,
            "budget in milliseconds",
            MAX_BUDGET_MS,
        )?);
        let pos = AnyGame::parse(text)?;
        if pos.outcome().is_some() {
            return Err(game_over());
        }
        let started = now();
        Ok(Search {
            pos,
            started,
            deadline: started + budget,
        })
    }

    /// Searches on in `search` for one slice of `slice_ms` (Hard, Master;
    /// the other levels finish in one go), reporting each depth completed.
    /// The answer once the search is over, `None` while it goes on.
    ///
    /// # Errors
    /// `game-over` if the position has no move (never, for a search made
    /// by [`WebEngine::begin`]).
    pub fn step(
        &mut self,
        search: &Search,
        slice_ms: f64,
        now: &dyn Fn() -> f64,
        report: &mut dyn FnMut(Report),
    ) -> Result<Option<Finished>, ApiError> {
        search.pos.visit(Slice {
            engine: &mut self.engine,
            slice_end: now() + slice_ms,
            search,
            now,
            report,
        })
    }

    /// A pondering of `pos` until `until`: a [`Search`] for
    /// [`WebEngine::step`] like any other, whose answer nobody waits for; the
    /// search it leaves is carried on when `pos` comes to be searched.
    #[must_use]
    pub fn ponder(pos: AnyGame, now: f64, until: f64) -> Search {
        Search {
            pos,
            started: now,
            deadline: until,
        }
    }

    /// Forgets what earlier searches learnt: called when a new game starts.
    pub fn new_game(&mut self) {
        self.engine.new_game();
    }

    /// Runs `f` on the engine with `limits` in place of its level's, which
    /// come back after: a review's node budget, on the analyst's engine.
    pub(crate) fn with_limits<T>(&mut self, limits: Limits, f: impl FnOnce(&mut Engine) -> T) -> T {
        let own = self.engine.limits();
        self.engine.set_limits(limits);
        let out = f(&mut self.engine);
        self.engine.set_limits(own);
        out
    }

    /// The engine itself, for a survey's steps.
    pub(crate) fn engine(&mut self) -> &mut Engine {
        &mut self.engine
    }

    /// The engine's limits now.
    #[cfg(test)]
    pub(crate) fn limits(&self) -> Limits {
        self.engine.limits()
    }
}

#[cfg(test)]
pub(crate) mod tests {
    use super::*;
    use core::cell::Cell;
    use uttt_core::search::Level;

    /// Searches the position at the cursor of `text` for at most
    /// `budget_ms` in one long slice, as the worker does in many.
    fn run(
        engine: &mut WebEngine,
        text: &str,
        budget_ms: Option<f64>,
        now: &dyn Fn() -> f64,
        report: &mut dyn FnMut(Report),
    ) -> Result<SearchReply, ApiError> {
        let search = engine.begin(text, budget_ms, now)?;
        loop {
            if let Some(done) = engine.step(&search, f64::INFINITY, now, report)? {
                return Ok(done.reply);
            }
        }
    }

    /// A clock that advances 1 ms per reading, so deadlines are reached in
    /// a known number of polls without real time.
    pub(crate) fn ticking() -> impl Fn() -> f64 {
        let t = Cell::new(0.0);
        move || {
            t.set(t.get() + 1.0);
            t.get()
        }
    }

    #[test]
    fn a_report_after_a_move_reads_as_one_of_the_position_before_it() {
        let report = |mate| Report {
            depth: 7,
            score: -40,
            mate,
            x_wins: 0.2,
            draw: 0.3,
            o_wins: 0.5,
            pv: vec!["a1".into(), "b2".into()],
            nodes: 9.0,
        };
        let before = report(Some(-3)).after_move("e5");
        assert_eq!(before.pv, ["e5", "a1", "b2"]);
        assert_eq!(before.mate, Some(-4));
        assert_eq!(report(Some(5)).after_move("e5").mate, Some(6));
        let unproven = report(None).after_move("e5");
        assert_eq!(
            (unproven.mate, unproven.score, unproven.depth),
            (None, -40, 7)
        );
        assert_eq!((unproven.x_wins, unproven.o_wins), (0.2, 0.5));
    }

    #[test]
    fn every_level_answers_a_legal_move() {
        for level in Level::ALL {
            let name = level.name();
            let mut e = WebEngine::create(name, 7).unwrap();
            let mut reports = Vec::new();
            let r = run(
                &mut e,
                "ultimate-standard:e5",
                Some(50.0),
                &ticking(),
                &mut |r| reports.push(r),
            )
            .unwrap();
            let mut g = AnyGame::parse("ultimate-standard:e5").unwrap();
            g.play(r.board, r.cell).unwrap();
            assert_eq!(r.pv.first(), Some(&r.notation), "{name}");
        }
    }

    #[test]
    fn a_won_classic_position_is_found_for_x() {
        // X to move with two in a row on top: c1 wins at once.
        let mut e = WebEngine::create("hard", 1).unwrap();
        let r = run(
            &mut e,
            "classic xx./oo./...",
            Some(100.0),
            &ticking(),
            &mut |_| {},
        )
        .unwrap();
        assert_eq!((r.board, r.cell), (0, 2));
        assert!(r.mate.is_some_and(|m| m > 0), "{r:?}");
        assert!(r.score > 0);
    }

    #[test]
    fn bad_arguments_are_refused() {
        assert_eq!(
            WebEngine::create("grandmaster", 1).err().unwrap().code,
            ErrorCode::BadArgument
        );
        let mut e = WebEngine::create("easy", 1).unwrap();
        let clock = ticking();
        let mut no_report = |_| {};
        for budget in [None, Some(-1.0), Some(f64::NAN), Some(1e12)] {
            assert_eq!(
                run(&mut e, "classic:", budget, &clock, &mut no_report)
                    .unwrap_err()
                    .code,
                ErrorCode::BadArgument
            );
        }
        assert_eq!(
            run(&mut e, "classic:zz", Some(10.0), &clock, &mut no_report)
                .unwrap_err()
                .code,
            ErrorCode::ParseError
        );
        assert_eq!(
            run(
                &mut e,
                "classic:a1b1a2b2a3",
                Some(10.0),
                &clock,
                &mut no_report
            )
            .unwrap_err()
            .code,
            ErrorCode::GameOver
        );
    }
}

#[cfg(test)]
mod chances_tests {
    use super::*;
    use uttt_core::{Game, Move, Rules, Ultimate};

    #[test]
    fn chances_are_x_s_and_sum_to_one() {
        let mut pos = Ultimate::new(Rules::Standard);
        let x_to_move = x_chances(&pos, Eval(150));
        pos.play_unchecked(Move::from_index(40));
        // O to move and scored +150 for O: the same chances, seen by X.
        let o_to_move = x_chances(&pos, Eval(150));
        for c in [x_to_move, o_to_move] {
            assert!((c.win + c.draw + c.loss - 1.0).abs() < 1e-9);
        }
        assert!(x_to_move.win > x_to_move.loss);
        assert!(o_to_move.loss > o_to_move.win);
        let won = x_chances(&pos, Eval::win_in(3));
        assert_eq!((won.win, won.draw, won.loss), (0.0, 0.0, 1.0));
    }
}
