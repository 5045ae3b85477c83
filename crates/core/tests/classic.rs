//! Classic tic-tac-toe against its well-known counts.

use std::collections::HashSet;

use uttt_core::perft::perft;
use uttt_core::{BoardStatus, Classic, ClassicMove, Game, Outcome, Player, Rules};

#[test]
fn perft_matches_the_known_counts() {
    let expected = [
        9u64, 72, 504, 3024, 15_120, 54_720, 148_176, 200_448, 127_872,
    ];
    let start = Classic::start(Rules::TieBreak);
    assert_eq!(start.rules(), Rules::Standard);
    for (d, &n) in expected.iter().enumerate() {
        assert_eq!(perft(&start, d as u32 + 1), n, "perft({})", d + 1);
    }
    // Nothing is left after nine plies.
    assert_eq!(perft(&start, 10), 0);
}

#[derive(Default)]
struct Tally {
    x: u64,
    o: u64,
    draws: u64,
}

fn count_games(pos: &Classic, tally: &mut Tally) {
    match pos.outcome() {
        Some(Outcome::Win(Player::X)) => tally.x += 1,
        Some(Outcome::Win(Player::O)) => tally.o += 1,
        Some(Outcome::Draw) => tally.draws += 1,
        None => {
            let moves = pos.legal_moves();
            assert!(!moves.is_empty(), "an unfinished game has a move");
            for &m in moves.iter() {
                count_games(&pos.play(m).unwrap(), tally);
            }
        }
    }
}

#[test]
fn complete_games_255168() {
    let mut tally = Tally::default();
    count_games(&Classic::new(), &mut tally);
    assert_eq!(tally.x, 131_184);
    assert_eq!(tally.o, 77_904);
    assert_eq!(tally.draws, 46_080);
    assert_eq!(tally.x + tally.o + tally.draws, 255_168);
}

#[test]
fn reachable_positions_5478() {
    fn visit(pos: &Classic, seen: &mut HashSet<(u16, u16)>, hashes: &mut HashSet<u64>) {
        if !seen.insert((pos.cells(Player::X), pos.cells(Player::O))) {
            return;
        }
        hashes.insert(pos.hash());
        assert_eq!(pos.hash(), pos.recompute_hash());
        for &m in pos.legal_moves().iter() {
            visit(&pos.play(m).unwrap(), seen, hashes);
        }
    }
    let mut seen = HashSet::new();
    let mut hashes = HashSet::new();
    visit(&Classic::new(), &mut seen, &mut hashes);
    assert_eq!(seen.len(), 5478);
    // The hash tells every reachable position apart.
    assert_eq!(hashes.len(), 5478);
}

#[test]
fn a_win_on_the_last_cell_is_a_win_not_a_draw() {
    // X: 0 2 6 8 then 4 (both diagonals); O: 1 3 5 7.
    let mut pos = Classic::new();
    for c in [0, 1, 2, 3, 6, 5, 8, 7] {
        pos = pos.play(ClassicMove(c)).unwrap();
        assert_eq!(pos.outcome(), None);
    }
    let pos = pos.play(ClassicMove(4)).unwrap();
    assert_eq!(pos.outcome(), Some(Outcome::Win(Player::X)));
    assert_eq!(pos.status(), BoardStatus::Won(Player::X));
    assert_eq!(pos.winning_line(), Some([0, 4, 8]));
    assert_eq!(pos.legal_move_count(), 0);
}

#[test]
fn all_eight_lines_win() {
    let lines = [
        [0, 1, 2],
        [3, 4, 5],
        [6, 7, 8],
        [0, 3, 6],
        [1, 4, 7],
        [2, 5, 8],
        [0, 4, 8],
        [2, 4, 6],
    ];
    for line in lines {
        // X plays the line; O plays the first free cells not on it.
        let mut others = (0..9).filter(|c| !line.contains(c));
        let mut pos = Classic::new();
        for (i, &c) in line.iter().enumerate() {
            pos = pos.play(ClassicMove(c)).unwrap();
            if i < 2 {
                pos = pos.play(ClassicMove(others.next().unwrap())).unwrap();
            }
        }
        // O's two cells off the line never make a line of three.
        assert_eq!(pos.outcome(), Some(Outcome::Win(Player::X)), "{line:?}");
        assert_eq!(pos.winning_line(), Some(line));
    }
}
