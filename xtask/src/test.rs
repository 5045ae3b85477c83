//! `cargo xtask test`: every check of the project, in order, stopping at
//! the first failure, and a closing `N passed, N failed` line over all the
//! test layers that ran.

use crate::cmd::{self, cargo, Counts};
use crate::server;
use crate::{build, setup, site, Result};
use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

/// Chromium's flags for this machine kind (no GPU, no sandbox as root, no
/// network chatter that the closed network would refuse). Kept in step with
/// tests/support/browser.js, which Playwright uses.
pub const CHROMIUM_ARGS: &[&str] = &[
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
];

/// The layers, in the order they run: cheapest and most basic first.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Layer {
    /// `cargo fmt --check`.
    Fmt,
    /// Clippy with warnings denied, natively and for the web crate on wasm32.
    Clippy,
    /// TypeScript's check of the page's JSDoc types (jsconfig.json), with
    /// the declarations wasm-bindgen generates from the Rust types.
    Types,
    /// The page's logic without a browser: node's test runner on tests/unit.
    Unit,
    /// `cargo test --workspace` natively.
    Native,
    /// The terminal client on a real server: two engine clients play.
    Online,
    /// crates/core built for wasm32 without `std`.
    NoStd,
    /// wasm-bindgen-test suites of crates/web in headless Chromium.
    Wasm,
    /// Playwright end-to-end tests against the dist folder.
    E2e,
}

/// The web crate's benchmark feature, so its code and tests are built and
/// checked although the game's wasm leaves it out; and the server's fail
/// points, which its stalled-store tests arm (the served binary has none).
const TEST_FEATURES: &str = "uttt-web/bench,uttt-server/failpoints";

const ALL: [Layer; 9] = [
    Layer::Fmt,
    Layer::Clippy,
    Layer::Types,
    Layer::Unit,
    Layer::Native,
    Layer::Online,
    Layer::NoStd,
    Layer::Wasm,
    Layer::E2e,
];

impl Layer {
    fn name(self) -> &'static str {
        match self {
            Layer::Fmt => "fmt",
            Layer::Clippy => "clippy",
            Layer::Types => "types",
            Layer::Unit => "unit",
            Layer::Native => "native",
            Layer::Online => "online",
            Layer::NoStd => "nostd",
            Layer::Wasm => "wasm",
            Layer::E2e => "e2e",
        }
    }

    fn title(self) -> &'static str {
        match self {
            Layer::Fmt => "formatting (cargo fmt --check)",
            Layer::Clippy => "lints (cargo clippy -D warnings, native and wasm32)",
            Layer::Types => "the page's types (tsc over www/ with jsconfig.json)",
            Layer::Unit => "the page's logic without a browser (node --test tests/unit)",
            Layer::Native => "native tests (cargo test --workspace)",
            Layer::Online => {
                "uttt online: two engine clients play three games on a real uttt-server"
            }
            Layer::NoStd => "no_std build of crates/core for wasm32",
            Layer::Wasm => "wasm-bindgen tests of crates/web in headless Chromium",
            Layer::E2e => "Playwright end-to-end tests against dist/ served on 127.0.0.1",
        }
    }
}

/// Parsed `test` arguments.
#[derive(Debug, Default)]
pub struct Options {
    only: Option<Vec<Layer>>,
    playwright_args: Vec<String>,
}

impl Options {
    /// Reads `[--only a,b] [-- playwright args]`.
    pub fn parse(args: &[String]) -> Result<Options> {
        let mut options = Options::default();
        let mut rest = args.iter();
        while let Some(arg) = rest.next() {
            match arg.as_str() {
                "--only" => {
                    let list = rest.next().ok_or("--only needs a comma list of layers")?;
                    let mut layers = Vec::new();
                    for name in list.split(',') {
                        let layer =
                            ALL.iter()
                                .copied()
                                .find(|l| l.name() == name)
                                .ok_or_else(|| {
                                    let names: Vec<_> = ALL.iter().map(|l| l.name()).collect();
                                    format!(
                                        "unknown layer `{name}`; layers are {}",
                                        names.join(", ")
                                    )
                                })?;
                        layers.push(layer);
                    }
                    options.only = Some(layers);
                }
                "--" => options.playwright_args.extend(rest.by_ref().cloned()),
                other => {
                    return Err(format!(
                        "unexpected argument `{other}` (test takes --only LAYERS and -- ARGS)"
                    ))
                }
            }
        }
        Ok(options)
    }
}

