//! The game-agnostic interface every game implements.
//!
//! A game knows *sides* (the things that take turns: a CrossyRay player, a
//! Quoridor pawn, a Jungle colour), never people. The server maps people to
//! sides: in a Quoridor team game several members share one side and take
//! its turns in rotation, which the rules never need to know.
//!
//! ```
//! use rules::game::{Game, Side};
//! use rules::crossyray::{CrossyRay, Options};
//!
//! let mut game = CrossyRay::new(&Options::default()).unwrap();
//! assert_eq!(game.to_move(), Some(Side(0)));
//! let first = game.legal_moves()[0];
//! game.play(&first).unwrap();
//! assert_eq!(game.to_move(), Some(Side(1)));
//! // Notation round-trips.
//! let text = first.to_string();
//! assert_eq!(text.parse::<rules::crossyray::Move>().unwrap(), first);
//! ```

use std::fmt::{self, Debug, Display};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};

/// One of the parties that take turns, numbered from 0 in turn order.
///
/// What a side is depends on the game: CrossyRay side 0 moves first, Jungle
/// side 0 is Blue, Quoridor side `i` is the `i`-th pawn in turn order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(transparent)]
pub struct Side(pub u8);

impl Side {
    pub fn index(self) -> usize {
        self.0 as usize
    }
}

impl Display for Side {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "side {}", self.0)
    }
}

/// Why a game ended. One list for all games so the server, the database and
/// the client share one vocabulary; each game uses the subset its rules
/// name (RULES.md lists them).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum EndReason {
    /// CrossyRay: the mover entered the opponent's goal. Quoridor: a pawn
    /// reached its goal edge or the centre.
    Goal,
    /// CrossyRay: the mover entered their own goal; the opponent wins.
    OwnGoal,
    /// CrossyRay: the player to move had no legal move.
    Lock,
    /// Jungle: an animal entered the enemy den.
    Den,
    /// Jungle: the side to move had no legal move (including through the
    /// shuttle limit).
    NoMoves,
    /// A clock ran out.
    Timeout,
    Resign,
    /// A player left the game (or stayed disconnected past the grace time).
    Abandon,
    /// Quoridor: every other side left, so the last one wins by default.
    Default,
    /// Draw: the same position with the same side to move a third time.
    Repetition,
    /// Jungle draw: 100 moves in total without a capture.
    NoCapture,
    /// Quoridor draw: the per-pawn move limit was reached.
    MoveLimit,
    /// Draw by agreement.
    Agreement,
}

/// Its serde name (`own_goal`), as stored and sent.
impl Display for EndReason {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(crate::serde_name::variant_name(self))
    }
}

/// How a finished game ended.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Outcome {
    /// One side won.
    Win {
        winner: Side,
        reason: EndReason,
    },
    Draw {
        reason: EndReason,
    },
    /// Ended with no result (for example, everyone left before two moves
    /// were made).
    Aborted {
        reason: EndReason,
    },
}

impl Outcome {
    /// Side `winner`'s win for `reason`: the tests' shorthand.
    #[cfg(test)]
    pub(crate) fn win(winner: u8, reason: EndReason) -> Outcome {
        Outcome::Win {
            winner: Side(winner),
            reason,
        }
    }

    pub fn winner(&self) -> Option<Side> {
        match self {
            Outcome::Win { winner, .. } => Some(*winner),
            _ => None,
        }
    }

    pub fn reason(&self) -> EndReason {
        match self {
            Outcome::Win { reason, .. }
            | Outcome::Draw { reason }
            | Outcome::Aborted { reason } => *reason,
        }
    }
}

/// What the server does with a side's time: the game's options decide it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum TimeControl {
    /// No clock.
    Unlimited,
    /// A chess clock per side: `minutes` to start with, `increment`
    /// seconds added after each of the side's moves. Running out loses
    /// (see [`Game::timeout`]).
    Clock { minutes: u32, increment: u32 },
    /// A fresh allowance for every turn (Quoridor). What running out
    /// does is the game's rule ([`Game::timeout`]).
    PerMove { seconds: u32 },
}

/// The clock presets RULES.md names for CrossyRay and Jungle.
pub const CLOCK_PRESETS: [(u32, u32); 4] = [(3, 2), (5, 3), (10, 5), (15, 10)];

/// What [`Game::timeout`] did to the side whose time ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum TimeoutEffect<M> {
    /// The side lost (the game is now over).
    Lost,
    /// The rules played this move on the side's behalf (Quoridor: a pass,
    /// or a blocking pawn stepping aside). The game may go on.
    Played(M),
}

impl<M> TimeoutEffect<M> {
    /// The same effect with the move turned into another type (a game
    /// that wraps others wraps the move too).
    pub fn map<N>(self, f: impl FnOnce(M) -> N) -> TimeoutEffect<N> {
        match self {
            TimeoutEffect::Lost => TimeoutEffect::Lost,
            TimeoutEffect::Played(mv) => TimeoutEffect::Played(f(mv)),
        }
    }
}

/// Failure to set up a game from its options: the message is shown to the
/// host as it is.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{0}")]
pub struct SetupError(pub String);

