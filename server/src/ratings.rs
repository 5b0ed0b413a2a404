//! Glicko-2 ratings per game (Mark Glickman, "Example of the Glicko-2
//! system", 2013), computed with the `skillratings` crate.
//!
//! Each rated game is a rating period of its own for its two players (as
//! on the big chess sites): both are rated from the game's result against
//! the other's rating as it stood before it. Between games a player's
//! deviation grows as if one rating period without games passed each
//! whole day (`φ' = √(φ² + n·σ²)`, at most 350), so a rating that has not
//! been played for months is uncertain again.
//!
//! What is rated, decided by the room (`room/play.rs`): a game with two
//! sides, one signed-in person each (two different accounts), in a room
//! the host marked rated, that ended with a winner or a draw. Games
//! against the computer never are. The computer's levels carry the fixed
//! ratings of [`computer_rating`], for people to compare themselves with.

use serde::{Deserialize, Serialize};
use skillratings::glicko2::{glicko2, Glicko2Config, Glicko2Rating};
use skillratings::Outcomes;

use crate::games::GameKind;
use rules::Level;

/// A new player's rating, deviation and volatility (Glickman's defaults).
pub const START_RATING: f64 = 1500.0;
pub const START_DEVIATION: f64 = 350.0;
pub const START_VOLATILITY: f64 = 0.06;

/// The system constant τ: how much the volatility may change (Glickman
/// suggests 0.3 to 1.2; 0.5 is his example's).
pub const TAU: f64 = 0.5;

/// One rating period without games, for the deviation's growth.
pub const PERIOD_MS: u64 = 24 * 60 * 60 * 1000;

/// The leaderboard lists players with at least this many rated games…
pub const LEADERBOARD_MIN_GAMES: u32 = 5;
/// …whose last rated game is at most this old…
pub const LEADERBOARD_ACTIVE_MS: u64 = 90 * PERIOD_MS;
/// …this many at most.
pub const LEADERBOARD_SIZE: u32 = 100;

/// The Glicko-2 scale factor (400 / ln 10).
const SCALE: f64 = 173.7178;

/// A player's rating at one game.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rating {
    pub rating: f64,
    pub deviation: f64,
    pub volatility: f64,
    /// Rated games played.
    pub games: u32,
    /// When the last rated game ended (Unix ms; 0: never).
    pub last_at: u64,
}

impl Default for Rating {
    fn default() -> Rating {
        Rating {
            rating: START_RATING,
            deviation: START_DEVIATION,
            volatility: START_VOLATILITY,
            games: 0,
            last_at: 0,
        }
    }
}

/// A rating as people see it: whole numbers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct RatingView {
    pub rating: i64,
    pub deviation: i64,
    pub games: u32,
}

impl Rating {
    /// The rating as of `now`: the deviation grown by the whole days
    /// (rating periods) since the last rated game.
    pub fn at(&self, now: u64) -> Rating {
        if self.last_at == 0 || now <= self.last_at {
            return *self;
        }
        let periods = ((now - self.last_at) / PERIOD_MS) as f64;
        let phi = self.deviation / SCALE;
        let grown = (phi * phi + periods * self.volatility * self.volatility).sqrt() * SCALE;
        Rating {
            deviation: grown.min(START_DEVIATION),
            ..*self
        }
    }

    pub fn view(&self, now: u64) -> RatingView {
        let r = self.at(now);
        RatingView {
            rating: r.rating.round() as i64,
            deviation: r.deviation.round() as i64,
            games: r.games,
        }
    }

    fn glicko(&self) -> Glicko2Rating {
        Glicko2Rating {
            rating: self.rating,
            deviation: self.deviation,
            volatility: self.volatility,
        }
    }
}

/// The game's result for the first player: 1 a win, ½ a draw, 0 a loss.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Score {
    Win,
    Draw,
    Loss,
}

/// Both players' ratings after a rated game that ended at `now`, `score`
/// being the first player's result.
pub fn rate(a: &Rating, b: &Rating, score: Score, now: u64) -> (Rating, Rating) {
    let (a0, b0) = (a.at(now), b.at(now));
    let outcome = match score {
        Score::Win => Outcomes::WIN,
        Score::Draw => Outcomes::DRAW,
        Score::Loss => Outcomes::LOSS,
    };
    let config = Glicko2Config {
        tau: TAU,
        ..Glicko2Config::new()
    };
    let (na, nb) = glicko2(&a0.glicko(), &b0.glicko(), &outcome, &config);
    let after = |before: &Rating, new: Glicko2Rating| Rating {
        rating: new.rating,
        deviation: new.deviation,
        volatility: new.volatility,
        games: before.games + 1,
        last_at: now,
    };
    (after(&a0, na), after(&b0, nb))
}

