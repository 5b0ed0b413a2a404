//! The numbers 1 to 19 that players place, and their cycle.

use std::fmt::{self, Display};

use serde::{Deserialize, Serialize};

/// A number on the board: 1 to 19. The number placed last is the
/// *current* number; it sets the range of the next move.
///
/// ```
/// use rules::crossyray::Number;
///
/// let nineteen = Number::new(19).unwrap();
/// assert_eq!(nineteen.next(), Number::ONE); // there is no 20
/// assert_eq!(Number::new(20), None);
/// assert_eq!(Number::new(0), None);
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(into = "u8", try_from = "u8")]
pub struct Number(u8);

impl Number {
    /// The number that stands on the centre at the start.
    pub const ONE: Number = Number(1);
    /// The last number of the cycle.
    pub const MAX: Number = Number(19);

    /// `Some` for 1 to 19.
    pub const fn new(n: u8) -> Option<Number> {
        if n >= 1 && n <= Number::MAX.0 {
            Some(Number(n))
        } else {
            None
        }
    }

    pub const fn get(self) -> u8 {
        self.0
    }

    /// The number placed after this one: 1 → 2 → … → 19 → 1.
    pub const fn next(self) -> Number {
        if self.0 == Number::MAX.0 {
            Number::ONE
        } else {
            Number(self.0 + 1)
        }
    }

    /// How far a ray from this number reaches: 1 to `self` steps.
    pub const fn range(self) -> usize {
        self.0 as usize
    }
}

impl Display for Number {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.0)
    }
}

impl From<Number> for u8 {
    fn from(n: Number) -> u8 {
        n.0
    }
}

impl TryFrom<u8> for Number {
    type Error = String;

    fn try_from(n: u8) -> Result<Number, String> {
        Number::new(n).ok_or_else(|| format!("{n} is not a CrossyRay number (1 to 19)"))
    }
}
