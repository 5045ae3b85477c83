//! `uttt online`: plays or watches a room of `uttt-server` from the
//! terminal, or seats the engine there (`--bot LEVEL`). The server decides
//! every rule; this client draws the room it is sent and sends what is
//! typed (the core reads the move first, so a typo never leaves).

use std::io;
use std::net::TcpStream;
use std::process::ExitCode;
use std::sync::mpsc;
use std::time::Duration;

use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};
use uttt_core::record::parse_record;
use uttt_core::search::Level;
use uttt_core::{AnyGame, AnyKind, History, Visit};
use uttt_protocol::{
    read_server, write, ChatLine, ChatPreset, ClientMessage, ClockSetting, ColourChoice, Kind,
    Presence, Role, RoomOptions, RoomState, RuleSet, ServerMessage, Side, DAYS_PER_MOVE,
};

use crate::ai::Engine;
use crate::args::{Spec, UsageError};
use crate::input::{self, Line, MAX_LINE};
use crate::render::{Front, Style};
use crate::usage;

/// The help text of `uttt online`.
pub const HELP: &str = "\
uttt online: play a friend, watch, or seat the engine on a uttt-server

Usage: uttt online URL [ROOM] [--game G] [--rules R] [--colour C] [--clock M+S | --days N]
                   [--bot LEVEL] [--games N] [--seed N]

