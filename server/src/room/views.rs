//! The JSON views of a room that go on the wire (docs/PROTOCOL.md).

use serde::Serialize;
use serde_json::{json, Value};

use rules::Side;

use crate::games::{Seating, TEAM_SEATS};

use super::actor::{member_tag, Countdown, Player, Room};

/// One line of the room's cumulative scoreboard.
#[derive(Debug, Clone, Serialize)]
pub struct ScoreRow {
    pub name: String,
    pub points: u32,
    pub wins: u32,
    pub draws: u32,
    pub losses: u32,
}

impl ScoreRow {
    pub fn new(name: &str) -> ScoreRow {
        ScoreRow {
            name: name.to_string(),
            points: 0,
            wins: 0,
            draws: 0,
            losses: 0,
        }
    }
}

impl Room {
    /// Members worth showing: everyone online, and seated players even
    /// while offline (their seat waits for them).
    pub(super) fn members_view(&self) -> Value {
        self.members
            .iter()
            .filter(|m| m.conns > 0 || m.seat.is_some())
            .map(|m| {
                json!({
                    "id": member_tag(m.id),
                    "name": m.name,
                    "seat": m.seat,
                    "online": m.online(),
                    "host": m.host,
                    "computer": m.computer,
                    "account": m.account,
                })
            })
            .collect()
    }

    pub(super) fn match_view(&self) -> Option<Value> {
        let game = self.current.as_ref()?;
        let now = self.now_ms();
        let clock = (game.clock.control() != rules::TimeControl::Unlimited).then(|| {
            json!({
                "remaining_ms": game.clock.all_remaining(now),
                "running": game.clock.running(),
            })
        });
        let player = |p: &Player| json!({"member": member_tag(p.member), "name": p.name, "computer": p.computer});
        // `players[i]`: who plays side i's next turn (in a team game, the
        // member whose turn it is); `teams[i]`: everyone playing side i,
        // in rotation order.
        let players: Vec<Value> = (0..game.sides.len())
            .filter_map(|s| game.player(Side(s as u8)).map(player))
            .collect();
        let teams: Vec<Value> = game
            .sides
            .iter()
            .map(|team| team.iter().map(player).collect())
            .collect();
        let to_play = game
            .game
            .to_move()
            .and_then(|s| game.player(s))
            .map(|p| member_tag(p.member));
        Some(json!({
            "number": game.number,
            "players": players,
            "teams": teams,
            "to_play": to_play,
            "state": game.game.view(),
            "legal": game.game.legal(),
            "moves": game.moves,
            "move_sides": game.move_sides,
            "clock": clock,
            "outcome": game.game.outcome(),
        }))
    }

    pub(super) fn scores_view(&self) -> Value {
        serde_json::to_value(&self.scores).unwrap_or(Value::Null)
    }

    /// The auto-start setting and countdown: `remaining_ms` until the next
    /// game starts (as of sending), `null` when no countdown runs.
    pub(super) fn autostart_view(&self) -> Value {
        let now = self.now_ms();
        let (remaining, paused) = match self.countdown {
            Some(Countdown::Running { at_ms }) => (Some(at_ms.saturating_sub(now)), false),
            Some(Countdown::Paused { left_ms }) => (Some(left_ms), true),
            None => (None, false),
        };
        json!({"enabled": self.autostart, "remaining_ms": remaining, "paused": paused})
    }

    pub(super) fn room_view(&self, base_url: &str) -> Value {
        json!({
            "code": self.code,
            "link": format!("{base_url}/r/{}", self.code),
            "qr": format!("/api/rooms/{}/qr.svg", self.code),
            "game": self.game_name,
            "options": self.options,
            "seats": self.seats,
            "team_seats": matches!(self.seating, Seating::Teams).then_some(TEAM_SEATS),
            "autostart": self.autostart_view(),
            "members": self.members_view(),
            "spectators": self.spectator_count(),
            "scores": self.scores_view(),
            "match": self.match_view(),
            "chat": self.chat,
        })
    }
}
