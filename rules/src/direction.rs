//! The four orthogonal directions, shared by the grid games.
//!
//! Up is towards the higher ranks, as on every board here (rank 1 at the
//! bottom). Each game adds what its own board needs in its module:
//! CrossyRay the edge a ray leaves through, Quoridor the bit offset of a
//! step on its bitboard.
//!
//! ```
//! use rules::direction::Direction;
//!
//! assert_eq!(Direction::Up.opposite(), Direction::Down);
//! assert_eq!(Direction::Left.delta(), (-1, 0));
//! assert_eq!(Direction::Up.perpendicular(), [Direction::Left, Direction::Right]);
//! ```

/// One of the four orthogonal directions (never diagonal).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Direction {
    Up,
    Down,
    Left,
    Right,
}

impl Direction {
    /// All four, in the order moves are listed.
    pub const ALL: [Direction; 4] = [
        Direction::Up,
        Direction::Down,
        Direction::Left,
        Direction::Right,
    ];

    /// `(file, rank)` change of one step.
    pub const fn delta(self) -> (i8, i8) {
        match self {
            Direction::Up => (0, 1),
            Direction::Down => (0, -1),
            Direction::Left => (-1, 0),
            Direction::Right => (1, 0),
        }
    }

    pub const fn opposite(self) -> Direction {
        match self {
            Direction::Up => Direction::Down,
            Direction::Down => Direction::Up,
            Direction::Left => Direction::Right,
            Direction::Right => Direction::Left,
        }
    }

    /// The two directions at right angles (Quoridor's diagonal jumps).
    pub const fn perpendicular(self) -> [Direction; 2] {
        match self {
            Direction::Up | Direction::Down => [Direction::Left, Direction::Right],
            Direction::Left | Direction::Right => [Direction::Up, Direction::Down],
        }
    }

    /// The direction a quarter turn to the left (anticlockwise).
    pub const fn left_hand(self) -> Direction {
        match self {
            Direction::Up => Direction::Left,
            Direction::Left => Direction::Down,
            Direction::Down => Direction::Right,
            Direction::Right => Direction::Up,
        }
    }
}
