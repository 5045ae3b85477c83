//! Output into a pipe whose reader has gone (`uttt perft 7 | head -1`):
//! every printing command ends quietly instead of panicking.

mod common;

use std::io::Read;
use std::process::Stdio;

/// Runs `uttt ARGS` with stdout a pipe already closed at its reading end,
/// so the first write fails with a broken pipe; returns (exit code, stderr).
fn into_closed_pipe(args: &[&str]) -> (Option<i32>, String) {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let mut child = common::uttt(args)
        .stdin(Stdio::null())
        .stdout(writer)
        .stderr(Stdio::piped())
        .spawn()
        .expect("the binary starts");
    let mut stderr = String::new();
    child
        .stderr
        .take()
        .expect("piped stderr")
        .read_to_string(&mut stderr)
        .expect("stderr is text");
    let status = common::wait(&mut child, common::PATIENCE);
    (status.code(), stderr)
}

#[test]
fn printing_commands_end_quietly_when_the_reader_is_gone() {
    for args in [
        &["perft", "3", "--divide"][..],
        &["bench", "--depth", "3", "--positions", "2"],
        &["analyse", "ultimate-standard:e5e4", "--depth", "3"],
        &["match", "beginner", "easy", "--games", "2"],
        &["tune", "--iterations", "1", "--nodes", "100"],
        &["play", "--x", "beginner", "--o", "beginner"],
        &["--help"],
        &["help", "match"],
    ] {
        let (code, stderr) = into_closed_pipe(args);
        assert_eq!(code, Some(0), "uttt {args:?}: stderr {stderr:?}");
        assert!(stderr.is_empty(), "uttt {args:?} wrote {stderr:?}");
    }
}
