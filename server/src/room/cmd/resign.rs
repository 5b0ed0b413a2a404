//! `resign`: a player gives up (for the whole team; with more than two
//! pawns only the resigner's pawn leaves and the game goes on).

use serde::Deserialize;

use rules::EndReason;

use super::super::play::Change;
use super::super::state::{Applied, RoomState};
use crate::model::ids::{MemberId, TableId};
use crate::protocol::Code;

/// `resign` at `table` (default: where the member plays).
#[derive(Debug, Deserialize)]
pub struct Resign {
    #[serde(default)]
    pub table: Option<TableId>,
}

impl RoomState {
    pub(super) fn resign(&mut self, member: MemberId, table: Option<TableId>, now: u64) -> Applied {
        let (t, side, _) = self.playing(member, table, Code::NoGame)?;
        self.change(
            t,
            Change::Forfeit {
                sides: vec![side],
                reason: EndReason::Resign,
            },
            now,
        )
    }
}
