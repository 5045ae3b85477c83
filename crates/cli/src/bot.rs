//! `uttt bot`: the CodinGame Ultimate Tic-Tac-Toe protocol on stdin/stdout,
//! so the engine can play in that arena and against any bot written for it.
//!
//! Each turn: a line `opponentRow opponentCol` (`-1 -1` when the bot moves
//! first), a line with the number of valid actions, that many lines
//! `row col`, all 0-8 on the 9x9 grid; the bot answers one line `row col`.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;
use std::time::{Duration, Instant};

use uttt_core::search::Level;
use uttt_core::{Game, Move, Rules, Ultimate};

use crate::ai::Engine;
use crate::args::{Spec, UsageError, MAX_DEPTH};
use crate::input::{self, quote, Line, MAX_LINE};
use crate::usage;

/// The help text of `uttt bot`.
pub const HELP: &str = "\
uttt bot: play Ultimate tic-tac-toe by the CodinGame protocol on stdin/stdout

Usage: uttt bot [--level LEVEL] [--movetime MS] [--first-movetime MS]
                [--rules standard|tiebreak] [--seed N] [--depth N] [--no-ponder]

Each turn the bot reads `opponentRow opponentCol` (-1 -1 when it moves first),
then the number of valid actions, then that many lines `row col` (0-8 on the
9x9 grid, row 0 on top), and prints its move as one line `row col`. It keeps
its own game state from the moves it sees and always answers with a move from
the valid list. Bad input gets one line on stderr and exit code 1; the end of
input between turns ends the bot with exit code 0. Lines longer than 1024
bytes are refused. While the opponent thinks, Hard and Master search the reply
they expect (pondering), and carry on from there when it comes.

Options:
  --level L            beginner, easy, medium, hard (default) or master
  --movetime MS        answer each turn within MS milliseconds (default 100)
  --first-movetime MS  the first turn's limit (default 1000), counted from the
                       first line; the engine's table is made before it is read
  --rules R            tiebreak (default, as on CodinGame: when every board is
                       decided, more won boards wins) or standard (a draw)
  --seed N             seed for the choices among equal moves (default 1)
  --depth N            search at most N plies (1-81), e.g. for a strength that
                       does not depend on the machine's speed; the time limits
                       still apply
  --no-ponder          think only on the bot's own turns
  -h, --help           this text

Examples:
  uttt bot
  uttt bot --level master --movetime 95
  printf -- '-1 -1\\n2\\n4 4\\n0 0\\n' | uttt bot
";

const SPEC: Spec = Spec {
    values: &[
        "level",
        "movetime",
        "first-movetime",
        "rules",
        "seed",
        "depth",
    ],
    switches: &["no-ponder"],
};

/// How the bot plays and how long it may think.
#[derive(Clone, Copy, Debug)]
pub struct Config {
    /// The engine's level.
    pub level: Level,
    /// The limit for every turn but the first.
    pub movetime: Duration,
    /// The limit for the first turn, counted from process start.
    pub first_movetime: Duration,
    /// The rules the game is played under.
    pub rules: Rules,
    /// The engine's seed.
    pub seed: u64,
    /// The deepest search, if limited.
    pub depth: Option<u32>,
    /// Search the expected reply while the opponent thinks.
    pub ponder: bool,
}

/// Runs `uttt bot` with the words after the subcommand.
///
/// # Errors
/// A usage error for a bad option.
pub fn run(args: &[String]) -> Result<ExitCode, UsageError> {
    let p = SPEC.parse(args)?;
    if p.help {
        out!("{HELP}");
        return Ok(ExitCode::SUCCESS);
    }
    p.at_most_positional(0)?;
    let level = match p.value("level") {
        None => Level::Hard,
        Some(text) => Level::from_name(text).ok_or_else(|| {
            usage!("--level must be beginner, easy, medium, hard or master, not \"{text}\"")
        })?,
    };
    let config = Config {
        level,
        movetime: Duration::from_millis(p.number("movetime", 1u64, 3_600_000, 100)?),
        first_movetime: Duration::from_millis(p.number("first-movetime", 1u64, 3_600_000, 1000)?),
        rules: p.rules(Rules::TieBreak)?,
        seed: p.number("seed", 0u64, u64::MAX, 1)?,
        depth: match p.value("depth") {
            Some(_) => Some(p.number("depth", 1u32, MAX_DEPTH, 1)?),
            None => None,
        },
        ponder: !p.switch("no-ponder"),
    };
    let stdin = io::stdin();
    let stdout = io::stdout();
    match serve(config, &mut stdin.lock(), &mut stdout.lock()) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("uttt bot: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// Why the bot stopped early.
#[derive(Debug)]
pub enum BotError {
    /// A line of input that breaks the protocol; `line` counts from 1.
    Input {
        /// The 1-based number of the offending input line.
        line: usize,
        /// One sentence saying what is wrong.
        why: String,
    },
    /// Reading stdin or writing stdout failed.
    Io(io::Error),
    /// The engine could not be made.
    Engine(String),
}

impl std::fmt::Display for BotError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BotError::Input { line, why } => write!(f, "input line {line}: {why}"),
            BotError::Io(e) => write!(f, "{e}"),
            BotError::Engine(why) => write!(f, "{why}"),
        }
    }
}

