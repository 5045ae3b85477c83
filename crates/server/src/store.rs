//! The rooms on disk: one SQLite file, one row per room, written before a
//! change is confirmed to anyone. One thread owns the connection; rooms
//! send it snapshots and wait for the commit, and it commits every save
//! waiting at that moment in one transaction, so many rooms moving at
//! once cost one disk sync, not one each.
//!
//! The journal is SQLite's write-ahead log with `synchronous = NORMAL`: a
//! committed change survives the process being killed at any moment (the
//! fault test does that); after a power cut the last changes before it may
//! be lost.
//!
//! The store owns its file (see `dbfile.rs`): it holds an exclusive lock
//! on `FILE.lock` for as long as it runs, so a second server on the same
//! database exits instead of overwriting the first one's moves; it writes
//! once at start, so a database it cannot write stops it before it says
//! it serves; and it looks at the file before each commit, so one removed
//! or replaced under it refuses changes instead of losing them. SQLite
//! runs in exclusive locking mode: the log's index is in the process's
//! memory, not in a shared `-shm` file whose damage would crash it.
//!
//! The log is checkpointed every `LOG_PAGES` pages and cut back to
//! `LOG_BYTES` after; a commit that finds the disk full lets go of the
//! spare room kept beside the database, checkpoints and empties the log,
//! then is tried once more, so a log that filled a disk does not refuse
//! every save until a restart.

use std::path::Path;
use std::sync::mpsc as std_mpsc;
use std::thread;

use rusqlite::{params, Connection, OptionalExtension};
use rusqlite_migration::{Migrations, M};
use tokio::sync::oneshot;
use uttt_protocol::{GameResult, RoomOptions, Side};

use crate::archive;
use crate::clock::epoch_ms;
use crate::dbfile::{self, Held, Spare};
use crate::players::Player;
use crate::room::Snapshot;

/// Saves waiting at once that one transaction takes at most.
const BATCH: usize = 512;
/// Jobs waiting for the database at most; past that a change is refused
/// (and undone) rather than queued without end.
const QUEUE: usize = 8192;
/// Unfinished games brought back at start-up: those with both seats
/// taken, stored in the last week.
const RESTORE_WITHIN_MS: u64 = 7 * 24 * 3600 * 1000;
/// Pages in the write-ahead log that start a checkpoint (SQLite's default
/// is 1000: 4 MiB, more than a small disk may have to spare).
const LOG_PAGES: u32 = 256;
/// The log's size kept after a checkpoint, in bytes.
const LOG_BYTES: u32 = 1 << 20;

enum Job {
    /// Boxed: a snapshot is many times the size of the other jobs.
    Save(Box<Snapshot>, oneshot::Sender<Result<(), String>>),
    Load(String, oneshot::Sender<Result<Option<Snapshot>, String>>),
    Delete(String, oneshot::Sender<Result<(), String>>),
    Close(oneshot::Sender<()>),
    Unfinished(oneshot::Sender<Result<Vec<Snapshot>, String>>),
    /// A write of another part of the server (players, sessions): run on
    /// the store's thread, watched as saves are.
    Write(WriteJob),
    /// A read of another part of the server.
    Read(Box<dyn FnOnce(&Connection) + Send>),
}

/// A write handed to the store's thread, given the database and its file.
type WriteJob = Box<dyn FnOnce(&Connection, &mut Held) + Send>;

/// The handle rooms hold.
#[derive(Clone)]
pub struct Store {
    jobs: std_mpsc::SyncSender<Job>,
}

/// The database's versions, each a step from the one before, run at start
/// (SQLite's `user_version` counts the steps taken). The first is the
/// schema of the servers before there were steps, so their files go on.
fn migrations() -> Migrations<'static> {
    Migrations::new(vec![
        M::up(include_str!("../migrations/01-rooms.sql")),
        M::up(include_str!("../migrations/02-players.sql")),
        M::up(include_str!("../migrations/03-undo.sql")),
        M::up(include_str!("../migrations/04-passkeys.sql")),
        M::up(include_str!("../migrations/05-history.sql")),
        M::up(include_str!("../migrations/06-correspondence.sql")),
        M::up(include_str!("../migrations/07-chat-reports.sql")),
        M::up(include_str!("../migrations/08-watch.sql")),
        M::up(include_str!("../migrations/09-push.sql")),
        M::up(include_str!("../migrations/10-vacation.sql")),
        M::up(include_str!("../migrations/11-conditional.sql")),
    ])
}

