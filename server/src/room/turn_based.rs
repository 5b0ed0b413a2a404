//! Turn-based games (`days` per move, `games/options.rs`): the deadline
//! of the move due, kept on the match (`Match::deadline`), stored with
//! each change (`Write::Turn`, with the player it waits for, so the
//! store can list "your turn" and find a passed deadline with the room
//! unloaded), and its timer: when it passes, the side to move loses on
//! time, through the same forfeit path as a resignation (a Quoridor
//! pawn of three or more leaves and the others play on).

use rules::{EndReason, Game};

use super::event::Effect;
use super::play::Change;
use super::state::RoomState;
use super::Match;
use crate::game_log::Step;
use crate::model::records::TurnRow;
use crate::store::Write;

impl Match {
    /// After `step` at `now`: in a turn-based game each change of the
    /// position (a move, a pawn leaving, a takeback) gives the player now
    /// due a fresh allowance; none once over.
    pub(super) fn renew_deadline(&mut self, step: &Step, now: u64) {
        if let Some(ms) = self.options.turn_ms() {
            self.deadline = match (step, self.game.is_over()) {
                (_, true) => None,
                (Step::Turn, false) => self.deadline,
                (_, false) => Some(now + ms),
            };
        }
    }
}

impl RoomState {
    /// The stored deadline of table `t`'s turn-based game and the player
    /// it waits for (`None` for a game played live).
    pub fn turn_write(&self, t: usize) -> Option<Write> {
        let m = self.tables.get(t)?.current.as_ref()?;
        m.options.days()?;
        let running = m.is_running();
        let due = running
            .then(|| m.due())
            .flatten()
            .filter(|p| p.computer.is_none())
            .and_then(|p| self.member(p.member));
        Some(Write::Turn(TurnRow {
            game: m.id,
            deadline: m.deadline.filter(|_| running),
            since: m
                .deadline
                .zip(m.options.turn_ms())
                .map_or(0, |(at, ms)| at.saturating_sub(ms)),
            account: due.and_then(|x| x.account.as_ref().map(|a| a.id)),
            token: due.and_then(|x| x.token.clone()),
        }))
    }

    /// The deadline of table `t`'s turn-based game passed at `now`: the
    /// side to move loses on time.
    pub(super) fn turn_ran_out(&mut self, t: usize, now: u64) -> Vec<Effect> {
        let Some(side) = self
            .tables
            .get(t)
            .and_then(|table| table.running())
            .and_then(|m| m.game.to_move())
        else {
            return Vec::new();
        };
        self.change(
            t,
            Change::Forfeit {
                sides: vec![side],
                reason: EndReason::Timeout,
            },
            now,
        )
        .unwrap_or_default()
    }
}
