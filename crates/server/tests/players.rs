//! Players and sessions over the JSON API (docs/api.md), against a real
//! `uttt-server` and its SQLite file.

use crate::support::api::{json, player, secret, sign_up, signed_up, status};
use crate::support::client::{classic, mv, Client};
use crate::support::{fresh_db, header, rated_classic, rated_room, small_site, Server};
use std::io::{Read, Write};
use std::time::Duration;

use uttt_protocol::{ClientMessage, ErrorCode, Role, ServerMessage};

fn server(db: &std::path::Path) -> Server {
    server_failing(db, None)
}

/// A server whose fail points are armed with `failpoints` (the
/// `FAILPOINTS` syntax of the fail crate), if given.
fn server_failing(db: &std::path::Path, failpoints: Option<&str>) -> Server {
    let site = small_site("players");
    let args = [
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ];
    match failpoints {
        Some(points) => Server::start_with(Some(&format!("export FAILPOINTS='{points}'")), &args),
        None => Server::start(&args),
    }
}

#[test]
fn a_first_online_action_makes_a_player_with_a_readable_name() {
    let db = fresh_db();
    let server = server(&db);
    let made = sign_up(&server, None);
    assert_eq!(status(&made), 201, "{made}");
    let cookie = header(&made, "set-cookie").unwrap().to_string();
    for part in ["HttpOnly", "SameSite=Lax", "Path=/"] {
        assert!(cookie.contains(part), "{cookie}");
    }
    assert!(!cookie.contains("Secure"), "plain http: {cookie}");
    let name = json(&made)["name"].as_str().unwrap().to_string();
    assert!(
        (3..=20).contains(&name.len()) && name.starts_with(|c: char| c.is_ascii_uppercase()),
        "{name}"
    );
    let secret = secret(&made);

    // The session says who this is; the same session makes nobody new.
    let me = server.get("/api/me", &[&format!("Cookie: uttt_session={secret}")]);
    assert_eq!(status(&me), 200, "{me}");
    assert_eq!(json(&me)["name"], name.as_str());
    let again = sign_up(&server, Some(&secret));
    assert_eq!(status(&again), 200, "{again}");
    assert_eq!(json(&again)["name"], name.as_str());
    // The same secret, renewed; not a new session.
    let renewed = header(&again, "set-cookie").expect("the cookie renewed");
    assert!(
        renewed.starts_with(&format!("uttt_session={secret};")),
        "{renewed}"
    );

    // The public page, by the name in any case.
    let page = server.get(&format!("/api/players/{}", name.to_lowercase()), &[]);
    assert_eq!(status(&page), 200, "{page}");
    assert_eq!(json(&page)["name"], name.as_str());
    assert!(json(&page)["created"].as_u64().unwrap() > 0);

    // Only a hash of the secret is in the file.
    drop(server);
    let file = std::fs::read(&db).unwrap();
    let text = String::from_utf8_lossy(&file);
    assert!(
        !text.contains(&secret),
        "the session's secret is stored as is"
    );
}

