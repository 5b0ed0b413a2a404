//! The state of a game and the rules that move it on.

use serde::{Deserialize, Serialize};

use super::{Board, Cell, Direction, Edge, Move, Number, Options, PlayError};
use crate::game::{
    EndReason, Game, NotationError, Outcome, SetupError, Side, TimeControl, TimeoutEffect,
};
use crate::undo::UndoStack;

/// A CrossyRay game: the board, the current number and its cell, whose
/// turn it is and, once over, the result.
///
/// Its serialised form is the view the browser draws: `options`, `width`,
/// `height`, `cells`, `origin`, `current`, `next`, `to_move`, `ply`,
/// `outcome`, `last_move`, `defends`, `position` (the
/// [position string](CrossyRay::position_string)). Deserialising checks
/// that the view is a consistent state (`position` is derived, and not
/// read). What [`Game::undo`] needs is kept beside the view, not in it.
#[derive(Clone, Debug, PartialEq, Eq, Deserialize)]
#[serde(try_from = "Snapshot")]
pub struct CrossyRay {
    pub(super) options: Options,
    #[serde(flatten)]
    pub(super) board: Board,
    /// The cell of the current number: where every ray starts.
    pub(super) origin: Cell,
    /// The number placed last (1 at the start).
    pub(super) current: Number,
    /// The number the next placement puts down.
    pub(super) next: Number,
    pub(super) to_move: Option<Side>,
    pub(super) ply: usize,
    pub(super) outcome: Option<Outcome>,
    pub(super) last_move: Option<Move>,
    /// `defends[side]`: the board side whose goal that side defends.
    pub(super) defends: [Edge; 2],
    /// How to take back each move played (not serialised; equal in any
    /// two games, see [`UndoStack`]).
    pub(super) undo: UndoStack<(Move, Undo)>,
}

impl CrossyRay {
    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The cell every ray starts from: where the current number stands.
    pub fn origin(&self) -> Cell {
        self.origin
    }

    /// The number placed last; it is also the range of the next move.
    pub fn current(&self) -> Number {
        self.current
    }

    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// The side of the board whose goal `side` defends (side 0: left on a
    /// wide board, top on a tall one). `side` attacks the opposite one.
    pub fn defends(&self, side: Side) -> Edge {
        self.defends[side.index() % 2]
    }

    /// Who plays in the goal on `edge`, if there is a goal there.
    pub fn goal_owner(&self, edge: Edge) -> Option<Side> {
        (0..2u8).map(Side).find(|&s| self.defends(s) == edge)
    }

    /// The position string (RULES.md §1, "Position string"): the board
    /// from the top rank down (`.` an empty cell, a block its number, two
    /// numbers side by side split by `,`; ranks split by `/`), the origin,
    /// the side to move (`-` once over) and the moves played.
    ///
    /// ```
    /// use rules::crossyray::{CrossyRay, Options};
    /// use rules::game::Game;
    ///
    /// let mut game = CrossyRay::new(&Options::default()).unwrap();
    /// game.play(&"f4".parse().unwrap()).unwrap();
    /// assert_eq!(
    ///     game.position_string(),
    ///     "........./........./........./....1,2.../........./........./......... f4 1 1"
    /// );
    /// ```
    pub fn position_string(&self) -> String {
        use std::fmt::Write;
        // Sent with every move: one buffer, no string per cell or rank.
        let (width, height) = (self.board.width(), self.board.height());
        let mut text = String::with_capacity(usize::from(width) * usize::from(height) * 2 + 24);
        for rank in (0..height).rev() {
            if rank + 1 < height {
                text.push('/');
            }
            let mut after_number = false;
            for file in 0..width {
                match Cell::new(file, rank).and_then(|c| self.board.get(c)) {
                    Some(n) => {
                        if after_number {
                            text.push(',');
                        }
                        let n = u8::from(n);
                        if n >= 10 {
                            text.push(char::from(b'0' + n / 10));
                        }
                        text.push(char::from(b'0' + n % 10));
                        after_number = true;
                    }
                    None => {
                        text.push('.');
                        after_number = false;
                    }
                }
            }
        }
        let _ = write!(text, " {} ", self.origin);
        match self.to_move {
            Some(side) => {
                let _ = write!(text, "{}", side.0);
            }
            None => text.push('-'),
        }
        let _ = write!(text, " {}", self.ply);
        text
    }

