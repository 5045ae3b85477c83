//! Game records and position strings: compact text that round-trips exactly.
//!
//! # Game record
//! `<game>:<moves>`, where `<game>` is `ultimate-standard`,
//! `ultimate-tiebreak` or `classic`, and `<moves>` is every move in the
//! primary notation with nothing between them (each move is exactly two
//! characters), e.g. `ultimate-standard:e5e4d2`. Spaces between moves are
//! accepted when reading. Only letters, digits, `-` and `:` are used, so a
//! record can stand in a URL fragment as it is.
//!
//! A record may also carry variations (see [`crate::tree`]): after a move,
//! `(` other moves `)` is a line that plays another move in its place, as
//! in `ultimate-standard:e5e4(d5b5)(f5)d2`, where d5 b5 and f5 are played
//! instead of e4. [`crate::tree::parse_tree_record`] reads such a record,
//! and any plain one as a tree without side lines; [`parse_record`] reads
//! plain records only, exactly as it always has. `(` and `)` may stand in
//! a URL fragment too.
//!
//! # Position string
//! `<game> <grid> <target>` for Ultimate and `<game> <grid>` for Classic.
//! `<grid>` lists the rows top to bottom, separated by `/`, each cell `x`,
//! `o` or `.`; `<target>` is the board (0-8) the next move must be in, or `-`
//! for any open board. The side to move follows from the counts (X moves
//! first). For example, after `e5`:
//! `ultimate-standard ........./........./........./........./....x..../........./........./........./......... 4`.

use alloc::string::String;
use core::fmt::Write;

use crate::any::AnyKind;
use crate::notation::{Cursor, ParseError, ParseErrorKind};
use crate::{AnyGame, Classic, Game, GameKind, History, Move, Rules, Ultimate, Visit};

/// The header naming a game and its rule set.
#[must_use]
pub fn header(kind: GameKind, rules: Rules) -> &'static str {
    match (kind, rules) {
        (GameKind::Ultimate, Rules::Standard) => "ultimate-standard",
        (GameKind::Ultimate, Rules::TieBreak) => "ultimate-tiebreak",
        (GameKind::Classic, _) => "classic",
    }
}

/// Reads a header and returns the game and rules it names.
pub(crate) fn read_header(
    cur: &mut Cursor<'_>,
    text: &str,
) -> Result<(GameKind, Rules), ParseError> {
    let start = cur.pos;
    while cur
        .peek()
        .is_some_and(|b| b.is_ascii_alphanumeric() || b == b'-')
    {
        cur.bump();
    }
    // The word is ASCII, so `get` always finds it; unlike `&text[..]` it has
    // no panic path, whose message formatting was 6 KB of the wasm.
    let word = text.get(start..cur.pos).unwrap_or_default();
    let found = match word.to_ascii_lowercase().as_str() {
        "ultimate-standard" | "ultimate" => (GameKind::Ultimate, Rules::Standard),
        "ultimate-tiebreak" => (GameKind::Ultimate, Rules::TieBreak),
        "classic" => (GameKind::Classic, Rules::Standard),
        "" => return Err(ParseError::new(start, ParseErrorKind::Empty)),
        _ => return Err(ParseError::new(start, ParseErrorKind::UnknownGame)),
    };
    Ok(found)
}

/// Writes the record of every move in `history` (including moves after the
/// cursor), starting from the empty board.
///
/// A history that starts from a set-up position has no record of its own;
/// write its start with [`position_string`] instead.
#[must_use]
pub fn record_string<G: Game>(history: &History<G>) -> String {
    let mut out = String::from(header(G::KIND, history.start().rules()));
    out.push(':');
    for m in history.moves() {
        let _ = write!(out, "{m}");
    }
    out
}

/// Reading and writing a game of either kind as text (see the module's doc).
impl AnyGame {
    /// Reads a game record without variations (its cursor at the end) or a
    /// position string (no moves yet): a record has a `:` after its header.
    ///
    /// # Errors
    /// Where and why the text is neither (see [`parse_record`] and
    /// [`parse_position`]).
    pub fn parse(text: &str) -> Result<AnyGame, ParseError> {
        if text.contains(':') {
            parse_record(text)
        } else {
            parse_position(text)
        }
    }

    /// The record of every move (see [`record_string`]) when the game
    /// starts from the empty board; `None` for a game set up from a
    /// position string, which has no record of its own.
    #[must_use]
    pub fn record(&self) -> Option<String> {
        self.visit(RecordOf)
    }

