//! The game state and its rules: whose turn, legal moves, playing a move,
//! winning, the draw limit, forfeits, and the [`Game`] implementation.
//!
//! Wall legality is the expensive rule, so it is layered (see
//! [`Quoridor::legal_wall_sets`]): bitboard masks first for overlap,
//! crossing and "cannot close a loop of barriers", then a local flood fill
//! on both sides of each remaining wall, and a full path search only for a
//! pawn whose goal reaches into a region that wall closes off.

use thiserror::Error;

use super::bitboard::Bitboard;
use super::board::Board;
use super::cell::{Cell, Direction};
use super::moves::Move;
use super::options::{Options, Target, MAX_PAWNS};
use super::wall::{Orientation, Wall};
use crate::game::{
    EndReason, Game, NotationError, Outcome, SetupError, Side, TimeControl, TimeoutEffect,
};
use crate::undo::UndoStack;

/// A Quoridor game in progress (or finished).
///
/// Serializes to the view described in the [module documentation](super);
/// what [`Game::undo`] needs is kept beside the view, not in it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Quoridor {
    pub(crate) options: Options,
    pub(crate) board: Board,
    pub(crate) sides: u8,
    /// Each side's pawn; `None` once its player has left.
    pub(crate) pawns: [Option<Cell>; MAX_PAWNS],
    /// The cells of all pawns on the board.
    pub(crate) occupied: Bitboard,
    pub(crate) targets: [Target; MAX_PAWNS],
    pub(crate) goals: [Bitboard; MAX_PAWNS],
    /// The way each pawn faces (away from its start edge).
    pub(crate) forward: [Direction; MAX_PAWNS],
    pub(crate) walls_left: [u8; MAX_PAWNS],
    /// Turns each side has taken, passes and timeouts included.
    pub(crate) moves_made: [u16; MAX_PAWNS],
    pub(crate) to_move: u8,
    pub(crate) ply: usize,
    pub(crate) outcome: Option<Outcome>,
    pub(crate) last_move: Option<Move>,
    /// How to take back each move played since the start or the last
    /// pawn that left (not serialised; equal in any two games, see
    /// [`UndoStack`]).
    pub(crate) undo: UndoStack<(Move, Undo)>,
}

/// Why a move was refused, worded for the player.
#[derive(Clone, Debug, PartialEq, Eq, Error)]
pub enum PlayError {
    #[error("the game is over")]
    GameOver,
    #[error("{0} is not on this {1}×{1} board")]
    CellOffBoard(Cell, u8),
    #[error("wall {0} does not fit on this {1}×{1} board")]
    WallOffBoard(Wall, u8),
    #[error("your pawn cannot get to {0} this turn")]
    Unreachable(Cell),
    #[error("you have no walls left")]
    NoWallsLeft,
    #[error("wall {0} would overlap a wall already there")]
    WallOverlaps(Wall),
    #[error("wall {0} would cross a wall already there")]
    WallCrosses(Wall),
    #[error("wall {wall} would cut {side}'s pawn off from its goal")]
    WallEncloses { wall: Wall, side: Side },
    #[error("your pawn is blocking another pawn's only way: move it or place a wall")]
    BlockingPawnCannotPass,
}

/// What [`Quoridor::make`] needs to take a move back.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Undo {
    to_move: u8,
    from: Option<Cell>,
    last_move: Option<Move>,
}

impl Quoridor {
    pub fn options(&self) -> &Options {
        &self.options
    }

    pub fn size(&self) -> u8 {
        self.board.size()
    }

    /// Where `side`'s pawn stands; `None` if its player left.
    pub fn pawn(&self, side: Side) -> Option<Cell> {
        self.pawns.get(side.index()).copied().flatten()
    }

    /// Where `side`'s pawn is headed (`None` if there is no such side).
    pub fn target(&self, side: Side) -> Option<Target> {
        (side.index() < self.sides as usize).then(|| self.targets[side.index()])
    }

    /// Walls `side` may still place (0 if there is no such side).
    pub fn walls_left(&self, side: Side) -> u8 {
        self.walls_left.get(side.index()).copied().unwrap_or(0)
    }

    /// Turns `side` has taken, passes and timeouts included (0 if there is
    /// no such side).
    pub fn moves_made(&self, side: Side) -> u16 {
        self.moves_made.get(side.index()).copied().unwrap_or(0)
    }