/// Runs the selected layers in order. A failure is reported here, with the
/// totals line last, so the returned error is empty.
pub fn run(root: &Path, options: Options) -> Result {
    let started = Instant::now();
    // Every layer builds the server.
    setup::ensure_openssl()?;
    let layers: Vec<Layer> = ALL
        .iter()
        .copied()
        .filter(|layer| {
            options
                .only
                .as_ref()
                .is_none_or(|only| only.contains(layer))
        })
        .collect();
    let mut total = Counts::default();
    for (index, layer) in layers.iter().enumerate() {
        let layer_started = Instant::now();
        println!("\n==> [{}/{}] {}", index + 1, layers.len(), layer.title());
        let (result, counts) = run_layer(root, *layer, &options);
        total.add(counts);
        if let Err(message) = result {
            // A layer can fail before any test ran (fmt, a build): count it.
            total.failed = total.failed.max(1);
            eprintln!("\nxtask: FAILED at layer `{}`: {message}", layer.name());
            eprintln!(
                "xtask: rerun just this layer with `cargo xtask test --only {}`",
                layer.name()
            );
            println!("\ntotal: {} passed, {} failed", total.passed, total.failed);
            return Err(String::new());
        }
        println!(
            "==> {} ok ({:.0} s)",
            layer.name(),
            layer_started.elapsed().as_secs_f64()
        );
    }
    let names: Vec<_> = layers.iter().map(|l| l.name()).collect();
    println!(
        "\nxtask: all layers passed ({}) in {:.1} min",
        names.join(", "),
        started.elapsed().as_secs_f64() / 60.0
    );
    println!("total: {} passed, {} failed", total.passed, total.failed);
    Ok(())
}

fn run_layer(root: &Path, layer: Layer, options: &Options) -> (Result, Counts) {
    let none = Counts::default();
    match layer {
        Layer::Fmt => (fmt(root), none),
        Layer::Clippy => (clippy(root), none),
        Layer::Types => (types(root), none),
        Layer::Unit => match unit_tests(root) {
            (Ok(()), counts) => require_some(counts, "node's test runner"),
            failed => failed,
        },
        Layer::Native => cmd::run_counting(
            cargo()
                .current_dir(root)
                .args(["test", "--workspace", "--features", TEST_FEATURES]),
            "native tests",
        ),
        Layer::Online => match bots_play_online(root) {
            Ok(()) => (
                Ok(()),
                Counts {
                    passed: 1,
                    failed: 0,
                },
            ),
            Err(message) => (
                Err(message),
                Counts {
                    passed: 0,
                    failed: 1,
                },
            ),
        },
        Layer::NoStd => (no_std(root), none),
        Layer::Wasm => match wasm_tests(root) {
            Ok(counts) => require_some(counts, "wasm-bindgen-test"),
            Err((message, counts)) => (Err(message), counts),
        },
        Layer::E2e => match end_to_end(root, &options.playwright_args) {
            Ok(counts) => require_some(counts, "Playwright"),
            Err((message, counts)) => (Err(message), counts),
        },
    }
}

/// A layer that ran no test proves nothing, so it fails.
fn require_some(counts: Counts, runner: &str) -> (Result, Counts) {
    if counts.passed + counts.failed == 0 {
        (Err(format!("{runner} ran no test")), counts)
    } else {
        (Ok(()), counts)
    }
}

fn fmt(root: &Path) -> Result {
    setup::ensure_component("rustfmt")?;
    cmd::run(
        cargo()
            .current_dir(root)
            .args(["fmt", "--all", "--", "--check"]),
        "cargo fmt --check (run `cargo fmt --all` to fix)",
    )
}

fn clippy(root: &Path) -> Result {
    setup::ensure_component("clippy")?;
    cmd::run(
        cargo().current_dir(root).args([
            "clippy",
            "--workspace",
            "--all-targets",
            "--features",
            TEST_FEATURES,
            "--",
            "-D",
            "warnings",
        ]),
        "cargo clippy",
    )?;
    // Code behind cfg(target_arch = "wasm32") is invisible to the native
    // run above.
    setup::ensure_wasm_target()?;
    cmd::run(
        cargo()
            .current_dir(root)
            .args([
                "clippy",
                "--package",
                build::WEB_CRATE,
                "--all-targets",
                "--features",
                "bench",
                "--target",
            ])
            .arg(setup::WASM_TARGET)
            .args(["--", "-D", "warnings"]),
        "cargo clippy for wasm32",
    )?;
    // Each module of the game alone, as `cargo xtask build` makes it: code
    // one of them needs must not hide behind the other's feature.
    for module in [build::PAGE, build::WORKER] {
        cmd::run(
            cargo()
                .current_dir(root)
                .args(["clippy", "--package", build::WEB_CRATE, "--lib", "--target"])
                .arg(setup::WASM_TARGET)
                .args(["--no-default-features", "--features", module.feature])
                .args(["--", "-D", "warnings"]),
            &format!("cargo clippy for the {} module", module.name),
        )?;
    }
    Ok(())
}

