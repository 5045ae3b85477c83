//! The snapshot the page draws from: every fact about the position at the
//! cursor, computed by the core, in flat arrays. It crosses the boundary as
//! one plain object (serde-wasm-bindgen), built once per render.

use serde::Serialize;
use tsify::Tsify;
use uttt_core::AnyGame;
use uttt_core::{BoardStatus, Classic, Game, History, Outcome, Player, Ultimate};

/// Everything the page shows about one position and its history.
///
/// Ultimate has 9 boards of 9 cells (`cells` index `board * 9 + cell`);
/// Classic has one board (board 0) of 9 cells.
/// Field names cross in camelCase (`boardStatus`, `sideToMove`); a `None`
/// crosses as `null`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Tsify)]
#[tsify(missing_as_null)]
#[serde(rename_all = "camelCase")]
pub struct View {
    /// `"ultimate"` or `"classic"`.
    #[tsify(type = "\"ultimate\" | \"classic\"")]
    pub kind: String,
    /// `"standard"` or `"tiebreak"`.
    #[tsify(type = "\"standard\" | \"tiebreak\"")]
    pub rules: String,
    /// Per cell: 0 empty, 1 X, 2 O.
    pub cells: Vec<u8>,
    /// Per cell: 1 when the side to move may play there now.
    pub legal: Vec<u8>,
    /// Per board: 1 when the side to move may play in it.
    pub playable: Vec<u8>,
    /// Per board: 0 open, 1 won by X, 2 won by O, 3 drawn.
    pub board_status: Vec<u8>,
    /// Per board, the three cells in a row that won it (255 when not won).
    pub winning_cells: Vec<u8>,
    /// `"x"`, `"o"` or `"draw"` once the game is over.
    #[tsify(type = "\"x\" | \"o\" | \"draw\" | null")]
    pub outcome: Option<String>,
    /// The three boards in a row that won an Ultimate game (empty when
    /// none did: game on, draw, or a tie-break win).
    pub winning_boards: Vec<u8>,
    /// The board of the last move (Classic: 0).
    pub last_board: Option<u8>,
    /// The cell of the last move.
    pub last_cell: Option<u8>,
    /// `"x"` or `"o"`: whose turn it is (after the end: who would move).
    #[tsify(type = "\"x\" | \"o\"")]
    pub side_to_move: String,
    /// The board the side to move was sent to; none on a free move.
    pub required_board: Option<u8>,
    /// Boards won by X and by O (the tie-break count).
    pub won_counts: Vec<u8>,
    /// The board of the taken-back move that Redo would replay, if any.
    pub redo_board: Option<u8>,
    /// The cell of the move that Redo would replay, if any.
    pub redo_cell: Option<u8>,
    /// Moves on the board (the cursor).
    pub ply: u32,
    /// Moves recorded, including those after the cursor.
    pub length: u32,
    /// Every recorded move in notation (`e5`), including those after the cursor.
    pub moves: Vec<String>,
    /// The id of the position at the cursor in the game's tree of lines
    /// (see `WebGame.lines`; 0 at the start).
    pub node: u32,
    /// The id of the shown line's last position.
    pub line_end: u32,
    /// Whether the game has moves off the line shown (other lines, or the
    /// tree's continuation after a line cut short).
    pub side_lines: bool,
    /// Whether the line shown ends in a finished game, wherever the cursor is.
    pub line_over: bool,
}

fn player_code(p: Option<Player>) -> u8 {
    match p {
        None => 0,
        Some(Player::X) => 1,
        Some(Player::O) => 2,
    }
}

fn status_code(s: BoardStatus) -> u8 {
    match s {
        BoardStatus::Open => 0,
        BoardStatus::Won(p) => player_code(Some(p)),
        BoardStatus::Drawn => 3,
    }
}

fn outcome_name(o: Option<Outcome>) -> Option<String> {
    o.map(|o| {
        match o {
            Outcome::Win(Player::X) => "x",
            Outcome::Win(Player::O) => "o",
            Outcome::Draw => "draw",
        }
        .into()
    })
}

fn side_name(p: Player) -> String {
    match p {
        Player::X => "x".into(),
        Player::O => "o".into(),
    }
}

fn as_u32(n: usize) -> u32 {
    u32::try_from(n).unwrap_or(u32::MAX)
}

fn history_fields<G: Game>(h: &History<G>) -> (u32, u32, Vec<String>) {
    (
        as_u32(h.cursor()),
        as_u32(h.len()),
        h.moves().iter().map(ToString::to_string).collect(),
    )
}

impl View {
    /// The view of the position at the cursor of `game`.
    #[must_use]
    pub fn of(game: &AnyGame) -> View {
        match game {
            AnyGame::Ultimate(h) => View::ultimate(h),
            AnyGame::Classic(h) => View::classic(h),
        }
    }

