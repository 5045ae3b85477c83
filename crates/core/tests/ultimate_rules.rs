//! One test per rule of Ultimate, on hand-built positions.

mod common;

use common::{play_pairs, setup, RULES};
use uttt_core::{BoardStatus, Game, IllegalMove, Move, Outcome, Player, Rules, Ultimate};

const ALL: u16 = 0x1FF;

#[test]
fn x_moves_first_and_anywhere() {
    for rules in RULES {
        let pos = Ultimate::new(rules);
        assert_eq!(pos.side_to_move(), Player::X);
        assert_eq!(pos.required_board(), None);
        assert_eq!(pos.playable_boards(), ALL);
        assert_eq!(pos.legal_moves().len(), 81);
        assert_eq!(pos.legal_move_count(), 81);
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.rules(), rules);
    }
}

#[test]
fn a_move_sends_the_opponent_to_the_board_of_its_cell() {
    for board in 0..9 {
        for cell in 0..9 {
            let pos = play_pairs(Ultimate::new(Rules::Standard), &[(board, cell)]);
            assert_eq!(pos.side_to_move(), Player::O);
            assert_eq!(pos.required_board(), Some(cell));
            assert_eq!(pos.playable_boards(), 1 << cell);
            let moves = pos.legal_moves();
            assert!(moves.iter().all(|m| m.board == cell));
            // Every empty cell of the target board, and nothing else.
            let expected = if board == cell { 8 } else { 9 };
            assert_eq!(moves.len(), expected);
            assert_eq!(pos.legal_move_count(), expected as u32);
        }
    }
}

/// O wins the top-left board with its bottom row; X then sends O there.
fn o_wins_board_0_then_x_sends_o_there() -> Ultimate {
    play_pairs(
        Ultimate::new(Rules::Standard),
        &[(0, 0), (0, 8), (8, 0), (0, 6), (6, 0), (0, 7), (7, 0)],
    )
}

#[test]
fn sent_to_a_won_board_plays_anywhere_open() {
    let pos = o_wins_board_0_then_x_sends_o_there();
    assert_eq!(pos.board_status(0), BoardStatus::Won(Player::O));
    assert_eq!(pos.side_to_move(), Player::O);
    assert_eq!(pos.required_board(), None);
    assert_eq!(pos.playable_boards(), ALL & !1);
    // Eight open boards, three of which hold one X each.
    assert_eq!(pos.legal_move_count(), 8 * 9 - 3);
    assert_eq!(pos.legal_moves().len(), 69);
    assert!(pos.legal_moves().iter().all(|m| m.board != 0));
    // The won board takes no more moves, even on a free move.
    assert_eq!(pos.check(Move::new(0, 1)), Err(IllegalMove::BoardDecided));
    assert_eq!(pos.check(Move::new(5, 5)), Ok(()));
}

#[test]
fn sent_to_a_full_drawn_board_plays_anywhere_open() {
    for rules in RULES {
        // Board 4 is full but for its centre; filling it makes no line, and
        // the centre cell sends O straight back to the now-drawn board 4.
        let pos = setup(
            rules,
            &[(4, &[0, 2, 5, 7]), (0, &[0])],
            // O's last move, board 1's centre, sent X to board 4.
            &[(4, &[1, 3, 6, 8]), (1, &[4])],
            Some(4),
        );
        assert_eq!(pos.side_to_move(), Player::X);
        let pos = pos.play(Move::new(4, 4)).unwrap();
        assert_eq!(pos.board_status(4), BoardStatus::Drawn);
        assert_eq!(pos.board_line(4), None);
        assert_eq!(pos.won_boards(Player::X) | pos.won_boards(Player::O), 0);
        assert_eq!(pos.decided_boards(), 1 << 4);
        assert_eq!(pos.required_board(), None);
        assert_eq!(pos.playable_boards(), ALL & !(1 << 4));
        assert_eq!(pos.legal_move_count(), 8 * 9 - 2);
        assert_eq!(pos.legal_moves().len(), 70);
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.check(Move::new(4, 0)), Err(IllegalMove::BoardDecided));
    }
}