    /// The move `text` names in this game's notation (`e5`; Classic `b2`),
    /// as its board and cell (Classic: board 0), legal or not here.
    ///
    /// # Errors
    /// Where and why `text` is not a move of this game type.
    pub fn parse_move(&self, text: &str) -> Result<(u8, u8), ParseError> {
        self.visit(MoveNamed(text))
    }

    /// The position string of the position at the cursor.
    #[must_use]
    pub fn position_string(&self) -> String {
        match self {
            AnyGame::Ultimate(h) => position_string(h.current()),
            AnyGame::Classic(h) => classic_position_string(h.current()),
        }
    }
}

/// A move read in the notation of the game visited.
struct MoveNamed<'a>(&'a str);

impl Visit for MoveNamed<'_> {
    type Output = Result<(u8, u8), ParseError>;
    fn visit<G: AnyKind>(self, _: &History<G>) -> Self::Output {
        G::parse_move(self.0).map(G::board_and_cell)
    }
}

/// The record of a game that starts from the empty board.
struct RecordOf;

impl Visit for RecordOf {
    type Output = Option<String>;
    fn visit<G: AnyKind>(self, history: &History<G>) -> Option<String> {
        let start = history.start();
        (*start == G::start(start.rules())).then(|| record_string(history))
    }
}

/// Reads a game record without variations, replaying and checking every
/// move. (The tree's reader is its own, so a program that reads only
/// plain records does not carry it.)
///
/// # Errors
/// Where the record went wrong: a bad header, a malformed move (a bracket
/// too), or an illegal one (with its index and reason).
pub fn parse_record(text: &str) -> Result<AnyGame, ParseError> {
    let mut cur = Cursor::new(text);
    match read_record_header(&mut cur, text)? {
        (GameKind::Ultimate, rules) => {
            read_moves(&mut cur, text, Ultimate::new(rules)).map(AnyGame::Ultimate)
        }
        (GameKind::Classic, _) => read_moves(&mut cur, text, Classic::new()).map(AnyGame::Classic),
    }
}

fn read_moves<G: Game>(
    cur: &mut Cursor<'_>,
    text: &str,
    start: G,
) -> Result<History<G>, ParseError> {
    let mut history = History::new(start);
    loop {
        cur.skip_spaces();
        if cur.at_end() {
            return Ok(history);
        }
        let at = cur.pos;
        let m = read_move::<G>(cur, text)?;
        let ply = history.len();
        history
            .play(m)
            .map_err(|reason| ParseError::new(at, ParseErrorKind::Illegal { ply, reason }))?;
    }
}

/// Reads a record's header and the `:` after it.
pub(crate) fn read_record_header(
    cur: &mut Cursor<'_>,
    text: &str,
) -> Result<(GameKind, Rules), ParseError> {
    cur.skip_spaces();
    let found = read_header(cur, text)?;
    if cur.bump() != Some(b':') {
        return Err(ParseError::new(
            cur.pos.saturating_sub(1),
            ParseErrorKind::Expected("':' after the game name"),
        ));
    }
    Ok(found)
}

/// Reads one move of a record at the cursor, which is at no space.
pub(crate) fn read_move<G: Game>(cur: &mut Cursor<'_>, text: &str) -> Result<G::Move, ParseError> {
    let at = cur.pos;
    let end = (at + 2).min(text.len());
    let expected = ParseError::new(at, ParseErrorKind::Expected("a move such as e5"));
    let chunk = text.get(at..end).ok_or(expected)?;
    // Records hold only the primary notation (a letter then a digit), so
    // the other move forms are refused here rather than half-read.
    if !chunk.starts_with(|c: char| c.is_ascii_alphabetic()) {
        return Err(expected);
    }
    let m = G::parse_move(chunk).map_err(|e| ParseError::new(at + e.at, e.kind))?;
    if chunk.len() < 2 {
        return Err(expected);
    }
    cur.pos = end;
    Ok(m)
}

/// Writes an Ultimate position string.
#[must_use]
pub fn position_string(pos: &Ultimate) -> String {
    let mut out = String::from(header(GameKind::Ultimate, pos.rules()));
    out.push(' ');
    for row in 0..9 {
        if row > 0 {
            out.push('/');
        }
        for col in 0..9 {
            let m = Move::from_row_col(row, col);
            out.push(pos.cell(m.board, m.cell).map_or('.', |p| p.char()));
        }
    }
    out.push(' ');
    match pos.required_board() {
        Some(b) => out.push(char::from(b'0' + b)),
        None => out.push('-'),
    }
    out
}

