//! Why a move was refused, worded for the player who tried it.

use super::{Cell, Edge, Number};

/// A move CrossyRay's [`play`](crate::game::Game::play) refused. The state is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum PlayError {
    #[error("the game is over")]
    GameOver,
    #[error("{cell} is not on the {width} × {height} board")]
    OffBoard { cell: Cell, width: u8, height: u8 },
    #[error("{cell} is taken: the {number} stands there")]
    Occupied { cell: Cell, number: Number },
    #[error("{cell} is not in a straight line from the current number at {origin}: rays go up, down, left or right")]
    NotInLine { cell: Cell, origin: Cell },
    #[error("{cell} is out of range: the current number is {current}")]
    OutOfRange { cell: Cell, current: Number },
    #[error("the {edge} goal is out of range: the current number is {current}")]
    GoalOutOfRange { edge: Edge, current: Number },
    #[error("that ray is blocked by the {number} at {at}")]
    Blocked { number: Number, at: Cell },
    #[error("there is no goal on the {edge} side: the goals are on the short sides")]
    NoGoalOnSide { edge: Edge },
    #[error("you can only leave the board through a goal")]
    NotThroughGoal { origin: Cell, edge: Edge },
}
