//! `uttt perft`: counts move sequences to check the move generator, and
//! times it.

use std::process::ExitCode;
use std::time::Instant;

use uttt_core::perft::{divide, perft};
use uttt_core::record::parse_position;
use uttt_core::{AnyGame, AnyKind, Game, GameKind, History, Rules, Visit};

use crate::args::{GameChoice, Spec, UsageError};
use crate::usage;

/// The help text of `uttt perft`.
pub const HELP: &str = "\
uttt perft: count the positions DEPTH moves ahead (checks the move generator)

Usage: uttt perft DEPTH [--game ultimate|classic] [--rules standard|tiebreak]
                        [--position STR] [--divide]

Options:
  --game G        ultimate (default) or classic
  --rules R       standard (default) or tiebreak; only changes when a game ends
  --position STR  start from a position string instead of the empty board
                  (its game and rules come from the string)
  --divide        print the count below each first move, then the total
  -h, --help      this text

Examples:
  uttt perft 4                      # 81, 720, 6336, ... from the empty board
  uttt perft 9 --game classic       # 255168 finished Classic games
  uttt perft 2 --divide --position 'ultimate-standard ........./........./........./........./....x..../........./........./........./......... 4'
";

const SPEC: Spec = Spec {
    values: &["game", "rules", "position"],
    switches: &["divide"],
};

/// Runs `uttt perft` with the words after the subcommand.
///
/// # Errors
/// A usage error for a missing or bad depth, option or position.
pub fn run(args: &[String]) -> Result<ExitCode, UsageError> {
    let p = SPEC.parse(args)?;
    if p.help {
        out!("{HELP}");
        return Ok(ExitCode::SUCCESS);
    }
    p.at_most_positional(1)?;
    let depth_text = p
        .positional
        .first()
        .ok_or_else(|| usage!("perft needs a DEPTH, e.g. `uttt perft 4`"))?;
    let depth: u32 = match depth_text.parse() {
        Ok(d) if d <= 81 => d,
        _ => {
            return Err(usage!(
                "DEPTH must be a whole number from 0 to 81, not \"{depth_text}\""
            ))
        }
    };
    let divide_wanted = p.switch("divide");
    let game = if let Some(text) = p.value("position") {
        if p.value("game").is_some() || p.value("rules").is_some() {
            return Err(usage!(
                "--position already names the game and rules; drop --game and --rules"
            ));
        }
        parse_position(text).map_err(|e| usage!("--position: {e}"))?
    } else {
        let rules = p.rules(Rules::Standard)?;
        let kind = match p.game()?.unwrap_or(GameChoice::Ultimate) {
            GameChoice::Ultimate => GameKind::Ultimate,
            GameChoice::Classic => GameKind::Classic,
        };
        AnyGame::new(kind, rules)
    };
    game.visit(Report {
        depth,
        divide_wanted,
    });
    Ok(ExitCode::SUCCESS)
}

/// Counts from the position at a game's cursor (see [`report`]).
struct Report {
    depth: u32,
    divide_wanted: bool,
}

impl Visit for Report {
    type Output = ();
    fn visit<G: AnyKind>(self, history: &History<G>) {
        report(history.current(), self.depth, self.divide_wanted);
    }
}

fn report<G: Game>(pos: &G, depth: u32, divide_wanted: bool) {
    let started = Instant::now();
    let total = if divide_wanted {
        let split = divide(pos, depth);
        for (m, n) in &split {
            outln!("{m}: {n}");
        }
        let total: u64 = if depth == 0 {
            1
        } else {
            split.iter().map(|&(_, n)| n).sum()
        };
        outln!();
        total
    } else {
        perft(pos, depth)
    };
    let secs = started.elapsed().as_secs_f64();
    outln!("perft {depth}: {total}");
    // Bulk counting makes this leaves per second, not positions made.
    let rate = if secs > 0.0 { total as f64 / secs } else { 0.0 };
    outln!("time {:.3} s, {:.1} M leaves/s", secs, rate / 1e6);
}
