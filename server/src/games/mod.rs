//! The games a room can host, as one closed enum.
//!
//! The server knows the protocol, not the rules (STYLE.md, lila-ws): it
//! hands move text to [`AnyGame::play`] and reports what the `rules` crate
//! says. Like shakmaty's `VariantPosition`, every game-specific branch in
//! the server is an exhaustive `match` over [`GameKind`] or [`AnyGame`]
//! in this file (and the bots in `bots.rs`), so adding a game is a compile
//! error in each place that must handle it. A game's name is spelled in
//! exactly one place: `GameKind`'s serde names.

use rules::clock::Clock;
use rules::crossyray::{self, CrossyRay};
use rules::game::{NotationError, SetupError, TimeoutEffect};
use rules::jungle::{self, Jungle};
use rules::quoridor::{self, Quoridor};
use rules::{EndReason, Game, Outcome, Side, TimeControl};
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

/// Which game a room plays.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum GameKind {
    CrossyRay,
    Quoridor,
    Jungle,
}

impl GameKind {
    pub const ALL: [GameKind; 3] = [GameKind::CrossyRay, GameKind::Quoridor, GameKind::Jungle];

    /// The name on the wire and in the store (`crossyray`, ...).
    pub fn name(self) -> &'static str {
        match self {
            GameKind::CrossyRay => CrossyRay::NAME,
            GameKind::Quoridor => Quoridor::NAME,
            GameKind::Jungle => Jungle::NAME,
        }
    }

    /// Reads a game's name; the error lists the games this server hosts.
    pub fn parse(name: &str) -> Result<GameKind, String> {
        GameKind::ALL
            .into_iter()
            .find(|k| k.name() == name)
            .ok_or_else(|| {
                let names: Vec<&str> = GameKind::ALL.iter().map(|k| k.name()).collect();
                format!(
                    "Unknown game {name:?}; this server hosts {}.",
                    names.join(", ")
                )
            })
    }
}

impl std::fmt::Display for GameKind {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

/// Seats per team in a Quoridor team game: seats 0-3 are the first team,
/// 4-7 the second (up to 8 people, RULES.md §2 "Modes").
pub const TEAM_SEATS: usize = 4;

/// How people sit at a game: the rules know sides, the room knows seats.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Seating {
    /// One seat per side, every seat must be taken to start.
    PerSide(usize),
    /// Two sides, [`TEAM_SEATS`] seats each: seats `t*TEAM_SEATS..` are
    /// team `t`. A game starts with at least one member per team; the
    /// members of a side take its turns in rotation, in seat order.
    Teams,
    /// A knockout tournament: up to [`KNOCKOUT_SEATS`] seats, everyone
    /// seated enters, each match is 1-v-1 at its own table.
    Knockout,
}

impl Seating {
    pub fn seats(self) -> usize {
        match self {
            Seating::PerSide(n) => n,
            Seating::Teams => 2 * TEAM_SEATS,
            Seating::Knockout => KNOCKOUT_SEATS,
        }
    }

    /// The side seat `seat` plays when seats decide.
    pub fn side_of_seat(self, seat: usize) -> usize {
        match self {
            Seating::PerSide(_) | Seating::Knockout => seat,
            Seating::Teams => seat / TEAM_SEATS,
        }
    }

    pub fn sides(self) -> usize {
        match self {
            Seating::PerSide(n) => n,
            Seating::Teams | Seating::Knockout => 2,
        }
    }
}

/// How a room plays its game (RULES.md §2 "Modes"): one game at a time
/// (`single` for the two-player games, `ffa` or `teams` for Quoridor), or
/// a knockout tournament of 1-v-1 matches (`knockout`, every game).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Mode {
    Single,
    Ffa,
    Teams,
    Knockout,
}

/// Most players in a knockout tournament (and its seats).
pub const KNOCKOUT_SEATS: usize = 32;

/// A game's options with the room's mode beside them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Moded<T> {
    pub mode: Mode,
    #[serde(flatten)]
    pub engine: T,
}

/// A room's options for its game, as the game understood them (defaults
/// filled in). Serialised untagged, as the game's own options plus `mode`.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(untagged)]
pub enum GameOptions {
    CrossyRay(Moded<crossyray::Options>),
    Quoridor(Moded<quoridor::Options>),
    Jungle(Moded<jungle::Options>),
}

