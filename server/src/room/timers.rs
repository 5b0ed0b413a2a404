//! The room's timers as data: [`RoomState::deadlines`] lists what is due
//! when, and [`RoomState::fire`] runs one. The task sleeps until the
//! earliest deadline and fires it with the time it woke; a timer that is no
//! longer due (someone came back, the game ended) does nothing.

use rules::{EndReason, Side};

use super::event::{Effect, Event};
use super::play::Change;
use super::state::{Countdown, Member, RoomState};
use super::table::Match;
use crate::model::bracket::Status;
use crate::model::ids::TableId;
use crate::protocol::Order;

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Timer {
    /// The side to move at this table runs out of time.
    Clock(TableId),
    /// A turn-based game's time to move ran out (`turn_based.rs`).
    Turn(TableId),
    /// Every member of this side has been offline for the grace time.
    Abandon(TableId, Side),
    /// The member due to play this side's turn has been offline for the
    /// grace time while a teammate is here.
    TurnPass(TableId, Side),
    /// The auto-start countdown ends.
    Countdown,
    /// Watchers came or went: the counts are announced.
    Presence,
    /// The host has been offline for the hand-over time: the role passes
    /// on (see [`RoomState::successor`]).
    HostHandover,
}

impl RoomState {
    /// Every pending timer and when it is due.
    pub fn deadlines(&self) -> Vec<(u64, Timer)> {
        let grace = self.config.abandon_after_ms;
        let mut due = Vec::new();
        for table in &self.tables {
            let Some(m) = table.running() else {
                continue;
            };
            // A move that left in time may arrive up to the lag quota
            // late: the flag waits for it.
            if let Some(at) = m.clock.deadline() {
                due.push((at + self.config.lag_comp_ms, Timer::Clock(table.id)));
            }
            if let Some(at) = m.deadline {
                due.push((at + self.config.lag_comp_ms, Timer::Turn(table.id)));
            }
            for s in 0..m.sides.len() {
                let side = Side(s as u8);
                if let Some(since) = self.side_gone_since(m, s) {
                    due.push((since + grace, Timer::Abandon(table.id, side)));
                }
                if let Some(since) = self.due_member_gone(m, s) {
                    due.push((since + grace, Timer::TurnPass(table.id, side)));
                }
            }
        }
        if let Some(Countdown::Running { at_ms }) = self.countdown {
            if !self.busy() {
                due.push((at_ms, Timer::Countdown));
            }
        }
        if let Some(at) = self.presence_due() {
            due.push((at, Timer::Presence));
        }
        if let Some(at) = self.handover_due() {
            due.push((at, Timer::HostHandover));
        }
        due
    }

    /// The earliest pending timer.
    pub fn next_deadline(&self) -> Option<(u64, Timer)> {
        self.deadlines().into_iter().min_by_key(|(at, _)| *at)
    }

    /// Runs `timer` if it is due at `now`.
    pub fn fire(&mut self, timer: Timer, now: u64) -> Vec<Effect> {
        if !self
            .deadlines()
            .iter()
            .any(|&(at, t)| t == timer && at <= now)
        {
            return Vec::new();
        }
        let table = |id: TableId| self.tables.iter().position(|t| t.id == id);
        let result = match timer {
            Timer::Clock(id) => table(id).map(|t| self.change(t, Change::Timeout, now)),
            Timer::Turn(id) => table(id).map(|t| Ok(self.turn_ran_out(t, now))),
            Timer::Abandon(id, side) => table(id).map(|t| {
                self.change(
                    t,
                    Change::Forfeit {
                        sides: vec![side],
                        reason: EndReason::Abandon,
                    },
                    now,
                )
            }),
            Timer::TurnPass(id, side) => {
                table(id).map(|t| self.change(t, Change::TurnPass { sides: vec![side] }, now))
            }
            Timer::Countdown => Some(Ok(self.countdown_ends(now))),
            Timer::Presence => {
                let mut effects = Vec::new();
                self.emit_presence(&mut effects, now);
                Some(Ok(effects))
            }
            Timer::HostHandover => self.successor().map(|to| Ok(self.hand_host_to(to))),
        };
        result.and_then(Result::ok).unwrap_or_default()
    }

    /// The countdown ran out: the next game starts the way the host's
    /// `start` does, with the last game's order, or the countdown is
    /// dropped if a seat is empty or offline.
    fn countdown_ends(&mut self, now: u64) -> Vec<Effect> {
        self.countdown = None;
        if !self.countdown_may_start() {
            let mut effects = Vec::new();
            let autostart = self.autostart_view(now);
            self.emit(&mut effects, Event::Autostart { autostart });
            return effects;
        }
        let order = self.tables[0]
            .current
            .as_ref()
            .map_or(Order::Random, |m| m.order);
        match self.begin(order, now) {
            Ok(effects) => effects,
            Err(_) => {
                let mut effects = Vec::new();
                let autostart = self.autostart_view(now);
                self.emit(&mut effects, Event::Autostart { autostart });
                effects
            }
        }
    }

    /// Whether the auto-start countdown may start the next game: a live
    /// game of the room's table, or a knockout tournament's next round
    /// (between rounds); never a new tournament (the host's `start`
    /// enters everyone seated) nor a turn-based game (the host's `start`
    /// or a rematch starts it).
    pub(super) fn countdown_may_start(&self) -> bool {
        if self.options.days().is_some() {
            return false;
        }
        !self.options.is_knockout()
            || self
                .tournament
                .as_ref()
                .is_some_and(|b| b.status == Status::BetweenRounds)
    }

    /// Since when every person of side `s` has been offline (the latest
    /// of their departures), if they all are and the side is still in.
    /// Only people count: a team whose people have all left is away
    /// whatever computers it holds (they do not play on for it), and a
    /// side of computers only (a knockout's computer entrant, a solo
    /// room's computer) is never away.
    pub(super) fn side_gone_since(&self, m: &Match, s: usize) -> Option<u64> {
        // In a turn-based game players are expected to be away.
        if m.gone.get(s).copied().unwrap_or(true) || m.options.days().is_some() {
            return None;
        }
        // A player who is no longer a member at all counts as long gone.
        let people = m.sides.get(s)?.iter().filter(|p| p.computer.is_none());
        people
            .map(|p| self.member(p.member).map_or(Some(0), |m| m.offline_since))
            .collect::<Option<Vec<u64>>>()
            .and_then(|since| since.into_iter().max())
    }

    /// Since when the member due to play side `s`'s next turn has been
    /// offline, if a teammate is online to take the turn instead.
    pub fn due_member_gone(&self, m: &Match, s: usize) -> Option<u64> {
        if m.gone.get(s).copied().unwrap_or(true) || m.options.days().is_some() {
            return None;
        }
        let due = m.player(Side(s as u8))?;
        let since = self.member(due.member)?.offline_since?;
        m.sides[s]
            .iter()
            .any(|p| p.member != due.member && self.member(p.member).is_some_and(Member::online))
            .then_some(since)
    }
}
