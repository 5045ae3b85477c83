//! Signing in on another device (`docs/api.md`): with a password or a
//! passkey, each attempt counted against the client's address and the
//! name tried, and the page's account panel's view of the session.
//!
//! Password hashes cost 40 to 80 ms of a core each: they run on
//! the blocking threads, at most [`HASHES_AT_ONCE`] at a time, so a flood
//! of sign-ins waits for its turn while the game's tasks go on.
//!
//! A passkey ceremony's state stays in this process (a bounded map, five
//! minutes at most), named to the page by a random id; the page's copy of
//! the options is never trusted back.

use std::collections::{HashMap, VecDeque};
use std::net::{IpAddr, SocketAddr};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::extract::{ConnectInfo, Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;
use sha2::{Digest, Sha256};
use tokio::sync::Semaphore;
use webauthn_rs::prelude::{
    Passkey, PasskeyAuthentication, PasskeyRegistration, PublicKeyCredential,
    RegisterPublicKeyCredential, Url, Uuid, Webauthn, WebauthnBuilder,
};

use crate::allowance::PerAddress;
use crate::api::{
    changer, cookie_secret, from_this_site, me, renewed, session_player, with_cookie, ApiError,
};
use crate::app::App;
use crate::http::printable;
use crate::network::client_of;
use crate::players::credentials::{self, password_fits, MAX_LABEL, MAX_PASSKEYS, MAX_PASSWORD};
use crate::players::{Me, Session};

/// Password hashes computed at once.
pub const HASHES_AT_ONCE: usize = 2;
/// How long an attempt waits for its turn to hash before it is told to
/// come back.
const HASH_WAIT: Duration = Duration::from_secs(10);
/// Sign-in attempts one address may make at once, then a minute.
const ADDRESS_BURST: u32 = 20;
/// See `ADDRESS_BURST`.
const ADDRESS_PER_MINUTE: u32 = 10;
/// Failed sign-ins one name may take within `NAME_WINDOW`; the next
/// attempt waits until the oldest of them is that old.
const NAME_FAILURES: usize = 5;
/// See `NAME_FAILURES`.
const NAME_WINDOW: Duration = Duration::from_secs(15 * 60);
/// Names whose failures are remembered at most (each address is limited
/// apart, so a flood of names fills this only slowly).
const MAX_NAMES: usize = 10_000;
/// How long a passkey ceremony may take, as browsers time theirs out.
const CEREMONY_TIME: Duration = Duration::from_secs(5 * 60);
/// Ceremonies in progress at most.
const MAX_CEREMONIES: usize = 1024;
/// The name the site gives itself in a passkey prompt.
const RP_NAME: &str = "Ultimate Tic-Tac-Toe";

/// What sign-ins share: their limits and the ceremonies in progress.
pub struct SignIns {
    addresses: PerAddress,
    failures: Mutex<HashMap<String, VecDeque<Instant>>>,
    hashing: Arc<Semaphore>,
    ceremonies: Mutex<HashMap<String, (Instant, Ceremony)>>,
}

impl Default for SignIns {
    fn default() -> SignIns {
        SignIns::new()
    }
}

/// The relying party a ceremony was begun for: the page's own site.
#[derive(Clone)]
struct Party {
    id: String,
    origin: Url,
}

impl Party {
    fn webauthn(&self) -> Result<Webauthn, ApiError> {
        WebauthnBuilder::new(&self.id, &self.origin)
            .and_then(|b| b.rp_name(RP_NAME).timeout(CEREMONY_TIME).build())
            .map_err(|e| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "passkeys-need-a-name",
                    format!("passkeys cannot be used at this address ({e})"),
                )
            })
    }
}

enum Ceremony {
    Register {
        player: i64,
        party: Party,
        state: PasskeyRegistration,
    },
    SignIn {
        player: i64,
        name: String,
        party: Party,
        state: PasskeyAuthentication,
    },
}

