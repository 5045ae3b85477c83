//! `uttt`: the terminal front end of the engine.
//!
//! One subcommand per file; this file only dispatches and turns usage
//! errors into exit code 2.

#[macro_use]
mod out;

mod ai;
mod analyse;
mod args;
mod bench;
mod bot;
mod calibrate;
mod engine_proc;
mod input;
mod matches;
mod mcts;
mod online;
mod perft;
mod play;
mod render;

use std::process::ExitCode;

use args::UsageError;

const HELP: &str = "\
uttt: Ultimate Tic-Tac-Toe (and Classic) in the terminal

Usage: uttt COMMAND [OPTIONS]

Commands:
  play      play a game against the engine or a friend
  bot       play by the CodinGame protocol on stdin/stdout
  analyse   show the engine's thoughts on a record or position
  perft     count positions DEPTH moves ahead
  bench     measure the search's speed on fixed positions
  match     play two engines (levels, mcts, trap, cmd:PROGRAM) against each other
  online    play a friend, watch, or seat the engine on a uttt-server
  tune      tune the evaluation weights by self-play
  calibrate fit the score-to-win-chance mapping by self-play
  help      this text, or `uttt help COMMAND` for a command's

Every command takes --help. Exit codes: 0 ok, 1 bad input while running,
2 usage error.

Examples:
  uttt play                        # you are X against the Hard level
  uttt play --game classic --o easy
  uttt perft 5
  uttt match hard cmd:'uttt bot --level medium' --games 10
";

/// A subcommand: runs with the words after its name.
type Runner = fn(&[String]) -> Result<ExitCode, UsageError>;

fn command(name: &str) -> Option<Runner> {
    match name {
        "play" => Some(play::run),
        "online" => Some(online::run),
        "bot" => Some(bot::run),
        "analyse" | "analyze" => Some(analyse::run),
        "perft" => Some(perft::run),
        "bench" => Some(|a| plain_errors(bench::run(a))),
        "match" => Some(|a| plain_errors(matches::run(a))),
        "tune" => Some(|a| plain_errors(matches::run_tune(a))),
        "calibrate" => Some(calibrate::run),
        _ => None,
    }
}

/// The bench/match/tune runners report errors as text, already with their
/// help attached: print it as it is, exit code 2.
fn plain_errors(result: Result<(), String>) -> Result<ExitCode, UsageError> {
    match result {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("uttt: {e}");
            Ok(ExitCode::from(2))
        }
    }
}

fn main() -> ExitCode {
    let argv: Vec<String> = std::env::args().skip(1).collect();
    let Some(first) = argv.first() else {
        eprint!("{HELP}");
        return ExitCode::from(2);
    };
    match first.as_str() {
        "-h" | "--help" => {
            out!("{HELP}");
            return ExitCode::SUCCESS;
        }
        "-V" | "--version" => {
            outln!("uttt {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
        "help" => {
            return match argv.get(1) {
                None => {
                    out!("{HELP}");
                    ExitCode::SUCCESS
                }
                // `uttt help play` is `uttt play --help`.
                Some(name) => match command(name) {
                    Some(run) => finish(name, run(&["--help".to_string()])),
                    None => usage_exit("uttt", &usage!("unknown command \"{name}\"")),
                },
            };
        }
        _ => {}
    }
    match command(first) {
        Some(run) => finish(first, run(&argv[1..])),
        None => usage_exit("uttt", &usage!("unknown command \"{first}\"")),
    }
}

/// The exit code of a subcommand's run, reporting a usage error.
fn finish(name: &str, result: Result<ExitCode, UsageError>) -> ExitCode {
    match result {
        Ok(code) => code,
        Err(e) => usage_exit(&format!("uttt {name}"), &e),
    }
}

/// Reports a usage error on stderr with where to find help; exit code 2.
fn usage_exit(program: &str, e: &UsageError) -> ExitCode {
    eprintln!("{program}: {e}.");
    eprintln!("Run `{program} --help` for usage and examples.");
    ExitCode::from(2)
}
