//! A room made for players who found each other (quick pairing, an
//! accepted challenge): they sit from the start, in the order given, and
//! the first game starts by itself as soon as all of them are online
//! (`RoomState::start_when_seated`, stored, so a restart in between
//! changes nothing). The room has no host: nobody can change its options
//! or unseat the other.

use super::event::Effect;
use super::state::{Member, RoomConfig, RoomState};
use crate::games::{GameOptions, Seating};
use crate::model::ids::TokenHash;
use crate::model::records::AccountRef;
use crate::protocol::Order;
use crate::store::Write;

/// A player a seated room is made for.
#[derive(Clone, Debug)]
pub struct Invitee {
    /// The browser's token (kept only as its hash): the page that says
    /// hello with it is this player's.
    pub token: String,
    pub name: String,
    pub account: Option<AccountRef>,
}

/// Why a seated room cannot be made with these options and players.
pub fn check(options: &GameOptions, players: usize) -> Result<(), String> {
    match options.seating() {
        Seating::PerSide(seats) if seats == players => Ok(()),
        Seating::PerSide(seats) => Err(format!("This game is for {seats} players, not {players}.")),
        Seating::Teams | Seating::Knockout => {
            Err("Only a game with one player a side can be paired.".to_string())
        }
    }
}

impl RoomState {
    /// A fresh room `code` where `players` sit in order (seat i), rated if
    /// `rated`, with the writes that store its members. Check the options
    /// with [`check`] first.
    pub fn seated(
        code: &str,
        options: GameOptions,
        rated: bool,
        players: &[Invitee],
        config: RoomConfig,
        now: u64,
    ) -> (RoomState, Vec<Write>) {
        let mut state = RoomState::new(code, options, None, config);
        state.rated = rated;
        state.start_when_seated = true;
        let mut writes = Vec::new();
        for (seat, p) in players.iter().enumerate() {
            let id = state.take_member_id();
            let member = Member {
                id,
                token: Some(TokenHash::of(&p.token)),
                name: Some(p.name.clone()),
                seat: Some(seat),
                conns: 0,
                host: false,
                offline_since: Some(now),
                computer: None,
                account: p.account.clone(),
                stored: true,
                removed: false,
                ratings: Vec::new(),
                addr: None,
                seen_from: None,
            };
            writes.push(Write::Member(member.row()));
            state.members.push(member);
        }
        // The row last: it carries the next member id.
        writes.push(Write::Room(state.row()));
        (state, writes)
    }

    /// After a hello: the first game of a seated room starts once every
    /// seat's player is online.
    pub(super) fn start_if_all_seated(&mut self, now: u64, effects: &mut Vec<Effect>) {
        if !self.start_when_seated || self.busy() {
            return;
        }
        if let Ok(started) = self.begin(Order::Seats, now) {
            self.start_when_seated = false;
            effects.push(Effect::Persist(Write::Room(self.row())));
            effects.extend(started);
        }
    }
}
