//! Online play through a real `uttt-server` process and real WebSocket
//! clients.

use crate::support::client::{classic, mv, Client};
use crate::support::{seated, small_site, Server};
use uttt_protocol::{
    ClientMessage, ClockSetting, ColourChoice, EndReason, ErrorCode, GameResult, Kind, Presence,
    Role, RoomOptions, RuleSet, Side,
};

fn server(extra: &[&str]) -> Server {
    let site = small_site("online");
    let mut args = vec!["--site", site.to_str().unwrap()];
    args.extend_from_slice(extra);
    Server::start(&args)
}

#[test]
fn a_whole_game_with_a_spectator() {
    let server = server(&[]);
    let (mut x, mut o, room, _) = seated(&server, classic());
    let mut watcher = Client::connect(server.addr);
    watcher.send(&ClientMessage::Join {
        room: room.clone(),
        token: None,
    });
    let (_, role, token) = watcher.joined();
    assert_eq!((role, token), (Role::Spectator, None));
    assert_eq!(watcher.state(|_| true).spectators, 1);

    // X: a1 b1 c1 in a row; O: a2 b2.
    let mut seen = None;
    for (ply, cell) in [0u8, 3, 1, 4, 2]
        .into_iter()
        .enumerate()
        .map(|(p, c)| (p as u32, c))
    {
        let mover = if ply % 2 == 0 { &mut x } else { &mut o };
        mover.send(&mv(ply, 0, cell));
        let after = watcher.state(|s| s.record.len() == "classic:".len() + 2 * (ply as usize + 1));
        assert_eq!(after.to_move, if ply % 2 == 0 { Side::O } else { Side::X });
        seen = Some(after);
    }
    let won = Some(GameResult {
        winner: Some(Side::X),
        reason: EndReason::Won,
    });
    let watched = seen.unwrap();
    for end in [
        x.state(|s| s.result.is_some()),
        o.state(|s| s.result.is_some()),
        watched,
    ] {
        assert_eq!(end.result, won);
        assert_eq!(end.record, "classic:a1a2b1b2c1");
    }
    // No seat token ever went to anyone but its holder.
    assert!(watcher.seen.iter().all(|m| !matches!(
        m,
        uttt_protocol::ServerMessage::Joined { token: Some(_), .. }
    )));
    watcher.send(&mv(5, 0, 8));
    assert_eq!(watcher.error(), ErrorCode::NotAPlayer);
}

#[test]
fn out_of_turn_stale_and_illegal_moves_change_nothing() {
    let server = server(&[]);
    let options = RoomOptions {
        days: None,
        kind: Kind::Ultimate,
        ..classic()
    };
    let (mut x, mut o, _, _) = seated(&server, options);
    o.send(&mv(0, 4, 4));
    assert_eq!(o.error(), ErrorCode::NotYourTurn);
    x.send(&mv(0, 4, 4));
    x.state(|s| s.record == "ultimate-standard:e5");
    // The same frame again, and a move for a ply already played.
    x.send(&mv(0, 4, 4));
    assert_eq!(x.error(), ErrorCode::NotYourTurn);
    o.send(&mv(0, 4, 0));
    assert_eq!(o.error(), ErrorCode::StaleMove);
    o.send(&mv(1, 0, 0));
    assert_eq!(o.error(), ErrorCode::IllegalMove);
    o.send(&mv(1, 4, 4));
    assert_eq!(o.error(), ErrorCode::IllegalMove);
    o.send(&mv(1, 9, 0));
    assert_eq!(o.error(), ErrorCode::IllegalMove);
    o.send(&mv(1, 4, 0));
    let state = o.state(|s| s.record.len() > "ultimate-standard:e5".len());
    assert_eq!(state.record, "ultimate-standard:e5d4");
}

#[test]
fn tokens_bring_a_player_back_to_the_same_seat_and_position() {
    let server = server(&[]);
    let (mut x, mut o, room, [_, token_o]) = seated(&server, classic());
    x.send(&mv(0, 0, 4));
    o.state(|s| s.record == "classic:b2");
    drop(o);
    x.state(|s| s.o == Presence::Disconnected);

    let mut thief = Client::connect(server.addr);
    thief.send(&ClientMessage::Join {
        room: room.clone(),
        token: Some("0".repeat(26)),
    });
    assert_eq!(thief.error(), ErrorCode::BadToken);

    let mut back = Client::connect(server.addr);
    back.send(&ClientMessage::Join {
        room: room.clone(),
        token: Some(token_o.clone()),
    });
    let (_, role, token) = back.joined();
    assert_eq!(
        (role, token.as_deref()),
        (Role::Seat1, Some(token_o.as_str()))
    );
    let state = back.state(|_| true);
    assert_eq!(
        (state.record.as_str(), state.to_move),
        ("classic:b2", Side::O)
    );
    x.state(|s| s.o == Presence::Connected);
    back.send(&mv(1, 0, 0));
    x.state(|s| s.record == "classic:b2a1");

    let mut lost = Client::connect(server.addr);
    lost.send(&ClientMessage::Join {
        room: "nosuchroom".into(),
        token: None,
    });
    assert_eq!(lost.error(), ErrorCode::NoSuchRoom);
}