#[test]
fn a_session_in_use_is_renewed_and_one_unused_for_a_year_signs_nobody_in() {
    let db = fresh_db();
    let first = server(&db);
    let (kept, _) = player(&first);
    let (stale, _) = player(&first);
    drop(first);
    let day = 86_400_000_i64;
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let file = rusqlite::Connection::open(&db).unwrap();
    // Ann used hers two hours ago, Bob a year and a day ago.
    for (secret, days_ago, hours_ago) in [(&kept, 0, 2), (&stale, 366, 0)] {
        let id = sha256_hex(secret);
        let seen = now - days_ago * day - hours_ago * 3_600_000;
        let changed = file
            .execute(
                "UPDATE sessions SET seen_ms = ?2 WHERE id = ?1",
                rusqlite::params![id, seen],
            )
            .unwrap();
        assert_eq!(changed, 1);
    }
    drop(file);

    let server = server(&db);
    let cookie = |secret: &str| format!("Cookie: uttt_session={secret}");
    let me = server.get("/api/me", &[&cookie(&kept)]);
    assert_eq!(status(&me), 200, "{me}");
    let renewed = header(&me, "set-cookie").expect("the cookie set again");
    assert!(
        renewed.starts_with(&format!("uttt_session={kept};")),
        "{renewed}"
    );
    assert!(renewed.contains("Max-Age=31536000"), "{renewed}");
    let gone = server.get("/api/me", &[&cookie(&stale)]);
    assert_eq!(status(&gone), 401, "{gone}");
    drop(server);

    // Ann's session was marked seen now; Bob's is forgotten.
    let file = rusqlite::Connection::open(&db).unwrap();
    let seen: i64 = file
        .query_row(
            "SELECT seen_ms FROM sessions WHERE id = ?1",
            [sha256_hex(&kept)],
            |r| r.get(0),
        )
        .unwrap();
    assert!(seen > now - 60_000, "not marked seen: {}", now - seen);
    let stale_rows: i64 = file
        .query_row(
            "SELECT COUNT(*) FROM sessions WHERE id = ?1",
            [sha256_hex(&stale)],
            |r| r.get(0),
        )
        .unwrap();
    assert_eq!(stale_rows, 0);
}

/// The SHA-256 of `secret` in hex: the id its session is kept under.
fn sha256_hex(secret: &str) -> String {
    use sha2::Digest;
    sha2::Sha256::digest(secret.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[test]
fn a_session_that_ends_closes_the_game_connections_it_signed_in() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, _, ann_csrf) = signed_up(&server);
    let (bob, _, bob_csrf) = signed_up(&server);
    let (mut x, mut o) = rated_room(&server, &ann, &bob);
    // Ann signs out: her connection closes; Bob's stays and hears she left.
    let out = change(&server, "/api/signout", &ann, Some(&ann_csrf), "");
    assert_eq!(status(&out), 204, "{out}");
    assert_eq!(x.close_code_within(Duration::from_secs(10)), Some(4001));
    o.state(|s| s.x == uttt_protocol::Presence::Disconnected);
    // Bob deletes his account: his connection closes too.
    let gone = change_by(&server, "DELETE", "/api/me", &bob, Some(&bob_csrf), "");
    assert_eq!(status(&gone), 204, "{gone}");
    assert_eq!(o.close_code_within(Duration::from_secs(10)), Some(4001));
    // A guest's connection hears nothing of it.
    let mut guest = Client::connect(server.addr);
    guest.send(&ClientMessage::Ping { id: 7 });
    assert!(matches!(guest.next(), Some(ServerMessage::Pong { id: 7 })));
}

#[test]
fn no_session_no_player_and_no_stranger_page_makes_one() {
    let db = fresh_db();
    let server = server(&db);
    let me = server.get("/api/me", &[]);
    assert_eq!(status(&me), 401, "{me}");
    assert_eq!(json(&me)["error"], "signed-out");
    let forged = server.get(
        "/api/me",
        &[&format!("Cookie: uttt_session={}", "ab".repeat(32))],
    );
    assert_eq!(status(&forged), 401, "{forged}");
    let junk = server.get("/api/me", &["Cookie: uttt_session=../../etc"]);
    assert_eq!(status(&junk), 401, "{junk}");

    // No Origin (not a page), or another site's page: refused, nobody made.
    let bare = server.request("POST", "/api/session", &["Content-Length: 0"]);
    assert_eq!(status(&bare), 403, "{bare}");
    assert_eq!(json(&bare)["error"], "bad-origin");
    let foreign = server.request(
        "POST",
        "/api/session",
        &["Origin: http://evil.example", "Content-Length: 0"],
    );
    assert_eq!(status(&foreign), 403, "{foreign}");
    assert!(header(&foreign, "set-cookie").is_none());

    let nobody = server.get("/api/players/NobodyHere1", &[]);
    assert_eq!(status(&nobody), 404, "{nobody}");
    assert_eq!(json(&nobody)["error"], "no-such-player");
    let odd = server.get("/api/players/%2e%2e%2fadmin", &[]);
    assert_eq!(status(&odd), 404, "{odd}");
}

