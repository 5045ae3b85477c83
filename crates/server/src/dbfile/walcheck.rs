//! A look at the database's write-ahead log before SQLite recovers it.
//!
//! SQLite's recovery reads the log's frames in order and stops, silently,
//! at the first one that is not whole (its salts or its running checksum do
//! not match); every commit after that point is dropped. After a crash that
//! is right: the frames after it belong to a save that never finished, and
//! no player heard of it. But a commit *after* a broken frame, written in
//! the same generation of the log (same salts), was finished and confirmed:
//! the log was damaged, and those changes are lost. This module finds them,
//! so the server can say so (and keep a copy of the log) instead of
//! starting as if nothing happened. A log whose header is broken is
//! ignored whole by SQLite: every save in it is lost. The format is
//! SQLite's (<https://www.sqlite.org/fileformat2.html#walformat>).
//!
//! The store turns off SQLite's cache spill, so frames are only ever
//! appended: a kill never leaves a rewritten frame before a finished commit
//! whose checksums were not yet brought up to date.

use std::path::Path;

const HEADER: usize = 32;
const FRAME_HEADER: usize = 24;
const MAGIC: u32 = 0x377f_0682;

/// What the look found: saves that SQLite's recovery will drop although
/// they were finished.
#[derive(Debug, PartialEq, Eq)]
pub enum Damage {
    /// A frame is broken and finished commits follow it.
    Frame {
        /// The first frame that is not whole (counted from 0).
        frame: usize,
        /// Finished commits after it, in the log's current generation.
        lost_commits: usize,
    },
    /// The header is broken: SQLite ignores the whole log.
    Header {
        /// The log's length.
        bytes: usize,
    },
}

impl std::fmt::Display for Damage {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Damage::Frame {
                frame,
                lost_commits,
            } => write!(
                f,
                "frame {frame} is broken, and the {lost_commits} finished {} after it cannot be recovered",
                if *lost_commits == 1 { "save" } else { "saves" }
            ),
            Damage::Header { bytes } => write!(
                f,
                "its header is broken, so none of the saves in its {bytes} bytes can be recovered"
            ),
        }
    }
}

/// Looks at the log at `path`; `None` when there is none, it is empty or
/// nothing finished is lost.
///
/// # Errors
/// When the file exists but cannot be read.
pub fn damage(path: &Path) -> std::io::Result<Option<Damage>> {
    match std::fs::read(path) {
        Ok(bytes) => Ok(find_damage(&bytes)),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(None),
        Err(e) => Err(e),
    }
}

/// The smallest log that holds a frame (of the smallest page).
const SMALLEST_WITH_A_FRAME: usize = HEADER + FRAME_HEADER + 512;

fn word(bytes: &[u8], at: usize) -> u32 {
    u32::from_be_bytes([bytes[at], bytes[at + 1], bytes[at + 2], bytes[at + 3]])
}

/// SQLite's running checksum over `data` (a multiple of 8 bytes), from
/// `sums`, reading words in the byte order the log's magic names.
fn checksum(data: &[u8], big_endian: bool, sums: [u32; 2]) -> [u32; 2] {
    let [mut s0, mut s1] = sums;
    for pair in data.chunks_exact(8) {
        let read = |b: &[u8]| {
            let w = [b[0], b[1], b[2], b[3]];
            if big_endian {
                u32::from_be_bytes(w)
            } else {
                u32::from_le_bytes(w)
            }
        };
        s0 = s0.wrapping_add(read(&pair[..4])).wrapping_add(s1);
        s1 = s1.wrapping_add(read(&pair[4..])).wrapping_add(s0);
    }
    [s0, s1]
}

