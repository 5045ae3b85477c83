//! Vacation (docs/protocol.md, "Vacation"): a signed-in player may stop
//! their correspondence clocks for up to [`DAYS_PER_YEAR`] days a calendar
//! year (UTC), taken in whole days from the moment they leave. While they
//! are away, their clock in each of their correspondence games in play
//! stands still (a move of theirs due waits; one the opponent makes
//! meanwhile starts their time at the vacation's end); back early, the
//! whole days not begun are theirs again. Games begun during a vacation
//! run as usual, and live games never stop.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use chrono::{DateTime, Datelike};
use rusqlite::{params, Connection};
use serde_json::json;

use crate::api::{changer, session_player, ApiError};
use crate::app::App;
use crate::clock::epoch_ms;
use crate::store::ms_to_sql;

/// Days of vacation a player has each calendar year.
pub const DAYS_PER_YEAR: u32 = 14;
/// A day, in milliseconds.
const DAY_MS: u64 = 86_400_000;

/// The calendar year (UTC) of `ms` since the epoch.
fn year_of(ms: u64) -> i32 {
    DateTime::from_timestamp_millis(i64::try_from(ms).unwrap_or(i64::MAX))
        .map_or(1970, |t| t.year())
}

/// A player's vacation as stored: the year its days count in, the days
/// used or taken then, and when the one under way ends.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Standing {
    year: Option<i32>,
    days: u32,
    until: Option<u64>,
}

impl Standing {
    /// The days still to take in the year of `now`.
    #[must_use]
    pub fn days_left(&self, now: u64) -> u32 {
        if self.year == Some(year_of(now)) {
            DAYS_PER_YEAR.saturating_sub(self.days)
        } else {
            DAYS_PER_YEAR
        }
    }

    /// When the vacation under way at `now` ends, if there is one.
    #[must_use]
    pub fn away_until(&self, now: u64) -> Option<u64> {
        self.until.filter(|&until| until > now)
    }

    /// Leaving at `now` for `days` days: the new standing, or why not.
    fn leave(self, days: u32, now: u64) -> Result<Standing, ApiError> {
        if self.away_until(now).is_some() {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "on-vacation",
                "you are on vacation already",
            ));
        }
        let left = self.days_left(now);
        if days == 0 || days > left {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad-days",
                format!("a vacation is 1 to {left} days (of {DAYS_PER_YEAR} a year)"),
            ));
        }
        Ok(Standing {
            year: Some(year_of(now)),
            days: DAYS_PER_YEAR - left + days,
            until: Some(now + u64::from(days) * DAY_MS),
        })
    }

    /// Back at `now`: the new standing (the whole days not begun given
    /// back), or why not.
    fn back(self, now: u64) -> Result<Standing, ApiError> {
        let Some(until) = self.away_until(now) else {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "not-on-vacation",
                "you are not on vacation",
            ));
        };
        let unused = u32::try_from((until - now) / DAY_MS).unwrap_or(0);
        Ok(Standing {
            days: self.days.saturating_sub(unused),
            until: None,
            ..self
        })
    }
}

fn read(connection: &Connection, player: i64) -> Result<Standing, String> {
    connection
        .query_row(
            "SELECT vacation_year, vacation_days, vacation_until_ms FROM players WHERE id = ?1",
            [player],
            |r| {
                Ok(Standing {
                    year: r.get(0)?,
                    days: r.get(1)?,
                    until: r
                        .get::<_, Option<i64>>(2)?
                        .map(|ms| u64::try_from(ms).unwrap_or(0)),
                })
            },
        )
        .map_err(|e| format!("cannot read the vacation: {e}"))
}

/// When player `player`'s vacation ends, as stored (none: never taken, or
/// back from it; a time past: over).
///
/// # Errors
/// When the database cannot be read.
pub fn until_of(connection: &Connection, player: i64) -> Result<Option<u64>, String> {
    read(connection, player).map(|s| s.until)
}

fn write(connection: &Connection, player: i64, s: Standing) -> Result<(), String> {
    connection
        .execute(
            "UPDATE players SET vacation_year = ?2, vacation_days = ?3, vacation_until_ms = ?4 WHERE id = ?1",
            params![player, s.year, s.days, s.until.map(ms_to_sql)],
        )
        .map(drop)
        .map_err(|e| format!("cannot keep the vacation: {e}"))
}

