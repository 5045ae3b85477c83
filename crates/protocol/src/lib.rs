//! The online game's wire protocol, defined once for the server, the
//! terminal client and the tests (the page speaks the same JSON; see
//! `docs/protocol.md`).
//!
//! Every frame is one JSON text message with the protocol version `v` and
//! a `type`. A client sends [`ClientMessage`]s, the server answers with
//! [`ServerMessage`]s. [`read_client`] is the only way the server reads a
//! frame: anything that is not exactly a known message of this version is
//! an [`ErrorCode`], never a panic and never a guess.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

use serde::{Deserialize, Serialize};

/// The protocol version every frame carries as `v`.
pub const VERSION: u32 = 1;

/// The largest frame either side accepts, in bytes.
pub const MAX_FRAME_BYTES: usize = 4096;

/// Clock presets offered by the page: (seconds at the start, seconds
/// added per move): 1+1, 3+2, 5+0 and 10+5 in minutes + seconds.
pub const CLOCK_PRESETS: [(u32, u32); 4] = [(60, 1), (180, 2), (300, 0), (600, 5)];

/// The game type of a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Ultimate tic-tac-toe.
    Ultimate,
    /// Classic 3x3 tic-tac-toe.
    Classic,
}

/// The rule set of a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum RuleSet {
    /// A full board without a line is a draw.
    Standard,
    /// A full board without a line goes to whoever won more small boards.
    Tiebreak,
}

/// A side of the board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Side {
    /// X, who moves first.
    X,
    /// O.
    O,
}

impl Side {
    /// The other side.
    #[must_use]
    pub const fn other(self) -> Side {
        match self {
            Side::X => Side::O,
            Side::O => Side::X,
        }
    }
}

/// The side the room's creator asks for.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ColourChoice {
    /// X, who moves first.
    X,
    /// O.
    O,
    /// Drawn by the server.
    Random,
}

/// A game clock: seconds for each side at the start, and seconds added to
/// a side's clock after each of its moves.
#[derive(Clone, Copy, Debug, PartialEq, Hash, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClockSetting {
    /// Seconds for each side at the start: 10 to 3600.
    pub initial: u32,
    /// Seconds added after each move: 0 to 60.
    pub increment: u32,
}

impl ClockSetting {
    /// Whether the setting is within the limits the server accepts.
    #[must_use]
    pub fn is_valid(self) -> bool {
        (10..=3600).contains(&self.initial) && self.increment <= 60
    }
}

/// The days a move may take in a correspondence game, as offered: each
/// move resets the mover's time to this many days.
pub const DAYS_PER_MOVE: [u8; 6] = [1, 2, 3, 5, 7, 14];

/// Whether a game's timing is one the server accepts: a live clock within
/// its limits or days per move from [`DAYS_PER_MOVE`], never both, and one
/// of them when `needed` (rated games, and every Play now game).
///
/// # Errors
/// What is wrong, in words for the player.
pub fn check_timing(
    clock: Option<ClockSetting>,
    days: Option<u8>,
    needed: bool,
) -> Result<(), &'static str> {
    match (clock, days) {
        (Some(_), Some(_)) => Err("a game has a clock or days per move, not both"),
        (Some(clock), None) if !clock.is_valid() => {
            Err("a clock has 10 to 3600 seconds and adds 0 to 60 seconds a move")
        }
        (None, Some(days)) if !DAYS_PER_MOVE.contains(&days) => {
            Err("days per move are 1, 2, 3, 5, 7 or 14")
        }
        (None, None) if needed => Err("rated and Play now games have a clock or days per move"),
        _ => Ok(()),
    }
}

/// How a room is set up.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RoomOptions {
    /// Ultimate or Classic.
    pub kind: Kind,
    /// Standard or tie-break (Classic always plays standard).
    pub rules: RuleSet,
    /// The creator's side.
    pub colour: ColourChoice,
    /// The clock, or none.
    pub clock: Option<ClockSetting>,
    /// Days per move, for a correspondence game (never with a clock;
    /// absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub days: Option<u8>,
    /// Whether its games change the players' ratings: only between two
    /// signed-in players (absent: not rated).
    #[serde(default)]
    pub rated: bool,
}

