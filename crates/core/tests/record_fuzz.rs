//! Fuzzing the game-record reader: shared links and pasted imports reach
//! `parse_record` straight from users, so no input may panic, every error must
//! point inside the text, and whatever is accepted must be a legal game that
//! writes back to the same record. The same holds for records with
//! variations (`parse_tree_record`), which reads plain records as
//! `parse_record` does.

use proptest::prelude::*;
use uttt_core::record::{parse_position, parse_record, position_string, record_string};
use uttt_core::tree::{parse_tree_record, tree_record_string, AnyTree, GameTree, NodeId};
use uttt_core::AnyGame;
use uttt_core::{Classic, Game, History, Rules, Ultimate};

/// Plays a legal game from `choices`, each picking among the legal moves.
fn legal_history<G: Game>(start: G, choices: &[u8]) -> History<G> {
    let mut history = History::new(start);
    for &c in choices {
        let moves = history.current().legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(c) % moves.len()];
        history.play(m).expect("a generated move is legal");
    }
    history
}

/// Writes a parsed game back to its record.
fn rewrite(game: &AnyGame) -> String {
    match game {
        AnyGame::Ultimate(h) => record_string(h),
        AnyGame::Classic(h) => record_string(h),
    }
}

/// Text close to a record: a known header, then letters, digits, spaces and
/// separators, so the fuzzer reaches the move reader and not only the header check.
fn near_record() -> impl Strategy<Value = String> {
    let header = prop_oneof![
        Just("ultimate-standard:"),
        Just("ultimate-tiebreak:"),
        Just("classic:"),
        Just("ultimate:"),
        Just("Classic:"),
        Just("ultimate-standard"),
        Just(""),
    ];
    (header, "[a-jA-J0-9 :/\\-é]{0,60}").prop_map(|(h, body)| format!("{h}{body}"))
}

/// Text close to a record with variations: a header, then moves, spaces and brackets.
fn near_tree_record() -> impl Strategy<Value = String> {
    let header = prop_oneof![
        Just("ultimate-standard:"),
        Just("classic:"),
        Just("ultimate:")
    ];
    (header, "[a-iA-I1-9 ()]{0,80}").prop_map(|(h, body)| format!("{h}{body}"))
}

/// A tree grown by `steps`: each plays the legal move its choice picks at
/// the cursor, after going back `back` moves (to branch there).
fn grown_tree<G: Game>(start: G, steps: &[(u8, u8)]) -> GameTree<G> {
    let mut tree = GameTree::new(start);
    for &(back, choice) in steps {
        for _ in 0..back % 4 {
            let parent = tree.parent(tree.cursor()).unwrap_or(NodeId::ROOT);
            tree.jump(parent);
        }
        let moves = tree.current().legal_moves();
        if !moves.is_empty() {
            tree.play(moves[usize::from(choice) % moves.len()])
                .expect("a generated move is legal");
        }
    }
    tree
}

fn tree_text(tree: &AnyTree) -> String {
    match tree {
        AnyTree::Ultimate(t) => tree_record_string(t),
        AnyTree::Classic(t) => tree_record_string(t),
    }
}

/// An accepted record with variations writes back to a record that reads
/// as the same tree; a refused one is refused by the plain reader too.
fn check_tree(text: &str) -> Result<(), TestCaseError> {
    match parse_tree_record(text) {
        Ok(tree) => {
            let again = tree_text(&tree);
            let back = parse_tree_record(&again);
            prop_assert_eq!(back.as_ref(), Ok(&tree), "{} rewrote to {}", text, again);
            // Without brackets it is a plain record, which the plain reader reads alike.
            if !text.contains('(') {
                prop_assert_eq!(parse_record(text), Ok(tree.main_line()));
            }
        }
        Err(e) => {
            prop_assert!(
                e.at <= text.len(),
                "error at {} past the end of {:?}",
                e.at,
                text
            );
            prop_assert!(parse_record(text).is_err());
        }
    }
    Ok(())
}

/// A hand's edit of `text`: the character at `at` removed (`edit` 0),
/// `ch` put before it (1) or in its place (2).
fn tamper(text: &mut String, at: prop::sample::Index, edit: u8, ch: char) {
    let i = at.index(text.len());
    match edit {
        0 => {
            text.remove(i);
        }
        1 => text.insert(i, ch),
        _ => text.replace_range(i..=i, &ch.to_string()),
    }
}

