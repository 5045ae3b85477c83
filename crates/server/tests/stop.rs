//! SIGTERM stops the server in order: a real `uttt-server` with players
//! connected, stopped as a service manager stops it, then started again.

use std::time::{Duration, Instant};

use crate::support::client::{classic, mv, Client};
use crate::support::{fresh_db, seated, small_site, Server};
use uttt_protocol::{ClientMessage, Role};

#[test]
fn sigterm_closes_every_game_connection_with_1012_and_loses_nothing() {
    let site = small_site("stop");
    let db = fresh_db();
    let args = [
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ];
    let mut first = Server::start(&args);
    let (mut x, mut o, room, [token_x, _]) = seated(&first, classic());
    x.send(&mv(0, 0, 4));
    o.state(|s| s.record == "classic:b2");

    let status = std::process::Command::new("kill")
        .args(["-TERM", &first.child.id().to_string()])
        .status()
        .unwrap();
    assert!(status.success());
    for player in [&mut x, &mut o] {
        assert_eq!(
            player.close_code_within(Duration::from_secs(10)),
            Some(1012)
        );
    }
    let deadline = Instant::now() + Duration::from_secs(15);
    let exit = loop {
        if let Some(exit) = first.child.try_wait().unwrap() {
            break exit;
        }
        assert!(
            Instant::now() < deadline,
            "the server did not exit after SIGTERM"
        );
        std::thread::sleep(Duration::from_millis(50));
    };
    assert!(exit.success(), "{exit:?}");
    std::thread::sleep(Duration::from_millis(200));
    let said = first.output.lock().unwrap().join("\n");
    assert!(
        said.contains("uttt-server: stopped: every game connection closed"),
        "{said}"
    );

    // The log was emptied into the file: the file alone, copied as a
    // backup would be, holds the game.
    let mut log = db.as_os_str().to_owned();
    log.push("-wal");
    let log_len = std::fs::metadata(std::path::PathBuf::from(log)).map_or(0, |m| m.len());
    assert_eq!(log_len, 0, "the log still holds changes after the stop");
    let backup = fresh_db();
    std::fs::copy(&db, &backup).unwrap();
    let copied = Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--db",
        backup.to_str().unwrap(),
    ]);
    let mut reader = Client::connect(copied.addr);
    reader.send(&ClientMessage::Join {
        room: room.clone(),
        token: None,
    });
    reader.state(|s| s.record == "classic:b2");

    // Started again on the same file: the game is where it was.
    let second = Server::start(&args);
    let mut back = Client::connect(second.addr);
    back.send(&ClientMessage::Join {
        room,
        token: Some(token_x),
    });
    assert_eq!(back.joined().1, Role::Seat0);
    back.state(|s| s.record == "classic:b2");
}
