//! `uttt calibrate`: plays the engine against itself, keeps the score of
//! every searched position with the game's result, and fits the mapping
//! from score to win, draw and loss chances ([`WinModel`]) by maximum
//! likelihood. It prints the fitted constants, to be copied into
//! `crates/core/src/search/win_chance.rs`, and a table of the observed
//! results against the predicted ones, for the fitted model and the one in
//! use.

use std::fmt::Write as _;
use std::process::ExitCode;

use uttt_core::search::{Engine, Eval, Level, Limits, Rng, WinChance, WinModel};
use uttt_core::{Game, Outcome, Rules, Ultimate};

use crate::args::{self, UsageError};
use crate::matches;

const HELP: &str = "\
uttt calibrate [--games N] [--nodes N] [--rules standard|tiebreak]
               [--opening-plies K] [--seed S] [--threads T] [--samples FILE]

Plays N games (default 400) of Hard against itself at N nodes a move
(default 100000), each from a random opening of K plies (default 4), and
keeps, for every position the engine searched, its score for the side to
move and how the game ended for that side. Fits the win/draw/loss model
(a logistic curve of the score with a draw margin, both moving with the
game's progress) to them and prints:
  - the fitted constants, as Rust, for crates/core/src/search/win_chance.rs;
  - per score bucket: positions, observed and predicted win/draw/loss, for
    the fitted model and for the model in use;
  - the mean log-loss of both.
--samples FILE also writes the samples as CSV (ply,score,result).
Proven results (\"wins in N\") are left out: their chance is certain.

Example:
  uttt calibrate --games 1000 --threads 2";

const SPEC: args::Spec = args::Spec {
    values: &[
        "games",
        "nodes",
        "rules",
        "opening-plies",
        "seed",
        "threads",
        "samples",
    ],
    switches: &[],
};

/// One searched position: when, how the engine scored it for the side to
/// move, and how the game ended for that side (1 won, 0 drawn, -1 lost).
#[derive(Clone, Copy, Debug, PartialEq)]
struct Sample {
    ply: usize,
    score: i32,
    result: i8,
}

/// `uttt calibrate`.
///
/// # Errors
/// A usage error.
pub fn run(argv: &[String]) -> Result<ExitCode, UsageError> {
    let p = SPEC.parse(argv)?;
    if p.help {
        out!("{HELP}");
        return Ok(ExitCode::SUCCESS);
    }
    p.at_most_positional(0)?;
    let games = p.number("games", 1usize, 1_000_000, 400)?;
    let nodes = p.number("nodes", 1_000u64, 100_000_000, 100_000)?;
    let opening = p.number("opening-plies", 0usize, 30, 4)?;
    let seed = p.number("seed", 0u64, u64::MAX, 1)?;
    let threads = p.number("threads", 1u64, matches::machine_threads(), 1)? as usize;
    let rules = p.rules(Rules::Standard)?;
    let samples = match play_games(games, nodes, opening, seed, threads, rules) {
        Ok(s) => s,
        Err(e) => {
            eprintln!("uttt calibrate: {e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    if let Some(path) = p.value("samples") {
        if let Err(e) = std::fs::write(path, samples_csv(&samples)) {
            eprintln!("uttt calibrate: cannot write {path}: {e}");
            return Ok(ExitCode::FAILURE);
        }
    }
    let in_use = WinModel::for_rules(rules);
    let fitted = fit(&samples, in_use);
    outln!(
        "{} samples from {games} games ({} rules, {nodes} nodes a move, \
         {opening}-ply random openings, seed {seed})",
        samples.len(),
        rules.name()
    );
    out!("{}", report(&samples, &fitted, &in_use));
    Ok(ExitCode::SUCCESS)
}

/// Plays the games on `threads` threads, game `g` on thread `g % threads`,
/// each game seeded from `seed` and `g` alone, so the samples do not depend
/// on the threads.
fn play_games(
    games: usize,
    nodes: u64,
    opening: usize,
    seed: u64,
    threads: usize,
    rules: Rules,
) -> Result<Vec<Sample>, String> {
    let per_thread = std::thread::scope(|scope| {
        let handles: Result<Vec<_>, String> = (0..threads)
            .map(|t| {
                std::thread::Builder::new()
                    .spawn_scoped(scope, move || {
                        (t..games)
                            .step_by(threads)
                            .map(|g| play_one(seed.wrapping_add(g as u64), nodes, opening, rules))
                            .collect::<Vec<_>>()
                    })
                    .map_err(|e| format!("cannot start a thread: {e}"))
            })
            .collect();
        handles.map(|hs| {
            hs.into_iter()
                .map(|h| h.join().unwrap_or_default())
                .collect::<Vec<_>>()
        })
    })?;
    Ok(per_thread.into_iter().flatten().flatten().collect())
}

/// One self-play game: its searched positions' samples.
fn play_one(seed: u64, nodes: u64, opening: usize, rules: Rules) -> Vec<Sample> {
    let mut rng = Rng::new(seed);
    let mut engine = Engine::for_level(Level::Hard, seed);
    engine.set_limits(Limits {
        max_nodes: nodes,
        ..Limits::NONE
    });
    let mut pos = Ultimate::new(rules);
    let mut scored = Vec::new();
    while !pos.is_over() {
        let m = if pos.ply() < opening {
            let moves = pos.legal_moves();
            moves[rng.below(moves.len())]
        } else {
            let Some(r) = engine.choose_within_limits(&pos) else {
                break;
            };
            if !r.score.is_mate() {
                scored.push((pos.ply(), r.score, pos.side_to_move()));
            }
            r.best
        };
        pos.play_unchecked(m);
    }
    let outcome = pos.outcome();
    scored
        .into_iter()
        .map(|(ply, score, mover): (usize, Eval, _)| Sample {
            ply,
            score: score.0,
            result: match outcome {
                Some(Outcome::Win(p)) if p == mover => 1,
                Some(Outcome::Win(_)) => -1,
                _ => 0,
            },
        })
        .collect()
}

fn samples_csv(samples: &[Sample]) -> String {
    let mut out = String::from("ply,score,result\n");
    for s in samples {
        let _ = writeln!(out, "{},{},{}", s.ply, s.score, s.result);
    }
    out
}

/// The probability the model gives the sample's actual result.
fn likelihood(model: &WinModel, s: &Sample) -> f64 {
    let c = model.chances(f64::from(s.score), progress(s.ply));
    match s.result {
        1 => c.win,
        0 => c.draw,
        _ => c.loss,
    }
}

fn progress(ply: usize) -> f64 {
    ply as f64 / Ultimate::MAX_PLIES as f64
}

/// The mean negative log-likelihood per sample (lower fits better).
fn log_loss(model: &WinModel, samples: &[Sample]) -> f64 {
    let total: f64 = samples
        .iter()
        .map(|s| -likelihood(model, s).max(1e-12).ln())
        .sum();
    total / samples.len().max(1) as f64
}

/// Maximum likelihood by coordinate descent from `start`: each constant in
/// turn is moved by its step while that lowers the log-loss; the steps are
/// halved when none does. Four smooth parameters need nothing cleverer.
fn fit(samples: &[Sample], start: WinModel) -> WinModel {
    let get = |m: &WinModel| [m.scale, m.scale_slope, m.draw, m.draw_slope];
    let set = |v: [f64; 4]| WinModel {
        scale: v[0],
        scale_slope: v[1],
        draw: v[2],
        draw_slope: v[3],
    };
    let mut best = get(&start);
    let mut best_loss = log_loss(&start, samples);
    let mut steps = [64.0, 64.0, 0.25, 0.25];
    for _ in 0..400 {
        let mut moved = false;
        for i in 0..4 {
            for dir in [1.0, -1.0] {
                let mut v = best;
                v[i] += dir * steps[i];
                let l = log_loss(&set(v), samples);
                if l < best_loss {
                    (best, best_loss, moved) = (v, l, true);
                }
            }
        }
        if !moved {
            for s in &mut steps {
                *s /= 2.0;
            }
            if steps[0] < 0.05 {
                break;
            }
        }
    }
    set(best)
}

/// The score buckets of the table, for the side to move.
const BUCKETS: [i32; 12] = [-800, -400, -200, -100, -50, -20, 20, 50, 100, 200, 400, 800];

fn bucket_label(i: usize) -> String {
    match i {
        0 => format!("< {}", BUCKETS[0]),
        i if i == BUCKETS.len() => format!(">= {}", BUCKETS[i - 1]),
        i => format!("{}..{}", BUCKETS[i - 1], BUCKETS[i]),
    }
}

/// Mean predicted and observed chances over the samples of one bucket.
#[derive(Default)]
struct Bucket {
    n: usize,
    observed: [f64; 3],
    fitted: [f64; 3],
    in_use: [f64; 3],
}

fn add(sum: &mut [f64; 3], c: WinChance) {
    sum[0] += c.win;
    sum[1] += c.draw;
    sum[2] += c.loss;
}

fn report(samples: &[Sample], fitted: &WinModel, in_use: &WinModel) -> String {
    let mut buckets: Vec<Bucket> = (0..=BUCKETS.len()).map(|_| Bucket::default()).collect();
    for s in samples {
        let b = &mut buckets[BUCKETS.iter().filter(|&&edge| s.score >= edge).count()];
        b.n += 1;
        b.observed[(1 - s.result) as usize] += 1.0;
        add(
            &mut b.fitted,
            fitted.chances(f64::from(s.score), progress(s.ply)),
        );
        add(
            &mut b.in_use,
            in_use.chances(f64::from(s.score), progress(s.ply)),
        );
    }
    let mut out = String::new();
    let _ = writeln!(
        out,
        "\nFitted (paste into WinModel):\n    scale: {:.1},\n    scale_slope: {:.1},\n    \
         draw: {:.3},\n    draw_slope: {:.3},",
        fitted.scale, fitted.scale_slope, fitted.draw, fitted.draw_slope
    );
    let _ = writeln!(
        out,
        "\nmean log-loss: fitted {:.4}, in use {:.4}\n",
        log_loss(fitted, samples),
        log_loss(in_use, samples)
    );
    let _ = writeln!(
        out,
        "{:>11} {:>7}  {:>17}  {:>17}  {:>17}",
        "score", "n", "observed W/D/L %", "fitted W/D/L %", "in use W/D/L %"
    );
    let pct = |sum: &[f64; 3], n: usize| {
        let n = n.max(1) as f64;
        format!(
            "{:>5.1} {:>5.1} {:>5.1}",
            100.0 * sum[0] / n,
            100.0 * sum[1] / n,
            100.0 * sum[2] / n
        )
    };
    for (i, b) in buckets.iter().enumerate() {
        if b.n == 0 {
            continue;
        }
        let _ = writeln!(
            out,
            "{:>11} {:>7}  {}  {}  {}",
            bucket_label(i),
            b.n,
            pct(&b.observed, b.n),
            pct(&b.fitted, b.n),
            pct(&b.in_use, b.n)
        );
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Samples drawn from a known model come back as that model.
    #[test]
    fn the_fit_recovers_the_model_that_made_the_samples() {
        let truth = WinModel {
            scale: 250.0,
            scale_slope: -100.0,
            draw: 0.8,
            draw_slope: 0.6,
        };
        let mut rng = Rng::new(9);
        let samples: Vec<Sample> = (0..60_000)
            .map(|_| {
                let ply = 4 + rng.below(70);
                let score = rng.below(1601) as i32 - 800;
                let c = truth.chances(f64::from(score), progress(ply));
                let u = rng.below(1_000_000) as f64 / 1e6;
                let result = if u < c.win {
                    1
                } else if u < c.win + c.draw {
                    0
                } else {
                    -1
                };
                Sample { ply, score, result }
            })
            .collect();
        let fitted = fit(&samples, WinModel::STANDARD);
        assert!((fitted.scale - truth.scale).abs() < 25.0, "{fitted:?}");
        assert!((fitted.draw - truth.draw).abs() < 0.1, "{fitted:?}");
        assert!(log_loss(&fitted, &samples) <= log_loss(&truth, &samples) + 1e-3);
        assert!(report(&samples, &fitted, &truth).contains("-20..20"));
    }

    #[test]
    fn a_short_calibration_runs_and_reports() {
        let samples = play_games(2, 2_000, 4, 3, 2, Rules::Standard).unwrap();
        assert!(!samples.is_empty());
        assert!(samples
            .iter()
            .all(|s| s.ply >= 4 && (-1..=1).contains(&s.result)));
        // The same seeds give the same samples whatever the threads.
        let one_thread = play_games(2, 2_000, 4, 3, 1, Rules::Standard).unwrap();
        let mut a = samples.clone();
        let mut b = one_thread;
        let key = |s: &Sample| (s.ply, s.score, s.result);
        a.sort_by_key(key);
        b.sort_by_key(key);
        assert_eq!(a, b);
        assert!(samples_csv(&samples).starts_with("ply,score,result\n"));
    }
}
