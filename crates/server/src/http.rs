//! The HTTP side: one router for the site (and, as it grows, the game's
//! WebSocket), the headers every answer carries, and a request log that
//! cannot be used to write escape sequences to the terminal.

use std::sync::Arc;

use axum::body::Body;
use axum::extract::{DefaultBodyLimit, Request, State};
use axum::http::header::{self, HeaderName, HeaderValue};
use axum::http::{Method, StatusCode};
use axum::middleware::{self, Next};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post};
use axum::Router;
use tower::ServiceExt;
use tower_http::compression::CompressionLayer;
use tower_http::services::ServeFile;
use tower_http::set_header::SetResponseHeaderLayer;

use crate::app::App;
use crate::site::{self, Route};
use crate::{api, history, playing, push, qr, signin, vacation, watch, ws};

/// The page's own Content-Security-Policy (its `<meta>` in index.html)
/// plus what only a header can say: no page may frame the game.
pub const CONTENT_SECURITY_POLICY: &str = "default-src 'self'; script-src 'self' 'wasm-unsafe-eval'; \
worker-src 'self'; style-src 'self'; img-src 'self' data:; font-src 'self'; connect-src 'self'; \
manifest-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

/// The whole HTTP application: the game's WebSocket at `/ws` (and under
/// the site's prefix, where a page's relative URL leads), the site for the
/// rest.
pub fn router(app: Arc<App>) -> Router {
    let headers = [
        (header::CONTENT_SECURITY_POLICY, CONTENT_SECURITY_POLICY),
        (header::X_CONTENT_TYPE_OPTIONS, "nosniff"),
        (header::X_FRAME_OPTIONS, "DENY"),
        (header::REFERRER_POLICY, "no-referrer"),
        (
            HeaderName::from_static("cross-origin-opener-policy"),
            "same-origin",
        ),
    ];
    // axum answers HEAD with the GET handler, whose upgrade then fails
    // with a 405 naming no method: every other method is told here.
    let game = || get(ws::upgrade).head(only_get).fallback(only_get);
    let mut routes = Router::new();
    // At the root, and under the site's prefix where a page's relative
    // URLs lead.
    let mut bases = vec!["/".to_string()];
    if app.site.prefix != "/" {
        bases.push(app.site.prefix.clone());
    }
    for base in bases {
        routes = routes
            .route(&format!("{base}ws"), game())
            .route(&format!("{base}qr.svg"), get(qr::invitation_qr))
            .route(
                &format!("{base}api/me"),
                get(api::get_me).delete(api::delete_me),
            )
            .route(&format!("{base}api/me/sessions"), get(api::get_sessions))
            .route(
                &format!("{base}api/me/sessions/{{id}}"),
                delete(api::delete_session),
            )
            .route(
                &format!("{base}api/session"),
                get(signin::get_session).post(api::post_session),
            )
            .route(&format!("{base}api/signin"), post(signin::post_sign_in))
            .route(
                &format!("{base}api/signin/passkey/start"),
                post(signin::post_sign_in_start),
            )
            .route(
                &format!("{base}api/signin/passkey/finish"),
                post(signin::post_sign_in_finish),
            )
            .route(
                &format!("{base}api/me/password"),
                post(signin::post_password),
            )
            .route(&format!("{base}api/me/passkeys"), get(signin::get_passkeys))
            .route(
                &format!("{base}api/me/passkeys/start"),
                post(signin::post_passkey_start),
            )
            .route(
                &format!("{base}api/me/passkeys/finish"),
                post(signin::post_passkey_finish),
            )
            .route(
                &format!("{base}api/me/passkeys/{{id}}"),
                delete(signin::delete_passkey),
            )
            .route(&format!("{base}api/me/name"), post(api::post_name))
            .route(&format!("{base}api/signout"), post(api::post_sign_out))
            .route(&format!("{base}api/players/{{name}}"), get(api::get_player))
            .route(&format!("{base}api/pools"), get(api::get_pools))
            .route(&format!("{base}api/me/playing"), get(playing::get_playing))
            .route(&format!("{base}api/watch"), get(watch::get_watch))
            .route(
                &format!("{base}api/me/settings"),
                get(watch::get_settings).post(watch::post_settings),
            )
            .route(&format!("{base}api/push/key"), get(push::get_key))
            .route(
                &format!("{base}api/me/vacation"),
                get(vacation::get_vacation)
                    .post(vacation::post_vacation)
                    .delete(vacation::delete_vacation),
            )
            .route(
                &format!("{base}api/me/push"),
                get(push::get_settings).post(push::post_settings),
            )
            .route(
                &format!("{base}api/me/push/subscription"),
                post(push::post_subscription).delete(push::delete_subscription),
            )
            .route(
                &format!("{base}api/challenges"),
                get(crate::challenges::get_challenges),
            )
            .route(
                &format!("{base}api/players/{{name}}/games"),
                get(api::get_games),
            )
            .route(
                &format!("{base}api/leaderboard/{{perf}}"),
                get(api::get_leaderboard),
            )
            .route(
                &format!("{base}api/players/{{name}}/history"),
                get(history::get_rating_history),
            )
            .route(
                &format!("{base}api/me/history"),
                get(history::get_history)
                    .put(history::put_history)
                    .layer(DefaultBodyLimit::max(history::MAX_BODY_BYTES)),
            );
    }
    #[cfg(feature = "failpoints")]
    {
        routes = routes.route("/test/clock", post(playing::post_test_clock));
    }
    let mut router = routes
        .fallback(static_file)
        .layer(middleware::from_fn_with_state(Arc::clone(&app), known_host))
        .with_state(Arc::clone(&app))
        // Nothing here is named by its content, so every answer is
        // revalidated (Last-Modified makes that a cheap 304); the service
        // worker keeps the game playable offline.
        .layer(SetResponseHeaderLayer::if_not_present(
            header::CACHE_CONTROL,
            HeaderValue::from_static("no-cache"),
        ))
        .layer(CompressionLayer::new());
    for (name, value) in headers {
        router = router.layer(SetResponseHeaderLayer::overriding(
            name,
            HeaderValue::from_static(value),
        ));
    }
    router
        .layer(middleware::map_response(with_charset))
        .layer(middleware::from_fn_with_state(app, log_request))
}

