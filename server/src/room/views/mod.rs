//! What clients see of a room (docs/PROTOCOL.md): plain structs that
//! serialise to the wire format, built from the state at a given time.
//!
//! They read back too (tests, the bench). A game's view (`S`, the
//! server's [`AnyGame`]) and its options (`O`, [`GameOptions`]) only the
//! rules can build, so a reader takes them as JSON (`Value`). They are
//! built from the state in `build.rs`.

mod build;

use rules::{Level, Outcome, Side};
use serde::{Deserialize, Serialize};

use crate::games::{AnyGame, GameKind, GameOptions};
use crate::model::bracket::Bracket;
use crate::model::ids::{GameId, MemberId, TableId};
use crate::model::records::{ChatLine, Player};
use crate::ratings::RatingView;

#[derive(Clone, Debug, Serialize, Deserialize)]
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
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RemovedView {
    pub member: MemberId,
    pub name: Option<String>,
}

/// A member in voice chat.
#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct VoiceView {
    pub member: MemberId,
    /// Sends their voice (at most 8 speakers); `false`: only listens.
    pub speaker: bool,
    /// Muted themselves.
    pub muted: bool,
    /// The host muted them for everyone.
    pub host_muted: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct ClockView {
    /// Per side, as of the moment the message was built.
    pub remaining_ms: Vec<u64>,
    pub running: Option<Side>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct MatchView<S = AnyGame> {
    pub id: GameId,
    pub number: u32,
    /// `players[i]`: who plays side `i`'s next turn.
    pub players: Vec<Player>,
    /// `teams[i]`: everyone playing side `i`, in rotation order.
    pub teams: Vec<Vec<Player>>,
    pub to_play: Option<MemberId>,
    pub state: S,
    pub legal: Vec<String>,
    pub moves: Vec<String>,
    pub move_sides: Vec<Side>,
    pub clock: Option<ClockView>,
    /// A turn-based game: its days per move, and the milliseconds left
    /// to make the move due as of this event (absent once over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub days: Option<u8>,
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_left_ms: Option<u64>,
    pub outcome: Option<Outcome>,
    /// The side whose draw offer stands, else `null`.
    pub draw_offer: Option<Side>,
    /// The side whose takeback request stands, else `null`.
    #[serde(default)]
    pub takeback_offer: Option<Side>,
    /// The sides that may not offer a draw again before the next move:
    /// their offer stands, or was declined since the last move.
    #[serde(default)]
    pub draw_asked: Vec<Side>,
    /// The same for takeback requests.
    #[serde(default)]
    pub takeback_asked: Vec<Side>,
}

/// What a `match` event carries: the whole match, or after a move only
/// what the move changed ([`MoveView`]), so a move costs the same to send
/// at ply 5 and at ply 500.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(untagged)]
#[serde(bound(
    serialize = "S: Serialize + ChangeState",
    deserialize = "S: Deserialize<'de>"
))]
pub enum MatchBody<S = AnyGame> {
    Full(MatchView<S>),
    Move(MoveView<S>),
}

/// Legal lists up to this long go to everyone with the move; longer ones
/// (Quoridor's walls) only to the member due to play.
pub const SHARED_LEGAL: usize = 64;

/// Online members without a seat (or host role) named in the members
/// list; more are only counted.
pub const LISTED_SPECTATORS: usize = 20;

/// What a move event's `state` is written as: the game's change view on
/// the server, any JSON as it was read on the client's side.
pub trait ChangeState {
    fn serialize_change<Z: serde::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error>;
}

impl ChangeState for AnyGame {
    fn serialize_change<Z: serde::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        AnyGame::serialize_change(self, s)
    }
}

impl ChangeState for serde_json::Value {
    fn serialize_change<Z: serde::Serializer>(&self, s: Z) -> Result<Z::Ok, Z::Error> {
        serde::Serialize::serialize(self, s)
    }
}

