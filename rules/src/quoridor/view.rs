//! The serialized form of a game: what a browser draws, and enough to
//! rebuild the game exactly (the server stores and reloads it).
//!
//! Field names are part of the wire protocol; see the [module
//! documentation](super) for the list.

use serde::{Deserialize, Serialize};

use super::bitboard::Bitboard;
use super::board::Board;
use super::cell::Cell;
use super::moves::Move;
use super::options::{GoalMode, Options, Target};
use super::position::Quoridor;
use super::wall::Wall;
use crate::game::{Game, Outcome, Side};

/// A game as the client sees it. Per-side lists are indexed by side
/// (turn order).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct View {
    /// Board side: 9, 11 or 13.
    pub size: u8,
    /// `"edge"` or `"centre"`.
    pub goal: GoalMode,
    /// The options the game was set up with.
    pub options: Options,
    /// Each side's pawn cell (`"e1"`), `null` once its player has left.
    pub pawns: Vec<Option<Cell>>,
    /// Each side's goal: `"top"`, `"bottom"`, `"left"`, `"right"` or
    /// `"centre"`.
    pub goals: Vec<Target>,
    /// The walls on the board (`"e3h"`).
    pub walls: Vec<Wall>,
    /// Walls each side may still place.
    pub walls_left: Vec<u8>,
    /// Turns each side has taken (passes and timeouts included).
    pub moves_made: Vec<u16>,
    /// Turns per pawn before the game is drawn.
    pub move_limit: u16,
    /// The side to move, `null` once the game is over.
    pub to_move: Option<Side>,
    /// Moves played in all.
    pub ply: usize,
    /// `null` while the game goes on.
    pub outcome: Option<Outcome>,
    /// The last move in notation (`"e2"`, `"e3h"`, `"pass"`), `null` at
    /// the start.
    pub last_move: Option<Move>,
}

impl From<&Quoridor> for View {
    fn from(q: &Quoridor) -> View {
        let n = q.sides as usize;
        View {
            size: q.size(),
            goal: q.options.goal,
            options: q.options.clone(),
            pawns: q.pawns[..n].to_vec(),
            goals: q.targets[..n].to_vec(),
            walls: q.walls(),
            walls_left: q.walls_left[..n].to_vec(),
            moves_made: q.moves_made[..n].to_vec(),
            move_limit: q.options.move_limit(),
            to_move: q.to_move(),
            ply: q.ply,
            outcome: q.outcome.clone(),
            last_move: q.last_move,
        }
    }
}

/// The view without its `walls`, which grow with the game: what a move
/// event carries, so that a move costs the same to send at any length of
/// game (the client adds the move to the walls it holds when it is a
/// wall).
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct ChangeView {
    pub size: u8,
    pub goal: GoalMode,
    pub options: Options,
    pub pawns: Vec<Option<Cell>>,
    pub goals: Vec<Target>,
    pub walls_left: Vec<u8>,
    pub moves_made: Vec<u16>,
    pub move_limit: u16,
    pub to_move: Option<Side>,
    pub ply: usize,
    pub outcome: Option<Outcome>,
    pub last_move: Option<Move>,
}

impl From<View> for ChangeView {
    fn from(v: View) -> ChangeView {
        ChangeView {
            size: v.size,
            goal: v.goal,
            options: v.options,
            pawns: v.pawns,
            goals: v.goals,
            walls_left: v.walls_left,
            moves_made: v.moves_made,
            move_limit: v.move_limit,
            to_move: v.to_move,
            ply: v.ply,
            outcome: v.outcome,
            last_move: v.last_move,
        }
    }
}

impl Quoridor {
    /// The game as a move event shows it ([`ChangeView`]).
    pub fn change_view(&self) -> ChangeView {
        ChangeView::from(View::from(self))
    }
}

impl From<Quoridor> for View {
    fn from(q: Quoridor) -> View {
        View::from(&q)
    }
}

impl TryFrom<View> for Quoridor {
    type Error = String;