/// Rated games are not played online yet in this test: the ratings are
/// written into the file while the server is stopped, as a rated game's end
/// would write them, and read back through the API.
#[test]
fn the_leaderboard_shows_established_ratings_only_best_first() {
    let db = fresh_db();
    let first = server(&db);
    let names: Vec<String> = (0..5)
        .map(|_| {
            json(&sign_up(&first, None))["name"]
                .as_str()
                .unwrap()
                .to_string()
        })
        .collect();
    drop(first);
    let now = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .unwrap()
        .as_millis() as i64;
    let day = 86_400_000_i64;
    // (rating, rd, games, days since the last game)
    let rows = [
        (1720.0, 70.0, 25, 1),    // on the board, first
        (1650.0, 80.0, 12, 2),    // on the board, second
        (1900.0, 150.0, 30, 1),   // provisional: off
        (1800.0, 60.0, 4, 1),     // too few games: off
        (1750.0, 100.0, 40, 900), // away long: RD widened past 110, off
    ];
    let file = rusqlite::Connection::open(&db).unwrap();
    for (name, (rating, rd, games, days)) in names.iter().zip(rows) {
        file.execute(
            "INSERT INTO ratings (player, perf, rating, rd, volatility, games, last_ms)
             SELECT id, 'ultimate-blitz', ?2, ?3, 0.06, ?4, ?5 FROM players WHERE name = ?1",
            rusqlite::params![name, rating, rd, games, now - days * day],
        )
        .unwrap();
    }
    drop(file);

    let server = server(&db);
    let board = json(&server.get("/api/leaderboard/ultimate-blitz", &[]));
    assert_eq!(board["perf"], "ultimate-blitz");
    let shown: Vec<(&str, f64)> = board["players"]
        .as_array()
        .unwrap()
        .iter()
        .map(|p| (p["name"].as_str().unwrap(), p["rating"].as_f64().unwrap()))
        .collect();
    assert_eq!(
        shown,
        [(names[0].as_str(), 1720.0), (names[1].as_str(), 1650.0)]
    );
    assert_eq!(board["players"][0]["rank"], 1);

    let empty = json(&server.get("/api/leaderboard/classic-rapid", &[]));
    assert_eq!(empty["players"].as_array().unwrap().len(), 0);
    let none = server.get("/api/leaderboard/chess-blitz", &[]);
    assert_eq!(status(&none), 404, "{none}");
    assert_eq!(json(&none)["error"], "no-such-perf");

    // A player's page shows every rating, provisional or not.
    let page = json(&server.get(&format!("/api/players/{}", names[2]), &[]));
    let blitz = &page["perfs"]["ultimate-blitz"];
    assert_eq!(blitz["rating"], 1900.0);
    assert_eq!(blitz["games"], 30);
    assert_eq!(blitz["provisional"], true);
    let settled = json(&server.get(&format!("/api/players/{}", names[0]), &[]));
    assert_eq!(settled["perfs"]["ultimate-blitz"]["provisional"], false);
}

