//! The room's line in the lobby: what a public room shows to people
//! looking for a game (`LobbyEntry`), recomputed by the task after each
//! change and stored only when it differs (`Write::Lobby`), so any node
//! lists public rooms from the store (`crate::lobby`).

use super::state::RoomState;
use crate::model::records::{LobbyEntry, LobbyPlayer};

impl RoomState {
    /// The room's lobby summary: `Some` while the room is public, not
    /// solo, and someone is online in it.
    pub fn lobby_entry(&self, now: u64) -> Option<LobbyEntry> {
        if !self.public || self.solo {
            return None;
        }
        if !self
            .members
            .iter()
            .any(|m| m.conns > 0 && m.computer.is_none())
        {
            return None;
        }
        let game = self.game();
        let mut players: Vec<LobbyPlayer> = self
            .members
            .iter()
            .filter_map(|m| {
                let seat = m.seat?;
                Some(LobbyPlayer {
                    seat,
                    name: m
                        .name
                        .clone()
                        .or_else(|| m.account.as_ref().map(|a| a.display_name.clone())),
                    rating: m
                        .ratings
                        .iter()
                        .find(|(g, _)| *g == game)
                        .map(|(_, r)| r.view(now).rating)
                        .or_else(|| {
                            m.account
                                .as_ref()
                                .map(|_| crate::ratings::Rating::default().view(now).rating)
                        }),
                    computer: m.computer,
                })
            })
            .collect();
        players.sort_by_key(|p| p.seat);
        let seats = self.seats();
        Some(LobbyEntry {
            game,
            options: self.options.to_json(),
            seats,
            free: seats.saturating_sub(players.len()),
            running: self.busy(),
            players,
        })
    }
}
