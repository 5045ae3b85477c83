//! A small hand-written command-line reader shared by every subcommand.
//!
//! Each subcommand declares which options take a value and which are plain
//! switches; anything else is a usage error with one clear sentence. Written
//! by hand because the needs are tiny and a parser crate would dwarf them.

use std::collections::HashMap;
use std::fmt;
use std::str::FromStr;

use uttt_core::Rules;

/// The deepest search any command may ask for (`--depth`, `@depth=`): a
/// whole game of Ultimate.
pub const MAX_DEPTH: u32 = 81;

/// A mistake in how the program was invoked: printed with a pointer to
/// `--help`, exit code 2.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct UsageError(pub String);

impl fmt::Display for UsageError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

/// Builds a [`UsageError`] from format arguments.
#[macro_export]
macro_rules! usage {
    ($($arg:tt)*) => {
        $crate::args::UsageError(format!($($arg)*))
    };
}

/// What a subcommand accepts.
pub struct Spec {
    /// Options followed by a value (`--seed 7` or `--seed=7`), without dashes.
    pub values: &'static [&'static str],
    /// Options that stand alone (`--divide`), without dashes.
    pub switches: &'static [&'static str],
}

/// The arguments of one subcommand, read against its [`Spec`].
#[derive(Debug, Default)]
pub struct Parsed {
    /// Arguments that are not options, in order.
    pub positional: Vec<String>,
    values: HashMap<&'static str, String>,
    switches: Vec<&'static str>,
    /// True when `-h` or `--help` appeared anywhere.
    pub help: bool,
}

impl Spec {
    /// Reads `args` (without the program and subcommand names).
    ///
    /// # Errors
    /// An unknown option, an option without its value, or an option given twice.
    pub fn parse(&self, args: &[String]) -> Result<Parsed, UsageError> {
        let mut out = Parsed::default();
        let mut iter = args.iter();
        let mut only_positional = false;
        while let Some(arg) = iter.next() {
            if only_positional {
                out.positional.push(arg.clone());
                continue;
            }
            if arg == "--" {
                only_positional = true;
                continue;
            }
            if arg == "-h" || arg == "--help" {
                out.help = true;
                continue;
            }
            // "-1" style words are values (e.g. a negative number), not options.
            let Some(body) = arg.strip_prefix("--") else {
                if arg.starts_with('-') && arg.len() > 1 && !is_number(arg) {
                    return Err(usage!("unknown option {arg}"));
                }
                out.positional.push(arg.clone());
                continue;
            };
            let (name, inline) = match body.split_once('=') {
                Some((n, v)) => (n, Some(v.to_string())),
                None => (body, None),
            };
            if let Some(&known) = self.values.iter().find(|&&v| v == name) {
                let value = match inline {
                    Some(v) => v,
                    None => iter
                        .next()
                        .cloned()
                        .ok_or_else(|| usage!("--{name} needs a value"))?,
                };
                if out.values.insert(known, value).is_some() {
                    return Err(usage!("--{name} is given more than once"));
                }
            } else if let Some(&known) = self.switches.iter().find(|&&s| s == name) {
                if inline.is_some() {
                    return Err(usage!("--{name} takes no value"));
                }
                if out.switches.contains(&known) {
                    return Err(usage!("--{name} is given more than once"));
                }
                out.switches.push(known);
            } else {
                return Err(usage!("unknown option --{name}"));
            }
        }
        Ok(out)
    }
}

fn is_number(s: &str) -> bool {
    s.parse::<i64>().is_ok()
}

impl Parsed {
    /// The raw value of option `name`, if given.
    #[must_use]
    pub fn value(&self, name: &str) -> Option<&str> {
        self.values.get(name).map(String::as_str)
    }

    /// Whether switch `name` was given.
    #[must_use]
    pub fn switch(&self, name: &str) -> bool {
        self.switches.contains(&name)
    }

