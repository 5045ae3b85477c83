//! `uttt analyse`: the engine's thoughts on a record or position, depth by
//! depth, or (`--game`) a review of every move of a game.

use std::process::ExitCode;
use std::time::{Duration, Instant};

use uttt_core::record::parse_position;
use uttt_core::search::puzzle::{candidates, is_unique, Goal};
use uttt_core::search::review::{review, review_engine, Mark, MoveReview, Summary, REVIEW_NODES};
use uttt_core::search::{Level, Progress, Searchable, WinChance};
use uttt_core::tree::parse_main_line;
use uttt_core::AnyGame;
use uttt_core::{AnyKind, History, Player, Visit};

use crate::ai::Engine;
use crate::args::{Spec, UsageError, MAX_DEPTH};
use crate::render::{Front, Style};
use crate::usage;

/// The help text of `uttt analyse`.
pub const HELP: &str = "\
uttt analyse: show the engine's search, depth by depth, on a game or position

Usage: uttt analyse RECORD|POSITION [--movetime MS] [--depth N]
       uttt analyse --game RECORD [--nodes N]

RECORD is a game record as `uttt play` prints it (e.g. ultimate-standard:e5e4),
or one with variations as the page shares it (e5e4(f5)d2: its main line);
the position after its last move is analysed. POSITION is a position string
(`<game> <rows> <target>`, see the core's record documentation).

Each completed depth prints its score (for the side to move; `win in N` /
`loss in N` count plies), the nodes searched, the speed and the principal
variation. The engine is the Master search with its larger table. A
position with a single legal move is searched to depth 8 only, as in play.

With --game, every move of the record is reviewed instead: each position is
searched by Hard within N nodes (so a review is the same on every machine),
and each move is marked by how much of the mover's expected score (a win 1, a
draw 1/2, by uttt calibrate's fit) it gave away against the engine's move:
best (the engine's move, or under 0.01), good (up to 0.05), inaccuracy (up to
0.10), mistake (up to 0.20) or blunder (more). The engine's move and line are
shown beside every other move, and each player's accuracy (100 times one
minus the mean loss) and marks at the end. Last come the puzzles the game
offers: positions where the mover had one move that wins (or saves the game:
an expected score of 0.4 or more, a win from 0.75) and played a mistake or a
blunder, and every other move is at least 0.15 worse by a survey of every
move to depth 8 (Classic: 9), each with its solution line.

Options:
  --movetime MS  think this long (default 1000)
  --depth N      stop after depth N (1-81) even if time is left
  --game RECORD  review every move of RECORD
  --nodes N      with --game: nodes per position (1000-100000000, default 200000)
  -h, --help     this text

Examples:
  uttt analyse ultimate-standard:e5e4d2
  uttt analyse classic:b2a1 --depth 9
  uttt analyse --game classic:a1e5i9c1
  uttt analyse 'ultimate-standard ........./........./........./........./....x..../........./........./........./......... 4' --movetime 3000
";

const SPEC: Spec = Spec {
    values: &["movetime", "depth", "game", "nodes"],
    switches: &[],
};

/// A record's main line; a record with variations is read whole, then its
/// side lines left aside.
fn read_record(text: &str) -> Result<AnyGame, UsageError> {
    parse_main_line(text).map_err(|e| usage!("cannot read the record: {e}"))
}

/// Runs `uttt analyse` with the words after the subcommand.
///
/// # Errors
/// A usage error for a missing or unreadable record or position, or a bad option.
pub fn run(args: &[String]) -> Result<ExitCode, UsageError> {
    let p = SPEC.parse(args)?;
    if p.help {
        out!("{HELP}");
        return Ok(ExitCode::SUCCESS);
    }
    if let Some(record) = p.value("game") {
        if !p.positional.is_empty() || p.value("movetime").is_some() || p.value("depth").is_some() {
            return Err(usage!(
                "--game takes the record itself and only --nodes besides"
            ));
        }
        let nodes = p.number("nodes", 1_000u64, 100_000_000, REVIEW_NODES)?;
        read_record(record)?.visit(ReviewGame { nodes });
        return Ok(ExitCode::SUCCESS);
    }
    if p.value("nodes").is_some() {
        return Err(usage!("--nodes goes with --game"));
    }
    p.at_most_positional(1)?;
    let text = p.positional.first().ok_or_else(|| {
        usage!("analyse needs a RECORD or POSITION, e.g. `uttt analyse ultimate-standard:e5e4`")
    })?;
    let movetime = Duration::from_millis(p.number("movetime", 1u64, 86_400_000, 1000)?);
    let depth = match p.value("depth") {
        Some(_) => Some(p.number("depth", 1u32, MAX_DEPTH, 1)?),
        None => None,
    };
    // A record has a ':' after its game name; a position string never does.
    let game = if text.contains(':') {
        read_record(text)?
    } else {
        parse_position(text).map_err(|e| usage!("cannot read the position: {e}"))?
    };
    let analysed = match game {
        AnyGame::Ultimate(h) => analyse(h.current(), movetime, depth),
        AnyGame::Classic(h) => analyse(h.current(), movetime, depth),
    };
    match analysed {
        Ok(()) => Ok(ExitCode::SUCCESS),
        Err(why) => {
            eprintln!("uttt analyse: {why}");
            Ok(ExitCode::FAILURE)
        }
    }
}

