//! `cargo xtask bench`: the browser build's speed against native, for the
//! "within 1.5x of native" requirement of issues 3 (perft) and 4 (search).
//!
//! Builds the release CLI and the release wasm, then alternates rounds of
//! native runs (`uttt perft`, `uttt bench`) and browser runs (the same core
//! code through crates/web's bench exports, its `bench` feature, in headless
//! Chromium, driven by tests/bench/run.js), so both sides see the same
//! machine load. Prints the median rates, their ratio and the counts: equal
//! counts show that both builds walked the same tree, so a ratio is a speed
//! difference.
//!
//! A benchmark, not a test: `cargo xtask test` does not run it.

use crate::cmd::{self, cargo};
use crate::server;
use crate::{build, setup, site, Result};
use std::io::Read;
use std::path::Path;
use std::process::{Command, Stdio};
use std::time::Duration;

/// The CLI's package and binary.
const CLI_PACKAGE: &str = "uttt-cli";
const CLI_BIN: &str = "uttt";
/// The browser may be at most this many times slower (issues 3 and 4).
const ALLOWED_SLOWDOWN: f64 = 1.5;

/// `bench` options; the defaults are the issues' figure (perft 8) and
/// `uttt bench`'s own defaults (depth 10, 16 positions, from
/// `uttt_core::search::bench`; xtask has no dependencies, so they are
/// repeated here).
#[derive(Debug, PartialEq, Eq)]
pub struct Options {
    runs: u32,
    perft_depth: u32,
    depth: u32,
    positions: u32,
}

impl Options {
    /// Reads `[--runs N] [--perft-depth D] [--depth D] [--positions N]`.
    pub fn parse(args: &[String]) -> Result<Options> {
        let mut options = Options {
            runs: 5,
            perft_depth: 8,
            depth: 10,
            positions: 16,
        };
        let mut rest = args.iter();
        while let Some(flag) = rest.next() {
            let (slot, max): (&mut u32, u32) = match flag.as_str() {
                "--runs" => (&mut options.runs, 100),
                "--perft-depth" => (&mut options.perft_depth, 12),
                "--depth" => (&mut options.depth, 60),
                "--positions" => (&mut options.positions, 1000),
                other => {
                    return Err(format!(
                        "unexpected argument `{other}` (bench takes --runs N, --perft-depth D, --depth D, --positions N)"
                    ))
                }
            };
            read_number(flag, rest.next(), slot, max)?;
        }
        Ok(options)
    }
}

/// Reads `flag`'s value into `slot`: a whole number from 1 to `max`.
pub(crate) fn read_number(flag: &str, value: Option<&String>, slot: &mut u32, max: u32) -> Result {
    let value = value.ok_or_else(|| format!("{flag} needs a value"))?;
    match value.parse() {
        Ok(n) if (1..=max).contains(&n) => {
            *slot = n;
            Ok(())
        }
        _ => Err(format!(
            "{flag} needs a whole number from 1 to {max}, got `{value}`"
        )),
    }
}

/// One measurement: what was counted (leaves or nodes), how fast by the
/// wall clock, and how fast per second of CPU time (`None` when the system
/// cannot say), which other processes on a shared machine do not dilute.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Sample {
    count: u64,
    per_sec: f64,
    per_cpu_sec: Option<f64>,
}

/// Every sample of one kind, native and browser.
#[derive(Default)]
struct Series {
    native: Vec<Sample>,
    browser: Vec<Sample>,
}