#[test]
fn a_signed_in_player_holds_their_seat_by_name_and_keeps_it_across_a_restart() {
    let db = fresh_db();
    let first = server(&db);
    let made = sign_up(&first, None);
    let (ann, ann_name) = (
        secret(&made),
        json(&made)["name"].as_str().unwrap().to_string(),
    );
    let made = sign_up(&first, None);
    let (bob, bob_name) = (
        secret(&made),
        json(&made)["name"].as_str().unwrap().to_string(),
    );

    let mut x = Client::connect_as(first.addr, Some(&ann));
    x.send(&ClientMessage::Create { options: classic() });
    let (room, role, token) = x.joined();
    assert_eq!(role, Role::Seat0);
    let mut o = Client::connect_as(first.addr, Some(&bob));
    o.send(&ClientMessage::Join {
        room: room.clone(),
        token: None,
    });
    assert_eq!(o.joined().1, Role::Seat1);
    // classic() gives the creator X.
    let state = x.state(|s| s.o_name.is_some());
    assert_eq!(state.x_name.as_deref(), Some(ann_name.as_str()));
    assert_eq!(state.o_name.as_deref(), Some(bob_name.as_str()));

    // A guest watching is no player; a forged session is a guest.
    let mut guest = Client::connect_as(first.addr, Some(&"cd".repeat(32)));
    guest.send(&ClientMessage::Join {
        room: room.clone(),
        token: None,
    });
    assert_eq!(guest.joined().1, Role::Spectator);
    x.send(&mv(0, 0, 4));
    o.state(|s| s.record == "classic:b2");
    drop((x, o, guest));
    drop(first);

    // The names come back with the room from the file.
    let again = server(&db);
    let mut back = Client::connect_as(again.addr, Some(&ann));
    back.send(&ClientMessage::Join {
        room,
        token: token.clone(),
    });
    assert_eq!(back.joined().1, Role::Seat0);
    let state = back.state(|s| s.record == "classic:b2");
    assert_eq!(state.x_name.as_deref(), Some(ann_name.as_str()));
    assert_eq!(state.o_name.as_deref(), Some(bob_name.as_str()));
}

#[test]
fn a_rated_game_is_archived_and_rated_once_and_an_aborted_one_is_not_rated() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, ann_name) = player(&server);
    let (bob, bob_name) = player(&server);

    // X (Ann) wins on the diagonal c1-b2-a3 at the fifth move.
    let (mut x, mut o) = rated_room(&server, &ann, &bob);
    let mut last = None;
    for (ply, cell) in [4, 0, 2, 1, 6].into_iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut x } else { &mut o };
        mover.send(&mv(ply as u32, 0, cell));
        last = Some(mover.state(|s| s.record.len() > "classic:".len() + 2 * ply));
    }
    assert!(last.unwrap().result.is_some(), "the game did not end");

    let page = |name: &str| json(&server.get(&format!("/api/players/{name}"), &[]));
    let (won, lost) = (page(&ann_name), page(&bob_name));
    // Two new players (1500, RD 350): 1662 and 1338, as Glicko-2 has it.
    assert_eq!(won["perfs"]["classic-blitz"]["rating"], 1662.0, "{won}");
    assert_eq!(lost["perfs"]["classic-blitz"]["rating"], 1338.0, "{lost}");
    assert_eq!(won["perfs"]["classic-blitz"]["games"], 1);
    assert_eq!(won["perfs"]["classic-blitz"]["provisional"], true);

    let games = json(&server.get(&format!("/api/players/{ann_name}/games"), &[]));
    let game = &games["games"][0];
    assert_eq!(game["rated"], true, "{games}");
    assert_eq!(game["x"], ann_name.as_str());
    assert_eq!(game["o"], bob_name.as_str());
    assert_eq!(game["record"], "classic:b2a1c1b1a3");
    assert_eq!(game["result"]["winner"], "x");
    assert_eq!(game["xBefore"], 1500.0);
    assert!(game["xAfter"].as_f64().unwrap() > 1662.0 - 1.0);

    // A rematch request and more saves of the ended game rate nothing more.
    x.send(&ClientMessage::Rematch {});
    o.state(|s| !s.rematch.is_empty());
    assert_eq!(page(&ann_name)["perfs"]["classic-blitz"]["games"], 1);

    // Resigned after one move: archived, not rated.
    let (mut x2, mut o2) = rated_room(&server, &ann, &bob);
    x2.send(&mv(0, 0, 4));
    o2.state(|s| s.record == "classic:b2");
    o2.send(&ClientMessage::Resign {});
    x2.state(|s| s.result.is_some());
    let games = json(&server.get(&format!("/api/players/{bob_name}/games"), &[]));
    assert_eq!(games["games"].as_array().unwrap().len(), 2, "{games}");
    assert_eq!(games["games"][0]["rated"], false, "{games}");
    assert!(games["games"][0]["xBefore"].is_null());
    assert_eq!(page(&bob_name)["perfs"]["classic-blitz"]["games"], 1);
}