/// The wasm build writes the declarations of what crosses from Rust
/// (www/pkg/*.d.ts), which the page's modules are checked against.
fn types(root: &Path) -> Result {
    build::build(root)?;
    setup::ensure_npm_packages(root)?;
    cmd::run(
        Command::new("node")
            .current_dir(root)
            .arg(root.join("node_modules/typescript/bin/tsc"))
            .args(["--project", "jsconfig.json"]),
        "the type check (node_modules/typescript, jsconfig.json)",
    )
}

fn unit_tests(root: &Path) -> (Result, Counts) {
    let files = match setup::ensure_npm_packages(root).and_then(|()| unit_test_files(root)) {
        Ok(files) => files,
        Err(message) => return (Err(message), Counts::default()),
    };
    cmd::run_counting_with(
        Command::new("node")
            .current_dir(root)
            .args(["--test", "--test-reporter=tap"])
            .args(files),
        "the unit tests",
        cmd::parse_node_test_summary,
    )
}

/// The files of tests/unit/ named `*.test.js`, sorted: named one by one,
/// since node from 21 on reads a folder given to `--test` as a pattern
/// that matches only the folder itself.
fn unit_test_files(root: &Path) -> Result<Vec<PathBuf>> {
    let dir = root.join("tests").join("unit");
    let entries =
        std::fs::read_dir(&dir).map_err(|e| format!("cannot read {}: {e}", dir.display()))?;
    let mut files: Vec<PathBuf> = entries
        .filter_map(|entry| entry.ok().map(|e| e.path()))
        .filter(|path| path.to_string_lossy().ends_with(".test.js"))
        .collect();
    files.sort();
    Ok(files)
}

fn no_std(root: &Path) -> Result {
    setup::ensure_wasm_target()?;
    cmd::run(
        cargo()
            .current_dir(root)
            .args([
                "build",
                "--package",
                "uttt-core",
                "--no-default-features",
                "--target",
            ])
            .arg(setup::WASM_TARGET),
        "the no_std build of crates/core",
    )
}

/// Two `uttt online --bot` clients on a fresh server: the first creates a
/// Classic room, the second joins by the link it printed; each exits 0 only
/// after three games have ended (asking for rematches in between).
fn bots_play_online(root: &Path) -> Result {
    use std::io::{BufRead, BufReader};
    use std::process::Stdio;
    use std::time::Duration;
    let debug = test_binaries(root)?;
    let db = scratch(root)?.join("online-layer.sqlite3");
    let running = server::start(&debug.join("uttt-server"), root, "/", &db)?;
    let uttt = debug.join("uttt");
    let mut first = Command::new(&uttt)
        .args([
            "online",
            &running.url,
            "--bot",
            "easy",
            "--games",
            "3",
            "--game",
            "classic",
            "--colour",
            "x",
        ])
        .stdout(Stdio::piped())
        .spawn()
        .map_err(|e| format!("cannot start uttt online: {e}"))?;
    let stdout = first.stdout.take().ok_or("uttt online has no output")?;
    let (tx, rx) = std::sync::mpsc::channel();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout)
            .lines()
            .map_while(std::result::Result::ok)
        {
            if let Some((_, link)) = line.split_once("Invitation link: ") {
                let _ = tx.send(link.to_string());
            }
        }
    });
    let link = rx
        .recv_timeout(Duration::from_secs(20))
        .map_err(|_| "the first client printed no invitation link".to_string())?;
    let mut second = Command::new(&uttt)
        .args(["online", &link, "--bot", "medium", "--games", "3"])
        .stdout(Stdio::null())
        .spawn()
        .map_err(|e| format!("cannot start uttt online: {e}"))?;
    let deadline = Instant::now() + Duration::from_secs(60);
    let mut codes = [None, None];
    while codes.iter().any(Option::is_none) && Instant::now() < deadline {
        for (code, child) in codes.iter_mut().zip([&mut first, &mut second]) {
            if code.is_none() {
                *code = child.try_wait().map_err(|e| e.to_string())?;
            }
        }
        std::thread::sleep(Duration::from_millis(100));
    }
    for child in [&mut first, &mut second] {
        let _ = child.kill();
        let _ = child.wait();
    }
    match codes {
        [Some(a), Some(b)] if a.success() && b.success() => Ok(()),
        [Some(a), Some(b)] => Err(format!("the clients ended with {a} and {b}")),
        _ => Err("the clients did not finish three games within 60 s".into()),
    }
}

