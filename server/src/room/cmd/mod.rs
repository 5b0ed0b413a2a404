//! One file per command (as mini-redis's `cmd/`): each holds the
//! command's checks and its change. A check that fails returns a
//! [`Refusal`] before anything is changed; a command that passes returns
//! the effects for the task to carry out.

mod autostart;
mod chat;
mod claim;
mod computer;
mod countdown;
mod draw;
mod hello;
mod hint;
mod host;
mod r#move;
mod name;
mod options;
mod public;
mod rated;
mod rematch;
mod remove;
mod resign;
mod signal;
mod sit;
mod stand;
mod start;
mod takeback;
mod unseat;
mod voice;

#[cfg(test)]
mod tests;

pub use autostart::Autostart;
pub use chat::Chat;
pub use claim::Claim;
pub use computer::Computer;
pub use countdown::PauseCountdown;
pub use draw::Draw;
pub use hello::{Hello, SayHello};
pub use hint::HINT_EVERY_MS;
pub use host::GiveHost;
pub use name::Name;
pub use options::Options;
pub use public::Public;
pub use r#move::Move;
pub use rated::Rated;
pub use remove::{Readmit, Remove};
pub use resign::Resign;
pub use signal::SendSignal;
pub use sit::Sit;
pub use start::Start;
pub use takeback::Takeback;
pub use unseat::Unseat;
pub use voice::{JoinVoice, Mute, VoiceMute};

use rules::Side;
use serde::Deserialize;

use super::state::{Applied, RoomState};
use super::table::Match;
use crate::model::ids::{MemberId, TableId};
use crate::protocol::{Code, Refusal};

