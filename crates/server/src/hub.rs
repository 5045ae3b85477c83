//! The rooms on the network: each room is a task that owns its [`Room`]
//! and is reached through a bounded queue of [`Command`]s, so rooms never
//! share a lock, a panic in one ends only that task, and a flood of frames
//! for one room waits in its own queue. A change is written to the
//! [`Store`] before anyone hears of it (if the write fails, the change is
//! undone and refused); then the task sends each of its members the
//! room's state through the member's own bounded outbox, and a member
//! whose outbox is full (a client that does not read) is dropped rather
//! than waited for. A watcher coming or going changes only the count of
//! watchers: the newcomer gets the state, the others a count, at most once
//! a second (`pace.rs`). Rooms live in memory while someone is in them (and
//! ten minutes after); a room not in memory is read back from the store
//! when someone joins it, and at start-up every unfinished game is. A room
//! nobody is in where nothing was ever played is deleted after a minute,
//! so rooms made and left cannot fill the server. The cap on rooms in
//! memory never turns away a player coming back to their seat.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{mpsc, oneshot};
use uttt_protocol::{write, ClientMessage, ErrorCode, Refusal, Role, RoomOptions, ServerMessage};

use crate::chat::{channel_of, store_report, Chat, Report, Said};
use crate::clock::{epoch_ms, now_ms};
use crate::conditional;
use crate::pace::Pace;
use crate::players::Player;
use crate::push::{self, Push};
use crate::room::{seat_role, Room, Snapshot};
use crate::stakes;
use crate::store::Store;

/// Frames waiting for one connection; more and it is dropped as too slow.
pub const OUTBOX_FRAMES: usize = 64;
/// Commands waiting for one room.
const ROOM_QUEUE: usize = 256;
/// How long a connection waits for a place in its room's queue.
const ROOM_QUEUE_WAIT: Duration = Duration::from_secs(5);
/// How long a connection waits for its room's answer once the command is
/// queued: well past any save a working disk takes, so the requester is
/// still there when the store says yes or no. A change whose requester
/// gave up all the same is taken back before anyone hears of it (see
/// `handle`): an error always means nothing changed.
const ROOM_ANSWER: Duration = Duration::from_secs(30);
/// How long a game without days a move may go without a move before the
/// lists of games in play (`playing`, `watchable`) take it as abandoned.
const ABANDONED_MS: u64 = 3_600_000;
/// Games in play the Watch page lists at most (`GET /api/watch`).
const MAX_WATCHABLE: u32 = 100;
/// A player's games in play listed at most (`GET /api/me/playing`).
const MAX_PLAYING: u32 = 200;
/// Connections in one room at most (two players and their watchers).
const MAX_MEMBERS: usize = 256;

/// The time a room of `options` runs on: the monotonic clock for a live
/// game, so a step of the wall clock never charges or refunds anyone; the
/// wall clock for a correspondence game, whose deadline it stores (see
/// `Room::by_days`).
fn clock_of(options: &RoomOptions) -> u64 {
    if options.days.is_some() {
        epoch_ms()
    } else {
        now_ms()
    }
}

/// Where a room sends a connection its frames.
pub type Outbox = mpsc::Sender<Utf8Bytes>;

/// What a connection asks of its room.
pub enum Command {
    /// Enter the room (see [`Room::join`]).
    Join {
        /// The connection.
        conn: u64,
        /// A seat's token, to come back to it.
        token: Option<String>,
        /// The signed-in player, who holds a seat they take.
        player: Option<Player>,
        /// Where the room sends this connection its frames.
        out: Outbox,
        /// The answer: the role taken, or why not.
        reply: oneshot::Sender<Result<Role, Refusal>>,
    },
    /// A seat's player acts (see [`Room::act`]).
    Act {
        /// The connection.
        conn: u64,
        /// What it asks.
        message: ClientMessage,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// The connection has gone.
    Gone {
        /// The connection.
        conn: u64,
    },
    /// A connection says a line in its chat (checked: `chat::check`).
    Chat {
        /// The connection.
        conn: u64,
        /// The sayer's name, when signed in.
        name: Option<String>,
        /// What it says.
        said: Said,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// A connection reports line `id` of its chat.
    ReportChat {
        /// The connection.
        conn: u64,
        /// The line's id.
        id: u32,
        /// The reporting player, when signed in.
        reporter: Option<i64>,
        /// Done, or why not.
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Look at the clock: a correspondence game past its deadline by the
    /// wall clock ends now (the room's timer sleeps on the monotonic clock,
    /// which a suspended machine does not count, nor a step of the wall
    /// clock).
    Wake,
    /// Player `player`'s vacation changed: the room reads it from the
    /// store (see [`Room::set_vacation`]).
    Vacation {
        /// The player (their vacation is read from the store).
        player: i64,
        /// Done (stored and told), or why not.
        reply: oneshot::Sender<Result<(), Refusal>>,
    },
    /// Makes the room's task panic: the tests of what one room's failure
    /// does to the others.
    #[cfg(test)]
    Crash,
}

/// A connection's place in a room.
#[derive(Clone)]
pub struct Membership {
    /// The connection's number.
    pub conn: u64,
    /// The room's code.
    pub room: String,
    /// Its queue.
    pub queue: mpsc::Sender<Command>,
}

/// Limits on rooms.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RoomLimits {
    /// Rooms open at most.
    pub max_rooms: usize,
    /// Rooms one client address may create per minute.
    pub rooms_per_address_per_minute: u32,
    /// How long a player may be away from a timed game before losing.
    pub grace_ms: u64,
    /// How long a room nobody is in stays in memory (it stays stored).
    pub idle_room: Duration,
    /// How long a room nobody is in, where nothing was ever played, lives
    /// before it is deleted.
    pub unplayed_room: Duration,
}

/// Every room in memory, by code, and the store behind them.
pub struct Hub {
    rooms: Mutex<HashMap<String, mpsc::Sender<Command>>>,
    store: Store,
    created: Mutex<HashMap<IpAddr, (Instant, u32)>>,
    limits: RoomLimits,
    next_conn: AtomicU64,
    push: Push,
}

/// A fair coin from the operating system (a fixed side should it fail,
/// which only decides who moves first).
#[must_use]
pub fn coin() -> bool {
    random_bytes::<1>().is_ok_and(|[b]| b & 1 == 1)
}

/// `bytes` random bytes from the operating system, written in a 32-letter
/// alphabet without look-alikes (5 bits a letter).
///
/// # Errors
/// When the system has no randomness to give.
pub fn random_code(bytes: usize) -> Result<String, Refusal> {
    const ALPHABET: &[u8; 32] = b"0123456789abcdefghjkmnpqrstvwxyz";
    let mut raw = vec![0u8; bytes];
    getrandom::fill(&mut raw).map_err(|_| no_randomness())?;
    let mut out = String::with_capacity(bytes * 8 / 5 + 1);
    let (mut acc, mut bits) = (0u32, 0u32);
    for byte in raw {
        acc = (acc << 8) | u32::from(byte);
        bits += 8;
        while bits >= 5 {
            bits -= 5;
            out.push(char::from(ALPHABET[((acc >> bits) & 31) as usize]));
        }
    }
    if bits > 0 {
        out.push(char::from(ALPHABET[((acc << (5 - bits)) & 31) as usize]));
    }
    Ok(out)
}

/// `N` random bytes from the operating system.
///
/// # Errors
/// When the system has no randomness to give.
pub fn random_bytes<const N: usize>() -> Result<[u8; N], Refusal> {
    let mut raw = [0u8; N];
    getrandom::fill(&mut raw).map_err(|_| no_randomness())?;
    Ok(raw)
}

fn no_randomness() -> Refusal {
    Refusal::new(ErrorCode::ServerError, "the server has no randomness")
}

/// A room code: 80 random bits.
fn room_code() -> Result<String, Refusal> {
    random_code(10)
}

/// A seat token: 128 random bits.
fn seat_token() -> Result<String, Refusal> {
    random_code(16)
}

fn lock<T>(m: &Mutex<T>) -> MutexGuard<'_, T> {
    // The maps stay consistent whatever panicked while holding them.
    m.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
}

impl Hub {
    /// A hub with no room in memory yet, over `store`, telling the
    /// players of their games through `push`.
    #[must_use]
    pub fn new(limits: RoomLimits, store: Store, push: Push) -> Hub {
        Hub {
            rooms: Mutex::new(HashMap::new()),
            store,
            created: Mutex::new(HashMap::new()),
            limits,
            next_conn: AtomicU64::new(1),
            push,
        }
    }

