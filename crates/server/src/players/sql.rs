//! The players' rows: made, named, signed in. Plain functions on a
//! connection, run on the store's thread (`Store::write`, `Store::read`).

use rusqlite::{params, Connection, OptionalExtension};

use super::names;
use super::Me;
use crate::archive::rating_row;
use crate::rating::{Rating, PROVISIONAL_RD};
use crate::store::ms_to_sql as sql_ms;

/// Names tried for a new player before giving up (a taken proposal is
/// tried again; 24 × 24 × 1000 names make a clash rare).
const NAME_TRIES: usize = 20;

/// Makes a player with a proposed name and a session for them (kept
/// under `session_id`, with the CSRF token `csrf`).
///
/// # Errors
/// When no free name was found, or the database refused.
pub fn create_with_session(
    connection: &Connection,
    session_id: &str,
    csrf: &str,
    agent: &str,
    now_ms: u64,
) -> Result<Me, String> {
    let mut created = None;
    for _ in 0..NAME_TRIES {
        let name = names::propose()?;
        let inserted = connection
            .execute(
                "INSERT INTO players (name, created_ms) VALUES (?1, ?2) ON CONFLICT (name) DO NOTHING",
                params![name, sql_ms(now_ms)],
            )
            .map_err(|e| format!("cannot make a player: {e}"))?;
        if inserted == 1 {
            created = Some((connection.last_insert_rowid(), name));
            break;
        }
    }
    let (id, name) = created.ok_or("no free name was found; try again")?;
    connection
        .execute(
            "INSERT INTO sessions (id, player, csrf, created_ms, seen_ms, agent) VALUES (?1, ?2, ?3, ?4, ?4, ?5)",
            params![session_id, id, csrf, sql_ms(now_ms), agent],
        )
        .map_err(|e| format!("cannot open a session: {e}"))?;
    Ok(Me {
        id,
        name,
        csrf: csrf.to_string(),
    })
}

/// The player session `session_id` signs in, if it is live (seen within
/// [`super::SESSION_IDLE_MS`]), and when it was last marked seen.
///
/// # Errors
/// When the database refused.
pub fn signed_in(
    connection: &Connection,
    session_id: &str,
    now_ms: u64,
) -> Result<Option<(Me, u64)>, String> {
    let since = sql_ms(now_ms.saturating_sub(super::SESSION_IDLE_MS));
    connection
        .prepare_cached(
            "SELECT players.id, players.name, sessions.csrf, sessions.seen_ms FROM sessions
             JOIN players ON players.id = sessions.player
             WHERE sessions.id = ?1 AND sessions.seen_ms >= ?2 AND players.deleted_ms IS NULL",
        )
        .and_then(|mut q| {
            q.query_row(params![session_id, since], |r| {
                let seen: i64 = r.get(3)?;
                Ok((
                    Me {
                        id: r.get(0)?,
                        name: r.get(1)?,
                        csrf: r.get(2)?,
                    },
                    u64::try_from(seen).unwrap_or(0),
                ))
            })
            .optional()
        })
        .map_err(|e| format!("cannot read the session: {e}"))
}

/// Marks session `session_id` seen at `now_ms`.
///
/// # Errors
/// When the database refused.
pub fn mark_seen(connection: &Connection, session_id: &str, now_ms: u64) -> Result<(), String> {
    connection
        .execute(
            "UPDATE sessions SET seen_ms = ?2 WHERE id = ?1",
            params![session_id, sql_ms(now_ms)],
        )
        .map(drop)
        .map_err(|e| format!("cannot mark the session: {e}"))
}

/// Deletes the sessions not seen since `before_ms` (their cookies no
/// longer sign anyone in).
///
/// # Errors
/// When the database refused.
pub fn forget_idle_sessions(connection: &Connection, before_ms: u64) -> Result<usize, String> {
    connection
        .execute(
            "DELETE FROM sessions WHERE seen_ms < ?1",
            [sql_ms(before_ms)],
        )
        .map_err(|e| format!("cannot forget idle sessions: {e}"))
}

