//! Players: who plays, by a session cookie. A player exists from their
//! first online action, with a proposed name; nothing else is asked.

pub mod credentials;
pub mod history;
pub mod names;
mod sql;
pub mod watch;

pub use sql::{ArchivedGame, Rename, SessionRow};

use sha2::{Digest, Sha256};
use tokio::sync::broadcast;

use crate::clock::epoch_ms;
use crate::rating::{Perf, Rating};
use crate::store::Store;

/// Games a page of a player's archive lists.
pub const GAMES_PAGE: u32 = 20;
/// The last page of a player's archive that may be asked for.
pub const MAX_GAMES_PAGE: u32 = 1000;

/// Rated games a player needs in a performance to be on its leaderboard.
pub const LEADERBOARD_GAMES: u32 = 10;
/// Players a leaderboard shows.
pub const LEADERBOARD_SIZE: usize = 100;
/// How long a session lasts unused; its cookie lasts as long, renewed
/// when the page asks who is signed in.
pub const SESSION_IDLE_MS: u64 = 365 * 24 * 3600 * 1000;
/// How often a session in use is marked seen.
const SEEN_EVERY_MS: u64 = 3600 * 1000;

/// Recent games whose colours decide who gets X in a pairing.
pub const COLOUR_GAMES: u32 = 10;
/// Games ended last that the Watch page lists.
pub const WATCH_RECENT: u32 = 20;

/// A player as a room knows them: who holds a seat.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Player {
    /// Their row.
    pub id: i64,
    /// Their name.
    pub name: String,
}

/// The signed-in player, as the page may know them.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Me {
    /// Their row.
    pub id: i64,
    /// Their name.
    pub name: String,
    /// The token every change they ask for must carry (`X-CSRF-Token`).
    pub csrf: String,
}

/// A new session's secrets: the cookie's, and the CSRF token.
pub struct Session {
    /// What the cookie holds (hex of 32 random bytes).
    pub secret: String,
    /// The token changes must carry.
    pub csrf: String,
}

fn random_hex() -> Result<String, String> {
    let mut bytes = [0u8; 32];
    getrandom::fill(&mut bytes).map_err(|e| format!("no randomness for a session: {e}"))?;
    Ok(hex(&bytes))
}

fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// The id a session is kept under: the SHA-256 of its secret.
fn session_id(secret: &str) -> String {
    hex(&Sha256::digest(secret.as_bytes()))
}

impl Me {
    /// The player, as a room knows them.
    #[must_use]
    pub fn player(&self) -> Player {
        Player {
            id: self.id,
            name: self.name.clone(),
        }
    }
}

impl Session {
    /// Fresh secrets.
    ///
    /// # Errors
    /// When the system's randomness cannot be read.
    pub fn new() -> Result<Session, String> {
        Ok(Session {
            secret: random_hex()?,
            csrf: random_hex()?,
        })
    }

    /// The id the store keeps it under.
    #[must_use]
    pub fn id(&self) -> String {
        session_id(&self.secret)
    }
}

/// The players, over the store.
#[derive(Clone)]
pub struct Players {
    store: Store,
    ended: broadcast::Sender<Ended>,
}

/// A player's public face.
#[derive(Clone, Debug, PartialEq)]
pub struct Profile {
    /// Their row.
    pub id: i64,
    /// Their name.
    pub name: String,
    /// When they first played online (ms since the epoch).
    pub created_ms: u64,
    /// Their ratings by performance key, as they stand now.
    pub ratings: Vec<(String, Rating)>,
}

/// Sessions that ended (signed out, revoked, or the account deleted):
/// the game connections they signed in are closed, so a connection acts
/// for nobody whose session is gone.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Ended {
    /// One session, by its id.
    Session(String),
    /// The sessions of a player whose ids begin with a handle.
    Handle(i64, String),
    /// Every session of a player.
    Player(i64),
    /// Every session of a player but one, by its id (a new password ends
    /// the others: whoever knew the old one is signed out).
    Others(i64, String),
}