URL is the server's site (http://127.0.0.1:8000/; plain http or ws only) or an invitation link
(http://127.0.0.1:8000/?room=CODE). With a room (in the link or as ROOM) the
client joins it: the free seat, else to watch. Without, it creates a room
and prints the link to send.

Options (creating a room):
  --game G      ultimate (default) or classic
  --rules R     standard (default) or tiebreak
  --colour C    x, o or random (default)
  --clock M+S   minutes each and seconds added a move, e.g. 3+2 (default none)
  --days N      a correspondence game of N days a move: 1, 2, 3, 5, 7 or 14
Options (the engine):
  --bot LEVEL   the engine plays this seat: beginner ... master
  --games N     the bot plays N games (asking for rematches), then leaves (default 1)
  --seed N      seed for the engine's choices (default 1)

Commands: a move (e5, 4/0), resign, draw (offer or accept), decline, rematch,
board, help, quit. End of input leaves the room.
";

const COMMANDS: &str = "\
Type a move (e5, or 4/0 as board/cell), resign, draw (offer or accept one),
decline (a draw offer), rematch (after a game), board, help or quit.
";

const SPEC: Spec = Spec {
    values: &[
        "game", "rules", "colour", "clock", "days", "bot", "games", "seed",
    ],
    switches: &[],
};

/// How often the socket is polled for frames while input waits.
const POLL: Duration = Duration::from_millis(50);
/// Reconnection attempts after a drop before giving up.
const RECONNECTS: u32 = 8;
/// The least time the bot takes a move, so it plays at a person's pace and
/// within the server's frame allowance however fast its level answers.
const BOT_PAUSE: Duration = Duration::from_millis(150);

/// Where to connect, and the room if one is named.
#[derive(Debug, PartialEq, Eq)]
struct Target {
    ws: String,
    site: String,
    room: Option<String>,
}

impl Target {
    /// Reads `url` (a site or an invitation link) and an optional room.
    fn parse(url: &str, room: Option<&str>) -> Result<Target, UsageError> {
        let (scheme, rest) = url
            .split_once("://")
            .ok_or_else(|| usage!("URL must start with http:// or ws://, not \"{url}\""))?;
        // Plain connections only: this build has no TLS.
        let (ws_scheme, site_scheme) = match scheme {
            "http" | "ws" => ("ws", "http"),
            "https" | "wss" => {
                return Err(usage!(
                    "this uttt has no TLS: use the server's http:// or ws:// address"
                ))
            }
            _ => {
                return Err(usage!(
                    "URL must start with http:// or ws://, not \"{scheme}://\""
                ))
            }
        };
        let (path, query) = rest.split_once('?').unwrap_or((rest, ""));
        let path = path.split('#').next().unwrap_or(path);
        let from_link = query
            .split('&')
            .find_map(|pair| pair.strip_prefix("room="))
            .map(str::to_string);
        let room = room.map(str::to_string).or(from_link);
        if let Some(code) = &room {
            if code.is_empty()
                || code.len() > 32
                || !code.bytes().all(|b| b.is_ascii_alphanumeric())
            {
                return Err(usage!("\"{code}\" is not a room code"));
            }
        }
        let base = path.strip_suffix("/ws").unwrap_or(path);
        let base = if base.contains('/') {
            base.trim_end_matches(|c| c != '/').to_string()
        } else {
            format!("{base}/")
        };
        Ok(Target {
            ws: format!("{ws_scheme}://{base}ws"),
            site: format!("{site_scheme}://{base}"),
            room,
        })
    }
}

/// Reads `M+S` (minutes, seconds a move).
fn parse_clock(text: &str) -> Result<ClockSetting, UsageError> {
    let bad =
        || usage!("--clock must be minutes+seconds such as 3+2 (1 to 60, 0 to 60), not \"{text}\"");
    let (m, s) = text.split_once('+').ok_or_else(bad)?;
    let minutes: u32 = m.trim().parse().map_err(|_| bad())?;
    let increment: u32 = s.trim().parse().map_err(|_| bad())?;
    let clock = ClockSetting {
        initial: minutes.checked_mul(60).ok_or_else(bad)?,
        increment,
    };
    if (1..=60).contains(&minutes) && clock.is_valid() {
        Ok(clock)
    } else {
        Err(bad())
    }
}

/// Reads the days a move of a correspondence game.
fn parse_days(text: &str) -> Result<u8, UsageError> {
    text.trim()
        .parse()
        .ok()
        .filter(|days| DAYS_PER_MOVE.contains(days))
        .ok_or_else(|| usage!("--days must be 1, 2, 3, 5, 7 or 14, not \"{text}\""))
}

fn room_options(p: &crate::args::Parsed) -> Result<RoomOptions, UsageError> {
    let kind = match p.value("game").unwrap_or("ultimate") {
        "ultimate" => Kind::Ultimate,
        "classic" => Kind::Classic,
        other => {
            return Err(usage!(
                "--game must be ultimate or classic, not \"{other}\""
            ))
        }
    };
    let rules = match p.value("rules").unwrap_or("standard") {
        "standard" => RuleSet::Standard,
        "tiebreak" => RuleSet::Tiebreak,
        other => {
            return Err(usage!(
                "--rules must be standard or tiebreak, not \"{other}\""
            ))
        }
    };
    let colour = match p.value("colour").unwrap_or("random") {
        "x" => ColourChoice::X,
        "o" => ColourChoice::O,
        "random" => ColourChoice::Random,
        other => return Err(usage!("--colour must be x, o or random, not \"{other}\"")),
    };
    let clock = p.value("clock").map(parse_clock).transpose()?;
    let days = p.value("days").map(parse_days).transpose()?;
    if clock.is_some() && days.is_some() {
        return Err(usage!("a game has --clock or --days, not both"));
    }
    Ok(RoomOptions {
        days,
        kind,
        rules: if kind == Kind::Classic {
            RuleSet::Standard
        } else {
            rules
        },
        colour,
        clock,
        rated: false,
    })
}

/// Runs `uttt online`.
///
/// # Errors
/// A usage error for bad options.
pub fn run(args: &[String]) -> Result<ExitCode, UsageError> {
    let p = SPEC.parse(args)?;
    if p.help {
        out!("{HELP}");
        return Ok(ExitCode::SUCCESS);
    }
    p.at_most_positional(2)?;
    let url = p
        .positional
        .first()
        .ok_or_else(|| usage!("uttt online needs the server's URL"))?;
    let target = Target::parse(url, p.positional.get(1).map(String::as_str))?;
    let options = room_options(&p)?;
    let bot = match p.value("bot") {
        Some(name) => Some(Level::from_name(name).ok_or_else(|| {
            usage!("--bot must be a level (beginner, easy, medium, hard, master), not \"{name}\"")
        })?),
        None => None,
    };
    let games = p.number("games", 1u32, 10_000, 1)?;
    let seed = p.number("seed", 0u64, u64::MAX, 1)?;
    let lines = if bot.is_some() {
        None
    } else {
        Some(read_lines())
    };
    let mut client = Client {
        create: target.room.is_none().then_some(options),
        room: target.room.clone(),
        target,
        token: None,
        role: None,
        state: None,
        bot: match bot {
            Some(level) => match Engine::new(level, seed) {
                Ok(engine) => Some((engine, games)),
                Err(why) => {
                    eprintln!("uttt online: {why}");
                    return Ok(ExitCode::FAILURE);
                }
            },
            None => None,
        },
        asked_rematch: 0,
        states: 0,
        style: Style::detect(),
    };
    match client.run(lines) {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(e) => {
            eprintln!("uttt online: {e}");
            Ok(ExitCode::FAILURE)
        }
    }
}

/// Lines of standard input, each at most [`MAX_LINE`] bytes, read on a
/// thread of their own; [`Line::End`] marks the end of input.
fn read_lines() -> mpsc::Receiver<Line> {
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        let stdin = io::stdin();
        let mut input = stdin.lock();
        loop {
            match input::read_line(&mut input) {
                Ok(Line::End) | Err(_) => break,
                Ok(line) => {
                    if tx.send(line).is_err() {
                        return;
                    }
                }
            }
        }
        let _ = tx.send(Line::End);
    });
    rx
}

