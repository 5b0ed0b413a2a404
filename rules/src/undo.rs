//! What a game keeps to take its moves back ([`Game::undo`]).
//!
//! A game that cannot work out from its position how to take a move back
//! (CrossyRay's origin before the last number, Quoridor's cell a pawn came
//! from) keeps the search's own `Undo` of every move played, newest first,
//! in an [`UndoStack`]. It is a persistent list: cloning a game (the bots
//! do, to look ahead) copies one pointer, not the game's history, and a
//! clone and its original share the moves they have in common.
//!
//! The stack is bookkeeping, not position: it is not serialised (the view
//! a browser draws stays as it is), and two games in the same position
//! compare equal whatever their stacks hold, so a game read back from its
//! view equals the game that wrote it (it just cannot take back the moves
//! played before it was read).
//!
//! [`Game::undo`]: crate::game::Game::undo

use std::fmt;
use std::sync::Arc;

/// A persistent stack of `T`, newest on top.
pub(crate) struct UndoStack<T> {
    top: Option<Arc<Node<T>>>,
}

struct Node<T> {
    entry: T,
    len: usize,
    rest: UndoStack<T>,
}

impl<T: Clone> UndoStack<T> {
    pub(crate) fn new() -> UndoStack<T> {
        UndoStack { top: None }
    }

    /// How many entries it holds.
    pub(crate) fn len(&self) -> usize {
        self.top.as_ref().map_or(0, |n| n.len)
    }

    pub(crate) fn push(&mut self, entry: T) {
        let len = self.len() + 1;
        let rest = UndoStack {
            top: self.top.take(),
        };
        self.top = Some(Arc::new(Node { entry, len, rest }));
    }

    /// Takes the newest entry off (copying it if a clone shares it).
    pub(crate) fn pop(&mut self) -> Option<T> {
        let node = self.top.take()?;
        match Arc::try_unwrap(node) {
            Ok(mut node) => {
                self.top = node.rest.top.take();
                Some(node.entry)
            }
            Err(shared) => {
                self.top = shared.rest.top.clone();
                Some(shared.entry.clone())
            }
        }
    }

    /// The newest entry, taken off, unless the game is `over` (a
    /// finished game takes nothing back).
    pub(crate) fn take_back(&mut self, over: bool) -> Option<T> {
        if over {
            None
        } else {
            self.pop()
        }
    }

    /// How many entries [`UndoStack::take_back`] can take off, one after
    /// the other (none once the game is `over`).
    pub(crate) fn takebacks(&self, over: bool) -> usize {
        if over {
            0
        } else {
            self.len()
        }
    }

    /// Forgets every entry: the moves before now can no longer be taken
    /// back.
    pub(crate) fn clear(&mut self) {
        *self = UndoStack::new();
    }
}

impl<T> Clone for UndoStack<T> {
    fn clone(&self) -> UndoStack<T> {
        UndoStack {
            top: self.top.clone(),
        }
    }
}

/// Bookkeeping, not position: see the [module documentation](self).
impl<T> PartialEq for UndoStack<T> {
    fn eq(&self, _: &UndoStack<T>) -> bool {
        true
    }
}

impl<T> Eq for UndoStack<T> {}

impl<T> fmt::Debug for UndoStack<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let len = self.top.as_ref().map_or(0, |n| n.len);
        write!(f, "UndoStack({len} moves)")
    }
}

/// Frees a long list node by node, not by recursion (a long game's stack
/// would otherwise drop thousands of frames deep).
impl<T> Drop for UndoStack<T> {
    fn drop(&mut self) {
        let mut next = self.top.take();
        while let Some(node) = next {
            match Arc::try_unwrap(node) {
                Ok(mut node) => next = node.rest.top.take(),
                // A clone still holds the rest.
                Err(_) => break,
            }
        }
    }
}

/// The property every game's tests check of [`Game::undo`]
/// (`undo_tests` in each game's tests).
///
/// [`Game::undo`]: crate::game::Game::undo
#[cfg(test)]
pub(crate) mod check {
    use crate::game::{EndReason, Game, Side};
    use crate::rng::Rng;

    /// One step of a line of play.
    #[derive(Clone, Debug)]
    pub(crate) enum Ply<M> {
        Play(M),
        /// The side to move runs out of time (a Quoridor pass or step
        /// aside: a move the rules play).
        Timeout,
        /// A pawn leaves (Quoridor with 3 or more): no move, and none
        /// before it can be taken back.
        Leave(Side),
    }

    /// Everything undo must restore, as compared.
    #[derive(Clone, Debug, PartialEq)]
    struct Seen<G> {
        game: G,
        legal: Vec<String>,
        json: String,
        position: String,
    }

    fn seen<G: Game + PartialEq>(game: &G, position: &impl Fn(&G) -> String) -> Seen<G> {
        Seen {
            game: game.clone(),
            legal: game.legal_moves().iter().map(ToString::to_string).collect(),
            json: serde_json::to_string(game).expect("a game serialises"),
            position: position(game),
        }
    }

    /// Plays `ply` on `game`; `false` (and no change) if it does not fit.
    fn play<G: Game>(game: &mut G, ply: &Ply<G::Move>) -> bool {
        match ply {
            Ply::Play(mv) => game.play(mv).is_ok(),
            Ply::Timeout => {
                game.timeout();
                true
            }
            Ply::Leave(side) => {
                game.forfeit(*side, EndReason::Abandon);
                true
            }
        }
    }

