//! Search support for Ultimate: the tuned evaluation, the tutorials'
//! evaluation and rule player.

use super::board_odds::{BoardOdds, CERTAIN};
use super::rng::Rng;
use super::searchable::{threats, Searchable, LINE_TABLES};
use super::weights::*;
use crate::lines::{FULL, LINES, LINE_MASKS};
use crate::{Game, Move, MoveList, Player, Rules, Ultimate};

/// The corner boards (and corner cells) as a mask.
const CORNERS: u16 = 0b101_000_101;
/// The centre board (and centre cell).
const CENTRE: u16 = 1 << 4;

/// For each board or cell, the meta lines through it, as a line set.
const LINES_THROUGH: [u8; 9] = {
    let mut t = [0u8; 9];
    let mut b = 0;
    while b < 9 {
        t[b] = LINE_TABLES.touch[1 << b];
        b += 1;
    }
    t
};

/// The meta-level part for one side: won boards, their place, open meta
/// lines and meta threats. Returns the score and the meta lines `p` can
/// still complete.
#[inline(always)]
fn meta_score(pos: &Ultimate, p: Player, drawn: u16, w: &[i32; WEIGHT_COUNT]) -> (i32, u8) {
    let q = p.opponent();
    let won = pos.won_boards(p);
    let live = !LINE_TABLES.touch[usize::from(pos.won_boards(q) | drawn)];
    let mut s = won.count_ones() as i32 * w[W_BOARD]
        + (won & CENTRE).count_ones() as i32 * w[W_BOARD_CENTRE]
        + (won & CORNERS).count_ones() as i32 * w[W_BOARD_CORNER]
        + (LINE_TABLES.one[usize::from(won)] & live).count_ones() as i32 * w[W_META_ONE];
    let mut twos = LINE_TABLES.two[usize::from(won)] & live;
    s += twos.count_ones() as i32 * w[W_META_TWO];
    while twos != 0 {
        let line = LINE_MASKS[twos.trailing_zeros() as usize];
        twos &= twos - 1;
        let missing = (line & !won).trailing_zeros() as u8;
        if threats(pos.board_cells(p, missing), pos.board_cells(q, missing)) != 0 {
            s += w[W_META_LIVE];
        }
    }
    (s, live)
}

/// One side's features on one open small board, `imp` being the number of
/// its live meta lines through the board.
#[inline(always)]
fn small_score(mine: u16, theirs: u16, imp: i32, w: &[i32; WEIGHT_COUNT]) -> i32 {
    let two = (LINE_TABLES.two[usize::from(mine)] & !LINE_TABLES.touch[usize::from(theirs)])
        .count_ones() as i32;
    two * (w[W_SMALL_TWO] + imp * w[W_SMALL_TWO_IMP])
        + (mine & CENTRE).count_ones() as i32 * w[W_CELL_CENTRE]
        + (mine & CORNERS).count_ones() as i32 * w[W_CELL_CORNER]
        + mine.count_ones() as i32 * imp * w[W_CELL_IMP]
}

/// The evaluation from X's side, not counting who is to move.
#[inline]
fn x_score(pos: &Ultimate, w: &[i32; WEIGHT_COUNT], table: &BoardOdds) -> i32 {
    let decided = pos.decided_boards();
    let drawn = pos.drawn_boards();
    let (sx, live_x) = meta_score(pos, Player::X, drawn, w);
    let (so, live_o) = meta_score(pos, Player::O, drawn, w);
    let mut s = sx - so;
    // Each board's odds for X and for O; decided boards are certain.
    let mut odds = [[0u32; 2]; 9];
    for (p, side) in [Player::X, Player::O].into_iter().enumerate() {
        let mut won = pos.won_boards(side);
        while won != 0 {
            odds[won.trailing_zeros() as usize][p] = CERTAIN;
            won &= won - 1;
        }
    }
    let mut open = !decided & FULL;
    while open != 0 {
        let b = open.trailing_zeros() as u8;
        open &= open - 1;
        let x = pos.board_cells(Player::X, b);
        let o = pos.board_cells(Player::O, b);
        let [ox, oo] = table.of(x, o);
        odds[usize::from(b)] = [u32::from(ox), u32::from(oo)];
        let through = LINES_THROUGH[usize::from(b)];
        s += small_score(x, o, (through & live_x).count_ones() as i32, w)
            - small_score(o, x, (through & live_o).count_ones() as i32, w);
    }
    let mut lines = 0i64;
    // The chance that some meta line is completed, at most: the sum of the
    // lines' chances, for both sides.
    let mut any_line = 0i64;
    for [a, b, c] in LINES {
        let (a, b, c) = (
            odds[usize::from(a)],
            odds[usize::from(b)],
            odds[usize::from(c)],
        );
        let (x, o) = (i64::from(a[0] * b[0] * c[0]), i64::from(a[1] * b[1] * c[1]));
        lines += x - o;
        any_line += x + o;
    }
    s += (lines * i64::from(w[W_LINE_ODDS]) / i64::from(CERTAIN.pow(3))) as i32;
    if pos.rules() == Rules::TieBreak {
        s += tie_break_count(&odds, any_line, w[W_TB_COUNT]);
    }
    s
}

