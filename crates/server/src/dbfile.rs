//! The database file as the store owns it: one server at a time (a lock
//! beside it), no new empty database in place of one that went missing
//! unless asked, a watch on the file while the server runs, so a database
//! removed, replaced or emptied under it stops the confirming of changes
//! loudly instead of losing them quietly, and room kept on its disk for
//! the checkpoint that empties a log which filled it.

use std::fs::{File, OpenOptions, TryLockError};
use std::path::{Path, PathBuf};

/// The file beside the database that only its one server holds locked.
fn lock_path(db: &Path) -> PathBuf {
    let mut name = db.as_os_str().to_owned();
    name.push(".lock");
    PathBuf::from(name)
}

/// Takes the exclusive lock on the database at `db` (the file `DB.lock`,
/// made if missing), held until the returned file is dropped.
///
/// # Errors
/// When another server holds it, or the lock file cannot be made.
pub fn lock(db: &Path) -> Result<File, String> {
    let lock_path = lock_path(db);
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

/// Bytes kept on the database's disk for a checkpoint: room for the
/// database to grow by 64 pages while the log is emptied into it.
const SPARE_BYTES: usize = 256 * 1024;

/// A file of `SPARE_BYTES` beside the database (`DB.spare`): when the disk
/// is full, only a checkpoint empties the log, and the checkpoint itself
/// may need room to grow the database; the spare is let go for it.
pub struct Spare {
    path: PathBuf,
    held: bool,
}

impl Spare {
    /// Makes the spare file beside `db` (said, not fatal, if the disk has
    /// no room for it).
    pub fn keep(db: &Path) -> Spare {
        let mut name = db.as_os_str().to_owned();
        name.push(".spare");
        let mut spare = Spare {
            path: PathBuf::from(name),
            held: false,
        };
        spare.refill();
        spare
    }

    /// Frees the spare room for the checkpoint about to run.
    pub fn release(&mut self) {
        if std::fs::remove_file(&self.path).is_ok() || !self.path.exists() {
            self.held = false;
        }
    }

    /// Takes the spare room again, if it was let go and the disk has it.
    pub fn refill(&mut self) {
        if self.held {
            return;
        }
        match std::fs::write(&self.path, vec![0u8; SPARE_BYTES]) {
            Ok(()) => self.held = true,
            Err(e) => {
                let _ = std::fs::remove_file(&self.path);
                eprintln!(
                    "uttt-server: no room to keep {} on the database's disk ({e}): a full disk may refuse saves until space is freed",
                    self.path.display()
                );
            }
        }
    }
}

/// Whether a database may be made at `db`: always when one is there or
/// none ever was; when the file is missing but a server has used it (its
/// lock file or write-ahead log is still beside it), only if `new_db`.
///
/// # Errors
/// The missing database named, with the way to start anyway.
pub fn may_open(db: &Path, new_db: bool) -> Result<(), String> {
    if db.exists() || new_db {
        return Ok(());
    }
    let mut wal = db.as_os_str().to_owned();
    wal.push("-wal");
    let traces = [lock_path(db), PathBuf::from(wal)];
    match traces.iter().find(|t| t.exists()) {
        None => Ok(()),
        Some(trace) => Err(format!(
            "the database {} is missing, though a server has used it ({} is still there): \
             restore the file, or start with --new-db to begin again with no rooms",
            db.display(),
            trace.display()
        )),
    }
}

/// The database and its write-ahead log as the store opened them.
pub struct Watch {
    files: [Watched; 2],
    /// What was wrong at the last look, said once when it went wrong.
    fault: Option<String>,
}

/// One file the store writes to.
struct Watched {
    path: PathBuf,
    what: &'static str,
    /// Learnt at the first look that finds the file (SQLite makes the log
    /// at the first write).
    identity: Option<Identity>,
    /// Its length at the last look, for the database: SQLite never shrinks
    /// it here (no vacuum), so a shorter file was emptied or cut by someone
    /// else. The log shrinks by design, so it is not measured.
    len: Option<u64>,
}

#[derive(Clone, Copy, PartialEq, Eq, Debug)]
struct Identity {
    device: u64,
    inode: u64,
}

impl Identity {
    #[cfg(unix)]
    fn of(meta: &std::fs::Metadata) -> Identity {
        use std::os::unix::fs::MetadataExt;
        Identity {
            device: meta.dev(),
            inode: meta.ino(),
        }
    }

    /// Elsewhere only removal and shrinking are noticed.
    #[cfg(not(unix))]
    fn of(_meta: &std::fs::Metadata) -> Identity {
        Identity {
            device: 0,
            inode: 0,
        }
    }
}

impl Watch {
    /// Starts watching the database at `path` and its log, as they are now.
    ///
    /// # Errors
    /// When the database cannot be read.
    pub fn start(path: &Path) -> Result<Watch, String> {
        let meta = std::fs::metadata(path)
            .map_err(|e| format!("cannot read the database {}: {e}", path.display()))?;
        let mut log = path.as_os_str().to_owned();
        log.push("-wal");
        let database = Watched {
            path: path.to_path_buf(),
            what: "database",
            identity: Some(Identity::of(&meta)),
            len: Some(meta.len()),
        };
        let log = Watched {
            path: PathBuf::from(log),
            what: "database's write-ahead log",
            identity: None,
            len: None,
        };
        Ok(Watch {
            files: [database, log],
            fault: None,
        })
    }

    /// Whether the files at their paths are still the ones the store writes
    /// to, whole; says so on the server's error output when that changes.
    ///
    /// # Errors
    /// What happened to which file, for the refused save.
    pub fn check(&mut self) -> Result<(), String> {
        let seen = self.files.iter_mut().try_for_each(Watched::look);
        match (&seen, &self.fault) {
            (Err(fault), None) => eprintln!(
                "uttt-server: ERROR: {fault}. No change is confirmed to players until it is back; \
                 restore it, then restart the server (the games in memory are kept until then)"
            ),
            (Ok(()), Some(_)) => eprintln!(
                "uttt-server: the database {} is whole again: changes are confirmed again",
                self.files[0].path.display()
            ),
            _ => {}
        }
        self.fault = seen.clone().err();
        seen
    }
}

impl Watched {
    fn look(&mut self) -> Result<(), String> {
        let (what, path) = (self.what, self.path.display());
        let meta = match std::fs::metadata(&self.path) {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound && self.identity.is_none() => {
                return Ok(())
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
                return Err(format!(
                    "the {what} {path} was removed while the server runs"
                ))
            }
            Err(e) => return Err(format!("the {what} {path} cannot be read: {e}")),
        };
        let identity = *self.identity.get_or_insert(Identity::of(&meta));
        if Identity::of(&meta) != identity {
            return Err(format!(
                "the {what} {path} was replaced by another file while the server runs"
            ));
        }
        if let Some(len) = self.len {
            if meta.len() < len {
                return Err(format!(
                    "the {what} {path} was cut from {len} to {} bytes while the server runs",
                    meta.len()
                ));
            }
            self.len = Some(meta.len());
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn scratch(name: &str) -> PathBuf {
        let dir = std::env::temp_dir().join(format!("uttt-dbfile-{name}-{}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        dir
    }

    #[test]
    fn a_missing_database_is_made_anew_only_where_none_ever_was_or_when_asked() {
        let dir = scratch("missing");
        let db = dir.join("rooms.sqlite3");
        assert!(may_open(&db, false).is_ok());
        std::fs::write(lock_path(&db), "").unwrap();
        let refused = may_open(&db, false).unwrap_err();
        assert!(refused.contains("--new-db"), "{refused}");
        assert!(may_open(&db, true).is_ok());
        std::fs::write(&db, "").unwrap();
        assert!(may_open(&db, false).is_ok());
        std::fs::remove_dir_all(&dir).unwrap();
    }

    #[test]
    fn notices_a_file_removed_replaced_or_cut_and_its_return() {
        let dir = scratch("watch");
        let db = dir.join("rooms.sqlite3");
        std::fs::write(&db, "0123456789").unwrap();
        let mut watch = Watch::start(&db).unwrap();
        assert!(watch.check().is_ok());

        std::fs::write(&db, "0123456789abc").unwrap();
        assert!(
            watch.check().is_ok(),
            "a file growing is the store's own work"
        );
        std::fs::write(&db, "0123").unwrap();
        assert!(watch.check().unwrap_err().contains("was cut"));

        std::fs::rename(&db, dir.join("away")).unwrap();
        assert!(watch.check().unwrap_err().contains("removed"));
        std::fs::rename(dir.join("away"), &db).unwrap();
        std::fs::write(&db, "0123456789abcdef").unwrap();
        assert!(watch.check().is_ok(), "the same file back in place");

        let log = dir.join("rooms.sqlite3-wal");
        std::fs::write(&log, "frames").unwrap();
        assert!(
            watch.check().is_ok(),
            "the log made by the store's first write"
        );
        std::fs::write(&log, "").unwrap();
        assert!(watch.check().is_ok(), "the log emptied by a checkpoint");
        std::fs::remove_file(&log).unwrap();
        assert!(watch.check().unwrap_err().contains("write-ahead log"));
        std::fs::write(&log, "").unwrap();

        // Made while the old one still exists, so never on its inode.
        std::fs::write(dir.join("other"), "0123456789abcdef").unwrap();
        std::fs::rename(dir.join("other"), &db).unwrap();
        if cfg!(unix) {
            assert!(watch.check().unwrap_err().contains("replaced"));
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
