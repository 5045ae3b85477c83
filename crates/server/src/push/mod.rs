//! Web Push notifications (docs/api.md, "Notifications"): a signed-in
//! player's browsers that turned them on are told "your move", "game
//! over" and the reminder of their correspondence games, and the
//! challenges addressed to them, through the push services their
//! browsers name, while no page of the site need be open.
//!
//! The server's VAPID key pair is made at its first start and kept in the
//! store (`keys`); the subscriptions, one a session, and each player's
//! switches for the kinds of notice are kept there too (`sql`). Notices
//! go through a bounded queue to one task that hands each to a sender of
//! its own (16 at once; `send`, with the `web-push` crate), so no room
//! ever waits for a push service; a subscription the push service says is
//! gone is removed. A room tells only changes that stand (`hub.rs`'s
//! `notify`, after the change is stored and told).

mod api;
mod keys;
mod notices;
mod resolve;
mod send;
mod sql;

use serde_json::Value;
use tokio::sync::mpsc;

pub use api::{delete_subscription, get_key, get_settings, post_settings, post_subscription};
pub use notices::{challenge, of_change, remind_at, reminder};

use crate::store::Store;

/// Notices waiting to be sent at most; past that a notice is dropped (and
/// said so in the log), as a push service may drop one.
const QUEUE: usize = 4096;

/// A kind of notice, with its bit among a player's switches.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Kind {
    /// It is the player's move in a correspondence game.
    YourMove = 1,
    /// A correspondence game of theirs ended.
    GameOver = 2,
    /// A challenge was addressed to them.
    Challenge = 4,
    /// Their move's days are running out.
    Reminder = 8,
}

impl Kind {
    /// Every kind, in the order the settings list them.
    pub const ALL: [Kind; 4] = [
        Kind::YourMove,
        Kind::GameOver,
        Kind::Challenge,
        Kind::Reminder,
    ];

    /// Its name in the API and in the messages.
    #[must_use]
    pub fn name(self) -> &'static str {
        match self {
            Kind::YourMove => "yourMove",
            Kind::GameOver => "gameOver",
            Kind::Challenge => "challenge",
            Kind::Reminder => "reminder",
        }
    }

    /// Its bit among a player's switches.
    #[must_use]
    pub fn bit(self) -> i64 {
        self as i64
    }
}

/// One thing to tell one player.
#[derive(Clone, Debug)]
pub struct Notice {
    /// The player.
    pub player: i64,
    /// What kind of notice it is (the player's switch for it decides).
    pub kind: Kind,
    /// The message the service worker reads (JSON; it writes the words in
    /// the page's language).
    pub payload: Value,
    /// How long the push service may keep it for a device that is off.
    pub keep_ms: u64,
    /// A newer notice of the same topic replaces this one at the push
    /// service (a room's code).
    pub topic: Option<String>,
}

/// Where notices go: the sending task's queue and the key the browsers
/// subscribe with. Cheap to clone.
#[derive(Clone)]
pub struct Push {
    queue: mpsc::Sender<Notice>,
    public_key: String,
    to_loopback: bool,
}

impl Push {
    /// Reads the server's key pair from `store` (made and kept there the
    /// first time) and starts the sending task: call within the runtime.
    /// `contact` is the VAPID `sub` claim (a `mailto:` or `https:` URL);
    /// `to_loopback` lets subscriptions name `http://127.0.0.1` endpoints
    /// (the tests' push service).
    ///
    /// # Errors
    /// When the key cannot be read, made or kept.
    pub async fn start(
        store: Store,
        contact: Option<String>,
        to_loopback: bool,
    ) -> Result<Push, String> {
        let private = store.write(keys::load_or_make).await?;
        let vapid = keys::signer(&private)?;
        let public_key = keys::encode(&vapid.get_public_key());
        let (queue, notices) = mpsc::channel(QUEUE);
        let sender = send::Sender::new(store, vapid, contact)?;
        tokio::spawn(send::run(notices, sender));
        Ok(Push {
            queue,
            public_key,
            to_loopback,
        })
    }

    /// A push that sends nothing (for the hub's own tests).
    #[cfg(test)]
    #[must_use]
    pub fn off() -> Push {
        Push {
            queue: mpsc::channel(1).0,
            public_key: String::new(),
            to_loopback: false,
        }
    }

    /// Queues `notice` without waiting.
    pub fn tell(&self, notice: Notice) {
        if let Err(mpsc::error::TrySendError::Full(notice)) = self.queue.try_send(notice) {
            eprintln!(
                "uttt-server: the push queue is full; a {} notice is dropped",
                notice.kind.name()
            );
        }
    }

    /// The key browsers subscribe with (the VAPID public key, base64url).
    #[must_use]
    pub fn public_key(&self) -> &str {
        &self.public_key
    }
}
