//! The server's tests against a real `uttt-server` process, in one test
//! binary: each module a part of the server, all sharing `support`. One
//! binary builds and links once and runs every test in one pool of
//! threads, where a binary per file each built `support` and ran one
//! after another.

mod support;

mod history;
mod http;
mod lobby;
mod online;
mod places;
mod players;
mod signin;
// Its store stalls only through the fail points.
#[cfg(feature = "failpoints")]
mod stalled_store;
mod stop;
mod store_file;