    /// Rebuilds a game, refusing any view the rules could not reach: a
    /// pawn off the board or on another, overlapping walls, a pawn cut off
    /// from its goal, a turn for a removed pawn.
    fn try_from(v: View) -> Result<Quoridor, String> {
        let mut q = Quoridor::new(&v.options).map_err(|e| e.0)?;
        let n = q.sides as usize;
        if v.size != q.size() || v.goal != q.options.goal {
            return Err("size and goal must match the options".into());
        }
        for (name, len) in [
            ("pawns", v.pawns.len()),
            ("goals", v.goals.len()),
            ("walls_left", v.walls_left.len()),
            ("moves_made", v.moves_made.len()),
        ] {
            if len != n {
                return Err(format!("{name} must list {n} sides, not {len}"));
            }
        }
        if v.goals[..] != q.targets[..n] || v.move_limit != q.options.move_limit() {
            return Err("goals and move limit must match the options".into());
        }
        q.occupied = Bitboard::EMPTY;
        for (i, pawn) in v.pawns.iter().enumerate() {
            if let Some(c) = pawn {
                if !c.is_on(q.size()) || q.occupied.contains(c.index()) {
                    return Err(format!("pawn {i} cannot stand on {c}"));
                }
                q.occupied.insert(c.index());
            }
            q.pawns[i] = *pawn;
        }
        q.board = Board::new(q.size());
        for w in &v.walls {
            if !w.is_on(q.size()) || q.board.conflict(*w).is_some() {
                return Err(format!("wall {w} does not fit"));
            }
            q.board.place(*w);
        }
        for s in q.active_sides() {
            let c = q.pawn(s).expect("active");
            if !q
                .board
                .reaches(Bitboard::from_index(c.index()), q.goals[s.index()])
            {
                return Err(format!("{s} is cut off from its goal"));
            }
        }
        q.walls_left[..n].copy_from_slice(&v.walls_left);
        q.moves_made[..n].copy_from_slice(&v.moves_made);
        q.ply = v.ply;
        q.last_move = v.last_move;
        match (&v.outcome, v.to_move) {
            (None, Some(s)) if q.pawn(s).is_some() => q.to_move = s.0,
            (Some(_), None) => {}
            _ => {
                return Err(
                    "to_move must name a pawn on the board exactly while the game goes on".into(),
                )
            }
        }
        q.outcome = v.outcome;
        Ok(q)
    }
}

impl serde::Serialize for Quoridor {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        View::from(self).serialize(s)
    }
}

impl<'de> serde::Deserialize<'de> for Quoridor {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Quoridor, D::Error> {
        Quoridor::try_from(View::deserialize(d)?).map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::quoridor::options::opts;

    #[test]
    fn view_round_trips_a_game_in_progress() {
        let mut q = Quoridor::new(&opts(9, 4, GoalMode::Edge)).unwrap();
        for m in ["e2", "e3h", "e8", "pass", "d2"] {
            q.play(&m.parse().unwrap()).unwrap();
        }
        let v = View::from(&q);
        assert_eq!(v.pawns[0].unwrap().to_string(), "d2");
        assert_eq!(v.walls.len(), 1);
        assert_eq!(v.last_move.unwrap().to_string(), "d2");
        assert_eq!(v.to_move, Some(Side(1)));
        assert_eq!(Quoridor::try_from(v).unwrap(), q);
    }

    #[test]
    fn view_refuses_impossible_positions() {
        let q = Quoridor::new(&Options::default()).unwrap();
        let mut v = View::from(&q);
        v.pawns[1] = v.pawns[0];
        assert!(Quoridor::try_from(v).is_err());
        let mut v = View::from(&q);
        v.walls = vec!["d4h".parse().unwrap(), "e4h".parse().unwrap()];
        assert!(Quoridor::try_from(v).is_err());
        let mut v = View::from(&q);
        v.to_move = None;
        assert!(Quoridor::try_from(v).is_err());
    }
}
