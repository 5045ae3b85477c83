//! What the Watch page reads of the players (`GET /api/watch`): their
//! ratings in the games shown, the games ended last, and whether a player
//! keeps their games off the page.

use rusqlite::{params, Connection, OptionalExtension};

use super::sql::{archived, rating, ArchivedGame, GAME_COLUMNS};
use crate::rating::Rating;

/// The ratings of `(player, perf)` pairs, in their order.
///
/// # Errors
/// When the database refused.
pub fn ratings(connection: &Connection, pairs: &[(i64, String)]) -> Result<Vec<Rating>, String> {
    pairs
        .iter()
        .map(|(player, perf)| rating(connection, *player, perf))
        .collect()
}

/// The `limit` games ended last, but those of a player who hides theirs.
///
/// # Errors
/// When the database refused.
pub fn recent(connection: &Connection, limit: u32) -> Result<Vec<ArchivedGame>, String> {
    let mut query = connection
        .prepare_cached(&format!(
            "{GAME_COLUMNS} WHERE COALESCE(px.hide_games, 0) = 0 AND COALESCE(po.hide_games, 0) = 0
             ORDER BY ended_ms DESC, games.id DESC LIMIT ?1"
        ))
        .map_err(|e| format!("cannot read games: {e}"))?;
    let rows = query
        .query_map(params![limit], archived)
        .map_err(|e| format!("cannot read games: {e}"))?;
    rows.collect::<rusqlite::Result<_>>()
        .map_err(|e| format!("cannot read games: {e}"))
}

/// Whether `player` keeps their games off the Watch page.
///
/// # Errors
/// When the database refused.
pub fn hides_games(connection: &Connection, player: i64) -> Result<bool, String> {
    connection
        .query_row(
            "SELECT hide_games FROM players WHERE id = ?1",
            [player],
            |r| r.get::<_, bool>(0),
        )
        .optional()
        .map(|hidden| hidden.unwrap_or(false))
        .map_err(|e| format!("cannot read the setting: {e}"))
}

/// Keeps `player`'s games off the Watch page, or not.
///
/// # Errors
/// When the database refused.
pub fn set_hides_games(connection: &Connection, player: i64, hide: bool) -> Result<(), String> {
    connection
        .execute(
            "UPDATE players SET hide_games = ?2 WHERE id = ?1",
            params![player, hide],
        )
        .map(drop)
        .map_err(|e| format!("cannot keep the setting: {e}"))
}
