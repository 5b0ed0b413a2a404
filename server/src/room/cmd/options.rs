//! `options`: the host changes the game's options (or the game) between
//! games.

use serde::{Deserialize, Deserializer};

use super::super::event::{Effect, Event};
use super::super::state::{Applied, Member, RoomState};
use crate::games::{GameKind, GameOptions, SentOptions};
use crate::model::ids::MemberId;
use crate::protocol::{Code, Refusal};
use crate::store::Write;

/// `options`: the game's options, for the room's game or for `game`.
#[derive(Debug, Deserialize)]
pub struct Options {
    /// The game to switch to, read as a game's name; an unknown name is
    /// kept with the reason to refuse it, since the host's checks come
    /// first (a guest hears `not_host` whatever the name).
    #[serde(default, deserialize_with = "game_name")]
    pub game: Option<Result<GameKind, String>>,
    /// Read against the game ([`GameOptions::parse`]), which may be the
    /// room's: its errors (a key given twice too) are `bad_options`,
    /// after the host's checks.
    #[serde(default)]
    pub options: SentOptions,
}

fn game_name<'de, D>(deserializer: D) -> Result<Option<Result<GameKind, String>>, D::Error>
where
    D: Deserializer<'de>,
{
    let name = Option::<String>::deserialize(deserializer)?;
    Ok(name.map(|name| GameKind::parse(&name)))
}

impl RoomState {
    pub(super) fn set_options(
        &mut self,
        member: MemberId,
        game: Option<Result<GameKind, String>>,
        options: &SentOptions,
        now: u64,
    ) -> Applied {
        self.require_host(member)?;
        self.refuse_if_running()?;
        self.refuse_if_tournament()?;
        let kind = match game {
            Some(game) => game.map_err(|m| Refusal::new(Code::BadOptions, m))?,
            None => self.game(),
        };
        let options = options
            .json()
            .and_then(|options| GameOptions::parse_for_play(kind, options))
            .map_err(|m| Refusal::new(Code::BadOptions, m))?;
        self.refuse_if_solo(&options, false)?;
        self.seating = options.seating();
        self.options = options;
        let seats = self.seats();
        let mut effects = vec![Effect::Persist(Write::Room(self.row()))];
        let mut i = 0;
        while i < self.members.len() {
            let m = &mut self.members[i];
            let before = m.seat;
            if m.seat.is_some_and(|s| s >= seats) {
                m.seat = None;
            }
            // A computer without a seat is gone.
            if m.computer.is_some() && m.seat.is_none() {
                let gone = self.members.remove(i);
                effects.push(Effect::Persist(Write::RemoveMember(gone.id)));
                continue;
            }
            if m.seat != before {
                effects.push(Effect::Persist(Write::Member(m.row())));
            }
            i += 1;
        }
        // Fewer seats may leave only computers seated: the one in the last
        // seat leaves, so that a person can still sit (`computer`'s rule).
        let seated_computers = |members: &[Member]| {
            members
                .iter()
                .filter(|m| m.computer.is_some() && m.seat.is_some())
                .count()
        };
        while seated_computers(&self.members) >= seats {
            let last = (0..self.members.len())
                .filter(|&i| self.members[i].computer.is_some())
                .max_by_key(|&i| self.members[i].seat)
                .expect("a seated computer");
            let gone = self.members.remove(last);
            effects.push(Effect::Persist(Write::RemoveMember(gone.id)));
        }
        let event = Event::Options {
            game: self.game(),
            options: self.options.clone(),
            seats,
            team_seats: self.team_seats(),
        };
        self.emit(&mut effects, event);
        self.emit_members(&mut effects);
        // The countdown only ever starts a live game of one table: a
        // knockout tournament waits for the host's `start`, and a
        // turn-based game is never started by itself (PROTOCOL.md,
        // `autostart`). Options that make the next game one of those
        // cancel a countdown under way, paused or not.
        if self.countdown.is_some() && !self.countdown_may_start() {
            self.countdown = None;
            let autostart = self.autostart_view(now);
            self.emit(&mut effects, Event::Autostart { autostart });
        }
        Ok(effects)
    }
}
