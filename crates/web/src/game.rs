//! The game object the page holds: a history of either game type with undo,
//! redo and jumps, every rule answered by `uttt_core`.

use uttt_core::record::{self, AnyGame};
use uttt_core::{Classic, ClassicMove, Game, GameKind, History, Move, Rules, Ultimate};
use wasm_bindgen::prelude::*;

use crate::args;
use crate::error::ApiError;
use crate::view::View;

/// Runs `$body` with `$h` bound to the history of whichever game `$any` holds.
macro_rules! with_history {
    ($any:expr, $h:ident => $body:expr) => {
        match $any {
            AnyGame::Ultimate($h) => $body,
            AnyGame::Classic($h) => $body,
        }
    };
}

/// A game in progress with its whole history.
///
/// Every method that can be refused leaves the game exactly as it was and
/// throws an `Error` whose `code` says why (see [`ApiError`]).
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct WebGame {
    inner: AnyGame,
}

/// The Rust side of the API, usable (and tested) without a JavaScript host.
impl WebGame {
    /// A new game. `kind` is `ultimate` or `classic`; `rules` is `standard`
    /// or `tiebreak` (Classic accepts either and always plays standard).
    ///
    /// # Errors
    /// `bad-argument` for an unknown kind or rule set.
    pub fn create(kind: &str, rules: &str) -> Result<WebGame, ApiError> {
        let rules = Rules::from_name(rules).ok_or_else(|| {
            ApiError::bad_argument(format!(
                "unknown rules '{rules}': expected standard or tiebreak"
            ))
        })?;
        let inner = match kind {
            "ultimate" => AnyGame::Ultimate(History::new(Ultimate::new(rules))),
            "classic" => AnyGame::Classic(History::new(Classic::new())),
            _ => {
                return Err(ApiError::bad_argument(format!(
                    "unknown game type '{kind}': expected ultimate or classic"
                )))
            }
        };
        Ok(WebGame { inner })
    }

    /// A game read from a record (`ultimate-standard:e5e4`, cursor at the
    /// end) or a position string (no moves yet).
    ///
    /// # Errors
    /// `parse-error` with the offset where the text went wrong.
    pub fn parse(text: &str) -> Result<WebGame, ApiError> {
        let inner = if text.contains(':') {
            record::parse_record(text)?
        } else {
            record::parse_position(text)?
        };
        Ok(WebGame { inner })
    }

    /// Plays at `cell` of small board `board` (Classic: board 0).
    ///
    /// # Errors
    /// `bad-argument` for values that are not cell numbers; otherwise why
    /// the move is illegal (`wrong-board`, `cell-taken`, ...). Nothing
    /// changes on error.
    pub fn try_play(&mut self, board: Option<f64>, cell: Option<f64>) -> Result<(), ApiError> {
        let cell = args::index(cell, "cell", 8)?;
        match &mut self.inner {
            AnyGame::Ultimate(h) => {
                let board = args::index(board, "board", 8)?;
                // Both are at most 8, so they fit a u8.
                h.play(Move::new(board as u8, cell as u8))?;
            }
            AnyGame::Classic(h) => {
                if board != Some(0.0) {
                    return Err(ApiError::bad_argument(
                        "a Classic game has a single board, number 0",
                    ));
                }
                h.play(ClassicMove(cell as u8))?;
            }
        }
        Ok(())
    }

    /// Moves the cursor to `ply` moves from the start.
    ///
    /// # Errors
    /// `bad-argument` for a non-number, `no-such-ply` past the end.
    pub fn try_jump(&mut self, ply: Option<f64>) -> Result<(), ApiError> {
        let len = self.len();
        let ply = args::index(ply, "ply", u32::MAX).map_err(|_| {
            ApiError::bad_argument(format!("ply must be a whole number from 0 to {len}"))
        })?;
        let ok = usize::try_from(ply)
            .ok()
            .is_some_and(|p| with_history!(&mut self.inner, h => h.jump(p)));
        if ok {
            Ok(())
        } else {
            Err(ApiError::new(
                "no-such-ply",
                format!("the game has {len} moves; cannot go to move {ply}"),
            ))
        }
    }

