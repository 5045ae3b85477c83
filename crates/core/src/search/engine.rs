//! The engine object: a level's preset, its table and heuristics, and the
//! iterative-deepening driver that the page, the worker and the CLI call.

use alloc::vec::Vec;

use super::eval::{Eval, MAX_PLY};
use super::level::Level;
use super::rng::Rng;
use super::searchable::Searchable;
use super::tables::{SearchOptions, Tables};
use super::tt::Table;
use super::weights::Weights;
use crate::Game;

/// Hard limits on one search, on top of the caller's `stop` callback.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Limits {
    /// The deepest iteration, in plies (at least 1 is always searched).
    pub max_depth: u32,
    /// Stop once about this many nodes have been searched (checked every
    /// [`POLL_INTERVAL`] nodes; depth 1 always completes).
    pub max_nodes: u64,
}

impl Limits {
    /// No limit but the game's length: the caller's clock decides.
    pub const NONE: Limits = Limits {
        max_depth: MAX_PLY as u32 - 2,
        max_nodes: u64::MAX,
    };

    /// The preset of a level (Easy: depth 3; Medium: a shallow depth).
    #[must_use]
    pub const fn for_level(level: Level) -> Limits {
        match level {
            Level::Beginner => Limits {
                max_depth: 1,
                max_nodes: u64::MAX,
            },
            Level::Easy => Limits {
                max_depth: 3,
                max_nodes: u64::MAX,
            },
            Level::Medium => Limits {
                max_depth: MEDIUM_DEPTH,
                max_nodes: u64::MAX,
            },
            Level::Hard | Level::Master => Limits::NONE,
        }
    }
}

/// Medium's depth.
const MEDIUM_DEPTH: u32 = 4;
/// Medium picks at random among root moves scoring within this of the best.
const MEDIUM_MARGIN: i32 = 15;

/// The depth at which the search of a position with a single legal move
/// ends (a few milliseconds).
pub const FORCED_MOVE_DEPTH: u32 = 8;

/// The transposition table asked of [`Engine::try_new`] could not be
/// allocated.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TableTooLarge {
    /// The size asked for, in bytes.
    pub bytes: usize,
}

impl core::fmt::Display for TableTooLarge {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        write!(
            f,
            "a table of {} MiB does not fit in the memory this machine can give",
            self.bytes >> 20
        )
    }
}

/// What the search reports after each completed depth.
#[derive(Clone, Copy, Debug)]
pub struct Progress<'a, M> {
    /// The depth just completed, in plies.
    pub depth: u32,
    /// The score for the side to move at the root.
    pub score: Eval,
    /// The principal variation, starting with the best move.
    pub pv: &'a [M],
    /// Nodes searched so far in this search (the caller divides by its own
    /// clock for nodes per second).
    pub nodes: u64,
}

/// The engine's answer.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SearchResult<M> {
    /// The move to play; always legal in the searched position.
    pub best: M,
    /// Its score for the side to move (0 for Beginner, which does not search).
    pub score: Eval,
    /// The last completed depth (0 for Beginner).
    pub depth: u32,
    /// Nodes searched.
    pub nodes: u64,
    /// The principal variation of the last completed depth, from `best`.
    pub pv: Vec<M>,
}

/// One root move searched by [`Engine::search_root_move`].
pub(super) struct RootMove {
    /// Its score for the side to move at the root.
    pub score: i32,
    /// Nodes searched.
    pub nodes: u64,
    /// Its line (move indexes), from it.
    pub pv: Vec<u8>,
}

/// How leaves are scored and the root move chosen, by level.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Style {
    /// Beginner: no search.
    RulePlayer,
    /// Easy: plain minimax scores with the tutorials' evaluation, ties at random.
    Tutorial,
    /// Medium: the real evaluation, a random pick among near-best moves.
    Noisy,
    /// Hard and Master.
    Full,
}

