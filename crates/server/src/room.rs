//! A room: two seats, the spectators, the game, its clock and what the
//! players have offered. Pure logic: time comes in as milliseconds since
//! the Unix epoch, so the server's clock is the only truth and tests can
//! set it. The game's rules are the core's ([`OnlineGame`]); the room adds
//! only who may act and when.

use uttt_core::Outcome;
use uttt_protocol::{
    ClientMessage, ClockState, ColourChoice, EndReason, ErrorCode, GameResult, Point, Presence,
    Refusal, Role, RoomOptions, RoomState, Side, Stakes, Vacation,
};

use crate::conditional::{self, Lines};

use crate::game::{side, OnlineGame};
use crate::players::Player;

/// How long a player may stay away from a game with a clock before losing
/// on time, unless the server is told otherwise (`--grace-ms`).
pub const GRACE_MS: u64 = 60_000;

/// A seat's holder.
#[derive(Clone, Debug)]
pub struct Seat {
    /// The secret that proves a connection holds this seat.
    pub token: String,
    /// The player who took it, when they were signed in.
    pub player: Option<Player>,
    /// Open connections holding it.
    connections: u32,
    /// Since when nobody has held it, while nobody does.
    away_since: Option<u64>,
    /// When its player's vacation ends, while they are on one (a
    /// correspondence game's clock of theirs stands still till then).
    vacation: Option<u64>,
}

/// The two clocks of a game with a clock: a live clock, or days per move.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// Milliseconds left for X and for O, as of `since`.
    pub left: [u64; 2],
    /// Milliseconds added after each move (a live clock).
    pub increment: u64,
    /// Milliseconds each move resets the mover's time to (a correspondence
    /// game's days per move); none for a live clock.
    pub per_move: Option<u64>,
    /// When the side to move's clock started running, while it runs.
    pub since: Option<u64>,
}

/// The index of a side in per-side arrays.
const fn index(side: Side) -> usize {
    match side {
        Side::X => 0,
        Side::O => 1,
    }
}

impl Clock {
    /// The time `side` has left at `now`, if it is running.
    fn left_at(&self, side: Side, running: Option<Side>, now: u64) -> u64 {
        let left = self.left[index(side)];
        match (running, self.since) {
            (Some(r), Some(since)) if r == side => left.saturating_sub(now.saturating_sub(since)),
            _ => left,
        }
    }
}

/// A room and its current game.
#[derive(Clone, Debug)]
pub struct Room {
    /// The room's code, from the invitation link.
    pub code: String,
    /// How it was set up.
    pub options: RoomOptions,
    /// Seat 0 (the creator's) and seat 1.
    pub seats: [Option<Seat>; 2],
    /// 1 for the first game, one more after each rematch.
    pub game_number: u32,
    /// The seat that plays X in this game.
    pub x_seat: u8,
    /// The game, as the core plays it.
    pub game: OnlineGame,
    /// The clocks, when the room has them.
    pub clock: Option<Clock>,
    /// How the game ended, once it has.
    pub result: Option<GameResult>,
    /// The side whose draw offer stands.
    pub draw_offer: Option<Side>,
    /// Which seats asked for a rematch.
    pub rematch: [bool; 2],
    /// Connections watching.
    pub spectators: u32,
    /// How long a seat's player may be away from a timed game.
    pub grace_ms: u64,
    /// What a rated game does to the players' ratings (kept by the hub,
    /// from the store; not saved with the room).
    pub stakes: Option<Stakes>,
    /// Each seat's conditional moves (a correspondence game; see
    /// `conditional.rs`), private to that seat.
    pub conditional: [Lines; 2],
}

/// A millisecond of a day.
const DAY_MS: u64 = 86_400_000;

/// Constant-time comparison of two secrets (seat tokens, CSRF tokens), so
/// answer times say nothing about how much of a guess was right.
#[must_use]
pub fn same_token(a: &str, b: &str) -> bool {
    subtle::ConstantTimeEq::ct_eq(a.as_bytes(), b.as_bytes()).into()
}

fn refuse(code: ErrorCode, message: &str) -> Refusal {
    Refusal::new(code, message)
}

impl Room {
    /// A new room with its creator in seat 0, holding `token`. `coin` picks
    /// the creator's side when the options ask for a random one.
    #[must_use]
    pub fn new(code: String, options: RoomOptions, token: String, coin: bool) -> Room {
        let x_seat = match options.colour {
            ColourChoice::X => 0,
            ColourChoice::O => 1,
            ColourChoice::Random => u8::from(coin),
        };
        Room {
            code,
            options,
            seats: [
                Some(Seat {
                    token,
                    player: None,
                    connections: 1,
                    away_since: None,
                    vacation: None,
                }),
                None,
            ],
            game_number: 1,
            x_seat,
            game: OnlineGame::new(options.kind, options.rules),
            clock: new_clock(&options),
            result: None,
            draw_offer: None,
            rematch: [false; 2],
            spectators: 0,
            grace_ms: GRACE_MS,
            stakes: None,
            conditional: Default::default(),
        }
    }

    /// Whether the game is played by days per move (correspondence): its
    /// players come and go, and only the clock decides a late move. Such a
    /// room's time (every `now` it is given) is the wall clock's, in ms
    /// since the Unix epoch, as its stored deadline is: its days run on
    /// while nobody is there, the server is down or the machine sleeps.
    #[must_use]
    pub fn by_days(&self) -> bool {
        self.clock.is_some_and(|c| c.per_move.is_some())
    }

    /// The signed-in players holding X and O, when both seats have one.
    #[must_use]
    pub fn players_by_side(&self) -> Option<[&Player; 2]> {
        let player = |seat: u8| {
            self.seats[usize::from(seat)]
                .as_ref()
                .and_then(|s| s.player.as_ref())
        };
        Some([player(self.x_seat)?, player(self.x_seat ^ 1)?])
    }

