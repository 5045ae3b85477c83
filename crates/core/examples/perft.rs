//! Ultimate perft from the start, timed: the move generator's benchmark.
//!
//! `cargo run --release -p uttt-core --example perft -- [depth] [runs]`
//! (defaults 8 and 5). Prints every run and the median leaves per second.
//! The CLI's `uttt perft` is the user-facing command; this is the core
//! crate's own harness, so the core can be measured without the CLI.

use std::time::Instant;

use uttt_core::perft::perft;
use uttt_core::{Rules, Ultimate};

fn main() {
    let mut args = std::env::args().skip(1);
    let depth: u32 = args.next().and_then(|a| a.parse().ok()).unwrap_or(8);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let start = Ultimate::new(Rules::Standard);
    let mut rates = Vec::new();
    for run in 1..=runs.max(1) {
        let t = Instant::now();
        let leaves = perft(&start, depth);
        let secs = t.elapsed().as_secs_f64();
        let rate = leaves as f64 / secs;
        println!(
            "run {run}: perft({depth}) = {leaves} in {:.3} s, {:.0} M leaves/s",
            secs,
            rate / 1e6
        );
        rates.push(rate);
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "median: {:.0} M leaves/s over {} runs",
        rates[rates.len() / 2] / 1e6,
        rates.len()
    );
}
