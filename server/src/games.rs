//! The games a room can host, behind one object-safe interface.
//!
//! The socket layer knows the protocol, not the rules (see STYLE.md on
//! lila-ws): it hands move text to [`DynGame::play`] and reports what the
//! `rules` crate says. Each game's typed [`rules::Game`] implementation is
//! wrapped once here, so adding a game to the site is one line in
//! [`new_game`].

use std::any::Any;

use rules::clock::Clock;
use rules::crossyray::CrossyRay;
use rules::jungle::Jungle;
use rules::quoridor::Quoridor;
use rules::{EndReason, Game, Outcome, Side, TimeControl};
use serde_json::{Map, Value};

/// The names of the games a room can be created with.
pub const GAMES: &[&str] = &["crossyray", "quoridor", "jungle"];

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
}

impl Seating {
    pub fn seats(self) -> usize {
        match self {
            Seating::PerSide(n) => n,
            Seating::Teams => 2 * TEAM_SEATS,
        }
    }
}

/// A game in progress, seen through notation strings and JSON views.
pub trait DynGame: Send {
    /// The game's own serialised state, drawn by the browser.
    fn view(&self) -> Value;
    /// Legal moves of the side to move, in notation.
    fn legal(&self) -> Vec<String>;
    fn to_move(&self) -> Option<Side>;
    fn sides(&self) -> usize;
    /// Plays the move written `text`; returns the move in its canonical
    /// notation, or a message for the player saying why it was refused.
    /// The state is unchanged on error.
    fn play(&mut self, text: &str) -> Result<String, String>;
    fn outcome(&self) -> Option<Outcome>;
    fn time_control(&self) -> TimeControl;
    /// Applies the game's timeout rule; returns the move played on the
    /// side's behalf, if the rule plays one instead of ending the game.
    fn timeout(&mut self) -> Option<String>;
    fn forfeit(&mut self, side: Side, reason: EndReason);
    /// A copy of the game, for a computer player to think about on another
    /// thread while the room goes on.
    fn boxed_clone(&self) -> Box<dyn DynGame>;
    /// The typed game, so a game's bot ([`crate::bots`]) can read it.
    fn as_any(&self) -> &dyn Any;
}

impl<G: Game> DynGame for G {
    fn view(&self) -> Value {
        serde_json::to_value(self).unwrap_or(Value::Null)
    }

    fn legal(&self) -> Vec<String> {
        self.legal_moves().iter().map(ToString::to_string).collect()
    }

    fn to_move(&self) -> Option<Side> {
        Game::to_move(self)
    }

    fn sides(&self) -> usize {
        Game::sides(self)
    }

    fn play(&mut self, text: &str) -> Result<String, String> {
        let mv: G::Move = text
            .trim()
            .parse()
            .map_err(|e: rules::game::NotationError| e.to_string())?;
        Game::play(self, &mv).map_err(|e| e.to_string())?;
        Ok(mv.to_string())
    }

    fn outcome(&self) -> Option<Outcome> {
        Game::outcome(self).cloned()
    }

    fn time_control(&self) -> TimeControl {
        Game::time_control(self)
    }

    fn timeout(&mut self) -> Option<String> {
        match Game::timeout(self) {
            rules::game::TimeoutEffect::Lost => None,
            rules::game::TimeoutEffect::Played(mv) => Some(mv.to_string()),
        }
    }

    fn forfeit(&mut self, side: Side, reason: EndReason) {
        Game::forfeit(self, side, reason)
    }

    fn boxed_clone(&self) -> Box<dyn DynGame> {
        Box::new(self.clone())
    }

    fn as_any(&self) -> &dyn Any {
        self
    }
}

/// A game set up from the host's options, with the options as the game
/// understood them (defaults filled in) for display and storage.
pub struct Setup {
    pub game: Box<dyn DynGame>,
    pub options: Value,
    pub seating: Seating,
}

/// Builds a new game of kind `name` from JSON `options` (`null` = the
/// defaults). The error is shown to the host as it is.
pub fn new_game(name: &str, options: &Value) -> Result<Setup, String> {
    match name {
        "crossyray" => setup::<CrossyRay>(options),
        "quoridor" => quoridor(options),
        "jungle" => setup::<Jungle>(options),
        other => Err(format!(
            "Unknown game {other:?}; this server hosts {}.",
            GAMES.join(", ")
        )),
    }
}

fn setup<G: Game>(options: &Value) -> Result<Setup, String> {
    let opts: G::Options = if options.is_null() {
        G::Options::default()
    } else {
        serde_json::from_value(options.clone()).map_err(|e| format!("Bad options: {e}."))?
    };
    let game = G::new(&opts).map_err(|e| e.to_string())?;
    let seating = Seating::PerSide(Game::sides(&game));
    Ok(Setup {
        game: Box::new(game),
        options: serde_json::to_value(&opts).unwrap_or(Value::Null),
        seating,
    })
}

