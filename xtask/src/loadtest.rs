//! `cargo xtask loadtest`: the game server under load over loopback. For
//! each size, a fresh optimised `uttt-server` (its own database, limits
//! raised to fit the test) and `uttt-load`, which plays that many games at
//! once; the server's CPU and memory are read from /proc meanwhile. Bounded
//! in count and time: every run stops by itself.

use crate::bench::read_number;
use crate::cmd::{self, cargo};
use crate::{build, server, Result};
use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

/// What to run.
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    /// Numbers of concurrent games, one run each.
    pub games: Vec<u32>,
    /// Seconds of play measured in each run.
    pub seconds: u32,
    /// The pause before each move, in milliseconds (a random part added).
    pub pause_ms: u32,
    /// Play now: the players sign up and press Play now (rated), and the
    /// games are the pairings' (see `uttt-load`).
    pub play_now: bool,
}

impl Options {
    /// Reads `--games 100,1000 --seconds 20 --pause-ms 200`.
    ///
    /// # Errors
    /// A sentence naming the bad argument.
    pub fn parse(args: &[String]) -> Result<Options> {
        let mut options = Options {
            games: vec![100, 1000, 5000],
            seconds: 20,
            pause_ms: 200,
            play_now: false,
        };
        let mut rest = args.iter();
        while let Some(flag) = rest.next() {
            match flag.as_str() {
                "--games" => {
                    let value = rest.next().ok_or("--games needs a value")?;
                    options.games = value
                        .split(',')
                        .map(|g| g.parse::<u32>().ok().filter(|n| (1..=9000).contains(n)))
                        .collect::<Option<Vec<_>>>()
                        .ok_or_else(|| {
                            format!("--games: `{value}` is not a list of numbers from 1 to 9000")
                        })?;
                }
                "--seconds" => read_number(flag, rest.next(), &mut options.seconds, 600)?,
                "--pause-ms" => read_number(flag, rest.next(), &mut options.pause_ms, 10_000)?,
                "--play-now" => options.play_now = true,
                other => {
                    return Err(format!(
                    "unknown argument `{other}` (loadtest takes --games, --seconds, --pause-ms, --play-now)"
                ))
                }
            }
        }
        Ok(options)
    }
}

/// CPU seconds and resident memory (KiB, and its peak) of process `pid`.
fn usage_of(pid: u32) -> Option<(f64, u64, u64)> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat")).ok()?;
    let fields: Vec<&str> = stat.rsplit(')').next()?.split_whitespace().collect();
    // utime and stime: fields 14 and 15 of stat, in clock ticks (100 a second here).
    let cpu = (fields.get(11)?.parse::<f64>().ok()? + fields.get(12)?.parse::<f64>().ok()?) / 100.0;
    let status = std::fs::read_to_string(format!("/proc/{pid}/status")).ok()?;
    let kib = |key: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(key))
            .and_then(|v| v.split_whitespace().next()?.parse().ok())
    };
    Some((cpu, kib("VmRSS:")?, kib("VmHWM:")?))
}