    /// Where the players' notices go.
    #[must_use]
    pub fn push(&self) -> &Push {
        &self.push
    }

    /// A number for a new connection.
    pub fn connection_number(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// How many rooms are open.
    pub fn room_count(&self) -> usize {
        lock(&self.rooms).len()
    }

    /// Brings every unfinished game in the store back into memory, so its
    /// players can return and its clock keeps running. Returns how many.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn restore_unfinished(self: &Arc<Hub>) -> Result<usize, String> {
        let snapshots = self.store.unfinished().await?;
        let mut restored = 0;
        for snapshot in snapshots {
            if self.room_count() >= self.limits.max_rooms {
                eprintln!("uttt-server: --max-rooms reached; the other stored games come back when joined");
                break;
            }
            let code = snapshot.code.clone();
            match self.revive(snapshot) {
                Ok(_) => restored += 1,
                Err(e) => eprintln!("uttt-server: room {code} is not restored: {e}"),
            }
        }
        Ok(restored)
    }

    /// Wakes the correspondence games whose side to move has run out of
    /// days by the wall clock (a hundred at most a call): a room not in
    /// memory is read back, so that it ends its game on time as it ends
    /// any (stored, rated, told). Returns how many were woken.
    pub async fn wake_overdue(self: &Arc<Hub>) -> usize {
        let overdue = match self.store.overdue(epoch_ms(), 100).await {
            Ok(overdue) => overdue,
            Err(e) => {
                eprintln!("uttt-server: overdue games cannot be read: {e}");
                return 0;
            }
        };
        let mut woken = 0;
        for snapshot in overdue {
            let code = snapshot.code.clone();
            let in_memory = lock(&self.rooms).get(&code).cloned();
            if let Some(queue) = in_memory {
                woken += usize::from(queue.try_send(Command::Wake).is_ok());
                continue;
            }
            match self.revive(snapshot) {
                Ok(_) => woken += 1,
                Err(e) => eprintln!("uttt-server: room {code} is not read back: {e}"),
            }
        }
        woken
    }

    /// Reminds the side to move of each stored correspondence game whose
    /// move's days are running out (see `push::remind_at`), once a move, a
    /// hundred games at most a call; returns how many were reminded.
    pub async fn remind(&self) -> usize {
        let due = match self.store.due_reminders(epoch_ms(), 100).await {
            Ok(due) => due,
            Err(e) => {
                eprintln!("uttt-server: reminders cannot be read: {e}");
                return 0;
            }
        };
        let mut reminded = 0;
        for snapshot in due {
            let Some(deadline) = snapshot.deadline else {
                continue;
            };
            // Claimed even with nobody to tell (a guest to move), so the
            // move is not read again each minute.
            let notice = push::reminder(&snapshot);
            match self.store.claim_reminder(snapshot.code, deadline).await {
                Ok(true) => {
                    if let Some(notice) = notice {
                        self.push.tell(notice);
                        reminded += 1;
                    }
                }
                Ok(false) => {}
                Err(e) => eprintln!("uttt-server: {e}"),
            }
        }
        reminded
    }