    /// Calls `f` with every legal move in order: direction by direction
    /// (up, down, left, right), nearest cell first, then the goal the ray
    /// reaches, if any. Empty once the game is over.
    pub(super) fn for_each_move(&self, mut f: impl FnMut(Move)) {
        if self.outcome.is_some() {
            return;
        }
        for dir in Direction::ALL {
            let mut cell = self.origin;
            for _ in 0..self.current.range() {
                match self.board.step(cell, dir) {
                    None => {
                        // Every cell up to the edge was empty and one step
                        // of range is left to leave the board (j + 1 <= k).
                        if self.board.crosses_goal(cell, dir) {
                            f(Move::Goal(dir.edge()));
                        }
                        break;
                    }
                    Some(next) if self.board.get(next).is_some() => break,
                    Some(next) => {
                        f(Move::Place(next));
                        cell = next;
                    }
                }
            }
        }
    }

    /// Whether the side to move has any legal move. A direction offers a
    /// move iff its first step does (an empty neighbour or a goal right
    /// behind the edge), since the range is always at least 1.
    fn has_legal_move(&self) -> bool {
        Direction::ALL
            .into_iter()
            .any(|dir| match self.board.step(self.origin, dir) {
                None => self.board.crosses_goal(self.origin, dir),
                Some(next) => self.board.get(next).is_none(),
            })
    }

    /// The first number on the straight path from the origin, `steps`
    /// cells in `dir` (the target itself included).
    fn first_block(&self, dir: Direction, steps: usize) -> Option<(Cell, Number)> {
        let mut cell = self.origin;
        for _ in 0..steps {
            cell = self.board.step(cell, dir)?;
            if let Some(n) = self.board.get(cell) {
                return Some((cell, n));
            }
        }
        None
    }

