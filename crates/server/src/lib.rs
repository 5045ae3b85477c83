//! The game server: the static site over HTTP and online games in rooms
//! over WebSocket (`/ws`, protocol in `uttt-protocol`). `main.rs` reads the command line and
//! calls [`run`].

#![forbid(unsafe_code)]
#![warn(missing_docs)]

// A panic in one room's task must be caught, not end the process for all:
// build with the workspace's `server` profile (`cargo xtask serve` does).
#[cfg(panic = "abort")]
compile_error!("uttt-server needs panic = \"unwind\": build it with `--profile server`");

pub mod allowance;
pub mod api;
pub mod app;
pub mod archive;
pub mod challenges;
pub mod chat;
pub mod clock;
pub mod conditional;
pub mod config;
pub mod dbfile;
pub mod game;
pub mod history;
pub mod hosts;
pub mod http;
pub mod hub;
pub mod listen;
pub mod lobby;
pub mod network;
pub mod pace;
pub mod players;
pub mod playing;
pub mod push;
pub mod qr;
pub mod rating;
pub mod room;
pub mod signin;
pub mod site;
pub mod stakes;
pub mod store;
pub mod vacation;
pub mod watch;
pub mod ws;

use std::future::Future;
use std::sync::Arc;
use std::time::Duration;

pub use config::Config;

/// How long a stop may take: closing the game connections, then the
/// store's last writes.
const STOP_WITHIN: Duration = Duration::from_secs(10);

/// How often the stored correspondence games are looked over for a side
/// out of its days (a minute late at most, in games of days a move).
const OVERDUE_EVERY: Duration = Duration::from_secs(60);

/// For as long as the server runs: ends on time the correspondence games
/// not in memory whose side to move has run out of days, and reminds
/// those whose days are running out.
async fn watch_overdue(hub: Arc<hub::Hub>) {
    let mut every = tokio::time::interval(OVERDUE_EVERY);
    loop {
        every.tick().await;
        hub.wake_overdue().await;
        hub.remind().await;
    }
}

/// Binds, opens the store and brings back its unfinished games, prints
/// the address it serves (`uttt-server: serving http://ADDR/PREFIX`, the
/// line scripts wait for) and serves until `stop` resolves (SIGTERM or
/// Ctrl-C): then it takes no new connection, closes every game connection
/// with 1012 (the pages come back on their own), lets the store finish the
/// writes in flight, says so and returns.
///
/// # Errors
/// When the address cannot be bound or the store cannot be opened.
pub async fn run(mut config: Config, stop: impl Future<Output = ()>) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the address: {e}"))?;
    // The port picked for port 0 is the one requests name.
    config.addr = addr;
    let store = store::Store::open(&config.db, config.new_db)?;
    // The push services are told whom to reach: the operator, or the site.
    let contact = config
        .push_contact
        .clone()
        .or_else(|| config.hosts.first().map(|host| format!("https://{host}/")));
    if contact.is_none() {
        eprintln!(
            "uttt-server: no --push-contact (nor --host): push services are given web-push's placeholder contact"
        );
    }
    let push = push::Push::start(store.clone(), contact, config.push_to_loopback).await?;
    let app = Arc::new(app::App::new(&config, store, push));
    let restored = app.hub.restore_unfinished().await?;
    if restored > 0 {
        println!(
            "uttt-server: {restored} unfinished games are back from {}",
            config.db.display()
        );
    }
    tokio::spawn(watch_overdue(Arc::clone(&app.hub)));
    let router = http::router(Arc::clone(&app));
    println!("uttt-server: serving http://{addr}{}", config.prefix);
    tokio::select! {
        () = listen::serve(listener, router, &config) => {}
        () = stop => {}
    }
    println!("uttt-server: stopping: no new connections; closing the game connections");
    match tokio::time::timeout(STOP_WITHIN, app.stop()).await {
        Ok(()) => {
            println!("uttt-server: stopped: every game connection closed, every change stored")
        }
        Err(_) => eprintln!(
            "uttt-server: stopped after {} s with game connections or writes still open",
            STOP_WITHIN.as_secs()
        ),
    }
    Ok(())
}