/// The answer: `{"daysPerYear", "daysLeft", "until"}` (`until` null when
/// not away).
fn answer(s: &Standing, now: u64) -> Response {
    Json(json!({
        "daysPerYear": DAYS_PER_YEAR,
        "daysLeft": s.days_left(now),
        "until": s.away_until(now),
    }))
    .into_response()
}

/// `GET /api/me/vacation`: the player's vacation; 401 when signed out.
pub async fn get_vacation(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let me = match session_player(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    let player = me.id;
    match app.players.store().read(move |c| read(c, player)).await {
        Ok(s) => answer(&s, epoch_ms()),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// The body of `POST /api/me/vacation`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Leave {
    days: u32,
}

/// Changes the player's standing by `change` (checked and kept in one
/// transaction), then tells their correspondence games.
async fn change(
    app: &Arc<App>,
    player: i64,
    change: impl FnOnce(Standing, u64) -> Result<Standing, ApiError> + Send + 'static,
) -> Response {
    let now = epoch_ms();
    let kept = app
        .players
        .store()
        .write(move |c| {
            let next = change(read(c, player)?, now);
            if let Ok(next) = &next {
                write(c, player, *next)?;
            }
            Ok(next)
        })
        .await;
    match kept {
        Ok(Ok(s)) => {
            app.hub.tell_vacation(player);
            answer(&s, now)
        }
        Ok(Err(refused)) => refused.into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// `POST /api/me/vacation` `{"days"}`: leaves now for that many days (a
/// change: this site's pages, with the CSRF token); answers the vacation.
pub async fn post_vacation(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Json<Leave>, JsonRejection>,
) -> Response {
    let me = match changer(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    let Ok(Json(Leave { days })) = body else {
        return ApiError::new(StatusCode::BAD_REQUEST, "bad-days", "send {\"days\": N}")
            .into_response();
    };
    change(&app, me.id, move |s, now| s.leave(days, now)).await
}

/// `DELETE /api/me/vacation`: back now (a change); answers the vacation.
pub async fn delete_vacation(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let me = match changer(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    change(&app, me.id, Standing::back).await
}

#[cfg(test)]
mod tests {
    use super::*;

    /// 2026-12-20 and 2027-01-02, UTC.
    const DEC_20: u64 = 1_797_724_800_000;
    const JAN_2: u64 = DEC_20 + 13 * DAY_MS;

    #[test]
    fn the_days_of_a_year_are_taken_and_given_back_whole() {
        assert_eq!((year_of(DEC_20), year_of(JAN_2)), (2026, 2027));
        let fresh = Standing {
            year: None,
            days: 0,
            until: None,
        };
        assert_eq!(fresh.days_left(DEC_20), 14);
        let away = fresh.leave(10, DEC_20).unwrap();
        assert_eq!(away.days_left(DEC_20), 4);
        assert_eq!(away.away_until(DEC_20 + DAY_MS), Some(DEC_20 + 10 * DAY_MS));
        assert_eq!(
            away.leave(1, DEC_20 + DAY_MS).unwrap_err().code(),
            "on-vacation"
        );
        // Back after two and a half days: seven whole days come back.
        let back = away.back(DEC_20 + 5 * DAY_MS / 2).unwrap();
        assert_eq!((back.days_left(DEC_20), back.until), (11, None));
        assert_eq!(
            back.back(DEC_20 + 3 * DAY_MS).unwrap_err().code(),
            "not-on-vacation"
        );
        assert_eq!(
            back.leave(12, DEC_20 + 3 * DAY_MS).unwrap_err().code(),
            "bad-days"
        );
        assert_eq!(
            back.leave(0, DEC_20 + 3 * DAY_MS).unwrap_err().code(),
            "bad-days"
        );
        // A new year, a new fourteen.
        assert_eq!(back.days_left(JAN_2), 14);
        assert_eq!(back.leave(14, JAN_2).unwrap().days_left(JAN_2), 0);
    }
}