    /// Tells each correspondence game in play of player `player`, at once
    /// and in the background, that their vacation changed: each room reads
    /// it from the store (so requests that cross never leave a room with
    /// an older word) and stores its clock. A room not in memory is read
    /// back; one that was just put away is read back once more. One that
    /// cannot be told is said in the log (its clock runs as it did, and the
    /// next change of the vacation tells it again).
    pub fn tell_vacation(self: &Arc<Hub>, player: i64) {
        let hub = Arc::clone(self);
        tokio::spawn(async move {
            // Only correspondence games are listed whatever their last change.
            let games = match hub.store.playing(player, u64::MAX, MAX_PLAYING).await {
                Ok(games) => games,
                Err(e) => {
                    eprintln!("uttt-server: a vacation's games cannot be read: {e}");
                    return;
                }
            };
            let mut telling = tokio::task::JoinSet::new();
            for snapshot in games.into_iter().filter(|s| s.options.days.is_some()) {
                let hub = Arc::clone(&hub);
                telling.spawn(async move { hub.vacation_to(snapshot, player).await });
            }
            while telling.join_next().await.is_some() {}
        });
    }

    /// Tells room `snapshot` (read back if need be) that player `player`'s
    /// vacation changed; once more, read anew, if it was just put away.
    async fn vacation_to(self: &Arc<Hub>, snapshot: Snapshot, player: i64) {
        let code = snapshot.code.clone();
        let mut stored = Some(snapshot);
        for _ in 0..2 {
            let snapshot = match stored.take() {
                Some(snapshot) => snapshot,
                None => match self.store.load(&code).await {
                    Ok(Some(snapshot)) => snapshot,
                    _ => break,
                },
            };
            let told = match self.revive(snapshot) {
                Ok(queue) => {
                    let (reply, answer) = oneshot::channel();
                    ask(&queue, Command::Vacation { player, reply }, answer).await
                }
                Err(e) => Err(Refusal::new(ErrorCode::ServerError, e)),
            };
            match told {
                Ok(Ok(())) => return,
                Ok(Err(e)) | Err(e) => {
                    eprintln!(
                        "uttt-server: room {code} is not told of a vacation: {}",
                        e.message
                    );
                }
            }
        }
    }

    /// Player `player`'s games in play, as stored (every change is stored
    /// before anyone hears of it), the most recently changed first: every
    /// correspondence game, and the others moved in the last hour.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn playing(&self, player: i64) -> Result<Vec<Snapshot>, String> {
        let since = epoch_ms().saturating_sub(ABANDONED_MS);
        self.store.playing(player, since, MAX_PLAYING).await
    }

    /// The games in play others may watch (see `Store::watchable`): moved
    /// in the last hour, or played by days, `MAX_WATCHABLE` at most.
    ///
    /// # Errors
    /// When the store cannot be read.
    pub async fn watchable(&self) -> Result<Vec<Snapshot>, String> {
        let since = epoch_ms().saturating_sub(ABANDONED_MS);
        self.store.watchable(since, MAX_WATCHABLE).await
    }

    /// Starts the task of a stored room, unless it is in memory already;
    /// returns its queue.
    fn revive(self: &Arc<Hub>, snapshot: Snapshot) -> Result<mpsc::Sender<Command>, String> {
        let mut rooms = lock(&self.rooms);
        if let Some(queue) = rooms.get(&snapshot.code) {
            return Ok(queue.clone());
        }
        let now = clock_of(&snapshot.options);
        let room = Room::restore(snapshot, self.limits.grace_ms, now)?;
        let (queue, commands) = mpsc::channel(ROOM_QUEUE);
        rooms.insert(room.code.clone(), queue.clone());
        let saved = room.snapshot();
        let task = room_task(
            room,
            (queue.downgrade(), commands),
            Members::default(),
            saved,
            Arc::clone(self),
        );
        tokio::spawn(task);
        Ok(queue)
    }

    /// Opens a room with connection `conn` (from `address`) in seat 0; the
    /// room is stored, then sends it `joined` and the state through `out`.
    ///
    /// # Errors
    /// `bad-options`, `rate-limited`, `server-full` or `server-error`.
    pub async fn create(
        self: &Arc<Hub>,
        conn: u64,
        options: RoomOptions,
        address: IpAddr,
        player: Option<Player>,
        out: Outbox,
    ) -> Result<Membership, Refusal> {
        options
            .check()
            .map_err(|why| Refusal::new(ErrorCode::BadOptions, why))?;
        if options.rated && player.is_none() {
            return Err(Refusal::new(
                ErrorCode::BadOptions,
                "a rated game is for signed-in players",
            ));
        }
        // Full first: a refused attempt does not spend the client's quota.
        if self.room_count() >= self.limits.max_rooms {
            return Err(server_full());
        }
        self.count_creation(address)?;
        self.open_room(conn, options, player, out).await
    }

    /// Opens a room with connection `conn` (of `player`, if signed in) in
    /// seat 0; Play now's pairings open theirs here, not counted against
    /// an address (the players asked for a game, not a room).
    ///
    /// # Errors
    /// `server-full`, or `server-error` when the store refuses.
    pub async fn open_room(
        self: &Arc<Hub>,
        conn: u64,
        options: RoomOptions,
        player: Option<Player>,
        out: Outbox,
    ) -> Result<Membership, Refusal> {
        if self.room_count() >= self.limits.max_rooms {
            return Err(server_full());
        }
        let code = room_code()?;
        let token = seat_token()?;
        let mut room = Room::new(code.clone(), options, token.clone(), coin());
        room.assign_player(Role::Seat0, player);
        room.grace_ms = self.limits.grace_ms;
        let saved = room.snapshot();
        self.store
            .save(saved.clone())
            .await
            .map_err(|e| store_failed(&e))?;
        let (queue, commands) = mpsc::channel(ROOM_QUEUE);
        lock(&self.rooms).insert(code.clone(), queue.clone());
        let mut members = Members::default();
        members.add(&code, conn, Role::Seat0, out, Some(token));
        let task = room_task(
            room,
            (queue.downgrade(), commands),
            members,
            saved,
            Arc::clone(self),
        );
        tokio::spawn(task);
        Ok(Membership {
            conn,
            room: code,
            queue,
        })
    }

