//! The tree search proper: negamax alpha-beta with a transposition table,
//! principal variation search, killer and history move ordering, late move
//! reductions and pruning, internal iterative reductions, singular
//! extensions, and exact mate scores.

use alloc::vec::Vec;

use super::eval::{Eval, MAX_PLY};
use super::reductions::late_move_reduction;
use super::searchable::Searchable;
use super::tables::{Tables, HISTORY_MAX};
use super::tt::{Bound, Hit};
use crate::{Game, Outcome};

const INF: i32 = Eval::INFINITE;
/// The first aspiration half-window, in evaluation units.
const ASPIRATION_WINDOW: i32 = 40;
/// The place (0 = first searched) of the first move that late move
/// reductions reduce: the first two moves (mostly the table move and a
/// killer) are searched at full depth, the rest shallower first.
const FIRST_REDUCED: usize = 2;
/// The deepest node that prunes late moves.
const PRUNING_DEPTH: i32 = 3;
/// A node `depth` plies from the horizon searches its first
/// `PRUNING_BASE + depth²` moves; after those, only board-winning ones.
const PRUNING_BASE: i32 = 2;
/// The shallowest node searched a ply shallower when the table holds no
/// move for it (internal iterative reduction).
const IIR_DEPTH: i32 = 4;
/// The shallowest node that tests its table move for a singular extension.
const SINGULAR_DEPTH: i32 = 8;
/// How far below the table's score every other move must fail, per ply of
/// depth, for the table's move to count as singular.
const SINGULAR_MARGIN: i32 = 2;

/// The `stop` callback is asked every this many nodes.
pub const POLL_INTERVAL: u64 = 1024;

/// One search in progress: the engine's tables plus this search's counters.
pub(super) struct Searcher<'e, S> {
    pub tables: &'e mut Tables,
    pub stop: S,
    pub nodes: u64,
    pub max_nodes: u64,
    /// Set once `stop` said yes or the node limit was passed; every score
    /// computed after that is garbage and is thrown away.
    pub aborted: bool,
    /// False during depth 1, which always completes.
    pub polling: bool,
    /// The root move (index, score) that last became best during the
    /// current iteration, its search finished.
    pub improved: Option<(u8, i32)>,
    /// Score leaves with the tutorials' evaluation (Easy): no table, no
    /// mate distances, plain minimax values.
    pub tutorial: bool,
}

/// Bits of an ordering key that hold the move index (indexes are below 81).
const INDEX_BITS: u32 = 7;
/// The ordering rank of the table's move, above everything else.
const TT_RANK: u32 = 1 << 24;
/// The ranks of the two killers, above any quiet move's rank (its history,
/// at most [`HISTORY_MAX`], plus [`HISTORY_MAX`] when it gives no free move).
const KILLER_RANKS: [u32; 2] = [1 << 23, 1 << 22];

/// Sorts the root moves by score, best first, keeping the order of equal
/// scores (as a stable sort would). An insertion sort: at most 81 moves once
/// per iteration, and the wasm is spared the standard library's stable
/// sort, about 10 KB for its three instantiations.
fn sort_best_first<M: Copy>(root: &mut [(M, i32)]) {
    for i in 1..root.len() {
        let item = root[i];
        let mut j = i;
        while j > 0 && root[j - 1].1 < item.1 {
            root[j] = root[j - 1];
            j -= 1;
        }
        root[j] = item;
    }
}

/// A move's ordering key: its rank above, its index below (see
/// [`Tables::order`]).
#[inline]
fn order_key(rank: u32, index: u8) -> u32 {
    rank << INDEX_BITS | u32::from(index)
}

