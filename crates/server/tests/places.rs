//! Game connections earn their place: a real `uttt-server` and real
//! WebSocket clients against the limits that keep idle or flooding
//! connections from locking other players out.

use std::time::{Duration, Instant};

use crate::support::client::mv;
use crate::support::client::{classic, Client};
use crate::support::{seated, small_site, Server};
use uttt_protocol::{ClientMessage, ErrorCode, Role, ServerMessage};

fn server(extra: &[&str]) -> Server {
    let site = small_site("places");
    let mut args = vec!["--site", site.to_str().unwrap()];
    args.extend_from_slice(extra);
    Server::start(&args)
}

/// Whether a new game connection is let in now.
fn admitted(server: &Server) -> bool {
    tungstenite::connect(format!("ws://{}/ws", server.addr)).is_ok()
}

#[test]
fn a_connection_that_enters_no_room_in_time_is_closed_and_one_in_a_room_stays() {
    let server = server(&["--join-within-ms", "600"]);
    let mut idle = Client::connect(server.addr);
    let mut player = Client::connect(server.addr);
    player.send(&ClientMessage::Create { options: classic() });
    player.joined();
    let started = Instant::now();
    assert_eq!(idle.close_code_within(Duration::from_secs(5)), Some(1008));
    assert!(
        started.elapsed() < Duration::from_secs(4),
        "the idle connection was kept"
    );
    // Well past the deadline, the player's connection answers.
    std::thread::sleep(Duration::from_millis(700));
    player.send(&ClientMessage::Ping { id: 7 });
    player.until("pong", |m| {
        matches!(m, ServerMessage::Pong { id: 7 }).then_some(())
    });
}

#[test]
fn connections_in_no_room_have_a_cap_of_their_own() {
    let server = server(&["--max-waiting", "2"]);
    let mut first = Client::connect(server.addr);
    let _second = Client::connect(server.addr);
    assert!(
        !admitted(&server),
        "a third connection in no room was let in"
    );
    // Entering a room gives the place back.
    first.send(&ClientMessage::Create { options: classic() });
    first.joined();
    assert!(
        admitted(&server),
        "the place of a connection now in a room stayed taken"
    );
}

#[test]
fn the_site_is_served_while_every_game_connection_place_is_taken() {
    let server = server(&[
        "--max-connections",
        "8",
        "--max-game-connections",
        "3",
        "--max-connections-per-address",
        "8",
    ]);
    let _players: Vec<Client> = (0..3).map(|_| Client::connect(server.addr)).collect();
    assert!(!admitted(&server), "a fourth game connection was let in");
    let page = server.get("/", &[]);
    assert!(page.starts_with("HTTP/1.1 200"), "{page}");
}

#[test]
fn a_flood_of_ping_frames_spends_the_allowance_and_is_closed() {
    let server = server(&[]);
    let mut flooder = Client::connect(server.addr);
    flooder.send(&ClientMessage::Create { options: classic() });
    flooder.joined();
    // 20 at once and 10 a second are allowed; 200 at once are not.
    for _ in 0..200 {
        if !flooder.ping_frame() {
            break;
        }
    }
    assert!(
        flooder.closed(),
        "a connection flooding ping frames was kept"
    );
}

/// Joins room `code` on a new connection: its role, or the refusal's code.
fn join(server: &Server, code: &str, token: Option<&str>) -> Result<Role, ErrorCode> {
    let mut client = Client::connect(server.addr);
    client.send(&ClientMessage::Join {
        room: code.to_string(),
        token: token.map(str::to_string),
    });
    client.until("joined or an error", |m| match m {
        ServerMessage::Joined { role, .. } => Some(Ok(*role)),
        ServerMessage::Error { code, .. } => Some(Err(*code)),
        _ => None,
    })
}