impl SignIns {
    /// Fresh limits, no ceremony.
    #[must_use]
    pub fn new() -> SignIns {
        SignIns {
            addresses: PerAddress::per_minute(ADDRESS_BURST, ADDRESS_PER_MINUTE),
            failures: Mutex::new(HashMap::new()),
            hashing: Arc::new(Semaphore::new(HASHES_AT_ONCE)),
            ceremonies: Mutex::new(HashMap::new()),
        }
    }

    /// Takes an attempt from `ip`'s allowance.
    fn address_may(&self, ip: IpAddr) -> Result<(), ApiError> {
        if self.addresses.take(client_of(ip)) {
            Ok(())
        } else {
            Err(too_many(60 / u64::from(ADDRESS_PER_MINUTE).max(1)))
        }
    }

    /// Whether `name` may be tried now; else how long until it may.
    fn name_may(&self, name: &str) -> Result<(), ApiError> {
        let mut failures = self.failures.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        let Some(times) = failures.get_mut(&name_key(name)) else {
            return Ok(());
        };
        while times.front().is_some_and(|t| now - *t >= NAME_WINDOW) {
            times.pop_front();
        }
        match times.front() {
            Some(oldest) if times.len() >= NAME_FAILURES => {
                let wait = NAME_WINDOW.saturating_sub(now - *oldest);
                Err(too_many(wait.as_secs().max(1)))
            }
            _ => Ok(()),
        }
    }

    fn failed(&self, name: &str) {
        let mut failures = self.failures.lock().unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        if failures.len() >= MAX_NAMES {
            failures.retain(|_, times| times.back().is_some_and(|t| now - *t < NAME_WINDOW));
        }
        // Full of recent failures still: the name failed longest ago makes
        // room, so a flood of names never switches the limit off.
        if failures.len() >= MAX_NAMES && !failures.contains_key(&name_key(name)) {
            let oldest = failures
                .iter()
                .min_by_key(|(_, times)| times.back().copied())
                .map(|(key, _)| key.clone());
            if let Some(oldest) = oldest {
                failures.remove(&oldest);
            }
        }
        let times = failures.entry(name_key(name)).or_default();
        times.push_back(now);
        if times.len() > NAME_FAILURES {
            times.pop_front();
        }
    }

    fn succeeded(&self, name: &str) {
        self.failures
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(&name_key(name));
    }

    /// Runs `work` (a hash) on a blocking thread when a place is free.
    async fn hash<T: Send + 'static>(
        &self,
        work: impl FnOnce() -> T + Send + 'static,
    ) -> Result<T, ApiError> {
        let busy = || {
            ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                "the server is busy signing others in; try again in a moment",
            )
        };
        let permit = match tokio::time::timeout(
            HASH_WAIT,
            Arc::clone(&self.hashing).acquire_owned(),
        )
        .await
        {
            Ok(Ok(permit)) => permit,
            _ => return Err(busy()),
        };
        let done = tokio::task::spawn_blocking(move || {
            let _permit = permit;
            work()
        })
        .await;
        done.map_err(|_| busy())
    }

    /// Keeps `ceremony` and returns its id.
    fn begin(&self, ceremony: Ceremony) -> Result<String, ApiError> {
        let mut bytes = [0u8; 16];
        getrandom::fill(&mut bytes)
            .map_err(|e| ApiError::store(&format!("no randomness for a ceremony: {e}")))?;
        let id = hex(&bytes);
        let mut ceremonies = self
            .ceremonies
            .lock()
            .unwrap_or_else(PoisonError::into_inner);
        let now = Instant::now();
        ceremonies.retain(|_, (at, _)| now - *at < CEREMONY_TIME);
        if ceremonies.len() >= MAX_CEREMONIES {
            return Err(ApiError::new(
                StatusCode::SERVICE_UNAVAILABLE,
                "busy",
                "too many passkey prompts are open; try again in a minute",
            ));
        }
        ceremonies.insert(id.clone(), (now, ceremony));
        Ok(id)
    }

    /// Takes the ceremony `id` (once only), if it is there and not expired.
    fn take(&self, id: &str) -> Result<Ceremony, ApiError> {
        let taken = self
            .ceremonies
            .lock()
            .unwrap_or_else(PoisonError::into_inner)
            .remove(id);
        match taken {
            Some((at, ceremony)) if at.elapsed() < CEREMONY_TIME => Ok(ceremony),
            _ => Err(bad_ceremony()),
        }
    }
}

