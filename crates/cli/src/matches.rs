//! `uttt match`: paired games between two engines from random openings, with
//! wins, draws, losses, score and an Elo estimate; and `uttt tune`, which
//! tunes the evaluation weights by self-play (SPSA).

use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::{Duration, Instant};

use uttt_core::search::{
    Engine, Level, Limits, Rng, SearchOptions, Searchable, Trap, Weights, WEIGHT_COUNT, W_TB_COUNT,
};
use uttt_core::{Classic, ClassicMove, Game, Move, Outcome, Player, Rules, Ultimate};

use crate::ai;
use crate::args::{GameChoice, MAX_DEPTH};
use crate::engine_proc::ProcEngine;
use crate::mcts::Mcts;

const MATCH_HELP: &str = "\
uttt match A B [--games N] [--movetime MS] [--seed S] [--threads T]
               [--game ultimate|classic] [--rules standard|tiebreak]
               [--opening-plies K] [--quiet]

Plays N games (default 20, rounded up to even) of Ultimate (or Classic)
between engines A and B: N/2 random openings of K plies (default 2), each
played twice with the colours swapped. Prints every game, then A's
wins/draws/losses, score and an Elo estimate with its 95% error (just the
interval's finite end when it reaches a score of 0% or 100%).

Engines:
  beginner|easy|medium|hard|master   a level of the built-in engine
  mcts                               plain UCT with random playouts (Ultimate)
  cmd:COMMAND                        an external program on the CodinGame
                                     protocol (see `uttt bot`), one per game
                                     (Ultimate)
  trap                               a perfect player that sets traps: of the
                                     moves that keep its result, the one that
                                     leaves the most losing replies (Classic)
A level or mcts may carry options after '@', e.g. hard@movetime=100,
hard@nodes=200000, medium@depth=5, hard@weights=board=120,tempo=5, hard@table=4
(MiB), hard@ponder=1 (search the expected reply while the opponent thinks; with
a time limit only), hard@delay=MS (wait MS after each search before answering,
counted in its time, as a person who thinks longer would), and for measuring
parts of the search hard@lmr=0 (no late move reductions), @lmp=0 (no late move
pruning), @singular=0, @aspiration=0, @qs=0 (no quiescence search), @dead=0 (no
early dead-draw scores), @freelast=0 (moves giving a free move not ordered last),
@iir=0 (no internal iterative reductions).

Options:
  --games N       games to play, 1-1000000 (default 20)
  --movetime MS   time per move for engines without @movetime, 0-3600000
                  (default: the level's budget; mcts: 1000; cmd engines get 5x
                  this plus 1 s before they forfeit)
  --seed S        seed of the openings and of the engines' random choices (1)
  --threads T     games played at once, from 1 to twice the machine's cores
                  (default 1; timing-based engines are fairer with 1)
  --game G        ultimate (default) or classic
  --rules R       standard (default) or tiebreak (Ultimate only)
  --opening-plies K  random moves before the engines take over, 0-30 (2);
                  at most 8 in Classic, where 0 lets trap choose its openings
  --quiet         print only the result, not every game

Examples:
  uttt match hard mcts --games 200 --movetime 100
  uttt match master@movetime=300 hard@movetime=100 --games 200
  uttt match hard cmd:'uttt bot --level medium' --games 10
  uttt match medium trap --game classic --opening-plies 0 --games 100";

/// An engine as named on the command line.
#[derive(Clone, Debug)]
enum Spec {
    Level {
        level: Level,
        movetime: Option<u64>,
        nodes: Option<u64>,
        depth: Option<u32>,
        weights: Option<Weights>,
        table_mib: Option<usize>,
        options: SearchOptions,
        /// Search the expected reply while the opponent thinks.
        ponder: bool,
        /// Wait this long after each search before answering.
        delay_ms: u64,
    },
    Mcts {
        movetime: Option<u64>,
    },
    Cmd(String),
    /// Classic's trap player.
    Trap,
}

impl Spec {
    fn parse(text: &str) -> Result<Spec, String> {
        if let Some(cmd) = text.strip_prefix("cmd:") {
            if cmd.trim().is_empty() {
                return Err("cmd: needs a command".into());
            }
            return Ok(Spec::Cmd(cmd.to_string()));
        }
        if text == "trap" {
            return Ok(Spec::Trap);
        }
        if text.starts_with("trap@") {
            return Err("trap takes no options".into());
        }
        let mut parts = text.split('@');
        let name = parts.next().unwrap_or_default();
        let mut movetime = None;
        let mut nodes = None;
        let mut depth = None;
        let mut weights = None;
        let mut table_mib = None;
        let mut options = SearchOptions::default();
        let mut ponder = false;
        let mut delay_ms = 0;
        for opt in parts {
            let (k, v) = opt
                .split_once('=')
                .ok_or_else(|| format!("engine option `{opt}` is not key=value"))?;
            let num = |v: &str| {
                v.parse::<u64>()
                    .map_err(|_| format!("`{opt}`: `{v}` is not a number"))
            };
            let switch =
                |v: &str| Ok::<bool, String>(in_range(&format!("`{opt}`"), num(v)?, 0, 1)? == 1);
            match k {
                "movetime" => {
                    movetime = Some(in_range(
                        &format!("`{opt}` (ms)"),
                        num(v)?,
                        0,
                        MAX_MOVETIME_MS,
                    )?)
                }
                "nodes" => nodes = Some(in_range(&format!("`{opt}`"), num(v)?, 1, MAX_NODES)?),
                "depth" => {
                    depth =
                        Some(
                            in_range(&format!("`{opt}` (plies)"), num(v)?, 1, MAX_DEPTH.into())?
                                as u32,
                        )
                }
                "table" => {
                    table_mib = Some(
                        in_range(&format!("`{opt}` (MiB)"), num(v)?, 1, MAX_TABLE_MIB)? as usize,
                    )
                }
                "weights" => {
                    weights = Some(Weights::parse(v).map_err(|e| format!("bad weight `{e}`"))?)
                }
                "lmr" => options.lmr = switch(v)?,
                "lmp" => options.lmp = switch(v)?,
                "singular" => options.singular = switch(v)?,
                "aspiration" => options.aspiration = switch(v)?,
                "dead" => options.dead_draws = switch(v)?,
                "qs" => options.quiescence = switch(v)?,
                "freelast" => options.free_moves_last = switch(v)?,
                "iir" => options.iir = switch(v)?,
                "contempt" => {
                    options.contempt =
                        in_range(&format!("`{opt}`"), num(v)?, 0, MAX_CONTEMPT)? as i32
                }
                "ponder" => ponder = switch(v)?,
                "delay" => {
                    delay_ms = in_range(&format!("`{opt}` (ms)"), num(v)?, 0, MAX_MOVETIME_MS)?
                }
                _ => {
                    return Err(format!(
                        "unknown engine option `{k}` (movetime, nodes, depth, weights, table, \
                         ponder, delay, lmr, lmp, singular, aspiration, qs, dead, freelast, \
                         iir, contempt)"
                    ))
                }
            }
        }
        if name == "mcts" {
            return Ok(Spec::Mcts { movetime });
        }
        let level = Level::from_name(name).ok_or_else(|| {
            format!("unknown engine `{name}`: a level, mcts, trap or cmd:COMMAND")
        })?;
        Ok(Spec::Level {
            level,
            movetime,
            nodes,
            depth,
            weights,
            table_mib,
            options,
            ponder,
            delay_ms,
        })
    }

    /// The time per move this engine is given, if time limits it: for the
    /// share of it that the engine used.
    fn movetime(&self, default_movetime: Option<u64>) -> Option<u64> {
        match self {
            Spec::Level {
                level,
                movetime,
                nodes,
                ..
            } => match (movetime, nodes) {
                (Some(t), _) => Some(*t),
                (None, Some(_)) => None,
                (None, None) => Some(default_movetime.unwrap_or(level.budget_ms())),
            },
            Spec::Mcts { movetime } => Some(movetime.or(default_movetime).unwrap_or(1000)),
            Spec::Cmd(_) => default_movetime,
            Spec::Trap => None,
        }
    }

    /// A fresh player for one game of `G`.
    fn instantiate<G: MatchGame>(
        &self,
        seed: u64,
        default_movetime: Option<u64>,
    ) -> Result<Box<dyn MatchPlayer<G>>, String> {
        Ok(match self {
            Spec::Level {
                level,
                nodes,
                depth,
                weights,
                table_mib,
                options,
                ponder,
                delay_ms,
                ..
            } => {
                let bytes = table_mib.map_or(level.table_bytes(), |m| m << 20);
                let mut engine = Engine::try_new(*level, seed, bytes).map_err(|e| e.to_string())?;
                let mut limits = engine.limits();
                if let Some(n) = nodes {
                    limits.max_nodes = *n;
                }
                if let Some(d) = depth {
                    limits.max_depth = *d;
                }
                engine.set_limits(limits);
                engine.set_options(*options);
                if let Some(w) = weights {
                    engine.set_weights(*w);
                }
                // With a node budget and no explicit time, the nodes decide alone.
                let time = self.movetime(default_movetime);
                Box::new(SearchPlayer {
                    engine: ai::Engine::wrap(engine, seed),
                    time,
                    ponder: *ponder && time.is_some(),
                    delay: Duration::from_millis(*delay_ms),
                })
            }
            Spec::Mcts { movetime } => G::mcts(
                seed,
                Duration::from_millis(movetime.or(default_movetime).unwrap_or(1000)),
            )?,
            Spec::Cmd(command) => G::cmd(
                command,
                Duration::from_millis(default_movetime.unwrap_or(1000) * 5 + 1000),
            )?,
            Spec::Trap => G::trap(seed)?,
        })
    }
}

/// One side of a game of `G` in the match runner.
trait MatchPlayer<G: Game>: Send {
    /// The move to play in `pos`; `forced` is the opening move it must play.
    fn play(&mut self, pos: &G, forced: Option<G::Move>) -> Result<G::Move, String>;
}

/// A game the match runner plays: Ultimate, or Classic with `--game
/// classic`. The levels play both; each sparring partner plays one game
/// and is refused in the other.
trait MatchGame: Searchable<Move: Send + Sync> + Send + Sync + 'static {
    /// The UCT player (`mcts`).
    fn mcts(seed: u64, time: Duration) -> Result<Box<dyn MatchPlayer<Self>>, String>;
    /// An external program (`cmd:COMMAND`) that forfeits after `timeout`.
    fn cmd(command: &str, timeout: Duration) -> Result<Box<dyn MatchPlayer<Self>>, String>;
    /// Classic's trap player (`trap`).
    fn trap(seed: u64) -> Result<Box<dyn MatchPlayer<Self>>, String>;
}