    /// The side seat `seat` plays in this game.
    #[must_use]
    pub fn side_of(&self, seat: u8) -> Side {
        if seat == self.x_seat {
            Side::X
        } else {
            Side::O
        }
    }

    fn both_seated(&self) -> bool {
        self.seats.iter().all(Option::is_some)
    }

    fn in_play(&self) -> bool {
        self.result.is_none()
    }

    /// The side whose clock runs: the side to move, while both seats are
    /// taken and the game is on.
    fn running(&self) -> Option<Side> {
        (self.clock.is_some() && self.both_seated() && self.in_play()).then(|| self.game.to_move())
    }

    /// A connection enters: with `token`, back into that seat; without,
    /// a signed-in `player` back into their own seat (from another device:
    /// the connection is given its token), else into the free seat
    /// (holding `new_token`), else to watch.
    ///
    /// # Errors
    /// `bad-token` when `token` is no seat's.
    pub fn join(
        &mut self,
        token: Option<&str>,
        player: Option<&Player>,
        new_token: String,
        now: u64,
    ) -> Result<(Role, Option<String>), Refusal> {
        self.settle(now);
        let own = |s: &Seat| {
            player.is_some_and(|p| s.player.as_ref().is_some_and(|mine| mine.id == p.id))
        };
        let token = match token {
            Some(token) => Some(token.to_string()),
            None => self
                .seats
                .iter()
                .flatten()
                .find(|s| own(s))
                .map(|s| s.token.clone()),
        };
        if let Some(token) = token.as_deref() {
            let seat = self
                .seats
                .iter()
                .position(|s| s.as_ref().is_some_and(|s| same_token(&s.token, token)))
                .ok_or_else(|| {
                    refuse(ErrorCode::BadToken, "that token holds no seat in this room")
                })?;
            if let Some(s) = self.seats[seat].as_mut() {
                s.connections += 1;
                s.away_since = None;
            }
            // Someone is waiting again: an absent opponent's grace period
            // counts from now, not from when they left.
            self.restart_absences(now);
            return Ok((seat_role(seat), Some(token.to_string())));
        }
        if self.seats[1].is_none() {
            self.seats[1] = Some(Seat {
                token: new_token.clone(),
                player: None,
                connections: 1,
                away_since: None,
                vacation: None,
            });
            // Both seats taken: the first game's clock starts, and the
            // creator, if away, has the grace period from now.
            self.start_clock(now);
            self.restart_absences(now);
            return Ok((Role::Seat1, Some(new_token)));
        }
        self.spectators += 1;
        Ok((Role::Spectator, None))
    }

    /// Names `player` as the holder of the seat `role` entered, if that
    /// seat has none yet (a seat's player never changes: its token is the
    /// seat, whoever signs in later).
    pub fn assign_player(&mut self, role: Role, player: Option<Player>) {
        let seat = match role {
            Role::Seat0 => 0,
            Role::Seat1 => 1,
            Role::Spectator => return,
        };
        if let Some(seat) = self.seats[seat].as_mut() {
            if seat.player.is_none() {
                seat.player = player;
            }
        }
    }

    /// Every absent seat's grace period starts again at `now`: nobody loses
    /// by absence for time when nobody was waiting or the game had not begun.
    fn restart_absences(&mut self, now: u64) {
        for seat in self.seats.iter_mut().flatten() {
            if seat.away_since.is_some() {
                seat.away_since = Some(now);
            }
        }
    }

    /// Charges the running side for its time so far without stopping its
    /// clock, so a snapshot taken now holds the time really left (done
    /// before the room leaves memory).
    pub fn charge_clock(&mut self, now: u64) {
        let running = self.running();
        if let (Some(side), Some(clock)) = (running, self.clock.as_mut()) {
            clock.left[index(side)] = clock.left_at(side, running, now);
            // A clock standing still for a vacation stays so.
            clock.since = Some(clock.since.map_or(now, |since| since.max(now)));
        }
    }

    /// When the side to move's clock runs from, starting `now`: the end of
    /// its player's vacation while they are on one (a correspondence game;
    /// see [`Room::set_vacation`]).
    fn runs_from(&self, now: u64) -> u64 {
        self.running()
            .and_then(|side| self.seats[self.seat_of(side)].as_ref()?.vacation)
            .filter(|&until| until > now && self.by_days())
            .unwrap_or(now)
    }

    /// The seat that plays `side` in this game.
    fn seat_of(&self, side: Side) -> usize {
        usize::from(if side == Side::X {
            self.x_seat
        } else {
            self.x_seat ^ 1
        })
    }

    /// Forgets the vacations that ended by `now`; whether there were any
    /// (the players hear their clock runs again).
    pub fn vacations_over(&mut self, now: u64) -> bool {
        let mut over = false;
        for seat in self.seats.iter_mut().flatten() {
            if seat.vacation.is_some_and(|until| until <= now) {
                seat.vacation = None;
                over = true;
            }
        }
        over
    }

    /// Starts the side to move's clock at `now` (or at the end of its
    /// player's vacation).
    fn start_clock(&mut self, now: u64) {
        let from = self.runs_from(now);
        if let Some(clock) = self.clock.as_mut() {
            clock.since = Some(from);
        }
    }

    /// Player `player` is on vacation until `until` (none, or a time past:
    /// back from it): in a correspondence game in play their clock stands
    /// still till then, and runs on from their return. Returns whether
    /// anything changed.
    pub fn set_vacation(&mut self, player: i64, until: Option<u64>, now: u64) -> bool {
        if !self.by_days() {
            return false;
        }
        let until = until.filter(|&until| until > now);
        let mut changed = false;
        for seat in self.seats.iter_mut().flatten() {
            if seat.player.as_ref().is_some_and(|p| p.id == player) && seat.vacation != until {
                seat.vacation = until;
                changed = true;
            }
        }
        if changed && self.running().is_some() {
            // The time run so far is charged; the clock runs on from the
            // vacation's end, or from now.
            self.charge_clock(now);
            self.start_clock(now);
        }
        changed
    }

