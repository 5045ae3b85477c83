// The online protocol's messages, written from crates/protocol by its
// test module page.rs: do not edit. Every frame also carries `v`.

export type Kind = "ultimate" | "classic";
export type RuleSet = "standard" | "tiebreak";
export type Side = "x" | "o";
export type ColourChoice = "x" | "o" | "random";
export type ClockSetting = { 
/**
 * Seconds for each side at the start: 10 to 3600.
 */
initial: number, 
/**
 * Seconds added after each move: 0 to 60.
 */
increment: number, };
export type RoomOptions = { 
/**
 * Ultimate or Classic.
 */
kind: Kind, 
/**
 * Standard or tie-break (Classic always plays standard).
 */
rules: RuleSet, 
/**
 * The creator's side.
 */
colour: ColourChoice, 
/**
 * The clock, or none.
 */
clock: ClockSetting | null, 
/**
 * Days per move, for a correspondence game (never with a clock;
 * absent: none).
 */
days?: number, 
/**
 * Whether its games change the players' ratings: only between two
 * signed-in players (absent: not rated).
 */
rated: boolean, };
export type SeekOptions = { 
/**
 * Ultimate or Classic.
 */
kind: Kind, 
/**
 * Standard or tie-break (Classic always plays standard).
 */
rules: RuleSet, 
/**
 * The clock (none for a correspondence game).
 */
clock: ClockSetting | null, 
/**
 * Days per move, for a correspondence game (absent: none).
 */
days?: number, 
/**
 * Rated (for signed-in players), or casual.
 */
rated: boolean, };
export type ClientMessage = { "type": "create", 
/**
 * How the room is set up.
 */
options: RoomOptions, } | { "type": "join", 
/**
 * The room's code, from the invitation link.
 */
room: string, 
/**
 * The seat token the server gave this client earlier, if any.
 */
token: string | null, } | { "type": "move", 
/**
 * The number of moves on the board before this one.
 */
ply: number, 
/**
 * The small board, 0-8 in reading order.
 */
board: number, 
/**
 * The cell, 0-8 in reading order.
 */
cell: number, } | { "type": "resign", } | { "type": "offerDraw", } | { "type": "declineDraw", } | { "type": "rematch", } | { "type": "leave", } | { "type": "seek", 
/**
 * The game asked for.
 */
seek: SeekOptions, } | { "type": "cancelSeek", } | { "type": "challenge", 
/**
 * The game offered; `colour` is the challenger's side.
 */
options: RoomOptions, 
/**
 * The one player who may accept it; absent: anyone.
 */
to: string | null, } | { "type": "cancelChallenge", } | { "type": "acceptChallenge", 
/**
 * The challenge's id (`challenging`, `GET /api/challenges`).
 */
id: string, } | { "type": "declineChallenge", 
/**
 * The challenge's id.
 */
id: string, } | { "type": "ping", 
/**
 * Chosen by the client.
 */
id: number, } | { "type": "chat", 
/**
 * A preset message.
 */
preset: ChatPreset | null, 
/**
 * Typed words.
 */
text: string | null, } | { "type": "reportChat", 
/**
 * The line's id (`chat`).
 */
id: number, } | { "type": "conditional", 
/**
 * The lines.
 */
lines: Array<Array<Point>>, };
export type Point = { 
/**
 * The small board, 0-8 in reading order (Classic: 0).
 */
board: number, 
/**
 * The cell, 0-8 in reading order.
 */
cell: number, };
export type ErrorCode = "bad-frame" | "bad-message" | "bad-version" | "bad-options" | "not-in-room" | "no-such-room" | "bad-token" | "not-a-player" | "no-opponent" | "not-your-turn" | "stale-move" | "illegal-move" | "game-over" | "game-in-play" | "no-draw-offer" | "rate-limited" | "server-full" | "server-error" | "seeking" | "not-seeking" | "not-signed-in" | "no-such-player" | "own-challenge" | "not-for-you" | "too-many-challenges" | "no-such-challenge" | "challenge-withdrawn" | "challenge-expired" | "challenge-taken" | "challenge-declined" | "not-challenging" | "bad-chat" | "no-such-line" | "bad-conditional";
export type ChallengeEnd = "declined" | "withdrawn" | "expired";
export type ChatPreset = "hello" | "goodLuck" | "goodGame" | "thanks" | "wellPlayed" | "rematch";
export type ChatChannel = "players" | "spectators";
export type ChatLine = { 
/**
 * Its number in the room (reports name it).
 */
id: number, 
/**
 * Whose chat.
 */
channel: ChatChannel, 
/**
 * The side of the player who said it (players' chat).
 */
side: Side | null, 
/**
 * Who said it: a signed-in player's name, or none for a guest.
 */
name: string | null, 
/**
 * A preset message...
 */
preset: ChatPreset | null, 
/**
 * ...or typed words (shown as text, never as markup or a link).
 */
text: string | null, 
/**
 * When, in milliseconds since the Unix epoch.
 */
at: number, };
export type Presence = "empty" | "connected" | "disconnected";
export type EndReason = "won" | "draw" | "resigned" | "agreed" | "time";
export type GameResult = { 
/**
 * The winner, or none for a draw.
 */
winner: Side | null, 
/**
 * Why.
 */
reason: EndReason, };
export type ClockState = { 
/**
 * X's time left, in milliseconds.
 */
xMs: number, 
/**
 * O's time left, in milliseconds.
 */
oMs: number, 
/**
 * The side whose clock is running, if any.
 */
running: Side | null, };
export type RoomState = { 
/**
 * The room's code.
 */
room: string, 
/**
 * How it was set up.
 */
options: RoomOptions, 
/**
 * Which game of the room this is: 1, then 2 after a rematch, ...
 */
gameNumber: number, 
/**
 * Who holds X in this game and who holds O, as seats 0 and 1: the
 * creator is seat 0. Colours swap at each rematch.
 */
xSeat: number, 
/**
 * The game record (`ultimate-standard:e5e4`), the core's notation.
 */
record: string, 
/**
 * The side to move (also after the end: who would move next).
 */
toMove: Side, 
/**
 * Whether X's and O's seats are taken and connected.
 */
x: Presence, 
/**
 * O's seat.
 */
o: Presence, 
/**
 * The name of the player holding X's seat, when they were signed in.
 */
xName: string | null, 
/**
 * The name of the player holding O's seat, when they were signed in.
 */
oName: string | null, 
/**
 * The clocks, when the room has one.
 */
clock: ClockState | null, 
/**
 * The result, once the game has ended.
 */
result: GameResult | null, 
/**
 * The side that offered a draw, while the offer stands.
 */
drawOffer: Side | null, 
/**
 * The sides that asked for a rematch since the game ended.
 */
rematch: Array<Side>, 
/**
 * How many people are watching.
 */
spectators: number, 
/**
 * What the game does to each side's rating, when it is rated and
 * both players' ratings are known.
 */
stakes: Stakes | null, 
/**
 * The sides whose player is on vacation (a correspondence game): their
 * clock stands still until then.
 */
vacation: Array<Vacation>, };
export type SideStakes = { 
/**
 * The rating before the game.
 */
rating: number, 
/**
 * Whether it is provisional (RD of 110 or more).
 */
provisional: boolean, 
/**
 * The change a win would make.
 */
win: number, 
/**
 * The change a draw would make.
 */
draw: number, 
/**
 * The change a loss would make.
 */
loss: number, 
/**
 * The rating after the game, once the game was rated.
 */
after: number | null, };
export type Stakes = { 
/**
 * X's.
 */
x: SideStakes, 
/**
 * O's.
 */
o: SideStakes, };
export type Vacation = { 
/**
 * The side.
 */
side: Side, 
/**
 * When its player's vacation ends (ms since the Unix epoch).
 */
until: number, };
export type Role = "seat0" | "seat1" | "spectator";
export type ServerMessage = { "type": "joined", 
/**
 * The room's code.
 */
room: string, 
/**
 * Seat or spectator.
 */
role: Role, 
/**
 * The seat's token; `null` for spectators.
 */
token: string | null, } | { "type": "state", 
/**
 * The room (boxed: it is many times the size of the other
 * messages).
 */
state: RoomState, 
/**
 * The server's time in milliseconds since the Unix epoch, when the
 * state was sent: clients count down from it.
 */
serverTime: number, } | { "type": "error", 
/**
 * Why, for programs.
 */
code: ErrorCode, 
/**
 * Why, for people (English).
 */
message: string, } | { "type": "pong", 
/**
 * The ping's id.
 */
id: number, } | { "type": "spectators", 
/**
 * Connections watching.
 */
count: number, } | { "type": "seeking", 
/**
 * The game asked for.
 */
seek: SeekOptions, 
/**
 * Players waiting in this pool, the asker included.
 */
waiting: number, 
/**
 * The rating the asker is paired by (whole points).
 */
rating: number, 
/**
 * Whether that rating is provisional.
 */
provisional: boolean, } | { "type": "seekEnded", } | { "type": "challenging", 
/**
 * The challenge's id, as others see it in `GET /api/challenges`.
 */
id: string, } | { "type": "challengeEnded", 
/**
 * The challenge's id.
 */
id: string, 
/**
 * Why it ended.
 */
reason: ChallengeEnd, } | { "type": "chat", 
/**
 * The line.
 */
line: ChatLine, } | { "type": "chatHistory", 
/**
 * Oldest first.
 */
lines: Array<ChatLine>, } | { "type": "conditional", 
/**
 * What is left of each line, from the opponent's next move.
 */
lines: Array<Array<Point>>, };
