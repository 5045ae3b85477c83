//! A plain UCT Monte Carlo tree search with uniformly random playouts: the
//! match runner's sparring partner for the alpha-beta engine. Not a level.

use std::time::{Duration, Instant};

use uttt_core::search::Rng;
use uttt_core::{Game, Move, Outcome, Ultimate};

/// The exploration constant of UCB1 (results scored 1 / 0.5 / 0).
const EXPLORATION: f64 = 1.414;

struct Node {
    /// The move that led here (unused at the root).
    mv: Move,
    /// Index of the first child; children are contiguous once expanded.
    first_child: u32,
    child_count: u8,
    expanded: bool,
    visits: u32,
    /// Results for the player who made `mv`: win 1, draw 0.5.
    reward: f64,
}

/// UCT with random playouts, a fresh tree every move.
pub struct Mcts {
    rng: Rng,
    nodes: Vec<Node>,
    /// Playouts of the last search, for reports.
    pub last_playouts: u64,
}

impl Mcts {
    /// A searcher whose playouts draw from `seed`.
    pub fn new(seed: u64) -> Mcts {
        Mcts {
            rng: Rng::new(seed),
            nodes: Vec::new(),
            last_playouts: 0,
        }
    }

    /// The most visited root move after searching for `time` (at least one
    /// playout per root move is not guaranteed; a legal move always is).
    /// `None` once the game is over.
    pub fn choose(&mut self, pos: &Ultimate, time: Duration) -> Option<Move> {
        let start = Instant::now();
        self.search(pos, |playouts| {
            playouts % 64 == 0 && start.elapsed() >= time
        })
    }

    /// The same with a fixed number of playouts instead of a clock (tests,
    /// reproducible runs).
    #[cfg_attr(not(test), allow(dead_code))]
    pub fn choose_playouts(&mut self, pos: &Ultimate, playouts: u64) -> Option<Move> {
        self.search(pos, |n| n >= playouts)
    }

    fn search(&mut self, pos: &Ultimate, mut done: impl FnMut(u64) -> bool) -> Option<Move> {
        let root_moves = pos.legal_moves();
        if root_moves.is_empty() {
            return None;
        }
        self.nodes.clear();
        self.nodes.push(Node {
            mv: Move::default(),
            first_child: 0,
            child_count: 0,
            expanded: false,
            visits: 0,
            reward: 0.0,
        });
        let mut playouts = 0u64;
        loop {
            if done(playouts) {
                break;
            }
            self.iterate(pos);
            playouts += 1;
        }
        self.last_playouts = playouts;
        let root = &self.nodes[0];
        if !root.expanded {
            return Some(root_moves[0]);
        }
        let children =
            root.first_child as usize..root.first_child as usize + root.child_count as usize;
        self.nodes[children]
            .iter()
            .max_by_key(|n| n.visits)
            .map(|n| n.mv)
    }

    /// One selection, expansion, playout and back-propagation.
    fn iterate(&mut self, root: &Ultimate) {
        let mut path: Vec<usize> = vec![0];
        let mut pos = *root;
        let mut node = 0;
        // Selection: descend through fully expanded nodes by UCB1.
        while self.nodes[node].expanded && self.nodes[node].child_count > 0 {
            let parent_visits = f64::from(self.nodes[node].visits.max(1));
            let log_n = parent_visits.ln();
            let first = self.nodes[node].first_child as usize;
            let mut best = first;
            let mut best_value = f64::NEG_INFINITY;
            for c in first..first + self.nodes[node].child_count as usize {
                let ch = &self.nodes[c];
                let value = if ch.visits == 0 {
                    // Unvisited children first, in a random-ish order.
                    1e9 + (self.rng.next_u64() & 0xFFFF) as f64
                } else {
                    let v = f64::from(ch.visits);
                    ch.reward / v + EXPLORATION * (log_n / v).sqrt()
                };
                if value > best_value {
                    best_value = value;
                    best = c;
                }
            }
            node = best;
            pos.play_unchecked(self.nodes[node].mv);
            path.push(node);
            if self.nodes[node].visits == 0 {
                break;
            }
        }
        // Expansion: a leaf seen before gets its children.
        if !self.nodes[node].expanded
            && !pos.is_over()
            && (node == 0 || self.nodes[node].visits > 0)
        {
            let moves = pos.legal_moves();
            let first = self.nodes.len() as u32;
            for &m in moves.iter() {
                self.nodes.push(Node {
                    mv: m,
                    first_child: 0,
                    child_count: 0,
                    expanded: false,
                    visits: 0,
                    reward: 0.0,
                });
            }
            let n = &mut self.nodes[node];
            n.expanded = true;
            n.first_child = first;
            n.child_count = moves.len() as u8;
            let c = first as usize + self.rng.below(moves.len());
            pos.play_unchecked(self.nodes[c].mv);
            path.push(c);
        }
        // Playout: uniformly random moves to the end.
        while !pos.is_over() {
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[self.rng.below(moves.len())]);
        }
        let winner = match pos.outcome() {
            Some(Outcome::Win(p)) => Some(p),
            _ => None,
        };
        // Back-propagation: each node scores for the player who moved into it.
        let mut mover = root.side_to_move().opponent();
        for (depth, &n) in path.iter().enumerate() {
            if depth > 0 {
                mover = mover.opponent();
            }
            let node = &mut self.nodes[n];
            node.visits += 1;
            node.reward += match winner {
                Some(w) if w == mover => 1.0,
                Some(_) => 0.0,
                None => 0.5,
            };
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uttt_core::Rules;

    /// Positions after random moves where the side to move can win the game
    /// at once.
    fn winnable(seed: u64, n: usize) -> Vec<(Ultimate, Vec<Move>)> {
        let mut rng = Rng::new(seed);
        let mut out = Vec::new();
        while out.len() < n {
            let mut pos = Ultimate::new(Rules::Standard);
            while !pos.is_over() {
                let moves = pos.legal_moves();
                let wins: Vec<Move> = moves
                    .iter()
                    .copied()
                    .filter(|&m| {
                        pos.play(m).unwrap().outcome() == Some(Outcome::Win(pos.side_to_move()))
                    })
                    .collect();
                if !wins.is_empty() {
                    out.push((pos, wins));
                    break;
                }
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        out
    }

    #[test]
    fn takes_an_immediate_game_win() {
        for (i, (pos, wins)) in winnable(4, 10).into_iter().enumerate() {
            let mut m = Mcts::new(i as u64);
            let mv = m.choose_playouts(&pos, 3000).unwrap();
            assert!(wins.contains(&mv), "{pos:?} {mv:?}");
            assert_eq!(m.last_playouts, 3000);
        }
    }

    #[test]
    fn always_legal_even_with_no_playouts() {
        for (i, (pos, _)) in winnable(8, 10).into_iter().enumerate() {
            let mut m = Mcts::new(i as u64);
            assert!(pos.check(m.choose_playouts(&pos, 0).unwrap()).is_ok());
            assert!(pos.check(m.choose_playouts(&pos, 50).unwrap()).is_ok());
        }
    }
}
