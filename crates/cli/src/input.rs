//! Reading lines of terminal or protocol input with a bounded buffer: a line
//! of any length costs at most [`MAX_LINE`] bytes of memory, and an overlong
//! one is skipped to its end and reported, never kept or echoed whole.

use std::io::{self, BufRead};

/// The longest line kept, in bytes. Every command, move and protocol line
/// is a few dozen bytes; a kilobyte leaves room for pasted records.
pub const MAX_LINE: usize = 1024;

/// How many characters of a refused line an error message repeats.
const ECHO_CHARS: usize = 40;

/// One line of input.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Line {
    /// A line, trimmed; bytes that are not UTF-8 are replaced, so such a
    /// line is refused like any other bad line rather than ending the input.
    Text(String),
    /// A line longer than [`MAX_LINE`] bytes, skipped to its end.
    TooLong,
    /// The input has ended.
    End,
}

/// Reads the next line from `input`, keeping at most [`MAX_LINE`] bytes.
///
/// # Errors
/// A failed read.
pub fn read_line(input: &mut impl BufRead) -> io::Result<Line> {
    let mut kept = Vec::new();
    let mut read_any = false;
    let mut too_long = false;
    loop {
        let chunk = match input.fill_buf() {
            Ok(chunk) => chunk,
            Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
            Err(e) => return Err(e),
        };
        if chunk.is_empty() {
            break;
        }
        read_any = true;
        let (part, ends) = match chunk.iter().position(|&b| b == b'\n') {
            Some(i) => (&chunk[..i], Some(i + 1)),
            None => (chunk, None),
        };
        if !too_long {
            if kept.len() + part.len() > MAX_LINE {
                too_long = true;
                kept = Vec::new();
            } else {
                kept.extend_from_slice(part);
            }
        }
        let used = ends.unwrap_or(chunk.len());
        input.consume(used);
        if ends.is_some() {
            break;
        }
    }
    Ok(if !read_any {
        Line::End
    } else if too_long {
        Line::TooLong
    } else {
        Line::Text(String::from_utf8_lossy(&kept).trim().to_string())
    })
}

/// `text` as an error message quotes it: whole when short, else its first
/// [`ECHO_CHARS`] characters and an ellipsis.
#[must_use]
pub fn quote(text: &str) -> String {
    match text.char_indices().nth(ECHO_CHARS) {
        None => format!("\"{text}\""),
        Some((end, _)) => format!("\"{}...\"", &text[..end]),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn lines(input: &[u8]) -> Vec<Line> {
        // A tiny buffer, so lines cross many reads.
        let mut reader = io::BufReader::with_capacity(7, input);
        let mut out = Vec::new();
        loop {
            let line = read_line(&mut reader).unwrap();
            let end = line == Line::End;
            out.push(line);
            if end {
                return out;
            }
        }
    }

    #[test]
    fn lines_are_trimmed_and_the_end_is_seen() {
        assert_eq!(
            lines(b" e5 \r\n\nlast"),
            [
                Line::Text("e5".into()),
                Line::Text(String::new()),
                Line::Text("last".into()),
                Line::End
            ]
        );
    }

    #[test]
    fn an_overlong_line_is_skipped_to_its_end_and_the_next_is_read() {
        let mut input = vec![b'x'; MAX_LINE + 1];
        input.extend_from_slice(b"\n4 4\n");
        assert_eq!(
            lines(&input),
            [Line::TooLong, Line::Text("4 4".into()), Line::End]
        );
        let exact = vec![b'y'; MAX_LINE];
        assert_eq!(lines(&exact)[0], Line::Text("y".repeat(MAX_LINE)));
    }

    #[test]
    fn bytes_that_are_not_utf8_make_a_line_not_an_error() {
        assert_eq!(
            lines(b"\xff\xfe\n")[0],
            Line::Text("\u{fffd}\u{fffd}".into())
        );
    }

    #[test]
    fn quotes_are_cut_after_forty_characters() {
        assert_eq!(quote("e5"), "\"e5\"");
        let long = "é".repeat(50);
        assert_eq!(quote(&long), format!("\"{}...\"", "é".repeat(40)));
    }
}
