//! The room's state as a plain value: no I/O, no tokio, no JSON.
//!
//! Everything that happens to a room is a call on [`RoomState`] with the
//! time passed in: a command (`apply`, in `cmd/`), a connection opening or
//! closing (`hello`, `disconnect`), a timer (`fire`, in `timers.rs`) or a
//! computer's move (`bot_move`). Each returns the [`Effect`]s the task
//! must carry out (store, broadcast, think), so every rule of the room is
//! tested without a socket, a database or a sleep.

use std::collections::VecDeque;

use rules::Level;

use super::event::{Effect, Event, Stamped};
use super::table::Table;
use crate::games::{GameKind, GameOptions, Seating};
use crate::model::bracket::Bracket;
use crate::model::ids::{MemberId, TableId, TokenHash};
use crate::model::records::ScoreRow;
use crate::model::records::{AccountRef, ChatLine};
use crate::model::records::{MemberRow, RoomRow};
use crate::protocol::{Code, Refusal};
use crate::ratings::Rating;
use crate::store::Write;

/// The room rules that come from the server's configuration, in
/// milliseconds.
#[derive(Clone, Debug)]
pub struct RoomConfig {
    /// How long a player may stay offline during their game.
    pub abandon_after_ms: u64,
    /// How long a side must have been offline before its opponents may
    /// `claim` the win (or a draw).
    pub claim_after_ms: u64,
    /// How long the host may be offline before the role passes on (0:
    /// never).
    pub host_handover_ms: u64,
    /// The most of a move's measured network lag not charged to the
    /// mover's clock.
    pub lag_comp_ms: u64,
    /// How long after a game ends the next one starts by itself.
    pub autostart_after_ms: u64,
    /// Master's time per move; weaker levels think a share of it.
    pub bot_budget_ms: u64,
    /// Members a room keeps; past it, offline guests with nothing to keep
    /// (no seat, no score, not host) make room for newcomers.
    pub max_members: usize,
    /// Watchers (online members with no name, seat or host role, kept in
    /// memory only) a room takes at once.
    pub max_watchers: usize,
    /// Kept members that browsers from one client address may add to the
    /// room (0: no limit); see [`Member::addr`].
    pub members_per_addr: usize,
}

impl Default for RoomConfig {
    fn default() -> RoomConfig {
        RoomConfig {
            abandon_after_ms: 60_000,
            claim_after_ms: 15_000,
            host_handover_ms: 60_000,
            // The server's configuration sets it (500 ms by default);
            // the room's tests see exact clocks unless they ask.
            lag_comp_ms: 0,
            autostart_after_ms: 30_000,
            bot_budget_ms: 2_000,
            max_members: 200,
            max_watchers: 20_000,
            members_per_addr: 20,
        }
    }
}

#[derive(Clone, Debug)]
pub struct Member {
    pub id: MemberId,
    /// The browser's token hash; `None` for the computer.
    pub token: Option<TokenHash>,
    pub name: Option<String>,
    pub seat: Option<usize>,
    /// Open connections (a member may have several tabs).
    pub conns: u32,
    pub host: bool,
    pub offline_since: Option<u64>,
    /// The computer's level when the computer sits here.
    pub computer: Option<Level>,
    pub account: Option<AccountRef>,
    /// The member has a stored row. A watcher (no name, no seat, not the
    /// host, not signed in) lives in memory only, and is forgotten when
    /// its last connection closes.
    pub stored: bool,
    /// The host removed this member: their browser (and account) stays
    /// out of the room until the host lets them back in.
    pub removed: bool,
    /// The account's ratings as of its latest `hello` (grown to that
    /// moment), kept up to date by the room's rated games: for the
    /// names shown in the room; the store's are the ones that count.
    pub ratings: Vec<(GameKind, Rating)>,
    /// The client address (IPv6: its /64) the member's first page came
    /// from, for the per-address cap on newcomers. In memory only: `None`
    /// for members restored from the store and the computer.
    pub addr: Option<std::net::IpAddr>,
    /// The client address of the member's latest page (`hello`), whom
    /// its searches count against (`bots::Gates`). In memory only.
    pub seen_from: Option<std::net::IpAddr>,
}

