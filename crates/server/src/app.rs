//! What the handlers share (`http.rs` routes to them; `ws.rs` and the
//! others take it as their state): the site's settings, the rooms, the
//! origins allowed to open a game connection, each client's allowance and
//! the places for game connections.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use tokio::sync::{watch, Semaphore};

use crate::allowance::PerAddress;
use crate::config::Config;
use crate::hosts::Hosts;
use crate::hub::{Hub, RoomLimits};
use crate::lobby::Lobby;
use crate::players::Players;
use crate::store::Store;

/// New players one client may make at once, at least (see
/// `Config::signups_per_minute` for the rate after).
const SIGNUP_BURST: u32 = 10;

/// What the handlers share: the site and the rooms.
pub struct App {
    /// The static files.
    pub site: Site,
    /// The open rooms.
    pub hub: Arc<Hub>,
    /// Play now's pools.
    pub lobby: Lobby,
    /// The players and their sessions.
    pub players: Players,
    /// Origins besides this server's own whose pages may open a game
    /// connection.
    pub allowed_origins: Vec<String>,
    /// The host names the server answers to.
    pub hosts: Hosts,
    /// Frames each client may send, over all its connections.
    pub messages: PerAddress,
    /// Rooms each client may enter, over all its connections.
    pub joins: PerAddress,
    /// New players each client may make (see `api.rs`).
    pub signups: PerAddress,
    /// Requests to attach games each address may make (`history.rs`).
    pub attaches: PerAddress,
    /// Sign-ins' limits and passkey ceremonies (see `signin.rs`).
    pub sign_ins: crate::signin::SignIns,
    /// Places for game connections: fewer than all connections, so the
    /// site's pages and files are served while they are all taken.
    pub game_slots: Arc<Semaphore>,
    /// Places for game connections in no room yet: a connection gives its
    /// place back when it enters a room.
    pub waiting_slots: Arc<Semaphore>,
    /// How long a game connection may stay in no room.
    pub join_within: Duration,
    /// True once the server is stopping: every game connection closes.
    pub stopping: watch::Sender<bool>,
    /// The Watch page's last answer (`watch.rs`).
    pub watch: crate::watch::Cached,
    /// How many places `game_slots` has.
    game_connections: u32,
}

impl App {
    /// The application `config` describes, its rooms kept in `store`
    /// (`config.addr` is the address bound, its port never 0), its players
    /// told of their games through `push`. Starts the
    /// lobby's task: call within the runtime.
    #[must_use]
    pub fn new(config: &Config, store: Store, push: crate::push::Push) -> App {
        let limits = RoomLimits {
            max_rooms: config.max_rooms,
            rooms_per_address_per_minute: config.rooms_per_address_per_minute,
            grace_ms: config.grace_ms,
            idle_room: config.idle_room,
            unplayed_room: config.unplayed_room,
        };
        let hub = Arc::new(Hub::new(limits, store.clone(), push));
        App {
            site: Site::new(config),
            players: Players::new(store),
            lobby: Lobby::start(Arc::clone(&hub)),
            hub,
            allowed_origins: config.allowed_origins.clone(),
            hosts: Hosts::new(config.addr, &config.hosts),
            messages: PerAddress::new(config.messages_per_address),
            joins: PerAddress::new(config.joins_per_address),
            signups: PerAddress::per_minute(
                SIGNUP_BURST.max(config.signups_per_minute),
                config.signups_per_minute,
            ),
            attaches: PerAddress::per_minute(
                crate::history::ATTACH_BURST,
                crate::history::ATTACH_PER_MINUTE,
            ),
            sign_ins: crate::signin::SignIns::new(),
            game_slots: Arc::new(Semaphore::new(config.game_connections())),
            game_connections: u32::try_from(config.game_connections()).unwrap_or(u32::MAX),
            stopping: watch::channel(false).0,
            waiting_slots: Arc::new(Semaphore::new(config.max_waiting)),
            join_within: config.join_within,
            watch: crate::watch::Cached::default(),
        }
    }
}

impl App {
    /// Closes every game connection (each is told the server is
    /// restarting) and no new one is let in; returns once all are closed
    /// and the store has written every change made before.
    pub async fn stop(&self) {
        self.stopping.send_replace(true);
        // Each connection gives its place back as it ends.
        let _all = self.game_slots.acquire_many(self.game_connections).await;
        self.hub.close_store().await;
    }
}

/// The static site's settings.
#[derive(Debug)]
pub struct Site {
    /// The folder the files are served from.
    pub(crate) root: PathBuf,
    /// The path the site is served under (`/` or `/uttt/`).
    pub(crate) prefix: String,
    /// The only entries of `root` served, when given.
    pub(crate) entries: Option<Vec<String>>,
    /// Whether each request is logged.
    pub(crate) log: bool,
}

impl Site {
    /// The site as `config` describes it.
    #[must_use]
    pub fn new(config: &Config) -> Site {
        Site {
            root: config.site.clone(),
            prefix: config.prefix.clone(),
            entries: config.entries.clone(),
            log: config.log,
        }
    }
}