    /// Counts a room creation against `address`'s allowance.
    fn count_creation(&self, address: IpAddr) -> Result<(), Refusal> {
        let mut created = lock(&self.created);
        let now = Instant::now();
        created.retain(|_, (since, _)| now.duration_since(*since) < Duration::from_secs(60));
        let (_, count) = created.entry(address).or_insert((now, 0));
        if *count >= self.limits.rooms_per_address_per_minute {
            return Err(Refusal::new(
                ErrorCode::RateLimited,
                "too many new rooms from this address; wait a minute",
            ));
        }
        *count += 1;
        Ok(())
    }

    /// Enters room `code` (see [`Room::join`]), reading it back from the
    /// store if it is not in memory.
    ///
    /// # Errors
    /// `no-such-room`, `bad-token`, or `server-error` when the room does
    /// not answer.
    pub async fn join(
        self: &Arc<Hub>,
        conn: u64,
        code: &str,
        token: Option<String>,
        player: Option<Player>,
        out: Outbox,
    ) -> Result<(Membership, Role), Refusal> {
        // A second try when the first found the room's task gone (ended,
        // or put away from memory): then the room is read back from the store.
        let mut tries = 0;
        let (queue, role) = loop {
            tries += 1;
            let in_memory = lock(&self.rooms).get(code).cloned();
            let queue = match in_memory {
                Some(queue) => queue,
                None => self.load(code, token.as_deref()).await?,
            };
            let (reply, answer) = oneshot::channel();
            let command = Command::Join {
                conn,
                token: token.clone(),
                player: player.clone(),
                out: out.clone(),
                reply,
            };
            match ask(&queue, command, answer).await {
                Ok(Ok(role)) => break (queue, role),
                Ok(Err(refusal)) if refusal.code != ErrorCode::ServerError || tries > 1 => {
                    return Err(refusal)
                }
                Err(refusal) if !queue.is_closed() || tries > 1 => return Err(refusal),
                // The task is gone: it no longer answers for the room.
                _ => self.forget(code, &queue),
            }
        };
        Ok((
            Membership {
                conn,
                room: code.to_string(),
                queue,
            },
            role,
        ))
    }

    /// Reads room `code` back from the store and starts its task. When the
    /// rooms in memory are at their cap, only a player holding one of its
    /// seats' tokens (`token`) gets it back.
    async fn load(
        self: &Arc<Hub>,
        code: &str,
        token: Option<&str>,
    ) -> Result<mpsc::Sender<Command>, Refusal> {
        let no_room = || Refusal::new(ErrorCode::NoSuchRoom, "no room has that code");
        // Codes are written in the room-code alphabet; anything else is not
        // worth a query.
        if code.is_empty() || code.len() > 32 || !code.bytes().all(|b| b.is_ascii_alphanumeric()) {
            return Err(no_room());
        }
        let snapshot = self
            .store
            .load(code)
            .await
            .map_err(|e| unreadable(code, &e))?
            .ok_or_else(no_room)?;
        if self.room_count() >= self.limits.max_rooms && !snapshot.seated(token) {
            return Err(server_full());
        }
        self.revive(snapshot).map_err(|e| unreadable(code, &e))
    }

    /// Returns once the store has written every change asked of it before
    /// and closed its file (see `Store::close`).
    pub async fn close_store(&self) {
        if let Err(e) = self.store.close().await {
            eprintln!("uttt-server: {e}");
        }
    }

    /// Forgets room `code`'s queue, if it is still `queue` (a room read
    /// back since has a queue of its own).
    fn forget(&self, code: &str, queue: &mpsc::Sender<Command>) {
        let mut rooms = lock(&self.rooms);
        if rooms.get(code).is_some_and(|q| q.same_channel(queue)) {
            rooms.remove(code);
        }
    }
}

/// Sends `command` to a room and waits for its answer.
///
/// # Errors
/// `server-error` when the room does not take or answer it in time.
pub async fn ask<T>(
    queue: &mpsc::Sender<Command>,
    command: Command,
    answer: oneshot::Receiver<T>,
) -> Result<T, Refusal> {
    let unavailable = || {
        Refusal::new(
            ErrorCode::ServerError,
            "the room is not answering; try again",
        )
    };
    tokio::time::timeout(ROOM_QUEUE_WAIT, queue.send(command))
        .await
        .map_err(|_| unavailable())?
        .map_err(|_| unavailable())?;
    tokio::time::timeout(room_answer(), answer)
        .await
        .map_err(|_| unavailable())?
        .map_err(|_| unavailable())
}

/// `ROOM_ANSWER`, or in tests the milliseconds of the fail point
/// `room-answer` (FAILPOINTS=room-answer=return(MS)), so a store stalled
/// for a few seconds outlasts it.
fn room_answer() -> Duration {
    #[cfg(feature = "failpoints")]
    fail::fail_point!("room-answer", |ms| ms
        .and_then(|ms| ms.parse().ok())
        .map_or(ROOM_ANSWER, Duration::from_millis));
    ROOM_ANSWER
}

/// A room's connections and their outboxes.
#[derive(Default)]
struct Members(HashMap<u64, (Role, Outbox)>);

impl Members {
    /// The role connection `conn` holds here.
    fn role(&self, conn: u64) -> Result<Role, Refusal> {
        self.0
            .get(&conn)
            .map(|(role, _)| *role)
            .ok_or_else(|| Refusal::new(ErrorCode::NotInRoom, "join the room first"))
    }

    /// Sends connection `conn` one message, if it can take it (one that
    /// cannot is dropped with the next state).
    fn send(&self, conn: u64, message: &ServerMessage) {
        if let Some((_, out)) = self.0.get(&conn) {
            let _ = out.try_send(frame(message));
        }
    }

