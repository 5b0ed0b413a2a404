//! `claim`: a player whose opponents have all been offline for the claim
//! time (`--claim-secs`, 15 s) need not wait for the abandon rule: they
//! may take the win (the away sides forfeit by `abandon`, as when the
//! grace time runs out) or, where the rules have draws, call it a draw
//! (drawn, reason `abandon`). Until then they keep waiting; everyone sees
//! the countdowns in the table's `away` list.

use rules::{EndReason, Game, Side};
use serde::Deserialize;

use super::super::play::Change;
use super::super::state::{Applied, RoomState};
use crate::model::ids::{MemberId, TableId};
use crate::protocol::{ClaimAction, Code, Refusal};

/// `claim`: the win, or a draw, at `table` (default: where the member
/// plays).
#[derive(Debug, Deserialize)]
pub struct Claim {
    pub action: ClaimAction,
    #[serde(default)]
    pub table: Option<TableId>,
}

impl RoomState {
    pub(super) fn claim(
        &mut self,
        member: MemberId,
        action: ClaimAction,
        table: Option<TableId>,
        now: u64,
    ) -> Applied {
        let (t, side, m) = self.playing(member, table, Code::NoGame)?;
        // A draw where the rules have none is refused whoever is away
        // (PROTOCOL.md: `no_draws`, before the claim time is looked at).
        if action == ClaimAction::Draw && (m.sides.len() != 2 || !m.game.draw_by_agreement()) {
            return Err(Refusal::new(Code::NoDraws, "This game has no draws."));
        }
        let wait = self.config.claim_after_ms;
        let mut away = Vec::new();
        let mut soonest: Option<u64> = None;
        for s in (0..m.sides.len()).filter(|&s| s != side.index()) {
            if let Some(since) = self.side_gone_since(m, s) {
                let at = since.saturating_add(wait);
                if at <= now {
                    away.push(Side(s as u8));
                } else {
                    soonest = Some(soonest.map_or(at, |x: u64| x.min(at)));
                }
            }
        }
        if away.is_empty() {
            return Err(Refusal::new(
                Code::NoClaim,
                match soonest {
                    Some(at) => format!(
                        "Your opponent has not been away long enough: you may claim in {} s.",
                        (at - now).div_ceil(1_000)
                    ),
                    None if m.options.days().is_some() => {
                        "A turn-based game has no claims: a missed deadline ends it.".to_string()
                    }
                    None => "Your opponent is here.".to_string(),
                },
            ));
        }
        let change = match action {
            ClaimAction::Win => Change::Forfeit {
                sides: away,
                reason: EndReason::Abandon,
            },
            ClaimAction::Draw => Change::Draw {
                reason: EndReason::Abandon,
            },
        };
        self.change(t, change, now)
    }
}
