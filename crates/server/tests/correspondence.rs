//! Correspondence games (days per move) against a real `uttt-server`: a
//! rated game of a day a move between two signed-in players, who leave
//! and come back (one from another device, by their session alone), the
//! "Your move" list (`GET /api/me/playing`), and the day running out while
//! the room is not in memory: the server's clocks are moved forward
//! (`POST /test/clock`, the failpoints build), nobody waits a day.

use std::time::Duration;

use crate::support::api::{call, json, new_player, player, Who};
use crate::support::client::{mv, ultimate_by_days, Client};
use crate::support::{challenged, fresh_db, players_server, skip, Server};
use uttt_protocol::{
    ClientMessage, ClockSetting, EndReason, ErrorCode, Kind, Role, RoomOptions, RuleSet,
    SeekOptions, ServerMessage, Side,
};

const DAY_MS: u64 = 86_400_000;

fn server() -> Server {
    // Rooms nobody is in leave memory at once: the day runs out in the
    // store, where only the watch of overdue games finds it.
    players_server("correspondence", &fresh_db(), &["--idle-room-ms", "100"])
}

/// `GET /api/me/playing` as the player with session `secret`.
fn playing(server: &Server, secret: &str) -> Vec<serde_json::Value> {
    let cookie = format!("Cookie: uttt_session={secret}");
    let answer = json(&server.get("/api/me/playing", &[&cookie]));
    answer["games"]
        .as_array()
        .unwrap_or_else(|| panic!("no games in {answer}"))
        .clone()
}

/// The seat `client` was given in a room: its code, role and token.
fn joined(client: &mut Client) -> (String, Role, Option<String>) {
    client.until_within(Duration::from_secs(30), "joined", |m| match m {
        ServerMessage::Joined { room, role, token } => Some((room.clone(), *role, token.clone())),
        ServerMessage::Error { code, message } => panic!("refused: {code:?} {message}"),
        _ => None,
    })
}

/// Waits until room `code` has left the server's memory: a watcher's join
/// reads it back then, so its first state counts no other watcher.
fn put_away(server: &Server, code: &str) {
    for _ in 0..100 {
        std::thread::sleep(Duration::from_millis(100));
        let mut watcher = Client::connect(server.addr);
        watcher.send(&ClientMessage::Join {
            room: code.to_string(),
            token: None,
        });
        if watcher.state(|_| true).spectators == 1 {
            return;
        }
    }
    panic!("room {code} stayed in memory");
}

