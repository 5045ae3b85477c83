//! `cargo xtask`: the project's build, serve, dist and test commands.
//!
//! Plain Rust with no dependencies, so that a fresh clone needs nothing but
//! cargo to get going; everything else (the wasm32 target, the bindgen CLI,
//! npm packages, Chromium) is installed on demand by [`setup`].

mod bench;
mod build;
mod cmd;
mod faulttest;
mod loadtest;
mod lockfile;
mod pagebench;
mod pondermatch;
mod server;
mod setup;
mod site;
mod sw;
mod test;
mod wasmnames;

use std::path::{Path, PathBuf};
use std::process::ExitCode;

/// Every failure is reported as one readable sentence; there is nothing a
/// caller could do with a richer error type.
pub type Result<T = ()> = std::result::Result<T, String>;

const USAGE: &str = "\
usage: cargo xtask <command> [options]

commands:
  build                  build crates/web for wasm32 and run wasm-bindgen into www/pkg/
  serve [--port N]       build, then serve the site on http://127.0.0.1:N/ (default 8000)
  dist [--out DIR] [--server URL]
                         build a self-contained static site folder (default dist/); --server
                         points its online play at a uttt-server elsewhere (wss://host/ws)
  test [--only LAYERS]   run every check in order, stopping at the first failure;
                         LAYERS is a comma list of: fmt, clippy, types, unit, native,
                         online, nostd, wasm, e2e
                         (extra arguments after `--` go to Playwright)
  bench [--runs N]       native vs headless-Chromium speed: perft and `uttt bench`, medians
        [--perft-depth D] [--depth D] [--positions N]   (defaults 5 runs, perft 8, depth 10, 16)
  bench --page [--runs N]
                         the page's speed figures in headless Chromium (reply times, longest
                         main-thread task, review time, load time quiet and on a slow phone), medians
  loadtest [--games 100,1000,5000] [--seconds 20] [--pause-ms 200]
                         the game server under load over loopback: moves/s, round trips, CPU, memory
  faulttest [--games 100] [--seconds 60]
                         the server killed at random moments mid-game: no confirmed move may be lost
  ponder-match [--games 20] [--level hard] [--movetime MS] [--think 5000] [--seed 1]
               [--rules standard]
                         the page's AI worker pondering while the other side's turns last --think ms,
                         against the same worker without pondering, in headless Chromium
                         (--movetime defaults to the level's page budget: Hard 1000, Master 3000)
";

fn main() -> ExitCode {
    let args: Vec<String> = std::env::args().skip(1).collect();
    match run(&args) {
        Ok(()) => ExitCode::SUCCESS,
        Err(message) => {
            // An empty message means the command already reported it.
            if !message.is_empty() {
                eprintln!("xtask: error: {message}");
            }
            ExitCode::FAILURE
        }
    }
}

fn run(args: &[String]) -> Result {
    let root = repo_root()?;
    let (command, rest) = match args.split_first() {
        Some((command, rest)) => (command.as_str(), rest),
        None => {
            print!("{USAGE}");
            return Err("no command given".into());
        }
    };
    match command {
        "build" => {
            no_options(rest)?;
            build::build(&root)
        }
        "serve" => {
            let port = parse_port(rest)?;
            build::build(&root)?;
            server::serve_repo(&root, port)
        }
        "dist" => {
            let (out, server) = parse_dist(rest, &root)?;
            let server = server.map(|url| site::server_url(&url)).transpose()?;
            build::build(&root)?;
            site::dist(&root, &out, server.as_ref())
        }
        "test" => test::run(&root, test::Options::parse(rest)?),
        "bench" if rest.iter().any(|arg| arg == "--page") => {
            pagebench::run(&root, &pagebench::Options::parse(rest)?)
        }
        "bench" => bench::run(&root, &bench::Options::parse(rest)?),
        "loadtest" => loadtest::run(&root, &loadtest::Options::parse(rest)?),
        "faulttest" => faulttest::run(&root, &faulttest::Options::parse(rest)?),
        "ponder-match" => pondermatch::run(&root, &pondermatch::Options::parse(rest)?),
        "help" | "--help" | "-h" => {
            print!("{USAGE}");
            Ok(())
        }
        other => {
            print!("{USAGE}");
            Err(format!("unknown command `{other}`"))
        }
    }
}

/// The workspace root: the parent of this crate's manifest directory, so the
/// commands work from any subdirectory.
fn repo_root() -> Result<PathBuf> {
    let manifest = Path::new(env!("CARGO_MANIFEST_DIR"));
    manifest
        .parent()
        .map(Path::to_path_buf)
        .ok_or_else(|| "xtask is not inside a workspace".to_string())
}

fn no_options(rest: &[String]) -> Result {
    match rest.first() {
        None => Ok(()),
        Some(arg) => Err(format!("unexpected argument `{arg}`")),
    }
}

fn parse_port(rest: &[String]) -> Result<u16> {
    match rest {
        [] => Ok(8000),
        [flag, value] if flag == "--port" => value
            .parse()
            .map_err(|_| format!("--port needs a number from 0 to 65535, got `{value}`")),
        [flag] if flag == "--port" => Err("--port needs a value".into()),
        [arg, ..] => Err(format!(
            "unexpected argument `{arg}` (serve takes --port N)"
        )),
    }
}

/// `dist [--out DIR] [--server URL]`: the folder, and the game server the
/// page should use when it is not the site's own.
fn parse_dist(rest: &[String], root: &Path) -> Result<(PathBuf, Option<String>)> {
    let mut out = root.join("dist");
    let mut server = None;
    let mut args = rest.iter();
    while let Some(flag) = args.next() {
        match flag.as_str() {
            "--out" => {
                let value = args.next().ok_or("--out needs a folder")?;
                let path = PathBuf::from(value);
                // `cargo run` keeps the caller's directory, so a relative --out
                // means what it would mean to any other command.
                out = if path.is_absolute() {
                    path
                } else {
                    std::env::current_dir()
                        .map_err(|e| format!("cannot read the current directory: {e}"))?
                        .join(path)
                };
            }
            "--server" => server = Some(args.next().ok_or("--server needs a URL")?.clone()),
            other => {
                return Err(format!(
                    "unexpected argument `{other}` (dist takes --out DIR and --server URL)"
                ))
            }
        }
    }
    Ok((out, server))
}
