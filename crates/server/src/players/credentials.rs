//! What a player signs in with on another device: a password (its
//! Argon2id hash in `players.password`) and passkeys (the `passkeys`
//! table), and the sessions such a sign-in opens.

use std::sync::OnceLock;

use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::{Algorithm, Argon2, Params, Version};
use rusqlite::{params, Connection, OptionalExtension};
use webauthn_rs::prelude::Passkey;

use super::{hex, session_id, Ended, Me, Players, Session};
use crate::clock::epoch_ms;

/// The shortest password taken, in characters.
pub const MIN_PASSWORD: usize = 8;
/// The longest password taken, in characters: longer ones only cost hashing
/// time.
pub const MAX_PASSWORD: usize = 128;
/// Passkeys one player may keep.
pub const MAX_PASSKEYS: usize = 20;
/// The longest passkey label kept, in characters.
pub const MAX_LABEL: usize = 60;

/// The hasher: Argon2id with OWASP's first recommended setting (19 MiB of
/// memory, 2 passes, 1 lane). Memory-hard, so guessing on graphics cards
/// costs what it costs here; about the least memory that still does that,
/// so a few hashes at once (the sign-in semaphore) fit a small server.
fn hasher() -> Argon2<'static> {
    // These constants are within Argon2's bounds; `unwrap_or_default` is
    // Argon2's own default, which is the same setting.
    let params = Params::new(19_456, 2, 1, None).unwrap_or_default();
    Argon2::new(Algorithm::Argon2id, Version::V0x13, params)
}

/// Whether `password` may be set: 8 to 128 characters.
#[must_use]
pub fn password_fits(password: &str) -> bool {
    (MIN_PASSWORD..=MAX_PASSWORD).contains(&password.chars().count())
}

/// `password`'s PHC string (`$argon2id$v=19$m=19456,t=2,p=1$salt$hash`),
/// with a fresh random salt. CPU-heavy: call it off the async threads.
///
/// # Errors
/// When the system's randomness cannot be read.
pub fn hash_password(password: &str) -> Result<String, String> {
    hasher()
        .hash_password(password.as_bytes())
        .map(|hash| hash.to_string())
        .map_err(|e| format!("cannot hash a password: {e}"))
}

/// Whether `password` is the one `phc` was made from; `None` (no password
/// set, or no such player) costs one hash all the same, so a name without
/// a password takes as long to refuse as a wrong password.
/// CPU-heavy: call it off the async threads.
#[must_use]
pub fn password_matches(password: &str, phc: Option<&str>) -> bool {
    static DECOY: OnceLock<String> = OnceLock::new();
    match phc {
        Some(phc) => hasher().verify_password(password.as_bytes(), phc).is_ok(),
        None => {
            let decoy = DECOY.get_or_init(|| hash_password("no such password").unwrap_or_default());
            let _ = hasher().verify_password(password.as_bytes(), decoy.as_str());
            false
        }
    }
}

/// A player who may sign in, as found by name.
#[derive(Clone, Debug)]
pub struct Account {
    /// Their row.
    pub id: i64,
    /// Their name as it is written.
    pub name: String,
    /// Their password's PHC string, if they set one.
    pub password: Option<String>,
}

/// One of a player's passkeys, as their list shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct PasskeyRow {
    /// Its number, to remove it by.
    pub id: i64,
    /// The name the player's browser gave it.
    pub label: String,
    /// When it was added (ms since the epoch).
    pub created: i64,
    /// When it last signed in, if it ever did.
    pub used: Option<i64>,
}

/// A stored passkey: its row and the credential.
pub struct StoredPasskey {
    /// Its row.
    pub id: i64,
    /// The credential, with its signature counter.
    pub passkey: Passkey,
}

/// A credential id as the table keeps it (hex).
#[must_use]
pub fn credential_key(id: &[u8]) -> String {
    hex(id)
}

use crate::store::ms_to_sql as sql_ms;

mod sql {
    use super::*;

    pub fn account(connection: &Connection, name: &str) -> Result<Option<Account>, String> {
        connection
            .query_row(
                "SELECT id, name, password FROM players WHERE name = ?1 AND deleted_ms IS NULL",
                [name],
                |r| {
                    Ok(Account {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        password: r.get(2)?,
                    })
                },
            )
            .optional()
            .map_err(|e| format!("cannot read the player: {e}"))
    }

    pub fn password_of(connection: &Connection, player: i64) -> Result<Option<String>, String> {
        connection
            .query_row(
                "SELECT password FROM players WHERE id = ?1",
                [player],
                |r| r.get(0),
            )
            .optional()
            .map(Option::flatten)
            .map_err(|e| format!("cannot read the player: {e}"))
    }

