//! Positions stay small enough that the search copies them to make a move.

use uttt_core::{Classic, Game, Move, Rules, Ultimate};

#[test]
fn positions_are_a_few_dozen_bytes() {
    assert!(
        core::mem::size_of::<Ultimate>() <= 64,
        "Ultimate is {} bytes",
        core::mem::size_of::<Ultimate>()
    );
    assert!(core::mem::size_of::<Classic>() <= 32);
    assert_eq!(core::mem::size_of::<Move>(), 2);
}

#[test]
fn a_copy_is_independent_of_the_original() {
    let start = Ultimate::new(Rules::Standard);
    let mut copy = start;
    copy.play_unchecked(Move::new(4, 4));
    assert_eq!(start.ply(), 0);
    assert_eq!(copy.ply(), 1);
    assert_ne!(Game::hash(&start), Game::hash(&copy));
}
