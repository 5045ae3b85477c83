//! Tests of the engine as a whole: legality under any stop, exact win/loss
//! scores against a brute-force solver, determinism, Easy against plain
//! minimax, and the perfect Classic player.

use alloc::vec::Vec;

use super::*;
use crate::{Classic, ClassicMove, Game, Outcome, Player, Rules, Ultimate};

/// Random playout positions: `n` positions of Ultimate after a random number
/// of random moves, drawn from `seed`.
fn random_positions(seed: u64, n: usize, min_ply: usize, max_ply: usize) -> Vec<Ultimate> {
    let mut rng = Rng::new(seed);
    let mut out = Vec::new();
    while out.len() < n {
        let target = min_ply + rng.below(max_ply - min_ply + 1);
        let mut pos = Ultimate::new(if rng.below(2) == 0 {
            Rules::Standard
        } else {
            Rules::TieBreak
        });
        while pos.ply() < target && !pos.is_over() {
            let moves = pos.legal_moves();
            pos.play_unchecked(moves[rng.below(moves.len())]);
        }
        if !pos.is_over() {
            out.push(pos);
        }
    }
    out
}

/// The exact result for the side to move within `depth` plies, by brute
/// force: `Some(n)` a forced win in `n` plies, `Some(-n)` a forced loss in
/// `n`, `None` when neither is forced within `depth`.
fn solve<G: Game>(pos: &G, depth: u32) -> Option<i32> {
    match forced(pos, depth) {
        Forced::Win(n) => Some(n as i32),
        Forced::Loss(n) => Some(-(n as i32)),
        Forced::Open => None,
    }
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Forced {
    Win(u32),
    Loss(u32),
    Open,
}

fn forced<G: Game>(pos: &G, depth: u32) -> Forced {
    match pos.outcome() {
        Some(Outcome::Win(p)) if p == pos.side_to_move() => return Forced::Win(0),
        Some(Outcome::Win(_)) => return Forced::Loss(0),
        Some(Outcome::Draw) => return Forced::Open,
        None if depth == 0 => return Forced::Open,
        None => {}
    }
    let mut fastest_win: Option<u32> = None;
    let mut slowest_loss: Option<u32> = Some(0);
    for &m in pos.legal_moves().iter() {
        let mut c = *pos;
        c.play_unchecked(m);
        match forced(&c, depth - 1) {
            Forced::Loss(n) => fastest_win = Some(fastest_win.map_or(n + 1, |w| w.min(n + 1))),
            Forced::Win(n) => slowest_loss = slowest_loss.map(|l| l.max(n + 1)),
            Forced::Open => slowest_loss = None,
        }
    }
    match (fastest_win, slowest_loss) {
        (Some(w), _) => Forced::Win(w),
        (None, Some(l)) => Forced::Loss(l),
        (None, None) => Forced::Open,
    }
}

#[test]
fn stopped_at_once_still_returns_a_legal_move() {
    for (i, pos) in random_positions(1, 60, 0, 60).iter().enumerate() {
        for level in Level::ALL {
            let mut e = Engine::new(level, i as u64, 1 << 16);
            let r = e.choose(pos, || true, |_| {}).unwrap();
            assert!(pos.check(r.best).is_ok(), "{level} {pos:?}");
        }
    }
    let mut e = Engine::new(Level::Hard, 0, 1 << 16);
    let c = Classic::new();
    assert!(c.check(e.choose(&c, || true, |_| {}).unwrap().best).is_ok());
}

#[test]
fn no_move_once_the_game_is_over() {
    let mut pos = Classic::new();
    for c in [0, 3, 1, 4, 2] {
        pos = pos.play(ClassicMove(c)).unwrap();
    }
    let mut e = Engine::new(Level::Master, 0, 1 << 16);
    assert!(e.choose(&pos, || false, |_| {}).is_none());
}

#[test]
fn stop_and_node_limit_end_the_search() {
    let pos = Ultimate::new(Rules::Standard);
    let mut e = Engine::new(Level::Hard, 0, 1 << 20);
    e.set_limits(Limits {
        max_depth: 60,
        max_nodes: 20_000,
    });
    let r = e.choose_within_limits(&pos).unwrap();
    assert!(r.nodes < 20_000 + 2 * POLL_INTERVAL, "{}", r.nodes);
    let mut polls = 0;
    let mut e = Engine::new(Level::Master, 0, 1 << 20);
    let r = e
        .choose(
            &pos,
            || {
                polls += 1;
                polls >= 5
            },
            |_| {},
        )
        .unwrap();
    assert!(r.nodes <= 6 * POLL_INTERVAL + 100, "{}", r.nodes);
}

#[test]
fn a_forced_move_is_played_after_a_shallow_search() {
    // Positions of Medium's games whose side to move has a single legal
    // move (random playouts reach them too, but mostly already lost).
    let mut forced: Vec<Ultimate> = Vec::new();
    for seed in 0..40 {
        let mut e = Engine::for_level(Level::Medium, seed);
        let mut pos = Ultimate::new(Rules::Standard);
        while let Some(r) = e.choose_within_limits(&pos) {
            if pos.legal_moves().len() == 1 {
                forced.push(pos);
            }
            pos.play_unchecked(r.best);
        }
    }
    let mut open = 0;
    for &pos in &forced {
        // No clock: only the node limit would end the search otherwise.
        let mut e = Engine::new(Level::Master, 0, 1 << 20);
        e.set_limits(Limits {
            max_nodes: 5_000_000,
            ..Limits::NONE
        });
        let r = e.choose(&pos, || false, |_| {}).unwrap();
        assert_eq!(r.best, pos.legal_moves()[0]);
        // A proven result ends the search sooner.
        if !r.score.is_mate() {
            assert_eq!(r.depth, FORCED_MOVE_DEPTH);
            open += 1;
        }
    }
    assert!(open >= 3, "{open} of {}", forced.len());
}

#[test]
fn progress_reports_each_depth_with_a_legal_pv() {
    let pos = random_positions(5, 1, 20, 20)[0];
    let mut e = Engine::new(Level::Hard, 0, 1 << 20);
    e.set_limits(Limits {
        max_depth: 6,
        max_nodes: u64::MAX,
    });
    let mut depths = Vec::new();
    let r = e
        .choose(
            &pos,
            || false,
            |p| {
                depths.push(p.depth);
                let mut q = pos;
                for &m in p.pv {
                    q = q.play(m).expect("pv moves are legal in turn");
                }
            },
        )
        .unwrap();
    assert_eq!(r.pv.first(), Some(&r.best));
    assert!(!depths.is_empty() && depths.windows(2).all(|w| w[1] == w[0] + 1));
    assert_eq!(*depths.last().unwrap(), r.depth);
}

#[test]
fn exact_scores_agree_with_a_brute_force_solver() {
    // Late positions, where forced results within 3 plies are common.
    for quiescence in [false, true] {
        let mut forced = 0;
        let mut beyond = 0;
        for (i, pos) in random_positions(11, 300, 35, 70).iter().enumerate() {
            let truth = solve(pos, 3);
            let mut e = Engine::new(Level::Hard, i as u64, 1 << 18);
            e.set_options(SearchOptions {
                quiescence,
                ..SearchOptions::default()
            });
            e.set_limits(Limits {
                max_depth: 3,
                max_nodes: u64::MAX,
            });
            let r = e.choose_within_limits(pos).unwrap();
            match (truth, r.score.mate_in()) {
                (Some(n), claimed) => {
                    forced += 1;
                    assert_eq!(claimed, Some(n), "{pos:?}");
                    if n > 0 {
                        // The chosen move keeps the fastest win.
                        let after = pos.play(r.best).unwrap();
                        let rest = solve(&after, 3);
                        let ok = after.outcome() == Some(Outcome::Win(pos.side_to_move()))
                            || rest == Some(-(n - 1));
                        assert!(ok, "{pos:?} {:?}", r.best);
                    }
                }
                (None, None) => {}
                (None, Some(n)) => {
                    // Only the quiescence search sees past depth 3, and what
                    // it proves there must be true.
                    assert!(quiescence, "{pos:?} {:?}", r.score);
                    assert!(n.unsigned_abs() > 3, "{pos:?} {n}");
                    assert!(n.unsigned_abs() <= 5, "too deep to check here: {n}");
                    assert_eq!(solve(pos, n.unsigned_abs()), Some(n), "{pos:?}");
                    beyond += 1;
                }
            }
        }
        assert!(
            forced > 20,
            "the sample must contain forced results ({forced})"
        );
        // With this seed the quiescence search proves four losses in 4 plies.
        assert_eq!(beyond > 0, quiescence, "{beyond} results beyond depth 3");
    }
}

/// Plain minimax with the tutorials' evaluation.
fn tutorial_minimax<G: Searchable>(pos: &G, depth: u32) -> i32 {
    if depth == 0 || pos.is_over() {
        return pos.tutorial_eval();
    }
    pos.legal_moves()
        .iter()
        .map(|&m| {
            let mut c = *pos;
            c.play_unchecked(m);
            -tutorial_minimax(&c, depth - 1)
        })
        .max()
        .unwrap()
}

#[test]
fn easy_plays_a_best_move_of_depth_three_minimax() {
    for (i, pos) in random_positions(3, 25, 5, 50).iter().enumerate() {
        let mut e = Engine::new(Level::Easy, i as u64, 1 << 16);
        let r = e.choose_within_limits(pos).unwrap();
        let best = tutorial_minimax(pos, 3);
        let mut after = *pos;
        after.play_unchecked(r.best);
        assert_eq!(-tutorial_minimax(&after, 2), best, "{pos:?}");
        assert_eq!(r.score.0, best);
        assert_eq!(r.depth, 3);
    }
}

#[test]
fn same_seed_same_moves_and_seeds_matter() {
    let positions = random_positions(9, 20, 0, 30);
    for level in [Level::Beginner, Level::Easy, Level::Medium] {
        let moves = |seed| {
            let mut e = Engine::for_level(level, seed);
            positions
                .iter()
                .map(|p| e.choose_within_limits(p).unwrap().best)
                .collect::<Vec<_>>()
        };
        assert_eq!(moves(1), moves(1), "{level}");
        assert!(
            (2..6).any(|s| moves(s) != moves(1)),
            "{level} ignores its seed"
        );
    }
}

#[test]
fn takes_an_immediate_game_win() {
    for (i, pos) in random_positions(21, 400, 30, 70).iter().enumerate() {
        if solve(pos, 1) != Some(1) {
            continue;
        }
        for level in [Level::Medium, Level::Hard] {
            let mut e = Engine::new(level, i as u64, 1 << 16);
            e.set_limits(Limits {
                max_depth: 4,
                max_nodes: u64::MAX,
            });
            let r = e.choose_within_limits(pos).unwrap();
            let after = pos.play(r.best).unwrap();
            assert_eq!(
                after.outcome(),
                Some(Outcome::Win(pos.side_to_move())),
                "{level}"
            );
            assert_eq!(r.score, Eval::win_in(1));
        }
    }
}

/// Plays every sequence of replies against `engine` from both sides of
/// Classic; returns a losing line if one exists.
fn classic_loss(engine: &mut Engine, pos: Classic, engine_side: Player) -> Option<Vec<u8>> {
    match pos.outcome() {
        Some(Outcome::Win(p)) if p != engine_side => return Some(Vec::new()),
        Some(_) => return None,
        None => {}
    }
    if pos.side_to_move() == engine_side {
        let m = engine.choose(&pos, || false, |_| {}).unwrap().best;
        let mut line = classic_loss(engine, pos.play(m).unwrap(), engine_side)?;
        line.insert(0, m.0);
        Some(line)
    } else {
        for &m in pos.legal_moves().iter() {
            if let Some(mut line) = classic_loss(engine, pos.play(m).unwrap(), engine_side) {
                line.insert(0, m.0);
                return Some(line);
            }
        }
        None
    }
}

#[test]
fn classic_at_hard_and_master_never_loses() {
    for level in [Level::Hard, Level::Master] {
        for side in [Player::X, Player::O] {
            let mut e = Engine::new(level, 17, 1 << 16);
            assert_eq!(
                classic_loss(&mut e, Classic::new(), side),
                None,
                "{level} as {side}"
            );
        }
    }
}

#[test]
fn the_classic_checker_catches_a_losing_player() {
    // The rule player falls for the opposite-corners fork as O.
    let mut e = Engine::new(Level::Beginner, 17, 1 << 16);
    let line = classic_loss(&mut e, Classic::new(), Player::O);
    assert!(line.is_some());
}

#[test]
fn classic_search_stops_once_it_has_seen_every_line() {
    // Without a clock or limit, Hard finishes on its own once the depth
    // covers every line to the end of the game.
    let mut e = Engine::for_level(Level::Hard, 0);
    let mut depth = 0;
    let r = e
        .choose(&Classic::new(), || false, |p| depth = p.depth)
        .unwrap();
    assert_eq!(r.depth, 27);
    assert_eq!(depth, 27);
    assert_eq!(r.score, Eval::DRAW);
}

#[test]
fn classic_hard_wins_when_it_can() {
    // X on 0 and 4, O on 1 and 8 ... X to move wins at once or by a fork.
    let mut pos = Classic::new();
    for c in [0, 1, 4] {
        pos = pos.play(ClassicMove(c)).unwrap();
    }
    // O must block 8; any other O move loses at once.
    let mut e = Engine::for_level(Level::Hard, 0);
    let r = e.choose_within_limits(&pos).unwrap();
    assert_eq!(r.best, ClassicMove(8));
    let pos = pos.play(ClassicMove(2)).unwrap();
    let r = e.choose_within_limits(&pos).unwrap();
    assert_eq!(r.best, ClassicMove(8));
    assert_eq!(r.score, Eval::win_in(1));
}

/// Nodes searched from `pos` to `depth` with late move pruning on or off.
fn nodes_with_pruning<G: Searchable>(pos: &G, depth: u32, lmp: bool) -> u64 {
    let mut e = Engine::new(Level::Hard, 0, 1 << 20);
    e.set_options(SearchOptions {
        lmp,
        ..SearchOptions::default()
    });
    e.set_limits(Limits {
        max_depth: depth,
        max_nodes: u64::MAX,
    });
    e.choose_within_limits(pos).unwrap().nodes
}

#[test]
fn late_moves_are_pruned_in_ultimate_only() {
    let positions = random_positions(5, 20, 10, 30);
    let pruned: u64 = positions
        .iter()
        .map(|p| nodes_with_pruning(p, 7, true))
        .sum();
    let full: u64 = positions
        .iter()
        .map(|p| nodes_with_pruning(p, 7, false))
        .sum();
    assert!(pruned < full, "{pruned} nodes with pruning, {full} without");
    // Classic is searched whole: pruning must not change its tree at all.
    let classic = Classic::new().play(ClassicMove(4)).unwrap();
    assert_eq!(
        nodes_with_pruning(&classic, 27, true),
        nodes_with_pruning(&classic, 27, false)
    );
}

/// Every position of Classic that a game can reach and that is not over.
fn classic_positions() -> Vec<Classic> {
    let mut seen = alloc::collections::BTreeSet::new();
    let mut out = Vec::new();
    let mut todo = alloc::vec![Classic::new()];
    while let Some(pos) = todo.pop() {
        if pos.is_over() || !seen.insert((pos.cells(Player::X), pos.cells(Player::O))) {
            continue;
        }
        out.push(pos);
        todo.extend(pos.legal_moves().iter().map(|&m| pos.play(m).unwrap()));
    }
    out
}

#[test]
fn every_classic_mistake_loses_within_six_plies() {
    // What `Classic::faces_a_fork` relies on to give Medium's four plies
    // the sight of six: the longest forced loss after a mistake.
    let mut values = ClassicValues::new();
    let mut longest = 0;
    let positions = classic_positions();
    assert_eq!(positions.len(), 4520);
    for pos in &positions {
        if values.value(pos) < 0 {
            continue;
        }
        for &m in pos.legal_moves().iter() {
            let v = values.value_of(pos, m);
            if v < 0 {
                longest = longest.max(10 + v);
            }
        }
    }
    assert_eq!(longest, 6);
}

#[test]
fn a_fork_is_a_loss_in_two() {
    let play = |cells: &[u8]| {
        cells
            .iter()
            .fold(Classic::new(), |p, &c| p.play(ClassicMove(c)).unwrap())
    };
    // X 0, 6, 8 threatens 3 and 7; O (4, 2) has no line to complete.
    let forked = play(&[0, 4, 8, 2, 6]);
    assert!(forked.faces_a_fork());
    let mut e = Engine::for_level(Level::Hard, 0);
    assert_eq!(
        e.choose_within_limits(&forked).unwrap().score,
        Eval::loss_in(2)
    );
    // Two threats, but O wins first at 6.
    assert!(!play(&[0, 4, 8, 2, 3]).faces_a_fork());
    // One threat is only a block to make.
    assert!(!play(&[0, 4, 1]).faces_a_fork());
    assert!(!Classic::new().faces_a_fork());
    // Ultimate never scores a position this way.
    assert!(random_positions(2, 50, 0, 60)
        .iter()
        .all(|p| !p.faces_a_fork()));
}

#[test]
fn classic_medium_never_throws_a_result_away() {
    // In every position of the game, with any seed, Medium keeps the result
    // that perfect play gets: it holds every draw and wins every won game.
    let mut values = ClassicValues::new();
    let positions = classic_positions();
    for seed in 0..6 {
        let mut e = Engine::for_level(Level::Medium, seed);
        for pos in &positions {
            let m = e.choose_within_limits(pos).unwrap().best;
            assert!(!values.is_mistake(pos, m), "seed {seed}: {pos:?} {m:?}");
        }
    }
}

#[test]
fn classic_medium_avoids_the_corner_traps() {
    let play = |cells: &[u8]| {
        cells
            .iter()
            .fold(Classic::new(), |p, &c| p.play(ClassicMove(c)).unwrap())
    };
    // The lines a trap player springs, and the replies that hold each.
    let traps: [(&[u8], &[u8]); 4] = [
        // A corner: only the centre holds.
        (&[0], &[4]),
        // Opposite corners around O's centre: an edge, not a corner.
        (&[0, 4, 8], &[1, 3, 5, 7]),
        // X's centre and the corner opposite O's: a corner, not an edge.
        (&[4, 0, 8], &[2, 6]),
        // The centre: a corner, not an edge.
        (&[4], &[0, 2, 6, 8]),
    ];
    for seed in 0..64 {
        let mut e = Engine::for_level(Level::Medium, seed);
        for (line, holds) in traps {
            let m = e.choose_within_limits(&play(line)).unwrap().best;
            assert!(holds.contains(&m.0), "seed {seed}: {line:?} -> {}", m.0);
        }
    }
}

#[test]
fn classic_medium_never_loses_to_any_line() {
    for seed in 0..16 {
        for side in [Player::X, Player::O] {
            let mut e = Engine::for_level(Level::Medium, seed);
            assert_eq!(
                classic_loss(&mut e, Classic::new(), side),
                None,
                "seed {seed} as {side}"
            );
        }
    }
}

#[test]
fn each_classic_level_against_the_trap_player() {
    // Games lost to the trap player, by level, over 40 games with each colour.
    let mut lost = Vec::new();
    for level in Level::ALL {
        let mut losses = 0;
        for seed in 0..40 {
            for side in [Player::X, Player::O] {
                let mut e = Engine::new(level, seed, 1 << 16);
                let mut trap = Trap::new(seed ^ 0x5555);
                let mut pos = Classic::new();
                while !pos.is_over() {
                    let m = if pos.side_to_move() == side {
                        e.choose_within_limits(&pos).unwrap().best
                    } else {
                        trap.choose(&pos).unwrap()
                    };
                    pos = pos.play(m).unwrap();
                }
                match pos.outcome() {
                    Some(Outcome::Win(p)) if p == side => panic!("{level} beat a perfect player"),
                    Some(Outcome::Win(_)) => losses += 1,
                    _ => {}
                }
            }
        }
        lost.push(losses);
    }
    // Beginner falls for the opposite corners as O; from Medium up no
    // level ever loses, and no level loses more than the one below it.
    assert!(lost[0] > 0, "{lost:?}");
    assert!(lost.windows(2).all(|w| w[1] <= w[0]), "{lost:?}");
    assert_eq!(lost[2..], [0, 0, 0], "{lost:?}");
}

/// A search cut into slices by `resume` reaches the depth of one
/// uninterrupted search for about the same nodes, and starts each slice at
/// the depth after the last completed one.
#[test]
fn resumed_slices_carry_on_from_the_next_depth() {
    const DEPTH: u32 = 10;
    let limits = Limits {
        max_depth: DEPTH,
        max_nodes: u64::MAX,
    };
    let (mut whole_nodes, mut sliced_nodes, mut slices) = (0, 0, 0);
    // Two dozen positions: the detour of a single one can cost it half
    // its nodes again.
    for pos in random_positions(11, 24, 6, 20) {
        let mut whole = Engine::new(Level::Hard, 1, 4 << 20);
        whole.set_limits(limits);
        whole_nodes += whole.choose_within_limits(&pos).unwrap().nodes;

        let mut sliced = Engine::new(Level::Hard, 1, 4 << 20);
        sliced.set_limits(limits);
        let mut last_depth = 0;
        loop {
            slices += 1;
            // About 5,000 nodes a slice, as the browser's worker searches.
            let mut polls = 0;
            let mut first_reported = None;
            let r = sliced
                .resume(
                    &pos,
                    || {
                        polls += 1;
                        polls > 5
                    },
                    |p| {
                        first_reported.get_or_insert(p.depth);
                    },
                )
                .unwrap();
            if let Some(d) = first_reported {
                assert_eq!(d, last_depth + 1, "a slice repeated a finished depth");
            }
            assert!(pos.check(r.best).is_ok());
            last_depth = r.depth;
            assert_eq!(sliced.is_settled(&pos), r.depth >= DEPTH);
            if r.depth >= DEPTH {
                sliced_nodes += r.nodes;
                break;
            }
            assert!(slices < 10_000, "the slices never finished depth {DEPTH}");
        }
        // A finished search answers at once when asked again.
        let again = sliced
            .resume(&pos, || true, |_| panic!("no depth is searched"))
            .unwrap();
        assert_eq!(again.depth, DEPTH);
    }
    assert!(slices > 20, "the slices were not cut short ({slices})");
    // Going back down to where a slice stopped costs something, but far
    // less than starting each slice from depth 1 would.
    assert!(
        sliced_nodes < whole_nodes * 3 / 2,
        "sliced {sliced_nodes} nodes, whole {whole_nodes}"
    );
}

#[test]
fn resume_searches_another_position_from_the_start() {
    let pos = Ultimate::new(Rules::Standard);
    let mut e = Engine::new(Level::Hard, 1, 1 << 20);
    e.set_limits(Limits {
        max_depth: 5,
        max_nodes: u64::MAX,
    });
    e.choose_within_limits(&pos).unwrap();
    let mut other = pos;
    other.play_unchecked(pos.legal_moves()[40]);
    let mut depths = Vec::new();
    e.resume(&other, || false, |p| depths.push(p.depth))
        .unwrap();
    assert_eq!(depths.first(), Some(&1));
}

#[test]
fn contempt_scores_a_draw_against_the_side_to_move_at_the_root() {
    // Classic is a draw with best play: searched to the end, the root's
    // side sees the contempt against it, whichever side it is.
    let after_one = Classic::new().play(ClassicMove(4)).unwrap();
    for pos in [Classic::new(), after_one] {
        let mut e = Engine::for_level(Level::Hard, 0);
        e.set_options(SearchOptions {
            contempt: 30,
            ..SearchOptions::default()
        });
        let r = e.choose(&pos, || false, |_| {}).unwrap();
        assert_eq!(r.score, Eval(-30), "{pos:?}");
    }
}
