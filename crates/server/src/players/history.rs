//! A player's history: the games their browsers attached to the account
//! (private: only they read them back), and their rating after each rated
//! game (public: the profile's graphs).
//!
//! An attached game is the page's archive entry (`www/records.js`) as
//! JSON. The server did not see it played, so it checks what it can: the
//! fields the page knows and their sets, and, with core, that the record
//! is a legal game of the kind and rules the entry names, that a game the
//! core says has ended ended as the entry says, and that a local game the
//! entry calls finished has ended (an online game may also end by time,
//! resignation or agreement, which its record does not show). A review is
//! the page's own format: its size is bounded, the page checks the rest
//! when it reads it.

use std::collections::BTreeMap;

use rusqlite::{params, Connection};
use serde_json::{Map, Value};
use uttt_core::tree::parse_tree_record;
use uttt_core::{record, GameKind, Outcome, Player, Rules};

use super::{Me, Players};
use crate::clock::epoch_ms;
use crate::store::ms_to_sql as sql_ms;

/// Games kept per player: the page's `MAX_GAMES`; the newest by their date.
pub const MAX_ATTACHED: usize = 500;
/// Entries one request may store.
pub const MAX_BATCH: usize = 50;
/// The longest entry kept, as JSON, in bytes.
pub const MAX_ENTRY_BYTES: usize = 16 * 1024;
/// Points of a performance's rating history one answer gives: the latest.
pub const RATING_POINTS: u32 = 1000;

/// The fields an entry may have, as the page writes them.
const FIELDS: [&str; 13] = [
    "id", "date", "kind", "rules", "mode", "level", "levelO", "side", "result", "record", "tree",
    "line", "review",
];
const LEVELS: [&str; 5] = ["beginner", "easy", "medium", "hard", "master"];
/// The longest record with variations the page keeps.
const MAX_TREE_CHARS: usize = 8000;

/// An entry that passed the checks, ready to store.
#[derive(Clone, Debug, PartialEq)]
pub struct Attached {
    /// The game's id in the page's archive.
    pub id: String,
    /// The entry as stored: its JSON.
    pub text: String,
    /// Its date, in ms since the epoch.
    pub played_ms: u64,
}

/// One point of a rating's history: after a rated game.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct RatingPoint {
    /// When (ms since the epoch).
    pub at: i64,
    /// The rating after the game, whole points.
    pub rating: f64,
    /// Its deviation then, whole points.
    pub rd: f64,
    /// The rating before the game, whole points (`None` for games rated
    /// before the server kept it), so a graph can start where it started.
    pub before: Option<f64>,
}

/// Checks one entry of the page's archive; the clean entry, or why not.
///
/// # Errors
/// A sentence saying what is wrong with it.
pub fn check_entry(value: &Value) -> Result<Attached, String> {
    let Value::Object(entry) = value else {
        return Err("an entry is a JSON object".into());
    };
    if let Some(key) = entry.keys().find(|k| !FIELDS.contains(&k.as_str())) {
        return Err(format!("an entry has no field {key:?}"));
    }
    let text = |key: &str| entry.get(key).and_then(Value::as_str);
    let id = text("id").unwrap_or("");
    let id_ok = (1..=40).contains(&id.len())
        && id
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-');
    if !id_ok {
        return Err("id is 1 to 40 letters, digits, '_' or '-'".into());
    }
    let played_ms = text("date")
        .and_then(iso_ms)
        .ok_or("date is a time as 2026-12-07T15:38:31.123Z")?;
    let (kind, rules) = match (text("kind"), text("rules")) {
        (Some("ultimate"), Some("standard")) => (GameKind::Ultimate, Rules::Standard),
        (Some("ultimate"), Some("tiebreak")) => (GameKind::Ultimate, Rules::TieBreak),
        (Some("classic"), Some("standard")) => (GameKind::Classic, Rules::Standard),
        _ => return Err("kind and rules are ultimate or classic, standard or tiebreak".into()),
    };
    let mode = text("mode").unwrap_or("");
    let level = |key: &str| text(key).filter(|l| LEVELS.contains(l));
    let none = |key: &str| entry.get(key).is_none_or(Value::is_null);
    let side = text("side").filter(|s| *s == "x" || *s == "o");
    let fits = match mode {
        "ai" => level("level").is_some() && side.is_some() && none("levelO"),
        "online" => none("level") && none("levelO") && side.is_some(),
        "human" => none("level") && none("levelO") && none("side"),
        "watch" => level("level").is_some() && level("levelO").is_some() && none("side"),
        _ => return Err("mode is ai, human, watch or online".into()),
    };
    if !fits {
        return Err(format!(
            "a game of mode {mode} has its levels and side as the page writes them"
        ));
    }
    let result = text("result").unwrap_or("");
    if !["x", "o", "draw"].contains(&result) {
        return Err("result is x, o or draw: only finished games are attached".into());
    }
    let record_text = text("record").ok_or("record is the game's record")?;
    let game = record::parse_record(record_text).map_err(|e| format!("record: {e}"))?;
    if game.kind() != kind || (kind == GameKind::Ultimate && game.rules() != rules) {
        return Err("the record is of another kind or rules than the entry says".into());
    }
    match game.outcome() {
        Some(outcome) if outcome_key(outcome) != result => {
            return Err(format!(
                "the record ends in {}, not {result}",
                outcome_key(outcome)
            ))
        }
        None if mode != "online" => return Err("the record has not ended".into()),
        _ => {}
    }
    check_lines(entry, record_text)?;
    if let Some(review) = entry.get("review") {
        if review.get("v") != Some(&Value::from(1)) {
            return Err("a review is the page's stored review, version 1".into());
        }
    }
    let text = value.to_string();
    if text.len() > MAX_ENTRY_BYTES {
        return Err(format!("an entry is at most {MAX_ENTRY_BYTES} bytes"));
    }
    Ok(Attached {
        id: id.to_string(),
        text,
        played_ms,
    })
}

