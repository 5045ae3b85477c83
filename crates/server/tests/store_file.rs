//! The store and its file: what happens to players' moves when the
//! database file is removed, replaced, cut, read-only or on a full disk, and
//! that no shared-memory file exists to be damaged. Real `uttt-server`
//! processes; the small disk and the read-only file are made in a mount
//! namespace of the server's own (`unshare`), so nothing outside changes.

use std::path::Path;

use crate::support::client::{classic, mv, Client};
use crate::support::{fresh_db, seated, small_site, start_refused, Server};
use uttt_core::record::parse_record;
use uttt_protocol::{ColourChoice, ErrorCode, Kind, RoomOptions, RuleSet, ServerMessage};

fn server(db: &Path) -> Server {
    let site = small_site("file");
    Server::start(&[
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ])
}

/// What the mover hears after a move that makes the record `record`: the
/// new state, or an error.
fn answer(mover: &mut Client, record: &str) -> Result<(), ErrorCode> {
    mover.until(&format!("the answer to {record}"), |m| match m {
        ServerMessage::State { state, .. } if state.record == record => Some(Ok(())),
        ServerMessage::Error { code, .. } => Some(Err(*code)),
        _ => None,
    })
}

/// Whether `client` heard of a state whose record is `record`.
fn heard(client: &Client, record: &str) -> bool {
    client
        .seen
        .iter()
        .any(|m| matches!(m, ServerMessage::State { state, .. } if state.record == record))
}

fn waits_for(server: &Server, words: &str) {
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(10);
    while !server.lines().iter().any(|l| l.contains(words)) {
        assert!(
            std::time::Instant::now() < deadline,
            "the server never said `{words}`: {:?}",
            server.lines()
        );
        std::thread::sleep(std::time::Duration::from_millis(20));
    }
}

fn sibling(db: &Path, suffix: &str) -> std::path::PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(suffix);
    name.into()
}

#[test]
fn the_log_index_is_in_memory_so_no_shared_memory_file_can_crash_it() {
    let db = fresh_db();
    let server = server(&db);
    let (mut x, mut o, _, _) = seated(&server, classic());
    x.send(&mv(0, 0, 4));
    assert_eq!(answer(&mut x, "classic:b2"), Ok(()));
    assert!(
        sibling(&db, "-wal").exists(),
        "the write-ahead log is in use"
    );
    assert!(
        !sibling(&db, "-shm").exists(),
        "a shared-memory index was made"
    );
    // A stray one (made read-only, of junk) is never opened.
    let shm = sibling(&db, "-shm");
    std::fs::write(&shm, [0xA5; 100]).unwrap();
    let mut read_only = std::fs::metadata(&shm).unwrap().permissions();
    read_only.set_readonly(true);
    std::fs::set_permissions(&shm, read_only).unwrap();
    o.send(&mv(1, 0, 0));
    assert_eq!(answer(&mut o, "classic:b2a1"), Ok(()));
    x.send(&mv(2, 0, 8));
    assert_eq!(answer(&mut x, "classic:b2a1c3"), Ok(()));
}

#[test]
fn a_database_removed_while_serving_refuses_moves_says_so_and_is_not_made_anew() {
    let db = fresh_db();
    let first = server(&db);
    let (mut x, o, _, _) = seated(&first, classic());
    x.send(&mv(0, 0, 4));
    assert_eq!(answer(&mut x, "classic:b2"), Ok(()));
    std::fs::remove_file(&db).unwrap();
    let mut o = o;
    o.send(&mv(1, 0, 0));
    assert_eq!(answer(&mut o, "classic:b2a1"), Err(ErrorCode::ServerError));
    waits_for(&first, "ERROR: the database");
    assert!(
        !heard(&x, "classic:b2a1"),
        "the opponent heard of a move not stored"
    );
    drop((x, o));
    drop(first);

    let site = small_site("file");
    let args = [
        "--site",
        site.to_str().unwrap(),
        "--db",
        db.to_str().unwrap(),
    ];
    let (started, said) = start_refused(&[], &args);
    assert!(!started, "{said}");
    assert!(
        said.contains("is missing") && said.contains("--new-db"),
        "{said}"
    );
    assert!(!said.contains("serving"), "{said}");
    assert!(!db.exists(), "an empty database was made: {said}");

    // Emptied is as missing: SQLite would drop the log beside it.
    std::fs::write(&db, "").unwrap();
    let (started, said) = start_refused(&[], &args);
    assert!(!started, "{said}");
    assert!(
        said.contains("is empty") && said.contains("--new-db"),
        "{said}"
    );

    let mut asked = args.to_vec();
    asked.push("--new-db");
    let again = Server::start(&asked);
    waits_for(&again, "a new one is made");
}