impl Member {
    pub fn online(&self) -> bool {
        self.conns > 0 || self.computer.is_some()
    }

    /// Whether the member is kept in the store: anyone with a name
    /// (their own or their account's), the host, and whoever sits.
    /// Everyone else is a watcher, held in memory while online.
    pub fn kept(&self) -> bool {
        self.name.is_some() || self.host || self.account.is_some() || self.seat.is_some()
    }

    pub fn row(&self) -> MemberRow {
        MemberRow {
            id: self.id,
            token: self.token.clone(),
            name: self.name.clone(),
            seat: self.seat,
            host: self.host,
            computer: self.computer,
            account: self.account.clone(),
            removed: self.removed,
        }
    }
}

/// The auto-start countdown between games.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Countdown {
    /// The next game starts at this time.
    Running { at_ms: u64 },
    /// The host paused it with this much left.
    Paused { left_ms: u64 },
}

#[derive(Clone, Debug)]
pub struct RoomState {
    pub(super) code: String,
    pub(super) config: RoomConfig,
    pub(super) options: GameOptions,
    pub(super) seating: Seating,
    pub(super) host: Option<TokenHash>,
    pub(super) autostart: bool,
    /// Only the host may sit (a guest's game against the computer).
    pub(super) solo: bool,
    /// The host marked the room rated (`rated` command).
    pub(super) rated: bool,
    /// Made for players who found each other: the first game starts
    /// once all of them are online (`seated.rs`).
    pub(super) start_when_seated: bool,
    /// The host listed the room publicly (`public` command): the lobby
    /// shows it (`lobby.rs`).
    pub(super) public: bool,
    pub(super) countdown: Option<Countdown>,
    pub(super) version: u64,
    pub(super) members: Vec<Member>,
    pub(super) next_member: u32,
    pub(super) tables: Vec<Table>,
    /// The room's own table (ordinary play); a tournament plays at tables
    /// of its own.
    pub(super) main_table: TableId,
    /// The knockout tournament under way, or the last one.
    pub(super) tournament: Option<Bracket>,
    pub(super) games_played: u32,
    pub(super) scores: Vec<ScoreRow>,
    pub(super) chat: VecDeque<ChatLine>,
    pub(super) thinks_started: u64,
    /// Members' hint searches and when they last asked (live only).
    pub(super) hints: super::hints::Hints,
    /// Presence changes not yet announced (watchers coming and going are
    /// counted, and announced at most once a second).
    pub(super) presence: Presence,
    /// Players of the main table's last game who asked for a rematch.
    pub(super) rematch: Vec<MemberId>,
    /// Who is in voice chat (not stored: voice is live only).
    pub(super) voice: Vec<super::voice::Voice>,
    /// Signalling budgets per member and per address, kept when a member
    /// leaves voice (live only).
    pub(super) signal_budgets: super::voice::SignalBudgets,
    /// Chat lines per member and per address (`voice::CHAT_BURST`).
    pub(super) chat_budgets: super::voice::SignalBudgets,
    /// Budgets of the commands that change the room for everyone (a
    /// name, a seat, voice, the host's settings), per member and address.
    pub(super) change_budgets: super::voice::SignalBudgets,
    /// Members the host muted in voice, kept when they leave voice, so
    /// leaving and joining again does not lift the host's mute (live
    /// only, like voice; at most one entry per member).
    pub(super) voice_host_muted: Vec<MemberId>,
}

/// Coalesced presence: whether the counts changed since the last
/// `members` or `spectators` event, and when the last `spectators` event
/// went out.
#[derive(Clone, Copy, Debug, Default)]
pub struct Presence {
    pub dirty: bool,
    pub last_ms: Option<u64>,
}

/// At most one `spectators` event a second per room.
pub const PRESENCE_EVERY_MS: u64 = 1_000;

/// The result of a call on the state: what to carry out, or why nothing
/// changed.
pub type Applied = Result<Vec<Effect>, Refusal>;