impl Store {
    /// Opens the database at `path` and starts its thread. A missing
    /// database is made, and said so; where a server has used one before,
    /// only when `new_db` (see `dbfile::claim`).
    ///
    /// # Errors
    /// When the file cannot be claimed, opened or written, or is not a
    /// database of this server.
    pub fn open(path: &Path, new_db: bool) -> Result<Store, String> {
        let claim = dbfile::claim(path, new_db)?;
        let connection = prepare(path)?;
        let file = claim.hold(path)?;
        let (jobs, queue) = std_mpsc::sync_channel(QUEUE);
        thread::Builder::new()
            .name("uttt-store".into())
            .spawn(move || run(&connection, file, &queue))
            .map_err(|e| format!("cannot start the database thread: {e}"))?;
        Ok(Store { jobs })
    }

    /// Writes `snapshot` and returns once it is committed.
    ///
    /// # Errors
    /// When the database refused it (the caller undoes the change).
    pub async fn save(&self, snapshot: Snapshot) -> Result<(), String> {
        let (reply, answer) = oneshot::channel();
        self.submit(Job::Save(Box::new(snapshot), reply))?;
        answer
            .await
            .map_err(|_| "the database thread has stopped".to_string())?
    }

    /// Hands `job` to the database thread without waiting for room in its
    /// queue.
    fn submit(&self, job: Job) -> Result<(), String> {
        self.jobs.try_send(job).map_err(|e| match e {
            std_mpsc::TrySendError::Full(_) => "the database is too busy".to_string(),
            std_mpsc::TrySendError::Disconnected(_) => {
                "the database thread has stopped".to_string()
            }
        })
    }