/// A ceremony id that names none in progress (or another's, or another
/// kind's).
fn bad_ceremony() -> ApiError {
    ApiError::new(
        StatusCode::BAD_REQUEST,
        "bad-ceremony",
        "that passkey prompt is unknown or expired; start again",
    )
}

fn hex(bytes: &[u8]) -> String {
    credentials::credential_key(bytes)
}

/// The key a name's failures are counted under: names are unique in any
/// case, and no name is longer than this.
fn name_key(name: &str) -> String {
    name.chars().take(40).collect::<String>().to_lowercase()
}

fn too_many(seconds: u64) -> ApiError {
    ApiError::new(
        StatusCode::TOO_MANY_REQUESTS,
        "too-many-attempts",
        format!("too many sign-in attempts; try again in {seconds} s"),
    )
    .retry_after(seconds)
}

fn bad_body(shape: &str) -> ApiError {
    ApiError::new(StatusCode::BAD_REQUEST, "bad-body", format!("send {shape}"))
}

fn wrong_credentials() -> ApiError {
    ApiError::new(
        StatusCode::UNAUTHORIZED,
        "wrong-credentials",
        "that name and password do not match",
    )
}

/// What the log may say of a name someone typed.
fn shown(name: &str) -> String {
    printable(&name.chars().take(40).collect::<String>())
}

fn agent(headers: &HeaderMap) -> &str {
    headers
        .get(header::USER_AGENT)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("")
}

/// `200 {"name", "csrf"}` with a new session's cookie.
fn signed_in(app: &App, headers: &HeaderMap, session: &Session, me: &Me) -> Response {
    let response = Json(json!({ "name": me.name, "csrf": me.csrf })).into_response();
    with_cookie(app, headers, &session.secret, response)
}

/// Opens a session for `player` and answers with it.
async fn open_session(app: &App, headers: &HeaderMap, player: i64) -> Response {
    match app.players.open_session(player, agent(headers)).await {
        Ok(Some((session, me))) => signed_in(app, headers, &session, &me),
        Ok(None) => wrong_credentials().into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// `GET /api/session`: `{"name", "csrf"}` for the session (its cookie
/// renewed, as `GET /api/me` does), `{"name": null}` without one: always
/// 200, so a page asking who is signed in has nothing to report as an
/// error.
pub async fn get_session(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    match me(&app, &headers).await {
        Ok(Some(me)) => renewed(
            &app,
            &headers,
            Json(json!({ "name": me.name, "csrf": me.csrf })).into_response(),
        ),
        Ok(None) => Json(json!({ "name": null })).into_response(),
        Err(e) => e.into_response(),
    }
}

/// The body of a password sign-in.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasswordSignIn {
    name: String,
    password: String,
}

/// `POST /api/signin` `{"name", "password"}`: a new session for the
/// player, as `POST /api/session` makes one.
pub async fn post_sign_in(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<PasswordSignIn>, axum::extract::rejection::JsonRejection>,
) -> Response {
    match sign_in(&app, remote.ip(), &headers, body).await {
        Ok(response) | Err(response) => response,
    }
}

async fn sign_in(
    app: &App,
    ip: IpAddr,
    headers: &HeaderMap,
    body: Result<Json<PasswordSignIn>, axum::extract::rejection::JsonRejection>,
) -> Result<Response, Response> {
    if !from_this_site(app, headers) {
        return Err(bad_origin().into_response());
    }
    let Ok(Json(PasswordSignIn { name, password })) = body else {
        return Err(bad_body("{\"name\": ..., \"password\": ...}").into_response());
    };
    let limited = |e: ApiError| {
        eprintln!(
            "uttt-server: sign-in: {} from {ip} held back (too many attempts)",
            shown(&name)
        );
        e.into_response()
    };
    app.sign_ins.address_may(ip).map_err(limited)?;
    app.sign_ins.name_may(&name).map_err(limited)?;
    let account = app
        .players
        .account(&name)
        .await
        .map_err(|e| ApiError::store(&e).into_response())?;
    let phc = account.as_ref().and_then(|a| a.password.clone());
    // Longer than any password set: wrong without a hash (it only costs
    // the sender), and no hash of a megabyte.
    let matches = password.chars().count() <= MAX_PASSWORD
        && app
            .sign_ins
            .hash(move || credentials::password_matches(&password, phc.as_deref()))
            .await
            .map_err(IntoResponse::into_response)?;
    match account {
        Some(account) if matches => {
            app.sign_ins.succeeded(&name);
            eprintln!(
                "uttt-server: sign-in: {} with a password from {ip}",
                account.name
            );
            Ok(open_session(app, headers, account.id).await)
        }
        _ => {
            // Only a name someone holds is counted: counting any name would
            // let junk names crowd out the real ones' counts.
            if account.is_some() {
                app.sign_ins.failed(&name);
            }
            eprintln!(
                "uttt-server: sign-in: {} refused (wrong name or password) from {ip}",
                shown(&name)
            );
            Err(wrong_credentials().into_response())
        }
    }
}

fn bad_origin() -> ApiError {
    ApiError::new(
        StatusCode::FORBIDDEN,
        "bad-origin",
        "only this site's pages may do that",
    )
}

/// The body of a new password.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct NewPassword {
    password: String,
    current: Option<String>,
}

