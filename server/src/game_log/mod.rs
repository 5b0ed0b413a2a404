//! A game's log and the one transition that applies an entry to it.
//!
//! Live play (`room/play.rs`), a room brought back from the store
//! (`room/restore.rs`), a replay (`history/replay.rs`) and an imported text
//! (`history/export.rs`) all change a game the same way: through
//! [`GameLog::apply`], one [`Step`] at a time, as shakmaty's `play` is the
//! one way a position changes. Only live play adds clocks, the store and
//! events around it, so a change to what a timeout or a leave does is made
//! here once, and the four agree by construction (the property test in
//! `room/tests/transition.rs` plays random games through all four; the
//! rules of the transition itself are tested beside it, in `tests.rs`,
//! with a property test of takebacks through the store's round trip and
//! the record they leave).

use rules::game::{NotationError, SetupError, TimeoutEffect};
use rules::{EndReason, Game, Side};
use serde::{Deserialize, Serialize};

use crate::games::{AnyGame, AnyMove, GameOptions, MoveError};

/// One entry of a game's log: what a stored entry, an exported line or a
/// player's command becomes once read. Typed (`Step<AnyMove>`) inside the
/// server; with the move as text (`Step<String>`, the room's stored
/// `Entry`) in the store.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Step<M = AnyMove> {
    /// `side` plays the move (a person or the computer).
    Move { side: Side, notation: M },
    /// `side`, to move, ran out of time; the game's rule does the rest.
    Timeout { side: Side },
    /// `sides` resign or abandon, after the moves played so far.
    Forfeit { sides: Vec<Side>, reason: EndReason },
    /// A team's turn passed to the next teammate: the position is the
    /// same (who plays for the side is the room's business).
    Turn,
    /// The game ends drawn: the players agreed (`agreement`, also what
    /// an entry stored without a reason means), or the player who stayed
    /// called it a draw after the opponent left (`abandon`).
    Draw {
        #[serde(default = "agreement")]
        reason: EndReason,
    },
    /// The last `plies` moves are taken back (a takeback the opponent
    /// accepted): the game is as it was before them, and the record
    /// forgets them.
    Takeback { plies: usize },
}

fn agreement() -> EndReason {
    EndReason::Agreement
}

impl<M> Step<M> {
    /// The same step with its move turned into another form (read from
    /// text, or written as text); anything but a move is kept as it is.
    pub fn try_map<N, E>(&self, f: impl FnOnce(&M) -> Result<N, E>) -> Result<Step<N>, E> {
        Ok(match self {
            Step::Move { side, notation } => Step::Move {
                side: *side,
                notation: f(notation)?,
            },
            Step::Timeout { side } => Step::Timeout { side: *side },
            Step::Forfeit { sides, reason } => Step::Forfeit {
                sides: sides.clone(),
                reason: *reason,
            },
            Step::Turn => Step::Turn,
            Step::Draw { reason } => Step::Draw { reason: *reason },
            Step::Takeback { plies } => Step::Takeback { plies: *plies },
        })
    }
}

impl Step {
    /// The step as stored: its move in notation.
    pub fn written(&self) -> Step<String> {
        match self.try_map(|mv| Ok::<_, std::convert::Infallible>(mv.to_string())) {
            Ok(step) => step,
            Err(never) => match never {},
        }
    }
}

/// Sides that left a game (resigned or abandoned) after `ply` moves: a
/// finished game keeps them beside its moves, so that a replay removes a
/// Quoridor pawn where its player left and the moves after it replay.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Leave {
    pub ply: usize,
    pub sides: Vec<Side>,
    pub reason: EndReason,
}

/// Moves taken back after `ply` moves stood: a finished game keeps them
/// beside its moves (which are the ones that stood), for its replay and
/// move list to show.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct TakenBack {
    pub ply: usize,
    pub moves: Vec<String>,
}

/// A move a step added to the record: the player's, or the one the rules
/// played for a side whose time ran out.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Played {
    pub side: Side,
    pub mv: AnyMove,
}

