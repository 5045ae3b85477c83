//! Starting the game server (`crates/server`, binary `uttt-server`) for
//! `cargo xtask serve` and for the end-to-end tests.

use crate::cmd::{self, cargo};
use crate::{build, site, Result};
use std::ffi::OsString;
use std::io::{BufRead, BufReader};
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

/// The server's package and binary name.
const SERVER: &str = "uttt-server";

/// How the server is compiled.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Profile {
    /// Cargo's `dev` profile, which the workspace's tests build anyway.
    Dev,
    /// The workspace's `server` profile: optimised, and unwinding on panic
    /// so one room's panic cannot stop the others.
    Server,
}

/// Builds the server and returns the path of its binary.
pub fn build(root: &Path, profile: Profile) -> Result<PathBuf> {
    crate::setup::ensure_openssl()?;
    let mut command = cargo();
    command.current_dir(root).args(["build", "-p", SERVER]);
    let folder = match profile {
        Profile::Dev => "debug",
        Profile::Server => {
            command.args(["--profile", "server"]);
            "server"
        }
    };
    cmd::run(&mut command, "the server build")?;
    Ok(build::target_dir(root).join(folder).join(SERVER))
}

/// `cargo xtask serve`: serves the working tree's site files (so edits to
/// JS and CSS show on reload; only the site's own entries, so Cargo.toml
/// and .git stay private) until Ctrl-C, which ends both processes.
pub fn serve_repo(root: &Path, port: u16) -> Result {
    let bin = build(root, Profile::Server)?;
    let entries: Vec<&str> = site::SITE_ENTRIES.iter().map(|(name, _)| *name).collect();
    let mut command = Command::new(bin);
    command
        .arg("--addr")
        .arg(format!("127.0.0.1:{port}"))
        .arg("--site")
        .arg(root)
        .arg("--entries")
        .arg(entries.join(","))
        .arg("--log");
    cmd::run(&mut command, "the server")
}

/// A server started for the tests; stopped when dropped.
pub struct Running {
    child: Child,
    /// Where it serves the site, e.g. `http://127.0.0.1:40123/uttt/`.
    pub url: String,
}

/// Deletes the database `db` and the files the server keeps beside it (its
/// write-ahead log, lock and spare room), for a fresh start: with the lock
/// or log left, the server would take the missing database for a lost one.
pub fn remove_db(db: &Path) {
    for suffix in ["", "-wal", "-shm", ".lock", ".spare"] {
        let mut name = db.as_os_str().to_owned();
        name.push(suffix);
        let _ = std::fs::remove_file(std::path::PathBuf::from(name));
    }
}

/// Starts the server on a free port for `site` under `prefix`, its rooms
/// in a fresh database `db`, and waits for the line that says where it
/// listens.
pub fn start(bin: &Path, site: &Path, prefix: &str, db: &Path) -> Result<Running> {
    remove_db(db);
    let mut args: Vec<OsString> = ["--addr", "127.0.0.1:0", "--prefix", prefix, "--site"]
        .iter()
        .map(OsString::from)
        .collect();
    args.extend([
        site.as_os_str().to_owned(),
        "--db".into(),
        db.as_os_str().to_owned(),
        // Every test's and bench's player comes from 127.0.0.1.
        "--signups-per-minute".into(),
        "600".into(),
        // The browser tests' push service is their own, on 127.0.0.1.
        "--push-to-loopback".into(),
    ]);
    start_with(bin, &args)
}

/// Starts the server with `args` and waits for the line that says where
/// it listens.
pub fn start_with(bin: &Path, args: &[OsString]) -> Result<Running> {
    let mut child = Command::new(bin)
        .args(args)
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start {}: {e}", bin.display()))?;
    let stdout = child.stdout.take().ok_or("the server has no output")?;
    let (tx, rx) = mpsc::channel();
    std::thread::spawn(move || {
        // Read on to the end, so the server never blocks on a full pipe.
        for line in BufReader::new(stdout)
            .lines()
            .map_while(std::result::Result::ok)
        {
            if let Some(url) = line.strip_prefix("uttt-server: serving ") {
                let _ = tx.send(url.to_string());
            }
        }
    });
    match rx.recv_timeout(Duration::from_secs(30)) {
        Ok(url) => Ok(Running { child, url }),
        Err(_) => {
            let _ = child.kill();
            let _ = child.wait();
            Err("the server did not say where it listens within 30 s".into())
        }
    }
}

impl Running {
    /// The process id (to read its CPU and memory in /proc).
    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// The address it listens on, e.g. `127.0.0.1:40123`.
    pub fn addr(&self) -> &str {
        let rest = self.url.strip_prefix("http://").unwrap_or(&self.url);
        rest.split('/').next().unwrap_or(rest)
    }
}

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}
