//! `draw`: a player offers a draw, or answers the opponent's offer. Only
//! two-sided games whose rules have draws take offers (Jungle; RULES.md,
//! "Draw by agreement"), and never to the computer. An offer stands
//! until the opponent accepts, declines or plays a move; a side offers at
//! most once between two moves.

use serde::Deserialize;

use rules::{Game, Side};

use super::super::event::{DrawKind, Event};
use super::super::play::Change;
use super::super::state::{Applied, RoomState};
use crate::model::ids::{MemberId, TableId};
use crate::protocol::{Code, DrawAction, Refusal};

/// `draw`: an offer at `table` (default: where the member plays), or the
/// answer to the opponent's.
#[derive(Debug, Deserialize)]
pub struct Draw {
    pub action: DrawAction,
    #[serde(default)]
    pub table: Option<TableId>,
}

impl RoomState {
    pub(super) fn draw(
        &mut self,
        member: MemberId,
        action: DrawAction,
        table: Option<TableId>,
        now: u64,
    ) -> Applied {
        let (t, side, m) = self.playing(member, table, Code::NoGame)?;
        if m.sides.len() != 2 || !m.game.draw_by_agreement() {
            return Err(Refusal::new(
                Code::NoDraws,
                "This game has no draw by agreement.",
            ));
        }
        let other = Side(1 - side.0);
        if m.sides[other.index()].iter().any(|p| p.computer.is_some()) {
            return Err(Refusal::new(
                Code::NoDraws,
                "The computer plays every game to its end.",
            ));
        }
        // Moves played, those taken back included: asked once between
        // two moves, even across a takeback.
        let ply = m.moves_played();
        let kind = match (action, m.draw.standing == Some(other)) {
            // Offering while the opponent's offer stands is agreeing.
            (DrawAction::Offer | DrawAction::Accept, true) => {
                return self.change(
                    t,
                    Change::Draw {
                        reason: rules::EndReason::Agreement,
                    },
                    now,
                );
            }
            (DrawAction::Accept | DrawAction::Decline, false) => {
                return Err(Refusal::new(
                    Code::NoOffer,
                    "Your opponent has not offered a draw.",
                ));
            }
            (DrawAction::Offer, false) if m.draw.asked(side, ply) => {
                return Err(Refusal::new(
                    Code::DrawOffered,
                    "You already offered a draw: wait for the next move to offer again.",
                ));
            }
            (DrawAction::Offer, false) => DrawKind::Offer,
            (DrawAction::Decline, true) => DrawKind::Decline,
        };
        let offer = super::Offer {
            kind,
            side,
            member,
            ply,
        };
        Ok(self.offered(
            t,
            offer,
            |m| &mut m.draw,
            |table, o| Event::Draw {
                table,
                kind: o.kind,
                side: o.side,
                member: o.member,
            },
        ))
    }
}