    /// A connection in `role` has gone.
    pub fn disconnect(&mut self, role: Role, now: u64) {
        self.settle(now);
        match role {
            Role::Spectator => self.spectators = self.spectators.saturating_sub(1),
            Role::Seat0 | Role::Seat1 => {
                let seat = usize::from(role == Role::Seat1);
                if let Some(s) = self.seats[seat].as_mut() {
                    s.connections = s.connections.saturating_sub(1);
                    if s.connections == 0 {
                        s.away_since = Some(now);
                    }
                }
            }
        }
    }

    /// Ends the game if a clock has run out or a player stayed away past
    /// the grace period. Returns whether anything changed.
    pub fn settle(&mut self, now: u64) -> bool {
        if !self.in_play() || !self.both_seated() {
            return false;
        }
        let Some(clock) = self.clock else {
            return false;
        };
        let running = self.running();
        if let Some(side) = running {
            if clock.left_at(side, running, now) == 0 {
                self.end(Some(side.other()), EndReason::Time, now);
                return true;
            }
        }
        // Away past the grace period loses, while the opponent is there
        // waiting (when both are away, nobody is kept waiting); over days,
        // being away is how the game is played.
        if self.by_days() {
            return false;
        }
        for seat in 0..2u8 {
            let away = self.seats[usize::from(seat)]
                .as_ref()
                .and_then(|s| s.away_since);
            let waiting = self.seats[usize::from(seat ^ 1)]
                .as_ref()
                .is_some_and(|s| s.connections > 0);
            if waiting && away.is_some_and(|since| now.saturating_sub(since) >= self.grace_ms) {
                let side = self.side_of(seat);
                self.end(Some(side.other()), EndReason::Time, now);
                return true;
            }
        }
        false
    }

    /// When [`Room::settle`] next has something to do, if ever.
    #[must_use]
    pub fn next_deadline(&self) -> Option<u64> {
        if !self.in_play() || !self.both_seated() {
            return None;
        }
        let clock = self.clock?;
        let flag = self
            .running()
            .and_then(|side| Some(clock.since? + clock.left[index(side)]));
        let away = (0..2)
            .filter(|_| !self.by_days())
            .filter(|&i| {
                self.seats[i ^ 1]
                    .as_ref()
                    .is_some_and(|s| s.connections > 0)
            })
            .filter_map(|i| {
                self.seats[i]
                    .as_ref()?
                    .away_since
                    .map(|t| t + self.grace_ms)
            })
            .min();
        // A vacation's end: the players hear the clock runs again.
        let back = self.seats.iter().flatten().filter_map(|s| s.vacation).min();
        [flag, away, back].into_iter().flatten().min()
    }

    /// Stops the clock and records the result.
    fn end(&mut self, winner: Option<Side>, reason: EndReason, now: u64) {
        self.stop_clock(now);
        self.result = Some(GameResult { winner, reason });
        self.draw_offer = None;
        self.conditional = Default::default();
    }

    /// Keeps `lines` as seat `seat`'s conditional moves (see
    /// `conditional.rs`): a correspondence game in play, at the opponent's
    /// move.
    ///
    /// # Errors
    /// `bad-conditional`; nothing changes then.
    fn set_conditional(&mut self, seat: u8, lines: &[Vec<Point>]) -> Result<(), Refusal> {
        let refused = |why: &str| Err(Refusal::new(ErrorCode::BadConditional, why));
        if !self.by_days() {
            return refused("conditional moves are for games of days a move");
        }
        if !self.in_play() || !self.both_seated() {
            return refused("the game is not being played");
        }
        if self.game.to_move() == self.side_of(seat) {
            return refused("it is your move: conditional moves wait for your opponent's");
        }
        conditional::check(&self.game, lines)?;
        self.conditional[usize::from(seat)] = lines.to_vec();
        Ok(())
    }

    /// The opponent's move `played` is answered at once by the
    /// conditional moves of the seat now to move, if a line of theirs
    /// begins with it; the lines that do not are over. (Only the side not
    /// to move keeps lines, so an answer never meets another's.)
    fn answer_conditionals(&mut self, played: Point, now: u64) {
        if !self.in_play() {
            return;
        }
        let side = self.game.to_move();
        let seat = self.seat_of(side);
        let lines = std::mem::take(&mut self.conditional[seat]);
        let (Some(answer), left) = conditional::answer(lines, played) else {
            return;
        };
        self.conditional[seat] = left;
        let ply = self.game.ply();
        if self
            .play(side, ply, answer.board, answer.cell, now)
            .is_err()
        {
            // Checked when kept; should the game differ, the lines end.
            self.conditional[seat].clear();
        }
    }

    /// Charges the running side for its time so far and stops its clock.
    fn stop_clock(&mut self, now: u64) {
        let running = self.running();
        if let (Some(side), Some(clock)) = (running, self.clock.as_mut()) {
            clock.left[index(side)] = clock.left_at(side, running, now);
            clock.since = None;
        }
    }

