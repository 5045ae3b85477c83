//! The push API (docs/api.md, "Notifications"): the server's public key,
//! a browser's subscription (one a session) and the player's switches.

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode, Uri};
use axum::response::{IntoResponse, Response};
use axum::Json;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use base64::Engine;
use serde_json::{json, Map, Value};

use super::sql::{self, Target};
use super::Kind;
use crate::api::{changer, cookie_secret, session_player, ApiError};
use crate::app::App;
use crate::clock::epoch_ms;
use crate::players::{Me, Players};

/// The longest endpoint taken (push services' are a few hundred bytes).
const MAX_ENDPOINT: usize = 1024;

/// `GET /api/push/key`: `{"key"}`, the server's VAPID public key
/// (base64url), which a browser subscribes with.
pub async fn get_key(State(app): State<Arc<App>>) -> Response {
    Json(json!({ "key": app.hub.push().public_key() })).into_response()
}

/// The session the request's cookie names (a signed-in one: checked
/// before).
fn session_of(headers: &HeaderMap) -> String {
    Players::session_of(cookie_secret(headers).unwrap_or_default())
}

/// The answer of the push settings: `{"kinds": {"yourMove": true, ...},
/// "devices", "thisDevice"}`.
async fn settings(app: &App, me: &Me, headers: &HeaderMap) -> Response {
    let (player, session) = (me.id, session_of(headers));
    match app
        .players
        .store()
        .read(move |c| sql::settings(c, player, &session))
        .await
    {
        Ok((kinds, devices, this)) => {
            let switches: Map<String, Value> = Kind::ALL
                .iter()
                .map(|k| (k.name().to_string(), json!(kinds & k.bit() != 0)))
                .collect();
            Json(json!({ "kinds": switches, "devices": devices, "thisDevice": this }))
                .into_response()
        }
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// `GET /api/me/push`: the player's switches, how many of their browsers
/// are subscribed and whether this one is; 401 when signed out.
pub async fn get_settings(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    match session_player(&app, &headers).await {
        Ok(me) => settings(&app, &me, &headers).await,
        Err(e) => e.into_response(),
    }
}

/// The body of `POST /api/me/push`.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct Switches {
    kinds: Kinds,
}

/// Each kind of notice, on or off.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
struct Kinds {
    your_move: bool,
    game_over: bool,
    challenge: bool,
    reminder: bool,
}

/// `POST /api/me/push` `{"kinds": {...}}`: sets the player's switches (a
/// change: this site's pages, with the CSRF token); answers the settings.
pub async fn post_settings(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Json<Switches>, JsonRejection>,
) -> Response {
    let me = match changer(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    let Ok(Json(Switches { kinds: k })) = body else {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad-settings",
            "send {\"kinds\": {\"yourMove\", \"gameOver\", \"challenge\", \"reminder\"}}, each true or false",
        )
        .into_response();
    };
    let bits = [
        (k.your_move, Kind::YourMove),
        (k.game_over, Kind::GameOver),
        (k.challenge, Kind::Challenge),
        (k.reminder, Kind::Reminder),
    ]
    .iter()
    .filter(|(on, _)| *on)
    .fold(0, |bits, (_, kind)| bits | kind.bit());
    let player = me.id;
    match app
        .players
        .store()
        .write(move |c| sql::set_kinds(c, player, bits))
        .await
    {
        Ok(()) => settings(&app, &me, &headers).await,
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// The body of `POST /api/me/push/subscription`: a `PushSubscription` as
/// its `toJSON()` writes it.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Subscription {
    endpoint: String,
    #[serde(default)]
    #[allow(
        dead_code,
        reason = "sent by browsers; a gone subscription is found by its 410"
    )]
    expiration_time: Option<Value>,
    keys: Keys,
}

/// A subscription's keys.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
struct Keys {
    p256dh: String,
    auth: String,
}

/// Whether `endpoint` may be pushed to: an `https` URL of a named host (a
/// push service: its last label letters, so no form of an address, and no
/// user), so a subscription cannot make the server call into a private
/// network (a name that resolves into one is refused when connecting:
/// `resolve.rs`); with `to_loopback` (tests), an `http` URL of 127.0.0.1.
fn endpoint_ok(endpoint: &str, to_loopback: bool) -> bool {
    let Ok(uri) = endpoint.parse::<Uri>() else {
        return false;
    };
    let (Some(host), Some(authority)) = (uri.host(), uri.authority()) else {
        return false;
    };
    let top = host.rsplit('.').next().unwrap_or_default();
    let named = host.contains('.')
        && top.len() >= 2
        && top.bytes().all(|b| b.is_ascii_alphabetic())
        && !authority.as_str().contains('@')
        && !host.eq_ignore_ascii_case("localhost");
    endpoint.len() <= MAX_ENDPOINT
        && match uri.scheme_str() {
            Some("https") => named,
            Some("http") => to_loopback && host == "127.0.0.1",
            _ => false,
        }
}

