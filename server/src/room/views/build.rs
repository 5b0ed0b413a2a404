//! The views built from the room's state at a given time: who the
//! members list names, a match whole or after a move, the snapshot.

use rules::{Game, TimeControl};

use super::super::state::{Countdown, Member, RoomState};
use super::super::table::{Match, Table};
use super::*;
use crate::games::{Seating, TEAM_SEATS};
use crate::ratings::RatingView;

/// Where a member stands in the `members` list: the one rule behind
/// `listed` (and so `is_listed`) and `unlisted_count`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Listing {
    /// Players and computers, and the host (online or not).
    Always,
    /// Other people online: the first [`LISTED_SPECTATORS`] are named.
    Spectator,
    /// Offline, or removed (their pages are closing).
    Never,
}

impl Member {
    fn listing(&self) -> Listing {
        if self.removed {
            Listing::Never
        } else if self.seat.is_some() || self.computer.is_some() || self.host {
            Listing::Always
        } else if self.conns == 0 {
            Listing::Never
        } else {
            Listing::Spectator
        }
    }
}

impl Match {
    fn clock_view(&self, now: u64) -> Option<ClockView> {
        (self.clock.control() != TimeControl::Unlimited).then(|| ClockView {
            remaining_ms: self.clock.all_remaining(now),
            running: self.clock.running(),
        })
    }

    /// A turn-based game's time left to move.
    fn turn_left(&self, now: u64) -> Option<u64> {
        self.deadline
            .filter(|_| self.is_running())
            .map(|at| at.saturating_sub(now))
    }

    fn players_view(&self) -> Vec<Player> {
        (0..self.sides.len())
            .filter_map(|s| self.player(Side(s as u8)).cloned())
            .collect()
    }

    /// The match after its last move, as a change ([`MoveView`]).
    pub fn move_view(&self, now: u64) -> MoveView {
        let legal = self.game.legal();
        let to_play = self.due().map(|p| p.member);
        let (legal, private_legal) = if legal.len() <= SHARED_LEGAL {
            (Some(legal), None)
        } else {
            (None, to_play.map(|m| (m, legal)))
        };
        MoveView {
            id: self.id,
            ply: self.moves.len(),
            players: self.players_view(),
            to_play,
            state: self.game.clone(),
            legal,
            clock: self.clock_view(now),
            turn_left_ms: self.turn_left(now),
            outcome: self.game.outcome().cloned(),
            draw_offer: self.draw.standing,
            private_legal,
        }
    }

    pub fn view(&self, now: u64) -> MatchView {
        let clock = self.clock_view(now);
        MatchView {
            id: self.id,
            number: self.number,
            players: self.players_view(),
            teams: self.sides.clone(),
            to_play: self.due().map(|p| p.member),
            state: self.game.clone(),
            legal: self.game.legal(),
            moves: self.moves.clone(),
            move_sides: self.move_sides.clone(),
            clock,
            days: self.options.days(),
            turn_left_ms: self.turn_left(now),
            outcome: self.game.outcome().cloned(),
            draw_offer: self.draw.standing,
            takeback_offer: self.takeback.standing,
            draw_asked: self.draw.asked_sides(self.moves_played()),
            takeback_asked: self.takeback.asked_sides(self.moves_played()),
        }
    }
}

impl RoomState {
    /// The members the list names: seated players (even offline: their
    /// seat waits for them), the host (even offline), and the first
    /// [`LISTED_SPECTATORS`] other online members. Everyone else online is
    /// only counted (`unlisted`), so a join costs the same in a room of
    /// any size.
    pub fn listed(&self) -> impl Iterator<Item = &Member> {
        let mut spectators = 0;
        self.members.iter().filter(move |m| match m.listing() {
            Listing::Always => true,
            Listing::Never => false,
            Listing::Spectator => {
                spectators += 1;
                spectators <= LISTED_SPECTATORS
            }
        })
    }

    pub fn is_listed(&self, id: MemberId) -> bool {
        self.listed().any(|m| m.id == id)
    }

    /// Online members the list leaves out.
    pub fn unlisted_count(&self) -> usize {
        self.members
            .iter()
            .filter(|m| m.listing() == Listing::Spectator)
            .count()
            .saturating_sub(LISTED_SPECTATORS)
    }

