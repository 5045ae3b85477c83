//! What a player is told of their games, from what the store holds of a
//! room before and after a change: "your move" and "game over" in a
//! correspondence game, and the reminder before a move's days run out. A
//! live game is played with the page open, so it sends none.

use serde_json::json;
use uttt_protocol::{RoomOptions, Side};

use super::{Kind, Notice};
use crate::game::OnlineGame;
use crate::players::Player;
use crate::room::Snapshot;

/// A day, in milliseconds.
const DAY_MS: u64 = 86_400_000;
/// How long a notice of a move or an end may wait at the push service
/// for a device that is off (a day; a reminder or "your move" waits no
/// longer than the move's deadline).
const KEEP_MS: u64 = DAY_MS;

/// When the side to move in `s` is reminded: a quarter of the move's
/// days before its deadline, a day at most (6 hours in a game of a day a
/// move, a day from 4 days a move on). None out of a correspondence game
/// in play.
#[must_use]
pub fn remind_at(s: &Snapshot) -> Option<u64> {
    let days = u64::from(s.options.days?);
    let deadline = s.deadline?;
    s.result
        .is_none()
        .then(|| deadline.saturating_sub((days * DAY_MS / 4).min(DAY_MS)))
}

/// The seat whose move it is in `s`, both seats taken and the game in
/// play (none when its record cannot be read).
fn seat_to_move(s: &Snapshot) -> Option<usize> {
    if s.result.is_some() || s.tokens[1].is_none() {
        return None;
    }
    let to_move = OnlineGame::from_record(&s.record).ok()?.to_move();
    let x = usize::from(s.x_seat);
    Some(if to_move == Side::X { x } else { x ^ 1 })
}

/// The notices a stored change from `before` to `after` makes: in a
/// correspondence game, "your move" to the player whose move it now is
/// (a move, a take-back, the game's start or a rematch's), "game over"
/// to both players when it ends.
#[must_use]
pub fn of_change(before: &Snapshot, after: &Snapshot) -> Vec<Notice> {
    if after.options.days.is_none() {
        return Vec::new();
    }
    let same_game = before.game_number == after.game_number;
    if after.result.is_some() {
        return if same_game && before.result.is_some() {
            Vec::new()
        } else {
            game_over(after)
        };
    }
    let turn_changed = !same_game
        || before.record != after.record
        || before.tokens[1].is_none()
        || before.result.is_some();
    match seat_to_move(after) {
        Some(seat) if turn_changed => your_move(after, seat, Kind::YourMove).into_iter().collect(),
        _ => Vec::new(),
    }
}

/// The reminder to the side to move in `s` that its days are running out
/// (see [`remind_at`]).
#[must_use]
pub fn reminder(s: &Snapshot) -> Option<Notice> {
    your_move(s, seat_to_move(s)?, Kind::Reminder)
}

/// The topic of game `s` (its room's code and number: 16 base32
/// characters and a few digits, within a topic's 32): a newer notice of
/// the game replaces an older one at the push service and on the screen.
fn topic(s: &Snapshot) -> String {
    format!("{}{}", s.code, s.game_number)
}

/// "Your move" (or its reminder) to the player in `seat`, if one sits
/// there: it waits at the push service until the move's deadline.
fn your_move(s: &Snapshot, seat: usize, kind: Kind) -> Option<Notice> {
    let player = s.players[seat].as_ref()?;
    Some(Notice {
        player: player.id,
        kind,
        payload: json!({
            "kind": kind.name(),
            "room": s.code,
            "opponent": opponent(s, seat),
            "deadline": s.deadline,
            "options": s.options,
            "tag": topic(s),
        }),
        keep_ms: s
            .deadline
            .map_or(KEEP_MS, |d| d.saturating_sub(crate::clock::epoch_ms())),
        topic: Some(topic(s)),
    })
}

/// "Game over" to each player of `s`, with the outcome from their side.
fn game_over(s: &Snapshot) -> Vec<Notice> {
    let Some(result) = &s.result else {
        return Vec::new();
    };
    (0..2)
        .filter_map(|seat| {
            let player = s.players[seat].as_ref()?;
            let side = if seat == usize::from(s.x_seat) {
                Side::X
            } else {
                Side::O
            };
            let outcome = match result.winner {
                None => "draw",
                Some(winner) if winner == side => "win",
                Some(_) => "loss",
            };
            Some(Notice {
                player: player.id,
                kind: Kind::GameOver,
                payload: json!({
                    "kind": Kind::GameOver.name(),
                    "room": s.code,
                    "opponent": opponent(s, seat),
                    "outcome": outcome,
                    "reason": result.reason,
                    "options": s.options,
                    "tag": topic(s),
                }),
                keep_ms: KEEP_MS,
                topic: Some(topic(s)),
            })
        })
        .collect()
}

