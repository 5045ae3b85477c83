//! The opening book of Ultimate: moves chosen by a long offline search for
//! the first plies, shipped as compact data (`book.bin`, built by
//! `uttt book`, see the CLI's book.rs) and played by Hard and Master at once.
//!
//! A position and its seven mirror images and rotations are one entry: the
//! nested boards turn together (a symmetry of the 9x9 grid maps small boards
//! to small boards and every small board the same way), and the rules do
//! not see the difference. An entry is keyed by the smallest of the eight
//! images' hashes, its move is stored as seen in that image, and the lookup
//! turns the move back.
//!
//! The data is a list of entries sorted by key, [`ENTRY_BYTES`] each: the
//! upper 32 bits of the key, little-endian; the move's index (`board * 9 +
//! cell`) in the keyed image; the search's score for the side to move, a
//! little-endian `i16`. 32 bits suffice: the shipped book is read only in
//! the first [`SHIPPED_PLIES`] plies, where a position not in the book meets
//! one of its thousand-odd keys by chance about once in four million
//! lookups, and a move that is not legal in the position is never played.

use alloc::vec::Vec;

use crate::ultimate::Move;
use crate::zobrist::{O_TO_MOVE, PIECE, TARGET};
use crate::{Game, Rules, Ultimate};

/// The standard rules' book, as `uttt book` wrote it.
static STANDARD: &[u8] = include_bytes!("book.bin");

/// The bytes of one entry.
pub const ENTRY_BYTES: usize = 7;

/// The most plies a book may cover: positions after more are never looked
/// up.
pub const MAX_BOOK_PLY: usize = 8;

/// The eight symmetries of a 3x3 square, each as the image of the cells 0-8
/// (reading order): identity, the three rotations, and the four mirrors.
pub const SYMMETRIES: [[u8; 9]; 8] = [
    [0, 1, 2, 3, 4, 5, 6, 7, 8],
    [6, 3, 0, 7, 4, 1, 8, 5, 2],
    [8, 7, 6, 5, 4, 3, 2, 1, 0],
    [2, 5, 8, 1, 4, 7, 0, 3, 6],
    [2, 1, 0, 5, 4, 3, 8, 7, 6],
    [6, 7, 8, 3, 4, 5, 0, 1, 2],
    [0, 3, 6, 1, 4, 7, 2, 5, 8],
    [8, 5, 2, 7, 4, 1, 6, 3, 0],
];

/// One entry of the book: what the search found for a position.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct BookEntry {
    /// The position's canonical key ([`canonical`]), its upper 32 bits.
    pub key: u32,
    /// The move, as played in the keyed image of the position.
    pub mv: Move,
    /// The search's score of the position for the side to move.
    pub score: i16,
}

/// The image of `m` under symmetry `s`.
#[must_use]
pub fn turn_move(m: Move, s: usize) -> Move {
    let t = &SYMMETRIES[s];
    Move::new(t[usize::from(m.board)], t[usize::from(m.cell)])
}

/// The symmetry undoing `s`.
#[must_use]
pub fn inverse(s: usize) -> usize {
    (0..8)
        .find(|&i| (0..9).all(|c| SYMMETRIES[i][usize::from(SYMMETRIES[s][c])] as usize == c))
        .unwrap_or(0)
}

/// The hash `pos` would have if turned by symmetry `s`.
fn turned_hash(pos: &Ultimate, s: usize) -> u64 {
    let t = &SYMMETRIES[s];
    let mut h = TARGET[pos
        .required_board()
        .map_or(9, |b| usize::from(t[usize::from(b)]))];
    if pos.ply() % 2 == 1 {
        h ^= O_TO_MOVE;
    }
    for b in 0..9u8 {
        for c in 0..9u8 {
            if let Some(p) = pos.cell(b, c) {
                let side = usize::from(p != crate::Player::X);
                h ^= PIECE[side * 81
                    + usize::from(t[usize::from(b)]) * 9
                    + usize::from(t[usize::from(c)])];
            }
        }
    }
    h
}

/// The key of `pos` and its seven images (the smallest of their hashes),
/// and a symmetry turning `pos` into the image with that key.
#[must_use]
pub fn canonical(pos: &Ultimate) -> (u64, usize) {
    (0..8)
        .map(|s| (turned_hash(pos, s), s))
        .min()
        .unwrap_or((pos.hash(), 0))
}

/// The entries of a book's data, in order. A trailing partial entry is
/// ignored.
pub fn entries(data: &[u8]) -> impl Iterator<Item = BookEntry> + '_ {
    data.chunks_exact(ENTRY_BYTES).map(|e| BookEntry {
        key: u32::from_le_bytes([e[0], e[1], e[2], e[3]]),
        mv: Move::from_index(e[4]),
        score: i16::from_le_bytes([e[5], e[6]]),
    })
}