/// A player at one level. Create one per game (or call [`Engine::new_game`])
/// and ask it for moves with [`Engine::choose`].
///
/// ```
/// use uttt_core::search::{Engine, Level};
/// use uttt_core::{Game, Rules, Ultimate};
///
/// let mut engine = Engine::new(Level::Hard, 42, 1 << 20);
/// let pos = Ultimate::new(Rules::Standard);
/// let mut polls = 0;
/// let result = engine
///     .choose(&pos, || { polls += 1; polls > 20 }, |p| assert!(p.depth > 0))
///     .expect("the game is not over");
/// assert!(pos.check(result.best).is_ok());
/// ```
pub struct Engine {
    level: Level,
    limits: Limits,
    rng: Rng,
    /// What the search reads and learns, kept from one search to the next.
    tables: Tables,
    /// Where the last full search stopped, for [`Engine::resume`].
    last: Option<Stopped>,
}

/// What a full search (Hard, Master) knew when it stopped: enough to carry
/// on with the next depth, the partly searched one's subtrees being in the
/// table.
#[derive(Clone, Debug)]
struct Stopped {
    /// The searched position's hash.
    key: u64,
    /// Its last completed depth.
    depth: u32,
    /// The score and move indexes of the principal variation found then.
    score: Eval,
    pv: Vec<u8>,
    /// The root moves (indexes) in the order the next depth searches them,
    /// with their last scores.
    root: Vec<(u8, i32)>,
    /// Nodes searched in that position so far.
    nodes: u64,
    /// True when deeper search cannot change the result (proven, forced,
    /// or every line reaches the end of the game).
    finished: bool,
}

impl Engine {
    /// An engine at `level`, its random choices drawn from `seed`, with a
    /// transposition table of about `table_bytes` bytes (see
    /// [`Level::table_bytes`] for the presets).
    #[must_use]
    pub fn new(level: Level, seed: u64, table_bytes: usize) -> Engine {
        Engine::with_table(level, seed, Table::new(table_bytes))
    }

    /// [`Engine::new`], or an error when the table's memory cannot be had
    /// (where `new` would abort the program).
    ///
    /// # Errors
    /// [`TableTooLarge`] with the size asked for.
    pub fn try_new(level: Level, seed: u64, table_bytes: usize) -> Result<Engine, TableTooLarge> {
        let table =
            Table::try_new(table_bytes).map_err(|_| TableTooLarge { bytes: table_bytes })?;
        Ok(Engine::with_table(level, seed, table))
    }

    fn with_table(level: Level, seed: u64, tt: Table) -> Engine {
        Engine {
            level,
            limits: Limits::for_level(level),
            rng: Rng::new(seed),
            tables: Tables::new(tt),
            last: None,
        }
    }

    /// An engine at `level` with that level's table size.
    #[must_use]
    pub fn for_level(level: Level, seed: u64) -> Engine {
        Engine::new(level, seed, level.table_bytes())
    }

    /// The level this engine plays at.
    #[must_use]
    pub fn level(&self) -> Level {
        self.level
    }

    /// The limits in force (the level's preset unless replaced).
    #[must_use]
    pub fn limits(&self) -> Limits {
        self.limits
    }

    /// Replaces the limits (e.g. a fixed depth for `bench`, a node budget
    /// for reproducible matches). Easy ignores a deeper `max_depth`: it is
    /// depth 3 by definition.
    pub fn set_limits(&mut self, limits: Limits) {
        self.limits = limits;
    }

    /// The evaluation weights in use.
    #[must_use]
    pub fn weights(&self) -> Weights {
        self.tables.weights
    }

    /// Replaces the evaluation weights (the tuner's hook).
    pub fn set_weights(&mut self, weights: Weights) {
        self.tables.weights = weights;
    }

    /// Turns parts of the search on or off (for measurements).
    pub fn set_options(&mut self, options: SearchOptions) {
        self.tables.options = options;
    }

    /// Forgets what earlier searches learnt (table, history): call between
    /// unrelated games. The random stream goes on.
    pub fn new_game(&mut self) {
        self.tables.tt.clear();
        self.tables.history = [[0; 81]; 2];
        self.last = None;
    }

    fn style(&self) -> Style {
        match self.level {
            Level::Beginner => Style::RulePlayer,
            Level::Easy => Style::Tutorial,
            Level::Medium => Style::Noisy,
            Level::Hard | Level::Master => Style::Full,
        }
    }

