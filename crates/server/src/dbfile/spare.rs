//! Room kept on the database's disk for the one moment it is needed.

use std::io::Write;
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// Bytes kept: room for the database to grow by 64 pages while the log is
/// emptied into it.
const SPARE_BYTES: usize = 256 * 1024;
/// How often at most the server says the spare was used: on a disk that
/// stays nearly full it may be used by every save.
const SAY_EVERY: Duration = Duration::from_secs(60);

/// A file of `SPARE_BYTES` beside the database (`DB.spare`): when the disk
/// is full, only a checkpoint empties the log, and the checkpoint itself
/// may need room to grow the database; the spare is let go for it.
pub struct Spare {
    path: PathBuf,
    held: bool,
    /// When the server last said the spare was used.
    said: Option<Instant>,
}

impl Spare {
    /// Makes the spare file beside `db` (said, not fatal, if the disk has
    /// no room for it).
    pub fn keep(db: &Path) -> Spare {
        let mut spare = Spare {
            path: super::beside(db, ".spare"),
            held: false,
            said: None,
        };
        spare.fill();
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
        if !self.held {
            self.fill();
        }
    }

    /// Says, at most once a minute, that a save went through only thanks
    /// to the spare.
    pub fn say_used(&mut self) {
        if self.said.is_none_or(|said| said.elapsed() >= SAY_EVERY) {
            self.said = Some(Instant::now());
            eprintln!(
                "uttt-server: the disk was full: the database's log was emptied and the save went through; free some space"
            );
        }
    }

    /// Writes the spare file and syncs it, with bytes no file system can
    /// compress or share (zeros would hold no room on ZFS or btrfs).
    fn fill(&mut self) {
        let mut bytes = vec![0u8; SPARE_BYTES];
        let mut state: u64 = 0x9E37_79B9_7F4A_7C15;
        for chunk in bytes.chunks_exact_mut(8) {
            // xorshift64: enough to defeat compression, no secret needed.
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            chunk.copy_from_slice(&state.to_le_bytes());
        }
        let written = std::fs::File::create(&self.path)
            .and_then(|mut file| file.write_all(&bytes).and_then(|()| file.sync_all()));
        match written {
            Ok(()) => self.held = true,
            Err(e) => {
                let _ = std::fs::remove_file(&self.path);
                if self.said.is_some_and(|said| said.elapsed() < SAY_EVERY) {
                    return;
                }
                self.said = Some(Instant::now());
                eprintln!(
                    "uttt-server: no room to keep {} on the database's disk ({e}): a full disk may refuse saves until space is freed",
                    self.path.display()
                );
            }
        }
    }
}
