//! The crate against the naive implementation in `naive/`: perft counts from
//! the start and from random mid-game positions, and every step of thousands
//! of random complete games under both rule sets.

mod common;
mod naive;

use common::{Rng, RULES};
use naive::Naive;
use uttt_core::perft::perft;
use uttt_core::{BoardStatus, Game, Move, Outcome, Player, Rules, Ultimate};

fn naive_player(p: Player) -> u8 {
    match p {
        Player::X => naive::X,
        Player::O => naive::O,
    }
}

/// Asserts that the two implementations describe the same position.
fn assert_same(pos: &Ultimate, n: &Naive, context: &str) {
    let mine: Vec<(usize, usize)> = pos
        .legal_moves()
        .iter()
        .map(|m| (usize::from(m.board), usize::from(m.cell)))
        .collect();
    let mut sorted = mine.clone();
    sorted.sort_unstable();
    assert_eq!(sorted, n.moves(), "legal moves differ {context}");
    assert_eq!(
        pos.legal_move_count() as usize,
        mine.len(),
        "count {context}"
    );
    let outcome = match n.result() {
        None => None,
        Some(naive::Result::Draw) => Some(Outcome::Draw),
        Some(naive::Result::Win(p)) => Some(Outcome::Win(if p == naive::X {
            Player::X
        } else {
            Player::O
        })),
    };
    assert_eq!(pos.outcome(), outcome, "outcome {context}");
    assert_eq!(
        naive_player(pos.side_to_move()),
        n.to_move,
        "side {context}"
    );
    for b in 0..9u8 {
        let expected = match n.status(usize::from(b)) {
            naive::Status::Open => BoardStatus::Open,
            naive::Status::Drawn => BoardStatus::Drawn,
            naive::Status::Won(p) => {
                BoardStatus::Won(if p == naive::X { Player::X } else { Player::O })
            }
        };
        assert_eq!(pos.board_status(b), expected, "board {b} {context}");
    }
    let playable: u16 = n.playable().iter().map(|&b| 1 << b).sum();
    assert_eq!(pos.playable_boards(), playable, "playable {context}");
}

/// Ultimate perft from the start agrees with the naive rules to depth 6.
/// 81 and 720 are the published first two counts; the rest are what two
/// independent implementations agree on.
#[test]
fn perft_from_the_start_agrees_to_depth_6() {
    let expected = [81u64, 720, 6336, 55_080, 473_256, 4_020_960];
    for rules in RULES {
        let pos = Ultimate::new(rules);
        let n = Naive::new(rules == Rules::TieBreak);
        for (d, &want) in expected.iter().enumerate() {
            let depth = d as u32 + 1;
            assert_eq!(n.perft(depth), want, "naive perft({depth}) {rules}");
            assert_eq!(perft(&pos, depth), want, "perft({depth}) {rules}");
        }
    }
}

/// From 24 seeded random mid-game positions, perft agrees at every depth up to
/// 6, stopping early once the counts get large (wide free-move positions).
#[test]
fn perft_from_random_mid_game_positions_agrees() {
    let mut rng = Rng::new(0xD1FF);
    let mut positions = 0;
    let mut deep = 0;
    while positions < 24 {
        let rules = RULES[positions % 2];
        let plies = 10 + rng.below(40);
        let h = common::random_game(rules, &mut rng, plies);
        if h.current().is_over() {
            continue;
        }
        positions += 1;
        let mut n = Naive::new(rules == Rules::TieBreak);
        for m in h.moves() {
            n.play(usize::from(m.board), usize::from(m.cell));
        }
        assert_same(h.current(), &n, "at the mid-game start");
        for depth in 1..=6 {
            let got = perft(h.current(), depth);
            assert_eq!(got, n.perft(depth), "depth {depth} after {:?}", h.moves());
            if depth >= 5 {
                deep += 1;
            }
            if got > 1_500_000 {
                break;
            }
        }
    }
    // The budget must still let most positions reach a real depth.
    assert!(deep >= 12, "only {deep} positions reached depth 5");
}

/// Full agreement (moves, statuses, outcome, side) at every node of a
/// shallow tree, which exercises positions perft only counts.
#[test]
fn every_node_agrees_in_a_shallow_tree() {
    fn walk(pos: &Ultimate, n: &Naive, depth: u32) {
        assert_same(pos, n, "in the tree");
        if depth == 0 {
            return;
        }
        for m in pos.legal_moves().iter() {
            let mut next = *pos;
            next.play_unchecked(*m);
            let mut nn = n.clone();
            nn.play(usize::from(m.board), usize::from(m.cell));
            walk(&next, &nn, depth - 1);
        }
    }
    walk(&Ultimate::new(Rules::Standard), &Naive::new(false), 3);
}

/// Thousands of random complete games under both rule sets, compared at
/// every ply; the outcomes are tallied so the test shows it reached every
/// kind of ending, including the full-board ones the tie-break decides.
#[test]
fn random_complete_games_agree_under_both_rule_sets() {
    for rules in RULES {
        let mut rng = Rng::new(if rules == Rules::Standard { 1 } else { 2 });
        let mut line_wins = 0;
        let mut full_board_endings = 0;
        let mut full_board_wins = 0;
        for game in 0..3000 {
            let mut pos = Ultimate::new(rules);
            let mut n = Naive::new(rules == Rules::TieBreak);
            loop {
                assert_same(&pos, &n, &format!("game {game} ply {}", pos.ply()));
                let moves = n.moves();
                if moves.is_empty() {
                    break;
                }
                let (b, c) = moves[rng.below(moves.len())];
                n.play(b, c);
                pos.play_unchecked(Move::new(b as u8, c as u8));
            }
            assert!(pos.ply() <= 81);
            if pos.decided_boards() == 0x1FF && pos.winning_line().is_none() {
                full_board_endings += 1;
                if pos.outcome() != Some(Outcome::Draw) {
                    full_board_wins += 1;
                }
            } else if pos.winning_line().is_some() {
                line_wins += 1;
            }
        }
        assert!(line_wins > 100, "{rules}: {line_wins} line wins");
        assert!(
            full_board_endings > 100,
            "{rules}: {full_board_endings} full-board endings"
        );
        match rules {
            Rules::Standard => assert_eq!(full_board_wins, 0),
            Rules::TieBreak => assert!(full_board_wins > 50, "{full_board_wins}"),
        }
    }
}
