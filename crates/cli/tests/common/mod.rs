//! Drives the built `uttt` binary: one-shot runs with a given stdin, and
//! conversations that read up to each prompt before answering.
#![allow(dead_code)] // each test file uses a different part of this module

use std::io::{Read, Write};
use std::process::{Child, ChildStdin, Command, ExitStatus, Stdio};
use std::sync::mpsc::{channel, Receiver, RecvTimeoutError};
use std::thread;
use std::time::{Duration, Instant};

/// The longest any single step may take. Generous: a failing test should
/// fail on its assertions, not because a loaded machine was slow; it only
/// turns a hang into a failure.
pub const PATIENCE: Duration = Duration::from_secs(120);

/// What a finished run printed and how it ended.
pub struct Run {
    pub status: ExitStatus,
    pub stdout: String,
    pub stderr: String,
}

/// The command for the binary with `NO_COLOR` set, so output is plain even
/// if a test is run from a terminal.
pub fn uttt(args: &[&str]) -> Command {
    let mut cmd = Command::new(env!("CARGO_BIN_EXE_uttt"));
    cmd.args(args).env("NO_COLOR", "1");
    cmd
}

/// Runs `uttt ARGS` with `input` on stdin (then closed) and waits for it.
pub fn run(args: &[&str], input: &str) -> Run {
    let mut child = uttt(args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stdin = child.stdin.take().expect("piped stdin");
    let input = input.to_string();
    // Write from a thread so a program that stops reading cannot block us.
    let writer = thread::spawn(move || {
        let _ = stdin.write_all(input.as_bytes());
    });
    let stdout = reader(child.stdout.take().expect("piped stdout"));
    let stderr = reader(child.stderr.take().expect("piped stderr"));
    let status = wait(&mut child, PATIENCE);
    let _ = writer.join();
    Run {
        status,
        stdout: collect(&stdout),
        stderr: collect(&stderr),
    }
}

/// Waits for `child` to exit, killing it and failing the test after `limit`.
pub fn wait(child: &mut Child, limit: Duration) -> ExitStatus {
    let deadline = Instant::now() + limit;
    loop {
        if let Some(status) = child.try_wait().expect("wait works") {
            return status;
        }
        if Instant::now() > deadline {
            let _ = child.kill();
            panic!("uttt did not exit within {limit:?}");
        }
        thread::sleep(Duration::from_millis(5));
    }
}

/// A thread that forwards everything read from `source` in chunks.
fn reader(mut source: impl Read + Send + 'static) -> Receiver<Vec<u8>> {
    let (tx, rx) = channel();
    thread::spawn(move || {
        let mut buf = [0u8; 4096];
        loop {
            match source.read(&mut buf) {
                Ok(0) | Err(_) => break,
                Ok(n) => {
                    if tx.send(buf[..n].to_vec()).is_err() {
                        break;
                    }
                }
            }
        }
    });
    rx
}

/// What has arrived so far, without waiting.
fn collect_now(rx: &Receiver<Vec<u8>>) -> String {
    let mut all = Vec::new();
    while let Ok(chunk) = rx.try_recv() {
        all.extend(chunk);
    }
    String::from_utf8_lossy(&all).into_owned()
}

fn collect(rx: &Receiver<Vec<u8>>) -> String {
    let mut all = Vec::new();
    while let Ok(chunk) = rx.recv_timeout(PATIENCE) {
        all.extend(chunk);
    }
    String::from_utf8(all).expect("utf-8 output")
}

/// A running `uttt` we talk to line by line.
pub struct Talk {
    child: Child,
    stdin: Option<ChildStdin>,
    out: Receiver<Vec<u8>>,
    err: Receiver<Vec<u8>>,
    /// Output received but not yet returned by a read.
    pending: String,
    /// Everything received, for failure messages.
    pub transcript: String,
}

impl Talk {
    /// Starts `uttt ARGS`.
    pub fn start(args: &[&str]) -> Talk {
        let mut child = uttt(args)
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .expect("the binary starts");
        let stdin = child.stdin.take();
        let out = reader(child.stdout.take().expect("piped stdout"));
        let err = reader(child.stderr.take().expect("piped stderr"));
        Talk {
            child,
            stdin,
            out,
            err,
            pending: String::new(),
            transcript: String::new(),
        }
    }

    /// Sends one line.
    pub fn send(&mut self, line: &str) {
        self.transcript.push_str(&format!("«{line}»\n"));
        let stdin = self.stdin.as_mut().expect("stdin still open");
        writeln!(stdin, "{line}").expect("uttt reads its input");
        stdin.flush().expect("flush");
    }

    /// Sends raw bytes (e.g. a line that is not UTF-8) and a newline.
    pub fn send_bytes(&mut self, bytes: &[u8]) {
        self.transcript
            .push_str(&format!("«{}»\n", String::from_utf8_lossy(bytes)));
        let stdin = self.stdin.as_mut().expect("stdin still open");
        stdin.write_all(bytes).expect("uttt reads its input");
        stdin.write_all(b"\n").expect("uttt reads its input");
        stdin.flush().expect("flush");
    }

    /// Closes stdin: end of input.
    pub fn close(&mut self) {
        self.stdin = None;
    }

    /// Reads until the output so far satisfies `done`, returning it (and
    /// consuming it). Fails the test after [`PATIENCE`] or at end of output.
    pub fn read_until(&mut self, what: &str, done: impl Fn(&str) -> bool) -> String {
        let deadline = Instant::now() + PATIENCE;
        while !done(&self.pending) {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.out.recv_timeout(left) {
                Ok(chunk) => {
                    let text = String::from_utf8(chunk).expect("utf-8 output");
                    self.transcript.push_str(&text);
                    self.pending.push_str(&text);
                }
                Err(RecvTimeoutError::Timeout) => {
                    panic!(
                        "no {what} within {PATIENCE:?}; transcript:\n{}",
                        self.transcript
                    )
                }
                Err(RecvTimeoutError::Disconnected) => {
                    panic!(
                        "output ended before {what}; transcript:\n{}",
                        self.transcript
                    )
                }
            }
        }
        std::mem::take(&mut self.pending)
    }

    /// Reads up to the next prompt (`X> `, `O> ` or `> `, the only output
    /// not followed by a newline) and returns the text before it.
    pub fn until_prompt(&mut self) -> String {
        let text = self.read_until("prompt", |s| s.ends_with("> "));
        text[..text.rfind('\n').map_or(0, |i| i + 1)].to_string()
    }

    /// Sends a line and returns what came back before the next prompt.
    pub fn ask(&mut self, line: &str) -> String {
        self.send(line);
        self.until_prompt()
    }

    /// Reads one line of output (without its newline) within `limit`,
    /// failing the test when it does not come.
    pub fn line_within(&mut self, limit: Duration) -> String {
        let deadline = Instant::now() + limit;
        while !self.pending.contains('\n') {
            let left = deadline.saturating_duration_since(Instant::now());
            match self.out.recv_timeout(left) {
                Ok(chunk) => {
                    let text = String::from_utf8(chunk).expect("utf-8 output");
                    self.transcript.push_str(&text);
                    self.pending.push_str(&text);
                }
                Err(e) => panic!(
                    "no line within {limit:?} ({e:?}); transcript:\n{}\nstderr: {}",
                    self.transcript,
                    collect_now(&self.err)
                ),
            }
        }
        let at = self.pending.find('\n').expect("a newline");
        let line = self.pending[..at].to_string();
        self.pending.drain(..=at);
        line
    }

    /// Waits for the exit with stdin still open (the program must end by
    /// itself) and returns the status and the rest of stdout and stderr.
    pub fn finish_without_closing(mut self) -> Run {
        let status = wait(&mut self.child, PATIENCE);
        self.stdin = None;
        let mut rest = std::mem::take(&mut self.pending);
        rest.push_str(&collect(&self.out));
        Run {
            status,
            stdout: rest,
            stderr: collect(&self.err),
        }
    }

    /// Waits for the exit and returns the status and the rest of stdout and stderr.
    pub fn finish(mut self) -> Run {
        self.stdin = None;
        let status = wait(&mut self.child, PATIENCE);
        let mut rest = std::mem::take(&mut self.pending);
        rest.push_str(&collect(&self.out));
        Run {
            status,
            stdout: rest,
            stderr: collect(&self.err),
        }
    }
}

impl Drop for Talk {
    fn drop(&mut self) {
        // A test that panics must not leave a process behind.
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The record printed on a `Record: ...` line, if any.
pub fn record_in(text: &str) -> Option<String> {
    text.lines()
        .rev()
        .find_map(|l| l.strip_prefix("Record: "))
        .map(str::to_string)
}