    /// The stored room `code`, if there is one.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn load(&self, code: &str) -> Result<Option<Snapshot>, String> {
        let (reply, answer) = oneshot::channel();
        self.submit(Job::Load(code.to_string(), reply))?;
        answer
            .await
            .map_err(|_| "the database thread has stopped".to_string())?
    }

    /// Returns once every job handed to the store before is done and the
    /// log is emptied into the database file, so the file alone holds every
    /// room (a copy of it is a backup); the store takes no job after.
    ///
    /// # Errors
    /// When the database thread has stopped.
    pub async fn close(&self) -> Result<(), String> {
        let (reply, answer) = oneshot::channel();
        let mut job = Job::Close(reply);
        // Never blocks a runtime thread: a full queue is waited out here.
        while let Err(refused) = self.jobs.try_send(job) {
            match refused {
                std_mpsc::TrySendError::Full(back) => {
                    job = back;
                    tokio::time::sleep(std::time::Duration::from_millis(20)).await;
                }
                std_mpsc::TrySendError::Disconnected(_) => {
                    return Err("the database thread has stopped".to_string())
                }
            }
        }
        answer
            .await
            .map_err(|_| "the database thread has stopped".to_string())
    }

    /// Runs `write` on the store's thread, in a transaction, and returns
    /// its answer once it is committed; the file is watched as for saves.
    /// The other parts of the server (players, sessions, ratings) keep
    /// their SQL beside them and hand it here.
    ///
    /// # Errors
    /// `write`'s own error (nothing of it is committed), or the store's.
    pub async fn write<T: Send + 'static>(
        &self,
        write: impl FnOnce(&Connection) -> Result<T, String> + Send + 'static,
    ) -> Result<T, String> {
        let (reply, answer) = oneshot::channel();
        let job = Job::Write(Box::new(move |connection: &Connection, file: &mut Held| {
            let mut value = None;
            let done = watched(file, |_| {
                let transaction = connection
                    .unchecked_transaction()
                    .map_err(|e| format!("cannot begin: {e}"))?;
                value = Some(write(&transaction)?);
                transaction
                    .commit()
                    .map_err(|e| format!("cannot commit: {e}"))
            });
            let _ =
                reply.send(done.and_then(|()| value.ok_or_else(|| "nothing was written".into())));
        }));
        self.submit(job)?;
        answer
            .await
            .map_err(|_| "the database thread has stopped".to_string())?
    }

    /// Runs `read` on the store's thread and returns its answer.
    ///
    /// # Errors
    /// `read`'s own error, or the store's.
    pub async fn read<T: Send + 'static>(
        &self,
        read: impl FnOnce(&Connection) -> Result<T, String> + Send + 'static,
    ) -> Result<T, String> {
        let (reply, answer) = oneshot::channel();
        self.submit(Job::Read(Box::new(move |connection: &Connection| {
            let _ = reply.send(read(connection));
        })))?;
        answer
            .await
            .map_err(|_| "the database thread has stopped".to_string())?
    }

    /// Deletes room `code`, if it is stored.
    ///
    /// # Errors
    /// When the database refused it.
    pub async fn delete(&self, code: &str) -> Result<(), String> {
        let (reply, answer) = oneshot::channel();
        self.submit(Job::Delete(code.to_string(), reply))?;
        answer
            .await
            .map_err(|_| "the database thread has stopped".to_string())?
    }

    /// The stored correspondence games in play whose side to move ran out
    /// of its days by `now` (ms since the epoch), `limit` at most, the
    /// longest overdue first.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn overdue(&self, now: u64, limit: u32) -> Result<Vec<Snapshot>, String> {
        self.rooms_where(
            "deadline_ms <= ?1 AND result IS NULL ORDER BY deadline_ms LIMIT ?2",
            (ms_to_sql(now), limit),
        )
        .await
    }

    /// The stored correspondence games in play whose side to move is due a
    /// reminder by `now` (ms since the epoch) and has not had it for this
    /// move, `limit` at most, the most pressing first.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn due_reminders(&self, now: u64, limit: u32) -> Result<Vec<Snapshot>, String> {
        self.rooms_where(
            "remind_ms <= ?1 AND result IS NULL AND deadline_ms > ?1
             AND reminded_ms IS NOT deadline_ms ORDER BY remind_ms LIMIT ?2",
            (ms_to_sql(now), limit),
        )
        .await
    }

    /// Claims the reminder of room `code`'s side to move before `deadline`
    /// (ms since the epoch): true when it is this caller's to send (the
    /// deadline still stands and nobody claimed it before), so a reminder
    /// is sent once, and only for the move it is for.
    ///
    /// # Errors
    /// When the database refused it.
    pub async fn claim_reminder(&self, code: String, deadline: u64) -> Result<bool, String> {
        self.write(move |connection| {
            connection
                .execute(
                    "UPDATE rooms SET reminded_ms = ?2
                     WHERE code = ?1 AND deadline_ms = ?2 AND reminded_ms IS NOT ?2",
                    params![code, ms_to_sql(deadline)],
                )
                .map(|rows| rows == 1)
                .map_err(|e| format!("cannot note the reminder: {e}"))
        })
        .await
    }

    /// Player `player`'s games in play (both seats taken, not ended):
    /// every correspondence game, and the others moved since `since` (ms
    /// since the epoch; one left longer is abandoned, not waiting), the
    /// most recently stored first, `limit` at most.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn playing(
        &self,
        player: i64,
        since: u64,
        limit: u32,
    ) -> Result<Vec<Snapshot>, String> {
        self.rooms_where(
            "result IS NULL AND token1 IS NOT NULL AND (player0 = ?1 OR player1 = ?1)
             AND (deadline_ms IS NOT NULL OR updated_ms >= ?2) ORDER BY updated_ms DESC LIMIT ?3",
            (player, ms_to_sql(since), limit),
        )
        .await
    }

    /// The games in play others may watch (both seats taken, no seat's
    /// player hiding their games): those moved since `since` (ms since the
    /// epoch) and every correspondence game, the most recently changed
    /// first, `limit` at most.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn watchable(&self, since: u64, limit: u32) -> Result<Vec<Snapshot>, String> {
        self.rooms_where(
            "result IS NULL AND token1 IS NOT NULL AND (updated_ms >= ?1 OR deadline_ms IS NOT NULL)
             AND COALESCE(seat0.hide_games, 0) = 0 AND COALESCE(seat1.hide_games, 0) = 0
             ORDER BY updated_ms DESC LIMIT ?2",
            (ms_to_sql(since), limit),
        )
        .await
    }

    /// The stored rooms `filter` (SQL after `WHERE`, over the rooms and
    /// their seats' players `seat0` and `seat1`) selects with `params`;
    /// rows that cannot be read are reported and left out.
    async fn rooms_where<P: rusqlite::Params + Send + 'static>(
        &self,
        filter: &'static str,
        params: P,
    ) -> Result<Vec<Snapshot>, String> {
        self.read(move |connection| {
            let mut query = connection
                .prepare_cached(&format!("SELECT {COLUMNS} FROM {ROOMS} WHERE {filter}"))
                .map_err(|e| e.to_string())?;
            let rows = query.query_map(params, row).map_err(|e| e.to_string())?;
            Ok(rows
                .filter_map(|read| read.map_err(unreadable_row).ok())
                .collect())
        })
        .await
    }

    /// The stored rooms whose game has not ended, with both seats taken,
    /// stored in the last week; rows that cannot be read are reported and
    /// left out.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub async fn unfinished(&self) -> Result<Vec<Snapshot>, String> {
        let (reply, answer) = oneshot::channel();
        self.submit(Job::Unfinished(reply))?;
        answer
            .await
            .map_err(|_| "the database thread has stopped".to_string())?
    }
}

