//! `uttt play`: a game in the terminal, between people, the engine, or both.

use std::io::{self, BufRead, Write};
use std::process::ExitCode;

use uttt_core::notation::region_name;
use uttt_core::record::record_string;
use uttt_core::search::{Level, Progress, Searchable};
use uttt_core::tree::parse_main_line;
use uttt_core::AnyGame;
use uttt_core::{Classic, Game, History, IllegalMove, Player, Rules, Ultimate};

use crate::ai::{Engine, Thought};
use crate::args::{GameChoice, Spec, UsageError};
use crate::input::{self, quote, Line, MAX_LINE};
use crate::render::{board_range, Front, Style};
use crate::usage;

/// The help text of `uttt play`.
pub const HELP: &str = "\
uttt play: play Ultimate or Classic tic-tac-toe in the terminal

Usage: uttt play [--game ultimate|classic] [--rules standard|tiebreak]
                 [--x human|LEVEL] [--o human|LEVEL] [--seed N] [--record STR]
                 [--no-ponder]

Options:
  --game G      ultimate (default) or classic
  --rules R     standard (default: all boards decided without a line is a draw)
                or tiebreak (then more won boards wins); Ultimate only
  --x WHO       who plays X: human (default) or a level
  --o WHO       who plays O: a level (default hard) or human
                levels: beginner, easy, medium, hard, master
  --seed N      seed for the engine's choices among equal moves (default 1)
  --record STR  continue a game from its record, e.g. ultimate-standard:e5e4
                (the game and rules come from the record)
  --no-ponder   Hard and Master think only on their own turns (by default
                they search the reply they expect while you think)
  -h, --help    this text

Moves: e5 (column a-i, row 1-9 from the top; a-c and 1-3 in Classic),
       4/0 (board/cell, each 0-8 in reading order), or 3 3 (row col, 0-based).
Commands: undo, redo, hint, new, board, help, quit. End of input quits.

The board: dots are the cells you may play now, [X] is the last move, and a
won board is drawn as a big X or O. While the engine thinks, a terminal shows
its search depth by depth (depth, score, the line it expects); a pipe gets
only the move.

Examples:
  uttt play                              # you are X against hard
  uttt play --o human                    # two people at one keyboard
  uttt play --x master --o human         # the engine opens
  uttt play --game classic --o beginner
  uttt play --record ultimate-standard:e5e4d2
";

const COMMANDS: &str = "\
Type a move: e5 (column a-i, row 1-9), 4/0 (board/cell, 0-8 each) or 3 3 (row col, 0-8).
Commands: undo (take back your last move), redo (replay it), hint (ask the engine),
new (start again), board (draw the board again), help (this text), quit.
";

const CLASSIC_COMMANDS: &str = "\
Type a move: b2 (column a-c, row 1-3), 4 (cell 0-8) or 1 1 (row col, 0-2).
Commands: undo (take back your last move), redo (replay it), hint (ask the engine),
new (start again), board (draw the board again), help (this text), quit.
";

const SPEC: Spec = Spec {
    values: &["game", "rules", "x", "o", "seed", "record"],
    switches: &["no-ponder"],
};

/// Who sits on one side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seat {
    /// Someone typing moves.
    Human,
    /// The engine at a level.
    Engine(Level),
}

impl Seat {
    fn parse(option: &str, text: &str) -> Result<Seat, UsageError> {
        if text.eq_ignore_ascii_case("human") {
            return Ok(Seat::Human);
        }
        Level::from_name(text).map(Seat::Engine).ok_or_else(|| {
            usage!(
                "--{option} must be human or a level (beginner, easy, medium, hard, master), not \"{text}\""
            )
        })
    }
}