    /// The value of option `name` read as a number in `min..=max`, or `default`.
    ///
    /// # Errors
    /// The value is not a whole number in range.
    pub fn number<T>(&self, name: &str, min: T, max: T, default: T) -> Result<T, UsageError>
    where
        T: FromStr + PartialOrd + fmt::Display + Copy,
    {
        match self.value(name) {
            None => Ok(default),
            Some(text) => match text.trim().parse::<T>() {
                Ok(n) if n >= min && n <= max => Ok(n),
                _ => Err(usage!(
                    "--{name} must be a whole number from {min} to {max}, not \"{text}\""
                )),
            },
        }
    }

    /// The `--rules` option, standard unless given.
    ///
    /// # Errors
    /// The value names no rule set.
    pub fn rules(&self, default: Rules) -> Result<Rules, UsageError> {
        match self.value("rules") {
            None => Ok(default),
            Some(text) => Rules::from_name(text)
                .ok_or_else(|| usage!("--rules must be standard or tiebreak, not \"{text}\"")),
        }
    }

    /// Fails when more than `max` positional arguments were given.
    ///
    /// # Errors
    /// The first surplus argument.
    pub fn at_most_positional(&self, max: usize) -> Result<(), UsageError> {
        match self.positional.get(max) {
            Some(extra) => Err(usage!("unexpected argument \"{extra}\"")),
            None => Ok(()),
        }
    }
}

/// Which of the two games a command is about.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GameChoice {
    /// Nine small boards.
    Ultimate,
    /// One 3x3 board.
    Classic,
}

impl Parsed {
    /// The `--game` option, if given.
    ///
    /// # Errors
    /// The value names no game.
    pub fn game(&self) -> Result<Option<GameChoice>, UsageError> {
        match self.value("game") {
            None => Ok(None),
            Some("ultimate") => Ok(Some(GameChoice::Ultimate)),
            Some("classic") => Ok(Some(GameChoice::Classic)),
            Some(other) => Err(usage!(
                "--game must be ultimate or classic, not \"{other}\""
            )),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const SPEC: Spec = Spec {
        values: &["seed", "game"],
        switches: &["divide"],
    };

    fn parse(words: &[&str]) -> Result<Parsed, UsageError> {
        let owned: Vec<String> = words.iter().map(|s| (*s).to_string()).collect();
        SPEC.parse(&owned)
    }

    #[test]
    fn reads_values_switches_and_positionals() {
        let p = parse(&["3", "--seed", "7", "--divide", "--game=classic"]).unwrap();
        assert_eq!(p.positional, ["3"]);
        assert_eq!(p.value("seed"), Some("7"));
        assert_eq!(p.value("game"), Some("classic"));
        assert!(p.switch("divide"));
        assert!(!p.help);
        assert_eq!(p.number("seed", 0u64, 10, 0).unwrap(), 7);
        assert_eq!(p.game().unwrap(), Some(GameChoice::Classic));
    }

    #[test]
    fn refuses_what_it_does_not_know() {
        assert!(parse(&["--colour"]).is_err());
        assert!(parse(&["-x"]).is_err());
        assert!(parse(&["--seed"]).is_err());
        assert!(parse(&["--seed", "1", "--seed", "2"]).is_err());
        assert!(parse(&["--divide=yes"]).is_err());
        let p = parse(&["--seed", "-4"]).unwrap();
        assert!(p.number("seed", 0u64, 10, 0).is_err());
        assert!(parse(&["--game", "chess"]).unwrap().game().is_err());
        assert!(parse(&["a", "b"]).unwrap().at_most_positional(1).is_err());
    }

    #[test]
    fn help_anywhere() {
        assert!(parse(&["3", "-h"]).unwrap().help);
        assert!(parse(&["--help"]).unwrap().help);
        assert_eq!(parse(&["--", "--help"]).unwrap().positional, ["--help"]);
    }
}
