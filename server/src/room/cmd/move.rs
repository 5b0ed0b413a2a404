//! `move`: the member due to play moves.

use serde::Deserialize;

use super::super::ids::{MemberId, TableId};
use super::super::play::Change;
use super::super::state::{Applied, RoomState};
use crate::protocol::{Code, Refusal};

/// `move`: the move's notation, at `table` (default: the one where the
/// member plays).
#[derive(Debug, Deserialize)]
pub struct Move {
    #[serde(rename = "move")]
    pub mv: String,
    #[serde(default)]
    pub table: Option<TableId>,
}

impl RoomState {
    pub(super) fn play(
        &mut self,
        member: MemberId,
        table: Option<TableId>,
        text: String,
        now: u64,
    ) -> Applied {
        let (t, side, m) = self.playing(member, table, Code::NotYourTurn)?;
        if m.game.to_move() == Some(side) {
            if let Some(due) = m.player(side).filter(|p| p.member != member) {
                return Err(Refusal::new(
                    Code::NotYourTurn,
                    format!("It is {}'s turn for your team.", due.name),
                ));
            }
        }
        self.change(t, Change::Move { side, text }, now)
    }
}
