//! Knockout tournaments without a socket. First the bracket as pure data,
//! drawn with a seeded generator: every size played to a champion, byes,
//! replays, coin tosses, results that do not fit, the bracket on the
//! wire. Then the room running tournaments through `apply`, `fire`,
//! `disconnect` and `restore`: the scoreboard (3 a match, 10 for the
//! champion, nothing for draws, coin tosses and byes), resignations and
//! absences, refusals that change nothing, and a room brought back from
//! its writes in the middle of round 2.

#![allow(unused_imports)]
pub(super) use std::collections::{BTreeMap, HashSet};

pub(super) use rand::rngs::StdRng;
pub(super) use rand::{RngExt, SeedableRng};
pub(super) use rules::{Level, Outcome, Side};
pub(super) use serde_json::{json, Value};
pub(super) use uuid::Uuid;

pub(super) use super::{CHAMPION_POINTS, MATCH_POINTS};
pub(super) use crate::games::GameKind;
pub(super) use crate::model::bracket::{
    Bracket, Entrant, GameResult, Next, Pairing, PairingState, Round, Status, MAX_PLAYERS,
    MIN_PLAYERS,
};
pub(super) use crate::model::records::{Person, SavedRoom};
pub(super) use crate::model::{MemberId, TableId};
pub(super) use crate::protocol::{Code, Order};
pub(super) use crate::room::cmd::{self, Command};
pub(super) use crate::room::tests::{
    check_versions, code, config, greeting, join_as, ok, options, room_with, sent, sit, start,
    tags, token, Store, CROSSY_LINE, HOST,
};
pub(super) use crate::room::{Countdown, Effect, Match, Member, RoomConfig, RoomState, Timer};
pub(super) use rules::Game;

mod bracket_draws;
mod bracket_sizes;
mod computer;
mod cup;
mod refusals;
mod restore;
mod room;

pub(super) use bracket_sizes::*;
pub(super) use cup::*;
pub(super) use refusals::*;
pub(super) use restore::*;
