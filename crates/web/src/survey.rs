//! A survey in the worker (see [`crate::worker`]): core's [`Surveyor`] over
//! either game, in slices, each completed depth reported as every legal
//! cell's worth for the page's overlay, with the best line for the bar.

use serde::Serialize;
use tsify::Tsify;
use uttt_core::search::puzzle::{check_depth, is_one_answer};
use uttt_core::search::{
    Engine, Eval, MoveWorth, Searchable, Survey, Surveyor, WinChance, MAX_PLY,
};
use uttt_core::AnyGame;
use uttt_core::{AnyKind, History, Player, Rules, Visit};

use crate::engine::{for_x, pv_notation, Report, WebEngine};
use crate::error::{ApiError, ErrorCode};

/// What playing in one cell is worth, for the side to move.
#[derive(Clone, Debug, PartialEq, Serialize, Tsify)]
#[tsify(missing_as_null)]
#[serde(rename_all = "camelCase")]
pub struct CellWorth {
    /// The small board (Classic: 0).
    pub board: u8,
    /// The cell.
    pub cell: u8,
    /// The mover's expected score (0-1: a draw is 0.5) after playing here;
    /// at most this when not `exact`.
    pub expected: f64,
    /// Plies to a proven end after playing here: positive when the mover
    /// wins, negative when it loses.
    pub mate: Option<i32>,
    /// Whether the score is exact (else an upper bound: clearly worse than
    /// the best).
    pub exact: bool,
    /// The depth this move was searched to.
    pub depth: u32,
}

/// One depth of a survey: the best line as an analysis report (X's view,
/// for the bar) and every legal cell's worth, the best first.
#[derive(Clone, Debug, PartialEq, Serialize, Tsify)]
#[tsify(missing_as_null)]
pub struct SurveyReport {
    /// The best move's line and score, as the bar reads an analysis.
    pub report: Report,
    /// Every legal move, the best first.
    pub cells: Vec<CellWorth>,
}

/// A surveyor of either game, behind the calls a survey makes: the game's
/// type is gone once it is made.
trait Surveying: core::fmt::Debug {
    /// Surveys on until `stop` says so; true when a depth was completed.
    fn step(&mut self, engine: &mut Engine, stop: &mut dyn FnMut() -> bool) -> bool;
    /// What the survey has found so far.
    fn found(&self) -> Found;
    /// True once every depth has been surveyed.
    fn is_finished(&self) -> bool;
}

impl<G: Searchable> Surveying for Surveyor<G> {
    fn step(&mut self, engine: &mut Engine, stop: &mut dyn FnMut() -> bool) -> bool {
        Surveyor::step(self, engine, stop)
    }

    fn found(&self) -> Found {
        Found::of(self)
    }

    fn is_finished(&self) -> bool {
        Surveyor::is_finished(self)
    }
}

/// Makes the surveyor of the position after `ply` moves of a game, to
/// `max_depth` (the puzzle check's depth for the game when `None`).
struct NewSurveyor {
    ply: usize,
    max_depth: Option<u32>,
}

impl Visit for NewSurveyor {
    type Output = Option<Box<dyn Surveying>>;
    fn visit<G: AnyKind>(self, history: &History<G>) -> Self::Output {
        let depth = self.max_depth.unwrap_or_else(check_depth::<G>);
        let surveyor = Surveyor::new(history.position_at(self.ply)?, depth)?;
        Some(Box::new(surveyor))
    }
}

/// A survey under way, until its deadline or until deeper search cannot
/// change it.
#[derive(Debug)]
pub struct WebSurvey {
    surveyor: Box<dyn Surveying>,
    deadline: f64,
}

impl WebSurvey {
    /// A survey of the position at the cursor of `text` (a record
    /// without variations, or a position string; see [`AnyGame::parse`])
    /// until `deadline` by the caller's clock.
    ///
    /// # Errors
    /// `parse-error` for bad text, `game-over` when there is no move.
    pub fn begin(text: &str, deadline: f64) -> Result<WebSurvey, ApiError> {
        let over = || {
            ApiError::new(
                ErrorCode::GameOver,
                "the game is over: there is no move to survey",
            )
        };
        let game = AnyGame::parse(text)?;
        WebSurvey::at(&game, game.cursor(), Some(MAX_PLY as u32), deadline).ok_or_else(over)
    }

    /// The check of a puzzle after `ply` moves of `game`: a survey to
    /// [`check_depth`], without a deadline (it ends when finished); `None`
    /// past the game's end or when there is no move.
    pub(crate) fn puzzle_check(game: &AnyGame, ply: usize) -> Option<WebSurvey> {
        WebSurvey::at(game, ply, None, f64::INFINITY)
    }

    /// A survey of the position after `ply` moves of `game`, to
    /// `max_depth` (see [`NewSurveyor`]), until `deadline`.
    fn at(game: &AnyGame, ply: usize, max_depth: Option<u32>, deadline: f64) -> Option<WebSurvey> {
        let surveyor = game.visit(NewSurveyor { ply, max_depth })?;
        Some(WebSurvey { surveyor, deadline })
    }

    /// Surveys on with `engine` until `slice_end` (or the deadline); the
    /// new report when a depth was completed.
    pub fn step(
        &mut self,
        engine: &mut WebEngine,
        slice_end: f64,
        now: &dyn Fn() -> f64,
    ) -> Option<SurveyReport> {
        self.step_on(engine.engine(), slice_end, now)
            .then(|| self.found().report())
    }

