//! `uttt book` from the outside: a small book is built, written and read
//! back as the engine reads the shipped one.

mod common;

use common::run;
use uttt_core::search::book;
use uttt_core::{Game, Rules, Ultimate};

#[test]
fn a_small_book_is_built_and_answers_its_positions() {
    let dir = std::env::temp_dir().join(format!("uttt-book-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let out = dir.join("small.bin");
    let out_text = out.to_str().unwrap();
    let r = run(
        &[
            "book",
            "--all-plies",
            "1",
            "--plies",
            "2",
            "--nodes",
            "2000",
            "--out",
            out_text,
        ],
        "",
    );
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("ply 1: 15 positions"), "{}", r.stdout);
    let data = std::fs::read(&out).unwrap();
    // The same options on two threads build the same book.
    let twice = dir.join("twice.bin");
    let again = run(
        &[
            "book",
            "--all-plies",
            "1",
            "--plies",
            "2",
            "--nodes",
            "2000",
            "--threads",
            "2",
            "--out",
            twice.to_str().unwrap(),
        ],
        "",
    );
    assert!(again.status.success(), "{}", again.stderr);
    assert_eq!(std::fs::read(&twice).unwrap(), data);
    std::fs::remove_dir_all(&dir).unwrap();
    assert_eq!(data.len() % book::ENTRY_BYTES, 0);
    let start = Ultimate::new(Rules::Standard);
    let (first, _) = book::lookup_in(&data, &start).expect("the start is answered");
    // Every first move (ply 1, all of them) is answered with a legal move.
    for &m in start.legal_moves().iter() {
        let after = start.play(m).unwrap();
        let (reply, _) = book::lookup_in(&data, &after).expect("every first move is answered");
        assert!(after.check(reply).is_ok());
    }
    // After the book's first move, every reply of ply 2 is answered too.
    let after = start.play(first).unwrap();
    for &m in after.legal_moves().iter() {
        assert!(book::lookup_in(&data, &after.play(m).unwrap()).is_some());
    }
}

#[test]
fn bad_book_options_are_usage_errors() {
    for args in [
        &["book", "--plies", "9"][..],
        &["book", "--all-plies", "3", "--plies", "2"],
        &["book", "--nodes", "5"],
        &["book", "--threads", "100000"],
        &["book", "--rules", "mostboards"],
        &["book", "extra"],
    ] {
        let r = run(args, "");
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", r.stderr);
    }
}