/// A move that could not be parsed from its notation.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("cannot read move {text:?}: {reason}")]
pub struct NotationError {
    pub text: String,
    pub reason: String,
}

impl NotationError {
    pub fn new(text: &str, reason: impl Into<String>) -> Self {
        NotationError {
            text: text.to_string(),
            reason: reason.into(),
        }
    }
}

/// A game: its state, whose turn it is, its legal moves, and the result.
///
/// The state carries all the history its rules need (Jungle's repetition
/// and shuttle rules look back), so `legal_moves` and `play` need nothing
/// else. Implementations are plain values: clone one to look ahead.
pub trait Game: Clone + Debug + Send + Sync + Serialize + DeserializeOwned + 'static {
    /// A move, written in the game's notation (RULES.md) and read back
    /// by [`Game::parse_move`]. Each game's own move type also reads
    /// itself (`FromStr`); a game that hosts several games (the server's
    /// closed enum) needs the position to know which notation it reads.
    type Move: Clone + Debug + PartialEq + Eq + Display + Send + Sync + 'static;
    /// The settings a host picks before the game starts.
    type Options: Clone + Debug + Serialize + Send + Sync + 'static;
    /// Why a move was refused: shown to the player, so worded for them.
    type Error: std::error::Error + Clone + Send + Sync + 'static;

    /// Machine name: `crossyray`, `quoridor`, `jungle`.
    const NAME: &'static str;

    /// A new game in its starting position. `options` are checked here, so
    /// a bad board size is refused before anyone sits down.
    fn new(options: &Self::Options) -> Result<Self, SetupError>;

    /// How many sides take turns (pawns, colours).
    fn sides(&self) -> usize;

    /// The side to move, or `None` once the game is over.
    fn to_move(&self) -> Option<Side>;

    /// Reads a move written in the game's notation, in this position.
    fn parse_move(&self, text: &str) -> Result<Self::Move, NotationError>;

    /// Every legal move for the side to move (empty once over). A move that
    /// can be reached in two ways is listed once.
    fn legal_moves(&self) -> Vec<Self::Move>;

    /// Plays `mv` for the side to move. On error the state is unchanged.
    fn play(&mut self, mv: &Self::Move) -> Result<(), Self::Error>;

    /// The result, once the game is over.
    fn outcome(&self) -> Option<&Outcome>;

    /// The time control these options ask for; the server runs the clock.
    fn time_control(&self) -> TimeControl;

    /// The side to move ran out of time: apply the game's rule.
    fn timeout(&mut self) -> TimeoutEffect<Self::Move>;

    /// `side` resigns or leaves (`reason` is `Resign` or `Abandon`).
    /// Two-sided games end with the other side winning; Quoridor with more
    /// sides removes the pawn and goes on.
    fn forfeit(&mut self, side: Side, reason: EndReason);

    /// Whether the players may agree to a draw (RULES.md: only games whose
    /// rules have draws, between two sides).
    fn draw_by_agreement(&self) -> bool {
        false
    }

    /// The game ends drawn by the players' choice: `reason` is
    /// `Agreement` (both agreed), or `Abandon` (the opponent left and the
    /// player who stayed called it a draw). Returns `false`, changing
    /// nothing, where the rules allow no such draw or the game is already
    /// over.
    fn agree_draw(&mut self, _reason: EndReason) -> bool {
        false
    }

    /// Takes back the last move: the one [`Game::play`] played, or the
    /// one the rules played in [`Game::timeout`] (a Quoridor pass or step
    /// aside). The game is then exactly as it was before that move (equal,
    /// with the same legal moves, serialised view and position string).
    /// Returns `false`, changing nothing, when [`Game::takebacks`] is 0.
    fn undo(&mut self) -> bool;

    /// How many of the last moves [`Game::undo`] can take back now, one
    /// after the other. None once the game is over (players take back
    /// moves of a game in progress, never its end), none before a change
    /// the rules do not take back (a Quoridor pawn that left), and none
    /// before the game was read from its serialised view (CrossyRay and
    /// Quoridor keep what undo needs beside the position, not in the
    /// view; a Jungle game replays its moves, so keeps them all).
    fn takebacks(&self) -> usize;

    /// Number of moves played so far, counting passes and moves the rules
    /// played on a side's behalf after a timeout.
    fn ply(&self) -> usize;

    fn is_over(&self) -> bool {
        self.outcome().is_some()
    }
}

/// Counts the leaf nodes of the move tree `depth` plies deep.
///
/// Convention (as in shakmaty): a move that ends the game counts 1 only at
/// the last ply; a line that ends before the last ply counts nothing.
/// Games with a faster specialised perft use this one as their reference
/// in tests.
pub fn perft<G: Game>(game: &G, depth: u32) -> u64 {
    if depth == 0 {
        return 1;
    }
    let moves = game.legal_moves();
    if depth == 1 {
        return moves.len() as u64;
    }
    let mut nodes = 0;
    for mv in &moves {
        let mut child = game.clone();
        child
            .play(mv)
            .expect("legal_moves returned a move that play refused");
        if !child.is_over() {
            nodes += perft(&child, depth - 1);
        }
    }
    nodes
}