    /// Surveys on with `engine` (under whatever limits it has) until
    /// `slice_end` or the deadline; true when a depth was completed.
    pub(crate) fn step_on(
        &mut self,
        engine: &mut Engine,
        slice_end: f64,
        now: &dyn Fn() -> f64,
    ) -> bool {
        let stop_at = slice_end.min(self.deadline);
        let mut stop = || now() >= stop_at;
        self.surveyor.step(engine, &mut stop)
    }

    /// What the survey has found so far.
    fn found(&self) -> Found {
        self.surveyor.found()
    }

    /// Whether the survey so far shows `answer` (board, cell) as the one
    /// good move (see [`is_one_answer`]).
    pub(crate) fn has_one_answer(&self, answer: (u8, u8)) -> bool {
        let found = self.found();
        is_one_answer(&found.survey.moves, answer, |s| found.chances(s).expected())
    }

    /// True once the survey is over: finished, or past its deadline.
    #[must_use]
    pub fn is_over(&self, now: f64) -> bool {
        self.surveyor.is_finished() || now >= self.deadline
    }
}

/// A survey's findings with the game's type gone: the generic part stays
/// this small, so the report is made once in the wasm, not once a game.
struct Found {
    survey: Survey<(u8, u8)>,
    pv: Vec<String>,
    ply: usize,
    max_plies: usize,
    rules: Rules,
    mover: Player,
}

impl Found {
    /// What `surveyor` has found so far.
    fn of<G: Searchable>(surveyor: &Surveyor<G>) -> Found {
        let pos = surveyor.position();
        let s = surveyor.survey();
        let moves = s.moves.iter().map(|w| MoveWorth {
            mv: G::board_and_cell(w.mv),
            score: w.score,
            exact: w.exact,
            depth: w.depth,
        });
        Found {
            pv: pv_notation(&s.pv),
            survey: Survey {
                depth: s.depth,
                nodes: s.nodes,
                moves: moves.collect(),
                pv: Vec::new(),
            },
            ply: pos.ply(),
            max_plies: G::MAX_PLIES,
            rules: pos.rules(),
            mover: pos.side_to_move(),
        }
    }

    /// The mover's chances of `score`.
    fn chances(&self, score: Eval) -> WinChance {
        WinChance::of(score, self.ply, self.max_plies, self.rules)
    }

    /// The report: the best line for the bar (X's view) and every cell.
    fn report(self) -> SurveyReport {
        let best = self.survey.moves[0].score;
        let (score, mate) = for_x(best, self.mover);
        let c = match self.mover {
            Player::X => self.chances(best),
            Player::O => self.chances(best).flip(),
        };
        let cells = self.survey.moves.iter().map(|w| CellWorth {
            board: w.mv.0,
            cell: w.mv.1,
            expected: self.chances(w.score).expected(),
            mate: w.score.mate_in(),
            exact: w.exact,
            depth: w.depth,
        });
        SurveyReport {
            cells: cells.collect(),
            report: Report {
                depth: self.survey.depth,
                score,
                mate,
                x_wins: c.win,
                draw: c.draw,
                o_wins: c.loss,
                pv: self.pv,
                // Node counts stay far below 2^53, where f64 is exact.
                nodes: self.survey.nodes as f64,
            },
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn counting_clock() -> impl Fn() -> f64 {
        let t = core::cell::Cell::new(0.0);
        move || {
            t.set(t.get() + 0.01);
            t.get()
        }
    }

    #[test]
    fn a_survey_reports_every_legal_cell_best_first() {
        let mut engine = WebEngine::create("hard", 1).unwrap();
        let now = counting_clock();
        let mut survey = WebSurvey::begin("ultimate-standard:e5e4", 1e9).unwrap();
        let mut last = None;
        for _ in 0..20 {
            if let Some(r) = survey.step(&mut engine, now() + 5.0, &now) {
                last = Some(r);
            }
        }
        let report = last.expect("a depth completes");
        // O's e4 (board 4, cell 1) sends X to board 1: its nine empty cells.
        assert_eq!(report.cells.len(), 9);
        assert!(report.cells.iter().all(|c| c.board == 1));
        let best = &report.cells[0];
        assert!(best.exact);
        assert!(report.cells.iter().all(|c| c.expected <= best.expected));
        assert_eq!(
            report.report.pv.first().map(String::as_str),
            Some(&*notation(best))
        );
        assert!(report.report.depth >= 1);
    }

    fn notation(c: &CellWorth) -> String {
        uttt_core::Move::new(c.board, c.cell).to_string()
    }

    #[test]
    fn a_classic_win_is_found_and_a_finished_game_refused() {
        let mut engine = WebEngine::create("hard", 1).unwrap();
        let now = counting_clock();
        // X has a1 and b2 against O's a2 and a3: c3 wins at once.
        let mut survey = WebSurvey::begin("classic:a1a2b2a3", 1e9).unwrap();
        let mut last = None;
        while !survey.is_over(now()) {
            last = survey.step(&mut engine, now() + 5.0, &now).or(last);
        }
        let report = last.unwrap();
        assert_eq!(report.cells.len(), 5);
        assert_eq!(report.cells[0].mate, Some(1));
        assert_eq!(report.report.mate, Some(1));
        assert_eq!(report.cells[0].expected, 1.0);
        let done = WebSurvey::begin("classic:a1a2b2a3c3", 1e9);
        assert_eq!(done.unwrap_err().code, ErrorCode::GameOver);
        assert_eq!(
            WebSurvey::begin("nonsense", 1e9).unwrap_err().code,
            ErrorCode::ParseError
        );
    }
}