impl RoomState {
    /// A new room with one table.
    pub fn new(
        code: &str,
        options: GameOptions,
        host: Option<TokenHash>,
        config: RoomConfig,
    ) -> RoomState {
        let main_table = TableId::new();
        RoomState {
            code: code.to_string(),
            config,
            seating: options.seating(),
            options,
            host,
            autostart: true,
            solo: false,
            rated: false,
            start_when_seated: false,
            public: false,
            countdown: None,
            version: 0,
            members: Vec::new(),
            next_member: 1,
            tables: vec![Table::new(main_table)],
            main_table,
            tournament: None,
            games_played: 0,
            scores: Vec::new(),
            chat: VecDeque::new(),
            thinks_started: 0,
            hints: Default::default(),
            presence: Presence::default(),
            rematch: Vec::new(),
            voice: Vec::new(),
            signal_budgets: Default::default(),
            chat_budgets: super::voice::SignalBudgets::chat(),
            change_budgets: super::voice::SignalBudgets::changes(),
            voice_host_muted: Vec::new(),
        }
    }

    pub fn game(&self) -> GameKind {
        self.options.kind()
    }

    pub fn seats(&self) -> usize {
        self.seating.seats()
    }

    /// The room's stored row.
    pub fn row(&self) -> RoomRow {
        RoomRow {
            code: self.code.clone(),
            options: self.options.clone(),
            host: self.host.clone(),
            autostart: self.autostart,
            solo: self.solo,
            rated: self.rated,
            start_when_seated: self.start_when_seated,
            public: self.public,
            games_played: self.games_played,
            next_member: self.next_member,
            table: self.main_table,
        }
    }

    /// Stamps `event` with the next version and queues it for everyone:
    /// the one place versions are assigned.
    pub fn emit(&mut self, effects: &mut Vec<Effect>, event: Event) {
        self.version += 1;
        effects.push(Effect::Broadcast(Stamped {
            v: self.version,
            event,
        }));
    }

    /// Announces the listed members, with the counts: it carries every
    /// presence change so far.
    pub fn emit_members(&mut self, effects: &mut Vec<Effect>) {
        let event = Event::Members {
            members: self.members_view(),
            spectators: self.spectator_count(),
            unlisted: self.unlisted_count(),
        };
        self.presence.dirty = false;
        self.emit(effects, event);
    }

    /// A change only the counts show (a watcher came or went): announced
    /// by the next `spectators` event, at most one a second.
    pub fn presence_changed(&mut self) {
        self.presence.dirty = true;
    }

    /// When the pending `spectators` event is due.
    pub fn presence_due(&self) -> Option<u64> {
        self.presence
            .dirty
            .then(|| self.presence.last_ms.map_or(0, |at| at + PRESENCE_EVERY_MS))
    }

    /// Sends the counts (the `Presence` timer).
    pub fn emit_presence(&mut self, effects: &mut Vec<Effect>, now: u64) {
        self.presence = Presence {
            dirty: false,
            last_ms: Some(now),
        };
        let event = Event::Spectators {
            spectators: self.spectator_count(),
            unlisted: self.unlisted_count(),
        };
        self.emit(effects, event);
    }

    pub fn member(&self, id: MemberId) -> Option<&Member> {
        self.members.iter().find(|m| m.id == id)
    }

    /// Whose a search for `member` is (`bots::Gates`): their address, as
    /// far as the room knows it, and their account.
    pub(super) fn search_client(&self, member: MemberId) -> crate::bots::SearchClient {
        self.member(member)
            .map(|m| crate::bots::SearchClient {
                addr: m.seen_from,
                account: m.account.as_ref().map(|a| a.id),
            })
            .unwrap_or_default()
    }

    pub fn member_mut(&mut self, id: MemberId) -> Result<&mut Member, Refusal> {
        self.members
            .iter_mut()
            .find(|m| m.id == id)
            .ok_or_else(|| Refusal::new(Code::HelloFirst, "Say hello first."))
    }

    pub fn require_host(&self, member: MemberId) -> Result<(), Refusal> {
        match self.member(member) {
            Some(m) if m.host => Ok(()),
            _ => Err(Refusal::new(Code::NotHost, "Only the host can do that.")),
        }
    }

