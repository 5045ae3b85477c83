//! The rooms on the network: each room is a task that owns its [`Room`]
//! and is reached through a bounded queue of [`Command`]s, so rooms never
//! share a lock, a panic in one ends only that task, and a flood of frames
//! for one room waits in its own queue. The task sends each of its members
//! the room's state after every change, through the member's own bounded
//! outbox; a member whose outbox is full (a client that does not read) is
//! dropped rather than waited for.

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

use axum::extract::ws::Utf8Bytes;
use tokio::sync::{mpsc, oneshot};
use uttt_protocol::{write, ClientMessage, ErrorCode, Refusal, Role, RoomOptions, ServerMessage};

use crate::room::Room;

/// Frames waiting for one connection; more and it is dropped as too slow.
pub const OUTBOX_FRAMES: usize = 64;
/// Commands waiting for one room.
const ROOM_QUEUE: usize = 256;
/// How long a connection waits for its room to answer.
const ROOM_ANSWER: Duration = Duration::from_secs(5);
/// A room nobody is in, whose game is not being played, is closed after this.
const IDLE_ROOM: Duration = Duration::from_secs(10 * 60);

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
}

/// Every open room, by code.
pub struct Hub {
    rooms: Mutex<HashMap<String, mpsc::Sender<Command>>>,
    created: Mutex<HashMap<IpAddr, (Instant, u32)>>,
    limits: RoomLimits,
    next_conn: AtomicU64,
}

