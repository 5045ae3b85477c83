//! Properties of random games (proptest): move generation against `check`,
//! undo and redo, the incremental hash, and game length.

mod common;

use common::RULES;
use proptest::prelude::*;
use uttt_core::{Game, History, IllegalMove, Move, Rules, Ultimate};

fn rules() -> impl Strategy<Value = Rules> {
    prop::sample::select(RULES.to_vec())
}

/// Up to 100 choices: long enough to finish every game.
fn choices() -> impl Strategy<Value = Vec<u8>> {
    prop::collection::vec(any::<u8>(), 0..100)
}

/// Every position along the game, including the start.
fn positions(h: &History<Ultimate>) -> impl Iterator<Item = &Ultimate> {
    (0..=h.len()).map(|i| h.position_at(i).unwrap())
}

/// Board and cell numbers to try: all in range plus edges and garbage.
const TRIES: [u8; 13] = [0, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 127, 255];

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn legal_moves_are_exactly_what_check_accepts(rules in rules(), c in choices()) {
        let h = common::game_from_choices(rules, &c);
        for pos in positions(&h) {
            let legal = pos.legal_moves();
            prop_assert_eq!(legal.len(), pos.legal_move_count() as usize);
            let mut accepted = Vec::new();
            for &b in &TRIES {
                for &cell in &TRIES {
                    let m = Move::new(b, cell);
                    match pos.check(m) {
                        Ok(()) => accepted.push(m),
                        Err(IllegalMove::OutOfRange) => prop_assert!(!m.in_range()),
                        Err(IllegalMove::GameOver) => prop_assert!(pos.is_over()),
                        Err(_) => prop_assert!(m.in_range() && !pos.is_over()),
                    }
                }
            }
            accepted.sort_unstable();
            let mut generated = legal.to_vec();
            generated.sort_unstable();
            // No duplicates in the generator.
            generated.dedup();
            prop_assert_eq!(generated.len(), legal.len());
            prop_assert_eq!(accepted, generated);
            // Checked play of a legal move equals the unchecked one.
            for &m in legal.iter() {
                let mut fast = *pos;
                fast.play_unchecked(m);
                prop_assert_eq!(pos.play(m).unwrap(), fast);
            }
        }
    }

    #[test]
    fn bulk_counts_equal_playing_every_move(rules in rules(), c in choices()) {
        let h = common::game_from_choices(rules, &c);
        for pos in positions(&h) {
            let played: u64 = pos
                .legal_moves()
                .iter()
                .map(|&m| u64::from(pos.play(m).unwrap().legal_move_count()))
                .sum();
            prop_assert_eq!(pos.count_replies(), played);
            let deeper: u64 = pos
                .legal_moves()
                .iter()
                .map(|&m| {
                    let next = pos.play(m).unwrap();
                    next.legal_moves()
                        .iter()
                        .map(|&r| u64::from(next.play(r).unwrap().legal_move_count()))
                        .sum::<u64>()
                })
                .sum();
            prop_assert_eq!(pos.count_three_plies(), deeper);
        }
    }

    #[test]
    fn incremental_hash_equals_recomputed(rules in rules(), c in choices()) {
        let h = common::game_from_choices(rules, &c);
        for pos in positions(&h) {
            prop_assert_eq!(pos.hash(), pos.recompute_hash());
        }
    }

    #[test]
    fn undo_restores_every_field_and_the_hash(rules in rules(), c in choices()) {
        // Positions computed independently of History, by copy and play.
        let mut snapshots = vec![Ultimate::new(rules)];
        let mut moves = Vec::new();
        let mut h = History::new(Ultimate::new(rules));
        for &byte in &c {
            let pos = *snapshots.last().unwrap();
            let legal = pos.legal_moves();
            if legal.is_empty() {
                break;
            }
            let m = legal[usize::from(byte) % legal.len()];
            h.play(m).unwrap();
            snapshots.push(pos.play(m).unwrap());
            moves.push(m);
            prop_assert_eq!(h.current(), snapshots.last().unwrap());
        }
        // Undo all the way back, bit for bit (Eq covers every field).
        for i in (0..moves.len()).rev() {
            prop_assert!(h.can_undo());
            prop_assert_eq!(h.undo(), Some(moves[i]));
            prop_assert_eq!(h.current(), &snapshots[i]);
            prop_assert_eq!(h.current().hash(), snapshots[i].hash());
            prop_assert_eq!(h.cursor(), i);
        }
        prop_assert!(!h.can_undo());
        prop_assert_eq!(h.undo(), None);
        // Redo all the way forward.
        for i in 0..moves.len() {
            prop_assert_eq!(h.redo(), Some(moves[i]));
            prop_assert_eq!(h.current(), &snapshots[i + 1]);
        }
        prop_assert_eq!(h.redo(), None);
        // Jump anywhere, and replay from the move list.
        for (i, snap) in snapshots.iter().enumerate() {
            prop_assert!(h.jump(i));
            prop_assert_eq!(h.current(), snap);
        }
        prop_assert!(!h.jump(moves.len() + 1));
        let replayed = History::from_moves(Ultimate::new(rules), &moves).unwrap();
        prop_assert_eq!(replayed.current(), snapshots.last().unwrap());
        prop_assert_eq!(replayed.moves(), &moves[..]);
    }

    #[test]
    fn undo_then_a_different_move_drops_the_tail(rules in rules(), c in choices(), back in 1usize..10, pick in any::<u8>()) {
        let mut h = common::game_from_choices(rules, &c);
        let len = h.len();
        prop_assume!(len >= back);
        h.jump(len - back);
        let pos = *h.current();
        let legal = pos.legal_moves();
        let m = legal[usize::from(pick) % legal.len()];
        let same = h.moves()[len - back] == m;
        h.play(m).unwrap();
        prop_assert_eq!(h.current(), &pos.play(m).unwrap());
        if same {
            prop_assert_eq!(h.len(), len);
        } else {
            prop_assert_eq!(h.len(), len - back + 1);
            prop_assert!(!h.can_redo());
        }
    }

    #[test]
    fn every_game_ends_within_81_plies(rules in rules(), c in prop::collection::vec(any::<u8>(), 81..120)) {
        let h = common::game_from_choices(rules, &c);
        // 81 choices or more always reach the end.
        let end = h.current();
        prop_assert!(end.is_over());
        prop_assert!(h.len() <= 81);
        prop_assert_eq!(end.ply(), h.len());
        for pos in positions(&h) {
            // An unfinished game always has a move; a finished one none.
            prop_assert_eq!(pos.is_over(), pos.legal_move_count() == 0);
            prop_assert_eq!(pos.is_over(), pos.outcome().is_some());
            prop_assert!(pos.ply() <= Ultimate::MAX_PLIES);
        }
    }
}