/// Under the tie-break rule, the board count for X (won boards in full,
/// open boards by each side's odds of winning them) by the chance that no
/// meta line is completed (one less the sum of the lines' chances,
/// `any_line` in units of [`CERTAIN`] cubed), at `weight` per board: the
/// more the lines are blocked, the more the count decides the game.
#[inline]
fn tie_break_count(odds: &[[u32; 2]; 9], any_line: i64, weight: i32) -> i32 {
    let cube = i64::from(CERTAIN.pow(3));
    let no_line = (cube - any_line).max(0);
    let count: i64 = odds.iter().map(|&[x, o]| i64::from(x) - i64::from(o)).sum();
    // |count| <= 9 * 255 and no_line <= 255^3: the product fits with room.
    (count * no_line / cube * i64::from(weight) / i64::from(CERTAIN)) as i32
}

/// The tuned evaluation for the side to move, in [`Eval`] units.
///
/// [`Eval`]: super::Eval
#[inline]
pub(crate) fn evaluate(pos: &Ultimate, weights: &Weights, odds: &BoardOdds) -> i32 {
    let w = &weights.0;
    let me = pos.side_to_move();
    let x = x_score(pos, w, odds);
    let mut s = if me == Player::X { x } else { -x } + w[W_TEMPO];
    match pos.required_board() {
        None => s += w[W_FREE_MOVE],
        Some(b) => {
            if threats(pos.board_cells(me, b), pos.board_cells(me.opponent(), b)) != 0 {
                s += w[W_SEND_WIN];
            }
        }
    }
    s / WEIGHT_UNITS
}

/// The legal moves (in [`Game::legal_moves`] order) on which `p` would
/// complete a line of a small board: the side to move's board wins, or the
/// ones it must block.
fn completing_moves(pos: &Ultimate, p: Player) -> MoveList<Move> {
    let mut list = MoveList::new();
    let mut boards = pos.playable_boards();
    while boards != 0 {
        let b = boards.trailing_zeros() as u8;
        boards &= boards - 1;
        let mut cells = threats(pos.board_cells(p, b), pos.board_cells(p.opponent(), b));
        while cells != 0 {
            let c = cells.trailing_zeros() as u8;
            cells &= cells - 1;
            list.push(Move::new(b, c));
        }
    }
    list
}

/// The tutorials' evaluation for `p`, ignoring wins.
fn tutorial_lines(pos: &Ultimate, p: Player) -> i32 {
    let mine = pos.won_boards(p);
    let theirs = pos.won_boards(p.opponent());
    LINE_MASKS
        .iter()
        .map(|&l| {
            if l & theirs == 0 {
                10 * (l & mine).count_ones() as i32
            } else {
                0
            }
        })
        .sum()
}

impl Searchable for Ultimate {
    const PRUNE_LATE_MOVES: bool = true;

    #[inline]
    fn move_index(m: Move) -> u8 {
        m.board * 9 + m.cell
    }

    #[inline]
    fn move_from_index(i: u8) -> Move {
        Move::from_index(i)
    }

    #[inline]
    fn evaluate(&self, w: &Weights, odds: &BoardOdds) -> i32 {
        evaluate(self, w, odds)
    }

