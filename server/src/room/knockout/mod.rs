//! Knockout tournaments in a room (RULES.md §2, "Modes"): everyone seated
//! enters, each round's 1-v-1 matches run at the same time at their own
//! tables, winners advance until one champion remains. `model/bracket.rs` is
//! the pairing logic; this file runs it on the room: it starts the games,
//! hears their results, scores them and moves the rounds on.

use rules::{Game, Side};

use super::event::{Effect, Event};
use super::state::{Applied, Countdown, RoomState};
use super::table::Table;
use crate::model::bracket::{Bracket, Entrant, Next, Status};
use crate::model::ids::{MemberId, TableId};
use crate::model::records::Player;
use crate::protocol::{Code, Order, Refusal};
use crate::store::Write;

/// Points for a match won, and the champion's bonus (RULES.md §2).
pub const MATCH_POINTS: u32 = 3;
pub const CHAMPION_POINTS: u32 = 10;

impl RoomState {
    /// The host's `start` (or the countdown) in a knockout room: a new
    /// tournament, or the next round of the one under way.
    pub fn begin_knockout(&mut self, now: u64) -> Applied {
        if let Some(b) = &self.tournament {
            match b.status {
                Status::BetweenRounds => return self.next_round(now),
                Status::Playing => {
                    return Err(Refusal::new(
                        Code::GameRunning,
                        "The round is still being played.",
                    ))
                }
                Status::Finished { .. } | Status::Stopped => {}
            }
        }
        let mut entrants = Vec::new();
        for seat in 0..self.seats() {
            let Some(m) = self.members.iter().find(|m| m.seat == Some(seat)) else {
                continue;
            };
            if !m.online() {
                return Err(Refusal::new(
                    Code::NotReady,
                    format!("{} is offline.", m.name.as_deref().unwrap_or("A player")),
                ));
            }
            entrants.push(Entrant {
                member: m.id,
                name: m.name.clone().unwrap_or_default(),
            });
        }
        let bracket = Bracket::new(entrants, &mut rand::rng(), TableId::new)
            .map_err(|m| Refusal::new(Code::NotReady, m))?;
        self.tournament = Some(bracket);
        let mut effects = Vec::new();
        self.start_round(now, &mut effects)?;
        Ok(effects)
    }

    /// Sets up the current round's tables and starts every match.
    fn start_round(&mut self, now: u64, effects: &mut Vec<Effect>) -> Result<(), Refusal> {
        let Some(round) = self.tournament.as_ref().and_then(|b| b.current()).cloned() else {
            return Ok(());
        };
        self.tables = round.pairings.iter().map(|p| Table::new(p.table)).collect();
        self.countdown = None;
        self.emit_tournament(effects);
        for (t, pairing) in round.pairings.iter().enumerate() {
            let sides = self.sides_of(pairing.first());
            self.start_game(t, sides, Order::Seats, now, effects)?;
        }
        Ok(())
    }

    /// One player a side, `first` moving first.
    fn sides_of(&self, first: [MemberId; 2]) -> Vec<Vec<Player>> {
        first
            .iter()
            .map(|&id| {
                let member = self.member(id);
                vec![Player {
                    member: id,
                    name: member
                        .and_then(|m| m.name.clone())
                        .or_else(|| self.tournament.as_ref().map(|b| b.name(id).to_string()))
                        .unwrap_or_default(),
                    computer: member.and_then(|m| m.computer),
                }]
            })
            .collect()
    }

    /// Whether table `t`'s game belongs to a tournament under way.
    pub fn is_knockout_table(&self, t: usize) -> bool {
        let table = self.tables[t].id;
        self.tournament
            .as_ref()
            .is_some_and(|b| b.status == Status::Playing && b.pairing_at(table).is_some())
    }

