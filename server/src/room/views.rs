//! What clients see of a room (docs/PROTOCOL.md): plain structs that
//! serialise to the wire format, built from the state at a given time.

use rules::{Game, Level, Outcome, Side, TimeControl};
use serde::Serialize;

use super::event::ChatLine;
use super::ids::{GameId, MemberId, TableId};
use super::knockout::bracket::Bracket;
use super::state::{Countdown, Member, RoomState};
use super::table::{Match, Player, Table};
use crate::games::{AnyGame, GameKind, GameOptions, Seating, TEAM_SEATS};
use crate::ratings::RatingView;

#[derive(Clone, Debug, Serialize)]
pub struct MemberView {
    pub id: MemberId,
    pub name: Option<String>,
    pub seat: Option<usize>,
    pub online: bool,
    pub host: bool,
    pub computer: Option<Level>,
    pub account: Option<String>,
    /// The rating at the room's game: a signed-in person's (the start
    /// rating if they have played no rated game there), or the computer
    /// level's fixed one (deviation 0); `null` for guests.
    pub rating: Option<RatingView>,
}

/// A member the host removed, as the host's list shows them.
#[derive(Clone, Debug, Serialize)]
pub struct RemovedView {
    pub member: MemberId,
    pub name: Option<String>,
}

/// A member in voice chat.
#[derive(Clone, Debug, Serialize)]
pub struct VoiceView {
    pub member: MemberId,
    /// Sends their voice (at most 8 speakers); `false`: only listens.
    pub speaker: bool,
    /// Muted themselves.
    pub muted: bool,
    /// The host muted them for everyone.
    pub host_muted: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct ClockView {
    /// Per side, as of the moment the message was built.
    pub remaining_ms: Vec<u64>,
    pub running: Option<Side>,
}

#[derive(Clone, Debug, Serialize)]
pub struct MatchView {
    pub id: GameId,
    pub number: u32,
    /// `players[i]`: who plays side `i`'s next turn.
    pub players: Vec<Player>,
    /// `teams[i]`: everyone playing side `i`, in rotation order.
    pub teams: Vec<Vec<Player>>,
    pub to_play: Option<MemberId>,
    pub state: AnyGame,
    pub legal: Vec<String>,
    pub moves: Vec<String>,
    pub move_sides: Vec<Side>,
    pub clock: Option<ClockView>,
    pub outcome: Option<Outcome>,
    /// The side whose draw offer stands, else `null`.
    pub draw_offer: Option<Side>,
}

/// What a `match` event carries: the whole match, or after a move only
/// what the move changed ([`MoveView`]), so a move costs the same to send
/// at ply 5 and at ply 500.
#[derive(Clone, Debug, Serialize)]
#[serde(untagged)]
pub enum MatchBody {
    Full(MatchView),
    Move(MoveView),
}

/// Legal lists up to this long go to everyone with the move; longer ones
/// (Quoridor's walls) only to the member due to play.
pub const SHARED_LEGAL: usize = 64;

/// Online members without a seat (or host role) named in the members
/// list; more are only counted.
pub const LISTED_SPECTATORS: usize = 20;

/// Where a member stands in the `members` list: the one rule behind
/// `listed` (and so `is_listed`) and `unlisted_count`.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Listing {
    /// Players and computers (online or not), and the host while online.
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
        } else if self.seat.is_some() || self.computer.is_some() {
            Listing::Always
        } else if self.conns == 0 {
            Listing::Never
        } else if self.host {
            Listing::Always
        } else {
            Listing::Spectator
        }
    }
}

/// A match after a move, as a change to the one the client holds: the
/// client appends the move (and its side) to `moves` (`move_sides`) and
/// takes the rest as it is. `ply` is the number of moves after this one,
/// so a client that holds another count resyncs.
#[derive(Clone, Debug, Serialize)]
pub struct MoveView {
    pub id: GameId,
    pub ply: usize,
    pub players: Vec<Player>,
    pub to_play: Option<MemberId>,
    pub state: AnyGame,
    /// Omitted when long: the member due to play gets it in their copy
    /// ([`MoveView::private_legal`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<String>>,
    pub clock: Option<ClockView>,
    pub outcome: Option<Outcome>,
    pub draw_offer: Option<Side>,
    /// The long legal list and who gets it (not serialised).
    #[serde(skip)]
    pub private_legal: Option<(MemberId, Vec<String>)>,
}

#[derive(Clone, Debug, Serialize)]
pub struct TableView {
    pub id: TableId,
    #[serde(rename = "match")]
    pub current: Option<MatchView>,
    /// Online members who do not play at this table.
    pub spectators: usize,
}

#[derive(Clone, Debug, Serialize)]
pub struct ScoreView {
    /// The person's current name.
    pub name: String,
    /// The member the row belongs to, for a guest (`null` for accounts).
    pub member: Option<MemberId>,
    /// The account the row belongs to, for someone signed in.
    pub account: Option<String>,
    pub points: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

#[derive(Clone, Debug, Serialize)]
pub struct AutostartView {
    pub enabled: bool,
    /// Until the next game starts by itself, as of sending.
    pub remaining_ms: Option<u64>,
    pub paused: bool,
}

#[derive(Clone, Debug, Serialize)]
pub struct RoomView {
    pub code: String,
    pub link: String,
    pub qr: String,
    pub game: GameKind,
    pub options: GameOptions,
    pub seats: usize,
    pub team_seats: Option<usize>,
    pub autostart: AutostartView,
    /// The room's games between two signed-in people are rated.
    pub rated: bool,
    pub members: Vec<MemberView>,
    pub spectators: usize,
    /// Online members `members` leaves out (counted in `spectators`).
    pub unlisted: usize,
    pub scores: Vec<ScoreView>,
    pub tables: Vec<TableView>,
    /// The knockout tournament under way or the last one, else `null`.
    pub tournament: Option<Bracket>,
    pub chat: Vec<ChatLine>,
    /// Players of the last game who asked for a rematch.
    pub rematch: Vec<MemberId>,
    /// Members the host removed (names only; for the host's list).
    pub removed: Vec<RemovedView>,
    pub voice: Vec<VoiceView>,
}

#[derive(Clone, Debug, Serialize)]
pub struct YouView {
    pub member: MemberId,
    pub name: Option<String>,
    pub seat: Option<usize>,
    pub host: bool,
    pub account: Option<String>,
}

/// The whole room for one member, sent after `hello`.
#[derive(Clone, Debug, Serialize)]
pub struct Snapshot {
    #[serde(rename = "type")]
    pub kind: &'static str,
    pub v: u64,
    /// The room task's run that numbered `v` (versions start again when a
    /// room reloads): a reconnecting client sends both back (`since`).
    pub epoch: String,
    pub you: YouView,
    pub room: RoomView,
}

impl Match {
    fn clock_view(&self, now: u64) -> Option<ClockView> {
        (self.clock.control() != TimeControl::Unlimited).then(|| ClockView {
            remaining_ms: self.clock.all_remaining(now),
            running: self.clock.running(),
        })
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
            outcome: self.game.outcome().cloned(),
            draw_offer: self.draw_offer,
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
            outcome: self.game.outcome().cloned(),
            draw_offer: self.draw_offer,
        }
    }
}

impl RoomState {
    /// The members the list names: seated players (even offline: their
    /// seat waits for them), the host while online, and the first
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
        }
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
            kind: "snapshot",
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