    /// The walls on the board.
    pub fn walls(&self) -> Vec<Wall> {
        self.board.walls().collect()
    }

    pub fn last_move(&self) -> Option<Move> {
        self.last_move
    }

    /// Sides whose pawn is still on the board, in turn order.
    pub fn active_sides(&self) -> impl Iterator<Item = Side> + '_ {
        (0..self.sides)
            .filter(|&i| self.pawns[i as usize].is_some())
            .map(Side)
    }

    /// The fewest steps `side`'s pawn needs to its goal around the walls,
    /// ignoring pawns (the scoring distance). `None` for a removed pawn.
    pub fn distance(&self, side: Side) -> Option<u32> {
        let c = self.pawn(side)?;
        self.board.distance(c, self.goals[side.index()])
    }

    /// The cells the side to move can move its pawn to (empty once over).
    pub fn pawn_moves(&self) -> Vec<Cell> {
        self.pawn_targets().map(Cell::from_index).collect()
    }

    fn pawn_targets(&self) -> Bitboard {
        if self.outcome.is_some() {
            return Bitboard::EMPTY;
        }
        let side = self.to_move as usize;
        match self.pawns[side] {
            Some(c) => self.board.pawn_targets(c, self.occupied),
            None => Bitboard::EMPTY,
        }
    }

    /// Every wall the side to move may place now (empty when it has none
    /// left).
    pub fn legal_walls(&self) -> Vec<Wall> {
        if self.outcome.is_some() || self.walls_left[self.to_move as usize] == 0 {
            return Vec::new();
        }
        let sets = self.legal_wall_sets();
        Orientation::BOTH
            .into_iter()
            .flat_map(|o| sets[o.index()].map(move |i| Wall::new(Cell::from_index(i), o)))
            .collect()
    }

    /// The legal wall slots, by orientation, whatever the stock.
    ///
    /// 1. Overlap and crossing are masks ([`Board::free_slots`]).
    /// 2. A wall that does not join two points of one barrier (the border
    ///    and the walls chained to it, or one chain of other walls) closes
    ///    no loop, so it cuts no one off ([`Board::loop_closing_slots`]).
    /// 3. The few walls left are checked locally: a region cut off is
    ///    found by flooding both sides of the wall in lockstep
    ///    ([`Board::split_by`]), and only a pawn whose goal reaches into
    ///    such a region gets a full path search.
    pub(crate) fn legal_wall_sets(&self) -> [Bitboard; 2] {
        self.legal_walls_within(self.board.free_slots())
    }

    /// The legal wall slots among `slots` (by orientation), checked as
    /// [`Quoridor::legal_wall_sets`] does: the bot asks only about the few
    /// walls it considers.
    pub(crate) fn legal_walls_within(&self, slots: [Bitboard; 2]) -> [Bitboard; 2] {
        let free_slots = self.board.free_slots();
        let mut free = [slots[0] & free_slots[0], slots[1] & free_slots[1]];
        let touch = self.board.loop_closing_slots();
        let risky = [free[0] & touch[0], free[1] & touch[1]];
        if risky[0].is_empty() && risky[1].is_empty() {
            return free;
        }
        for o in Orientation::BOTH {
            for s in risky[o.index()] {
                let wall = Wall::new(Cell::from_index(s), o);
                if self.cuts_anyone_off(wall) {
                    free[o.index()].remove(s);
                }
            }
        }
        free
    }

    /// Whether placing `wall` (free, and able to close a loop) would leave
    /// some pawn without a path to its goal. Only the regions the wall
    /// closes off ([`Board::split_by`]) can hurt: a pawn inside one needs a
    /// goal cell inside it; a pawn outside them all keeps its way unless
    /// its goal reaches into one, and only then is its path searched again.
    fn cuts_anyone_off(&self, wall: Wall) -> bool {
        let mut board = self.board;
        board.place(wall);
        let regions = board.split_by(wall);
        let closed = regions
            .iter()
            .flatten()
            .fold(Bitboard::EMPTY, |a, r| a | *r);
        if closed.is_empty() {
            return false;
        }
        (0..self.sides as usize).any(|i| {
            let Some(c) = self.pawns[i] else {
                return false;
            };
            let goal = self.goals[i];
            match regions.iter().flatten().find(|r| r.contains(c.index())) {
                Some(region) => (goal & *region).is_empty(),
                None => {
                    (goal & closed).any() && !board.reaches(Bitboard::from_index(c.index()), goal)
                }
            }
        })
    }

    /// Number of pawn moves and walls for the side to move (no pass): the
    /// count at the last ply of perft.
    pub(crate) fn count_moves(&self) -> u64 {
        if self.outcome.is_some() {
            return 0;
        }
        let mut n = self.pawn_targets().count() as u64;
        if self.walls_left[self.to_move as usize] > 0 {
            let [h, v] = self.legal_wall_sets();
            n += (h.count() + v.count()) as u64;
        }
        n
    }

    /// The sides whose only ways to their goal `side`'s pawn stands in
    /// (RULES.md's blocking Decision): Q, with every other pawn standing
    /// still, cannot reach its goal by its own steps and jumps, but could
    /// if `side`'s pawn were removed.
    pub fn blocked_by(&self, side: Side) -> Vec<Side> {
        let Some(p) = self.pawn(side) else {
            return Vec::new();
        };
        self.active_sides()
            .filter(|&q| q != side)
            .filter(|&q| {
                let qc = self.pawn(q).expect("active");
                let mut others = self.occupied;
                others.remove(qc.index());
                let goal = self.goals[q.index()];
                // Plain steps around every pawn are legal moves: if they
                // get Q home, Q is not stuck (the common, cheap case).
                if self.board.reaches_avoiding(qc, goal, others)
                    || self.board.pawn_reaches(qc, others, goal)
                {
                    return false;
                }
                others.remove(p.index());
                self.board.pawn_reaches(qc, others, goal)
            })
            .collect()
    }

    /// Whether `side`'s pawn is blocking anyone (and so may not pass).
    pub fn is_blocking(&self, side: Side) -> bool {
        !self.blocked_by(side).is_empty()
    }

    /// Whether the side to move may pass: unless it is blocking someone,
    /// in which case it must move or place a wall, if it has any such move
    /// at all (so a turn never has no legal move).
    pub fn can_pass(&self) -> bool {
        self.outcome.is_none()
            && (!self.is_blocking(Side(self.to_move))
                || (self.pawn_targets().is_empty() && self.legal_walls().is_empty()))
    }

    /// The move the rules play when the side to move runs out of time: a
    /// pass, or, for a blocking pawn, the automatic step aside (RULES.md
    /// Decision): among its pawn moves, one after which it blocks nobody,
    /// then the one nearest its goal, then the first in the order up,
    /// left, right, down as the pawn faces (straight before diagonal); if
    /// none unblocks, the nearest to its goal; if it cannot move, a pass.
    pub fn timeout_move(&self) -> Move {
        if self.outcome.is_some() || self.can_pass() {
            return Move::Pass;
        }
        let side = self.to_move as usize;
        let from = self.pawns[side].expect("the side to move has a pawn");
        let forward = self.forward[side];
        self.pawn_targets()
            .map(Cell::from_index)
            .min_by_key(|&to| {
                let mut after = self.clone();
                after.occupied.remove(from.index());
                after.occupied.insert(to.index());
                after.pawns[side] = Some(to);
                let still_blocking = after.is_blocking(Side(side as u8));
                let distance = self
                    .board
                    .distance(to, self.goals[side])
                    .unwrap_or(u32::MAX);
                (still_blocking, distance, direction_order(from, to, forward))
            })
            .map_or(Move::Pass, Move::Pawn)
    }

    /// Checks `mv` for the side to move without playing it.
    pub fn check(&self, mv: &Move) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        let side = self.to_move as usize;
        let size = self.size();
        match *mv {
            Move::Pawn(c) => {
                if !c.is_on(size) {
                    return Err(PlayError::CellOffBoard(c, size));
                }
                if !self.pawn_targets().contains(c.index()) {
                    return Err(PlayError::Unreachable(c));
                }
            }
            Move::Wall(w) => {
                if !w.is_on(size) {
                    return Err(PlayError::WallOffBoard(w, size));
                }
                if self.walls_left[side] == 0 {
                    return Err(PlayError::NoWallsLeft);
                }
                match self.board.conflict(w) {
                    Some(true) => return Err(PlayError::WallOverlaps(w)),
                    Some(false) => return Err(PlayError::WallCrosses(w)),
                    None => {}
                }
                let mut board = self.board;
                board.place(w);
                for q in self.active_sides() {
                    let c = self.pawn(q).expect("active");
                    if !board.reaches(Bitboard::from_index(c.index()), self.goals[q.index()]) {
                        return Err(PlayError::WallEncloses { wall: w, side: q });
                    }
                }
            }
            Move::Pass => {
                if !self.can_pass() {
                    return Err(PlayError::BlockingPawnCannotPass);
                }
            }
        }
        Ok(())
    }

    /// Plays a move already known to be legal (or a forced pass) and
    /// returns what [`Quoridor::unmake`] needs to take it back.
    pub(crate) fn make(&mut self, mv: Move) -> Undo {
        let side = self.to_move as usize;
        let undo = Undo {
            to_move: self.to_move,
            from: self.pawns[side],
            last_move: self.last_move,
        };
        match mv {
            Move::Pawn(c) => {
                let from = self.pawns[side].expect("the side to move has a pawn");
                self.occupied.remove(from.index());
                self.occupied.insert(c.index());
                self.pawns[side] = Some(c);
            }
            Move::Wall(w) => {
                self.board.place(w);
                self.walls_left[side] -= 1;
            }
            Move::Pass => {}
        }
        self.moves_made[side] += 1;
        self.ply += 1;
        self.last_move = Some(mv);
        if matches!(mv, Move::Pawn(c) if self.goals[side].contains(c.index())) {
            self.finish(Outcome::Win {
                winner: Side(side as u8),
                reason: EndReason::Goal,
            });
        } else if !self.check_move_limit() {
            self.advance_turn();
        }
        undo
    }

    /// Takes back `mv`, the last move made from a position that was not
    /// over.
    pub(crate) fn unmake(&mut self, mv: Move, undo: Undo) {
        self.to_move = undo.to_move;
        self.last_move = undo.last_move;
        self.outcome = None;
        let side = self.to_move as usize;
        self.ply -= 1;
        self.moves_made[side] -= 1;
        match mv {
            Move::Pawn(c) => {
                let from = undo.from.expect("the pawn was on the board");
                self.occupied.remove(c.index());
                self.occupied.insert(from.index());
                self.pawns[side] = Some(from);
            }
            Move::Wall(w) => {
                self.board.remove(w);
                self.walls_left[side] += 1;
            }
            Move::Pass => {}
        }
    }

    /// Plays `mv` (legal, or the rules' own) and keeps what takes it back.
    fn play_kept(&mut self, mv: Move) {
        let undo = self.make(mv);
        self.undo.push((mv, undo));
    }

    /// Ends the game as a draw once every pawn still on the board has
    /// taken its share of moves (60, 75 or 90).
    fn check_move_limit(&mut self) -> bool {
        let limit = self.options.move_limit();
        let done = self
            .active_sides()
            .all(|s| self.moves_made[s.index()] >= limit);
        if done {
            self.finish(Outcome::Draw {
                reason: EndReason::MoveLimit,
            });
        }
        done
    }

    /// Ends the game. The turn is reset to side 0 so that equal finished
    /// games compare equal (and survive the view's round trip).
    fn finish(&mut self, outcome: Outcome) {
        self.outcome = Some(outcome);
        self.to_move = 0;
    }

    /// Hands the turn to the next pawn still on the board.
    fn advance_turn(&mut self) {
        for k in 1..=self.sides {
            let next = (self.to_move + k) % self.sides;
            if self.pawns[next as usize].is_some() {
                self.to_move = next;
                return;
            }
        }
    }
}

