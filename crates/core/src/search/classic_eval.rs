//! Search support for Classic: its evaluations and the tutorials' rule
//! player (win, block, centre, corner, any).

use super::board_odds::BoardOdds;
use super::rng::Rng;
use super::searchable::{threats, Searchable, LINE_TABLES};
use super::weights::Weights;
use crate::lines::LINE_MASKS;
use crate::{Classic, ClassicMove, Game, Outcome, Player};

/// The tutorials' line count for `p`: +10 per cell of each line holding
/// only `p`'s cells.
fn lines_for(pos: &Classic, p: Player) -> i32 {
    let mine = pos.cells(p);
    let theirs = pos.cells(p.opponent());
    LINE_MASKS
        .iter()
        .filter(|&&l| l & theirs == 0)
        .map(|&l| 10 * (l & mine).count_ones() as i32)
        .sum()
}

impl Searchable for Classic {
    /// Medium's fixed depth must see every line to its end: a reduced move
    /// is searched two plies short and hides the fork it walks into.
    const REDUCE_LATE_MOVES: bool = false;

    #[inline]
    fn move_index(m: ClassicMove) -> u8 {
        m.0
    }

    #[inline]
    fn move_from_index(i: u8) -> ClassicMove {
        ClassicMove(i)
    }

    /// Open twos count most; the search reaches the end of a Classic game
    /// within microseconds anyway, so this only guides the shallow levels.
    fn evaluate(&self, _w: &Weights, _odds: &BoardOdds) -> i32 {
        let me = self.side_to_move();
        let score = |p: Player| {
            let mine = self.cells(p);
            let theirs = self.cells(p.opponent());
            let open = !LINE_TABLES.touch[usize::from(theirs)];
            3 * (LINE_TABLES.one[usize::from(mine)] & open).count_ones() as i32
                + 10 * (LINE_TABLES.two[usize::from(mine)] & open).count_ones() as i32
        };
        score(me) - score(me.opponent())
    }

    fn tutorial_eval(&self) -> i32 {
        let me = self.side_to_move();
        match self.outcome() {
            Some(Outcome::Win(p)) if p == me => 100,
            Some(Outcome::Win(_)) => -100,
            Some(Outcome::Draw) => 0,
            None => lines_for(self, me) - lines_for(self, me.opponent()),
        }
    }

    /// Why Classic has this: every Classic mistake loses within six plies,
    /// the mistake included (`every_classic_mistake_loses_within_six_plies`
    /// checks all positions), and the last two of those plies are a fork's
    /// block and its completion. Scoring the fork as the loss it is lets
    /// Medium's four plies see every trap that six plies of play would
    /// spring; at four plies it used to take them for near-equal moves and
    /// play into them.
    fn faces_a_fork(&self) -> bool {
        let me = self.side_to_move();
        let mine = self.cells(me);
        let theirs = self.cells(me.opponent());
        threats(mine, theirs) == 0 && threats(theirs, mine).count_ones() >= 2
    }

    fn rule_player_move(&self, rng: &mut Rng) -> Option<ClassicMove> {
        if self.is_over() {
            return None;
        }
        let me = self.side_to_move();
        let mine = self.cells(me);
        let theirs = self.cells(me.opponent());
        let empty = !(mine | theirs) & crate::lines::FULL;
        let choices = [
            threats(mine, theirs),
            threats(theirs, mine),
            empty & (1 << 4),
            empty & 0b101_000_101,
            empty,
        ];
        let set = choices.into_iter().find(|&s| s != 0)?;
        // The k-th set bit of `set`, k chosen at random.
        let k = rng.below(set.count_ones() as usize);
        let mut s = set;
        for _ in 0..k {
            s &= s - 1;
        }
        Some(ClassicMove(s.trailing_zeros() as u8))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn play(cells: &[u8]) -> Classic {
        cells
            .iter()
            .fold(Classic::new(), |p, &c| p.play(ClassicMove(c)).unwrap())
    }

    #[test]
    fn rule_player_priorities() {
        let mut rng = Rng::new(3);
        assert_eq!(
            Classic::new().rule_player_move(&mut rng),
            Some(ClassicMove(4))
        );
        // X centre: O takes a corner.
        for seed in 0..10 {
            let m = play(&[4]).rule_player_move(&mut Rng::new(seed)).unwrap();
            assert!([0, 2, 6, 8].contains(&m.0));
        }
        // X 4, O 0, X 8: O must... X threatens nothing yet (0 is O's); X on 4
        // and 8 line 0-4-8 blocked. O to move: no win, no block -> corner.
        // X 0,1 O 4: X to move? ply 3 -> O: block at 2.
        assert_eq!(
            play(&[0, 4, 1]).rule_player_move(&mut rng),
            Some(ClassicMove(2))
        );
        // O can win at 7 (1-4-7) and must prefer it to blocking X at 2.
        assert_eq!(
            play(&[0, 4, 3, 1, 8]).rule_player_move(&mut rng),
            Some(ClassicMove(7))
        );
        assert_eq!(
            play(&[0, 1, 2, 3, 4, 5, 6]).rule_player_move(&mut rng),
            None
        );
    }
}