#[test]
fn a_small_board_won_on_its_last_empty_cell_is_won_not_drawn() {
    // O's last move, board 0's centre, sent X to board 4.
    let pos = setup(
        Rules::Standard,
        &[(4, &[0, 2, 6, 8]), (8, &[0])],
        &[(4, &[1, 3, 5, 7]), (0, &[4])],
        Some(4),
    );
    let pos = pos.play(Move::new(4, 4)).unwrap();
    assert_eq!(pos.board_status(4), BoardStatus::Won(Player::X));
    assert_eq!(pos.won_boards(Player::X), 1 << 4);
    assert_eq!(pos.board_line(4), Some([0, 4, 8]));
    // Sent to the board just won: a free move, anywhere but board 4 and
    // the two cells taken elsewhere.
    assert_eq!(pos.required_board(), None);
    assert_eq!(pos.legal_move_count(), 72 - 2);
}

#[test]
fn a_small_board_is_won_by_a_line_before_it_is_full() {
    // O's last move, cell 2 of board 0, sent X to board 2.
    let pos = setup(
        Rules::Standard,
        &[(2, &[0, 1])],
        &[(2, &[3]), (0, &[2])],
        Some(2),
    );
    let pos = pos.play(Move::new(2, 2)).unwrap();
    assert_eq!(pos.board_status(2), BoardStatus::Won(Player::X));
    assert_eq!(pos.board_line(2), Some([0, 1, 2]));
    // Cell 2 sends O to the board X just won: free move.
    assert_eq!(pos.required_board(), None);
    assert_eq!(pos.outcome(), None);
}

/// A small board as the cells X holds and the cells O holds.
type Board = (&'static [u8], &'static [u8]);

/// Boards X has won, O has won and that are drawn, as cell lists.
const X_BOARD: (&[u8], &[u8]) = (&[0, 1, 2], &[3, 4]);
const O_BOARD: (&[u8], &[u8]) = (&[3, 4], &[0, 1, 2]);
/// Full without a line: X on 0 2 3 7 8, O on 1 4 5 6 (and its mirror image by colour).
const DRAWN_X5: (&[u8], &[u8]) = (&[0, 2, 3, 7, 8], &[1, 4, 5, 6]);
const DRAWN_O5: (&[u8], &[u8]) = (&[1, 4, 5, 6], &[0, 2, 3, 7, 8]);

/// Builds a position from whole small boards: `(board, (x cells, o cells))`.
fn boards(rules: Rules, list: &[(u8, Board)], target: Option<u8>) -> Ultimate {
    let x: Vec<(u8, &[u8])> = list.iter().map(|&(b, (x, _))| (b, x)).collect();
    let o: Vec<(u8, &[u8])> = list.iter().map(|&(b, (_, o))| (b, o)).collect();
    setup(rules, &x, &o, target)
}

#[test]
fn the_meta_line_completed_by_the_last_open_board_wins_under_both_rule_sets() {
    for rules in RULES {
        // X holds boards 0 and 1, O holds four boards (more than X), 4 and 6
        // are drawn; board 2 is the last open one and X completes it.
        let pos = boards(
            rules,
            &[
                (0, X_BOARD),
                (1, X_BOARD),
                (2, (&[0, 1], &[3, 4])),
                (3, O_BOARD),
                (5, O_BOARD),
                (7, O_BOARD),
                (8, O_BOARD),
                (4, DRAWN_X5),
                (6, DRAWN_X5),
            ],
            Some(2),
        );
        assert_eq!(pos.outcome(), None);
        assert_eq!(pos.won_boards(Player::O).count_ones(), 4);
        let pos = pos.play(Move::new(2, 2)).unwrap();
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::X)), "{rules}");
        assert_eq!(pos.winning_line(), Some([0, 1, 2]));
        assert_eq!(pos.decided_boards(), ALL);
        assert!(pos.is_over());
        assert_eq!(pos.legal_move_count(), 0);
        assert!(pos.legal_moves().is_empty());
        assert_eq!(pos.playable_boards(), 0);
        assert_eq!(pos.required_board(), None);
    }
}

#[test]
fn a_meta_line_wins_at_once_with_boards_still_open() {
    let pos = boards(
        Rules::Standard,
        &[
            (0, X_BOARD),
            (4, X_BOARD),
            // O's last move, the 6 here moved to cell 8, sent X to board 8.
            (8, (&[0, 1], &[3, 4, 8])),
            (5, O_BOARD),
        ],
        Some(8),
    );
    assert_eq!(pos.side_to_move(), Player::X);
    let pos = pos.play(Move::new(8, 2)).unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::X)));
    assert_eq!(pos.winning_line(), Some([0, 4, 8]));
    assert_ne!(pos.decided_boards(), ALL);
    assert_eq!(pos.legal_move_count(), 0);
    assert_eq!(pos.check(Move::new(1, 0)), Err(IllegalMove::GameOver));
}