/// Declares [`Command`] from one list: each command's name on the wire
/// is written once, and serde reads it (`#[serde(rename)]`) while
/// [`Command::kind`] logs it.
macro_rules! commands {
    ($($(#[$doc:meta])* $name:literal => $variant:ident $(($command:ty))?,)*) => {
        /// A command from a client: one struct per command, in the file of
        /// its apply (`Stand`, `Ping`, `Stop`, `Rematch` and `Hint` carry
        /// nothing).
        /// Read by [`crate::protocol::parse`] straight from the frame.
        #[derive(Debug, Deserialize)]
        #[serde(tag = "type")]
        pub enum Command {
            $($(#[$doc])* #[serde(rename = $name)] $variant $(($command))?,)*
        }

        impl Command {
            /// The command's name on the wire, for logs and tracing spans.
            pub fn kind(&self) -> &'static str {
                match self {
                    $(Command::$variant { .. } => $name,)*
                }
            }
        }
    };
}

commands! {
    "hello" => Hello(SayHello),
    "name" => Name(Name),
    "sit" => Sit(Sit),
    "stand" => Stand,
    "start" => Start(Start),
    "move" => Move(Move),
    "resign" => Resign(Resign),
    /// `game` switches the room to another game (between games).
    "options" => Options(Options),
    "computer" => Computer(Computer),
    "chat" => Chat(Chat),
    "ping" => Ping,
    "countdown" => Countdown(PauseCountdown),
    "autostart" => Autostart(Autostart),
    /// The host stops the knockout tournament (between rounds).
    "stop" => Stop,
    "draw" => Draw(Draw),
    /// A player of the last game asks for another at once.
    "rematch" => Rematch,
    "unseat" => Unseat(Unseat),
    "remove" => Remove(Remove),
    "readmit" => Readmit(Readmit),
    "voice" => Voice(JoinVoice),
    "mute" => Mute(Mute),
    "voice_mute" => VoiceMute(VoiceMute),
    "signal" => Signal(SendSignal),
    "rated" => Rated(Rated),
    /// The host lists the room in the lobby, or takes it off.
    "public" => Public(Public),
    /// The host gives the host role to another person.
    "host" => Host(GiveHost),
    /// A player claims the win, or a draw, from opponents who left.
    "claim" => Claim(Claim),
    /// A player asks to take back their last move, or answers.
    "takeback" => Takeback(Takeback),
    /// A player against the computer alone asks for the engine's move.
    "hint" => Hint,
}

impl RoomState {
    /// Applies `command` from `member` at `now`.
    pub fn apply(&mut self, member: MemberId, command: Command, now: u64) -> Applied {
        match self.member(member) {
            None => return Err(Refusal::new(Code::HelloFirst, "Say hello first.")),
            // Its pages are being closed; nothing it sends counts.
            Some(m) if m.removed => return Err(remove::removed_refusal()),
            Some(_) => {}
        }
        // A change seen by everyone is budgeted per member and address:
        // checked first, spent only when it changed something.
        let budgeted = matches!(
            command,
            Command::Name(_)
                | Command::Sit(_)
                | Command::Stand
                | Command::Options(_)
                | Command::Computer(_)
                | Command::Countdown(_)
                | Command::Autostart(_)
                | Command::Stop
                | Command::Unseat(_)
                | Command::Remove(_)
                | Command::Readmit(_)
                | Command::Voice(_)
                | Command::Mute(_)
                | Command::VoiceMute(_)
                | Command::Rated(_)
                | Command::Public(_)
                | Command::Host(_)
        );
        // The address's share goes with its cap on members: an operator
        // who lifts that (`--members-per-addr 0`) lifts this too.
        let addr = self
            .member(member)
            .and_then(|m| m.seen_from)
            .filter(|_| self.config.members_per_addr > 0);
        if budgeted && !self.change_budgets.allows(member, addr, now) {
            return Err(Refusal::new(
                Code::RateLimited,
                "Too many changes to the room; slow down.",
            ));
        }
        let applied = self.apply_unbudgeted(member, command, now);
        if budgeted && applied.as_ref().is_ok_and(|effects| !effects.is_empty()) {
            self.change_budgets.take(member, addr, now);
        }
        applied
    }

    fn apply_unbudgeted(&mut self, member: MemberId, command: Command, now: u64) -> Applied {
        match command {
            Command::Hello(_) => Err(Refusal::new(Code::BadMessage, "You already said hello.")),
            Command::Ping => Ok(Vec::new()),
            Command::Name(Name { name }) => self.set_name(member, &name),
            Command::Sit(Sit { seat }) => self.sit(member, seat),
            Command::Stand => self.stand(member),
            Command::Start(Start { order }) => self.start(member, order, now),
            Command::Move(Move { mv, table, lag_ms }) => self.play(member, table, mv, lag_ms, now),
            Command::Resign(Resign { table }) => self.resign(member, table, now),
            Command::Options(Options { game, options }) => {
                self.set_options(member, game, &options, now)
            }
            Command::Computer(Computer { seat, level }) => self.seat_computer(member, seat, level),
            Command::Chat(Chat { text }) => self.say(member, &text, now),
            Command::Countdown(PauseCountdown { paused }) => {
                self.pause_countdown(member, paused, now)
            }
            Command::Autostart(Autostart { enabled }) => self.set_autostart(member, enabled, now),
            Command::Stop => self.stop_tournament(member),
            Command::Draw(Draw { action, table }) => self.draw(member, action, table, now),
            Command::Rematch => self.ask_rematch(member, now),
            Command::Unseat(Unseat { member: who }) => self.unseat(member, who),
            Command::Remove(Remove { member: who }) => self.remove(member, who),
            Command::Readmit(Readmit { member: who }) => self.readmit(member, who),
            Command::Voice(JoinVoice { join }) => self.voice(member, join),
            Command::Mute(Mute { muted }) => self.mute(member, muted),
            Command::VoiceMute(VoiceMute { member: who, muted }) => {
                self.voice_mute(member, who, muted)
            }
            Command::Signal(SendSignal { to, signal }) => self.signal(member, to, signal, now),
            Command::Rated(Rated { rated }) => self.set_rated(member, rated),
            Command::Public(Public { on }) => self.set_public(member, on),
            Command::Host(GiveHost { member: who }) => self.give_host(member, who),
            Command::Claim(Claim { action, table }) => self.claim(member, action, table, now),
            Command::Takeback(Takeback { action, table }) => {
                self.takeback(member, action, table, now)
            }
            Command::Hint => self.hint(member, now),
        }
    }
}

/// A request between the two players of a game (a draw offer, a
/// takeback request) made or declined by `member`, playing `side`, when
/// `ply` moves had been played (those taken back included:
/// `GameLog::moves_played`).
struct Offer {
    kind: super::event::DrawKind,
    side: Side,
    member: MemberId,
    ply: usize,
}

impl RoomState {
    /// Records `offer` at table `t` in the match's request `pick` names,
    /// and tells everyone with `event`.
    fn offered(
        &mut self,
        t: usize,
        offer: Offer,
        pick: fn(&mut Match) -> &mut super::table::Request,
        event: impl FnOnce(TableId, &Offer) -> super::event::Event,
    ) -> Vec<super::event::Effect> {
        let table = self.tables[t].id;
        if let Some(m) = self.tables[t].current.as_mut() {
            let request = pick(m);
            if offer.kind == super::event::DrawKind::Offer {
                request.ask(offer.side, offer.ply);
            } else {
                request.standing = None;
            }
        }
        let mut effects = Vec::new();
        self.emit(&mut effects, event(table, &offer));
        effects
    }

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
