//! The narrow WebAssembly API the page and its Web Worker use.
//!
//! - [`WebGame`] (main thread): a game of either type with undo, redo and
//!   jumps; [`WebGame::view`] returns a [`View`], a snapshot of everything
//!   the page draws, so the page never decides a rule.
//! - [`worker`]: the AI worker's message loop around [`WebEngine`], which
//!   searches a position given as text.
//! - With the `bench` feature only, [`bench`]: perft and the search
//!   benchmark for `cargo xtask bench`.
//!
//! Refused calls throw a JavaScript `Error` with a stable `code` and change
//! nothing; every argument is checked here, where anything may arrive.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod args;
#[cfg(feature = "bench")]
pub mod bench;
pub mod convert;
pub mod engine;
pub mod error;
pub mod game;
pub mod lines;
pub mod meta;
pub mod review;
pub mod survey;
pub mod view;
pub mod worker;

pub use engine::{SearchReply, WebEngine};
pub use error::ApiError;
pub use game::WebGame;
pub use view::View;
pub use worker::{Reply, Request};
