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
use rules::{EndReason, Game, Outcome, Side, TimeControl};
use serde_json::Value;

/// The names of the games a room can be created with.
pub const GAMES: &[&str] = &["crossyray", "jungle"];

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
}

/// Builds a new game of kind `name` from JSON `options` (`null` = the
/// defaults). The error is shown to the host as it is.
pub fn new_game(name: &str, options: &Value) -> Result<Setup, String> {
    match name {
        "crossyray" => setup::<CrossyRay>(options),
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
    Ok(Setup {
        game: Box::new(game),
        options: serde_json::to_value(&opts).unwrap_or(Value::Null),
    })
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
        assert!(err.contains("crossyray, jungle"), "{err}");
    }
}