#[test]
fn a_day_a_move_game_is_played_over_days_and_lost_on_time_unattended() {
    let server = server();
    let (ann, ann_name) = player(&server);
    let (bob, bob_name) = player(&server);
    let (mut a, mut b, code) = challenged(&server, &ann, ultimate_by_days(1), (&bob, &bob_name));
    let state = a.state(|s| s.o_name.is_some());
    assert_eq!(state.options.days, Some(1));
    let clock = state.clock.expect("a day clock");
    assert_eq!(clock.running, Some(Side::X));
    assert!(
        clock.x_ms > DAY_MS - 60_000 && clock.x_ms <= DAY_MS,
        "{clock:?}"
    );

    // Five moves (a game of fewer than four is not rated), O to move.
    for (ply, board, cell) in [(0, 4, 4), (1, 4, 0), (2, 0, 4), (3, 4, 8), (4, 8, 4)] {
        let mover = if ply % 2 == 0 { &mut a } else { &mut b };
        mover.send(&mv(ply, board, cell));
        let plies = ply + 1;
        let seen = |s: &uttt_protocol::RoomState| {
            s.record.split(':').nth(1).unwrap_or("").len() == 2 * plies as usize
        };
        a.state(seen);
        b.state(seen);
    }
    // Both go away; the game goes on (nobody loses for being away).
    drop(a);
    drop(b);
    put_away(&server, &code);

    // Bob's move, on every device he is signed in on.
    let bobs = playing(&server, &bob);
    assert_eq!(bobs.len(), 1, "{bobs:?}");
    let game = &bobs[0];
    assert_eq!(game["room"], code.as_str());
    assert_eq!(game["yourMove"], true);
    assert_eq!(game["side"], "o");
    assert_eq!(game["opponent"], ann_name.as_str());
    assert_eq!(game["days"], 1);
    assert_eq!(game["ply"], 5);
    assert!(game["deadline"].as_u64().is_some(), "{game}");
    let anns = playing(&server, &ann);
    assert_eq!(anns[0]["yourMove"], false);

    // Bob on a new device: his session alone brings him to his seat.
    let mut phone = Client::connect_as(server.addr, Some(&bob));
    phone.send(&ClientMessage::Join {
        room: code.clone(),
        token: None,
    });
    let (_, role, token) = joined(&mut phone);
    assert_eq!(role, Role::Seat1);
    assert!(token.is_some());
    // A stranger's session is no seat's.
    let (carl, _) = player(&server);
    let mut stranger = Client::connect_as(server.addr, Some(&carl));
    stranger.send(&ClientMessage::Join {
        room: code.clone(),
        token: None,
    });
    assert_eq!(joined(&mut stranger).1, Role::Spectator);
    drop(phone);
    drop(stranger);
    put_away(&server, &code);

    // Twenty-three hours pass: nothing happens.
    let woken_after = |ms: u64| skip(&server, ms)["woken"].as_u64().unwrap();
    assert_eq!(woken_after(23 * 3_600_000), 0);
    assert_eq!(playing(&server, &bob).len(), 1);
    // A day and a minute: Bob's day ran out while nobody was there.
    assert_eq!(woken_after(3_600_000 + 60_000), 1);
    let mut watcher = Client::connect(server.addr);
    watcher.send(&ClientMessage::Join {
        room: code.clone(),
        token: None,
    });
    let end = watcher.state(|s| s.result.is_some()).result.unwrap();
    assert_eq!((end.winner, end.reason), (Some(Side::X), EndReason::Time));
    assert!(playing(&server, &ann).is_empty());
    // Rated as a correspondence game.
    let profile = json(&server.get(&format!("/api/players/{ann_name}"), &[]));
    let rated = &profile["perfs"]["ultimate-correspondence"];
    assert_eq!(rated["games"], 1, "{profile}");
    assert!(rated["rating"].as_f64().unwrap() > 1500.0, "{profile}");
}

#[test]
fn days_per_move_are_checked_and_offered_by_play_now() {
    let server = server();
    let (ann, _) = player(&server);
    let mut a = Client::connect_as(server.addr, Some(&ann));
    let refused = |a: &mut Client, options: RoomOptions| {
        a.send(&ClientMessage::Create { options });
        a.error()
    };
    let four = RoomOptions {
        days: Some(4),
        ..ultimate_by_days(1)
    };
    assert_eq!(refused(&mut a, four), ErrorCode::BadOptions);
    let both = RoomOptions {
        clock: Some(ClockSetting {
            initial: 60,
            increment: 0,
        }),
        ..ultimate_by_days(1)
    };
    assert_eq!(refused(&mut a, both), ErrorCode::BadOptions);
    let untimed = RoomOptions {
        days: None,
        ..ultimate_by_days(1)
    };
    assert_eq!(refused(&mut a, untimed), ErrorCode::BadOptions);

    // Play now pairs two seekers of three days a move.
    let seek = SeekOptions {
        kind: Kind::Classic,
        rules: RuleSet::Standard,
        clock: None,
        days: Some(3),
        rated: false,
    };
    let pools = json(&server.get("/api/pools", &[]));
    let offered: Vec<_> = pools["pools"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|p| p["days"].as_u64())
        .collect();
    assert_eq!(offered.len(), 36, "{pools}");
    let mut x = Client::connect(server.addr);
    let mut y = Client::connect(server.addr);
    x.send(&ClientMessage::Seek { seek });
    y.send(&ClientMessage::Seek { seek });
    joined(&mut x);
    joined(&mut y);
    let state = x.state(|s| s.o != uttt_protocol::Presence::Empty);
    assert_eq!(state.options.days, Some(3));
    let x_ms = state.clock.unwrap().x_ms;
    assert!(x_ms > 3 * DAY_MS - 60_000 && x_ms <= 3 * DAY_MS, "{x_ms}");
}

