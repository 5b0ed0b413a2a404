//! The room's hints in flight and lately asked (the `hint` command,
//! `cmd/hint.rs`): data only, kept in [`super::state::RoomState`].

use crate::model::ids::{GameId, MemberId, TableId};

/// The room's hints: per member who asked lately, when, and the search
/// still running for them.
#[derive(Clone, Debug, Default)]
pub(super) struct Hints(pub(super) Vec<Asked>);

#[derive(Clone, Debug)]
pub(super) struct Asked {
    pub(super) member: MemberId,
    pub(super) at_ms: u64,
    pub(super) search: Option<Search>,
}

/// A hint search in flight: the position it is for.
#[derive(Clone, Debug)]
pub(super) struct Search {
    pub(super) id: u64,
    pub(super) table: TableId,
    pub(super) game: GameId,
    pub(super) ply: usize,
    /// The match's log entries when asked: a position taken back and
    /// played again to the same ply has more.
    pub(super) entries: u32,
}