    /// The number of recorded moves, including those after the cursor.
    #[must_use]
    pub fn len(&self) -> usize {
        with_history!(&self.inner, h => h.len())
    }

    /// True when no move is recorded.
    #[must_use]
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The game as the core holds it.
    #[must_use]
    pub fn any(&self) -> &AnyGame {
        &self.inner
    }

    /// The game's record when it starts from the empty board, else `None`.
    #[must_use]
    pub fn record_text(&self) -> Option<String> {
        with_history!(&self.inner, h => (*h.start() == Game::start(h.start().rules()))
            .then(|| record::record_string(h)))
    }

    /// The position string of the position at the cursor.
    #[must_use]
    pub fn position_text(&self) -> String {
        match &self.inner {
            AnyGame::Ultimate(h) => record::position_string(h.current()),
            AnyGame::Classic(h) => record::classic_position_string(h.current()),
        }
    }
}

/// The JavaScript side: the same operations with arguments checked at the
/// boundary, where anything may arrive.
#[wasm_bindgen]
impl WebGame {
    /// `new WebGame(kind, rules)`: `"ultimate"|"classic"`, `"standard"|"tiebreak"`.
    ///
    /// # Errors
    /// Throws `bad-argument` for unknown names or non-strings.
    #[wasm_bindgen(constructor)]
    pub fn new(kind: JsValue, rules: JsValue) -> Result<WebGame, JsValue> {
        let kind = args::text(kind.as_string(), "game type").map_err(ApiError::into_js)?;
        let rules = args::text(rules.as_string(), "rules").map_err(ApiError::into_js)?;
        WebGame::create(&kind, &rules).map_err(ApiError::into_js)
    }

    /// `WebGame.fromText(text)`: a game from a record or a position string.
    ///
    /// # Errors
    /// Throws `parse-error` (with `at`) or `bad-argument` for a non-string.
    #[wasm_bindgen(js_name = fromText)]
    pub fn from_text(text: JsValue) -> Result<WebGame, JsValue> {
        let text = args::text(text.as_string(), "text").map_err(ApiError::into_js)?;
        WebGame::parse(&text).map_err(ApiError::into_js)
    }

    /// Plays at `cell` (0-8) of small board `board` (0-8; Classic: 0).
    ///
    /// # Errors
    /// Throws with `code` `wrong-board`, `cell-taken`, `board-decided`,
    /// `game-over` or `bad-argument`; the game is unchanged.
    pub fn play(&mut self, board: JsValue, cell: JsValue) -> Result<(), JsValue> {
        self.try_play(board.as_f64(), cell.as_f64())
            .map_err(ApiError::into_js)
    }

    /// Takes back one move; false (and no change) at the start.
    pub fn undo(&mut self) -> bool {
        with_history!(&mut self.inner, h => h.undo().is_some())
    }

    /// Replays one taken-back move; false (and no change) at the end.
    pub fn redo(&mut self) -> bool {
        with_history!(&mut self.inner, h => h.redo().is_some())
    }

    /// Shows the position after `ply` moves (0 to the number recorded).
    ///
    /// # Errors
    /// Throws `no-such-ply` or `bad-argument`; the game is unchanged.
    pub fn jump(&mut self, ply: JsValue) -> Result<(), JsValue> {
        self.try_jump(ply.as_f64()).map_err(ApiError::into_js)
    }

    /// Drops the taken-back moves after the cursor.
    pub fn truncate(&mut self) {
        with_history!(&mut self.inner, h => h.truncate());
    }

    /// A snapshot of everything the page draws, as a plain object (the
    /// fields of [`View`], camelCase, `null` for none).
    ///
    /// # Errors
    /// Throws `crash` if the snapshot cannot be converted, which the
    /// view's plain fields never cause.
    pub fn view(&self) -> Result<JsValue, JsValue> {
        crate::convert::to_js(&View::of(&self.inner)).map_err(ApiError::into_js)
    }

