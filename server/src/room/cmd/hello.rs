//! `hello`: a connection identifies its browser. The member is found by
//! the token's hash, or by the account a signed-in browser is signed in to
//! (when the token has no member here, or a guest's or another account's),
//! or created (making room for it by letting go of
//! offline guests who have nothing to keep); `disconnect` is its end.
//!
//! Two caps keep a room open to newcomers: `--max-members` kept members
//! (removed members are not counted: they stay out, and at most
//! `--max-members` of them are remembered, see `cmd/remove.rs`), and
//! `--members-per-addr` of them added by browsers from one client
//! address, so one address cannot fill the room.

use serde::Deserialize;

use super::super::event::{Effect, Event};
use super::super::state::{Member, RoomState};
use super::super::views::AwayView;
use crate::games::GameKind;
use crate::model::ids::{MemberId, TableId, TokenHash};
use crate::model::records::AccountRef;
use crate::protocol::Since;
use crate::protocol::{Code, Refusal};
use crate::ratings::Rating;
use crate::store::Write;
use crate::validate;

/// What a connection says in `hello`, with the account its token is a
/// session of (looked up by the connection).
#[derive(Clone, Debug)]
pub struct Hello {
    pub token: TokenHash,
    pub name: Option<String>,
    pub account: Option<AccountRef>,
    /// The account's ratings, per game (none for guests).
    pub ratings: Vec<(GameKind, Rating)>,
    /// The client's address (IPv6: its /64), if known.
    pub addr: Option<std::net::IpAddr>,
}

/// `hello`, as the client sends it: the browser's token (none: a new
/// browser), the name it remembers, and where its view of the room stands.
/// The socket reads it (the room's [`Hello`] is what the socket makes of it).
#[derive(Debug, Deserialize)]
pub struct SayHello {
    #[serde(default)]
    pub token: Option<String>,
    #[serde(default)]
    pub name: Option<String>,
    /// A reconnecting client's last event: the room sends the events it
    /// missed instead of a snapshot, if it still has them.
    #[serde(default)]
    pub since: Option<Since>,
}