struct Client {
    target: Target,
    room: Option<String>,
    create: Option<RoomOptions>,
    token: Option<String>,
    role: Option<Role>,
    state: Option<RoomState>,
    /// The engine and how many games it still plays.
    bot: Option<(Engine, u32)>,
    /// The game number the bot last asked a rematch after.
    asked_rematch: u32,
    /// Room states received so far.
    states: u64,
    style: Style,
}

type Socket = WebSocket<MaybeTlsStream<TcpStream>>;

enum Step {
    Go,
    Done,
}

impl Client {
    fn run(&mut self, lines: Option<mpsc::Receiver<Line>>) -> Result<(), String> {
        // Drops in a row, counted until a state arrives again, so a server
        // that accepts and then hangs up cannot keep the client looping.
        let mut drops: u32 = 0;
        loop {
            let mut socket = match self.connect() {
                Ok(socket) => socket,
                Err(e) if drops == 0 && self.state.is_none() => return Err(e),
                Err(e) => {
                    drops += 1;
                    if drops > RECONNECTS {
                        return Err(format!("gave up reconnecting: {e}"));
                    }
                    std::thread::sleep(Duration::from_millis(250 << drops.min(5)));
                    continue;
                }
            };
            let states_before = self.states;
            match self.session(&mut socket, lines.as_ref()) {
                Ok(Step::Done) => return Ok(()),
                Ok(Step::Go) | Err(_) => {
                    drops = if self.states > states_before {
                        1
                    } else {
                        drops + 1
                    };
                    if drops > RECONNECTS {
                        return Err("the server keeps closing the connection".into());
                    }
                    outln!("Connection lost: reconnecting…");
                    std::thread::sleep(Duration::from_millis(250 << drops.min(5)));
                }
            }
        }
    }

