//! The narrow WebAssembly API the page and its Web Worker use, built as
//! two modules so each loads only what it runs:
//!
//! - `page` feature, the page's module: [`WebGame`], a game of either type
//!   with undo, redo, jumps and its tree of lines; [`WebGame::view`]
//!   returns a [`View`], a snapshot of everything the page draws, so the
//!   page never decides a rule. No search.
//! - `worker` feature, the worker's module: [`worker`], the AI worker's
//!   message loop around [`WebEngine`], which searches a position given as
//!   text, and the review and the survey. No view and no tree.
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
#[cfg(feature = "worker")]
pub mod engine;
pub mod error;
#[cfg(feature = "page")]
pub mod game;
pub mod levels;
#[cfg(feature = "page")]
pub mod lines;
pub mod meta;
#[cfg(feature = "worker")]
pub mod review;
#[cfg(feature = "worker")]
pub mod survey;
#[cfg(feature = "page")]
pub mod view;
#[cfg(feature = "worker")]
pub mod worker;

#[cfg(feature = "worker")]
pub use engine::{SearchReply, WebEngine};
pub use error::ApiError;
#[cfg(feature = "page")]
pub use game::WebGame;
#[cfg(feature = "page")]
pub use view::View;
#[cfg(feature = "worker")]
pub use worker::{Reply, Request};
