//! The edge a ray leaves through, and the four sides of the board.

use serde::{Deserialize, Serialize};

pub use crate::direction::Direction;

impl Direction {
    /// The side of the board a ray in this direction leaves through.
    pub const fn edge(self) -> Edge {
        match self {
            Direction::Up => Edge::Top,
            Direction::Down => Edge::Bottom,
            Direction::Left => Edge::Left,
            Direction::Right => Edge::Right,
        }
    }
}

/// A side of the board. Two of them, the short ones, carry a goal.
///
/// Written `left`, `right`, `top`, `bottom`.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Edge {
    Left,
    Right,
    Top,
    Bottom,
}

impl Edge {
    pub const ALL: [Edge; 4] = [Edge::Left, Edge::Right, Edge::Top, Edge::Bottom];

    /// The direction a ray takes to leave through this side.
    pub const fn direction(self) -> Direction {
        match self {
            Edge::Left => Direction::Left,
            Edge::Right => Direction::Right,
            Edge::Top => Direction::Up,
            Edge::Bottom => Direction::Down,
        }
    }

    /// The side across the board.
    pub const fn opposite(self) -> Edge {
        match self {
            Edge::Left => Edge::Right,
            Edge::Right => Edge::Left,
            Edge::Top => Edge::Bottom,
            Edge::Bottom => Edge::Top,
        }
    }

    pub const fn as_str(self) -> &'static str {
        match self {
            Edge::Left => "left",
            Edge::Right => "right",
            Edge::Top => "top",
            Edge::Bottom => "bottom",
        }
    }
}

crate::display_and_parse_by_name!(Edge, as_str, |s| format!(
    "{s:?} is not a side: use left, right, top or bottom"
));