/// A player's public page: name and when they came, if they exist.
///
/// # Errors
/// When the database refused.
pub fn player(connection: &Connection, name: &str) -> Result<Option<(i64, String, u64)>, String> {
    connection
        .query_row(
            "SELECT id, name, created_ms FROM players WHERE name = ?1 AND deleted_ms IS NULL",
            [name],
            |r| {
                let created: i64 = r.get(2)?;
                Ok((r.get(0)?, r.get(1)?, u64::try_from(created).unwrap_or(0)))
            },
        )
        .optional()
        .map_err(|e| format!("cannot read the player: {e}"))
}

/// A player's rating in `perf` (a new player's if they have none).
///
/// # Errors
/// When the database refused.
pub fn rating(connection: &Connection, player: i64, perf: &str) -> Result<Rating, String> {
    crate::archive::rating_of(connection, player, perf)
        .map_err(|e| format!("cannot read a rating: {e}"))
}

/// X games minus O games among `player`'s last `games` archived games.
///
/// # Errors
/// When the database refused.
pub fn colour_balance(connection: &Connection, player: i64, games: u32) -> Result<i32, String> {
    connection
        .prepare_cached(
            "SELECT COALESCE(SUM(CASE WHEN x = ?1 THEN 1 ELSE -1 END), 0) FROM
                (SELECT x FROM games WHERE x = ?1 OR o = ?1 ORDER BY ended_ms DESC LIMIT ?2)",
        )
        .and_then(|mut q| q.query_row(params![player, games], |r| r.get(0)))
        .map_err(|e| format!("cannot read recent colours: {e}"))
}

/// A player's ratings, by performance key.
///
/// # Errors
/// When the database refused.
pub fn ratings(connection: &Connection, player: i64) -> Result<Vec<(String, Rating)>, String> {
    let mut query = connection
        .prepare_cached(
            "SELECT perf, rating, rd, volatility, games, last_ms FROM ratings WHERE player = ?1 ORDER BY perf",
        )
        .map_err(|e| format!("cannot read ratings: {e}"))?;
    let rows = query
        .query_map([player], |r| Ok((r.get(0)?, rating_row(r, 1)?)))
        .map_err(|e| format!("cannot read ratings: {e}"))?;
    rows.collect::<rusqlite::Result<_>>()
        .map_err(|e| format!("cannot read ratings: {e}"))
}

/// The best established ratings of performance `perf` as they stand at
/// `now_ms`: at least `min_games` rated games and not provisional (time
/// away widens the deviation, so a long-absent player drops off), at most
/// `limit`, best first.
///
/// # Errors
/// When the database refused.
pub fn leaderboard(
    connection: &Connection,
    perf: &str,
    min_games: u32,
    limit: usize,
    now_ms: u64,
) -> Result<Vec<(String, Rating)>, String> {
    let mut query = connection
        .prepare_cached(
            "SELECT players.name, rating, rd, volatility, games, last_ms FROM ratings
             JOIN players ON players.id = ratings.player
             WHERE perf = ?1 AND games >= ?2 AND rd < ?3 AND players.deleted_ms IS NULL
             ORDER BY rating DESC",
        )
        .map_err(|e| format!("cannot read the leaderboard: {e}"))?;
    let rows = query
        .query_map(params![perf, min_games, PROVISIONAL_RD], |r| {
            Ok((r.get::<_, String>(0)?, rating_row(r, 1)?))
        })
        .map_err(|e| format!("cannot read the leaderboard: {e}"))?;
    let mut board = Vec::new();
    for row in rows {
        let (name, rating) = row.map_err(|e| format!("cannot read the leaderboard: {e}"))?;
        if !rating.at(now_ms).provisional() {
            board.push((name, rating));
        }
        if board.len() == limit {
            break;
        }
    }
    Ok(board)
}

