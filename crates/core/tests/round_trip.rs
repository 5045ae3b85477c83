//! Notation, game records and position strings round-trip exactly.

mod common;

use common::RULES;
use proptest::prelude::*;
use uttt_core::notation::{parse_classic_move, parse_move};
use uttt_core::record::{
    classic_position_string, parse_position, parse_record, position_string, record_string,
};
use uttt_core::{AnyGame, Classic, Game, History, Move, Player, Rules, Ultimate};

fn rules() -> impl Strategy<Value = Rules> {
    prop::sample::select(RULES.to_vec())
}

/// Every fact about a position a parser can restore (the last move is not
/// part of a position string).
fn assert_same_position(a: &Ultimate, b: &Ultimate) {
    for p in [Player::X, Player::O] {
        for board in 0..9 {
            assert_eq!(a.board_cells(p, board), b.board_cells(p, board));
        }
        assert_eq!(a.won_boards(p), b.won_boards(p));
    }
    assert_eq!(a.decided_boards(), b.decided_boards());
    assert_eq!(a.required_board(), b.required_board());
    assert_eq!(a.playable_boards(), b.playable_boards());
    assert_eq!(a.side_to_move(), b.side_to_move());
    assert_eq!(a.ply(), b.ply());
    assert_eq!(a.outcome(), b.outcome());
    assert_eq!(a.winning_line(), b.winning_line());
    assert_eq!(a.rules(), b.rules());
    assert_eq!(a.legal_moves()[..], b.legal_moves()[..]);
    assert_eq!(a.legal_move_count(), b.legal_move_count());
    assert_eq!(a.count_replies(), b.count_replies());
    assert_eq!(a.hash(), b.hash(), "hash");
    assert_eq!(b.hash(), b.recompute_hash());
}

#[test]
fn every_move_round_trips_in_every_form() {
    for i in 0..81 {
        let m = Move::from_index(i);
        assert_eq!(m.index(), usize::from(i));
        let text = m.to_string();
        assert_eq!(text.len(), 2);
        assert_eq!(parse_move(&text), Ok(m));
        assert_eq!(parse_move(&text.to_uppercase()), Ok(m));
        assert_eq!(parse_move(&format!("{}/{}", m.board, m.cell)), Ok(m));
        let (r, c) = m.row_col();
        assert_eq!(parse_move(&format!("{r} {c}")), Ok(m));
        assert_eq!(Ultimate::parse_move(&text), Ok(m));
    }
    assert_eq!(Move::new(0, 0).to_string(), "a1");
    assert_eq!(Move::new(4, 4).to_string(), "e5");
    assert_eq!(Move::new(8, 8).to_string(), "i9");
    assert_eq!(Move::new(2, 0).to_string(), "g1");
    assert_eq!(Move::new(6, 0).to_string(), "a7");
    for c in 0..9 {
        let m = uttt_core::ClassicMove(c);
        assert_eq!(parse_classic_move(&m.to_string()), Ok(m));
        assert_eq!(Classic::parse_move(&format!("{} {}", c / 3, c % 3)), Ok(m));
    }
}

#[test]
fn finished_games_round_trip_through_position_strings() {
    // Finished games are the edge case: the target no longer matters.
    let mut rng = common::Rng::new(99);
    for rules in RULES {
        for _ in 0..300 {
            let h = common::random_game(rules, &mut rng, 81);
            let end = h.current();
            assert!(end.is_over());
            let text = position_string(end);
            assert!(text.ends_with(" -"), "{text}");
            let Ok(AnyGame::Ultimate(back)) = parse_position(&text) else {
                panic!("{text} does not parse back");
            };
            assert_same_position(end, back.current());
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(300))]

    #[test]
    fn records_round_trip(rules in rules(), c in prop::collection::vec(any::<u8>(), 0..100)) {
        let h = common::game_from_choices(rules, &c);
        let text = record_string(&h);
        prop_assert_eq!(text.len(), 18 + 2 * h.len());
        prop_assert!(text.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b':'));
        let back = parse_record(&text);
        prop_assert_eq!(back, Ok(AnyGame::Ultimate(h.clone())));
        // Spaced moves read the same.
        let spaced: Vec<String> = h.moves().iter().map(ToString::to_string).collect();
        let spaced = format!("{}: {} ", &text[..17], spaced.join(" "));
        prop_assert_eq!(parse_record(&spaced), Ok(AnyGame::Ultimate(h.clone())));
        // A record with the cursor moved back still writes every move.
        let mut undone = h.clone();
        undone.undo();
        prop_assert_eq!(record_string(&undone), text);
    }

    #[test]
    fn position_strings_round_trip(rules in rules(), c in prop::collection::vec(any::<u8>(), 0..100)) {
        let h = common::game_from_choices(rules, &c);
        for pos in (0..=h.len()).map(|i| h.position_at(i).unwrap()) {
            let text = position_string(pos);
            let parsed = parse_position(&text);
            let Ok(AnyGame::Ultimate(back)) = parsed else {
                return Err(TestCaseError::fail(format!("{text}: {parsed:?}")));
            };
            prop_assert_eq!(back.len(), 0);
            assert_same_position(pos, back.current());
            prop_assert_eq!(position_string(back.current()), text);
        }
    }

    #[test]
    fn classic_records_and_positions_round_trip(c in prop::collection::vec(any::<u8>(), 0..12)) {
        let mut h = History::new(Classic::new());
        for &byte in &c {
            let legal = h.current().legal_moves();
            if legal.is_empty() {
                break;
            }
            h.play(legal[usize::from(byte) % legal.len()]).unwrap();
        }
        let text = record_string(&h);
        prop_assert_eq!(parse_record(&text), Ok(AnyGame::Classic(h.clone())));
        let pos = h.current();
        let text = classic_position_string(pos);
        let Ok(AnyGame::Classic(back)) = parse_position(&text) else {
            return Err(TestCaseError::fail(text));
        };
        let back = back.current();
        prop_assert_eq!(back.cells(Player::X), pos.cells(Player::X));
        prop_assert_eq!(back.cells(Player::O), pos.cells(Player::O));
        prop_assert_eq!(back.outcome(), pos.outcome());
        prop_assert_eq!(back.hash(), pos.hash());
        prop_assert_eq!(classic_position_string(back), text);
    }
}

#[test]
fn records_hold_only_the_primary_notation() {
    // "1 " would read as a Classic cell digit; in a record it is refused.
    let e = parse_record("classic:1 b2").unwrap_err();
    assert_eq!(e.at, 8);
    let e = parse_record("ultimate-standard:4/0").unwrap_err();
    assert_eq!(e.at, 18);
    assert!(parse_record("classic:b1b2").is_ok());
}