impl RoomOptions {
    /// Whether the server accepts these options (see [`check_timing`]: a
    /// rated game has a clock or days per move).
    ///
    /// # Errors
    /// What is wrong, in words for the player.
    pub fn check(&self) -> Result<(), &'static str> {
        check_timing(self.clock, self.days, self.rated)
    }
}

/// What a player asks for with Play now: a game of these settings against
/// whoever near their rating asks for the same (one pool per setting).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SeekOptions {
    /// Ultimate or Classic.
    pub kind: Kind,
    /// Standard or tie-break (Classic always plays standard).
    pub rules: RuleSet,
    /// The clock (none for a correspondence game).
    pub clock: Option<ClockSetting>,
    /// Days per move, for a correspondence game (absent: none).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    #[cfg_attr(test, ts(optional))]
    pub days: Option<u8>,
    /// Rated (for signed-in players), or casual.
    pub rated: bool,
}

impl SeekOptions {
    /// Whether the server pairs these options: a clock or days per move
    /// (see [`check_timing`]).
    ///
    /// # Errors
    /// What is wrong, in words for the player.
    pub fn check(&self) -> Result<(), &'static str> {
        check_timing(self.clock, self.days, true)
    }
}

/// A frame from a client. Variants without data are written `{}` so that
/// `deny_unknown_fields` holds for them too (serde lets a unit variant of
/// an internally tagged enum ignore extra fields).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum ClientMessage {
    /// Opens a new room with the sender in a seat.
    Create {
        /// How the room is set up.
        options: RoomOptions,
    },
    /// Enters room `room`: back into a seat with its `token`, else into a
    /// free seat, else as a spectator.
    Join {
        /// The room's code, from the invitation link.
        room: String,
        /// The seat token the server gave this client earlier, if any.
        token: Option<String>,
    },
    /// Plays at `cell` of small board `board` (Classic: board 0), as the
    /// `ply`-th move of the game (0-based), so a repeated or late frame can
    /// never play twice.
    Move {
        /// The number of moves on the board before this one.
        ply: u32,
        /// The small board, 0-8 in reading order.
        board: u8,
        /// The cell, 0-8 in reading order.
        cell: u8,
    },
    /// Gives up the game.
    Resign {},
    /// Offers a draw (or accepts the opponent's standing offer).
    OfferDraw {},
    /// Turns down the opponent's draw offer.
    DeclineDraw {},
    /// After a game: asks for another with colours swapped; it starts when
    /// both players have asked.
    Rematch {},
    /// Leaves the room for good (a seat's player gives up a game in play).
    Leave {},
    /// Play now: waits in the pool of `seek`'s settings until paired; the
    /// game then starts as a room both players were seated in (`joined`).
    Seek {
        /// The game asked for.
        seek: SeekOptions,
    },
    /// Stops waiting in the pool (answered `seekEnded`, or `joined` when the
    /// pairing was made first).
    CancelSeek {},
    /// Offers a game of `options` (the challenger's side included) to
    /// anyone, or to the player named `to` only; answered `challenging`.
    /// It waits while this connection does, as a seek: one a connection.
    Challenge {
        /// The game offered; `colour` is the challenger's side.
        options: RoomOptions,
        /// The one player who may accept it; absent: anyone.
        to: Option<String>,
    },
    /// Withdraws this connection's challenge (answered `challengeEnded`,
    /// or `joined` when it was accepted first).
    CancelChallenge {},
    /// Accepts challenge `id`: its game starts as a room both players are
    /// seated in (`joined`), as a Play now pairing.
    AcceptChallenge {
        /// The challenge's id (`challenging`, `GET /api/challenges`).
        id: String,
    },
    /// Turns down challenge `id`, addressed to this player; the
    /// challenger hears `challengeEnded` with reason `declined`.
    DeclineChallenge {
        /// The challenge's id.
        id: String,
    },
    /// Asks for a `pong` with the same `id` (clients measure round trips).
    Ping {
        /// Chosen by the client.
        id: u32,
    },
    /// Says one line in the room's chat: the players' chat from a seat,
    /// the spectators' from a watcher. Exactly one of `preset` (a message
    /// every page says in its own language) and `text` (typed: 1 to
    /// [`MAX_CHAT_CHARS`] characters).
    Chat {
        /// A preset message.
        #[serde(default)]
        preset: Option<ChatPreset>,
        /// Typed words.
        #[serde(default)]
        text: Option<String>,
    },
    /// Reports line `id` of the sender's chat: kept with its game for the
    /// moderators to read.
    ReportChat {
        /// The line's id (`chat`).
        id: u32,
    },
    /// Sets the sender's conditional moves in a correspondence game, while
    /// it is the opponent's move: each line is the opponent's move, the
    /// answer, the opponent's next, its answer ... (2 to
    /// [`MAX_CONDITIONAL_PLIES`] moves, an even number; at most
    /// [`MAX_CONDITIONAL_LINES`] lines, never two answers to one move); an
    /// empty list clears them. The server keeps them for this seat alone
    /// and, when the opponent's move is the first of a line, plays its
    /// answer at once. Answered `conditional`.
    Conditional {
        /// The lines.
        lines: Vec<Vec<Point>>,
    },
}