/// "Challenge received" to player `to`: challenge `id` of player `from`
/// to a game of `options` (their side is the challenger's), which waits
/// at most `wait`, and so does the notice; a newer one of the same
/// challenger replaces it.
#[must_use]
pub fn challenge(
    to: i64,
    from: &Player,
    options: &RoomOptions,
    id: &str,
    wait: std::time::Duration,
) -> Notice {
    let topic = format!("challenge{}", from.id);
    Notice {
        player: to,
        kind: Kind::Challenge,
        payload: json!({
            "kind": Kind::Challenge.name(),
            "id": id,
            "from": from.name,
            "options": options,
            "tag": topic,
        }),
        keep_ms: u64::try_from(wait.as_millis()).unwrap_or(u64::MAX),
        topic: Some(topic),
    }
}

/// The name of the player facing `seat`, if signed in.
fn opponent(s: &Snapshot, seat: usize) -> Option<&str> {
    s.players[seat ^ 1].as_ref().map(|p| p.name.as_str())
}

#[cfg(test)]
mod tests {
    use uttt_protocol::{ColourChoice, EndReason, GameResult, Kind as GameKind, RuleSet};

    use super::*;

    fn days_game(record: &str) -> Snapshot {
        Snapshot {
            code: "ROOM".into(),
            options: RoomOptions {
                kind: GameKind::Ultimate,
                rules: RuleSet::Standard,
                colour: ColourChoice::X,
                clock: None,
                days: Some(2),
                rated: true,
            },
            tokens: [Some("a".into()), Some("b".into())],
            players: [
                Some(Player {
                    id: 1,
                    name: "Ann".into(),
                }),
                Some(Player {
                    id: 2,
                    name: "Bob".into(),
                }),
            ],
            game_number: 1,
            x_seat: 0,
            record: record.into(),
            clock_left: None,
            deadline: Some(10 * DAY_MS),
            result: None,
            draw_offer: None,
            rematch: [false; 2],
            vacation: [None; 2],
            conditional: Default::default(),
        }
    }

    fn record(moves: &[(u8, u8)]) -> String {
        let mut game = OnlineGame::new(GameKind::Ultimate, RuleSet::Standard);
        for &(board, cell) in moves {
            game.play(board, cell).unwrap();
        }
        game.record()
    }

    #[test]
    fn a_move_tells_the_player_to_move_and_nobody_else() {
        let before = days_game(&record(&[]));
        let after = days_game(&record(&[(4, 4)]));
        let notices = of_change(&before, &after);
        assert_eq!(notices.len(), 1);
        assert_eq!((notices[0].player, notices[0].kind), (2, Kind::YourMove));
        assert_eq!(notices[0].payload["opponent"], "Ann");
        assert_eq!(notices[0].payload["room"], "ROOM");
        // A change that is not a move (a draw offer) tells nobody.
        let mut offered = after.clone();
        offered.draw_offer = Some(Side::O);
        assert!(of_change(&after, &offered).is_empty());
    }

    #[test]
    fn the_start_of_a_game_tells_x() {
        let mut waiting = days_game(&record(&[]));
        waiting.tokens[1] = None;
        waiting.players[1] = None;
        let started = days_game(&record(&[]));
        let notices = of_change(&waiting, &started);
        assert_eq!(notices.len(), 1);
        assert_eq!((notices[0].player, notices[0].kind), (1, Kind::YourMove));
    }

    #[test]
    fn the_end_tells_both_their_outcome_once() {
        let before = days_game(&record(&[(4, 4)]));
        let mut after = before.clone();
        after.result = Some(GameResult {
            winner: Some(Side::O),
            reason: EndReason::Resigned,
        });
        let notices = of_change(&before, &after);
        let outcomes: Vec<_> = notices
            .iter()
            .map(|n| (n.player, n.kind, n.payload["outcome"].as_str().unwrap()))
            .collect();
        assert_eq!(
            outcomes,
            [(1, Kind::GameOver, "loss"), (2, Kind::GameOver, "win")]
        );
        let mut again = after.clone();
        again.rematch = [true, false];
        assert!(of_change(&after, &again).is_empty());
    }

    #[test]
    fn a_live_game_tells_nobody() {
        let mut before = days_game(&record(&[]));
        before.options.days = None;
        let mut after = days_game(&record(&[(4, 4)]));
        after.options.days = None;
        assert!(of_change(&before, &after).is_empty());
        assert_eq!(remind_at(&after), None);
    }

    #[test]
    fn the_reminder_comes_a_quarter_of_the_days_before_a_day_at_most() {
        let mut s = days_game(&record(&[(4, 4)]));
        assert_eq!(remind_at(&s), Some(10 * DAY_MS - DAY_MS / 2));
        s.options.days = Some(1);
        assert_eq!(remind_at(&s), Some(10 * DAY_MS - DAY_MS / 4));
        s.options.days = Some(14);
        assert_eq!(remind_at(&s), Some(9 * DAY_MS));
        let notice = reminder(&s).unwrap();
        assert_eq!((notice.player, notice.kind), (2, Kind::Reminder));
        s.result = Some(GameResult {
            winner: None,
            reason: EndReason::Agreed,
        });
        assert_eq!(remind_at(&s), None);
        assert!(reminder(&s).is_none());
    }
}