/// `POST /api/me/password` `{"password", "current"}`: sets the player's
/// password, or changes it (then `current` must be the one set).
pub async fn post_password(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<NewPassword>, axum::extract::rejection::JsonRejection>,
) -> Response {
    match set_password(&app, remote.ip(), &headers, body).await {
        Ok(()) => StatusCode::NO_CONTENT.into_response(),
        Err(e) => e.into_response(),
    }
}

async fn set_password(
    app: &App,
    ip: IpAddr,
    headers: &HeaderMap,
    body: Result<Json<NewPassword>, axum::extract::rejection::JsonRejection>,
) -> Result<(), ApiError> {
    let me = changer(app, headers).await?;
    let Ok(Json(NewPassword { password, current })) = body else {
        return Err(bad_body("{\"password\": ..., \"current\": ...}"));
    };
    if !password_fits(&password) {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "bad-password",
            "a password is 8 to 128 characters",
        ));
    }
    if let Some(phc) = app
        .players
        .password_of(&me)
        .await
        .map_err(|e| ApiError::store(&e))?
    {
        let Some(current) = current else {
            return Err(ApiError::new(
                StatusCode::BAD_REQUEST,
                "current-needed",
                "changing the password needs the current one",
            ));
        };
        // Guessing the current password is a sign-in attempt like another.
        app.sign_ins.address_may(ip)?;
        app.sign_ins.name_may(&me.name)?;
        let right = current.chars().count() <= MAX_PASSWORD
            && app
                .sign_ins
                .hash(move || credentials::password_matches(&current, Some(&phc)))
                .await?;
        if !right {
            app.sign_ins.failed(&me.name);
            return Err(ApiError::new(
                StatusCode::FORBIDDEN,
                "wrong-password",
                "the current password is not right",
            ));
        }
    }
    let phc = app
        .sign_ins
        .hash(move || credentials::hash_password(&password))
        .await?
        .map_err(|e| ApiError::store(&e))?;
    let secret = cookie_secret(headers).ok_or_else(ApiError::signed_out)?;
    app.players
        .set_password(&me, secret, phc)
        .await
        .map_err(|e| ApiError::store(&e))?;
    eprintln!("uttt-server: {} set a password", me.name);
    Ok(())
}

