//! `uttt-fault`: the clients of the fault run. `cargo xtask faulttest`
//! kills the server with SIGKILL at random moments and starts it again on
//! the same database and address; meanwhile these clients play GAMES games
//! and reconnect on their own, back into their seats with their tokens.
//!
//! Each client keeps its own log of what the server confirmed: the longest
//! record it has seen of the room's current game. Every state it receives
//! afterwards, across every restart, must still hold all of it (the same
//! game number or a later one, and a record that extends the logged one);
//! anything else is a lost move. At the end each client reconnects once
//! more and checks the final state the same way. Prints one summary line;
//! exits 1 if a move was lost or a game did not continue.
//!
//! Usage: uttt-fault ADDR GAMES SECONDS

use std::net::SocketAddr;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::Arc;
use std::time::{Duration, Instant};

use futures_util::{SinkExt, StreamExt};
use tokio::sync::watch;
use tokio_tungstenite::tungstenite::Message;
use uttt_protocol::{
    read_server, write, ClientMessage, ColourChoice, Kind, RoomOptions, RoomState, RuleSet,
    ServerMessage,
};

mod shared;
use shared::Dice;
use uttt_server::game::OnlineGame;

/// How long a client keeps trying to reach a restarting server.
const OUTAGE: Duration = Duration::from_secs(30);

#[derive(Default)]
struct Totals {
    confirmed: AtomicU64,
    lost: AtomicU64,
    reconnects: AtomicU64,
    stuck: AtomicU64,
}

fn main() {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let parsed = (|| {
        let addr: SocketAddr = args.first()?.parse().ok()?;
        let games: u64 = args
            .get(1)?
            .parse()
            .ok()
            .filter(|g| (1..=1000).contains(g))?;
        let seconds: u64 = args
            .get(2)?
            .parse()
            .ok()
            .filter(|s| (1..=600).contains(s))?;
        Some((addr, games, seconds))
    })();
    let Some((addr, games, seconds)) = parsed else {
        eprintln!("usage: uttt-fault ADDR GAMES(1-1000) SECONDS(1-600)");
        std::process::exit(2);
    };
    let runtime = tokio::runtime::Runtime::new().expect("a runtime");
    let ok = runtime.block_on(run(addr, games, seconds));
    std::process::exit(i32::from(!ok));
}

async fn run(addr: SocketAddr, games: u64, seconds: u64) -> bool {
    let totals = Arc::new(Totals::default());
    let stop = Arc::new(AtomicBool::new(false));
    let url = format!("ws://{addr}/ws");
    let mut tasks = Vec::new();
    for game in 0..games {
        let (room_tx, room_rx) = watch::channel(None);
        for seat in 0..2 {
            let client = Client {
                url: url.clone(),
                totals: Arc::clone(&totals),
                stop: Arc::clone(&stop),
                seat,
                room: None,
                token: None,
                logged: None,
                dice: Dice::new(game * 2 + seat),
            };
            tasks.push(tokio::spawn(client.run(room_tx.clone(), room_rx.clone())));
        }
        tokio::time::sleep(Duration::from_millis(5)).await;
    }
    println!("uttt-fault: {games} games playing for {seconds} s");
    tokio::time::sleep(Duration::from_secs(seconds)).await;
    stop.store(true, Ordering::Relaxed);
    let mut finished = 0;
    for task in tasks {
        if let Ok(true) = task.await {
            finished += 1;
        }
    }
    let lost = totals.lost.load(Ordering::Relaxed);
    let stuck = totals.stuck.load(Ordering::Relaxed) + games * 2 - finished;
    println!(
        "uttt-fault: games={games} confirmed_moves={} reconnects={} lost={lost} stuck={stuck}",
        totals.confirmed.load(Ordering::Relaxed),
        totals.reconnects.load(Ordering::Relaxed),
    );
    lost == 0 && stuck == 0
}

struct Client {
    url: String,
    totals: Arc<Totals>,
    stop: Arc<AtomicBool>,
    seat: u64,
    room: Option<String>,
    token: Option<String>,
    /// The client's own log: the newest game number and the longest record
    /// of it the server has confirmed.
    logged: Option<(u32, String)>,
    dice: Dice,
}

type Socket =
    tokio_tungstenite::WebSocketStream<tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>>;

