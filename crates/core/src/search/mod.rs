//! The AI: iterative-deepening alpha-beta with a ladder of five levels,
//! written once for both games.
//!
//! # Use
//!
//! ```
//! use uttt_core::search::{Engine, Level, Eval};
//! use uttt_core::{Game, Rules, Ultimate};
//!
//! // One engine per game: level, seed (all its random choices), table bytes.
//! let mut engine = Engine::new(Level::Medium, 7, Level::Medium.table_bytes());
//! let pos = Ultimate::new(Rules::Standard);
//! let result = engine
//!     .choose(
//!         &pos,
//!         || false, // "stop now?": answer from your clock (Level::budget_ms)
//!         |p| {
//!             // after each completed depth: p.depth, p.score, p.pv, p.nodes
//!             assert!(!p.pv.is_empty());
//!         },
//!     )
//!     .expect("None only when the game is over");
//! assert!(pos.check(result.best).is_ok());
//! let _: Eval = result.score; // for the side to move; .mate_in() for "win in N"
//! ```
//!
//! * [`Engine::choose`] works for any [`Searchable`] game: [`crate::Ultimate`]
//!   and [`crate::Classic`]. It returns `None` only when the game is over,
//!   and otherwise a legal move even when `stop` answers yes at once (depth 1
//!   always completes; it is a few dozen nodes).
//! * The core has no clock: `stop` is polled every [`POLL_INTERVAL`] nodes
//!   and the caller answers from its own clock (`performance.now()` in the
//!   worker, `std::time::Instant` in the CLI). Hard limits go in [`Limits`]
//!   (`max_depth`, `max_nodes`) via [`Engine::set_limits`].
//! * A position with a single legal move is searched to
//!   [`FORCED_MOVE_DEPTH`] only (a few milliseconds), for its score: the
//!   move is played at once rather than after the level's whole budget.
//! * [`Progress`] comes after each completed depth: depth, score, principal
//!   variation, nodes. Nodes per second is nodes over the caller's elapsed time.
//! * [`Eval`] is for the side to move, about 100 per small board; proven
//!   results are `Eval::win_in(n)` / `Eval::loss_in(n)` (n plies), shown as
//!   "win in n"; [`Eval::for_player`] turns it to X's view for a bar.
//! * Deterministic: the same seed, position and limits give the same move
//!   (a clock-driven `stop` of course makes Hard/Master depend on timing).
//!
//! # Levels
//!
//! | Level | What it does | Budget | Table |
//! |---|---|---|---|
//! | Beginner | rule player: Classic win, block, centre, corner, any; Ultimate win a small board, block one, else random | - | - |
//! | Easy | depth-3 minimax with the tutorial evaluation (win ±100, ±10 per board in a line held by one side), random among equal best | - | 64 KiB |
//! | Medium | the real search at depth 4, random among root moves within 15 units (0.15 as displayed) of the best; in Classic it never loses (see below) | - | 1 MiB |
//! | Hard | the full search, 1 s | 1000 ms | 16 MiB |
//! | Master | the full search, 3 s (caller may change) | 3000 ms | 64 MiB |
//!
//! # The search
//!
//! Negamax alpha-beta with iterative deepening, a two-slot-bucket
//! transposition table sized by the caller, move ordering by table move,
//! two killers per ply and a history table, principal variation search,
//! mate-distance pruning and exact "win in N" scores (fastest win, slowest
//! loss). The Ultimate evaluation ([`Weights`]) counts won boards and their
//! place (centre, corners), open meta lines with one or two of a side's
//! boards, meta threats whose missing board can be won at once, small-board
//! threats weighted by how many live meta lines pass through the board,
//! centre/corner cells, and for the side to move the value of the board it
//! was sent to (free move, a board it can win at once). On top of these,
//! every meta line scores the chance that a side wins all three of its
//! boards: each small board's odds come from a table over all 3^9 fillings
//! (the chance of winning it if the remaining moves there fell to either side
//! at random), and a line's odds are the product of its boards'. Weights
//! were tuned by self-play matches (SPSA, `uttt tune`; see
//! [`Weights::DEFAULT`]). Late move reductions (Ultimate only; from the
//! third move, depth 3 and up) grow with the logarithm of the depth and of
//! the move's place, so deep nodes cut their late moves by three or four
//! plies. The table's move is extended by a ply when it is singular: every
//! other move, searched at half depth, fails well below its stored score
//! (from depth 8). Late move pruning (Ultimate only): in a node at most 3
//! plies from the horizon and off the principal variation, only the first
//! 2 + depth² moves are searched, then only the moves that win a small
//! board. Aspiration windows (from depth 5) are on. Past the horizon a
//! quiescence search follows the moves that win a small board (the side to
//! move may also stand on the static evaluation). Under the standard rules
//! a position where every meta line is blocked for both sides is scored a
//! draw at once. [`SearchOptions`] turns each of these off for
//! measurements; what each is worth is in `docs/engine.md`. In Classic a
//! position where the side to move cannot win at once and faces two
//! threats is scored lost in 2 at once ([`Searchable::faces_a_fork`]), and
//! no move is reduced: since every Classic mistake loses within six plies,
//! Medium's four plies then see every trap, and it holds every draw and
//! wins every won game. Frontier nodes skip the table (cheaper than the
//! cache miss). If a search is stopped in the middle of a depth, a root
//! move that has already been proven better than the previous best at that
//! depth is played.

mod alphabeta;
pub mod bench;
mod board_odds;
mod classic_eval;
mod classic_exact;
mod engine;
mod eval;
mod level;
pub mod puzzle;
mod reductions;
pub mod review;
mod rng;
mod searchable;
mod survey;
mod tables;
mod tt;
mod ultimate_eval;
mod weights;
mod win_chance;

pub use alphabeta::POLL_INTERVAL;
pub use board_odds::BoardOdds;
pub use classic_exact::{ClassicValues, Trap};
pub use engine::{Engine, Limits, Progress, SearchResult, TableTooLarge, FORCED_MOVE_DEPTH};
pub use eval::{Eval, MAX_PLY};
pub use level::Level;
pub use rng::Rng;
pub use searchable::Searchable;
pub use survey::{MoveWorth, Survey, Surveyor, SURVEY_MARGIN};
pub use tables::SearchOptions;
pub use weights::{Weights, WEIGHT_COUNT, WEIGHT_NAMES, WEIGHT_UNITS, W_TB_COUNT};
pub use win_chance::{WinChance, WinModel};

#[cfg(test)]
mod tests;
