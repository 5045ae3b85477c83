//! `uttt-load`: a load test of a running `uttt-server` over loopback.
//!
//! Opens GAMES rooms, each with two clients that play random legal moves
//! (chosen by the core from the room's record) after a short pause, and
//! measures each move's round trip: from sending the move to receiving the
//! state that has it. After the ramp it plays for SECONDS, then closes
//! everything and prints one summary line of `key=value` pairs. Bounded in
//! count and time; it stops by itself.
//!
//! With `play-now`, the 2 x GAMES players are signed up first (`POST
//! /api/session`), then press Play now (Ultimate 3+2, rated) at the ramp's
//! pace; the summary adds how long each waited for its pairing (from its
//! seek to its `joined`) and how many were paired, and the games played
//! are rated ones.
//!
//! Usage: uttt-load ADDR GAMES SECONDS [PAUSE_MS] [play-now]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::Message;
use uttt_protocol::{
    read_server, write, ClientMessage, ClockSetting, ColourChoice, Kind, RoomOptions, RuleSet,
    SeekOptions, ServerMessage,
};

mod shared;
use shared::Dice;
use uttt_server::game::OnlineGame;

/// Connections opened per second during the ramp.
const RAMP_PER_SECOND: u64 = 1000;

#[derive(Default)]
struct Totals {
    moves: AtomicU64,
    failures: AtomicU64,
    round_trips: Mutex<Vec<u32>>,
    /// Play now: each paired player's wait, in microseconds.
    pairings: Mutex<Vec<u32>>,
    /// Games seen ending while measured (by their X player).
    ended: AtomicU64,
}

/// Sign-ups in flight at once before a Play now run.
const SIGNUPS_AT_ONCE: usize = 64;

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = (|| {
        let addr: SocketAddr = args.first()?.parse().ok()?;
        let games: u64 = args
            .get(1)?
            .parse()
            .ok()
            .filter(|g| (1..=10_000).contains(g))?;
        let seconds: u64 = args
            .get(2)?
            .parse()
            .ok()
            .filter(|s| (1..=600).contains(s))?;
        let pause: u64 = args
            .get(3)
            .map_or(Some(200), |p| p.parse().ok())
            .filter(|p| *p <= 10_000)?;
        let play_now = match args.get(4).map(String::as_str) {
            None => false,
            Some("play-now") => true,
            Some(_) => return None,
        };
        Some((addr, games, seconds, pause, play_now))
    })();
    let Some((addr, games, seconds, pause, play_now)) = parsed else {
        eprintln!(
            "usage: uttt-load ADDR GAMES(1-10000) SECONDS(1-600) [PAUSE_MS(0-10000), default 200] [play-now]"
        );
        std::process::exit(2);
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(run(addr, games, seconds, pause, play_now));
}

/// Signs up `count` players from this server's own page; their session
/// cookies (`uttt_session=...`), or None if one failed.
async fn sign_up_all(addr: SocketAddr, count: u64) -> Option<Vec<String>> {
    let mut cookies = Vec::new();
    let mut pending = Vec::new();
    for _ in 0..count {
        pending.push(tokio::spawn(sign_up(addr)));
        if pending.len() == SIGNUPS_AT_ONCE {
            for task in pending.drain(..) {
                cookies.push(task.await.ok()??);
            }
        }
    }
    for task in pending {
        cookies.push(task.await.ok()??);
    }
    Some(cookies)
}

/// `POST /api/session`: a new player's cookie.
async fn sign_up(addr: SocketAddr) -> Option<String> {
    use tokio::io::{AsyncReadExt, AsyncWriteExt};
    let mut stream = tokio::net::TcpStream::connect(addr).await.ok()?;
    let request = format!(
        "POST /api/session HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\n\
         Content-Length: 0\r\nConnection: close\r\n\r\n"
    );
    stream.write_all(request.as_bytes()).await.ok()?;
    let mut reply = String::new();
    stream.read_to_string(&mut reply).await.ok()?;
    reply
        .lines()
        .find_map(|l| {
            l.strip_prefix("set-cookie: ")
                .or_else(|| l.strip_prefix("Set-Cookie: "))
        })
        .and_then(|c| c.split(';').next())
        .map(str::to_string)
}

