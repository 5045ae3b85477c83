//! `uttt`: the terminal front end of the engine.

mod bench;
mod engine_proc;
mod matches;
mod mcts;

use std::process::ExitCode;

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let result = match args.first().map(String::as_str) {
        Some("bench") => bench::run(&args[1..]),
        Some("match") => matches::run(&args[1..]),
        Some("tune") => matches::run_tune(&args[1..]),
        _ => {
            println!("uttt {}", env!("CARGO_PKG_VERSION"));
            return ExitCode::SUCCESS;
        }
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("uttt: {e}");
            ExitCode::from(2)
        }
    }
}
