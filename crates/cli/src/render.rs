//! Drawing a position as text: the 9x9 grid with its small boards framed,
//! coordinates on every edge, the playable boards' empty cells dotted, won
//! boards as a big X or O, the last move in brackets, and the line that won
//! the game named under the board (and lit up in colour).
//!
//! Everything is readable without colour (tests and pipes see plain text);
//! colour only adds emphasis when stdout is a terminal and `NO_COLOR` is unset.

use std::io::IsTerminal;

use uttt_core::lines::FULL;
use uttt_core::notation::region_name;
use uttt_core::{BoardStatus, Classic, ClassicMove, Game, Player, Ultimate};

/// How to draw: with ANSI colour or plain, and whether a line may be
/// redrawn in place.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Style {
    /// Use ANSI colour escapes.
    pub colour: bool,
    /// Stdout is a terminal: the engine's thinking line is redrawn in place
    /// after each depth. A pipe gets only the final line, so scripted
    /// transcripts stay short and stable.
    pub live: bool,
}

impl Style {
    /// Plain text.
    #[cfg(test)]
    pub const PLAIN: Style = Style {
        colour: false,
        live: false,
    };

    /// Colour when stdout is a terminal and `NO_COLOR` is unset or empty
    /// (<https://no-color.org>); live lines on any terminal (`NO_COLOR` is
    /// about colour only).
    #[must_use]
    pub fn detect() -> Style {
        let no_color = std::env::var_os("NO_COLOR").is_some_and(|v| !v.is_empty());
        let terminal = std::io::stdout().is_terminal();
        Style {
            colour: !no_color && terminal,
            live: terminal,
        }
    }

    /// `text` wrapped in the SGR `code` when colour is on.
    fn paint(self, code: &str, text: &str) -> String {
        if self.colour {
            format!("\x1b[{code}m{text}\x1b[0m")
        } else {
            text.to_string()
        }
    }

    fn piece(self, p: Player) -> String {
        match p {
            Player::X => self.paint("1;31", "X"),
            Player::O => self.paint("1;36", "O"),
        }
    }
}

/// A game the terminal can draw and describe.
pub trait Front: Game {
    /// The whole board, several lines, each ending in a newline.
    fn render(&self, style: Style) -> String;

    /// One sentence: the last move and who moves where next (or the result).
    fn turn_line(&self) -> String;
}

/// The cells of a big glyph on a 3x3 board: X is the corners and centre,
/// O the ring around the centre.
fn glyph(p: Player) -> u16 {
    match p {
        Player::X => 0b101_010_101,
        Player::O => 0b111_101_111,
    }
}

/// How one 3x3 board is to be drawn.
struct SmallBoard {
    /// Who holds each cell.
    cells: [Option<Player>; 9],
    /// The empty cells that may be played now, as a 9-bit mask.
    legal: u16,
    /// The winner, drawn as a big letter over the cells.
    winner: Option<Player>,
    /// Drawn boards are dimmed in colour.
    drawn: bool,
    /// The cell of the last move, if it is in this board.
    last: Option<u8>,
    /// The cells lit up in colour as part of the line that won the game:
    /// Classic's three cells, or every cell of an Ultimate board in that
    /// line (so its big letter is lit).
    line: u16,
}

/// The SGR code for the marks of the winning line: black on yellow, unlike
/// any other emphasis on the board.
const WINNING_LINE: &str = "1;30;43";

impl SmallBoard {
    /// The three rows of the board, each 7 visible characters wide:
    /// a separator, a cell, a separator, ... so the brackets around the last
    /// move can take the separators' places.
    fn rows(&self, style: Style) -> [String; 3] {
        core::array::from_fn(|row| {
            let mut units: [String; 7] = core::array::from_fn(|_| " ".to_string());
            for col in 0..3 {
                let cell = (row * 3 + col) as u8;
                units[col * 2 + 1] = self.cell_text(cell, style);
            }
            if let Some(last) = self.last {
                if usize::from(last) / 3 == row {
                    let col = usize::from(last) % 3;
                    units[col * 2] = style.paint("1;33", "[");
                    units[col * 2 + 2] = style.paint("1;33", "]");
                }
            }
            units.concat()
        })
    }