    #[inline]
    fn frees_opponent(&self, index: u8) -> bool {
        let (board, cell) = (index / 9, index % 9);
        if self.decided_boards() & (1 << cell) != 0 {
            return true;
        }
        // A move into the board it sends to frees the opponent when it
        // decides that board: it wins it or fills it.
        board == cell && {
            let me = self.side_to_move();
            let (mine, theirs) = (
                self.board_cells(me, board),
                self.board_cells(me.opponent(), board),
            );
            (mine | theirs).count_ones() == 8 || threats(mine, theirs) & (1 << cell) != 0
        }
    }

    fn tutorial_eval(&self) -> i32 {
        let me = self.side_to_move();
        match self.outcome() {
            Some(crate::Outcome::Win(p)) if p == me => 100,
            Some(crate::Outcome::Win(_)) => -100,
            Some(crate::Outcome::Draw) => 0,
            None => tutorial_lines(self, me) - tutorial_lines(self, me.opponent()),
        }
    }

    /// Under the standard rules a game in which every meta line holds a
    /// board of each side or a drawn board can no longer be won. (Under the
    /// tie-break rule the count of won boards still decides it.)
    #[inline]
    fn dead_draw(&self) -> bool {
        if self.rules() != Rules::Standard {
            return false;
        }
        let drawn = self.drawn_boards();
        let blocked = |p: Player| LINE_TABLES.touch[usize::from(self.won_boards(p) | drawn)];
        blocked(Player::X) & blocked(Player::O) == u8::MAX
    }

    fn tactical_moves(&self) -> MoveList<Move> {
        completing_moves(self, self.side_to_move())
    }

