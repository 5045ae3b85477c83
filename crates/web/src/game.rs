//! The game object the page holds: the line shown, of either game type,
//! with undo, redo and jumps, inside the tree of every line played (see
//! lines.rs), every rule answered by `uttt_core`.

use uttt_core::record;
use uttt_core::tree::{self, AnyTree};
use uttt_core::{AnyGame, GameKind, Rules};
use wasm_bindgen::prelude::*;

use crate::args;
use crate::error::{ApiError, ErrorCode};
use crate::lines;
use crate::view::View;

/// A move by its place: the small board (Classic: 0) and the cell, 0-8.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Square {
    /// The small board.
    pub board: u8,
    /// The cell in it.
    pub cell: u8,
}

/// A game in progress with its whole history and its variations.
///
/// The shown line is a history like any game's: undo, redo and jumps move
/// along it, and a move from an earlier position starts a new line there.
/// Every line played stays in the tree, from which any can be shown again.
/// Every method that can be refused leaves the game exactly as it was and
/// throws an `Error` whose `code` says why (see [`ApiError`]).
#[wasm_bindgen]
#[derive(Clone, Debug)]
pub struct WebGame {
    /// The line shown, with its cursor.
    inner: AnyGame,
    /// Every line, the shown one among them.
    tree: AnyTree,
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
        let kind = match kind {
            "ultimate" => GameKind::Ultimate,
            "classic" => GameKind::Classic,
            _ => {
                return Err(ApiError::bad_argument(format!(
                    "unknown game type '{kind}': expected ultimate or classic"
                )))
            }
        };
        Ok(WebGame::of_line(AnyGame::new(kind, rules)))
    }

    /// A game of `line` alone.
    fn of_line(mut line: AnyGame) -> WebGame {
        let mut tree = AnyTree::starting(&line);
        // A line read from a record or set up from a position (no moves)
        // always fits an empty tree.
        let _ = lines::store(&mut tree, &mut line);
        WebGame { inner: line, tree }
    }

    /// A game read from a record, with or without variations
    /// (`ultimate-standard:e5e4(d5)`: the main line shown, its cursor at
    /// the end), or a position string (no moves yet).
    ///
    /// # Errors
    /// `parse-error` with the offset where the text went wrong.
    pub fn parse(text: &str) -> Result<WebGame, ApiError> {
        if text.contains(':') {
            let tree = tree::parse_tree_record(text)?;
            Ok(WebGame {
                inner: tree.main_line(),
                tree,
            })
        } else {
            Ok(WebGame::of_line(record::parse_position(text)?))
        }
    }

    /// Plays at `cell` of small board `board` (Classic: board 0).
    ///
    /// # Errors
    /// `bad-argument` for values that are not board and cell numbers (0-8),
    /// or a board other than 0 in Classic; otherwise why the move is
    /// illegal (`wrong-board`, `cell-taken`, ...). Nothing changes on error.
    pub fn try_play(&mut self, board: Option<f64>, cell: Option<f64>) -> Result<(), ApiError> {
        let mut line = self.played(board, cell)?;
        lines::store(&mut self.tree, &mut line)?;
        self.inner = line;
        Ok(())
    }

    /// The line shown with the move at (`board`, `cell`) played at the
    /// cursor, the game itself unchanged.
    ///
    /// # Errors
    /// As [`WebGame::try_play`]'s.
    fn played(&self, board: Option<f64>, cell: Option<f64>) -> Result<AnyGame, ApiError> {
        let board = args::index(board, "board", 8)?;
        let cell = args::index(cell, "cell", 8)?;
        if self.inner.kind() == GameKind::Classic && board != 0 {
            return Err(ApiError::bad_argument(
                "a Classic game has a single board, number 0",
            ));
        }
        let mut line = self.inner.clone();
        // Both are at most 8, so they fit a u8.
        line.play(board as u8, cell as u8)?;
        Ok(line)
    }

    /// Whether the move at (`board`, `cell`) may be played at the cursor,
    /// without playing it.
    ///
    /// # Errors
    /// As [`WebGame::try_play`]'s.
    pub fn try_check(&self, board: Option<f64>, cell: Option<f64>) -> Result<(), ApiError> {
        self.played(board, cell).map(|_| ())
    }

    /// The move `text` (notation: `e5`, Classic `b2`) as a board and cell,
    /// if it is legal after `ply` moves of the line shown.
    #[must_use]
    pub fn move_after(&self, ply: Option<f64>, text: &str) -> Option<Square> {
        let ply = usize::try_from(args::index(ply, "ply", u32::MAX).ok()?).ok()?;
        let mut line = self.inner.clone();
        if !line.jump(ply) {
            return None;
        }
        let (board, cell) = line.parse_move(text).ok()?;
        line.play(board, cell).ok()?;
        Some(Square { board, cell })
    }

    /// Shows the line through position `id` of [`WebGame::tree_items`],
    /// at that position.
    ///
    /// # Errors
    /// `bad-argument` for a non-number, `no-such-position` for an unknown id.
    pub fn try_jump_to(&mut self, id: Option<f64>) -> Result<(), ApiError> {
        let id = args::index(id, "position id", u32::MAX)?;
        let line = lines::line_through(&self.tree, id).ok_or_else(|| {
            ApiError::new(
                ErrorCode::NoSuchPosition,
                format!("the game has no position {id}"),
            )
        })?;
        self.inner = line;
        Ok(())
    }

    /// Makes the line through position `id` the main line (see [`WebGame::promote`]).
    pub fn promote_line(&mut self, id: Option<f64>) -> bool {
        args::index(id, "position id", u32::MAX).is_ok_and(|id| lines::promote(&mut self.tree, id))
    }

    /// Deletes the move to position `id` and after (see [`WebGame::delete_line`]).
    pub fn remove_line(&mut self, id: Option<f64>) -> bool {
        args::index(id, "position id", u32::MAX)
            .is_ok_and(|id| lines::delete(&mut self.tree, &mut self.inner, id))
    }

    /// The id of the position the moves of `record` (a record of this game,
    /// its main line if it has variations) reach in the tree, if it has them.
    #[must_use]
    pub fn line_of_record(&self, record: &str) -> Option<u32> {
        let line = tree::parse_tree_record(record).ok()?.main_line();
        lines::find(&self.tree, &line)
    }

    /// The tree in its record's order (see [`lines::TreeItem`]).
    #[must_use]
    pub fn tree_items(&self) -> Vec<lines::TreeItem> {
        lines::items(&self.tree, &self.inner)
    }

    /// The record of every line when the game starts from the empty board
    /// (the plain record when it has no side lines), else `None`.
    #[must_use]
    pub fn tree_record_text(&self) -> Option<String> {
        self.record_text()?;
        Some(self.tree.record_string())
    }

    /// The snapshot of the shown position, with its place in the tree.
    #[must_use]
    pub fn snapshot(&self) -> View {
        let mut view = View::of(&self.inner);
        (view.node, view.line_end) = lines::line_nodes(&self.tree, &self.inner);
        view.side_lines = self.tree.len() > self.len();
        view.line_over = view.outcome.is_some() || self.line_ends_over();
        view
    }

    /// Whether the line shown ends in a finished game (at its last move,
    /// wherever the cursor is).
    fn line_ends_over(&self) -> bool {
        if self.inner.cursor() == self.len() {
            return self.inner.outcome().is_some();
        }
        let mut end = self.inner.clone();
        end.jump(self.len()) && end.outcome().is_some()
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
            .is_some_and(|p| self.inner.jump(p));
        if ok {
            Ok(())
        } else {
            Err(ApiError::new(
                ErrorCode::NoSuchPly,
                format!("the game has {len} moves; cannot go to move {ply}"),
            ))
        }
    }

    /// The number of recorded moves, including those after the cursor.
    #[must_use]
    pub fn len(&self) -> usize {
        self.inner.len()
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
        self.inner.record()
    }

    /// The position string of the position at the cursor.
    #[must_use]
    pub fn position_text(&self) -> String {
        self.inner.position_string()
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

    /// Checks a move at (`board`, `cell`) as `play` would, without playing it.
    ///
    /// # Errors
    /// Throws what `play` would throw; the game is unchanged either way.
    pub fn check(&self, board: JsValue, cell: JsValue) -> Result<(), JsValue> {
        self.try_check(board.as_f64(), cell.as_f64())
            .map_err(ApiError::into_js)
    }

    /// The move `text` (notation: `e5`; Classic `b2`) as `board * 9 +
    /// cell` (Classic: the cell), if it is legal after `ply` moves of the
    /// line shown; else `undefined`. (A number, not an object: the page's
    /// module stays small.)
    #[wasm_bindgen(js_name = moveAfter)]
    pub fn move_after_js(&self, ply: JsValue, text: &str) -> Option<u8> {
        self.move_after(ply.as_f64(), text)
            .map(|square| square.board * 9 + square.cell)
    }

    /// Takes back one move; false (and no change) at the start.
    pub fn undo(&mut self) -> bool {
        self.inner.undo()
    }

    /// Replays one taken-back move; false (and no change) at the end.
    pub fn redo(&mut self) -> bool {
        self.inner.redo()
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
        self.inner.truncate();
    }

    /// A snapshot of everything the page draws, as a plain object (the
    /// fields of [`View`], camelCase, `null` for none).
    ///
    /// # Errors
    /// Throws `crash` if the snapshot cannot be converted, which the
    /// view's plain fields never cause.
    #[wasm_bindgen(unchecked_return_type = "View")]
    pub fn view(&self) -> Result<JsValue, JsValue> {
        crate::convert::to_js(&self.snapshot()).map_err(ApiError::into_js)
    }

    /// The record of every move of the shown line (`ultimate-standard:e5e4`),
    /// or `undefined` for a game set up from a position string.
    pub fn record(&self) -> Option<String> {
        self.record_text()
    }

    /// The record of every line (`ultimate-standard:e5e4(d5)`), or
    /// `undefined` for a game set up from a position string.
    #[wasm_bindgen(js_name = treeRecord)]
    pub fn tree_record(&self) -> Option<String> {
        self.tree_record_text()
    }

    /// Every line in the record's order: `[{kind, id, ply, notation, shown,
    /// main}]`, `kind` `move`, `open` or `close` (see [`lines::TreeItem`]).
    ///
    /// # Errors
    /// Throws `crash` if the list cannot be converted, which its plain
    /// fields never cause.
    #[wasm_bindgen(unchecked_return_type = "TreeItem[]")]
    pub fn lines(&self) -> Result<JsValue, JsValue> {
        crate::convert::to_js(&self.tree_items()).map_err(ApiError::into_js)
    }

    /// `lineOf(record)`: the id of the position `record`'s moves reach in
    /// the tree (see [`WebGame::line_of_record`]), or `undefined`, also for
    /// a non-string.
    #[wasm_bindgen(js_name = lineOf)]
    pub fn line_of(&self, record: JsValue) -> Option<u32> {
        self.line_of_record(&record.as_string()?)
    }

    /// Shows the line through position `id` (from `lines()`), at that position.
    ///
    /// # Errors
    /// Throws `no-such-position` or `bad-argument`; the game is unchanged.
    #[wasm_bindgen(js_name = jumpTo)]
    pub fn jump_to(&mut self, id: JsValue) -> Result<(), JsValue> {
        self.try_jump_to(id.as_f64()).map_err(ApiError::into_js)
    }

    /// Makes the line through position `id` the main line; false (and no
    /// change) for the start or an unknown id. Renumbers the ids.
    pub fn promote(&mut self, id: JsValue) -> bool {
        self.promote_line(id.as_f64())
    }

    /// Deletes the move to position `id` and every move after it; if the
    /// shown line went through it, the line before it is shown. False (and
    /// no change) for the start or an unknown id. Renumbers the ids.
    #[wasm_bindgen(js_name = deleteLine)]
    pub fn delete_line(&mut self, id: JsValue) -> bool {
        self.remove_line(id.as_f64())
    }

    /// The position string at the cursor (what the worker searches).
    #[wasm_bindgen(js_name = positionString)]
    pub fn position_string(&self) -> String {
        self.position_text()
    }

    /// `"ultimate"` or `"classic"`.
    #[wasm_bindgen(getter)]
    pub fn kind(&self) -> String {
        kind_name(self.inner.kind()).into()
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
    fn a_move_is_checked_as_play_would_and_nothing_changes() {
        let mut g = WebGame::parse("ultimate-standard:e5").unwrap();
        let before = snapshot(&g);
        // e5 sent O to the centre board: d4 (board 0) is the wrong board.
        assert!(g.try_check(Some(4.0), Some(0.0)).is_ok());
        assert_eq!(
            g.try_check(Some(0.0), Some(0.0)).unwrap_err().code,
            ErrorCode::WrongBoard
        );
        assert_eq!(
            g.try_check(Some(4.0), Some(4.0)).unwrap_err().code,
            ErrorCode::CellTaken
        );
        assert_eq!(
            g.try_check(Some(9.0), Some(0.0)).unwrap_err().code,
            ErrorCode::BadArgument
        );
        assert_eq!(snapshot(&g), before);
        g.try_jump(Some(0.0)).unwrap();
        assert!(
            g.try_check(Some(4.0), Some(4.0)).is_ok(),
            "at the start e5 is free"
        );
    }

    #[test]
    fn a_move_named_after_some_moves_is_found_only_where_it_is_legal() {
        let g = WebGame::parse("ultimate-standard:e5e4").unwrap();
        let e4 = g.move_after(Some(1.0), "e4");
        assert_eq!(e4, Some(Square { board: 4, cell: 1 }));
        // After e5, d4 is in the wrong board; after two moves e4 is taken.
        assert_eq!(g.move_after(Some(1.0), "a1"), None);
        assert_eq!(g.move_after(Some(2.0), "e4"), None);
        assert_eq!(g.move_after(Some(3.0), "e6"), None, "past the end");
        assert_eq!(g.move_after(Some(1.0), "z9"), None);
        let classic = WebGame::parse("classic:b2").unwrap();
        assert_eq!(
            classic.move_after(Some(1.0), "a1"),
            Some(Square { board: 0, cell: 0 })
        );
    }

    #[test]
    fn the_view_says_whether_the_line_shown_ends_finished() {
        let mut g = WebGame::parse("classic:a1b1a2b2a3").unwrap();
        assert!(g.snapshot().line_over);
        g.try_jump(Some(1.0)).unwrap();
        let view = g.snapshot();
        assert!(view.outcome.is_none() && view.line_over);
        let mut open = WebGame::parse("classic:a1b1").unwrap();
        assert!(!open.snapshot().line_over);
        open.try_jump(Some(0.0)).unwrap();
        assert!(!open.snapshot().line_over);
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
            ErrorCode::WrongBoard
        );
        assert_eq!(
            g.try_play(Some(4.0), Some(4.0)).unwrap_err().code,
            ErrorCode::CellTaken
        );
        assert!(g.try_jump(Some(2.0)).is_err());
        assert!(g.try_jump(Some(-1.0)).is_err());
        assert!(g.try_jump(None).is_err());
        assert_eq!(snapshot(&g), before);
        assert!(WebGame::create("chess", "standard").is_err());
        assert!(WebGame::create("ultimate", "fast").is_err());
        assert_eq!(
            WebGame::parse("ultimate-standard:e5a1").unwrap_err().code,
            ErrorCode::ParseError
        );
    }

    #[test]
    fn classic_uses_board_zero() {
        let mut g = WebGame::create("classic", "standard").unwrap();
        assert_eq!(
            g.try_play(Some(1.0), Some(0.0)).unwrap_err().code,
            ErrorCode::BadArgument
        );
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

    fn moves_of(items: &[lines::TreeItem]) -> String {
        items
            .iter()
            .map(|i| match i.kind {
                "open" => "(".into(),
                "close" => ")".into(),
                _ => i.notation.clone(),
            })
            .collect()
    }

    #[test]
    fn a_move_from_an_earlier_position_keeps_the_later_ones_as_a_line() {
        let mut g = WebGame::parse("ultimate-standard:e5e4d2").unwrap();
        g.try_jump(Some(1.0)).unwrap();
        // O plays f5 (board 4, cell 5) instead of e4: a new line, shown.
        g.try_play(Some(4.0), Some(5.0)).unwrap();
        assert_eq!(g.record_text().as_deref(), Some("ultimate-standard:e5f5"));
        let tree = g.tree_record_text().unwrap();
        assert_eq!(tree, "ultimate-standard:e5e4(f5)d2");
        let items = g.tree_items();
        assert_eq!(moves_of(&items), "e5e4(f5)d2");
        let f5 = items.iter().find(|i| i.notation == "f5").unwrap();
        assert!(f5.shown && !f5.main && f5.ply == 2);
        let view = g.snapshot();
        assert!(view.side_lines);
        assert_eq!((view.node, view.line_end), (f5.id, f5.id));

        // The main line again, through its last move; then a bad id changes nothing.
        let d2 = items.iter().find(|i| i.notation == "d2").unwrap().id;
        g.try_jump_to(Some(f64::from(d2))).unwrap();
        assert_eq!(g.record_text().as_deref(), Some("ultimate-standard:e5e4d2"));
        assert_eq!(g.snapshot().ply, 3);
        let before = (g.record_text(), g.tree_record_text(), g.snapshot());
        for bad in [None, Some(99.0), Some(-1.0), Some(0.5)] {
            assert!(g.try_jump_to(bad).is_err(), "{bad:?}");
        }
        assert!(!g.promote_line(Some(0.0)));
        assert!(!g.promote_line(None));
        assert!(!g.remove_line(Some(99.0)));
        assert!(!g.remove_line(Some(0.0)));
        assert_eq!(
            (g.record_text(), g.tree_record_text(), g.snapshot()),
            before
        );

        // The record with its lines reads back as the same tree.
        let back = WebGame::parse(&tree).unwrap();
        assert_eq!(back.tree_record_text().as_deref(), Some(tree.as_str()));
        assert_eq!(
            back.record_text().as_deref(),
            Some("ultimate-standard:e5e4d2")
        );
    }

    #[test]
    fn a_line_is_promoted_and_deleted() {
        let mut g = WebGame::parse("ultimate-standard:e5e4(f5g5)d2").unwrap();
        let id = |g: &WebGame, m: &str| {
            let id = g.tree_items().iter().find(|i| i.notation == m).unwrap().id;
            Some(f64::from(id))
        };
        let g5 = id(&g, "g5");
        g.try_jump_to(g5).unwrap();
        assert!(g.promote_line(id(&g, "g5")));
        assert_eq!(
            g.tree_record_text().as_deref(),
            Some("ultimate-standard:e5f5(e4d2)g5")
        );
        // The shown line is still e5 f5 g5, now the main line.
        assert_eq!(g.record_text().as_deref(), Some("ultimate-standard:e5f5g5"));
        assert!(
            g.tree_items()
                .iter()
                .find(|i| i.notation == "g5")
                .unwrap()
                .main
        );

        // Deleting the shown line from f5 shows the line before it, e5 e4 d2, at e5.
        g.try_jump(Some(3.0)).unwrap();
        let f5 = id(&g, "f5");
        assert!(g.remove_line(f5));
        assert_eq!(
            g.tree_record_text().as_deref(),
            Some("ultimate-standard:e5e4d2")
        );
        assert_eq!(g.record_text().as_deref(), Some("ultimate-standard:e5e4d2"));
        assert_eq!(g.snapshot().ply, 1);
        assert!(!g.snapshot().side_lines);
        // A line inside a side line starts a branch of its own.
        let nested = WebGame::parse("ultimate-standard:e5e4(f5g5(h5))d2").unwrap();
        let branches: Vec<String> = nested
            .tree_items()
            .into_iter()
            .filter(|i| i.branch)
            .map(|i| i.notation)
            .collect();
        assert_eq!(branches, ["f5", "h5"]);
        // Where a record's moves end in the tree, if they do.
        assert_eq!(nested.line_of_record("ultimate-standard:e5f5h5"), Some(5));
        assert_eq!(nested.line_of_record("ultimate-standard:e5"), Some(1));
        assert_eq!(nested.line_of_record("ultimate-standard:"), Some(0));
        assert_eq!(nested.line_of_record("ultimate-standard:e5d5"), None);
        assert_eq!(nested.line_of_record("classic:a1"), None);
        assert_eq!(nested.line_of_record("nonsense"), None);
        // Deleting a line not shown leaves the shown one as it is.
        let mut g = WebGame::parse("ultimate-standard:e5e4(f5)d2").unwrap();
        let f5 = id(&g, "f5");
        assert!(g.remove_line(f5));
        assert_eq!(g.record_text().as_deref(), Some("ultimate-standard:e5e4d2"));
        assert_eq!(g.snapshot().ply, 3);
    }
}
