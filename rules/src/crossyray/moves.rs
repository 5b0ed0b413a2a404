//! A move and its notation: the target cell (`e4`) or a goal
//! (`goal:left`, `goal:right`, `goal:top`, `goal:bottom`).

use std::fmt::{self, Display};
use std::str::FromStr;

use super::{Cell, Edge};
use crate::game::NotationError;

/// A CrossyRay move. Serialised as its notation string.
///
/// Reading a move only checks its syntax: whether it is legal here is
/// [`Game::play`](crate::game::Game::play)'s question.
///
/// ```
/// use rules::crossyray::{Cell, Edge, Move};
///
/// assert_eq!("e4".parse::<Move>().unwrap(), Move::Place("e4".parse::<Cell>().unwrap()));
/// assert_eq!("goal:left".parse::<Move>().unwrap(), Move::Goal(Edge::Left));
/// assert_eq!(Move::Goal(Edge::Bottom).to_string(), "goal:bottom");
/// assert!("goal:middle".parse::<Move>().is_err());
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Move {
    /// Place the next number on this cell.
    Place(Cell),
    /// Send the ray out of the board into the goal on this side.
    Goal(Edge),
}

const GOAL_PREFIX: &str = "goal:";

impl Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Move::Place(cell) => write!(f, "{cell}"),
            Move::Goal(edge) => write!(f, "{GOAL_PREFIX}{edge}"),
        }
    }
}

impl FromStr for Move {
    type Err = NotationError;

    fn from_str(s: &str) -> Result<Move, NotationError> {
        match s.strip_prefix(GOAL_PREFIX) {
            Some(side) => side
                .parse()
                .map(Move::Goal)
                .map_err(|why: String| NotationError::new(s, why)),
            None => s.parse().map(Move::Place),
        }
    }
}

crate::serde_as_notation!(Move);