/// Runs the load test.
///
/// # Errors
/// When a build or a run fails.
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
    let scratch = build::target_dir(root).join("uttt-xtask");
    std::fs::create_dir_all(&scratch)
        .map_err(|e| format!("cannot create {}: {e}", scratch.display()))?;
    let mut rows = Vec::new();
    for &games in &options.games {
        let db = scratch.join(format!("load-{games}.sqlite3"));
        server::remove_db(&db);
        let connections = (games * 2 + 100).to_string();
        // Every client is a game connection, and all may connect before
        // any has entered its room.
        let game_connections = (games * 2 + 50).to_string();
        let mut args: Vec<OsString> = ["--addr", "127.0.0.1:0", "--site", "."]
            .iter()
            .chain(&[
                "--max-connections",
                &connections,
                "--max-connections-per-address",
                &connections,
                "--max-game-connections",
                &game_connections,
                "--max-waiting",
                &game_connections,
            ])
            .chain(&[
                "--max-rooms",
                &connections,
                "--messages-per-address",
                "1000000",
                "--rooms-per-address",
                &connections,
                "--joins-per-address",
                &connections,
                "--signups-per-minute",
                &connections,
                "--db",
            ])
            .map(OsString::from)
            .collect();
        args.push(db.clone().into_os_string());
        let server = server::start_with(&bin.join("uttt-server"), &args)?;
        let (pid, addr) = (server.pid(), server.addr().to_string());
        let (_, idle_kib, _) = usage_of(pid).ok_or("cannot read the server's /proc entry")?;
        let mut load = Command::new(bin.join("uttt-load"))
            .args([
                addr.as_str(),
                &games.to_string(),
                &options.seconds.to_string(),
                &options.pause_ms.to_string(),
            ])
            .args(options.play_now.then_some("play-now"))
            .stdout(Stdio::piped())
            .spawn()
            .map_err(|e| format!("cannot start uttt-load: {e}"))?;
        let load_pid = load.id();
        let out = load.stdout.take().ok_or("uttt-load has no output")?;
        let mut summary = String::new();
        let mut measured = None;
        let mut load_end = None;
        let mut stored_before = 0;
        for line in BufReader::new(out)
            .lines()
            .map_while(std::result::Result::ok)
        {
            println!("{line}");
            if line.contains("playing for") {
                measured = Some((Instant::now(), usage_of(pid), usage_of(load_pid)));
                stored_before = stored_bytes(&db);
            }
            if line.contains("moves_per_s=") {
                load_end = usage_of(load_pid);
            }
            if line.contains("moves_per_s=") {
                summary = line;
            }
        }
        let status = load.wait().map_err(|e| e.to_string())?;
        let end = usage_of(pid);
        drop(server);
        // What the games that ended while measured added to the store
        // (archived, rated, their rooms' records), each.
        let ended: f64 = field(&summary, "ended").parse().unwrap_or(0.0);
        let per_archived = if ended > 0.0 {
            format!(
                "{:.0} B",
                (stored_bytes(&db).saturating_sub(stored_before)) as f64 / ended
            )
        } else {
            "?".to_string()
        };
        if !status.success() || summary.is_empty() {
            return Err(format!("uttt-load failed for {games} games ({status})"));
        }
        let (cpu_percent, load_percent, rss_kib) = match (measured, end, load_end) {
            (
                Some((at, Some((cpu0, _, _)), Some((load0, _, _)))),
                Some((cpu1, rss, _)),
                Some((load1, _, _)),
            ) => {
                let seconds = at.elapsed().as_secs_f64().max(0.001);
                (
                    100.0 * (cpu1 - cpu0) / seconds,
                    100.0 * (load1 - load0) / seconds,
                    rss,
                )
            }
            _ => (f64::NAN, f64::NAN, 0),
        };
        let per_game = (rss_kib.saturating_sub(idle_kib)) as f64 / f64::from(games);
        rows.push(format!(
            "| {games} | {} | {} | {} | {} | {cpu_percent:.0}% | {load_percent:.0}% | {:.1} MiB | {per_game:.1} KiB | {} | {} | {} | {} | {per_archived} |",
            field(&summary, "moves_per_s"),
            ms(field(&summary, "rtt_p50_us")),
            ms(field(&summary, "rtt_p99_us")),
            ms(field(&summary, "rtt_max_us")),
            rss_kib as f64 / 1024.0,
            field(&summary, "paired"),
            ms(field(&summary, "pairing_p50_us")),
            ms(field(&summary, "pairing_p99_us")),
            field(&summary, "ended"),
        ));
        std::thread::sleep(Duration::from_millis(500));
    }
    println!("\n| games | moves/s | p50 | p99 | max | server CPU | uttt-load CPU | server RSS | RSS per game | paired | pairing p50 | pairing p99 | games ended | store per ended game |");
    println!(
        "| --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- | --- |"
    );
    for row in rows {
        println!("{row}");
    }
    Ok(())
}

/// The database's bytes on disk: the file and its write-ahead log.
fn stored_bytes(db: &Path) -> u64 {
    let size = |suffix: &str| {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        std::fs::metadata(name).map_or(0, |m| m.len())
    };
    size("") + size("-wal")
}

fn field<'a>(line: &'a str, key: &str) -> &'a str {
    line.split_whitespace()
        .find_map(|kv| kv.strip_prefix(key)?.strip_prefix('='))
        .unwrap_or("?")
}

fn ms(us: &str) -> String {
    us.parse::<f64>()
        .map_or_else(|_| "?".into(), |u| format!("{:.1} ms", u / 1000.0))
}
