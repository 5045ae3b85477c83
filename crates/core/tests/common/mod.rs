//! Helpers shared by the integration tests: a seeded random source and
//! random games. Each test file uses only some of them.
#![allow(dead_code)]

use uttt_core::{Game, History, Move, Rules, Ultimate};

/// A tiny seeded generator (xorshift64*), so every "random" test is
/// reproducible from its seed without a dependency.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        // Avoid the all-zero state, which xorshift never leaves.
        Rng(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15) | 1)
    }

    pub fn next_u64(&mut self) -> u64 {
        let mut x = self.0;
        x ^= x >> 12;
        x ^= x << 25;
        x ^= x >> 27;
        self.0 = x;
        x.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    /// A number in `0..n` (n > 0).
    pub fn below(&mut self, n: usize) -> usize {
        (self.next_u64() % n as u64) as usize
    }
}

/// Both rule sets, for tests that must hold under each.
pub const RULES: [Rules; 2] = [Rules::Standard, Rules::TieBreak];

/// Plays `choices` from the start: each byte picks one of the legal moves
/// (modulo their number). Stops when the game ends or the bytes run out.
pub fn game_from_choices(rules: Rules, choices: &[u8]) -> History<Ultimate> {
    let mut h = History::new(Ultimate::new(rules));
    for &c in choices {
        let moves = h.current().legal_moves();
        if moves.is_empty() {
            break;
        }
        let m = moves[usize::from(c) % moves.len()];
        h.play(m).expect("a generated move is legal");
    }
    h
}

/// Plays uniformly random moves from the start for at most `plies` plies.
pub fn random_game(rules: Rules, rng: &mut Rng, plies: usize) -> History<Ultimate> {
    let mut h = History::new(Ultimate::new(rules));
    while h.len() < plies {
        let moves = h.current().legal_moves();
        if moves.is_empty() {
            break;
        }
        h.play(moves[rng.below(moves.len())]).expect("legal");
    }
    h
}

/// Plays a fixed list of moves written in the primary notation.
pub fn play_all(rules: Rules, moves: &str) -> Ultimate {
    let mut pos = Ultimate::new(rules);
    for text in moves.split_whitespace() {
        let m = uttt_core::notation::parse_move(text).expect("test move parses");
        pos = pos
            .play(m)
            .unwrap_or_else(|e| panic!("{text} should be legal: {e}"));
    }
    pos
}

/// Plays `(board, cell)` pairs; panics with the index of an illegal one.
pub fn play_pairs(mut pos: Ultimate, pairs: &[(u8, u8)]) -> Ultimate {
    for (i, &(b, c)) in pairs.iter().enumerate() {
        pos = pos
            .play(Move::new(b, c))
            .unwrap_or_else(|e| panic!("move {i} ({b},{c}) should be legal: {e}"));
    }
    pos
}

/// Sets up an Ultimate position through the position-string parser: `x` and
/// `o` list, per small board, the cells each player holds; `target` is the
/// board the side to move is sent to. Panics if the parser refuses it.
pub fn setup(rules: Rules, x: &[(u8, &[u8])], o: &[(u8, &[u8])], target: Option<u8>) -> Ultimate {
    let mut grid = [['.'; 9]; 9];
    for (pieces, ch) in [(x, 'x'), (o, 'o')] {
        for &(board, cells) in pieces {
            for &cell in cells {
                let (r, c) = Move::new(board, cell).row_col();
                assert_eq!(grid[usize::from(r)][usize::from(c)], '.', "cell set twice");
                grid[usize::from(r)][usize::from(c)] = ch;
            }
        }
    }
    let rows: Vec<String> = grid.iter().map(|r| r.iter().collect()).collect();
    let text = format!(
        "{} {} {}",
        uttt_core::record::header(uttt_core::GameKind::Ultimate, rules),
        rows.join("/"),
        target.map_or('-', |b| char::from(b'0' + b))
    );
    match uttt_core::record::parse_position(&text) {
        Ok(uttt_core::AnyGame::Ultimate(h)) => *h.current(),
        other => panic!("setup {text:?} failed: {other:?}"),
    }
}