impl MatchGame for Ultimate {
    fn mcts(seed: u64, time: Duration) -> Result<Box<dyn MatchPlayer<Self>>, String> {
        Ok(Box::new(MctsPlayer {
            mcts: Mcts::new(seed),
            time,
        }))
    }

    fn cmd(command: &str, timeout: Duration) -> Result<Box<dyn MatchPlayer<Self>>, String> {
        Ok(Box::new(CmdPlayer {
            proc: ProcEngine::spawn(command)?,
            timeout,
            first: true,
        }))
    }

    fn trap(_: u64) -> Result<Box<dyn MatchPlayer<Self>>, String> {
        Err("trap plays Classic only (--game classic)".into())
    }
}

impl MatchGame for Classic {
    fn mcts(_: u64, _: Duration) -> Result<Box<dyn MatchPlayer<Self>>, String> {
        Err("mcts plays Ultimate only".into())
    }

    fn cmd(_: &str, _: Duration) -> Result<Box<dyn MatchPlayer<Self>>, String> {
        Err("cmd: engines play Ultimate only (the CodinGame protocol)".into())
    }

    fn trap(seed: u64) -> Result<Box<dyn MatchPlayer<Self>>, String> {
        Ok(Box::new(TrapPlayer(Trap::new(seed))))
    }
}