/// Runs `uttt play` with the words after the subcommand.
///
/// # Errors
/// A usage error for a bad option or record.
pub fn run(args: &[String]) -> Result<ExitCode, UsageError> {
    let p = SPEC.parse(args)?;
    if p.help {
        out!("{HELP}");
        return Ok(ExitCode::SUCCESS);
    }
    p.at_most_positional(0)?;
    let seats = [
        Seat::parse("x", p.value("x").unwrap_or("human"))?,
        Seat::parse("o", p.value("o").unwrap_or("hard"))?,
    ];
    let seed = p.number("seed", 0u64, u64::MAX, 1)?;
    let game = p.game()?;
    let ponder = !p.switch("no-ponder");
    let stdin = io::stdin();
    let mut input = stdin.lock();
    let stdout = io::stdout();
    let mut output = stdout.lock();
    let style = Style::detect();
    let result = if let Some(text) = p.value("record") {
        if p.value("rules").is_some() {
            return Err(usage!("--record already names the rules; drop --rules"));
        }
        match parse_main_line(text) {
            Ok(AnyGame::Ultimate(h)) => {
                expect_game(game, GameChoice::Ultimate)?;
                Session::new(h, seats, seed, style)
                    .map(|s| s.pondering(ponder))
                    .and_then(|s| s.run(&mut input, &mut output))
            }
            Ok(AnyGame::Classic(h)) => {
                expect_game(game, GameChoice::Classic)?;
                Session::new(h, seats, seed, style)
                    .map(|s| s.pondering(ponder))
                    .and_then(|s| s.run(&mut input, &mut output))
            }
            Err(e) => return Err(usage!("--record: {e}")),
        }
    } else {
        match game.unwrap_or(GameChoice::Ultimate) {
            GameChoice::Ultimate => {
                let rules = p.rules(Rules::Standard)?;
                Session::new(History::new(Ultimate::new(rules)), seats, seed, style)
                    .map(|s| s.pondering(ponder))
                    .and_then(|s| s.run(&mut input, &mut output))
            }
            GameChoice::Classic => {
                if p.value("rules").is_some() {
                    return Err(usage!("--rules applies to Ultimate only"));
                }
                Session::new(History::new(Classic::new()), seats, seed, style)
                    .map(|s| s.pondering(ponder))
                    .and_then(|s| s.run(&mut input, &mut output))
            }
        }
    };
    // A closed stdout (e.g. piped into `head`) is not worth a panic.
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) if e.kind() == io::ErrorKind::BrokenPipe => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("uttt play: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

fn expect_game(given: Option<GameChoice>, found: GameChoice) -> Result<(), UsageError> {
    match given {
        Some(g) if g != found => Err(usage!(
            "--game says {} but the record is a {} game",
            name(g),
            name(found)
        )),
        _ => Ok(()),
    }
}

fn name(g: GameChoice) -> &'static str {
    match g {
        GameChoice::Ultimate => "ultimate",
        GameChoice::Classic => "classic",
    }
}

/// What a line of input asks for.
enum Command<M> {
    Move(M),
    Undo,
    Redo,
    Hint,
    New,
    Board,
    Help,
    Quit,
    Nothing,
}

/// What the loop does after handling a line.
enum Next {
    Continue,
    Stop,
}

/// One terminal game and the settings to start the next.
struct Session<G: Front + Searchable> {
    history: History<G>,
    seats: [Seat; 2],
    engines: [Option<Engine>; 2],
    /// Set once the end of the current game has been announced.
    announced: bool,
    style: Style,
    seed: u64,
    /// Engines search the expected reply while the other side thinks.
    ponder: bool,
}

