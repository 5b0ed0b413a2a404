//! Perft: counts the pawn moves and walls (never passes) `depth` plies
//! deep, with make/unmake and bulk counting at the last ply. Same
//! convention as [`crate::game::perft`]: a line that ends in a win before
//! the last ply counts nothing. ([`crate::game::perft`] itself would
//! also count `pass`, which [`Game::legal_moves`] lists when allowed; the
//! tests compare against it through a wrapper that drops passes.)
//!
//! ```
//! use rules::game::Game;
//! use rules::quoridor::{perft, Options, Quoridor};
//!
//! let start = Quoridor::new(&Options::default()).unwrap();
//! assert_eq!(perft(&start, 1), 131);
//! assert_eq!(perft(&start, 2), 16_677);
//! ```

use super::cell::Cell;
use super::moves::Move;
use super::options::{GoalMode, Options, WallStock};
use super::position::Quoridor;
use super::wall::{Orientation, Wall};
use crate::cli::Flags;
use crate::game::Game;

/// Leaf count of the move tree (pawn moves and walls) `depth` plies deep.
pub fn perft(game: &Quoridor, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut g = game.clone();
    perft_inner(&mut g, depth)
}

fn perft_inner(g: &mut Quoridor, depth: u32) -> u64 {
    if depth == 1 {
        return g.count_moves();
    }
    if g.is_over() {
        return 0;
    }
    let mut nodes = 0;
    let mut visit = |g: &mut Quoridor, mv: Move| {
        let undo = g.make(mv);
        if !g.is_over() {
            nodes += perft_inner(g, depth - 1);
        }
        g.unmake(mv, undo);
    };
    for c in g.pawn_moves() {
        visit(g, Move::Pawn(c));
    }
    if g.walls_left[g.to_move as usize] > 0 {
        let sets = g.legal_wall_sets();
        for o in Orientation::BOTH {
            for s in sets[o.index()] {
                visit(g, Move::Wall(Wall::new(Cell::from_index(s), o)));
            }
        }
    }
    nodes
}

/// Entry point of `perft quoridor <depth> [--size N] [--players P]
/// [--walls W|auto] [--goal edge|centre] [--moves "e2 e8 e3h ..."]`.
pub fn perft_cli(depth: u32, flags: &Flags) -> Result<u64, String> {
    flags.only(&["size", "players", "walls", "goal", "moves"])?;
    let defaults = Options::default();
    let goal = match flags.get("goal").unwrap_or("edge") {
        "edge" => GoalMode::Edge,
        "centre" | "center" => GoalMode::Centre,
        other => return Err(format!("--goal must be edge or centre, not {other:?}")),
    };
    let options = Options {
        size: flags.get_or("size", defaults.size)?,
        players: flags.get_or("players", defaults.players)?,
        walls: flags.get_or("walls", WallStock::Auto)?,
        goal,
        ..defaults
    };
    let mut game = Quoridor::new(&options).map_err(|e| e.0)?;
    for text in flags.get("moves").unwrap_or("").split_whitespace() {
        let mv: Move = text.parse().map_err(|e| format!("{e}"))?;
        game.play(&mv).map_err(|e| format!("{text}: {e}"))?;
    }
    Ok(perft(&game, depth))
}