#[test]
fn a_database_replaced_or_cut_while_serving_refuses_moves() {
    for fault in ["replaced", "cut"] {
        let db = fresh_db();
        let server = server(&db);
        let (mut x, mut o, _, _) = seated(&server, classic());
        x.send(&mv(0, 0, 4));
        assert_eq!(answer(&mut x, "classic:b2"), Ok(()));
        if fault == "replaced" {
            let other = sibling(&db, ".other");
            std::fs::copy(&db, &other).unwrap();
            std::fs::rename(&other, &db).unwrap();
        } else {
            std::fs::File::options()
                .write(true)
                .open(&db)
                .unwrap()
                .set_len(0)
                .unwrap();
        }
        o.send(&mv(1, 0, 0));
        assert_eq!(
            answer(&mut o, "classic:b2a1"),
            Err(ErrorCode::ServerError),
            "{fault}"
        );
        waits_for(&server, &format!("was {fault}"));
        assert!(!heard(&x, "classic:b2a1"), "{fault}: the opponent heard");
    }
}

/// `unshare` running `script` as root of new user and mount namespaces,
/// then the server: nothing the script mounts is seen outside.
fn in_namespace(script: &str) -> Vec<String> {
    [
        "unshare",
        "--user",
        "--map-root-user",
        "--mount",
        "sh",
        "-c",
    ]
    .map(String::from)
    .into_iter()
    .chain([format!("{script} && exec \"$@\""), "sh".into()])
    .collect()
}

#[test]
fn a_log_that_fills_a_small_disk_is_emptied_and_every_move_is_stored() {
    let disk = crate::support::scratch("small-disk");
    let db = disk.join("rooms.sqlite3");
    // 2 MiB, of which all but 448 KiB is taken before the server starts:
    // after its spare room (256 KiB) and the database, room for some
    // thirty pages of log, far less than the log holds before its regular
    // checkpoint.
    let script = format!(
        "mount -t tmpfs -o size=2m tmpfs '{dir}' && dd if=/dev/zero of='{dir}/filler' bs=4k count=400 2>/dev/null",
        dir = disk.display()
    );
    let wrapper = in_namespace(&script);
    let wrapper: Vec<&str> = wrapper.iter().map(String::as_str).collect();
    let site = small_site("file");
    let server = Server::start_wrapped(
        &wrapper,
        &[
            "--site",
            site.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ],
    );
    let ultimate = RoomOptions {
        days: None,
        kind: Kind::Ultimate,
        rules: RuleSet::Standard,
        colour: ColourChoice::X,
        clock: None,
        rated: false,
    };
    let mut stored = 0;
    for _ in 0..3 {
        let (x, o, _, _) = seated(&server, ultimate);
        let mut players = [x, o];
        let mut record = players[0].last_state().record;
        for ply in 0u32.. {
            let game = parse_record(&record).unwrap();
            let moves = game.legal_moves();
            if game.outcome().is_some() || moves.is_empty() {
                break;
            }
            // Not always the first: longer games, more saves.
            let (board, cell) = moves[(ply as usize * 7) % moves.len()];
            let mover = &mut players[ply as usize % 2];
            mover.send(&mv(ply, board, cell));
            let mut next = parse_record(&record).unwrap();
            next.play(board, cell).unwrap();
            let next = next.record().unwrap();
            let heard = answer(mover, &next);
            assert_eq!(heard, Ok(()), "move {ply}: {:?}", server.lines());
            record = next;
            stored += 1;
            // Within each connection's allowance of ten frames a second.
            std::thread::sleep(std::time::Duration::from_millis(50));
        }
    }
    assert!(
        stored > 60,
        "only {stored} moves: the log never filled the disk"
    );
}

