//! The position string: a whole position on one line, like chess FEN.
//!
//! Four fields separated by single spaces:
//!
//! 1. **Board**, rank 9 first down to rank 1, ranks separated by `/`; in
//!    each rank files `a` to `g`, a letter per animal and a digit `1`–`7`
//!    for a run of empty squares. Letters: `R` rat, `C` cat, `D` dog,
//!    `W` wolf, `P` leopard (panther), `T` tiger, `L` lion, `E` elephant;
//!    upper case for Blue, lower case for Red.
//! 2. **Side to move**: `b` (Blue) or `r` (Red).
//! 3. **Moves without a capture** so far, both sides counted (the game is
//!    drawn when it reaches 100).
//! 4. **Move number**, starting at 1 and going up after each Red move.
//!
//! The start position is
//! `l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1`.
//! The string does not carry the move history, so a game started from one
//! begins the shuttle limit and repetition counts afresh.
//!
//! ```
//! use rules::jungle::Setup;
//!
//! let start = Setup::start();
//! assert_eq!(start.to_string(), "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1");
//! let again: Setup = start.to_string().parse().unwrap();
//! assert_eq!(again, start);
//! assert!("l5t/7 b 0 1".parse::<Setup>().is_err());
//! ```

use std::fmt;
use std::str::FromStr;

use super::bitboard::Bitboard;
use super::board::Board;
use super::position::Position;
use super::role::{Color, Piece, Role};
use super::square::{Square, FILES, RANKS};

/// Everything a position string holds.
/// The largest move number a position string may carry (RULES.md,
/// "Position string"): a game's count goes up to it and stays there, so
/// every position string a game writes reads back.
pub const MAX_MOVE_NUMBER: u64 = u64::MAX;

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Setup {
    pub board: Board,
    pub turn: Color,
    /// Moves without a capture so far (both sides).
    pub no_capture: u16,
    /// Full move number, from 1 (to `u64::MAX`, where the count stops:
    /// [`MAX_MOVE_NUMBER`]).
    pub move_number: u64,
}

/// A position string that cannot be read, and why.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read position {text:?}: {reason}")]
pub struct ParseSetupError {
    pub text: String,
    pub reason: String,
}

impl Setup {
    pub fn start() -> Setup {
        Setup {
            board: Board::start(),
            turn: Color::Blue,
            no_capture: 0,
            move_number: 1,
        }
    }

    pub fn position(&self) -> Position {
        Position::new(self.board.clone(), self.turn)
    }

    /// Moves played before this position (Blue's and Red's).
    pub fn ply(&self) -> usize {
        let before = usize::try_from(self.move_number - 1).unwrap_or(usize::MAX);
        before.saturating_mul(2).saturating_add(self.turn.index())
    }
}

impl fmt::Display for Setup {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        for rank in (0..RANKS).rev() {
            let mut empty = 0;
            for file in 0..FILES {
                let sq = Square::new(file, rank).expect("on board");
                match self.board.piece_at(sq) {
                    None => empty += 1,
                    Some(p) => {
                        if empty > 0 {
                            write!(f, "{empty}")?;
                            empty = 0;
                        }
                        write!(f, "{}", p.char())?;
                    }
                }
            }
            if empty > 0 {
                write!(f, "{empty}")?;
            }
            if rank > 0 {
                f.write_str("/")?;
            }
        }
        write!(
            f,
            " {} {} {}",
            self.turn.char(),
            self.no_capture,
            self.move_number
        )
    }
}

impl FromStr for Setup {
    type Err = ParseSetupError;