impl<S: FnMut() -> bool> Searcher<'_, S> {
    #[inline]
    fn poll(&mut self) {
        if self.polling && (self.nodes >= self.max_nodes || (self.stop)()) {
            self.aborted = true;
        }
    }

    /// Counts a node and polls `stop` every [`POLL_INTERVAL`] nodes; true
    /// once the search is aborted.
    #[inline]
    fn enter(&mut self) -> bool {
        self.nodes += 1;
        if self.nodes % POLL_INTERVAL == 0 {
            self.poll();
        }
        self.aborted
    }

    /// The score for the side to move at `ply` of a position whose result
    /// is already fixed: a finished game, one that can only be drawn, or
    /// (Classic) one lost to a fork, see [`Searchable::faces_a_fork`].
    #[inline]
    fn settled<G: Searchable>(&self, pos: &G, ply: usize) -> Option<i32> {
        if let Some(outcome) = pos.outcome() {
            return Some(if self.tutorial {
                pos.tutorial_eval()
            } else {
                match outcome {
                    Outcome::Draw => self.draw_score(ply),
                    Outcome::Win(p) if p == pos.side_to_move() => Eval::MATE - ply as i32,
                    Outcome::Win(_) => -(Eval::MATE - ply as i32),
                }
            });
        }
        if self.tutorial {
            return None;
        }
        // Whatever it plays, the opponent wins next move: the game ends two
        // plies from here.
        if pos.faces_a_fork() {
            return Some(-(Eval::MATE - (ply as i32 + 2)));
        }
        (self.tables.options.dead_draws && pos.dead_draw()).then(|| self.draw_score(ply))
    }

    /// A draw's score for the side to move at `ply`: the root's side (even
    /// plies) counts the contempt against it, its opponent for it. A
    /// position has one side to move, so it is always reached at plies of
    /// one parity, and the table's draw scores stay consistent.
    #[inline]
    fn draw_score(&self, ply: usize) -> i32 {
        let contempt = self.tables.options.contempt;
        if ply % 2 == 0 {
            -contempt
        } else {
            contempt
        }
    }

    /// Copies the child's principal variation behind `m` at `ply`.
    #[inline]
    fn update_pv(&mut self, ply: usize, m: u8) {
        let e = &mut *self.tables;
        let child_len = e.pv_len[ply + 1].max(ply + 1);
        e.pv[ply][ply] = m;
        for i in ply + 1..child_len {
            e.pv[ply][i] = e.pv[ply + 1][i];
        }
        e.pv_len[ply] = child_len;
    }

    /// Searches the root moves with the full window each, so every root move
    /// gets an exact score (Easy and Medium choose among them at random).
    /// Scores are written back only when the iteration completes.
    pub fn root_exact<G: Searchable>(
        &mut self,
        pos: &G,
        root: &mut [(G::Move, i32)],
        depth: i32,
    ) -> (G::Move, i32) {
        let mut scores: Vec<i32> = Vec::with_capacity(root.len());
        let mut best = (root[0].0, -INF);
        let mut best_pv: Vec<u8> = Vec::new();
        for &(m, _) in root.iter() {
            let mut child = *pos;
            child.play_unchecked(m);
            let v = -self.negamax(&child, depth - 1, 1, -INF, INF);
            if self.aborted {
                return best;
            }
            scores.push(v);
            if v > best.1 {
                best = (m, v);
                self.update_pv(0, G::move_index(m));
                best_pv.clear();
                best_pv.extend_from_slice(&self.tables.pv[0][..self.tables.pv_len[0]]);
            }
        }
        for (r, v) in root.iter_mut().zip(scores) {
            r.1 = v;
        }
        self.tables.pv[0][..best_pv.len()].copy_from_slice(&best_pv);
        self.tables.pv_len[0] = best_pv.len();
        sort_best_first(root);
        best
    }

    /// One iteration at the root: a narrow window around the previous
    /// depth's score (`previous`), widened on each failure until the score
    /// falls inside it.
    pub fn aspiration<G: Searchable>(
        &mut self,
        pos: &G,
        root: &mut [(G::Move, i32)],
        depth: i32,
        previous: Option<i32>,
    ) -> (G::Move, i32) {
        let mut delta = ASPIRATION_WINDOW;
        let (mut alpha, mut beta) = match previous {
            Some(p) if self.tables.options.aspiration && depth >= 5 => (p - delta, p + delta),
            _ => (-INF, INF),
        };
        loop {
            let (m, v) = self.root_pvs(pos, root, depth, alpha, beta);
            if self.aborted || (v > alpha && v < beta) {
                return (m, v);
            }
            delta *= 3;
            if v <= alpha {
                alpha = if delta > 1000 {
                    -INF
                } else {
                    (v - delta).max(-INF)
                };
            } else {
                beta = if delta > 1000 {
                    INF
                } else {
                    (v + delta).min(INF)
                };
            }
        }
    }

    /// The root of a principal variation search within (`alpha`, `beta`):
    /// the first move with the window, the rest with a null window,
    /// re-searched when they beat it. Keeps the root moves ordered best first
    /// for the next iteration. A result `<= alpha` or `>= beta` is only a
    /// bound (the caller widens the window and searches again).
    pub fn root_pvs<G: Searchable>(
        &mut self,
        pos: &G,
        root: &mut [(G::Move, i32)],
        depth: i32,
        mut alpha: i32,
        beta: i32,
    ) -> (G::Move, i32) {
        let original_alpha = alpha;
        let mut best = (root[0].0, -INF);
        for i in 0..root.len() {
            let m = root[i].0;
            let mut child = *pos;
            child.play_unchecked(m);
            let v = if i == 0 {
                -self.negamax(&child, depth - 1, 1, -beta, -alpha)
            } else {
                let v = -self.negamax(&child, depth - 1, 1, -alpha - 1, -alpha);
                if v > alpha && v < beta && !self.aborted {
                    -self.negamax(&child, depth - 1, 1, -beta, -alpha)
                } else {
                    v
                }
            };
            if self.aborted {
                return best;
            }
            root[i].1 = v;
            if v > best.1 {
                best = (m, v);
                if v > alpha {
                    alpha = v;
                    self.update_pv(0, G::move_index(m));
                    self.improved = Some((G::move_index(m), v));
                    // Move the new best to the front; the others keep their order.
                    root[..=i].rotate_right(1);
                    if v >= beta {
                        return best;
                    }
                }
            }
        }
        if best.1 > original_alpha {
            let key = Game::hash(pos);
            self.tables.tt.store(
                key,
                0,
                depth,
                Bound::Exact,
                best.1,
                Some(G::move_index(best.0)),
            );
        }
        best
    }

    /// Past the horizon: the static evaluation, unless a move that wins a
    /// small board does better (the side to move may also decline them all).
    fn quiesce<G: Searchable>(&mut self, pos: &G, ply: usize, mut alpha: i32, beta: i32) -> i32 {
        let stand = pos.evaluate(&self.tables.weights, &self.tables.odds);
        if stand >= beta || ply >= MAX_PLY - 1 {
            return stand;
        }
        alpha = alpha.max(stand);
        let mut best = stand;
        for &m in pos.tactical_moves().iter() {
            let mut child = *pos;
            child.play_unchecked(m);
            if self.enter() {
                return 0;
            }
            let v = match self.settled(&child, ply + 1) {
                Some(v) => -v,
                None => -self.quiesce(&child, ply + 1, -beta, -alpha),
            };
            if v > best {
                best = v;
                if v >= beta {
                    return v;
                }
                alpha = alpha.max(v);
            }
        }
        best
    }

    /// Whether the table's move in `h` is singular: the table holds a lower
    /// bound (or exact score) for it from nearly this depth, and every other
    /// move, searched at half depth with a null window, fails below that
    /// score minus a margin. A forced reply (say, the one block of a
    /// threat) is then searched a ply deeper, so a forcing line is not cut
    /// short by the fixed depth.
    ///
    /// The siblings are searched from this node rather than by a search of
    /// this position with the move excluded, so no table entry is ever made
    /// for a position searched without one of its moves.
    fn is_singular<G: Searchable>(
        &mut self,
        pos: &G,
        moves: &[G::Move],
        h: Hit,
        depth: i32,
        ply: usize,
    ) -> bool {
        let Some(tm) = h.mv else {
            return false;
        };
        // Extensions stop well short of the ply limit, so a chain of them
        // cannot run the search into it.
        if h.bound == Bound::Upper
            || h.depth < depth - 3
            || Eval(h.score).is_mate()
            || ply >= 2 * MAX_PLY / 3
        {
            return false;
        }
        let singular_beta = h.score - SINGULAR_MARGIN * depth;
        for &m in moves {
            if G::move_index(m) == tm {
                continue;
            }
            let mut child = *pos;
            child.play_unchecked(m);
            let v = -self.negamax(
                &child,
                (depth - 1) / 2,
                ply + 1,
                -singular_beta,
                -singular_beta + 1,
            );
            if self.aborted || v >= singular_beta {
                return false;
            }
        }
        true
    }

    /// Negamax alpha-beta: the value of `pos` for the side to move, within
    /// the window (`alpha`, `beta`).
    pub(super) fn negamax<G: Searchable>(
        &mut self,
        pos: &G,
        depth: i32,
        ply: usize,
        mut alpha: i32,
        mut beta: i32,
    ) -> i32 {
        self.tables.pv_len[ply] = ply;
        if self.enter() {
            return 0;
        }
        if let Some(v) = self.settled(pos, ply) {
            return v;
        }
        if depth <= 0 && !self.tutorial && self.tables.options.quiescence {
            return self.quiesce(pos, ply, alpha, beta);
        }
        if depth <= 0 || ply >= MAX_PLY - 1 {
            return if self.tutorial {
                pos.tutorial_eval()
            } else {
                pos.evaluate(&self.tables.weights, &self.tables.odds)
            };
        }
        let pv_node = beta - alpha > 1;
        let opts = self.tables.options;
        let key = Game::hash(pos);
        let mut tt_hit = None;
        // Frontier nodes (depth 1) skip the table: their children are leaves,
        // and the cache miss of a probe costs more than it saves there.
        let use_table = !self.tutorial && depth > 1;
        if !self.tutorial {
            // No line from here can beat a win next move or lose faster than now.
            alpha = alpha.max(-(Eval::MATE - ply as i32));
            beta = beta.min(Eval::MATE - ply as i32 - 1);
            if alpha >= beta {
                return alpha;
            }
            if !use_table {
            } else if let Some(h) = self.tables.tt.probe(key, ply) {
                tt_hit = Some(h);
                if !pv_node && h.depth >= depth {
                    let cut = match h.bound {
                        Bound::Exact => true,
                        Bound::Lower => h.score >= beta,
                        Bound::Upper => h.score <= alpha,
                    };
                    if cut {
                        return h.score;
                    }
                }
            }
        }

        let tt_move = tt_hit.and_then(|h| h.mv);
        // Internal iterative reduction: a node the table knows no move for
        // is new to the search and poorly ordered. Searched a ply shallower
        // it costs far less, and the next iteration finds its move in the
        // table (+22 ± 10 Elo at fixed nodes). Classic, searched whole,
        // reduces nothing.
        let depth = if opts.iir
            && G::REDUCE_LATE_MOVES
            && use_table
            && tt_move.is_none()
            && depth >= IIR_DEPTH
        {
            depth - 1
        } else {
            depth
        };
        let moves = pos.legal_moves();
        let n = moves.len();
        let side = pos.side_to_move().index();
        let killers = self.tables.killers[ply];
        let history = &self.tables.history[side];
        for (slot, &m) in self.tables.order[ply].iter_mut().zip(moves.iter()) {
            let i = G::move_index(m);
            let rank = if Some(i) == tt_move {
                TT_RANK
            } else if i == killers[0] {
                KILLER_RANKS[0]
            } else if i == killers[1] {
                KILLER_RANKS[1]
            } else if opts.free_moves_last && !pos.frees_opponent(i) {
                // A move that lets the opponent play anywhere is rarely the
                // best, whatever its history (+29 ± 10 Elo at fixed nodes).
                history[usize::from(i)] + HISTORY_MAX
            } else {
                history[usize::from(i)]
            };
            *slot = order_key(rank, i);
        }

        // The table's move is always searched first; one ply deeper when it
        // is the only good move here.
        let extend_first = match tt_hit {
            Some(h) if opts.singular && depth >= SINGULAR_DEPTH => {
                self.is_singular(pos, &moves, h, depth, ply)
            }
            _ => false,
        };
        if self.aborted {
            return 0;
        }
        let original_alpha = alpha;
        let mut best = -INF;
        let mut best_move = None;
        // Late move pruning: near the horizon, in a node not on the
        // principal variation, the quiet moves ordered after the first few
        // are almost never the best, so they are skipped. Moves that win a
        // small board are always searched, and so is everything while every
        // move so far loses by force (a pruned move might save the game).
        let prune_late =
            G::PRUNE_LATE_MOVES && !pv_node && !self.tutorial && depth <= PRUNING_DEPTH && opts.lmp;
        let first_pruned = (PRUNING_BASE + depth * depth) as usize;
        let mut tactical = None;
        for k in 0..n {
            // Selection sort: a cutoff usually comes early, so sorting the
            // whole list would be wasted work. Ties go to the earlier entry.
            let order = &mut self.tables.order[ply][..n];
            let mut top = k;
            for j in k + 1..n {
                if order[j] >> INDEX_BITS > order[top] >> INDEX_BITS {
                    top = j;
                }
            }
            order.swap(k, top);
            let i = (order[k] & ((1 << INDEX_BITS) - 1)) as u8;
            if prune_late && k >= first_pruned && best > -(Eval::MATE - MAX_PLY as i32) {
                let wins_a_board = tactical.get_or_insert_with(|| pos.tactical_moves());
                if !wins_a_board.iter().any(|&m| G::move_index(m) == i) {
                    continue;
                }
            }
            let mut child = *pos;
            child.play_unchecked(G::move_from_index(i));
            let v = if k == 0 {
                let extension = i32::from(extend_first);
                -self.negamax(&child, depth - 1 + extension, ply + 1, -beta, -alpha)
            } else {
                // Late moves are searched shallower first (LMR) and only
                // re-searched at full depth when they beat alpha.
                let reduction = if opts.lmr
                    && G::REDUCE_LATE_MOVES
                    && !self.tutorial
                    && depth >= 3
                    && k >= FIRST_REDUCED
                {
                    late_move_reduction(depth, k)
                } else {
                    0
                };
                let mut v =
                    -self.negamax(&child, depth - 1 - reduction, ply + 1, -alpha - 1, -alpha);
                if v > alpha && reduction > 0 && !self.aborted {
                    v = -self.negamax(&child, depth - 1, ply + 1, -alpha - 1, -alpha);
                }
                if v > alpha && v < beta && !self.aborted {
                    -self.negamax(&child, depth - 1, ply + 1, -beta, -alpha)
                } else {
                    v
                }
            };
            if self.aborted {
                return 0;
            }
            if v > best {
                best = v;
                if v > alpha {
                    alpha = v;
                    best_move = Some(i);
                    self.update_pv(ply, i);
                    if v >= beta {
                        if Some(i) != tt_move {
                            let ks = &mut self.tables.killers[ply];
                            if ks[0] != i {
                                ks[1] = ks[0];
                                ks[0] = i;
                            }
                        }
                        let h = &mut self.tables.history[side][usize::from(i)];
                        let d = depth.unsigned_abs();
                        *h = (*h + d * d).min(HISTORY_MAX);
                        break;
                    }
                }
            }
        }
        if use_table {
            let bound = if best >= beta {
                Bound::Lower
            } else if best > original_alpha {
                Bound::Exact
            } else {
                Bound::Upper
            };
            self.tables
                .tt
                .store(key, ply, depth, bound, best, best_move);
        }
        best
    }
}

#[cfg(test)]
mod tests {
    use super::sort_best_first;

    #[test]
    fn root_moves_sort_best_first_and_keep_ties_in_order() {
        let scores = [3, -1, 7, 3, 0, 7, -5, 3];
        let mut root: alloc::vec::Vec<(usize, i32)> = scores.iter().copied().enumerate().collect();
        let mut expected = root.clone();
        expected.sort_by_key(|&(_, v)| -v);
        sort_best_first(&mut root);
        assert_eq!(root, expected);
    }
}
