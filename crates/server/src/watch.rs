//! The Watch page's API (docs/api.md, "Watch"): the games in play anyone
//! may watch, the best rated first (the page follows the first), and the
//! games ended last; and a player's setting that keeps their games off it.

use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::api::{changer, session_player, ApiError};
use crate::app::App;
use crate::game::OnlineGame;
use crate::playing::summary;
use crate::rating::{Perf, Rating};
use crate::room::Snapshot;

/// `GET /api/watch`: `{"live": [...], "recent": [...]}` (see docs/api.md),
/// read at most every `FRESH_FOR`.
pub async fn get_watch(State(app): State<Arc<App>>) -> Response {
    if let Some(answer) = app.watch.fresh() {
        return Json(answer.as_ref()).into_response();
    }
    let rooms = match app.hub.watchable().await {
        Ok(rooms) => rooms,
        Err(e) => return ApiError::store(&e).into_response(),
    };
    // Each seat's player and the game's performance, for their ratings.
    let pairs: Vec<(i64, String)> = rooms
        .iter()
        .flat_map(|s| {
            let perf = Perf::of(s.options.kind, s.options.rules, s.options.clock).key();
            s.players
                .iter()
                .flatten()
                .map(move |p| (p.id, perf.clone()))
        })
        .collect();
    let (ratings, recent) = match app.players.watch_reads(pairs).await {
        Ok(read) => read,
        Err(e) => return ApiError::store(&e).into_response(),
    };
    let mut ratings = ratings.into_iter();
    let mut live: Vec<(f64, Value)> = rooms
        .iter()
        .filter_map(|s| {
            let seats = s
                .players
                .clone()
                .map(|p| p.map(|p| (p.name, ratings.next())));
            live_game(s, seats)
        })
        .collect();
    // The best rated first (a guest counts as a new player); a stable sort
    // keeps the most recent first among equals.
    live.sort_by(|a, b| b.0.total_cmp(&a.0));
    let live: Vec<Value> = live.into_iter().map(|(_, game)| game).collect();
    let answer = Arc::new(json!({ "live": live, "recent": recent }));
    app.watch.keep(Arc::clone(&answer));
    Json(answer.as_ref()).into_response()
}

/// One game in play as the page lists it, with the mean of its players'
/// ratings (none when its record cannot be read).
fn live_game(s: &Snapshot, seats: [Option<(String, Option<Rating>)>; 2]) -> Option<(f64, Value)> {
    let game = OnlineGame::from_record(&s.record).ok()?;
    let seat = |seat: &Option<(String, Option<Rating>)>| {
        seat.as_ref().map(|(name, rating)| {
            let rating = rating.unwrap_or(Rating::NEW);
            json!({
                "name": name,
                "rating": rating.rating.round(),
                "provisional": rating.provisional(),
            })
        })
    };
    let mean = seats
        .iter()
        .map(|seat| {
            seat.as_ref()
                .and_then(|(_, r)| *r)
                .unwrap_or(Rating::NEW)
                .rating
        })
        .sum::<f64>()
        / 2.0;
    let x = usize::from(s.x_seat);
    let mut listed = summary(s, &game);
    listed["x"] = json!(seat(&seats[x]));
    listed["o"] = json!(seat(&seats[x ^ 1]));
    Some((mean, listed))
}

/// How long the Watch page's answer is served again before it is read
/// anew: every open Watch view asks every 10 s, and each reading takes the
/// store's one thread.
const FRESH_FOR: Duration = Duration::from_secs(5);

/// The Watch page's last answer and when it was read.
#[derive(Default)]
pub struct Cached(Mutex<Option<(Instant, Arc<Value>)>>);

impl Cached {
    fn fresh(&self) -> Option<Arc<Value>> {
        let cached = self.0.lock().unwrap_or_else(PoisonError::into_inner);
        cached
            .as_ref()
            .filter(|(at, _)| at.elapsed() < FRESH_FOR)
            .map(|(_, answer)| Arc::clone(answer))
    }

    fn keep(&self, answer: Arc<Value>) {
        *self.0.lock().unwrap_or_else(PoisonError::into_inner) = Some((Instant::now(), answer));
    }
}

/// `GET /api/me/settings`: `{"hideGames"}`; 401 when signed out.
pub async fn get_settings(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let me = match session_player(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    match app.players.hides_games(me.id).await {
        Ok(hidden) => Json(json!({ "hideGames": hidden })).into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// The body of `POST /api/me/settings`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Settings {
    hide_games: bool,
}

/// `POST /api/me/settings` `{"hideGames"}`: keeps the player's games off
/// the Watch page, or not (a change: this site's pages, with the CSRF
/// token); answers the settings.
pub async fn post_settings(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Json<Settings>, JsonRejection>,
) -> Response {
    let me = match changer(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    let Ok(Json(settings)) = body else {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad-settings",
            "the settings are {\"hideGames\": true or false}",
        )
        .into_response();
    };
    match app
        .players
        .set_hides_games(me.id, settings.hide_games)
        .await
    {
        Ok(()) => Json(json!({ "hideGames": settings.hide_games })).into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}
