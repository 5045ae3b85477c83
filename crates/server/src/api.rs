//! The JSON API the page and the tests use (`docs/api.md`): the session,
//! and players' public pages. Every error is `{"error": code, "message":
//! sentence}` with its status; a change is taken only from this site's
//! pages (the `Origin` check) and, once signed in, with the session's CSRF
//! token.

use std::sync::Arc;

use std::net::SocketAddr;

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use crate::app::App;
use crate::network::client_of;
use crate::players::{Me, Rename, MAX_GAMES_PAGE};
use crate::rating::Perf;
use crate::ws::origin_allowed;

/// The cookie that holds the session's secret.
pub const COOKIE: &str = "uttt_session";
/// How long a cookie lasts without use: a year, as its session (see
/// `players::SESSION_IDLE_MS`).
const COOKIE_SECONDS: u64 = crate::players::SESSION_IDLE_MS / 1000;

/// An API error: its status, code and sentence.
#[derive(Debug)]
pub struct ApiError {
    status: StatusCode,
    code: &'static str,
    message: String,
    /// Seconds to wait before asking again (`Retry-After`), for a 429.
    retry_after: Option<u64>,
}

impl ApiError {
    pub(crate) fn new(
        status: StatusCode,
        code: &'static str,
        message: impl Into<String>,
    ) -> ApiError {
        ApiError {
            status,
            code,
            message: message.into(),
            retry_after: None,
        }
    }

    /// Its code (the tests read it).
    #[cfg(test)]
    pub(crate) fn code(&self) -> &'static str {
        self.code
    }

    /// The same error, saying to wait `seconds` before asking again.
    pub(crate) fn retry_after(mut self, seconds: u64) -> ApiError {
        self.retry_after = Some(seconds);
        self
    }

    /// The request carries no live session.
    pub(crate) fn signed_out() -> ApiError {
        ApiError::new(StatusCode::UNAUTHORIZED, "signed-out", "no session")
    }

    /// Nobody has the name asked for.
    pub(crate) fn no_such_player() -> ApiError {
        ApiError::new(
            StatusCode::NOT_FOUND,
            "no-such-player",
            "no player has that name",
        )
    }

    /// The store failed: said to the log, a plain sentence to the client.
    pub(crate) fn store(e: &str) -> ApiError {
        eprintln!("uttt-server: api: {e}");
        ApiError::new(
            StatusCode::SERVICE_UNAVAILABLE,
            "unavailable",
            "the server cannot answer just now; try again",
        )
    }
}

impl IntoResponse for ApiError {
    fn into_response(self) -> Response {
        let mut response = (
            self.status,
            Json(json!({ "error": self.code, "message": self.message })),
        )
            .into_response();
        if let Some(seconds) = self.retry_after {
            response
                .headers_mut()
                .insert(header::RETRY_AFTER, HeaderValue::from(seconds));
        }
        response
    }
}

/// The session secret the request's cookie holds, if any.
pub fn cookie_secret(headers: &HeaderMap) -> Option<&str> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(|v| v.split(';'))
        .find_map(|pair| pair.trim().strip_prefix(COOKIE)?.strip_prefix('='))
}

/// The signed-in player, if the request carries a live session.
pub(crate) async fn me(app: &App, headers: &HeaderMap) -> Result<Option<Me>, ApiError> {
    match cookie_secret(headers) {
        None => Ok(None),
        Some(secret) => app
            .players
            .signed_in(secret)
            .await
            .map_err(|e| ApiError::store(&e)),
    }
}

/// The signed-in player; `signed-out` (401) without a live session.
pub(crate) async fn session_player(app: &App, headers: &HeaderMap) -> Result<Me, ApiError> {
    me(app, headers).await?.ok_or_else(ApiError::signed_out)
}

/// `GET /api/me`: `{"name"}` for the session, 401 without one.
pub async fn get_me(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    match session_player(&app, &headers).await {
        Ok(me) => renewed(
            &app,
            &headers,
            Json(json!({ "name": me.name, "csrf": me.csrf })).into_response(),
        ),
        Err(e) => e.into_response(),
    }
}

/// `POST /api/session`: the session's player, made with a proposed name
/// if the request has none (a player's first online action). Only from
/// this site's pages.
pub async fn post_session(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
) -> Response {
    if !from_this_site(&app, &headers) {
        return ApiError::new(
            StatusCode::FORBIDDEN,
            "bad-origin",
            "only this site's pages may do that",
        )
        .into_response();
    }
    match me(&app, &headers).await {
        Ok(Some(me)) => {
            let answer = Json(json!({ "name": me.name, "csrf": me.csrf })).into_response();
            return renewed(&app, &headers, answer);
        }
        Ok(None) => {}
        Err(e) => return e.into_response(),
    }
    if !app.signups.take(client_of(remote.ip())) {
        return ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "rate-limited",
            "too many new players from this address; wait a minute",
        )
        .into_response();
    }
    let agent = headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let (session, me) = match app.players.sign_up(agent).await {
        Ok(made) => made,
        Err(e) => return ApiError::store(&e).into_response(),
    };
    let response = (
        StatusCode::CREATED,
        Json(json!({ "name": me.name, "csrf": me.csrf })),
    )
        .into_response();
    with_cookie(&app, &headers, &session.secret, response)
}

