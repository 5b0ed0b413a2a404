//! The rules of a single position: where each animal may go, what it may
//! capture, and playing a move on the board.
//!
//! A [`Position`] knows the board and the side to move, nothing about the
//! past; the history-aware rules (shuttle limit, repetition, 100 moves
//! without capture) live in [`History`](super::History), and
//! [`Jungle`](super::Jungle) puts the two together.
//!
//! ```
//! use rules::jungle::{MoveList, Position};
//!
//! let pos = Position::start();
//! let mut moves = MoveList::new();
//! pos.generate(&mut moves);
//! assert_eq!(moves.len(), 24);
//! ```

use super::bitboard::Bitboard;
use super::board::Board;
use super::moves::Move;
use super::role::{Color, Piece, Role};
use super::square::{Square, SQUARES};
use super::zobrist;

/// The most moves a position can have: 8 animals, each at most 4
/// directions (a river jump replaces the step into the water).
pub const MAX_MOVES: usize = 32;

/// A fixed-capacity list of moves, on the stack.
#[derive(Clone)]
pub struct MoveList {
    moves: [Move; MAX_MOVES],
    len: usize,
}

const NULL_MOVE: Move = Move::new(Role::Rat, Square::at(0), Square::at(0), false);

impl MoveList {
    pub fn new() -> MoveList {
        MoveList {
            moves: [NULL_MOVE; MAX_MOVES],
            len: 0,
        }
    }

    #[inline]
    pub fn push(&mut self, mv: Move) {
        self.moves[self.len] = mv;
        self.len += 1;
    }

    pub fn clear(&mut self) {
        self.len = 0;
    }

    /// Keeps the moves for which `keep` is true.
    pub fn retain(&mut self, mut keep: impl FnMut(&Move) -> bool) {
        let mut j = 0;
        for i in 0..self.len {
            if keep(&self.moves[i]) {
                self.moves[j] = self.moves[i];
                j += 1;
            }
        }
        self.len = j;
    }
}

impl Default for MoveList {
    fn default() -> Self {
        MoveList::new()
    }
}

impl std::ops::Deref for MoveList {
    type Target = [Move];
    fn deref(&self) -> &[Move] {
        &self.moves[..self.len]
    }
}

impl std::ops::DerefMut for MoveList {
    fn deref_mut(&mut self) -> &mut [Move] {
        &mut self.moves[..self.len]
    }
}

impl std::fmt::Debug for MoveList {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_list()
            .entries(self.iter().map(|m| m.to_string()))
            .finish()
    }
}

/// A river jump: where it lands and the water squares it crosses.
#[derive(Clone, Copy)]
struct Jump {
    to: u8,
    path: u64,
}

const NO_JUMP: Jump = Jump { to: 0, path: 0 };

const NEIGHBOURS: [Bitboard; SQUARES] = {
    let mut t = [Bitboard::EMPTY; SQUARES];
    let mut i = 0;
    while i < SQUARES {
        t[i] = Bitboard::from_square(Square::at(i as u8)).neighbours();
        i += 1;
    }
    t
};

/// Jumps from each land square: at most 4 (one per direction), count in
/// `JUMP_COUNT`.
const JUMPS: ([[Jump; 4]; SQUARES], [u8; SQUARES]) = {
    let mut jumps = [[NO_JUMP; 4]; SQUARES];
    let mut count = [0u8; SQUARES];
    let dirs: [(i8, i8); 4] = [(0, 1), (0, -1), (1, 0), (-1, 0)];
    let mut i = 0;
    while i < SQUARES {
        let from = Square::at(i as u8);
        if !Bitboard::WATER.contains(from) {
            let mut d = 0;
            while d < 4 {
                let (df, dr) = dirs[d];
                let mut f = from.file() as i8 + df;
                let mut r = from.rank() as i8 + dr;
                let mut path = 0u64;
                while f >= 0 && f < 7 && r >= 0 && r < 9 {
                    let sq = Square::at((r * 7 + f) as u8);
                    if !Bitboard::WATER.contains(sq) {
                        break;
                    }
                    path |= 1 << sq.index();
                    f += df;
                    r += dr;
                }
                if path != 0 && f >= 0 && f < 7 && r >= 0 && r < 9 {
                    let n = count[i] as usize;
                    jumps[i][n] = Jump {
                        to: (r * 7 + f) as u8,
                        path,
                    };
                    count[i] += 1;
                }
                d += 1;
            }
        }
        i += 1;
    }
    (jumps, count)
};