impl From<io::Error> for BotError {
    fn from(e: io::Error) -> Self {
        BotError::Io(e)
    }
}

/// Reads input lines and counts them for error messages.
struct Lines<R> {
    input: R,
    number: usize,
}

impl<R: BufRead> Lines<R> {
    /// The next line without its line ending, or `None` at end of input.
    /// Input that is not UTF-8 is a bad line like any other; a line longer
    /// than [`MAX_LINE`] is refused without being kept.
    fn next(&mut self) -> Result<Option<String>, BotError> {
        match input::read_line(&mut self.input)? {
            Line::End => Ok(None),
            Line::TooLong => {
                self.number += 1;
                Err(self.error(format!("the line is longer than {MAX_LINE} bytes")))
            }
            Line::Text(text) => {
                self.number += 1;
                Ok(Some(text))
            }
        }
    }

    fn error(&self, why: impl Into<String>) -> BotError {
        BotError::Input {
            line: self.number,
            why: why.into(),
        }
    }

    /// The next line, which must be there.
    fn expect(&mut self, what: &str) -> Result<String, BotError> {
        match self.next()? {
            Some(text) => Ok(text),
            None => Err(BotError::Input {
                line: self.number + 1,
                why: format!("the input ended where {what} was expected"),
            }),
        }
    }
}

/// Reads `row col` as two numbers; each may be -1 only when `allow_none`.
fn parse_pair(text: &str) -> Option<(i32, i32)> {
    let mut words = text.split_ascii_whitespace();
    let row = words.next()?.parse().ok()?;
    let col = words.next()?.parse().ok()?;
    if words.next().is_some() {
        return None;
    }
    Some((row, col))
}

fn grid_move(row: i32, col: i32) -> Option<Move> {
    let r = u8::try_from(row).ok().filter(|&r| r < 9)?;
    let c = u8::try_from(col).ok().filter(|&c| c < 9)?;
    Some(Move::from_row_col(r, c))
}

/// Plays one game by the protocol until the input ends. Each turn's clock
/// starts when its first line has been read.
///
/// # Errors
/// The first line that breaks the protocol, or an I/O failure.
pub fn serve(
    config: Config,
    input: &mut impl BufRead,
    out: &mut impl Write,
) -> Result<(), BotError> {
    let mut lines = Lines { input, number: 0 };
    let mut pos = Ultimate::new(config.rules);
    // Made (its table allocated) before the first turn's clock starts.
    let mut engine = Engine::new(config.level, config.seed).map_err(BotError::Engine)?;
    if let Some(d) = config.depth {
        engine.limit_depth(d);
    }
    let mut first = true;
    loop {
        let Some(text) = lines.next()? else {
            return Ok(());
        };
        let turn_start = Instant::now();
        let limit = if first {
            config.first_movetime
        } else {
            config.movetime
        };
        let (row, col) = parse_pair(&text).ok_or_else(|| {
            lines.error(format!(
                "expected the opponent's move as two numbers `row col`, got {}",
                quote(&text)
            ))
        })?;
        if (row, col) == (-1, -1) {
            if !first || pos.ply() != 0 {
                return Err(lines.error("-1 -1 (no opponent move) is only valid on the first turn"));
            }
        } else {
            let m = grid_move(row, col).ok_or_else(|| {
                lines.error(format!(
                    "the opponent's move {row} {col} is not on the 9x9 grid (0-8)"
                ))
            })?;
            pos.try_play(m).map_err(|reason| {
                lines.error(format!(
                    "the opponent's move {row} {col} is illegal: {reason}"
                ))
            })?;
        }
        first = false;
        if pos.is_over() {
            return Err(lines.error("the game is already over after the opponent's move"));
        }

        let count_text = lines.expect("the number of valid actions")?;
        let count: usize = match count_text.parse() {
            Ok(n) if (1..=81).contains(&n) => n,
            _ => {
                return Err(lines.error(format!(
                    "expected the number of valid actions (1 to 81), got {}",
                    quote(&count_text)
                )))
            }
        };
        let mut valid = Vec::with_capacity(count);
        for _ in 0..count {
            let text = lines.expect("a valid action `row col`")?;
            let m = parse_pair(&text)
                .and_then(|(r, c)| grid_move(r, c))
                .ok_or_else(|| {
                    lines.error(format!(
                        "expected a valid action as two numbers 0-8 `row col`, got {}",
                        quote(&text)
                    ))
                })?;
            if let Err(reason) = pos.check(m) {
                return Err(lines.error(format!(
                    "the valid action \"{text}\" is not legal in this game: {reason}"
                )));
            }
            valid.push(m);
        }

        let (choice, expected) = if let [only] = valid[..] {
            (only, None)
        } else {
            let deadline = turn_start + safe_budget(limit).min(engine.budget());
            let thought = engine.think_until(&pos, deadline, |_| {});
            if valid.contains(&thought.mv) {
                (thought.mv, thought.expected)
            } else {
                // The referee offered fewer moves than the rules allow:
                // obey it rather than forfeit.
                (valid[0], None)
            }
        };
        let (r, c) = choice.row_col();
        writeln!(out, "{r} {c}")?;
        out.flush()?;
        pos.play_unchecked(choice);
        if config.ponder {
            engine.ponder_reply(&pos, expected);
        }
    }
}