/// The server's time: milliseconds since the Unix epoch.
#[must_use]
pub fn now_ms() -> u64 {
    SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map(|d| u64::try_from(d.as_millis()).unwrap_or(u64::MAX))
        .unwrap_or(0)
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
    /// An empty hub.
    #[must_use]
    pub fn new(limits: RoomLimits) -> Hub {
        Hub {
            rooms: Mutex::new(HashMap::new()),
            created: Mutex::new(HashMap::new()),
            limits,
            next_conn: AtomicU64::new(1),
        }
    }

    /// A number for a new connection.
    pub fn connection_number(&self) -> u64 {
        self.next_conn.fetch_add(1, Ordering::Relaxed)
    }

    /// How many rooms are open.
    pub fn room_count(&self) -> usize {
        lock(&self.rooms).len()
    }

    /// Opens a room with connection `conn` (from `address`) in seat 0; the
    /// room sends it `joined` and the state through `out`.
    ///
    /// # Errors
    /// `bad-options`, `rate-limited`, `server-full` or `server-error`.
    pub fn create(
        self: &Arc<Hub>,
        conn: u64,
        options: RoomOptions,
        address: IpAddr,
        out: Outbox,
    ) -> Result<Membership, Refusal> {
        if options.clock.is_some_and(|c| !c.is_valid()) {
            return Err(Refusal::new(
                ErrorCode::BadOptions,
                "a clock has 10 to 3600 seconds and adds 0 to 60 seconds a move",
            ));
        }
        self.count_creation(address)?;
        let code = room_code()?;
        let token = seat_token()?;
        let coin = random_bytes::<1>()?[0] & 1 == 1;
        let (queue, commands) = mpsc::channel(ROOM_QUEUE);
        {
            let mut rooms = lock(&self.rooms);
            if rooms.len() >= self.limits.max_rooms {
                return Err(Refusal::new(
                    ErrorCode::ServerFull,
                    "the server has no room for more games now",
                ));
            }
            rooms.insert(code.clone(), queue.clone());
        }
        let mut room = Room::new(code.clone(), options, token.clone(), coin);
        room.grace_ms = self.limits.grace_ms;
        let mut members = Members::default();
        members.add(&code, conn, Role::Seat0, out, Some(token));
        tokio::spawn(room_task(room, commands, members, Arc::clone(self)));
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

    /// Enters room `code` (see [`Room::join`]).
    ///
    /// # Errors
    /// `no-such-room`, `bad-token`, or `server-error` when the room does
    /// not answer.
    pub async fn join(
        &self,
        conn: u64,
        code: &str,
        token: Option<String>,
        out: Outbox,
    ) -> Result<(Membership, Role), Refusal> {
        let queue = lock(&self.rooms)
            .get(code)
            .cloned()
            .ok_or_else(|| Refusal::new(ErrorCode::NoSuchRoom, "no room has that code"))?;
        let (reply, answer) = oneshot::channel();
        let command = Command::Join {
            conn,
            token,
            out,
            reply,
        };
        let role = ask(&queue, command, answer).await.inspect_err(|r| {
            if r.code == ErrorCode::ServerError {
                // The room's task has ended: it is gone for everyone.
                lock(&self.rooms).remove(code);
            }
        })??;
        Ok((
            Membership {
                conn,
                room: code.to_string(),
                queue,
            },
            role,
        ))
    }

    fn forget(&self, code: &str) {
        lock(&self.rooms).remove(code);
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
    tokio::time::timeout(ROOM_ANSWER, queue.send(command))
        .await
        .map_err(|_| unavailable())?
        .map_err(|_| unavailable())?;
    tokio::time::timeout(ROOM_ANSWER, answer)
        .await
        .map_err(|_| unavailable())?
        .map_err(|_| unavailable())
}

/// A room's connections and their outboxes.
#[derive(Default)]
struct Members(HashMap<u64, (Role, Outbox)>);

impl Members {
    /// Adds a connection to room `room` and sends it `joined` (with its
    /// seat's token, which only this connection is ever sent).
    fn add(&mut self, room: &str, conn: u64, role: Role, out: Outbox, token: Option<String>) {
        let _ = out.try_send(frame(&ServerMessage::Joined {
            room: room.to_string(),
            role,
            token,
        }));
        self.0.insert(conn, (role, out));
    }
}

fn frame(message: &ServerMessage) -> Utf8Bytes {
    Utf8Bytes::from(write(message))
}

/// The room's life: commands in, state out, and the clock's deadlines.
async fn room_task(
    mut room: Room,
    mut commands: mpsc::Receiver<Command>,
    mut members: Members,
    hub: Arc<Hub>,
) {
    broadcast(&mut room, &mut members);
    let mut idle_since: Option<Instant> = None;
    loop {
        let wait = room
            .next_deadline()
            .map(|at| Duration::from_millis(at.saturating_sub(now_ms())));
        let idle_left = idle_since.map(|since| IDLE_ROOM.saturating_sub(since.elapsed()));
        let command = tokio::select! {
            command = commands.recv() => command,
            () = tokio::time::sleep(wait.unwrap_or_default()), if wait.is_some() => {
                if room.settle(now_ms()) {
                    broadcast(&mut room, &mut members);
                }
                continue;
            }
            () = tokio::time::sleep(idle_left.unwrap_or_default()), if idle_left.is_some() => {
                break;
            }
        };
        let Some(command) = command else { break };
        let now = now_ms();
        let changed = match command {
            Command::Join {
                conn,
                token,
                out,
                reply,
            } => {
                let result = room.join(token.as_deref(), || seat_token().unwrap_or_default(), now);
                let answer = result.as_ref().map(|(role, _)| *role).map_err(Clone::clone);
                if let Ok((role, token)) = result {
                    let token = if role == Role::Spectator { None } else { token };
                    members.add(&room.code, conn, role, out, token);
                }
                let ok = answer.is_ok();
                let _ = reply.send(answer);
                ok
            }
            Command::Act {
                conn,
                message,
                reply,
            } => {
                let result = match members.0.get(&conn).map(|(role, _)| *role) {
                    None => Err(Refusal::new(ErrorCode::NotInRoom, "join the room first")),
                    Some(Role::Spectator) => Err(Refusal::new(
                        ErrorCode::NotAPlayer,
                        "spectators cannot play",
                    )),
                    Some(role) => room.act(u8::from(role == Role::Seat1), &message, now),
                };
                let ok = result.is_ok();
                let _ = reply.send(result);
                ok
            }
            Command::Gone { conn } => match members.0.remove(&conn) {
                Some((role, _)) => {
                    room.disconnect(role, now);
                    true
                }
                None => false,
            },
        };
        if changed {
            broadcast(&mut room, &mut members);
        }
        idle_since = match (
            members.0.is_empty(),
            room.result.is_some() || room.seats[1].is_none(),
        ) {
            (true, true) => idle_since.or(Some(Instant::now())),
            _ => None,
        };
    }
    hub.forget(&room.code);
}

/// Sends every member the state; drops those that cannot keep up.
fn broadcast(room: &mut Room, members: &mut Members) {
    loop {
        let now = now_ms();
        let state = frame(&ServerMessage::State {
            state: room.state(now),
            server_time: now,
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