/// Plays Classic's c1-b2-a3 win for X from `x` and `o`, all but the last
/// move; returns the last move's message.
fn all_but_the_win(x: &mut Client, o: &mut Client) -> ClientMessage {
    for (ply, cell) in [4, 0, 2, 1].into_iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut *x } else { &mut *o };
        mover.send(&mv(ply as u32, 0, cell));
        mover.state(|s| s.record.len() == "classic:".len() + 2 * (ply + 1));
    }
    mv(4, 0, 6)
}

#[test]
fn a_games_end_taken_back_leaves_the_archive_and_gives_the_ratings_back() {
    let db = fresh_db();
    // Saves: two rooms made and seated (2 each), the first game's five
    // moves, the second's first four; the second's winning move (the
    // 14th save) takes 6 s, past the room's 3 s answer deadline.
    let points = "room-answer=return(3000);store-save=13*off->1*sleep(6000)->off";
    let server = server_failing(&db, Some(points));
    let (ann, ann_name) = player(&server);
    let (bob, bob_name) = player(&server);
    let (mut x, mut o) = rated_room(&server, &ann, &bob);
    let win = all_but_the_win(&mut x, &mut o);
    x.send(&win);
    assert!(x.state(|s| s.result.is_some()).result.is_some());
    let page = |name: &str| json(&server.get(&format!("/api/players/{name}"), &[]));
    let games = |name: &str| json(&server.get(&format!("/api/players/{name}/games"), &[]));
    let (won, lost) = (page(&ann_name), page(&bob_name));

    let (mut x, mut o) = rated_room(&server, &ann, &bob);
    let win = all_but_the_win(&mut x, &mut o);
    x.send(&win);
    let answer = x.until_within(Duration::from_secs(40), "the win's answer", |m| match m {
        ServerMessage::Error { code, .. } => Some(*code),
        ServerMessage::State { state, .. } if state.result.is_some() => Some(ErrorCode::GameOver),
        _ => None,
    });
    assert_eq!(
        answer,
        ErrorCode::ServerError,
        "the slow save was not refused"
    );
    // The stalled save ends (archiving and rating the win), then is taken
    // back: the archive and the ratings are as after the first game.
    std::thread::sleep(Duration::from_secs(5));
    assert_eq!(page(&ann_name), won);
    assert_eq!(page(&bob_name), lost);
    assert_eq!(games(&ann_name)["games"].as_array().map(Vec::len), Some(1));
    // The game goes on and its end, played again, is archived and rated.
    x.send(&win);
    x.state(|s| s.result.is_some());
    assert_eq!(games(&ann_name)["games"].as_array().map(Vec::len), Some(2));
    assert_eq!(page(&ann_name)["perfs"]["classic-blitz"]["games"], 2);
}

