//! A room's options for its game, read once when the host sets them and
//! checked by setting up a game: the room stores and shows them as read.

use rules::{crossyray, jungle, quoridor, Game};
use serde::{Deserialize, Serialize};
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
        // Every field read here, the room's and the game's: the engine
        // would name only its own.
        let fields = fields(kind);
        if let Some(unknown) = engine.keys().find(|k| !fields.contains(&k.as_str())) {
            let named: Vec<String> = fields.iter().map(|f| format!("`{f}`")).collect();
            return Err(format!(
                "Bad options: unknown field `{unknown}`, expected one of {}.",
                named.join(", ")
            ));
        }
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
            // Only its name: serde would also read `{"teams": null}`.
            Some(m) => Some(&m)
                .filter(|m| m.is_string())
                .and_then(|m| serde_json::from_value::<Mode>(m.clone()).ok())
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
                    .map_err(refused)?;
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
        let game = AnyGame::new(&options).map_err(refused)?;
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

/// A client's `options` as sent (`POST /api/rooms`, `POST
/// /api/challenges`, the `options` command): the JSON, or why it is no
/// options, a key given twice in an object (at any depth), which a
/// `serde_json::Value` would read as its last value. Kept rather than
/// refused where the request is read, so that it is `bad_options` (after
/// the checks that come first), not an unreadable request.
#[derive(Clone, Debug, PartialEq)]
pub struct SentOptions(Result<Value, String>);

impl SentOptions {
    /// The options' JSON, or the message refusing them.
    pub fn json(&self) -> Result<&Value, String> {
        self.0.as_ref().map_err(String::clone)
    }
}

/// Left out: `null`, the defaults.
impl Default for SentOptions {
    fn default() -> SentOptions {
        SentOptions(Ok(Value::Null))
    }
}

impl From<Value> for SentOptions {
    fn from(value: Value) -> SentOptions {
        SentOptions(Ok(value))
    }
}

impl<'de> serde::Deserialize<'de> for SentOptions {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<SentOptions, D::Error> {
        let Unique { value, twice } = Unique::deserialize(d)?;
        Ok(SentOptions(match twice {
            None => Ok(value),
            Some(path) => Err(format!("Bad options: `{path}` is given twice.")),
        }))
    }
}

/// A JSON value read whole, with the first key found twice in one of its
/// objects (its path from the top, as `clock.minutes`).
struct Unique {
    value: Value,
    twice: Option<String>,
}

impl Unique {
    fn of(value: Value) -> Unique {
        Unique { value, twice: None }
    }
}

impl<'de> serde::Deserialize<'de> for Unique {
    fn deserialize<D: serde::Deserializer<'de>>(d: D) -> Result<Unique, D::Error> {
        d.deserialize_any(UniqueVisitor)
    }
}

struct UniqueVisitor;

impl<'de> serde::de::Visitor<'de> for UniqueVisitor {
    type Value = Unique;

    fn expecting(&self, f: &mut std::fmt::Formatter) -> std::fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_bool<E>(self, b: bool) -> Result<Unique, E> {
        Ok(Unique::of(Value::Bool(b)))
    }

    fn visit_i64<E>(self, n: i64) -> Result<Unique, E> {
        Ok(Unique::of(Value::from(n)))
    }

    fn visit_u64<E>(self, n: u64) -> Result<Unique, E> {
        Ok(Unique::of(Value::from(n)))
    }

    fn visit_f64<E>(self, x: f64) -> Result<Unique, E> {
        // JSON has no NaN nor infinity: `from` gives `null` for those.
        Ok(Unique::of(Value::from(x)))
    }

    fn visit_str<E>(self, s: &str) -> Result<Unique, E> {
        Ok(Unique::of(Value::from(s)))
    }

    fn visit_string<E>(self, s: String) -> Result<Unique, E> {
        Ok(Unique::of(Value::String(s)))
    }

    fn visit_unit<E>(self) -> Result<Unique, E> {
        Ok(Unique::of(Value::Null))
    }

    fn visit_none<E>(self) -> Result<Unique, E> {
        Ok(Unique::of(Value::Null))
    }

    fn visit_some<D: serde::Deserializer<'de>>(self, d: D) -> Result<Unique, D::Error> {
        Unique::deserialize(d)
    }

    fn visit_seq<A: serde::de::SeqAccess<'de>>(self, mut seq: A) -> Result<Unique, A::Error> {
        let mut items = Vec::new();
        let mut twice = None;
        while let Some(item) = seq.next_element::<Unique>()? {
            if twice.is_none() {
                twice = item.twice.map(|path| format!("{}.{path}", items.len()));
            }
            items.push(item.value);
        }
        Ok(Unique {
            value: Value::Array(items),
            twice,
        })
    }

    fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Unique, A::Error> {
        let mut object = Map::new();
        let mut twice = None;
        while let Some(key) = map.next_key::<String>()? {
            let item: Unique = map.next_value()?;
            if twice.is_none() {
                twice = if object.contains_key(&key) {
                    Some(key.clone())
                } else {
                    item.twice.map(|path| format!("{key}.{path}"))
                };
            }
            object.insert(key, item.value);
        }
        Ok(Unique {
            value: Value::Object(object),
            twice,
        })
    }
}

/// The fields a room's options may have for `kind`: the room's (`mode`,
/// `days`), then the game's.
pub fn fields(kind: GameKind) -> Vec<&'static str> {
    let game: &[&str] = match kind {
        GameKind::CrossyRay => &crossyray::Options::FIELDS,
        GameKind::Quoridor => &quoridor::Options::FIELDS,
        GameKind::Jungle => &jungle::Options::FIELDS,
    };
    let mut fields = vec!["mode", "days"];
    fields.extend_from_slice(game);
    fields
}

/// The options read into the game's type: a value it cannot hold is
/// refused in the words its check gives a value out of range
/// ([`refused`]).
fn read<T: serde::de::DeserializeOwned + Default>(options: &Value) -> Result<T, String> {
    if options.is_null() {
        return Ok(T::default());
    }
    serde_json::from_value(options.clone()).map_err(refused)
}

/// The message refusing options, the same whether a value was refused as
/// it was read or when a game was set up from it.
fn refused(why: impl std::fmt::Display) -> String {
    format!("Bad options: {why}.")
}
