//! What the store keeps, as typed records. The room's state produces
//! these (through the store's `Write`s) and is rebuilt from them
//! ([`SavedRoom`]); the room's events and views carry some of them
//! (chat lines, players) as they are.

use rules::{Level, Outcome};
use serde::{Deserialize, Serialize};

use super::bracket::Bracket;
use super::ids::{GameId, MemberId, TableId, TokenHash};
use crate::games::{GameKind, GameOptions};
use crate::protocol::Order;

/// A room's own row.
#[derive(Clone, Debug)]
pub struct RoomRow {
    pub code: String,
    pub options: GameOptions,
    /// The creator's token hash: whoever says hello with it is host.
    pub host: Option<TokenHash>,
    pub autostart: bool,
    /// A solo game against the computer: only the host sits. Set at
    /// creation, never changed.
    pub solo: bool,
    /// The host marked the room rated: its games between two signed-in
    /// people change their ratings (`ratings.rs`).
    pub rated: bool,
    /// A room made for players who found each other (`Registry::create_seated`):
    /// its first game starts once all of them are online.
    pub start_when_seated: bool,
    /// The host listed the room publicly: the lobby shows it
    /// (`lobby_rooms`, written as [`LobbyEntry`]).
    pub public: bool,
    /// Games started so far: the next is number `games_played + 1`.
    pub games_played: u32,
    /// The next member id to give out (ids are never reused).
    pub next_member: u32,
    /// The room's table.
    pub table: TableId,
}

impl RoomRow {
    pub fn game(&self) -> GameKind {
        self.options.kind()
    }
}

/// A member as stored: everything but their connections.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MemberRow {
    pub id: MemberId,
    pub token: Option<TokenHash>,
    pub name: Option<String>,
    pub seat: Option<usize>,
    pub host: bool,
    pub computer: Option<Level>,
    pub account: Option<AccountRef>,
    /// Removed by the host, and not let back in yet.
    pub removed: bool,
}

/// A table's current or last game: how it started. Its moves are
/// [`EntryRow`]s.
#[derive(Clone, Debug)]
pub struct LiveGame {
    pub id: GameId,
    pub table: TableId,
    pub number: u32,
    pub options: GameOptions,
    pub sides: Vec<Vec<Player>>,
    pub order: Order,
    pub started_at: u64,
    /// A turn-based game's deadline for the move due (Unix ms), as last
    /// stored; `None` for a live game.
    pub deadline: Option<u64>,
}

/// Whom a turn-based game waits for and until when (`live_games`'
/// `deadline`, `due_account`, `due_token`), written with each change.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct TurnRow {
    pub game: GameId,
    /// `None` once the game is over.
    pub deadline: Option<u64>,
    /// When the turn due began (the last change of the position).
    pub since: u64,
    /// The account of the player due, if signed in.
    pub account: Option<i64>,
    /// The browser token of the player due (a person, not the computer).
    pub token: Option<TokenHash>,
}

/// One entry of a live game's log, with the clocks and the team rotation
/// as they stood right after it.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct EntryRow {
    pub game: GameId,
    pub seq: u32,
    pub entry: Entry,
    /// Time left per side, as of this entry.
    pub clock: Vec<u64>,
    pub turn: Vec<usize>,
}

/// A finished game, for history.
#[derive(Clone, Debug)]
pub struct FinishedGame {
    pub id: GameId,
    pub room: String,
    pub number: u32,
    pub game: GameKind,
    pub options: GameOptions,
    /// Names per side, a team's joined by " + ".
    pub players: Vec<String>,
    /// Who played each side: a team's members in order.
    pub sides: Vec<Vec<SidePlayer>>,
    pub moves: Vec<String>,
    /// Who left the game before it ended, and when.
    pub leaves: Vec<Leave>,
    /// Moves taken back during the game, and after how many of `moves`.
    pub takebacks: Vec<crate::game_log::TakenBack>,
    pub outcome: Outcome,
    pub started_at: u64,
    pub ended_at: u64,
    /// A rated game: storing it changes both players' ratings, in the
    /// same transaction (`store/ratings.rs`).
    pub rated: bool,
}

/// A leave is part of a game's log (`game_log`), stored with the
/// finished game.
pub use crate::game_log::Leave;