#[test]
fn a_room_made_and_left_with_nothing_played_is_deleted_and_a_played_one_stays() {
    let server = server(&["--unplayed-room-ms", "300", "--idle-room-ms", "300"]);
    let mut maker = Client::connect(server.addr);
    maker.send(&ClientMessage::Create { options: classic() });
    let (left, _, _) = maker.joined();
    let (mut x, o, played, _) = seated(&server, classic());
    x.send(&mv(0, 0, 4));
    x.state(|s| s.record.ends_with("b2"));
    drop((maker, x, o));
    // Both rooms leave memory; only the played one is read back.
    std::thread::sleep(Duration::from_millis(1200));
    assert_eq!(join(&server, &left, None), Err(ErrorCode::NoSuchRoom));
    assert_eq!(join(&server, &played, None), Ok(Role::Spectator));
}

#[test]
fn a_player_coming_back_is_let_in_when_rooms_are_at_their_cap() {
    let server = server(&["--max-rooms", "1", "--idle-room-ms", "300"]);
    let (mut x, o, played, tokens) = seated(&server, classic());
    x.send(&mv(0, 0, 4));
    x.state(|s| s.record.ends_with("b2"));
    drop((x, o));
    // The played room leaves memory (it stays stored); another fills the cap.
    std::thread::sleep(Duration::from_millis(1000));
    let mut holder = Client::connect(server.addr);
    holder.send(&ClientMessage::Create { options: classic() });
    holder.joined();
    let mut refused = Client::connect(server.addr);
    refused.send(&ClientMessage::Create { options: classic() });
    assert_eq!(refused.error(), ErrorCode::ServerFull);
    // A stranger does not bring the stored room back; its player does.
    assert_eq!(join(&server, &played, None), Err(ErrorCode::ServerFull));
    assert_eq!(join(&server, &played, Some(&tokens[0])), Ok(Role::Seat0));
}

#[test]
fn a_room_refused_for_the_cap_spends_none_of_the_clients_quota() {
    let server = server(&[
        "--max-rooms",
        "1",
        "--unplayed-room-ms",
        "300",
        "--rooms-per-address",
        "2",
    ]);
    let mut first = Client::connect(server.addr);
    first.send(&ClientMessage::Create { options: classic() });
    first.joined();
    let mut refused = Client::connect(server.addr);
    refused.send(&ClientMessage::Create { options: classic() });
    assert_eq!(refused.error(), ErrorCode::ServerFull);
    // The first room, made and left, is deleted: the cap has a place again,
    // and the refusal spent nothing, so this is the client's second room.
    drop(first);
    std::thread::sleep(Duration::from_millis(1000));
    let mut second = Client::connect(server.addr);
    second.send(&ClientMessage::Create { options: classic() });
    second.joined();
}

#[test]
fn watchers_coming_and_going_are_told_as_a_count_at_most_once_a_second() {
    let server = server(&[]);
    let (mut x, _o, room, _) = seated(&server, classic());
    x.frames_for(Duration::from_millis(300));
    let watch = |server: &Server| {
        let mut watcher = Client::connect(server.addr);
        watcher.send(&ClientMessage::Join {
            room: room.clone(),
            token: None,
        });
        // The newcomer itself gets the whole state.
        watcher.state(|_| true);
        watcher
    };
    let stays = watch(&server);
    // One client comes to watch and goes, again and again, for two seconds
    // (past 10 a second its joins are refused: the joins' own limit).
    let churn = Instant::now();
    let mut visits = 0;
    while churn.elapsed() < Duration::from_secs(2) {
        if join(&server, &room, None) == Ok(Role::Spectator) {
            visits += 1;
        }
        std::thread::sleep(Duration::from_millis(20));
    }
    assert!(visits >= 10, "only {visits} visits");
    let heard = x.frames_for(Duration::from_secs(3));
    let states = heard
        .iter()
        .filter(|m| matches!(m, ServerMessage::State { .. }))
        .count();
    let counts: Vec<u32> = heard
        .iter()
        .filter_map(|m| match m {
            ServerMessage::Spectators { count } => Some(*count),
            _ => None,
        })
        .collect();
    assert_eq!(
        states, 0,
        "a player got the whole state for watchers: {heard:?}"
    );
    assert!(
        counts.len() <= 6,
        "{} counts for {visits} visits",
        counts.len()
    );
    // Once the churn is over, the last count says the one who stayed.
    assert_eq!(counts.last(), Some(&1), "{counts:?}");
    drop(stays);
}