/// Quoridor's room options are the engine's plus the room-level `mode`:
/// `"ffa"` (default, one seat per pawn) or `"teams"` (two pawns, Red and
/// Yellow, each shared by a team). `mode` is taken out before the engine
/// reads the rest (it refuses unknown fields); in teams `players` is 2.
fn quoridor(options: &Value) -> Result<Setup, String> {
    let mut engine = match options {
        Value::Null => Map::new(),
        Value::Object(map) => map.clone(),
        _ => return Err("Bad options: expected an object.".to_string()),
    };
    let teams = match engine.remove("mode") {
        None | Some(Value::Null) => false,
        Some(Value::String(m)) if m == "ffa" => false,
        Some(Value::String(m)) if m == "teams" => true,
        Some(other) => {
            return Err(format!(
                "Bad options: mode must be \"ffa\" or \"teams\", not {other}."
            ))
        }
    };
    if teams {
        engine.insert("players".to_string(), Value::from(2));
    }
    let mut setup = setup::<Quoridor>(&Value::Object(engine))?;
    setup.options["mode"] = Value::from(if teams { "teams" } else { "ffa" });
    if teams {
        setup.seating = Seating::Teams;
    }
    Ok(setup)
}

/// Scoreboard points per side for a finished game (`None` while it goes
/// on). The one place that knows each game's scoring: Quoridor uses its
/// own (RULES.md §2, the mirror rule); the other games score a win 1.
pub fn points(game: &dyn DynGame) -> Option<Vec<u32>> {
    if let Some(q) = game.as_any().downcast_ref::<Quoridor>() {
        return rules::quoridor::scores(q);
    }
    let outcome = game.outcome()?;
    Some(
        (0..game.sides())
            .map(|s| u32::from(outcome.winner().is_some_and(|w| w.index() == s)))
            .collect(),
    )
}

/// A clock for `game`, per its time control.
pub fn clock_for(game: &dyn DynGame) -> Clock {
    Clock::new(game.time_control(), game.sides())
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn jungle_rooms_take_the_clock_presets_only() {
        let setup = new_game("jungle", &json!({"clock": [5, 3]})).unwrap();
        assert_eq!(setup.game.sides(), 2);
        assert_eq!(
            setup.game.time_control(),
            TimeControl::Clock {
                minutes: 5,
                increment: 3
            }
        );
        assert_eq!(setup.options["clock"], json!([5, 3]));
        assert!(new_game("jungle", &json!({"clock": [4, 4]})).is_err());
        assert!(new_game("jungle", &json!({"width": 9})).is_err());
        let plain = new_game("jungle", &Value::Null).unwrap();
        assert_eq!(plain.game.time_control(), TimeControl::Unlimited);
        assert_eq!(plain.game.legal().len(), 24);
    }

    #[test]
    fn a_jungle_move_is_read_from_its_notation() {
        let mut game = new_game("jungle", &Value::Null).unwrap().game;
        assert_eq!(game.play(" 8 a3-a4 ").unwrap(), "8 a3-a4");
        assert_eq!(game.to_move(), Some(Side(1)));
        assert!(game.play("8 a4-a5").is_err(), "not Blue's turn any more");
        assert_eq!(game.view()["last_move"], "8 a3-a4");
    }

    #[test]
    fn unknown_games_are_refused_by_name() {
        let err = new_game("chess", &Value::Null).err().unwrap();
        assert!(err.contains("crossyray, quoridor, jungle"), "{err}");
    }

    #[test]
    fn quoridor_modes_set_the_seats_and_never_reach_the_engine() {
        let ffa = new_game("quoridor", &json!({"players": 4, "size": 11})).unwrap();
        assert_eq!(ffa.seating, Seating::PerSide(4));
        assert_eq!(ffa.options["mode"], "ffa");
        assert_eq!(ffa.options["size"], 11);
        let teams = new_game("quoridor", &json!({"mode": "teams", "players": 6})).unwrap();
        assert_eq!(teams.seating, Seating::Teams);
        assert_eq!(teams.seating.seats(), 8);
        assert_eq!(teams.game.sides(), 2);
        assert_eq!(teams.options["players"], 2);
        assert_eq!(teams.options["mode"], "teams");
        assert!(new_game("quoridor", &json!({"mode": "knockout"})).is_err());
        assert!(new_game("quoridor", &json!({"colour": "red"})).is_err());
        assert!(new_game("quoridor", &json!([1])).is_err());
        assert_eq!(
            new_game("quoridor", &Value::Null)
                .unwrap()
                .game
                .time_control(),
            TimeControl::PerMove { seconds: 30 }
        );
    }

    #[test]
    fn a_win_scores_one_except_in_quoridor() {
        let mut jungle = new_game("jungle", &Value::Null).unwrap().game;
        assert_eq!(points(jungle.as_ref()), None);
        jungle.play("8 a3-a4").unwrap();
        jungle.play("8 g7-g6").unwrap();
        jungle.forfeit(Side(1), EndReason::Resign);
        assert_eq!(points(jungle.as_ref()), Some(vec![1, 0]));
        let mut q = new_game("quoridor", &Value::Null).unwrap().game;
        q.play("e2").unwrap();
        q.play("e8").unwrap();
        q.forfeit(Side(0), EndReason::Resign);
        assert_eq!(points(q.as_ref()), Some(vec![0, 10]));
    }
}