async fn run(addr: SocketAddr, games: u64, seconds: u64, pause: u64, play_now: bool) {
    let totals = Arc::new(Totals::default());
    let playing = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let url = format!("ws://{addr}/ws");
    let mut cookies = Vec::new();
    if play_now {
        let Some(made) = sign_up_all(addr, games * 2).await else {
            eprintln!("uttt-load: a sign-up failed (is --signups-per-minute high enough?)");
            std::process::exit(1);
        };
        println!("uttt-load: {} players signed up", made.len());
        cookies = made;
    }
    let started = Instant::now();
    let mut tasks = Vec::new();
    for i in 0..games {
        // Two connections per game, at the ramp's pace.
        let due = Duration::from_micros(i * 2 * 1_000_000 / RAMP_PER_SECOND);
        if let Some(wait) = due.checked_sub(started.elapsed()) {
            tokio::time::sleep(wait).await;
        }
        let (room_tx, room_rx) = oneshot::channel();
        let common = (
            url.clone(),
            Arc::clone(&totals),
            Arc::clone(&playing),
            Arc::clone(&stop),
            pause,
            i,
        );
        if play_now {
            for cookie in &cookies[usize::try_from(i * 2).unwrap_or(0)..][..2] {
                tasks.push(tokio::spawn(player(
                    common.clone(),
                    Start::Seek(cookie.clone()),
                )));
            }
        } else {
            tasks.push(tokio::spawn(player(common.clone(), Start::Create(room_tx))));
            tasks.push(tokio::spawn(player(common, Start::Join(room_rx))));
        }
    }
    let ramp = started.elapsed();
    // Let the last games start before counting.
    tokio::time::sleep(Duration::from_secs(1)).await;
    totals.moves.store(0, Ordering::Relaxed);
    totals.ended.store(0, Ordering::Relaxed);
    totals.round_trips.lock().unwrap().clear();
    playing.store(true, Ordering::Relaxed);
    println!(
        "uttt-load: {games} games open after {:.1} s; playing for {seconds} s",
        ramp.as_secs_f64()
    );
    let measured = Instant::now();
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    playing.store(false, Ordering::Relaxed);
    let elapsed = measured.elapsed().as_secs_f64();
    stop.store(true, Ordering::Relaxed);
    let moves = totals.moves.load(Ordering::Relaxed);
    let mut trips = totals.round_trips.lock().unwrap().clone();
    trips.sort_unstable();
    let at = |q: f64| {
        trips
            .get(((trips.len() as f64 - 1.0) * q).round() as usize)
            .copied()
            .unwrap_or(0)
    };
    let mut waits = totals.pairings.lock().unwrap().clone();
    waits.sort_unstable();
    let pairing = if play_now {
        let wait_at = |q: f64| {
            waits
                .get(((waits.len() as f64 - 1.0) * q).round() as usize)
                .copied()
                .unwrap_or(0)
        };
        format!(
            " paired={}/{} pairing_p50_us={} pairing_p99_us={} pairing_max_us={}",
            waits.len(),
            games * 2,
            wait_at(0.5),
            wait_at(0.99),
            waits.last().copied().unwrap_or(0)
        )
    } else {
        String::new()
    };
    println!(
        "uttt-load: games={games} seconds={elapsed:.1} moves={moves} moves_per_s={:.0} rtt_p50_us={} rtt_p99_us={} rtt_max_us={} ended={} failures={}{pairing}",
        moves as f64 / elapsed,
        at(0.5),
        at(0.99),
        trips.last().copied().unwrap_or(0),
        totals.ended.load(Ordering::Relaxed),
        totals.failures.load(Ordering::Relaxed),
    );
    for task in tasks {
        task.abort();
    }
}

enum Start {
    Create(oneshot::Sender<String>),
    Join(oneshot::Receiver<String>),
    /// Play now, signed in by this session cookie.
    Seek(String),
}

type Common = (
    String,
    Arc<Totals>,
    Arc<AtomicBool>,
    Arc<AtomicBool>,
    u64,
    u64,
);