/// A level of the built-in engine, pondering or not.
struct SearchPlayer {
    engine: ai::Engine,
    /// Thinking time per move, or `None` to rely on the engine's limits.
    time: Option<u64>,
    /// Search the expected reply while the opponent thinks.
    ponder: bool,
    /// Waited after each search before the move is given: a person who
    /// takes longer than the engine, whom the opponent ponders against.
    delay: Duration,
}

/// The deadline of a search limited by nodes or depth alone.
const NO_DEADLINE: Duration = Duration::from_secs(365 * 24 * 3600);

impl<G> MatchPlayer<G> for SearchPlayer
where
    G: Searchable + Send + 'static,
    G::Move: Send,
{
    fn play(&mut self, pos: &G, forced: Option<G::Move>) -> Result<G::Move, String> {
        if let Some(m) = forced {
            return Ok(m);
        }
        if pos.is_over() {
            return Err("asked to move in a finished game".into());
        }
        let budget = self.time.map_or(NO_DEADLINE, Duration::from_millis);
        let thought = self
            .engine
            .think_until(pos, Instant::now() + budget, |_| {});
        if self.ponder {
            let mut after = *pos;
            after.play_unchecked(thought.mv);
            self.engine.ponder_reply(&after, thought.expected);
        }
        std::thread::sleep(self.delay);
        Ok(thought.mv)
    }
}

struct MctsPlayer {
    mcts: Mcts,
    time: Duration,
}

impl MatchPlayer<Ultimate> for MctsPlayer {
    fn play(&mut self, pos: &Ultimate, forced: Option<Move>) -> Result<Move, String> {
        if let Some(m) = forced {
            return Ok(m);
        }
        self.mcts
            .choose(pos, self.time)
            .ok_or_else(|| "asked to move in a finished game".into())
    }
}

struct CmdPlayer {
    proc: ProcEngine,
    timeout: Duration,
    first: bool,
}

impl MatchPlayer<Ultimate> for CmdPlayer {
    fn play(&mut self, pos: &Ultimate, forced: Option<Move>) -> Result<Move, String> {
        // An opening move is imposed by offering it as the only valid action.
        let valid: Vec<Move> = match forced {
            Some(m) => vec![m],
            None => pos.legal_moves().to_vec(),
        };
        let timeout = if self.first {
            self.timeout + Duration::from_secs(1)
        } else {
            self.timeout
        };
        self.first = false;
        self.proc.play(pos.last_move(), &valid, timeout)
    }
}

struct TrapPlayer(Trap);

impl MatchPlayer<Classic> for TrapPlayer {
    fn play(&mut self, pos: &Classic, forced: Option<ClassicMove>) -> Result<ClassicMove, String> {
        if let Some(m) = forced {
            return Ok(m);
        }
        self.0
            .choose(pos)
            .ok_or_else(|| "asked to move in a finished game".into())
    }
}

/// How one game ended, from the point of view of engine A.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum GameResult {
    AWins,
    Draw,
    BWins,
}

/// One game as played: the result, the moves, why it ended early if it
/// did, and the time A and B took over each move they chose themselves.
struct Played<M> {
    result: GameResult,
    moves: Vec<M>,
    forfeit: Option<String>,
    took: [Vec<Duration>; 2],
}

/// Plays one game; the side that errs (illegal move, timeout, crash) loses.
fn play_game<G: Game>(
    a: &mut dyn MatchPlayer<G>,
    b: &mut dyn MatchPlayer<G>,
    a_plays: Player,
    opening: &[G::Move],
    rules: Rules,
) -> Played<G::Move> {
    let mut pos = G::start(rules);
    let mut moves = Vec::new();
    let mut took = [Vec::new(), Vec::new()];
    while !pos.is_over() {
        let a_to_move = pos.side_to_move() == a_plays;
        let forced = opening.get(pos.ply()).copied();
        let player: &mut dyn MatchPlayer<G> = if a_to_move { a } else { b };
        let asked = Instant::now();
        let answer = player.play(&pos, forced);
        if forced.is_none() {
            took[usize::from(!a_to_move)].push(asked.elapsed());
        }
        let answer = answer.and_then(|m| {
            pos.check(m).map_err(|e| format!("illegal move {m}: {e}"))?;
            Ok(m)
        });
        match answer {
            Ok(m) => {
                pos.play_unchecked(m);
                moves.push(m);
            }
            Err(why) => {
                let r = if a_to_move {
                    GameResult::BWins
                } else {
                    GameResult::AWins
                };
                let who = if a_to_move { "A" } else { "B" };
                return Played {
                    result: r,
                    moves,
                    forfeit: Some(format!("{who} forfeits: {why}")),
                    took,
                };
            }
        }
    }
    let result = match pos.outcome() {
        Some(Outcome::Win(p)) if p == a_plays => GameResult::AWins,
        Some(Outcome::Win(_)) => GameResult::BWins,
        _ => GameResult::Draw,
    };
    Played {
        result,
        moves,
        forfeit: None,
        took,
    }
}

/// A random opening of `plies` moves that does not end the game.
fn random_opening<G: Game>(rng: &mut Rng, plies: usize, rules: Rules) -> Vec<G::Move> {
    loop {
        let mut pos = G::start(rules);
        let mut out = Vec::new();
        while out.len() < plies && !pos.is_over() {
            let moves = pos.legal_moves();
            let m = moves[rng.below(moves.len())];
            pos.play_unchecked(m);
            out.push(m);
        }
        if !pos.is_over() {
            return out;
        }
    }
}