#[test]
fn resign_draw_and_rematch_with_colours_swapped() {
    let server = server(&[]);
    let (mut a, mut b, _, _) = seated(&server, classic());
    a.send(&ClientMessage::OfferDraw {});
    b.state(|s| s.draw_offer == Some(Side::X));
    b.send(&ClientMessage::DeclineDraw {});
    a.state(|s| s.draw_offer.is_none() && s.record == "classic:");
    b.send(&ClientMessage::OfferDraw {});
    a.state(|s| s.draw_offer == Some(Side::O));
    a.send(&ClientMessage::OfferDraw {});
    let drawn = b.state(|s| s.result.is_some());
    assert_eq!(
        drawn.result,
        Some(GameResult {
            winner: None,
            reason: EndReason::Agreed
        })
    );

    b.send(&ClientMessage::Rematch {});
    a.state(|s| s.rematch == vec![Side::O]);
    a.send(&ClientMessage::Rematch {});
    let second = b.state(|s| s.game_number == 2);
    assert_eq!((second.x_seat, second.result), (1, None));
    // Seat 1 plays X now: it moves first.
    a.send(&mv(0, 0, 4));
    assert_eq!(a.error(), ErrorCode::NotYourTurn);
    b.send(&ClientMessage::Resign {});
    let over = a.state(|s| s.result.is_some());
    assert_eq!(
        over.result,
        Some(GameResult {
            winner: Some(Side::O),
            reason: EndReason::Resigned
        })
    );
}

#[test]
fn a_clock_flags_and_an_absent_player_loses_on_time() {
    let server = server(&["--grace-ms", "700"]);
    let options = RoomOptions {
        days: None,
        clock: Some(ClockSetting {
            initial: 10,
            increment: 0,
        }),
        ..classic()
    };
    // Nobody moves: X's 10 s run out.
    let (mut x, _o, _, _) = seated(&server, options);
    let start = x.last_state().clock.unwrap();
    assert_eq!(start.running, Some(Side::X));
    assert!(start.x_ms <= 10_000 && start.o_ms == 10_000);
    let flagged = x.state_within(std::time::Duration::from_secs(15), |s| s.result.is_some());
    assert_eq!(
        flagged.result,
        Some(GameResult {
            winner: Some(Side::O),
            reason: EndReason::Time
        })
    );
    assert_eq!(flagged.clock.unwrap().x_ms, 0);

    // O leaves a timed game and stays away past the grace period.
    let options = RoomOptions {
        days: None,
        clock: Some(ClockSetting {
            initial: 600,
            increment: 5,
        }),
        ..classic()
    };
    let (mut x, o, _, _) = seated(&server, options);
    drop(o);
    let over = x.state(|s| s.result.is_some());
    assert_eq!(
        over.result,
        Some(GameResult {
            winner: Some(Side::X),
            reason: EndReason::Time
        })
    );
}