    fn cell_text(&self, cell: u8, style: Style) -> String {
        let bit = 1u16 << cell;
        if let Some(w) = self.winner {
            // The last move in a won board is the winner's own (it won it).
            return if glyph(w) & bit != 0 || self.last == Some(cell) {
                style.paint(
                    if self.line & bit != 0 {
                        WINNING_LINE
                    } else if w == Player::X {
                        "1;97;41"
                    } else {
                        "1;97;46"
                    },
                    if w == Player::X { "X" } else { "O" },
                )
            } else {
                " ".to_string()
            };
        }
        match self.cells[usize::from(cell)] {
            Some(p) if self.line & bit != 0 => {
                style.paint(WINNING_LINE, if p == Player::X { "X" } else { "O" })
            }
            Some(p) if self.drawn => style.paint("2", if p == Player::X { "X" } else { "O" }),
            Some(p) => style.piece(p),
            None if self.legal & bit != 0 => style.paint("1;32", "."),
            // Plain text leaves cells that cannot be played blank, so the
            // dots alone show where to move; colour can afford faint dots
            // there, which keep the grid easy to read.
            None if style.colour => style.paint("2", "."),
            None => " ".to_string(),
        }
    }
}

const ULTIMATE_COLUMNS: &str = "      a b c   d e f   g h i\n";
const ULTIMATE_RULE: &str = "    +-------+-------+-------+\n";

fn ultimate_board(pos: &Ultimate, board: u8) -> SmallBoard {
    let playable = pos.playable_boards() & (1 << board) != 0;
    let cells = core::array::from_fn(|c| pos.cell(board, c as u8));
    let mut legal = 0u16;
    if playable {
        for c in 0..9u8 {
            if pos.cell(board, c).is_none() {
                legal |= 1 << c;
            }
        }
    }
    let status = pos.board_status(board);
    SmallBoard {
        cells,
        legal,
        winner: match status {
            BoardStatus::Won(p) => Some(p),
            _ => None,
        },
        drawn: status == BoardStatus::Drawn,
        last: pos.last_move().filter(|m| m.board == board).map(|m| m.cell),
        line: if pos.winning_line().is_some_and(|l| l.contains(&board)) {
            FULL
        } else {
            0
        },
    }
}

/// The sentence naming the winning line, e.g. ` The line: a1, b2 and c3.`,
/// from the names of its three parts; empty when there is no line.
fn line_sentence(parts: Option<[String; 3]>) -> String {
    parts.map_or_else(String::new, |[a, b, c]| {
        format!(" The line: {a}, {b} and {c}.")
    })
}

/// The cells of board `b` as a range of the notation, e.g. `g1-i3`.
#[must_use]
pub fn board_range(board: u8) -> String {
    let col = (board % 3) * 3;
    let row = (board / 3) * 3;
    format!(
        "{}{}-{}{}",
        char::from(b'a' + col),
        row + 1,
        char::from(b'a' + col + 2),
        row + 3
    )
}

impl Front for Ultimate {
    fn render(&self, style: Style) -> String {
        let boards: [SmallBoard; 9] = core::array::from_fn(|b| ultimate_board(self, b as u8));
        let rows: Vec<[String; 3]> = boards.iter().map(|b| b.rows(style)).collect();
        let mut out = String::from(ULTIMATE_COLUMNS);
        out.push_str(ULTIMATE_RULE);
        // Three bands of three boards; each grid row is one line of each board in the band.
        for (band, boards) in rows.chunks(3).enumerate() {
            for line in 0..3 {
                let n = band * 3 + line + 1;
                out.push_str(&format!("  {n} |"));
                for board in boards {
                    out.push_str(&board[line]);
                    out.push('|');
                }
                out.push_str(&format!(" {n}\n"));
            }
            out.push_str(ULTIMATE_RULE);
        }
        out.push_str(ULTIMATE_COLUMNS);
        out
    }

