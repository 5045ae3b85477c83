//! The archive of online games, and rated results: written by the store in
//! the same transaction that saves a game's end, so a game is archived and
//! rated exactly once, or not at all.
//!
//! Every game that ends is archived, rated or not. It is rated when its
//! room is rated, both seats hold signed-in players (two different ones),
//! and each side made at least two moves: a game ended before that is
//! aborted, not rated.

use rusqlite::{params, Connection, OptionalExtension};
use uttt_protocol::{RoomOptions, Side};

use crate::game::OnlineGame;
use crate::rating::{rate, Perf, Rating, Score};
use crate::room::Snapshot;
use crate::store::ms_to_sql as sql_ms;

/// Plies a game needs to be rated: two moves each.
pub const RATED_PLIES: u32 = 4;

/// A game's timing as the archive keeps it: its clock, or `{"days": N}`.
fn timing(options: &RoomOptions) -> Option<String> {
    match (options.clock, options.days) {
        (Some(clock), _) => serde_json::to_string(&clock).ok(),
        (None, Some(days)) => Some(serde_json::json!({ "days": days }).to_string()),
        (None, None) => None,
    }
}

/// Archives the game `snapshot` ends, if it ended and is not archived yet,
/// and rates it if it counts (see the module's notes).
///
/// # Errors
/// When the database refused: the caller's transaction is then not
/// committed, so the game's end is not saved either.
pub fn archive_end(
    connection: &Connection,
    snapshot: &Snapshot,
    now_ms: u64,
) -> rusqlite::Result<()> {
    let Some(result) = snapshot.result else {
        return Ok(());
    };
    let options = snapshot.options;
    let perf = Perf::of(options.kind, options.rules, options.clock).key();
    let x_seat = usize::from(snapshot.x_seat);
    let [x, o] = [x_seat, x_seat ^ 1].map(|seat| snapshot.players[seat].as_ref());
    let plies = OnlineGame::from_record(&snapshot.record).map_or(0, |g| g.ply());
    let rated = match (x, o) {
        (Some(x), Some(o)) => options.rated && x.id != o.id && plies >= RATED_PLIES,
        _ => false,
    };
    let inserted = connection.execute(
        "INSERT INTO games (room, game_number, perf, rated, x, o, record, result, clock, ended_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
         ON CONFLICT (room, game_number) DO NOTHING",
        params![
            snapshot.code,
            snapshot.game_number,
            perf,
            rated,
            x.map(|p| p.id),
            o.map(|p| p.id),
            snapshot.record,
            serde_json::to_string(&result).unwrap_or_default(),
            timing(&options),
            sql_ms(now_ms),
        ],
    )?;
    let (Some(x), Some(o)) = (x, o) else {
        return Ok(());
    };
    if inserted == 0 || !rated {
        return Ok(());
    }
    let game = connection.last_insert_rowid();
    let score = match result.winner {
        Some(Side::X) => Score::Win,
        Some(Side::O) => Score::Loss,
        None => Score::Draw,
    };
    let (x_before, o_before) = (
        rating_of(connection, x.id, &perf)?,
        rating_of(connection, o.id, &perf)?,
    );
    let (x_after, o_after) = rate(&x_before, &o_before, score, now_ms);
    for (player, before, after) in [(x.id, &x_before, &x_after), (o.id, &o_before, &o_after)] {
        store_rating(connection, player, &perf, after)?;
        connection.execute(
            "INSERT INTO rating_history (player, perf, game, rating, rd, at_ms, rating_before,
                rd_before, volatility_before, games_before, last_ms_before)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            params![
                player,
                perf,
                game,
                after.rating,
                after.rd,
                sql_ms(now_ms),
                before.rating,
                before.rd,
                before.volatility,
                before.games,
                before.last_ms.map(sql_ms)
            ],
        )?;
    }
    connection.execute(
        "UPDATE games SET x_before = ?2, x_after = ?3, o_before = ?4, o_after = ?5 WHERE id = ?1",
        params![
            game,
            x_before.rating,
            x_after.rating,
            o_before.rating,
            o_after.rating
        ],
    )?;
    Ok(())
}