#[test]
fn rated_games_are_for_signed_in_players_and_pages_are_bounded() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, ann_name) = player(&server);

    let mut guest = Client::connect(server.addr);
    guest.send(&ClientMessage::Create {
        options: rated_classic(),
    });
    assert_eq!(guest.error(), uttt_protocol::ErrorCode::BadOptions);

    // A rated game has a clock: without one it could be stalled for ever.
    let mut x = Client::connect_as(server.addr, Some(&ann));
    x.send(&ClientMessage::Create {
        options: uttt_protocol::RoomOptions {
            days: None,
            clock: None,
            ..rated_classic()
        },
    });
    assert_eq!(x.error(), uttt_protocol::ErrorCode::BadOptions);
    x.send(&ClientMessage::Create {
        options: rated_classic(),
    });
    let (room, _, _) = x.joined();
    let mut intruder = Client::connect(server.addr);
    intruder.send(&ClientMessage::Join { room, token: None });
    assert_eq!(intruder.error(), uttt_protocol::ErrorCode::NotAPlayer);

    for bad in ["0", "1001", "abc", "-1"] {
        let reply = server.get(&format!("/api/players/{ann_name}/games?page={bad}"), &[]);
        assert_eq!(status(&reply), 400, "{bad}: {reply}");
        assert_eq!(json(&reply)["error"], "bad-page");
    }
    let none = json(&server.get(&format!("/api/players/{ann_name}/games?page=2"), &[]));
    assert_eq!(none["games"].as_array().unwrap().len(), 0);
    let nobody = server.get("/api/players/NobodyHere1/games", &[]);
    assert_eq!(status(&nobody), 404);
}

/// A change asked by this server's page: `POST path` with `body` (JSON),
/// the session `secret` and the CSRF token `csrf`, when given.
fn change(server: &Server, path: &str, secret: &str, csrf: Option<&str>, body: &str) -> String {
    change_by(server, "POST", path, secret, csrf, body)
}

/// As [`change`], with `method`.
fn change_by(
    server: &Server,
    method: &str,
    path: &str,
    secret: &str,
    csrf: Option<&str>,
    body: &str,
) -> String {
    let mut request = format!(
        "{method} {path} HTTP/1.1\r\nHost: {addr}\r\nConnection: close\r\nOrigin: http://{addr}\r\n\
         Cookie: uttt_session={secret}\r\nContent-Type: application/json\r\nContent-Length: {}\r\n",
        body.len(),
        addr = server.addr
    );
    if let Some(csrf) = csrf {
        request.push_str(&format!("X-CSRF-Token: {csrf}\r\n"));
    }
    request.push_str("\r\n");
    request.push_str(body);
    server.raw(request.as_bytes())
}

#[test]
fn a_player_renames_once_a_day_with_the_sessions_token_and_signs_out() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, ann_name, ann_csrf) = signed_up(&server);
    let (bob, _, bob_csrf) = signed_up(&server);

    // Without the token, with another's, or from another site: refused.
    let body = r#"{"name":"Annabel"}"#;
    let none = change(&server, "/api/me/name", &ann, None, body);
    assert_eq!(status(&none), 403, "{none}");
    assert_eq!(json(&none)["error"], "bad-csrf");
    let wrong = change(&server, "/api/me/name", &ann, Some(&bob_csrf), body);
    assert_eq!(json(&wrong)["error"], "bad-csrf");
    let foreign = server.raw(
        format!(
            "POST /api/me/name HTTP/1.1\r\nHost: {a}\r\nConnection: close\r\nOrigin: http://evil.example\r\n\
             Cookie: uttt_session={ann}\r\nX-CSRF-Token: {ann_csrf}\r\nContent-Length: {}\r\n\r\n{body}",
            body.len(),
            a = server.addr
        )
        .as_bytes(),
    );
    assert_eq!(json(&foreign)["error"], "bad-origin", "{foreign}");
    let signed_out = change(
        &server,
        "/api/me/name",
        &"ef".repeat(32),
        Some(&ann_csrf),
        body,
    );
    assert_eq!(status(&signed_out), 401, "{signed_out}");
    assert_eq!(
        json(&page_of(&server, "Annabel"))["error"],
        "no-such-player"
    );

    // The rules, then the name taken.
    let bad = change(
        &server,
        "/api/me/name",
        &ann,
        Some(&ann_csrf),
        r#"{"name":"the admin"}"#,
    );
    assert_eq!(
        (status(&bad), json(&bad)["error"].clone()),
        (400, "bad-name".into())
    );
    let junk = change(
        &server,
        "/api/me/name",
        &ann,
        Some(&ann_csrf),
        r#"{"nom":1}"#,
    );
    assert_eq!(json(&junk)["error"], "bad-body", "{junk}");
    let done = change(&server, "/api/me/name", &ann, Some(&ann_csrf), body);
    assert_eq!(status(&done), 200, "{done}");
    let me = server.get("/api/me", &[&format!("Cookie: uttt_session={ann}")]);
    assert_eq!(json(&me)["name"], "Annabel");
    assert_eq!(status(&page_of(&server, &ann_name)), 404);
    let again = change(
        &server,
        "/api/me/name",
        &ann,
        Some(&ann_csrf),
        r#"{"name":"Annie"}"#,
    );
    assert_eq!(
        (status(&again), json(&again)["error"].clone()),
        (429, "too-soon".into())
    );
    let taken = change(
        &server,
        "/api/me/name",
        &bob,
        Some(&bob_csrf),
        r#"{"name":"ANNABEL"}"#,
    );
    assert_eq!(
        (status(&taken), json(&taken)["error"].clone()),
        (409, "name-taken".into())
    );

    // Signed out: the cookie is cleared and the session is gone.
    let out = change(&server, "/api/signout", &ann, Some(&ann_csrf), "");
    assert_eq!(status(&out), 204, "{out}");
    assert!(header(&out, "set-cookie").unwrap().contains("Max-Age=0"));
    let me = server.get("/api/me", &[&format!("Cookie: uttt_session={ann}")]);
    assert_eq!(status(&me), 401, "{me}");
}

