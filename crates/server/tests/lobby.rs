//! Play now (`lobby.rs`): real clients seek, are paired into a room both
//! are seated in, and play; against a real `uttt-server`.

use std::time::Duration;

use crate::support::api::{json, player};
use crate::support::client::{mv, Client};
use crate::support::{fresh_db, small_site, Server};
use uttt_protocol::{
    ClientMessage, ClockSetting, ErrorCode, Kind, Role, RoomState, RuleSet, SeekOptions,
    ServerMessage, Side,
};

fn server(db: &std::path::Path) -> Server {
    let site = small_site("lobby");
    Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ])
}

/// Classic 3+2, rated or casual.
fn classic_blitz(rated: bool) -> SeekOptions {
    SeekOptions {
        days: None,
        kind: Kind::Classic,
        rules: RuleSet::Standard,
        clock: Some(ClockSetting {
            initial: 180,
            increment: 2,
        }),
        rated,
    }
}

/// A connection of the player with session `secret` (a guest without)
/// that asks for `seek` and hears it waits; returns it and how many wait.
fn seeker(server: &Server, secret: Option<&str>, seek: SeekOptions) -> (Client, u32) {
    let mut client = Client::connect_as(server.addr, secret);
    client.send(&ClientMessage::Seek { seek });
    let waiting = client.until("seeking", |m| match m {
        ServerMessage::Seeking { waiting, .. } => Some(*waiting),
        ServerMessage::Error { code, message } => panic!("seek refused: {code:?} {message}"),
        _ => None,
    });
    (client, waiting)
}

/// The pairing's room as `client` hears it: its code, role and first state.
fn paired(client: &mut Client) -> (String, Role, RoomState) {
    let (room, role, token) = client.until_within(Duration::from_secs(30), "joined", |m| match m {
        ServerMessage::Joined { room, role, token } => Some((room.clone(), *role, token.clone())),
        _ => None,
    });
    assert!(token.is_some(), "a seat without its token");
    let state = client.state(|s| s.x_name.is_some() && s.o_name.is_some());
    (room, role, state)
}

/// Whether `client` hears of a pairing within `wait`.
fn paired_within(client: &mut Client, wait: Duration) -> bool {
    client
        .frames_for(wait)
        .iter()
        .any(|m| matches!(m, ServerMessage::Joined { .. }))
}

/// Writes ratings in `perf` into the database of a stopped server.
fn set_ratings(db: &std::path::Path, perf: &str, ratings: &[(&str, f64)]) {
    let file = rusqlite::Connection::open(db).unwrap();
    for (name, rating) in ratings {
        file.execute(
            "INSERT INTO ratings (player, perf, rating, rd, volatility, games, last_ms)
             SELECT id, ?2, ?3, 60.0, 0.06, 30, NULL FROM players WHERE name = ?1",
            rusqlite::params![name, perf, rating],
        )
        .unwrap();
    }
}

#[test]
fn two_players_pressing_play_now_are_seated_in_one_rated_room_and_play() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, ann_name) = player(&server);
    let (bob, bob_name) = player(&server);
    let (mut a, waiting) = seeker(&server, Some(&ann), classic_blitz(true));
    assert_eq!(waiting, 1);
    let counts = json(&server.get("/api/pools", &[]));
    let pools = counts["pools"].as_array().unwrap();
    // 3 games x rated or casual x (4 clocks + 6 days a move), Ultimate
    // 1+1 rated first.
    assert_eq!(pools.len(), 60, "{counts}");
    assert_eq!(pools[0]["perf"], "ultimate-bullet");
    let waiting: Vec<_> = pools.iter().filter(|p| p["waiting"] != 0).collect();
    assert_eq!(waiting.len(), 1, "{counts}");
    assert_eq!(waiting[0]["perf"], "classic-blitz");
    assert_eq!(waiting[0]["clock"]["initial"], 180);
    assert_eq!(
        (
            waiting[0]["rated"].as_bool(),
            waiting[0]["waiting"].as_u64()
        ),
        (Some(true), Some(1))
    );
    let (mut b, _) = seeker(&server, Some(&bob), classic_blitz(true));
    let (room_a, role_a, state) = paired(&mut a);
    let (room_b, role_b, _) = paired(&mut b);
    assert_eq!(room_a, room_b);
    assert_ne!(role_a, role_b);
    assert!(state.options.rated);
    assert_eq!(state.options.clock, classic_blitz(true).clock);
    let names = [state.x_name.clone().unwrap(), state.o_name.clone().unwrap()];
    assert!(
        names.contains(&ann_name) && names.contains(&bob_name),
        "{names:?}"
    );
    // Both new (1500, RD 350): a win +162, a draw nothing, a loss -162.
    let stakes = state.stakes.expect("a rated game's stakes");
    for side in [stakes.x, stakes.o] {
        assert_eq!((side.rating, side.provisional), (1500, true));
        assert_eq!((side.win, side.draw, side.loss), (162, 0, -162));
        assert_eq!(side.after, None);
    }
    // X wins: the end's state gives the ratings after, as the stakes said.
    let (x, o) = if state.side_of(role_a) == Some(Side::X) {
        (&mut a, &mut b)
    } else {
        (&mut b, &mut a)
    };
    x_wins(x, o);
    let end = o.state(|s| s.result.is_some());
    let after = end.stakes.expect("stakes after the game");
    assert_eq!((after.x.after, after.o.after), (Some(1662), Some(1338)));
}

