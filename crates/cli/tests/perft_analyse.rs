//! `uttt perft` and `uttt analyse` from the outside.

mod common;

use common::run;

/// The number after "perft N: " in the output.
fn count(stdout: &str, depth: u32) -> u64 {
    let prefix = format!("perft {depth}: ");
    stdout
        .lines()
        .find_map(|l| l.strip_prefix(&prefix))
        .and_then(|n| n.parse().ok())
        .unwrap_or_else(|| panic!("no count in {stdout}"))
}

#[test]
fn perft_counts_match_the_known_values() {
    for (args, depth, expected) in [
        (&["perft", "1"][..], 1, 81),
        (&["perft", "3"], 3, 6336),
        (&["perft", "4", "--rules", "tiebreak"], 4, 55080),
        (&["perft", "9", "--game", "classic"], 9, 127_872),
        (&["perft", "0"], 0, 1),
    ] {
        let r = run(args, "");
        assert!(r.status.success(), "{args:?}: {}", r.stderr);
        assert_eq!(count(&r.stdout, depth), expected, "{args:?}");
    }
}

#[test]
fn divide_lists_each_first_move_and_sums_to_the_total() {
    let r = run(&["perft", "3", "--divide", "--game", "classic"], "");
    assert!(r.status.success());
    let split: Vec<(String, u64)> = r
        .stdout
        .lines()
        .filter_map(|l| l.split_once(": "))
        .filter(|(m, _)| m.len() == 2)
        .map(|(m, n)| (m.to_string(), n.parse().unwrap()))
        .collect();
    assert_eq!(split.len(), 9);
    assert!(split.iter().all(|(_, n)| *n == 56));
    assert_eq!(count(&r.stdout, 3), 504);
}

#[test]
fn perft_from_a_position_string() {
    let after_e5 = "ultimate-standard ........./........./........./........./....x..../........./........./........./......... 4";
    let r = run(&["perft", "1", "--position", after_e5], "");
    assert!(r.status.success(), "{}", r.stderr);
    assert_eq!(count(&r.stdout, 1), 8);
    let r = run(&["perft", "2", "--position", "classic xo./.x./..o"], "");
    assert_eq!(count(&r.stdout, 2), 20);
}

/// The line of `uttt analyse` that names the best move.
fn best_line(stdout: &str) -> &str {
    stdout
        .lines()
        .find(|l| l.starts_with("best move "))
        .expect("a best move line")
}

#[test]
fn analyse_prints_every_depth_then_the_best_move() {
    let r = run(&["analyse", "ultimate-standard:e5e4d2", "--depth", "4"], "");
    assert!(r.status.success(), "{}", r.stderr);
    let depths: Vec<u32> = r
        .stdout
        .lines()
        .filter_map(|l| l.strip_prefix("depth "))
        .map(|l| l.split_whitespace().next().unwrap().parse().unwrap())
        .collect();
    assert_eq!(depths, [1, 2, 3, 4], "{}", r.stdout);
    assert!(r.stdout.contains("Last move: X d2."), "{}", r.stdout);
    let best = best_line(&r.stdout);
    assert!(best.starts_with("best move "), "{best}");
    assert!(best.contains("for O (depth 4,"), "{best}");
    // Then the score as chances, which sum to about 100%.
    let chances = r.stdout.lines().last().unwrap();
    assert!(chances.starts_with("chances for O: win "), "{chances}");
    let sum: u32 = chances
        .split(|c: char| !c.is_ascii_digit())
        .filter_map(|n| n.parse::<u32>().ok())
        .sum();
    assert!((98..=102).contains(&sum), "{chances}");
}

#[test]
fn analyse_finds_a_forced_classic_win() {
    // X holds a1 and b2, O holds c1 and a3; X to move completes the diagonal at c3.
    let r = run(&["analyse", "classic x.o/.x./o.."], "");
    assert!(r.status.success(), "{}", r.stderr);
    let best = best_line(&r.stdout);
    assert!(best.starts_with("best move c3 for X"), "{best}");
    assert!(best.contains("win in 1"), "{best}");
    assert!(r
        .stdout
        .contains("chances for X: win 100%, draw 0%, loss 0%"));
}