    /// What seat `seat`'s player asks for.
    ///
    /// # Errors
    /// Why it is refused; nothing changes then.
    pub fn act(&mut self, seat: u8, message: &ClientMessage, now: u64) -> Result<(), Refusal> {
        self.settle(now);
        let me = self.side_of(seat);
        match *message {
            ClientMessage::Move { ply, board, cell } => {
                self.play(me, ply, board, cell, now)?;
                self.answer_conditionals(Point { board, cell }, now);
                Ok(())
            }
            ClientMessage::Conditional { ref lines } => self.set_conditional(seat, lines),
            ClientMessage::Resign {} => {
                self.must_be_in_play()?;
                if !self.both_seated() {
                    return Err(refuse(
                        ErrorCode::NoOpponent,
                        "your opponent has not joined yet",
                    ));
                }
                self.end(Some(me.other()), EndReason::Resigned, now);
                Ok(())
            }
            // Leaving a game in play gives it up, but for one played over
            // days; leaving otherwise changes nothing here (the connection
            // goes).
            ClientMessage::Leave {} => {
                if self.in_play() && self.both_seated() && !self.by_days() {
                    self.end(Some(me.other()), EndReason::Resigned, now);
                }
                Ok(())
            }
            ClientMessage::OfferDraw {} => {
                self.must_be_in_play()?;
                if !self.both_seated() {
                    return Err(refuse(
                        ErrorCode::NoOpponent,
                        "your opponent has not joined yet",
                    ));
                }
                if self.draw_offer == Some(me.other()) {
                    self.end(None, EndReason::Agreed, now);
                } else {
                    self.draw_offer = Some(me);
                }
                Ok(())
            }
            ClientMessage::DeclineDraw {} => {
                self.must_be_in_play()?;
                if self.draw_offer != Some(me.other()) {
                    return Err(refuse(
                        ErrorCode::NoDrawOffer,
                        "there is no draw offer to decline",
                    ));
                }
                self.draw_offer = None;
                Ok(())
            }
            ClientMessage::Rematch {} => self.ask_rematch(seat, now),
            ClientMessage::Create { .. }
            | ClientMessage::Join { .. }
            | ClientMessage::Seek { .. }
            | ClientMessage::CancelSeek {}
            | ClientMessage::Challenge { .. }
            | ClientMessage::CancelChallenge {}
            | ClientMessage::AcceptChallenge { .. }
            | ClientMessage::DeclineChallenge { .. } => Err(refuse(
                ErrorCode::NotInRoom,
                "this connection is already in a room",
            )),
            // Answered by the connection itself.
            ClientMessage::Ping { .. } => Ok(()),
            // The room's task answers these (chat.rs), never its game.
            ClientMessage::Chat { .. } | ClientMessage::ReportChat { .. } => Err(refuse(
                ErrorCode::BadMessage,
                "a chat line is not an action in the game",
            )),
        }
    }

    fn must_be_in_play(&self) -> Result<(), Refusal> {
        if self.in_play() {
            Ok(())
        } else {
            Err(refuse(ErrorCode::GameOver, "the game is over"))
        }
    }

    fn play(&mut self, me: Side, ply: u32, board: u8, cell: u8, now: u64) -> Result<(), Refusal> {
        self.must_be_in_play()?;
        if !self.both_seated() {
            return Err(refuse(
                ErrorCode::NoOpponent,
                "your opponent has not joined yet",
            ));
        }
        if self.game.to_move() != me {
            return Err(refuse(ErrorCode::NotYourTurn, "it is your opponent's turn"));
        }
        if ply != self.game.ply() {
            return Err(Refusal::new(
                ErrorCode::StaleMove,
                format!(
                    "that move was for ply {ply}; the game is at ply {}",
                    self.game.ply()
                ),
            ));
        }
        self.game
            .play(board, cell)
            .map_err(|reason| Refusal::new(ErrorCode::IllegalMove, reason.to_string()))?;
        if let Some(clock) = self.clock.as_mut() {
            let spent = now.saturating_sub(clock.since.unwrap_or(now));
            let left = clock.left[index(me)].saturating_sub(spent);
            clock.left[index(me)] = clock.per_move.unwrap_or(left + clock.increment);
        }
        self.start_clock(now);
        self.draw_offer = None;
        if let Some(outcome) = self.game.outcome() {
            let (winner, reason) = match outcome {
                Outcome::Win(player) => (Some(side(player)), EndReason::Won),
                Outcome::Draw => (None, EndReason::Draw),
            };
            self.end(winner, reason, now);
        }
        Ok(())
    }

    fn ask_rematch(&mut self, seat: u8, now: u64) -> Result<(), Refusal> {
        if self.in_play() {
            return Err(refuse(
                ErrorCode::GameInPlay,
                "the game is still being played",
            ));
        }
        self.rematch[usize::from(seat)] = true;
        if self.rematch == [true, true] {
            self.game_number += 1;
            self.x_seat ^= 1;
            self.game = OnlineGame::new(self.options.kind, self.options.rules);
            self.clock = new_clock(&self.options);
            self.conditional = Default::default();
            // A game begun during a vacation runs as usual.
            for seat in self.seats.iter_mut().flatten() {
                seat.vacation = None;
            }
            self.start_clock(now);
            self.restart_absences(now);
            self.result = None;
            self.draw_offer = None;
            self.rematch = [false; 2];
        }
        Ok(())
    }