impl<G> Session<G>
where
    G: Front + Searchable + Send + 'static,
    G::Move: Send,
{
    /// A session, its engines made (their tables allocated) now.
    fn new(history: History<G>, seats: [Seat; 2], seed: u64, style: Style) -> io::Result<Self> {
        Ok(Session {
            history,
            seats,
            engines: make_engines(seats, seed)?,
            announced: false,
            style,
            seed,
            ponder: true,
        })
    }

    /// Turns pondering off or on.
    fn pondering(mut self, on: bool) -> Self {
        self.ponder = on;
        self
    }

    /// Stops every engine's pondering: the position it expected is gone.
    fn stop_pondering(&mut self) {
        for engine in self.engines.iter_mut().flatten() {
            engine.stop_pondering();
        }
    }

    fn pos(&self) -> &G {
        self.history.current()
    }

    fn seat(&self) -> Seat {
        self.seats[self.pos().side_to_move().index()]
    }

    fn run(mut self, input: &mut impl BufRead, out: &mut impl Write) -> io::Result<()> {
        writeln!(out, "{}", self.intro())?;
        self.show(out)?;
        loop {
            if !self.pos().is_over() {
                if let Seat::Engine(level) = self.seat() {
                    self.engine_move(level, out)?;
                    continue;
                }
            } else if !self.announced {
                self.announce_end(out)?;
            }
            self.prompt(out)?;
            // A line that is not UTF-8 gets the usual one-sentence refusal
            // instead of ending the game; an overlong one is not kept.
            let line = match input::read_line(input)? {
                Line::End => {
                    writeln!(out)?;
                    writeln!(out, "End of input.")?;
                    return self.farewell(out);
                }
                Line::TooLong => {
                    writeln!(
                        out,
                        "That line is longer than {MAX_LINE} bytes; type a move or a command."
                    )?;
                    continue;
                }
                Line::Text(line) => line,
            };
            if let Next::Stop = self.handle(&line, out)? {
                return self.farewell(out);
            }
        }
    }

    fn intro(&self) -> String {
        let who = |s: Seat| match s {
            Seat::Human => "human".to_string(),
            Seat::Engine(l) => format!("engine ({l})"),
        };
        let game = match G::KIND {
            uttt_core::GameKind::Ultimate => {
                format!("Ultimate tic-tac-toe, {} rules", self.pos().rules())
            }
            uttt_core::GameKind::Classic => "Classic tic-tac-toe".to_string(),
        };
        format!(
            "{game}: X is {}, O is {}. Type help for the commands.",
            who(self.seats[0]),
            who(self.seats[1])
        )
    }

    fn show(&self, out: &mut impl Write) -> io::Result<()> {
        write!(out, "\n{}", self.pos().render(self.style))?;
        writeln!(out, "{}", self.pos().turn_line())
    }

    fn prompt(&self, out: &mut impl Write) -> io::Result<()> {
        if self.pos().is_over() {
            write!(out, "> ")?;
        } else {
            write!(out, "{}> ", self.pos().side_to_move())?;
        }
        out.flush()
    }

    fn parse(&self, line: &str) -> Result<Command<G::Move>, String> {
        let word = line.to_ascii_lowercase();
        Ok(match word.as_str() {
            "" => Command::Nothing,
            "undo" | "u" => Command::Undo,
            "redo" | "r" => Command::Redo,
            "hint" => Command::Hint,
            "new" => Command::New,
            "board" | "b" => Command::Board,
            "help" | "h" | "?" => Command::Help,
            "quit" | "exit" | "q" => Command::Quit,
            // A word of letters only is a mistyped command, not a move.
            _ if word.len() > 2 && word.bytes().all(|b| b.is_ascii_alphabetic()) => {
                return Err(format!(
                    "{} is not a command or a move; type help for the list.",
                    quote(line)
                ))
            }
            _ => match G::parse_move(line) {
                Ok(m) => Command::Move(m),
                Err(e) => {
                    return Err(format!(
                        "{} is not a move: {e} (type help for the commands).",
                        quote(line)
                    ))
                }
            },
        })
    }

    fn handle(&mut self, line: &str, out: &mut impl Write) -> io::Result<Next> {
        let command = match self.parse(line) {
            Ok(c) => c,
            Err(sentence) => {
                writeln!(out, "{sentence}")?;
                return Ok(Next::Continue);
            }
        };
        match command {
            Command::Nothing => {
                writeln!(
                    out,
                    "Type a move such as {}, or help for the commands.",
                    example::<G>()
                )?;
            }
            Command::Move(m) => self.human_move(m, out)?,
            Command::Undo => {
                self.stop_pondering();
                self.undo(out)?;
            }
            Command::Redo => {
                self.stop_pondering();
                self.redo(out)?;
            }
            Command::Hint => self.hint(out)?,
            Command::New => {
                self.history = History::new(G::start(self.pos().rules()));
                self.announced = false;
                // A fresh game forgets the old one's table; the next seed
                // keeps the engine from replaying the same game.
                self.seed = self.seed.wrapping_add(2);
                self.engines = make_engines(self.seats, self.seed)?;
                writeln!(out, "New game.")?;
                self.show(out)?;
            }
            Command::Board => self.show(out)?,
            Command::Help => write!(
                out,
                "{}",
                match G::KIND {
                    uttt_core::GameKind::Ultimate => COMMANDS,
                    uttt_core::GameKind::Classic => CLASSIC_COMMANDS,
                }
            )?,
            Command::Quit => return Ok(Next::Stop),
        }
        Ok(Next::Continue)
    }

    fn human_move(&mut self, m: G::Move, out: &mut impl Write) -> io::Result<()> {
        if let Some(o) = self.pos().outcome() {
            return writeln!(out, "The game is over ({o}): type undo, new or quit.");
        }
        match self.history.play(m) {
            Ok(()) => self.show(out),
            Err(IllegalMove::WrongBoard { required }) => writeln!(
                out,
                "{m} is not allowed: the move must be in the {} board ({}).",
                region_name(required).unwrap_or("required"),
                board_range(required)
            ),
            Err(reason) => writeln!(out, "{m} is not allowed: {reason}."),
        }
    }

    fn engine_move(&mut self, level: Level, out: &mut impl Write) -> io::Result<()> {
        let side = self.pos().side_to_move();
        let pos = *self.pos();
        let engine = self.engines[side.index()]
            .as_mut()
            .expect("an engine seat has an engine");
        let prefix = format!("{side} ({level}) is thinking...");
        let thought = think_aloud(engine, &pos, &prefix, self.style.live, out)?;
        writeln!(out, " {side} plays {}", describe(&thought, side))?;
        self.history
            .play(thought.mv)
            .expect("the engine returns a legal move");
        let now = *self.pos();
        if self.ponder {
            if let Some(engine) = self.engines[side.index()].as_mut() {
                engine.ponder_reply(&now, thought.expected);
            }
        }
        self.show(out)
    }

    fn hint(&mut self, out: &mut impl Write) -> io::Result<()> {
        if let Some(o) = self.pos().outcome() {
            return writeln!(out, "The game is over ({o}): there is nothing to hint.");
        }
        let pos = *self.pos();
        let mut engine = Engine::new(Level::Hard, self.seed).map_err(io::Error::other)?;
        let thought = think_aloud(&mut engine, &pos, "Thinking...", self.style.live, out)?;
        writeln!(out, " hint: {}", describe(&thought, pos.side_to_move()))
    }

    /// Takes moves back until a human is to move, so the engine does not
    /// simply replay at once.
    fn undo(&mut self, out: &mut impl Write) -> io::Result<()> {
        let target = (0..self.history.cursor()).rev().find(|&ply| {
            let pos = self.history.position_at(ply).expect("ply within history");
            self.seats[pos.side_to_move().index()] == Seat::Human
        });
        match target {
            Some(ply) => {
                let taken = self.history.cursor() - ply;
                self.history.jump(ply);
                self.announced = false;
                writeln!(out, "Took back {taken} move{}.", plural(taken))?;
                self.show(out)
            }
            None => writeln!(out, "There is no move of yours to take back."),
        }
    }

    /// Replays taken-back moves up to the next human turn (or the end).
    fn redo(&mut self, out: &mut impl Write) -> io::Result<()> {
        let cursor = self.history.cursor();
        let len = self.history.len();
        if cursor == len {
            return writeln!(out, "There is no taken-back move to replay.");
        }
        let target = (cursor + 1..=len)
            .find(|&ply| {
                let pos = self.history.position_at(ply).expect("ply within history");
                pos.is_over() || self.seats[pos.side_to_move().index()] == Seat::Human
            })
            .unwrap_or(len);
        self.history.jump(target);
        let n = target - cursor;
        writeln!(out, "Replayed {n} move{}.", plural(n))?;
        self.show(out)
    }

    fn announce_end(&mut self, out: &mut impl Write) -> io::Result<()> {
        self.announced = true;
        if let Some(o) = self.pos().outcome() {
            writeln!(out, "Result: {o}.")?;
            writeln!(out, "Record: {}", self.record())?;
            writeln!(
                out,
                "Type new for another game, undo to take back, or quit."
            )?;
        }
        Ok(())
    }

    /// The record of the moves on the board (not the taken-back ones).
    fn record(&self) -> String {
        let mut h = self.history.clone();
        h.truncate();
        record_string(&h)
    }

    fn farewell(&self, out: &mut impl Write) -> io::Result<()> {
        match self.pos().outcome() {
            Some(o) => writeln!(out, "Result: {o}.")?,
            None => {
                let n = self.history.cursor();
                writeln!(
                    out,
                    "Result so far: unfinished after {n} move{}, {} to move.",
                    plural(n),
                    self.pos().side_to_move()
                )?;
            }
        }
        writeln!(out, "Record: {}", self.record())
    }
}