/// A match after a move, as a change to the one the client holds: the
/// client appends the move (and its side) to `moves` (`move_sides`) and
/// takes the rest as it is. `ply` is the number of moves after this one,
/// so a client that holds another count resyncs.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(bound(serialize = "S: ChangeState", deserialize = "S: Deserialize<'de>"))]
pub struct MoveView<S = AnyGame> {
    pub id: GameId,
    pub ply: usize,
    pub players: Vec<Player>,
    pub to_play: Option<MemberId>,
    /// The game's view without what grows with the game
    /// ([`AnyGame::serialize_change`]).
    #[serde(serialize_with = "ChangeState::serialize_change")]
    pub state: S,
    /// Omitted when long: the member due to play gets it in their copy
    /// ([`MoveView::private_legal`]).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub legal: Option<Vec<String>>,
    pub clock: Option<ClockView>,
    /// A turn-based game: milliseconds left to make the move due, as of
    /// this event (absent for a live game or once over).
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub turn_left_ms: Option<u64>,
    pub outcome: Option<Outcome>,
    pub draw_offer: Option<Side>,
    /// The long legal list and who gets it (not serialised).
    #[serde(skip)]
    pub private_legal: Option<(MemberId, Vec<String>)>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct TableView<S = AnyGame> {
    pub id: TableId,
    #[serde(rename = "match")]
    pub current: Option<MatchView<S>>,
    /// Online members who do not play at this table.
    pub spectators: usize,
    /// The sides of the running game whose players are all offline.
    pub away: Vec<AwayView>,
}

/// A side of a running game whose players are all offline: the time, as
/// of sending, until it forfeits by itself (`abandon_ms`) and until its
/// opponents may `claim` the win (`claim_ms`, 0: now).
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AwayView {
    pub side: Side,
    pub abandon_ms: u64,
    pub claim_ms: u64,
}

#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
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

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct AutostartView {
    pub enabled: bool,
    /// Until the next game starts by itself, as of sending.
    pub remaining_ms: Option<u64>,
    pub paused: bool,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct RoomView<S = AnyGame, O = GameOptions> {
    pub code: String,
    pub link: String,
    pub qr: String,
    pub game: GameKind,
    pub options: O,
    pub seats: usize,
    pub team_seats: Option<usize>,
    pub autostart: AutostartView,
    /// The room's games between two signed-in people are rated.
    pub rated: bool,
    /// The host listed the room in the lobby.
    pub public: bool,
    /// A guest's room against the computer (`solo` at creation): its host
    /// role never moves and it takes no knockout, turn-based or rated
    /// options (`solo_room`).
    pub solo: bool,
    pub members: Vec<MemberView>,
    pub spectators: usize,
    /// Online members `members` leaves out (counted in `spectators`).
    pub unlisted: usize,
    pub scores: Vec<ScoreView>,
    pub tables: Vec<TableView<S>>,
    /// The knockout tournament under way or the last one, else `null`.
    pub tournament: Option<Bracket>,
    pub chat: Vec<ChatLine>,
    /// Players of the last game who asked for a rematch.
    pub rematch: Vec<MemberId>,
    /// Members the host removed (names only; for the host's list).
    pub removed: Vec<RemovedView>,
    pub voice: Vec<VoiceView>,
}

#[derive(Clone, Debug, Serialize, Deserialize)]
pub struct YouView {
    pub member: MemberId,
    pub name: Option<String>,
    pub seat: Option<usize>,
    pub host: bool,
    pub account: Option<String>,
}

/// The snapshot as a client reads it, the game's view and options as JSON.
pub type WireSnapshot = Snapshot<serde_json::Value, serde_json::Value>;

/// The whole room for one member, sent after `hello`.
#[derive(Clone, Debug, Serialize, Deserialize)]
#[serde(tag = "type", rename = "snapshot")]
pub struct Snapshot<S = AnyGame, O = GameOptions> {
    pub v: u64,
    /// The room task's run that numbered `v` (versions start again when a
    /// room reloads): a reconnecting client sends both back (`since`).
    pub epoch: String,
    pub you: YouView,
    pub room: RoomView<S, O>,
}