    /// The room as clients see it at `now`.
    #[must_use]
    pub fn state(&self, now: u64) -> RoomState {
        let presence = |side: Side| match &self.seats[self.seat_of(side)] {
            None => Presence::Empty,
            Some(s) if s.connections > 0 => Presence::Connected,
            Some(_) => Presence::Disconnected,
        };
        let name = |side: Side| {
            self.seats[self.seat_of(side)]
                .as_ref()
                .and_then(|s| s.player.as_ref())
                .map(|p| p.name.clone())
        };
        let running = self.running();
        // A clock standing still for a vacation is not counted down.
        let counting =
            running.filter(|_| self.clock.and_then(|c| c.since).is_none_or(|s| s <= now));
        RoomState {
            room: self.code.clone(),
            options: self.options,
            game_number: self.game_number,
            x_seat: self.x_seat,
            record: self.game.record(),
            to_move: self.game.to_move(),
            x: presence(Side::X),
            o: presence(Side::O),
            x_name: name(Side::X),
            o_name: name(Side::O),
            clock: self.clock.map(|c| ClockState {
                x_ms: c.left_at(Side::X, running, now),
                o_ms: c.left_at(Side::O, running, now),
                running: counting,
            }),
            result: self.result,
            draw_offer: self.draw_offer,
            rematch: [0u8, 1]
                .into_iter()
                .filter(|&s| self.rematch[usize::from(s)])
                .map(|s| self.side_of(s))
                .collect(),
            spectators: self.spectators,
            stakes: self.stakes,
            vacation: (0..2u8)
                .filter_map(|seat| {
                    let until = self.seats[usize::from(seat)].as_ref()?.vacation?;
                    (until > now && self.by_days()).then(|| Vacation {
                        side: self.side_of(seat),
                        until,
                    })
                })
                .collect(),
        }
    }
}

/// What of a room is kept on disk: everything but who is connected now
/// and how long the running clock has run since the last move.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Snapshot {
    /// The room's code.
    pub code: String,
    /// How it was set up.
    pub options: RoomOptions,
    /// The seats' tokens (seat 1's once it is taken).
    pub tokens: [Option<String>; 2],
    /// The seats' players, when they were signed in.
    pub players: [Option<Player>; 2],
    /// Which game of the room this is.
    pub game_number: u32,
    /// The seat that plays X.
    pub x_seat: u8,
    /// The game record.
    pub record: String,
    /// X's and O's time left as of the last move, when there is a clock.
    pub clock_left: Option<[u64; 2]>,
    /// When the side to move runs out of time by the wall clock (ms since
    /// the Unix epoch), in a correspondence game in play: its clock runs
    /// on while the room is not in memory.
    pub deadline: Option<u64>,
    /// The result, once the game has ended.
    pub result: Option<GameResult>,
    /// A standing draw offer.
    pub draw_offer: Option<Side>,
    /// Which seats asked for a rematch.
    pub rematch: [bool; 2],
    /// When each seat's player's vacation ends, while on one (see
    /// [`Room::set_vacation`]).
    pub vacation: [Option<u64>; 2],
    /// Each seat's conditional moves.
    pub conditional: [Lines; 2],
}

impl Snapshot {
    /// Whether `token` is one of the stored seats' tokens.
    #[must_use]
    pub fn seated(&self, token: Option<&str>) -> bool {
        token.is_some_and(|token| {
            self.tokens
                .iter()
                .flatten()
                .any(|seat| same_token(seat, token))
        })
    }
}

impl Room {
    /// Whether nothing was ever played here: the first game has no move.
    #[must_use]
    pub fn unplayed(&self) -> bool {
        self.game_number == 1 && self.game.ply() == 0
    }

    /// What to keep of the room on disk.
    #[must_use]
    pub fn snapshot(&self) -> Snapshot {
        Snapshot {
            code: self.code.clone(),
            options: self.options,
            tokens: [0, 1].map(|i| self.seats[i].as_ref().map(|s| s.token.clone())),
            players: [0, 1].map(|i| self.seats[i].as_ref().and_then(|s| s.player.clone())),
            game_number: self.game_number,
            x_seat: self.x_seat,
            record: self.game.record(),
            clock_left: self.clock.map(|c| c.left),
            deadline: self.deadline(),
            result: self.result,
            draw_offer: self.draw_offer,
            rematch: self.rematch,
            vacation: [0, 1].map(|i| self.seats[i].as_ref().and_then(|s| s.vacation)),
            conditional: self.conditional.clone(),
        }
    }

    /// When the side to move runs out of time, in a correspondence game in
    /// play: by the wall clock, which such a room's time is (see
    /// `Room::by_days`).
    fn deadline(&self) -> Option<u64> {
        let clock = self.clock.filter(|c| c.per_move.is_some())?;
        let side = self.running()?;
        Some(clock.since? + clock.left[index(side)])
    }

    /// The room a snapshot describes, as of `now`: nobody connected yet
    /// (the grace period for a timed game starts now), and the running
    /// clock restarted from the time it had left at the last move, so time
    /// the server was down is not charged to anyone; but a correspondence
    /// game's side to move has until its stored deadline (its time is the
    /// wall clock's), however long the room was away.
    ///
    /// # Errors
    /// When the stored record is not a legal game of the room's type.
    pub fn restore(snapshot: Snapshot, grace_ms: u64, now: u64) -> Result<Room, String> {
        let game = OnlineGame::from_record(&snapshot.record)?;
        if game.record() != snapshot.record || snapshot.x_seat > 1 {
            return Err(format!("room {} is stored inconsistently", snapshot.code));
        }
        let seat = |token: Option<String>, player: Option<Player>, vacation: Option<u64>| {
            token.map(|token| Seat {
                token,
                player,
                connections: 0,
                away_since: Some(now),
                vacation,
            })
        };
        let [t0, t1] = snapshot.tokens;
        let [p0, p1] = snapshot.players;
        let [v0, v1] = snapshot.vacation;
        let mut room = Room {
            code: snapshot.code,
            options: snapshot.options,
            seats: [seat(t0, p0, v0), seat(t1, p1, v1)],
            game_number: snapshot.game_number,
            x_seat: snapshot.x_seat,
            game,
            clock: new_clock(&snapshot.options),
            result: snapshot.result,
            draw_offer: snapshot.draw_offer,
            rematch: snapshot.rematch,
            spectators: 0,
            grace_ms,
            stakes: None,
            conditional: snapshot.conditional,
        };
        if let (Some(clock), Some(left)) = (room.clock.as_mut(), snapshot.clock_left) {
            clock.left = left;
        }
        if let Some(side) = room.running() {
            let by_days = room.by_days();
            // A correspondence clock standing still for a vacation runs from its end.
            let from = room.runs_from(now);
            if let Some(clock) = room.clock.as_mut() {
                clock.since = Some(from);
                if let (true, Some(deadline)) = (by_days, snapshot.deadline) {
                    clock.left[index(side)] = deadline.saturating_sub(from);
                }
            }
        }
        Ok(room)
    }
}