/// Sort key for the step aside: up, left, right, down as the pawn faces;
/// straight before diagonal, left before right, near before far.
pub(crate) fn direction_order(from: Cell, to: Cell, forward: Direction) -> (u8, i8, i8, i8) {
    let df = to.file() as i8 - from.file() as i8;
    let dr = to.rank() as i8 - from.rank() as i8;
    let (ff, fr) = forward.delta();
    let (lf, lr) = forward.left_hand().delta();
    let ahead = df * ff + dr * fr;
    let left = df * lf + dr * lr;
    let group = match (ahead.signum(), left.signum()) {
        (1, _) => 0,
        (0, 1) => 1,
        (0, _) => 2,
        _ => 3,
    };
    (group, left.abs(), -left, ahead.abs())
}

impl Game for Quoridor {
    type Move = Move;
    type Options = Options;
    type Error = PlayError;

    const NAME: &'static str = "quoridor";

    fn new(options: &Options) -> Result<Quoridor, SetupError> {
        options.validate()?;
        let seats = options.seats();
        let mut q = Quoridor {
            options: options.clone(),
            board: Board::new(options.size),
            sides: options.players,
            pawns: [None; MAX_PAWNS],
            occupied: Bitboard::EMPTY,
            targets: [Target::Centre; MAX_PAWNS],
            goals: [Bitboard::EMPTY; MAX_PAWNS],
            forward: [Direction::Up; MAX_PAWNS],
            walls_left: [0; MAX_PAWNS],
            moves_made: [0; MAX_PAWNS],
            to_move: 0,
            ply: 0,
            outcome: None,
            last_move: None,
            undo: UndoStack::new(),
        };
        for (i, seat) in seats.iter().enumerate() {
            q.pawns[i] = Some(seat.start);
            q.occupied.insert(seat.start.index());
            q.targets[i] = seat.target;
            q.goals[i] = options.goal_cells(seat.target);
            q.forward[i] = seat.forward;
            q.walls_left[i] = options.wall_stock();
        }
        Ok(q)
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        text.parse()
    }