    /// Sends each seat whose conditional moves are no longer `before`, and
    /// seat `asked` (one that set them) whatever they are, its lines as
    /// they stand; once each.
    fn tell_changed_lines(&self, room: &Room, before: &[conditional::Lines; 2], asked: Option<u8>) {
        for seat in 0..2u8 {
            if asked == Some(seat)
                || room.conditional[usize::from(seat)] != before[usize::from(seat)]
            {
                self.tell_seat(room, seat);
            }
        }
    }

    /// Sends seat `seat`'s connections (only) the seat's conditional moves.
    fn tell_seat(&self, room: &Room, seat: u8) {
        let message = frame(&ServerMessage::Conditional {
            lines: room.conditional[usize::from(seat)].clone(),
        });
        for (role, out) in self.0.values() {
            if *role == seat_role(usize::from(seat)) {
                let _ = out.try_send(message.clone());
            }
        }
    }

    /// Adds a connection to room `room` and sends it `joined` (with its
    /// seat's token, which only this connection is ever sent).
    fn add(&mut self, room: &str, conn: u64, role: Role, out: Outbox, token: Option<String>) {
        // One connection, one place: the server never seats a connection
        // twice (each connection joins one room once).
        if self.0.contains_key(&conn) {
            return;
        }
        let _ = out.try_send(frame(&ServerMessage::Joined {
            room: room.to_string(),
            role,
            token,
        }));
        self.0.insert(conn, (role, out));
    }
}

fn server_full() -> Refusal {
    Refusal::new(
        ErrorCode::ServerFull,
        "the server has no room for more games now",
    )
}

fn store_failed(e: &str) -> Refusal {
    eprintln!("uttt-server: {e}");
    Refusal::new(
        ErrorCode::ServerError,
        "the server could not save the game; nothing changed",
    )
}

/// Room `code` could not be read back from the store (`e` says why: a row
/// this version cannot read, or the database failing): said to the
/// operator with the reason, and to the player as what it is, a room that
/// cannot be read, not a change that could not be saved.
fn unreadable(code: &str, e: &str) -> Refusal {
    eprintln!("uttt-server: room {code} cannot be read back: {e}");
    Refusal::new(
        ErrorCode::ServerError,
        "this room's stored game cannot be read; nothing changed",
    )
}

fn frame(message: &ServerMessage) -> Utf8Bytes {
    Utf8Bytes::from(write(message))
}

/// The room's life: commands in, stored changes, state out, and the
/// clock's deadlines. `saved` is what the store holds of the room.
async fn room_task(
    mut room: Room,
    (me, mut commands): (mpsc::WeakSender<Command>, mpsc::Receiver<Command>),
    mut members: Members,
    mut saved: Snapshot,
    hub: Arc<Hub>,
) {
    // However the task ends (a panic too), the hub stops listing it.
    let guard = Forget {
        hub: Arc::clone(&hub),
        code: room.code.clone(),
        queue: me,
    };
    broadcast(&mut room, &mut members);
    // What the players were last told of: a room read back tells nothing anew.
    let mut told = saved.clone();
    let mut chat = Chat::default();
    let mut watchers = Pace::default();
    watchers.told(Instant::now());
    let mut idle_since = members.0.is_empty().then(Instant::now);
    loop {
        let count_due = watchers.due().map(tokio::time::Instant::from_std);
        let wait = room
            .next_deadline()
            .map(|at| Duration::from_millis(at.saturating_sub(clock_of(&room.options))));
        let idle_limit = if room.unplayed() {
            hub.limits.unplayed_room
        } else {
            hub.limits.idle_room
        };
        let idle_left = idle_since.map(|since| idle_limit.saturating_sub(since.elapsed()));
        let command = tokio::select! {
            command = commands.recv() => command,
            () = tokio::time::sleep(wait.unwrap_or_default()), if wait.is_some() => {
                let now = clock_of(&room.options);
                let planned = room.conditional.clone();
                if room.settle(now) {
                    // The end of a game on time. Should the store refuse it,
                    // the result still stands here and is stored with the
                    // next change.
                    if persist(&hub, &room, &mut saved).await.is_ok() || room.result.is_some() {
                        tell_ended(&hub, (&mut room, &mut members), &planned, (&saved, &mut told)).await;
                        watchers.told(Instant::now());
                    }
                } else if room.vacations_over(now) {
                    // A vacation ended: the clock runs again, for all to see.
                    let _ = persist(&hub, &room, &mut saved).await;
                    broadcast(&mut room, &mut members);
                    watchers.told(Instant::now());
                }
                continue;
            }
            () = tokio::time::sleep(idle_left.unwrap_or_default()), if idle_left.is_some() => break,
            () = tokio::time::sleep_until(count_due.unwrap_or_else(tokio::time::Instant::now)), if count_due.is_some() => {
                watchers.told(Instant::now());
                match tell_watchers(&mut room, &mut members) {
                    // A player too slow to take the count is gone: the
                    // opponent sees it in the state.
                    Tell::Everyone => broadcast(&mut room, &mut members),
                    Tell::Watchers => watchers.changed(Instant::now()),
                    Tell::Nobody => {}
                }
                continue;
            }
        };
        let Some(command) = command else { break };
        // A flag that fell since the timer last woke ends the game before
        // the command is weighed, and is stored and told whatever its fate.
        let planned = room.conditional.clone();
        if room.settle(clock_of(&room.options)) && persist(&hub, &room, &mut saved).await.is_ok() {
            tell_ended(
                &hub,
                (&mut room, &mut members),
                &planned,
                (&saved, &mut told),
            )
            .await;
            watchers.told(Instant::now());
        }
        let parts = (&mut room, &mut members, &mut saved, &mut chat);
        match handle(command, parts, &hub).await {
            Tell::Everyone => {
                broadcast(&mut room, &mut members);
                notify(&hub, &mut told, &saved);
                watchers.told(Instant::now());
            }
            Tell::Watchers => watchers.changed(Instant::now()),
            Tell::Nobody => {}
        }
        idle_since = match (members.0.is_empty(), idle_since) {
            (true, None) => Some(Instant::now()),
            (true, since) => since,
            (false, _) => None,
        };
    }
    if members.0.is_empty() && room.unplayed() {
        // Made and left with nothing played: gone for good. Taken off the
        // list first, so a join from now on finds no room.
        drop(guard);
        if let Err(e) = hub.store.delete(&room.code).await {
            eprintln!("uttt-server: room {} stays stored: {e}", room.code);
        }
    } else {
        // Leaving memory: the running clock's time so far is stored with it,
        // and a change stored only now (an end the store refused before) is told.
        room.charge_clock(clock_of(&room.options));
        if persist(&hub, &room, &mut saved).await.is_ok() {
            notify(&hub, &mut told, &saved);
        }
        drop(guard);
    }
    // Commands that reached the queue as the room left memory: told to try
    // again, which reads the room back from the store.
    commands.close();
    while let Some(command) = commands.recv().await {
        let gone = || {
            Refusal::new(
                ErrorCode::ServerError,
                "the room was just put away; try again",
            )
        };
        match command {
            Command::Join { reply, .. } => {
                let _ = reply.send(Err(gone()));
            }
            Command::Act { reply, .. }
            | Command::Chat { reply, .. }
            | Command::ReportChat { reply, .. }
            | Command::Vacation { reply, .. } => {
                let _ = reply.send(Err(gone()));
            }
            Command::Gone { .. } | Command::Wake => {}
            #[cfg(test)]
            Command::Crash => {}
        }
    }
}