pub(crate) fn seat_role(seat: usize) -> Role {
    if seat == 0 {
        Role::Seat0
    } else {
        Role::Seat1
    }
}

/// A game's clocks at its start: a live clock's initial time, or a whole
/// day's allowance per move.
fn new_clock(options: &RoomOptions) -> Option<Clock> {
    let live = options.clock.map(|c| Clock {
        left: [u64::from(c.initial) * 1000; 2],
        increment: u64::from(c.increment) * 1000,
        per_move: None,
        since: None,
    });
    let days = options.days.map(|days| Clock {
        left: [u64::from(days) * DAY_MS; 2],
        increment: 0,
        per_move: Some(u64::from(days) * DAY_MS),
        since: None,
    });
    live.or(days)
}

#[cfg(test)]
mod tests {
    use super::*;
    use uttt_protocol::{ClockSetting, Kind, RuleSet};

    fn options(clock: Option<(u32, u32)>) -> RoomOptions {
        RoomOptions {
            days: None,
            kind: Kind::Classic,
            rules: RuleSet::Standard,
            colour: ColourChoice::X,
            clock: clock.map(|(initial, increment)| ClockSetting { initial, increment }),
            rated: false,
        }
    }

    fn mv(ply: u32, cell: u8) -> ClientMessage {
        ClientMessage::Move {
            ply,
            board: 0,
            cell,
        }
    }

    fn seated(clock: Option<(u32, u32)>) -> Room {
        let mut room = Room::new("r".into(), options(clock), "t0".into(), false);
        let (role, token) = room.join(None, None, "t1".into(), 1000).unwrap();
        assert_eq!((role, token.as_deref()), (Role::Seat1, Some("t1")));
        room
    }

    fn code(r: Result<(), Refusal>) -> ErrorCode {
        r.unwrap_err().code
    }

    #[test]
    fn seats_then_spectators_and_tokens() {
        let mut room = seated(None);
        assert_eq!(
            room.join(None, None, "unused".into(), 0).unwrap().0,
            Role::Spectator
        );
        assert_eq!(
            room.join(Some("t1"), None, "unused".into(), 0).unwrap().0,
            Role::Seat1
        );
        assert_eq!(
            room.join(Some("t9"), None, "unused".into(), 0)
                .unwrap_err()
                .code,
            ErrorCode::BadToken
        );
        assert_eq!(
            room.join(Some("t"), None, "unused".into(), 0)
                .unwrap_err()
                .code,
            ErrorCode::BadToken
        );
        assert_eq!(room.state(0).spectators, 1);
    }

    #[test]
    fn only_the_side_to_move_plays_each_ply_once() {
        let mut room = Room::new("r".into(), options(None), "t0".into(), false);
        assert_eq!(code(room.act(0, &mv(0, 4), 0)), ErrorCode::NoOpponent);
        room.join(None, None, "t1".into(), 0).unwrap();
        assert_eq!(code(room.act(1, &mv(0, 4), 0)), ErrorCode::NotYourTurn);
        room.act(0, &mv(0, 4), 0).unwrap();
        // The same frame again is stale, not a second move.
        assert_eq!(code(room.act(0, &mv(0, 4), 0)), ErrorCode::NotYourTurn);
        assert_eq!(code(room.act(1, &mv(0, 4), 0)), ErrorCode::StaleMove);
        assert_eq!(code(room.act(1, &mv(1, 4), 0)), ErrorCode::IllegalMove);
        assert_eq!(room.state(0).record, "classic:b2");
        for (ply, seat, cell) in [(1, 1, 0), (2, 0, 1), (3, 1, 2), (4, 0, 7)] {
            room.act(seat, &mv(ply, cell), 0).unwrap();
        }
        let state = room.state(0);
        assert_eq!(
            state.result,
            Some(GameResult {
                winner: Some(Side::X),
                reason: EndReason::Won
            })
        );
        assert_eq!(code(room.act(1, &mv(5, 8), 0)), ErrorCode::GameOver);
    }

    #[test]
    fn resign_draw_offers_and_rematch_with_colours_swapped() {
        let mut room = seated(None);
        assert_eq!(
            code(room.act(1, &ClientMessage::DeclineDraw {}, 0)),
            ErrorCode::NoDrawOffer
        );
        room.act(0, &ClientMessage::OfferDraw {}, 0).unwrap();
        assert_eq!(room.state(0).draw_offer, Some(Side::X));
        room.act(1, &ClientMessage::DeclineDraw {}, 0).unwrap();
        assert_eq!(room.state(0).draw_offer, None);
        room.act(0, &ClientMessage::OfferDraw {}, 0).unwrap();
        // A move by the other side withdraws the offer.
        room.act(0, &mv(0, 4), 0).unwrap();
        room.act(1, &mv(1, 0), 0).unwrap();
        assert_eq!(room.state(0).draw_offer, None);
        room.act(1, &ClientMessage::OfferDraw {}, 0).unwrap();
        room.act(0, &ClientMessage::OfferDraw {}, 0).unwrap();
        assert_eq!(
            room.state(0).result,
            Some(GameResult {
                winner: None,
                reason: EndReason::Agreed
            })
        );

        assert_eq!(
            code(room.act(0, &ClientMessage::Resign {}, 0)),
            ErrorCode::GameOver
        );
        room.act(0, &ClientMessage::Rematch {}, 0).unwrap();
        assert_eq!(room.state(0).rematch, vec![Side::X]);
        room.act(1, &ClientMessage::Rematch {}, 0).unwrap();
        let state = room.state(0);
        assert_eq!(
            (state.game_number, state.x_seat, state.record.as_str()),
            (2, 1, "classic:")
        );
        assert_eq!(room.side_of(1), Side::X);
        assert_eq!(
            code(room.act(0, &ClientMessage::Rematch {}, 0)),
            ErrorCode::GameInPlay
        );
        room.act(0, &ClientMessage::Resign {}, 0).unwrap();
        assert_eq!(
            room.state(0).result,
            Some(GameResult {
                winner: Some(Side::X),
                reason: EndReason::Resigned
            })
        );
    }

