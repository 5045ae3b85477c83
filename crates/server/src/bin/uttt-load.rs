//! `uttt-load`: a load test of a running `uttt-server` over loopback.
//!
//! Opens GAMES rooms, each with two clients that play random legal moves
//! (chosen by the core from the room's record) after a short pause, and
//! measures each move's round trip: from sending the move to receiving the
//! state that has it. After the ramp it plays for SECONDS, then closes
//! everything and prints one summary line of `key=value` pairs. Bounded in
//! count and time; it stops by itself.
//!
//! Usage: uttt-load ADDR GAMES SECONDS [PAUSE_MS]

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::sync::oneshot;
use tokio_tungstenite::tungstenite::Message;
use uttt_protocol::{
    read_server, write, ClientMessage, ColourChoice, Kind, RoomOptions, RuleSet, ServerMessage,
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
}

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
        Some((addr, games, seconds, pause))
    })();
    let Some((addr, games, seconds, pause)) = parsed else {
        eprintln!(
            "usage: uttt-load ADDR GAMES(1-10000) SECONDS(1-600) [PAUSE_MS(0-10000), default 200]"
        );
        std::process::exit(2);
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    runtime.block_on(run(addr, games, seconds, pause));
}

async fn run(addr: SocketAddr, games: u64, seconds: u64, pause: u64) {
    let totals = Arc::new(Totals::default());
    let playing = Arc::new(AtomicBool::new(false));
    let stop = Arc::new(AtomicBool::new(false));
    let url = format!("ws://{addr}/ws");
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
        tasks.push(tokio::spawn(player(common.clone(), Start::Create(room_tx))));
        tasks.push(tokio::spawn(player(common, Start::Join(room_rx))));
    }
    let ramp = started.elapsed();
    // Let the last games start before counting.
    tokio::time::sleep(Duration::from_secs(1)).await;
    totals.moves.store(0, Ordering::Relaxed);
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
    println!(
        "uttt-load: games={games} seconds={elapsed:.1} moves={moves} moves_per_s={:.0} rtt_p50_us={} rtt_p99_us={} rtt_max_us={} failures={}",
        moves as f64 / elapsed,
        at(0.5),
        at(0.99),
        trips.last().copied().unwrap_or(0),
        totals.failures.load(Ordering::Relaxed),
    );
    for task in tasks {
        task.abort();
    }
}

enum Start {
    Create(oneshot::Sender<String>),
    Join(oneshot::Receiver<String>),
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
    let Ok((mut socket, _)) = tokio_tungstenite::connect_async(url.as_str()).await else {
        return fail();
    };
    let (hello, mut room_tx) = match start {
        Start::Create(tx) => {
            let options = RoomOptions {
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
            | ServerMessage::Spectators { .. }
            | ServerMessage::Seeking { .. }
            | ServerMessage::SeekEnded {} => continue,
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
