//! `cargo xtask faulttest`: the game server killed with SIGKILL at random
//! moments while `uttt-fault`'s clients play, and started again each time
//! on the same database and address. The clients check, against their own
//! logs, that every move the server confirmed survives every restart and
//! that every game goes on. Bounded in count and time.

use crate::bench::read_number;
use crate::cmd::{self, cargo};
use crate::{build, server, Result};
use std::ffi::OsString;
use std::path::Path;
use std::process::Command;
use std::time::{Duration, Instant, SystemTime, UNIX_EPOCH};

/// What to run.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    /// Games played at once.
    pub games: u32,
    /// Seconds of play, kills included.
    pub seconds: u32,
}

impl Options {
    /// Reads `--games 100 --seconds 60`.
    ///
    /// # Errors
    /// A sentence naming the bad argument.
    pub fn parse(args: &[String]) -> Result<Options> {
        let mut options = Options {
            games: 100,
            seconds: 60,
        };
        let mut rest = args.iter();
        while let Some(flag) = rest.next() {
            match flag.as_str() {
                "--games" => read_number(flag, rest.next(), &mut options.games, 1000)?,
                "--seconds" => read_number(flag, rest.next(), &mut options.seconds, 600)?,
                other => {
                    return Err(format!(
                        "unknown argument `{other}` (faulttest takes --games, --seconds)"
                    ))
                }
            }
        }
        Ok(options)
    }
}

/// Starts the server on `addr` (port 0 picks one) over database `db`.
fn start(bin: &Path, addr: &str, db: &Path, games: u32) -> Result<server::Running> {
    let limit = (games * 2 + 100).to_string();
    let mut args: Vec<OsString> = ["--addr", addr, "--site", "."]
        .iter()
        .chain(&[
            "--max-connections-per-address",
            &limit,
            "--messages-per-address",
            "1000000",
            "--rooms-per-address",
            &limit,
            // Every client joins again at once after each restart.
            "--joins-per-address",
            &limit,
            "--db",
        ])
        .map(OsString::from)
        .collect();
    args.push(db.as_os_str().to_owned());
    server::start_with(bin, &args)
}

/// Runs the fault test.
///
/// # Errors
/// When a build fails, the server does not come back, or a move was lost.
pub fn run(root: &Path, options: &Options) -> Result {
    let mut command = cargo();
    command.current_dir(root).args([
        "build",
        "-p",
        "uttt-server",
        "--profile",
        "server",
        "--bins",
    ]);
    cmd::run(&mut command, "the server build")?;
    let bin = build::target_dir(root).join("server");
    let db = build::target_dir(root)
        .join("uttt-xtask")
        .join("fault.sqlite3");
    server::remove_db(&db);
    let mut running = start(&bin.join("uttt-server"), "127.0.0.1:0", &db, options.games)?;
    let addr = running.addr().to_string();
    let mut clients = Command::new(bin.join("uttt-fault"))
        .args([
            addr.as_str(),
            &options.games.to_string(),
            &options.seconds.to_string(),
        ])
        .spawn()
        .map_err(|e| format!("cannot start uttt-fault: {e}"))?;
    // A small generator for the kill times, seeded by the clock: the moments
    // differ from run to run, as faults do.
    let mut seed = SystemTime::now()
        .duration_since(UNIX_EPOCH)
        .map_or(1, |d| d.as_nanos() as u64)
        | 1;
    let mut next = || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let ends = Instant::now() + Duration::from_secs(u64::from(options.seconds));
    let mut kills = 0;
    loop {
        let wait = Duration::from_millis(500 + next() % 2500);
        let until = Instant::now() + wait;
        while Instant::now() < until {
            if clients.try_wait().map_err(|e| e.to_string())?.is_some() {
                break;
            }
            std::thread::sleep(Duration::from_millis(50));
        }
        // Kills stop a few seconds before the end, so the games are seen
        // going on after the last restart.
        if clients.try_wait().map_err(|e| e.to_string())?.is_some()
            || Instant::now() + Duration::from_secs(5) > ends
        {
            break;
        }
        // Dropping it sends SIGKILL and waits for the end.
        drop(running);
        kills += 1;
        running = start(&bin.join("uttt-server"), &addr, &db, options.games)?;
    }
    let status = clients.wait().map_err(|e| e.to_string())?;
    drop(running);
    println!("xtask: the server was killed (SIGKILL) and restarted {kills} times");
    if status.success() {
        Ok(())
    } else {
        Err(format!(
            "the fault run failed ({status}): see uttt-fault's line above"
        ))
    }
}