/// Writes a Classic position string.
#[must_use]
pub fn classic_position_string(pos: &Classic) -> String {
    let mut out = String::from("classic ");
    for cell in 0..9u8 {
        if cell > 0 && cell % 3 == 0 {
            out.push('/');
        }
        out.push(pos.cell(cell).map_or('.', |p| p.char()));
    }
    out
}

/// Reads a position string of either game. The result is a history that
/// starts at that position with no moves.
///
/// The pieces are checked for what a real game allows (X has as many pieces
/// as O or one more; no small board won by both players; no big-board line
/// for both; the target board open), though not for every subtle way a
/// position can be unreachable.
///
/// # Errors
/// Where and why the text is not a possible position.
pub fn parse_position(text: &str) -> Result<AnyGame, ParseError> {
    let mut cur = Cursor::new(text);
    cur.skip_spaces();
    let (kind, rules) = read_header(&mut cur, text)?;
    if !cur.peek().is_some_and(|b| b.is_ascii_whitespace()) {
        return Err(cur.error(ParseErrorKind::Expected("a space after the game name")));
    }
    cur.skip_spaces();
    let size = if kind == GameKind::Ultimate { 9 } else { 3 };
    let grid_at = cur.pos;
    let mut cells = [[0u16; 9]; 2];
    for row in 0..size {
        if row > 0 && cur.bump() != Some(b'/') {
            return Err(ParseError::new(
                cur.pos.saturating_sub(1),
                ParseErrorKind::Expected("'/' between rows"),
            ));
        }
        for col in 0..size {
            let at = cur.pos;
            let (board, cell) = if size == 9 {
                let m = Move::from_row_col(row, col);
                (usize::from(m.board), m.cell)
            } else {
                (0, row * 3 + col)
            };
            match cur.bump() {
                Some(b'x' | b'X') => cells[0][board] |= 1 << cell,
                Some(b'o' | b'O') => cells[1][board] |= 1 << cell,
                Some(b'.') => {}
                _ => {
                    return Err(ParseError::new(
                        at,
                        ParseErrorKind::Expected("a cell: x, o or ."),
                    ))
                }
            }
        }
    }
    let count = |p: usize| cells[p].iter().map(|m| m.count_ones()).sum::<u32>();
    let (xs, os) = (count(0), count(1));
    if xs != os && xs != os + 1 {
        return Err(ParseError::new(
            grid_at,
            ParseErrorKind::Impossible("X must have as many pieces as O or one more"),
        ));
    }
    let game = if kind == GameKind::Classic {
        if crate::lines::has_line(cells[0][0]) && crate::lines::has_line(cells[1][0]) {
            return Err(ParseError::new(
                grid_at,
                ParseErrorKind::Impossible("both players have a line"),
            ));
        }
        check_last_mover(
            crate::lines::has_line(cells[0][0]),
            crate::lines::has_line(cells[1][0]),
            xs,
            os,
            grid_at,
        )?;
        AnyGame::Classic(History::new(Classic::from_cells([
            cells[0][0],
            cells[1][0],
        ])))
    } else {
        for (x, o) in cells[0].iter().zip(&cells[1]) {
            if crate::lines::has_line(*x) && crate::lines::has_line(*o) {
                return Err(ParseError::new(
                    grid_at,
                    ParseErrorKind::Impossible("a small board has lines for both players"),
                ));
            }
        }
        if !cur.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            return Err(cur.error(ParseErrorKind::Expected("a space and the target board")));
        }
        cur.skip_spaces();
        let target_at = cur.pos;
        let target = match cur.peek() {
            Some(b'-') => {
                cur.bump();
                None
            }
            _ => Some(cur.digit(8, "the target board must be 0 to 8 or -")?),
        };
        let pos = Ultimate::from_cells(rules, cells, target);
        let won = |p| pos.won_boards(p);
        if crate::lines::has_line(won(crate::Player::X))
            && crate::lines::has_line(won(crate::Player::O))
        {
            return Err(ParseError::new(
                grid_at,
                ParseErrorKind::Impossible("both players have a line of boards"),
            ));
        }
        check_last_mover(
            crate::lines::has_line(won(crate::Player::X)),
            crate::lines::has_line(won(crate::Player::O)),
            xs,
            os,
            grid_at,
        )?;
        if let Some(b) = target {
            // The target is the cell of the last move, so the side that
            // moved last has a piece on cell `b` of some board (and at the
            // start there is no target at all).
            let last_mover = usize::from(xs == os);
            if !cells[last_mover].iter().any(|board| board & (1 << b) != 0) {
                return Err(ParseError::new(
                    target_at,
                    ParseErrorKind::Impossible(
                        "no last move sends play to that board: the side that moved last has no piece on that cell of any board",
                    ),
                ));
            }
            if pos.decided_boards() & (1 << b) != 0 {
                return Err(ParseError::new(
                    target_at,
                    ParseErrorKind::Impossible("the target board is already decided"),
                ));
            }
            if pos.is_over() {
                return Err(ParseError::new(
                    target_at,
                    ParseErrorKind::Impossible("the game is over, so the target must be -"),
                ));
            }
        }
        AnyGame::Ultimate(History::new(pos))
    };
    cur.skip_spaces();
    if cur.at_end() {
        Ok(game)
    } else {
        Err(cur.error(ParseErrorKind::Trailing))
    }
}