/// One client: creates or joins its game's room, then plays whenever it
/// is its turn, asking for a rematch after each game, until told to stop.
async fn player((url, totals, playing, stop, pause, game): Common, start: Start) {
    let fail = || {
        totals.failures.fetch_add(1, Ordering::Relaxed);
    };
    let mut request = match url.as_str().into_client_request() {
        Ok(request) => request,
        Err(_) => return fail(),
    };
    if let Start::Seek(cookie) = &start {
        match cookie.parse() {
            Ok(value) => request.headers_mut().insert("cookie", value),
            Err(_) => return fail(),
        };
    }
    let Ok((mut socket, _)) = tokio_tungstenite::connect_async(request).await else {
        return fail();
    };
    let mut seeking = None;
    let (hello, mut room_tx) = match start {
        Start::Create(tx) => {
            let options = RoomOptions {
                days: None,
                kind: Kind::Ultimate,
                rules: RuleSet::Standard,
                colour: ColourChoice::X,
                clock: None,
                rated: false,
            };
            (ClientMessage::Create { options }, Some(tx))
        }
        Start::Join(rx) => match rx.await {
            Ok(room) => (ClientMessage::Join { room, token: None }, None),
            Err(_) => return fail(),
        },
        Start::Seek(_) => {
            seeking = Some(Instant::now());
            let seek = SeekOptions {
                days: None,
                kind: Kind::Ultimate,
                rules: RuleSet::Standard,
                clock: Some(ClockSetting {
                    initial: 180,
                    increment: 2,
                }),
                rated: true,
            };
            (ClientMessage::Seek { seek }, None)
        }
    };
    if socket.send(Message::text(write(&hello))).await.is_err() {
        return fail();
    }
    let mut role = None;
    let mut sent: Option<(u32, Instant)> = None;
    let mut rematch_asked = 0;
    // A seed per game, so the games differ.
    let mut dice = Dice::new(game);
    while !stop.load(Ordering::Relaxed) {
        let Ok(Some(Ok(frame))) =
            tokio::time::timeout(Duration::from_secs(30), socket.next()).await
        else {
            return fail();
        };
        let Message::Text(text) = frame else { continue };
        let Ok(message) = read_server(text.as_str()) else {
            return fail();
        };
        let state = match message {
            ServerMessage::Joined { room, role: r, .. } => {
                role = Some(r);
                if let Some(since) = seeking.take() {
                    let us = u32::try_from(since.elapsed().as_micros()).unwrap_or(u32::MAX);
                    totals.pairings.lock().unwrap().push(us);
                }
                if let Some(tx) = room_tx.take() {
                    let _ = tx.send(room);
                }
                continue;
            }
            ServerMessage::State { state, .. } => state,
            ServerMessage::Error { .. } => {
                fail();
                continue;
            }
            ServerMessage::Pong { .. }
            | ServerMessage::Chat { .. }
            | ServerMessage::ChatHistory { .. }
            | ServerMessage::Conditional { .. }
            | ServerMessage::Spectators { .. }
            | ServerMessage::Seeking { .. }
            | ServerMessage::SeekEnded {}
            | ServerMessage::Challenging { .. }
            | ServerMessage::ChallengeEnded { .. } => continue,
        };
        let Ok(game) = OnlineGame::from_record(&state.record) else {
            return fail();
        };
        let ply = game.ply();
        if let Some((at_ply, when)) = sent {
            if ply > at_ply {
                sent = None;
                if playing.load(Ordering::Relaxed) {
                    totals.moves.fetch_add(1, Ordering::Relaxed);
                    let us = u32::try_from(when.elapsed().as_micros()).unwrap_or(u32::MAX);
                    totals.round_trips.lock().unwrap().push(us);
                }
            }
        }
        let Some(me) = role.and_then(|r| state.side_of(r)) else {
            continue;
        };
        if state.result.is_some() {
            if rematch_asked < state.game_number {
                rematch_asked = state.game_number;
                if me == uttt_protocol::Side::X && playing.load(Ordering::Relaxed) {
                    totals.ended.fetch_add(1, Ordering::Relaxed);
                }
                let _ = socket
                    .send(Message::text(write(&ClientMessage::Rematch {})))
                    .await;
            }
            continue;
        }
        if !state.awaits(me) || sent.is_some() {
            continue;
        }
        let Some((board, cell)) = dice.choose(&game.legal_moves()) else {
            continue;
        };
        let wait = pause / 2 + dice.roll() % (pause + 1);
        tokio::time::sleep(Duration::from_millis(wait)).await;
        let frame = write(&ClientMessage::Move { ply, board, cell });
        sent = Some((ply, Instant::now()));
        if socket.send(Message::text(frame)).await.is_err() {
            return fail();
        }
    }
    let _ = socket.close(None).await;
}