#[test]
fn a_database_it_cannot_write_stops_it_before_it_serves() {
    let db = fresh_db();
    drop(server(&db));
    // The file alone is mounted read-only: the folder (and the lock file
    // beside it) stays writable, so it is the database's write that fails.
    let script = format!(
        "{{ mount --bind '{db}' '{db}' && mount -o remount,bind,ro '{db}'; }} || {{ echo 'the test could not mount' >&2; exit 97; }}",
        db = db.display()
    );
    let wrapper = in_namespace(&script);
    let wrapper: Vec<&str> = wrapper.iter().map(String::as_str).collect();
    let site = small_site("file");
    let (started, said) = start_refused(
        &wrapper,
        &[
            "--site",
            site.to_str().unwrap(),
            "--db",
            db.to_str().unwrap(),
        ],
    );
    assert!(!started, "{said}");
    assert!(!said.contains("could not mount"), "{said}");
    assert!(
        said.contains(&format!(
            "uttt-server: cannot prepare the database {}",
            db.display()
        )) || said.contains(&format!(
            "uttt-server: cannot write the database {}",
            db.display()
        )),
        "{said}"
    );
    assert!(!said.contains("serving"), "{said}");
}

#[test]
fn a_damaged_log_is_reported_at_start_and_kept() {
    let db = fresh_db();
    let first = server(&db);
    let (mut x, mut o, room, _) = seated(&first, classic());
    let moves = [
        (0, 4, "classic:b2"),
        (0, 0, "classic:b2a1"),
        (0, 8, "classic:b2a1c3"),
    ];
    for (ply, (board, cell, record)) in moves.into_iter().enumerate() {
        let mover = if ply % 2 == 0 { &mut x } else { &mut o };
        mover.send(&mv(ply as u32, board, cell));
        assert_eq!(answer(mover, record), Ok(()));
    }
    drop((x, o));
    // Killed: the log is left as it was, every save in it.
    drop(first);
    let log = sibling(&db, "-wal");
    let mut bytes = std::fs::read(&log).unwrap();
    let page = u32::from_be_bytes(bytes[8..12].try_into().unwrap()) as usize;
    // The frames that end a commit, in order: the last three are the moves.
    let commits: Vec<usize> = (32..bytes.len())
        .step_by(24 + page)
        .filter(|&at| bytes[at + 4..at + 8] != [0; 4])
        .collect();
    assert!(commits.len() >= 3, "{commits:?}");
    // A byte of the second move's commit: it and the third move are lost.
    bytes[commits[commits.len() - 2] + 24 + 100] ^= 0x01;
    std::fs::write(&log, &bytes).unwrap();

    let again = server(&db);
    waits_for(&again, "ERROR: the database's log");
    let said = again.lines().join("\n");
    assert!(
        said.contains("the 1 finished save after it cannot be recovered"),
        "{said}"
    );
    let dir = db.parent().unwrap();
    let kept = std::fs::read_dir(dir)
        .unwrap()
        .filter_map(Result::ok)
        .any(|f| f.file_name().to_string_lossy().contains("-wal.damaged-"));
    assert!(kept, "no copy of the damaged log in {}", dir.display());
    // The server serves: the room is there, from before the damage.
    let mut watcher = Client::connect(again.addr);
    watcher.send(&uttt_protocol::ClientMessage::Join { room, token: None });
    let record = watcher.until("the room or its absence", |m| match m {
        ServerMessage::State { state, .. } => Some(state.record.clone()),
        ServerMessage::Error { .. } => Some(String::new()),
        _ => None,
    });
    assert_eq!(record, "classic:b2", "the room as it was before the damage");
}

#[test]
fn a_database_of_the_servers_before_migrations_goes_on() {
    // Made by the server of 6 December 2026 (four games under way), before
    // the database had versions.
    let fixture = crate::support::repo_file("crates/server/tests/fixtures/rooms-2026-12.sqlite3");
    let db = fresh_db();
    std::fs::copy(&fixture, &db).unwrap();
    let before: Vec<(String, String)> = {
        let old = rusqlite::Connection::open(&fixture).unwrap();
        let mut rows = old.prepare("SELECT code, record FROM rooms").unwrap();
        rows.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))
            .unwrap()
            .map(Result::unwrap)
            .collect()
    };
    assert_eq!(before.len(), 4);
    // Each room read back as it is joined (the fixture ages past the week
    // of games brought back at start).
    let server = server(&db);
    for (room, record) in before {
        let mut watcher = Client::connect(server.addr);
        watcher.send(&uttt_protocol::ClientMessage::Join { room, token: None });
        watcher.state(|s| s.record == record);
    }
    drop(server);
    let version: u32 = rusqlite::Connection::open(&db)
        .unwrap()
        .query_row("PRAGMA user_version", [], |r| r.get(0))
        .unwrap();
    assert!(version >= 1, "the database was not brought up to date");
}