impl RoomState {
    /// A connection of `hello.token`'s browser opened: returns its member.
    ///
    /// A browser with no name, no account and no host role is a watcher:
    /// it is counted, kept in memory only while it is here, and its
    /// coming and going is announced by the coalesced `spectators` event
    /// (unless the list names it). Anyone else is a stored member, within
    /// the room's cap.
    pub fn hello(&mut self, hello: Hello, now: u64) -> Result<(MemberId, Vec<Effect>), Refusal> {
        let mut effects = Vec::new();
        // The name the browser remembers, else the account's.
        let name = hello
            .name
            .and_then(|n| validate::name(&n).ok())
            .or_else(|| hello.account.as_ref().map(|a| a.display_name.clone()));
        // A browser the host removed, or one signed in to a removed
        // member's account, stays out until the host lets them back in.
        let removed = self.members.iter().any(|m| {
            m.removed
                && (m.token.as_ref() == Some(&hello.token)
                    || m.account
                        .as_ref()
                        .zip(hello.account.as_ref())
                        .is_some_and(|(a, b)| a.id == b.id))
        });
        if removed {
            return Err(super::remove::removed_refusal());
        }
        // A signed-in person is one member on every browser: a browser
        // new to the room finds its account's member (a seated one first),
        // so a game paired or challenged on one device is played on any.
        let by_account = hello.account.as_ref().and_then(|a| {
            let mine = |m: &Member| {
                !m.removed
                    && m.computer.is_none()
                    && m.account.as_ref().is_some_and(|b| b.id == a.id)
            };
            let members = &self.members;
            members
                .iter()
                .position(|m| mine(m) && m.seat.is_some())
                .or_else(|| members.iter().position(mine))
        });
        let by_token = self
            .members
            .iter()
            .position(|m| m.token.as_ref() == Some(&hello.token));
        // The token's member is this person's unless it is someone else's:
        // a browser that was a guest here (or signed in to another account)
        // and now signs in to an account that has its own member takes
        // that one, so one account never holds two members (two seats).
        let found = match (by_token, by_account) {
            (Some(mine), Some(account)) => {
                let same = self.members[mine]
                    .account
                    .as_ref()
                    .zip(hello.account.as_ref())
                    .is_some_and(|(a, b)| a.id == b.id);
                Some(if same { mine } else { account })
            }
            (mine, account) => mine.or(account),
        };
        let creator = self.host.as_ref() == Some(&hello.token);
        let index = match found {
            Some(index) => index,
            None => {
                let host = creator;
                let mut newcomer = Member {
                    id: MemberId(0),
                    token: Some(hello.token),
                    name: name.clone(),
                    seat: None,
                    conns: 0,
                    host,
                    offline_since: None,
                    computer: None,
                    account: hello.account.clone(),
                    stored: false,
                    removed: false,
                    ratings: Vec::new(),
                    addr: hello.addr,
                    seen_from: None,
                };
                if !newcomer.kept() {
                    let watchers = self.members.iter().filter(|m| !m.stored).count();
                    if watchers >= self.config.max_watchers {
                        return Err(Refusal::new(
                            Code::RoomFull,
                            format!(
                                "This room is full ({} spectators); try again later.",
                                self.config.max_watchers
                            ),
                        ));
                    }
                } else {
                    self.make_room(hello.addr, &mut effects)?;
                }
                newcomer.id = self.take_member_id();
                self.members.push(newcomer);
                self.members.len() - 1
            }
        };
        // The creator's token from a browser signed in to an account
        // whose member another of its browsers made first: that member is
        // the host, as the creator's browser would have been. The token
        // gives the role once (no other browser becomes host by it).
        let made_host = by_token.is_none()
            && found.is_some()
            && creator
            && !self.members.iter().any(|m| m.host);
        if made_host {
            self.host = None;
            effects.push(Effect::Persist(Write::Room(self.row())));
        }
        let away_before = self.away_where_playing(self.members[index].id, now);
        let member = &mut self.members[index];
        let before = member.row();
        member.host |= made_host;
        let came = member.conns == 0;
        if hello.addr.is_some() {
            member.seen_from = hello.addr;
        }
        if member.name.is_none() {
            member.name = name;
        }
        member.ratings = if hello.account.is_some() {
            hello.ratings
        } else {
            Vec::new()
        };
        member.account = hello.account;
        member.conns += 1;
        member.offline_since = None;
        let (id, row) = (member.id, member.row());
        if !member.stored && member.kept() {
            // A newcomer (or a watcher who now has a name): stored, with
            // the room's next member id.
            member.stored = true;
            effects.push(Effect::Persist(Write::Room(self.row())));
            effects.push(Effect::Persist(Write::Member(row.clone())));
        } else if member.stored && row != before {
            effects.push(Effect::Persist(Write::Member(row.clone())));
        }
        if self.is_listed(id) && (came || row != before) {
            self.emit_members(&mut effects);
        } else if came {
            self.presence_changed();
        }
        self.emit_away_changes(away_before, now, &mut effects);
        if came {
            self.start_if_all_seated(now, &mut effects);
        }
        Ok((id, effects))
    }

    /// One of `member`'s connections closed. A watcher's last one lets
    /// it go.
    pub fn disconnect(&mut self, member: MemberId, now: u64) -> Vec<Effect> {
        let mut effects = Vec::new();
        let listed = self.is_listed(member);
        let away_before = self.away_where_playing(member, now);
        let Ok(m) = self.member_mut(member) else {
            return effects;
        };
        m.conns = m.conns.saturating_sub(1);
        if m.conns > 0 {
            return effects;
        }
        m.offline_since = Some(now);
        // A removed member left the counts when it was removed.
        let (stored, removed) = (m.stored, m.removed);
        // Voice needs a page: the last one closed leaves it.
        self.leave_voice(member, &mut effects);
        if !stored {
            self.members.retain(|m| m.id != member);
        }
        if listed {
            self.emit_members(&mut effects);
        } else if !removed {
            self.presence_changed();
        }
        self.emit_away_changes(away_before, now, &mut effects);
        effects
    }

