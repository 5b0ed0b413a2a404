//! The computer as a coach: every game's engine judging a position as a
//! win chance for each side, and the grading of a move by how much of its
//! player's chance it gave away (RULES.md "Analysis").
//!
//! A position is judged by the Master search with the time it is given:
//! its score, from the side to move, becomes a chance through a logistic
//! curve of the game's own scale ([`Coach::SCALE`]: a score of one scale
//! is a 73 % chance), a forced result ([`Coach::WIN_BOUND`]) is 100 % or
//! 0 %. Where the engine needs no search (a win at once, the only safe
//! move) the position is judged by the one after that move. Quoridor with
//! three pawns or more is judged by its distance race
//! ([`crate::quoridor::Quoridor`]'s [`Coach::race`]): a best-reply score is
//! no chance for several opponents at once.
//!
//! ```
//! use std::time::Duration;
//! use rules::coach::{assess, grade, Grade};
//! use rules::game::Game;
//! use rules::jungle::Jungle;
//!
//! let game = Jungle::new(&Default::default()).unwrap();
//! let a = assess(&game, Duration::from_millis(20), None).unwrap();
//! assert!(a.best.is_some() && (a.chances[0] + a.chances[1] - 1.0).abs() < 1e-9);
//! assert_eq!(grade(0.25), Some(Grade::Mistake));
//! ```

use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde::Serialize;

use crate::game::{Outcome, Side};
use crate::level::{Engine, Level, Think};

/// What a game's engine says about a position.
#[derive(Clone, Debug, PartialEq)]
pub struct Assessment<M> {
    /// The engine's move for the side to move (`None` once over).
    pub best: Option<M>,
    /// Each side's win chance, 0 to 1 (a side out of the game has 0),
    /// the side to move playing the engine's move.
    pub chances: Vec<f64>,
    /// Each side's chance as the position stands, before the side to move
    /// moves: what the previous move left, to grade it by. The same as
    /// `chances` wherever a search judges (its score looks ahead); the
    /// race of 3+ pawns as it stands.
    pub standing: Vec<f64>,
    /// The search's score from the side to move (`None` without one: a
    /// decided position, the end, or the race of 3+ pawns).
    pub score: Option<i32>,
    /// The depth that score was searched to (0 without a search).
    pub depth: u32,
}

/// A game whose engine can judge positions.
pub trait Coach: Engine {
    /// The score worth a 73 % chance (logit 1), in the search's units.
    const SCALE: f64;
    /// Scores at least this large (in absolute value) are forced results.
    const WIN_BOUND: i32;
    /// The score and depth a search found, from the side to move.
    fn found(found: &Self::Found) -> (i32, u32);
    /// Each side's chance by the game's own race, where a two-sided score
    /// does not judge the position (Quoridor with 3+ pawns); `None` else.
    fn race(&self) -> Option<Vec<f64>> {
        None
    }
    /// Whether `side` is still in the game (in Quoridor with 3+ pawns a
    /// side that left has no pawn): a side out of it has chance 0.
    fn in_game(&self, _side: Side) -> bool {
        true
    }
}

/// How far [`assess`] follows positions the engine decides without a
/// search before it calls the game even.
const FOLLOW: u32 = 4;

/// Judges `game` with a Master search of `budget`; `None` when `cancel`
/// was set meanwhile (the caller judges it again later).
pub fn assess<G: Coach>(
    game: &G,
    budget: Duration,
    cancel: Option<&AtomicBool>,
) -> Option<Assessment<G::Move>> {
    static NEVER: AtomicBool = AtomicBool::new(false);
    judge(game, budget, cancel.unwrap_or(&NEVER), FOLLOW)
}

fn judge<G: Coach>(
    game: &G,
    budget: Duration,
    cancel: &AtomicBool,
    follow: u32,
) -> Option<Assessment<G::Move>> {
    let n = game.sides();
    let Some(me) = game.to_move() else {
        return Some(Assessment::settled(
            None,
            final_chances(game, game.outcome()),
            None,
            0,
        ));
    };
    let think = Think {
        level: Level::Master,
        budget,
        cancel,
        seed: 1,
    };
    let analysed = game.analyse(&think);
    if cancel.load(Ordering::Relaxed) {
        return None;
    }
    let Some((best, found)) = analysed else {
        return Some(Assessment::settled(
            None,
            final_chances(game, game.outcome()),
            None,
            0,
        ));
    };
    let mut after = game.clone();
    let wins_now =
        after.play(&best).is_ok() && after.outcome().and_then(Outcome::winner) == Some(me);
    if wins_now {
        return Some(Assessment::settled(Some(best), one_side(me, n), None, 0));
    }
    if let (Some(standing), Some(chances)) = (game.race(), after.race()) {
        // The race after the engine's move, so that its move drops nothing.
        return Some(Assessment {
            best: Some(best),
            chances,
            standing,
            score: None,
            depth: 0,
        });
    }
    let (mine, score, depth) = match found {
        Some(found) => {
            let (score, depth) = G::found(&found);
            (chance::<G>(score), Some(score), depth)
        }
        // The only safe move: the position is what it leads to.
        None if follow > 0 => {
            let next = judge(&after, budget, cancel, follow - 1)?;
            (next.chances[me.index()], None, 0)
        }
        None => (0.5, None, 0),
    };
    Some(Assessment::settled(
        Some(best),
        two_sided(game, me, mine),
        score,
        depth,
    ))
}

impl<M> Assessment<M> {
    /// Judged with the position's value as it stands.
    fn settled(best: Option<M>, chances: Vec<f64>, score: Option<i32>, depth: u32) -> Self {
        Assessment {
            best,
            standing: chances.clone(),
            chances,
            score,
            depth,
        }
    }
}

