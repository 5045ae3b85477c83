//! Bad lines, undo/redo, records and end of input in `uttt play`.

mod common;

use common::{record_in, run, Talk};

/// Starts a two-person Ultimate game and reads the opening board.
fn two_people() -> Talk {
    let mut talk = Talk::start(&["play", "--o", "human"]);
    talk.until_prompt();
    talk
}

/// Sends `line` and checks that exactly one sentence comes back, with the
/// board left alone (no new drawing).
fn refused(talk: &mut Talk, line: &str) -> String {
    let reply = talk.ask(line);
    assert_eq!(reply.lines().count(), 1, "reply to {line:?}: {reply:?}");
    assert!(
        !reply.contains("+---"),
        "the board was redrawn for {line:?}"
    );
    let sentence = reply.trim().to_string();
    assert!(sentence.ends_with('.'), "{sentence}");
    sentence
}

#[test]
fn every_kind_of_bad_line_is_refused_in_one_sentence() {
    let mut talk = two_people();
    assert_eq!(
        refused(&mut talk, "hello"),
        "\"hello\" is not a command or a move; type help for the list."
    );
    assert_eq!(
        refused(&mut talk, "#!?"),
        "\"#!?\" is not a move: expected a digit at character 1 (type help for the commands)."
    );
    assert!(refused(&mut talk, "j1").contains("the column must be a to i"));
    assert!(refused(&mut talk, "a0").contains("the row must be 1 to 9"));
    assert!(refused(&mut talk, "a10").contains("the row must be 1 to 9"));
    assert!(refused(&mut talk, "9 9").contains("must be 0 to 8"));
    assert!(refused(&mut talk, "4/9").contains("the cell must be 0 to 8"));
    assert!(refused(&mut talk, "-1 -1").contains("must be 0 to 8"));
    assert!(refused(&mut talk, "e5 e4").contains("unexpected text after the end"));
    talk.send_bytes(b"\xff\xfe e5");
    let reply = talk.until_prompt();
    assert_eq!(reply.lines().count(), 1, "{reply}");
    assert!(reply.contains("is not a move"), "{reply}");
    assert_eq!(
        refused(&mut talk, ""),
        "Type a move such as e5, or help for the commands."
    );
    assert_eq!(
        refused(&mut talk, "undo"),
        "There is no move of yours to take back."
    );
    assert_eq!(
        refused(&mut talk, "redo"),
        "There is no taken-back move to replay."
    );
    // The three notations of one move, and the rules' refusals.
    let after = talk.ask("4/4");
    assert!(after.contains("Last move: X e5. O to move in the centre board (d4-f6)."));
    assert_eq!(
        refused(&mut talk, "a1"),
        "a1 is not allowed: the move must be in the centre board (d4-f6)."
    );
    assert_eq!(
        refused(&mut talk, "4 4"),
        "e5 is not allowed: that cell is already taken."
    );
    let after = talk.ask("3 3");
    assert!(after.contains("Last move: O d4. X to move in the top-left board (a1-c3)."));
    talk.close();
    let end = talk.finish();
    assert!(end.status.success());
    assert!(end
        .stdout
        .contains("Result so far: unfinished after 2 moves, X to move."));
    assert_eq!(
        record_in(&end.stdout).as_deref(),
        Some("ultimate-standard:e5d4")
    );
}

#[test]
fn a_move_into_a_decided_board_is_refused() {
    // X wins the top-left board with a1, so O, sent there, may play anywhere.
    let record = "ultimate-standard:b1d1c1g1a1";
    let mut talk = Talk::start(&["play", "--o", "human", "--record", record]);
    let intro = talk.until_prompt();
    assert!(
        intro.contains("Last move: X a1. O to move in any open board."),
        "{intro}"
    );
    // The won board is a big X with the last move in brackets.
    assert!(intro.contains("\n  1 |[X]  X |"), "{intro}");
    assert!(intro.contains("\n  2 |   X   |"), "{intro}");
    assert!(intro.contains("\n  3 | X   X |"), "{intro}");
    assert_eq!(
        refused(&mut talk, "b2"),
        "b2 is not allowed: that board is already decided."
    );
    // d4 sends X to the decided board: a free move again.
    let reply = talk.ask("d4");
    assert!(reply.contains("X to move in any open board."), "{reply}");
    assert_eq!(
        refused(&mut talk, "b3"),
        "b3 is not allowed: that board is already decided."
    );
}

#[test]
fn undo_and_redo_between_two_people() {
    let mut talk = two_people();
    talk.ask("e5");
    talk.ask("d4");
    let back = talk.ask("undo");
    assert!(back.starts_with("Took back 1 move."), "{back}");
    assert!(back.contains("Last move: X e5. O to move"), "{back}");
    let forth = talk.ask("redo");
    assert!(forth.starts_with("Replayed 1 move."), "{forth}");
    assert!(forth.contains("Last move: O d4."), "{forth}");
    talk.ask("undo");
    talk.ask("undo");
    let start = talk.ask("undo");
    assert_eq!(start.trim(), "There is no move of yours to take back.");
    // A different move after undo drops the taken-back ones.
    talk.ask("a1");
    let none = talk.ask("redo");
    assert_eq!(none.trim(), "There is no taken-back move to replay.");
    talk.send("quit");
    let end = talk.finish();
    assert_eq!(
        record_in(&end.stdout).as_deref(),
        Some("ultimate-standard:a1")
    );
}

