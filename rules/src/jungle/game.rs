//! [`Jungle`]: a whole game — position, history, options and result — and
//! its [`Game`](crate::game::Game) implementation.

use serde::{Deserialize, Serialize};

use crate::clock::ClockSetting;
use crate::written::{present, Written};

use super::error::PlayError;
use super::history::{History, NO_CAPTURE_LIMIT, REPETITION_LIMIT};
use super::moves::Move;
use super::position::{MoveList, Position};
use super::record::Record;
use super::role::Color;
use super::setup::Setup;
use crate::game::{
    EndReason, Game, NotationError, Outcome, SetupError, Side, TimeControl, TimeoutEffect,
};

/// What a host picks before a Jungle game.
///
/// Serialized as `{"clock": {"minutes": M, "increment": S} | null, "start":
/// "<position string>" | null}` (the clock is also read as `[M, S]`); both
/// fields may be left out.
#[derive(Clone, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(try_from = "RawOptions")]
pub struct Options {
    /// Minutes and increment seconds per move: one of
    /// [`CLOCK_PRESETS`](crate::game::CLOCK_PRESETS) (3+2, 5+3, 10+5, 15+10), or `None` for no clock.
    pub clock: Option<ClockSetting>,
    /// A position string to start from instead of the usual start
    /// (see [`Setup`]).
    pub start: Option<String>,
}

impl Options {
    /// The fields a host may set, as written (any other is refused).
    pub const FIELDS: [&'static str; 2] = ["clock", "start"];
}

/// The options as written: `start` is a string or `null`, and anything
/// else is refused in words, not in a Rust type's.
#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct RawOptions {
    #[serde(default)]
    clock: Option<ClockSetting>,
    #[serde(default, deserialize_with = "present")]
    start: Option<Written>,
}

impl TryFrom<RawOptions> for Options {
    type Error = String;

    fn try_from(raw: RawOptions) -> Result<Options, String> {
        let start = match raw.start {
            None | Some(Written::Null) => None,
            Some(Written::Text(start)) => Some(start),
            Some(other) => {
                return Err(format!(
                    "start must be a position string or null, not {other}"
                ))
            }
        };
        Ok(Options {
            clock: raw.clock,
            start,
        })
    }
}

/// A Jungle game. See the [module documentation](super) for an example and
/// the serialized view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "View", try_from = "View")]
pub struct Jungle {
    options: Options,
    setup: Setup,
    pos: Position,
    history: History,
    /// Legal moves of the current position; empty once over.
    legal: Vec<Move>,
    outcome: Option<Outcome>,
}

impl Jungle {
    /// A game from the usual start, no clock.
    pub fn start() -> Jungle {
        Jungle::from_setup(Options::default(), Setup::start())
    }

    /// A game from a position string (see [`Setup`]), no clock.
    pub fn from_position(text: &str) -> Result<Jungle, SetupError> {
        Jungle::new(&Options {
            clock: None,
            start: Some(text.to_string()),
        })
    }

    fn from_setup(options: Options, setup: Setup) -> Jungle {
        let mut game = Jungle {
            options,
            pos: setup.position(),
            history: History::new(setup.no_capture),
            setup,
            legal: Vec::new(),
            outcome: None,
        };
        game.update();
        game
    }

    /// A game from `options` with `moves` played, each checked.
    pub fn replay(options: &Options, moves: &[Move]) -> Result<Jungle, String> {
        let mut game = Jungle::new(options).map_err(|e| e.0)?;
        for (i, mv) in moves.iter().enumerate() {
            game.play_move(*mv)
                .map_err(|e| format!("move {} ({mv}): {e}", i + 1))?;
        }
        Ok(game)
    }

    pub fn options(&self) -> &Options {
        &self.options
    }

    /// The current position (board and side to move).
    pub fn position(&self) -> &Position {
        &self.pos
    }

    /// The moves played, with what the history-aware rules need.
    pub fn history(&self) -> &History {
        &self.history
    }

    /// The position the game started from.
    pub fn start_setup(&self) -> &Setup {
        &self.setup
    }

    /// The current position as a [`Setup`]; its string is the current
    /// position string.
    pub fn setup(&self) -> Setup {
        let plies = self.setup.turn.index() + self.history.len();
        Setup {
            board: self.pos.board().clone(),
            turn: self.pos.turn(),
            no_capture: self.history.no_capture().min(NO_CAPTURE_LIMIT),
            // The count stops at the largest number a position string
            // may carry, so the string always reads back.
            move_number: self
                .setup
                .move_number
                .saturating_add(u64::try_from(plies / 2).unwrap_or(u64::MAX)),
        }
    }