#[test]
fn nobody_is_paired_with_themselves_and_the_longest_waiting_goes_first() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, ann_name) = player(&server);
    let (bob, _) = player(&server);
    let (cid, cid_name) = player(&server);
    // Two tabs of Ann's wait together and are never paired.
    let (mut first_tab, _) = seeker(&server, Some(&ann), classic_blitz(true));
    let (mut second_tab, waiting) = seeker(&server, Some(&ann), classic_blitz(true));
    assert_eq!(waiting, 2);
    assert!(!paired_within(&mut first_tab, Duration::from_millis(1500)));
    // Bob comes: paired with one of Ann's tabs, the first one.
    let (mut b, _) = seeker(&server, Some(&bob), classic_blitz(true));
    let (room, _, _) = paired(&mut first_tab);
    assert_eq!(paired(&mut b).0, room);
    // Cid comes: paired with Ann's second tab.
    let (mut c, _) = seeker(&server, Some(&cid), classic_blitz(true));
    let (_, _, state) = paired(&mut c);
    let names = [state.x_name.unwrap(), state.o_name.unwrap()];
    assert!(names.contains(&ann_name) && names.contains(&cid_name));
    paired(&mut second_tab);
}

#[test]
fn the_closest_rating_is_paired_first_and_the_range_widens_with_the_wait() {
    let db = fresh_db();
    let first = server(&db);
    let players: Vec<(String, String)> = (0..4).map(|_| player(&first)).collect();
    drop(first);
    let name = |i: usize| players[i].1.as_str();
    set_ratings(
        &db,
        "classic-blitz",
        &[
            (name(0), 1500.0),
            (name(1), 1900.0),
            (name(2), 1560.0),
            (name(3), 1480.0),
        ],
    );
    let server = server(&db);
    let seek = |i: usize| seeker(&server, Some(&players[i].0), classic_blitz(true)).0;
    // 1900 and 1500 are 400 apart: no pairing at once.
    let mut strong = seek(1);
    let mut weak = seek(0);
    assert!(!paired_within(&mut weak, Duration::from_millis(1500)));
    // 1560 comes: closest to 1500, paired with it, not with 1900.
    let mut near = seek(2);
    let (_, _, state) = paired(&mut near);
    let names = [state.x_name.unwrap(), state.o_name.unwrap()];
    assert!(names.contains(&name(0).to_string()), "{names:?}");
    paired(&mut weak);
    // 1480 comes: 420 from 1900, beyond both ranges at first; 1900 has
    // waited over 1.5 s, so its range reaches 420 within about 7 s more.
    let mut late = seek(3);
    let (_, _, state) = paired(&mut late);
    let names = [state.x_name.unwrap(), state.o_name.unwrap()];
    assert!(names.contains(&name(1).to_string()), "{names:?}");
    paired(&mut strong);
}