/// The time the search may use out of a turn's limit. The search stops
/// within a millisecond of its deadline (the clock is read every 1,024
/// nodes, and an aborted depth unwinds at once); 5% and 2 ms are kept back
/// for writing the move, the pipe and the referee's own clock on a busy
/// machine (with 2% and 2 ms, one move in twenty took 101 ms of 100 as
/// the match runner measured it).
fn safe_budget(limit: Duration) -> Duration {
    let margin = limit / 20 + Duration::from_millis(2);
    limit.saturating_sub(margin)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config() -> Config {
        Config {
            level: Level::Beginner,
            movetime: Duration::from_millis(100),
            first_movetime: Duration::from_millis(1000),
            rules: Rules::TieBreak,
            seed: 1,
            depth: None,
            ponder: true,
        }
    }

    fn talk(input: &str) -> (Result<(), BotError>, String) {
        let mut out = Vec::new();
        let r = serve(config(), &mut input.as_bytes(), &mut out);
        (r, String::from_utf8(out).unwrap())
    }

    #[test]
    fn single_valid_action_is_played() {
        let (r, out) = talk("-1 -1\n1\n4 4\n");
        assert!(r.is_ok());
        assert_eq!(out, "4 4\n");
    }

    #[test]
    fn answers_from_the_valid_list() {
        let (r, out) = talk("4 4\n8\n3 3\n3 4\n3 5\n4 3\n4 5\n5 3\n5 4\n5 5\n");
        assert!(r.is_ok(), "{r:?}");
        let (row, col) = parse_pair(out.trim()).unwrap();
        assert!((3..=5).contains(&row) && (3..=5).contains(&col));
        assert_ne!((row, col), (4, 4));
    }

    #[test]
    fn a_shortened_list_is_obeyed() {
        // A referee may offer fewer moves than the rules allow; the answer
        // still comes from its list.
        for level in [Level::Beginner, Level::Medium] {
            let mut out = Vec::new();
            let config = Config { level, ..config() };
            let input = "-1 -1\n2\n0 1\n8 7\n";
            serve(config, &mut input.as_bytes(), &mut out).unwrap();
            let answer = String::from_utf8(out).unwrap();
            assert!(answer == "0 1\n" || answer == "8 7\n", "{answer:?}");
        }
    }

    #[test]
    fn bad_input_names_the_line() {
        for (input, line) in [
            ("hello\n", 1),
            ("-1 -1\nx\n", 2),
            ("-1 -1\n0\n", 2),
            ("-1 -1\n2\n4 4\n", 4),
            ("-1 -1\n1\n9 9\n", 3),
            ("9 0\n", 1),
            ("-1 -1\n1\n4 4\n-1 -1\n", 4),
            ("-1 -1\n1\n4 4\n4 4\n", 4),
            ("4 4\n1\n4 4\n", 3),
        ] {
            match talk(input).0 {
                Err(BotError::Input { line: l, .. }) => assert_eq!(l, line, "{input:?}"),
                other => panic!("{input:?} gave {other:?}"),
            }
        }
    }

    #[test]
    fn margin_is_kept() {
        assert_eq!(
            safe_budget(Duration::from_millis(100)),
            Duration::from_millis(93)
        );
        assert_eq!(
            safe_budget(Duration::from_millis(1000)),
            Duration::from_millis(948)
        );
        assert_eq!(safe_budget(Duration::from_millis(2)), Duration::ZERO);
    }
}
