//! The games a room can host, as one closed enum.
//!
//! The server knows the protocol, not the rules (as lila-ws does): it
//! reads a move's text once, at the edge, into an [`AnyMove`], plays it on
//! an [`AnyGame`] and reports what the `rules` crate says. Like shakmaty's
//! `VariantPosition`, [`AnyGame`] is itself a [`rules::Game`], and every
//! game-specific branch in the server is an exhaustive `match` over
//! [`GameKind`], [`AnyGame`] or [`AnyMove`] in this folder (and the bots in
//! `bots.rs`), so adding a game is a compile error in each place that must
//! handle it. A game's name is spelled in exactly one place: `GameKind`'s
//! serde names.
//!
//! `mod.rs` names the games and how people sit at them; `options.rs` reads
//! a room's options; `any.rs` is the game in progress and `moves.rs` its
//! moves.

mod any;
mod moves;
mod options;

pub use any::AnyGame;
pub use moves::{AnyMove, MoveError};
pub use options::{GameOptions, Moded, SentOptions, DAYS_PER_MOVE, DAY_MS};

use rules::crossyray::CrossyRay;
use rules::jungle::Jungle;
use rules::quoridor::Quoridor;
use rules::Game;
use serde::{Deserialize, Serialize};

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

#[cfg(test)]
mod tests;
