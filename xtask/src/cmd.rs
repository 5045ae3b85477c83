//! Running child processes with an echo of what runs and one clear error
//! when it fails.

use crate::Result;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};

/// The cargo that started us (cargo sets `$CARGO`), so nested builds use the
/// same toolchain even when several are installed.
pub fn cargo() -> Command {
    Command::new(std::env::var_os("CARGO").unwrap_or_else(|| "cargo".into()))
}

/// Shows a command the way a user could paste it into a shell.
pub fn describe(command: &Command) -> String {
    let mut text = command.get_program().to_string_lossy().into_owned();
    for arg in command.get_args() {
        text.push(' ');
        text.push_str(&arg.to_string_lossy());
    }
    text
}

/// Runs a command with inherited output; a non-zero exit becomes an error
/// that names `what` failed.
pub fn run(command: &mut Command, what: &str) -> Result {
    println!("$ {}", describe(command));
    let status = command
        .status()
        .map_err(|e| format!("{what}: cannot start `{}`: {e}", describe(command)))?;
    if status.success() {
        Ok(())
    } else {
        Err(format!("{what} failed ({status})"))
    }
}

/// Runs a command and returns its standard output; standard error passes
/// through so the user still sees warnings.
pub fn output(command: &mut Command, what: &str) -> Result<String> {
    let out = command
        .stderr(Stdio::inherit())
        .output()
        .map_err(|e| format!("{what}: cannot start `{}`: {e}", describe(command)))?;
    if out.status.success() {
        Ok(String::from_utf8_lossy(&out.stdout).into_owned())
    } else {
        Err(format!("{what} failed ({})", out.status))
    }
}

/// Whether a program can be started at all (found on PATH or at that path).
pub fn exists(program: &str) -> bool {
    if program.contains('/') {
        return Path::new(program).is_file();
    }
    std::env::var_os("PATH")
        .map(|paths| std::env::split_paths(&paths).any(|dir| dir.join(program).is_file()))
        .unwrap_or(false)
}

/// Passed/failed counts read from a test runner's summary lines.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Counts {
    /// Tests that passed.
    pub passed: u64,
    /// Tests that failed.
    pub failed: u64,
}

impl Counts {
    /// Adds another layer's counts to these.
    pub fn add(&mut self, other: Counts) {
        self.passed += other.passed;
        self.failed += other.failed;
    }
}

/// Runs a libtest-style runner (cargo test, wasm-bindgen-test-runner),
/// echoing its standard output line by line while summing every
/// `test result: ... N passed; M failed; ...` line.
pub fn run_counting(command: &mut Command, what: &str) -> (Result, Counts) {
    run_counting_with(command, what, parse_libtest_summary)
}

/// [`run_counting`] for a runner whose summary lines `parse` reads; the
/// counts of every line it recognises are added up.
pub fn run_counting_with(
    command: &mut Command,
    what: &str,
    parse: fn(&str) -> Option<Counts>,
) -> (Result, Counts) {
    println!("$ {}", describe(command));
    let mut child = match command.stdout(Stdio::piped()).spawn() {
        Ok(child) => child,
        Err(e) => {
            let error = format!("{what}: cannot start `{}`: {e}", describe(command));
            return (Err(error), Counts::default());
        }
    };
    let mut counts = Counts::default();
    if let Some(stdout) = child.stdout.take() {
        for line in BufReader::new(stdout)
            .lines()
            .map_while(std::result::Result::ok)
        {
            println!("{line}");
            if let Some(found) = parse(&line) {
                counts.add(found);
            }
        }
    }
    let result = match child.wait() {
        Ok(status) if status.success() => Ok(()),
        Ok(status) => Err(format!("{what} failed ({status})")),
        Err(e) => Err(format!("{what}: lost the child process: {e}")),
    };
    (result, counts)
}

/// Reads the TAP summary of node's test runner: `# pass 12` or `# fail 0`.
pub fn parse_node_test_summary(line: &str) -> Option<Counts> {
    let rest = line.trim().strip_prefix("# ")?;
    let (label, number) = rest.split_once(' ')?;
    let n = number.trim().parse::<u64>().ok()?;
    match label {
        "pass" => Some(Counts {
            passed: n,
            failed: 0,
        }),
        "fail" => Some(Counts {
            passed: 0,
            failed: n,
        }),
        _ => None,
    }
}

/// Reads `test result: ok. 3 passed; 1 failed; 0 ignored; ...`.
pub fn parse_libtest_summary(line: &str) -> Option<Counts> {
    let rest = line.trim().strip_prefix("test result:")?;
    let mut counts = Counts::default();
    for part in rest.split([';', '.']) {
        let mut words = part.split_whitespace();
        if let (Some(number), Some(label)) = (words.next(), words.next()) {
            if let Ok(n) = number.parse::<u64>() {
                match label {
                    "passed" => counts.passed = n,
                    "failed" => counts.failed = n,
                    _ => {}
                }
            }
        }
    }
    Some(counts)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_libtest_summaries() {
        let ok = "test result: ok. 12 passed; 0 failed; 1 ignored; 0 measured; 0 filtered out; finished in 0.01s";
        assert_eq!(
            parse_libtest_summary(ok),
            Some(Counts {
                passed: 12,
                failed: 0
            })
        );
        let bad = "test result: FAILED. 3 passed; 2 failed; 0 ignored; 0 measured; 0 filtered out";
        assert_eq!(
            parse_libtest_summary(bad),
            Some(Counts {
                passed: 3,
                failed: 2
            })
        );
        assert_eq!(parse_libtest_summary("running 3 tests"), None);
    }
}