/// Names UTF-8 on text answers that lack a charset (every text file of the
/// site is UTF-8), so no browser guesses.
async fn with_charset(mut response: Response) -> Response {
    let headers = response.headers_mut();
    let typed = headers
        .get(header::CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .filter(|t| !t.contains("charset"))
        .filter(|t| t.starts_with("text/") || t.ends_with("javascript") || t.ends_with("json"))
        .map(|t| format!("{t}; charset=utf-8"));
    if let Some(value) = typed.and_then(|t| HeaderValue::from_str(&t).ok()) {
        headers.insert(header::CONTENT_TYPE, value);
    }
    response
}

/// 405 for a method other than GET where only GET is served.
async fn only_get() -> Response {
    (
        StatusCode::METHOD_NOT_ALLOWED,
        [(header::ALLOW, "GET")],
        "method not allowed\n",
    )
        .into_response()
}

/// Lets through requests for one of the server's host names (see
/// `hosts.rs`) and those naming none (no browser sends those); answers the
/// rest 421, before any handler sees them.
async fn known_host(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    let mut named = request.headers().get_all(header::HOST).iter();
    let known = match (named.next(), named.next()) {
        (None, _) => true,
        (Some(host), None) => host.to_str().is_ok_and(|h| app.hosts.accepts(h)),
        (Some(_), Some(_)) => false,
    };
    if known {
        return next.run(request).await;
    }
    (
        StatusCode::MISDIRECTED_REQUEST,
        "this server does not answer to that host name; \
         its operator can name it with --host\n",
    )
        .into_response()
}

/// GET or HEAD of a file of the site.
async fn static_file(State(app): State<Arc<App>>, request: Request) -> Response {
    let site = &app.site;
    if request.method() != Method::GET && request.method() != Method::HEAD {
        return (
            StatusCode::METHOD_NOT_ALLOWED,
            [(header::ALLOW, "GET, HEAD")],
            "method not allowed\n",
        )
            .into_response();
    }
    match site::route(&site.prefix, request.uri().path(), site.entries.as_deref()) {
        Route::Redirect(to) => {
            (StatusCode::MOVED_PERMANENTLY, [(header::LOCATION, to)]).into_response()
        }
        Route::NotFound => not_found(),
        Route::File(segments) => {
            let root = site.root.clone();
            // Resolving symlinks touches the disk: off the async threads.
            let found = tokio::task::spawn_blocking(move || site::file_inside(&root, &segments))
                .await
                .ok()
                .flatten();
            match found {
                Some(path) => match ServeFile::new(path).oneshot(request).await {
                    Ok(response) => response.map(Body::new),
                    Err(e) => match e {},
                },
                None => not_found(),
            }
        }
    }
}

fn not_found() -> Response {
    (StatusCode::NOT_FOUND, "not found\n").into_response()
}

/// Prints `status method path` for each request when logging is on.
async fn log_request(State(app): State<Arc<App>>, request: Request, next: Next) -> Response {
    if !app.site.log {
        return next.run(request).await;
    }
    let line = format!(
        "{} {}",
        printable(request.method().as_str()),
        printable(request.uri().path())
    );
    let response = next.run(request).await;
    println!("{} {line}", response.status().as_u16());
    response
}

/// `text` with every control character escaped, so what a client sends
/// can never move the cursor or recolour the operator's terminal.
#[must_use]
pub fn printable(text: &str) -> String {
    text.chars()
        .flat_map(|c| {
            let escaped: Vec<char> = if c.is_control() {
                c.escape_default().collect()
            } else {
                vec![c]
            };
            escaped
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_control_characters() {
        assert_eq!(printable("/a\u{1b}[2Jb"), "/a\\u{1b}[2Jb");
        assert_eq!(printable("/ok/ü"), "/ok/ü");
        assert_eq!(printable("\r\n"), "\\r\\n");
    }
}