/// Wins, draws and losses of A, with the derived figures.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct Tally {
    /// Games A won.
    pub wins: u32,
    /// Drawn games.
    pub draws: u32,
    /// Games A lost.
    pub losses: u32,
}

impl Tally {
    fn add(&mut self, r: GameResult) {
        match r {
            GameResult::AWins => self.wins += 1,
            GameResult::Draw => self.draws += 1,
            GameResult::BWins => self.losses += 1,
        }
    }

    /// Games played.
    pub fn games(&self) -> u32 {
        self.wins + self.draws + self.losses
    }

    /// A's score, 0 to 1 (a draw is half a point).
    pub fn score(&self) -> f64 {
        (f64::from(self.wins) + 0.5 * f64::from(self.draws)) / f64::from(self.games().max(1))
    }

    /// The Elo difference implied by the score, and the ends of its 95%
    /// interval from the per-game variance. An end is `None` where the
    /// interval reaches a score of 0% or 100%, which no finite Elo gives.
    pub fn elo(&self) -> (f64, Option<f64>, Option<f64>) {
        let n = f64::from(self.games().max(1));
        let s = self.score();
        let var = (f64::from(self.wins) * (1.0 - s).powi(2)
            + f64::from(self.draws) * (0.5 - s).powi(2)
            + f64::from(self.losses) * s.powi(2))
            / n;
        let se = (var / n).sqrt();
        let end = |score: f64| (score > 0.0 && score < 1.0).then(|| elo_of(score));
        (elo_of(s), end(s - 1.96 * se), end(s + 1.96 * se))
    }

    /// "Elo +120 ± 45" (half the 95% interval); "Elo +727 (95%: at least
    /// +593)" when the interval reaches 100% (and "at most" at 0%); a plain
    /// statement when a score of 0% or 100% leaves the estimate unbounded.
    fn elo_text(&self) -> String {
        let score = self.score();
        if score >= 1.0 {
            return "Elo unbounded (no game lost or drawn)".to_string();
        }
        if score <= 0.0 {
            return "Elo unbounded (no game won or drawn)".to_string();
        }
        match self.elo() {
            (elo, Some(lo), Some(hi)) => format!("Elo {elo:+.0} ± {:.0}", (hi - lo) / 2.0),
            (elo, Some(lo), None) => format!("Elo {elo:+.0} (95%: at least {lo:+.0})"),
            (elo, None, Some(hi)) => format!("Elo {elo:+.0} (95%: at most {hi:+.0})"),
            (elo, None, None) => format!("Elo {elo:+.0} (too few games for an interval)"),
        }
    }
}

/// The Elo difference for an expected score.
fn elo_of(score: f64) -> f64 {
    let s = score.clamp(1e-9, 1.0 - 1e-9);
    // Adding +0.0 turns the -0.0 of an even score into 0.0, printed "+0", not "-0".
    -400.0 * (1.0 / s - 1.0).log10() + 0.0
}

/// "time used per move: median 96% (96 ms), 95th percentile 98% of 100
/// ms, over 412 moves": how much of its time per move an engine spent,
/// over the moves it chose itself. `None` for an engine without a time
/// limit or without a move.
fn time_used(movetime_ms: Option<u64>, took: &[Duration]) -> Option<String> {
    let budget = movetime_ms.filter(|&t| t > 0)? as f64;
    if took.is_empty() {
        return None;
    }
    let mut ms: Vec<f64> = took.iter().map(|d| d.as_secs_f64() * 1000.0).collect();
    ms.sort_by(f64::total_cmp);
    let at = |q: f64| ms[((ms.len() - 1) as f64 * q).round() as usize];
    let (median, p95) = (at(0.5), at(0.95));
    Some(format!(
        "time used per move: median {:.0}% ({median:.0} ms), 95th percentile {:.0}% of {budget:.0} ms, over {} moves",
        100.0 * median / budget,
        100.0 * p95 / budget,
        ms.len()
    ))
}

/// `n` if it lies in `lo..=hi`, else an error naming `what`. Every number
/// of a match is bounded, so a slip of the finger gets an error, not a hang
/// or an allocation failure.
fn in_range(what: &str, n: u64, lo: u64, hi: u64) -> Result<u64, String> {
    if (lo..=hi).contains(&n) {
        Ok(n)
    } else {
        Err(format!("{what}: {n} is out of range ({lo}-{hi})"))
    }
}

/// The most games one match may ask for.
const MAX_GAMES: u64 = 1_000_000;
/// The longest time per move, in milliseconds (an hour).
const MAX_MOVETIME_MS: u64 = 3_600_000;
/// The most games played at once (`--threads`): two for each of the
/// machine's cores, since more only share the same cores and each holds
/// two engines' tables.
pub(crate) fn machine_threads() -> u64 {
    std::thread::available_parallelism().map_or(1, |n| n.get() as u64 * 2)
}
/// The longest random opening. Random play has ended about 1 game in 2,500
/// by ply 30 (half of them by ply 60), so finding an opening that leaves the
/// game open takes one try or two; the search for a 90-ply one never ends.
const MAX_OPENING_PLIES: u64 = 30;
/// The longest random opening of Classic: one ply short of a full board.
const MAX_CLASSIC_OPENING_PLIES: usize = 8;
/// The largest table an engine may ask for with `@table=`, in MiB.
const MAX_TABLE_MIB: u64 = 4096;
/// The largest node budget per move (`@nodes=`, `tune --nodes`): about
/// an hour of search.
const MAX_NODES: u64 = 10_000_000_000;
/// The most tuning iterations.
const MAX_ITERATIONS: u64 = 1_000_000;
/// The largest contempt (`@contempt=`): two small boards' worth, past
/// which an engine would rather lose than draw.
const MAX_CONTEMPT: u64 = 200;