    /// A random line from `start`, `len` plies at most: a timeout with
    /// chance `timeouts`, else the move `prefer` picks (say, a capture or a
    /// shuttle) or a random legal one, avoiding moves that end the game
    /// while there are others (an ended game takes nothing back). Leaves
    /// come in with chance `leaves` while more than two pawns are on.
    pub(crate) fn random_line<G: Game>(
        start: &G,
        len: usize,
        rng: &mut Rng,
        (timeouts, leaves): (f64, f64),
        mut prefer: impl FnMut(&G, &[G::Move], &mut Rng) -> Option<G::Move>,
        on_board: impl Fn(&G) -> Vec<Side>,
    ) -> Vec<Ply<G::Move>> {
        let mut game = start.clone();
        let mut line = Vec::new();
        while line.len() < len && !game.is_over() {
            let moves = game.legal_moves();
            let sides = on_board(&game);
            let ply = if rng.chance(leaves) && sides.len() > 2 {
                Ply::Leave(sides[rng.below(sides.len())])
            } else if rng.chance(timeouts) {
                Ply::Timeout
            } else {
                let first = prefer(&game, &moves, rng).into_iter().chain(
                    (0..moves.len())
                        .map(|k| moves[(k + rng.below(moves.len())) % moves.len()].clone()),
                );
                let mut chosen = None;
                for mv in first {
                    let mut after = game.clone();
                    if after.play(&mv).is_ok() && !after.is_over() {
                        chosen = Some(mv);
                        break;
                    }
                }
                match chosen {
                    Some(mv) => Ply::Play(mv),
                    None => break,
                }
            };
            let mut after = game.clone();
            assert!(play(&mut after, &ply), "{ply:?} fits");
            if after.is_over() {
                break;
            }
            game = after;
            line.push(ply);
        }
        line
    }

    /// `game` with `ply` played and taken back is `game` again, or, if the
    /// ply ended the game, cannot be taken back.
    fn play_then_undo<G: Game + PartialEq>(
        game: &G,
        before: &Seen<G>,
        ply: &Ply<G::Move>,
        position: &impl Fn(&G) -> String,
    ) {
        let mut after = game.clone();
        if !play(&mut after, ply) {
            return;
        }
        if after.is_over() {
            let over = seen(&after, position);
            assert_eq!(after.takebacks(), 0, "{ply:?} ended the game");
            assert!(!after.undo(), "{ply:?} ended the game");
            assert_eq!(
                seen(&after, position),
                over,
                "a refused undo changes nothing"
            );
            return;
        }
        assert_eq!(after.takebacks(), game.takebacks() + 1, "{ply:?}");
        assert!(after.undo(), "{ply:?} is taken back");
        assert_eq!(
            &seen(&after, position),
            before,
            "{ply:?} played and taken back"
        );
        assert_eq!(after.takebacks(), game.takebacks());
    }

    /// Plays `line` from `start`, and at each position plays and takes
    /// back a timeout and a few legal moves (a timeout that loses, or a
    /// move that ends the game, is not taken back), `==` to what
    /// was there before with the same legal moves, JSON view and position
    /// string; then takes the line back ply by ply to the start (or the
    /// last leave, which nothing crosses), each position the one playing
    /// the line from the start reached, with the same check on the way.
    pub(crate) fn check_line<G: Game + PartialEq>(
        start: &G,
        line: &[Ply<G::Move>],
        position: impl Fn(&G) -> String,
        rng: &mut Rng,
    ) {
        let tries = |game: &G, rng: &mut Rng| {
            let before = seen(game, &position);
            let moves = game.legal_moves();
            let plies = (0..2)
                .filter(|_| !moves.is_empty())
                .map(|_| Ply::Play(moves[rng.below(moves.len())].clone()))
                .chain([Ply::Timeout]);
            for ply in plies {
                play_then_undo(game, &before, &ply, &position);
            }
        };
        let mut game = start.clone();
        let mut replayed = vec![seen(&game, &position)];
        let mut floor = 0;
        tries(&game, rng);
        for (i, ply) in line.iter().enumerate() {
            assert!(play(&mut game, ply), "{ply:?} fits");
            if matches!(ply, Ply::Leave(_)) {
                floor = i + 1;
                assert_eq!(game.takebacks(), 0, "nothing is taken back past a leave");
            }
            replayed.push(seen(&game, &position));
            tries(&game, rng);
        }
        assert!(!game.is_over(), "a line ends with a game in progress");
        for k in (floor..line.len()).rev() {
            assert_eq!(game.takebacks(), k + 1 - floor);
            assert!(game.undo(), "ply {} is taken back", k + 1);
            assert_eq!(
                seen(&game, &position),
                replayed[k],
                "{} plies back",
                line.len() - k
            );
            tries(&game, rng);
        }
        assert_eq!(game.takebacks(), 0);
        assert!(!game.undo(), "nothing before the start or a leave");
        assert_eq!(seen(&game, &position), replayed[floor]);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pops_what_was_pushed_newest_first_and_clones_share_the_rest() {
        let mut a = UndoStack::new();
        for i in 0..5 {
            a.push(i);
        }
        let mut b = a.clone();
        b.push(9);
        assert_eq!((a.len(), b.len()), (5, 6));
        assert_eq!(b.pop(), Some(9));
        assert_eq!(b.pop(), Some(4));
        assert_eq!(a.pop(), Some(4), "the clone's pop leaves the original");
        assert_eq!(a.len(), 4);
        b.clear();
        assert_eq!((b.len(), b.pop()), (0, None));
        assert_eq!(a.pop(), Some(3));
    }

    #[test]
    fn a_long_stack_drops_without_deep_recursion() {
        let mut a = UndoStack::new();
        for i in 0..1_000_000u32 {
            a.push(i);
        }
        let b = a.clone();
        drop(a);
        assert_eq!(b.len(), 1_000_000);
    }
}