/// A book's data from its entries: sorted by key, one entry per key (the
/// first given wins).
#[must_use]
pub fn encode(entries: &[BookEntry]) -> Vec<u8> {
    let mut sorted = entries.to_vec();
    sorted.sort_by_key(|e| e.key);
    sorted.dedup_by_key(|e| e.key);
    let mut out = Vec::with_capacity(sorted.len() * ENTRY_BYTES);
    for e in &sorted {
        out.extend_from_slice(&e.key.to_le_bytes());
        // An index 0-80 always fits a byte.
        out.push(e.mv.index() as u8);
        out.extend_from_slice(&e.score.to_le_bytes());
    }
    out
}

/// The entry keyed `key` in `data`, if any.
fn find(data: &[u8], key: u32) -> Option<BookEntry> {
    let count = data.len() / ENTRY_BYTES;
    let at = |i: usize| entries(&data[i * ENTRY_BYTES..(i + 1) * ENTRY_BYTES]).next();
    let (mut lo, mut hi) = (0, count);
    while lo < hi {
        let mid = (lo + hi) / 2;
        let e = at(mid)?;
        match e.key.cmp(&key) {
            core::cmp::Ordering::Less => lo = mid + 1,
            core::cmp::Ordering::Greater => hi = mid,
            core::cmp::Ordering::Equal => return Some(e),
        }
    }
    None
}

/// The upper 32 bits of a canonical key, as entries hold it.
#[must_use]
pub fn short_key(key: u64) -> u32 {
    (key >> 32) as u32
}

/// The move `data` holds for `pos` and its score for the side to move, if
/// the position (or an image of it) is there and the move is legal.
#[must_use]
pub fn lookup_in(data: &[u8], pos: &Ultimate) -> Option<(Move, i32)> {
    if pos.is_over() || pos.ply() > MAX_BOOK_PLY {
        return None;
    }
    let (key, s) = canonical(pos);
    let e = find(data, short_key(key))?;
    let mv = turn_move(e.mv, inverse(s));
    pos.check(mv).ok()?;
    Some((mv, i32::from(e.score)))
}

/// The plies the shipped book was built with (`uttt book --all-plies 2
/// --plies 4`): see [`follow_ups`].
pub const SHIPPED_ALL_PLIES: usize = 2;
/// See [`SHIPPED_ALL_PLIES`].
pub const SHIPPED_PLIES: usize = 4;

/// The positions a book holds after the book position `pos` (at ply
/// `ply`), whose book move is `mv`, each with its ply: below `all_plies`,
/// every position one move on (so the book holds every position of the
/// first `all_plies` plies); and, up to `plies`, every reply to the book's
/// move (the positions the book's side meets next when it follows the
/// book). Positions where the game is over are left out.
#[must_use]
pub fn follow_ups(
    pos: &Ultimate,
    ply: usize,
    mv: Move,
    all_plies: usize,
    plies: usize,
) -> Vec<(usize, Ultimate)> {
    let mut out = Vec::new();
    if ply < all_plies {
        out.extend(children(pos).map(|c| (ply + 1, c)));
    }
    if ply + 2 <= plies {
        if let Ok(after) = pos.play(mv) {
            out.extend(children(&after).map(|c| (ply + 2, c)));
        }
    }
    out
}

/// The positions one move after `pos` where the game goes on.
fn children(pos: &Ultimate) -> impl Iterator<Item = Ultimate> {
    let pos = *pos;
    let moves = pos.legal_moves();
    (0..moves.len())
        .map(move |i| {
            let mut child = pos;
            child.play_unchecked(moves[i]);
            child
        })
        .filter(|c| !c.is_over())
}

/// The shipped book's data for `rules` (empty where there is none).
#[must_use]
pub fn data_for(rules: Rules) -> &'static [u8] {
    match rules {
        Rules::Standard => STANDARD,
        Rules::TieBreak => &[],
    }
}