    fn turn_line(&self) -> String {
        let mut text = last_move_text(self);
        match self.outcome() {
            Some(o) => {
                text.push_str(&format!("Game over: {o}."));
                text.push_str(&line_sentence(self.winning_line().map(|l| {
                    l.map(|b| format!("{} board", region_name(b).unwrap_or("?")))
                })));
            }
            None => {
                let p = self.side_to_move();
                match self.required_board() {
                    Some(b) => text.push_str(&format!(
                        "{p} to move in the {} board ({}).",
                        region_name(b).unwrap_or("required"),
                        board_range(b)
                    )),
                    None => text.push_str(&format!("{p} to move in any open board.")),
                }
            }
        }
        text
    }
}

fn last_move_text<G: Game>(pos: &G) -> String {
    match pos.last_move() {
        Some(m) => format!("Last move: {} {m}. ", pos.side_to_move().opponent()),
        None => String::new(),
    }
}

const CLASSIC_COLUMNS: &str = "      a b c\n";
const CLASSIC_RULE: &str = "    +-------+\n";

impl Front for Classic {
    fn render(&self, style: Style) -> String {
        let over = self.is_over();
        let mut legal = 0u16;
        for m in self.legal_moves().iter() {
            legal |= 1 << m.0;
        }
        let board = SmallBoard {
            cells: core::array::from_fn(|c| self.cell(c as u8)),
            legal,
            // The whole game is the board: show the pieces, not a glyph.
            winner: None,
            drawn: over && self.outcome().and_then(|o| o.winner()).is_none(),
            last: self.last_move().map(|m| m.0),
            line: self
                .winning_line()
                .map_or(0, |l| l.iter().fold(0, |m, &c| m | 1 << c)),
        };
        let mut out = String::from(CLASSIC_COLUMNS);
        out.push_str(CLASSIC_RULE);
        for (i, row) in board.rows(style).iter().enumerate() {
            out.push_str(&format!("  {} |{row}| {}\n", i + 1, i + 1));
        }
        out.push_str(CLASSIC_RULE);
        out.push_str(CLASSIC_COLUMNS);
        out
    }