    /// The record of every move (`ultimate-standard:e5e4`), or `undefined`
    /// for a game set up from a position string.
    pub fn record(&self) -> Option<String> {
        self.record_text()
    }

    /// The position string at the cursor (what the worker searches).
    #[wasm_bindgen(js_name = positionString)]
    pub fn position_string(&self) -> String {
        self.position_text()
    }

    /// `"ultimate"` or `"classic"`.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        kind_name(match self.inner {
            AnyGame::Ultimate(_) => GameKind::Ultimate,
            AnyGame::Classic(_) => GameKind::Classic,
        })
        .into()
    }
}

/// The name of a game type as the API spells it.
#[must_use]
pub fn kind_name(kind: GameKind) -> &'static str {
    match kind {
        GameKind::Ultimate => "ultimate",
        GameKind::Classic => "classic",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn snapshot(g: &WebGame) -> (String, Option<String>, usize) {
        (g.position_text(), g.record_text(), g.len())
    }

    #[test]
    fn bad_arguments_change_nothing() {
        let mut g = WebGame::create("ultimate", "standard").unwrap();
        g.try_play(Some(4.0), Some(4.0)).unwrap();
        let before = snapshot(&g);
        for (b, c) in [
            (None, Some(0.0)),
            (Some(4.0), None),
            (Some(9.0), Some(0.0)),
            (Some(4.0), Some(-1.0)),
            (Some(4.5), Some(0.0)),
            (Some(f64::NAN), Some(0.0)),
            (Some(0.0), Some(0.0)), // wrong board: must play in the centre
            (Some(4.0), Some(4.0)), // taken
        ] {
            assert!(g.try_play(b, c).is_err(), "{b:?} {c:?}");
            assert_eq!(snapshot(&g), before);
        }
        assert_eq!(
            g.try_play(Some(0.0), Some(0.0)).unwrap_err().code,
            "wrong-board"
        );
        assert_eq!(
            g.try_play(Some(4.0), Some(4.0)).unwrap_err().code,
            "cell-taken"
        );
        assert!(g.try_jump(Some(2.0)).is_err());
        assert!(g.try_jump(Some(-1.0)).is_err());
        assert!(g.try_jump(None).is_err());
        assert_eq!(snapshot(&g), before);
        assert!(WebGame::create("chess", "standard").is_err());
        assert!(WebGame::create("ultimate", "fast").is_err());
        assert_eq!(
            WebGame::parse("ultimate-standard:e5a1").unwrap_err().code,
            "parse-error"
        );
    }

    #[test]
    fn classic_uses_board_zero() {
        let mut g = WebGame::create("classic", "standard").unwrap();
        assert!(g.try_play(Some(1.0), Some(0.0)).is_err());
        g.try_play(Some(0.0), Some(4.0)).unwrap();
        assert_eq!(g.record_text().as_deref(), Some("classic:b2"));
    }

    #[test]
    fn records_round_trip_and_position_games_have_none() {
        let mut g = WebGame::create("ultimate", "tiebreak").unwrap();
        g.try_play(Some(4.0), Some(4.0)).unwrap();
        g.try_play(Some(4.0), Some(0.0)).unwrap();
        let rec = g.record_text().unwrap();
        let back = WebGame::parse(&rec).unwrap();
        assert_eq!(snapshot(&back), snapshot(&g));
        let from_pos = WebGame::parse(&g.position_text()).unwrap();
        assert_eq!(from_pos.record_text(), None);
        assert_eq!(from_pos.position_text(), g.position_text());
        // The empty grid set up as a position is the start of a game, and
        // writes the record of one.
        let start = WebGame::create("ultimate", "standard").unwrap();
        let set_up = WebGame::parse(&start.position_text()).unwrap();
        assert_eq!(set_up.record_text().as_deref(), Some("ultimate-standard:"));
    }
}
