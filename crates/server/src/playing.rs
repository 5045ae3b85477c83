//! A player's games in play (`GET /api/me/playing`, docs/api.md): every
//! online game of theirs not yet ended, on whichever device it began, with
//! whose move it is, so the page can list "Your move" and count it on the
//! tab and the app's icon. The failpoints build also lets the tests move
//! the server's clocks forward (`POST /test/clock`).

use std::sync::Arc;

use axum::extract::State;
use axum::http::HeaderMap;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};
use uttt_protocol::Side;

use crate::api::{session_player, ApiError};
use crate::app::App;
use crate::game::OnlineGame;
use crate::room::Snapshot;

/// `GET /api/me/playing`: `{"games": [...]}`, the games where it is the
/// player's move first (the one nearest its deadline first), then the
/// others, the most recently changed first; 401 when signed out.
pub async fn get_playing(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let me = match session_player(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    match app.hub.playing(me.id).await {
        Ok(rooms) => {
            let mut games: Vec<Value> = rooms.iter().filter_map(|s| game(s, me.id)).collect();
            // Stable: within each part the store's order (most recent first)
            // stands, but for the deadlines of the player's moves.
            games.sort_by_key(|g| {
                let yours = g["yourMove"].as_bool() == Some(true);
                (
                    !yours,
                    yours.then(|| g["deadline"].as_u64().unwrap_or(u64::MAX)),
                )
            });
            Json(json!({ "games": games })).into_response()
        }
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// One game as the list shows it, from the seat of player `me` (none when
/// the stored record cannot be read: it is left out, as the hub leaves it).
fn game(s: &Snapshot, me: i64) -> Option<Value> {
    let seat = s
        .players
        .iter()
        .position(|p| p.as_ref().is_some_and(|p| p.id == me))?;
    let side = if usize::from(s.x_seat) == seat {
        Side::X
    } else {
        Side::O
    };
    let game = OnlineGame::from_record(&s.record).ok()?;
    let mut listed = summary(s, &game);
    listed["side"] = json!(side);
    listed["opponent"] = json!(s.players[seat ^ 1].as_ref().map(|p| &p.name));
    listed["yourMove"] = json!(game.to_move() == side);
    listed["deadline"] = json!(s.deadline);
    Some(listed)
}

/// What every list of games in play says of one: its room, game, timing,
/// record and moves played (`game` is the record, replayed).
#[must_use]
pub fn summary(s: &Snapshot, game: &OnlineGame) -> Value {
    json!({
        "room": s.code,
        "kind": s.options.kind,
        "rules": s.options.rules,
        "clock": s.options.clock,
        "days": s.options.days,
        "rated": s.options.rated,
        "record": s.record,
        "ply": game.ply(),
    })
}

/// The body of `POST /test/clock`.
#[cfg(feature = "failpoints")]
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Skip {
    skip_ms: u64,
}

/// `POST /test/clock` `{"skipMs"}` (the failpoints build only, for the
/// tests): moves the server's clocks forward, then ends the stored
/// correspondence games that ran out of days as the watch does each
/// minute, and reminds those whose days are running out; answers
/// `{"woken", "reminded"}`, how many games were read back or reminded.
#[cfg(feature = "failpoints")]
pub async fn post_test_clock(State(app): State<Arc<App>>, Json(skip): Json<Skip>) -> Response {
    crate::clock::skip(skip.skip_ms);
    let woken = app.hub.wake_overdue().await;
    let reminded = app.hub.remind().await;
    Json(json!({ "woken": woken, "reminded": reminded })).into_response()
}