    fn from_str(text: &str) -> Result<Setup, ParseSetupError> {
        let err = |reason: String| ParseSetupError {
            text: text.to_string(),
            reason,
        };
        let fields: Vec<&str> = text.split(' ').collect();
        let [board_text, turn, no_capture, move_number] = fields[..] else {
            return Err(err(format!(
                "expected 4 fields separated by single spaces (board, side, moves without capture, move number), found {}",
                fields.len()
            )));
        };
        let ranks: Vec<&str> = board_text.split('/').collect();
        if ranks.len() != RANKS as usize {
            return Err(err(format!(
                "expected 9 ranks separated by '/', found {}",
                ranks.len()
            )));
        }
        let mut board = Board::empty();
        let mut seen = [[false; 8]; 2];
        for (i, rank_text) in ranks.iter().enumerate() {
            let rank = RANKS - 1 - i as u8;
            let mut file = 0u8;
            let mut after_run = false;
            for c in rank_text.chars() {
                if let Some(d) = c.to_digit(10) {
                    if !(1..=7).contains(&d) {
                        return Err(err(format!(
                            "rank {}: empty runs are 1 to 7, not {d}",
                            rank + 1
                        )));
                    }
                    // One digit a run (RULES.md §3): `16` is not `7`.
                    if after_run {
                        return Err(err(format!(
                            "rank {}: one digit for each run of empty squares",
                            rank + 1
                        )));
                    }
                    after_run = true;
                    file += d as u8;
                } else {
                    let piece = Piece::from_char(c).ok_or_else(|| {
                        err(format!(
                            "rank {}: {c:?} is not an animal letter (RCDWPTLE)",
                            rank + 1
                        ))
                    })?;
                    let sq = Square::new(file, rank)
                        .ok_or_else(|| err(format!("rank {} has more than 7 squares", rank + 1)))?;
                    check_square(sq, piece).map_err(&err)?;
                    let seen = &mut seen[piece.color.index()][piece.role.index()];
                    if *seen {
                        return Err(err(format!(
                            "{} has two of the {}",
                            piece.color, piece.role
                        )));
                    }
                    *seen = true;
                    board.put(sq, piece);
                    file += 1;
                    after_run = false;
                }
                if file > FILES {
                    return Err(err(format!("rank {} has more than 7 squares", rank + 1)));
                }
            }
            if file != FILES {
                return Err(err(format!("rank {} has {file} squares, not 7", rank + 1)));
            }
        }
        let in_dens = Color::BOTH
            .iter()
            .filter(|c| board.by_color(**c).contains(c.other().den()))
            .count();
        if in_dens > 1 {
            return Err(err("both sides cannot stand in the enemy den".into()));
        }
        let turn = match turn {
            "b" => Color::Blue,
            "r" => Color::Red,
            _ => return Err(err(format!("the side to move is b or r, not {turn:?}"))),
        };
        let no_capture: u16 = plain_number(no_capture)
            .filter(|n| *n <= super::NO_CAPTURE_LIMIT)
            .ok_or_else(|| {
                err(format!(
                    "moves without a capture must be a number from 0 to 100, not {no_capture:?}"
                ))
            })?;
        let move_number: u64 = plain_number(move_number)
            .filter(|n| *n >= 1)
            .ok_or_else(|| {
                err(format!(
                    "the move number must be a number from 1 to {MAX_MOVE_NUMBER}, \
                     written without a sign or leading zero, not {move_number:?}"
                ))
            })?;
        Ok(Setup {
            board,
            turn,
            no_capture,
            move_number,
        })
    }
}

/// A number as RULES.md writes them: decimal digits, no sign, no
/// leading zero (`05` is not 5).
fn plain_number<T: FromStr>(text: &str) -> Option<T> {
    let plain = !text.is_empty()
        && text.bytes().all(|b| b.is_ascii_digit())
        && (text == "0" || !text.starts_with('0'));
    plain.then(|| text.parse().ok()).flatten()
}

/// Refuses a piece where the rules never let it stand.
fn check_square(sq: Square, piece: Piece) -> Result<(), String> {
    if piece.role != Role::Rat && Bitboard::WATER.contains(sq) {
        return Err(format!(
            "the {} {} cannot stand in the water on {sq}",
            piece.color, piece.role
        ));
    }
    if sq == piece.color.den() {
        return Err(format!(
            "the {} {} cannot stand in its own den {sq}",
            piece.color, piece.role
        ));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn start_position_string_is_documented_one() {
        let s: Setup = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1"
            .parse()
            .unwrap();
        assert_eq!(s, Setup::start());
    }

    #[test]
    fn bad_position_strings_are_refused_with_a_reason() {
        let cases = [
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0", "4 fields"),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1 b 0 1", "9 ranks"),
            (
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T4L b 0 1",
                "6 squares",
            ),
            (
                "l6t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1",
                "more than 7",
            ),
            (
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5X b 0 1",
                "animal letter",
            ),
            ("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L x 0 1", "b or r"),
            (
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 101 1",
                "0 to 100",
            ),
            (
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 0",
                "move number",
            ),
            (
                "l5t/1d3c1/r1p1w1e/7/3E3/7/E1W1P1R/1C3D1/T5L b 0 1",
                "two of the elephant",
            ),
            ("l5t/1d3c1/r1p1w1e/7/7/1W5/E3P1R/1C3D1/T5L b 0 1", "water"),
            (
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T2C1L b 0 1",
                "own den",
            ),
            (
                "l5t/1d3c1/r1p1w1e/16/7/7/E1W1P1R/1C3D1/T5L b 0 1",
                "one digit for each run",
            ),
            (
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 05 1",
                "0 to 100",
            ),
            (
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b +5 1",
                "0 to 100",
            ),
            (
                "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 01",
                "move number",
            ),
        ];
        for (text, needle) in cases {
            let e = text.parse::<Setup>().unwrap_err();
            assert!(e.reason.contains(needle), "{text}: {}", e.reason);
        }
    }
}