/// The game's other lines, when the entry has them: `tree`, its record
/// with variations (read by core), and `line`, a move's place in it.
fn check_lines(entry: &Map<String, Value>, record_text: &str) -> Result<(), String> {
    let (tree, line) = (entry.get("tree"), entry.get("line"));
    if tree.is_none() && line.is_none() {
        return Ok(());
    }
    let (Some(Value::String(tree)), Some(line)) = (tree, line.and_then(Value::as_u64)) else {
        return Err("tree and line come together: a record and a whole number".into());
    };
    if tree.len() > MAX_TREE_CHARS {
        return Err(format!("tree is at most {MAX_TREE_CHARS} characters"));
    }
    let header = &record_text[..=record_text.find(':').unwrap_or(0)];
    if !tree.starts_with(header) {
        return Err("the tree is of another game than the record".into());
    }
    let lines = parse_tree_record(tree).map_err(|e| format!("tree: {e}"))?;
    if usize::try_from(line).map_or(true, |line| line > lines.len()) {
        return Err("line is a move of the tree".into());
    }
    Ok(())
}

/// The page's word for an outcome.
fn outcome_key(outcome: Outcome) -> &'static str {
    match outcome {
        Outcome::Win(Player::X) => "x",
        Outcome::Win(Player::O) => "o",
        Outcome::Draw => "draw",
    }
}

/// `2026-12-07T15:38:31.123Z` (what `Date.toISOString` writes; the
/// fraction optional) as ms since the epoch.
fn iso_ms(text: &str) -> Option<u64> {
    let b = text.as_bytes();
    let fixed = b.len() >= 20
        && b[4] == b'-'
        && b[7] == b'-'
        && b[10] == b'T'
        && b[13] == b':'
        && b[16] == b':'
        && b.last() == Some(&b'Z');
    if !fixed {
        return None;
    }
    let number = |from: usize, to: usize| -> Option<u64> {
        let part = text.get(from..to)?;
        part.bytes()
            .all(|c| c.is_ascii_digit())
            .then(|| part.parse().ok())?
    };
    let (year, month, day) = (number(0, 4)?, number(5, 7)?, number(8, 10)?);
    let (hour, minute, second) = (number(11, 13)?, number(14, 16)?, number(17, 19)?);
    let millis = match &text[19..text.len() - 1] {
        "" => 0,
        fraction if fraction.len() == 4 && fraction.starts_with('.') => number(20, 23)?,
        _ => return None,
    };
    let days_in = [31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31];
    let leap = year % 4 == 0 && (year % 100 != 0 || year % 400 == 0);
    let month_days = match month {
        2 if leap => 29,
        1..=12 => days_in[usize::try_from(month - 1).ok()?],
        _ => return None,
    };
    if !(1970..=9999).contains(&year) || day == 0 || day > month_days || hour > 23 {
        return None;
    }
    if minute > 59 || second > 59 {
        return None;
    }
    let days = days_from_civil(year, month, day);
    Some((((days * 24 + hour) * 60 + minute) * 60 + second) * 1000 + millis)
}