impl GameOptions {
    /// Reads `kind`'s options from JSON (`null` = the defaults) and checks
    /// them by setting up a game. The error is shown to the host as it is.
    pub fn parse(kind: GameKind, options: &Value) -> Result<GameOptions, String> {
        let mut engine = match options {
            Value::Null => Map::new(),
            Value::Object(map) => map.clone(),
            _ => return Err("Bad options: expected an object.".to_string()),
        };
        // `mode` is the room's: taken out before the engine reads the rest
        // (it refuses unknown fields).
        let allowed: &[Mode] = match kind {
            GameKind::Quoridor => &[Mode::Ffa, Mode::Teams, Mode::Knockout],
            GameKind::CrossyRay | GameKind::Jungle => &[Mode::Single, Mode::Knockout],
        };
        let names: Vec<String> = allowed
            .iter()
            .map(|m| serde_json::to_string(m).unwrap_or_default())
            .collect();
        let mode = match engine.remove("mode") {
            None | Some(Value::Null) => allowed[0],
            Some(m) => serde_json::from_value::<Mode>(m.clone())
                .ok()
                .filter(|mode| allowed.contains(mode))
                .ok_or_else(|| {
                    format!("Bad options: mode must be {}, not {m}.", names.join(" or "))
                })?,
        };
        // A team game and a tournament match are two-pawn games.
        if kind == GameKind::Quoridor && matches!(mode, Mode::Teams | Mode::Knockout) {
            engine.insert("players".to_string(), Value::from(2));
        }
        let engine = Value::Object(engine);
        let options = match kind {
            GameKind::CrossyRay => GameOptions::CrossyRay(Moded {
                mode,
                engine: read(&engine)?,
            }),
            GameKind::Jungle => GameOptions::Jungle(Moded {
                mode,
                engine: read(&engine)?,
            }),
            GameKind::Quoridor => GameOptions::Quoridor(Moded {
                mode,
                engine: read(&engine)?,
            }),
        };
        AnyGame::new(&options).map_err(|e| e.to_string())?;
        Ok(options)
    }

    pub fn kind(&self) -> GameKind {
        match self {
            GameOptions::CrossyRay(_) => GameKind::CrossyRay,
            GameOptions::Quoridor(_) => GameKind::Quoridor,
            GameOptions::Jungle(_) => GameKind::Jungle,
        }
    }

    pub fn mode(&self) -> Mode {
        match self {
            GameOptions::CrossyRay(o) => o.mode,
            GameOptions::Quoridor(o) => o.mode,
            GameOptions::Jungle(o) => o.mode,
        }
    }

    pub fn is_knockout(&self) -> bool {
        self.mode() == Mode::Knockout
    }

    /// Whether a game may start with only some of the seats taken (at
    /// least two): Quoridor free-for-all, as on the seed's site.
    pub fn starts_partly_seated(&self) -> bool {
        matches!(self, GameOptions::Quoridor(q) if q.mode == Mode::Ffa)
    }

    /// The options of a game played by `players` sides: a free-for-all
    /// Quoridor game has as many pawns as players seated (its walls follow
    /// the Auto table for that count, unless set); any other game is the
    /// room's as they are.
    pub fn for_players(&self, players: usize) -> GameOptions {
        match self {
            GameOptions::Quoridor(q) if self.starts_partly_seated() => {
                let mut q = q.clone();
                q.engine.players = u8::try_from(players).unwrap_or(q.engine.players);
                GameOptions::Quoridor(q)
            }
            other => other.clone(),
        }
    }

    pub fn seating(&self) -> Seating {
        match (self, self.mode()) {
            (_, Mode::Knockout) => Seating::Knockout,
            (_, Mode::Teams) => Seating::Teams,
            (GameOptions::Quoridor(q), _) => Seating::PerSide(usize::from(q.engine.players)),
            (GameOptions::CrossyRay(_) | GameOptions::Jungle(_), _) => Seating::PerSide(2),
        }
    }

    /// The options as JSON, for the store.
    pub fn to_json(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }
}