    pub fn members_view(&self) -> Vec<MemberView> {
        self.listed()
            .map(|m| MemberView {
                id: m.id,
                name: m.name.clone(),
                seat: m.seat,
                online: m.online(),
                host: m.host,
                computer: m.computer,
                account: m.account.as_ref().map(|a| a.username.clone()),
                rating: self.rating_of(m),
            })
            .collect()
    }

    pub fn removed_view(&self) -> Vec<RemovedView> {
        self.members
            .iter()
            .filter(|m| m.removed)
            .map(|m| RemovedView {
                member: m.id,
                name: m.name.clone(),
            })
            .collect()
    }

    /// What [`RoomState::members_view`] shows next to a member's name.
    fn rating_of(&self, m: &Member) -> Option<RatingView> {
        let game = self.game();
        if let Some(level) = m.computer {
            return Some(RatingView {
                rating: crate::ratings::computer_rating(game, level),
                deviation: 0,
                games: 0,
            });
        }
        m.account.as_ref()?;
        let r = m
            .ratings
            .iter()
            .find(|(g, _)| *g == game)
            .map(|(_, r)| *r)
            .unwrap_or_default();
        // As it stood at the member's hello or their last game here.
        Some(r.view(r.last_at))
    }

    pub fn table_view(&self, table: &Table, now: u64) -> TableView {
        let spectators = self
            .members
            .iter()
            .filter(|m| m.conns > 0 && !table.plays(m.id) && m.computer.is_none())
            .count();
        TableView {
            id: table.id,
            current: table.current.as_ref().map(|m| m.view(now)),
            spectators,
            away: self.away_view(table, now),
        }
    }

    /// The sides of `table`'s running game whose players are all offline.
    pub fn away_view(&self, table: &Table, now: u64) -> Vec<AwayView> {
        let Some(m) = table.running() else {
            return Vec::new();
        };
        (0..m.sides.len())
            .filter_map(|s| {
                let since = self.side_gone_since(m, s)?;
                let left = |wait: u64| since.saturating_add(wait).saturating_sub(now);
                Some(AwayView {
                    side: Side(s as u8),
                    abandon_ms: left(self.config.abandon_after_ms),
                    claim_ms: left(self.config.claim_after_ms),
                })
            })
            .collect()
    }

    pub fn autostart_view(&self, now: u64) -> AutostartView {
        let (remaining_ms, paused) = match self.countdown {
            Some(Countdown::Running { at_ms }) => (Some(at_ms.saturating_sub(now)), false),
            Some(Countdown::Paused { left_ms }) => (Some(left_ms), true),
            None => (None, false),
        };
        AutostartView {
            enabled: self.autostart,
            remaining_ms,
            paused,
        }
    }

    pub fn team_seats(&self) -> Option<usize> {
        matches!(self.seating, Seating::Teams).then_some(TEAM_SEATS)
    }

    /// The room as `member` sees it after `hello`; `base_url` is where the
    /// browser reached the server, for the invite link.
    pub fn snapshot(&self, member: MemberId, base_url: &str, now: u64) -> Snapshot {
        let me = self.member(member);
        Snapshot {
            v: self.version,
            epoch: String::new(),
            you: YouView {
                member,
                name: me.and_then(|m| m.name.clone()),
                seat: me.and_then(|m| m.seat),
                host: me.is_some_and(|m| m.host),
                account: me.and_then(|m| m.account.as_ref().map(|a| a.username.clone())),
            },
            room: RoomView {
                code: self.code.clone(),
                link: format!("{base_url}/r/{}", self.code),
                qr: format!("/api/rooms/{}/qr.svg", self.code),
                game: self.game(),
                options: self.options.clone(),
                seats: self.seats(),
                team_seats: self.team_seats(),
                autostart: self.autostart_view(now),
                rated: self.rated,
                public: self.public,
                solo: self.solo,
                members: self.members_view(),
                spectators: self.spectator_count(),
                unlisted: self.unlisted_count(),
                scores: self.scores_view(),
                tables: self
                    .tables
                    .iter()
                    .map(|t| self.table_view(t, now))
                    .collect(),
                tournament: self.tournament.clone(),
                chat: self.chat.iter().cloned().collect(),
                rematch: self.rematch.clone(),
                removed: self.removed_view(),
                voice: self.voice_view(),
            },
        }
    }
}
