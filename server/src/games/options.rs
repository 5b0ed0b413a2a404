//! A room's options for its game, read once when the host sets them and
//! checked by setting up a game: the room stores and shows them as read.

use rules::{crossyray, jungle, quoridor, Game};
use serde::Serialize;
use serde_json::{Map, Value};

use super::{AnyGame, GameKind, Mode, Seating};

/// A game's options with the room's mode beside them.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct Moded<T> {
    pub mode: Mode,
    /// A turn-based game: days per move (one of [`DAYS_PER_MOVE`]),
    /// instead of the game's own clock or turn timer. Left out when not set.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub days: Option<u8>,
    #[serde(flatten)]
    pub engine: T,
}

/// The time controls of a turn-based game: days per move.
pub const DAYS_PER_MOVE: [u8; 4] = [1, 2, 3, 7];

/// One day in milliseconds.
pub const DAY_MS: u64 = 86_400_000;

/// Reads the room's `days` option (`null` or absent: not turn-based).
pub fn parse_days(value: Option<&Value>) -> Result<Option<u8>, String> {
    match value {
        None | Some(Value::Null) => Ok(None),
        Some(v) => v
            .as_u64()
            .and_then(|d| u8::try_from(d).ok())
            .filter(|d| DAYS_PER_MOVE.contains(d))
            .map(Some)
            .ok_or_else(|| format!("Bad options: days must be 1, 2, 3 or 7, not {v}.")),
    }
}

/// A room's options for its game, as the game understood them (defaults
/// filled in). Serialised untagged, as the game's own options plus `mode`
/// (and `days`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum GameOptions {
    CrossyRay(Moded<crossyray::Options>),
    Quoridor(Moded<quoridor::Options>),
    Jungle(Moded<jungle::Options>),
}

impl Serialize for GameOptions {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            GameOptions::CrossyRay(o) => o.serialize(s),
            GameOptions::Jungle(o) => o.serialize(s),
            // A turn-based Quoridor game has no turn timer: its
            // `turn_seconds` is left out, as `parse` drops it (PROTOCOL.md,
            // "Turn-based games"); a CrossyRay or Jungle one shows
            // `"clock":null`.
            GameOptions::Quoridor(o) if o.days.is_some() => {
                let mut v = serde_json::to_value(o).map_err(serde::ser::Error::custom)?;
                if let Some(map) = v.as_object_mut() {
                    map.remove("turn_seconds");
                }
                v.serialize(s)
            }
            GameOptions::Quoridor(o) => o.serialize(s),
        }
    }
}

impl GameOptions {
    /// Reads `kind`'s options from JSON (`null` = the defaults) and checks
    /// them by setting up a game. The error is shown to the host as it is.
    pub fn parse(kind: GameKind, options: &Value) -> Result<GameOptions, String> {
        GameOptions::parse_with_game(kind, options).map(|(options, _)| options)
    }

    /// [`GameOptions::parse`] for a room, whose games are played: a start
    /// position already decided (a Jungle `start` with an animal in a
    /// den, no move for the side to move, or 100 moves without a capture)
    /// is refused, since its game would end before its first move.
    pub fn parse_for_play(kind: GameKind, options: &Value) -> Result<GameOptions, String> {
        let (parsed, game) = GameOptions::parse_with_game(kind, options)?;
        match game.outcome() {
            None => Ok(parsed),
            Some(outcome) => Err(format!(
                "Bad options: the start position is already decided ({}): a game needs a move to play.",
                outcome.reason()
            )),
        }
    }

    /// The options read, and the game set up from them to check them.
    fn parse_with_game(kind: GameKind, options: &Value) -> Result<(GameOptions, AnyGame), String> {
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
            None => allowed[0],
            // RULES.md §2: `null` is no value of Quoridor's fields.
            Some(Value::Null) if kind != GameKind::Quoridor => allowed[0],
            Some(m) => serde_json::from_value::<Mode>(m.clone())
                .ok()
                .filter(|mode| allowed.contains(mode))
                .ok_or_else(|| {
                    format!("Bad options: mode must be {}, not {m}.", names.join(" or "))
                })?,
        };
        let days = parse_days(engine.remove("days").as_ref())?;
        if days.is_some() && mode == Mode::Knockout {
            return Err("Bad options: a tournament cannot be turn-based (days).".to_string());
        }
        // A turn-based game has no clock of its own: the days replace it.
        if days.is_some() {
            match kind {
                GameKind::CrossyRay | GameKind::Jungle => {
                    engine.remove("clock");
                }
                GameKind::Quoridor => {
                    engine.remove("turn_seconds");
                }
            }
        }
        // A team game and a tournament match are two-pawn games; a
        // `players` given is still read, and refused out of 2..8 as in
        // any mode (RULES.md §2).
        if kind == GameKind::Quoridor && matches!(mode, Mode::Teams | Mode::Knockout) {
            if engine.contains_key("players") {
                read::<rules::quoridor::Options>(&Value::Object(engine.clone()))?
                    .validate()
                    .map_err(|e| e.to_string())?;
            }
            engine.insert("players".to_string(), Value::from(2));
        }
        let engine = Value::Object(engine);
        let options = match kind {
            GameKind::CrossyRay => GameOptions::CrossyRay(Moded {
                mode,
                days,
                engine: read(&engine)?,
            }),
            GameKind::Jungle => GameOptions::Jungle(Moded {
                mode,
                days,
                engine: read(&engine)?,
            }),
            GameKind::Quoridor => GameOptions::Quoridor(Moded {
                mode,
                days,
                engine: read(&engine)?,
            }),
        };
        let game = AnyGame::new(&options).map_err(|e| e.to_string())?;
        Ok((options, game))
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

    /// Days per move of a turn-based game (`None`: played live).
    pub fn days(&self) -> Option<u8> {
        match self {
            GameOptions::CrossyRay(o) => o.days,
            GameOptions::Quoridor(o) => o.days,
            GameOptions::Jungle(o) => o.days,
        }
    }

    /// The time a turn-based game gives each move, in milliseconds.
    pub fn turn_ms(&self) -> Option<u64> {
        self.days().map(|d| u64::from(d) * DAY_MS)
    }

    /// The time control a table's clock runs: none for a turn-based game
    /// (its deadline is the room's, see `room/timers.rs`), else the game's.
    pub fn time_control(&self, game: &AnyGame) -> rules::TimeControl {
        if self.days().is_some() {
            rules::TimeControl::Unlimited
        } else {
            game.time_control()
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