fn find_damage(log: &[u8]) -> Option<Damage> {
    if log.len() < HEADER {
        // Empty (a checkpoint cut it) or cut before its first frame: it
        // never held a save.
        return None;
    }
    let broken_header =
        || (log.len() >= SMALLEST_WITH_A_FRAME).then_some(Damage::Header { bytes: log.len() });
    if word(log, 0) & !1 != MAGIC {
        return broken_header();
    }
    let big_endian = word(log, 0) & 1 == 1;
    let Some(page) = usize::try_from(word(log, 8))
        .ok()
        .filter(|page| (512..=65_536).contains(page) && page.is_power_of_two())
    else {
        return broken_header();
    };
    let salts = &log[16..24];
    let mut sums = checksum(&log[..24], big_endian, [0, 0]);
    if sums != [word(log, 24), word(log, 28)] {
        return broken_header();
    }
    let frames = log[HEADER..].chunks_exact(FRAME_HEADER + page);
    let mut broken = None;
    let mut lost_commits = 0;
    for (n, frame) in frames.enumerate() {
        let ours = &frame[8..16] == salts;
        match broken {
            None => {
                let next = checksum(
                    &frame[FRAME_HEADER..],
                    big_endian,
                    checksum(&frame[..8], big_endian, sums),
                );
                if ours && next == [word(frame, 16), word(frame, 20)] {
                    sums = next;
                } else {
                    broken = Some(n);
                }
            }
            Some(_) => {
                if ours && word(frame, 4) != 0 {
                    lost_commits += 1;
                }
            }
        }
    }
    match broken {
        Some(frame) if lost_commits > 0 => Some(Damage::Frame {
            frame,
            lost_commits,
        }),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use rusqlite::Connection;

    /// A log of ten commits, as a server killed after them leaves it: the
    /// database and its log copied while the connection still holds them.
    fn killed_with_a_log() -> Vec<u8> {
        static RUN: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let run = RUN.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("uttt-walcheck-{}-{run}", std::process::id()));
        let _ = std::fs::remove_dir_all(&dir);
        std::fs::create_dir_all(&dir).unwrap();
        let db = dir.join("rooms.sqlite3");
        let connection = Connection::open(&db).unwrap();
        connection
            .execute_batch(
                "PRAGMA locking_mode = EXCLUSIVE; PRAGMA journal_mode = WAL;
                 PRAGMA cache_spill = OFF; CREATE TABLE t (n INTEGER);",
            )
            .unwrap();
        for n in 0..10 {
            connection
                .execute("INSERT INTO t VALUES (?1)", [n])
                .unwrap();
        }
        let log = std::fs::read(dir.join("rooms.sqlite3-wal")).unwrap();
        drop(connection);
        std::fs::remove_dir_all(&dir).unwrap();
        log
    }

    fn frame_at(log: &[u8], n: usize) -> usize {
        let page = word(log, 8) as usize;
        HEADER + n * (FRAME_HEADER + page)
    }

    #[test]
    fn a_whole_log_has_no_damage() {
        let log = killed_with_a_log();
        assert!(
            log.len() > frame_at(&log, 10),
            "ten commits, a frame or more each"
        );
        assert_eq!(find_damage(&log), None);
        assert_eq!(find_damage(&[]), None);
    }

    #[test]
    fn a_save_cut_off_at_the_end_is_not_damage() {
        let log = killed_with_a_log();
        let frames = (log.len() - HEADER) / (FRAME_HEADER + word(&log, 8) as usize);
        // The last frame half written, then its page's bytes garbled.
        let last = frame_at(&log, frames - 1);
        assert_eq!(find_damage(&log[..last + 100]), None);
        let mut torn = log.clone();
        torn[last + FRAME_HEADER + 7] ^= 0xFF;
        assert_eq!(find_damage(&torn), None);
    }

    #[test]
    fn a_broken_frame_before_finished_commits_is_damage() {
        let log = killed_with_a_log();
        let mut damaged = log.clone();
        damaged[frame_at(&log, 2) + FRAME_HEADER + 40] ^= 0x01;
        match find_damage(&damaged) {
            Some(Damage::Frame {
                frame: 2,
                lost_commits,
            }) => assert!(lost_commits >= 7, "{lost_commits}"),
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn a_broken_header_loses_the_whole_log() {
        let log = killed_with_a_log();
        for byte in [0, 9, 20, 27] {
            let mut damaged = log.clone();
            damaged[byte] ^= 0x10;
            assert_eq!(
                find_damage(&damaged),
                Some(Damage::Header { bytes: log.len() }),
                "byte {byte}"
            );
        }
        // A header alone, or less: nothing was in it.
        let mut bare = log[..HEADER].to_vec();
        bare[20] ^= 0x10;
        assert_eq!(find_damage(&bare), None);
    }
}