/// Conditional lines a seat may keep at most.
pub const MAX_CONDITIONAL_LINES: usize = 16;
/// Moves in one conditional line at most.
pub const MAX_CONDITIONAL_PLIES: usize = 12;

/// A move of a conditional line: a cell of a small board.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields)]
pub struct Point {
    /// The small board, 0-8 in reading order (Classic: 0).
    pub board: u8,
    /// The cell, 0-8 in reading order.
    pub cell: u8,
}

/// The most characters a typed chat line holds.
pub const MAX_CHAT_CHARS: usize = 140;

/// A chat message every page says in its own language.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "camelCase")]
pub enum ChatPreset {
    /// "Hello!"
    Hello,
    /// "Good luck!"
    GoodLuck,
    /// "Good game!"
    GoodGame,
    /// "Thanks!"
    Thanks,
    /// "Well played!"
    WellPlayed,
    /// "Rematch?"
    Rematch,
}

/// Whose chat a line is in.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ChatChannel {
    /// The two players', which watchers never see.
    Players,
    /// The watchers', which the players never see (nobody helps them).
    Spectators,
}

/// One line of a room's chat.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ChatLine {
    /// Its number in the room (reports name it).
    pub id: u32,
    /// Whose chat.
    pub channel: ChatChannel,
    /// The side of the player who said it (players' chat).
    pub side: Option<Side>,
    /// Who said it: a signed-in player's name, or none for a guest.
    pub name: Option<String>,
    /// A preset message...
    pub preset: Option<ChatPreset>,
    /// ...or typed words (shown as text, never as markup or a link).
    pub text: Option<String>,
    /// When, in milliseconds since the Unix epoch.
    pub at: u64,
}

