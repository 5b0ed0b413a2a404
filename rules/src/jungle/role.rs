//! The two colours and the eight animals.
//!
//! ```
//! use rules::jungle::Role;
//!
//! assert!(Role::Lion.captures_by_rank(Role::Tiger));
//! assert!(Role::Rat.captures_by_rank(Role::Elephant));
//! assert!(!Role::Elephant.captures_by_rank(Role::Rat));
//! assert_eq!(Role::from_rank(8), Some(Role::Elephant));
//! ```

use std::fmt;

use super::square::Square;
use crate::game::Side;

/// A player's colour. Blue is side 0 and moves first; Red is side 1.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Color {
    Blue = 0,
    Red = 1,
}

impl Color {
    pub const BOTH: [Color; 2] = [Color::Blue, Color::Red];

    pub const fn index(self) -> usize {
        self as usize
    }

    pub const fn other(self) -> Color {
        match self {
            Color::Blue => Color::Red,
            Color::Red => Color::Blue,
        }
    }

    /// The game-agnostic side: Blue is `Side(0)`, Red is `Side(1)`.
    pub const fn side(self) -> Side {
        Side(self as u8)
    }

    pub const fn from_side(side: Side) -> Option<Color> {
        match side.0 {
            0 => Some(Color::Blue),
            1 => Some(Color::Red),
            _ => None,
        }
    }

    /// This colour's own den (d1 for Blue, d9 for Red).
    pub const fn den(self) -> Square {
        match self {
            Color::Blue => Square::at(3),
            Color::Red => Square::at(8 * 7 + 3),
        }
    }

    /// The letter used in position strings: `b` or `r`.
    pub const fn char(self) -> char {
        match self {
            Color::Blue => 'b',
            Color::Red => 'r',
        }
    }
}

impl fmt::Display for Color {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Color::Blue => "Blue",
            Color::Red => "Red",
        })
    }
}

/// An animal, ordered by rank: rat 1 up to elephant 8.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub enum Role {
    Rat = 1,
    Cat = 2,
    Dog = 3,
    Wolf = 4,
    Leopard = 5,
    Tiger = 6,
    Lion = 7,
    Elephant = 8,
}

impl Role {
    /// All animals, rat first.
    pub const ALL: [Role; 8] = [
        Role::Rat,
        Role::Cat,
        Role::Dog,
        Role::Wolf,
        Role::Leopard,
        Role::Tiger,
        Role::Lion,
        Role::Elephant,
    ];

    /// The rank number used in notation, 1 (rat) to 8 (elephant).
    pub const fn rank(self) -> u8 {
        self as u8
    }

    /// 0-based index for tables.
    pub const fn index(self) -> usize {
        self as usize - 1
    }

    pub const fn from_rank(rank: u8) -> Option<Role> {
        match rank {
            1..=8 => Some(Role::ALL[rank as usize - 1]),
            _ => None,
        }
    }

    /// Whether this animal may take `victim` on land by rank alone (no
    /// trap involved): equal or lower rank, except that the elephant cannot
    /// take the rat and the rat takes the elephant.
    pub const fn captures_by_rank(self, victim: Role) -> bool {
        match (self, victim) {
            (Role::Elephant, Role::Rat) => false,
            (Role::Rat, Role::Elephant) => true,
            _ => self as u8 >= victim as u8,
        }
    }

    /// Lion and tiger jump across the rivers.
    pub const fn jumps(self) -> bool {
        matches!(self, Role::Lion | Role::Tiger)
    }

    /// The letter used in position strings (upper case for Blue).
    pub const fn letter(self) -> char {
        match self {
            Role::Rat => 'R',
            Role::Cat => 'C',
            Role::Dog => 'D',
            Role::Wolf => 'W',
            Role::Leopard => 'P',
            Role::Tiger => 'T',
            Role::Lion => 'L',
            Role::Elephant => 'E',
        }
    }

    pub const fn from_letter(c: char) -> Option<Role> {
        match c.to_ascii_uppercase() {
            'R' => Some(Role::Rat),
            'C' => Some(Role::Cat),
            'D' => Some(Role::Dog),
            'W' => Some(Role::Wolf),
            'P' => Some(Role::Leopard),
            'T' => Some(Role::Tiger),
            'L' => Some(Role::Lion),
            'E' => Some(Role::Elephant),
            _ => None,
        }
    }

    pub const fn name(self) -> &'static str {
        match self {
            Role::Rat => "rat",
            Role::Cat => "cat",
            Role::Dog => "dog",
            Role::Wolf => "wolf",
            Role::Leopard => "leopard",
            Role::Tiger => "tiger",
            Role::Lion => "lion",
            Role::Elephant => "elephant",
        }
    }
}

impl fmt::Display for Role {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.name())
    }
}

/// An animal of a colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Piece {
    pub color: Color,
    pub role: Role,
}

impl Piece {
    /// The position-string letter: upper case Blue, lower case Red.
    pub const fn char(self) -> char {
        let c = self.role.letter();
        match self.color {
            Color::Blue => c,
            Color::Red => c.to_ascii_lowercase(),
        }
    }

    pub const fn from_char(c: char) -> Option<Piece> {
        let Some(role) = Role::from_letter(c) else {
            return None;
        };
        let color = if c.is_ascii_uppercase() {
            Color::Blue
        } else {
            Color::Red
        };
        Some(Piece { color, role })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn animal_captures_equal_or_lower_rank() {
        for a in Role::ALL {
            for v in Role::ALL {
                let special = matches!(
                    (a, v),
                    (Role::Elephant, Role::Rat) | (Role::Rat, Role::Elephant)
                );
                if !special {
                    assert_eq!(a.captures_by_rank(v), a.rank() >= v.rank(), "{a} takes {v}");
                }
            }
        }
    }

    #[test]
    fn elephant_cannot_capture_rat() {
        assert!(!Role::Elephant.captures_by_rank(Role::Rat));
    }

    #[test]
    fn rat_captures_elephant() {
        assert!(Role::Rat.captures_by_rank(Role::Elephant));
    }

    #[test]
    fn piece_letters_round_trip() {
        for color in Color::BOTH {
            for role in Role::ALL {
                let p = Piece { color, role };
                assert_eq!(Piece::from_char(p.char()), Some(p));
            }
        }
    }
}