/// Opens the database at `path` as the store uses it, brings its tables
/// up to date, and writes once, so a database it cannot write is found
/// now.
fn prepare(path: &Path) -> Result<Connection, String> {
    let mut connection = Connection::open(path)
        .map_err(|e| format!("cannot open the database {}: {e}", path.display()))?;
    // Exclusive before the first use of the log: then SQLite keeps its
    // index in memory and never maps a `-shm` file. No cache spill: frames
    // are only appended to the log (see `dbfile/walcheck.rs`).
    connection
        .execute_batch(&format!(
            "PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL; \
             PRAGMA synchronous = NORMAL; PRAGMA busy_timeout = 5000; PRAGMA cache_spill = OFF; \
             PRAGMA foreign_keys = ON; \
             PRAGMA wal_autocheckpoint = {LOG_PAGES}; PRAGMA journal_size_limit = {LOG_BYTES};"
        ))
        .map_err(|e| format!("cannot prepare the database {}: {e}", path.display()))?;
    migrations().to_latest(&mut connection).map_err(|e| {
        format!(
            "cannot bring the database {} up to date: {e}",
            path.display()
        )
    })?;
    connection
        .execute(
            "INSERT INTO server (id, started_ms) VALUES (1, ?1)
             ON CONFLICT (id) DO UPDATE SET started_ms = ?1",
            [ms_to_sql(epoch_ms())],
        )
        .map_err(|e| format!("cannot write the database {}: {e}", path.display()))?;
    Ok(connection)
}

/// The database thread: until every handle is gone, or it is closed.
fn run(connection: &Connection, mut file: Held, queue: &std_mpsc::Receiver<Job>) {
    while let Ok(first) = queue.recv() {
        let mut saves = Vec::new();
        let mut closing = None;
        let mut next = Some(first);
        while let Some(job) = next.take() {
            match job {
                Job::Save(snapshot, reply) => saves.push((snapshot, reply)),
                Job::Load(code, reply) => {
                    let _ = reply.send(load(connection, &code).map_err(|e| e.to_string()));
                }
                // Answered after this batch's saves are committed; no job
                // after it is taken.
                Job::Close(reply) => closing = Some(reply),
                Job::Delete(code, reply) => {
                    let deleted = watched(&mut file, |_| {
                        connection
                            .execute("DELETE FROM rooms WHERE code = ?1", [&code])
                            .map(drop)
                            .map_err(|e| format!("cannot delete room {code}: {e}"))
                    });
                    let _ = reply.send(deleted);
                }
                Job::Unfinished(reply) => {
                    let _ = reply.send(unfinished(connection).map_err(|e| e.to_string()));
                }
                Job::Write(write) => write(connection, &mut file),
                Job::Read(read) => read(connection),
            }
            if saves.len() < BATCH && closing.is_none() {
                next = queue.try_recv().ok();
            }
        }
        if !saves.is_empty() {
            let snapshots: Vec<&Snapshot> = saves.iter().map(|(s, _)| &**s).collect();
            let result = watched(&mut file, |spare| save_batch(connection, spare, &snapshots));
            for (_, reply) in saves {
                let _ = reply.send(result.clone());
            }
        }
        if let Some(reply) = closing {
            if let Err(e) = connection.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)") {
                eprintln!("uttt-server: the database's log could not be emptied into it: {e}");
            }
            let _ = reply.send(());
            return;
        }
    }
}

