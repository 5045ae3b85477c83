//! The rules of Ultimate and Classic tic-tac-toe, their notation and history,
//! and the search that plays them.
//!
//! This crate is the single source of truth for every rule: the web page, the
//! Web Worker, the terminal client and the engine protocol all ask it, and none
//! of them re-implements a rule. It is `#![no_std]` with `alloc`, has no clock,
//! no randomness source and no I/O; callers supply those when they need them.
//!
//! The two game types, [`Ultimate`] and [`Classic`], implement one small trait,
//! [`Game`], so the search and perft are written once for both.
//!
//! ```
//! use uttt_core::{Game, Move, Rules, Ultimate};
//!
//! let pos = Ultimate::new(Rules::Standard);
//! let pos = pos.play(Move::new(4, 0)).unwrap(); // centre board, top-left cell
//! // O is sent to the top-left board.
//! assert_eq!(pos.required_board(), Some(0));
//! assert!(pos.clone().play(Move::new(4, 1)).is_err());
//! ```

#![no_std]
#![forbid(unsafe_code)]
#![warn(missing_docs)]

extern crate alloc;
#[cfg(feature = "std")]
extern crate std;

mod any;
mod bulk;
mod classic;
mod error;
mod game;
pub mod history;
pub mod lines;
mod movelist;
pub mod notation;
mod packed;
pub mod perft;
mod player;
pub mod record;
pub mod search;
pub mod tree;
mod ultimate;
mod zobrist;

pub use any::{AnyGame, AnyKind, Visit};
pub use classic::{Classic, ClassicMove};
pub use error::{IllegalMove, PlayError};
pub use game::{Game, GameKind};
pub use history::History;
pub use movelist::MoveList;
pub use player::{BoardStatus, Outcome, Player, Rules};
pub use ultimate::{Move, Ultimate};