/// A line ends the game at once, so the player who made it moved last: X
/// then has one piece more than O, O as many as X. (Called once both lines
/// have been ruled out together.)
fn check_last_mover(
    x_line: bool,
    o_line: bool,
    xs: u32,
    os: u32,
    at: usize,
) -> Result<(), ParseError> {
    if x_line && xs != os + 1 {
        Err(ParseError::new(
            at,
            ParseErrorKind::Impossible("X has won, so X moved last and has one piece more than O"),
        ))
    } else if o_line && xs != os {
        Err(ParseError::new(
            at,
            ParseErrorKind::Impossible("O has won, so O moved last and has as many pieces as X"),
        ))
    } else {
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::notation::parse_move;

    #[test]
    fn record_round_trips() {
        let mut h = History::new(Ultimate::new(Rules::TieBreak));
        for text in ["e5", "e4", "d2", "b5"] {
            h.play(parse_move(text).unwrap()).unwrap();
        }
        let rec = record_string(&h);
        assert_eq!(rec, "ultimate-tiebreak:e5e4d2b5");
        assert_eq!(parse_record(&rec), Ok(AnyGame::Ultimate(h)));
        assert_eq!(
            parse_record("ultimate-tiebreak: e5 e4 d2 b5"),
            parse_record(&rec)
        );
    }

    #[test]
    fn record_errors_point_at_the_problem() {
        let e = parse_record("ultimate-standard:e5a1").unwrap_err();
        assert_eq!(e.at, 20);
        assert!(matches!(e.kind, ParseErrorKind::Illegal { ply: 1, .. }));
        assert_eq!(
            parse_record("chess:e4").unwrap_err().kind,
            ParseErrorKind::UnknownGame
        );
        assert_eq!(parse_record("classic:b2b").unwrap_err().at, 11);
        assert_eq!(parse_record("classic:b2z9").unwrap_err().at, 10);
        assert!(parse_record("classic b2").is_err());
    }

    #[test]
    fn position_round_trips() {
        let mut h = History::new(Ultimate::new(Rules::Standard));
        for text in ["e5", "e4", "d2"] {
            h.play(parse_move(text).unwrap()).unwrap();
        }
        let s = position_string(h.current());
        let AnyGame::Ultimate(back) = parse_position(&s).unwrap() else {
            panic!("wrong game");
        };
        assert_eq!(back.current().hash(), h.current().hash());
        assert_eq!(
            back.current().legal_moves()[..],
            h.current().legal_moves()[..]
        );
        assert_eq!(position_string(back.current()), s);
    }

    #[test]
    fn impossible_positions_are_refused() {
        assert!(parse_position("classic xxx/.../...").is_err());
        assert!(parse_position("classic xxx/ooo/x..").is_err());
        assert!(parse_position("classic xo./.../..").is_err());
        let grid = "........./........./........./........./....x..../........./........./........./.........";
        assert!(parse_position(&alloc::format!("ultimate-standard {grid} 4")).is_ok());
        assert!(parse_position(&alloc::format!("ultimate-standard {grid} 9")).is_err());
        assert!(parse_position(&alloc::format!("ultimate-standard {grid} 4 extra")).is_err());
        // No move sends play anywhere before the first one, and after e5
        // (board 4, cell 4) only to board 4.
        let empty = "........./........./........./........./........./........./........./........./.........";
        for text in [
            alloc::format!("ultimate-standard {empty} 6"),
            alloc::format!("ultimate-standard {grid} 3"),
        ] {
            let e = parse_position(&text).unwrap_err();
            assert!(matches!(e.kind, ParseErrorKind::Impossible(_)), "{text}");
            assert_eq!(e.at, text.len() - 1);
        }
        assert_eq!(
            parse_position(&alloc::format!("ultimate-standard {empty} -")),
            Ok(AnyGame::Ultimate(History::new(Ultimate::new(
                Rules::Standard
            ))))
        );
    }
}
