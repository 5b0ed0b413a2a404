//! One file per command (as mini-redis's `cmd/`): each holds the
//! command's checks and its change. A check that fails returns a
//! [`Refusal`] before anything is changed; a command that passes returns
//! the effects for the task to carry out.

mod autostart;
mod chat;
mod computer;
mod countdown;
mod draw;
mod hello;
mod r#move;
mod name;
mod options;
mod rated;
mod rematch;
mod remove;
mod resign;
mod signal;
mod sit;
mod stand;
mod start;
mod unseat;
mod voice;

pub use hello::Hello;

use rules::Side;

use super::ids::{MemberId, TableId};
use super::state::{Applied, RoomState};
use super::table::Match;
use crate::protocol::{Code, Command, Refusal};

impl RoomState {
    /// Applies `command` from `member` at `now`.
    pub fn apply(&mut self, member: MemberId, command: Command, now: u64) -> Applied {
        match self.member(member) {
            None => return Err(Refusal::new(Code::HelloFirst, "Say hello first.")),
            // Its pages are being closed; nothing it sends counts.
            Some(m) if m.removed => return Err(remove::removed_refusal()),
            Some(_) => {}
        }
        match command {
            Command::Hello { .. } => Err(Refusal::new(Code::BadMessage, "You already said hello.")),
            Command::Ping => Ok(Vec::new()),
            Command::Name { name } => self.set_name(member, &name),
            Command::Sit { seat } => self.sit(member, seat),
            Command::Stand => self.stand(member),
            Command::Start { order } => self.start(member, order, now),
            Command::Move { mv, table } => self.play(member, table, mv, now),
            Command::Resign { table } => self.resign(member, table, now),
            Command::Options { game, options } => {
                self.set_options(member, game.as_deref(), &options, now)
            }
            Command::Computer { seat, level } => self.seat_computer(member, seat, level),
            Command::Chat { text } => self.say(member, &text, now),
            Command::Countdown { paused } => self.pause_countdown(member, paused, now),
            Command::Autostart { enabled } => self.set_autostart(member, enabled, now),
            Command::Stop => self.stop_tournament(member),
            Command::Draw { action, table } => self.draw(member, action, table, now),
            Command::Rematch => self.ask_rematch(member, now),
            Command::Unseat { member: who } => self.unseat(member, who),
            Command::Remove { member: who } => self.remove(member, who),
            Command::Readmit { member: who } => self.readmit(member, who),
            Command::Voice { join } => self.voice(member, join, now),
            Command::Mute { muted } => self.mute(member, muted),
            Command::VoiceMute { member: who, muted } => self.voice_mute(member, who, muted),
            Command::Signal { to, signal } => self.signal(member, to, signal, now),
            Command::Rated { rated } => self.set_rated(member, rated),
        }
    }
}

impl RoomState {
    /// The table (by index) where `member` plays a running game, their
    /// side and the game: what `move` and `resign` need. `not_playing` is
    /// the refusal's code for a member who does not play there.
    fn playing(
        &self,
        member: MemberId,
        table: Option<TableId>,
        not_playing: Code,
    ) -> Result<(usize, Side, &Match), Refusal> {
        let t = self.table_index(table, member)?;
        let m = self.tables[t]
            .running()
            .ok_or_else(|| Refusal::new(Code::NoGame, "No game is running."))?;
        let side = m
            .side_of(member)
            .filter(|s| !m.gone[s.index()])
            .ok_or_else(|| Refusal::new(not_playing, "You are not playing in this game."))?;
        Ok((t, side, m))
    }
}