/// Connection `conn` says `said` (as `name`) in its chat: the line goes to
/// every member reading that chat.
fn say(
    room: &Room,
    members: &Members,
    chat: &mut Chat,
    (conn, name, said): (u64, Option<String>, Said),
) -> Result<(), Refusal> {
    let role = members.role(conn)?;
    let channel = channel_of(role);
    let side = match role {
        Role::Spectator => None,
        seat => Some(room.side_of(u8::from(seat == Role::Seat1))),
    };
    let line = frame(&ServerMessage::Chat {
        line: chat.add(channel, (side, name), said, epoch_ms()),
    });
    for (role, out) in members.0.values() {
        if channel_of(*role) == channel {
            let _ = out.try_send(line.clone());
        }
    }
    Ok(())
}

/// Connection `conn` reports line `id` of its chat (by `reporter`, when
/// signed in): kept with the game as it stands, once.
async fn report(
    room: &Room,
    members: &Members,
    chat: &mut Chat,
    (conn, id, reporter): (u64, u32, Option<i64>),
    hub: &Hub,
) -> Result<(), Refusal> {
    let channel = channel_of(members.role(conn)?);
    let line = chat
        .find(channel, id)
        .ok_or_else(|| Refusal::new(ErrorCode::NoSuchLine, "that line is not in your chat"))?;
    // Reported again (or past the room's cap): already kept, or enough.
    if !chat.first_report(conn, id) {
        return Ok(());
    }
    let kept = Report {
        room: room.code.clone(),
        game_number: room.game_number,
        record: room.game.record(),
        line,
        reporter,
        at: epoch_ms(),
    };
    store_report(&hub.store, kept)
        .await
        .map_err(|e| store_failed(&e))
}

/// Takes a room's queue off the hub's list when its task ends.
struct Forget {
    hub: Arc<Hub>,
    code: String,
    queue: mpsc::WeakSender<Command>,
}

impl Drop for Forget {
    fn drop(&mut self) {
        if let Some(queue) = self.queue.upgrade() {
            self.hub.forget(&self.code, &queue);
        }
    }
}

/// Writes the room if what the store holds of it changed.
async fn persist(hub: &Hub, room: &Room, saved: &mut Snapshot) -> Result<(), Refusal> {
    let now = room.snapshot();
    if now == *saved {
        return Ok(());
    }
    hub.store
        .save(now.clone())
        .await
        .map_err(|e| store_failed(&e))?;
    *saved = now;
    Ok(())
}

/// What follows a game's end on time, once stored (or refused by the
/// store, the result standing): its stakes brought up to date, the state
/// to everyone, each seat whose conditional moves `planned` ended with it
/// told so, and the players told by push.
async fn tell_ended(
    hub: &Hub,
    (room, members): (&mut Room, &mut Members),
    planned: &[conditional::Lines; 2],
    (saved, told): (&Snapshot, &mut Snapshot),
) {
    let game = room.game_number;
    stakes::update(&hub.store, room, game, false, false).await;
    broadcast(room, members);
    members.tell_changed_lines(room, planned, None);
    notify(hub, told, saved);
}

/// Tells the players by push what changed since `told` (what they were
/// last told of, as stored) now that `saved` is stored and told: only
/// changes that stand, never one taken back.
fn notify(hub: &Hub, told: &mut Snapshot, saved: &Snapshot) {
    for notice in push::of_change(told, saved) {
        hub.push.tell(notice);
    }
    told.clone_from(saved);
}

/// Who hears of a command carried out.
enum Tell {
    /// Nothing changed that anyone sees.
    Nobody,
    /// Every member gets the state.
    Everyone,
    /// Only the count of watchers changed (a newcomer watching already
    /// has the state): told in time (see `pace.rs`).
    Watchers,
}

