//! `takeback`: a player asks to take back their last move, as on
//! lichess; the opponent accepts or declines. Accepted, the game goes back
//! to before the asker's last move (their move and, if the opponent has
//! answered it, that answer too) through the log's `Takeback` step, which
//! is stored like a move and so survives a restart. Against the computer
//! the request is granted at once. Only in games of two players (one a
//! side), and never in rated or tournament games unless the opponent is
//! the computer. A side asks at most once between two moves; a request
//! stands until it is answered or a move is played.

use serde::Deserialize;

use rules::Side;

use super::super::event::{DrawKind, Event};
use super::super::play::Change;
use super::super::state::{Applied, RoomState};
use super::super::table::Match;
use crate::game_log::{LogError, NoTakeback};
use crate::model::ids::{MemberId, TableId};
use crate::protocol::{Code, DrawAction, Refusal};

/// `takeback`: a request at `table` (default: where the member plays), or
/// the answer to the opponent's.
#[derive(Debug, Deserialize)]
pub struct Takeback {
    pub action: DrawAction,
    #[serde(default)]
    pub table: Option<TableId>,
}

fn refusal(message: &str) -> Refusal {
    Refusal::new(Code::NoTakeback, message)
}

/// How many plies a takeback for `side` removes: back to before its last
/// move.
fn plies_for(m: &Match, side: Side) -> Result<usize, Refusal> {
    m.move_sides
        .iter()
        .rev()
        .position(|&s| s == side)
        .map(|back| back + 1)
        .ok_or_else(|| refusal("You have no move to take back."))
}

impl RoomState {
    /// Whether the room's games take takebacks from a person: not rated,
    /// not a tournament's.
    pub fn takebacks(&self) -> bool {
        !self.rated && !self.options.is_knockout()
    }

    pub(super) fn takeback(
        &mut self,
        member: MemberId,
        action: DrawAction,
        table: Option<TableId>,
        now: u64,
    ) -> Applied {
        let (t, side, m) = self.playing(member, table, Code::NoGame)?;
        if m.sides.len() != 2 || m.sides.iter().any(|team| team.len() != 1) {
            return Err(refusal("Takebacks are for games of two players."));
        }
        let other = Side(1 - side.0);
        let computer = m.sides[other.index()].iter().any(|p| p.computer.is_some());
        if !computer && !self.takebacks() {
            return Err(refusal(
                "There are no takebacks in rated or tournament games.",
            ));
        }
        // Moves played, those taken back included: asked once between
        // two moves, even across a takeback.
        let ply = m.moves_played();
        let theirs = m.takeback.standing == Some(other);
        let kind = match (action, theirs) {
            (DrawAction::Offer, _) if computer => {
                let plies = plies_for(m, side)?;
                return self.change(t, Change::Takeback { plies }, now);
            }
            // Asking while the opponent's request stands grants theirs.
            (DrawAction::Offer | DrawAction::Accept, true) => {
                let plies = plies_for(m, other)?;
                return self.change(t, Change::Takeback { plies }, now);
            }
            (DrawAction::Decline, true) => DrawKind::Decline,
            (DrawAction::Accept | DrawAction::Decline, false) => {
                return Err(Refusal::new(
                    Code::NoOffer,
                    "Your opponent has not asked for a takeback.",
                ));
            }
            (DrawAction::Offer, false) => {
                plies_for(m, side)?;
                if m.takebacks_spent() {
                    // Refused when asked, not when answered.
                    return Err(LogError::NoTakeback(NoTakeback::TooMany).into());
                }
                if m.takeback.asked(side, ply) {
                    return Err(refusal(
                        "You already asked: wait for the next move to ask again.",
                    ));
                }
                DrawKind::Offer
            }
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
            |m| &mut m.takeback,
            |table, o| Event::Takeback {
                table,
                kind: o.kind,
                side: o.side,
                member: o.member,
            },
        ))
    }
}
