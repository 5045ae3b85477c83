//! The database file as the store owns it: one server at a time (a lock
//! beside it); no new empty database in place of one that went missing or
//! was emptied, unless asked; the write-ahead log read before SQLite's
//! recovery, so damage to it is said (`walcheck.rs`); a watch on the files
//! while the server runs, so a database removed, replaced or cut under it
//! stops the confirming of changes loudly instead of losing them quietly
//! (`watch.rs`); and room kept on its disk for the checkpoint that empties
//! a log which filled it (`spare.rs`).

mod spare;
mod walcheck;
mod watch;

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

pub use spare::Spare;
pub use walcheck::{damage, Damage};
pub use watch::Watch;

/// `db` with `suffix` after its name (`rooms.sqlite3-wal`, `.lock`, ...).
fn beside(db: &Path, suffix: &str) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(suffix);
    PathBuf::from(name)
}

/// The database claimed before SQLite opens it: locked, and checked.
pub struct Claim {
    lock: File,
}

/// The database while the store uses it: its lock, the watch on it and
/// the spare room beside it.
pub struct Held {
    /// Held, never read: the lock lasts as long as the file is open.
    _lock: File,
    /// The files as the store opened them.
    pub watch: Watch,
    /// The room kept for a checkpoint on a full disk.
    pub spare: Spare,
}

/// Claims the database at `db` for this server: refuses a missing or
/// empty database that a server has used unless `new_db` (see
/// `may_open`), takes the lock, says when a new database is made, and
/// reports a damaged log before SQLite's recovery drops it quietly.
///
/// # Errors
/// When the database must not be opened, or another server holds it.
pub fn claim(db: &Path, new_db: bool) -> Result<Claim, String> {
    may_open(db, new_db)?;
    let lock = lock(db)?;
    if !has_data(db) {
        println!(
            "uttt-server: no database at {} yet: a new one is made",
            db.display()
        );
    }
    report_damaged_log(db);
    Ok(Claim { lock })
}

impl Claim {
    /// Starts watching the database at `db`, once SQLite has written it.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub fn hold(self, db: &Path) -> Result<Held, String> {
        Ok(Held {
            _lock: self.lock,
            watch: Watch::start(db)?,
            spare: Spare::keep(db),
        })
    }
}

/// Takes the exclusive lock on the database at `db` (the file `DB.lock`,
/// made if missing), held until the returned file is dropped.
fn lock(db: &Path) -> Result<File, String> {
    let lock_path = beside(db, ".lock");
    let file = OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(&lock_path)
        .map_err(|e| format!("cannot open the lock file {}: {e}", lock_path.display()))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(TryLockError::WouldBlock) => Err(format!(
            "another uttt-server is using the database {} (it holds {}): stop it, or give this one another --db",
            db.display(),
            lock_path.display()
        )),
        Err(TryLockError::Error(e)) => Err(format!("cannot lock {}: {e}", lock_path.display())),
    }
}

/// Whether the database file exists and holds anything.
fn has_data(db: &Path) -> bool {
    std::fs::metadata(db).is_ok_and(|meta| meta.len() > 0)
}

/// Whether a database may be made at `db`: always when one with data is
/// there or none ever was; when the file is missing or empty but a server
/// has used it (its lock file or write-ahead log is still beside it), only
/// if `new_db`. (SQLite, finding an empty database beside a log, deletes
/// the log, and every save in it with it.)
fn may_open(db: &Path, new_db: bool) -> Result<(), String> {
    if has_data(db) || new_db {
        return Ok(());
    }
    let traces = [beside(db, ".lock"), beside(db, "-wal")];
    match traces.iter().find(|t| t.exists()) {
        None => Ok(()),
        Some(trace) => Err(format!(
            "the database {} is {}, though a server has used it ({} is still there): \
             restore the file, or start with --new-db to begin again with no rooms",
            db.display(),
            if db.exists() { "empty" } else { "missing" },
            trace.display()
        )),
    }
}

/// Says whether saves in the log of the database at `db` are beyond
/// repair (see `walcheck.rs`), and keeps a copy of that log beside it.
fn report_damaged_log(db: &Path) {
    let log = beside(db, "-wal");
    let damage = match walcheck::damage(&log) {
        Ok(None) => return,
        Ok(Some(damage)) => damage,
        Err(e) => {
            eprintln!(
                "uttt-server: the database's log {} cannot be read: {e}",
                log.display()
            );
            return;
        }
    };
    let copy = beside(&log, &format!(".damaged-{}", crate::clock::epoch_ms()));
    let kept = match std::fs::copy(&log, &copy) {
        Ok(_) => format!("a copy of it is kept as {}", copy.display()),
        Err(e) => format!("no copy of it could be kept: {e}"),
    };
    eprintln!(
        "uttt-server: ERROR: the database's log {} is damaged: {damage}; \
         the rooms start from before it ({kept})",
        log.display()
    );
}

#[cfg(test)]
mod tests {
    use super::*;

    pub(super) fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("uttt-dbfile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_missing_or_empty_database_is_made_anew_only_where_none_ever_was_or_when_asked() {
        let dir = scratch("missing");
        let db = dir.join("rooms.sqlite3");
        assert!(may_open(&db, false).is_ok());
        std::fs::write(beside(&db, ".lock"), "").unwrap();
        let refused = may_open(&db, false).unwrap_err();
        assert!(
            refused.contains("missing") && refused.contains("--new-db"),
            "{refused}"
        );
        assert!(may_open(&db, true).is_ok());
        std::fs::write(&db, "").unwrap();
        let refused = may_open(&db, false).unwrap_err();
        assert!(refused.contains("empty"), "{refused}");
        std::fs::write(&db, "data").unwrap();
        assert!(may_open(&db, false).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