/// Whether `key` is base64url of `len` bytes (`first` the first of them).
fn key_ok(key: &str, len: usize, first: Option<u8>) -> bool {
    URL_SAFE_NO_PAD
        .decode(key.trim_end_matches('='))
        .is_ok_and(|bytes| bytes.len() == len && first.is_none_or(|f| bytes[0] == f))
}

/// `POST /api/me/push/subscription`: keeps this browser's subscription
/// for this session (a change: this site's pages, with the CSRF token);
/// answers the settings.
pub async fn post_subscription(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Json<Subscription>, JsonRejection>,
) -> Response {
    let me = match changer(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    let Ok(Json(subscription)) = body else {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad-subscription",
            "send the browser's push subscription as its toJSON() writes it",
        )
        .into_response();
    };
    if !endpoint_ok(&subscription.endpoint, app.hub.push().to_loopback) {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad-endpoint",
            "the endpoint is not a push service's https URL",
        )
        .into_response();
    }
    let Keys { p256dh, auth } = subscription.keys;
    // An uncompressed P-256 point, and a 16-byte secret (RFC 8291).
    if !key_ok(&p256dh, 65, Some(4)) || !key_ok(&auth, 16, None) {
        return ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad-keys",
            "the keys are not a P-256 public key and a 16-byte secret in base64url",
        )
        .into_response();
    }
    let target = Target {
        endpoint: subscription.endpoint,
        p256dh,
        auth,
    };
    let session = session_of(&headers);
    match app
        .players
        .store()
        .write(move |c| sql::subscribe(c, &session, &target, epoch_ms()))
        .await
    {
        Ok(()) => settings(&app, &me, &headers).await,
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// `DELETE /api/me/push/subscription`: forgets this browser's
/// subscription (a change: this site's pages, with the CSRF token);
/// answers the settings.
pub async fn delete_subscription(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let me = match changer(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    let session = session_of(&headers);
    match app
        .players
        .store()
        .write(move |c| sql::unsubscribe(c, &session))
        .await
    {
        Ok(()) => settings(&app, &me, &headers).await,
        Err(e) => ApiError::store(&e).into_response(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn only_push_services_are_endpoints() {
        for good in [
            "https://fcm.googleapis.com/fcm/send/abc",
            "https://updates.push.services.mozilla.com/wpush/v2/x",
            "https://web.push.apple.com/QGm",
        ] {
            assert!(endpoint_ok(good, false), "{good}");
        }
        for bad in [
            "http://fcm.googleapis.com/fcm/send/abc",
            "https://127.0.0.1/x",
            "https://10.0.0.1/x",
            "https://[::1]/x",
            "https://localhost/x",
            "https://intranet/x",
            "https://127.1/x",
            "https://0x7f.1/x",
            "https://0177.0.0.1/x",
            "https://10.1/x",
            "https://u:p@push.example.org/x",
            "ftp://push.example.com/x",
            "not a url",
            "http://127.0.0.1:9/x",
        ] {
            assert!(!endpoint_ok(bad, false), "{bad}");
        }
        assert!(endpoint_ok("http://127.0.0.1:9/x", true));
        assert!(!endpoint_ok("http://10.0.0.1:9/x", true));
        let long = format!("https://push.example.com/{}", "a".repeat(MAX_ENDPOINT));
        assert!(!endpoint_ok(&long, false));
    }

    #[test]
    fn keys_are_checked_for_their_size() {
        let point = URL_SAFE_NO_PAD.encode([4u8; 65]);
        assert!(key_ok(&point, 65, Some(4)));
        assert!(!key_ok(&URL_SAFE_NO_PAD.encode([3u8; 65]), 65, Some(4)));
        assert!(key_ok(&URL_SAFE_NO_PAD.encode([1u8; 16]), 16, None));
        assert!(!key_ok(&URL_SAFE_NO_PAD.encode([1u8; 15]), 16, None));
        assert!(!key_ok("***", 16, None));
    }
}