/// The shipped book's move for `pos`, under its own rules.
#[must_use]
pub fn lookup(pos: &Ultimate) -> Option<(Move, i32)> {
    if pos.ply() > SHIPPED_PLIES {
        return None;
    }
    lookup_in(data_for(pos.rules()), pos)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Game;

    fn turned(pos: &Ultimate, moves: &[Move], s: usize) -> Ultimate {
        let mut p = Ultimate::new(pos.rules());
        for &m in moves {
            p = p
                .play(turn_move(m, s))
                .expect("a turned legal move is legal");
        }
        p
    }

    #[test]
    fn symmetries_are_a_group_of_eight() {
        for s in 0..8 {
            let mut seen = [false; 9];
            for &c in &SYMMETRIES[s] {
                seen[usize::from(c)] = true;
            }
            assert!(seen.iter().all(|&x| x), "{s} is a permutation");
            let back = inverse(s);
            for c in 0..9u8 {
                let m = Move::new(c, 8 - c);
                assert_eq!(turn_move(turn_move(m, s), back), m);
            }
        }
        assert_eq!(
            SYMMETRIES
                .iter()
                .collect::<alloc::collections::BTreeSet<_>>()
                .len(),
            8
        );
    }

    #[test]
    fn images_share_a_key_and_the_turned_hash_is_the_hash() {
        let moves = [
            Move::new(4, 0),
            Move::new(0, 8),
            Move::new(8, 2),
            Move::new(2, 7),
        ];
        let mut pos = Ultimate::new(Rules::Standard);
        for &m in &moves {
            pos = pos.play(m).unwrap();
        }
        for s in 0..8 {
            let image = turned(&pos, &moves, s);
            assert_eq!(turned_hash(&pos, s), image.hash());
            assert_eq!(canonical(&image).0, canonical(&pos).0);
        }
    }

    #[test]
    fn a_move_is_found_in_every_image_and_turned_back() {
        let moves = [Move::new(1, 5), Move::new(5, 3)];
        let mut pos = Ultimate::new(Rules::Standard);
        for &m in &moves {
            pos = pos.play(m).unwrap();
        }
        let best = Move::new(3, 6);
        let (key, s) = canonical(&pos);
        let data = encode(&[BookEntry {
            key: short_key(key),
            mv: turn_move(best, s),
            score: 12,
        }]);
        for t in 0..8 {
            let image = turned(&pos, &moves, t);
            assert_eq!(
                lookup_in(&data, &image),
                Some((turn_move(best, t), 12)),
                "image {t}"
            );
        }
        assert_eq!(lookup_in(&data, &Ultimate::new(Rules::Standard)), None);
    }

    #[test]
    fn an_illegal_stored_move_is_not_played() {
        let pos = Ultimate::new(Rules::Standard);
        let after = pos.play(Move::new(4, 4)).unwrap();
        let (key, _) = canonical(&after);
        // Board 0 is not the board O was sent to.
        let data = encode(&[BookEntry {
            key: short_key(key),
            mv: Move::new(0, 0),
            score: 0,
        }]);
        assert_eq!(lookup_in(&data, &after), None);
    }

    /// The shipped book holds exactly the positions its build visits: every
    /// one of them is answered with a legal move, and every entry is one of
    /// them (a change of the hash keys or of the walk would show here).
    #[test]
    fn the_shipped_book_answers_the_positions_it_was_built_for() {
        use alloc::collections::{BTreeMap, BTreeSet};
        let data = data_for(Rules::Standard);
        let mut layers: Vec<BTreeMap<u64, Ultimate>> =
            alloc::vec![BTreeMap::new(); SHIPPED_PLIES + 1];
        let start = Ultimate::new(Rules::Standard);
        layers[0].insert(canonical(&start).0, start);
        let mut reached = BTreeSet::new();
        for ply in 0..=SHIPPED_PLIES {
            let layer: Vec<Ultimate> = layers[ply].values().copied().collect();
            for pos in layer {
                let (mv, score) =
                    lookup_in(data, &pos).expect("every position of the walk is in the book");
                assert!(score.abs() <= crate::search::Eval::MATE);
                reached.insert(short_key(canonical(&pos).0));
                for (p, next) in follow_ups(&pos, ply, mv, SHIPPED_ALL_PLIES, SHIPPED_PLIES) {
                    layers[p].entry(canonical(&next).0).or_insert(next);
                }
            }
        }
        let keys: BTreeSet<u32> = entries(data).map(|e| e.key).collect();
        assert_eq!(keys.len(), data.len() / ENTRY_BYTES, "one entry per key");
        assert_eq!(data.len() % ENTRY_BYTES, 0);
        assert_eq!(reached, keys);
        assert!(data.len() <= 20 * 1024, "the book stays within 20 KB");
    }

    #[test]
    fn encode_sorts_and_entries_read_it_back() {
        let e = |key, i, score| BookEntry {
            key,
            mv: Move::from_index(i),
            score,
        };
        let data = encode(&[e(9, 1, -5), e(3, 80, 300), e(9, 2, 0)]);
        assert_eq!(data.len(), 2 * ENTRY_BYTES);
        let back: Vec<_> = entries(&data).collect();
        assert_eq!(back, [e(3, 80, 300), e(9, 1, -5)]);
        assert_eq!(find(&data, 9), Some(e(9, 1, -5)));
        assert_eq!(find(&data, 4), None);
    }
}