/// The side to move's chance for a search score.
pub fn chance<G: Coach>(score: i32) -> f64 {
    if score >= G::WIN_BOUND {
        1.0
    } else if score <= -G::WIN_BOUND {
        0.0
    } else {
        1.0 / (1.0 + (-f64::from(score) / G::SCALE).exp())
    }
}

/// `mine` for `me`, the rest shared by the others.
/// `mine` for `me`, the rest shared by the other sides still in the game
/// (the two-sided search's opponent, when the others have left).
fn two_sided<G: Coach>(game: &G, me: Side, mine: f64) -> Vec<f64> {
    let n = game.sides();
    let others = (0..n)
        .filter(|&s| s != me.index() && game.in_game(Side(s as u8)))
        .count();
    let rest = (1.0 - mine) / others.max(1) as f64;
    (0..n)
        .map(|s| {
            if s == me.index() {
                mine
            } else if game.in_game(Side(s as u8)) {
                rest
            } else {
                0.0
            }
        })
        .collect()
}

fn one_side(side: Side, n: usize) -> Vec<f64> {
    (0..n)
        .map(|s| if s == side.index() { 1.0 } else { 0.0 })
        .collect()
}

/// The chances once the game is over: the winner's 1, a draw or an
/// aborted game even among the sides still in it.
fn final_chances<G: Coach>(game: &G, outcome: Option<&Outcome>) -> Vec<f64> {
    let n = game.sides();
    if let Some(w) = outcome.and_then(Outcome::winner) {
        return one_side(w, n);
    }
    let in_game: Vec<bool> = (0..n).map(|s| game.in_game(Side(s as u8))).collect();
    let count = in_game.iter().filter(|&&i| i).count();
    if count == 0 {
        return vec![1.0 / n.max(1) as f64; n];
    }
    in_game
        .iter()
        .map(|&i| if i { 1.0 / count as f64 } else { 0.0 })
        .collect()
}

/// How bad a move was, by the drop in its player's win chance.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Grade {
    Inaccuracy,
    Mistake,
    Blunder,
}

/// The drops (in win chance, 0 to 1) from which a move is an inaccuracy,
/// a mistake and a blunder (RULES.md "Analysis").
pub const INACCURACY: f64 = 0.10;
pub const MISTAKE: f64 = 0.20;
pub const BLUNDER: f64 = 0.30;

/// The grade of a move that dropped its player's chance by `drop`.
pub fn grade(drop: f64) -> Option<Grade> {
    if drop >= BLUNDER {
        Some(Grade::Blunder)
    } else if drop >= MISTAKE {
        Some(Grade::Mistake)
    } else if drop >= INACCURACY {
        Some(Grade::Inaccuracy)
    } else {
        None
    }
}

/// A move's accuracy, 0 to 100, from its drop (lichess's curve:
/// 103.1668·e^(−4.354·drop) − 3.1669).
pub fn accuracy(drop: f64) -> f64 {
    (103.1668 * (-4.354 * drop.max(0.0)).exp() - 3.1669).clamp(0.0, 100.0)
}

/// The drop of a move by `side` from the position judged `before` (its
/// `chances`) to the one it left (the next position's `standing`): 0 for the engine's own move, never below 0, at
/// most 1. With `n` sides a fair share is `1/n`, so the fall in chance
/// counts `n/2` times: losing a fair share is losing half the game.
pub fn drop_of(side: Side, before: &[f64], after: &[f64], played_best: bool) -> f64 {
    if played_best {
        return 0.0;
    }
    let at = |c: &[f64]| c.get(side.index()).copied().unwrap_or(0.0);
    let weight = before.len().max(2) as f64 / 2.0;
    ((at(before) - at(after)) * weight).clamp(0.0, 1.0)
}

/// The score of a search that deepens at the root: the mean of its two
/// last depths unless one is a forced result (the parity of the depth,
/// whose side has the last layer, sways a race's score).
fn two_depths(found: &crate::deepening::SearchResult<impl Copy>, win_bound: i32) -> (i32, u32) {
    match found.previous {
        Some(p) if p.abs() < win_bound && found.score.abs() < win_bound => {
            ((p + found.score) / 2, found.depth)
        }
        _ => (found.score, found.depth),
    }
}

impl Coach for crate::crossyray::CrossyRay {
    /// Ten more moves than the opponent (the evaluation's mobility).
    const SCALE: f64 = 100.0;
    const WIN_BOUND: i32 = crate::crossyray::bot::WIN_BOUND;
    fn found(found: &Self::Found) -> (i32, u32) {
        two_depths(found, Self::WIN_BOUND)
    }
}

impl Coach for crate::jungle::Jungle {
    /// Three and a third cat-pawns (a leopard-ish lead).
    const SCALE: f64 = 333.0;
    const WIN_BOUND: i32 = crate::jungle::bot::WIN_BOUND;
    fn found(found: &Self::Found) -> (i32, u32) {
        (found.score, found.depth)
    }
}

impl Coach for crate::quoridor::Quoridor {
    /// One and a half steps of the race.
    const SCALE: f64 = 150.0;
    const WIN_BOUND: i32 = crate::quoridor::bot::WIN_BOUND;
    fn found(found: &Self::Found) -> (i32, u32) {
        two_depths(found, Self::WIN_BOUND)
    }
    fn race(&self) -> Option<Vec<f64>> {
        (self.active_sides().count() >= 3).then(|| crate::quoridor::race_chances(self))
    }
    fn in_game(&self, side: Side) -> bool {
        self.pawn(side).is_some()
    }
}

#[cfg(test)]
mod tests;
