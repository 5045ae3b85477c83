//! An error frame means nothing changed, also when the database stalls or
//! refuses: a real `uttt-server` whose store is stalled or made to fail on
//! purpose through its fail points (`FAILPOINTS`, the `failpoints`
//! feature: the store holds its database exclusively, so no other process
//! can stall it), and real clients.

use std::time::Duration;

use crate::support::client::{classic, mv, Client};
use crate::support::{fresh_db, seated, small_site, Server};
use uttt_protocol::{ClientMessage, ErrorCode, RoomState, ServerMessage};

/// Saves before the first move of a room from `seated`: the room made, the
/// second seat taken.
const SEATING_SAVES: usize = 2;

/// The room's state as a newcomer reads it.
fn state_of(server: &Server, room: &str) -> RoomState {
    let mut watcher = Client::connect(server.addr);
    watcher.send(&ClientMessage::Join {
        room: room.to_string(),
        token: None,
    });
    watcher.state(|_| true)
}

/// What the mover hears after its move: the state with it, or an error.
fn answer(mover: &mut Client) -> Result<RoomState, ErrorCode> {
    mover.until_within(Duration::from_secs(40), "the move's answer", |m| match m {
        ServerMessage::State { state, .. } if state.record.ends_with("b2") => {
            Some(Ok((**state).clone()))
        }
        ServerMessage::Error { code, .. } => Some(Err(*code)),
        _ => None,
    })
}

fn server(db: &std::path::Path) -> Server {
    server_failing(db, None)
}

/// A server whose fail points are armed with `failpoints` (the
/// `FAILPOINTS` syntax of the fail crate), if given.
fn server_failing(db: &std::path::Path, failpoints: Option<&str>) -> Server {
    let site = small_site("stall");
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
fn a_move_the_store_refuses_changes_nothing() {
    let db = fresh_db();
    // The first move's save fails; every later one is let through.
    let points = format!("store-save={SEATING_SAVES}*off->1*return->off");
    let failing = server_failing(&db, Some(&points));
    let (mut x, mut o, room, _) = seated(&failing, classic());
    x.send(&mv(0, 0, 4));
    assert_eq!(answer(&mut x), Err(ErrorCode::ServerError));
    assert_eq!(state_of(&failing, &room).record, "classic:");
    assert!(
        !o.seen
            .iter()
            .any(|m| matches!(m, ServerMessage::State { state, .. } if state.record != "classic:")),
        "the opponent heard of a refused move"
    );
    // The store takes saves again: the same move is played.
    x.send(&mv(0, 0, 4));
    assert!(answer(&mut x).is_ok());
    o.state(|s| s.record == "classic:b2");
}

#[test]
fn a_move_the_store_saves_after_its_player_gave_up_is_taken_back() {
    let db = fresh_db();
    // The room answers within 3 s; the first move's save takes 6 s.
    let points =
        format!("room-answer=return(3000);store-save={SEATING_SAVES}*off->1*sleep(6000)->off");
    let failing = server_failing(&db, Some(&points));
    let (mut x, o, room, _) = seated(&failing, classic());
    x.send(&mv(0, 0, 4));
    assert_eq!(answer(&mut x), Err(ErrorCode::ServerError));
    // The stalled save ends and is undone: as the error said, no move. (No
    // one joins meanwhile: a join saves the room as it is in memory, which
    // would hide a take-back that never reached the disk.)
    std::thread::sleep(Duration::from_secs(5));
    assert!(
        !o.seen
            .iter()
            .any(|m| matches!(m, ServerMessage::State { state, .. } if state.record != "classic:")),
        "the opponent heard of a move its player was told failed"
    );
    // Undone on disk: a server started again on the file has no move.
    drop((x, o));
    drop(failing);
    let again = server(&db);
    assert_eq!(state_of(&again, &room).record, "classic:");
}

#[test]
fn a_second_server_on_the_same_database_exits_and_the_first_goes_on() {
    let db = fresh_db();
    let first = server(&db);
    let (mut x, mut o, _, _) = seated(&first, classic());
    let site = small_site("second");
    let second = std::process::Command::new(env!("CARGO_BIN_EXE_uttt-server"))
        .args([
            "--addr",
            "127.0.0.1:0",
            "--site",
            site.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ])
        .output()
        .unwrap();
    assert!(!second.status.success());
    let said = String::from_utf8_lossy(&second.stderr);
    assert!(
        said.contains("another uttt-server is using the database"),
        "{said}"
    );
    assert!(!String::from_utf8_lossy(&second.stdout).contains("serving"));
    x.send(&mv(0, 0, 4));
    o.state(|s| s.record == "classic:b2");
}