    #[test]
    fn clocks_run_for_the_side_to_move_with_increment_and_flag() {
        // 1 minute + 1 second; seat 1 joined at t = 1000.
        let mut room = seated(Some((60, 1)));
        let clock = room.state(11_000).clock.unwrap();
        assert_eq!(
            (clock.x_ms, clock.o_ms, clock.running),
            (50_000, 60_000, Some(Side::X))
        );
        room.act(0, &mv(0, 4), 11_000).unwrap();
        let clock = room.state(11_000).clock.unwrap();
        assert_eq!(
            (clock.x_ms, clock.o_ms, clock.running),
            (51_000, 60_000, Some(Side::O))
        );
        assert_eq!(room.next_deadline(), Some(71_000));
        assert!(!room.settle(70_999));
        // A move after the flag fell is refused: the game was lost on time.
        assert_eq!(code(room.act(1, &mv(1, 0), 71_000)), ErrorCode::GameOver);
        let state = room.state(80_000);
        assert_eq!(
            state.result,
            Some(GameResult {
                winner: Some(Side::X),
                reason: EndReason::Time
            })
        );
        assert_eq!(state.clock.unwrap().o_ms, 0);
        assert_eq!(state.clock.unwrap().running, None);
    }

    #[test]
    fn a_snapshot_restores_the_game_and_clock_without_charging_downtime() {
        let mut room = seated(Some((60, 2)));
        room.act(0, &mv(0, 4), 11_000).unwrap();
        room.act(0, &ClientMessage::OfferDraw {}, 11_000).unwrap();
        let snapshot = room.snapshot();
        assert_eq!(snapshot.clock_left, Some([52_000, 60_000]));
        // Down from t = 20 s to t = 500 s.
        let back = Room::restore(snapshot.clone(), GRACE_MS, 500_000).unwrap();
        assert_eq!(back.snapshot(), snapshot);
        let state = back.state(505_000);
        assert_eq!(state.record, "classic:b2");
        assert_eq!(state.draw_offer, Some(Side::X));
        assert_eq!(
            (state.x, state.o),
            (Presence::Disconnected, Presence::Disconnected)
        );
        let clock = state.clock.unwrap();
        assert_eq!(
            (clock.x_ms, clock.o_ms, clock.running),
            (52_000, 55_000, Some(Side::O))
        );
        let mut back = back;
        back.join(Some("t1"), None, "unused".into(), 505_000)
            .unwrap();
        back.act(1, &mv(1, 0), 505_000).unwrap();
        assert_eq!(back.state(505_000).record, "classic:b2a1");

        let mut broken = snapshot;
        broken.record = "classic:b2b2".into();
        assert!(Room::restore(broken, GRACE_MS, 0).is_err());
    }

    #[test]
    fn a_player_away_past_the_grace_period_loses_only_with_a_clock() {
        let mut room = seated(Some((600, 0)));
        room.disconnect(Role::Seat1, 2000);
        assert_eq!(room.state(2000).o, Presence::Disconnected);
        assert_eq!(room.next_deadline(), Some(2000 + GRACE_MS));
        // Back in time: nothing happens.
        room.join(Some("t1"), None, "unused".into(), 3000).unwrap();
        assert_eq!(room.state(3000).o, Presence::Connected);
        room.disconnect(Role::Seat1, 4000);
        assert!(room.settle(4000 + GRACE_MS));
        assert_eq!(
            room.state(0).result,
            Some(GameResult {
                winner: Some(Side::X),
                reason: EndReason::Time
            })
        );

        // Away before the opponent came (or came back): the grace period
        // starts when someone is there waiting.
        let mut early = Room::new("r".into(), options(Some((600, 0))), "t0".into(), false);
        early.disconnect(Role::Seat0, 0);
        early.join(None, None, "t1".into(), 5 * GRACE_MS).unwrap();
        assert!(!early.settle(5 * GRACE_MS));
        assert_eq!(early.next_deadline(), Some(6 * GRACE_MS));
        let mut late = seated(Some((600, 0)));
        late.disconnect(Role::Seat0, 2000);
        late.disconnect(Role::Seat1, 2000);
        late.join(Some("t1"), None, "unused".into(), 2000 + 3 * GRACE_MS)
            .unwrap();
        assert!(!late.settle(2000 + 3 * GRACE_MS));
        assert!(late.settle(2000 + 4 * GRACE_MS));

        // Both away: nobody is waiting, so nobody loses by absence.
        let mut both = seated(Some((600, 0)));
        both.disconnect(Role::Seat0, 0);
        both.disconnect(Role::Seat1, 0);
        assert!(!both.settle(2 * GRACE_MS));

        let mut untimed = seated(None);
        untimed.disconnect(Role::Seat1, 0);
        assert!(!untimed.settle(10 * GRACE_MS));
        assert_eq!(untimed.next_deadline(), None);
    }