    /// Table `t`'s game of the tournament ended: record it, then replay,
    /// toss the coin, or move the tournament on.
    pub fn knockout_game_over(&mut self, t: usize, now: u64, effects: &mut Vec<Effect>) {
        let Some(m) = self.tables[t].current.as_ref() else {
            return;
        };
        let table = self.tables[t].id;
        let player = |side: Side| {
            m.sides
                .get(side.index())
                .and_then(|s| s.first())
                .map(|p| p.member)
        };
        // A side that left (resigned or abandoned) loses even when the
        // rules called the game aborted.
        let winner = match m.game.outcome().and_then(|o| o.winner()) {
            Some(side) => player(side),
            None => match (m.gone.first(), m.gone.get(1)) {
                (Some(true), Some(false)) => player(Side(1)),
                (Some(false), Some(true)) => player(Side(0)),
                _ => None,
            },
        };
        let coin: bool = rand::random();
        let Some(next) = self
            .tournament
            .as_mut()
            .and_then(|b| b.record(table, winner, coin))
        else {
            return;
        };
        let players = self
            .tournament
            .as_ref()
            .and_then(|b| b.pairing_at(table))
            .map(|p| p.players);
        // The coin's event, sent after the scores (PROTOCOL.md).
        let mut toss = None;
        match next {
            Next::Decided { winner } => {
                let loser = players.and_then(|p| p.into_iter().find(|&x| x != winner));
                self.add_score(winner, MATCH_POINTS, (1, 0, 0), effects);
                if let Some(loser) = loser {
                    self.add_score(loser, 0, (0, 0, 1), effects);
                }
            }
            Next::Replay { first } => {
                self.emit_tournament(effects);
                let sides = self.sides_of(first);
                if self
                    .start_game(t, sides, Order::Seats, now, effects)
                    .is_err()
                {
                    tracing::warn!(room = %self.code, "a replay could not start");
                }
                return;
            }
            Next::CoinToss { winner } => {
                if let Some(players) = players {
                    for p in players {
                        self.add_score(p, 0, (0, 1, 0), effects);
                    }
                    toss = Some(Event::CoinToss {
                        table,
                        players,
                        winner,
                    });
                }
            }
        }
        let between = self
            .tournament
            .as_ref()
            .is_some_and(|b| b.status == Status::BetweenRounds);
        let last = between
            && self
                .tournament
                .as_ref()
                .and_then(|b| b.current())
                .is_some_and(|r| r.advancing().len() == 1);
        if last {
            // The final is over: crown the champion at once.
            if let Some(champion) = self
                .tournament
                .as_mut()
                .and_then(|b| b.advance(&mut rand::rng(), TableId::new))
            {
                self.add_score(champion, CHAMPION_POINTS, (0, 0, 0), effects);
            }
        }
        // One scoreboard, the coin if it decided, and one bracket for
        // everything that changed.
        let scores = self.scores_view();
        self.emit(effects, Event::Scores { scores });
        if let Some(toss) = toss {
            self.emit(effects, toss);
        }
        self.emit_tournament(effects);
        if between && !last && self.autostart {
            self.countdown = Some(Countdown::Running {
                at_ms: now + self.config.autostart_after_ms,
            });
            let autostart = self.autostart_view(now);
            self.emit(effects, Event::Autostart { autostart });
        }
    }

    /// Between rounds: the next round, or the champion.
    fn next_round(&mut self, now: u64) -> Applied {
        let mut effects = Vec::new();
        let Some(bracket) = self.tournament.as_mut() else {
            return Err(Refusal::new(Code::NoGame, "No tournament is under way."));
        };
        self.countdown = None;
        match bracket.advance(&mut rand::rng(), TableId::new) {
            Some(champion) => {
                self.add_score(champion, CHAMPION_POINTS, (0, 0, 0), &mut effects);
                let scores = self.scores_view();
                self.emit(&mut effects, Event::Scores { scores });
                self.emit_tournament(&mut effects);
            }
            None => self.start_round(now, &mut effects)?,
        }
        Ok(effects)
    }

    /// `stop`: the host ends the tournament between rounds; it is recorded
    /// as stopped, and the points already won stay.
    pub(super) fn stop_tournament(&mut self, member: MemberId) -> Applied {
        self.require_host(member)?;
        let Some(bracket) = self.tournament.as_mut().filter(|b| b.is_active()) else {
            return Err(Refusal::new(Code::NoGame, "No tournament is under way."));
        };
        if bracket.status == Status::Playing {
            return Err(Refusal::new(
                Code::GameRunning,
                "Stop the tournament between rounds, when every match is over.",
            ));
        }
        bracket.stop();
        let mut effects = Vec::new();
        self.emit_tournament(&mut effects);
        if self.countdown.take().is_some() {
            let autostart = self.autostart_view(0);
            self.emit(&mut effects, Event::Autostart { autostart });
        }
        Ok(effects)
    }

    /// Refuses what may not change while a tournament goes on.
    pub fn refuse_if_tournament(&self) -> Result<(), Refusal> {
        if self.tournament.as_ref().is_some_and(Bracket::is_active) {
            return Err(Refusal::new(
                Code::GameRunning,
                "A tournament is under way: wait until it ends, or stop it between rounds.",
            ));
        }
        Ok(())
    }

    fn emit_tournament(&mut self, effects: &mut Vec<Effect>) {
        let tournament = self.tournament.clone();
        effects.push(Effect::Persist(Write::Tournament(tournament.clone())));
        self.emit(effects, Event::Tournament { tournament });
    }

    /// Adds a tournament result to `member`'s scoreboard row:
    /// `(wins, draws, losses)`. The caller sends the scoreboard once.
    fn add_score(
        &mut self,
        member: MemberId,
        points: u32,
        (wins, draws, losses): (u32, u32, u32),
        effects: &mut Vec<Effect>,
    ) {
        let fallback = self
            .tournament
            .as_ref()
            .map(|b| b.name(member).to_string())
            .unwrap_or_default();
        let row = self.score_row(member, &fallback);
        row.points += points;
        row.wins += wins;
        row.draws += draws;
        row.losses += losses;
        effects.push(Effect::Persist(Write::Score(row.clone())));
    }
}

#[cfg(test)]
mod tests;
