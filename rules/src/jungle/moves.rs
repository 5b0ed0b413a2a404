//! A move and its notation: the animal's rank number, the from-square,
//! `-` or `x` (capture), the to-square.
//!
//! ```
//! use rules::jungle::{Move, Role};
//!
//! let mv: Move = "7 a4xd4".parse().unwrap();
//! assert_eq!(mv.role, Role::Lion);
//! assert!(mv.capture);
//! assert_eq!(mv.to_string(), "7 a4xd4");
//! assert!("9 a4-a5".parse::<Move>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use super::role::Role;
use super::square::Square;
use crate::game::NotationError;

/// A move as written in notation. Whether it is legal is for
/// [`Jungle::play`](super::Jungle) to say; the capture mark must match the
/// board (`-` onto an empty square, `x` onto an enemy).
///
/// Serialized as its notation string, the form the wire protocol carries.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct Move {
    pub role: Role,
    pub from: Square,
    pub to: Square,
    pub capture: bool,
}

impl Move {
    pub const fn new(role: Role, from: Square, to: Square, capture: bool) -> Move {
        Move {
            role,
            from,
            to,
            capture,
        }
    }

    /// Same animal, same squares (the capture mark aside).
    pub fn same_path(self, other: Move) -> bool {
        self.role == other.role && self.from == other.from && self.to == other.to
    }
}

impl fmt::Display for Move {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let sep = if self.capture { 'x' } else { '-' };
        write!(f, "{} {}{}{}", self.role.rank(), self.from, sep, self.to)
    }
}

impl FromStr for Move {
    type Err = NotationError;

    fn from_str(text: &str) -> Result<Move, NotationError> {
        let err = |reason: &str| NotationError::new(text, reason);
        let (rank, squares) = text.split_once(' ').ok_or_else(|| {
            err("expected the animal's rank, a space, then the squares, like \"8 a3-a4\"")
        })?;
        let role = match rank.parse::<u8>().ok().and_then(Role::from_rank) {
            Some(role) if rank.len() == 1 => role,
            _ => {
                return Err(err(
                    "the animal's rank must be a number from 1 (rat) to 8 (elephant)",
                ))
            }
        };
        let sep_at = squares
            .find(['-', 'x'])
            .ok_or_else(|| err("expected '-' (move) or 'x' (capture) between the squares"))?;
        let (from, rest) = squares.split_at(sep_at);
        let capture = rest.starts_with('x');
        let to = &rest[1..];
        let from: Square = from
            .parse()
            .map_err(|e: super::square::ParseSquareError| err(&e.to_string()))?;
        let to: Square = to
            .parse()
            .map_err(|e: super::square::ParseSquareError| err(&e.to_string()))?;
        if from == to {
            return Err(err("the from-square and the to-square are the same"));
        }
        Ok(Move::new(role, from, to, capture))
    }
}

crate::serde_as_notation!(Move);

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn notation_reads_rank_squares_and_capture_mark() {
        let mv: Move = "8 a3-a4".parse().unwrap();
        assert_eq!(mv.role, Role::Elephant);
        assert_eq!(mv.from.to_string(), "a3");
        assert_eq!(mv.to.to_string(), "a4");
        assert!(!mv.capture);
    }

    #[test]
    fn notation_errors_say_what_is_wrong() {
        let cases = [
            ("", "rank"),
            ("8a3-a4", "rank"),
            ("0 a3-a4", "1 (rat) to 8"),
            ("10 a3-a4", "1 (rat) to 8"),
            ("8 a3a4", "'-' (move) or 'x'"),
            ("8 a3-h4", "not a square"),
            ("8 a3-a3", "same"),
            ("8  a3-a4", "not a square"),
        ];
        for (text, needle) in cases {
            let e = text.parse::<Move>().unwrap_err();
            assert_eq!(e.text, text);
            assert!(e.reason.contains(needle), "{text:?}: {}", e.reason);
        }
    }

    #[test]
    fn move_deserializes_from_its_notation() {
        use serde::de::{value::StrDeserializer, IntoDeserializer};
        let de: StrDeserializer<serde::de::value::Error> = "7 a4xd4".into_deserializer();
        let mv = <Move as serde::Deserialize>::deserialize(de).unwrap();
        assert_eq!(serde_json::to_value(mv).unwrap(), "7 a4xd4");
        let de: StrDeserializer<serde::de::value::Error> = "7 a4+d4".into_deserializer();
        assert!(<Move as serde::Deserialize>::deserialize(de).is_err());
    }
}