fn make_engines(seats: [Seat; 2], seed: u64) -> io::Result<[Option<Engine>; 2]> {
    let make = |i: usize| match seats[i] {
        Seat::Human => Ok(None),
        // The two sides get different seeds so an engine mirror match varies.
        Seat::Engine(level) => Engine::new(level, seed.wrapping_add(i as u64))
            .map(Some)
            .map_err(io::Error::other),
    };
    Ok([make(0)?, make(1)?])
}

fn plural(n: usize) -> &'static str {
    if n == 1 {
        ""
    } else {
        "s"
    }
}

fn example<G: Game>() -> &'static str {
    match G::KIND {
        uttt_core::GameKind::Ultimate => "e5",
        uttt_core::GameKind::Classic => "b2",
    }
}

/// Writes `prefix`, lets `engine` choose a move in `pos` and, when `live`,
/// redraws the line after each completed depth; leaves the line ending in
/// `prefix` either way, for the caller to finish.
fn think_aloud<G: Searchable>(
    engine: &mut Engine,
    pos: &G,
    prefix: &str,
    live: bool,
    out: &mut impl Write,
) -> io::Result<Thought<G::Move>> {
    write!(out, "{prefix}")?;
    out.flush()?;
    let side = pos.side_to_move();
    // The progress callback cannot return an error: keep the first one.
    let mut shown = Ok(());
    let thought = engine.think(pos, |p| {
        if live && shown.is_ok() {
            shown = write!(out, "{}", live_line(prefix, side, p)).and_then(|()| out.flush());
        }
    });
    shown?;
    if live {
        write!(out, "\r{prefix}\x1b[K")?;
    }
    Ok(thought)
}

