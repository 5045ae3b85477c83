//! Move notation: how moves are written and read.
//!
//! # Ultimate
//! The primary notation names a cell of the 9x9 grid by a column letter
//! `a`-`i` (left to right) and a row digit `1`-`9` (top to bottom), like a
//! spreadsheet: `a1` is the top-left cell of the top-left board, `e5` the
//! centre of the centre board, `i9` the bottom-right corner. Moves are always
//! written this way; letters may be read in either case.
//!
//! Two more forms are read, for people and programs that think in boards or
//! in array indexes:
//! - `board/cell`: two digits `0`-`8`, each in reading order (0 top-left,
//!   4 centre, 8 bottom-right), e.g. `4/0` is the top-left cell of the centre
//!   board. These are the numbers of the page's `data-board` and `data-cell`.
//! - `row col`: two 0-based numbers `0`-`8` on the 9x9 grid separated by
//!   spaces, row 0 on top, as in the CodinGame protocol, e.g. `3 3` (= `d4`).
//!
//! # Classic
//! Column `a`-`c` and row `1`-`3`, top to bottom (`b2` is the centre); also a
//! single cell digit `0`-`8` in reading order, and `row col` with `0`-`2`.

use core::fmt;

use crate::{ClassicMove, IllegalMove, Move};

/// The names of the nine regions of a 3x3 board in reading order, used for
/// small boards ("the top-right board") and cells ("the centre cell").
pub const REGION_NAMES: [&str; 9] = [
    "top-left",
    "top",
    "top-right",
    "left",
    "centre",
    "right",
    "bottom-left",
    "bottom",
    "bottom-right",
];

/// The name of region `i` (0-8) of a 3x3 board, e.g. `"top-right"`.
#[must_use]
pub fn region_name(i: u8) -> Option<&'static str> {
    REGION_NAMES.get(usize::from(i)).copied()
}

/// What went wrong while reading a move, record or position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ParseErrorKind {
    /// There was nothing to read.
    Empty,
    /// Something else was expected here; the text says what.
    Expected(&'static str),
    /// A number or letter is outside its range; the text says which range.
    OutOfRange(&'static str),
    /// Text went on after a complete item.
    Trailing,
    /// The header names no known game and rule set.
    UnknownGame,
    /// A move in a record is well formed but illegal at that point.
    Illegal {
        /// The 0-based index of the move in the record.
        ply: usize,
        /// Why it is illegal.
        reason: IllegalMove,
    },
    /// A position is well formed but cannot arise in a game; the text says why.
    Impossible(&'static str),
}

/// An error while reading text, with the 0-based byte offset where the text
/// went wrong.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The byte offset in the input where reading failed. The readers stop
    /// at the first character that is not ASCII, so only ASCII comes before
    /// this point and it is also the character offset (the tests check it).
    pub at: usize,
    /// What went wrong there.
    pub kind: ParseErrorKind,
}

impl ParseError {
    pub(crate) const fn new(at: usize, kind: ParseErrorKind) -> ParseError {
        ParseError { at, kind }
    }
}

impl fmt::Display for ParseError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.kind {
            ParseErrorKind::Empty => f.write_str("nothing to read"),
            ParseErrorKind::Expected(what) => {
                write!(f, "expected {what} at character {}", self.at + 1)
            }
            ParseErrorKind::OutOfRange(range) => {
                write!(f, "{range} at character {}", self.at + 1)
            }
            ParseErrorKind::Trailing => {
                write!(f, "unexpected text after the end at character {}", self.at + 1)
            }
            ParseErrorKind::UnknownGame => write!(
                f,
                "unknown game at character {}: expected ultimate-standard, ultimate-tiebreak or classic",
                self.at + 1
            ),
            ParseErrorKind::Illegal { ply, reason } => {
                write!(f, "move {} (character {}) is illegal: {reason}", ply + 1, self.at + 1)
            }
            ParseErrorKind::Impossible(why) => {
                write!(f, "impossible position: {why} (character {})", self.at + 1)
            }
        }
    }
}

#[cfg(feature = "std")]
impl std::error::Error for ParseError {}

const COLUMNS: &[u8; 9] = b"abcdefghi";

impl fmt::Display for Move {
    /// Writes the move as column letter and row digit, e.g. `e5`; an
    /// out-of-range move is written as `board/cell` so it is never hidden.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if !self.in_range() {
            return write!(f, "{}/{}", self.board, self.cell);
        }
        let (row, col) = self.row_col();
        write!(f, "{}{}", char::from(COLUMNS[usize::from(col)]), row + 1)
    }
}