/// One player of a finished game's side: the room member, and their
/// account when the game ended (`None` for guests and the computer).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct SidePlayer {
    pub member: MemberId,
    pub account: Option<i64>,
}

/// A finished game as read back (options and outcome as JSON).
#[derive(Debug, Clone)]
pub struct GameRecord {
    pub id: Option<String>,
    pub room_code: String,
    pub number: u32,
    pub game: String,
    pub options: serde_json::Value,
    pub players: Vec<String>,
    pub moves: Vec<String>,
    /// Empty for games stored before the leaves were kept.
    pub leaves: Vec<Leave>,
    /// Empty for games stored before the takebacks were kept.
    pub takebacks: Vec<crate::game_log::TakenBack>,
    pub outcome: serde_json::Value,
    pub started_at: i64,
    pub ended_at: i64,
}

/// Everything stored about a room, to bring it back as it was.
#[derive(Clone, Debug)]
pub struct SavedRoom {
    pub room: RoomRow,
    pub members: Vec<MemberRow>,
    pub scores: Vec<ScoreRow>,
    /// Oldest first.
    pub chat: Vec<ChatLine>,
    /// The room's knockout tournament, under way or the last one.
    pub tournament: Option<Bracket>,
    /// Each table's current or last game with its log, in order.
    pub live: Vec<(LiveGame, Vec<EntryRow>)>,
}

/// Someone playing in a game (a person or the computer).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Player {
    pub member: MemberId,
    pub name: String,
    /// The computer's level when the computer plays, `None` for people.
    pub computer: Option<Level>,
}

/// Names for the stored record and lists: one per side, a team's
/// joined by " + ".
pub fn side_names(sides: &[Vec<Player>]) -> Vec<String> {
    sides
        .iter()
        .map(|team| {
            team.iter()
                .map(|p| p.name.as_str())
                .collect::<Vec<_>>()
                .join(" + ")
        })
        .collect()
}

/// A signed-in member's account, as of their latest `hello`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AccountRef {
    pub id: i64,
    pub username: String,
    pub display_name: String,
}

/// Chat lines kept for people who join later (and stored).
pub const CHAT_HISTORY: usize = 50;

/// One chat line, as sent and stored.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct ChatLine {
    /// The sender's name when they wrote it.
    pub from: String,
    pub member: MemberId,
    pub text: String,
    /// Unix milliseconds.
    pub at: u64,
}

/// One entry of a game's stored log: a step of the game's log with its
/// move as text. Replaying the log on a fresh game rebuilds the position
/// exactly (the rules are deterministic).
pub type Entry = crate::game_log::Step<String>;

/// Whose row it is.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Person {
    Account(i64),
    Member(MemberId),
}

impl Person {
    /// `a:12` or `m:3`, as stored.
    pub fn key(&self) -> String {
        match self {
            Person::Account(id) => format!("a:{id}"),
            Person::Member(m) => format!("m:{}", m.0),
        }
    }

    pub fn from_key(key: &str) -> Option<Person> {
        let (kind, n) = key.split_once(':')?;
        match kind {
            "a" => n.parse().ok().map(Person::Account),
            "m" => n.parse().ok().map(|n| Person::Member(MemberId(n))),
            _ => None,
        }
    }
}

#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ScoreRow {
    pub person: Person,
    /// The name as of the person's last game (shown when they are gone).
    pub name: String,
    /// The username, for an account's row.
    pub account: Option<String>,
    pub points: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

/// A public room's summary for the lobby (`lobby_rooms`), as the room's
/// task last stored it: any node lists public rooms from these.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct LobbyEntry {
    pub game: crate::games::GameKind,
    /// The room's options as JSON (as in the room's snapshot).
    pub options: serde_json::Value,
    pub seats: usize,
    /// Seats nobody sits in.
    pub free: usize,
    /// A game is under way.
    pub running: bool,
    /// Who sits, in seat order.
    pub players: Vec<LobbyPlayer>,
}

/// One seated player in a [`LobbyEntry`].
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct LobbyPlayer {
    pub seat: usize,
    /// The member's name (or account's display name); `null` for the
    /// computer.
    pub name: Option<String>,
    /// The account's rating at the room's game (`null`: a guest, or
    /// the computer).
    pub rating: Option<i64>,
    /// The computer's level, when the computer sits here.
    pub computer: Option<rules::Level>,
}