/// Runs `write` if the database file is whole, and says it failed if the
/// file was not whole after it either (removed or replaced meanwhile: the
/// change went to a file nobody will read).
fn watched(
    file: &mut Held,
    write: impl FnOnce(&mut Spare) -> Result<(), String>,
) -> Result<(), String> {
    file.watch.check()?;
    write(&mut file.spare)?;
    file.watch.check()
}

/// Commits `snapshots` in one transaction; when the disk is full, once
/// more after emptying the log into the database.
fn save_batch(
    connection: &Connection,
    spare: &mut Spare,
    snapshots: &[&Snapshot],
) -> Result<(), String> {
    match save_all(connection, snapshots) {
        Err(e) if e.sqlite_error_code() == Some(rusqlite::ErrorCode::DiskFull) => {
            // The log may be what fills the disk: only a checkpoint empties
            // it, with the spare room to grow the database into.
            spare.release();
            if let Err(e) = connection.execute_batch("PRAGMA wal_checkpoint(TRUNCATE)") {
                eprintln!(
                    "uttt-server: the disk is full and the database's log cannot be emptied: {e}"
                );
            }
            let retried = save_all(connection, snapshots);
            if retried.is_ok() {
                spare.say_used();
            }
            spare.refill();
            retried
        }
        done => done,
    }
    .map_err(|e| format!("cannot save: {e}"))
}

fn save_all(connection: &Connection, snapshots: &[&Snapshot]) -> rusqlite::Result<()> {
    // Tests stall or refuse a save here: FAILPOINTS=store-save=... (see
    // the `failpoints` feature and tests/stalled_store.rs).
    #[cfg(feature = "failpoints")]
    fail::fail_point!("store-save", |_| Err(rusqlite::Error::SqliteFailure(
        rusqlite::ffi::Error::new(rusqlite::ffi::SQLITE_IOERR),
        Some("refused by the store-save fail point".into()),
    )));
    let transaction = connection.unchecked_transaction()?;
    {
        let mut insert = transaction.prepare_cached(
            "INSERT INTO rooms (code, options, token0, token1, game_number, x_seat, record,
                clock_x, clock_o, result, draw_offer, rematch, updated_ms, player0, player1,
                deadline_ms, remind_ms, vacation0_ms, vacation1_ms, conditional0, conditional1)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17,
                ?18, ?19, ?20, ?21)
             ON CONFLICT (code) DO UPDATE SET options = ?2, token0 = ?3, token1 = ?4,
                game_number = ?5, x_seat = ?6, record = ?7, clock_x = ?8, clock_o = ?9,
                result = ?10, draw_offer = ?11, rematch = ?12, updated_ms = ?13,
                player0 = ?14, player1 = ?15, deadline_ms = ?16, remind_ms = ?17,
                vacation0_ms = ?18, vacation1_ms = ?19, conditional0 = ?20, conditional1 = ?21",
        )?;
        for s in snapshots {
            let [clock_x, clock_o] = s
                .clock_left
                .map_or([None, None], |[x, o]| [Some(x), Some(o)]);
            insert.execute(params![
                s.code,
                json(&s.options),
                s.tokens[0].clone().unwrap_or_default(),
                s.tokens[1],
                s.game_number,
                s.x_seat,
                s.record,
                clock_x.map(ms_to_sql),
                clock_o.map(ms_to_sql),
                s.result.as_ref().map(json),
                s.draw_offer.as_ref().map(json),
                u8::from(s.rematch[0]) | u8::from(s.rematch[1]) << 1,
                ms_to_sql(epoch_ms()),
                s.players[0].as_ref().map(|p| p.id),
                s.players[1].as_ref().map(|p| p.id),
                s.deadline.map(ms_to_sql),
                crate::push::remind_at(s).map(ms_to_sql),
                s.vacation[0].map(ms_to_sql),
                s.vacation[1].map(ms_to_sql),
                (!s.conditional[0].is_empty()).then(|| json(&s.conditional[0])),
                (!s.conditional[1].is_empty()).then(|| json(&s.conditional[1])),
            ])?;
            // The archive holds a game's end exactly when the saved room
            // says the game ended: archived and rated with the save that
            // stores its end, taken out with one that takes the end back.
            archive::archive_end(&transaction, s, epoch_ms())?;
            archive::unarchive_unended(&transaction, s)?;
        }
    }
    transaction.commit()
}