struct Options {
    game: GameChoice,
    games: usize,
    movetime: Option<u64>,
    seed: u64,
    threads: usize,
    rules: Rules,
    opening_plies: usize,
    quiet: bool,
}

fn parse_options(args: &[String], positional: &mut Vec<String>) -> Result<Options, String> {
    let mut o = Options {
        game: GameChoice::Ultimate,
        games: 20,
        movetime: None,
        seed: 1,
        threads: 1,
        rules: Rules::Standard,
        opening_plies: 2,
        quiet: false,
    };
    let mut rules_given = false;
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let mut value = |name: &str| {
            it.next()
                .ok_or_else(|| format!("{name} needs a value"))
                .cloned()
        };
        let number = |name: &str, v: String| {
            v.parse::<u64>()
                .map_err(|_| format!("{name}: `{v}` is not a number"))
        };
        let within =
            |name: &str, v: String, lo: u64, hi: u64| in_range(name, number(name, v)?, lo, hi);
        match a.as_str() {
            "--games" => o.games = within(a, value(a)?, 1, MAX_GAMES)? as usize,
            "--movetime" => o.movetime = Some(within(a, value(a)?, 0, MAX_MOVETIME_MS)?),
            "--seed" => o.seed = number(a, value(a)?)?,
            "--threads" => o.threads = within(a, value(a)?, 1, machine_threads())? as usize,
            "--opening-plies" => {
                o.opening_plies = within(a, value(a)?, 0, MAX_OPENING_PLIES)? as usize;
            }
            "--rules" => {
                let v = value(a)?;
                o.rules = Rules::from_name(&v)
                    .ok_or_else(|| format!("--rules: `{v}` is not standard or tiebreak"))?;
                rules_given = true;
            }
            "--game" => {
                o.game = match value(a)?.as_str() {
                    "ultimate" => GameChoice::Ultimate,
                    "classic" => GameChoice::Classic,
                    v => return Err(format!("--game: `{v}` is not ultimate or classic")),
                };
            }
            "--quiet" => o.quiet = true,
            s if s.starts_with("--") => return Err(format!("unknown option `{s}`")),
            _ => positional.push(a.clone()),
        }
    }
    if o.game == GameChoice::Classic {
        if rules_given {
            return Err("--rules: Classic has no rule variants".into());
        }
        if o.opening_plies > MAX_CLASSIC_OPENING_PLIES {
            return Err(format!(
                "--opening-plies: {} is out of range for Classic (0-{MAX_CLASSIC_OPENING_PLIES})",
                o.opening_plies
            ));
        }
    }
    Ok(o)
}

/// The result of a match: the tally and the wall time.
struct MatchOutcome {
    tally: Tally,
    /// A's tally with X and with O.
    by_colour: [Tally; 2],
    /// The time A and B took over each move they chose.
    took: [Vec<Duration>; 2],
}

/// Plays the paired games of `G`; prints each game unless `quiet`.
fn run_match<G: MatchGame>(a: &Spec, b: &Spec, o: &Options) -> Result<MatchOutcome, String> {
    let pairs = o.games.div_ceil(2).max(1);
    let mut rng = Rng::new(o.seed);
    let openings: Vec<Vec<G::Move>> = (0..pairs)
        .map(|_| random_opening::<G>(&mut rng, o.opening_plies, o.rules))
        .collect();
    let next = AtomicUsize::new(0);
    let results = Mutex::new(Vec::new());
    let first_error = Mutex::new(None::<String>);
    std::thread::scope(|scope| {
        for _ in 0..o.threads.min(pairs * 2) {
            let spawned = std::thread::Builder::new().spawn_scoped(scope, || loop {
                let g = next.fetch_add(1, Ordering::Relaxed);
                if g >= pairs * 2 {
                    break;
                }
                let opening = &openings[g / 2];
                let a_plays = if g.is_multiple_of(2) {
                    Player::X
                } else {
                    Player::O
                };
                let seed = o.seed.wrapping_mul(1_000_003).wrapping_add(g as u64);
                let players = a
                    .instantiate::<G>(seed, o.movetime)
                    .and_then(|pa| Ok((pa, b.instantiate::<G>(seed ^ 0x5555, o.movetime)?)));
                let (mut pa, mut pb) = match players {
                    Ok(p) => p,
                    Err(e) => {
                        first_error.lock().unwrap().get_or_insert(e);
                        break;
                    }
                };
                let Played {
                    result: r,
                    moves,
                    forfeit: why,
                    took,
                } = play_game(pa.as_mut(), pb.as_mut(), a_plays, opening, o.rules);
                if !o.quiet {
                    let record: String = moves.iter().map(ToString::to_string).collect();
                    let res = match r {
                        GameResult::AWins => "A wins",
                        GameResult::Draw => "draw",
                        GameResult::BWins => "B wins",
                    };
                    let why = why.map(|w| format!(" ({w})")).unwrap_or_default();
                    outln!(
                        "game {:>4}: A={a_plays} {res:<6} {:>2} plies  {record}{why}",
                        g + 1,
                        moves.len()
                    );
                }
                results.lock().unwrap().push((a_plays, r, took));
            });
            if let Err(e) = spawned {
                first_error
                    .lock()
                    .unwrap()
                    .get_or_insert(format!("cannot start a thread for the games: {e}"));
                break;
            }
        }
    });
    if let Some(e) = first_error.into_inner().unwrap() {
        return Err(e);
    }
    let mut tally = Tally::default();
    let mut by_colour = [Tally::default(); 2];
    let mut took = [Vec::new(), Vec::new()];
    for (p, r, times) in results.into_inner().unwrap() {
        tally.add(r);
        by_colour[p.index()].add(r);
        for (all, game) in took.iter_mut().zip(times) {
            all.extend(game);
        }
    }
    Ok(MatchOutcome {
        tally,
        by_colour,
        took,
    })
}