/// Scratch space of the test command inside the target directory.
/// The folder of the workspace's binaries as `cargo test` builds them (its
/// features, with the dev-dependencies' features unified in): after the
/// native layer nothing is built again, where `cargo build` of the same
/// packages compiles some ninety crates again, with other features.
fn test_binaries(root: &Path) -> Result<PathBuf> {
    cmd::run(
        cargo().current_dir(root).args([
            "test",
            "--workspace",
            "--features",
            TEST_FEATURES,
            "--no-run",
        ]),
        "the test builds",
    )?;
    Ok(build::target_dir(root).join("debug"))
}

fn scratch(root: &Path) -> Result<PathBuf> {
    let dir = build::target_dir(root).join("uttt-xtask");
    std::fs::create_dir_all(&dir).map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    Ok(dir)
}

fn wasm_tests(root: &Path) -> std::result::Result<Counts, (String, Counts)> {
    let fail = |message: String| (message, Counts::default());
    setup::ensure_wasm_target().map_err(fail)?;
    setup::ensure_browser().map_err(fail)?;
    let bin = setup::ensure_bindgen_cli(root).map_err(fail)?;
    let webdriver_json = scratch(root).map_err(fail)?.join("webdriver.json");
    let args: Vec<String> = CHROMIUM_ARGS.iter().map(|a| format!("\"{a}\"")).collect();
    let capabilities = format!(
        "{{\"goog:chromeOptions\": {{\"binary\": \"{}\", \"args\": [{}]}}}}\n",
        setup::CHROMIUM,
        args.join(", ")
    );
    std::fs::write(&webdriver_json, capabilities)
        .map_err(|e| fail(format!("cannot write {}: {e}", webdriver_json.display())))?;

    let mut command = cargo();
    command
        .current_dir(root)
        .args(["test", "--package", build::WEB_CRATE, "--features", "bench"])
        .arg("--target")
        .arg(setup::WASM_TARGET)
        .env(
            "CARGO_TARGET_WASM32_UNKNOWN_UNKNOWN_RUNNER",
            bin.join("wasm-bindgen-test-runner"),
        )
        .env("CHROMEDRIVER", setup::CHROMEDRIVER)
        .env("WASM_BINDGEN_TEST_WEBDRIVER_JSON", &webdriver_json)
        // Suites that do not name an environment run in the browser too.
        .env("WASM_BINDGEN_USE_BROWSER", "1")
        .env("WASM_BINDGEN_TEST_TIMEOUT", "120");
    // The runner prefers these drivers over CHROMEDRIVER when they are set.
    for other in [
        "GECKODRIVER",
        "GECKODRIVER_REMOTE",
        "SAFARIDRIVER",
        "SAFARIDRIVER_REMOTE",
        "CHROMEDRIVER_REMOTE",
    ] {
        command.env_remove(other);
    }
    let (result, counts) = cmd::run_counting(&mut command, "the wasm-bindgen tests");
    result.map(|()| counts).map_err(|message| (message, counts))
}

fn end_to_end(root: &Path, extra_args: &[String]) -> std::result::Result<Counts, (String, Counts)> {
    let fail = |message: String| (message, Counts::default());
    let bin = test_binaries(root).map_err(fail)?.join("uttt-server");
    let served = ServedDist::start(root, "e2e", bin).map_err(fail)?;
    let mut command = served.playwright(root, extra_args);
    let result = cmd::run(&mut command, "the Playwright tests");
    let counts = std::fs::read_to_string(&served.report)
        .ok()
        .and_then(|json| parse_playwright_stats(&json));
    match (result, counts) {
        (Ok(()), Some(counts)) => Ok(counts),
        (Ok(()), None) => Err(fail(format!(
            "Playwright wrote no readable report to {}",
            served.report.display()
        ))),
        (Err(message), counts) => Err((message, counts.unwrap_or_default())),
    }
}

