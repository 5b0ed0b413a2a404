//! What a room asks the store to change. The room's state produces these
//! (`Effect::Persist`) and the store applies them (`sql.rs`, batched by
//! `batch.rs`): the enum lives with the code that gives it meaning.

use crate::model::bracket::Bracket;
use crate::model::records::{
    ChatLine, EntryRow, FinishedGame, LiveGame, MemberRow, RoomRow, ScoreRow,
};
use crate::model::MemberId;

/// A change to the stored room. All the writes of one command are stored
/// in one transaction before anything else happens.
#[derive(Clone, Debug)]
pub enum Write {
    Room(RoomRow),
    Member(MemberRow),
    RemoveMember(MemberId),
    Score(ScoreRow),
    Chat(ChatLine),
    GameStarted(LiveGame),
    Entry(EntryRow),
    GameEnded(FinishedGame),
    /// The room's tournament (`None`: none any more).
    Tournament(Option<Bracket>),
}
