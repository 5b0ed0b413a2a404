//! Tests, one per rule or Decision of RULES.md §1, named after it.

mod notation;
mod perft;
mod props;
mod rules;
mod setup;
mod snapshot;
mod undo;

use super::{Board, Cell, CrossyRay, Move, Number, Options};
use crate::game::{Game, Side};

pub(super) fn cell(text: &str) -> Cell {
    text.parse().unwrap()
}

pub(super) fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

pub(super) fn new_game(width: u32, height: u32) -> CrossyRay {
    CrossyRay::new(&Options {
        width,
        height,
        clock: None,
    })
    .unwrap()
}

/// A `width × height` game with only `numbers` on the board, the current
/// number at `origin` and `ply` moves played (so side `ply % 2` to move).
pub(super) fn arrange(
    width: u32,
    height: u32,
    numbers: &[(&str, u8)],
    origin: &str,
    ply: usize,
) -> CrossyRay {
    let mut game = new_game(width, height);
    game.board = Board::empty(game.board.width(), game.board.height());
    for &(at, n) in numbers {
        game.board.set(cell(at), Number::new(n).unwrap());
    }
    game.origin = cell(origin);
    game.current = game.board.get(game.origin).expect("origin holds a number");
    game.next = game.current.next();
    game.ply = ply;
    game.to_move = Some(Side((ply % 2) as u8));
    game
}

pub(super) fn legal(game: &CrossyRay) -> Vec<String> {
    game.legal_moves().iter().map(Move::to_string).collect()
}