    /// The away lists of the running tables where `member` plays (none
    /// for a watcher: presence alone is cheap in a big room).
    fn away_where_playing(&self, member: MemberId, now: u64) -> Vec<(TableId, Vec<AwayView>)> {
        self.tables
            .iter()
            .filter(|t| t.running().is_some_and(|m| m.side_of(member).is_some()))
            .map(|t| (t.id, self.away_view(t, now)))
            .collect()
    }

    /// Tells everyone of each table whose away sides changed since
    /// `before` (the times left aside).
    pub(in crate::room) fn emit_away_changes(
        &mut self,
        before: Vec<(TableId, Vec<AwayView>)>,
        now: u64,
        effects: &mut Vec<Effect>,
    ) {
        for (table, was) in before {
            let Some(t) = self.tables.iter().find(|t| t.id == table) else {
                continue;
            };
            let away = self.away_view(t, now);
            let sides = |list: &[AwayView]| list.iter().map(|a| a.side).collect::<Vec<_>>();
            if sides(&away) != sides(&was) {
                self.emit(effects, Event::Away { table, away });
            }
        }
    }

    /// Makes room for one more kept member from `addr`, letting go of
    /// offline guests with nothing to keep (no seat, no score, not host,
    /// not playing), oldest first: one of that address's own when its
    /// browsers already added `--members-per-addr` kept members, and any
    /// at the member cap. Refuses the newcomer (changing nothing) if not
    /// enough can go. Removed members count against neither cap.
    pub(super) fn make_room(
        &mut self,
        addr: Option<std::net::IpAddr>,
        effects: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        let counted = |m: &Member| m.stored && !m.removed;
        let mut gone: Vec<usize> = Vec::new();
        let per_addr = self.config.members_per_addr;
        if let Some(addr) = addr.filter(|_| per_addr > 0) {
            let ours = |m: &Member| counted(m) && m.addr == Some(addr);
            let excess =
                (self.members.iter().filter(|m| ours(m)).count() + 1).saturating_sub(per_addr);
            gone.extend(self.evictable(|m| ours(m)).take(excess));
            if gone.len() < excess {
                return Err(Refusal::new(
                    Code::RoomFull,
                    format!(
                        "This room already has {per_addr} members from your address; try again later."
                    ),
                ));
            }
        }
        let excess = (self.members.iter().filter(|m| counted(m)).count() + 1)
            .saturating_sub(self.config.max_members);
        let more: Vec<usize> = self
            .evictable(|_| true)
            .filter(|i| !gone.contains(i))
            .take(excess.saturating_sub(gone.len()))
            .collect();
        gone.extend(more);
        // Decide before changing anything: a refusal changes nothing.
        if gone.len() < excess {
            return Err(Refusal::new(
                Code::RoomFull,
                format!(
                    "This room is full ({} members); try again later.",
                    self.config.max_members
                ),
            ));
        }
        gone.sort_unstable();
        for &i in gone.iter().rev() {
            let gone = self.members.remove(i);
            effects.push(Effect::Persist(Write::RemoveMember(gone.id)));
        }
        Ok(())
    }

    /// The indexes of the members [`RoomState::make_room`] may let go
    /// (among those `also` picks), oldest first.
    fn evictable<'a>(
        &'a self,
        also: impl Fn(&Member) -> bool + 'a,
    ) -> impl Iterator<Item = usize> + 'a {
        self.members
            .iter()
            .enumerate()
            .filter(move |(_, m)| {
                also(m)
                    && m.stored
                    && m.conns == 0
                    && !m.removed
                    && m.seat.is_none()
                    && m.computer.is_none()
                    && !m.host
                    && !self.has_score(m.id)
                    && !self.tables.iter().any(|t| t.plays(m.id))
                    && !self.tournament.as_ref().is_some_and(|b| {
                        b.is_active() && b.entrants.iter().any(|e| e.member == m.id)
                    })
            })
            .map(|(i, _)| i)
    }
}
