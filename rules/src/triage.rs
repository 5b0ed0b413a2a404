//! One ply of the real rules before any search, for every game's bot: a
//! move that wins at once is played at once, and a move that lets the
//! opponent win at once is played only when every move does.
//!
//! ```
//! use rules::crossyray::{CrossyRay, Options};
//! use rules::game::Game;
//! use rules::triage::two_sided;
//!
//! let mut game = CrossyRay::new(&Options::default()).unwrap();
//! for text in ["f4", "h4"] {
//!     game.play(&text.parse().unwrap()).unwrap();
//! }
//! // The 3 on h4 reaches the right goal, which side 0 attacks.
//! assert_eq!(two_sided(&game).win.unwrap().to_string(), "goal:right");
//! ```

use crate::game::Game;
use crate::rng::Rng;

/// The legal moves sorted by what one ply says.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Triage<M> {
    /// A move that wins at once (then `safe` is empty).
    pub win: Option<M>,
    /// The moves after which no opponent can win with its next move; every
    /// legal move when none is (empty only once the game is over).
    pub safe: Vec<M>,
}

/// Sorts the moves of the side to move in a game where the sides take
/// turns in pairs (any game, for the side after the mover): a move is
/// safe unless some reply of the next side wins for it. A draw is safe.
pub fn two_sided<G: Game>(game: &G) -> Triage<G::Move> {
    let Some(me) = game.to_move() else {
        return Triage {
            win: None,
            safe: Vec::new(),
        };
    };
    let legal = game.legal_moves();
    let mut safe = Vec::new();
    for mv in &legal {
        let mut after = game.clone();
        after.play(mv).expect("a legal move");
        match after.outcome() {
            Some(o) if o.winner() == Some(me) => {
                return Triage {
                    win: Some(mv.clone()),
                    safe: Vec::new(),
                };
            }
            Some(_) => safe.push(mv.clone()), // a draw: not a loss
            None => {
                let loses = after.legal_moves().iter().any(|reply| {
                    let mut next = after.clone();
                    next.play(reply).expect("a legal reply");
                    next.outcome()
                        .is_some_and(|o| o.winner().is_some_and(|w| w != me))
                });
                if !loses {
                    safe.push(mv.clone());
                }
            }
        }
    }
    Triage {
        win: None,
        safe: if safe.is_empty() { legal } else { safe },
    }
}

/// What a bot does after the triage, before any search.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Decision<M> {
    /// The game is over: no move.
    Over,
    /// This move, without a search: a win at once, the only safe move, or
    /// a weaker level's random mistake.
    Play(M),
    /// Search these moves (two or more).
    Search(Vec<M>),
}

impl<M> Decision<M> {
    /// A bot's answer: nothing once the game is over, the move without a
    /// search when it is decided, else the move `search` finds among the
    /// candidates with what it found.
    pub fn then_search<R>(self, search: impl FnOnce(Vec<M>) -> (M, R)) -> Option<(M, Option<R>)> {
        match self {
            Decision::Over => None,
            Decision::Play(mv) => Some((mv, None)),
            Decision::Search(moves) => {
                let (mv, found) = search(moves);
                Some((mv, Some(found)))
            }
        }
    }
}

impl<M: Clone> Triage<M> {
    /// The win if there is one, the only safe move if there is one, a
    /// random safe move with probability `blunder`, else a search of the
    /// safe moves.
    pub fn decide(self, blunder: f64, rng: &mut Rng) -> Decision<M> {
        if let Some(win) = self.win {
            return Decision::Play(win);
        }
        match self.safe.len() {
            0 => Decision::Over,
            1 => Decision::Play(self.safe[0].clone()),
            n if rng.chance(blunder) => Decision::Play(self.safe[rng.below(n)].clone()),
            _ => Decision::Search(self.safe),
        }
    }
}
