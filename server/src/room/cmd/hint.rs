//! `hint`: a player of a game against the computer alone (every other
//! seat of the game is the computer) asks, on their turn, for the
//! engine's move: a Master search of at most a second (the room's
//! `bot_budget_ms` if less), on the same search slots as the computer's
//! moves (`think.rs`). The command is acknowledged at once; the move
//! comes later, to that member's pages only, as `Direct::Hint` naming the
//! ply it is for. At most one search per member at once, and at most one
//! hint every [`HINT_EVERY_MS`]. The searches of a game stop when it
//! ends (`play.rs` calls [`RoomState::end_hints`]); live only, never
//! stored.

use rules::Game;

use super::super::event::{Direct, Effect};
use super::super::hints::{Asked, Search};
use super::super::state::{Applied, RoomState};
use crate::games::AnyMove;
use crate::model::ids::MemberId;
#[cfg(test)]
use crate::model::ids::{GameId, TableId};
use crate::protocol::{Code, Refusal};

/// At most one hint per member in this many milliseconds.
pub const HINT_EVERY_MS: u64 = 2_000;

/// The longest hint search, whatever the computer's own budget.
pub const HINT_BUDGET_MS: u64 = 1_000;

fn no_hint(message: &str) -> Refusal {
    Refusal::new(Code::NoHint, message)
}

impl RoomState {
    pub(super) fn hint(&mut self, member: MemberId, now: u64) -> Applied {
        let t = self.table_index(None, member)?;
        let table = self.tables[t].id;
        let m = self.tables[t]
            .running()
            .ok_or_else(|| no_hint("No game is running."))?;
        let side = m
            .side_of(member)
            .filter(|s| !m.gone[s.index()])
            .ok_or_else(|| no_hint("You are not playing in this game."))?;
        let person = m
            .sides
            .iter()
            .flatten()
            .any(|p| p.member != member && p.computer.is_none());
        if person {
            return Err(no_hint("Hints are for games against the computer only."));
        }
        if m.game.to_move() != Some(side) || m.due().map(|p| p.member) != Some(member) {
            return Err(Refusal::new(Code::NotYourTurn, "It is not your turn."));
        }
        let asked = self.hints.0.iter().find(|a| a.member == member);
        if asked.is_some_and(|a| a.search.is_some()) {
            return Err(Refusal::new(
                Code::HintBusy,
                "Your last hint is still being worked out.",
            ));
        }
        if asked.is_some_and(|a| now < a.at_ms.saturating_add(HINT_EVERY_MS)) {
            return Err(Refusal::new(
                Code::RateLimited,
                "One hint every two seconds; wait a moment.",
            ));
        }
        self.thinks_started += 1;
        let id = self.thinks_started;
        let search = Search {
            id,
            table,
            game: m.id,
            ply: m.moves.len(),
            entries: m.entries,
        };
        let game = Box::new(m.game.clone());
        // Forget who asked long enough ago, and this member's last ask:
        // one entry per recent asker.
        self.hints.0.retain(|a| {
            a.member != member
                && (a.search.is_some() || now < a.at_ms.saturating_add(HINT_EVERY_MS))
        });
        self.hints.0.push(Asked {
            member,
            at_ms: now,
            search: Some(search),
        });
        Ok(vec![Effect::Hint {
            member,
            hint: id,
            game,
            budget_ms: self.config.bot_budget_ms.min(HINT_BUDGET_MS),
            client: self.search_client(member),
        }])
    }

    /// `member`'s hint search `hint` answered `result`: their pages get
    /// the move for the ply it was asked at (a stale ply tells the page it
    /// is old). Nothing is sent if the game ended meanwhile (its searches
    /// were stopped), or if the position was taken back and played again
    /// to the same ply (the ply would name another position).
    pub fn hint_found(
        &mut self,
        member: MemberId,
        hint: u64,
        result: Option<AnyMove>,
    ) -> Vec<Effect> {
        let Some(asked) = self
            .hints
            .0
            .iter_mut()
            .find(|a| a.member == member && a.search.as_ref().is_some_and(|s| s.id == hint))
        else {
            return Vec::new();
        };
        let Some(search) = asked.search.take() else {
            return Vec::new();
        };
        let Some(m) = self
            .tables
            .iter()
            .find(|t| t.id == search.table)
            .and_then(|t| t.running())
            .filter(|m| m.id == search.game)
        else {
            return Vec::new();
        };
        let same = m.entries == search.entries;
        if !same && m.moves.len() == search.ply {
            return Vec::new();
        }
        // No move from the search (it failed): the first legal one, if
        // the position is still the one asked about.
        let first = || {
            same.then(|| m.game.legal_moves().first().copied())
                .flatten()
        };
        let Some(mv) = result.or_else(first) else {
            return Vec::new();
        };
        vec![Effect::Direct {
            member,
            message: Direct::Hint {
                ply: search.ply,
                mv: mv.to_string(),
            },
        }]
    }

    /// The hint searches in flight: who for, and the table and game.
    #[cfg(test)]
    pub(in crate::room) fn hints_in_flight(&self) -> Vec<(MemberId, TableId, GameId)> {
        let of = |a: &Asked| a.search.as_ref().map(|s| (a.member, s.table, s.game));
        self.hints.0.iter().filter_map(of).collect()
    }

    /// Table `t`'s game ended: its hint searches stop, unanswered.
    pub(in crate::room) fn end_hints(&mut self, t: usize, effects: &mut Vec<Effect>) {
        let table = self.tables[t].id;
        for asked in &mut self.hints.0 {
            if asked.search.as_ref().is_some_and(|s| s.table == table) {
                asked.search = None;
                effects.push(Effect::StopHint {
                    member: asked.member,
                });
            }
        }
    }
}
