//! The board: its size, the numbers on it, and where its goals are.

use serde::Serialize;

use super::{Cell, Direction, Edge, Number};

/// A `width × height` grid of cells, each empty or holding a number, with
/// a goal outside each short side.
///
/// Serialised (inside [`super::CrossyRay`]) as `width`, `height` and
/// `cells`: `width * height` numbers, row by row from the bottom rank
/// (index `rank * width + file`), 0 for an empty cell.
#[derive(Clone, Debug, PartialEq, Eq, Hash, Serialize)]
pub struct Board {
    width: u8,
    height: u8,
    cells: Vec<u8>,
}

impl Board {
    /// An empty board. The size must have passed
    /// [`super::Options::validate`].
    pub(super) fn empty(width: u8, height: u8) -> Board {
        Board {
            width,
            height,
            cells: vec![0; usize::from(width) * usize::from(height)],
        }
    }

    /// Rebuilds a board from its serialised cells, checking every value.
    pub(super) fn from_cells(width: u8, height: u8, cells: Vec<u8>) -> Result<Board, String> {
        if cells.len() != usize::from(width) * usize::from(height) {
            return Err(format!(
                "a {width} × {height} board has {} cells, not {}",
                usize::from(width) * usize::from(height),
                cells.len()
            ));
        }
        if let Some(bad) = cells.iter().find(|&&n| n != 0 && Number::new(n).is_none()) {
            return Err(format!("{bad} is not a CrossyRay number (1 to 19)"));
        }
        Ok(Board {
            width,
            height,
            cells,
        })
    }

    pub fn width(&self) -> u8 {
        self.width
    }

    pub fn height(&self) -> u8 {
        self.height
    }

    /// Wider than tall: the goals are on the left and right.
    pub fn is_wide(&self) -> bool {
        self.width > self.height
    }

    pub fn contains(&self, cell: Cell) -> bool {
        cell.file() < self.width && cell.rank() < self.height
    }

    fn index(&self, cell: Cell) -> usize {
        usize::from(cell.rank()) * usize::from(self.width) + usize::from(cell.file())
    }

    /// The number standing on `cell`, if any (`None` off the board too).
    pub fn get(&self, cell: Cell) -> Option<Number> {
        if self.contains(cell) {
            Number::new(self.cells[self.index(cell)])
        } else {
            None
        }
    }

    /// Places `number` on `cell` (which must be on the board).
    pub(super) fn set(&mut self, cell: Cell, number: Number) {
        let i = self.index(cell);
        self.cells[i] = number.get();
    }

    /// Empties `cell` (a move taken back).
    pub(super) fn clear(&mut self, cell: Cell) {
        let i = self.index(cell);
        self.cells[i] = 0;
    }

    /// The raw cell values, row by row from the bottom, 0 for empty.
    pub fn cells(&self) -> &[u8] {
        &self.cells
    }

    /// Every number on the board with its cell.
    pub fn numbers(&self) -> impl Iterator<Item = (Cell, Number)> + '_ {
        let width = usize::from(self.width);
        self.cells.iter().enumerate().filter_map(move |(i, &n)| {
            let number = Number::new(n)?;
            let cell = Cell::new((i % width) as u8, (i / width) as u8)?;
            Some((cell, number))
        })
    }

    /// The exact centre (both sides are odd).
    pub fn centre(&self) -> Cell {
        Cell::new(self.width / 2, self.height / 2).expect("board sides are at most 25")
    }

    /// The neighbour of `cell` in `dir`, or `None` past the edge.
    pub fn step(&self, cell: Cell, dir: Direction) -> Option<Cell> {
        let (df, dr) = dir.delta();
        let file = cell.file().checked_add_signed(df)?;
        let rank = cell.rank().checked_add_signed(dr)?;
        Cell::new(file, rank).filter(|&c| self.contains(c))
    }

    /// How many cells lie between `cell` and the edge in `dir`: the
    /// distance `j` from `cell` to the edge cell of that line.
    pub fn distance_to_edge(&self, cell: Cell, dir: Direction) -> usize {
        usize::from(match dir {
            Direction::Up => self.height - 1 - cell.rank(),
            Direction::Down => cell.rank(),
            Direction::Left => cell.file(),
            Direction::Right => self.width - 1 - cell.file(),
        })
    }

    /// The two short sides, which carry the goals: left and right on a
    /// wide board, top and bottom on a tall one.
    pub fn goal_edges(&self) -> [Edge; 2] {
        if self.is_wide() {
            [Edge::Left, Edge::Right]
        } else {
            [Edge::Top, Edge::Bottom]
        }
    }

    pub fn has_goal(&self, edge: Edge) -> bool {
        self.goal_edges().contains(&edge)
    }

    /// The indices of the 3 middle lines a goal spans: ranks on a wide
    /// board, files on a tall one.
    pub fn goal_lines(&self) -> std::ops::RangeInclusive<u8> {
        let mid = if self.is_wide() {
            self.height / 2
        } else {
            self.width / 2
        };
        mid - 1..=mid + 1
    }

    /// Whether a ray leaving the board from `cell` (an edge cell) in `dir`
    /// crosses one of the 3 goal positions of that side.
    pub fn crosses_goal(&self, cell: Cell, dir: Direction) -> bool {
        let edge = dir.edge();
        if !self.has_goal(edge) {
            return false;
        }
        let line = match edge {
            Edge::Left | Edge::Right => cell.rank(),
            Edge::Top | Edge::Bottom => cell.file(),
        };
        self.goal_lines().contains(&line)
    }
}