    pub fn set_password(
        connection: &Connection,
        player: i64,
        phc: &str,
        kept_session: &str,
    ) -> Result<(), String> {
        connection
            .execute(
                "UPDATE players SET password = ?2 WHERE id = ?1 AND deleted_ms IS NULL",
                params![player, phc],
            )
            .and_then(|_| {
                connection.execute(
                    "DELETE FROM sessions WHERE player = ?1 AND id <> ?2",
                    params![player, kept_session],
                )
            })
            .map(drop)
            .map_err(|e| format!("cannot keep the password: {e}"))
    }

    /// A new session for player `player`; `None` when they are deleted.
    pub fn open_session(
        connection: &Connection,
        player: i64,
        session_id: &str,
        csrf: &str,
        agent: &str,
        now_ms: u64,
    ) -> Result<Option<Me>, String> {
        let name: Option<String> = connection
            .query_row(
                "SELECT name FROM players WHERE id = ?1 AND deleted_ms IS NULL",
                [player],
                |r| r.get(0),
            )
            .optional()
            .map_err(|e| format!("cannot read the player: {e}"))?;
        let Some(name) = name else {
            return Ok(None);
        };
        connection
            .execute(
                "INSERT INTO sessions (id, player, csrf, created_ms, seen_ms, agent) VALUES (?1, ?2, ?3, ?4, ?4, ?5)",
                params![session_id, player, csrf, sql_ms(now_ms), agent],
            )
            .map_err(|e| format!("cannot open a session: {e}"))?;
        Ok(Some(Me {
            id: player,
            name,
            csrf: csrf.to_string(),
        }))
    }

    pub fn passkeys(connection: &Connection, player: i64) -> Result<Vec<StoredPasskey>, String> {
        let mut query = connection
            .prepare_cached("SELECT id, passkey FROM passkeys WHERE player = ?1 ORDER BY id")
            .map_err(|e| format!("cannot read passkeys: {e}"))?;
        let rows = query
            .query_map([player], |r| {
                Ok((r.get::<_, i64>(0)?, r.get::<_, String>(1)?))
            })
            .map_err(|e| format!("cannot read passkeys: {e}"))?;
        let mut found = Vec::new();
        for row in rows {
            let (id, json) = row.map_err(|e| format!("cannot read passkeys: {e}"))?;
            // A row this server cannot read signs nobody in; the rest still do.
            match serde_json::from_str(&json) {
                Ok(passkey) => found.push(StoredPasskey { id, passkey }),
                Err(e) => eprintln!("uttt-server: passkey {id} is unreadable: {e}"),
            }
        }
        Ok(found)
    }

    pub fn passkey_rows(connection: &Connection, player: i64) -> Result<Vec<PasskeyRow>, String> {
        let mut query = connection
            .prepare_cached(
                "SELECT id, label, created_ms, used_ms FROM passkeys WHERE player = ?1 ORDER BY id",
            )
            .map_err(|e| format!("cannot read passkeys: {e}"))?;
        let rows = query
            .query_map([player], |r| {
                Ok(PasskeyRow {
                    id: r.get(0)?,
                    label: r.get(1)?,
                    created: r.get(2)?,
                    used: r.get(3)?,
                })
            })
            .map_err(|e| format!("cannot read passkeys: {e}"))?;
        rows.collect::<rusqlite::Result<_>>()
            .map_err(|e| format!("cannot read passkeys: {e}"))
    }

    /// Keeps a new passkey; `false` when the credential is already kept
    /// (for anyone) or the player has as many as they may.
    pub fn add_passkey(
        connection: &Connection,
        player: i64,
        passkey: &Passkey,
        label: &str,
        now_ms: u64,
    ) -> Result<bool, String> {
        let count: i64 = connection
            .query_row(
                "SELECT count(*) FROM passkeys WHERE player = ?1",
                [player],
                |r| r.get(0),
            )
            .map_err(|e| format!("cannot read passkeys: {e}"))?;
        if usize::try_from(count).unwrap_or(usize::MAX) >= MAX_PASSKEYS {
            return Ok(false);
        }
        let json =
            serde_json::to_string(passkey).map_err(|e| format!("cannot write a passkey: {e}"))?;
        connection
            .execute(
                "INSERT INTO passkeys (player, credential, passkey, label, created_ms)
                 SELECT ?1, ?2, ?3, ?4, ?5 WHERE EXISTS
                     (SELECT 1 FROM players WHERE id = ?1 AND deleted_ms IS NULL)
                 ON CONFLICT (credential) DO NOTHING",
                params![
                    player,
                    credential_key(passkey.cred_id()),
                    json,
                    label,
                    sql_ms(now_ms)
                ],
            )
            .map(|n| n == 1)
            .map_err(|e| format!("cannot keep the passkey: {e}"))
    }