fn json<T: serde::Serialize>(value: &T) -> String {
    serde_json::to_string(value).unwrap_or_default()
}

/// Milliseconds as SQLite's signed integer (times and clocks are far
/// below 2^63).
pub(crate) fn ms_to_sql(ms: u64) -> i64 {
    i64::try_from(ms).unwrap_or(i64::MAX)
}

/// A room's columns, with its seats' players' names (`seat0`, `seat1`:
/// the players table, joined).
const COLUMNS: &str = "code, options, token0, token1, game_number, x_seat, record, clock_x, clock_o, result, draw_offer, rematch, player0, seat0.name, player1, seat1.name, deadline_ms, vacation0_ms, vacation1_ms, conditional0, conditional1";
/// The rooms, with their seats' players.
const ROOMS: &str = "rooms LEFT JOIN players AS seat0 ON seat0.id = rooms.player0 LEFT JOIN players AS seat1 ON seat1.id = rooms.player1";

fn load(connection: &Connection, code: &str) -> rusqlite::Result<Option<Snapshot>> {
    connection
        .prepare_cached(&format!("SELECT {COLUMNS} FROM {ROOMS} WHERE code = ?1"))?
        .query_row([code], row)
        .optional()
}

fn unfinished(connection: &Connection) -> rusqlite::Result<Vec<Snapshot>> {
    let since = ms_to_sql(epoch_ms().saturating_sub(RESTORE_WITHIN_MS));
    let mut rooms = Vec::new();
    let mut query = connection.prepare_cached(&format!(
        "SELECT {COLUMNS} FROM {ROOMS} WHERE result IS NULL AND token1 IS NOT NULL AND updated_ms >= ?1"
    ))?;
    for read in query.query_map([since], row)? {
        rooms.extend(read.map_err(unreadable_row).ok());
    }
    Ok(rooms)
}

/// Says that a stored room cannot be read: one bad row (say, written by a
/// newer version) must not keep the others, or the server, from starting.
fn unreadable_row(e: rusqlite::Error) {
    eprintln!("uttt-server: a stored room cannot be read and stays stored: {e}");
}

fn parse<T: serde::de::DeserializeOwned>(column: usize, text: &str) -> rusqlite::Result<T> {
    serde_json::from_str(text).map_err(|e| {
        rusqlite::Error::FromSqlConversionFailure(column, rusqlite::types::Type::Text, Box::new(e))
    })
}

fn row(r: &rusqlite::Row<'_>) -> rusqlite::Result<Snapshot> {
    let options: RoomOptions = parse(1, &r.get::<_, String>(1)?)?;
    let clock_x: Option<i64> = r.get(7)?;
    let clock_o: Option<i64> = r.get(8)?;
    let result: Option<String> = r.get(9)?;
    let draw_offer: Option<String> = r.get(10)?;
    let rematch: u8 = r.get(11)?;
    let ms = |v: i64| u64::try_from(v).unwrap_or(0);
    Ok(Snapshot {
        code: r.get(0)?,
        options,
        tokens: [Some(r.get(2)?), r.get(3)?],
        game_number: r.get(4)?,
        x_seat: r.get(5)?,
        record: r.get(6)?,
        clock_left: clock_x.zip(clock_o).map(|(x, o)| [ms(x), ms(o)]),
        result: result.map(|t| parse::<GameResult>(9, &t)).transpose()?,
        draw_offer: draw_offer.map(|t| parse::<Side>(10, &t)).transpose()?,
        rematch: [rematch & 1 != 0, rematch & 2 != 0],
        players: [(12, 13), (14, 15)].map(|(id, name)| seat_player(r, id, name)),
        deadline: r.get::<_, Option<i64>>(16)?.map(ms),
        vacation: [
            r.get::<_, Option<i64>>(17)?.map(ms),
            r.get::<_, Option<i64>>(18)?.map(ms),
        ],
        conditional: [conditional(r, 19)?, conditional(r, 20)?],
    })
}