/// Why a step does not fit the game; the game is unchanged.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum LogError {
    #[error("it is not side {}'s turn", .0 .0)]
    NotYourTurn(Side),
    #[error(transparent)]
    Illegal(#[from] MoveError),
    #[error("this game has no draw by agreement")]
    NoDraws,
    #[error("cannot take back: {0}")]
    NoTakeback(#[from] NoTakeback),
}

/// Takebacks a game takes at most: each is stored (an entry, and the
/// moves it took back in the finished game's record), and a player
/// taking back against the computer could otherwise grow them for ever.
pub const MAX_TAKEBACKS: usize = 100;

/// Why a takeback does not fit the game (the game is unchanged).
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
pub enum NoTakeback {
    #[error("a takeback takes back at least one move")]
    Nothing,
    #[error("{plies} moves asked, {moves} played")]
    TooFew { plies: usize, moves: usize },
    #[error("the game is over")]
    Over,
    #[error("this game has had {MAX_TAKEBACKS} takebacks, the most it takes")]
    TooMany,
    #[error("a player left after the first of these moves")]
    AfterLeave,
    /// The rules keep no way back (a game read from its view, which the
    /// server never does).
    #[error("the rules cannot take these moves back")]
    Rules,
}

impl From<NotationError> for LogError {
    fn from(e: NotationError) -> LogError {
        LogError::Illegal(MoveError::Notation(e))
    }
}

/// A game with the record of how it got there: its moves (in notation, as
/// stored and sent), the side that played each, and the sides that left.
#[derive(Clone, Debug)]
pub struct GameLog {
    /// The position after every step so far.
    pub game: AnyGame,
    pub moves: Vec<String>,
    /// The side that played each move (with 3-8 pawns, and after a pawn
    /// leaves, turn order alone cannot tell).
    pub move_sides: Vec<Side>,
    /// The sides that left, and after how many moves (stored with the
    /// finished game, so that its replay removes them there too).
    pub leaves: Vec<Leave>,
    /// Sides that resigned or abandoned (their pawn is gone; the game may
    /// go on without them).
    pub gone: Vec<bool>,
    /// The moves taken back, and after how many standing moves.
    pub takebacks: Vec<TakenBack>,
}

impl GameLog {
    /// A game in its starting position, nothing played.
    pub fn new(options: &GameOptions) -> Result<GameLog, SetupError> {
        let game = AnyGame::new(options)?;
        let sides = game.sides();
        Ok(GameLog {
            game,
            moves: Vec::new(),
            move_sides: Vec::new(),
            leaves: Vec::new(),
            gone: vec![false; sides],
            takebacks: Vec::new(),
        })
    }

    /// The moves played so far, those taken back included: it grows with
    /// every move and never falls, so "once between two moves" (a draw
    /// offer, a takeback request) holds across a takeback.
    pub fn moves_played(&self) -> usize {
        self.moves.len() + self.takebacks.iter().map(|t| t.moves.len()).sum::<usize>()
    }

    /// Whether another takeback would pass [`MAX_TAKEBACKS`].
    pub fn takebacks_spent(&self) -> bool {
        self.takebacks.len() >= MAX_TAKEBACKS
    }

    /// Reads a stored entry in this position: the step it was.
    pub fn read(&self, entry: &Step<String>) -> Result<Step, LogError> {
        Ok(entry.try_map(|text| self.game.parse_move(text))?)
    }

    /// Reads a move written `text` for the side to move, in this position
    /// (once the game is over, playing it is refused in the rules' words).
    pub fn read_move(&self, text: &str) -> Result<Step, LogError> {
        let notation = self.game.parse_move(text)?;
        let side = self.game.to_move().unwrap_or(Side(0));
        Ok(Step::Move { side, notation })
    }

    /// Applies one step: the only way the game and its record change.
    /// Returns the move it added to the record, if any. A step refused
    /// changes nothing.
    pub fn apply(&mut self, step: &Step) -> Result<Option<Played>, LogError> {
        match step {
            Step::Move { side, notation: mv } => {
                // The one turn check; a finished game refuses the move in
                // the rules' words.
                if self.game.to_move().is_some_and(|due| due != *side) {
                    return Err(LogError::NotYourTurn(*side));
                }
                self.game.play(mv)?;
                Ok(Some(self.record(*side, *mv)))
            }
            Step::Timeout { side } => Ok(match self.game.timeout() {
                TimeoutEffect::Lost => None,
                TimeoutEffect::Played(mv) => Some(self.record(*side, mv)),
            }),
            Step::Forfeit { sides, reason } => {
                self.leaves.push(Leave {
                    ply: self.moves.len(),
                    sides: sides.clone(),
                    reason: *reason,
                });
                for &side in sides {
                    self.game.forfeit(side, *reason);
                    if let Some(gone) = self.gone.get_mut(side.index()) {
                        *gone = true;
                    }
                }
                Ok(None)
            }
            Step::Turn => Ok(None),
            Step::Draw { reason } => {
                if !self.game.agree_draw(*reason) {
                    return Err(LogError::NoDraws);
                }
                Ok(None)
            }
            Step::Takeback { plies } => {
                self.take_back(*plies)?;
                Ok(None)
            }
        }
    }

    /// Takes back the last `plies` moves, or refuses and changes nothing:
    /// none asked, fewer played, a finished game, [`MAX_TAKEBACKS`] taken
    /// already, a leave after the first
    /// of them (its pawn would come back), or rules that cannot.
    fn take_back(&mut self, plies: usize) -> Result<(), NoTakeback> {
        let moves = self.moves.len();
        if plies == 0 {
            return Err(NoTakeback::Nothing);
        }
        if self.game.is_over() {
            return Err(NoTakeback::Over);
        }
        if self.takebacks_spent() {
            return Err(NoTakeback::TooMany);
        }
        let Some(keep) = moves.checked_sub(plies) else {
            return Err(NoTakeback::TooFew { plies, moves });
        };
        // A leave at `keep` came before the first move taken back and
        // stays; one after it would bring its pawn back.
        if self.leaves.iter().any(|leave| leave.ply > keep) {
            return Err(NoTakeback::AfterLeave);
        }
        if self.game.takebacks() < plies {
            return Err(NoTakeback::Rules);
        }
        for _ in 0..plies {
            let undone = self.game.undo();
            debug_assert!(undone, "takebacks() promised it");
        }
        self.takebacks.push(TakenBack {
            ply: keep,
            moves: self.moves.split_off(keep),
        });
        self.move_sides.truncate(keep);
        Ok(())
    }

    fn record(&mut self, side: Side, mv: AnyMove) -> Played {
        self.moves.push(mv.to_string());
        self.move_sides.push(side);
        Played { side, mv }
    }
}

#[cfg(test)]
mod tests;