/// Why a frame was refused. Nothing changes on a refusal.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum ErrorCode {
    /// A text frame larger than [`MAX_FRAME_BYTES`] (other frames no
    /// client sends close the connection instead).
    BadFrame,
    /// Not JSON, or JSON that is not a known message.
    BadMessage,
    /// A protocol version this server does not speak.
    BadVersion,
    /// Room options out of range.
    BadOptions,
    /// A game message before `create` or `join`, or a second `join`.
    NotInRoom,
    /// No room has that code.
    NoSuchRoom,
    /// The token is not this room's.
    BadToken,
    /// A spectator tried to play.
    NotAPlayer,
    /// The other seat is still empty: no move before the opponent is here.
    NoOpponent,
    /// It is the other side's turn.
    NotYourTurn,
    /// The `ply` is not the number of moves on the board.
    StaleMove,
    /// The core refused the move; the message says why.
    IllegalMove,
    /// The game has ended.
    GameOver,
    /// The game is still being played (e.g. a rematch asked too early).
    GameInPlay,
    /// No draw offer to decline.
    NoDrawOffer,
    /// Too many frames, connections or rooms from this client.
    RateLimited,
    /// The server cannot take more rooms or connections now.
    ServerFull,
    /// The server failed; the room is unchanged.
    ServerError,
    /// The connection is waiting in a pool: cancel the seek first.
    Seeking,
    /// A `cancelSeek` while not waiting in any pool.
    NotSeeking,
    /// Challenges are for signed-in players.
    NotSignedIn,
    /// No player has the name a challenge is addressed to.
    NoSuchPlayer,
    /// A challenge to oneself, or accepting one's own.
    OwnChallenge,
    /// The challenge is addressed to another player.
    NotForYou,
    /// The player has as many challenges waiting as one may.
    TooManyChallenges,
    /// No challenge has that id (or it ended too long ago to say how).
    NoSuchChallenge,
    /// The challenge was withdrawn: cancelled, or its challenger left.
    ChallengeWithdrawn,
    /// The challenge waited its longest and ended.
    ChallengeExpired,
    /// Another player accepted the challenge first.
    ChallengeTaken,
    /// Its addressee turned the challenge down.
    ChallengeDeclined,
    /// A `cancelChallenge` while no challenge of this connection waits.
    NotChallenging,
    /// A chat line that is not one preset or 1 to [`MAX_CHAT_CHARS`]
    /// characters of text (without control characters).
    BadChat,
    /// A report of a chat line this connection's chat does not hold.
    NoSuchLine,
    /// Conditional moves that cannot be kept: not a correspondence game in
    /// play at the opponent's move, or lines that are not legal, too many
    /// or too long, or give two answers to one move.
    BadConditional,
}

/// Why a challenge ended without a game for its challenger.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum ChallengeEnd {
    /// The addressee turned it down.
    Declined,
    /// The challenger cancelled it.
    Withdrawn,
    /// It waited its longest.
    Expired,
}

/// Whether a seat's player is connected.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Presence {
    /// Nobody has taken the seat yet.
    Empty,
    /// Its player is connected.
    Connected,
    /// Its player dropped out and may come back.
    Disconnected,
}

/// Why a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "kebab-case")]
pub enum EndReason {
    /// The rules gave the game to the winner: three boards in a row, or
    /// under tie-break more boards on a full board.
    Won,
    /// A full board without a winner.
    Draw,
    /// A player resigned (or left).
    Resigned,
    /// The players agreed a draw.
    Agreed,
    /// A clock ran out (or a player stayed away past the grace period).
    Time,
}

/// How a game ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct GameResult {
    /// The winner, or none for a draw.
    pub winner: Option<Side>,
    /// Why.
    pub reason: EndReason,
}

/// The clocks as the server sees them at `serverTime`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct ClockState {
    /// X's time left, in milliseconds.
    pub x_ms: u64,
    /// O's time left, in milliseconds.
    pub o_ms: u64,
    /// The side whose clock is running, if any.
    pub running: Option<Side>,
}

/// Everything a client draws of a room; sent whole after every change.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct RoomState {
    /// The room's code.
    pub room: String,
    /// How it was set up.
    pub options: RoomOptions,
    /// Which game of the room this is: 1, then 2 after a rematch, ...
    pub game_number: u32,
    /// Who holds X in this game and who holds O, as seats 0 and 1: the
    /// creator is seat 0. Colours swap at each rematch.
    pub x_seat: u8,
    /// The game record (`ultimate-standard:e5e4`), the core's notation.
    pub record: String,
    /// The side to move (also after the end: who would move next).
    pub to_move: Side,
    /// Whether X's and O's seats are taken and connected.
    pub x: Presence,
    /// O's seat.
    pub o: Presence,
    /// The name of the player holding X's seat, when they were signed in.
    pub x_name: Option<String>,
    /// The name of the player holding O's seat, when they were signed in.
    pub o_name: Option<String>,
    /// The clocks, when the room has one.
    pub clock: Option<ClockState>,
    /// The result, once the game has ended.
    pub result: Option<GameResult>,
    /// The side that offered a draw, while the offer stands.
    pub draw_offer: Option<Side>,
    /// The sides that asked for a rematch since the game ended.
    pub rematch: Vec<Side>,
    /// How many people are watching.
    pub spectators: u32,
    /// What the game does to each side's rating, when it is rated and
    /// both players' ratings are known.
    #[serde(default)]
    pub stakes: Option<Stakes>,
    /// The sides whose player is on vacation (a correspondence game): their
    /// clock stands still until then.
    #[serde(default)]
    pub vacation: Vec<Vacation>,
}

