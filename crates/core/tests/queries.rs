//! The queries the view relies on: what it draws comes from these alone.

mod common;

use common::{play_pairs, setup, Rng, RULES};
use uttt_core::{BoardStatus, Classic, ClassicMove, Game, Move, Outcome, Player, Rules, Ultimate};

#[test]
fn required_and_playable_boards_follow_the_last_cell() {
    let start = Ultimate::new(Rules::Standard);
    assert_eq!(start.required_board(), None);
    assert_eq!(start.playable_boards(), 0x1FF);
    let pos = play_pairs(start, &[(4, 7)]);
    assert_eq!(pos.required_board(), Some(7));
    assert_eq!(pos.playable_boards(), 1 << 7);
    let pos = play_pairs(pos, &[(7, 3)]);
    assert_eq!(pos.required_board(), Some(3));
    assert_eq!(pos.playable_boards(), 1 << 3);
}

#[test]
fn cells_and_board_masks() {
    let pos = play_pairs(Ultimate::new(Rules::Standard), &[(4, 7), (7, 3), (3, 4)]);
    assert_eq!(pos.cell(4, 7), Some(Player::X));
    assert_eq!(pos.cell(7, 3), Some(Player::O));
    assert_eq!(pos.cell(3, 4), Some(Player::X));
    assert_eq!(pos.cell(0, 0), None);
    assert_eq!(pos.cell(9, 0), None);
    assert_eq!(pos.cell(0, 9), None);
    assert_eq!(pos.board_cells(Player::X, 4), 1 << 7);
    assert_eq!(pos.board_cells(Player::X, 3), 1 << 4);
    assert_eq!(pos.board_cells(Player::O, 7), 1 << 3);
    assert_eq!(pos.board_cells(Player::O, 4), 0);
    assert_eq!(pos.side_to_move(), Player::O);
    assert_eq!(pos.ply(), 3);
}

#[test]
fn board_status_and_board_line() {
    let pos = setup(
        Rules::Standard,
        &[(0, &[2, 4, 6]), (4, &[0, 2, 3, 7, 8]), (8, &[0])],
        &[(1, &[1, 4, 7]), (4, &[1, 4, 5, 6]), (2, &[0, 8])],
        None,
    );
    assert_eq!(pos.board_status(0), BoardStatus::Won(Player::X));
    assert_eq!(pos.board_line(0), Some([2, 4, 6]));
    assert_eq!(pos.board_status(1), BoardStatus::Won(Player::O));
    assert_eq!(pos.board_line(1), Some([1, 4, 7]));
    assert_eq!(pos.board_status(4), BoardStatus::Drawn);
    assert_eq!(pos.board_line(4), None);
    assert!(BoardStatus::Drawn.is_decided());
    for b in [2, 3, 5, 6, 7, 8] {
        assert_eq!(pos.board_status(b), BoardStatus::Open);
        assert!(!pos.board_status(b).is_decided());
        assert_eq!(pos.board_line(b), None);
    }
    assert_eq!(pos.board_status(9), BoardStatus::Open);
    assert_eq!(pos.board_line(9), None);
    assert_eq!(pos.won_boards(Player::X), 1);
    assert_eq!(pos.won_boards(Player::O), 1 << 1);
    assert_eq!(pos.decided_boards(), 0b1_0011);
    assert_eq!(pos.drawn_boards(), 1 << 4);
    assert_eq!(pos.playable_boards(), 0x1FF & !0b1_0011);
}

#[test]
fn winning_line_only_for_a_line_win() {
    let won = setup(
        Rules::Standard,
        &[(2, &[0, 1, 2]), (4, &[0, 1, 2]), (6, &[0, 1, 2])],
        &[(0, &[0, 1]), (1, &[0, 1]), (3, &[0, 1, 2]), (5, &[4])],
        None,
    );
    assert_eq!(won.outcome(), Some(Outcome::Win(Player::X)));
    assert_eq!(won.winning_line(), Some([2, 4, 6]));
    assert_eq!(Ultimate::new(Rules::TieBreak).winning_line(), None);
    let ongoing = play_pairs(Ultimate::new(Rules::Standard), &[(4, 4)]);
    assert_eq!(ongoing.winning_line(), None);
    assert_eq!(ongoing.outcome(), None);
}

#[test]
fn last_move_is_the_move_just_played() {
    let start = Ultimate::new(Rules::Standard);
    assert_eq!(start.last_move(), None);
    let mut rng = Rng::new(11);
    for rules in RULES {
        for _ in 0..50 {
            let mut pos = Ultimate::new(rules);
            while !pos.is_over() {
                let moves = pos.legal_moves();
                let m = moves[rng.below(moves.len())];
                pos = pos.play(m).unwrap();
                assert_eq!(pos.last_move(), Some(m));
                let mover = pos.side_to_move().opponent();
                assert_eq!(pos.cell(m.board, m.cell), Some(mover));
            }
        }
    }
}

#[test]
fn legal_moves_are_exactly_the_empty_cells_of_playable_boards() {
    let mut rng = Rng::new(12);
    for _ in 0..200 {
        let h = common::random_game(Rules::Standard, &mut rng, 81);
        for pos in (0..=h.len()).map(|i| h.position_at(i).unwrap()) {
            let boards = pos.playable_boards();
            let mut expected = Vec::new();
            for b in 0..9u8 {
                for c in 0..9u8 {
                    if boards & (1 << b) != 0 && pos.cell(b, c).is_none() {
                        expected.push(Move::new(b, c));
                    }
                }
            }
            assert_eq!(pos.legal_moves()[..], expected[..]);
            assert_eq!(pos.legal_move_count() as usize, expected.len());
            if let Some(b) = pos.required_board() {
                assert_eq!(boards, 1 << b);
                assert_eq!(pos.board_status(b), BoardStatus::Open);
            } else if !pos.is_over() {
                assert_eq!(boards, !pos.decided_boards() & 0x1FF);
            }
        }
    }
}

#[test]
fn classic_queries() {
    let mut pos = Classic::new();
    assert_eq!(pos.status(), BoardStatus::Open);
    assert_eq!(pos.last_move(), None);
    for c in [4, 0, 2, 6, 3, 5, 1, 7] {
        pos = pos.play(ClassicMove(c)).unwrap();
        assert_eq!(pos.last_move(), Some(ClassicMove(c)));
    }
    assert_eq!(pos.cell(4), Some(Player::X));
    assert_eq!(pos.cell(0), Some(Player::O));
    assert_eq!(pos.cell(8), None);
    assert_eq!(pos.cell(9), None);
    assert_eq!(pos.cells(Player::X), 0b1_1110);
    assert_eq!(pos.cells(Player::O), 0b1110_0001);
    assert_eq!(pos.outcome(), None);
    // The last cell makes no line for X: the board is full and drawn.
    pos = pos.play(ClassicMove(8)).unwrap();
    assert_eq!(pos.status(), BoardStatus::Drawn);
    assert_eq!(pos.outcome(), Some(Outcome::Draw));
    assert_eq!(pos.winning_line(), None);
}
