//! A real WebSocket client of `uttt-server` for the tests (blocking, with
//! every wait bounded).

#![allow(dead_code)]

use std::net::{SocketAddr, TcpStream};
use std::time::{Duration, Instant};

use tungstenite::stream::MaybeTlsStream;
use tungstenite::{Message, WebSocket};
use uttt_protocol::{
    read_server, write, ClientMessage, ErrorCode, Kind, RoomOptions, RoomState, RuleSet,
    ServerMessage,
};

/// How long any one wait for a frame may take: a frame comes in
/// milliseconds, and only a server that never sends it waits this out; it
/// is generous because the tests run beside each other on two cores,
/// where a busy machine once held a pairing's frames past 5 s.
const WAIT: Duration = Duration::from_secs(15);

/// One connection.
pub struct Client {
    socket: WebSocket<MaybeTlsStream<TcpStream>>,
    /// Every frame received, in order.
    pub seen: Vec<ServerMessage>,
}

impl Client {
    /// Connects to `/ws` of the server at `addr`.
    pub fn connect(addr: SocketAddr) -> Client {
        Client::connect_as(addr, None)
    }

    /// Connects to `/ws` of the server at `addr`, signed in by the session
    /// whose cookie holds `session`, if given.
    pub fn connect_as(addr: SocketAddr, session: Option<&str>) -> Client {
        use tungstenite::client::IntoClientRequest;
        let mut request = format!("ws://{addr}/ws").into_client_request().unwrap();
        if let Some(secret) = session {
            request
                .headers_mut()
                .insert("cookie", format!("uttt_session={secret}").parse().unwrap());
        }
        let (socket, _) = tungstenite::connect(request).expect("connect");
        if let MaybeTlsStream::Plain(stream) = socket.get_ref() {
            stream
                .set_read_timeout(Some(Duration::from_millis(200)))
                .unwrap();
        }
        Client {
            socket,
            seen: Vec::new(),
        }
    }

    pub fn send(&mut self, message: &ClientMessage) {
        self.send_raw(&write(message));
    }

    pub fn send_raw(&mut self, text: &str) {
        self.socket.send(Message::text(text)).expect("send");
    }

    pub fn send_binary(&mut self, bytes: &[u8]) {
        self.socket
            .send(Message::binary(bytes.to_vec()))
            .expect("send");
    }

    /// The next frame, or None when the server closed the connection.
    pub fn next(&mut self) -> Option<ServerMessage> {
        self.next_within(WAIT)
    }

    /// The next frame within `wait`, or None when the server closed.
    pub fn next_within(&mut self, wait: Duration) -> Option<ServerMessage> {
        let deadline = Instant::now() + wait;
        loop {
            match self.socket.read() {
                Ok(Message::Text(text)) => {
                    let message =
                        read_server(text.as_str()).expect("the server writes valid frames");
                    self.seen.push(message.clone());
                    return Some(message);
                }
                Ok(Message::Close(_)) => return None,
                Ok(_) => {}
                Err(e) if read_timed_out(&e) => {
                    let last = self.seen.iter().rev().take(3).collect::<Vec<_>>();
                    assert!(
                        Instant::now() < deadline,
                        "no frame within {wait:?}; the last ones: {last:?}"
                    );
                }
                Err(_) => return None,
            }
        }
    }

    /// Reads frames until one satisfies `want`, returning it.
    pub fn until<T>(&mut self, what: &str, want: impl FnMut(&ServerMessage) -> Option<T>) -> T {
        self.until_within(WAIT, what, want)
    }

    /// As [`Client::until`], waiting up to `wait` in all.
    pub fn until_within<T>(
        &mut self,
        wait: Duration,
        what: &str,
        mut want: impl FnMut(&ServerMessage) -> Option<T>,
    ) -> T {
        let deadline = Instant::now() + wait;
        loop {
            assert!(
                Instant::now() < deadline,
                "no {what} within {wait:?}: {:?}",
                self.seen
            );
            let message = self
                .next_within(deadline - Instant::now())
                .unwrap_or_else(|| panic!("closed while waiting for {what}: {:?}", self.seen));
            if let Some(found) = want(&message) {
                return found;
            }
        }
    }

    /// The next state satisfying `want`.
    pub fn state(&mut self, want: impl Fn(&RoomState) -> bool) -> RoomState {
        self.state_within(WAIT, want)
    }

    /// As [`Client::state`], waiting up to `wait`.
    pub fn state_within(&mut self, wait: Duration, want: impl Fn(&RoomState) -> bool) -> RoomState {
        self.until_within(wait, "state", |m| match m {
            ServerMessage::State { state, .. } if want(state) => Some((**state).clone()),
            _ => None,
        })
    }