    /// Any game running at any table.
    pub fn busy(&self) -> bool {
        self.tables.iter().any(Table::is_running)
    }

    /// Whether the room may leave memory when nobody is online: no live
    /// game is running (a turn-based game waits in the store, its
    /// deadline kept there) and the computer is not thinking.
    pub fn may_unload(&self) -> bool {
        self.tables
            .iter()
            .all(|t| t.thinking.is_none() && t.running().is_none_or(|m| m.options.days().is_some()))
    }

    /// In a solo room, `solo_room` for what would make it other than one
    /// person against the computer: options `solo_refusal` names, a rated
    /// game (PROTOCOL.md, "Hosts").
    pub(super) fn refuse_if_solo(&self, options: &GameOptions, rated: bool) -> Result<(), Refusal> {
        if !self.solo {
            return Ok(());
        }
        if let Some(message) = solo_refusal(options) {
            return Err(Refusal::new(Code::SoloRoom, message));
        }
        if rated {
            return Err(Refusal::new(
                Code::SoloRoom,
                "A game against the computer cannot be rated.",
            ));
        }
        Ok(())
    }

    pub fn refuse_if_running(&self) -> Result<(), Refusal> {
        if self.busy() {
            return Err(Refusal::new(
                Code::GameRunning,
                "Wait until the game is over.",
            ));
        }
        Ok(())
    }

    pub fn online_ids(&self) -> Vec<MemberId> {
        self.members
            .iter()
            .filter(|m| m.online())
            .map(|m| m.id)
            .collect()
    }

    /// The members a team's rotation may hand the next turn to at `now`:
    /// those online, and those offline for less than the grace time
    /// (`abandon_after_ms`): the member due keeps the turn until the
    /// grace time, counted from when they went offline, passes, and then
    /// the `TurnPass` timer hands it to an online teammate (PROTOCOL.md,
    /// `match` kind `turn`).
    pub fn turn_takers(&self, now: u64) -> Vec<MemberId> {
        let grace = self.config.abandon_after_ms;
        self.members
            .iter()
            .filter(|m| {
                m.online()
                    || m.offline_since
                        .is_some_and(|since| now < since.saturating_add(grace))
            })
            .map(|m| m.id)
            .collect()
    }

    /// The members in a seat (the computer's included): their pages get
    /// each event before the spectators' (`fanout.rs`).
    pub(super) fn seated_members(&self) -> impl Iterator<Item = MemberId> + '_ {
        self.members
            .iter()
            .filter(|m| m.seat.is_some())
            .map(|m| m.id)
    }

    pub fn spectator_count(&self) -> usize {
        self.members
            .iter()
            .filter(|m| m.conns > 0 && m.seat.is_none() && m.computer.is_none() && !m.removed)
            .count()
    }

    /// The index of table `id`, or of the table where `member` plays when
    /// no table is named (else the first).
    pub fn table_index(&self, id: Option<TableId>, member: MemberId) -> Result<usize, Refusal> {
        match id {
            Some(id) => self
                .tables
                .iter()
                .position(|t| t.id == id)
                .ok_or_else(|| Refusal::new(Code::NoTable, format!("There is no table {id}."))),
            None => Ok(self
                .tables
                .iter()
                .position(|t| t.plays(member))
                .unwrap_or(0)),
        }
    }

    /// A new member id (never reused in the room).
    pub fn take_member_id(&mut self) -> MemberId {
        let id = MemberId(self.next_member);
        self.next_member += 1;
        id
    }

    /// Queues a stored write.
    pub fn persist(effects: &mut Vec<Effect>, write: Write) {
        effects.push(Effect::Persist(write));
    }
}

/// Why a solo room cannot have `options`, if it cannot: a knockout
/// tournament or a turn-based game is never one person against the
/// computer (checked at creation, `Registry::check_solo`, and by
/// `options`).
pub(super) fn solo_refusal(options: &GameOptions) -> Option<&'static str> {
    if options.is_knockout() {
        Some("A game against the computer cannot be a knockout tournament.")
    } else if options.days().is_some() {
        Some("A game against the computer cannot be turn-based.")
    } else {
        None
    }
}