fn read<T: serde::de::DeserializeOwned + Default>(options: &Value) -> Result<T, String> {
    if options.is_null() {
        return Ok(T::default());
    }
    serde_json::from_value(options.clone()).map_err(|e| format!("Bad options: {e}."))
}

/// A game in progress. Serialised untagged, as the game's own view (the
/// `state` the browser draws).
// A Quoridor board is the largest; games live in their table and are
// rarely moved, so boxing it would only add an indirection to every call.
#[allow(clippy::large_enum_variant)]
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum AnyGame {
    CrossyRay(CrossyRay),
    Quoridor(Quoridor),
    Jungle(Jungle),
}

/// Why a move was refused, typed up to the edge where it becomes the
/// protocol's `illegal_move` (STYLE.md: shakmaty's `PlayError`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum MoveError {
    #[error("{0}")]
    Notation(#[from] NotationError),
    #[error("{0}")]
    CrossyRay(#[from] crossyray::PlayError),
    #[error("{0}")]
    Quoridor(#[from] quoridor::PlayError),
    #[error("{0}")]
    Jungle(#[from] jungle::PlayError),
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

fn play_typed<G: Game>(game: &mut G, text: &str) -> Result<String, MoveError>
where
    MoveError: From<G::Error>,
{
    let mv: G::Move = text.trim().parse().map_err(MoveError::Notation)?;
    Game::play(game, &mv)?;
    Ok(mv.to_string())
}

fn timeout_typed<G: Game>(game: &mut G) -> Option<String> {
    match Game::timeout(game) {
        TimeoutEffect::Lost => None,
        TimeoutEffect::Played(mv) => Some(mv.to_string()),
    }
}

impl AnyGame {
    /// A new game in its starting position.
    pub fn new(options: &GameOptions) -> Result<AnyGame, SetupError> {
        Ok(match options {
            GameOptions::CrossyRay(o) => AnyGame::CrossyRay(CrossyRay::new(&o.engine)?),
            GameOptions::Quoridor(o) => AnyGame::Quoridor(Quoridor::new(&o.engine)?),
            GameOptions::Jungle(o) => AnyGame::Jungle(Jungle::new(&o.engine)?),
        })
    }

    pub fn kind(&self) -> GameKind {
        match self {
            AnyGame::CrossyRay(_) => GameKind::CrossyRay,
            AnyGame::Quoridor(_) => GameKind::Quoridor,
            AnyGame::Jungle(_) => GameKind::Jungle,
        }
    }

    /// Legal moves of the side to move, in notation.
    pub fn legal(&self) -> Vec<String> {
        each_game!(self, g => g.legal_moves().iter().map(ToString::to_string).collect())
    }

    pub fn to_move(&self) -> Option<Side> {
        each_game!(self, g => Game::to_move(g))
    }

    pub fn sides(&self) -> usize {
        each_game!(self, g => Game::sides(g))
    }

    /// Plays the move written `text`; returns it in canonical notation.
    /// The state is unchanged on error.
    pub fn play(&mut self, text: &str) -> Result<String, MoveError> {
        each_game!(self, g => play_typed(g, text))
    }

    pub fn outcome(&self) -> Option<Outcome> {
        each_game!(self, g => Game::outcome(g).cloned())
    }

    pub fn is_over(&self) -> bool {
        self.outcome().is_some()
    }

    pub fn time_control(&self) -> TimeControl {
        each_game!(self, g => Game::time_control(g))
    }

    /// Applies the game's timeout rule; returns the move played on the
    /// side's behalf, if the rule plays one instead of ending the game.
    pub fn timeout(&mut self) -> Option<String> {
        each_game!(self, g => timeout_typed(g))
    }

    pub fn forfeit(&mut self, side: Side, reason: EndReason) {
        each_game!(self, g => Game::forfeit(g, side, reason))
    }

    /// Whether the players may agree to a draw (Jungle: RULES.md §3).
    pub fn draw_by_agreement(&self) -> bool {
        each_game!(self, g => Game::draw_by_agreement(g))
    }

    /// Ends the game drawn by agreement; `false` where the rules have no
    /// such draw (nothing changes).
    pub fn agree_draw(&mut self) -> bool {
        each_game!(self, g => Game::agree_draw(g))
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

#[cfg(test)]
mod tests;