    /// Chooses a move for the side to move in `pos`; `None` only when the
    /// game is over.
    ///
    /// `stop` is asked every [`POLL_INTERVAL`] nodes whether to stop now
    /// (answer from your clock; `|| false` to rely on [`Limits`] alone).
    /// `progress` is called after each completed depth. The first depth
    /// always completes (a few dozen nodes), so even a search stopped at once
    /// returns a sensible legal move; otherwise the best move of the last
    /// completed depth is returned.
    pub fn choose<G, S, P>(
        &mut self,
        pos: &G,
        mut stop: S,
        mut progress: P,
    ) -> Option<SearchResult<G::Move>>
    where
        G: Searchable,
        S: FnMut() -> bool,
        P: FnMut(&Progress<'_, G::Move>),
    {
        if pos.is_over() {
            return None;
        }
        match self.style() {
            Style::RulePlayer => {
                let best = pos.rule_player_move(&mut self.rng)?;
                Some(SearchResult {
                    best,
                    score: Eval::DRAW,
                    depth: 0,
                    nodes: 0,
                    pv: alloc::vec![best],
                })
            }
            Style::Tutorial => {
                let limits = Limits {
                    max_depth: 3,
                    ..self.limits
                };
                self.run(pos, limits, &mut stop, &mut progress, true, Some(0))
            }
            Style::Noisy => {
                let limits = self.limits;
                self.run(
                    pos,
                    limits,
                    &mut stop,
                    &mut progress,
                    false,
                    Some(MEDIUM_MARGIN),
                )
            }
            Style::Full => {
                let limits = self.limits;
                self.run(pos, limits, &mut stop, &mut progress, false, None)
            }
        }
    }

    /// [`Engine::choose`], but when the last search of Hard or Master was
    /// of this same position (a search stopped by its clock, or the
    /// opponent's expected move searched while the opponent thought), it
    /// carries on from the next depth instead of starting again: the depths
    /// already done are not repeated, and the part of the next one already
    /// searched is found in the table. `progress` then starts at that next
    /// depth. A search that ended because deeper could not change it
    /// returns its result at once. Other levels and other positions search
    /// from the start, as `choose` does.
    ///
    /// This makes a search in short slices (the browser's worker, which
    /// returns to its event loop between them) cost little more than one
    /// search of the whole time.
    pub fn resume<G, S, P>(
        &mut self,
        pos: &G,
        mut stop: S,
        mut progress: P,
    ) -> Option<SearchResult<G::Move>>
    where
        G: Searchable,
        S: FnMut() -> bool,
        P: FnMut(&Progress<'_, G::Move>),
    {
        if self.style() != Style::Full || pos.is_over() {
            return self.choose(pos, stop, progress);
        }
        let key = Game::hash(pos);
        let Some(last) = self.last.take().filter(|l| l.key == key) else {
            return self.choose(pos, stop, progress);
        };
        let legal = pos.legal_moves();
        let root: Vec<(G::Move, i32)> = last
            .root
            .iter()
            .map(|&(i, v)| (G::move_from_index(i), v))
            .collect();
        // A hash collision would show as a root list that is not this
        // position's: then search afresh.
        if root.len() != legal.len() || root.iter().any(|&(m, _)| pos.check(m).is_err()) {
            return self.choose(pos, stop, progress);
        }
        let best = last
            .pv
            .first()
            .map_or(root[0].0, |&i| G::move_from_index(i));
        let so_far = SearchResult {
            best,
            score: last.score,
            depth: last.depth,
            nodes: last.nodes,
            pv: last.pv.iter().map(|&i| G::move_from_index(i)).collect(),
        };
        if last.finished {
            self.last = Some(last);
            return Some(so_far);
        }
        let limits = self.limits;
        self.deepen(
            pos,
            limits,
            &mut stop,
            &mut progress,
            false,
            None,
            root,
            Some(so_far),
        )
    }

    /// True when the engine's last search (Hard, Master) was of `pos` and
    /// ended because deeper search cannot change its result: proven,
    /// forced, at the depth limit, or every line at the end of the game.
    /// A caller searching in slices stops slicing then, since
    /// [`Engine::resume`] would only answer the same again.
    #[must_use]
    pub fn is_settled<G: Searchable>(&self, pos: &G) -> bool {
        self.last
            .as_ref()
            .is_some_and(|l| l.finished && l.key == Game::hash(pos))
    }

    /// Chooses a move within the engine's [`Limits`] only, without progress.
    pub fn choose_within_limits<G: Searchable>(
        &mut self,
        pos: &G,
    ) -> Option<SearchResult<G::Move>> {
        self.choose(pos, || false, |_| {})
    }

    /// Readies the tables for a new search: the table's entries age, the
    /// killers go and the history fades.
    pub(super) fn prepare(&mut self) {
        self.tables.tt.next_age();
        self.tables.killers = [[u8::MAX; 2]; MAX_PLY];
        for side in &mut self.tables.history {
            for h in side.iter_mut() {
                *h /= 8;
            }
        }
    }

    /// Searches the root move `mv` of `pos` to `depth` plies with the root
    /// window (`alpha`, ∞): the score is exact above `alpha` and an upper
    /// bound at or below it. `None` when `stop` said yes first (asked only
    /// when `polling`) or the node limit was passed.
    pub(super) fn search_root_move<G: Searchable>(
        &mut self,
        pos: &G,
        mv: G::Move,
        depth: i32,
        alpha: i32,
        stop: &mut dyn FnMut() -> bool,
        polling: bool,
    ) -> Option<RootMove> {
        let max_nodes = self.limits.max_nodes;
        let mut s = super::alphabeta::Searcher {
            tables: &mut self.tables,
            stop,
            nodes: 0,
            max_nodes,
            aborted: false,
            improved: None,
            polling,
            tutorial: false,
        };
        let mut child = *pos;
        child.play_unchecked(mv);
        let score = -s.negamax(&child, depth - 1, 1, -Eval::INFINITE, -alpha);
        if s.aborted {
            return None;
        }
        let nodes = s.nodes;
        let e = &*s.tables;
        let mut pv = alloc::vec![G::move_index(mv)];
        pv.extend_from_slice(&e.pv[1][1..e.pv_len[1].max(1)]);
        Some(RootMove { score, nodes, pv })
    }

    /// Iterative deepening. `margin`: pick at random among root moves within
    /// this of the best (every root move then gets an exact score).
    ///
    /// `stop` and `progress` come as trait objects, so the search is made
    /// once per game type whatever its callers' closures (each closure type
    /// would copy the whole search into the wasm: 10 KB gzip for a second
    /// caller); they are called once per [`POLL_INTERVAL`] nodes and once
    /// per depth, where an indirect call costs nothing measurable.
    fn run<G: Searchable>(
        &mut self,
        pos: &G,
        limits: Limits,
        stop: &mut dyn FnMut() -> bool,
        progress: &mut dyn FnMut(&Progress<'_, G::Move>),
        tutorial: bool,
        margin: Option<i32>,
    ) -> Option<SearchResult<G::Move>> {
        let root: Vec<(G::Move, i32)> = pos.legal_moves().iter().map(|&m| (m, 0)).collect();
        if root.is_empty() {
            return None;
        }
        self.prepare();
        self.deepen(pos, limits, stop, progress, tutorial, margin, root, None)
    }

    /// The iterations of [`Engine::run`], from the depth after `so_far`'s
    /// (from 1 when there is none), over the `root` moves in that order.
    #[allow(clippy::too_many_arguments)]
    fn deepen<G: Searchable>(
        &mut self,
        pos: &G,
        limits: Limits,
        stop: &mut dyn FnMut() -> bool,
        progress: &mut dyn FnMut(&Progress<'_, G::Move>),
        tutorial: bool,
        margin: Option<i32>,
        mut root: Vec<(G::Move, i32)>,
        so_far: Option<SearchResult<G::Move>>,
    ) -> Option<SearchResult<G::Move>> {
        let first_depth = so_far.as_ref().map_or(1, |r| r.depth + 1);
        let nodes_before = so_far.as_ref().map_or(0, |r| r.nodes);
        let mut finished = false;
        let mut s = super::alphabeta::Searcher {
            tables: &mut self.tables,
            stop,
            nodes: 0,
            max_nodes: limits.max_nodes,
            aborted: false,
            improved: None,
            polling: false,
            tutorial,
        };
        // Start from the table's move, if a previous search left one.
        if let Some(h) = s.tables.tt.probe(Game::hash(pos), 0) {
            if let Some(i) = root
                .iter()
                .position(|&(m, _)| h.mv == Some(G::move_index(m)))
            {
                root[..=i].rotate_right(1);
            }
        }
        let mut result = so_far;
        let max_depth = limits.max_depth.clamp(1, MAX_PLY as u32 - 2);
        if first_depth > max_depth {
            finished = true;
        }
        for depth in first_depth..=max_depth {
            s.polling = depth > 1;
            s.improved = None;
            let (best, score) = match margin {
                None => {
                    let previous = result.as_ref().map(|r| r.score).filter(|e| !e.is_mate());
                    s.aspiration(pos, &mut root, depth as i32, previous.map(|e| e.0))
                }
                Some(_) => s.root_exact(pos, &mut root, depth as i32),
            };
            if s.aborted {
                // A root move that beat the first one at this depth, with its
                // search finished, is better than the last depth's choice.
                if let (Some((i, v)), Some(r)) = (s.improved, result.as_mut()) {
                    let m = G::move_from_index(i);
                    if m != r.best && margin.is_none() && pos.check(m).is_ok() {
                        r.best = m;
                        r.score = Eval(v);
                        r.pv = s.tables.pv[0][..s.tables.pv_len[0]]
                            .iter()
                            .map(|&i| G::move_from_index(i))
                            .collect();
                    }
                }
                break;
            }
            let pv: Vec<G::Move> = s.tables.pv[0][..s.tables.pv_len[0]]
                .iter()
                .map(|&i| G::move_from_index(i))
                .collect();
            let score = Eval(score);
            progress(&Progress {
                depth,
                score,
                pv: &pv,
                nodes: nodes_before + s.nodes,
            });
            result = Some(SearchResult {
                best,
                score,
                depth,
                nodes: nodes_before + s.nodes,
                pv,
            });
            finished = depth == max_depth;
            // Three plies of depth for every ply the game can still last: only
            // late moves reduced by more than two plies a ply stop short of
            // the end, so deeper search would change nothing in practice.
            if depth as usize >= 3 * G::MAX_PLIES.saturating_sub(pos.ply()) {
                finished = true;
                break;
            }
            // A proven result within the searched depth cannot improve.
            if score.mate_in().is_some_and(|n| n.unsigned_abs() <= depth) && !tutorial {
                finished = true;
                break;
            }
            // The only legal move is played whatever a deeper search finds:
            // it gets a score for the bar and is played at once, not after
            // the whole of the level's time.
            if root.len() == 1 && depth >= FORCED_MOVE_DEPTH {
                finished = true;
                break;
            }
        }
        let nodes = nodes_before + s.nodes;
        let mut result = result?;
        result.nodes = nodes;
        if margin.is_none() && !tutorial {
            self.last = Some(Stopped {
                key: Game::hash(pos),
                depth: result.depth,
                score: result.score,
                pv: result.pv.iter().map(|&m| G::move_index(m)).collect(),
                root: root.iter().map(|&(m, v)| (G::move_index(m), v)).collect(),
                nodes,
                finished,
            });
        }
        if let Some(margin) = margin {
            // Root moves carry exact scores from the last completed depth.
            let best = root.iter().map(|&(_, v)| v).max().unwrap_or(0);
            let floor = if Eval(best).is_mate() {
                best
            } else {
                best - margin
            };
            let near: Vec<G::Move> = root
                .iter()
                .filter(|&&(_, v)| v >= floor)
                .map(|&(m, _)| m)
                .collect();
            if !near.is_empty() {
                let pick = near[self.rng.below(near.len())];
                if pick != result.best {
                    result.best = pick;
                    result.pv = alloc::vec![pick];
                    result.score = Eval(
                        root.iter()
                            .find(|&&(m, _)| m == pick)
                            .map_or(0, |&(_, v)| v),
                    );
                }
            }
        }
        Some(result)
    }
}