/// Takes the game `snapshot` plays back out of the archive if it was
/// archived as ended but the saved room says it has not ended: its end
/// was a change nobody heard of, taken back (`hub::take_back`). Each
/// player's rating goes back to what it was before the game, unless a
/// later game rated them already (their games in two rooms at once): then
/// the rating stays, and the log says so.
///
/// # Errors
/// When the database refused: the caller's transaction is then not
/// committed.
pub fn unarchive_unended(connection: &Connection, snapshot: &Snapshot) -> rusqlite::Result<()> {
    if snapshot.result.is_some() {
        return Ok(());
    }
    let game: Option<i64> = connection
        .prepare_cached("SELECT id FROM games WHERE room = ?1 AND game_number = ?2")?
        .query_row(params![snapshot.code, snapshot.game_number], |r| r.get(0))
        .optional()?;
    let Some(game) = game else {
        return Ok(());
    };
    let rows = connection
        .prepare(
            "SELECT player, perf, rating, rd, at_ms, rating_before, rd_before,
                volatility_before, games_before, last_ms_before
             FROM rating_history WHERE game = ?1",
        )?
        .query_map([game], |r| {
            let at: i64 = r.get(4)?;
            let before = match r.get::<_, Option<f64>>(5)? {
                Some(_) => Some(rating_row(r, 5)?),
                None => None,
            };
            Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, at, before))
        })?
        .collect::<rusqlite::Result<Vec<(i64, String, f64, f64, i64, Option<Rating>)>>>()?;
    for (player, perf, rating, rd, at_ms, before) in rows {
        let now = rating_of(connection, player, &perf)?;
        let untouched =
            now.rating == rating && now.rd == rd && now.last_ms.map(sql_ms) == Some(at_ms);
        match before {
            Some(before) if untouched && before.games == 0 => {
                connection.execute(
                    "DELETE FROM ratings WHERE player = ?1 AND perf = ?2",
                    params![player, perf],
                )?;
            }
            Some(before) if untouched => store_rating(connection, player, &perf, &before)?,
            _ => eprintln!(
                "uttt-server: room {}: game {} was taken back; player {player}'s {perf} rating \
                 was changed since, so it stays",
                snapshot.code, snapshot.game_number
            ),
        }
    }
    connection.execute("DELETE FROM rating_history WHERE game = ?1", [game])?;
    connection.execute("DELETE FROM games WHERE id = ?1", [game])?;
    Ok(())
}

/// A rating from the row's columns `first..first + 5`: rating, rd,
/// volatility, games, last_ms.
///
/// # Errors
/// When a column is missing or of another type.
pub fn rating_row(r: &rusqlite::Row<'_>, first: usize) -> rusqlite::Result<Rating> {
    let last: Option<i64> = r.get(first + 4)?;
    Ok(Rating {
        rating: r.get(first)?,
        rd: r.get(first + 1)?,
        volatility: r.get(first + 2)?,
        games: r.get(first + 3)?,
        last_ms: last.and_then(|ms| u64::try_from(ms).ok()),
    })
}

/// A player's rating in `perf`, or a new player's.
///
/// # Errors
/// When the database refused.
pub fn rating_of(connection: &Connection, player: i64, perf: &str) -> rusqlite::Result<Rating> {
    let found = connection
        .prepare_cached(
            "SELECT rating, rd, volatility, games, last_ms FROM ratings WHERE player = ?1 AND perf = ?2",
        )?
        .query_row(params![player, perf], |r| rating_row(r, 0))
        .optional()?;
    Ok(found.unwrap_or(Rating::NEW))
}

fn store_rating(
    connection: &Connection,
    player: i64,
    perf: &str,
    r: &Rating,
) -> rusqlite::Result<()> {
    connection.execute(
        "INSERT INTO ratings (player, perf, rating, rd, volatility, games, last_ms)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)
         ON CONFLICT (player, perf) DO UPDATE SET rating = ?3, rd = ?4, volatility = ?5,
            games = ?6, last_ms = ?7",
        params![
            player,
            perf,
            r.rating,
            r.rd,
            r.volatility,
            r.games,
            r.last_ms.map(sql_ms)
        ],
    )?;
    Ok(())
}