/// `METHOD /api/me/vacation` as the page of `who`.
fn vacation(server: &Server, method: &str, who: &Who, body: &str) -> crate::support::api::Reply {
    call(server, method, "/api/me/vacation", who, body)
}

#[test]
fn a_vacation_holds_a_players_days_and_gives_back_the_unused_ones() {
    let server = server();
    let (ann, _, _) = new_player(&server);
    let (bob, bob_name, bob_csrf) = new_player(&server);
    let page = Who::page(&bob, &bob_csrf);
    // The days of a year are counted in that year: away from its end.
    skip(&server, to_next_june());
    let (mut a, mut b, code) = challenged(&server, &ann, ultimate_by_days(1), (&bob, &bob_name));
    a.send(&mv(0, 4, 4));
    b.state(|s| s.to_move == Side::O);

    // Bob, to move, leaves for three days: his clock stands still, and
    // both players see it.
    let away = vacation(&server, "POST", &page, r#"{"days": 3}"#);
    assert_eq!(away.status, 200, "{}", away.raw);
    assert_eq!(away.body["daysLeft"], 11);
    let until = away.body["until"].as_u64().unwrap();
    let state = a.state(|s| !s.vacation.is_empty());
    assert_eq!(
        (state.vacation[0].side, state.vacation[0].until),
        (Side::O, until)
    );
    assert_eq!(state.clock.unwrap().running, None);
    // Refused: a second one, or a bad length.
    assert_eq!(
        vacation(&server, "POST", &page, r#"{"days": 1}"#).error(),
        "on-vacation"
    );
    drop(a);
    drop(b);
    put_away(&server, &code);

    // Two days pass: nothing is lost.
    let woken_after = |ms: u64| skip(&server, ms)["woken"].as_u64().unwrap();
    assert_eq!(woken_after(2 * DAY_MS + 3_600_000), 0);
    let held = playing(&server, &bob)[0]["deadline"].as_u64().unwrap();
    assert!(held > until + DAY_MS - 60_000, "{held} {until}");

    // Back early (no whole day unused): his day runs from now.
    let back = vacation(&server, "DELETE", &page, "");
    assert_eq!(back.status, 200, "{}", back.raw);
    assert_eq!(
        (back.body["daysLeft"].clone(), back.body["until"].clone()),
        (serde_json::json!(11), serde_json::Value::Null)
    );
    assert_eq!(
        vacation(&server, "DELETE", &page, "").error(),
        "not-on-vacation"
    );
    // The rooms are told in the background: the stored deadline follows.
    let runs_again = (0..100).any(|_| {
        let deadline = playing(&server, &bob)[0]["deadline"].as_u64().unwrap();
        deadline + 22 * 3_600_000 < held || {
            std::thread::sleep(Duration::from_millis(100));
            false
        }
    });
    assert!(runs_again, "the clock still stands");
    assert_eq!(woken_after(DAY_MS + 60_000), 1);
    let mut watcher = Client::connect(server.addr);
    watcher.send(&ClientMessage::Join {
        room: code,
        token: None,
    });
    let end = watcher.state(|s| s.result.is_some()).result.unwrap();
    assert_eq!((end.winner, end.reason), (Some(Side::X), EndReason::Time));

    // The API's checks.
    for (body, code) in [
        (r#"{"days": 0}"#, "bad-days"),
        (r#"{"days": 12}"#, "bad-days"),
        ("{}", "bad-days"),
    ] {
        let refused = vacation(&server, "POST", &page, body);
        assert_eq!((refused.status, refused.error()), (400, code), "{body}");
    }
    let no_token = Who {
        csrf: None,
        ..page.clone()
    };
    assert_eq!(
        vacation(&server, "POST", &no_token, r#"{"days": 1}"#).status,
        403
    );
    assert_eq!(vacation(&server, "GET", &Who::default(), "").status, 401);
    let seen = vacation(&server, "GET", &page, "");
    assert_eq!(
        (
            seen.body["daysPerYear"].clone(),
            seen.body["daysLeft"].clone()
        ),
        (serde_json::json!(14), serde_json::json!(11))
    );
}

fn point(board: u8, cell: u8) -> uttt_protocol::Point {
    uttt_protocol::Point { board, cell }
}

/// The next `conditional` frame `client` hears.
fn conditional_of(client: &mut Client) -> Vec<Vec<uttt_protocol::Point>> {
    client.until("conditional moves", |m| match m {
        ServerMessage::Conditional { lines } => Some(lines.clone()),
        ServerMessage::Error { code, message } => panic!("refused: {code:?} {message}"),
        _ => None,
    })
}

#[test]
fn conditional_moves_answer_at_once_are_kept_and_told_to_their_seat_alone() {
    let server = server();
    let (ann, _) = player(&server);
    let (bob, bob_name) = player(&server);
    let (mut a, mut b, code) = challenged(&server, &ann, ultimate_by_days(1), (&bob, &bob_name));
    let mut watcher = Client::connect(server.addr);
    watcher.send(&ClientMessage::Join {
        room: code.clone(),
        token: None,
    });
    a.send(&mv(0, 4, 4));
    b.state(|s| s.to_move == Side::O);
    // Not at one's own move.
    b.send(&ClientMessage::Conditional {
        lines: vec![vec![point(0, 4), point(4, 8)]],
    });
    assert_eq!(b.error(), ErrorCode::BadConditional);
    b.send(&mv(1, 4, 0));
    b.state(|s| s.to_move == Side::X);

    // At Ann's move, Bob plans: if a1-ish (board 0, cell 0), answer in it.
    let lines = vec![
        vec![point(0, 4), point(4, 8)],
        vec![point(0, 0), point(0, 4), point(4, 1), point(1, 4)],
    ];
    b.send(&ClientMessage::Conditional {
        lines: vec![vec![point(5, 0), point(0, 1)]],
    });
    assert_eq!(b.error(), ErrorCode::BadConditional, "an illegal line");
    b.send(&ClientMessage::Conditional {
        lines: lines.clone(),
    });
    assert_eq!(conditional_of(&mut b), lines);

    // Kept while nobody is there, and given back to Bob's seat alone.
    drop(b);
    drop(watcher);
    let mut b = Client::connect_as(server.addr, Some(&bob));
    b.send(&ClientMessage::Join {
        room: code.clone(),
        token: None,
    });
    joined(&mut b);
    assert_eq!(conditional_of(&mut b), lines);

    // Ann plays the line's move: Bob's answer comes at once.
    a.send(&mv(2, 0, 0));
    let state = a.state(|s| s.record.split(':').nth(1).unwrap_or("").len() == 8);
    assert_eq!(state.to_move, Side::X);
    assert_eq!(conditional_of(&mut b), vec![vec![point(4, 1), point(1, 4)]]);
    // Ann plays off the line: it is over, and Bob is to move.
    a.send(&mv(4, 4, 2));
    assert!(conditional_of(&mut b).is_empty());
    b.state(|s| s.to_move == Side::O);
    // Ann never heard of any of it.
    a.frames_for(Duration::from_millis(300));
    assert!(
        a.seen
            .iter()
            .all(|m| !matches!(m, ServerMessage::Conditional { .. })),
        "the opponent heard of the conditional moves"
    );
}

/// Milliseconds from now to the next 1 June, 00:00 UTC (a day well inside
/// a calendar year).
fn to_next_june() -> u64 {
    use chrono::{DateTime, Datelike, NaiveDate};
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis();
    let now = i64::try_from(now).unwrap();
    let year = DateTime::from_timestamp_millis(now).unwrap().year();
    let june = NaiveDate::from_ymd_opt(year + 1, 6, 1)
        .unwrap()
        .and_hms_opt(0, 0, 0)
        .unwrap()
        .and_utc()
        .timestamp_millis();
    u64::try_from(june - now).unwrap()
}
