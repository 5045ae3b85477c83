//! The server's tests against a real `uttt-server` process, in one test
//! binary: each module a part of the server, all sharing `support`, so
//! that `support` is built and the crates linked once, and every test runs
//! in one pool of threads.

mod support;

mod challenges;
mod chat;
// Days pass only through the failpoints build's clock.
#[cfg(feature = "failpoints")]
mod correspondence;
mod history;
mod http;
mod lobby;
mod online;
mod places;
mod players;
// Days pass only through the failpoints build's clock.
#[cfg(feature = "failpoints")]
mod push;
mod signin;
// Its store stalls only through the fail points.
#[cfg(feature = "failpoints")]
mod stalled_store;
mod stop;
mod store_file;
mod watch;
