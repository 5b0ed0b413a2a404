//! The time controls quick pairing offers, by name: a seek names one of
//! these and nothing else (no raw numbers). Jungle and CrossyRay: the
//! rules' clock presets (docs/RULES.md) or no clock; Quoridor: a
//! two-pawn game on the classic board with a turn timer.

use serde_json::{json, Value};

use crate::games::{GameKind, GameOptions};

/// One named time control of a game.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Preset {
    pub game: GameKind,
    pub name: &'static str,
}

/// Clocks of Jungle and CrossyRay: minutes + seconds a move.
const CLOCKS: [(&str, u32, u32); 4] = [
    ("3+2", 3, 2),
    ("5+3", 5, 3),
    ("10+5", 10, 5),
    ("15+10", 15, 10),
];
/// Quoridor's turn timers, in seconds.
const TURNS: [(&str, u32); 4] = [("15s", 15), ("30s", 30), ("60s", 60), ("90s", 90)];

/// The presets' names for `game`, in the order the page lists them.
pub fn names(game: GameKind) -> Vec<&'static str> {
    match game {
        GameKind::Jungle | GameKind::CrossyRay => CLOCKS
            .iter()
            .map(|c| c.0)
            .chain(std::iter::once("none"))
            .collect(),
        GameKind::Quoridor => TURNS.iter().map(|t| t.0).collect(),
    }
}

impl Preset {
    /// The preset `name` of `game`, if there is one.
    pub fn find(game: GameKind, name: &str) -> Option<Preset> {
        names(game)
            .into_iter()
            .find(|n| *n == name)
            .map(|name| Preset { game, name })
    }

    /// The room options for a game of this preset.
    pub fn options_json(&self) -> Value {
        match self.game {
            GameKind::Jungle | GameKind::CrossyRay => {
                let clock = CLOCKS.iter().find(|c| c.0 == self.name).map(
                    |&(_, minutes, increment)| json!({"minutes": minutes, "increment": increment}),
                );
                json!({ "clock": clock })
            }
            GameKind::Quoridor => {
                let seconds = TURNS.iter().find(|t| t.0 == self.name).map_or(30, |t| t.1);
                json!({"mode": "ffa", "players": 2, "turn_seconds": seconds})
            }
        }
    }

    pub fn options(&self) -> Result<GameOptions, String> {
        GameOptions::parse(self.game, &self.options_json())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_preset_is_a_game_the_rules_accept() {
        for game in GameKind::ALL {
            for name in names(game) {
                let preset = Preset::find(game, name).expect("listed");
                let options = preset.options().unwrap_or_else(|e| panic!("{name}: {e}"));
                assert_eq!(options.kind(), game);
                assert_eq!(options.seating(), crate::games::Seating::PerSide(2));
            }
            assert!(Preset::find(game, "7+7").is_none());
        }
        assert!(Preset::find(GameKind::Quoridor, "none").is_none());
        assert!(Preset::find(GameKind::Jungle, "30s").is_none());
    }
}