    fn turn_line(&self) -> String {
        let mut text = last_move_text(self);
        match self.outcome() {
            Some(o) => {
                text.push_str(&format!("Game over: {o}."));
                text.push_str(&line_sentence(
                    self.winning_line()
                        .map(|l| l.map(|c| ClassicMove(c).to_string())),
                ));
            }
            None => text.push_str(&format!("{} to move.", self.side_to_move())),
        }
        text
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uttt_core::notation::parse_move;
    use uttt_core::record::parse_position;
    use uttt_core::AnyGame;
    use uttt_core::Rules;

    /// The Ultimate position of a `grid` (nine rows of the 9x9 board, top
    /// first) with the side to move sent to board `target`.
    fn ultimate(grid: &str, target: u8) -> Ultimate {
        let AnyGame::Ultimate(h) =
            parse_position(&format!("ultimate-standard {grid} {target}")).unwrap()
        else {
            panic!("not ultimate");
        };
        *h.current()
    }

    fn play(pos: &mut Ultimate, moves: &[&str]) {
        for m in moves {
            pos.try_play(parse_move(m).unwrap()).unwrap();
        }
    }

    #[test]
    fn empty_ultimate_board_is_all_dots_with_coordinates() {
        let text = Ultimate::new(Rules::Standard).render(Style::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        assert_eq!(lines.len(), 15);
        assert_eq!(lines[0], ULTIMATE_COLUMNS.trim_end());
        assert_eq!(lines[2], "  1 | . . . | . . . | . . . | 1");
        assert_eq!(lines[14], ULTIMATE_COLUMNS.trim_end());
        assert_eq!(text.matches('.').count(), 81);
    }

    #[test]
    fn last_move_bracketed_and_only_target_board_dotted() {
        let mut pos = Ultimate::new(Rules::Standard);
        play(&mut pos, &["e5"]);
        let text = pos.render(Style::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        // Row 5 is the sixth grid line (after the header, rule, rows 1-3, rule).
        assert_eq!(lines[7], "  5 |       | .[X]. |       | 5");
        assert_eq!(text.matches('.').count(), 8);
        assert_eq!(
            pos.turn_line(),
            "Last move: X e5. O to move in the centre board (d4-f6)."
        );
    }

    #[test]
    fn won_board_is_a_big_letter() {
        // X holds a1 and b1 and is sent to the top-left board.
        let grid = "xx......./........./........./...o..o../........./........./........./........./.........";
        let mut pos = ultimate(grid, 0);
        play(&mut pos, &["c1"]);
        assert_eq!(pos.board_status(0), BoardStatus::Won(Player::X));
        let text = pos.render(Style::PLAIN);
        let lines: Vec<&str> = text.lines().collect();
        assert!(lines[2].starts_with("  1 | X  [X]|"), "{}", lines[2]);
        assert!(lines[3].starts_with("  2 |   X   |"), "{}", lines[3]);
        assert!(lines[4].starts_with("  3 | X   X |"), "{}", lines[4]);
    }

    #[test]
    fn winning_line_is_named_and_lit() {
        // X has won the top-left and centre boards (rows 1 and 4 of the
        // grid) and completes the bottom-right one at i7; O's last move, f3,
        // sent X there.
        let grid = "xxxo..oo./........./.....o.../...xxx.../oo....oo./........./......xx./........./.........";
        let mut pos = ultimate(grid, 8);
        play(&mut pos, &["i7"]);
        assert_eq!(
            pos.turn_line(),
            "Last move: X i7. Game over: X wins. The line: top-left board, centre board and \
             bottom-right board."
        );
        let lit = format!("\x1b[{WINNING_LINE}mX");
        // Five glyph cells in each of the three boards of the line, nowhere else.
        assert_eq!(
            pos.render(Style {
                colour: true,
                live: false
            })
            .matches(&lit)
            .count(),
            15
        );
        assert!(!pos.render(Style::PLAIN).contains('\x1b'));

        let mut classic = Classic::new();
        for c in [0, 3, 1, 4, 2] {
            classic.try_play(ClassicMove(c)).unwrap();
        }
        assert_eq!(
            classic.turn_line(),
            "Last move: X c1. Game over: X wins. The line: a1, b1 and c1."
        );
        assert_eq!(
            classic
                .render(Style {
                    colour: true,
                    live: false
                })
                .matches(&lit)
                .count(),
            3
        );
        // No line is named while the game goes on or after a draw.
        let mut drawn = Classic::new();
        for c in [4, 0, 2, 6, 3, 5, 1, 7, 8] {
            drawn.try_play(ClassicMove(c)).unwrap();
        }
        assert_eq!(drawn.turn_line(), "Last move: X c3. Game over: draw.");
    }

    #[test]
    fn colour_only_when_asked() {
        let pos = Ultimate::new(Rules::Standard);
        assert!(!pos.render(Style::PLAIN).contains('\x1b'));
        assert!(pos
            .render(Style {
                colour: true,
                live: false
            })
            .contains('\x1b'));
    }

    #[test]
    fn classic_board() {
        let mut pos = Classic::new();
        pos.try_play(ClassicMove(4)).unwrap();
        let text = pos.render(Style::PLAIN);
        assert!(text.contains("  2 | .[X]. | 2"), "{text}");
        assert_eq!(pos.turn_line(), "Last move: X b2. O to move.");
        assert_eq!(board_range(2), "g1-i3");
    }
}