    fn ultimate(h: &History<Ultimate>) -> View {
        let pos = h.current();
        let mut cells = vec![0u8; 81];
        let mut legal = vec![0u8; 81];
        let mut winning_cells = vec![255u8; 27];
        for b in 0..9u8 {
            for c in 0..9u8 {
                cells[usize::from(b) * 9 + usize::from(c)] = player_code(pos.cell(b, c));
            }
            if let Some(line) = pos.board_line(b) {
                winning_cells[usize::from(b) * 3..usize::from(b) * 3 + 3].copy_from_slice(&line);
            }
        }
        for m in pos.legal_moves().iter() {
            legal[m.index()] = 1;
        }
        let playable_mask = pos.playable_boards();
        let (ply, length, moves) = history_fields(h);
        let last = pos.last_move();
        let redo = h.moves().get(h.cursor()).copied();
        View {
            kind: "ultimate".into(),
            rules: pos.rules().name().into(),
            cells,
            legal,
            playable: (0..9)
                .map(|b| u8::from(playable_mask & (1 << b) != 0))
                .collect(),
            board_status: (0..9).map(|b| status_code(pos.board_status(b))).collect(),
            winning_cells,
            outcome: outcome_name(pos.outcome()),
            winning_boards: pos.winning_line().map(Vec::from).unwrap_or_default(),
            last_board: last.map(|m| m.board),
            last_cell: last.map(|m| m.cell),
            side_to_move: side_name(pos.side_to_move()),
            required_board: pos.required_board(),
            redo_board: redo.map(|m| m.board),
            redo_cell: redo.map(|m| m.cell),
            won_counts: [Player::X, Player::O]
                .iter()
                // At most nine boards, so the count fits a u8.
                .map(|&p| pos.won_boards(p).count_ones() as u8)
                .collect(),
            ply,
            length,
            moves,
            node: 0,
            line_end: 0,
            side_lines: false,
            line_over: false,
        }
    }

    fn classic(h: &History<Classic>) -> View {
        let pos = h.current();
        let cells: Vec<u8> = (0..9).map(|c| player_code(pos.cell(c))).collect();
        let mut legal = vec![0u8; 9];
        for m in pos.legal_moves().iter() {
            legal[usize::from(m.0)] = 1;
        }
        let mut winning_cells = vec![255u8; 3];
        if let Some(line) = pos.winning_line() {
            winning_cells.copy_from_slice(&line);
        }
        let status = status_code(pos.status());
        let (ply, length, moves) = history_fields(h);
        let last = pos.last_move();
        let redo = h.moves().get(h.cursor()).copied();
        View {
            kind: "classic".into(),
            rules: "standard".into(),
            cells,
            legal,
            playable: vec![u8::from(!pos.is_over())],
            board_status: vec![status],
            winning_cells,
            outcome: outcome_name(pos.outcome()),
            winning_boards: Vec::new(),
            last_board: last.map(|_| 0),
            last_cell: last.map(|m| m.0),
            side_to_move: side_name(pos.side_to_move()),
            required_board: None,
            redo_board: redo.map(|_| 0),
            redo_cell: redo.map(|m| m.0),
            won_counts: vec![u8::from(status == 1), u8::from(status == 2)],
            ply,
            length,
            moves,
            node: 0,
            line_end: 0,
            side_lines: false,
            line_over: false,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::WebGame;

    #[test]
    fn free_move_opens_every_undecided_board() {
        // X wins the centre board, then O is sent to the centre: a free move.
        let mut g = WebGame::create("ultimate", "standard").unwrap();
        for (b, c) in [(4, 0), (0, 4), (4, 1), (1, 4), (4, 2), (2, 4)] {
            g.try_play(Some(f64::from(b)), Some(f64::from(c))).unwrap();
        }
        let v = View::of(g.any());
        assert_eq!(v.board_status[4], 1);
        assert_eq!(&v.winning_cells[12..15], &[0, 1, 2]);
        assert_eq!(v.side_to_move, "x");
        // X was sent to board 4, which is decided: any open board.
        assert_eq!(v.required_board, None);
        assert_eq!(v.playable, vec![1, 1, 1, 1, 0, 1, 1, 1, 1]);
        assert_eq!(v.legal.iter().filter(|&&l| l == 1).count(), 8 * 9 - 3);
        assert_eq!(v.last_board, Some(2));
        assert_eq!(v.moves.len(), 6);
        assert_eq!((v.redo_board, v.redo_cell), (None, None));
        g.try_jump(Some(4.0)).unwrap();
        let v = View::of(g.any());
        assert_eq!((v.redo_board, v.redo_cell), (Some(4), Some(2)));
    }

    #[test]
    fn classic_win_reports_line_and_outcome() {
        let mut g = WebGame::create("classic", "standard").unwrap();
        for c in [0, 3, 1, 4, 2] {
            g.try_play(Some(0.0), Some(f64::from(c))).unwrap();
        }
        let v = View::of(g.any());
        assert_eq!(v.outcome.as_deref(), Some("x"));
        assert_eq!(v.winning_cells, vec![0, 1, 2]);
        assert_eq!(v.playable, vec![0]);
        assert!(v.legal.iter().all(|&l| l == 0));
    }
}
