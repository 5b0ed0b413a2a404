//! The distance race of three pawns or more as win chances (RULES.md
//! "Analysis"): what the analysis shows where a two-sided score cannot
//! speak for several opponents.
//!
//! A pawn's *time* is its shortest way to its goal, plus its place in the
//! turn order from the side to move as a share of a round (the pawn to
//! move is a whole round ahead of the one just after the last), less a
//! quarter step per wall in hand; the chances are a softmax of minus the
//! times, one step apart being a factor e. A pawn out of the game has 0.

use super::Quoridor;
use crate::game::{Game, Side};

/// What a wall in hand is worth in the race, in steps.
pub const WALL_WORTH: f64 = 0.25;

/// Each side's chance in the race (they sum to 1; once the game is over,
/// the winner's is 1).
pub fn race_chances(g: &Quoridor) -> Vec<f64> {
    let n = g.sides();
    if let Some(outcome) = g.outcome() {
        return (0..n)
            .map(|s| match outcome.winner() {
                Some(w) => f64::from(u8::from(w.index() == s)),
                None => 1.0 / n as f64,
            })
            .collect();
    }
    let first = g.to_move().map_or(0, |s| s.index());
    let active: Vec<Side> = (0..n)
        .map(|k| Side(((first + k) % n) as u8))
        .filter(|&s| g.pawn(s).is_some())
        .collect();
    let m = active.len().max(1) as f64;
    let mut weight = vec![0.0; n];
    for (k, &s) in active.iter().enumerate() {
        let Some(d) = g.distance(s) else { continue };
        let time = f64::from(d) + k as f64 / m - WALL_WORTH * f64::from(g.walls_left(s));
        weight[s.index()] = (-time).exp();
    }
    let total: f64 = weight.iter().sum();
    if total <= 0.0 {
        return vec![1.0 / n as f64; n];
    }
    weight.iter().map(|w| w / total).collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quoridor::Options;

    fn four() -> Quoridor {
        Quoridor::new(&Options {
            players: 4,
            ..Options::default()
        })
        .unwrap()
    }

    #[test]
    fn at_the_start_the_pawn_to_move_leads_and_the_chances_sum_to_one() {
        let c = race_chances(&four());
        assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-9);
        assert!(c[0] > c[1] && c[1] > c[2] && c[2] > c[3], "{c:?}");
    }

    #[test]
    fn a_pawn_that_runs_ahead_gains_on_one_that_steps_aside() {
        let after = |last: &str| {
            let mut g = four();
            for text in ["e2", "b5", "e8", "h5", last] {
                let mv = g.parse_move(text).unwrap();
                g.play(&mv).unwrap();
            }
            race_chances(&g)
        };
        let (ahead, aside) = (after("e3"), after("d2"));
        assert!(
            ahead[0] > aside[0] && ahead[1] < aside[1],
            "{ahead:?} {aside:?}"
        );
    }
}