/// A side on vacation in a correspondence game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Vacation {
    /// The side.
    pub side: Side,
    /// When its player's vacation ends (ms since the Unix epoch).
    pub until: u64,
}

/// What a rated game does to one side's rating (whole rating points).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct SideStakes {
    /// The rating before the game.
    pub rating: i32,
    /// Whether it is provisional (RD of 110 or more).
    pub provisional: bool,
    /// The change a win would make.
    pub win: i32,
    /// The change a draw would make.
    pub draw: i32,
    /// The change a loss would make.
    pub loss: i32,
    /// The rating after the game, once the game was rated.
    pub after: Option<i32>,
}

/// Each side's stakes in a rated game.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(deny_unknown_fields, rename_all = "camelCase")]
pub struct Stakes {
    /// X's.
    pub x: SideStakes,
    /// O's.
    pub o: SideStakes,
}

impl RoomState {
    /// The side `role` plays in this game; `None` for a spectator. (The
    /// creator holds seat 0; colours swap at each rematch.)
    #[must_use]
    pub fn side_of(&self, role: Role) -> Option<Side> {
        let seat = match role {
            Role::Seat0 => 0,
            Role::Seat1 => 1,
            Role::Spectator => return None,
        };
        Some(if seat == self.x_seat {
            Side::X
        } else {
            Side::O
        })
    }

    /// Whether `side` may move now: both seats taken, the game on, its turn.
    #[must_use]
    pub fn awaits(&self, side: Side) -> bool {
        self.result.is_none()
            && self.x != Presence::Empty
            && self.o != Presence::Empty
            && self.to_move == side
    }
}

/// What a client is in a room.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(rename_all = "lowercase")]
pub enum Role {
    /// Holds seat 0 (the creator's).
    Seat0,
    /// Holds seat 1.
    Seat1,
    /// Watches.
    Spectator,
}

/// A frame from the server.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[cfg_attr(test, derive(ts_rs::TS))]
#[serde(
    tag = "type",
    rename_all = "camelCase",
    rename_all_fields = "camelCase",
    deny_unknown_fields
)]
pub enum ServerMessage {
    /// The client is in room `room` as `role`. `token` (a seat's secret,
    /// sent only to that seat's own connection) lets it come back.
    Joined {
        /// The room's code.
        room: String,
        /// Seat or spectator.
        role: Role,
        /// The seat's token; `null` for spectators.
        token: Option<String>,
    },
    /// The room as it is now, with the server's clock.
    State {
        /// The room (boxed: it is many times the size of the other
        /// messages).
        state: Box<RoomState>,
        /// The server's time in milliseconds since the Unix epoch, when the
        /// state was sent: clients count down from it.
        server_time: u64,
    },
    /// A refused frame; nothing changed.
    Error {
        /// Why, for programs.
        code: ErrorCode,
        /// Why, for people (English).
        message: String,
    },
    /// The answer to a `ping`.
    Pong {
        /// The ping's id.
        id: u32,
    },
    /// How many watch the room now, when only that changed: told at most
    /// about once a second, instead of the whole state each time.
    Spectators {
        /// Connections watching.
        count: u32,
    },
    /// Waiting in a Play now pool: sent when the seek is taken, and again
    /// when the number of players waiting in the pool changes.
    Seeking {
        /// The game asked for.
        seek: SeekOptions,
        /// Players waiting in this pool, the asker included.
        waiting: u32,
        /// The rating the asker is paired by (whole points).
        rating: i32,
        /// Whether that rating is provisional.
        provisional: bool,
    },
    /// No longer waiting in the pool (the seek was cancelled).
    SeekEnded {},
    /// The challenge is waiting under `id` (`cancelChallenge` withdraws it).
    Challenging {
        /// The challenge's id, as others see it in `GET /api/challenges`.
        id: String,
    },
    /// Challenge `id` ended without a game: told to its challenger, and
    /// to the addressee who declined it.
    ChallengeEnded {
        /// The challenge's id.
        id: String,
        /// Why it ended.
        reason: ChallengeEnd,
    },
    /// A new line of the chat this connection reads.
    Chat {
        /// The line.
        line: ChatLine,
    },
    /// The chat this connection reads so far (the latest lines), sent
    /// after `joined`.
    ChatHistory {
        /// Oldest first.
        lines: Vec<ChatLine>,
    },
    /// The seat's conditional moves as they stand (sent to that seat's
    /// connections only): after `conditional`, on coming back to the seat,
    /// and when the opponent's move used or ended them.
    Conditional {
        /// What is left of each line, from the opponent's next move.
        lines: Vec<Vec<Point>>,
    },
}

