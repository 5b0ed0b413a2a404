//! Perft: the number of leaf nodes of the move tree, with every rule
//! (shuttle limit, repetition and no-capture draws, den entry) applied.
//! Same convention as [`crate::game::perft`]: a move that ends the game
//! counts 1 only at the last ply. This one uses make/unmake and is the
//! speed reference; the generic one checks it in the tests.
//!
//! ```
//! use rules::jungle::{perft, Jungle};
//!
//! let game = Jungle::start();
//! assert_eq!(perft(&game, 1), 24);
//! assert_eq!(perft(&game, 2), 576);
//! assert_eq!(perft(&game, 3), 12_240);
//! ```

use super::game::Jungle;
use super::history::{History, NO_CAPTURE_LIMIT, REPETITION_LIMIT};
use super::position::{MoveList, Position};
use crate::game::Game;

/// Leaf nodes `depth` plies below `game`.
pub fn perft(game: &Jungle, depth: u32) -> u64 {
    if game.is_over() {
        return u64::from(depth == 0);
    }
    let mut pos = game.position().clone();
    let mut history = game.history().clone();
    perft_inner(&mut pos, &mut history, depth)
}

fn perft_inner(pos: &mut Position, history: &mut History, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let mut moves = MoveList::new();
    pos.generate(&mut moves);
    if let Some(ban) = history.shuttle_ban() {
        moves.retain(|m| !ban.same_path(*m));
    }
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for &mv in moves.iter() {
        let before = pos.hash();
        let captured = pos.make(mv);
        history.push(mv, captured, before);
        let over = mv.to == pos.turn().den()
            || history.repetitions(pos.hash()) >= REPETITION_LIMIT
            || history.no_capture() >= NO_CAPTURE_LIMIT;
        if !over {
            nodes += perft_inner(pos, history, depth - 1);
        }
        history.pop();
        pos.unmake(mv, captured);
    }
    nodes
}
