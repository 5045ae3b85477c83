//! Whole games through `uttt play`, the human's moves typed on stdin.

mod common;

use common::{record_in, Talk};
use uttt_core::record::parse_record;
use uttt_core::AnyGame;
use uttt_core::{Classic, ClassicMove, Game, Move, Outcome, Player, Rules, Ultimate};

/// The engine's move announced in `text` ("O plays e4 (...)"), if any.
fn engine_move(text: &str, side: Player) -> Option<String> {
    let marker = format!("{side} plays ");
    let at = text.find(&marker)? + marker.len();
    Some(text[at..].split_whitespace().next()?.to_string())
}

/// A move for the human in Classic: win, else block, else the plan
/// (corner, then the opposite corner), else the first free cell.
fn classic_choice(pos: &Classic) -> ClassicMove {
    let me = pos.side_to_move();
    let wins_for = |p: Player| {
        pos.legal_moves()
            .iter()
            .copied()
            .find(|&m| uttt_core::lines::has_line(pos.cells(p) | (1 << m.0)))
    };
    wins_for(me)
        .or_else(|| wins_for(me.opponent()))
        .or_else(|| {
            [0u8, 8]
                .into_iter()
                .map(ClassicMove)
                .find(|&m| pos.check(m).is_ok())
        })
        .unwrap_or(pos.legal_moves()[0])
}

#[test]
fn classic_game_won_by_the_human_against_beginner() {
    let mut talk = Talk::start(&["play", "--game", "classic", "--o", "beginner"]);
    let intro = talk.until_prompt();
    assert!(
        intro.contains("Classic tic-tac-toe: X is human, O is engine (beginner)"),
        "{intro}"
    );
    assert!(intro.contains("X to move."), "{intro}");
    let mut pos = Classic::new();
    let mut reply = String::new();
    while !pos.is_over() {
        let m = classic_choice(&pos);
        pos.try_play(m).unwrap();
        reply = talk.ask(&m.to_string());
        assert!(
            reply.contains(&format!("Last move: X {m}.")),
            "the board after {m}:\n{}",
            talk.transcript
        );
        if pos.is_over() {
            break;
        }
        let theirs = engine_move(&reply, Player::O).expect("the engine answers");
        assert!(reply.contains("O (beginner) is thinking..."), "{reply}");
        pos.try_play(Classic::parse_move(&theirs).unwrap()).unwrap();
    }
    assert_eq!(
        pos.outcome(),
        Some(Outcome::Win(Player::X)),
        "{}",
        talk.transcript
    );
    assert!(reply.contains("Result: X wins."), "{reply}");
    let record = record_in(&reply).expect("a record at the end");
    let Ok(AnyGame::Classic(h)) = parse_record(&record) else {
        panic!("unreadable record {record}");
    };
    assert_eq!(*h.current(), pos);
    // After the end a move is refused in one sentence and nothing changes.
    let after = talk.ask("a1");
    assert_eq!(
        after.trim(),
        "The game is over (X wins): type undo, new or quit."
    );
    talk.send("quit");
    let run = talk.finish();
    assert!(run.status.success());
    assert_eq!(record_in(&run.stdout).as_deref(), Some(record.as_str()));
}

/// The human's Ultimate move: win a small board when possible, else the
/// first legal move.
fn ultimate_choice(pos: &Ultimate) -> Move {
    let me = pos.side_to_move();
    pos.legal_moves()
        .iter()
        .copied()
        .find(|&m| {
            let mut next = *pos;
            next.play_unchecked(m);
            next.board_status(m.board) == uttt_core::BoardStatus::Won(me)
        })
        .unwrap_or(pos.legal_moves()[0])
}

#[test]
fn ultimate_game_to_the_end_against_beginner() {
    let mut talk = Talk::start(&["play", "--o", "beginner", "--seed", "5"]);
    let intro = talk.until_prompt();
    assert!(intro.contains("X to move in any open board."), "{intro}");
    let mut pos = Ultimate::new(Rules::Standard);
    let mut reply = String::new();
    while !pos.is_over() {
        let m = ultimate_choice(&pos);
        pos.try_play(m).unwrap();
        reply = talk.ask(&m.to_string());
        assert!(
            reply.contains(&format!("Last move: X {m}.")),
            "the board after {m}:\n{}",
            talk.transcript
        );
        if pos.is_over() {
            break;
        }
        let theirs = engine_move(&reply, Player::O).expect("the engine answers");
        pos.try_play(Ultimate::parse_move(&theirs).unwrap())
            .unwrap_or_else(|e| panic!("engine move {theirs}: {e}"));
        assert!(
            reply.contains(&format!("Last move: O {theirs}.")),
            "{reply}"
        );
    }
    let outcome = pos.outcome().unwrap();
    assert!(reply.contains(&format!("Result: {outcome}.")), "{reply}");
    let record = record_in(&reply).expect("a record at the end");
    let Ok(AnyGame::Ultimate(h)) = parse_record(&record) else {
        panic!("unreadable record {record}");
    };
    assert_eq!(*h.current(), pos);
    assert_eq!(h.len(), pos.ply());
    talk.close();
    let run = talk.finish();
    assert!(run.status.success());
    assert!(
        run.stdout.contains(&format!("Result: {outcome}.")),
        "{}",
        run.stdout
    );
}

#[test]
fn engine_against_engine_needs_no_input() {
    let mut talk = Talk::start(&["play", "--game", "classic", "--x", "hard", "--o", "master"]);
    let text = talk.until_prompt();
    // Perfect play on both sides draws, and Classic is searched to the end.
    assert!(text.contains("Result: draw."), "{text}");
    assert!(
        text.contains("(searched to the end: a draw with best play)"),
        "{text}"
    );
    let record = record_in(&text).expect("a record");
    assert!(record.starts_with("classic:") && record.len() == "classic:".len() + 18);
    talk.close();
    assert!(talk.finish().status.success());
}
