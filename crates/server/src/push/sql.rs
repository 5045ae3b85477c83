//! The push subscriptions and switches in the store (migration 09).

use rusqlite::{params, Connection, OptionalExtension};

use crate::store::ms_to_sql;

/// A browser to send a notice to: its push service's endpoint and keys.
#[derive(Clone, Debug)]
pub struct Target {
    /// The push service's URL for this browser.
    pub endpoint: String,
    /// The browser's P-256 public key (base64url).
    pub p256dh: String,
    /// The browser's authentication secret (base64url).
    pub auth: String,
}

/// Browsers of one player kept at most; a new one beyond puts the one
/// kept longest away.
pub const MAX_DEVICES: u32 = 10;

fn failed(what: &str) -> impl Fn(rusqlite::Error) -> String + '_ {
    move |e| format!("cannot {what}: {e}")
}

/// Keeps `target` as session `session`'s subscription (replacing the one
/// it had, and taking the endpoint from any other session: a browser
/// notifies only the player signed in on it now); a player's browsers
/// beyond `MAX_DEVICES` are forgotten, those kept longest first.
///
/// # Errors
/// When the database refused.
pub fn subscribe(
    connection: &Connection,
    session: &str,
    target: &Target,
    now_ms: u64,
) -> Result<(), String> {
    connection
        .execute(
            "DELETE FROM push_subscriptions WHERE endpoint = ?1 OR session = ?2",
            params![target.endpoint, session],
        )
        .and_then(|_| {
            connection.execute(
                "INSERT INTO push_subscriptions (session, endpoint, p256dh, auth, created_ms)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
                params![
                    session,
                    target.endpoint,
                    target.p256dh,
                    target.auth,
                    ms_to_sql(now_ms)
                ],
            )
        })
        .and_then(|_| {
            connection.execute(
                "DELETE FROM push_subscriptions WHERE session IN (
                    SELECT s.session FROM push_subscriptions AS s
                    JOIN sessions ON sessions.id = s.session
                    WHERE sessions.player = (SELECT player FROM sessions WHERE id = ?1)
                    ORDER BY s.created_ms DESC, s.rowid DESC LIMIT -1 OFFSET ?2)",
                params![session, MAX_DEVICES],
            )
        })
        .map(drop)
        .map_err(failed("keep the subscription"))
}

/// Forgets session `session`'s subscription, if it has one.
///
/// # Errors
/// When the database refused.
pub fn unsubscribe(connection: &Connection, session: &str) -> Result<(), String> {
    connection
        .execute(
            "DELETE FROM push_subscriptions WHERE session = ?1",
            [session],
        )
        .map(drop)
        .map_err(failed("forget the subscription"))
}

/// Forgets the subscription of `endpoint` (its push service says it is
/// gone).
///
/// # Errors
/// When the database refused.
pub fn forget(connection: &Connection, endpoint: &str) -> Result<(), String> {
    connection
        .execute(
            "DELETE FROM push_subscriptions WHERE endpoint = ?1",
            [endpoint],
        )
        .map(drop)
        .map_err(failed("forget the subscription"))
}

/// The browsers of player `player` to tell a notice of `bit`'s kind: none
/// when the player switched that kind off.
///
/// # Errors
/// When the database cannot be read.
pub fn targets(connection: &Connection, player: i64, bit: i64) -> Result<Vec<Target>, String> {
    let mut query = connection
        .prepare_cached(
            "SELECT s.endpoint, s.p256dh, s.auth FROM push_subscriptions AS s
             JOIN sessions ON sessions.id = s.session
             JOIN players ON players.id = sessions.player
             WHERE sessions.player = ?1 AND players.push_kinds & ?2 <> 0",
        )
        .map_err(failed("read the subscriptions"))?;
    let rows = query
        .query_map(params![player, bit], |r| {
            Ok(Target {
                endpoint: r.get(0)?,
                p256dh: r.get(1)?,
                auth: r.get(2)?,
            })
        })
        .map_err(failed("read the subscriptions"))?;
    rows.collect::<Result<_, _>>()
        .map_err(failed("read the subscriptions"))
}

/// Player `player`'s switches (bits of `Kind`), how many of their
/// browsers are subscribed, and whether session `session`'s is.
///
/// # Errors
/// When the database cannot be read.
pub fn settings(
    connection: &Connection,
    player: i64,
    session: &str,
) -> Result<(i64, u32, bool), String> {
    let kinds: i64 = connection
        .query_row(
            "SELECT push_kinds FROM players WHERE id = ?1",
            [player],
            |r| r.get(0),
        )
        .map_err(failed("read the push settings"))?;
    let devices: u32 = connection
        .query_row(
            "SELECT COUNT(*) FROM push_subscriptions AS s
             JOIN sessions ON sessions.id = s.session WHERE sessions.player = ?1",
            [player],
            |r| r.get(0),
        )
        .map_err(failed("read the push settings"))?;
    let this = connection
        .query_row(
            "SELECT 1 FROM push_subscriptions WHERE session = ?1",
            [session],
            |_| Ok(()),
        )
        .optional()
        .map_err(failed("read the push settings"))?
        .is_some();
    Ok((kinds, devices, this))
}

/// Sets player `player`'s switches to `kinds` (bits of `Kind`).
///
/// # Errors
/// When the database refused.
pub fn set_kinds(connection: &Connection, player: i64, kinds: i64) -> Result<(), String> {
    connection
        .execute(
            "UPDATE players SET push_kinds = ?2 WHERE id = ?1",
            params![player, kinds],
        )
        .map(drop)
        .map_err(failed("keep the push settings"))
}