/// Whether an animal of `attacker` standing on `from` may capture `victim`
/// on `to`, the move itself being possible. This is every capture rule of
/// RULES.md §3:
///
/// - water and land never capture each other (a rat in the water cannot
///   take anything on land; nothing on land can take a rat in the water);
/// - a rat in the water takes the enemy rat in the water;
/// - an enemy on one of the attacker's own traps can be taken by any
///   animal;
/// - otherwise by rank, the rat taking the elephant and not the reverse.
#[inline]
pub fn can_capture(attacker: Piece, from: Square, to: Square, victim: Piece) -> bool {
    let from_water = Bitboard::WATER.contains(from);
    let to_water = Bitboard::WATER.contains(to);
    if from_water != to_water {
        return false;
    }
    if to_water {
        return true;
    }
    if Bitboard::traps(attacker.color).contains(to) {
        return true;
    }
    attacker.role.captures_by_rank(victim.role)
}

/// A board with a side to move, and its Zobrist hash.
#[derive(Clone, PartialEq, Eq)]
pub struct Position {
    board: Board,
    turn: Color,
    hash: u64,
}

impl std::fmt::Debug for Position {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "{:?}{} to move", self.board, self.turn)
    }
}

impl Position {
    /// The start position, Blue to move.
    pub fn start() -> Position {
        Position::new(Board::start(), Color::Blue)
    }

    pub fn new(board: Board, turn: Color) -> Position {
        let mut hash = if turn == Color::Red {
            zobrist::RED_TO_MOVE
        } else {
            0
        };
        for (sq, p) in board.pieces() {
            hash ^= zobrist::piece_key(p.color, p.role, sq);
        }
        Position { board, turn, hash }
    }

    #[inline]
    pub fn board(&self) -> &Board {
        &self.board
    }

    /// The side to move.
    #[inline]
    pub fn turn(&self) -> Color {
        self.turn
    }

    /// The Zobrist hash of board and side to move.
    #[inline]
    pub fn hash(&self) -> u64 {
        self.hash
    }

    /// The colour with an animal in the enemy den, if any: that colour has
    /// won.
    pub fn den_winner(&self) -> Option<Color> {
        Color::BOTH
            .into_iter()
            .find(|&c| self.board.by_color(c).contains(c.other().den()))
    }

    /// Squares an animal of the side to move could step or jump to from
    /// `from`, before looking at what stands there (own pieces and own den
    /// excluded, water only for the rat, jumps only when no rat is on the
    /// path).
    #[inline]
    fn targets(&self, from: Square, role: Role) -> Bitboard {
        self.targets_of(self.turn, from, role)
    }

    #[inline]
    fn targets_of(&self, us: Color, from: Square, role: Role) -> Bitboard {
        let mut targets = NEIGHBOURS[from.index()];
        if role != Role::Rat {
            targets &= Bitboard::LAND;
        }
        if role.jumps() {
            let (jumps, count) = (&JUMPS.0[from.index()], JUMPS.1[from.index()]);
            let rats = self.board.rats().0;
            for jump in &jumps[..count as usize] {
                if jump.path & rats == 0 {
                    targets.0 |= 1 << jump.to;
                }
            }
        }
        let mut forbidden = self.board.by_color(us);
        forbidden.set(us.den());
        targets & !forbidden
    }

    /// How many squares `color`'s animals could move to if it were their
    /// turn, counting every enemy-occupied target (captures not checked):
    /// a cheap mobility measure for the evaluation.
    pub fn mobility(&self, color: Color) -> u32 {
        self.board
            .by_color(color)
            .map(|from| {
                let role = self.board.piece_at(from).expect("own piece").role;
                self.targets_of(color, from, role).count()
            })
            .sum()
    }

    /// Adds every move the rules allow on this board to `out`, ignoring the
    /// shuttle limit (which needs the history).
    pub fn generate(&self, out: &mut MoveList) {
        self.generate_onto(Bitboard::ALL, out);
    }

    /// Adds the moves that capture or enter the enemy den (the moves a
    /// quiescence search looks at).
    pub fn generate_tactical(&self, out: &mut MoveList) {
        let mut mask = self.board.by_color(self.turn.other());
        mask.set(self.turn.other().den());
        self.generate_onto(mask, out);
    }

    #[inline]
    fn generate_onto(&self, mask: Bitboard, out: &mut MoveList) {
        for from in self.board.by_color(self.turn) {
            let piece = self.board.piece_at(from).expect("own piece");
            for to in self.targets(from, piece.role) & mask {
                match self.board.piece_at(to) {
                    None => out.push(Move::new(piece.role, from, to, false)),
                    Some(victim) => {
                        if can_capture(piece, from, to, victim) {
                            out.push(Move::new(piece.role, from, to, true));
                        }
                    }
                }
            }
        }
    }

