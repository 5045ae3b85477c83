//! `uttt bench`: search speed over a fixed set of middle-game positions at a
//! fixed depth, printing node counts so that a change in speed and a change
//! in the tree can be told apart.

use std::time::Instant;

// Positions and engine settings live in the core so the browser build's
// benchmark (cargo xtask bench) searches exactly the same trees.
use uttt_core::search::bench::{self, positions};
use uttt_core::search::SearchOptions;
use uttt_core::Game;

const HELP: &str = "\
uttt bench [--depth D] [--positions N] [--table MIB] [--off lmr|lmp|singular|aspiration|qs|dead|freelast|iir]...

Searches N (default 16) fixed middle-game positions of Ultimate to depth D
(default 10) with a Hard engine whose table (MIB MiB, default 16) is cleared before each,
and prints per position and in total: nodes, time and nodes per second. The
positions and node counts depend only on the code, never on the machine: a
change of nodes is a change of the tree, a change of nodes/s is speed.
--off turns a part of the search off, to see what it does to the tree.

Example:
  uttt bench --depth 11";

/// This thread's CPU time in seconds (Linux `/proc`, 10 ms ticks), so the
/// figure is not diluted when other processes share the cores; `None` elsewhere.
fn thread_cpu_secs() -> Option<f64> {
    let stat = std::fs::read_to_string("/proc/thread-self/stat").ok()?;
    // Fields after the command name, which is in parentheses and may hold spaces.
    let rest = &stat[stat.rfind(')')? + 2..];
    let fields: Vec<&str> = rest.split_whitespace().collect();
    let utime: f64 = fields.get(11)?.parse().ok()?;
    let stime: f64 = fields.get(12)?.parse().ok()?;
    Some((utime + stime) / 100.0)
}

/// `uttt bench`.
///
/// # Errors
/// A usage error.
pub fn run(args: &[String]) -> Result<(), String> {
    let mut depth = bench::DEPTH;
    let mut count = bench::POSITIONS;
    let mut table_mib = bench::TABLE_MIB;
    let mut options = SearchOptions::default();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        if a == "--help" || a == "-h" {
            outln!("{HELP}");
            return Ok(());
        }
        let v = it
            .next()
            .ok_or_else(|| format!("{a} needs a value\n\n{HELP}"))?;
        if a == "--off" {
            match v.as_str() {
                "lmr" => options.lmr = false,
                "lmp" => options.lmp = false,
                "singular" => options.singular = false,
                "aspiration" => options.aspiration = false,
                "qs" => options.quiescence = false,
                "dead" => options.dead_draws = false,
                "freelast" => options.free_moves_last = false,
                "iir" => options.iir = false,
                _ => {
                    return Err(format!(
                        "--off: `{v}` is not lmr, lmp, singular, aspiration, qs, dead, \
                         freelast or iir"
                    ))
                }
            }
            continue;
        }
        let n: usize = v
            .parse()
            .map_err(|_| format!("{a}: `{v}` is not a number"))?;
        match a.as_str() {
            "--depth" if (1..=60).contains(&n) => depth = n as u32,
            "--positions" if (1..=1000).contains(&n) => count = n,
            "--table" if (1..=4096).contains(&n) => table_mib = n,
            "--depth" | "--positions" | "--table" => {
                return Err(format!("{a}: {n} is out of range"))
            }
            _ => return Err(format!("unknown option `{a}`\n\n{HELP}")),
        }
    }
    let mut total_nodes = 0u64;
    let mut total_secs = 0.0f64;
    let cpu_start = thread_cpu_secs();
    outln!(
        "{:>3} {:>4} {:>12} {:>9} {:>11}  best score",
        "#",
        "ply",
        "nodes",
        "ms",
        "nodes/s"
    );
    // One table, cleared (and so paged in) before each position, outside the timing.
    let mut engine = bench::engine(depth, table_mib);
    engine.set_options(options);
    for (i, pos) in positions(count).iter().enumerate() {
        engine.new_game();
        let start = Instant::now();
        let r = engine
            .choose_within_limits(pos)
            .ok_or("bench position is over")?;
        let secs = start.elapsed().as_secs_f64();
        total_nodes += r.nodes;
        total_secs += secs;
        outln!(
            "{:>3} {:>4} {:>12} {:>9.1} {:>11.0}  {} {}",
            i + 1,
            pos.ply(),
            r.nodes,
            secs * 1000.0,
            r.nodes as f64 / secs.max(1e-9),
            r.best,
            r.score
        );
    }
    outln!(
        "total: {total_nodes} nodes in {:.3} s = {:.0} nodes/s (depth {depth}, {count} positions)",
        total_secs,
        total_nodes as f64 / total_secs.max(1e-9)
    );
    if let (Some(a), Some(b)) = (cpu_start, thread_cpu_secs()) {
        // Includes clearing the table between positions: a slight underestimate.
        let cpu = (b - a).max(0.01);
        outln!(
            "cpu:   {cpu:.2} s of this thread = {:.0} nodes per CPU second (less affected by other load)",
            total_nodes as f64 / cpu
        );
    }
    Ok(())
}