impl fmt::Display for ClassicMove {
    /// Writes the move as column letter and row digit, e.g. `b2`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.0 > 8 {
            return write!(f, "{}", self.0);
        }
        write!(
            f,
            "{}{}",
            char::from(COLUMNS[usize::from(self.0 % 3)]),
            self.0 / 3 + 1
        )
    }
}

/// A small reader over ASCII text that remembers where it is, for error offsets.
pub(crate) struct Cursor<'a> {
    text: &'a [u8],
    pub(crate) pos: usize,
}

impl<'a> Cursor<'a> {
    pub(crate) fn new(text: &'a str) -> Cursor<'a> {
        Cursor {
            text: text.as_bytes(),
            pos: 0,
        }
    }

    pub(crate) fn peek(&self) -> Option<u8> {
        self.text.get(self.pos).copied()
    }

    pub(crate) fn bump(&mut self) -> Option<u8> {
        let b = self.peek()?;
        self.pos += 1;
        Some(b)
    }

    pub(crate) fn skip_spaces(&mut self) {
        while self.peek().is_some_and(|b| b.is_ascii_whitespace()) {
            self.pos += 1;
        }
    }

    pub(crate) fn at_end(&self) -> bool {
        self.pos >= self.text.len()
    }

    pub(crate) fn error(&self, kind: ParseErrorKind) -> ParseError {
        ParseError::new(self.pos, kind)
    }

    /// Reads one decimal digit no greater than `max`.
    pub(crate) fn digit(&mut self, max: u8, range: &'static str) -> Result<u8, ParseError> {
        match self.peek() {
            Some(b @ b'0'..=b'9') => {
                let d = b - b'0';
                if d > max || self.text.get(self.pos + 1).is_some_and(u8::is_ascii_digit) {
                    return Err(self.error(ParseErrorKind::OutOfRange(range)));
                }
                self.pos += 1;
                Ok(d)
            }
            Some(b'-') => Err(self.error(ParseErrorKind::OutOfRange(range))),
            _ => Err(self.error(ParseErrorKind::Expected("a digit"))),
        }
    }

    /// Reads a column letter and row digit for a grid of `size` (3 or 9),
    /// returning 0-based (row, col).
    pub(crate) fn algebraic(&mut self, size: u8) -> Result<(u8, u8), ParseError> {
        let (letters, rows): (&'static str, &'static str) = if size == 9 {
            ("a column letter a-i", "the row must be 1 to 9")
        } else {
            ("a column letter a-c", "the row must be 1 to 3")
        };
        let col = match self.peek().map(|b| b.to_ascii_lowercase()) {
            Some(b @ b'a'..=b'z') if b - b'a' < size => b - b'a',
            Some(b'a'..=b'z') => {
                return Err(self.error(ParseErrorKind::OutOfRange(if size == 9 {
                    "the column must be a to i"
                } else {
                    "the column must be a to c"
                })))
            }
            _ => return Err(self.error(ParseErrorKind::Expected(letters))),
        };
        self.pos += 1;
        let row = match self.peek() {
            Some(b'1'..=b'9') if !self.text.get(self.pos + 1).is_some_and(u8::is_ascii_digit) => {
                self.peek().unwrap_or(b'1') - b'1'
            }
            Some(b'0'..=b'9') => return Err(self.error(ParseErrorKind::OutOfRange(rows))),
            _ => return Err(self.error(ParseErrorKind::Expected("a row digit"))),
        };
        if row >= size {
            return Err(self.error(ParseErrorKind::OutOfRange(rows)));
        }
        self.pos += 1;
        Ok((row, col))
    }
}

/// Reads an Ultimate move in any of the three forms described in the module
/// documentation. Surrounding whitespace is ignored.
///
/// # Errors
/// A [`ParseError`] saying where and why the text is not a move. A well-formed
/// move may still be illegal in a given position: that is [`crate::Game::check`]'s job.
pub fn parse_move(text: &str) -> Result<Move, ParseError> {
    let mut cur = Cursor::new(text);
    cur.skip_spaces();
    let m = match cur.peek() {
        None => return Err(cur.error(ParseErrorKind::Empty)),
        Some(b) if b.is_ascii_alphabetic() => {
            let (row, col) = cur.algebraic(9)?;
            Move::from_row_col(row, col)
        }
        Some(_) => {
            let first = cur.digit(8, "board, cell, row and column numbers must be 0 to 8")?;
            if cur.peek() == Some(b'/') {
                cur.bump();
                let cell = cur.digit(8, "the cell must be 0 to 8")?;
                Move::new(first, cell)
            } else {
                if !cur.peek().is_some_and(|b| b.is_ascii_whitespace()) {
                    return Err(cur.error(ParseErrorKind::Expected("'/' or a space")));
                }
                cur.skip_spaces();
                let col = cur.digit(8, "the column must be 0 to 8")?;
                Move::from_row_col(first, col)
            }
        }
    };
    cur.skip_spaces();
    if cur.at_end() {
        Ok(m)
    } else {
        Err(cur.error(ParseErrorKind::Trailing))
    }
}

/// Reads a Classic move: `b2`, a cell digit `0`-`8`, or `row col` with `0`-`2`.
///
/// # Errors
/// A [`ParseError`] saying where and why the text is not a move.
pub fn parse_classic_move(text: &str) -> Result<ClassicMove, ParseError> {
    let mut cur = Cursor::new(text);
    cur.skip_spaces();
    let m = match cur.peek() {
        None => return Err(cur.error(ParseErrorKind::Empty)),
        Some(b) if b.is_ascii_alphabetic() => {
            let (row, col) = cur.algebraic(3)?;
            ClassicMove(row * 3 + col)
        }
        Some(_) => {
            let first = cur.digit(8, "the cell must be 0 to 8")?;
            cur.skip_spaces();
            if cur.at_end() {
                ClassicMove(first)
            } else {
                if first > 2 {
                    return Err(ParseError::new(
                        0,
                        ParseErrorKind::OutOfRange("the row must be 0 to 2"),
                    ));
                }
                let col = cur.digit(2, "the column must be 0 to 2")?;
                ClassicMove(first * 3 + col)
            }
        }
    };
    cur.skip_spaces();
    if cur.at_end() {
        Ok(m)
    } else {
        Err(cur.error(ParseErrorKind::Trailing))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use alloc::string::ToString;

    #[test]
    fn ultimate_forms_agree() {
        assert_eq!(parse_move("e5"), Ok(Move::new(4, 4)));
        assert_eq!(parse_move(" A1 "), Ok(Move::new(0, 0)));
        assert_eq!(parse_move("i9"), Ok(Move::new(8, 8)));
        assert_eq!(parse_move("4/0"), Ok(Move::new(4, 0)));
        assert_eq!(parse_move("3 3"), Ok(Move::new(4, 0)));
        assert_eq!(parse_move("d4"), Ok(Move::new(4, 0)));
        assert_eq!(parse_move("0 8"), Ok(Move::new(2, 2)));
    }

    #[test]
    fn every_ultimate_move_round_trips() {
        for i in 0..81 {
            let m = Move::from_index(i);
            assert_eq!(parse_move(&m.to_string()), Ok(m));
            let (r, c) = m.row_col();
            assert_eq!(Move::from_row_col(r, c), m);
        }
    }

    #[test]
    fn errors_say_where() {
        assert_eq!(parse_move("").unwrap_err().kind, ParseErrorKind::Empty);
        assert_eq!(parse_move("j1").unwrap_err().at, 0);
        assert_eq!(parse_move("a0").unwrap_err().at, 1);
        assert_eq!(parse_move("a10").unwrap_err().at, 1);
        assert_eq!(
            parse_move("e5x").unwrap_err().kind,
            ParseErrorKind::Trailing
        );
        assert_eq!(parse_move("9 1").unwrap_err().at, 0);
        assert_eq!(parse_move("4/9").unwrap_err().at, 2);
        assert_eq!(parse_move("-1 -1").unwrap_err().at, 0);
        assert!(parse_move("12").is_err());
        assert!(parse_move("é5").is_err());
    }

    #[test]
    fn classic_forms_agree() {
        for c in 0..9 {
            let m = ClassicMove(c);
            assert_eq!(parse_classic_move(&m.to_string()), Ok(m));
            assert_eq!(parse_classic_move(&c.to_string()), Ok(m));
        }
        assert_eq!(parse_classic_move("1 2"), Ok(ClassicMove(5)));
        assert!(parse_classic_move("d1").is_err());
        assert!(parse_classic_move("3 0").is_err());
        assert!(parse_classic_move("9").is_err());
    }
}