#[test]
fn undo_against_the_engine_takes_back_its_reply_too() {
    let mut talk = Talk::start(&["play", "--game", "classic", "--o", "beginner"]);
    talk.until_prompt();
    let reply = talk.ask("a1");
    assert!(
        reply.contains("O plays b2"),
        "beginner takes the centre: {reply}"
    );
    let back = talk.ask("undo");
    assert!(back.starts_with("Took back 2 moves."), "{back}");
    assert!(!back.contains("Last move"), "{back}");
    // Redo replays both, and the engine does not move again by itself.
    let forth = talk.ask("redo");
    assert!(forth.starts_with("Replayed 2 moves."), "{forth}");
    assert!(!forth.contains("thinking"), "{forth}");
    talk.send("quit");
    let end = talk.finish();
    assert_eq!(record_in(&end.stdout).as_deref(), Some("classic:a1b2"));
}

#[test]
fn new_starts_again_and_help_lists_the_commands() {
    let mut talk = two_people();
    talk.ask("e5");
    let help = talk.ask("help");
    for word in ["undo", "redo", "hint", "new", "quit", "e5", "4/0", "3 3"] {
        assert!(help.contains(word), "help lacks {word}: {help}");
    }
    let fresh = talk.ask("new");
    assert!(fresh.starts_with("New game."), "{fresh}");
    assert!(fresh.contains("X to move in any open board."), "{fresh}");
    let hint = talk.ask("hint");
    assert!(hint.starts_with("Thinking... hint: "), "{hint}");
    assert!(hint.contains("depth"), "{hint}");
    talk.close();
    let end = talk.finish();
    assert_eq!(
        record_in(&end.stdout).as_deref(),
        Some("ultimate-standard:")
    );
}

#[test]
fn end_of_input_right_away_is_clean() {
    let r = run(&["play"], "");
    assert!(r.status.success(), "{}", r.stderr);
    assert!(r.stdout.contains("End of input."));
    assert!(r
        .stdout
        .contains("Result so far: unfinished after 0 moves, X to move."));
    assert!(r.stderr.is_empty(), "{}", r.stderr);
}

#[test]
fn a_record_continues_where_it_stopped() {
    let r = run(
        &[
            "play",
            "--o",
            "human",
            "--record",
            "ultimate-tiebreak:e5e4d2",
        ],
        "b5\n",
    );
    assert!(r.status.success());
    assert!(r.stdout.contains("tiebreak rules"), "{}", r.stdout);
    assert_eq!(
        record_in(&r.stdout).as_deref(),
        Some("ultimate-tiebreak:e5e4d2b5")
    );
    // A record with variations, as the page shares it: its main line.
    let finished = run(&["play", "--record", "classic:a1b1(c1)a2b2(c3)a3"], "c3\n");
    assert!(
        finished.stdout.contains("Result: X wins."),
        "{}",
        finished.stdout
    );
    assert!(finished
        .stdout
        .contains("The game is over (X wins): type undo, new or quit."));
}

#[test]
fn usage_errors_exit_2_with_one_clear_line() {
    for args in [
        &["play", "--o", "grandmaster"][..],
        &["play", "--game", "chess"],
        &["play", "--rules", "fast"],
        &["play", "--seed", "x"],
        &["play", "--record", "ultimate-standard:e5a1"],
        &["play", "--record", "classic:b2", "--game", "ultimate"],
        &["play", "--game", "classic", "--rules", "tiebreak"],
        &["play", "extra"],
        &["play", "--colour"],
        &["perft"],
        &["perft", "many"],
        &["perft", "2", "--position", "classic x"],
        &["analyse"],
        &["analyse", "nonsense"],
        &["bot", "--movetime", "0"],
        &["bot", "--level", "godlike"],
        &["fly"],
        &["help", "fly"],
    ] {
        let r = run(args, "");
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", r.stdout);
        assert!(r.stdout.is_empty(), "{args:?} printed {}", r.stdout);
        let lines: Vec<&str> = r.stderr.lines().collect();
        assert_eq!(lines.len(), 2, "{args:?}: {}", r.stderr);
        assert!(lines[1].contains("--help"), "{args:?}: {}", r.stderr);
    }
    assert_eq!(run(&[], "").status.code(), Some(2));
}

#[test]
fn every_command_has_help_with_examples() {
    for command in ["play", "bot", "perft", "analyse"] {
        let r = run(&[command, "--help"], "");
        assert!(r.status.success(), "{command}");
        assert!(
            r.stdout.contains(&format!("Usage: uttt {command}")),
            "{command}"
        );
        assert!(r.stdout.contains("Examples:"), "{command}");
        let same = run(&["help", command], "");
        assert_eq!(same.stdout, r.stdout);
    }
    let top = run(&["--help"], "");
    assert!(top.status.success());
    assert!(top.stdout.contains("Commands:"));
}
