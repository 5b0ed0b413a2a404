//! The game in progress, whichever it is: [`AnyGame`] is a closed enum
//! that is itself a [`rules::Game`] (as shakmaty's `VariantPosition` is a
//! `Position`), with [`AnyMove`] for its moves, so the server plays every
//! game through the one trait and a move is typed from the edge on.

use rules::clock::Clock;
use rules::crossyray::CrossyRay;
use rules::game::{NotationError, SetupError, TimeoutEffect};
use rules::jungle::Jungle;
use rules::quoridor::{self, Quoridor};
use rules::{EndReason, Game, Outcome, Side, TimeControl};
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::{AnyMove, GameKind, GameOptions, MoveError};

/// A game in progress. Serialised untagged, as the game's own view (the
/// `state` the browser draws).
// A Quoridor board is the largest; games live in their table and are
// rarely moved, so boxing it would only add an indirection to every call.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
pub enum AnyGame {
    CrossyRay(CrossyRay),
    Quoridor(Quoridor),
    Jungle(Jungle),
}

/// Calls `$body` with `$g` bound to the typed game, whichever it is.
macro_rules! each_game {
    ($game:expr, $g:ident => $body:expr) => {
        match $game {
            AnyGame::CrossyRay($g) => $body,
            AnyGame::Quoridor($g) => $body,
            AnyGame::Jungle($g) => $body,
        }
    };
}

/// Calls `$body` with `$g` bound to the typed game and `$wrap` to the
/// [`AnyMove`] variant of its moves.
macro_rules! each_game_move {
    ($game:expr, $g:ident, $wrap:ident => $body:expr) => {
        match $game {
            AnyGame::CrossyRay($g) => {
                let $wrap = AnyMove::CrossyRay;
                $body
            }
            AnyGame::Quoridor($g) => {
                let $wrap = AnyMove::Quoridor;
                $body
            }
            AnyGame::Jungle($g) => {
                let $wrap = AnyMove::Jungle;
                $body
            }
        }
    };
}

impl Game for AnyGame {
    type Move = AnyMove;
    type Options = GameOptions;
    type Error = MoveError;

    /// Not a game of its own: [`AnyGame::kind`] names the one it plays.
    const NAME: &'static str = "any";

    fn new(options: &GameOptions) -> Result<AnyGame, SetupError> {
        Ok(match options {
            GameOptions::CrossyRay(o) => AnyGame::CrossyRay(CrossyRay::new(&o.engine)?),
            GameOptions::Quoridor(o) => AnyGame::Quoridor(Quoridor::new(&o.engine)?),
            GameOptions::Jungle(o) => AnyGame::Jungle(Jungle::new(&o.engine)?),
        })
    }

    fn sides(&self) -> usize {
        each_game!(self, g => g.sides())
    }

    fn to_move(&self) -> Option<Side> {
        each_game!(self, g => g.to_move())
    }

    /// Reads the move in this game's notation, as RULES.md writes it: no
    /// space around it (` e4` and `e4 ` are unreadable).
    fn parse_move(&self, text: &str) -> Result<AnyMove, NotationError> {
        each_game_move!(self, g, wrap => g.parse_move(text).map(wrap))
    }

    fn legal_moves(&self) -> Vec<AnyMove> {
        each_game_move!(self, g, wrap => g.legal_moves().into_iter().map(wrap).collect())
    }

    fn play(&mut self, mv: &AnyMove) -> Result<(), MoveError> {
        match (self, mv) {
            (AnyGame::CrossyRay(g), AnyMove::CrossyRay(m)) => Ok(g.play(m)?),
            (AnyGame::Quoridor(g), AnyMove::Quoridor(m)) => Ok(g.play(m)?),
            (AnyGame::Jungle(g), AnyMove::Jungle(m)) => Ok(g.play(m)?),
            (game, mv) => Err(MoveError::OtherGame {
                game: game.kind(),
                mv: mv.kind(),
            }),
        }
    }

    fn outcome(&self) -> Option<&Outcome> {
        each_game!(self, g => g.outcome())
    }

    fn time_control(&self) -> TimeControl {
        each_game!(self, g => g.time_control())
    }

    fn timeout(&mut self) -> TimeoutEffect<AnyMove> {
        each_game_move!(self, g, wrap => g.timeout().map(wrap))
    }

    fn forfeit(&mut self, side: Side, reason: EndReason) {
        each_game!(self, g => g.forfeit(side, reason))
    }

    fn draw_by_agreement(&self) -> bool {
        each_game!(self, g => g.draw_by_agreement())
    }

    fn agree_draw(&mut self, reason: EndReason) -> bool {
        each_game!(self, g => g.agree_draw(reason))
    }

    fn undo(&mut self) -> bool {
        each_game!(self, g => g.undo())
    }

    fn takebacks(&self) -> usize {
        each_game!(self, g => g.takebacks())
    }

    fn ply(&self) -> usize {
        each_game!(self, g => g.ply())
    }
}

impl AnyGame {
    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::CrossyRay(_) => GameKind::CrossyRay,
            AnyGame::Quoridor(_) => GameKind::Quoridor,
            AnyGame::Jungle(_) => GameKind::Jungle,
        }
    }

    /// Legal moves of the side to move, in notation (as the wire lists
    /// them).
    pub fn legal(&self) -> Vec<String> {
        self.legal_moves().iter().map(ToString::to_string).collect()
    }

    /// Reads `text` in this position and plays it; returns it in canonical
    /// notation. For callers that hold text (tests, tools); the server
    /// reads a move once, at its edge, and plays the typed move.
    pub fn play_text(&mut self, text: &str) -> Result<String, MoveError> {
        let mv = self.parse_move(text)?;
        self.play(&mv)?;
        Ok(mv.to_string())
    }

    /// The game's `state` (as a `match` event carries it) for one ply of a
    /// replay: without the fields that list the moves (Jungle's `moves`
    /// and `legal_moves`), which a list of every ply's position would
    /// repeat at each ply.
    pub fn replay_view(&self) -> Value {
        let mut view = serde_json::to_value(self).unwrap_or(Value::Null);
        match (self, &mut view) {
            (AnyGame::Jungle(_), Value::Object(fields)) => {
                fields.remove("moves");
                fields.remove("legal_moves");
            }
            (AnyGame::CrossyRay(_) | AnyGame::Quoridor(_) | AnyGame::Jungle(_), _) => {}
        }
        view
    }

    /// The game as a move event carries it: the same view, without the
    /// fields that grow with the game or repeat the match's lists
    /// (Jungle's `moves` and `legal_moves`, Quoridor's `walls`), so that a
    /// move costs the same to send at any length of game.
    pub fn serialize_change<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        use serde::Serialize;
        match self {
            AnyGame::Jungle(j) => j.change_view().serialize(s),
            AnyGame::Quoridor(q) => q.change_view().serialize(s),
            AnyGame::CrossyRay(_) => self.serialize(s),
        }
    }

    /// A fresh clock for this game's time control.
    pub fn clock(&self) -> Clock {
        Clock::new(self.time_control(), self.sides())
    }

    /// Scoreboard points per side for a finished game (`None` while it
    /// goes on). Quoridor scores by its own rule (RULES.md §2, the mirror
    /// rule); the other games score a win 1.
    pub fn points(&self) -> Option<Vec<u32>> {
        if let AnyGame::Quoridor(q) = self {
            return quoridor::scores(q);
        }
        let outcome = self.outcome()?;
        Some(
            (0..self.sides())
                .map(|s| u32::from(outcome.winner().is_some_and(|w| w.index() == s)))
                .collect(),
        )
    }
}
