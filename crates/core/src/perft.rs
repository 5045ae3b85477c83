//! Perft: the number of move sequences of a given length, the standard check
//! that move generation is exact, and a fair measure of its speed.

use alloc::vec::Vec;

use crate::Game;

/// The number of leaf positions `depth` plies from `pos` (games that end
/// earlier are not extended). Counts the last ply in bulk: at depth 1 it
/// returns the number of legal moves without playing them, and at depth 2
/// [`Game::count_replies`] counts the replies to each move without playing
/// the replies, and at depth 3 [`Game::count_three_plies`] does the same one
/// ply deeper (Ultimate plays none of the three plies).
#[must_use]
pub fn perft<G: Game>(pos: &G, depth: u32) -> u64 {
    match depth {
        0 => 1,
        1 => u64::from(pos.legal_move_count()),
        2 => pos.count_replies(),
        3 => pos.count_three_plies(),
        _ => pos
            .legal_moves()
            .iter()
            .map(|&m| {
                let mut next = *pos;
                next.play_unchecked(m);
                perft(&next, depth - 1)
            })
            .sum(),
    }
}

/// Perft split by first move: each legal move with the count below it.
#[must_use]
pub fn divide<G: Game>(pos: &G, depth: u32) -> Vec<(G::Move, u64)> {
    if depth == 0 {
        return Vec::new();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut next = *pos;
            next.play_unchecked(m);
            (m, perft(&next, depth - 1))
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Classic, Rules, Ultimate};

    #[test]
    fn classic_perft_matches_the_known_counts() {
        let expected = [9, 72, 504, 3024, 15120, 54720, 148_176, 200_448, 127_872];
        for (d, &n) in expected.iter().enumerate() {
            assert_eq!(perft(&Classic::new(), d as u32 + 1), n, "depth {}", d + 1);
        }
    }

    #[test]
    fn ultimate_perft_begins_81_720() {
        let start = Ultimate::new(Rules::Standard);
        assert_eq!(perft(&start, 1), 81);
        assert_eq!(perft(&start, 2), 720);
        let total: u64 = divide(&start, 3).iter().map(|&(_, n)| n).sum();
        assert_eq!(total, perft(&start, 3));
    }
}