    /// Whether the rules of this board allow `mv` (capture mark included),
    /// the shuttle limit aside.
    pub fn is_legal(&self, mv: Move) -> bool {
        let Some(piece) = self.board.piece_at(mv.from) else {
            return false;
        };
        if piece.color != self.turn || piece.role != mv.role {
            return false;
        }
        if !self.targets(mv.from, piece.role).contains(mv.to) {
            return false;
        }
        match self.board.piece_at(mv.to) {
            None => !mv.capture,
            Some(victim) => mv.capture && can_capture(piece, mv.from, mv.to, victim),
        }
    }

    /// Why the rules of this board refuse `mv`, or `None` if they allow it
    /// (the shuttle limit aside).
    pub fn why_illegal(&self, mv: Move) -> Option<super::PlayError> {
        use super::PlayError as E;
        let Some(piece) = self.board.piece_at(mv.from) else {
            return Some(E::NoAnimal { square: mv.from });
        };
        if piece.color != self.turn {
            return Some(E::NotYourAnimal { square: mv.from });
        }
        if piece.role != mv.role {
            return Some(E::WrongAnimal {
                square: mv.from,
                written: mv.role,
                found: piece.role,
            });
        }
        if mv.to == self.turn.den() {
            return Some(E::OwnDen);
        }
        let step = NEIGHBOURS[mv.from.index()].contains(mv.to);
        let jump = if piece.role.jumps() {
            JUMPS.0[mv.from.index()][..JUMPS.1[mv.from.index()] as usize]
                .iter()
                .find(|j| j.to as usize == mv.to.index())
        } else {
            None
        };
        if !step && jump.is_none() {
            return Some(E::Unreachable { role: piece.role });
        }
        if step && piece.role != Role::Rat && Bitboard::WATER.contains(mv.to) {
            return Some(E::Water { role: piece.role });
        }
        if let Some(j) = jump {
            if j.path & self.board.rats().0 != 0 {
                return Some(E::JumpBlocked);
            }
        }
        match self.board.piece_at(mv.to) {
            Some(victim) if victim.color == self.turn => Some(E::OwnAnimal { square: mv.to }),
            Some(victim) if !can_capture(piece, mv.from, mv.to, victim) => Some(E::CannotCapture {
                attacker: piece.role,
                victim: victim.role,
            }),
            Some(_) if !mv.capture => Some(E::CaptureMark { capture: true }),
            None if mv.capture => Some(E::CaptureMark { capture: false }),
            _ => None,
        }
    }

    /// Plays `mv`, which must be legal here, and returns the captured
    /// animal. Undo with [`Position::unmake`].
    #[inline]
    pub fn make(&mut self, mv: Move) -> Option<Piece> {
        let piece = self
            .board
            .take(mv.from)
            .expect("a piece on the from-square");
        let captured = self.board.take(mv.to);
        if let Some(c) = captured {
            self.hash ^= zobrist::piece_key(c.color, c.role, mv.to);
        }
        self.board.put(mv.to, piece);
        self.hash ^= zobrist::piece_key(piece.color, piece.role, mv.from)
            ^ zobrist::piece_key(piece.color, piece.role, mv.to)
            ^ zobrist::RED_TO_MOVE;
        self.turn = self.turn.other();
        captured
    }

    /// Takes back `mv`, which was the last move made, given what it
    /// captured.
    #[inline]
    pub fn unmake(&mut self, mv: Move, captured: Option<Piece>) {
        self.turn = self.turn.other();
        let piece = self.board.take(mv.to).expect("the moved piece");
        self.board.put(mv.from, piece);
        self.hash ^= zobrist::piece_key(piece.color, piece.role, mv.from)
            ^ zobrist::piece_key(piece.color, piece.role, mv.to)
            ^ zobrist::RED_TO_MOVE;
        if let Some(c) = captured {
            self.board.put(mv.to, c);
            self.hash ^= zobrist::piece_key(c.color, c.role, mv.to);
        }
    }

    /// Passes the move to the other side (for the search's null-move
    /// pruning; never a legal move in the game). Undo with the same call.
    #[inline]
    pub fn toggle_turn(&mut self) {
        self.turn = self.turn.other();
        self.hash ^= zobrist::RED_TO_MOVE;
    }

    /// The squares one step from `sq` (used by the evaluation).
    #[inline]
    pub fn neighbours(sq: Square) -> Bitboard {
        NEIGHBOURS[sq.index()]
    }
}
