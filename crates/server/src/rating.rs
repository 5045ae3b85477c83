//! Ratings: Glicko-2 (Glickman, "Example of the Glicko-2 system", 2013),
//! computed by the `skillratings` crate, one rating per performance.
//!
//! - **A performance** is a game, its rules and its speed: Ultimate with
//!   standard rules, Ultimate with the tie-break, and Classic each have
//!   their own ratings at each speed (`Perf`).
//! - **The speed** comes from the clock's expected length, as lichess does
//!   it: the initial time plus `MOVES_EXPECTED` times the increment (a
//!   player makes about 25 moves in an Ultimate game): bullet under 3
//!   minutes, blitz under 8, rapid under 25, classical from there, and
//!   correspondence for games without a clock.
//! - **New players** start at 1500, RD 350, volatility 0.06 (Glickman's
//!   defaults). **τ is 0.75**, lichess's choice: Glickman advises 0.3 to 1.2,
//!   smaller for steadier games; players here improve quickly in a young
//!   game, so volatility may move more than the paper's example (τ = 0.5).
//! - **Each rated game is one rating period** for both players: it is rated
//!   at once, not collected. Time away widens the RD before the game as
//!   Glicko-2 does between periods, φ' = √(φ² + σ² t), with t the days away
//!   divided by `DAYS_PER_PERIOD` (lichess's 4.67 days a period), capped at
//!   350.
//! - **Provisional** while the RD is 110 or more: shown so, and kept off the
//!   leaderboards.

use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;
use uttt_protocol::{ClockSetting, Kind, RuleSet};

/// Moves a player is expected to make in a game, for its speed.
pub const MOVES_EXPECTED: u32 = 25;
/// Days of absence that widen the RD as one rating period without games.
pub const DAYS_PER_PERIOD: f64 = 4.67;
/// The RD from which a rating is provisional.
pub const PROVISIONAL_RD: f64 = 110.0;
/// τ, the system constant that limits how fast volatility moves.
pub const TAU: f64 = 0.75;
/// The Glicko-2 scale factor (Glickman's 173.7178).
const SCALE: f64 = 173.7178;
/// The greatest RD, a new player's.
const MAX_RD: f64 = 350.0;
const DAY_MS: f64 = 86_400_000.0;

/// How long a game with a clock is expected to last.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum Speed {
    /// Expected under 3 minutes.
    Bullet,
    /// Under 8 minutes.
    Blitz,
    /// Under 25 minutes.
    Rapid,
    /// 25 minutes or more.
    Classical,
    /// No clock: over days.
    Correspondence,
}

impl Speed {
    /// The speed of a game with `clock` (none: correspondence).
    #[must_use]
    pub fn of(clock: Option<ClockSetting>) -> Speed {
        let Some(clock) = clock else {
            return Speed::Correspondence;
        };
        match clock.initial + MOVES_EXPECTED * clock.increment {
            0..180 => Speed::Bullet,
            180..480 => Speed::Blitz,
            480..1500 => Speed::Rapid,
            _ => Speed::Classical,
        }
    }

    fn name(self) -> &'static str {
        match self {
            Speed::Bullet => "bullet",
            Speed::Blitz => "blitz",
            Speed::Rapid => "rapid",
            Speed::Classical => "classical",
            Speed::Correspondence => "correspondence",
        }
    }
}

/// A performance: what one rating measures.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Perf {
    /// The game.
    pub kind: Kind,
    /// Its rules (always standard for Classic).
    pub rules: RuleSet,
    /// Its speed.
    pub speed: Speed,
}

impl Perf {
    /// The performance of a game of `kind` under `rules` with `clock`.
    #[must_use]
    pub fn of(kind: Kind, rules: RuleSet, clock: Option<ClockSetting>) -> Perf {
        let rules = if kind == Kind::Classic {
            RuleSet::Standard
        } else {
            rules
        };
        Perf {
            kind,
            rules,
            speed: Speed::of(clock),
        }
    }

    /// Its name in the API and the database: `ultimate-blitz`,
    /// `tiebreak-rapid`, `classic-bullet`, ...
    #[must_use]
    pub fn key(self) -> String {
        let game = match (self.kind, self.rules) {
            (Kind::Classic, _) => "classic",
            (Kind::Ultimate, RuleSet::Standard) => "ultimate",
            (Kind::Ultimate, RuleSet::Tiebreak) => "tiebreak",
        };
        format!("{game}-{}", self.speed.name())
    }

    /// Every performance, in the order pages list them.
    #[must_use]
    pub fn all() -> Vec<Perf> {
        let games = [
            (Kind::Ultimate, RuleSet::Standard),
            (Kind::Ultimate, RuleSet::Tiebreak),
            (Kind::Classic, RuleSet::Standard),
        ];
        let speeds = [
            Speed::Bullet,
            Speed::Blitz,
            Speed::Rapid,
            Speed::Classical,
            Speed::Correspondence,
        ];
        games
            .iter()
            .flat_map(|&(kind, rules)| speeds.iter().map(move |&speed| Perf { kind, rules, speed }))
            .collect()
    }