/// The thinking line after a completed depth, redrawn over the previous
/// one: back to the line's start, the depth, score and the start of the
/// principal variation, then erase whatever a longer earlier line left.
fn live_line<M: core::fmt::Display>(prefix: &str, side: Player, p: &Progress<'_, M>) -> String {
    let pv: Vec<String> =
        p.pv.iter()
            .take(LIVE_PV_MOVES)
            .map(ToString::to_string)
            .collect();
    format!(
        "\r{prefix} depth {}, {} for {side}: {}\x1b[K",
        p.depth,
        p.score,
        pv.join(" ")
    )
}

/// How much of the principal variation the thinking line shows: enough to
/// see the plan, short enough for an 80-column terminal.
const LIVE_PV_MOVES: usize = 4;

/// "e5 (depth 7, score +0.25 for X)": the score is the mover's.
fn describe<M: core::fmt::Display>(t: &Thought<M>, side: Player) -> String {
    if t.depth == 0 {
        // Beginner follows rules of thumb and has no score to show.
        format!("{} (rule player, no search)", t.mv)
    } else if t.complete && !t.score.is_mate() {
        format!("{} (searched to the end: a draw with best play)", t.mv)
    } else if t.complete {
        format!("{} (searched to the end: {} for {side})", t.mv, t.score)
    } else {
        format!("{} (depth {}, score {} for {side})", t.mv, t.depth, t.score)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The transcript of an engine opening as X at Medium, then `quit`.
    fn transcript(style: Style) -> String {
        let session = Session::new(
            History::new(Ultimate::new(Rules::Standard)),
            [Seat::Engine(Level::Medium), Seat::Human],
            1,
            style,
        )
        .expect("a Medium table fits in memory");
        let mut out = Vec::new();
        session
            .run(&mut "quit\n".as_bytes(), &mut out)
            .expect("writing to memory works");
        String::from_utf8(out).expect("the transcript is text")
    }

    #[test]
    fn a_terminal_sees_each_depth_redrawn_in_place_and_a_pipe_does_not() {
        let live = transcript(Style {
            colour: false,
            live: true,
        });
        // Medium searches 4 plies: one redrawn line per depth, each erasing
        // the rest of the previous one, then the final line over them all.
        for depth in 1..=4 {
            let line = format!("\rX (medium) is thinking... depth {depth}, ");
            assert!(live.contains(&line), "no live line for depth {depth}");
        }
        assert_eq!(live.matches("\x1b[K").count(), 5);
        assert!(live.contains("\rX (medium) is thinking...\x1b[K X plays "));

        let plain = transcript(Style::PLAIN);
        assert!(!plain.contains('\r') && !plain.contains('\x1b'));
        assert!(plain.contains("X (medium) is thinking... X plays "));
        // After the last redraw, the live line reads as the plain one.
        let move_line = |t: &str| {
            t.lines()
                .find(|l| l.contains(" X plays "))
                .expect("the engine moved")
                .to_string()
        };
        let plain_line = move_line(&plain).replacen("... ", "...\x1b[K ", 1);
        assert!(move_line(&live).ends_with(&format!("\r{plain_line}")));
    }
}