/// Carries out one command; says who should hear of it.
async fn handle(
    command: Command,
    (room, members, saved, chat): (&mut Room, &mut Members, &mut Snapshot, &mut Chat),
    hub: &Hub,
) -> Tell {
    let now = clock_of(&room.options);
    let before = room.clone();
    match command {
        Command::Join {
            conn,
            token,
            player,
            out,
            reply,
        } => {
            // The asker gave up waiting: it must not be seated unawares.
            if reply.is_closed() {
                return Tell::Nobody;
            }
            if members.0.len() >= MAX_MEMBERS {
                let full = Refusal::new(
                    ErrorCode::ServerFull,
                    "this room has no room for more watchers",
                );
                let _ = reply.send(Err(full));
                return Tell::Nobody;
            }
            let new_token = match seat_token() {
                Ok(new_token) => new_token,
                Err(refusal) => {
                    let _ = reply.send(Err(refusal));
                    return Tell::Nobody;
                }
            };
            // A guest would take the free seat of a rated room: only a
            // signed-in player may.
            if room.options.rated && player.is_none() && token.is_none() && room.seats[1].is_none()
            {
                let _ = reply.send(Err(Refusal::new(
                    ErrorCode::NotAPlayer,
                    "this game is rated: sign in to take its seat",
                )));
                return Tell::Nobody;
            }
            let result = room
                .join(token.as_deref(), player.as_ref(), new_token, now)
                .inspect(|(role, _)| {
                    room.assign_player(*role, player);
                });
            // A new seat's token must be on disk before its holder has it.
            let result = match result {
                Ok(joined) => match persist(hub, room, saved).await {
                    Ok(()) => Ok(joined),
                    Err(refusal) => {
                        *room = before.clone();
                        Err(refusal)
                    }
                },
                Err(refusal) => Err(refusal),
            };
            if result.is_ok() && !stands(hub, room, saved, before, reply.is_closed(), true).await {
                return Tell::Nobody;
            }
            let answer = result.as_ref().map(|(role, _)| *role).map_err(Clone::clone);
            let tell = match answer {
                Ok(Role::Spectator) => Tell::Watchers,
                Ok(_) => Tell::Everyone,
                Err(_) => Tell::Nobody,
            };
            if let Ok((role, token)) = result {
                let token = if role == Role::Spectator { None } else { token };
                members.add(&room.code, conn, role, out, token);
                members.send(
                    conn,
                    &ServerMessage::ChatHistory {
                        lines: chat.lines(channel_of(role)),
                    },
                );
                if role == Role::Spectator {
                    tell_one(room, members, conn);
                } else if room.by_days() {
                    // In the seat: its conditional moves (none too), to it alone.
                    let lines = room.conditional[usize::from(role == Role::Seat1)].clone();
                    members.send(conn, &ServerMessage::Conditional { lines });
                }
            }
            let _ = reply.send(answer);
            tell
        }
        Command::Act {
            conn,
            message,
            reply,
        } => {
            // The asker gave up waiting: what it asked is not done unawares.
            if reply.is_closed() {
                return Tell::Nobody;
            }
            let planned = matches!(message, ClientMessage::Conditional { .. });
            let result = match members.role(conn) {
                Err(refusal) => Err(refusal),
                Ok(Role::Spectator) => Err(Refusal::new(
                    ErrorCode::NotAPlayer,
                    "spectators cannot play",
                )),
                Ok(role) => room.act(u8::from(role == Role::Seat1), &message, now),
            };
            // Stored before anyone hears of it; undone if it cannot be.
            let result = match result {
                Ok(()) => persist(hub, room, saved)
                    .await
                    .inspect_err(|_| *room = before.clone()),
                refused => refused,
            };
            let planned_before = before.conditional.clone();
            if result.is_ok() && !stands(hub, room, saved, before, reply.is_closed(), false).await {
                return Tell::Nobody;
            }
            if result.is_ok() {
                // Each seat hears its own conditional moves when they
                // change (the setter always); nobody else ever does.
                let asked = members
                    .role(conn)
                    .ok()
                    .filter(|_| planned)
                    .map(|role| u8::from(role == Role::Seat1));
                members.tell_changed_lines(room, &planned_before, asked);
            }
            let tell = match (&result, planned) {
                // Nothing others see changed.
                (Ok(()), true) | (Err(_), _) => Tell::Nobody,
                (Ok(()), false) => Tell::Everyone,
            };
            let _ = reply.send(result);
            tell
        }
        #[cfg(test)]
        Command::Crash => panic!("room {} fails on purpose", room.code),
        Command::Gone { conn } => match members.0.remove(&conn) {
            Some((role, _)) => {
                room.disconnect(role, now);
                if role == Role::Spectator {
                    Tell::Watchers
                } else {
                    Tell::Everyone
                }
            }
            None => Tell::Nobody,
        },
        // Settled before it was handled.
        Command::Wake => Tell::Nobody,
        Command::Vacation { player, reply } => {
            let until = match hub
                .store
                .read(move |c| crate::vacation::until_of(c, player))
                .await
            {
                Ok(until) => until,
                Err(e) => {
                    let _ = reply.send(Err(store_failed(&e)));
                    return Tell::Nobody;
                }
            };
            if !room.set_vacation(player, until, now) {
                let _ = reply.send(Ok(()));
                return Tell::Nobody;
            }
            match persist(hub, room, saved).await {
                Ok(()) => {
                    let _ = reply.send(Ok(()));
                    Tell::Everyone
                }
                Err(refused) => {
                    // Not stored: the room goes on as it was.
                    *room = before;
                    let _ = reply.send(Err(refused));
                    Tell::Nobody
                }
            }
        }
        Command::Chat {
            conn,
            name,
            said,
            reply,
        } => {
            let _ = reply.send(say(room, members, chat, (conn, name, said)));
            Tell::Nobody
        }
        Command::ReportChat {
            conn,
            id,
            reporter,
            reply,
        } => {
            let _ = reply.send(report(room, members, chat, (conn, id, reporter), hub).await);
            Tell::Nobody
        }
    }
}

/// Takes back a stored change whose requester stopped waiting before it
/// heard of it: the room is as `before`, in memory and (if the store takes
/// it) on disk, and nobody hears of the change.
/// What follows a stored change: taken back when its asker gave up
/// waiting (`asker_gone`: nothing is done unawares), else the stakes kept
/// true to it (`seated`: it seated a player). Whether the change stands.
async fn stands(
    hub: &Hub,
    room: &mut Room,
    saved: &mut Snapshot,
    before: Room,
    asker_gone: bool,
    seated: bool,
) -> bool {
    if asker_gone {
        take_back(hub, room, saved, before).await;
        return false;
    }
    let (game, ended) = (before.game_number, before.result.is_some());
    stakes::update(&hub.store, room, game, ended, seated).await;
    true
}