/// One archived game as a player's page lists it.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ArchivedGame {
    /// Its number in the archive.
    pub id: i64,
    /// The room it was played in.
    pub room: String,
    /// Its performance (`ultimate-blitz`, ...).
    pub perf: String,
    /// Whether it changed the ratings.
    pub rated: bool,
    /// X's and O's names (null for a guest).
    pub x: Option<String>,
    /// O's name.
    pub o: Option<String>,
    /// The record.
    pub record: String,
    /// The result, as the protocol writes it.
    pub result: serde_json::Value,
    /// X's rating before and after, when rated.
    pub x_before: Option<f64>,
    /// After.
    pub x_after: Option<f64>,
    /// O's rating before and after, when rated.
    pub o_before: Option<f64>,
    /// After.
    pub o_after: Option<f64>,
    /// When it ended (ms since the epoch).
    pub ended: i64,
}

/// The archived games' columns as [`archived`] reads them, with their
/// players (`px`, `po`), for a query to add its `WHERE` to.
pub const GAME_COLUMNS: &str =
    "SELECT games.id, room, perf, rated, px.name, po.name, record, result,
        x_before, x_after, o_before, o_after, ended_ms
    FROM games
    LEFT JOIN players AS px ON px.id = games.x
    LEFT JOIN players AS po ON po.id = games.o";

/// One archived game, from a row of [`GAME_COLUMNS`].
///
/// # Errors
/// When the row cannot be read.
pub fn archived(r: &rusqlite::Row<'_>) -> rusqlite::Result<ArchivedGame> {
    let result: String = r.get(7)?;
    Ok(ArchivedGame {
        id: r.get(0)?,
        room: r.get(1)?,
        perf: r.get(2)?,
        rated: r.get(3)?,
        x: r.get(4)?,
        o: r.get(5)?,
        record: r.get(6)?,
        result: serde_json::from_str(&result).unwrap_or(serde_json::Value::Null),
        x_before: r.get(8)?,
        x_after: r.get(9)?,
        o_before: r.get(10)?,
        o_after: r.get(11)?,
        ended: r.get(12)?,
    })
}

/// Page `page` (from 1) of `player`'s archived games, `size` a page,
/// newest first.
///
/// # Errors
/// When the database refused.
pub fn games(
    connection: &Connection,
    player: i64,
    page: u32,
    size: u32,
) -> Result<Vec<ArchivedGame>, String> {
    let mut query = connection
        .prepare_cached(&format!(
            "{GAME_COLUMNS} WHERE games.x = ?1 OR games.o = ?1
             ORDER BY ended_ms DESC, games.id DESC LIMIT ?2 OFFSET ?3"
        ))
        .map_err(|e| format!("cannot read games: {e}"))?;
    let offset = u64::from(page.saturating_sub(1)) * u64::from(size);
    let rows = query
        .query_map(params![player, size, offset], archived)
        .map_err(|e| format!("cannot read games: {e}"))?;
    rows.collect::<rusqlite::Result<_>>()
        .map_err(|e| format!("cannot read games: {e}"))
}

/// Why a new name was not taken.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Rename {
    /// Taken: the player has the new name.
    Done,
    /// The name breaks a rule.
    Bad(names::NameError),
    /// Another player has it (in any case).
    Taken,
    /// The player was renamed less than a day ago.
    TooSoon,
}

/// How long a name stays before it may change again.
const RENAME_EVERY_MS: u64 = 24 * 3600 * 1000;

/// Gives player `player` the name `name`, once a day at most.
///
/// # Errors
/// When the database refused.
pub fn rename(
    connection: &Connection,
    player: i64,
    name: &str,
    now_ms: u64,
) -> Result<Rename, String> {
    if let Err(bad) = names::check(name) {
        return Ok(Rename::Bad(bad));
    }
    let renamed: Option<i64> = connection
        .query_row(
            "SELECT renamed_ms FROM players WHERE id = ?1",
            [player],
            |r| r.get(0),
        )
        .map_err(|e| format!("cannot read the player: {e}"))?;
    let last = renamed.and_then(|ms| u64::try_from(ms).ok());
    if last.is_some_and(|last| now_ms.saturating_sub(last) < RENAME_EVERY_MS) {
        return Ok(Rename::TooSoon);
    }
    let taken: bool = connection
        .query_row(
            "SELECT EXISTS (SELECT 1 FROM players WHERE name = ?1 AND id != ?2)",
            params![name, player],
            |r| r.get(0),
        )
        .map_err(|e| format!("cannot read the players: {e}"))?;
    if taken {
        return Ok(Rename::Taken);
    }
    connection
        .execute(
            "UPDATE players SET name = ?2, renamed_ms = ?3 WHERE id = ?1",
            params![player, name, sql_ms(now_ms)],
        )
        .map_err(|e| format!("cannot rename: {e}"))?;
    Ok(Rename::Done)
}