/// `uttt match`.
///
/// # Errors
/// A usage error (the message says what is wrong), or an engine that cannot start.
pub fn run(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        outln!("{MATCH_HELP}");
        return Ok(());
    }
    let mut names = Vec::new();
    let o = parse_options(args, &mut names)?;
    let [a_name, b_name] = names.as_slice() else {
        return Err(format!("match needs two engines\n\n{MATCH_HELP}"));
    };
    let a = Spec::parse(a_name)?;
    let b = Spec::parse(b_name)?;
    let start = Instant::now();
    let m = match o.game {
        GameChoice::Ultimate => run_match::<Ultimate>(&a, &b, &o)?,
        GameChoice::Classic => run_match::<Classic>(&a, &b, &o)?,
    };
    let t = m.tally;
    outln!(
        "{a_name} vs {b_name}: {} games  +{} ={} -{}  score {:.1}%  {}  ({:.0} s)",
        t.games(),
        t.wins,
        t.draws,
        t.losses,
        100.0 * t.score(),
        t.elo_text(),
        start.elapsed().as_secs_f64()
    );
    for (p, c) in [(Player::X, m.by_colour[0]), (Player::O, m.by_colour[1])] {
        outln!(
            "  {a_name} as {p}: +{} ={} -{}  score {:.1}%",
            c.wins,
            c.draws,
            c.losses,
            100.0 * c.score()
        );
    }
    for ((name, spec), took) in [(a_name, &a), (b_name, &b)].into_iter().zip(&m.took) {
        if let Some(line) = time_used(spec.movetime(o.movetime), took) {
            outln!("  {name}: {line}");
        }
    }
    Ok(())
}

const TUNE_HELP: &str = "\
uttt tune [--iterations N] [--nodes N] [--seed S] [--threads T] [--start WEIGHTS]

Tunes the Ultimate evaluation weights by self-play with SPSA: each iteration
perturbs every weight at random by ±c (c = 20% of its size, at least 2; not
tb_count, which the standard rules of its games never read), plays
a pair of games (one random opening, both colours) between the two perturbed
vectors at a fixed node budget per move, and moves the weights towards the
side that scored better. Prints the weights every 10 iterations; finish with
`uttt match hard@weights=... hard --games 200 ...` to confirm.";

