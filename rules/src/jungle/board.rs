//! Piece placement: which animal stands where.
//!
//! The board keeps a mailbox (square → piece) for lookups and bitboards
//! (per colour, and rats of both colours) for the set operations move
//! generation needs. It only places pieces; the rules live in
//! [`Position`](super::Position).
//!
//! ```
//! use rules::jungle::{Board, Color, Role};
//!
//! let board = Board::start();
//! let a3 = "a3".parse().unwrap();
//! assert_eq!(board.piece_at(a3).map(|p| (p.color, p.role)), Some((Color::Blue, Role::Elephant)));
//! assert_eq!(board.occupied().count(), 16);
//! ```

use super::bitboard::Bitboard;
use super::role::{Color, Piece, Role};
use super::square::{Square, SQUARES};

/// Where the animals stand. At most one animal of each kind per colour is
/// not enforced here, but [`Setup`](super::Setup) refuses such boards.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Board {
    squares: [Option<Piece>; SQUARES],
    by_color: [Bitboard; 2],
    rats: Bitboard,
}

impl Board {
    /// An empty board.
    pub fn empty() -> Board {
        Board {
            squares: [None; SQUARES],
            by_color: [Bitboard::EMPTY; 2],
            rats: Bitboard::EMPTY,
        }
    }

    /// The start position of RULES.md §3.
    pub fn start() -> Board {
        let mut board = Board::empty();
        let blue = [
            (Role::Tiger, "a1"),
            (Role::Lion, "g1"),
            (Role::Cat, "b2"),
            (Role::Dog, "f2"),
            (Role::Elephant, "a3"),
            (Role::Wolf, "c3"),
            (Role::Leopard, "e3"),
            (Role::Rat, "g3"),
        ];
        for (role, name) in blue {
            let sq: Square = name.parse().expect("start square");
            board.put(
                sq,
                Piece {
                    color: Color::Blue,
                    role,
                },
            );
            board.put(
                sq.flip(),
                Piece {
                    color: Color::Red,
                    role,
                },
            );
        }
        board
    }

    #[inline]
    pub fn piece_at(&self, sq: Square) -> Option<Piece> {
        self.squares[sq.index()]
    }

    /// Squares holding `color`'s animals.
    #[inline]
    pub fn by_color(&self, color: Color) -> Bitboard {
        self.by_color[color.index()]
    }

    /// Squares holding a rat of either colour.
    #[inline]
    pub fn rats(&self) -> Bitboard {
        self.rats
    }

    #[inline]
    pub fn occupied(&self) -> Bitboard {
        self.by_color[0] | self.by_color[1]
    }

    /// Where `color`'s `role` stands, if it is still on the board.
    pub fn find(&self, color: Color, role: Role) -> Option<Square> {
        self.by_color(color)
            .find(|&sq| self.squares[sq.index()].is_some_and(|p| p.role == role))
    }

    /// Puts `piece` on the empty square `sq`.
    #[inline]
    pub fn put(&mut self, sq: Square, piece: Piece) {
        debug_assert!(self.squares[sq.index()].is_none());
        self.squares[sq.index()] = Some(piece);
        self.by_color[piece.color.index()].set(sq);
        if piece.role == Role::Rat {
            self.rats.set(sq);
        }
    }

    /// Removes and returns what stands on `sq`.
    #[inline]
    pub fn take(&mut self, sq: Square) -> Option<Piece> {
        let piece = self.squares[sq.index()].take()?;
        self.by_color[piece.color.index()].clear(sq);
        if piece.role == Role::Rat {
            self.rats.clear(sq);
        }
        Some(piece)
    }

    /// Every piece with its square, a1 first.
    pub fn pieces(&self) -> impl Iterator<Item = (Square, Piece)> + '_ {
        self.occupied()
            .map(|sq| (sq, self.squares[sq.index()].expect("occupied")))
    }
}

impl std::fmt::Debug for Board {
    /// Rank 9 at the top, `.` for empty squares, position-string letters.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        for rank in (0..9).rev() {
            for file in 0..7 {
                let sq = Square::new(file, rank).expect("on board");
                let c = self.piece_at(sq).map_or('.', |p| p.char());
                write!(f, "{c}")?;
            }
            writeln!(f)?;
        }
        Ok(())
    }
}