/// `GET /api/players/{name}`: a player's public page, 404 for nobody.
pub async fn get_player(State(app): State<Arc<App>>, Path(name): Path<String>) -> Response {
    match app.players.profile(&name).await {
        Ok(Some(profile)) => {
            let perfs: serde_json::Map<String, serde_json::Value> = profile
                .ratings
                .iter()
                .map(|(perf, r)| {
                    let shown = json!({
                        "rating": r.rating.round(),
                        "rd": r.rd.round(),
                        "volatility": r.volatility,
                        "games": r.games,
                        "provisional": r.provisional(),
                    });
                    (perf.clone(), shown)
                })
                .collect();
            Json(json!({
                "name": profile.name,
                "created": profile.created_ms,
                "perfs": perfs,
            }))
            .into_response()
        }
        Ok(None) => ApiError::no_such_player().into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// The query of a player's games: which page.
#[derive(serde::Deserialize)]
pub struct GamesQuery {
    page: Option<u32>,
}

/// `GET /api/players/{name}/games?page=N`: the player's archived games,
/// newest first, 20 a page; 404 for nobody, 400 for a page out of range.
pub async fn get_games(
    State(app): State<Arc<App>>,
    Path(name): Path<String>,
    query: Result<axum::extract::Query<GamesQuery>, axum::extract::rejection::QueryRejection>,
) -> Response {
    let page = match query {
        Ok(q) => q.page.unwrap_or(1),
        Err(_) => 0,
    };
    if !(1..=MAX_GAMES_PAGE).contains(&page) {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad-page",
            format!("page is a number from 1 to {MAX_GAMES_PAGE}"),
        )
        .into_response();
    }
    match app.players.games(&name, page).await {
        Ok(Some(games)) => Json(json!({ "page": page, "games": games })).into_response(),
        Ok(None) => ApiError::no_such_player().into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// `GET /api/leaderboard/{perf}`: the best established ratings of a
/// performance, 404 for a performance there is not.
pub async fn get_leaderboard(State(app): State<Arc<App>>, Path(perf): Path<String>) -> Response {
    let Some(perf) = Perf::from_key(&perf) else {
        return ApiError::new(
            StatusCode::NOT_FOUND,
            "no-such-perf",
            "there is no such performance",
        )
        .into_response();
    };
    match app.players.leaderboard(perf).await {
        Ok(board) => {
            let players: Vec<_> = board
                .iter()
                .enumerate()
                .map(|(i, (name, r))| {
                    json!({
                        "rank": i + 1,
                        "name": name,
                        "rating": r.rating.round(),
                        "rd": r.rd.round(),
                        "games": r.games,
                    })
                })
                .collect();
            Json(json!({ "perf": perf.key(), "players": players })).into_response()
        }
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// `GET /api/pools`: the Play now pools the page offers, and how many
/// players wait in each (and in any other pool someone waits in). Counts
/// only: who waits is not said.
pub async fn get_pools(State(app): State<Arc<App>>) -> Response {
    let pools: Vec<_> = app
        .lobby
        .counts()
        .into_iter()
        .map(|(seek, waiting)| {
            json!({
                "perf": Perf::of(seek.kind, seek.rules, seek.clock).key(),
                "kind": seek.kind,
                "rules": seek.rules,
                "clock": seek.clock,
                "days": seek.days,
                "rated": seek.rated,
                "waiting": waiting,
            })
        })
        .collect();
    Json(json!({ "pools": pools })).into_response()
}

/// The header a change carries its session's CSRF token in.
const CSRF_HEADER: &str = "x-csrf-token";

/// The signed-in player asking for a change: from this site's pages, with
/// a live session and its CSRF token (compared in constant time).
pub(crate) async fn changer(app: &App, headers: &HeaderMap) -> Result<Me, ApiError> {
    if !from_this_site(app, headers) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "bad-origin",
            "only this site's pages may do that",
        ));
    }
    let me = session_player(app, headers).await?;
    let token = headers
        .get(CSRF_HEADER)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    if !crate::room::same_token(token, &me.csrf) {
        return Err(ApiError::new(
            StatusCode::FORBIDDEN,
            "bad-csrf",
            "the request does not carry this session's token",
        ));
    }
    Ok(me)
}

/// The body of a rename.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewName {
    name: String,
}

/// `POST /api/me/name` `{"name"}`: a new name, once a day.
pub async fn post_name(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Json<NewName>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let me = match changer(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    let Ok(Json(NewName { name })) = body else {
        return ApiError::new(StatusCode::BAD_REQUEST, "bad-body", "send {\"name\": ...}")
            .into_response();
    };
    match app.players.rename(&me, &name).await {
        Ok(Rename::Done) => Json(json!({ "name": name })).into_response(),
        Ok(Rename::Bad(bad)) => {
            ApiError::new(StatusCode::BAD_REQUEST, "bad-name", bad.message()).into_response()
        }
        Ok(Rename::Taken) => ApiError::new(
            StatusCode::CONFLICT,
            "name-taken",
            "another player has that name",
        )
        .into_response(),
        Ok(Rename::TooSoon) => ApiError::new(
            StatusCode::TOO_MANY_REQUESTS,
            "too-soon",
            "a name can change once a day",
        )
        .into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// `POST /api/signout`: ends this session and clears its cookie.
pub async fn post_sign_out(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    if let Err(e) = changer(&app, &headers).await {
        return e.into_response();
    }
    if let Some(secret) = cookie_secret(&headers) {
        if let Err(e) = app.players.sign_out(secret).await {
            return ApiError::store(&e).into_response();
        }
    }
    signed_out(&app)
}

/// `204` with the session cookie cleared.
fn signed_out(app: &App) -> Response {
    let mut response = StatusCode::NO_CONTENT.into_response();
    let cleared = format!(
        "{COOKIE}=; Path={}; Max-Age=0; HttpOnly; SameSite=Lax",
        app.site.prefix
    );
    if let Ok(value) = HeaderValue::from_str(&cleared) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    response
}

/// `GET /api/me/sessions`: the signed-in browsers, this one marked.
pub async fn get_sessions(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let (me, secret) = match (me(&app, &headers).await, cookie_secret(&headers)) {
        (Ok(Some(me)), Some(secret)) => (me, secret),
        (Err(e), _) => return e.into_response(),
        _ => return ApiError::signed_out().into_response(),
    };
    match app.players.sessions(&me, secret).await {
        Ok(sessions) => Json(json!({ "sessions": sessions })).into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// `DELETE /api/me/sessions/{id}`: ends one of the player's sessions.
pub async fn delete_session(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(handle): Path<String>,
) -> Response {
    let me = match changer(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    match app.players.revoke(&me, &handle).await {
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => ApiError::new(
            StatusCode::NOT_FOUND,
            "no-such-session",
            "you have no such session",
        )
        .into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// `DELETE /api/me`: deletes the account (the games stay, anonymous).
pub async fn delete_me(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let me = match changer(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    match app.players.delete(&me).await {
        Ok(()) => signed_out(&app),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// Whether a state-changing request comes from this site's pages: a
/// browser always sends `Origin` with one, so it must be there and ours.
pub(crate) fn from_this_site(app: &App, headers: &HeaderMap) -> bool {
    headers.contains_key(header::ORIGIN) && origin_allowed(headers, &app.allowed_origins)
}

/// Whether the page was reached over https (directly, or as a proxy in
/// front says): then the cookie is only ever sent over https.
pub(crate) fn secure(headers: &HeaderMap) -> bool {
    let says = |name: &str, value: &str| {
        headers
            .get(name)
            .and_then(|v| v.to_str().ok())
            .is_some_and(|v| v.to_ascii_lowercase().starts_with(value))
    };
    says("x-forwarded-proto", "https") || says("origin", "https://")
}

/// `response` with the request's session cookie set again for another
/// [`COOKIE_SECONDS`]: a session in use lasts as long as it is used (the
/// server forgets one unseen for as long).
pub(crate) fn renewed(app: &App, headers: &HeaderMap, response: Response) -> Response {
    match cookie_secret(headers) {
        Some(secret) => with_cookie(app, headers, secret, response),
        None => response,
    }
}

/// `response` setting the session cookie that holds `secret` (for a year,
/// `Secure` when the page came over https).
pub(crate) fn with_cookie(
    app: &App,
    headers: &HeaderMap,
    secret: &str,
    mut response: Response,
) -> Response {
    let cookie = session_cookie(secret, &app.site.prefix, secure(headers));
    if let Ok(value) = HeaderValue::from_str(&cookie) {
        response.headers_mut().insert(header::SET_COOKIE, value);
    }
    response
}

/// The `Set-Cookie` value of a session.
pub(crate) fn session_cookie(secret: &str, path: &str, secure: bool) -> String {
    format!(
        "{COOKIE}={secret}; Path={path}; Max-Age={COOKIE_SECONDS}; HttpOnly; SameSite=Lax{}",
        if secure { "; Secure" } else { "" }
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cookie_is_read_among_others_and_written_safe() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; uttt_session=abc; b=2"),
        );
        assert_eq!(cookie_secret(&headers), Some("abc"));
        assert_eq!(cookie_secret(&HeaderMap::new()), None);
        let cookie = session_cookie("abc", "/uttt/", true);
        for part in [
            "uttt_session=abc",
            "Path=/uttt/",
            "HttpOnly",
            "SameSite=Lax",
            "Secure",
        ] {
            assert!(cookie.contains(part), "{cookie}");
        }
        assert!(!session_cookie("abc", "/", false).contains("Secure"));
    }
}