    fn connect(&mut self) -> Result<Socket, String> {
        let (mut socket, _) = tungstenite::connect(&self.target.ws)
            .map_err(|e| format!("cannot reach {}: {e}", self.target.ws))?;
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream
                .set_read_timeout(Some(POLL))
                .map_err(|e| e.to_string())?;
        }
        let hello = match (&self.room, self.create.take()) {
            (Some(room), _) => ClientMessage::Join {
                room: room.clone(),
                token: self.token.clone(),
            },
            (None, Some(options)) => ClientMessage::Create { options },
            (None, None) => return Err("no room to join".into()),
        };
        send(&mut socket, &hello)?;
        Ok(socket)
    }

    /// One connection's life: frames in, typed lines out.
    fn session(
        &mut self,
        socket: &mut Socket,
        lines: Option<&mpsc::Receiver<Line>>,
    ) -> Result<Step, String> {
        loop {
            match socket.read() {
                Ok(Message::Text(text)) => {
                    if let Ok(message) = read_server(text.as_str()) {
                        if let Step::Done = self.receive(socket, message)? {
                            return Ok(Step::Done);
                        }
                    }
                }
                Ok(Message::Close(_)) => return Ok(Step::Go),
                Ok(_) => {}
                Err(tungstenite::Error::Io(e))
                    if matches!(
                        e.kind(),
                        io::ErrorKind::WouldBlock | io::ErrorKind::TimedOut
                    ) => {}
                Err(e) => return Err(e.to_string()),
            }
            if let Some(lines) = lines {
                while let Ok(line) = lines.try_recv() {
                    match line {
                        Line::Text(line) => {
                            if let Step::Done = self.typed(socket, &line)? {
                                return Ok(Step::Done);
                            }
                        }
                        Line::TooLong => outln!(
                            "That line is longer than {MAX_LINE} bytes; type a move or a command."
                        ),
                        Line::End => {
                            let _ = send(socket, &ClientMessage::Leave {});
                            return Ok(Step::Done);
                        }
                    }
                }
            }
        }
    }

    fn my_side(&self) -> Option<Side> {
        self.state.as_ref()?.side_of(self.role?)
    }

    fn receive(&mut self, socket: &mut Socket, message: ServerMessage) -> Result<Step, String> {
        match message {
            ServerMessage::Joined { room, role, token } => {
                let first = self.room.is_none() || self.role.is_none();
                self.room = Some(room.clone());
                self.role = Some(role);
                if token.is_some() {
                    self.token = token;
                }
                if first {
                    let what = match role {
                        Role::Spectator => "You are watching".to_string(),
                        _ => "You have a seat".to_string(),
                    };
                    outln!(
                        "{what} in room {room}. Invitation link: {}?room={room}",
                        self.target.site
                    );
                }
            }
            ServerMessage::State { state, .. } => {
                self.states += 1;
                self.state = Some(*state);
                self.show();
                return self.bot_turn(socket);
            }
            ServerMessage::Error { message, .. } => {
                outln!("The server refused: {message}");
                // The bot tries again from the room as it stands.
                if self.bot.is_some() {
                    std::thread::sleep(BOT_PAUSE);
                    return self.bot_turn(socket);
                }
            }
            // The board shows no watchers: the count is kept for the state.
            ServerMessage::Spectators { count } => {
                if let Some(state) = self.state.as_mut() {
                    state.spectators = count;
                }
            }
            ServerMessage::Seeking {
                waiting, rating, ..
            } => {
                outln!("Looking for a game at {rating}: {waiting} waiting in this pool.");
            }
            ServerMessage::SeekEnded {} => outln!("No longer looking for a game."),
            // This client makes no challenges.
            ServerMessage::Challenging { .. } | ServerMessage::ChallengeEnded { .. } => {}
            ServerMessage::Pong { .. } => {}
            ServerMessage::Chat { line } => outln!("{}", chat_line(&line)),
            ServerMessage::ChatHistory { lines } => {
                for line in lines {
                    outln!("{}", chat_line(&line));
                }
            }
            // This seat's conditional moves (set from the site's page).
            ServerMessage::Conditional { lines } => {
                outln!("Conditional moves kept: {} lines.", lines.len());
            }
        }
        Ok(Step::Go)
    }

    fn show(&self) {
        let Some(state) = &self.state else { return };
        let Ok(game) = parse_record(&state.record) else {
            return;
        };
        let board = match &game {
            AnyGame::Ultimate(h) => format!(
                "{}{}",
                h.current().render(self.style),
                h.current().turn_line()
            ),
            AnyGame::Classic(h) => format!(
                "{}{}",
                h.current().render(self.style),
                h.current().turn_line()
            ),
        };
        outln!("\n{board}");
        outln!("{}", self.status_line(state));
    }

    fn status_line(&self, state: &RoomState) -> String {
        let me = self.my_side();
        let name = |side: Side, presence: Presence| {
            let who = if Some(side) == me {
                "you"
            } else if me.is_some() {
                "your friend"
            } else {
                "player"
            };
            let away = match presence {
                Presence::Empty => ", not here yet",
                Presence::Disconnected => ", disconnected",
                Presence::Connected => "",
            };
            format!("{side:?} ({who}{away})")
        };
        let mut line = format!(
            "{} against {}",
            name(Side::X, state.x),
            name(Side::O, state.o)
        );
        if let Some(clock) = state.clock {
            let mmss = |ms: u64| match ms / 3_600_000 {
                0 => format!("{}:{:02}", ms / 60_000, (ms / 1000) % 60),
                hours => format!("{hours}h{:02}", (ms / 60_000) % 60),
            };
            line.push_str(&format!(
                "; clocks X {} O {}",
                mmss(clock.x_ms),
                mmss(clock.o_ms)
            ));
        }
        if let Some(result) = state.result {
            let winner = result.winner.map_or("nobody".into(), |w| format!("{w:?}"));
            line.push_str(&format!("; over: {winner} wins ({:?})", result.reason));
        } else if let Some(side) = state.draw_offer {
            line.push_str(&format!("; {side:?} offers a draw"));
        }
        line.push('.');
        line
    }

    /// The engine's move when it is its turn; its rematches and its exit.
    fn bot_turn(&mut self, socket: &mut Socket) -> Result<Step, String> {
        let me = self.my_side();
        let Some(state) = self.state.clone() else {
            return Ok(Step::Go);
        };
        let Some((engine, games)) = self.bot.as_mut() else {
            return Ok(Step::Go);
        };
        if me.is_none() {
            return Err("the room has no free seat for the bot".into());
        }
        if state.result.is_some() {
            if state.game_number >= *games {
                let _ = send(socket, &ClientMessage::Leave {});
                return Ok(Step::Done);
            }
            if self.asked_rematch < state.game_number {
                self.asked_rematch = state.game_number;
                send(socket, &ClientMessage::Rematch {})?;
            }
            return Ok(Step::Go);
        }
        if !me.is_some_and(|side| state.awaits(side)) {
            return Ok(Step::Go);
        }
        let game = parse_record(&state.record).map_err(|e| e.to_string())?;
        let started = std::time::Instant::now();
        let (board, cell) = game.visit(Think(engine));
        let ply = u32::try_from(game.ply()).unwrap_or(u32::MAX);
        if let Some(rest) = BOT_PAUSE.checked_sub(started.elapsed()) {
            std::thread::sleep(rest);
        }
        send(socket, &ClientMessage::Move { ply, board, cell })?;
        Ok(Step::Go)
    }

    fn typed(&mut self, socket: &mut Socket, line: &str) -> Result<Step, String> {
        let message = match line.to_ascii_lowercase().as_str() {
            "" => return Ok(Step::Go),
            "quit" | "exit" | "q" | "leave" => {
                let _ = send(socket, &ClientMessage::Leave {});
                return Ok(Step::Done);
            }
            "help" | "h" | "?" => {
                out!("{COMMANDS}");
                return Ok(Step::Go);
            }
            "board" | "b" => {
                self.show();
                return Ok(Step::Go);
            }
            "resign" => ClientMessage::Resign {},
            "draw" => ClientMessage::OfferDraw {},
            "decline" => ClientMessage::DeclineDraw {},
            "rematch" => ClientMessage::Rematch {},
            _ => match self.typed_move(line) {
                Ok(message) => message,
                Err(sentence) => {
                    outln!("{sentence}");
                    return Ok(Step::Go);
                }
            },
        };
        send(socket, &message)?;
        Ok(Step::Go)
    }

    /// A typed move, read by the core in the room's game and checked there.
    fn typed_move(&self, line: &str) -> Result<ClientMessage, String> {
        let state = self.state.as_ref().ok_or("The room has not arrived yet.")?;
        let game = parse_record(&state.record).map_err(|e| e.to_string())?;
        let short: String = line.chars().take(16).collect();
        let (board, cell) = game
            .visit(Typed(line))
            .map_err(|e| format!("\"{short}\": {e} (type help for the commands)."))?;
        let ply = game.ply();
        Ok(ClientMessage::Move {
            ply: u32::try_from(ply).unwrap_or(u32::MAX),
            board,
            cell,
        })
    }
}