impl Ended {
    /// Whether session `session` of player `player` is one of these.
    #[must_use]
    pub fn covers(&self, player: i64, session: &str) -> bool {
        match self {
            Ended::Session(id) => id == session,
            Ended::Handle(owner, handle) => {
                *owner == player && session.starts_with(handle.as_str())
            }
            Ended::Player(owner) => *owner == player,
            Ended::Others(owner, kept) => *owner == player && kept != session,
        }
    }
}

/// Ended sessions told at most before a connection that did not keep up
/// is closed all the same (see `ws.rs`).
const ENDED_BACKLOG: usize = 64;

impl Players {
    /// The players kept in `store`.
    #[must_use]
    pub fn new(store: Store) -> Players {
        Players {
            store,
            ended: broadcast::channel(ENDED_BACKLOG).0,
        }
    }

    /// The store the players are kept in (for the parts of the server
    /// that keep their own rows of a player: `push/`).
    #[must_use]
    pub fn store(&self) -> &Store {
        &self.store
    }

    /// Hears of every session that ends from now on.
    #[must_use]
    pub fn ended(&self) -> broadcast::Receiver<Ended> {
        self.ended.subscribe()
    }

    /// The id the session whose cookie holds `secret` is kept under.
    #[must_use]
    pub fn session_of(secret: &str) -> String {
        session_id(secret)
    }