    /// The latest state received so far.
    pub fn last_state(&self) -> RoomState {
        self.seen
            .iter()
            .rev()
            .find_map(|m| match m {
                ServerMessage::State { state, .. } => Some((**state).clone()),
                _ => None,
            })
            .expect("a state was received")
    }

    /// The next error frame's code.
    pub fn error(&mut self) -> ErrorCode {
        self.until("error", |m| match m {
            ServerMessage::Error { code, .. } => Some(*code),
            _ => None,
        })
    }

    /// The `joined` frame: (room, token).
    pub fn joined(&mut self) -> (String, uttt_protocol::Role, Option<String>) {
        self.until("joined", |m| match m {
            ServerMessage::Joined { room, role, token } => {
                Some((room.clone(), *role, token.clone()))
            }
            _ => None,
        })
    }

    /// Every frame that comes within `wait` (none is an answer too).
    pub fn frames_for(&mut self, wait: Duration) -> Vec<ServerMessage> {
        let deadline = Instant::now() + wait;
        let mut frames = Vec::new();
        while Instant::now() < deadline {
            match self.socket.read() {
                Ok(Message::Text(text)) => {
                    let message =
                        read_server(text.as_str()).expect("the server writes valid frames");
                    self.seen.push(message.clone());
                    frames.push(message);
                }
                Ok(Message::Close(_)) => break,
                Ok(_) => {}
                Err(e) if read_timed_out(&e) => {}
                Err(_) => break,
            }
        }
        frames
    }

    /// Sends a data frame with opcode `opcode` (1 text, 2 binary, 3-7
    /// reserved) and `payload` as is, valid or not.
    pub fn send_frame(&mut self, opcode: u8, payload: &[u8]) {
        use tungstenite::protocol::frame::coding::OpCode;
        use tungstenite::protocol::frame::Frame;
        let frame = Frame::message(payload.to_vec(), OpCode::from(opcode), true);
        self.socket.send(Message::Frame(frame)).expect("send");
    }

    /// Closes the connection; true when the server answers with a close
    /// frame of its own, as the WebSocket's closing handshake asks.
    pub fn close_is_answered(&mut self) -> bool {
        self.socket.close(None).expect("close");
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            match self.socket.read() {
                Ok(Message::Close(_)) => return true,
                Ok(_) => {}
                Err(e) if read_timed_out(&e) => {}
                Err(_) => return false,
            }
        }
        false
    }

    /// Sends a WebSocket ping frame (not the protocol's `ping` message);
    /// false once the connection is closed.
    pub fn ping_frame(&mut self) -> bool {
        self.socket.send(Message::Ping(Vec::new().into())).is_ok()
    }

    /// The code of the server's close frame, if it closes the connection
    /// within `wait` (None: closed without a frame, or still open).
    pub fn close_code_within(&mut self, wait: Duration) -> Option<u16> {
        let deadline = Instant::now() + wait;
        while Instant::now() < deadline {
            match self.socket.read() {
                Ok(Message::Close(frame)) => return frame.map(|f| u16::from(f.code)),
                Ok(_) => {}
                Err(e) if read_timed_out(&e) => {}
                Err(_) => return None,
            }
        }
        None
    }

    /// Whether the server closes the connection within the wait.
    pub fn closed(&mut self) -> bool {
        let deadline = Instant::now() + WAIT;
        while Instant::now() < deadline {
            if self.next_or_closed().is_none() {
                return true;
            }
        }
        false
    }

    fn next_or_closed(&mut self) -> Option<()> {
        match self.socket.read() {
            Ok(Message::Close(_)) => None,
            Ok(_) => Some(()),
            Err(e) if read_timed_out(&e) => Some(()),
            Err(_) => None,
        }
    }
}

/// Room options for a Classic game without a clock.
pub fn classic() -> RoomOptions {
    RoomOptions {
        days: None,
        kind: Kind::Classic,
        rules: RuleSet::Standard,
        colour: uttt_protocol::ColourChoice::X,
        clock: None,
        rated: false,
    }
}

pub fn mv(ply: u32, board: u8, cell: u8) -> ClientMessage {
    ClientMessage::Move { ply, board, cell }
}

/// Whether a read ended only because its timeout passed (the connection is open).
fn read_timed_out(error: &tungstenite::Error) -> bool {
    matches!(
        error,
        tungstenite::Error::Io(e)
            if matches!(e.kind(), std::io::ErrorKind::WouldBlock | std::io::ErrorKind::TimedOut)
    )
}

/// A rated Ultimate game of `days` a move, its creator (or challenger)
/// playing X.
pub fn ultimate_by_days(days: u8) -> RoomOptions {
    RoomOptions {
        days: Some(days),
        kind: uttt_protocol::Kind::Ultimate,
        rules: uttt_protocol::RuleSet::Standard,
        colour: uttt_protocol::ColourChoice::X,
        clock: None,
        rated: true,
    }
}