impl Client {
    /// Plays until told to stop, reconnecting after every drop; then checks
    /// the final state. True when it ended with a good final state.
    async fn run(
        mut self,
        room_tx: watch::Sender<Option<String>>,
        mut room_rx: watch::Receiver<Option<String>>,
    ) -> bool {
        if self.seat == 1 {
            // The second seat waits for the room's code.
            if room_rx.wait_for(Option::is_some).await.is_err() {
                return false;
            }
            self.room.clone_from(&room_rx.borrow());
        }
        let mut first = true;
        while !self.stop.load(Ordering::Relaxed) {
            let Some(mut socket) = self.connect().await else {
                return false;
            };
            if !first {
                self.totals.reconnects.fetch_add(1, Ordering::Relaxed);
            }
            first = false;
            self.play(&mut socket, &room_tx).await;
        }
        // The final look: reconnect once more and check the state.
        let Some(mut socket) = self.connect().await else {
            return false;
        };
        let deadline = Instant::now() + Duration::from_secs(10);
        while Instant::now() < deadline {
            match tokio::time::timeout(Duration::from_secs(10), socket.next()).await {
                Ok(Some(Ok(Message::Text(text)))) => {
                    if let Ok(ServerMessage::State { state, .. }) = read_server(text.as_str()) {
                        self.check(&state);
                        return true;
                    }
                }
                // Pings and the like.
                Ok(Some(Ok(_))) => {}
                _ => break,
            }
        }
        eprintln!(
            "uttt-fault: room {:?}: no state after the last reconnection",
            self.room
        );
        self.totals.stuck.fetch_add(1, Ordering::Relaxed);
        false
    }

    /// Connects (retrying while the server is down) and says hello.
    async fn connect(&mut self) -> Option<Socket> {
        let give_up = Instant::now() + OUTAGE;
        loop {
            if let Ok((mut socket, _)) = tokio_tungstenite::connect_async(self.url.as_str()).await {
                let hello = match &self.room {
                    Some(room) => ClientMessage::Join {
                        room: room.clone(),
                        token: self.token.clone(),
                    },
                    None => ClientMessage::Create {
                        options: RoomOptions {
                            days: None,
                            kind: Kind::Ultimate,
                            rules: RuleSet::Standard,
                            colour: ColourChoice::X,
                            clock: None,
                            rated: false,
                        },
                    },
                };
                if socket.send(Message::text(write(&hello))).await.is_ok() {
                    return Some(socket);
                }
            }
            if Instant::now() > give_up {
                eprintln!(
                    "uttt-fault: room {:?}: the server stayed out of reach for {OUTAGE:?}",
                    self.room
                );
                self.totals.stuck.fetch_add(1, Ordering::Relaxed);
                return None;
            }
            tokio::time::sleep(Duration::from_millis(100)).await;
        }
    }

    /// Checks `state` against the client's log, then logs it.
    fn check(&mut self, state: &RoomState) {
        if let Some((game, record)) = &self.logged {
            let kept = state.game_number > *game
                || (state.game_number == *game && state.record.starts_with(record.as_str()));
            if !kept {
                self.totals.lost.fetch_add(1, Ordering::Relaxed);
                eprintln!(
                    "uttt-fault: room {}: had game {game} {record}, now game {} {}",
                    state.room, state.game_number, state.record
                );
            }
        }
        let newer = self.logged.as_ref().is_none_or(|(game, record)| {
            state.game_number > *game || state.record.len() > record.len()
        });
        if newer {
            if self
                .logged
                .as_ref()
                .is_some_and(|(game, _)| *game == state.game_number)
            {
                self.totals.confirmed.fetch_add(1, Ordering::Relaxed);
            }
            self.logged = Some((state.game_number, state.record.clone()));
        }
    }

    /// One connection's play, until it drops or the run stops.
    async fn play(&mut self, socket: &mut Socket, room_tx: &watch::Sender<Option<String>>) {
        let mut role = None;
        let mut asked = 0;
        while !self.stop.load(Ordering::Relaxed) {
            let frame = match tokio::time::timeout(Duration::from_millis(500), socket.next()).await
            {
                Err(_) => continue,
                Ok(Some(Ok(frame))) => frame,
                Ok(_) => return,
            };
            let Message::Text(text) = frame else { continue };
            let Ok(message) = read_server(text.as_str()) else {
                return;
            };
            let state = match message {
                ServerMessage::Joined {
                    room,
                    role: r,
                    token,
                } => {
                    role = Some(r);
                    if token.is_some() {
                        self.token = token;
                    }
                    if self.room.is_none() {
                        let _ = room_tx.send(Some(room.clone()));
                    }
                    self.room = Some(room);
                    continue;
                }
                ServerMessage::State { state, .. } => state,
                _ => continue,
            };
            self.check(&state);
            let Some(me) = role.and_then(|r| state.side_of(r)) else {
                continue;
            };
            if state.result.is_some() {
                if asked < state.game_number {
                    asked = state.game_number;
                    let _ = socket
                        .send(Message::text(write(&ClientMessage::Rematch {})))
                        .await;
                }
                continue;
            }
            if !state.awaits(me) {
                continue;
            }
            let Ok(game) = OnlineGame::from_record(&state.record) else {
                return;
            };
            let Some((board, cell)) = self.dice.choose(&game.legal_moves()) else {
                continue;
            };
            tokio::time::sleep(Duration::from_millis(20 + self.dice.roll() % 80)).await;
            let ply = game.ply();
            if socket
                .send(Message::text(write(&ClientMessage::Move {
                    ply,
                    board,
                    cell,
                })))
                .await
                .is_err()
            {
                return;
            }
        }
    }
}
