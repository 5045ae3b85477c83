//! A player's history over the JSON API (docs/api.md): the games a
//! browser attaches to the account, and the rating history the profile's
//! graphs draw, against a real `uttt-server` and its SQLite file.

use std::io::{Read, Write};
use std::net::TcpStream;
use std::time::Duration;

use crate::support::api::{call, new_player, Reply, Who};
use crate::support::{fresh_db, rated_win, small_site, Server};
use serde_json::{json, Value};

fn server(db: &std::path::Path) -> Server {
    let site = small_site("history");
    Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ])
}

/// A finished Classic game between two people, as the page's archive
/// keeps it: X wins on c1-b2-a3. `n` makes its id and its date.
fn entry(n: u32) -> Value {
    json!({
        "id": format!("g-{n}"),
        "date": format!("2026-12-{:02}T{:02}:{:02}:00.000Z", 1 + n / 1440, (n / 60) % 24, n % 60),
        "kind": "classic", "rules": "standard", "mode": "human",
        "level": null, "levelO": null, "side": null,
        "result": "x", "record": "classic:b2a1c1b1a3",
    })
}

fn put(server: &Server, who: &Who, entries: &[Value]) -> Reply {
    let body = json!({ "entries": entries }).to_string();
    call(server, "PUT", "/api/me/history", who, &body)
}

fn get(server: &Server, who: &Who, since: Option<u64>) -> Reply {
    let path = since.map_or("/api/me/history".to_string(), |s| {
        format!("/api/me/history?since={s}")
    });
    call(server, "GET", &path, who, "")
}

fn ids(reply: &Reply) -> Vec<String> {
    reply.body["entries"]
        .as_array()
        .unwrap_or_else(|| panic!("no entries: {}", reply.raw))
        .iter()
        .map(|e| e["id"].as_str().unwrap().to_string())
        .collect()
}

#[test]
fn attached_games_are_kept_by_id_for_their_player_only() {
    let db = fresh_db();
    let server = server(&db);
    let (secret, _, csrf) = new_player(&server);
    let ann = Who::page(&secret, &csrf);

    let stored = put(&server, &ann, &[entry(1), entry(2)]);
    assert_eq!(stored.status, 200, "{}", stored.raw);
    assert_eq!(stored.body, json!({"stored": 2, "kept": 2}));
    // A reading returns what was stored at or after its `since`, the
    // reading's own millisecond included (so nothing stored then is
    // missed): read in a later millisecond than the store, the next
    // reading holds only what is stored after.
    std::thread::sleep(Duration::from_millis(5));
    let read = get(&server, &ann, None);
    assert_eq!(read.status, 200, "{}", read.raw);
    assert_eq!(ids(&read), ["g-1", "g-2"]);
    assert_eq!(
        read.body["entries"][0],
        entry(1),
        "the entry as the page sent it"
    );
    let until = read.body["until"].as_u64().unwrap();

    // The same id again replaces it (now with a review); nothing is added.
    let mut reviewed = entry(2);
    reviewed["review"] = json!({"v": 1, "marks": "00000"});
    let again = put(&server, &ann, &[reviewed.clone()]);
    assert_eq!(again.body, json!({"stored": 1, "kept": 2}), "{}", again.raw);
    // Read since the last reading: only what was stored since.
    let since = get(&server, &ann, Some(until));
    assert_eq!(ids(&since), ["g-2"]);
    assert_eq!(since.body["entries"][0], reviewed);

    // Nobody else reads them, and nothing without a session, a token or this page.
    let (other, _, other_csrf) = new_player(&server);
    assert_eq!(
        ids(&get(&server, &Who::page(&other, &other_csrf), None)),
        Vec::<String>::new()
    );
    let nobody = get(&server, &Who::default(), None);
    assert_eq!((nobody.status, nobody.error()), (401, "signed-out"));
    let no_token = Who {
        csrf: None,
        ..ann.clone()
    };
    let refused = put(&server, &no_token, &[entry(3)]);
    assert_eq!((refused.status, refused.error()), (403, "bad-csrf"));
    let elsewhere = Who {
        origin: Some("https://evil.example".into()),
        ..ann.clone()
    };
    assert_eq!(put(&server, &elsewhere, &[entry(3)]).error(), "bad-origin");
    let bad_since = call(&server, "GET", "/api/me/history?since=soon", &ann, "");
    assert_eq!((bad_since.status, bad_since.error()), (400, "bad-since"));
    assert_eq!(ids(&get(&server, &ann, None)), ["g-1", "g-2"]);

    // Deleting the account deletes them.
    let deleted = call(&server, "DELETE", "/api/me", &ann, "");
    assert_eq!(deleted.status, 204, "{}", deleted.raw);
    drop(server);
    let rows: i64 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("SELECT COUNT(*) FROM attached_games", [], |r| r.get(0))
        .unwrap();
    assert_eq!(rows, 0, "an attached game outlived its account");
}

