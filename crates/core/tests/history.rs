//! History: the cursor, branching, truncation and replay.

mod common;

use uttt_core::{Game, History, IllegalMove, Move, Rules, Ultimate};

fn sample() -> History<Ultimate> {
    let mut rng = common::Rng::new(5);
    common::random_game(Rules::Standard, &mut rng, 12)
}

#[test]
fn a_new_history_is_empty() {
    let h = History::new(Ultimate::new(Rules::TieBreak));
    assert!(h.is_empty());
    assert_eq!(h.len(), 0);
    assert_eq!(h.cursor(), 0);
    assert!(!h.can_undo());
    assert!(!h.can_redo());
    assert_eq!(h.start(), h.current());
    assert_eq!(h.position_at(0), Some(h.start()));
    assert_eq!(h.position_at(1), None);
}

#[test]
fn truncate_drops_the_moves_after_the_cursor() {
    let mut h = sample();
    assert_eq!(h.len(), 12);
    h.jump(5);
    let at5 = *h.current();
    h.truncate();
    assert_eq!(h.len(), 5);
    assert_eq!(h.cursor(), 5);
    assert!(!h.can_redo());
    assert_eq!(h.current(), &at5);
    assert_eq!(h.position_at(6), None);
    assert!(!h.jump(6));
}

#[test]
fn from_moves_reports_the_first_illegal_move() {
    let good = sample();
    let mut moves = good.moves().to_vec();
    // The cell the sixth move takes, played again as the seventh.
    moves.insert(6, moves[5]);
    let err = History::from_moves(Ultimate::new(Rules::Standard), &moves).unwrap_err();
    assert_eq!(err.0, 6);
    assert!(matches!(
        err.1,
        IllegalMove::CellTaken | IllegalMove::WrongBoard { .. } | IllegalMove::BoardDecided
    ));
}

#[test]
fn redo_of_the_same_move_keeps_the_tail() {
    let mut h = sample();
    let moves = h.moves().to_vec();
    h.jump(3);
    h.play(moves[3]).unwrap();
    assert_eq!(h.len(), 12);
    assert_eq!(h.cursor(), 4);
    assert!(h.can_redo());
    assert_eq!(h.moves(), &moves[..]);
}

#[test]
fn a_refused_move_leaves_the_history_alone() {
    let mut h = sample();
    h.jump(7);
    let before = h.clone();
    assert!(h.play(Move::new(9, 9)).is_err());
    assert_eq!(h, before);
    let taken = h.moves()[0];
    assert!(h.play(taken).is_err());
    assert_eq!(h, before);
    assert_eq!(h.current().ply(), 7);
}
