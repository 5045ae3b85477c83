//! `cargo xtask bench --page`: the page's speed figures in headless
//! Chromium, medians of several runs.
//!
//! The figures are those the `@quiet` specs measure on the way to their
//! checks (reply times with the overlay or the live evaluation on, the
//! longest main-thread task while the AI thinks, review time, pondering
//! depths, wasm size) and those of tests/bench/load.bench.js (time to a
//! playable board on a first visit, quiet and on a slow phone). The specs
//! themselves bound only what a defect crosses, so load on the machine can
//! never fail a test; here each figure is printed with its median, low and
//! high over the runs, and nothing is judged.

use crate::bench::{load_average_text, read_number};
use crate::cmd;
use crate::test::ServedDist;
use crate::Result;
use std::path::Path;
use std::process::Command;

/// `bench --page` options.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    runs: u32,
}

impl Options {
    /// Reads `--page [--runs N]`.
    pub fn parse(args: &[String]) -> Result<Options> {
        let mut options = Options { runs: 5 };
        let mut rest = args.iter();
        while let Some(flag) = rest.next() {
            match flag.as_str() {
                "--page" => {}
                "--runs" => read_number(flag, rest.next(), &mut options.runs, 50)?,
                other => {
                    return Err(format!(
                        "unexpected argument `{other}` (bench --page takes --runs N)"
                    ))
                }
            }
        }
        Ok(options)
    }
}

/// Runs the page's figure specs `runs` times, one at a time, and prints
/// the table.
pub fn run(root: &Path, options: &Options) -> Result {
    let bin = crate::server::build(root, crate::server::Profile::Dev)?;
    let served = ServedDist::start(root, "page-bench", bin)?;
    let args: Vec<String> = [
        "--project",
        "quiet",
        "--project",
        "bench",
        "--no-deps",
        "--workers",
        "1",
        "--repeat-each",
        &options.runs.to_string(),
    ]
    .iter()
    .map(|s| s.to_string())
    .collect();
    println!("xtask: load average at start: {}", load_average_text());
    let mut command = served.playwright(root, &args);
    command.env("UTTT_BENCH", "1");
    let specs = cmd::run(&mut command, "the page's figure specs");
    println!("xtask: load average at end: {}", load_average_text());
    let summary = cmd::run(
        Command::new("node")
            .current_dir(root)
            .arg(root.join("tests/bench/page-figures.js"))
            .arg(&served.report),
        "the figures' summary (tests/bench/page-figures.js)",
    );
    // A failed spec is the news; the summary's own failure comes second.
    specs.and(summary)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options> {
        Options::parse(&args.iter().map(|s| s.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn reads_the_runs() {
        assert_eq!(parse(&["--page"]), Ok(Options { runs: 5 }));
        assert_eq!(parse(&["--page", "--runs", "3"]), Ok(Options { runs: 3 }));
        assert!(parse(&["--page", "--runs", "0"]).is_err());
        assert!(parse(&["--page", "--depth", "3"]).is_err());
    }
}