/// Plays Classic's c1-b2-a3 win for X in a pairing's room.
fn x_wins(x: &mut Client, o: &mut Client) {
    for (ply, cell) in [4, 0, 2, 1, 6].into_iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut *x } else { &mut *o };
        mover.send(&mv(ply as u32, 0, cell));
        let state = mover.state(|s| s.record.len() == "classic:".len() + 2 * (ply + 1));
        assert_eq!(state.result.is_some(), ply == 4, "{state:?}");
    }
}

#[test]
fn x_goes_to_the_player_who_had_o_more_often() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, ann_name) = player(&server);
    let (bob, _) = player(&server);
    let mut x_names = Vec::new();
    for _ in 0..4 {
        let (mut a, _) = seeker(&server, Some(&ann), classic_blitz(true));
        let (mut b, _) = seeker(&server, Some(&bob), classic_blitz(true));
        let (_, role_a, state) = paired(&mut a);
        paired(&mut b);
        x_names.push(state.x_name.clone().unwrap());
        if state.side_of(role_a) == Some(Side::X) {
            x_wins(&mut a, &mut b);
        } else {
            x_wins(&mut b, &mut a);
        }
    }
    // Even histories toss a coin (games 1 and 3); after them, X goes to
    // the one who had O (games 2 and 4).
    assert_ne!(x_names[0], x_names[1], "{x_names:?}");
    assert_ne!(x_names[2], x_names[3], "{x_names:?}");
    assert!(x_names.contains(&ann_name));
}

#[test]
fn a_cancelled_or_closed_seek_leaves_the_pool() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, _) = player(&server);
    let (bob, _) = player(&server);
    let (cid, _) = player(&server);
    let (mut a, _) = seeker(&server, Some(&ann), classic_blitz(true));
    // Nothing else while waiting.
    a.send(&ClientMessage::Create {
        options: crate::support::client::classic(),
    });
    assert_eq!(a.error(), ErrorCode::Seeking);
    a.send(&ClientMessage::CancelSeek {});
    a.until("seekEnded", |m| {
        matches!(m, ServerMessage::SeekEnded {}).then_some(())
    });
    a.send(&ClientMessage::CancelSeek {});
    assert_eq!(a.error(), ErrorCode::NotSeeking);
    // A closed connection leaves too.
    let (gone, _) = seeker(&server, Some(&cid), classic_blitz(true));
    drop(gone);
    std::thread::sleep(Duration::from_millis(300));
    let (mut b, waiting) = seeker(&server, Some(&bob), classic_blitz(true));
    assert_eq!(waiting, 1, "the closed seeker still counted");
    assert!(!paired_within(&mut b, Duration::from_millis(1500)));
    assert!(!paired_within(&mut a, Duration::from_millis(10)));
    // Ann seeks again on the same connection: paired with Bob.
    a.send(&ClientMessage::Seek {
        seek: classic_blitz(true),
    });
    let (room, _, _) = paired(&mut a);
    assert_eq!(paired(&mut b).0, room);
}

#[test]
fn guests_play_casual_games_only_and_every_seek_has_a_clock() {
    let db = fresh_db();
    let server = server(&db);
    let mut guest = Client::connect(server.addr);
    guest.send(&ClientMessage::Seek {
        seek: classic_blitz(true),
    });
    assert_eq!(guest.error(), ErrorCode::BadOptions);
    guest.send(&ClientMessage::Seek {
        seek: SeekOptions {
            days: None,
            clock: None,
            ..classic_blitz(false)
        },
    });
    assert_eq!(guest.error(), ErrorCode::BadOptions);
    let (mut a, _) = seeker(&server, None, classic_blitz(false));
    let (mut b, _) = seeker(&server, None, classic_blitz(false));
    let (_, _, state) = paired_casual(&mut a);
    assert!(!state.options.rated);
    paired_casual(&mut b);
}

/// As [`paired`], for guests (no names in the state).
fn paired_casual(client: &mut Client) -> (String, Role, RoomState) {
    let (room, role) = client.until_within(Duration::from_secs(30), "joined", |m| match m {
        ServerMessage::Joined { room, role, .. } => Some((room.clone(), *role)),
        _ => None,
    });
    let state = client.state(|s| s.o != uttt_protocol::Presence::Empty);
    (room, role, state)
}
