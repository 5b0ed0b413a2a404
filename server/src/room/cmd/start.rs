//! `start`: the host starts the next game (the auto-start countdown
//! starts it the same way, through [`RoomState::begin`]).

use serde::Deserialize;

use rand::seq::SliceRandom;
use rules::Game;

use super::super::event::{Effect, Event, MatchKind};
use super::super::state::{Applied, RoomState};
use super::super::table::{Match, Request, Table};
use super::super::views::MatchBody;
use crate::game_log::GameLog;
use crate::games::Seating;
use crate::model::ids::{GameId, MemberId};
use crate::model::records::{LiveGame, Player};
use crate::protocol::{Code, Order, Refusal};
use crate::store::Write;

/// `start`: `order` `"random"` (default) draws who plays side 0;
/// `"seats"` gives seat `i` side `i`.
#[derive(Debug, Deserialize)]
pub struct Start {
    #[serde(default)]
    pub order: Order,
}

impl RoomState {
    pub(super) fn start(&mut self, member: MemberId, order: Order, now: u64) -> Applied {
        self.require_host(member)?;
        self.refuse_if_running()?;
        self.begin(order, now)
    }

    /// Who sits where, grouped by side for a new game, or why a game
    /// cannot start. Per-side games need every seat taken, except
    /// free-for-all Quoridor, which starts with two or more (the empty
    /// seats are left out); team games need at least one member per team.
    /// Everyone seated must be online.
    fn seated_sides(&self) -> Result<Vec<Vec<Player>>, Refusal> {
        if self.options.starts_partly_seated() {
            let sides: Vec<Vec<Player>> = self
                .seated_in_order()?
                .into_iter()
                .map(|p| vec![p])
                .collect();
            if sides.len() < 2 {
                return Err(Refusal::new(
                    Code::NotReady,
                    "A game needs at least two players seated.",
                ));
            }
            return Ok(sides);
        }
        let mut sides: Vec<Vec<Player>> = vec![Vec::new(); self.seating.sides()];
        for seat in 0..self.seats() {
            let side = self.seating.side_of_seat(seat);
            match self.members.iter().find(|m| m.seat == Some(seat)) {
                Some(m) if m.online() => sides[side].push(Player {
                    member: m.id,
                    name: m.name.clone().unwrap_or_default(),
                    computer: m.computer,
                }),
                Some(m) => {
                    return Err(Refusal::new(
                        Code::NotReady,
                        format!("{} is offline.", m.name.as_deref().unwrap_or("A player")),
                    ))
                }
                None if self.seating == Seating::Teams => {}
                None => {
                    return Err(Refusal::new(
                        Code::NotReady,
                        format!("Seat {} is empty.", seat + 1),
                    ))
                }
            }
        }
        if sides.iter().any(Vec::is_empty) {
            return Err(Refusal::new(
                Code::NotReady,
                "Each team needs at least one member.",
            ));
        }
        Ok(sides)
    }

    /// The seated members in seat order, all online.
    fn seated_in_order(&self) -> Result<Vec<Player>, Refusal> {
        let mut seated = Vec::new();
        for seat in 0..self.seats() {
            if let Some(m) = self.members.iter().find(|m| m.seat == Some(seat)) {
                if !m.online() {
                    return Err(Refusal::new(
                        Code::NotReady,
                        format!("{} is offline.", m.name.as_deref().unwrap_or("A player")),
                    ));
                }
                seated.push(Player {
                    member: m.id,
                    name: m.name.clone().unwrap_or_default(),
                    computer: m.computer,
                });
            }
        }
        Ok(seated)
    }

    /// Starts the next game (the host's `start`, the auto-start or a
    /// rematch): in a knockout room the tournament or its next round;
    /// otherwise never a game of computers only (`not_ready`).
    pub fn begin(&mut self, order: Order, now: u64) -> Applied {
        if self.options.is_knockout() {
            return self.begin_knockout(now);
        }
        let mut sides = self.seated_sides()?;
        // Computers meet only in a knockout's bracket: a game needs a
        // person seated (PROTOCOL.md, `start`).
        if sides.iter().flatten().all(|p| p.computer.is_some()) {
            return Err(Refusal::new(
                Code::NotReady,
                "A game needs a person seated: computers do not play one another here.",
            ));
        }
        // Who moves first is drawn at random unless the host fixes it
        // (RULES.md); with `seats`, seat i plays side i (in teams, the
        // team in seats 1-4 plays side 0).
        if order == Order::Random {
            sides.shuffle(&mut rand::rng());
        }
        let mut effects = Vec::new();
        // Back to the room's own table after a tournament.
        if self.tournament.take().is_some() || self.tables.len() != 1 {
            self.tables = vec![Table::new(self.main_table)];
            effects.push(Effect::Persist(Write::Tournament(None)));
            let tournament = None;
            self.emit(&mut effects, Event::Tournament { tournament });
        }
        self.start_game(0, sides, order, now, &mut effects)?;
        Ok(effects)
    }

    /// Starts a new game at table `t` with `sides` (side 0 first).
    pub fn start_game(
        &mut self,
        t: usize,
        sides: Vec<Vec<Player>>,
        order: Order,
        now: u64,
        effects: &mut Vec<Effect>,
    ) -> Result<(), Refusal> {
        // Free-for-all Quoridor: as many pawns as players seated.
        let options = self.options.for_players(sides.len());
        let log = GameLog::new(&options).map_err(|e| Refusal::new(Code::BadOptions, e.0))?;
        let n = sides.len();
        let options_turn_ms = options.turn_ms();
        let mut clock = rules::clock::Clock::new(options.time_control(&log.game), log.game.sides());
        if let Some(side) = log.game.to_move() {
            clock.start_turn(side, now);
        }
        self.games_played += 1;
        let m = Match {
            id: GameId::new(),
            number: self.games_played,
            log,
            options,
            sides,
            turn: vec![0; n],
            entries: 0,
            clock,
            started_at: now,
            order,
            draw: Request::new(n),
            takeback: Request::new(n),
            // A turn-based game's first move is due within its days.
            deadline: options_turn_ms.map(|ms| now + ms),
        };
        let table = self.tables[t].id;
        effects.push(Effect::Persist(Write::Room(self.row())));
        effects.push(Effect::Persist(Write::GameStarted(LiveGame {
            id: m.id,
            table,
            number: m.number,
            options: m.options.clone(),
            sides: m.sides.clone(),
            order,
            started_at: now,
            deadline: m.deadline,
        })));
        let view = Box::new(MatchBody::Full(m.view(now)));
        self.tables[t].current = Some(m);
        effects.extend(self.turn_write(t).map(Effect::Persist));
        self.countdown = None;
        self.rematch.clear();
        self.emit(
            effects,
            Event::Match {
                table,
                kind: MatchKind::Start,
                played: None,
                side: None,
                view,
            },
        );
        // A side offline from the start (a knockout entrant who left
        // between rounds): everyone sees its countdowns, as when a side
        // leaves during a game.
        let away = self.away_view(&self.tables[t], now);
        if !away.is_empty() {
            self.emit(effects, Event::Away { table, away });
        }
        self.think(t, now, effects);
        Ok(())
    }
}