#[test]
fn analyse_of_a_finished_game_just_shows_it() {
    let r = run(&["analyse", "classic:a1b1a2b2a3"], "");
    assert!(r.status.success());
    assert!(r.stdout.contains("Game over: X wins."));
    assert!(!r.stdout.contains("depth"));
}

#[test]
fn analyse_stops_at_the_end_of_the_game() {
    // Eight plies are left after b2: no depth beyond them is printed.
    let r = run(&["analyse", "classic:b2"], "");
    assert!(r.status.success(), "{}", r.stderr);
    let last_depth = r
        .stdout
        .lines()
        .rev()
        .find_map(|l| l.strip_prefix("depth "))
        .expect("depth lines");
    assert!(last_depth.starts_with(" 8 "), "{}", r.stdout);
    assert!(best_line(&r.stdout).contains("(depth 8, score +0.00"));
}

#[test]
fn a_game_review_marks_a_planted_blunder_and_sums_up_each_player() {
    // X a1, O b2, X c3: O must take an edge; the corner c1 lets X fork.
    let r = run(&["analyse", "--game", "classic:a1b2c3c1a3"], "");
    assert!(r.status.success(), "{}", r.stderr);
    let move_line = |ply: &str| {
        r.stdout
            .lines()
            .find(|l| l.trim_start().starts_with(ply))
            .unwrap_or_else(|| panic!("no line for {ply} in {}", r.stdout))
    };
    assert!(
        move_line("4  c1    O   blunder").contains("0.500"),
        "{}",
        r.stdout
    );
    assert!(
        move_line("2  b2    O   best").contains("0.000"),
        "{}",
        r.stdout
    );
    assert!(r
        .stdout
        .contains("O: accuracy 75.0%; best 1, good 0, inaccuracy 0, mistake 0, blunder 1"));
    assert!(r.stdout.contains("X: accuracy 100.0%"));
    assert!(r.stdout.contains("reviewed 5 of 5 moves"));
    // The page's record with a side line: its main line is the game reviewed.
    let with_line = run(&["analyse", "--game", "classic:a1b2(a2)c3c1a3"], "");
    assert!(with_line.status.success(), "{}", with_line.stderr);
    // Everything but the time it took is the same.
    let untimed = |out: &str| -> Vec<String> {
        out.lines()
            .filter(|l| !l.contains("reviewed "))
            .map(String::from)
            .collect()
    };
    assert_eq!(untimed(&with_line.stdout), untimed(&r.stdout));
}

#[test]
fn a_game_review_offers_the_puzzles_with_one_answer() {
    // Against X's corner only the centre saves O; O's a2 loses.
    let r = run(&["analyse", "--game", "classic:a1a2b2b3"], "");
    assert!(r.status.success(), "{}", r.stderr);
    assert!(
        r.stdout.contains(
            "puzzle after move 1: O to play, one move saves the game (played a2); solution b2 "
        ),
        "{}",
        r.stdout
    );
    // O's blunder c1 in this game had four saving edges: no puzzle.
    let r = run(&["analyse", "--game", "classic:a1b2c3c1a3"], "");
    assert!(r.stdout.contains("no puzzles"), "{}", r.stdout);
}

#[test]
fn a_game_review_refuses_what_it_cannot_review() {
    for args in [
        &["analyse", "--game", "classic:a1a1"][..],
        &["analyse", "--game", "classic:a1(b2"],
        &["analyse", "--game", "classic x.o/.x./o.."],
        &["analyse", "--game", "classic:a1", "--depth", "3"],
        &["analyse", "--game", "classic:a1", "--nodes", "5"],
        &["analyse", "classic:a1", "--nodes", "5000"],
    ] {
        let r = run(args, "");
        assert_eq!(r.status.code(), Some(2), "{args:?}: {}", r.stdout);
        assert!(r.stdout.is_empty(), "{args:?}: {}", r.stdout);
        assert!(
            r.stderr.contains("Run `uttt analyse --help`"),
            "{args:?}: {}",
            r.stderr
        );
    }
}