/// Days from 1970-01-01 to a date from 1970 on (Howard Hinnant's
/// `days_from_civil`).
fn days_from_civil(year: u64, month: u64, day: u64) -> u64 {
    let year = if month <= 2 { year - 1 } else { year };
    let era = year / 400;
    let of_era = year - era * 400;
    let shifted_month = (month + 9) % 12;
    let of_year = (153 * shifted_month + 2) / 5 + day - 1;
    let of_cycle = of_era * 365 + of_era / 4 - of_era / 100 + of_year;
    era * 146_097 + of_cycle - 719_468
}

/// Stores `entries` for `player` (a game id already there is replaced),
/// then keeps their newest [`MAX_ATTACHED`]; returns how many they have.
///
/// # Errors
/// When the database refused.
pub fn attach(
    connection: &Connection,
    player: i64,
    entries: &[Attached],
    now_ms: u64,
) -> Result<u64, String> {
    let fail = |e: rusqlite::Error| format!("cannot keep attached games: {e}");
    let mut insert = connection
        .prepare_cached(
            "INSERT INTO attached_games (player, game_id, entry, played_ms, stored_ms)
             VALUES (?1, ?2, ?3, ?4, ?5)
             ON CONFLICT (player, game_id) DO UPDATE SET
                entry = excluded.entry, played_ms = excluded.played_ms, stored_ms = excluded.stored_ms",
        )
        .map_err(fail)?;
    for entry in entries {
        insert
            .execute(params![
                player,
                entry.id,
                entry.text,
                sql_ms(entry.played_ms),
                sql_ms(now_ms)
            ])
            .map_err(fail)?;
    }
    connection
        .execute(
            "DELETE FROM attached_games WHERE player = ?1 AND game_id NOT IN
                (SELECT game_id FROM attached_games WHERE player = ?1
                 ORDER BY played_ms DESC, game_id DESC LIMIT ?2)",
            params![player, MAX_ATTACHED],
        )
        .map_err(fail)?;
    connection
        .query_row(
            "SELECT COUNT(*) FROM attached_games WHERE player = ?1",
            [player],
            |r| r.get(0),
        )
        .map_err(fail)
}

/// `player`'s attached games stored at or after `since_ms`, oldest first
/// by their date, as JSON.
///
/// # Errors
/// When the database refused.
pub fn attached(connection: &Connection, player: i64, since_ms: u64) -> Result<Vec<Value>, String> {
    let fail = |e: rusqlite::Error| format!("cannot read attached games: {e}");
    let mut query = connection
        .prepare_cached(
            "SELECT entry FROM attached_games WHERE player = ?1 AND stored_ms >= ?2
             ORDER BY played_ms, game_id",
        )
        .map_err(fail)?;
    let rows = query
        .query_map(params![player, sql_ms(since_ms)], |r| r.get::<_, String>(0))
        .map_err(fail)?;
    let mut entries = Vec::new();
    for row in rows {
        // Stored after its checks, so it reads; one that would not is left out.
        if let Ok(entry) = serde_json::from_str(&row.map_err(fail)?) {
            entries.push(entry);
        }
    }
    Ok(entries)
}

/// `player`'s rating after each rated game, by performance: the latest
/// [`RATING_POINTS`] of each, oldest first.
///
/// # Errors
/// When the database refused.
pub fn rating_history(
    connection: &Connection,
    player: i64,
) -> Result<BTreeMap<String, Vec<RatingPoint>>, String> {
    let fail = |e: rusqlite::Error| format!("cannot read the rating history: {e}");
    let mut query = connection
        .prepare_cached(
            "SELECT perf, rating, rd, at_ms, rating_before FROM
                (SELECT perf, rating, rd, at_ms, rating_before, game, ROW_NUMBER() OVER
                    (PARTITION BY perf ORDER BY at_ms DESC, game DESC) AS n
                 FROM rating_history WHERE player = ?1)
             WHERE n <= ?2 ORDER BY perf, at_ms, game",
        )
        .map_err(fail)?;
    let rows = query
        .query_map(params![player, RATING_POINTS], |r| {
            Ok((
                r.get::<_, String>(0)?,
                RatingPoint {
                    rating: r.get::<_, f64>(1)?.round(),
                    rd: r.get::<_, f64>(2)?.round(),
                    at: r.get(3)?,
                    before: r.get::<_, Option<f64>>(4)?.map(f64::round),
                },
            ))
        })
        .map_err(fail)?;
    let mut perfs: BTreeMap<String, Vec<RatingPoint>> = BTreeMap::new();
    for row in rows {
        let (perf, point) = row.map_err(fail)?;
        perfs.entry(perf).or_default().push(point);
    }
    Ok(perfs)
}