    /// The current position string.
    pub fn position_string(&self) -> String {
        self.setup().to_string()
    }

    /// The moves played as a numbered list.
    pub fn record(&self) -> Record {
        Record {
            first_number: self.setup.move_number,
            first_turn: self.setup.turn,
            moves: self.history.entries().iter().map(|e| e.mv).collect(),
        }
    }

    pub fn last_move(&self) -> Option<Move> {
        self.history.last().map(|e| e.mv)
    }

    /// The colour to move (also once the game is over).
    pub fn turn(&self) -> Color {
        self.pos.turn()
    }

    /// The move the shuttle limit forbids now, if any.
    pub fn shuttle_ban(&self) -> Option<Move> {
        self.history.shuttle_ban()
    }

    /// The legal moves, without allocating.
    pub fn legal(&self) -> &[Move] {
        &self.legal
    }

    /// Plays `mv` (same as [`Game::play`], by value).
    pub fn play_move(&mut self, mv: Move) -> Result<(), PlayError> {
        if self.outcome.is_some() {
            return Err(PlayError::GameOver);
        }
        if !self.legal.contains(&mv) {
            if let Some(why) = self.pos.why_illegal(mv) {
                return Err(why);
            }
            if let Some(banned) = self.history.shuttle_ban() {
                return Err(PlayError::ShuttleLimit { banned });
            }
            unreachable!("a move the position allows that is neither banned nor listed: {mv}");
        }
        let before = self.pos.hash();
        let captured = self.pos.make(mv);
        self.history.push(mv, captured, before);
        self.update();
        Ok(())
    }

    /// Recomputes the legal moves and the result after a change. Wins come
    /// before draws: a den entry, or a move that leaves the opponent
    /// without a legal move, wins even if it also repeats a position for
    /// the third time or is the 100th move without a capture.
    fn update(&mut self) {
        self.legal.clear();
        let mut moves = MoveList::new();
        self.pos.generate(&mut moves);
        if let Some(ban) = self.history.shuttle_ban() {
            moves.retain(|m| !ban.same_path(*m));
        }
        let turn = self.pos.turn();
        self.outcome = if let Some(winner) = self.pos.den_winner() {
            Some(Outcome::Win {
                winner: winner.side(),
                reason: EndReason::Den,
            })
        } else if moves.is_empty() {
            Some(Outcome::Win {
                winner: turn.other().side(),
                reason: EndReason::NoMoves,
            })
        } else if self.history.repetitions(self.pos.hash()) >= REPETITION_LIMIT {
            Some(Outcome::Draw {
                reason: EndReason::Repetition,
            })
        } else if self.history.no_capture() >= NO_CAPTURE_LIMIT {
            Some(Outcome::Draw {
                reason: EndReason::NoCapture,
            })
        } else {
            None
        };
        if self.outcome.is_none() {
            self.legal.extend_from_slice(&moves);
        }
    }

    fn end(&mut self, outcome: Outcome) {
        if self.outcome.is_none() {
            self.outcome = Some(outcome);
            self.legal.clear();
        }
    }
}

impl Game for Jungle {
    type Move = Move;
    type Options = Options;
    type Error = PlayError;

    const NAME: &'static str = "jungle";

    fn new(options: &Options) -> Result<Jungle, SetupError> {
        if let Some(clock) = options.clock {
            clock.offered()?;
        }
        let setup = match &options.start {
            None => Setup::start(),
            Some(text) => text
                .parse::<Setup>()
                .map_err(|e| SetupError(e.to_string()))?,
        };
        Ok(Jungle::from_setup(options.clone(), setup))
    }

    fn parse_move(&self, text: &str) -> Result<Move, NotationError> {
        text.parse()
    }

    fn sides(&self) -> usize {
        2
    }

    fn to_move(&self) -> Option<Side> {
        match self.outcome {
            None => Some(self.pos.turn().side()),
            Some(_) => None,
        }
    }

    fn legal_moves(&self) -> Vec<Move> {
        self.legal.clone()
    }

    fn play(&mut self, mv: &Move) -> Result<(), PlayError> {
        self.play_move(*mv)
    }

    fn outcome(&self) -> Option<&Outcome> {
        self.outcome.as_ref()
    }