    fn by_days(days: u8) -> Room {
        let options = RoomOptions {
            days: Some(days),
            ..options(None)
        };
        let mut room = Room::new("r".into(), options, "t0".into(), false);
        room.join(None, None, "t1".into(), 1000).unwrap();
        room
    }

    #[test]
    fn days_per_move_reset_the_movers_time_and_run_out() {
        let mut room = by_days(2);
        let clock = room.state(1000).clock.unwrap();
        assert_eq!((clock.x_ms, clock.running), (2 * DAY_MS, Some(Side::X)));
        // X takes a day and a half: O now has two days; X has two again.
        let moved = 1000 + 3 * DAY_MS / 2;
        room.act(0, &mv(0, 4), moved).unwrap();
        let clock = room.state(moved).clock.unwrap();
        assert_eq!((clock.x_ms, clock.o_ms), (2 * DAY_MS, 2 * DAY_MS));
        assert_eq!(room.next_deadline(), Some(moved + 2 * DAY_MS));
        // Its wall-clock deadline is stored, for the rooms not in memory.
        let deadline = room.snapshot().deadline;
        assert_eq!(deadline, Some(moved + 2 * DAY_MS));
        // Both players away for a day loses nothing: absence is the game.
        room.disconnect(Role::Seat0, moved);
        room.disconnect(Role::Seat1, moved);
        room.join(Some("t0"), None, "unused".into(), moved).unwrap();
        assert!(!room.settle(moved + DAY_MS));
        // Leaving is not resigning here.
        room.act(0, &ClientMessage::Leave {}, moved + DAY_MS)
            .unwrap();
        assert!(room.result.is_none());
        // O's two days run out.
        assert!(room.settle(moved + 2 * DAY_MS));
        assert_eq!(
            room.result,
            Some(GameResult {
                winner: Some(Side::X),
                reason: EndReason::Time
            })
        );
        assert_eq!(room.snapshot().deadline, None);
    }

    #[test]
    fn a_vacation_holds_the_players_correspondence_clock_till_its_end() {
        let mut room = by_days(1);
        for (seat, id) in [(0, 1), (1, 2)] {
            room.seats[seat].as_mut().unwrap().player = Some(Player {
                id,
                name: format!("p{id}"),
            });
        }
        // X (player 1), to move, goes away for three days after six hours.
        let start = 1000 + 6 * 3_600_000;
        let until = start + 3 * DAY_MS;
        assert!(room.set_vacation(1, Some(until), start));
        let state = room.state(start + DAY_MS);
        let clock = state.clock.unwrap();
        assert_eq!((clock.x_ms, clock.running), (18 * 3_600_000, None));
        assert_eq!(
            state.vacation,
            [Vacation {
                side: Side::X,
                until
            }]
        );
        assert_eq!(room.snapshot().deadline, Some(until + 18 * 3_600_000));
        assert!(!room.settle(until));
        // Read back from the store, the clock still stands.
        let back = Room::restore(room.snapshot(), GRACE_MS, start + DAY_MS).unwrap();
        assert_eq!(back.snapshot().deadline, Some(until + 18 * 3_600_000));
        // X moves during it; O's day runs as usual.
        room.act(0, &mv(0, 4), start + DAY_MS).unwrap();
        assert_eq!(room.next_deadline(), Some(start + 2 * DAY_MS));
        // O moves: X's new day starts when the vacation ends.
        room.act(1, &mv(1, 0), start + 2 * DAY_MS - 5).unwrap();
        assert_eq!(room.snapshot().deadline, Some(until + DAY_MS));
        // Back early: the day runs from the return.
        let back_at = start + 2 * DAY_MS;
        assert!(room.set_vacation(1, None, back_at));
        assert_eq!(room.snapshot().deadline, Some(back_at + DAY_MS));
        assert!(room.state(back_at).vacation.is_empty());
        assert!(!room.set_vacation(1, None, back_at), "nothing changed");
        // A live game has no vacations.
        let mut live = Room::new("l".into(), options(Some((60, 0))), "t0".into(), false);
        live.join(None, None, "t1".into(), 1000).unwrap();
        assert!(!live.set_vacation(1, Some(until), start));
    }

    #[test]
    fn a_stored_correspondence_game_counts_the_days_it_was_away() {
        let mut room = by_days(1);
        room.act(0, &mv(0, 4), 2000).unwrap();
        let snapshot = room.snapshot();
        let deadline = snapshot.deadline.unwrap();
        // Back 20 hours later by the wall clock: O has 4 hours left.
        let now = deadline - DAY_MS + 20 * 3_600_000;
        let back = Room::restore(snapshot, GRACE_MS, now).unwrap();
        let clock = back.state(now).clock.unwrap();
        assert_eq!((clock.o_ms, clock.running), (4 * 3_600_000, Some(Side::O)));
        assert_eq!(back.snapshot().deadline, Some(deadline));
        // Back after the deadline: the game ends at once, on time.
        let mut late = Room::restore(room.snapshot(), GRACE_MS, deadline + 5).unwrap();
        assert_eq!(late.next_deadline(), Some(deadline + 5));
        assert!(late.settle(deadline + 5));
        assert_eq!(late.result.unwrap().reason, EndReason::Time);
    }

    #[test]
    fn a_signed_in_player_comes_back_to_their_seat_from_anywhere() {
        let mut room = by_days(3);
        let ann = Player {
            id: 7,
            name: "ann".into(),
        };
        room.assign_player(Role::Seat1, Some(ann.clone()));
        let stranger = Player {
            id: 8,
            name: "bob".into(),
        };
        assert_eq!(
            room.join(None, Some(&ann), "unused".into(), 2000).unwrap(),
            (Role::Seat1, Some("t1".to_string()))
        );
        assert_eq!(
            room.join(None, Some(&stranger), "unused".into(), 2000)
                .unwrap(),
            (Role::Spectator, None)
        );
    }
}