async fn take_back(hub: &Hub, room: &mut Room, saved: &mut Snapshot, before: Room) {
    *room = before;
    if let Err(refusal) = persist(hub, room, saved).await {
        // Memory is right; the store keeps the change until the room's next
        // save writes over it, or, should the process end first, brings it
        // back at the next start.
        eprintln!(
            "uttt-server: room {}: a change nobody heard of could not be taken back on disk: {}",
            room.code, refusal.message
        );
    }
}

/// Sends member `conn` alone the state (a newcomer watching); drops it if
/// it cannot take it.
fn tell_one(room: &mut Room, members: &mut Members, conn: u64) {
    let now = clock_of(&room.options);
    let state = frame(&ServerMessage::State {
        state: Box::new(room.state(now)),
        server_time: epoch_ms(),
    });
    let sent = members
        .0
        .get(&conn)
        .is_some_and(|(_, out)| out.try_send(state).is_ok());
    if !sent {
        if let Some((role, _)) = members.0.remove(&conn) {
            room.disconnect(role, now);
        }
    }
}

/// Sends every member the count of watchers; drops those that cannot keep up.
/// Says who must hear of those dropped: everyone if a player was among
/// them, the watchers' count if only watchers were.
fn tell_watchers(room: &mut Room, members: &mut Members) -> Tell {
    let count = frame(&ServerMessage::Spectators {
        count: room.spectators,
    });
    let slow: Vec<u64> = members
        .0
        .iter()
        .filter(|(_, (_, out))| out.try_send(count.clone()).is_err())
        .map(|(conn, _)| *conn)
        .collect();
    let now = clock_of(&room.options);
    let mut tell = Tell::Nobody;
    for conn in slow {
        if let Some((role, _)) = members.0.remove(&conn) {
            room.disconnect(role, now);
            tell = match (role, tell) {
                (Role::Spectator, Tell::Nobody) => Tell::Watchers,
                (Role::Spectator, tell) => tell,
                _ => Tell::Everyone,
            };
        }
    }
    tell
}

/// Sends every member the state; drops those that cannot keep up.
fn broadcast(room: &mut Room, members: &mut Members) {
    loop {
        let now = clock_of(&room.options);
        let state = frame(&ServerMessage::State {
            state: Box::new(room.state(now)),
            server_time: epoch_ms(),
        });
        let slow: Vec<u64> = members
            .0
            .iter()
            .filter(|(_, (_, out))| out.try_send(state.clone()).is_err())
            .map(|(conn, _)| *conn)
            .collect();
        if slow.is_empty() {
            return;
        }
        for conn in slow {
            if let Some((role, _)) = members.0.remove(&conn) {
                room.disconnect(role, now);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use uttt_protocol::{ColourChoice, Kind, RuleSet};

    fn options() -> RoomOptions {
        RoomOptions {
            days: None,
            kind: Kind::Classic,
            rules: RuleSet::Standard,
            colour: ColourChoice::X,
            clock: None,
            rated: false,
        }
    }

    fn hub() -> Arc<Hub> {
        let dir = std::env::temp_dir().join(format!(
            "uttt-hub-{}-{}",
            std::process::id(),
            random_code(4).unwrap()
        ));
        std::fs::create_dir_all(&dir).unwrap();
        let limits = RoomLimits {
            max_rooms: 10,
            rooms_per_address_per_minute: 10,
            grace_ms: 60_000,
            idle_room: Duration::from_secs(600),
            unplayed_room: Duration::from_secs(60),
        };
        Arc::new(Hub::new(
            limits,
            Store::open(&dir.join("rooms.sqlite3"), false).unwrap(),
            Push::off(),
        ))
    }

    const HERE: IpAddr = IpAddr::V4(std::net::Ipv4Addr::LOCALHOST);

    #[tokio::test]
    async fn a_room_that_panics_stops_alone_and_comes_back_from_the_store() {
        let hub = hub();
        let (out_a, mut frames_a) = mpsc::channel(OUTBOX_FRAMES);
        let a = hub.create(1, options(), HERE, None, out_a).await.unwrap();
        let (out_b, _frames_b) = mpsc::channel(OUTBOX_FRAMES);
        let b = hub.create(2, options(), HERE, None, out_b).await.unwrap();

        a.queue.send(Command::Crash).await.unwrap();
        // The crashed room's member hears its outbox close...
        while frames_a.recv().await.is_some() {}
        // ...while the other room goes on: a second player sits down.
        let (out, _frames) = mpsc::channel(OUTBOX_FRAMES);
        let (_, role) = hub.join(3, &b.room, None, None, out).await.unwrap();
        assert_eq!(role, Role::Seat1);

        // The crashed room is read back from the store as it was saved.
        let (out, _frames) = mpsc::channel(OUTBOX_FRAMES);
        let first = hub.join(4, &a.room, None, None, out.clone()).await;
        let joined = match first {
            Ok(joined) => joined,
            // The first try may find the dead queue still listed.
            Err(refusal) if refusal.code == ErrorCode::ServerError => {
                hub.join(4, &a.room, None, None, out).await.unwrap()
            }
            Err(refusal) => panic!("{refusal:?}"),
        };
        assert_eq!(joined.1, Role::Seat1);
    }

    #[test]
    fn codes_are_long_random_and_plain() {
        let a = random_code(10).unwrap();
        let b = random_code(10).unwrap();
        assert_eq!(a.len(), 16);
        assert_ne!(a, b);
        assert!(a
            .bytes()
            .all(|c| c.is_ascii_digit() || c.is_ascii_lowercase()));
        assert_eq!(random_code(16).unwrap().len(), 26);
    }
}