/// Runs the benchmark and prints the table.
pub fn run(root: &Path, options: &Options) -> Result {
    cmd::run(
        cargo()
            .current_dir(root)
            .args(["build", "--release", "--package", CLI_PACKAGE]),
        "building the native CLI",
    )?;
    let cli = build::target_dir(root).join("release").join(CLI_BIN);
    // The build installs the npm packages too (wasm-opt), run.js's Playwright with them.
    build::build_flavour(root, build::Flavour::Bench)?;
    setup::ensure_browser()?;

    // The page and a copy of the built pkg/ in a folder of their own, so the
    // server exposes nothing else and a rebuild cannot change it mid-run.
    let site_dir = build::target_dir(root)
        .join("uttt-xtask")
        .join("bench-site");
    if site_dir.exists() {
        std::fs::remove_dir_all(&site_dir)
            .map_err(|e| format!("cannot clear {}: {e}", site_dir.display()))?;
    }
    site::copy_tree(&build::bench_pkg_dir(root), &site_dir.join("pkg"))?;
    for page_file in ["index.html", "page.js"] {
        site::copy_tree(
            &root.join("tests").join("bench").join(page_file),
            &site_dir.join(page_file),
        )?;
    }
    let server_bin = server::build(root, server::Profile::Dev)?;
    let db = build::target_dir(root)
        .join("uttt-xtask")
        .join("bench-rooms.sqlite3");
    let running = server::start(&server_bin, &site_dir, "/", &db)?;
    let url = running.url.clone();
    let driver = root.join("tests").join("bench").join("run.js");

    let (perft_depth, depth, positions) = (
        options.perft_depth.to_string(),
        options.depth.to_string(),
        options.positions.to_string(),
    );
    let mut perft = Series::default();
    let mut search = Series::default();
    let mut loads = Vec::new();
    let mut browser_version = String::new();
    println!("xtask: load average at start: {}", load_average_text());
    for round in 1..=options.runs {
        loads.push(load_average().unwrap_or(f64::NAN));
        let (text, cpu) = run_timed(Command::new(&cli).args(["perft", &perft_depth]))?;
        perft.native.push(with_cpu(parse_native_perft(&text)?, cpu));
        let (text, cpu) = run_timed(Command::new(&cli).args([
            "bench",
            "--depth",
            &depth,
            "--positions",
            &positions,
        ]))?;
        search
            .native
            .push(with_cpu(parse_native_bench(&text)?, cpu));
        let text = cmd::output(
            Command::new("node").current_dir(root).arg(&driver).args([
                &url,
                &perft_depth,
                &depth,
                &positions,
            ]),
            "the browser benchmark (tests/bench/run.js)",
        )?;
        let (version, perft_sample, search_sample) = parse_browser(&text)?;
        browser_version = version;
        perft.browser.push(perft_sample);
        search.browser.push(search_sample);
        println!(
            "xtask: round {round}/{}: native/browser, perft {} M leaves/s, search {} M nodes/s (wall; CPU)",
            options.runs,
            pair(&perft, 1e6),
            pair(&search, 1e6),
        );
    }
    println!("xtask: load average at end: {}", load_average_text());

    println!(
        "\nmedian of {} rounds; browser: Chromium {browser_version} (headless, main thread, after an untimed warm-up)",
        options.runs
    );
    println!(
        "{:<34} {:>12} {:>12} {:>15}  {:>12} {:>12}",
        "", "native", "browser", "native/browser", "native count", "browser count"
    );
    let mut within = Vec::new();
    for (name, unit, series) in [
        (format!("perft {perft_depth}"), "M leaves/s", &perft),
        (
            format!("search d{depth} x{positions}"),
            "M nodes/s",
            &search,
        ),
    ] {
        for (clock, rate) in [("wall", Rate::Wall), ("CPU", Rate::Cpu)] {
            if let Some(ratio) = print_row(&format!("{name}, {unit} ({clock})"), series, rate) {
                let verdict = if ratio <= ALLOWED_SLOWDOWN {
                    "yes"
                } else {
                    "NO"
                };
                within.push(format!("{name} by {clock} time: {verdict}"));
            }
        }
    }
    let (lo, mid, hi) = spread(&loads);
    println!(
        "load average (1 min) at the start of each round: median {mid:.1} (from {lo:.1} to {hi:.1}) on {} cores",
        std::thread::available_parallelism().map_or(0, usize::from)
    );
    println!(
        "CPU time: native = the whole `uttt` process (schedstat), browser = the page's main thread \
         (DevTools ThreadTime): what the code costs, whereas wall time also counts waiting for a core"
    );

    let counts_agree = [&perft, &search].iter().all(|s| {
        s.native
            .iter()
            .chain(&s.browser)
            .all(|x| x.count == s.native[0].count)
    });
    if !counts_agree {
        return Err("native and browser counts differ: the two builds did not walk the same tree, so the speeds are not comparable".into());
    }
    println!(
        "within {ALLOWED_SLOWDOWN}x of native: {}",
        within.join(", ")
    );
    Ok(())
}