impl Players {
    /// Keeps `entries` (checked by [`check_entry`]) with `me`'s account;
    /// returns how many games it holds now.
    ///
    /// # Errors
    /// When the store refused: then none of them is kept.
    pub async fn attach(&self, me: &Me, entries: Vec<Attached>) -> Result<u64, String> {
        let player = me.id;
        self.store
            .write(move |c| attach(c, player, &entries, epoch_ms()))
            .await
    }

    /// `me`'s attached games stored at or after `since_ms`, and the time
    /// of the reading (the `since` of the next one).
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn attached(&self, me: &Me, since_ms: u64) -> Result<(Vec<Value>, u64), String> {
        let player = me.id;
        self.store
            .read(move |c| {
                let now = epoch_ms();
                Ok((attached(c, player, since_ms)?, now))
            })
            .await
    }

    /// The rating history of the player named `name`; `None` when there
    /// is no such player.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn rating_history(
        &self,
        name: &str,
    ) -> Result<Option<BTreeMap<String, Vec<RatingPoint>>>, String> {
        if super::names::check(name).is_err() {
            return Ok(None);
        }
        let name = name.to_string();
        self.store
            .read(move |c| {
                let Some((id, _, _)) = super::sql::player(c, &name)? else {
                    return Ok(None);
                };
                rating_history(c, id).map(Some)
            })
            .await
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn entry() -> Value {
        json!({"id": "g1", "date": "2026-12-07T15:38:31.123Z", "kind": "classic",
               "rules": "standard", "mode": "human", "level": null, "levelO": null,
               "side": null, "result": "x", "record": "classic:b2a1c1b1a3"})
    }

    fn with(key: &str, value: Value) -> Value {
        let mut e = entry();
        e[key] = value;
        e
    }

    #[test]
    fn a_finished_game_passes_and_dates_read_as_the_page_writes_them() {
        let kept = check_entry(&entry()).unwrap();
        assert_eq!(kept.id, "g1");
        // Date.parse("2026-12-07T15:38:31.123Z")
        assert_eq!(kept.played_ms, 1_796_657_911_123);
        assert_eq!(iso_ms("1970-01-01T00:00:00Z"), Some(0));
        assert_eq!(iso_ms("2024-02-29T23:59:59.999Z"), Some(1_709_251_199_999));
        for bad in [
            "2025-02-29T00:00:00Z",
            "2026-13-01T00:00:00Z",
            "2026-1-01T00:00:00Z",
            "x",
        ] {
            assert_eq!(iso_ms(bad), None, "{bad}");
        }
    }

    #[test]
    fn core_reads_the_record_and_its_end() {
        for (key, value) in [
            ("record", json!("classic:b2b2")),
            ("record", json!("classic:b2a1")),
            ("result", json!("o")),
            ("result", json!("unfinished")),
            ("kind", json!("ultimate")),
            ("mode", json!("ai")),
            ("mode", json!("teleport")),
            ("id", json!("a b")),
            ("date", json!("yesterday")),
            ("extra", json!(1)),
            ("tree", json!("classic:b2(a1)a1c1b1a3")),
        ] {
            assert!(
                check_entry(&with(key, value.clone())).is_err(),
                "{key}: {value}"
            );
        }
        // An online game may end on time with moves to spare.
        let mut online = with("record", json!("classic:b2a1"));
        online["mode"] = json!("online");
        online["side"] = json!("o");
        assert!(check_entry(&online).is_ok());
        let mut lines = with("tree", json!("classic:b2a1(c3)c1b1a3"));
        lines["line"] = json!(5);
        assert!(check_entry(&lines).is_ok(), "{:?}", check_entry(&lines));
    }
}