/// `uttt tune`: SPSA over the evaluation weights.
///
/// # Errors
/// A usage error.
pub fn run_tune(args: &[String]) -> Result<(), String> {
    if args.iter().any(|a| a == "--help" || a == "-h") {
        outln!("{TUNE_HELP}");
        return Ok(());
    }
    let mut iterations = 200u64;
    let mut nodes = 20_000u64;
    let mut seed = 1u64;
    let mut threads = 1usize;
    let mut theta: Vec<f64> = Weights::DEFAULT.0.iter().map(|&w| f64::from(w)).collect();
    let mut it = args.iter();
    while let Some(a) = it.next() {
        let v = it.next().ok_or_else(|| format!("{a} needs a value"))?;
        let num = || {
            v.parse::<u64>()
                .map_err(|_| format!("{a}: `{v}` is not a number"))
        };
        match a.as_str() {
            "--iterations" => iterations = in_range(a, num()?, 1, MAX_ITERATIONS)?,
            "--nodes" => nodes = in_range(a, num()?, 1, MAX_NODES)?,
            "--seed" => seed = num()?,
            "--threads" => threads = in_range(a, num()?, 1, machine_threads())? as usize,
            "--start" => {
                let w = Weights::parse(v).map_err(|e| format!("bad weight `{e}`"))?;
                theta = w.0.iter().map(|&x| f64::from(x)).collect();
            }
            _ => return Err(format!("unknown option `{a}`\n\n{TUNE_HELP}")),
        }
    }
    let mut rng = Rng::new(seed);
    let to_weights = |t: &[f64]| {
        let mut w = [0i32; WEIGHT_COUNT];
        for (x, v) in w.iter_mut().zip(t) {
            *x = v.round() as i32;
        }
        Weights(w)
    };
    let mut batch = Vec::new();
    for k in 1..=iterations {
        // One SPSA step per game pair; several pairs run at once when threads > 1.
        batch.clear();
        for _ in 0..threads {
            // The games are of the standard rules, which never read the
            // tie-break weight: it is left as it is, not walked at random.
            let delta: Vec<f64> = (0..WEIGHT_COUNT)
                .map(|i| {
                    let sign = if rng.below(2) == 0 { -1.0 } else { 1.0 };
                    if i == W_TB_COUNT {
                        0.0
                    } else {
                        sign
                    }
                })
                .collect();
            let c: Vec<f64> = theta.iter().map(|t| (t.abs() * 0.2).max(2.0)).collect();
            let plus: Vec<f64> = theta
                .iter()
                .zip(&delta)
                .zip(&c)
                .map(|((t, d), c)| t + c * d)
                .collect();
            let minus: Vec<f64> = theta
                .iter()
                .zip(&delta)
                .zip(&c)
                .map(|((t, d), c)| t - c * d)
                .collect();
            let opening = random_opening::<Ultimate>(&mut rng, 2, Rules::Standard);
            batch.push((
                delta,
                c,
                to_weights(&plus),
                to_weights(&minus),
                opening,
                rng.next_u64(),
            ));
        }
        let scores: Result<Vec<f64>, String> = std::thread::scope(|s| {
            let handles: Vec<_> = batch
                .iter()
                .map(|(_, _, wp, wm, opening, gseed)| {
                    std::thread::Builder::new().spawn_scoped(s, move || {
                        let mut score = 0.0;
                        for a_plays in [Player::X, Player::O] {
                            let mk = |w: Weights, sd: u64| {
                                let mut e = Engine::new(Level::Hard, sd, 4 << 20);
                                e.set_limits(Limits {
                                    max_depth: 60,
                                    max_nodes: nodes,
                                });
                                e.set_weights(w);
                                SearchPlayer {
                                    engine: ai::Engine::wrap(e, sd),
                                    time: None,
                                    ponder: false,
                                    delay: Duration::ZERO,
                                }
                            };
                            let mut pa = mk(*wp, *gseed);
                            let mut pb = mk(*wm, *gseed);
                            let played = play_game::<Ultimate>(
                                &mut pa,
                                &mut pb,
                                a_plays,
                                opening,
                                Rules::Standard,
                            );
                            score += match played.result {
                                GameResult::AWins => 1.0,
                                GameResult::Draw => 0.5,
                                GameResult::BWins => 0.0,
                            };
                        }
                        score - 1.0
                    })
                })
                .collect();
            handles
                .into_iter()
                .map(|h| match h {
                    Ok(h) => Ok(h.join().unwrap_or(0.0)),
                    Err(e) => Err(format!("cannot start a thread for the games: {e}")),
                })
                .collect()
        });
        let scores = scores?;
        // Learning rate: a won pair moves each weight by a tenth of its
        // perturbation, shrinking slowly as in SPSA.
        let lr = 0.15 / (k as f64 / 50.0 + 1.0).powf(0.602);
        for ((delta, c, ..), r) in batch.iter().zip(&scores) {
            for i in 0..WEIGHT_COUNT {
                theta[i] += lr * r * c[i] * delta[i];
            }
        }
        if k % 10 == 0 || k == iterations {
            outln!("iteration {k}: {}", to_weights(&theta));
        }
    }
    outln!("final: {}", to_weights(&theta));
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn elo_follows_the_score() {
        let even = Tally {
            wins: 10,
            draws: 0,
            losses: 10,
        };
        assert!(even.elo().0.abs() < 1e-6);
        assert!(
            even.elo_text().starts_with("Elo +0 ± "),
            "{}",
            even.elo_text()
        );
        let three_quarters = Tally {
            wins: 150,
            draws: 0,
            losses: 50,
        };
        let (elo, lo, hi) = three_quarters.elo();
        assert!((elo - 190.8).abs() < 0.5, "{elo}");
        let err = (hi.unwrap() - lo.unwrap()) / 2.0;
        assert!(err > 20.0 && err < 80.0, "{err}");
        assert_eq!(three_quarters.elo_text(), format!("Elo +191 ± {err:.0}"));
        // 197-0-3: the interval reaches 100%, so only its lower end is given.
        let lopsided = Tally {
            wins: 197,
            draws: 0,
            losses: 3,
        };
        let (elo, lo, hi) = lopsided.elo();
        assert!(elo > 700.0 && hi.is_none(), "{elo} {hi:?}");
        let lo = lo.unwrap();
        assert!(lo > 500.0 && lo < elo, "{lo}");
        assert_eq!(
            lopsided.elo_text(),
            format!("Elo {elo:+.0} (95%: at least {lo:+.0})")
        );
        let mirrored = Tally {
            wins: 3,
            draws: 0,
            losses: 197,
        };
        assert_eq!(
            mirrored.elo_text(),
            format!("Elo {:+.0} (95%: at most {:+.0})", -elo, -lo)
        );
        let clean = Tally {
            wins: 5,
            draws: 0,
            losses: 0,
        };
        assert_eq!(clean.elo_text(), "Elo unbounded (no game lost or drawn)");
        let t = Tally {
            wins: 60,
            draws: 20,
            losses: 20,
        };
        assert!((t.score() - 0.7).abs() < 1e-9);
    }

    #[test]
    fn specs_parse_and_refuse_junk() {
        assert!(matches!(
            Spec::parse("hard"),
            Ok(Spec::Level {
                level: Level::Hard,
                ..
            })
        ));
        assert!(matches!(
            Spec::parse("master@movetime=300@nodes=5"),
            Ok(Spec::Level {
                movetime: Some(300),
                nodes: Some(5),
                ..
            })
        ));
        assert!(matches!(
            Spec::parse("mcts@movetime=10"),
            Ok(Spec::Mcts { movetime: Some(10) })
        ));
        assert!(matches!(Spec::parse("cmd:./bot --x"), Ok(Spec::Cmd(c)) if c == "./bot --x"));
        assert!(Spec::parse("grandmaster").is_err());
        assert!(matches!(
            Spec::parse("hard@lmr=0@lmp=0@singular=0@aspiration=1@qs=1@freelast=0@iir=0"),
            Ok(Spec::Level {
                options: SearchOptions {
                    lmr: false,
                    lmp: false,
                    singular: false,
                    aspiration: true,
                    dead_draws: true,
                    quiescence: true,
                    contempt: 0,
                    free_moves_last: false,
                    iir: false,
                },
                ..
            })
        ));
        assert!(Spec::parse("hard@speed=9").is_err());
        assert!(Spec::parse("hard@nodes=lots").is_err());
        assert!(Spec::parse("cmd:").is_err());
        assert!(Spec::parse("hard@table=0").is_err());
        assert!(Spec::parse("hard@table=100000").is_err());
        assert!(Spec::parse("hard@movetime=3600001").is_err());
        assert!(Spec::parse("hard@table=4096@movetime=0").is_ok());
        // Numbers are range-checked, never cut to fit.
        for bad in [
            "hard@depth=4294967297",
            "hard@depth=0",
            "hard@depth=82",
            "hard@nodes=0",
            "hard@lmr=2",
            "hard@freelast=2",
            "hard@iir=2",
            "hard@ponder=yes",
            "hard@delay=-1",
            "hard@delay=3600001",
        ] {
            assert!(Spec::parse(bad).is_err(), "{bad} was accepted");
        }
        assert!(matches!(
            Spec::parse("hard@depth=81@ponder=1@delay=400"),
            Ok(Spec::Level {
                depth: Some(81),
                ponder: true,
                delay_ms: 400,
                ..
            })
        ));
    }

    #[test]
    fn options_out_of_range_are_refused() {
        let parse = |words: &[&str]| {
            let args: Vec<String> = words.iter().map(|w| (*w).to_string()).collect();
            parse_options(&args, &mut Vec::new()).map(|o| (o.games, o.threads, o.opening_plies))
        };
        assert_eq!(
            parse(&["--games", "7", "--threads", "2", "--opening-plies", "30"]),
            Ok((7, 2, 30))
        );
        for bad in [
            &["--games", "0"][..],
            &["--games", "1000001"],
            &["--threads", "0"],
            &["--opening-plies", "31"],
            &["--movetime", "3600001"],
            &["--games", "-1"],
            &["--games"],
        ] {
            assert!(parse(bad).is_err(), "{bad:?} was accepted");
        }
        // Every opening of the longest length leaves the game open.
        let mut rng = Rng::new(5);
        for _ in 0..200 {
            let plies = MAX_OPENING_PLIES as usize;
            let opening = random_opening::<Ultimate>(&mut rng, plies, Rules::Standard);
            assert_eq!(opening.len(), plies);
            let mut pos = Ultimate::new(Rules::Standard);
            for m in opening {
                pos = pos.play(m).unwrap();
            }
            assert!(!pos.is_over());
        }
    }

    /// The options of a quiet match of `games` games of `game` from
    /// random openings of `opening_plies`.
    fn quiet(game: GameChoice, games: usize, opening_plies: usize) -> Options {
        Options {
            game,
            games,
            movetime: None,
            seed: 3,
            threads: 2,
            rules: Rules::Standard,
            opening_plies,
            quiet: true,
        }
    }

    #[test]
    fn a_short_match_is_paired_and_counted() {
        let o = quiet(GameChoice::Ultimate, 4, 2);
        let m = run_match::<Ultimate>(
            &Spec::parse("easy").unwrap(),
            &Spec::parse("beginner").unwrap(),
            &o,
        )
        .unwrap();
        assert_eq!(m.tally.games(), 4);
        assert_eq!(m.by_colour[0].games(), 2);
        assert_eq!(m.by_colour[1].games(), 2);
    }

    #[test]
    fn an_engine_that_errs_forfeits() {
        struct Bad;
        impl MatchPlayer<Ultimate> for Bad {
            fn play(&mut self, _: &Ultimate, _: Option<Move>) -> Result<Move, String> {
                Ok(Move::new(9, 9))
            }
        }
        let mut good = Spec::parse("beginner")
            .unwrap()
            .instantiate::<Ultimate>(1, None)
            .unwrap();
        let played = play_game(good.as_mut(), &mut Bad, Player::X, &[], Rules::Standard);
        assert_eq!(played.result, GameResult::AWins);
        assert!(played.forfeit.unwrap().contains("B forfeits"));
        // A moved once and B once (its illegal answer), both timed.
        assert_eq!([played.took[0].len(), played.took[1].len()], [1, 1]);
    }

    #[test]
    fn the_time_used_is_reported_as_shares_of_the_budget() {
        let took: Vec<Duration> = (1..=100).map(Duration::from_millis).collect();
        let line = time_used(Some(100), &took).unwrap();
        assert!(
            line.starts_with("time used per move: median 51% (51 ms), 95th percentile 95%"),
            "{line}"
        );
        assert!(line.ends_with("of 100 ms, over 100 moves"), "{line}");
        assert_eq!(time_used(None, &took), None);
        assert_eq!(time_used(Some(100), &[]), None);
    }

    #[test]
    fn classic_matches_against_the_trap_player() {
        let trap = Spec::parse("trap").unwrap();
        // Medium sees every trap: each game is drawn.
        let o = quiet(GameChoice::Classic, 20, 0);
        let m = run_match::<Classic>(&Spec::parse("medium").unwrap(), &trap, &o).unwrap();
        assert_eq!((m.tally.draws, m.tally.games()), (20, 20));
        // The rule player answers the opposite corners with a corner.
        let m = run_match::<Classic>(&Spec::parse("beginner").unwrap(), &trap, &o).unwrap();
        assert_eq!(m.tally.wins, 0);
        assert!(m.tally.losses > 0, "{:?}", m.tally);
        // Random two-ply openings are played out too.
        let o = quiet(GameChoice::Classic, 6, 2);
        let m = run_match::<Classic>(&trap, &Spec::parse("hard").unwrap(), &o).unwrap();
        assert_eq!(m.tally.games(), 6);
    }

    #[test]
    fn each_game_refuses_the_other_games_players() {
        let o = quiet(GameChoice::Ultimate, 2, 2);
        let trap = Spec::parse("trap").unwrap();
        let hard = Spec::parse("hard@movetime=1").unwrap();
        assert!(run_match::<Ultimate>(&trap, &hard, &o)
            .err()
            .is_some_and(|e| e.contains("Classic only")));
        let o = quiet(GameChoice::Classic, 2, 2);
        for other in ["mcts", "cmd:./bot"] {
            let other = Spec::parse(other).unwrap();
            assert!(run_match::<Classic>(&other, &trap, &o)
                .err()
                .is_some_and(|e| e.contains("Ultimate only")));
        }
        assert!(Spec::parse("trap@movetime=5").is_err());
        let parse = |words: &[&str]| {
            let args: Vec<String> = words.iter().map(|w| (*w).to_string()).collect();
            parse_options(&args, &mut Vec::new()).map(|o| (o.game, o.opening_plies))
        };
        assert_eq!(
            parse(&["--game", "classic", "--opening-plies", "8"]),
            Ok((GameChoice::Classic, 8))
        );
        assert!(parse(&["--game", "classic", "--opening-plies", "9"]).is_err());
        assert!(parse(&["--game", "classic", "--rules", "tiebreak"]).is_err());
        assert!(parse(&["--game", "chess"]).is_err());
    }
}
