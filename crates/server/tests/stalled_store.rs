//! An error frame means nothing changed, also when the database stalls: a
//! real `uttt-server` whose SQLite file another process holds locked for
//! a while, and real clients.

mod support;

use std::sync::mpsc;
use std::time::Duration;

use support::client::{classic, mv, Client};
use support::{fresh_db, seated, small_site, Server};
use uttt_protocol::{ClientMessage, ErrorCode, RoomState, ServerMessage};

/// Holds the database's write lock from another connection for `hold`,
/// from a thread; returns once the lock is taken.
fn lock_for(db: &std::path::Path, hold: Duration) -> std::thread::JoinHandle<()> {
    let db = db.to_path_buf();
    let (locked, taken) = mpsc::channel();
    let holder = std::thread::spawn(move || {
        let connection = rusqlite::Connection::open(&db).unwrap();
        connection.execute_batch("BEGIN IMMEDIATE").unwrap();
        locked.send(()).unwrap();
        std::thread::sleep(hold);
        connection.execute_batch("COMMIT").unwrap();
    });
    taken.recv().unwrap();
    holder
}

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
            Some(Ok(state.clone()))
        }
        ServerMessage::Error { code, .. } => Some(Err(*code)),
        _ => None,
    })
}

fn server(db: &std::path::Path) -> Server {
    let site = small_site("stall");
    Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ])
}

#[test]
fn a_move_refused_while_the_store_is_locked_changes_nothing() {
    let db = fresh_db();
    let server = server(&db);
    let (mut x, mut o, room, _) = seated(&server, classic());
    // Longer than the store waits for its lock: the save fails.
    let holder = lock_for(&db, Duration::from_secs(8));
    x.send(&mv(0, 0, 4));
    assert_eq!(answer(&mut x), Err(ErrorCode::ServerError));
    holder.join().unwrap();
    assert_eq!(state_of(&server, &room).record, "classic:");
    assert!(
        !o.seen
            .iter()
            .any(|m| matches!(m, ServerMessage::State { state, .. } if state.record != "classic:")),
        "the opponent heard of a refused move"
    );
    // The store is free again: the same move is played.
    x.send(&mv(0, 0, 4));
    assert!(answer(&mut x).is_ok());
    o.state(|s| s.record == "classic:b2");
}

#[test]
fn a_move_the_store_saves_late_is_confirmed_to_everyone_or_to_no_one() {
    let db = fresh_db();
    let server = server(&db);
    let (mut x, mut o, room, _) = seated(&server, classic());
    // About as long as the store waits for its lock: saved late, or refused.
    let holder = lock_for(&db, Duration::from_millis(5_300));
    x.send(&mv(0, 0, 4));
    let heard = answer(&mut x);
    holder.join().unwrap();
    let stored = state_of(&server, &room).record;
    match heard {
        Ok(_) => {
            assert_eq!(stored, "classic:b2");
            o.state(|s| s.record == "classic:b2");
        }
        Err(code) => {
            assert_eq!(code, ErrorCode::ServerError);
            assert_eq!(
                stored, "classic:",
                "an error was answered and the move made"
            );
        }
    }
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