/// A seat's conditional moves from column `i` (none: no lines).
fn conditional(r: &rusqlite::Row<'_>, i: usize) -> rusqlite::Result<crate::conditional::Lines> {
    r.get::<_, Option<String>>(i)?
        .map_or(Ok(Vec::new()), |text| parse(i, &text))
}

/// The player of a seat, from its id and name columns (none when the seat
/// had no signed-in player, or the row cannot be read).
fn seat_player(r: &rusqlite::Row<'_>, id: usize, name: usize) -> Option<Player> {
    let id: Option<i64> = r.get(id).ok()?;
    let name: Option<String> = r.get(name).ok()?;
    Some(Player {
        id: id?,
        name: name?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use uttt_protocol::{ColourChoice, EndReason, Kind, RuleSet};

    fn snapshot(code: &str, result: Option<GameResult>) -> Snapshot {
        Snapshot {
            code: code.into(),
            options: RoomOptions {
                days: None,
                kind: Kind::Ultimate,
                rules: RuleSet::Tiebreak,
                colour: ColourChoice::Random,
                clock: Some(uttt_protocol::ClockSetting {
                    initial: 180,
                    increment: 2,
                }),
                rated: false,
            },
            tokens: [Some("a".into()), None],
            players: [None, None],
            game_number: 3,
            x_seat: 1,
            record: "ultimate-tiebreak:e5".into(),
            clock_left: Some([1, 2]),
            deadline: None,
            result,
            draw_offer: Some(Side::O),
            rematch: [false, true],
            vacation: [None; 2],
            conditional: Default::default(),
        }
    }

    #[tokio::test]
    async fn saves_and_loads_rooms_across_reopening() {
        let dir = std::env::temp_dir().join(format!("uttt-store-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let path = dir.join("rooms.sqlite3");
        let store = Store::open(&path, false).unwrap();
        let open = snapshot("r1", None);
        let done = snapshot(
            "r2",
            Some(GameResult {
                winner: None,
                reason: EndReason::Agreed,
            }),
        );
        store.save(open.clone()).await.unwrap();
        store.save(done.clone()).await.unwrap();
        let mut moved = open.clone();
        moved.record = "ultimate-tiebreak:e5e4".into();
        moved.tokens[1] = Some("b".into());
        store.save(moved.clone()).await.unwrap();
        drop(store);

        // The thread lets go of the file once it sees its last handle gone.
        let reopened = std::time::Instant::now();
        let store = loop {
            match Store::open(&path, false) {
                Ok(store) => break store,
                Err(e) if reopened.elapsed() < std::time::Duration::from_secs(5) => {
                    assert!(e.contains("another uttt-server"), "{e}");
                    tokio::time::sleep(std::time::Duration::from_millis(10)).await;
                }
                Err(e) => panic!("{e}"),
            }
        };
        assert_eq!(store.load("r1").await.unwrap(), Some(moved.clone()));
        assert_eq!(store.load("r2").await.unwrap(), Some(done));
        assert_eq!(store.load("nope").await.unwrap(), None);
        assert_eq!(store.unfinished().await.unwrap(), vec![moved]);
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn the_migrations_are_valid() {
        migrations().validate().unwrap();
    }

    #[test]
    fn refuses_a_file_that_is_not_a_database() {
        let path = std::env::temp_dir().join(format!("uttt-store-bad-{}", std::process::id()));
        std::fs::write(&path, "not a database, just text that is long enough").unwrap();
        assert!(Store::open(&path, false).is_err());
        std::fs::remove_file(&path).unwrap();
    }
}