/// The built site, served by the real game server for Playwright; the
/// server stops when this is dropped.
pub struct ServedDist {
    running: server::Running,
    /// The server's binary, for specs that start a server of their own.
    bin: PathBuf,
    /// The dist folder it serves.
    dist: PathBuf,
    /// Where Playwright writes its JSON report.
    pub report: PathBuf,
}

impl ServedDist {
    /// Builds the page and dist/, makes sure of the browser, the fonts and
    /// the npm packages, and serves dist/ under a sub-path, as on a GitHub
    /// Pages project site, so any root-relative URL in the page breaks a
    /// test. `name` keeps the database and report of each user apart;
    /// `bin` is the server's binary.
    pub fn start(root: &Path, name: &str, bin: PathBuf) -> Result<ServedDist> {
        build::build(root)?;
        let scratch = scratch(root)?;
        let dist = scratch.join("dist");
        site::make_dist(root, &dist)?;
        setup::ensure_browser()?;
        setup::ensure_cjk_font()?;
        setup::ensure_npm_packages(root)?;
        let db = scratch.join(format!("{name}-rooms.sqlite3"));
        let running = server::start(&bin, &dist, "/uttt/", &db)?;
        println!("xtask: serving the dist folder at {}", running.url);
        let report = scratch.join(format!("{name}-playwright.json"));
        let _ = std::fs::remove_file(&report);
        Ok(ServedDist {
            running,
            bin,
            dist,
            report,
        })
    }

    /// `playwright test` with `args`, pointed at the served site and the report.
    pub fn playwright(&self, root: &Path, args: &[String]) -> Command {
        let mut command = Command::new("node");
        command
            .current_dir(root)
            .arg(root.join("node_modules/@playwright/test/cli.js"))
            .arg("test")
            .args(args)
            .env("UTTT_BASE_URL", &self.running.url)
            .env("UTTT_PLAYWRIGHT_JSON", &self.report)
            // A spec that stops its server starts one of its own, never this one.
            .env("UTTT_SERVER_BIN", &self.bin)
            .env("UTTT_SITE", &self.dist)
            .env("UTTT_CHROMIUM", setup::CHROMIUM);
        command
    }
}

/// Reads `"stats": {... "expected": N, "unexpected": N, "flaky": N ...}`
/// from Playwright's JSON report; flaky tests passed on a retry.
fn parse_playwright_stats(json: &str) -> Option<Counts> {
    let stats = &json[json.rfind("\"stats\"")?..];
    let number = |key: &str| -> Option<u64> {
        let after = &stats[stats.find(&format!("\"{key}\""))? + key.len() + 2..];
        let after = after.trim_start().strip_prefix(':')?.trim_start();
        let digits: String = after.chars().take_while(char::is_ascii_digit).collect();
        digits.parse().ok()
    };
    Some(Counts {
        passed: number("expected")? + number("flaky").unwrap_or(0),
        failed: number("unexpected")?,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_playwright_stats() {
        let json = r#"{"suites": [{"specs": [{"tests": [{"expectedStatus": "passed"}]}]}],
            "stats": {"startTime": "x", "duration": 1.5, "expected": 4, "skipped": 1, "unexpected": 2, "flaky": 1}}"#;
        assert_eq!(
            parse_playwright_stats(json),
            Some(Counts {
                passed: 5,
                failed: 2
            })
        );
        assert_eq!(parse_playwright_stats("{}"), None);
    }

    #[test]
    fn parses_layer_lists() {
        let args = [
            "--only".to_string(),
            "fmt,e2e".to_string(),
            "--".to_string(),
            "-g".to_string(),
            "smoke".to_string(),
        ];
        let options = Options::parse(&args).unwrap();
        assert_eq!(options.only, Some(vec![Layer::Fmt, Layer::E2e]));
        assert_eq!(options.playwright_args, vec!["-g", "smoke"]);
        assert!(Options::parse(&["--only".to_string(), "bogus".to_string()]).is_err());
    }

    #[test]
    fn reads_node_test_summaries() {
        let pass = cmd::parse_node_test_summary("# pass 12").unwrap();
        assert_eq!((pass.passed, pass.failed), (12, 0));
        let fail = cmd::parse_node_test_summary("# fail 1").unwrap();
        assert_eq!((fail.passed, fail.failed), (0, 1));
        assert!(cmd::parse_node_test_summary("# tests 13").is_none());
        assert!(cmd::parse_node_test_summary("ok 1 - pass 3").is_none());
    }
}
