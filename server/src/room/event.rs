//! What the room's state asks its task to do ([`Effect`]), and the events
//! every member receives ([`Event`], one serde enum, numbered in one place:
//! `RoomState::emit`).

use rules::{Level, Side};
use serde::{Deserialize, Serialize};

use super::views::{
    AutostartView, AwayView, ChangeState, MatchBody, MemberView, RemovedView, ScoreView, VoiceView,
};
use crate::bots::SearchClient;
use crate::games::{AnyGame, GameKind, GameOptions};
use crate::model::ids::{MemberId, TableId};
use crate::model::records::ChatLine;
use crate::store::Write;

use crate::model::bracket::Bracket;

/// A room event, as every member's socket receives it (`S` and `O`: the
/// game's view and options, JSON for a reader, as in `views.rs`).
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
#[serde(bound(
    serialize = "S: Serialize + ChangeState, O: Serialize",
    deserialize = "S: Deserialize<'de>, O: Deserialize<'de>"
))]
pub enum Event<S = AnyGame, O = GameOptions> {
    Members {
        members: Vec<MemberView>,
        spectators: usize,
        unlisted: usize,
    },
    /// The counts changed and the list did not (watchers came or went);
    /// at most one a second.
    Spectators {
        spectators: usize,
        unlisted: usize,
    },
    Match {
        table: TableId,
        kind: MatchKind,
        /// The move just played (`move` and `timeout` kinds).
        #[serde(rename = "move", skip_serializing_if = "Option::is_none")]
        played: Option<String>,
        #[serde(skip_serializing_if = "Option::is_none")]
        side: Option<Side>,
        /// The whole match, or for a `move` only what the move changed.
        #[serde(rename = "match")]
        view: Box<MatchBody<S>>,
    },
    Options {
        game: GameKind,
        options: O,
        seats: usize,
        team_seats: Option<usize>,
    },
    Scores {
        scores: Vec<ScoreView>,
    },
    Chat {
        message: ChatLine,
    },
    Autostart {
        autostart: AutostartView,
    },
    /// The host marked the room rated, or not.
    Rated {
        rated: bool,
    },
    /// The host listed the room publicly, or took it off the list.
    Public {
        public: bool,
    },
    /// The knockout bracket changed (`null`: no tournament any more).
    Tournament {
        tournament: Option<Bracket>,
    },
    /// A match drawn twice was settled by the server's coin.
    CoinToss {
        table: TableId,
        players: [MemberId; 2],
        winner: MemberId,
    },
    /// A draw offered at a table, or declined (an accepted one ends the
    /// game: a `match` event; one that expires shows in the match's
    /// `draw_offer`).
    Draw {
        table: TableId,
        kind: DrawKind,
        side: Side,
        member: MemberId,
    },
    /// A takeback asked for at a table, or declined (an accepted one is
    /// a `match` event of kind `takeback`).
    Takeback {
        table: TableId,
        kind: DrawKind,
        side: Side,
        member: MemberId,
    },
    /// The players of the last game who asked for a rematch.
    Rematch {
        rematch: Vec<MemberId>,
    },
    /// Something the host did to a member, for the room's log.
    Notice {
        kind: NoticeKind,
        member: MemberId,
        name: Option<String>,
    },
    /// The sides of a running game at `table` whose players are all
    /// offline changed (one left, or came back): the whole list.
    Away {
        table: TableId,
        away: Vec<AwayView>,
    },
    /// The members the host removed (and has not let back in).
    Removed {
        removed: Vec<RemovedView>,
    },
    /// One member's voice state changed: what it now is, or `None` (null)
    /// when they left voice. The snapshot carries the whole list.
    Voice {
        member: MemberId,
        voice: Option<VoiceView>,
    },
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawKind {
    Offer,
    Decline,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum NoticeKind {
    /// The host took the member out of their seat.
    Unseated,
    /// The host removed the member from the room.
    Removed,
    /// The host let a removed member back in.
    LetIn,
    /// The member is the room's host now: the host gave the role, or
    /// was offline for the hand-over time.
    Host,
}

/// A message for one member only, not a room event (no `v`): voice
/// signalling from `from`, or the answer to their `hint`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Direct {
    Signal {
        from: MemberId,
        #[serde(flatten)]
        signal: crate::protocol::Signal,
    },
    /// The engine's move (`hint` command) for the position after `ply`
    /// moves, in the game's notation.
    Hint {
        ply: usize,
        #[serde(rename = "move")]
        mv: String,
    },
}

/// An event with its version: `{"type":…,"v":…,…}` on the wire.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound(
    serialize = "S: Serialize + ChangeState, O: Serialize",
    deserialize = "S: Deserialize<'de>, O: Deserialize<'de>"
))]
pub struct Stamped<S = AnyGame, O = GameOptions> {
    pub v: u64,
    #[serde(flatten)]
    pub event: Event<S, O>,
}

/// An event as a client reads it (the tests, the bench): the game's view
/// and options as JSON.
pub type WireEvent = Stamped<serde_json::Value, serde_json::Value>;

/// Why a `match` event was sent.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum MatchKind {
    Start,
    Move,
    Timeout,
    Forfeit,
    Turn,
    End,
    /// Moves were taken back: the whole match as it now is.
    Takeback,
}

/// What the task carries out after a call on the state, in this order:
/// every `Persist` (one transaction), then the answer and every
/// `Broadcast`, then the searches.
#[derive(Clone, Debug)]
pub enum Effect {
    Persist(Write),
    Broadcast(Stamped),
    /// Start the computer's search for `table` (replacing any other).
    Think {
        table: TableId,
        think: u64,
        game: Box<AnyGame>,
        level: Level,
        budget_ms: u64,
        /// Every side of the game is a computer (`bots::Slots`: such
        /// games search in at most half the slots).
        among_computers: bool,
        /// Whose search it is (`bots::Gates`).
        client: SearchClient,
    },
    /// Cancel the computer's search for `table`, if one runs.
    StopThinking {
        table: TableId,
    },
    /// Start hint search `hint` for `member` (at most one per member);
    /// its move arrives as `Msg::Hint`.
    Hint {
        member: MemberId,
        hint: u64,
        game: Box<AnyGame>,
        budget_ms: u64,
        /// The asker (`bots::Gates`).
        client: SearchClient,
    },
    /// Cancel `member`'s hint search, if one runs.
    StopHint {
        member: MemberId,
    },
    /// Send `message` to `member`'s connections only (unversioned).
    Direct {
        member: MemberId,
        message: Direct,
    },
    /// Tell `member`'s connections why (an `error` with `code`) and close
    /// them: the host removed the member.
    Close {
        member: MemberId,
        refusal: crate::protocol::Refusal,
    },
}
