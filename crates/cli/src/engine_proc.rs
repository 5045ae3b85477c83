//! An external engine speaking the CodinGame Ultimate Tic-Tac-Toe protocol
//! over its stdin/stdout, so `uttt match` can play any bot written for it.
//!
//! Each turn the engine is sent `opponentRow opponentCol` (`-1 -1` on the
//! very first move of the game), the number of valid actions and that many
//! `row col` lines (0-8 on the 9x9 grid); it answers one line `row col`
//! (anything after the two numbers is ignored, as on CodinGame).

use std::io::{BufRead, BufReader, Write};
use std::process::{Child, ChildStdin, Command, Stdio};
use std::sync::mpsc::{self, Receiver, RecvTimeoutError};
use std::thread;
use std::time::Duration;

use uttt_core::Move;

/// A running external engine: one process per game, as on CodinGame.
pub struct ProcEngine {
    command: String,
    child: Child,
    stdin: ChildStdin,
    lines: Receiver<String>,
}

impl ProcEngine {
    /// Starts `command` through `sh -c`.
    ///
    /// # Errors
    /// When the process cannot be started.
    pub fn spawn(command: &str) -> Result<ProcEngine, String> {
        let mut child = Command::new("sh")
            .arg("-c")
            .arg(command)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::null())
            .spawn()
            .map_err(|e| format!("cannot start `{command}`: {e}"))?;
        let stdin = child.stdin.take().ok_or("no stdin pipe")?;
        let stdout = child.stdout.take().ok_or("no stdout pipe")?;
        let (tx, lines) = mpsc::channel();
        // A reader thread, so a silent engine costs a timeout, not a hang.
        thread::spawn(move || {
            for line in BufReader::new(stdout).lines() {
                let Ok(line) = line else { break };
                if tx.send(line).is_err() {
                    break;
                }
            }
        });
        Ok(ProcEngine {
            command: command.to_string(),
            child,
            stdin,
            lines,
        })
    }

    /// Sends one turn and reads the answer, which must be one of `valid`
    /// and arrive within `timeout`.
    ///
    /// # Errors
    /// A closed pipe, a timeout, an unreadable answer or a move not in `valid`.
    pub fn play(
        &mut self,
        opponent: Option<Move>,
        valid: &[Move],
        timeout: Duration,
    ) -> Result<Move, String> {
        let mut msg = match opponent {
            Some(m) => {
                let (r, c) = m.row_col();
                format!("{r} {c}\n")
            }
            None => "-1 -1\n".to_string(),
        };
        msg.push_str(&format!("{}\n", valid.len()));
        for m in valid {
            let (r, c) = m.row_col();
            msg.push_str(&format!("{r} {c}\n"));
        }
        self.stdin
            .write_all(msg.as_bytes())
            .and_then(|()| self.stdin.flush())
            .map_err(|e| format!("`{}` closed its input: {e}", self.command))?;
        let line = match self.lines.recv_timeout(timeout) {
            Ok(line) => line,
            Err(RecvTimeoutError::Timeout) => {
                return Err(format!(
                    "`{}` gave no move within {} ms",
                    self.command,
                    timeout.as_millis()
                ))
            }
            Err(RecvTimeoutError::Disconnected) => {
                return Err(format!("`{}` exited", self.command))
            }
        };
        let m = parse_answer(&line)
            .ok_or_else(|| format!("`{}` answered {line:?}, not `row col`", self.command))?;
        if valid.contains(&m) {
            Ok(m)
        } else {
            Err(format!(
                "`{}` played {line:?}, not a valid action",
                self.command
            ))
        }
    }
}

/// Reads `row col` (0-8 each) from the start of an answer line.
pub fn parse_answer(line: &str) -> Option<Move> {
    let mut it = line.split_whitespace();
    let r: u8 = it.next()?.parse().ok()?;
    let c: u8 = it.next()?.parse().ok()?;
    (r < 9 && c < 9).then(|| Move::from_row_col(r, c))
}

impl Drop for ProcEngine {
    fn drop(&mut self) {
        // The game is over for this process either way.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_parsed_and_checked() {
        assert_eq!(parse_answer("4 4"), Some(Move::new(4, 4)));
        assert_eq!(parse_answer("0 8 hello"), Some(Move::new(2, 2)));
        assert_eq!(parse_answer("9 0"), None);
        assert_eq!(parse_answer("x"), None);
        assert_eq!(parse_answer(""), None);
    }

    #[test]
    fn a_shell_bot_that_echoes_the_first_action_plays_it() {
        // Reads the opponent line and count, answers the first valid action.
        let bot = "while read a b; do read n; read first; i=1; while [ $i -lt $n ]; do read x; i=$((i+1)); done; echo \"$first\"; done";
        let mut e = ProcEngine::spawn(bot).unwrap();
        let valid = [Move::new(4, 4), Move::new(0, 0)];
        assert_eq!(
            e.play(None, &valid, Duration::from_secs(10)),
            Ok(Move::new(4, 4))
        );
        let valid = [Move::new(4, 0), Move::new(4, 1)];
        assert_eq!(
            e.play(Some(Move::new(4, 4)), &valid, Duration::from_secs(10)),
            Ok(Move::new(4, 0))
        );
    }

    #[test]
    fn a_bot_playing_outside_the_list_is_refused() {
        let mut e = ProcEngine::spawn("read a; read n; read m; echo 8 8; sleep 5").unwrap();
        let err = e
            .play(None, &[Move::new(4, 4)], Duration::from_secs(10))
            .unwrap_err();
        assert!(err.contains("not a valid action"), "{err}");
        let mut e = ProcEngine::spawn("exit 0").unwrap();
        assert!(e
            .play(None, &[Move::new(4, 4)], Duration::from_secs(10))
            .is_err());
    }
}