    fn sides(&self) -> usize {
        self.sides as usize
    }

    fn to_move(&self) -> Option<Side> {
        self.outcome.is_none().then_some(Side(self.to_move))
    }

    /// Pawn moves (by target cell), then horizontal walls, then vertical
    /// walls, then `pass` when allowed.
    fn legal_moves(&self) -> Vec<Move> {
        if self.outcome.is_some() {
            return Vec::new();
        }
        let mut moves: Vec<Move> = self.pawn_moves().into_iter().map(Move::Pawn).collect();
        moves.extend(self.legal_walls().into_iter().map(Move::Wall));
        if self.can_pass() {
            moves.push(Move::Pass);
        }
        moves
    }

    fn play(&mut self, mv: &Move) -> Result<(), PlayError> {
        self.check(mv)?;
        self.play_kept(*mv);
        Ok(())
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn time_control(&self) -> TimeControl {
        TimeControl::PerMove {
            seconds: self.options.turn_seconds,
        }
    }

    /// A pass, or the automatic step aside of a blocking pawn
    /// ([`Quoridor::timeout_move`]); it counts as a move. On a finished
    /// game nothing happens (and `Played(Pass)` is returned).
    fn timeout(&mut self) -> TimeoutEffect<Move> {
        let mv = self.timeout_move();
        if self.outcome.is_none() {
            self.play_kept(mv);
        }
        TimeoutEffect::Played(mv)
    }

    /// Removes `side`'s pawn (its walls stay). When one side is left it
    /// wins by default (`EndReason::Default`), unless fewer than two moves
    /// were made in all: then the game is aborted with `reason`. The moves
    /// before can no longer be taken back.
    fn forfeit(&mut self, side: Side, reason: EndReason) {
        if self.outcome.is_some() || self.pawn(side).is_none() {
            return;
        }
        self.undo.clear();
        let cell = self.pawns[side.index()].take().expect("checked");
        self.occupied.remove(cell.index());
        let left: Vec<Side> = self.active_sides().collect();
        if left.len() <= 1 {
            self.finish(if self.ply < 2 {
                Outcome::Aborted { reason }
            } else {
                Outcome::Win {
                    winner: left[0],
                    reason: EndReason::Default,
                }
            });
            return;
        }
        if self.to_move == side.0 {
            self.advance_turn();
        }
        self.check_move_limit();
    }

    /// No draw by agreement ([`Game::draw_by_agreement`] stays `false`),
    /// but a game that only the computer still plays (its last person
    /// left) is ended drawn with reason `Abandon` by the server
    /// (RULES.md §2 "Leaving and resigning"). Any other reason changes
    /// nothing.
    fn agree_draw(&mut self, reason: EndReason) -> bool {
        if self.outcome.is_some() || reason != EndReason::Abandon {
            return false;
        }
        self.finish(Outcome::Draw { reason });
        true
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