/// A frame as written on the wire: the message with the version.
#[derive(Serialize)]
struct Versioned<'a, T> {
    v: u32,
    #[serde(flatten)]
    message: &'a T,
}

/// Writes `message` as a frame.
#[must_use]
pub fn write<T: Serialize>(message: &T) -> String {
    // These types always serialise: no maps with non-string keys, no floats.
    serde_json::to_string(&Versioned {
        v: VERSION,
        message,
    })
    .unwrap_or_default()
}

/// A frame that was refused, with the reason for the sender.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Refusal {
    /// Why, for programs.
    pub code: ErrorCode,
    /// Why, for people.
    pub message: String,
}

impl Refusal {
    /// A refusal with `code` and `message`.
    #[must_use]
    pub fn new(code: ErrorCode, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// The error frame that tells the sender.
    #[must_use]
    pub fn to_message(&self) -> ServerMessage {
        ServerMessage::Error {
            code: self.code,
            message: self.message.clone(),
        }
    }
}

/// Reads one frame of type `T`: JSON text of at most [`MAX_FRAME_BYTES`],
/// an object with `v` equal to [`VERSION`] and exactly the fields of one
/// message.
///
/// # Errors
/// `bad-frame`, `bad-message` or `bad-version`, with a sentence saying
/// what was wrong.
pub fn read<T: serde::de::DeserializeOwned>(text: &str) -> Result<T, Refusal> {
    if text.len() > MAX_FRAME_BYTES {
        return Err(Refusal::new(
            ErrorCode::BadFrame,
            format!("a frame is at most {MAX_FRAME_BYTES} bytes"),
        ));
    }
    let Strict(mut value) = serde_json::from_str(text)
        .map_err(|e| Refusal::new(ErrorCode::BadMessage, format!("not JSON: {e}")))?;
    let object = value
        .as_object_mut()
        .ok_or_else(|| Refusal::new(ErrorCode::BadMessage, "a frame is a JSON object"))?;
    match object.remove("v") {
        Some(v) if v == VERSION => {}
        Some(_) => {
            return Err(Refusal::new(
                ErrorCode::BadVersion,
                format!("this server speaks protocol version {VERSION}"),
            ))
        }
        None => {
            return Err(Refusal::new(
                ErrorCode::BadMessage,
                "a frame needs the protocol version v",
            ))
        }
    }
    serde_json::from_value(value)
        .map_err(|e| Refusal::new(ErrorCode::BadMessage, format!("not a message: {e}")))
}

/// A JSON value in which no object names a key twice. serde_json's own
/// `Value` keeps the last of two equal keys, and the messages are read
/// from a `Value` (the version is taken out first), so the frame itself is
/// checked here: `{"board":1,"board":2}` has no single meaning, and the
/// server and another reader of the same frame could each take a
/// different one.
struct Strict(serde_json::Value);

impl<'de> Deserialize<'de> for Strict {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Strict, D::Error> {
        deserializer.deserialize_any(StrictVisitor).map(Strict)
    }
}

/// Builds a [`Strict`] value, refusing a repeated key in any object.
struct StrictVisitor;

impl<'de> serde::de::Visitor<'de> for StrictVisitor {
    type Value = serde_json::Value;

    fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a JSON value whose objects name each key once")
    }

    fn visit_bool<E>(self, v: bool) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_i64<E>(self, v: i64) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_u64<E>(self, v: u64) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_f64<E>(self, v: f64) -> Result<Self::Value, E> {
        // Not finite cannot come from JSON text: null as serde_json does.
        Ok(serde_json::Number::from_f64(v).map_or(serde_json::Value::Null, Into::into))
    }

    fn visit_str<E>(self, v: &str) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_string<E>(self, v: String) -> Result<Self::Value, E> {
        Ok(v.into())
    }

    fn visit_unit<E>(self) -> Result<Self::Value, E> {
        Ok(serde_json::Value::Null)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        let mut items = Vec::new();
        while let Some(Strict(item)) = seq.next_element()? {
            items.push(item);
        }
        Ok(items.into())
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut object = serde_json::Map::new();
        while let Some(key) = map.next_key::<String>()? {
            if object.contains_key(&key) {
                return Err(serde::de::Error::custom(format_args!(
                    "the key `{key}` appears twice"
                )));
            }
            let Strict(value) = map.next_value()?;
            object.insert(key, value);
        }
        Ok(object.into())
    }
}

/// Reads a client frame (the server's one way in).
///
/// # Errors
/// As [`read`].
pub fn read_client(text: &str) -> Result<ClientMessage, Refusal> {
    read(text)
}

/// Reads a server frame (the clients' one way in).
///
/// # Errors
/// As [`read`].
pub fn read_server(text: &str) -> Result<ServerMessage, Refusal> {
    read(text)
}