    pub fn used_passkey(
        connection: &Connection,
        id: i64,
        passkey: &Passkey,
        now_ms: u64,
    ) -> Result<(), String> {
        let json =
            serde_json::to_string(passkey).map_err(|e| format!("cannot write a passkey: {e}"))?;
        connection
            .execute(
                "UPDATE passkeys SET passkey = ?2, used_ms = ?3 WHERE id = ?1",
                params![id, json, sql_ms(now_ms)],
            )
            .map(drop)
            .map_err(|e| format!("cannot mark the passkey: {e}"))
    }

    pub fn remove_passkey(connection: &Connection, player: i64, id: i64) -> Result<bool, String> {
        connection
            .execute(
                "DELETE FROM passkeys WHERE player = ?1 AND id = ?2",
                params![player, id],
            )
            .map(|n| n > 0)
            .map_err(|e| format!("cannot remove the passkey: {e}"))
    }
}

impl Players {
    /// The player named `name` (any case) with their password's hash, if
    /// there is one.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn account(&self, name: &str) -> Result<Option<Account>, String> {
        if super::names::check(name).is_err() {
            return Ok(None);
        }
        let name = name.to_string();
        self.store.read(move |c| sql::account(c, &name)).await
    }

    /// `me`'s password hash, if they set one.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn password_of(&self, me: &Me) -> Result<Option<String>, String> {
        let id = me.id;
        self.store.read(move |c| sql::password_of(c, id)).await
    }

    /// Keeps `phc` as `me`'s password hash and ends `me`'s other sessions
    /// than the one `secret` holds: whoever knew the old password is
    /// signed out everywhere else.
    ///
    /// # Errors
    /// When the store refused.
    pub async fn set_password(&self, me: &Me, secret: &str, phc: String) -> Result<(), String> {
        let (id, kept) = (me.id, session_id(secret));
        let ended = Ended::Others(id, kept.clone());
        self.store
            .write(move |c| sql::set_password(c, id, &phc, &kept))
            .await?;
        let _ = self.ended.send(ended);
        Ok(())
    }

    /// Opens a new session for player `player` (signed in on another
    /// device); `None` when they are deleted.
    ///
    /// # Errors
    /// When the store refused.
    pub async fn open_session(
        &self,
        player: i64,
        agent: &str,
    ) -> Result<Option<(Session, Me)>, String> {
        let session = Session::new()?;
        let (id, csrf) = (session.id(), session.csrf.clone());
        let agent: String = agent.chars().take(200).collect();
        let me = self
            .store
            .write(move |c| sql::open_session(c, player, &id, &csrf, &agent, epoch_ms()))
            .await?;
        Ok(me.map(|me| (session, me)))
    }

    /// Player `player`'s passkeys, as credentials.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn passkeys(&self, player: i64) -> Result<Vec<StoredPasskey>, String> {
        self.store.read(move |c| sql::passkeys(c, player)).await
    }

    /// `me`'s passkeys, as their list shows them.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn passkey_rows(&self, me: &Me) -> Result<Vec<PasskeyRow>, String> {
        let id = me.id;
        self.store.read(move |c| sql::passkey_rows(c, id)).await
    }

    /// Keeps a new passkey for player `player`; `false` when the credential
    /// is kept already or they have [`MAX_PASSKEYS`].
    ///
    /// # Errors
    /// When the store refused.
    pub async fn add_passkey(
        &self,
        player: i64,
        passkey: Passkey,
        label: String,
    ) -> Result<bool, String> {
        self.store
            .write(move |c| sql::add_passkey(c, player, &passkey, &label, epoch_ms()))
            .await
    }

    /// Keeps the passkey of row `id` as it stands after a sign-in (its
    /// counter), marked used now.
    ///
    /// # Errors
    /// When the store refused.
    pub async fn used_passkey(&self, id: i64, passkey: Passkey) -> Result<(), String> {
        self.store
            .write(move |c| sql::used_passkey(c, id, &passkey, epoch_ms()))
            .await
    }

    /// Removes `me`'s passkey `id`; whether there was one.
    ///
    /// # Errors
    /// When the store refused.
    pub async fn remove_passkey(&self, me: &Me, id: i64) -> Result<bool, String> {
        let player = me.id;
        self.store
            .write(move |c| sql::remove_passkey(c, player, id))
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_password_hash_is_argon2id_salted_and_checks_only_its_password() {
        let a = hash_password("correct horse").unwrap();
        let b = hash_password("correct horse").unwrap();
        assert!(a.starts_with("$argon2id$v=19$m=19456,t=2,p=1$"), "{a}");
        assert_ne!(a, b, "no salt");
        assert!(password_matches("correct horse", Some(&a)));
        assert!(!password_matches("correct horsf", Some(&a)));
        assert!(!password_matches("correct horse", None));
        assert!(!password_matches("x", Some("not a hash")));
        assert!(password_fits("12345678") && password_fits(&"é".repeat(128)));
        assert!(!password_fits("1234567") && !password_fits(&"a".repeat(129)));
    }
}
