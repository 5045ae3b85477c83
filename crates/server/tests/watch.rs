//! The Watch page's API against a real `uttt-server`: the games in play
//! anyone may watch, the best rated first, but for those of a player who
//! keeps theirs off the page; and the games ended last.

use crate::support::api::{call, json, new_player, Who};
use crate::support::client::{classic, Client};
use crate::support::{fresh_db, players_server, rated_win, Server};
use uttt_protocol::{ClientMessage, ClockSetting, Role, RoomOptions};

/// A casual game of Classic at 3+2 (blitz) between `x` and `o` (sessions,
/// or guests), both seated.
fn seated(server: &Server, x: Option<&str>, o: Option<&str>) -> (Client, Client, String) {
    let options = RoomOptions {
        clock: Some(ClockSetting {
            initial: 180,
            increment: 2,
        }),
        ..classic()
    };
    let mut a = Client::connect_as(server.addr, x);
    a.send(&ClientMessage::Create { options });
    let (room, _, _) = a.joined();
    let mut b = Client::connect_as(server.addr, o);
    b.send(&ClientMessage::Join {
        room: room.clone(),
        token: None,
    });
    assert_eq!(b.joined().1, Role::Seat1);
    a.state(|s| s.o != uttt_protocol::Presence::Empty);
    (a, b, room)
}

#[test]
fn the_watch_list_puts_the_best_rated_first_and_leaves_hidden_games_out() {
    let db = fresh_db();
    let server = players_server("watch", &db, &[]);
    let (ann, ann_name, _) = new_player(&server);
    let (bob, bob_name, _) = new_player(&server);
    // Ann 1662, Bob 1338 at Classic blitz, after a game that ends.
    rated_win(&server, &ann, &bob);
    let (erin, _, _) = new_player(&server);
    let (frank, _, _) = new_player(&server);
    let (carl, _, carl_csrf) = new_player(&server);
    let (dave, _, _) = new_player(&server);

    // Carl keeps his games off the page.
    let me = Who::page(&carl, &carl_csrf);
    let hidden = call(
        &server,
        "POST",
        "/api/me/settings",
        &me,
        r#"{"hideGames":true}"#,
    );
    assert_eq!(hidden.status, 200, "{}", hidden.raw);
    let read = call(&server, "GET", "/api/me/settings", &me, "");
    assert_eq!(read.body["hideGames"], true);
    let bad = call(&server, "POST", "/api/me/settings", &me, r#"{"hide":1}"#);
    assert_eq!(bad.status, 400);
    let stranger = call(
        &server,
        "POST",
        "/api/me/settings",
        &Who::default(),
        r#"{"hideGames":true}"#,
    );
    assert_eq!(stranger.status, 401);

    let (_ab, _eb, guests) = seated(&server, None, None);
    let (_bq, _fq, low) = seated(&server, Some(&bob), Some(&frank));
    let (_ap, _ep, top) = seated(&server, Some(&ann), Some(&erin));
    let (_cc, _dc, _hidden) = seated(&server, Some(&carl), Some(&dave));

    let watch = json(&server.get("/api/watch", &[]));
    let live: Vec<&str> = watch["live"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["room"].as_str().unwrap())
        .collect();
    // By the mean of the players' blitz ratings: Ann and a new player
    // (1581), two guests (1500), Bob and a new player (1419); not by age.
    assert_eq!(
        live,
        vec![top.as_str(), guests.as_str(), low.as_str()],
        "{watch}"
    );
    let first = &watch["live"][0];
    assert_eq!(first["x"]["name"], ann_name.as_str());
    assert_eq!(first["x"]["rating"], 1662.0);
    assert_eq!(first["o"]["provisional"], true);
    assert_eq!(first["clock"]["initial"], 180);
    assert_eq!(watch["live"][1]["x"], serde_json::Value::Null);
    // ...and the rated game ended is the first of the recent ones.
    assert_eq!(watch["recent"][0]["x"], ann_name.as_str());
    assert_eq!(watch["recent"][0]["o"], bob_name.as_str());
}
