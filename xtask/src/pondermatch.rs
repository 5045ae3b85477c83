//! `cargo xtask ponder-match`: the browser's pondering measured as a match.
//! Builds the dist folder, serves it from the game server on a free port of
//! 127.0.0.1, and runs
//! tests/bench/ponder-match.js, where two copies of the page's AI worker
//! play in headless Chromium: one pondering while the other's turn lasts
//! as long as a person's think, one never pondering. The script prints a
//! line per game and the result. Both workers share the machine's cores.
//!
//! A measurement, not a test: `cargo xtask test` does not run it.

use crate::bench::read_number;
use crate::{build, cmd, server, setup, site, Result};
use std::path::Path;
use std::process::Command;

/// What to play.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    /// Games, in pairs from one opening (an odd count ends with half a pair).
    games: u32,
    /// `hard` or `master`, both sides.
    level: String,
    /// Each side's time a move: the level's budget in the page unless set.
    budget_ms: u32,
    /// How long each turn of the side without pondering lasts.
    think_ms: u32,
    /// Picks the openings.
    seed: u32,
    /// `standard` or `tiebreak`.
    rules: String,
}

impl Options {
    /// Reads `[--games N] [--level L] [--movetime MS] [--think MS]
    /// [--seed S] [--rules R]`; the defaults are the figure: Hard
    /// at its page budget of 1 s (Master's is 3 s), against turns of 5 s.
    ///
    /// # Errors
    /// A sentence naming the bad argument.
    pub fn parse(args: &[String]) -> Result<Options> {
        let mut budget_ms = 0;
        let mut options = Options {
            games: 20,
            level: "hard".into(),
            budget_ms: 0,
            think_ms: 5000,
            seed: 1,
            rules: "standard".into(),
        };
        let mut rest = args.iter();
        while let Some(flag) = rest.next() {
            match flag.as_str() {
                "--games" => read_number(flag, rest.next(), &mut options.games, 1000)?,
                "--movetime" => read_number(flag, rest.next(), &mut budget_ms, 60_000)?,
                "--think" => read_number(flag, rest.next(), &mut options.think_ms, 600_000)?,
                "--seed" => read_number(flag, rest.next(), &mut options.seed, i32::MAX as u32)?,
                "--level" => options.level = read_word(flag, rest.next(), &["hard", "master"])?,
                "--rules" => {
                    options.rules = read_word(flag, rest.next(), &["standard", "tiebreak"])?;
                }
                other => {
                    return Err(format!(
                        "unknown argument `{other}` (ponder-match takes --games, --level, --movetime, --think, --seed, --rules)"
                    ))
                }
            }
        }
        options.budget_ms = match (budget_ms, options.level.as_str()) {
            (0, "master") => 3000,
            (0, _) => 1000,
            (set, _) => set,
        };
        if options.think_ms < options.budget_ms {
            return Err(format!(
                "--think ({} ms) is shorter than --movetime ({} ms): the turn must hold the search",
                options.think_ms, options.budget_ms
            ));
        }
        Ok(options)
    }
}

/// Reads `flag`'s value: one of `words`.
fn read_word(flag: &str, value: Option<&String>, words: &[&str]) -> Result<String> {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    if words.contains(&value.as_str()) {
        Ok(value.clone())
    } else {
        Err(format!(
            "{flag} needs one of {}, got `{value}`",
            words.join(", ")
        ))
    }
}

/// Builds and serves the site, and plays the match.
///
/// # Errors
/// When a build fails, the server does not start, or the match stops.
pub fn run(root: &Path, options: &Options) -> Result {
    build::build(root)?;
    let scratch = build::target_dir(root).join("uttt-xtask");
    let dist = scratch.join("ponder-dist");
    site::make_dist(root, &dist)?;
    setup::ensure_browser()?;
    let bin = server::build(root, server::Profile::Dev)?;
    let running = server::start(&bin, &dist, "/", &scratch.join("ponder-rooms.sqlite3"))?;
    cmd::run(
        Command::new("node")
            .current_dir(root)
            .arg(root.join("tests").join("bench").join("ponder-match.js"))
            .arg(&running.url)
            .arg(options.games.to_string())
            .arg(&options.level)
            .arg(options.budget_ms.to_string())
            .arg(options.think_ms.to_string())
            .arg(options.seed.to_string())
            .arg(&options.rules),
        "the ponder match (tests/bench/ponder-match.js)",
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(args: &[&str]) -> Result<Options> {
        Options::parse(&args.iter().map(|a| a.to_string()).collect::<Vec<_>>())
    }

    #[test]
    fn parses_options() {
        let defaults = parse(&[]).unwrap();
        assert_eq!(
            (defaults.games, defaults.budget_ms, defaults.think_ms),
            (20, 1000, 5000)
        );
        assert_eq!(parse(&["--level", "master"]).unwrap().budget_ms, 3000);
        let set = parse(&[
            "--games",
            "4",
            "--level",
            "master",
            "--movetime",
            "3000",
            "--think",
            "6000",
            "--seed",
            "9",
            "--rules",
            "tiebreak",
        ])
        .unwrap();
        assert_eq!(
            set,
            Options {
                games: 4,
                level: "master".into(),
                budget_ms: 3000,
                think_ms: 6000,
                seed: 9,
                rules: "tiebreak".into(),
            }
        );
    }

    #[test]
    fn refuses_bad_options() {
        for bad in [
            &["--games", "0"][..],
            &["--games"],
            &["--level", "easy"],
            &["--rules", "classic"],
            &["--movetime", "2000", "--think", "1000"],
            &["--seed", "-1"],
            &["--ponder"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?}");
        }
    }
}