/// A move typed in the game's notation, checked by the core in its position.
struct Typed<'a>(&'a str);

impl Visit for Typed<'_> {
    type Output = Result<(u8, u8), String>;
    fn visit<G: AnyKind>(self, history: &History<G>) -> Self::Output {
        let m = G::parse_move(self.0).map_err(|e| e.to_string())?;
        history.current().play(m).map_err(|e| e.to_string())?;
        Ok(G::board_and_cell(m))
    }
}

/// The bot's move at the game's cursor.
struct Think<'a>(&'a mut Engine);

impl Visit for Think<'_> {
    type Output = (u8, u8);
    fn visit<G: AnyKind>(self, history: &History<G>) -> (u8, u8) {
        G::board_and_cell(self.0.think(history.current(), |_| {}).mv)
    }
}

fn send(socket: &mut Socket, message: &ClientMessage) -> Result<(), String> {
    socket
        .send(Message::text(write(message)))
        .map_err(|e| format!("cannot send: {e}"))
}

/// A chat line as the terminal prints it: who, then what (a preset in
/// English; typed words as they are, printed as text).
fn chat_line(line: &ChatLine) -> String {
    let who = match (&line.name, line.side) {
        (Some(name), _) => name.clone(),
        (None, Some(side)) => format!("{side:?}"),
        (None, None) => "A guest".to_string(),
    };
    let what = match line.preset {
        Some(ChatPreset::Hello) => "Hello!",
        Some(ChatPreset::GoodLuck) => "Good luck!",
        Some(ChatPreset::GoodGame) => "Good game!",
        Some(ChatPreset::Thanks) => "Thanks!",
        Some(ChatPreset::WellPlayed) => "Well played!",
        Some(ChatPreset::Rematch) => "Rematch?",
        None => line.text.as_deref().unwrap_or_default(),
    };
    // Control characters never reach the terminal (the server refuses them too).
    let what: String = what.chars().filter(|c| !c.is_control()).collect();
    format!("{who}: {what}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_sites_and_invitation_links() {
        assert_eq!(
            Target::parse("http://127.0.0.1:8000/", None).unwrap(),
            Target {
                ws: "ws://127.0.0.1:8000/ws".into(),
                site: "http://127.0.0.1:8000/".into(),
                room: None
            }
        );
        assert_eq!(
            Target::parse("http://example.org/uttt/?room=abc123", None).unwrap(),
            Target {
                ws: "ws://example.org/uttt/ws".into(),
                site: "http://example.org/uttt/".into(),
                room: Some("abc123".into())
            }
        );
        assert_eq!(
            Target::parse("ws://h:1/ws", Some("r")).unwrap().ws,
            "ws://h:1/ws"
        );
        assert_eq!(Target::parse("http://h:1", None).unwrap().ws, "ws://h:1/ws");
        for bad in [
            "ftp://h/",
            "h:1",
            "http://h/?room=a%20b",
            "https://h/",
            "wss://h/ws",
        ] {
            assert!(Target::parse(bad, None).is_err(), "{bad}");
        }
    }

    #[test]
    fn reads_clocks_in_minutes_and_seconds() {
        assert_eq!(
            parse_clock("3+2").unwrap(),
            ClockSetting {
                initial: 180,
                increment: 2
            }
        );
        for bad in ["3", "0+1", "61+0", "3+61", "a+b", "99999999999+1"] {
            assert!(parse_clock(bad).is_err(), "{bad}");
        }
        assert_eq!(parse_days("3").unwrap(), 3);
        for bad in ["4", "0", "x", "15"] {
            assert!(parse_days(bad).is_err(), "{bad}");
        }
    }
}
