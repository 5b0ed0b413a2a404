//! Perft for CrossyRay: a make/unmake walk of the move tree on one board
//! array, checked in the tests against the generic [`crate::game::perft`].
//!
//! ```
//! use rules::crossyray::{perft, CrossyRay, Options};
//! use rules::game::Game;
//!
//! let game = CrossyRay::new(&Options::default()).unwrap();
//! // From the 1 on the centre of 9 × 7: the four neighbours.
//! assert_eq!(perft(&game, 1), 4);
//! assert_eq!(perft(&game, 2), rules::game::perft(&game, 2));
//! ```

use super::{CrossyRay, Direction, Number, Options};
use crate::cli::Flags;
use crate::game::Game;

/// Counts the leaf nodes `depth` plies deep with the usual convention: a
/// move that ends the game (a goal, an own goal, a placement that locks
/// the opponent) counts only at the last ply.
pub fn perft(game: &CrossyRay, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    if game.is_over() {
        return 0;
    }
    let board = game.board();
    let mut walker = Walker {
        width: i32::from(board.width()),
        height: i32::from(board.height()),
        cells: board.cells().to_vec(),
        goal_lines: [(0, 0); 4],
    };
    for (i, dir) in DIRECTIONS.iter().enumerate() {
        // An empty range (lo > hi) for the sides without a goal.
        walker.goal_lines[i] = if board.has_goal(dir.edge()) {
            let lines = board.goal_lines();
            (i32::from(*lines.start()), i32::from(*lines.end()))
        } else {
            (1, 0)
        };
    }
    let origin = game.origin();
    walker.count(
        i32::from(origin.file()),
        i32::from(origin.rank()),
        game.current(),
        depth,
    )
}

const DIRECTIONS: [Direction; 4] = Direction::ALL;

struct Walker {
    width: i32,
    height: i32,
    cells: Vec<u8>,
    /// Per direction (in [`DIRECTIONS`] order): the goal's lines on the
    /// side that direction leaves through.
    goal_lines: [(i32, i32); 4],
}

impl Walker {
    fn count(&mut self, file: i32, rank: i32, current: Number, depth: u32) -> u64 {
        let next = current.next();
        let mut nodes = 0;
        for (d, dir) in DIRECTIONS.iter().enumerate() {
            let (df, dr) = dir.delta();
            let (df, dr) = (i32::from(df), i32::from(dr));
            let (mut f, mut r) = (file, rank);
            for _ in 0..current.range() {
                let (nf, nr) = (f + df, r + dr);
                if nf < 0 || nf >= self.width || nr < 0 || nr >= self.height {
                    // Leaving the board: only a goal move, and it ends the
                    // game, so it counts at the last ply only.
                    let line = if df == 0 { f } else { r };
                    let (lo, hi) = self.goal_lines[d];
                    if depth == 1 && lo <= line && line <= hi {
                        nodes += 1;
                    }
                    break;
                }
                let i = (nr * self.width + nf) as usize;
                if self.cells[i] != 0 {
                    break;
                }
                if depth == 1 {
                    nodes += 1;
                } else {
                    // A placement that locks the opponent leaves a node
                    // with no moves, which counts 0 below: as the
                    // convention wants.
                    self.cells[i] = next.get();
                    nodes += self.count(nf, nr, next, depth - 1);
                    self.cells[i] = 0;
                }
                (f, r) = (nf, nr);
            }
        }
        nodes
    }
}

/// Entry point of `perft crossyray <depth> [--width W] [--height H]`.
pub fn perft_cli(depth: u32, flags: &Flags) -> Result<u64, String> {
    flags.only(&["width", "height"])?;
    let defaults = Options::default();
    let options = Options {
        width: flags.get_or("width", defaults.width)?,
        height: flags.get_or("height", defaults.height)?,
        clock: None,
    };
    let game = CrossyRay::new(&options).map_err(|e| e.to_string())?;
    Ok(perft(&game, depth))
}