    fn rule_player_move(&self, rng: &mut Rng) -> Option<Move> {
        let moves = self.legal_moves();
        if moves.is_empty() {
            return None;
        }
        let me = self.side_to_move();
        let pick = |list: &MoveList<Move>, rng: &mut Rng| {
            (!list.is_empty()).then(|| list[rng.below(list.len())])
        };
        pick(&completing_moves(self, me), rng)
            .or_else(|| pick(&completing_moves(self, me.opponent()), rng))
            .or_else(|| pick(&moves, rng))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(moves: &[(u8, u8)]) -> Ultimate {
        let mut pos = Ultimate::new(Rules::Standard);
        for &(b, c) in moves {
            pos = pos.play(Move::new(b, c)).unwrap();
        }
        pos
    }

    #[test]
    fn evaluation_is_symmetric_in_the_sides() {
        // The empty board: both sides alike apart from the side to move.
        let w = Weights::DEFAULT;
        let odds = BoardOdds::new();
        let start = Ultimate::new(Rules::Standard);
        assert_eq!(
            evaluate(&start, &w, &odds),
            (w.0[W_TEMPO] + w.0[W_FREE_MOVE]) / WEIGHT_UNITS
        );
        // X has won board 4 (centre) while O has one stray cell: X is better,
        // seen from either side to move.
        let pos = play(&[(4, 0), (0, 4), (4, 1), (1, 4), (4, 2)]);
        assert_eq!(pos.won_boards(Player::X), 1 << 4);
        assert_eq!(pos.side_to_move(), Player::O);
        assert!(evaluate(&pos, &w, &odds) < -w.0[W_BOARD]);
    }

    #[test]
    fn line_odds_grow_with_won_boards_and_vanish_on_blocked_lines() {
        // Only the line-odds term counts.
        let mut w = Weights([0; WEIGHT_COUNT]);
        w.0[W_LINE_ODDS] = 1000;
        let table = BoardOdds::new();
        let x_view = |pos: &Ultimate| x_score(pos, &w.0, &table);
        assert_eq!(x_view(&Ultimate::new(Rules::Standard)), 0);
        // X wins board 4, the centre of four meta lines.
        let one = play(&[(4, 0), (0, 4), (4, 1), (1, 4), (4, 2)]);
        assert!(x_view(&one) > 0);
        // X wins board 0 as well (after a free move): the 0-4-8 line needs only
        // board 8 now.
        let two = play(&[
            (4, 0),
            (0, 4),
            (4, 1),
            (1, 4),
            (4, 2),
            (2, 0),
            (0, 1),
            (1, 0),
            (0, 2),
            (2, 4),
            (0, 0),
        ]);
        assert_eq!(two.won_boards(Player::X), 0b1_0001);
        assert!(x_view(&two) > x_view(&one) + 100, "{}", x_view(&two));
        // Seen from O, the same position is as bad as it is good for X.
        let swap = |pos: &Ultimate| {
            Ultimate::from_cells(
                Rules::Standard,
                [
                    core::array::from_fn(|b| pos.board_cells(Player::O, b as u8)),
                    core::array::from_fn(|b| pos.board_cells(Player::X, b as u8)),
                ],
                pos.required_board(),
            )
        };
        assert_eq!(x_view(&swap(&two)), -x_view(&two));

        // X holds boards 0 and 1, boards 3 to 8 are drawn: only the top row
        // is open to anybody, and it is worth board 2's odds for X.
        const DRAWN: [u16; 2] = [0b101_100_011, 0b010_011_100];
        let mut cells = [[DRAWN[0]; 9], [DRAWN[1]; 9]];
        cells[0][..3].copy_from_slice(&[0b111, 0b111, 0]);
        cells[1][..3].copy_from_slice(&[0, 0, 0]);
        let open = Ultimate::from_cells(Rules::Standard, cells, None);
        let odds = i32::from(table.of(0, 0)[0]);
        assert_eq!(x_view(&open), 1000 * odds / CERTAIN as i32);
        assert_eq!(x_view(&swap(&open)), -x_view(&open));
        // Board 2 drawn as well: no line is left, and the term is zero.
        cells[0][2] = DRAWN[0];
        cells[1][2] = DRAWN[1];
        assert_eq!(
            x_view(&Ultimate::from_cells(Rules::Standard, cells, None)),
            0
        );
    }

    /// Random games: each position on the way, with the moves played.
    fn random_games(seed: u64, games: usize, rules: Rules) -> alloc::vec::Vec<Ultimate> {
        let mut rng = Rng::new(seed);
        let mut out = alloc::vec::Vec::new();
        for _ in 0..games {
            let mut pos = Ultimate::new(rules);
            while !pos.is_over() {
                out.push(pos);
                let moves = pos.legal_moves();
                pos.play_unchecked(moves[rng.below(moves.len())]);
            }
        }
        out
    }

    #[test]
    fn tactical_moves_are_exactly_the_board_winning_moves() {
        let mut seen = 0;
        for pos in random_games(5, 200, Rules::Standard) {
            let me = pos.side_to_move();
            let tactical = pos.tactical_moves();
            for &m in pos.legal_moves().iter() {
                let after = pos.play(m).unwrap();
                let wins = after.won_boards(me) & !pos.won_boards(me) != 0;
                assert_eq!(tactical.contains(&m), wins, "{pos:?} {m:?}");
                seen += usize::from(wins);
            }
        }
        assert!(seen > 1000, "the sample must hold board wins ({seen})");
    }

    #[test]
    fn frees_opponent_is_a_send_to_a_decided_board() {
        let mut freeing = 0;
        for pos in random_games(7, 300, Rules::Standard) {
            for &m in pos.legal_moves().iter() {
                let after = pos.play(m).unwrap();
                let free = !after.is_over() && after.required_board().is_none();
                let said = pos.frees_opponent(Ultimate::move_index(m));
                // A move that ends the game sends nobody anywhere.
                if !after.is_over() {
                    assert_eq!(said, free, "{pos:?} {m:?}");
                }
                freeing += usize::from(free);
            }
        }
        assert!(
            freeing > 10_000,
            "the sample must hold free moves ({freeing})"
        );
    }

    #[test]
    fn a_dead_draw_cannot_be_won_by_anyone() {
        let mut rng = Rng::new(9);
        let mut dead = 0;
        for pos in random_games(3, 1000, Rules::Standard) {
            if !pos.dead_draw() {
                continue;
            }
            dead += 1;
            for _ in 0..5 {
                let mut p = pos;
                while !p.is_over() {
                    let moves = p.legal_moves();
                    p.play_unchecked(moves[rng.below(moves.len())]);
                    assert!(p.is_over() || p.dead_draw(), "{p:?}");
                }
                assert_eq!(p.outcome(), Some(crate::Outcome::Draw), "{pos:?}");
            }
        }
        assert!(dead > 100, "the sample must hold dead draws ({dead})");
        // Under the tie-break rule the won boards still count.
        assert!(random_games(3, 50, Rules::TieBreak)
            .iter()
            .all(|p| !p.dead_draw()));
        // Early on a line is always open.
        assert!(!Ultimate::new(Rules::Standard).dead_draw());
    }

    #[test]
    fn tutorial_evaluation_counts_lines_of_won_boards() {
        let pos = play(&[(4, 0), (0, 4), (4, 1), (1, 4), (4, 2)]);
        // The centre board lies on four meta lines: 4 * 10 for X, O to move.
        assert_eq!(pos.tutorial_eval(), -40);
    }

    #[test]
    fn rule_player_wins_then_blocks() {
        let mut rng = Rng::new(1);
        // X holds cells 0 and 1 of board 4; O is sent to board 4... make O to
        // move in board 4 with X threatening 2: O must block at 2.
        let pos = play(&[(4, 0), (0, 4), (4, 1), (1, 4)]);
        // X to move, sent to board 4, can win it at cell 2.
        assert_eq!(pos.required_board(), Some(4));
        for seed in 0..20 {
            assert_eq!(
                pos.rule_player_move(&mut Rng::new(seed)),
                Some(Move::new(4, 2))
            );
        }
        let pos = play(&[(4, 0), (0, 4), (4, 1), (1, 3)]);
        // X to move in board 3: nothing to win or block; later O in board 4.
        assert!(pos.rule_player_move(&mut rng).is_some());
        let pos = play(&[(4, 0), (0, 4), (4, 1), (1, 4), (4, 4)]);
        // O to move in board 4, X threatens cell 2 (and 7 via 1-4-7): block one.
        let m = pos.rule_player_move(&mut rng).unwrap();
        assert_eq!(m.board, 4);
        assert!(m.cell == 2 || m.cell == 7 || m.cell == 8, "{m:?}");
    }

    #[test]
    fn the_tie_break_count_weighs_boards_by_the_chance_no_line_is_made() {
        let cube = i64::from(CERTAIN.pow(3));
        // X holds boards 0 and 4, O holds 8, the rest are drawn.
        let mut odds = [[0u32; 2]; 9];
        odds[0] = [CERTAIN, 0];
        odds[4] = [CERTAIN, 0];
        odds[8] = [0, CERTAIN];
        assert_eq!(tie_break_count(&odds, 0, 500), 500);
        // Half the chance, half the weight (less the rounding down).
        assert!((249..=250).contains(&tie_break_count(&odds, cube / 2, 500)));
        assert_eq!(tie_break_count(&odds, cube, 500), 0);
        assert_eq!(tie_break_count(&odds, 3 * cube, 500), 0);
        // An open board counts by its odds: even odds add nothing.
        odds[2] = [100, 100];
        assert_eq!(tie_break_count(&odds, 0, 500), 500);
        odds[2] = [0, CERTAIN];
        assert_eq!(tie_break_count(&odds, 0, 500), 0);
    }

    #[test]
    fn only_the_tie_break_rule_reads_tb_count() {
        let odds = BoardOdds::new();
        let mut without = Weights::DEFAULT;
        without.0[W_TB_COUNT] = 0;
        let mut rng = Rng::new(5);
        let mut differed = 0;
        for _ in 0..10 {
            let mut standard = Ultimate::new(Rules::Standard);
            let mut tie_break = Ultimate::new(Rules::TieBreak);
            while !standard.is_over() {
                let moves = standard.legal_moves();
                let m = moves[rng.below(moves.len())];
                standard.play_unchecked(m);
                tie_break.play_unchecked(m);
                assert_eq!(
                    evaluate(&standard, &Weights::DEFAULT, &odds),
                    evaluate(&standard, &without, &odds)
                );
                if evaluate(&tie_break, &Weights::DEFAULT, &odds)
                    != evaluate(&tie_break, &without, &odds)
                {
                    differed += 1;
                }
            }
        }
        assert!(differed > 20, "tb_count changed {differed} evaluations");
    }
}