    fn time_control(&self) -> TimeControl {
        match self.options.clock {
            Some(ClockSetting { minutes, increment }) => TimeControl::Clock { minutes, increment },
            None => TimeControl::Unlimited,
        }
    }

    /// Running out of time loses.
    fn timeout(&mut self) -> TimeoutEffect<Move> {
        let winner = self.pos.turn().other().side();
        self.end(Outcome::Win {
            winner,
            reason: EndReason::Timeout,
        });
        TimeoutEffect::Lost
    }

    /// The other colour wins.
    fn forfeit(&mut self, side: Side, reason: EndReason) {
        let loser = Color::from_side(side).unwrap_or(self.pos.turn());
        self.end(Outcome::Win {
            winner: loser.other().side(),
            reason,
        });
    }

    /// Jungle has draws (repetition, 100 moves), so the players may also
    /// agree to one.
    fn draw_by_agreement(&self) -> bool {
        true
    }

    fn agree_draw(&mut self, reason: EndReason) -> bool {
        if self.outcome.is_some() {
            return false;
        }
        self.end(Outcome::Draw { reason });
        true
    }

    /// Unmakes the last move of the history: the board, the captured
    /// animal, the no-capture count, and so the shuttle limit and the
    /// repetitions, then the legal moves.
    fn undo(&mut self) -> bool {
        if self.takebacks() == 0 {
            return false;
        }
        let Some(entry) = self.history.pop() else {
            return false;
        };
        self.pos.unmake(entry.mv, entry.captured);
        self.update();
        true
    }

    fn takebacks(&self) -> usize {
        if self.outcome.is_some() {
            0
        } else {
            self.history.len()
        }
    }

    fn ply(&self) -> usize {
        self.history.len()
    }
}

/// One animal in the serialized view.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct PieceView {
    /// 0 Blue, 1 Red.
    pub side: Side,
    /// 1 (rat) to 8 (elephant).
    pub rank: u8,
    /// Like `"a3"`.
    pub square: String,
}

/// What a Jungle game serializes to; see the [module documentation](super).
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct View {
    /// Everything but the two lists ([`ChangeView`]).
    #[serde(flatten)]
    pub now: ChangeView,
    pub moves: Vec<Move>,
    pub legal_moves: Vec<Move>,
}

/// The view without what grows with the game (`moves`) or repeats the
/// match's own list (`legal_moves`): what a move event carries, so that
/// a move costs the same to send at any length of game.
#[derive(Clone, Debug, Default, Serialize, Deserialize)]
#[serde(default)]
pub struct ChangeView {
    pub pieces: Vec<PieceView>,
    pub to_move: Option<Side>,
    pub ply: usize,
    pub outcome: Option<Outcome>,
    pub last_move: Option<Move>,
    pub position: String,
    pub start: String,
    pub shuttle_ban: Option<Move>,
    pub no_capture: u16,
    pub options: Options,
}

impl Jungle {
    /// The game as a move event shows it ([`ChangeView`]).
    pub fn change_view(&self) -> ChangeView {
        ChangeView {
            pieces: self
                .pos
                .board()
                .pieces()
                .map(|(sq, p)| PieceView {
                    side: p.color.side(),
                    rank: p.role.rank(),
                    square: sq.to_string(),
                })
                .collect(),
            to_move: self.to_move(),
            ply: self.ply(),
            outcome: self.outcome.clone(),
            last_move: self.last_move(),
            position: self.position_string(),
            start: self.setup.to_string(),
            shuttle_ban: self.shuttle_ban(),
            no_capture: self.history.no_capture(),
            options: self.options.clone(),
        }
    }
}

impl From<Jungle> for View {
    fn from(game: Jungle) -> View {
        View {
            now: game.change_view(),
            moves: game.history.entries().iter().map(|e| e.mv).collect(),
            legal_moves: game.legal.clone(),
        }
    }
}

impl TryFrom<View> for Jungle {
    type Error = String;

    /// Rebuilds the game from `options`, `moves` and `outcome` (for the
    /// endings that are not moves: timeout, resignation...). The other
    /// fields are derived and ignored.
    fn try_from(view: View) -> Result<Jungle, String> {
        let mut game = Jungle::replay(&view.now.options, &view.moves)?;
        match (&game.outcome, view.now.outcome) {
            (None, Some(outcome)) => game.end(outcome),
            (Some(ours), Some(theirs)) if *ours != theirs => {
                return Err(format!(
                    "the moves end the game as {ours:?}, not {theirs:?}"
                ));
            }
            _ => {}
        }
        Ok(game)
    }
}
