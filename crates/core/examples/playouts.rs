//! Random playouts from the start, timed: the cost of the search's inner
//! loop (generate moves, copy, play) rather than perft's bulk counting.
//!
//! `cargo run --release -p uttt-core --example playouts -- [games] [runs]`
//! (defaults 1000000 and 5). Prints every run and the median moves per second.

use std::time::Instant;

use uttt_core::{Game, Rules, Ultimate};

fn main() {
    let mut args = std::env::args().skip(1);
    let games: u64 = args
        .next()
        .and_then(|a| a.parse().ok())
        .unwrap_or(1_000_000);
    let runs: usize = args.next().and_then(|a| a.parse().ok()).unwrap_or(5);
    let mut rates = Vec::new();
    // xorshift64: a fixed seed keeps every run's work identical.
    let mut state = 0x2545_F491_4F6C_DD1Du64;
    for run in 1..=runs.max(1) {
        let t = Instant::now();
        let (mut moves, mut x_wins) = (0u64, 0u64);
        for _ in 0..games {
            let mut pos = Ultimate::new(Rules::Standard);
            loop {
                let list = pos.legal_moves();
                if list.is_empty() {
                    break;
                }
                state ^= state << 13;
                state ^= state >> 7;
                state ^= state << 17;
                let m = list[(state % list.len() as u64) as usize];
                pos.play_unchecked(m);
                moves += 1;
            }
            x_wins +=
                u64::from(pos.outcome().and_then(|o| o.winner()) == Some(uttt_core::Player::X));
        }
        let secs = t.elapsed().as_secs_f64();
        let rate = moves as f64 / secs;
        println!(
            "run {run}: {games} games, {moves} moves ({x_wins} X wins) in {secs:.3} s, {:.1} M moves/s",
            rate / 1e6
        );
        rates.push(rate);
    }
    rates.sort_by(f64::total_cmp);
    println!(
        "median: {:.1} M moves/s over {} runs",
        rates[rates.len() / 2] / 1e6,
        rates.len()
    );
}