/// Every board but 4 is decided without a line: X holds 0 5 7, O holds
/// 1 3 8, 2 and 6 are drawn. `centre` is what board 4 holds before the move.
fn all_but_the_centre(rules: Rules, centre: Board) -> Ultimate {
    boards(
        rules,
        &[
            (0, X_BOARD),
            (5, X_BOARD),
            (7, X_BOARD),
            (1, O_BOARD),
            (3, O_BOARD),
            (8, O_BOARD),
            (2, DRAWN_X5),
            (6, DRAWN_O5),
            (4, centre),
        ],
        Some(4),
    )
}

#[test]
fn all_boards_decided_without_a_line_more_boards_for_x() {
    // X wins the centre board: 4 boards to 3, no line anywhere.
    for (rules, expected) in [
        (Rules::Standard, Outcome::Draw),
        (Rules::TieBreak, Outcome::Win(Player::X)),
    ] {
        let pos = all_but_the_centre(rules, (&[0, 1], &[3, 5]));
        assert_eq!(pos.side_to_move(), Player::X);
        let pos = pos.play(Move::new(4, 2)).unwrap();
        assert_eq!(pos.board_status(4), BoardStatus::Won(Player::X));
        assert_eq!(pos.decided_boards(), ALL);
        assert_eq!(pos.outcome(), Some(expected), "{rules}");
        assert_eq!(pos.winning_line(), None);
        assert_eq!(pos.legal_move_count(), 0);
    }
}

#[test]
fn all_boards_decided_without_a_line_more_boards_for_o() {
    for (rules, expected) in [
        (Rules::Standard, Outcome::Draw),
        (Rules::TieBreak, Outcome::Win(Player::O)),
    ] {
        let pos = all_but_the_centre(rules, (&[3, 5, 6], &[0, 1]));
        assert_eq!(pos.side_to_move(), Player::O);
        let pos = pos.play(Move::new(4, 2)).unwrap();
        assert_eq!(pos.board_status(4), BoardStatus::Won(Player::O));
        assert_eq!(pos.outcome(), Some(expected), "{rules}");
        assert_eq!(pos.winning_line(), None);
    }
}

#[test]
fn all_boards_decided_without_a_line_equal_counts_draw_under_both() {
    for rules in RULES {
        // X fills the centre board's last cell without a line: drawn, 3 to 3.
        let pos = all_but_the_centre(rules, (&[0, 2, 5, 7], &[1, 3, 6, 8]));
        let pos = pos.play(Move::new(4, 4)).unwrap();
        assert_eq!(pos.board_status(4), BoardStatus::Drawn);
        assert_eq!(pos.decided_boards(), ALL);
        assert_eq!(pos.outcome(), Some(Outcome::Draw), "{rules}");
        assert_eq!(pos.winning_line(), None);
    }
}

#[test]
fn no_move_is_accepted_after_the_game_ends() {
    let pos = all_but_the_centre(Rules::TieBreak, (&[0, 1], &[3, 5]));
    let over = pos.play(Move::new(4, 2)).unwrap();
    assert!(over.is_over());
    let before = over;
    for board in 0..9 {
        for cell in 0..9 {
            let m = Move::new(board, cell);
            assert_eq!(over.check(m), Err(IllegalMove::GameOver));
            let err = over.play(m).unwrap_err();
            assert_eq!(err.reason, IllegalMove::GameOver);
            assert_eq!(err.position, before);
        }
    }
    // Also the empty cell left in the centre board (which was the target).
    assert_eq!(over.check(Move::new(4, 4)), Err(IllegalMove::GameOver));
    assert_eq!(over, before);
}

#[test]
fn rules_do_not_change_play_before_the_end() {
    // The same moves give the same position (apart from the rule set) under both.
    let moves = [(4, 4), (4, 0), (0, 4), (4, 8), (8, 4)];
    let a = play_pairs(Ultimate::new(Rules::Standard), &moves);
    let b = play_pairs(Ultimate::new(Rules::TieBreak), &moves);
    assert_eq!(a.legal_moves()[..], b.legal_moves()[..]);
    assert_ne!(a.rules(), b.rules());
}