#[test]
fn a_bad_entry_refuses_its_batch_and_the_caps_hold() {
    let db = fresh_db();
    let server = server(&db);
    let (secret, _, csrf) = new_player(&server);
    let ann = Who::page(&secret, &csrf);

    // Each bad entry is refused with its index, and the batch with it.
    let mut illegal = entry(2);
    illegal["record"] = json!("classic:b2b2");
    let mut not_ended = entry(2);
    not_ended["record"] = json!("classic:b2a1");
    let mut wrong_end = entry(2);
    wrong_end["result"] = json!("o");
    let mut unknown_mode = entry(2);
    unknown_mode["mode"] = json!("teleport");
    let mut other_kind = entry(2);
    other_kind["kind"] = json!("ultimate");
    let mut huge = entry(2);
    huge["review"] = json!({"v": 1, "pad": "x".repeat(17 * 1024)});
    for bad in [
        illegal,
        not_ended,
        wrong_end,
        unknown_mode,
        other_kind,
        huge,
        json!("g-2"),
    ] {
        let refused = put(&server, &ann, &[entry(1), bad.clone(), entry(3)]);
        assert_eq!(
            (refused.status, refused.error()),
            (400, "bad-entry"),
            "{bad}: {}",
            refused.raw
        );
        assert_eq!(refused.body["index"], 1, "{}", refused.raw);
    }
    assert_eq!(
        ids(&get(&server, &ann, None)),
        Vec::<String>::new(),
        "half a batch was kept"
    );
    let not_json = call(&server, "PUT", "/api/me/history", &ann, "{\"games\": []}");
    assert_eq!((not_json.status, not_json.error()), (400, "bad-body"));

    // At most 50 a request.
    let many: Vec<Value> = (0..51).map(entry).collect();
    let refused = put(&server, &ann, &many);
    assert_eq!((refused.status, refused.error()), (400, "too-many-entries"));

    // At most 500 a player: the newest by their date.
    for start in (0..520).step_by(50) {
        let batch: Vec<Value> = (start..(start + 50).min(520)).map(entry).collect();
        let stored = put(&server, &ann, &batch);
        assert_eq!(stored.status, 200, "{}", stored.raw);
    }
    let kept = ids(&get(&server, &ann, None));
    assert_eq!(kept.len(), 500);
    assert_eq!(kept[0], "g-20", "the oldest were not the ones dropped");
    assert_eq!(kept[499], "g-519");

    // A body past the limit is refused before it is read whole.
    let padding = "x".repeat(1 << 20);
    let body = format!("{{\"entries\": [], \"pad\": \"{padding}\"}}");
    let answer = raw_put(&server, &ann, &body);
    assert!(
        answer.starts_with("HTTP/1.1 413"),
        "{}",
        &answer[..answer.len().min(300)]
    );
    assert!(answer.contains("too-large"), "{answer}");

    // Requests from one address are limited: 30 at once, then 30 a minute.
    let refused = (0..40)
        .map(|_| put(&server, &ann, &[]))
        .filter(|r| r.status == 429 && r.error() == "rate-limited")
        .count();
    assert!(refused > 0, "no request was held back");
    // Reading them spends the same allowance, now spent.
    let read = call(&server, "GET", "/api/me/history", &ann, "");
    assert_eq!(
        (read.status, read.error()),
        (429, "rate-limited"),
        "{}",
        read.raw
    );
}

/// `PUT /api/me/history` with `body`, written as far as the server reads it.
fn raw_put(server: &Server, who: &Who, body: &str) -> String {
    let mut stream = TcpStream::connect(server.addr).unwrap();
    stream
        .set_read_timeout(Some(Duration::from_secs(10)))
        .unwrap();
    let head = format!(
        "PUT /api/me/history HTTP/1.1\r\nHost: {addr}\r\nOrigin: http://{addr}\r\nConnection: close\r\n\
         Content-Type: application/json\r\nContent-Length: {}\r\nCookie: uttt_session={}\r\n\
         X-CSRF-Token: {}\r\n\r\n",
        body.len(),
        who.secret.as_deref().unwrap(),
        who.csrf.as_deref().unwrap(),
        addr = server.addr,
    );
    let _ = stream.write_all(head.as_bytes());
    // The server may answer and close before the body is all sent.
    let _ = stream.write_all(body.as_bytes());
    let mut reply = Vec::new();
    let _ = stream.read_to_end(&mut reply);
    String::from_utf8_lossy(&reply).into_owned()
}

