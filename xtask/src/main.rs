//! `cargo xtask`: the project's build, serve, dist and test commands.
//!
//! Plain Rust with no dependencies, so that a fresh clone needs nothing but
//! cargo to get going; everything else (the wasm32 target, the bindgen CLI,
//! npm packages, Chromium) is installed on demand by [`setup`].

mod bench;
mod build;
mod cmd;
mod loadtest;
mod lockfile;
mod server;
mod setup;
mod site;
mod sw;
mod test;

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
  dist [--out DIR]       build a self-contained static site folder (default dist/)
  test [--only LAYERS]   run every check in order, stopping at the first failure;
                         LAYERS is a comma list of: fmt, clippy, native, nostd, wasm, e2e
                         (extra arguments after `--` go to Playwright)
  bench [--runs N]       native vs headless-Chromium speed: perft and `uttt bench`, medians
        [--perft-depth D] [--depth D] [--positions N]   (defaults 5 runs, perft 8, depth 10, 16)
  loadtest [--games 100,1000,5000] [--seconds 20] [--pause-ms 200]
                         the game server under load over loopback: moves/s, round trips, CPU, memory
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
            build::build(&root).map(|_| ())
        }
        "serve" => {
            let port = parse_port(rest)?;
            build::build(&root)?;
            server::serve_repo(&root, port)
        }
        "dist" => {
            let out = parse_out(rest, &root)?;
            build::build(&root)?;
            site::dist(&root, &out)
        }
        "test" => test::run(&root, test::Options::parse(rest)?),
        "bench" => bench::run(&root, &bench::Options::parse(rest)?),
        "loadtest" => loadtest::run(&root, &loadtest::Options::parse(rest)?),
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

fn parse_out(rest: &[String], root: &Path) -> Result<PathBuf> {
    match rest {
        [] => Ok(root.join("dist")),
        [flag, value] if flag == "--out" => {
            let path = PathBuf::from(value);
            // `cargo run` keeps the caller's directory, so a relative --out
            // means what it would mean to any other command.
            Ok(if path.is_absolute() {
                path
            } else {
                std::env::current_dir()
                    .map_err(|e| format!("cannot read the current directory: {e}"))?
                    .join(path)
            })
        }
        [flag] if flag == "--out" => Err("--out needs a folder".into()),
        [arg, ..] => Err(format!(
            "unexpected argument `{arg}` (dist takes --out DIR)"
        )),
    }
}