#[test]
fn hostile_frames_get_typed_errors_and_repeated_abuse_closes() {
    let server = server(&[]);
    let mut c = Client::connect(server.addr);
    for (frame, code) in [
        ("not json", ErrorCode::BadMessage),
        (r#"{"v":1,"type":"dance"}"#, ErrorCode::BadMessage),
        (r#"{"v":9,"type":"resign"}"#, ErrorCode::BadVersion),
        (r#"{"v":1,"type":"resign"}"#, ErrorCode::NotInRoom),
        (
            r#"{"v":1,"type":"create","options":{"kind":"ultimate","rules":"standard","colour":"x","clock":{"initial":1,"increment":0}}}"#,
            ErrorCode::BadOptions,
        ),
    ] {
        c.send_raw(frame);
        assert_eq!(c.error(), code, "{frame}");
    }
    c.send_raw(&format!(
        r#"{{"v":1,"type":"ping","id":1,"pad":"{}"}}"#,
        "x".repeat(5000)
    ));
    assert_eq!(c.error(), ErrorCode::BadFrame);
    c.send(&ClientMessage::Ping { id: 42 });
    c.until("pong", |m| {
        matches!(m, uttt_protocol::ServerMessage::Pong { id: 42 }).then_some(())
    });
    // 6 refusals so far; 14 more and the server hangs up, saying why.
    for _ in 0..14 {
        c.send_raw("{}");
    }
    assert_eq!(
        c.close_code_within(std::time::Duration::from_secs(5)),
        Some(1008),
        "the connection stayed open after 20 refused frames"
    );
}

/// Sends a client something no client of the protocol sends.
type Violation = fn(&mut Client);

#[test]
fn protocol_violations_close_with_a_code_that_says_which() {
    let server = server(&[]);
    let wait = std::time::Duration::from_secs(5);
    let cases: [(&str, Violation, u16); 4] = [
        ("binary", |c| c.send_binary(&[1, 2, 3]), 1003),
        ("too big", |c| c.send_raw(&"x".repeat(20 * 1024)), 1009),
        (
            "not UTF-8",
            |c| c.send_frame(1, &[b'{', 0xff, 0xfe, b'}']),
            1007,
        ),
        ("reserved opcode", |c| c.send_frame(3, b"{}"), 1002),
    ];
    for (what, violate, code) in cases {
        let mut c = Client::connect(server.addr);
        violate(&mut c);
        assert_eq!(c.close_code_within(wait), Some(code), "{what}");
    }
    let mut c = Client::connect(server.addr);
    c.send(&ClientMessage::Ping { id: 1 });
    c.until("pong", |m| {
        matches!(m, uttt_protocol::ServerMessage::Pong { id: 1 }).then_some(())
    });
    assert!(c.close_is_answered(), "a client's close frame is answered");
}

#[test]
fn a_second_create_or_join_on_one_connection_is_refused() {
    let server = server(&[]);
    let (mut a, _b, room, _) = seated(&server, classic());
    a.send(&ClientMessage::Create { options: classic() });
    assert_eq!(a.error(), ErrorCode::NotInRoom);
    a.send(&ClientMessage::Join { room, token: None });
    assert_eq!(a.error(), ErrorCode::NotInRoom);
}

#[test]
fn rooms_per_address_are_limited() {
    let server = server(&["--rooms-per-address", "2"]);
    for _ in 0..2 {
        let mut c = Client::connect(server.addr);
        c.send(&ClientMessage::Create { options: classic() });
        c.joined();
    }
    let mut c = Client::connect(server.addr);
    c.send(&ClientMessage::Create {
        options: RoomOptions {
            days: None,
            colour: ColourChoice::Random,
            rules: RuleSet::Tiebreak,
            ..classic()
        },
    });
    assert_eq!(c.error(), ErrorCode::RateLimited);
}

#[test]
fn pages_of_other_sites_cannot_connect() {
    let server = server(&[]);
    let reply = server.raw(
        format!(
            "GET /ws HTTP/1.1\r\nHost: {}\r\nOrigin: http://evil.example\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
            server.addr
        )
        .as_bytes(),
    );
    assert!(reply.starts_with("HTTP/1.1 403"), "{reply}");
    let same = server.raw(
        format!(
            "GET /ws HTTP/1.1\r\nHost: {0}\r\nOrigin: http://{0}\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n\
             Sec-WebSocket-Version: 13\r\nSec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\n\r\n",
            server.addr
        )
        .as_bytes(),
    );
    assert!(same.starts_with("HTTP/1.1 101"), "{same}");
}

#[test]
fn a_restart_on_the_same_database_goes_on_from_the_same_position_and_clock() {
    let site = small_site("restart");
    let db = crate::support::fresh_db();
    let args = [
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ];
    let first = Server::start(&args);
    let options = RoomOptions {
        days: None,
        kind: Kind::Ultimate,
        clock: Some(ClockSetting {
            initial: 300,
            increment: 3,
        }),
        ..classic()
    };
    let (mut x, mut o, room, [token_x, token_o]) = seated(&first, options);
    x.send(&mv(0, 4, 4));
    o.state(|s| s.record == "ultimate-standard:e5");
    o.send(&mv(1, 4, 0));
    let before = x.state(|s| s.record == "ultimate-standard:e5d4");
    // Killed without warning, as a crash would.
    let mut first = first;
    first.child.kill().unwrap();
    first.child.wait().unwrap();
    drop((x, o));

    let second = Server::start(&args);
    assert!(
        second
            .lines()
            .iter()
            .any(|l| l.contains("1 unfinished games are back")),
        "{:?}",
        second.lines()
    );
    let mut x = Client::connect(second.addr);
    x.send(&ClientMessage::Join {
        room: room.clone(),
        token: Some(token_x),
    });
    assert_eq!(x.joined().1, Role::Seat0);
    let mut o = Client::connect(second.addr);
    o.send(&ClientMessage::Join {
        room: room.clone(),
        token: Some(token_o),
    });
    assert_eq!(o.joined().1, Role::Seat1);
    let after = x.state(|s| s.o == Presence::Connected);
    assert_eq!(after.record, before.record);
    assert_eq!(after.to_move, Side::X);
    let (was, now) = (before.clock.unwrap(), after.clock.unwrap());
    // The time O had after its move is kept exactly; X's clock, which was
    // running, restarted from what it had at O's move.
    assert_eq!(now.o_ms, was.o_ms);
    assert!(
        now.x_ms <= was.x_ms && was.x_ms - now.x_ms < 2_000,
        "{was:?} then {now:?}"
    );
    // O's d4 sent X to the top-left board.
    x.send(&mv(2, 0, 4));
    o.state(|s| s.record == "ultimate-standard:e5d4b2");

    // A finished game is kept too, and its room can be joined to watch.
    o.send(&ClientMessage::Resign {});
    x.state(|s| s.result.is_some());
    let mut second = second;
    second.child.kill().unwrap();
    second.child.wait().unwrap();
    let third = Server::start(&args);
    let mut watcher = Client::connect(third.addr);
    watcher.send(&ClientMessage::Join { room, token: None });
    let (_, role, _) = watcher.joined();
    assert_eq!(role, Role::Spectator);
    let last = watcher.state(|_| true);
    assert_eq!(
        last.result,
        Some(GameResult {
            winner: Some(Side::X),
            reason: EndReason::Resigned
        })
    );
    assert_eq!(last.record, "ultimate-standard:e5d4b2");
}

#[test]
fn game_connections_count_against_the_connection_limits() {
    let server = server(&["--max-connections-per-address", "3"]);
    let clients: Vec<Client> = (0..3).map(|_| Client::connect(server.addr)).collect();
    // The upgraded connections still hold their places: a fourth is refused.
    let refused = tungstenite::connect(format!("ws://{}/ws", server.addr));
    assert!(refused.is_err(), "a fourth game connection was let in");
    drop(clients);
    std::thread::sleep(std::time::Duration::from_millis(200));
    let _again = Client::connect(server.addr);
}

#[test]
fn leave_gives_up_the_game_and_the_server_closes_the_connection() {
    let server = server(&[]);
    let (mut x, mut o, _, _) = seated(&server, classic());
    x.send(&ClientMessage::Leave {});
    let over = o.state(|s| s.result.is_some());
    assert_eq!(
        over.result,
        Some(GameResult {
            winner: Some(Side::O),
            reason: EndReason::Resigned
        })
    );
    assert!(x.closed(), "the server kept the connection after leave");
}

#[test]
fn frames_are_limited_per_address_over_all_its_connections() {
    let server = server(&["--messages-per-address", "5"]);
    let mut clients = [Client::connect(server.addr), Client::connect(server.addr)];
    // Each connection alone is within its own allowance (20 at once); the
    // address's (10 at once) is not.
    for id in 0..16 {
        clients[id as usize % 2].send(&ClientMessage::Ping { id });
    }
    let mut pongs = 0;
    let mut limited = 0;
    for client in &mut clients {
        for _ in 0..8 {
            match client.next() {
                Some(uttt_protocol::ServerMessage::Pong { .. }) => pongs += 1,
                Some(uttt_protocol::ServerMessage::Error {
                    code: ErrorCode::RateLimited,
                    ..
                }) => limited += 1,
                other => panic!("unexpected {other:?}"),
            }
        }
    }
    assert!(
        pongs <= 11 && limited >= 5,
        "{pongs} pongs, {limited} refused"
    );
}

#[test]
fn a_stored_room_that_cannot_be_read_is_reported_as_such() {
    let site = small_site("unreadable");
    let db = crate::support::fresh_db();
    let args = [
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ];
    let first = Server::start(&args);
    let mut creator = Client::connect(first.addr);
    creator.send(&ClientMessage::Create { options: classic() });
    let (room, _, _) = creator.joined();
    drop((creator, first));

    // A row this version cannot read: its options are not JSON.
    let written = rusqlite::Connection::open(&db)
        .unwrap()
        .execute(
            "UPDATE rooms SET options = 'not json' WHERE code = ?1",
            [&room],
        )
        .unwrap();
    assert_eq!(written, 1);

    let second = Server::start(&args);
    let mut c = Client::connect(second.addr);
    c.send(&ClientMessage::Join { room, token: None });
    let (code, message) = c.until("error", |m| match m {
        uttt_protocol::ServerMessage::Error { code, message } => Some((*code, message.clone())),
        _ => None,
    });
    assert_eq!(code, ErrorCode::ServerError);
    assert!(
        message.contains("cannot be read") && !message.contains("save"),
        "{message}"
    );
}
