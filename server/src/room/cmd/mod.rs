//! One file per command (as mini-redis's `cmd/`): each holds the
//! command's checks and its change. A check that fails returns a
//! [`Refusal`] before anything is changed; a command that passes returns
//! the effects for the task to carry out.

mod autostart;
mod chat;
mod computer;
mod countdown;
mod hello;
mod r#move;
mod name;
mod options;
mod resign;
mod sit;
mod stand;
mod start;

pub use hello::Hello;

use super::ids::MemberId;
use super::state::{Applied, RoomState};
use crate::protocol::{Code, Command, Refusal};

impl RoomState {
    /// Applies `command` from `member` at `now`.
    pub fn apply(&mut self, member: MemberId, command: Command, now: u64) -> Applied {
        if self.member(member).is_none() {
            return Err(Refusal::new(Code::HelloFirst, "Say hello first."));
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
        }
    }
}