    /// Why `mv` is illegal here, or `Ok` if it is legal.
    pub fn check(&self, mv: &Move) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let current = self.current;
        match *mv {
            Move::Place(cell) => {
                if !self.board.contains(cell) {
                    return Err(PlayError::OffBoard {
                        cell,
                        width: self.board.width(),
                        height: self.board.height(),
                    });
                }
                if let Some(number) = self.board.get(cell) {
                    return Err(PlayError::Occupied { cell, number });
                }
                let origin = self.origin;
                let (dir, distance) = origin
                    .ray_to(cell)
                    .ok_or(PlayError::NotInLine { cell, origin })?;
                if distance > current.range() {
                    return Err(PlayError::OutOfRange { cell, current });
                }
                match self.first_block(dir, distance) {
                    Some((at, number)) => Err(PlayError::Blocked { number, at }),
                    None => Ok(()),
                }
            }
            Move::Goal(edge) => {
                if !self.board.has_goal(edge) {
                    return Err(PlayError::NoGoalOnSide { edge });
                }
                let dir = edge.direction();
                if !self.board.crosses_goal(self.origin, dir) {
                    return Err(PlayError::NotThroughGoal {
                        origin: self.origin,
                        edge,
                    });
                }
                let j = self.board.distance_to_edge(self.origin, dir);
                if j + 1 > current.range() {
                    return Err(PlayError::GoalOutOfRange { edge, current });
                }
                match self.first_block(dir, j) {
                    Some((at, number)) => Err(PlayError::Blocked { number, at }),
                    None => Ok(()),
                }
            }
        }
    }

    /// Plays `mv`, already checked legal, and returns what
    /// [`CrossyRay::unmake`] needs to take it back.
    pub(super) fn make(&mut self, mv: Move) -> Undo {
        let mover = self.to_move.expect("a legal move while the game is on");
        let undo = Undo {
            origin: self.origin,
            current: self.current,
            last_move: self.last_move,
        };
        self.ply += 1;
        self.last_move = Some(mv);
        match mv {
            Move::Goal(edge) => {
                if edge == self.defends(mover) {
                    self.finish(other(mover), EndReason::OwnGoal);
                } else {
                    self.finish(mover, EndReason::Goal);
                }
            }
            Move::Place(cell) => {
                self.board.set(cell, self.next);
                self.origin = cell;
                self.current = self.next;
                self.next = self.next.next();
                self.to_move = Some(other(mover));
                if !self.has_legal_move() {
                    self.finish(mover, EndReason::Lock);
                }
            }
        }
        undo
    }

    /// Takes back `mv`, the last move [`CrossyRay::make`] played.
    pub(super) fn unmake(&mut self, mv: Move, undo: Undo) {
        let mover = match &self.outcome {
            // A goal or own goal ends the game on the mover's turn; a lock
            // after the mover placed its number.
            Some(Outcome::Win { winner, reason }) => match reason {
                EndReason::Goal | EndReason::Lock => *winner,
                _ => other(*winner),
            },
            _ => other(self.to_move.expect("the game went on")),
        };
        self.outcome = None;
        self.to_move = Some(mover);
        self.ply -= 1;
        self.last_move = undo.last_move;
        if let Move::Place(cell) = mv {
            self.board.clear(cell);
            self.next = self.current;
            self.current = undo.current;
            self.origin = undo.origin;
        }
    }

    fn finish(&mut self, winner: Side, reason: EndReason) {
        self.outcome = Some(Outcome::Win { winner, reason });
        self.to_move = None;
    }
}

/// What [`CrossyRay::unmake`] restores.
#[derive(Clone, Copy, Debug)]
pub(super) struct Undo {
    origin: Cell,
    current: Number,
    last_move: Option<Move>,
}

fn other(side: Side) -> Side {
    Side(1 - side.0 % 2)
}

impl Game for CrossyRay {
    type Move = Move;
    type Options = Options;
    type Error = PlayError;

    const NAME: &'static str = "crossyray";

    fn new(options: &Options) -> Result<CrossyRay, SetupError> {
        let (width, height) = options.validate()?;
        let mut board = Board::empty(width, height);
        let origin = board.centre();
        board.set(origin, Number::ONE);
        let [own, attacked] = board.goal_edges();
        Ok(CrossyRay {
            options: *options,
            board,
            origin,
            current: Number::ONE,
            next: Number::ONE.next(),
            to_move: Some(Side(0)),
            ply: 0,
            outcome: None,
            last_move: None,
            // Side 0 defends the left (top) goal, side 1 the right (bottom).
            defends: [own, attacked],
            undo: UndoStack::new(),
        })
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        text.parse()
    }

