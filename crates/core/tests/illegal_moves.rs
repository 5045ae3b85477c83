//! Every reason a move can be refused, and that a refused move changes nothing.

mod common;

use common::{play_pairs, setup, Rng, RULES};
use uttt_core::{Classic, ClassicMove, Game, History, IllegalMove, Move, Rules, Ultimate};

/// Tries `m` every way the API allows and checks each refuses it with
/// `reason` and leaves the position exactly as it was.
fn assert_refused(pos: Ultimate, m: Move, reason: IllegalMove) {
    assert_eq!(pos.check(m), Err(reason), "check {m:?}");
    let err = pos.play(m).unwrap_err();
    assert_eq!(err.reason, reason);
    assert_eq!(err.position, pos);
    assert_eq!(err.clone().into_inner(), pos);
    assert!(err.to_string().starts_with("illegal move: "));
    let mut copy = pos;
    assert_eq!(copy.try_play(m), Err(reason));
    assert_eq!(copy, pos);
    assert_eq!(copy.hash(), pos.hash());
    let mut history = History::new(pos);
    history.play(Move::new(0, 0)).ok();
    history.undo();
    let before = history.clone();
    assert_eq!(history.play(m), Err(reason));
    assert_eq!(history, before);
    assert!(!reason.to_string().is_empty());
}

#[test]
fn game_over() {
    let pos = setup(
        Rules::Standard,
        &[(0, &[0, 1, 2]), (1, &[0, 1, 2]), (2, &[0, 1, 2])],
        &[(3, &[0, 1]), (4, &[0, 1]), (5, &[0, 1, 2]), (6, &[4])],
        None,
    );
    assert!(pos.is_over());
    assert_refused(pos, Move::new(4, 4), IllegalMove::GameOver);
    // Game over is reported before any other reason.
    assert_refused(pos, Move::new(9, 9), IllegalMove::GameOver);
    assert_refused(pos, Move::new(0, 0), IllegalMove::GameOver);
}

#[test]
fn wrong_board_names_the_required_board() {
    let pos = play_pairs(Ultimate::new(Rules::Standard), &[(4, 2)]);
    for board in (0..9).filter(|&b| b != 2) {
        assert_refused(
            pos,
            Move::new(board, 0),
            IllegalMove::WrongBoard { required: 2 },
        );
    }
    let text = IllegalMove::WrongBoard { required: 2 }.to_string();
    assert!(text.contains("top-right"), "{text}");
}

#[test]
fn cell_taken() {
    // X takes the centre of the centre board and O is sent back there.
    let pos = play_pairs(Ultimate::new(Rules::Standard), &[(4, 4)]);
    assert_refused(pos, Move::new(4, 4), IllegalMove::CellTaken);
    // On a free move too.
    let free = play_pairs(
        Ultimate::new(Rules::Standard),
        &[(0, 0), (0, 8), (8, 0), (0, 6), (6, 0), (0, 7), (7, 0)],
    );
    assert_eq!(free.required_board(), None);
    assert_refused(free, Move::new(8, 0), IllegalMove::CellTaken);
}

#[test]
fn board_decided() {
    let free = play_pairs(
        Ultimate::new(Rules::Standard),
        &[(0, 0), (0, 8), (8, 0), (0, 6), (6, 0), (0, 7), (7, 0)],
    );
    // An empty cell and a taken cell of the won board: the board is the reason.
    assert_refused(free, Move::new(0, 1), IllegalMove::BoardDecided);
    assert_refused(free, Move::new(0, 8), IllegalMove::BoardDecided);
}

#[test]
fn out_of_range() {
    for rules in RULES {
        let start = Ultimate::new(rules);
        let sent = play_pairs(start, &[(4, 2)]);
        for m in [
            Move::new(9, 0),
            Move::new(0, 9),
            Move::new(9, 9),
            Move::new(255, 255),
            Move::new(2, 200),
        ] {
            assert!(!m.in_range());
            assert_refused(start, m, IllegalMove::OutOfRange);
            // Range is checked before the board the player was sent to.
            assert_refused(sent, m, IllegalMove::OutOfRange);
        }
    }
}

#[test]
fn refused_moves_change_nothing_in_random_positions() {
    let mut rng = Rng::new(7);
    for _ in 0..300 {
        let (rules, plies) = (RULES[rng.below(2)], rng.below(81));
        let h = common::random_game(rules, &mut rng, plies);
        let pos = *h.current();
        for b in 0..=10 {
            for c in 0..=10 {
                let m = Move::new(b, c);
                if let Err(reason) = pos.check(m) {
                    assert_refused(pos, m, reason);
                }
            }
        }
    }
}

#[test]
fn classic_reasons() {
    let mut pos = Classic::new();
    assert_eq!(pos.check(ClassicMove(9)), Err(IllegalMove::OutOfRange));
    pos.try_play(ClassicMove(4)).unwrap();
    let before = pos;
    assert_eq!(pos.try_play(ClassicMove(4)), Err(IllegalMove::CellTaken));
    assert_eq!(pos, before);
    for c in [0, 3, 1, 6, 2] {
        pos.try_play(ClassicMove(c)).unwrap();
    }
    // O holds 0 1 2: the top row.
    assert!(pos.is_over());
    let over = pos;
    assert_eq!(pos.try_play(ClassicMove(8)), Err(IllegalMove::GameOver));
    assert_eq!(pos.play(ClassicMove(8)).unwrap_err().position, over);
    assert_eq!(pos, over);
}