fn analyse<G: Front + Searchable>(
    pos: &G,
    movetime: Duration,
    depth: Option<u32>,
) -> Result<(), String> {
    out!("{}", pos.render(Style::detect()));
    outln!("{}", pos.turn_line());
    if pos.is_over() {
        return Ok(());
    }
    let mut engine = Engine::new(Level::Master, 1)?;
    if let Some(d) = depth {
        engine.limit_depth(d);
    }
    let started = Instant::now();
    let thought = engine.think_until(pos, started + movetime, |p: &Progress<'_, G::Move>| {
        let secs = started.elapsed().as_secs_f64();
        let knps = if secs > 0.0 {
            p.nodes as f64 / secs / 1000.0
        } else {
            0.0
        };
        let pv: Vec<String> = p.pv.iter().map(ToString::to_string).collect();
        outln!(
            "depth {:>2}  score {:>11}  nodes {:>10}  time {:>6} ms  {:>7.0} knps  pv {}",
            p.depth,
            p.score.to_string(),
            p.nodes,
            started.elapsed().as_millis(),
            knps,
            pv.join(" ")
        );
    });
    outln!(
        "best move {} for {} (depth {}, score {}, {} nodes)",
        thought.mv,
        pos.side_to_move(),
        thought.depth,
        thought.score,
        thought.nodes
    );
    let c = WinChance::of(thought.score, pos.ply(), G::MAX_PLIES, pos.rules());
    outln!(
        "chances for {}: win {:.0}%, draw {:.0}%, loss {:.0}% (uttt calibrate's fit)",
        pos.side_to_move(),
        100.0 * c.win,
        100.0 * c.draw,
        100.0 * c.loss
    );
    Ok(())
}

/// Reviews every move of a game, as `review_game` does.
struct ReviewGame {
    nodes: u64,
}

impl Visit for ReviewGame {
    type Output = ();
    fn visit<G: AnyKind>(self, history: &History<G>) {
        review_game(history.start(), history.moves(), self.nodes);
    }
}

/// Prints the review of the game from `start` through `moves`: one line a
/// move, then each player's summary.
fn review_game<G: Searchable>(start: &G, moves: &[G::Move], nodes: u64) {
    let mut engine = review_engine(nodes);
    let started = Instant::now();
    let reviews = review(&mut engine, start, moves);
    outln!("ply  move  by  mark        loss   engine's move and line");
    for (i, r) in reviews.iter().enumerate() {
        let line: Vec<String> = r
            .best_line
            .iter()
            .take(6)
            .map(ToString::to_string)
            .collect();
        let better = if r.played == r.best {
            String::new()
        } else {
            format!("{}  ({})", r.best, line.join(" "))
        };
        outln!(
            "{:>3}  {:<4}  {}   {:<10}  {:>5.3}  {}",
            i + 1,
            r.played.to_string(),
            r.mover,
            r.mark.name(),
            r.loss,
            better
        );
    }
    for player in [Player::X, Player::O] {
        let s = Summary::of(&reviews, player);
        let counts: Vec<String> = Mark::ALL
            .iter()
            .map(|m| format!("{} {}", m.name(), s.counts[*m as usize]))
            .collect();
        outln!(
            "{player}: accuracy {:.1}%; {}",
            s.accuracy,
            counts.join(", ")
        );
    }
    outln!(
        "reviewed {} of {} moves in {:.1} s, Hard at {nodes} nodes a position",
        reviews.len(),
        moves.len(),
        started.elapsed().as_secs_f64()
    );
    print_puzzles(start, moves, &reviews, &mut engine);
}

/// Prints the puzzles of a reviewed game: each with one answer, the
/// position before it as the game's first `ply` moves.
fn print_puzzles<G: Searchable>(
    start: &G,
    moves: &[G::Move],
    reviews: &[MoveReview<G::Move>],
    engine: &mut uttt_core::search::Engine,
) {
    let mut found = 0;
    for p in candidates(reviews) {
        let mut pos = *start;
        for &m in &moves[..p.ply] {
            pos.play_unchecked(m);
        }
        if !is_unique(engine, &pos, p.solution[0]) {
            continue;
        }
        found += 1;
        let goal = match p.goal {
            Goal::Win => "wins",
            Goal::Save => "saves the game",
        };
        let line: Vec<String> = p.solution.iter().take(6).map(ToString::to_string).collect();
        outln!(
            "puzzle after move {}: {} to play, one move {goal} (played {}); solution {}",
            p.ply,
            p.mover,
            p.played,
            line.join(" ")
        );
    }
    if found == 0 {
        outln!("no puzzles: no move that alone won or saved the game was missed");
    }
}