    fn sides(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<Side> {
        self.to_move
    }

    fn legal_moves(&self) -> Vec<Move> {
        let mut moves = Vec::with_capacity(4 * self.current.range());
        self.for_each_move(|mv| moves.push(mv));
        moves
    }

    fn play(&mut self, mv: &Move) -> Result<(), PlayError> {
        self.check(mv)?;
        let undo = self.make(*mv);
        self.undo.push((*mv, undo));
        Ok(())
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn time_control(&self) -> TimeControl {
        self.options.time_control()
    }

    fn timeout(&mut self) -> TimeoutEffect<Move> {
        if let Some(side) = self.to_move {
            self.finish(other(side), EndReason::Timeout);
        }
        TimeoutEffect::Lost
    }

    fn forfeit(&mut self, side: Side, reason: EndReason) {
        if self.outcome.is_none() && side.index() < 2 {
            self.finish(other(side), reason);
        }
    }

    fn undo(&mut self) -> bool {
        let taken = self.undo.take_back(self.outcome.is_some());
        taken.map(|(mv, undo)| self.unmake(mv, undo)).is_some()
    }

    fn takebacks(&self) -> usize {
        self.undo.takebacks(self.outcome.is_some())
    }

    fn ply(&self) -> usize {
        self.ply
    }
}

/// The serialised view: the game's fields and its position string.
#[derive(Serialize)]
struct View<'a> {
    options: &'a Options,
    // The board's own fields, written out (a flattened struct would make
    // serde write the whole view as a map, slower on every move).
    width: u8,
    height: u8,
    cells: &'a [u8],
    origin: Cell,
    current: Number,
    next: Number,
    to_move: Option<Side>,
    ply: usize,
    outcome: &'a Option<Outcome>,
    last_move: Option<Move>,
    defends: [Edge; 2],
    position: String,
}

impl Serialize for CrossyRay {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        View {
            options: &self.options,
            width: self.board.width(),
            height: self.board.height(),
            cells: self.board.cells(),
            origin: self.origin,
            current: self.current,
            next: self.next,
            to_move: self.to_move,
            ply: self.ply,
            outcome: &self.outcome,
            last_move: self.last_move,
            defends: self.defends,
            position: self.position_string(),
        }
        .serialize(s)
    }
}

/// The serialised view, read back and checked before it becomes a
/// [`CrossyRay`].
#[derive(Clone, Deserialize)]
pub(super) struct Snapshot {
    pub(super) options: Options,
    pub(super) width: u8,
    pub(super) height: u8,
    pub(super) cells: Vec<u8>,
    pub(super) origin: Cell,
    pub(super) current: Number,
    #[serde(default)]
    pub(super) next: Option<Number>,
    pub(super) to_move: Option<Side>,
    pub(super) ply: usize,
    pub(super) outcome: Option<Outcome>,
    pub(super) last_move: Option<Move>,
    pub(super) defends: [Edge; 2],
}

#[cfg(test)]
impl CrossyRay {
    /// What serialising and reading back goes through, without a format.
    pub(super) fn snapshot(&self) -> Snapshot {
        Snapshot {
            options: self.options,
            width: self.board.width(),
            height: self.board.height(),
            cells: self.board.cells().to_vec(),
            origin: self.origin,
            current: self.current,
            next: Some(self.next),
            to_move: self.to_move,
            ply: self.ply,
            outcome: self.outcome.clone(),
            last_move: self.last_move,
            defends: self.defends,
        }
    }
}

impl TryFrom<Snapshot> for CrossyRay {
    type Error = String;

    fn try_from(s: Snapshot) -> Result<CrossyRay, String> {
        let fresh = CrossyRay::new(&s.options).map_err(|e| e.to_string())?;
        if (s.width, s.height) != (fresh.board.width(), fresh.board.height()) {
            return Err("width and height differ from the options".into());
        }
        if s.defends != fresh.defends {
            return Err("defends does not match the board's goals".into());
        }
        let board = Board::from_cells(s.width, s.height, s.cells)?;
        if board.get(s.origin) != Some(s.current) {
            return Err(format!(
                "the current number {} is not at {}",
                s.current, s.origin
            ));
        }
        let next = s.current.next();
        if s.next.is_some_and(|n| n != next) {
            return Err("next does not follow current".into());
        }
        match (&s.outcome, s.to_move) {
            (None, Some(side)) if side == Side((s.ply % 2) as u8) => {}
            (Some(_), None) => {}
            _ => return Err("to_move does not match ply and outcome".into()),
        }
        let game = CrossyRay {
            options: s.options,
            board,
            origin: s.origin,
            current: s.current,
            next,
            to_move: s.to_move,
            ply: s.ply,
            outcome: s.outcome,
            last_move: s.last_move,
            defends: s.defends,
            undo: UndoStack::new(),
        };
        if game.outcome.is_none() && !game.has_legal_move() {
            return Err("the side to move has no move but the game is not over".into());
        }
        Ok(game)
    }
}