#[test]
fn the_rating_history_follows_rated_games_oldest_first() {
    let db = fresh_db();
    let server = server(&db);
    let (ann, ann_name, _) = new_player(&server);
    let (bob, bob_name, _) = new_player(&server);
    let history = |name: &str| {
        call(
            &server,
            "GET",
            &format!("/api/players/{name}/history"),
            &Who::default(),
            "",
        )
    };
    assert_eq!(history(&ann_name).body, json!({"perfs": {}}));

    rated_win(&server, &ann, &bob);
    rated_win(&server, &bob, &ann);
    let read = history(&ann_name.to_lowercase());
    assert_eq!(read.status, 200, "{}", read.raw);
    let points = read.body["perfs"]["classic-blitz"]
        .as_array()
        .unwrap()
        .clone();
    assert_eq!(points.len(), 2, "{}", read.raw);
    // Won, then lost: up from 1500, then down; oldest first; as the
    // profile says it now.
    assert_eq!(points[0]["rating"], 1662.0);
    assert_eq!(points[0]["before"], 1500.0);
    assert_eq!(points[1]["before"], 1662.0);
    assert!(points[1]["rating"].as_f64().unwrap() < 1662.0);
    assert!(points[0]["at"].as_i64().unwrap() <= points[1]["at"].as_i64().unwrap());
    assert!(points[1]["rd"].as_f64().unwrap() < points[0]["rd"].as_f64().unwrap() + 1.0);
    let profile = call(
        &server,
        "GET",
        &format!("/api/players/{ann_name}"),
        &Who::default(),
        "",
    );
    assert_eq!(
        profile.body["perfs"]["classic-blitz"]["rating"],
        points[1]["rating"]
    );
    assert_eq!(
        history(&bob_name).body["perfs"]["classic-blitz"][0]["rating"],
        1338.0
    );

    let nobody = history("Nobody123");
    assert_eq!((nobody.status, nobody.error()), (404, "no-such-player"));
}

#[test]
fn a_database_of_the_version_before_takes_attached_games() {
    // A database as the server before attached games left it: a player
    // with a rated game, at version 4 (it takes correspondence games too).
    let db = fresh_db();
    let first = server(&db);
    let (ann, ann_name, _) = new_player(&first);
    let (bob, _, _) = new_player(&first);
    rated_win(&first, &ann, &bob);
    drop(first);
    {
        let old = rusqlite::Connection::open(&db).unwrap();
        old.execute_batch(
            "DROP TABLE attached_games; DROP TABLE chat_reports; DROP INDEX rooms_deadline; DROP INDEX rooms_player0;
             DROP INDEX rooms_player1; ALTER TABLE rooms DROP COLUMN deadline_ms;
             ALTER TABLE players DROP COLUMN hide_games; DROP INDEX games_ended;
             DROP TABLE push_subscriptions; DROP TABLE push_key; DROP INDEX rooms_remind;
             ALTER TABLE players DROP COLUMN push_kinds; ALTER TABLE rooms DROP COLUMN remind_ms;
             ALTER TABLE rooms DROP COLUMN reminded_ms;
             ALTER TABLE players DROP COLUMN vacation_year; ALTER TABLE players DROP COLUMN vacation_days;
             ALTER TABLE players DROP COLUMN vacation_until_ms; ALTER TABLE rooms DROP COLUMN vacation0_ms;
             ALTER TABLE rooms DROP COLUMN vacation1_ms;
             ALTER TABLE rooms DROP COLUMN conditional0; ALTER TABLE rooms DROP COLUMN conditional1;
             PRAGMA user_version = 4;",
        )
        .unwrap();
    }
    let server = server(&db);
    let version: u32 = {
        let reply = call(
            &server,
            "GET",
            &format!("/api/players/{ann_name}/history"),
            &Who::default(),
            "",
        );
        assert_eq!(
            reply.body["perfs"]["classic-blitz"][0]["rating"], 1662.0,
            "{}",
            reply.raw
        );
        // The session made before is still good, and the games are kept.
        let me = call(
            &server,
            "GET",
            "/api/me",
            &Who {
                secret: Some(ann.clone()),
                ..Who::default()
            },
            "",
        );
        let csrf = me.body["csrf"].as_str().unwrap().to_string();
        let stored = put(&server, &Who::page(&ann, &csrf), &[entry(1)]);
        assert_eq!(stored.status, 200, "{}", stored.raw);
        drop(server);
        rusqlite::Connection::open(&db)
            .unwrap()
            .query_row("PRAGMA user_version", [], |r| r.get(0))
            .unwrap()
    };
    assert_eq!(version, 11);
}
