//! `uttt book`: builds the opening book of Ultimate (core's `search::book`)
//! by a long search of each position the book is to answer, and writes its
//! data file (`crates/core/src/search/book.bin` is the shipped one).
//!
//! Which positions: every position of the first `--all-plies` plies (the
//! openings anyone can reach, the match runner's random two-ply openings
//! among them), and after each book position the replies to the book's own
//! move, up to `--plies`: the positions the book's side meets next when it
//! follows the book. Positions that are images of each other (mirrors,
//! rotations) are searched once.

use std::collections::BTreeMap;
use std::fs;
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;

use uttt_core::search::book::{self, BookEntry, MAX_BOOK_PLY};
use uttt_core::search::{Engine, Level, Limits};
use uttt_core::{Move, Rules, Ultimate};

use crate::args::{self, UsageError};
use crate::matches;

const HELP: &str = "\
uttt book [--all-plies A] [--plies P] [--nodes N] [--rules standard|tiebreak]
          [--threads T] [--out FILE]

Builds the opening book: every position of the first A plies (default 2),
and after each book position every reply to the book's move, up to ply P
(default 4, at most 8), each searched by Master to N nodes (default
25000000, about Master's 3 s) from an empty table, on one of T threads
(default 1), so the same options build the same book. Mirror images and
rotations of a position are one entry. Writes the book's data to FILE (default
book.bin) and prints how many positions each ply has.

The shipped book is crates/core/src/search/book.bin, made by:
  uttt book --all-plies 2 --plies 4 --nodes 25000000 --threads 2 \\
    --out crates/core/src/search/book.bin";

const SPEC: args::Spec = args::Spec {
    values: &["all-plies", "plies", "nodes", "rules", "threads", "out"],
    switches: &[],
};

/// What one run builds.
struct Plan {
    all_plies: usize,
    plies: usize,
    nodes: u64,
    rules: Rules,
    threads: usize,
}

/// `uttt book`.
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
    let plies = p.number("plies", 0usize, MAX_BOOK_PLY, 4)?;
    let plan = Plan {
        all_plies: p.number("all-plies", 0usize, plies, 2.min(plies))?,
        plies,
        nodes: p.number("nodes", 1_000u64, 10_000_000_000, 25_000_000)?,
        rules: p.rules(Rules::Standard)?,
        threads: p.number("threads", 1u64, matches::machine_threads(), 1)? as usize,
    };
    let out = p.value("out").unwrap_or("book.bin").to_string();
    let entries = match build(&plan) {
        Ok(e) => e,
        Err(e) => {
            eprintln!("uttt book: {e}");
            return Ok(ExitCode::FAILURE);
        }
    };
    let data = book::encode(&entries);
    if let Err(e) = fs::write(&out, &data) {
        eprintln!("uttt book: cannot write {out}: {e}");
        return Ok(ExitCode::FAILURE);
    }
    outln!(
        "wrote {} entries, {} bytes, to {out}",
        entries.len(),
        data.len()
    );
    Ok(ExitCode::SUCCESS)
}

/// Searches the book's positions ply by ply and returns their entries.
fn build(plan: &Plan) -> Result<Vec<BookEntry>, String> {
    // Per ply, the positions to answer, one per canonical key.
    let mut layers: Vec<BTreeMap<u64, Ultimate>> = vec![BTreeMap::new(); plan.plies + 1];
    let start = Ultimate::new(plan.rules);
    layers[0].insert(book::canonical(&start).0, start);
    let mut entries = Vec::new();
    for ply in 0..=plan.plies {
        let layer: Vec<Ultimate> = layers[ply].values().copied().collect();
        let started = Instant::now();
        let answers = search_all(&layer, plan)?;
        outln!(
            "ply {ply}: {} positions in {:.0} s",
            layer.len(),
            started.elapsed().as_secs_f64()
        );
        for (pos, (mv, score)) in layer.iter().zip(&answers) {
            let (key, s) = book::canonical(pos);
            entries.push(BookEntry {
                key: book::short_key(key),
                mv: book::turn_move(*mv, s),
                score: i16::try_from(*score).unwrap_or(if *score < 0 {
                    i16::MIN
                } else {
                    i16::MAX
                }),
            });
            for (p, next) in book::follow_ups(pos, ply, *mv, plan.all_plies, plan.plies) {
                layers[p].entry(book::canonical(&next).0).or_insert(next);
            }
        }
    }
    Ok(entries)
}

/// Master's move and score for each position, `plan.nodes` each, the
/// positions shared out among `plan.threads` threads.
fn search_all(layer: &[Ultimate], plan: &Plan) -> Result<Vec<(Move, i32)>, String> {
    let next = AtomicUsize::new(0);
    let answers = Mutex::new(vec![None; layer.len()]);
    std::thread::scope(|scope| {
        let mut handles = Vec::new();
        for t in 0..plan.threads {
            let (next, answers) = (&next, &answers);
            handles.push(scope.spawn(move || -> Result<(), String> {
                let mut engine =
                    Engine::try_new(Level::Master, t as u64 + 1, Level::Master.table_bytes())
                        .map_err(|e| e.to_string())?;
                engine.set_limits(Limits {
                    max_nodes: plan.nodes,
                    ..Limits::NONE
                });
                loop {
                    let i = next.fetch_add(1, Ordering::Relaxed);
                    let Some(pos) = layer.get(i) else {
                        return Ok(());
                    };
                    // Each search starts from an empty table, so that which
                    // thread searched what before does not change the book.
                    engine.new_game();
                    let found = engine
                        .choose_within_limits(pos)
                        .ok_or("a book position is over")?;
                    let mut answers = answers.lock().map_err(|_| "a thread failed")?;
                    answers[i] = Some((found.best, found.score.0));
                }
            }));
        }
        for h in handles {
            h.join()
                .map_err(|_| "a search thread panicked".to_string())??;
        }
        Ok::<(), String>(())
    })?;
    answers
        .into_inner()
        .map_err(|_| "a thread failed".to_string())?
        .into_iter()
        .map(|a| a.ok_or_else(|| "a position was not searched".to_string()))
        .collect()
}