fn page_of(server: &Server, name: &str) -> String {
    server.get(&format!("/api/players/{name}"), &[])
}

#[test]
fn sessions_are_listed_and_ended_and_a_deleted_account_leaves_its_games_anonymous() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, ann_name, ann_csrf) = signed_up(&server);
    let (bob, _, bob_csrf) = signed_up(&server);

    let list = json(&server.get(
        "/api/me/sessions",
        &[&format!("Cookie: uttt_session={bob}")],
    ));
    let sessions = list["sessions"].as_array().unwrap();
    assert_eq!(sessions.len(), 1, "{list}");
    assert_eq!(sessions[0]["current"], true);
    let handle = sessions[0]["id"].as_str().unwrap().to_string();
    assert!(!bob.starts_with(&handle), "the list shows the secret");
    assert_eq!(status(&server.get("/api/me/sessions", &[])), 401);

    // Ann cannot end Bob's session; a junk handle is nobody's.
    let theirs = change_by(
        &server,
        "DELETE",
        &format!("/api/me/sessions/{handle}"),
        &ann,
        Some(&ann_csrf),
        "",
    );
    assert_eq!(json(&theirs)["error"], "no-such-session", "{theirs}");
    let junk = change_by(
        &server,
        "DELETE",
        "/api/me/sessions/zz",
        &ann,
        Some(&ann_csrf),
        "",
    );
    assert_eq!(status(&junk), 404);
    let mine = change_by(
        &server,
        "DELETE",
        &format!("/api/me/sessions/{handle}"),
        &bob,
        Some(&bob_csrf),
        "",
    );
    assert_eq!(status(&mine), 204, "{mine}");
    assert_eq!(
        status(&server.get("/api/me", &[&format!("Cookie: uttt_session={bob}")])),
        401
    );

    // A game between them, archived; then Ann deletes her account.
    let mut x = Client::connect_as(server.addr, Some(&ann));
    x.send(&ClientMessage::Create { options: classic() });
    let (room, _, _) = x.joined();
    let mut o = Client::connect(server.addr);
    o.send(&ClientMessage::Join { room, token: None });
    o.joined();
    x.send(&ClientMessage::Resign {});
    o.state(|s| s.result.is_some());
    let without_token = change_by(&server, "DELETE", "/api/me", &ann, None, "");
    assert_eq!(json(&without_token)["error"], "bad-csrf");
    let gone = change_by(&server, "DELETE", "/api/me", &ann, Some(&ann_csrf), "");
    assert_eq!(status(&gone), 204, "{gone}");
    assert!(header(&gone, "set-cookie").unwrap().contains("Max-Age=0"));
    assert_eq!(status(&page_of(&server, &ann_name)), 404);
    assert_eq!(
        status(&server.get("/api/me", &[&format!("Cookie: uttt_session={ann}")])),
        401
    );
    drop(server);
    let file = rusqlite::Connection::open(&db).unwrap();
    let (name, deleted): (String, Option<i64>) = file
        .query_row(
            "SELECT players.name, players.deleted_ms FROM games JOIN players ON players.id = games.x",
            [],
            |r| Ok((r.get(0)?, r.get(1)?)),
        )
        .unwrap();
    assert!(name.starts_with("deleted-") && deleted.is_some(), "{name}");
    assert_ne!(name, ann_name);
}