/// The relying party for a request from this site's page: its `Origin`,
/// which must name the site by a name (WebAuthn refuses IP addresses).
fn party(app: &App, headers: &HeaderMap) -> Result<Party, ApiError> {
    if !from_this_site(app, headers) {
        return Err(bad_origin());
    }
    let origin = headers
        .get(header::ORIGIN)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| Url::parse(v).ok())
        .ok_or_else(bad_origin)?;
    let Some(id) = origin.domain().map(str::to_ascii_lowercase) else {
        return Err(ApiError::new(
            StatusCode::BAD_REQUEST,
            "passkeys-need-a-name",
            "passkeys work only on a site reached by name, not by an IP address: \
             open the page at localhost or the site's name",
        ));
    };
    Ok(Party { id, origin })
}

/// The WebAuthn user handle of player `player`: the same for all their
/// passkeys, and no personal data.
fn user_handle(player: i64) -> Uuid {
    let digest = Sha256::digest(format!("uttt passkey user {player}").as_bytes());
    let mut bytes = [0u8; 16];
    bytes.copy_from_slice(&digest[..16]);
    Uuid::from_bytes(bytes)
}

/// `POST /api/me/passkeys/start`: the options for the browser's
/// `navigator.credentials.create`, and the ceremony's id.
pub async fn post_passkey_start(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let started = async {
        let me = changer(&app, &headers).await?;
        let party = party(&app, &headers)?;
        let kept = app
            .players
            .passkeys(me.id)
            .await
            .map_err(|e| ApiError::store(&e))?;
        if kept.len() >= MAX_PASSKEYS {
            return Err(too_many_passkeys());
        }
        let exclude = kept.iter().map(|p| p.passkey.cred_id().clone()).collect();
        let (options, state) = party
            .webauthn()?
            .start_passkey_registration(user_handle(me.id), &me.name, &me.name, Some(exclude))
            .map_err(|e| ApiError::store(&format!("cannot start a passkey: {e}")))?;
        let ceremony = app.sign_ins.begin(Ceremony::Register {
            player: me.id,
            party,
            state,
        })?;
        Ok(Json(json!({ "ceremony": ceremony, "options": options })).into_response())
    };
    started.await.unwrap_or_else(IntoResponse::into_response)
}

fn too_many_passkeys() -> ApiError {
    ApiError::new(
        StatusCode::CONFLICT,
        "too-many-passkeys",
        format!("a player keeps at most {MAX_PASSKEYS} passkeys; remove one first"),
    )
}

/// The body of a new passkey.
#[derive(serde::Deserialize)]
pub struct NewPasskey {
    ceremony: String,
    credential: RegisterPublicKeyCredential,
    label: Option<String>,
}

/// `POST /api/me/passkeys/finish` `{"ceremony", "credential", "label"}`:
/// keeps the passkey the browser made.
pub async fn post_passkey_finish(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    body: Result<Json<NewPasskey>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let finished = async {
        let me = changer(&app, &headers).await?;
        let Ok(Json(body)) = body else {
            return Err(bad_body(
                "{\"ceremony\": ..., \"credential\": ..., \"label\": ...}",
            ));
        };
        let here = party(&app, &headers)?;
        let Ceremony::Register {
            player,
            party,
            state,
        } = app.sign_ins.take(&body.ceremony)?
        else {
            return Err(bad_ceremony());
        };
        if player != me.id || party.origin != here.origin {
            return Err(bad_ceremony());
        }
        let passkey: Passkey = party
            .webauthn()?
            .finish_passkey_registration(&body.credential, &state)
            .map_err(|e| {
                ApiError::new(
                    StatusCode::BAD_REQUEST,
                    "passkey-refused",
                    format!("the browser's passkey was not accepted ({e})"),
                )
            })?;
        let label = label_of(body.label.as_deref());
        let kept = app
            .players
            .passkey_rows(&me)
            .await
            .map_err(|e| ApiError::store(&e))?;
        if kept.len() >= MAX_PASSKEYS {
            return Err(too_many_passkeys());
        }
        let added = app
            .players
            .add_passkey(me.id, passkey, label.clone())
            .await
            .map_err(|e| ApiError::store(&e))?;
        if !added {
            return Err(ApiError::new(
                StatusCode::CONFLICT,
                "passkey-taken",
                "that passkey is already kept",
            ));
        }
        eprintln!("uttt-server: {} added a passkey", me.name);
        let rows = app
            .players
            .passkey_rows(&me)
            .await
            .map_err(|e| ApiError::store(&e))?;
        Ok((StatusCode::CREATED, Json(json!({ "passkeys": rows }))).into_response())
    };
    finished.await.unwrap_or_else(IntoResponse::into_response)
}