    /// The player whose session cookie holds `secret`, if it is one.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn signed_in(&self, secret: &str) -> Result<Option<Me>, String> {
        // Only secrets of the right form reach the store.
        if secret.len() != 64 || !secret.bytes().all(|b| b.is_ascii_hexdigit()) {
            return Ok(None);
        }
        let id = session_id(secret);
        let now = epoch_ms();
        let read_id = id.clone();
        let found = self
            .store
            .read(move |c| sql::signed_in(c, &read_id, now))
            .await?;
        let Some((me, seen_ms)) = found else {
            return Ok(None);
        };
        // Marked at most once an hour: a read each time, a write seldom.
        if now.saturating_sub(seen_ms) >= SEEN_EVERY_MS {
            self.store
                .write(move |c| {
                    sql::mark_seen(c, &id, now)?;
                    sql::forget_idle_sessions(c, now.saturating_sub(SESSION_IDLE_MS))
                })
                .await?;
        }
        Ok(Some(me))
    }

    /// Makes a new player, with a proposed name, signed in by a new
    /// session; returns the session's secrets and the player.
    ///
    /// # Errors
    /// When the store refused.
    pub async fn sign_up(&self, agent: &str) -> Result<(Session, Me), String> {
        let session = Session::new()?;
        let (id, csrf) = (session.id(), session.csrf.clone());
        let agent: String = agent.chars().take(200).collect();
        let me = self
            .store
            .write(move |c| sql::create_with_session(c, &id, &csrf, &agent, epoch_ms()))
            .await?;
        Ok((session, me))
    }

    /// Renames the signed-in player `me` to `name` (once a day).
    ///
    /// # Errors
    /// When the store refused.
    pub async fn rename(&self, me: &Me, name: &str) -> Result<Rename, String> {
        let (id, name) = (me.id, name.to_string());
        self.store
            .write(move |c| sql::rename(c, id, &name, epoch_ms()))
            .await
    }

    /// The sessions of the player signed in by `secret`.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn sessions(&self, me: &Me, secret: &str) -> Result<Vec<SessionRow>, String> {
        let (id, current) = (me.id, session_id(secret));
        self.store
            .read(move |c| sql::sessions(c, id, &current))
            .await
    }

    /// Ends `me`'s session named by `handle`; whether there was one.
    ///
    /// # Errors
    /// When the store refused.
    pub async fn revoke(&self, me: &Me, handle: &str) -> Result<bool, String> {
        let (id, kept) = (me.id, handle.to_string());
        let revoked = self.store.write(move |c| sql::revoke(c, id, &kept)).await?;
        if revoked {
            let _ = self.ended.send(Ended::Handle(id, handle.to_string()));
        }
        Ok(revoked)
    }

    /// Deletes `me`'s account (see `sql::delete`).
    ///
    /// # Errors
    /// When the store refused.
    pub async fn delete(&self, me: &Me) -> Result<(), String> {
        let id = me.id;
        self.store
            .write(move |c| sql::delete(c, id, epoch_ms()))
            .await?;
        let _ = self.ended.send(Ended::Player(id));
        Ok(())
    }

    /// Ends the session whose cookie holds `secret`.
    ///
    /// # Errors
    /// When the store refused.
    pub async fn sign_out(&self, secret: &str) -> Result<(), String> {
        let id = session_id(secret);
        let ended = id.clone();
        self.store.write(move |c| sql::sign_out(c, &id)).await?;
        let _ = self.ended.send(Ended::Session(ended));
        Ok(())
    }

    /// The player named `name` (any case), if there is one.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn profile(&self, name: &str) -> Result<Option<Profile>, String> {
        // A name no player could hold is looked up nowhere.
        if names::check(name).is_err() {
            return Ok(None);
        }
        let name = name.to_string();
        self.store
            .read(move |c| {
                let Some((id, name, created_ms)) = sql::player(c, &name)? else {
                    return Ok(None);
                };
                let now = epoch_ms();
                let ratings = sql::ratings(c, id)?
                    .into_iter()
                    .map(|(perf, rating)| (perf, rating.at(now)))
                    .collect();
                Ok(Some(Profile {
                    id,
                    name,
                    created_ms,
                    ratings,
                }))
            })
            .await
    }

    /// Page `page` of the games of the player named `name`, newest first;
    /// `None` when there is no such player.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn games(&self, name: &str, page: u32) -> Result<Option<Vec<ArchivedGame>>, String> {
        if names::check(name).is_err() {
            return Ok(None);
        }
        let name = name.to_string();
        self.store
            .read(move |c| {
                let Some((id, _, _)) = sql::player(c, &name)? else {
                    return Ok(None);
                };
                sql::games(c, id, page, GAMES_PAGE).map(Some)
            })
            .await
    }

    /// The leaderboard of `perf`: names and ratings as they stand now.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn leaderboard(&self, perf: Perf) -> Result<Vec<(String, Rating)>, String> {
        let key = perf.key();
        self.store
            .read(move |c| {
                let now = epoch_ms();
                let board = sql::leaderboard(c, &key, LEADERBOARD_GAMES, LEADERBOARD_SIZE, now)?;
                Ok(board
                    .into_iter()
                    .map(|(name, r)| (name, r.at(now)))
                    .collect())
            })
            .await
    }

    /// The Watch page's reads: the ratings of `pairs` (player, performance
    /// key), in their order, and the games ended last.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn watch_reads(
        &self,
        pairs: Vec<(i64, String)>,
    ) -> Result<(Vec<Rating>, Vec<ArchivedGame>), String> {
        self.store
            .read(move |c| {
                let now = epoch_ms();
                let ratings = watch::ratings(c, &pairs)?;
                let ratings = ratings.into_iter().map(|r| r.at(now)).collect();
                Ok((ratings, watch::recent(c, WATCH_RECENT)?))
            })
            .await
    }

    /// Whether player `id` keeps their games off the Watch page.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn hides_games(&self, id: i64) -> Result<bool, String> {
        self.store.read(move |c| watch::hides_games(c, id)).await
    }

    /// Keeps player `id`'s games off the Watch page, or not.
    ///
    /// # Errors
    /// When the store refused.
    pub async fn set_hides_games(&self, id: i64, hide: bool) -> Result<(), String> {
        self.store
            .write(move |c| watch::set_hides_games(c, id, hide))
            .await
    }

    /// What pairing needs of `player` for a game of `perf`: their rating
    /// as it stands now, and how many more X games than O games they had
    /// among their last [`COLOUR_GAMES`].
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn seek_facts(&self, player: i64, perf: Perf) -> Result<(Rating, i32), String> {
        let key = perf.key();
        self.store
            .read(move |c| {
                let rating = sql::rating(c, player, &key)?.at(epoch_ms());
                Ok((rating, sql::colour_balance(c, player, COLOUR_GAMES)?))
            })
            .await
    }
}
