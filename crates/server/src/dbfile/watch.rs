//! The watch on the database and its log while the server runs.

use std::path::{Path, PathBuf};

/// The database and its write-ahead log as the store opened them.
pub struct Watch {
    files: [Watched; 2],
    /// What went wrong, said once when it did; it stands until a restart.
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
        let database = Watched {
            path: path.to_path_buf(),
            what: "database",
            identity: Some(Identity::of(&meta)),
            len: Some(meta.len()),
        };
        let log = Watched {
            path: super::beside(path, "-wal"),
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
    /// to, whole. A fault, once seen, stands until the server restarts:
    /// SQLite's cached pages and log index no longer match a file put back
    /// under it, so writing on would mix two databases. It is said once on
    /// the server's error output.
    ///
    /// # Errors
    /// What happened to which file, for the refused change.
    pub fn check(&mut self) -> Result<(), String> {
        if let Some(fault) = &self.fault {
            return Err(fault.clone());
        }
        let seen = self.files.iter_mut().try_for_each(Watched::look);
        if let Err(fault) = &seen {
            eprintln!(
                "uttt-server: ERROR: {fault}. No change is confirmed to players from now on: \
                 stop the server, restore the file, and start it again"
            );
            self.fault = Some(fault.clone());
        }
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
    use super::super::tests::scratch;
    use super::*;

    #[test]
    fn notices_a_file_removed_replaced_or_cut_and_holds_to_it() {
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
        let log = dir.join("rooms.sqlite3-wal");
        std::fs::write(&log, "frames").unwrap();
        assert!(
            watch.check().is_ok(),
            "the log made by the store's first write"
        );
        std::fs::write(&log, "").unwrap();
        assert!(watch.check().is_ok(), "the log emptied by a checkpoint");

        std::fs::write(&db, "0123").unwrap();
        assert!(watch.check().unwrap_err().contains("was cut"));
        std::fs::write(&db, "0123456789abcdef").unwrap();
        assert!(
            watch.check().unwrap_err().contains("was cut"),
            "a file put back is not trusted before a restart"
        );

        for fault in ["removed", "replaced"] {
            let mut watch = Watch::start(&db).unwrap();
            assert!(watch.check().is_ok(), "both files seen whole first");
            if fault == "removed" {
                std::fs::remove_file(&log).unwrap();
            } else {
                // Made while the old one still exists, so never on its inode.
                std::fs::write(dir.join("other"), "0123456789abcdef").unwrap();
                std::fs::rename(dir.join("other"), &db).unwrap();
            }
            if cfg!(unix) || fault == "removed" {
                assert!(watch.check().unwrap_err().contains(fault), "{fault}");
            }
            std::fs::write(&log, "").unwrap();
        }
        std::fs::remove_dir_all(&dir).unwrap();
    }
}
