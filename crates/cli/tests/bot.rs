//! `uttt bot` against a referee written here, and against garbage.

mod common;

use std::time::Duration;

use common::{run, Talk};
use uttt_core::{Game, Move, Rules, Ultimate};

/// A generous limit for one answer: the bot is asked for 100 ms, but a
/// loaded test machine must not make this test fail.
const ANSWER: Duration = Duration::from_secs(5);

/// A small deterministic random source for the referee's own moves.
struct Lcg(u64);

impl Lcg {
    fn below(&mut self, n: usize) -> usize {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 >> 33) % n as u64) as usize
    }
}

/// The CodinGame input for one turn: the opponent's move and the valid actions.
fn turn_input(last: Option<Move>, pos: &Ultimate) -> Vec<String> {
    let (r, c) = last.map_or((-1, -1), |m| {
        let (r, c) = m.row_col();
        (i32::from(r), i32::from(c))
    });
    let moves = pos.legal_moves();
    let mut lines = vec![format!("{r} {c}"), moves.len().to_string()];
    for m in moves.iter() {
        let (r, c) = m.row_col();
        lines.push(format!("{r} {c}"));
    }
    lines
}

/// Plays one whole game as the referee and the bot's opponent; returns the
/// final position.
fn referee(args: &[&str], bot_first: bool, seed: u64) -> Ultimate {
    let mut talk = Talk::start(args);
    let mut pos = Ultimate::new(Rules::TieBreak);
    let mut rng = Lcg(seed);
    let mut last = None;
    if !bot_first {
        let moves = pos.legal_moves();
        let m = moves[rng.below(moves.len())];
        pos.play_unchecked(m);
        last = Some(m);
    }
    while !pos.is_over() {
        for line in turn_input(last, &pos) {
            talk.send(&line);
        }
        let answer = talk.line_within(ANSWER);
        let m = answer
            .split(' ')
            .map(|w| w.parse::<u8>().ok())
            .collect::<Option<Vec<u8>>>()
            .and_then(|v| match v[..] {
                [r, c] if r < 9 && c < 9 => Some(Move::from_row_col(r, c)),
                _ => None,
            })
            .unwrap_or_else(|| panic!("not a move: {answer:?}"));
        pos.try_play(m)
            .unwrap_or_else(|e| panic!("bot played {answer}: {e}\n{}", talk.transcript));
        if pos.is_over() {
            break;
        }
        let moves = pos.legal_moves();
        let reply = moves[rng.below(moves.len())];
        pos.play_unchecked(reply);
        last = Some(reply);
    }
    talk.close();
    let end = talk.finish();
    assert!(end.status.success(), "{}", end.stderr);
    assert!(end.stderr.is_empty(), "{}", end.stderr);
    pos
}

#[test]
fn plays_a_whole_game_first_and_second() {
    for (level, first) in [
        ("hard", true),
        ("hard", false),
        ("beginner", true),
        ("medium", false),
    ] {
        let pos = referee(
            &[
                "bot",
                "--level",
                level,
                "--movetime",
                "100",
                "--first-movetime",
                "1000",
            ],
            first,
            7,
        );
        assert!(pos.is_over());
    }
}

#[test]
fn hard_beats_a_random_referee() {
    // Not a strength test (that is `uttt match`): a search that plays legal
    // but aimless moves would lose some of these, so this catches a bot that
    // ignores its search or its state. A fixed depth keeps the bot's
    // strength independent of the machine's load.
    for seed in 1..=2 {
        for first in [true, false] {
            let pos = referee(&["bot", "--depth", "4", "--movetime", "1000"], first, seed);
            let bot = if first {
                uttt_core::Player::X
            } else {
                uttt_core::Player::O
            };
            assert_eq!(
                pos.outcome(),
                Some(uttt_core::Outcome::Win(bot)),
                "seed {seed}, bot first: {first}"
            );
        }
    }
}

#[test]
fn one_valid_action_is_answered_with_it() {
    // After e5 ... the referee offers only one of the centre board's cells.
    let r = run(&["bot"], "4 4\n1\n3 5\n");
    assert!(r.status.success(), "{}", r.stderr);
    assert_eq!(r.stdout, "3 5\n");
}

#[test]
fn garbage_gets_one_line_on_stderr_and_a_clean_exit() {
    for (input, line) in [
        ("hello\n", 1),
        ("\n", 1),
        ("-1 -1\nmany\n", 2),
        ("-1 -1\n82\n", 2),
        ("-1 -1\n2\n4 4\n", 4),
        ("-1 -1\n1\n4 4 4\n", 3),
        ("9 9\n", 1),
        ("4 4\n1\n4 4\n", 3),
        ("-1 -1\n1\n4 4\n-1 -1\n", 4),
        ("\u{0}\u{1}\u{2}binary\n", 1),
    ] {
        let r = run(&["bot"], input);
        check_refusal(input, &r, line);
    }
    // Not UTF-8 at all.
    let mut talk = Talk::start(&["bot"]);
    talk.send_bytes(b"-1 -1\n\xff\xff");
    let r = talk.finish_without_closing();
    check_refusal("-1 -1 then bytes", &r, 2);
}

/// Exit code 1 and exactly one line on stderr naming the bad input line.
fn check_refusal(input: &str, r: &common::Run, line: usize) {
    assert_eq!(r.status.code(), Some(1), "{input:?}: {}", r.stderr);
    let lines: Vec<&str> = r.stderr.lines().collect();
    assert_eq!(lines.len(), 1, "{input:?}: {}", r.stderr);
    assert!(
        lines[0].starts_with(&format!("uttt bot: input line {line}: ")),
        "{input:?}: {}",
        r.stderr
    );
}

#[test]
fn garbage_with_stdin_left_open_does_not_hang() {
    let mut talk = Talk::start(&["bot"]);
    talk.send("this is not the protocol");
    // stdin stays open: the bot must still leave at once.
    let end = talk.finish_without_closing();
    assert_eq!(end.status.code(), Some(1));
    assert!(end.stderr.contains("input line 1"), "{}", end.stderr);
}

#[test]
fn no_input_at_all_is_a_clean_exit() {
    let r = run(&["bot"], "");
    assert!(r.status.success());
    assert!(r.stdout.is_empty() && r.stderr.is_empty());
}

#[test]
fn plays_whole_games_against_the_match_runner() {
    // The match runner is the referee here: it starts the bot as an external
    // engine for each game and forfeits it on a late, illegal or unreadable
    // answer (after 5x the movetime plus a second: a generous deadline). The
    // bot's depth is fixed so its strength does not depend on how busy the
    // machine is; the time limits stay as a safety net.
    let bot = format!(
        "cmd:{} bot --level hard --depth 4 --movetime 1000 --rules standard",
        env!("CARGO_BIN_EXE_uttt")
    );
    let r = run(
        &[
            "match",
            "beginner",
            &bot,
            "--games",
            "2",
            "--movetime",
            "1000",
        ],
        "",
    );
    assert!(r.status.success(), "{}\n{}", r.stdout, r.stderr);
    assert!(!r.stdout.contains("forfeit"), "{}", r.stdout);
    let games: Vec<&str> = r
        .stdout
        .lines()
        .filter(|l| l.starts_with("game "))
        .collect();
    assert_eq!(games.len(), 2, "{}", r.stdout);
    // Each game line holds its record; the bot (B) beats the rule player.
    for g in &games {
        assert!(g.contains("B wins"), "{}", r.stdout);
    }
}
