//! One WebSocket connection: frames in, each read into a typed message or
//! refused with a typed error frame; the room's frames out. A connection
//! earns its place: it takes one of the game connections' places (fewer
//! than all, so the site stays reachable) and one of the places for those
//! in no room yet, which it gives back on entering a room, and is closed if
//! it enters none in time. One that keeps sending refused frames, or too
//! many (pings included), is closed; one that goes silent past the idle
//! limit, or does not read what it is sent, is dropped.

use std::net::{IpAddr, SocketAddr};
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{ConnectInfo, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Extension;
use futures_util::SinkExt;
use tokio::sync::{mpsc, oneshot, OwnedSemaphorePermit};
use uttt_protocol::{
    read_client, write, ChallengeEnd, ClientMessage, ErrorCode, Kind, Refusal, RoomOptions,
    RuleSet, SeekOptions, ServerMessage, MAX_FRAME_BYTES,
};

use crate::allowance::Allowance;
use crate::api;
use crate::app::App;
use crate::challenges::Offer;
use crate::chat;
use crate::hub::{ask, Command, Membership, OUTBOX_FRAMES};
use crate::listen::ConnectionSlot;
use crate::lobby::{Pairing, Seeker};
use crate::network::client_of;
use crate::players::{Player, Players};
use crate::rating::{Perf, Rating};

/// The largest WebSocket message read at all; between this and
/// [`MAX_FRAME_BYTES`] a frame gets a `bad-frame` error, above it the
/// connection is closed (1009).
const MAX_MESSAGE_BYTES: usize = 16 * 1024;
/// The read buffer each connection starts with: a client's frames are
/// mostly well below it, and a longer one grows it (see `upgrade`).
const READ_BUFFER_BYTES: usize = 512;
/// Refused frames a connection may send before it is closed.
const MAX_REFUSALS: u32 = 20;
/// Frames a connection may send in a burst, and per second after it.
const BURST: f64 = 20.0;
const PER_SECOND: f64 = 10.0;
/// Chat lines (and reports) one connection may send at once...
const CHAT_BURST: f64 = 5.0;
/// ...and then one every two seconds.
const CHAT_PER_SECOND: f64 = 0.5;
/// The server pings this often and drops a client silent for `IDLE`.
const PING_EVERY: Duration = Duration::from_secs(20);
const IDLE: Duration = Duration::from_secs(60);
/// The close code of a connection whose session ended (an application
/// code: the client may connect again, as whoever its cookie says now).
const SIGNED_OUT: u16 = 4001;
/// How long one frame may take to go out before the client is dropped.
const SEND_TIMEOUT: Duration = Duration::from_secs(10);
/// How long a room's frame waits for a pairing under way (its room is
/// made in milliseconds; a frame sent while merely waiting in a pool is
/// refused after it).
const PAIRING_WAIT: Duration = Duration::from_secs(2);

/// `GET /ws`: upgrades to a game connection, for pages of this site only
/// (a browser always sends `Origin`; other clients may send none).
pub async fn upgrade(
    State(app): State<Arc<App>>,
    ConnectInfo(remote): ConnectInfo<SocketAddr>,
    slot: Option<Extension<ConnectionSlot>>,
    headers: HeaderMap,
    ws: WebSocketUpgrade,
) -> Response {
    if !origin_allowed(&headers, &app.allowed_origins) {
        return (
            StatusCode::FORBIDDEN,
            "a page of another site may not open a game connection\n",
        )
            .into_response();
    }
    let Ok(game) = Arc::clone(&app.game_slots).try_acquire_owned() else {
        return busy("every place for a game connection is taken; try again soon\n");
    };
    let Ok(waiting) = Arc::clone(&app.waiting_slots).try_acquire_owned() else {
        return busy("too many connections are waiting to enter a room; try again soon\n");
    };
    // Behind a trusted proxy its clients are counted here, one by one.
    let place = match &slot {
        Some(Extension(slot)) => match slot.client_place(remote.ip()) {
            Some(place) => Some(place),
            None => return busy("too many connections from your address; close some first\n"),
        },
        None => None,
    };
    let signed = signed_in(&app, &headers).await;
    // Small buffers: the frames are small, and the defaults (128 KiB each
    // way) would cost more memory per player than the whole rest of a game.
    // The read buffer is what every idle connection holds: a client's
    // frames are a few hundred bytes, and a longer one grows it as needed.
    // A client that leaves 64 KiB unread is dropped.
    ws.max_message_size(MAX_MESSAGE_BYTES)
        .max_frame_size(MAX_MESSAGE_BYTES)
        .read_buffer_size(READ_BUFFER_BYTES)
        .write_buffer_size(0)
        .max_write_buffer_size(64 * 1024)
        .on_upgrade(move |socket| async move {
            // The connection's places under the limits live as long as it.
            let _places = (slot, game, place);
            connection(socket, app, remote, waiting, signed).await;
        })
}

/// How long an upgrade waits for the store to read its session.
const SESSION_WAIT: Duration = Duration::from_secs(5);

/// The player the upgrade's session cookie signs in, if any. A store that
/// cannot answer in time leaves the connection without a player (it plays
/// as a guest, as without a session), and is said in the log.
async fn signed_in(app: &App, headers: &HeaderMap) -> Option<(Player, String)> {
    let secret = api::cookie_secret(headers)?;
    match tokio::time::timeout(SESSION_WAIT, app.players.signed_in(secret)).await {
        Ok(Ok(me)) => me.map(|me| (me.player(), Players::session_of(secret))),
        Ok(Err(e)) => {
            eprintln!("uttt-server: a game connection's session cannot be read: {e}");
            None
        }
        Err(_) => {
            eprintln!("uttt-server: a game connection's session was not read in time");
            None
        }
    }
}

/// 503 with a reason and a time to come back.
fn busy(reason: &'static str) -> Response {
    (
        StatusCode::SERVICE_UNAVAILABLE,
        [(header::RETRY_AFTER, "5")],
        reason,
    )
        .into_response()
}

/// Whether the request's `Origin` (if any) is this server itself or one
/// of `allowed`. `Host` names this server: requests naming another host
/// were answered before (see `hosts.rs`).
#[must_use]
pub fn origin_allowed(headers: &HeaderMap, allowed: &[String]) -> bool {
    let Some(origin) = headers.get(header::ORIGIN) else {
        return true;
    };
    let Ok(origin) = origin.to_str() else {
        return false;
    };
    if allowed.iter().any(|a| a == origin) {
        return true;
    }
    let host = headers.get(header::HOST).and_then(|h| h.to_str().ok());
    let authority = origin
        .strip_prefix("http://")
        .or_else(|| origin.strip_prefix("https://"));
    matches!((authority, host), (Some(a), Some(h)) if a.eq_ignore_ascii_case(h))
}

/// One connection's state.
struct Connection {
    app: Arc<App>,
    /// The client it counts against (see `network.rs`).
    client: IpAddr,
    conn: u64,
    /// Its place among the connections in no room, until it enters one.
    waiting: Option<OwnedSemaphorePermit>,
    /// Where rooms send this connection frames, until it is in one (then
    /// only the room holds it, so the room dropping it ends the connection).
    out: Option<mpsc::Sender<Utf8Bytes>>,
    member: Option<Membership>,
    /// Set once the room accepted this connection's `leave`.
    leaving: bool,
    /// The signed-in player, from the session cookie of the upgrade.
    player: Option<Player>,
    /// While waiting in a Play now pool, for a challenge to be accepted,
    /// or for the room of one it accepted: where the pairing comes.
    seek: Option<oneshot::Receiver<Pairing>>,
    /// The id of this connection's waiting challenge, if it is one.
    challenge: Option<String>,
    /// Set when a wait in a pool ended without a room: the time to enter
    /// one starts again.
    seek_ended: bool,
    /// The chat lines and reports it may still send now.
    chat: Allowance,
}

async fn connection(
    mut socket: WebSocket,
    app: Arc<App>,
    remote: SocketAddr,
    waiting: OwnedSemaphorePermit,
    signed: Option<(Player, String)>,
) {
    let (player, session) = signed.map_or((None, None), |(p, s)| (Some(p), Some(s)));
    let (out, mut inbox) = mpsc::channel(OUTBOX_FRAMES);
    let conn = app.hub.connection_number();
    let join_by = tokio::time::sleep(app.join_within);
    tokio::pin!(join_by);
    let mut me = Connection {
        app,
        client: client_of(remote.ip()),
        conn,
        waiting: Some(waiting),
        out: Some(out),
        member: None,
        leaving: false,
        player,
        seek: None,
        challenge: None,
        seek_ended: false,
        chat: Allowance::new(CHAT_BURST, CHAT_PER_SECOND),
    };
    // Marked changed, so a connection that came as the server began to
    // stop is closed at once too.
    let mut stopping = me.app.stopping.subscribe();
    stopping.mark_changed();
    let mut ended = me.app.players.ended();
    let mut refusals = 0;
    let mut allowance = Allowance::new(BURST, PER_SECOND);
    let mut heard = Instant::now();
    let mut ping = tokio::time::interval(PING_EVERY);
    loop {
        tokio::select! {
            incoming = socket.recv() => {
                let message = match incoming {
                    Some(Ok(message)) => message,
                    Some(Err(e)) => {
                        if let Some((code, reason)) = refused_frame(e) {
                            close(&mut socket, code, reason).await;
                        }
                        break;
                    }
                    None => break,
                };
                heard = Instant::now();
                match message {
                    // The WebSocket layer queued its answer to the client's
                    // close frame: it goes out before the socket is dropped.
                    Message::Close(_) => {
                        let _ = tokio::time::timeout(SEND_TIMEOUT, socket.flush()).await;
                        break;
                    }
                    // No client of this protocol sends one: not a mistake
                    // to be answered but the wrong program.
                    Message::Binary(_) => {
                        close(&mut socket, 1003, "frames are JSON text").await;
                        break;
                    }
                    _ => {}
                }
                // Every frame spends the allowance, pings and pongs too.
                let allowed = allowance.take() && me.app.messages.take(me.client);
                // A room's frame while a pairing is under way: its room
                // may be made and have said `joined` before this connection
                // heard of its place, which then comes first.
                if let Message::Text(text) = &message {
                    if me.member.is_none() && me.seek.is_some() && needs_room(text.as_str()) {
                        if let Ok(paired) = tokio::time::timeout(PAIRING_WAIT, pairing(&mut me.seek)).await {
                            if !me.paired(&mut socket, paired).await {
                                break;
                            }
                        }
                    }
                }
                let answer = match message {
                    // Boxed: handling a frame (creating or joining a
                    // room, asking it) takes more state than waiting does,
                    // and every idle connection would hold room for it.
                    Message::Text(text) if allowed => Box::pin(me.handle(text.as_str())).await,
                    Message::Text(_) => Err(Refusal::new(ErrorCode::RateLimited, "too many frames; slow down")),
                    // Not answered with a frame of ours, which would double
                    // the flood: counted, and closed at the limit.
                    _ if !allowed => {
                        refusals += 1;
                        Ok(None)
                    }
                    _ => Ok(None),
                };
                let reply = match answer {
                    Ok(reply) => reply,
                    Err(refusal) => {
                        refusals += 1;
                        Some(refusal.to_message())
                    }
                };
                if let Some(reply) = reply {
                    if !send(&mut socket, Utf8Bytes::from(write(&reply))).await {
                        break;
                    }
                }
                if me.leaving {
                    send_message(&mut socket, Message::Close(None)).await;
                    break;
                }
                if std::mem::take(&mut me.seek_ended) {
                    join_by.as_mut().reset(tokio::time::Instant::now() + me.app.join_within);
                }
                if refusals >= MAX_REFUSALS {
                    close(&mut socket, 1008, "too many refused frames").await;
                    break;
                }
            }
            // A waiter in a pool hears of it (and of its pairing's room)
            // through the outbox too.
            outgoing = inbox.recv(), if me.member.is_some() || me.seek.is_some() => {
                // None: the room dropped this connection (too slow) or ended.
                let Some(frame) = outgoing else { break };
                if !send(&mut socket, frame).await {
                    break;
                }
            }
            Ok(()) = stopping.changed() => {
                if !*stopping.borrow_and_update() {
                    continue;
                }
                close(&mut socket, 1012, "the server is restarting; come back in a moment").await;
                break;
            }
            paired = pairing(&mut me.seek), if me.seek.is_some() => {
                if !me.paired(&mut socket, paired).await {
                    break;
                }
                if std::mem::take(&mut me.seek_ended) {
                    join_by.as_mut().reset(tokio::time::Instant::now() + me.app.join_within);
                }
            }
            () = &mut join_by, if me.member.is_none() && me.seek.is_none() => {
                let reason = format!(
                    "create or join a room within {} s",
                    me.app.join_within.as_secs_f64().ceil()
                );
                close(&mut socket, 1008, reason).await;
                break;
            }
            // The session that signed this connection in ended: it acts for
            // nobody now. (Told too many endings to check them all: closed
            // to be safe; a reconnection signs in again if it still can.)
            gone = ended.recv(), if session.is_some() => {
                let covered = match (&gone, &me.player, &session) {
                    (Ok(gone), Some(player), Some(session)) => gone.covers(player.id, session),
                    (Err(tokio::sync::broadcast::error::RecvError::Lagged(_)), _, _) => true,
                    _ => false,
                };
                if covered {
                    close(&mut socket, SIGNED_OUT, "signed out: connect again").await;
                    break;
                }
            }
            _ = ping.tick() => {
                if heard.elapsed() > IDLE || !send_message(&mut socket, Message::Ping(Default::default())).await {
                    break;
                }
            }
        }
    }
    if me.seek.is_some() {
        me.app.lobby.cancel(me.conn).await;
    }
    if let Some(member) = me.member {
        let _ = tokio::time::timeout(
            SEND_TIMEOUT,
            member.queue.send(Command::Gone { conn: member.conn }),
        )
        .await;
    }
}

/// Whether `text` is a frame that waits for a pairing under way: one only
/// a room's member may send (a move, a chat line ...), but `leave`, which
/// would give up the game the pairing just made.
fn needs_room(text: &str) -> bool {
    matches!(
        read_client(text),
        Ok(ClientMessage::Move { .. }
            | ClientMessage::Resign {}
            | ClientMessage::OfferDraw {}
            | ClientMessage::DeclineDraw {}
            | ClientMessage::Rematch {}
            | ClientMessage::Chat { .. }
            | ClientMessage::ReportChat { .. }
            | ClientMessage::Conditional { .. })
    )
}

/// The pairing of a seek, once it comes; never without a seek.
async fn pairing(
    seek: &mut Option<oneshot::Receiver<Pairing>>,
) -> Result<Pairing, oneshot::error::RecvError> {
    match seek {
        Some(pairing) => pairing.await,
        None => std::future::pending().await,
    }
}

/// Sends a close frame with `code` and `reason` (at most 123 bytes), as
/// long as the client takes it within the send timeout.
async fn close(socket: &mut WebSocket, code: u16, reason: impl Into<Utf8Bytes>) {
    let frame = CloseFrame {
        code,
        reason: reason.into(),
    };
    send_message(socket, Message::Close(Some(frame))).await;
}

/// The close frame for a frame the WebSocket layer could not read, when
/// the client is still there to be told: too big (1009), text that is not
/// UTF-8 (1007), or not a WebSocket frame at all (1002).
fn refused_frame(error: axum::Error) -> Option<(u16, &'static str)> {
    use tokio_tungstenite::tungstenite::error::{Error, ProtocolError};
    let error = error.into_inner();
    match error.downcast_ref::<Error>()? {
        Error::Capacity(_) => Some((1009, "a message is at most 16 KiB")),
        Error::Utf8(_) => Some((1007, "text frames are UTF-8")),
        Error::Protocol(
            ProtocolError::ResetWithoutClosingHandshake
            | ProtocolError::SendAfterClosing
            | ProtocolError::ReceivedAfterClosing,
        ) => None,
        Error::Protocol(_) => Some((1002, "not a valid WebSocket frame")),
        _ => None,
    }
}

async fn send(socket: &mut WebSocket, frame: Utf8Bytes) -> bool {
    send_message(socket, Message::Text(frame)).await
}

async fn send_message(socket: &mut WebSocket, message: Message) -> bool {
    matches!(
        tokio::time::timeout(SEND_TIMEOUT, socket.send(message)).await,
        Ok(Ok(()))
    )
}

impl Connection {
    /// Handles one text frame: a direct reply, or none (the room's frames
    /// follow through the outbox).
    async fn handle(&mut self, text: &str) -> Result<Option<ServerMessage>, Refusal> {
        if text.len() > MAX_FRAME_BYTES {
            return Err(Refusal::new(
                ErrorCode::BadFrame,
                format!("a frame is at most {MAX_FRAME_BYTES} bytes"),
            ));
        }
        let message = read_client(text)?;
        match message {
            ClientMessage::Ping { id } => Ok(Some(ServerMessage::Pong { id })),
            ClientMessage::Seek { seek } => self.seek(seek).await,
            ClientMessage::CancelSeek {} => self.cancel_seek().await,
            ClientMessage::Challenge { options, to } => Box::pin(self.challenge(options, to)).await,
            ClientMessage::CancelChallenge {} => self.cancel_challenge().await,
            ClientMessage::AcceptChallenge { id } => self.accept_challenge(id).await,
            ClientMessage::DeclineChallenge { id } => {
                let player = self.signed_in()?;
                self.app.lobby.decline(id.clone(), player.id).await?;
                Ok(Some(ServerMessage::ChallengeEnded {
                    id,
                    reason: ChallengeEnd::Declined,
                }))
            }
            ClientMessage::Create { options } => {
                let out = self.out_for_a_room()?;
                let member = self
                    .app
                    .hub
                    .create(self.conn, options, self.client, self.player.clone(), out)
                    .await?;
                self.enter(member);
                Ok(None)
            }
            ClientMessage::Join { room, token } => {
                let out = self.out_for_a_room()?;
                if !self.app.joins.take(self.client) {
                    return Err(Refusal::new(
                        ErrorCode::RateLimited,
                        "too many rooms entered from this address; slow down",
                    ));
                }
                let player = self.player.clone();
                let (member, _role) = self
                    .app
                    .hub
                    .join(self.conn, &room, token, player, out)
                    .await?;
                self.enter(member);
                Ok(None)
            }
            ClientMessage::Chat { preset, text } => {
                let said = chat::check(preset, text)?;
                self.chatting()?;
                let name = self.player.as_ref().map(|p| p.name.clone());
                let (member, (reply, answer)) = (self.in_room()?, oneshot::channel());
                let command = Command::Chat {
                    conn: member.conn,
                    name,
                    said,
                    reply,
                };
                ask(&member.queue, command, answer).await??;
                Ok(None)
            }
            ClientMessage::ReportChat { id } => {
                self.chatting()?;
                let reporter = self.player.as_ref().map(|p| p.id);
                let (member, (reply, answer)) = (self.in_room()?, oneshot::channel());
                let command = Command::ReportChat {
                    conn: member.conn,
                    id,
                    reporter,
                    reply,
                };
                ask(&member.queue, command, answer).await??;
                Ok(None)
            }
            message => {
                let member = self.in_room()?;
                let leave = matches!(message, ClientMessage::Leave {});
                let (reply, answer) = oneshot::channel();
                let command = Command::Act {
                    conn: member.conn,
                    message,
                    reply,
                };
                ask(&member.queue, command, answer).await??;
                // Left for good: the server closes the connection.
                self.leaving = leave;
                Ok(None)
            }
        }
    }

    /// This connection's place in its room.
    fn in_room(&self) -> Result<&Membership, Refusal> {
        self.member
            .as_ref()
            .ok_or_else(|| Refusal::new(ErrorCode::NotInRoom, "create or join a room first"))
    }

    /// Spends one of the connection's chat allowance.
    fn chatting(&mut self) -> Result<(), Refusal> {
        if self.chat.take() {
            Ok(())
        } else {
            Err(Refusal::new(
                ErrorCode::RateLimited,
                "too many chat lines; wait a little",
            ))
        }
    }

    /// A sender for the room about to be entered.
    fn out_for_a_room(&self) -> Result<mpsc::Sender<Utf8Bytes>, Refusal> {
        if self.seek.is_some() {
            return Err(Refusal::new(
                ErrorCode::Seeking,
                "this connection is looking for a game: cancel that first",
            ));
        }
        match (&self.member, &self.out) {
            (None, Some(out)) => Ok(out.clone()),
            _ => Err(Refusal::new(
                ErrorCode::NotInRoom,
                "this connection is already in a room",
            )),
        }
    }

    /// Play now: waits in the pool of `seek` (see `lobby.rs`). The lobby
    /// answers `seeking` through the outbox, and the pairing comes later.
    async fn seek(&mut self, mut seek: SeekOptions) -> Result<Option<ServerMessage>, Refusal> {
        let out = self.out_for_a_room()?;
        // A seek is a way into a room: it spends the same allowance.
        if !self.app.joins.take(self.client) {
            return Err(Refusal::new(
                ErrorCode::RateLimited,
                "too many rooms entered from this address; slow down",
            ));
        }
        seek.check()
            .map_err(|why| Refusal::new(ErrorCode::BadOptions, why))?;
        if seek.rated && self.player.is_none() {
            return Err(Refusal::new(
                ErrorCode::BadOptions,
                "rated games are for signed-in players; casual ones are open to all",
            ));
        }
        // Classic has one set of rules: one pool.
        if seek.kind == Kind::Classic {
            seek.rules = RuleSet::Standard;
        }
        let (rating, colour_balance) = match &self.player {
            Some(player) => {
                let perf = Perf::of(seek.kind, seek.rules, seek.clock);
                self.facts(player.id, perf).await?
            }
            None => (Rating::NEW, 0),
        };
        let (paired, pairing) = oneshot::channel();
        self.app.lobby.seek(
            seek,
            Seeker {
                conn: self.conn,
                player: self.player.clone(),
                rating,
                colour_balance,
                out,
                paired,
            },
        )?;
        self.seek = Some(pairing);
        Ok(None)
    }

    /// The player's rating in `perf` and colour balance, read in time.
    async fn facts(&self, player: i64, perf: Perf) -> Result<(Rating, i32), Refusal> {
        let unread = || {
            Refusal::new(
                ErrorCode::ServerError,
                "the server cannot look for a game just now; try again",
            )
        };
        let facts = self.app.players.seek_facts(player, perf);
        match tokio::time::timeout(SESSION_WAIT, facts).await {
            Ok(Ok(facts)) => Ok(facts),
            Ok(Err(e)) => {
                eprintln!("uttt-server: a seeker's rating cannot be read: {e}");
                Err(unread())
            }
            Err(_) => Err(unread()),
        }
    }

    /// The signed-in player, whom challenges are for.
    fn signed_in(&self) -> Result<Player, Refusal> {
        self.player.clone().ok_or_else(|| {
            Refusal::new(
                ErrorCode::NotSignedIn,
                "challenges are for signed-in players",
            )
        })
    }

    /// Offers a game (see `challenges.rs`); answered `challenging`, and
    /// later `joined` or `challengeEnded`.
    async fn challenge(
        &mut self,
        mut options: RoomOptions,
        to: Option<String>,
    ) -> Result<Option<ServerMessage>, Refusal> {
        let out = self.out_for_a_room()?;
        let player = self.signed_in()?;
        options
            .check()
            .map_err(|why| Refusal::new(ErrorCode::BadOptions, why))?;
        if options.kind == Kind::Classic {
            options.rules = RuleSet::Standard;
        }
        let to = match to {
            None => None,
            Some(name) => {
                let found = tokio::time::timeout(SESSION_WAIT, self.app.players.profile(&name));
                let profile = match found.await {
                    Ok(Ok(profile)) => profile,
                    Ok(Err(e)) => {
                        eprintln!("uttt-server: a challenge's addressee cannot be read: {e}");
                        None
                    }
                    Err(_) => None,
                };
                let Some(profile) = profile else {
                    return Err(Refusal::new(
                        ErrorCode::NoSuchPlayer,
                        "no player has that name",
                    ));
                };
                if profile.id == player.id {
                    return Err(Refusal::new(
                        ErrorCode::OwnChallenge,
                        "a challenge is for another player",
                    ));
                }
                Some((profile.id, profile.name))
            }
        };
        // A challenge is a way into a room: it spends the same allowance.
        if !self.app.joins.take(self.client) {
            return Err(Refusal::new(
                ErrorCode::RateLimited,
                "too many rooms entered from this address; slow down",
            ));
        }
        let perf = Perf::of(options.kind, options.rules, options.clock);
        let (rating, colour_balance) = self.facts(player.id, perf).await?;
        let (paired, pairing) = oneshot::channel();
        let offer = Offer {
            options,
            to,
            challenger: Seeker {
                conn: self.conn,
                player: Some(player),
                rating,
                colour_balance,
                out,
                paired,
            },
        };
        let id = self.app.lobby.challenge(offer).await?;
        self.seek = Some(pairing);
        self.challenge = Some(id.clone());
        Ok(Some(ServerMessage::Challenging { id }))
    }

    /// Withdraws this connection's challenge: `challengeEnded`, or nothing
    /// when it was accepted first (its `joined` follows).
    async fn cancel_challenge(&mut self) -> Result<Option<ServerMessage>, Refusal> {
        let Some(id) = self.challenge.clone() else {
            return Err(Refusal::new(
                ErrorCode::NotChallenging,
                "no challenge of this connection is waiting",
            ));
        };
        if self.app.lobby.cancel(self.conn).await {
            self.seek = None;
            self.challenge = None;
            self.seek_ended = true;
            return Ok(Some(ServerMessage::ChallengeEnded {
                id,
                reason: ChallengeEnd::Withdrawn,
            }));
        }
        Ok(None)
    }

    /// Accepts challenge `id`: its room comes as a pairing's (`joined`).
    async fn accept_challenge(&mut self, id: String) -> Result<Option<ServerMessage>, Refusal> {
        let out = self.out_for_a_room()?;
        let player = self.signed_in()?;
        if !self.app.joins.take(self.client) {
            return Err(Refusal::new(
                ErrorCode::RateLimited,
                "too many rooms entered from this address; slow down",
            ));
        }
        let (paired, pairing) = oneshot::channel();
        let accepter = Seeker {
            conn: self.conn,
            player: Some(player),
            rating: Rating::NEW,
            colour_balance: 0,
            out,
            paired,
        };
        self.app.lobby.accept(id, accepter).await?;
        self.seek = Some(pairing);
        Ok(None)
    }

    /// Stops waiting in the pool: `seekEnded`, or nothing when the pairing
    /// came first (its `joined` follows).
    async fn cancel_seek(&mut self) -> Result<Option<ServerMessage>, Refusal> {
        if self.seek.is_none() || self.challenge.is_some() {
            return Err(Refusal::new(
                ErrorCode::NotSeeking,
                "not looking for a game",
            ));
        }
        if self.app.lobby.cancel(self.conn).await {
            self.seek = None;
            self.seek_ended = true;
            return Ok(Some(ServerMessage::SeekEnded {}));
        }
        Ok(None)
    }

    /// Takes the pairing's answer: its room, or the frame that says why
    /// there is none (sent to `socket`); false when the socket is gone.
    async fn paired(
        &mut self,
        socket: &mut WebSocket,
        paired: Result<Pairing, oneshot::error::RecvError>,
    ) -> bool {
        self.seek = None;
        let challenge = self.challenge.take();
        let frame = match paired {
            Ok(Ok(member)) => {
                self.enter(member);
                return true;
            }
            Ok(Err(frame)) => frame,
            // The lobby let the seek go (waited its longest, or the server
            // is stopping): it ends without a game.
            Err(_) => match challenge {
                Some(id) => ServerMessage::ChallengeEnded {
                    id,
                    reason: ChallengeEnd::Expired,
                },
                None => ServerMessage::SeekEnded {},
            },
        };
        self.seek_ended = true;
        send(socket, Utf8Bytes::from(write(&frame))).await
    }

    /// Now in a room: only the room holds the outbox's sender, and the
    /// place among those waiting goes to the next.
    fn enter(&mut self, member: Membership) {
        self.member = Some(member);
        self.out = None;
        self.waiting = None;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use axum::http::HeaderValue;

    fn headers(origin: Option<&str>, host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        if let Some(o) = origin {
            h.insert(header::ORIGIN, HeaderValue::from_str(o).unwrap());
        }
        h
    }

    #[test]
    fn only_this_site_and_listed_origins_may_connect() {
        assert!(origin_allowed(&headers(None, "127.0.0.1:8000"), &[]));
        assert!(origin_allowed(
            &headers(Some("http://127.0.0.1:8000"), "127.0.0.1:8000"),
            &[]
        ));
        assert!(!origin_allowed(
            &headers(Some("http://evil.example"), "127.0.0.1:8000"),
            &[]
        ));
        assert!(!origin_allowed(
            &headers(Some("null"), "127.0.0.1:8000"),
            &[]
        ));
        let allowed = vec!["https://uttt.example".to_string()];
        assert!(origin_allowed(
            &headers(Some("https://uttt.example"), "api.example"),
            &allowed
        ));
    }
}
