//! The search's score as chances a player understands: how often the side
//! to move wins, draws and loses from a position the engine scores so.
//!
//! The mapping is fitted to the engine's own self-play (`uttt calibrate`
//! plays the games and fits it; the note of issue 23 records the games and
//! the fit). With `z = score / scale` and a draw margin `c`:
//!
//! ```text
//! P(win)  = σ(z - c)        P(loss) = σ(-z - c)        P(draw) = the rest
//! ```
//!
//! where σ is the logistic function. `scale` and `c` move linearly with the
//! game's progress (the ply over the game's length): late in a game the
//! same score decides more, and an even position is likelier drawn. A
//! proven result is certain.

use super::eval::Eval;
use crate::Rules;

/// The fitted constants of one rule set: the scale and the draw margin at
/// the start of the game and how much each has moved by its last ply.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinModel {
    /// Evaluation units per logistic unit at ply 0.
    pub scale: f64,
    /// The change of `scale` from ply 0 to the game's last ply.
    pub scale_slope: f64,
    /// The draw margin at ply 0, in logistic units.
    pub draw: f64,
    /// The change of the draw margin from ply 0 to the last ply.
    pub draw_slope: f64,
}

/// The smallest scale and draw margin the model uses, so that a fitted
/// slope can never make them zero or negative.
const MIN_SCALE: f64 = 10.0;
const MIN_DRAW: f64 = 0.01;

impl WinModel {
    /// Fitted by `uttt calibrate --games 600 --nodes 100000 --seed 1
    /// --threads 2`: 26,391 positions of 600 self-play games of Hard.
    pub const STANDARD: WinModel = WinModel {
        scale: 54.2,
        scale_slope: -28.6,
        draw: 0.846,
        draw_slope: 3.688,
    };

    /// Fitted by `uttt calibrate --rules tiebreak --games 600 --nodes 100000
    /// --seed 2 --threads 2`: 24,222 positions of 600 self-play games.
    pub const TIE_BREAK: WinModel = WinModel {
        scale: 47.0,
        scale_slope: -15.6,
        draw: 0.200,
        draw_slope: 2.320,
    };

    /// The model in use for a rule set.
    #[must_use]
    pub const fn for_rules(rules: Rules) -> WinModel {
        match rules {
            Rules::Standard => WinModel::STANDARD,
            Rules::TieBreak => WinModel::TIE_BREAK,
        }
    }

    /// The chances of a position the engine scores `score` (in evaluation
    /// units, for the side to move, not a proven result) at `progress`, the
    /// share of the game's plies already played (0 to 1).
    #[must_use]
    pub fn chances(&self, score: f64, progress: f64) -> WinChance {
        let t = progress.clamp(0.0, 1.0);
        let scale = (self.scale + self.scale_slope * t).max(MIN_SCALE);
        let draw = (self.draw + self.draw_slope * t).max(MIN_DRAW);
        let z = score / scale;
        let win = logistic(z - draw);
        let loss = logistic(-z - draw);
        WinChance {
            win,
            draw: (1.0 - win - loss).max(0.0),
            loss,
        }
    }
}

/// The chances of the side to move, each from 0 to 1, summing to 1.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct WinChance {
    /// It wins.
    pub win: f64,
    /// The game is drawn.
    pub draw: f64,
    /// It loses.
    pub loss: f64,
}

impl WinChance {
    /// The chances of the side to move in a position scored `score` after
    /// `ply` of a game that lasts at most `max_plies`, under `rules`.
    #[must_use]
    pub fn of(score: Eval, ply: usize, max_plies: usize, rules: Rules) -> WinChance {
        match score.mate_in() {
            Some(n) if n > 0 => WinChance::CERTAIN_WIN,
            Some(_) => WinChance::CERTAIN_WIN.flip(),
            None => {
                let progress = ply as f64 / max_plies.max(1) as f64;
                WinModel::for_rules(rules).chances(f64::from(score.0), progress)
            }
        }
    }

    /// A won game.
    pub const CERTAIN_WIN: WinChance = WinChance {
        win: 1.0,
        draw: 0.0,
        loss: 0.0,
    };

    /// The same chances seen by the other side.
    #[must_use]
    pub const fn flip(self) -> WinChance {
        WinChance {
            win: self.loss,
            draw: self.draw,
            loss: self.win,
        }
    }

    /// The expected score, a win counting 1 and a draw 1/2: what a move's
    /// loss of "win chance" is measured in.
    #[must_use]
    pub fn expected(&self) -> f64 {
        self.win + self.draw / 2.0
    }
}

/// σ(x) = 1 / (1 + e^-x), with `core`'s arithmetic only. Not inlined: the
/// wasm keeps one copy.
#[inline(never)]
fn logistic(x: f64) -> f64 {
    // e^-|x| never overflows; σ(-x) = 1 - σ(x) = e^-x / (1 + e^-x).
    let e = exp_neg(x.abs());
    if x >= 0.0 {
        1.0 / (1.0 + e)
    } else {
        e / (1.0 + e)
    }
}

/// e^-x for x >= 0, to about 1e-15 relative (`core` has no `f64::exp`):
/// x = k ln 2 + r with |r| <= ln 2 / 2, e^-r by 14 terms of its Taylor
/// series (the next is below 1e-17), times 2^-k built from its bits. Beyond
/// x = 700 the result is below any chance shown.
fn exp_neg(x: f64) -> f64 {
    const LN_2: f64 = core::f64::consts::LN_2;
    if x > 700.0 {
        return 0.0;
    }
    let k = (x / LN_2 + 0.5) as u64;
    let r = x - k as f64 * LN_2;
    let (mut term, mut sum) = (1.0, 1.0);
    let mut i = 1.0;
    while i < 15.0 {
        term *= -r / i;
        sum += term;
        i += 1.0;
    }
    // 2^-k for k <= 1010: the exponent field alone, no loop.
    sum * f64::from_bits((1023 - k) << 52)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_exponential_matches_the_standard_library() {
        for i in 0..2000 {
            let x = f64::from(i) * 0.05;
            let want = (-x).exp();
            assert!((exp_neg(x) - want).abs() <= 1e-13 * want.max(1e-300), "{x}");
        }
        assert_eq!(exp_neg(1000.0), 0.0);
    }

    #[test]
    fn chances_sum_to_one_and_grow_with_the_score() {
        let mut last_win = 0.0;
        for rules in [Rules::Standard, Rules::TieBreak] {
            for s in (-3000..=3000).step_by(50) {
                let c = WinChance::of(Eval(s), 40, 81, rules);
                assert!((c.win + c.draw + c.loss - 1.0).abs() < 1e-9);
                assert!(c.win >= 0.0 && c.draw >= 0.0 && c.loss >= 0.0);
                if s > -3000 {
                    assert!(c.win >= last_win, "{s}");
                }
                last_win = c.win;
                let mirrored = WinChance::of(Eval(-s), 40, 81, rules).flip();
                assert!((mirrored.win - c.win).abs() < 1e-12);
            }
            last_win = 0.0;
        }
    }

    #[test]
    fn proven_results_are_certain() {
        let r = Rules::Standard;
        assert_eq!(
            WinChance::of(Eval::win_in(3), 50, 81, r),
            WinChance::CERTAIN_WIN
        );
        assert_eq!(WinChance::of(Eval::loss_in(4), 50, 81, r).loss, 1.0);
        let even = WinChance::of(Eval::DRAW, 0, 81, r);
        assert!((even.win - even.loss).abs() < 1e-12);
        assert!((even.expected() - 0.5).abs() < 1e-12);
    }
}