#[test]
fn one_address_makes_ten_players_at_once_then_waits() {
    let db = fresh_db();
    let server = server(&db);
    let first = sign_up(&server, None);
    let kept = secret(&first);
    for n in 2..=10 {
        assert_eq!(status(&sign_up(&server, None)), 201, "player {n}");
    }
    let eleventh = sign_up(&server, None);
    assert_eq!(status(&eleventh), 429, "{eleventh}");
    assert_eq!(json(&eleventh)["error"], "rate-limited");
    assert!(header(&eleventh, "set-cookie").is_none());
    // A player who has a session is not a new one: still answered.
    assert_eq!(status(&sign_up(&server, Some(&kept))), 200);
}

#[test]
fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_allowance() {
    let signup_from = |server: &Server, client: &str| {
        let origin = format!("Origin: http://{}", server.addr);
        let forwarded = format!("X-Forwarded-For: 1.2.3.4, {client}");
        let headers = [origin.as_str(), forwarded.as_str(), "Content-Length: 0"];
        status(&server.request("POST", "/api/session", &headers))
    };
    let site = small_site("players");
    let db = fresh_db();
    let behind = Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
        "--trusted-proxy",
        "127.0.0.1",
        "--max-connections-per-address",
        "2",
    ]);
    for n in 1..=10 {
        assert_eq!(signup_from(&behind, "198.51.100.1"), 201, "player {n}");
    }
    assert_eq!(signup_from(&behind, "198.51.100.1"), 429);
    // Another client of the proxy, though the address it wrote first is the same.
    assert_eq!(signup_from(&behind, "198.51.100.2"), 201);

    // Game connections: each client behind the proxy holds as many as one
    // reaching the server directly (two here), not the proxy's all.
    let upgrade = |client: &str| {
        let mut stream = std::net::TcpStream::connect(behind.addr).unwrap();
        let addr = behind.addr;
        write!(
            stream,
            "GET /ws HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nConnection: Upgrade\r\n\
             Upgrade: websocket\r\nSec-WebSocket-Version: 13\r\n\
             Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-Forwarded-For: {client}\r\n\r\n"
        )
        .unwrap();
        let mut head = Vec::new();
        let mut byte = [0u8; 1];
        while !head.ends_with(b"\r\n\r\n") && stream.read(&mut byte).unwrap() == 1 {
            head.push(byte[0]);
        }
        (status(&String::from_utf8_lossy(&head)), stream)
    };
    let first = upgrade("198.51.100.3");
    let second = upgrade("198.51.100.3");
    assert_eq!((first.0, second.0), (101, 101));
    assert_eq!(upgrade("198.51.100.3").0, 503);
    assert_eq!(upgrade("198.51.100.4").0, 101);
    drop((first, second));
    drop(behind);

    // Without the option, the header is anyone's to write and counts for nothing.
    let direct = server(&fresh_db());
    for n in 1..=10 {
        assert_eq!(
            signup_from(&direct, &format!("198.51.100.{n}")),
            201,
            "player {n}"
        );
    }
    assert_eq!(signup_from(&direct, "198.51.100.99"), 429);
}