/// Which rate of a [`Sample`].
#[derive(Clone, Copy)]
enum Rate {
    Wall,
    Cpu,
}

impl Rate {
    fn of(self, sample: &Sample) -> Option<f64> {
        match self {
            Rate::Wall => Some(sample.per_sec),
            Rate::Cpu => sample.per_cpu_sec,
        }
    }
}

/// The latest round's native/browser rates, `wall; CPU`, in `unit`s.
fn pair(series: &Series, unit: f64) -> String {
    let show = |samples: &[Sample], rate: Rate| {
        samples
            .last()
            .and_then(|s| rate.of(s))
            .map_or_else(|| "-".to_string(), |r| format!("{:.2}", r / unit))
    };
    format!(
        "{}/{}; {}/{}",
        show(&series.native, Rate::Wall),
        show(&series.browser, Rate::Wall),
        show(&series.native, Rate::Cpu),
        show(&series.browser, Rate::Cpu),
    )
}

/// Prints one table row of medians; returns the native/browser ratio, or
/// `None` (and prints nothing) when a side has no such rate.
fn print_row(label: &str, series: &Series, rate: Rate) -> Option<f64> {
    let rates =
        |samples: &[Sample]| -> Option<Vec<f64>> { samples.iter().map(|s| rate.of(s)).collect() };
    let native = median(rates(&series.native)?);
    let browser = median(rates(&series.browser)?);
    let ratio = native / browser;
    let count = |samples: &[Sample]| samples.first().map_or(0, |s| s.count);
    println!(
        "{label:<34} {:>12.2} {:>12.2} {ratio:>14.2}x  {:>12} {:>12}",
        native / 1e6,
        browser / 1e6,
        count(&series.native),
        count(&series.browser),
    );
    Some(ratio)
}

/// Adds the CPU rate to a native sample, from the process's CPU seconds.
fn with_cpu(sample: Sample, cpu_secs: Option<f64>) -> Sample {
    Sample {
        per_cpu_sec: cpu_secs
            .filter(|&secs| secs > 0.0)
            .map(|secs| sample.count as f64 / secs),
        ..sample
    }
}

/// Runs a command to the end; returns its standard output and the CPU
/// seconds it used. The CPU time is read from `/proc/PID/schedstat`
/// (nanoseconds) once the child has exited but before it is reaped, when
/// the figure is final; `None` without Linux's procfs.
fn run_timed(command: &mut Command) -> Result<(String, Option<f64>)> {
    let what = cmd::describe(command);
    println!("$ {what}");
    let mut child = command
        .stdout(Stdio::piped())
        .stderr(Stdio::inherit())
        .spawn()
        .map_err(|e| format!("cannot start `{what}`: {e}"))?;
    // Drained on a thread so a chatty child never blocks on a full pipe.
    let mut stdout = child.stdout.take().ok_or("no standard output")?;
    let reader = std::thread::spawn(move || {
        let mut text = String::new();
        stdout.read_to_string(&mut text).map(|_| text)
    });
    let proc_dir = format!("/proc/{}", child.id());
    let mut cpu = None;
    loop {
        match std::fs::read_to_string(format!("{proc_dir}/stat")) {
            // The state follows the command name, which is in parentheses;
            // Z: exited, not yet reaped (only this process's wait reaps it).
            Ok(stat) if stat[stat.rfind(')').unwrap_or(0)..].starts_with(") Z") => {
                cpu = std::fs::read_to_string(format!("{proc_dir}/schedstat"))
                    .ok()
                    .and_then(|t| t.split_whitespace().next()?.parse::<f64>().ok())
                    .map(|ns| ns / 1e9);
                break;
            }
            Ok(_) => std::thread::sleep(Duration::from_millis(1)),
            Err(_) => break,
        }
    }
    let status = child
        .wait()
        .map_err(|e| format!("lost the child `{what}`: {e}"))?;
    let text = reader
        .join()
        .map_err(|_| format!("the output reader of `{what}` failed"))?
        .map_err(|e| format!("cannot read the output of `{what}`: {e}"))?;
    if !status.success() {
        return Err(format!("`{what}` failed ({status})"));
    }
    Ok((text, cpu))
}