    /// The performance named `key`, if there is one.
    #[must_use]
    pub fn from_key(key: &str) -> Option<Perf> {
        Perf::all().into_iter().find(|p| p.key() == key)
    }
}

/// One player's rating in one performance.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    /// The rating (Glicko scale).
    pub rating: f64,
    /// Its deviation, RD.
    pub rd: f64,
    /// Its volatility, σ.
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
    /// When the last rated game ended (ms since the epoch); none before.
    pub last_ms: Option<u64>,
}

/// A game's result for the first player.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    /// The first player won.
    Win,
    /// Drawn.
    Draw,
    /// The first player lost.
    Loss,
}

impl Score {
    fn outcome(self) -> Outcomes {
        match self {
            Score::Win => Outcomes::WIN,
            Score::Draw => Outcomes::DRAW,
            Score::Loss => Outcomes::LOSS,
        }
    }
}

impl Rating {
    /// A new player's rating: 1500, RD 350, volatility 0.06.
    pub const NEW: Rating = Rating {
        rating: 1500.0,
        rd: MAX_RD,
        volatility: 0.06,
        games: 0,
        last_ms: None,
    };

    /// Whether the rating is still provisional (RD 110 or more).
    #[must_use]
    pub fn provisional(&self) -> bool {
        self.rd >= PROVISIONAL_RD
    }

    /// The rating as it stands at `now_ms`: its RD widened for the time
    /// since the last rated game.
    #[must_use]
    pub fn at(&self, now_ms: u64) -> Rating {
        let Some(last) = self.last_ms else {
            return *self;
        };
        let periods = now_ms.saturating_sub(last) as f64 / DAY_MS / DAYS_PER_PERIOD;
        let phi = self.rd / SCALE;
        let widened = (phi * phi + self.volatility * self.volatility * periods).sqrt() * SCALE;
        Rating {
            rd: widened.min(MAX_RD),
            ..*self
        }
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.rd,
            volatility: self.volatility,
        }
    }

    fn after(&self, rated: Glicko2Rating, now_ms: u64) -> Rating {
        Rating {
            rating: rated.rating,
            rd: rated.deviation,
            volatility: rated.volatility,
            games: self.games + 1,
            last_ms: Some(now_ms),
        }
    }
}

fn config() -> Glicko2Config {
    Glicko2Config {
        tau: TAU,
        ..Glicko2Config::default()
    }
}

/// Both players' ratings after a game that ended at `now_ms` with `score`
/// for the first: one rating period each, from their ratings as they stand
/// then.
#[must_use]
pub fn rate(first: &Rating, second: &Rating, score: Score, now_ms: u64) -> (Rating, Rating) {
    let (a, b) = (first.at(now_ms), second.at(now_ms));
    let (new_a, new_b) = glicko2(&a.glicko(), &b.glicko(), &score.outcome(), &config());
    (a.after(new_a, now_ms), b.after(new_b, now_ms))
}