/// Ends the session kept under `session_id`.
///
/// # Errors
/// When the database refused.
pub fn sign_out(connection: &Connection, session_id: &str) -> Result<(), String> {
    connection
        .execute("DELETE FROM sessions WHERE id = ?1", [session_id])
        .map(drop)
        .map_err(|e| format!("cannot end the session: {e}"))
}

/// One of a player's sessions, as the list of their signed-in browsers
/// shows it.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct SessionRow {
    /// A handle for it: the start of its stored id (never the secret).
    pub id: String,
    /// When it began and was last used (ms since the epoch).
    pub created: i64,
    /// When it was last used.
    pub seen: i64,
    /// The browser, as it named itself.
    pub agent: String,
    /// Whether it is the session asking.
    pub current: bool,
}

/// Characters of a session's stored id that name it in the list.
pub const HANDLE_LEN: usize = 16;

/// Player `player`'s sessions, the most recently used first; `current` is
/// the stored id of the one asking.
///
/// # Errors
/// When the database refused.
pub fn sessions(
    connection: &Connection,
    player: i64,
    current: &str,
) -> Result<Vec<SessionRow>, String> {
    let mut query = connection
        .prepare_cached(
            "SELECT id, created_ms, seen_ms, agent FROM sessions WHERE player = ?1 ORDER BY seen_ms DESC",
        )
        .map_err(|e| format!("cannot read sessions: {e}"))?;
    let rows = query
        .query_map([player], |r| {
            let id: String = r.get(0)?;
            Ok(SessionRow {
                current: id == current,
                id: id.chars().take(HANDLE_LEN).collect(),
                created: r.get(1)?,
                seen: r.get(2)?,
                agent: r.get(3)?,
            })
        })
        .map_err(|e| format!("cannot read sessions: {e}"))?;
    rows.collect::<rusqlite::Result<_>>()
        .map_err(|e| format!("cannot read sessions: {e}"))
}

/// Ends player `player`'s session named by `handle`; whether there was one.
///
/// # Errors
/// When the database refused.
pub fn revoke(connection: &Connection, player: i64, handle: &str) -> Result<bool, String> {
    if handle.len() != HANDLE_LEN || !handle.bytes().all(|b| b.is_ascii_hexdigit()) {
        return Ok(false);
    }
    connection
        .execute(
            "DELETE FROM sessions WHERE player = ?1 AND substr(id, 1, ?3) = ?2",
            params![player, handle, HANDLE_LEN],
        )
        .map(|n| n > 0)
        .map_err(|e| format!("cannot end the session: {e}"))
}

/// Deletes player `player`'s account: their name becomes `deleted-ID` (a
/// name no one can take), their password, passkeys, sessions and attached
/// games go, and
/// their games stay in the archive under that name.
///
/// # Errors
/// When the database refused.
pub fn delete(connection: &Connection, player: i64, now_ms: u64) -> Result<(), String> {
    connection
        .execute(
            "UPDATE players SET name = 'deleted-' || id, password = NULL, deleted_ms = ?2 WHERE id = ?1",
            params![player, sql_ms(now_ms)],
        )
        .and_then(|_| connection.execute("DELETE FROM sessions WHERE player = ?1", [player]))
        .and_then(|_| connection.execute("DELETE FROM passkeys WHERE player = ?1", [player]))
        .and_then(|_| connection.execute("DELETE FROM attached_games WHERE player = ?1", [player]))
        .map(drop)
        .map_err(|e| format!("cannot delete the account: {e}"))
}
