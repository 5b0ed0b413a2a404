//! A move of whichever game a room plays, typed: read from its text once,
//! at the edge (a command, a stored log, an imported text), then carried
//! through the server as the rules crate's own move and written back as
//! text only where it leaves (the wire, the store, an export).

use std::fmt;

use rules::game::NotationError;
use rules::{crossyray, jungle, quoridor};

use super::GameKind;

/// One move of one of the games, as its rules type it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum AnyMove {
    CrossyRay(crossyray::Move),
    Quoridor(quoridor::Move),
    Jungle(jungle::Move),
}

impl AnyMove {
    /// The game this is a move of.
    pub fn kind(&self) -> GameKind {
        match self {
            AnyMove::CrossyRay(_) => GameKind::CrossyRay,
            AnyMove::Quoridor(_) => GameKind::Quoridor,
            AnyMove::Jungle(_) => GameKind::Jungle,
        }
    }
}

/// The game's own notation (RULES.md), as stored and sent.
impl fmt::Display for AnyMove {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AnyMove::CrossyRay(m) => m.fmt(f),
            AnyMove::Quoridor(m) => m.fmt(f),
            AnyMove::Jungle(m) => m.fmt(f),
        }
    }
}

/// Why a move was refused, typed up to the edge where it becomes the
/// protocol's `illegal_move` (as shakmaty's `PlayError`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("{0}")]
    Notation(#[from] NotationError),
    #[error("{0}")]
    CrossyRay(#[from] crossyray::PlayError),
    #[error("{0}")]
    Quoridor(#[from] quoridor::PlayError),
    #[error("{0}")]
    Jungle(#[from] jungle::PlayError),
    /// A move of another game than the one played (a bug of the caller:
    /// moves are read in the position they are played in).
    #[error("a {mv} move in a game of {game}")]
    OtherGame { game: GameKind, mv: GameKind },
}