/// A passkey's label: what the page sent, printable and short, or
/// "Passkey".
fn label_of(sent: Option<&str>) -> String {
    let clean: String = sent
        .unwrap_or("")
        .chars()
        .filter(|c| !c.is_control())
        .take(MAX_LABEL)
        .collect();
    let clean = clean.trim();
    if clean.is_empty() {
        "Passkey".to_string()
    } else {
        clean.to_string()
    }
}

/// `GET /api/me/passkeys`: `{"passkeys": [{"id", "label", "created",
/// "used"}], "password": bool}`: what the player can sign in with.
pub async fn get_passkeys(State(app): State<Arc<App>>, headers: HeaderMap) -> Response {
    let me = match session_player(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    let (rows, password) = (
        app.players.passkey_rows(&me).await,
        app.players.password_of(&me).await,
    );
    match (rows, password) {
        (Ok(rows), Ok(password)) => {
            Json(json!({ "passkeys": rows, "password": password.is_some() })).into_response()
        }
        (Err(e), _) | (_, Err(e)) => ApiError::store(&e).into_response(),
    }
}

/// `DELETE /api/me/passkeys/{id}`: removes one of the player's passkeys.
pub async fn delete_passkey(
    State(app): State<Arc<App>>,
    headers: HeaderMap,
    Path(id): Path<String>,
) -> Response {
    let me = match changer(&app, &headers).await {
        Ok(me) => me,
        Err(e) => return e.into_response(),
    };
    let removed = match id.parse::<i64>() {
        Ok(id) => app.players.remove_passkey(&me, id).await,
        Err(_) => Ok(false),
    };
    match removed {
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => ApiError::new(
            StatusCode::NOT_FOUND,
            "no-such-passkey",
            "you have no such passkey",
        )
        .into_response(),
        Err(e) => ApiError::store(&e).into_response(),
    }
}

/// The body of a passkey sign-in's start.
#[derive(serde::Deserialize)]
#[serde(deny_unknown_fields)]
pub struct PasskeyFor {
    name: String,
}

/// `POST /api/signin/passkey/start` `{"name"}`: the options for the
/// browser's `navigator.credentials.get` over the player's passkeys.
pub async fn post_sign_in_start(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<PasskeyFor>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let started = async {
        let party = party(&app, &headers)?;
        let Ok(Json(PasskeyFor { name })) = body else {
            return Err(bad_body("{\"name\": ...}"));
        };
        // Not the name's limit: that counts wrong passwords, and a guesser
        // must not lock the owner out of their passkey.
        app.sign_ins.address_may(remote.ip())?;
        let account = app
            .players
            .account(&name)
            .await
            .map_err(|e| ApiError::store(&e))?
            .ok_or_else(ApiError::no_such_player)?;
        let kept = app
            .players
            .passkeys(account.id)
            .await
            .map_err(|e| ApiError::store(&e))?;
        if kept.is_empty() {
            return Err(ApiError::new(
                StatusCode::NOT_FOUND,
                "no-passkey",
                "that player has no passkey; sign in with the password",
            ));
        }
        let passkeys: Vec<Passkey> = kept.into_iter().map(|p| p.passkey).collect();
        let (options, state) = party
            .webauthn()?
            .start_passkey_authentication(&passkeys)
            .map_err(|e| ApiError::store(&format!("cannot start a passkey sign-in: {e}")))?;
        let ceremony = app.sign_ins.begin(Ceremony::SignIn {
            player: account.id,
            name: account.name,
            party,
            state,
        })?;
        Ok(Json(json!({ "ceremony": ceremony, "options": options })).into_response())
    };
    started.await.unwrap_or_else(IntoResponse::into_response)
}

/// The body of a passkey sign-in's end.
#[derive(serde::Deserialize)]
pub struct PasskeyAnswer {
    ceremony: String,
    credential: PublicKeyCredential,
}

/// `POST /api/signin/passkey/finish` `{"ceremony", "credential"}`: a new
/// session, as the password sign-in makes one.
pub async fn post_sign_in_finish(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    headers: HeaderMap,
    body: Result<Json<PasskeyAnswer>, axum::extract::rejection::JsonRejection>,
) -> Response {
    let ip = remote.ip();
    let finished = async {
        let here = party(&app, &headers)?;
        let Ok(Json(body)) = body else {
            return Err(bad_body("{\"ceremony\": ..., \"credential\": ...}"));
        };
        app.sign_ins.address_may(ip)?;
        let Ceremony::SignIn {
            player,
            name,
            party,
            state,
        } = app.sign_ins.take(&body.ceremony)?
        else {
            return Err(bad_ceremony());
        };
        if party.origin != here.origin {
            return Err(bad_ceremony());
        }
        let result = match party
            .webauthn()?
            .finish_passkey_authentication(&body.credential, &state)
        {
            Ok(result) => result,
            Err(e) => {
                app.sign_ins.failed(&name);
                eprintln!("uttt-server: sign-in: {name}'s passkey refused from {ip} ({e})");
                return Err(ApiError::new(
                    StatusCode::UNAUTHORIZED,
                    "passkey-refused",
                    "the passkey was not accepted",
                ));
            }
        };
        // Its counter moves on, so a copied authenticator shows itself.
        let kept = app
            .players
            .passkeys(player)
            .await
            .map_err(|e| ApiError::store(&e))?;
        // A passkey removed while its prompt was open signs nobody in.
        let Some(mut used) = kept
            .into_iter()
            .find(|p| p.passkey.cred_id() == result.cred_id())
        else {
            eprintln!("uttt-server: sign-in: {name}'s passkey was removed; refused from {ip}");
            return Err(ApiError::new(
                StatusCode::UNAUTHORIZED,
                "passkey-refused",
                "the passkey was not accepted",
            ));
        };
        used.passkey.update_credential(&result);
        app.players
            .used_passkey(used.id, used.passkey)
            .await
            .map_err(|e| ApiError::store(&e))?;
        app.sign_ins.succeeded(&name);
        eprintln!("uttt-server: sign-in: {name} with a passkey from {ip}");
        Ok(open_session(&app, &headers, player).await)
    };
    finished.await.unwrap_or_else(IntoResponse::into_response)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn five_failures_hold_a_name_back_in_any_case_and_a_success_clears_them() {
        let s = SignIns::new();
        for _ in 0..NAME_FAILURES {
            assert!(s.name_may("Ann").is_ok());
            s.failed("ann");
        }
        assert!(s.name_may("ANN").is_err());
        assert!(s.name_may("Bob").is_ok());
        s.succeeded("Ann");
        assert!(s.name_may("ann").is_ok());
    }

    #[test]
    fn a_ceremony_is_taken_once() {
        let s = SignIns::new();
        let party = Party {
            id: "localhost".into(),
            origin: Url::parse("http://localhost:8000").unwrap(),
        };
        let webauthn = party.webauthn().unwrap();
        let (_, state) = webauthn
            .start_passkey_registration(user_handle(1), "Ann", "Ann", None)
            .unwrap();
        let id = s
            .begin(Ceremony::Register {
                player: 1,
                party,
                state,
            })
            .unwrap();
        assert!(s.take(&id).is_ok());
        assert!(s.take(&id).is_err());
        assert_eq!(label_of(Some(" \u{1b}[2J  ")), "[2J");
        assert_eq!(label_of(None), "Passkey");
        assert_ne!(user_handle(1), user_handle(2));
    }
}