/// The fixed, published rating of the computer at `level` in `game`
/// (docs/PROTOCOL.md, "Profiles and ratings"). Anchored at 900 for
/// Beginner (someone who has just learned the rules); the gaps between
/// levels follow each game's level ladder (BENCHMARKS.md: a score `p`
/// between two levels is a gap of 400·log10(p / (1 − p)), rounded to 50).
/// Games against the computer are not rated, so these never move.
pub fn computer_rating(game: GameKind, level: Level) -> i64 {
    let ladder: [i64; 4] = match game {
        GameKind::Jungle => [900, 1500, 1800, 2100],
        GameKind::Quoridor => [900, 1350, 1700, 1900],
        GameKind::CrossyRay => [900, 1100, 1350, 1550],
    };
    match level {
        Level::Beginner => ladder[0],
        Level::Amateur => ladder[1],
        Level::Professional => ladder[2],
        Level::Master => ladder[3],
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use skillratings::glicko2::glicko2_rating_period;

    fn r(rating: f64, deviation: f64) -> Glicko2Rating {
        Glicko2Rating {
            rating,
            deviation,
            volatility: START_VOLATILITY,
        }
    }

    /// Glickman's worked example ("Example of the Glicko-2 system",
    /// steps 1-8): a 1500 / 200 player beats a 1400 / 30 one and loses to
    /// 1550 / 100 and 1700 / 300 in one period: μ' = −0.2069, φ' =
    /// 0.8722, σ' = 0.05999 on the Glicko-2 scale, which the paper
    /// converts to 1464.06 / 151.52 (the unrounded values are 1464.05 /
    /// 151.52: the paper converts from μ' rounded to four places).
    #[test]
    fn glickmans_worked_example_gives_1464_06_and_151_52() {
        let config = Glicko2Config {
            tau: TAU,
            ..Glicko2Config::new()
        };
        let after = glicko2_rating_period(
            &r(1500.0, 200.0),
            &[
                (r(1400.0, 30.0), Outcomes::WIN),
                (r(1550.0, 100.0), Outcomes::LOSS),
                (r(1700.0, 300.0), Outcomes::LOSS),
            ],
            &config,
        );
        let mu = (after.rating - 1500.0) / SCALE;
        let phi = after.deviation / SCALE;
        assert_eq!(format!("{mu:.4}"), "-0.2069");
        assert_eq!(format!("{phi:.4}"), "0.8722");
        assert!((after.volatility - 0.05999).abs() < 1e-5, "{after:?}");
        // Step 8 of the paper, from its four-place values.
        let paper = |x: f64| (x * 1e4).round() / 1e4 * SCALE;
        assert_eq!(format!("{:.2}", paper(mu) + 1500.0), "1464.06");
        assert_eq!(format!("{:.2}", paper(phi)), "151.52");
        assert!((after.rating - 1464.06).abs() < 0.01, "{after:?}");
        assert!((after.deviation - 151.52).abs() < 0.01, "{after:?}");
    }

    #[test]
    fn a_win_between_new_players_moves_both_by_the_same_amount() {
        let (a, b) = rate(&Rating::default(), &Rating::default(), Score::Win, 5);
        assert_eq!(format!("{:.2}", a.rating), "1662.31");
        assert_eq!(format!("{:.2}", b.rating), "1337.69");
        assert_eq!(format!("{:.2}", a.deviation), "290.32");
        assert_eq!(a.deviation, b.deviation);
        assert_eq!((a.games, b.games, a.last_at), (1, 1, 5));
        // A draw between equals changes no rating, only the deviations.
        let (c, d) = rate(&Rating::default(), &Rating::default(), Score::Draw, 5);
        assert!((c.rating - 1500.0).abs() < 1e-9 && (d.rating - 1500.0).abs() < 1e-9);
        assert!(c.deviation < START_DEVIATION);
        // The first player's loss is the second's win.
        let (e, f) = rate(&Rating::default(), &Rating::default(), Score::Loss, 5);
        assert_eq!((e.rating, f.rating), (b.rating, a.rating));
    }

    #[test]
    fn an_idle_rating_grows_uncertain_day_by_day_up_to_350() {
        let played = Rating {
            rating: 1700.0,
            deviation: 60.0,
            volatility: 0.06,
            games: 40,
            last_at: 1_000,
        };
        assert!((played.at(1_000 + PERIOD_MS - 1).deviation - 60.0).abs() < 1e-9);
        let day = played.at(1_000 + PERIOD_MS).deviation;
        let expected = ((60.0f64 / SCALE).powi(2) + 0.06f64.powi(2)).sqrt() * SCALE;
        assert!((day - expected).abs() < 1e-9, "{day} vs {expected}");
        let year = played.at(1_000 + 365 * PERIOD_MS);
        assert!(year.deviation > 200.0 && year.deviation <= START_DEVIATION);
        assert_eq!(
            played.at(1_000 + 100_000 * PERIOD_MS).deviation,
            START_DEVIATION
        );
        assert_eq!(year.rating, 1700.0);
    }

    #[test]
    fn computer_levels_are_rated_in_order_in_every_game() {
        for game in GameKind::ALL {
            let r: Vec<i64> = Level::ALL
                .iter()
                .map(|&l| computer_rating(game, l))
                .collect();
            assert!(r.windows(2).all(|w| w[0] < w[1]), "{game:?}: {r:?}");
        }
    }
}
