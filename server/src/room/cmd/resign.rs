//! `resign`: a player gives up (for the whole team; with more than two
//! pawns only the resigner's pawn leaves and the game goes on).

use rules::EndReason;

use super::super::ids::{MemberId, TableId};
use super::super::play::Change;
use super::super::state::{Applied, RoomState};
use crate::protocol::{Code, Refusal};

impl RoomState {
    pub(super) fn resign(&mut self, member: MemberId, table: Option<TableId>, now: u64) -> Applied {
        let t = self.table_index(table, member)?;
        let m = self.tables[t]
            .running()
            .ok_or_else(|| Refusal::new(Code::NoGame, "No game is running."))?;
        let side = m
            .side_of(member)
            .filter(|s| !m.gone[s.index()])
            .ok_or_else(|| Refusal::new(Code::NoGame, "You are not playing in this game."))?;
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