fn check_any(text: &str) -> Result<(), TestCaseError> {
    match parse_record(text) {
        Ok(game) => {
            let again = rewrite(&game);
            let back = parse_record(&again);
            prop_assert_eq!(back.as_ref(), Ok(&game), "{} rewrote to {}", text, again);
            // An accepted record is a game every prefix of which is legal.
            let plies = match &game {
                AnyGame::Ultimate(h) => h.len(),
                AnyGame::Classic(h) => h.len(),
            };
            prop_assert!(plies <= Ultimate::MAX_PLIES);
        }
        Err(e) => prop_assert!(
            e.at <= text.len(),
            "error at {} past the end of {:?}",
            e.at,
            text
        ),
    }
    Ok(())
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2000, ..ProptestConfig::default() })]

    #[test]
    fn arbitrary_text_never_panics(text in "\\PC{0,80}") {
        check_any(&text)?;
    }

    #[test]
    fn near_records_are_read_or_refused_cleanly(text in near_record()) {
        check_any(&text)?;
    }

    #[test]
    fn near_tree_records_are_read_or_refused_cleanly(text in near_tree_record()) {
        check_tree(&text)?;
    }

    #[test]
    fn grown_trees_round_trip(steps in prop::collection::vec((any::<u8>(), any::<u8>()), 0..120)) {
        let u = grown_tree(Ultimate::new(Rules::Standard), &steps);
        let text = tree_record_string(&u);
        let mut back = parse_tree_record(&text).expect("a written tree reads back");
        // The reader leaves the cursor at the main line's end; the cursor is not in the record.
        if let AnyTree::Ultimate(t) = &mut back {
            t.jump(u.cursor());
        }
        prop_assert_eq!(back, AnyTree::Ultimate(u));
        let c = grown_tree(Classic::new(), &steps);
        check_tree(&tree_record_string(&c))?;
    }

    /// A record with variations edited by hand: one character changed, removed or added.
    #[test]
    fn tampered_tree_records_are_refused_or_still_legal(
        steps in prop::collection::vec((any::<u8>(), any::<u8>()), 1..60),
        at in any::<prop::sample::Index>(),
        edit in 0u8..3,
        ch in prop::sample::select(vec!['(', ')', 'a', 'e', '5', '9', ' ']),
    ) {
        let mut text = tree_record_string(&grown_tree(Ultimate::new(Rules::Standard), &steps));
        tamper(&mut text, at, edit, ch);
        check_tree(&text)?;
        check_any(&text)?;
    }

    #[test]
    fn legal_games_round_trip(choices in prop::collection::vec(any::<u8>(), 0..90), tiebreak: bool) {
        let rules = if tiebreak { Rules::TieBreak } else { Rules::Standard };
        let h = legal_history(Ultimate::new(rules), &choices);
        let text = record_string(&h);
        prop_assert_eq!(parse_record(&text), Ok(AnyGame::Ultimate(h)));

        let c = legal_history(Classic::new(), &choices);
        let text = record_string(&c);
        prop_assert_eq!(parse_record(&text), Ok(AnyGame::Classic(c)));
    }

    /// A shared link edited by hand: one character changed, removed or added.
    #[test]
    fn tampered_records_are_refused_or_still_legal(
        choices in prop::collection::vec(any::<u8>(), 1..90),
        at in any::<prop::sample::Index>(),
        edit in 0u8..3,
        ch in prop::char::range('0', 'z'),
    ) {
        let h = legal_history(Ultimate::new(Rules::Standard), &choices);
        let mut text = record_string(&h);
        tamper(&mut text, at, edit, ch);
        check_any(&text)?;
    }

    /// Position strings as a hand might write them: any grid with few
    /// pieces and any target. Whatever is accepted has a target some last
    /// move could have made, so a game set up from it keeps its forced
    /// board; and an accepted empty grid is the start of the game.
    #[test]
    fn set_up_positions_have_reachable_targets(
        cells in prop::collection::vec(0u8..3, 81),
        target in prop::option::of(0u8..9),
        few in 0usize..6,
    ) {
        let mut grid = String::new();
        let mut placed = 0;
        for (i, &c) in cells.iter().enumerate() {
            if i > 0 && i % 9 == 0 {
                grid.push('/');
            }
            let piece = if c != 0 && placed < few { placed += 1; if c == 1 { 'x' } else { 'o' } } else { '.' };
            grid.push(piece);
        }
        let t = target.map_or('-', |b| char::from(b'0' + b));
        let text = format!("ultimate-standard {grid} {t}");
        if let Ok(AnyGame::Ultimate(h)) = parse_position(&text) {
            let pos = *h.current();
            let ply = pos.ply();
            if ply == 0 {
                prop_assert_eq!(pos, Ultimate::new(Rules::Standard), "{}", text);
            }
            if let Some(b) = target {
                let last = if ply % 2 == 1 { uttt_core::Player::X } else { uttt_core::Player::O };
                prop_assert!((0..9).any(|k| pos.cell(k, b) == Some(last)), "{}", text);
                prop_assert!(pos.legal_moves().iter().all(|m| m.board == b), "{}", text);
            }
            prop_assert_eq!(parse_position(&position_string(&pos)), Ok(AnyGame::Ultimate(h)));
        }
    }

    /// An illegal move is reported at its own index, not somewhere else.
    #[test]
    fn an_illegal_move_is_reported_where_it_is(choices in prop::collection::vec(any::<u8>(), 1..60)) {
        let h = legal_history(Ultimate::new(Rules::Standard), &choices);
        // Playing the same cell twice is never legal.
        let taken = h.moves()[h.len() - 1];
        let text = format!("{}{taken}", record_string(&h));
        let err = parse_record(&text).expect_err("a repeated cell is illegal");
        prop_assert_eq!(err.at, text.len() - 2);
    }
}