/// The middle value (upper middle for an even count).
fn median(mut values: Vec<f64>) -> f64 {
    values.sort_by(f64::total_cmp);
    values.get(values.len() / 2).copied().unwrap_or(f64::NAN)
}

fn spread(values: &[f64]) -> (f64, f64, f64) {
    let mut sorted = values.to_vec();
    sorted.sort_by(f64::total_cmp);
    (
        sorted.first().copied().unwrap_or(f64::NAN),
        median(sorted.clone()),
        sorted.last().copied().unwrap_or(f64::NAN),
    )
}

/// The 1-minute load average (Linux), which says how shared the cores were.
fn load_average() -> Option<f64> {
    load_average_text().split_whitespace().next()?.parse().ok()
}

pub(crate) fn load_average_text() -> String {
    std::fs::read_to_string("/proc/loadavg")
        .map(|t| t.split_whitespace().take(3).collect::<Vec<_>>().join(" "))
        .unwrap_or_else(|_| "unknown".into())
}

/// Reads `uttt perft`: `perft 8: 281067408` and `time 0.070 s, 4012.3 M
/// leaves/s` (the rate is computed from the unrounded time).
fn parse_native_perft(text: &str) -> Result<Sample> {
    let bad = || format!("cannot read the output of `uttt perft`:\n{text}");
    let count = line_after(text, "perft ")
        .and_then(|rest| rest.split(':').nth(1))
        .and_then(|n| n.trim().parse().ok())
        .ok_or_else(bad)?;
    let per_sec: f64 = line_after(text, "time ")
        .and_then(|rest| rest.split(", ").nth(1))
        .and_then(|rate| rate.strip_suffix(" M leaves/s"))
        .and_then(|m| m.trim().parse().ok())
        .ok_or_else(bad)?;
    Ok(Sample {
        count,
        per_sec: per_sec * 1e6,
        per_cpu_sec: None,
    })
}

/// Reads `uttt bench`: `total: N nodes in S s = R nodes/s (...)`.
fn parse_native_bench(text: &str) -> Result<Sample> {
    let bad = || format!("cannot read the output of `uttt bench`:\n{text}");
    let words: Vec<&str> = line_after(text, "total: ")
        .ok_or_else(bad)?
        .split_whitespace()
        .collect();
    match words.as_slice() {
        [nodes, "nodes", "in", _, "s", "=", rate, "nodes/s", ..] => Ok(Sample {
            count: nodes.parse().map_err(|_| bad())?,
            per_sec: rate.parse().map_err(|_| bad())?,
            per_cpu_sec: None,
        }),
        _ => Err(bad()),
    }
}

/// Reads run.js: `browser VERSION`, `perft DEPTH LEAVES MS CPU_MS` and
/// `search DEPTH POSITIONS NODES MS CPU_MS`.
fn parse_browser(text: &str) -> Result<(String, Sample, Sample)> {
    let bad = || format!("cannot read the output of tests/bench/run.js:\n{text}");
    let sample = |count: &str, ms: &str, cpu_ms: &str| -> Option<Sample> {
        let count: u64 = count.parse().ok()?;
        let ms: f64 = ms.parse().ok()?;
        let cpu_ms: f64 = cpu_ms.parse().ok()?;
        (ms > 0.0).then(|| Sample {
            count,
            per_sec: count as f64 / (ms / 1000.0),
            per_cpu_sec: (cpu_ms > 0.0).then(|| count as f64 / (cpu_ms / 1000.0)),
        })
    };
    let version = line_after(text, "browser ").ok_or_else(bad)?.to_string();
    let perft = match line_after(text, "perft ")
        .ok_or_else(bad)?
        .split_whitespace()
        .collect::<Vec<_>>()
        .as_slice()
    {
        [_, leaves, ms, cpu_ms] => sample(leaves, ms, cpu_ms),
        _ => None,
    }
    .ok_or_else(bad)?;
    let search = match line_after(text, "search ")
        .ok_or_else(bad)?
        .split_whitespace()
        .collect::<Vec<_>>()
        .as_slice()
    {
        [_, _, nodes, ms, cpu_ms] => sample(nodes, ms, cpu_ms),
        _ => None,
    }
    .ok_or_else(bad)?;
    Ok((version, perft, search))
}

