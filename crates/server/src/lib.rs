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
pub mod app;
pub mod clock;
pub mod config;
pub mod game;
pub mod http;
pub mod hub;
pub mod listen;
pub mod network;
pub mod qr;
pub mod room;
pub mod site;
pub mod store;
pub mod ws;

use std::sync::Arc;

pub use config::Config;

/// Binds, opens the store and brings back its unfinished games, prints
/// the address it serves (`uttt-server: serving http://ADDR/PREFIX`, the
/// line scripts wait for) and serves until the process is stopped.
///
/// # Errors
/// When the address cannot be bound or the store cannot be opened.
pub async fn run(config: Config) -> Result<(), String> {
    let listener = tokio::net::TcpListener::bind(config.addr)
        .await
        .map_err(|e| format!("cannot listen on {}: {e}", config.addr))?;
    let addr = listener
        .local_addr()
        .map_err(|e| format!("cannot read the address: {e}"))?;
    let store = store::Store::open(&config.db)?;
    let app = Arc::new(app::App::new(&config, store));
    let restored = app.hub.restore_unfinished().await?;
    if restored > 0 {
        println!(
            "uttt-server: {restored} unfinished games are back from {}",
            config.db.display()
        );
    }
    let app = http::router(app);
    println!("uttt-server: serving http://{addr}{}", config.prefix);
    listen::serve(listener, app, &config).await;
    Ok(())
}
