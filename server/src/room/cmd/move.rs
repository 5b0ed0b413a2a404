//! `move`: the member due to play moves.

use rules::Game;
use serde::Deserialize;

use super::super::play::Change;
use super::super::state::{Applied, RoomState};
use crate::games::MoveError;
use crate::model::ids::{MemberId, TableId};
use crate::protocol::{Code, Refusal};

/// `move`: the move's notation, at `table` (default: the one where the
/// member plays).
#[derive(Debug, Deserialize)]
pub struct Move {
    #[serde(rename = "move")]
    pub mv: String,
    #[serde(default)]
    pub table: Option<TableId>,
    /// The one-way network lag the connection measured (ws/lag.rs), not
    /// read from the client: the clock does not charge it, up to
    /// `--lag-comp-ms`.
    #[serde(skip)]
    pub lag_ms: u64,
}

impl RoomState {
    pub(super) fn play(
        &mut self,
        member: MemberId,
        table: Option<TableId>,
        text: String,
        lag_ms: u64,
        now: u64,
    ) -> Applied {
        let (t, side, m) = self.playing(member, table, Code::NotYourTurn)?;
        // The edge: the move's text is read once, in this position, and
        // before the turn is checked (PROTOCOL.md: unreadable notation is
        // `illegal_move` even off one's turn, a teammate's turn too).
        let mv = m.game.parse_move(&text).map_err(MoveError::from)?;
        // A teammate is due: the side's turn, not this member's. Whether
        // it is the side's turn at all the game's log checks.
        if let Some(due) = m
            .due()
            .filter(|due| due.member != member && m.side_of(due.member) == Some(side))
        {
            return Err(Refusal::new(
                Code::NotYourTurn,
                format!("It is {}'s turn for your team.", due.name),
            ));
        }
        self.change(t, Change::Move { side, mv, lag_ms }, now)
    }
}