/// The rest of the first line that starts with `prefix`.
fn line_after<'a>(text: &'a str, prefix: &str) -> Option<&'a str> {
    text.lines().find_map(|line| line.strip_prefix(prefix))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_the_native_outputs() {
        let perft = "perft 8: 281067408\ntime 0.070 s, 4012.3 M leaves/s\n";
        assert_eq!(
            parse_native_perft(perft),
            Ok(Sample {
                count: 281_067_408,
                per_sec: 4_012_300_000.0,
                per_cpu_sec: None
            })
        );
        let bench = "  1   20        12345      10.0     1234500  e5 +0.10\n\
            total: 987654 nodes in 0.321 s = 3076804 nodes/s (depth 10, 16 positions)\n\
            cpu:   0.33 s of this thread = 2992890 nodes per CPU second\n";
        assert_eq!(
            parse_native_bench(bench),
            Ok(Sample {
                count: 987_654,
                per_sec: 3_076_804.0,
                per_cpu_sec: None
            })
        );
        assert!(parse_native_perft("perft 8: x\n").is_err());
        assert!(parse_native_bench("total: nothing\n").is_err());
    }

    #[test]
    fn reads_the_browser_output() {
        let text = "browser 130.0.1\nperft 8 281067408 100.000 50.000\nsearch 10 16 3000000 1500.000 1000.000\n";
        let (version, perft, search) = parse_browser(text).unwrap();
        assert_eq!(version, "130.0.1");
        assert_eq!(perft.count, 281_067_408);
        assert!((perft.per_sec - 2_810_674_080.0).abs() < 1.0);
        assert!((perft.per_cpu_sec.unwrap() - 5_621_348_160.0).abs() < 1.0);
        assert_eq!(search.count, 3_000_000);
        assert!((search.per_sec - 2_000_000.0).abs() < 1e-6);
        assert!((search.per_cpu_sec.unwrap() - 3_000_000.0).abs() < 1e-6);
        assert!(parse_browser("browser 1\nperft 8 5 0 1\nsearch 1 1 1 1 1\n").is_err());
        assert!(parse_browser("browser 1\nperft 8 5 1\nsearch 1 1 1 1 1\n").is_err());
    }

    #[test]
    fn measures_a_child_s_cpu_time() {
        // A shell loop that burns some CPU: its time must be seen, and be
        // no more than the wall time it took.
        let started = std::time::Instant::now();
        let (text, cpu) = run_timed(Command::new("sh").args([
            "-c",
            "i=0; while [ $i -lt 20000 ]; do i=$((i+1)); done; echo done",
        ]))
        .unwrap();
        assert_eq!(text, "done\n");
        if std::path::Path::new("/proc/self/schedstat").exists() {
            let cpu = cpu.unwrap();
            assert!(cpu > 0.0 && cpu <= started.elapsed().as_secs_f64(), "{cpu}");
        }
        assert!(run_timed(&mut Command::new("false")).is_err());
    }

    #[test]
    fn parses_options() {
        let args: Vec<String> = ["--runs", "3", "--depth", "9"]
            .iter()
            .map(|s| (*s).to_string())
            .collect();
        assert_eq!(
            Options::parse(&args),
            Ok(Options {
                runs: 3,
                perft_depth: 8,
                depth: 9,
                positions: 16
            })
        );
        assert!(Options::parse(&["--runs".to_string()]).is_err());
        assert!(Options::parse(&["--depth".to_string(), "0".to_string()]).is_err());
        assert!(Options::parse(&["--fast".to_string()]).is_err());
    }
}
