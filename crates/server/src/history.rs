//! The history endpoints (`docs/api.md`): the games a player's browsers
//! attach to their account (`PUT` and `GET /api/me/history`, private),
//! and a player's rating history for the profile's graphs (`GET
//! /api/players/{name}/history`, public). The rows and their checks are
//! `players/history.rs`.

use std::net::SocketAddr;
use std::sync::Arc;

use axum::extract::rejection::{JsonRejection, QueryRejection};
use axum::extract::{ConnectInfo, Path, Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::api::{changer, renewed, session_player, ApiError};
use crate::app::App;
use crate::network::client_of;
use crate::players::history::{check_entry, MAX_BATCH};

/// The largest body `PUT /api/me/history` reads, in bytes: a full batch
/// of the largest entries, with room for the JSON around them.
pub const MAX_BODY_BYTES: usize = MAX_BATCH * crate::players::history::MAX_ENTRY_BYTES + 64 * 1024;

/// Requests to attach games one address may make at once (a browser
/// attaching its 500 games makes 10)...
pub const ATTACH_BURST: u32 = 30;
/// ...and a minute after that.
pub const ATTACH_PER_MINUTE: u32 = 30;

/// The body of `PUT /api/me/history`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Batch {
    entries: Vec<Value>,
}

/// `PUT /api/me/history` `{"entries": [...]}`: keeps the page's finished
/// games with the account, a game id already kept replaced. Every entry
/// is checked first; one bad entry refuses the whole batch (`bad-entry`,
/// with its `index`), so nothing is half stored.
pub async fn put_history(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<Batch>, JsonRejection>,
) -> Response {
    let me = match changer(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    if !app.attaches.take(client_of(remote.ip())) {
        return too_many_requests();
    }
    let entries = match body {
        Ok(Json(Batch { entries })) => entries,
        Err(rejection) if rejection.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return ApiError::new(
                StatusCode::PAYLOAD_TOO_LARGE,
                "too-large",
                format!("a request is at most {MAX_BODY_BYTES} bytes"),
            )
            .into_response()
        }
        Err(_) => {
            return ApiError::new(
                StatusCode::BAD_REQUEST,
                "bad-body",
                "send {\"entries\": [...]}",
            )
            .into_response()
        }
    };
    if entries.len() > MAX_BATCH {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            "too-many-entries",
            format!("send at most {MAX_BATCH} entries a request"),
        )
        .into_response();
    }
    let mut checked = Vec::with_capacity(entries.len());
    for (index, entry) in entries.iter().enumerate() {
        match check_entry(entry) {
            Ok(entry) => checked.push(entry),
            Err(message) => {
                let body = json!({ "error": "bad-entry", "message": message, "index": index });
                return (StatusCode::BAD_REQUEST, Json(body)).into_response();
            }
        }
    }
    let stored = checked.len();
    match app.players.attach(&me, checked).await {
        Ok(kept) => Json(json!({ "stored": stored, "kept": kept })).into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// The answer to an address past its allowance of history requests.
fn too_many_requests() -> Response {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "rate-limited",
        "too many requests for kept games from this address; wait a little",
    )
    .retry_after(60 / u64::from(ATTACH_PER_MINUTE).max(1) + 1)
    .into_response()
}

/// The query of `GET /api/me/history`: entries stored since when.
#[derive(serde::Deserialize)]
pub struct SinceQuery {
    since: Option<u64>,
}

/// `GET /api/me/history?since=MS`: the signed-in player's attached games
/// stored at or after `since` (all of them without it), oldest first, and
/// `until`, the `since` of the next call. Their own only; 401 without a
/// session. An answer can hold 500 games read on the store's one thread,
/// so it spends the same allowance per address as sending them.
pub async fn get_history(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    query: Result<Query<SinceQuery>, QueryRejection>,
) -> Response {
    let Ok(Query(SinceQuery { since })) = query else {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad-since",
            "since is a time in ms since the epoch",
        )
        .into_response();
    };
    let me = match session_player(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    if !app.attaches.take(client_of(remote.ip())) {
        return too_many_requests();
    }
    match app.players.attached(&me, since.unwrap_or(0)).await {
        Ok((entries, until)) => renewed(
            &app,
            &headers,
            Json(json!({ "entries": entries, "until": until })).into_response(),
        ),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// `GET /api/players/{name}/history`: the player's rating after each
/// rated game, by performance, oldest first (the latest
/// [`crate::players::history::RATING_POINTS`] of each); 404 for nobody.
pub async fn get_rating_history(State(app): State<Arc<App>>, Path(name): Path<String>) -> Response {
    match app.players.rating_history(&name).await {
        Ok(Some(perfs)) => Json(json!({ "perfs": perfs })).into_response(),
        Ok(None) => ApiError::no_such_player().into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}