/// What a win, a draw and a loss would change `first`'s rating by against
/// `second`, rounded as shown before a game.
#[must_use]
pub fn stakes(first: &Rating, second: &Rating, now_ms: u64) -> [i32; 3] {
    [Score::Win, Score::Draw, Score::Loss].map(|score| {
        let (after, _) = rate(first, second, score, now_ms);
        // Ratings stay within a few thousand points: the rounding fits.
        #[allow(clippy::cast_possible_truncation)]
        let change = (after.rating.round() - first.rating.round()) as i32;
        change
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    fn clock(initial: u32, increment: u32) -> Option<ClockSetting> {
        Some(ClockSetting { initial, increment })
    }

    #[test]
    fn the_papers_worked_example() {
        // Glickman (2013), section "Example": τ = 0.5 there.
        let player = Glicko2Rating {
            rating: 1500.0,
            deviation: 200.0,
            volatility: 0.06,
        };
        let opponent = |rating, deviation| Glicko2Rating {
            rating,
            deviation,
            volatility: 0.06,
        };
        let games = [
            (opponent(1400.0, 30.0), Outcomes::WIN),
            (opponent(1550.0, 100.0), Outcomes::LOSS),
            (opponent(1700.0, 300.0), Outcomes::LOSS),
        ];
        let config = Glicko2Config {
            tau: 0.5,
            ..Glicko2Config::default()
        };
        let new = glicko2_rating_period(&player, &games, &config);
        // The paper rounds its intermediate steps: 1464.06, 151.52, 0.05999.
        assert!((new.rating - 1464.06).abs() < 0.02, "{}", new.rating);
        assert!((new.deviation - 151.52).abs() < 0.01, "{}", new.deviation);
        assert!(
            (new.volatility - 0.05999).abs() < 0.00001,
            "{}",
            new.volatility
        );
    }

    #[test]
    fn speeds_follow_the_expected_length() {
        assert_eq!(Speed::of(clock(60, 1)), Speed::Bullet);
        assert_eq!(Speed::of(clock(180, 2)), Speed::Blitz);
        assert_eq!(Speed::of(clock(300, 0)), Speed::Blitz);
        assert_eq!(Speed::of(clock(600, 5)), Speed::Rapid);
        assert_eq!(Speed::of(clock(1800, 0)), Speed::Classical);
        assert_eq!(Speed::of(clock(179, 0)), Speed::Bullet);
        assert_eq!(Speed::of(clock(155, 1)), Speed::Blitz);
        assert_eq!(Speed::of(None), Speed::Correspondence);
    }

    #[test]
    fn each_game_rules_and_speed_has_its_own_name() {
        let all = Perf::all();
        assert_eq!(all.len(), 15);
        for perf in &all {
            assert_eq!(Perf::from_key(&perf.key()), Some(*perf));
        }
        let blitz = clock(180, 2);
        assert_eq!(
            Perf::of(Kind::Ultimate, RuleSet::Standard, blitz).key(),
            "ultimate-blitz"
        );
        assert_eq!(
            Perf::of(Kind::Ultimate, RuleSet::Tiebreak, blitz).key(),
            "tiebreak-blitz"
        );
        // Classic has one rule set, whatever a room says.
        assert_eq!(
            Perf::of(Kind::Classic, RuleSet::Tiebreak, None).key(),
            "classic-correspondence"
        );
        assert_eq!(Perf::from_key("chess-blitz"), None);
    }

    #[test]
    fn a_game_moves_both_ratings_and_narrows_their_deviation() {
        let now = 1_000_000;
        let (winner, loser) = rate(&Rating::NEW, &Rating::NEW, Score::Win, now);
        assert!(winner.rating > 1500.0 && loser.rating < 1500.0);
        assert!((winner.rating - 1500.0 - (1500.0 - loser.rating)).abs() < 1e-9);
        assert!(winner.rd < 350.0 && winner.provisional());
        assert_eq!((winner.games, winner.last_ms), (1, Some(now)));
        let (a, b) = rate(&Rating::NEW, &Rating::NEW, Score::Draw, now);
        assert!((a.rating - 1500.0).abs() < 1e-9 && (b.rating - 1500.0).abs() < 1e-9);
    }

    #[test]
    fn time_away_widens_the_deviation_up_to_a_new_players() {
        let settled = Rating {
            rating: 1800.0,
            rd: 60.0,
            volatility: 0.06,
            games: 40,
            last_ms: Some(0),
        };
        assert!((settled.at(0).rd - 60.0).abs() < 1e-9);
        let month = settled.at(30 * 86_400_000).rd;
        let year = settled.at(365 * 86_400_000).rd;
        assert!(
            60.0 < month && month < year && year <= 350.0,
            "{month} {year}"
        );
        assert!(!settled.provisional());
        assert_eq!(settled.at(50 * 365 * 86_400_000).rd, 350.0);
    }

    #[test]
    fn the_stakes_before_a_game_are_what_the_game_then_changes() {
        let strong = Rating {
            rating: 1900.0,
            rd: 80.0,
            ..Rating::NEW
        };
        let [win, draw, loss] = stakes(&Rating::NEW, &strong, 0);
        assert!(win > 0 && draw > 0 && loss < 0, "{win} {draw} {loss}");
        let (after, _) = rate(&Rating::NEW, &strong, Score::Loss, 0);
        assert_eq!(loss, (after.rating.round() - 1500.0) as i32);
    }

    #[test]
    fn ratings_agree_with_an_independent_implementation() {
        let players = [
            Rating::NEW,
            Rating {
                rating: 1720.0,
                rd: 95.0,
                volatility: 0.059,
                games: 30,
                last_ms: Some(0),
            },
            Rating {
                rating: 1310.0,
                rd: 180.0,
                volatility: 0.07,
                games: 4,
                last_ms: Some(0),
            },
        ];
        let other = |r: &Rating| glicko2::Glicko2Rating {
            value: (r.rating - 1500.0) / SCALE,
            deviation: r.rd / SCALE,
            volatility: r.volatility,
        };
        for a in &players {
            for b in &players {
                for (score, result) in [
                    (Score::Win, glicko2::GameResult::win(other(b))),
                    (Score::Draw, glicko2::GameResult::draw(other(b))),
                    (Score::Loss, glicko2::GameResult::loss(other(b))),
                ] {
                    let (ours, _) = rate(a, b, score, 0);
                    let theirs: glicko2::GlickoRating =
                        glicko2::new_rating(other(a), &[result], TAU).into();
                    assert!(
                        (ours.rating - theirs.value).abs() < 0.01,
                        "{a:?} {b:?} {score:?}"
                    );
                    assert!(
                        (ours.rd - theirs.deviation).abs() < 0.01,
                        "{a:?} {b:?} {score:?}"
                    );
                }
            }
        }
    }
}