#[cfg(test)]
mod page;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn client_messages_round_trip_with_the_version() {
        let messages = [
            ClientMessage::Create {
                options: RoomOptions {
                    days: None,
                    kind: Kind::Ultimate,
                    rules: RuleSet::Tiebreak,
                    colour: ColourChoice::Random,
                    clock: Some(ClockSetting {
                        initial: 180,
                        increment: 2,
                    }),
                    rated: false,
                },
            },
            ClientMessage::Join {
                room: "abc".into(),
                token: None,
            },
            ClientMessage::Move {
                ply: 0,
                board: 4,
                cell: 4,
            },
            ClientMessage::Resign {},
            ClientMessage::OfferDraw {},
            ClientMessage::DeclineDraw {},
            ClientMessage::Rematch {},
            ClientMessage::Leave {},
            ClientMessage::Ping { id: 7 },
        ];
        for message in messages {
            let text = write(&message);
            assert!(text.starts_with("{\"v\":1,\"type\":"), "{text}");
            assert_eq!(read_client(&text), Ok(message));
        }
        assert_eq!(
            write(&ClientMessage::Move {
                ply: 3,
                board: 1,
                cell: 2
            }),
            r#"{"v":1,"type":"move","ply":3,"board":1,"cell":2}"#
        );
    }

    #[test]
    fn refuses_anything_else_with_a_code() {
        let cases = [
            ("", ErrorCode::BadMessage),
            ("not json", ErrorCode::BadMessage),
            ("[1,2]", ErrorCode::BadMessage),
            (r#"{"type":"resign"}"#, ErrorCode::BadMessage),
            (r#"{"v":2,"type":"resign"}"#, ErrorCode::BadVersion),
            (r#"{"v":"1","type":"resign"}"#, ErrorCode::BadVersion),
            (r#"{"v":1,"type":"dance"}"#, ErrorCode::BadMessage),
            (
                r#"{"v":1,"type":"resign","extra":1}"#,
                ErrorCode::BadMessage,
            ),
            (
                r#"{"v":1,"type":"move","ply":0,"board":4}"#,
                ErrorCode::BadMessage,
            ),
            (
                r#"{"v":1,"type":"move","ply":-1,"board":4,"cell":4}"#,
                ErrorCode::BadMessage,
            ),
            (
                r#"{"v":1,"type":"move","ply":0,"board":400,"cell":4}"#,
                ErrorCode::BadMessage,
            ),
            (
                r#"{"v":1,"type":"move","ply":0.5,"board":4,"cell":4}"#,
                ErrorCode::BadMessage,
            ),
            (r#"{"v":1,"type":"ping","id":1e99}"#, ErrorCode::BadMessage),
        ];
        for (text, code) in cases {
            assert_eq!(read_client(text).map_err(|r| r.code), Err(code), "{text}");
        }
        let huge = format!(
            r#"{{"v":1,"type":"join","room":"{}","token":null}}"#,
            "a".repeat(5000)
        );
        assert_eq!(
            read_client(&huge).map_err(|r| r.code),
            Err(ErrorCode::BadFrame)
        );
        let deep = "[".repeat(3000);
        assert_eq!(
            read_client(&deep).map_err(|r| r.code),
            Err(ErrorCode::BadMessage)
        );
        let deep = format!("{}1{}", "{\"\":".repeat(800), "}".repeat(800));
        assert_eq!(
            read_client(&deep).map_err(|r| r.code),
            Err(ErrorCode::BadMessage)
        );
    }

    #[test]
    fn refuses_a_key_named_twice_at_any_depth() {
        let twice = [
            r#"{"v":1,"type":"move","ply":0,"board":1,"board":2,"cell":4}"#,
            r#"{"v":1,"type":"move","type":"resign","ply":0,"board":1,"cell":4}"#,
            r#"{"v":1,"v":1,"type":"resign"}"#,
            r#"{"v":1,"type":"ping","id":1,"id":2}"#,
            r#"{"v":1,"type":"join","room":"a","room":"b","token":null}"#,
            r#"{"v":1,"type":"join","room":"a","token":null,"token":"t"}"#,
            r#"{"v":1,"type":"create","options":{"kind":"classic","kind":"ultimate","rules":"standard","colour":"x","clock":null}}"#,
            r#"{"v":1,"type":"create","options":{"kind":"classic","rules":"standard","colour":"x","clock":{"initial":60,"increment":1,"initial":61}}}"#,
        ];
        for text in twice {
            let refused = read_client(text).expect_err(text);
            assert_eq!(refused.code, ErrorCode::BadMessage, "{text}");
            assert!(
                refused.message.contains("twice"),
                "{text}: {}",
                refused.message
            );
        }
        let twice_in_a_state = r#"{"v":1,"type":"pong","id":1,"id":1}"#;
        assert!(read_server(twice_in_a_state).is_err());
        // The same keys once each are still a message.
        assert_eq!(
            read_client(r#"{"v":1,"type":"ping","id":2}"#),
            Ok(ClientMessage::Ping { id: 2 })
        );
    }

    #[test]
    fn server_messages_round_trip() {
        let state = RoomState {
            room: "r".into(),
            options: RoomOptions {
                days: None,
                kind: Kind::Classic,
                rules: RuleSet::Standard,
                colour: ColourChoice::X,
                clock: None,
                rated: false,
            },
            game_number: 1,
            x_seat: 0,
            record: "classic:b2".into(),
            to_move: Side::O,
            x: Presence::Connected,
            o: Presence::Disconnected,
            x_name: Some("SwiftOtter482".into()),
            o_name: None,
            clock: Some(ClockState {
                x_ms: 1,
                o_ms: 2,
                running: Some(Side::O),
            }),
            result: None,
            draw_offer: Some(Side::X),
            rematch: vec![],
            spectators: 3,
            stakes: None,
            vacation: Vec::new(),
        };
        for message in [
            ServerMessage::Joined {
                room: "r".into(),
                role: Role::Seat1,
                token: Some("t".into()),
            },
            ServerMessage::State {
                state: Box::new(state),
                server_time: 5,
            },
            Refusal::new(ErrorCode::NotYourTurn, "wait").to_message(),
            ServerMessage::Pong { id: 1 },
            ServerMessage::Spectators { count: 7 },
        ] {
            assert_eq!(read_server(&write(&message)), Ok(message));
        }
    }
}
