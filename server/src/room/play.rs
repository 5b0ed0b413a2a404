//! The one path for a live position change. A person's move, the
//! computer's move, a timeout, a forfeit and a team's turn passing all go
//! through [`RoomState::change`]: it applies the step to the game's log
//! (the one transition, `game_log`, that restore, replay and import use
//! too), then adds what only live play has: the clock, the turn rotation,
//! the stored entry and the event to everyone; it ends, scores and stores
//! the game if it is over, and starts the computer if it is to move.

use rules::{EndReason, Game, Side, TimeControl};

use super::event::{Effect, Event, MatchKind};
use super::state::{Applied, Countdown, RoomState};
use super::views::MatchBody;
use super::Match;
use crate::game_log::{LogError, Step};
use crate::games::AnyMove;
use crate::model::records::{EntryRow, FinishedGame, SidePlayer};
use crate::model::MemberId;
use crate::protocol::{Code, Refusal};
use crate::ratings::rate;
use crate::store::ratings::rated_pair;
use crate::store::Write;

/// What happened to the position.
#[derive(Clone, Debug)]
pub enum Change {
    /// `side` plays `mv` (a person or the computer); `lag_ms`: the
    /// mover's measured network lag, not charged to their clock up to
    /// the room's `lag_comp_ms`.
    Move {
        side: Side,
        mv: AnyMove,
        lag_ms: u64,
    },
    /// The side to move ran out of time.
    Timeout,
    /// `sides` resign or abandon.
    Forfeit { sides: Vec<Side>, reason: EndReason },
    /// The members due to play `sides` are gone; their teammates take over.
    TurnPass { sides: Vec<Side> },
    /// The last `plies` moves are taken back (`takeback` accepted).
    Takeback { plies: usize },
    /// The game ends drawn: `draw` accepted (`Agreement`), or a `claim`
    /// of a draw after the opponent left (`Abandon`).
    Draw { reason: EndReason },
}

impl From<LogError> for Refusal {
    fn from(e: LogError) -> Refusal {
        match e {
            LogError::NotYourTurn(_) => Refusal::new(Code::NotYourTurn, "It is not your turn."),
            LogError::Illegal(e) => e.into(),
            LogError::NoDraws => Refusal::new(Code::NoDraws, "This game has no draw by agreement."),
            LogError::NoTakeback(why) => {
                Refusal::new(Code::NoTakeback, format!("No takeback: {why}."))
            }
        }
    }
}

impl RoomState {
    /// Applies `change` to table `t`'s running game. A refusal (not the
    /// side's turn, too late, an illegal move) changes nothing.
    pub fn change(&mut self, t: usize, change: Change, now: u64) -> Applied {
        let online = self.online_ids();
        let takers = self.turn_takers(now);
        // A side that leaves a game that goes on leaves its away list too.
        let away_before: Vec<_> = match (&change, self.tables.get(t)) {
            (Change::Forfeit { .. }, Some(table)) if table.running().is_some() => {
                vec![(table.id, self.away_view(table, now))]
            }
            _ => Vec::new(),
        };
        let Some(m) = self
            .tables
            .get_mut(t)
            .and_then(|table| table.current.as_mut())
            .filter(|m| m.is_running())
        else {
            return Err(Refusal::new(Code::NoGame, "No game is running."));
        };
        // What the change is for the log; live play adds the clock and
        // the turn rotation around it.
        // The time the move counts as made: its arrival, less the mover's
        // network lag up to the room's quota a move.
        let mut moved_at = now;
        let (kind, step) = match change {
            Change::Move { side, mv, lag_ms } => {
                moved_at = now.saturating_sub(lag_ms.min(self.config.lag_comp_ms));
                // A turn-based game's move comes before its deadline.
                if m.deadline.is_some_and(|at| moved_at > at) {
                    return Err(Refusal::new(
                        Code::Late,
                        "Your time to move ran out before the move arrived.",
                    ));
                }
                // The clock runs for the side to move; whose turn it is
                // the log checks.
                if m.clock.control() != TimeControl::Unlimited
                    && m.clock.running() == Some(side)
                    && m.clock.remaining(side, moved_at) == 0
                {
                    return Err(Refusal::new(
                        Code::Late,
                        "Your time ran out before the move arrived.",
                    ));
                }
                (MatchKind::Move, Step::Move { side, notation: mv })
            }
            Change::Timeout => {
                let side = m.clock.running().or(m.game.to_move()).unwrap_or(Side(0));
                (MatchKind::Timeout, Step::Timeout { side })
            }
            Change::Forfeit { sides, reason } => {
                (MatchKind::Forfeit, Step::Forfeit { sides, reason })
            }
            Change::TurnPass { sides } => {
                for side in sides {
                    m.rotate(side, &online);
                }
                (MatchKind::Turn, Step::Turn)
            }
            Change::Draw { reason } => (MatchKind::End, Step::Draw { reason }),
            Change::Takeback { plies } => (MatchKind::Takeback, Step::Takeback { plies }),
        };
        let played = m.log.apply(&step)?;
        match &step {
            Step::Move { side, .. } => {
                m.clock.finish_turn(moved_at);
                // A draw offer stands until the side it was made to plays on.
                if m.draw.standing.is_some_and(|offerer| offerer != *side) {
                    m.draw.standing = None;
                }
                // A takeback request goes with any move: it asked to take
                // back a position that changed.
                m.takeback.standing = None;
            }
            Step::Timeout { .. } => m.clock.stop(now),
            Step::Takeback { .. } => {
                m.takeback.standing = None;
                m.draw.standing = None;
            }
            Step::Forfeit { .. } | Step::Turn | Step::Draw { .. } => {}
        }
        // After a move the team's next member in rotation plays its next
        // turn unless they have been offline for the grace time already
        // (then the turn would pass at once: they are skipped now). A
        // turn-based game has no turn passing: players are expected to
        // be away, so the rotation skips nobody.
        if let Some(p) = &played {
            if m.options.days().is_some() {
                m.rotate_strictly(p.side);
            } else {
                m.rotate(p.side, &takers);
            }
        }
        let kind = match kind {
            MatchKind::Forfeit if m.game.is_over() => MatchKind::End,
            kind => kind,
        };
        m.renew_deadline(&step, now);
        if m.game.is_over() {
            m.draw.standing = None;
            m.takeback.standing = None;
        }
        // After a takeback the side now to move gets a fresh turn even
        // when it was already to move (two plies back): a Quoridor turn
        // timer starts again in full, a chess clock keeps what each side
        // has (stopping and starting it again changes nothing there).
        let takeback = matches!(step, Step::Takeback { .. });
        match m.game.to_move() {
            Some(next) if takeback || m.clock.running() != Some(next) => {
                m.clock.stop(now);
                m.clock.start_turn(next, now);
            }
            Some(_) => {}
            None => m.clock.stop(now),
        }
        let row = EntryRow {
            game: m.id,
            seq: m.entries,
            entry: step.written(),
            clock: m.clock.all_remaining(now),
            turn: m.turn.clone(),
        };
        m.entries += 1;
        let over = m.game.is_over();
        // A move is sent as what it changed; anything else (a timeout, a
        // forfeit, a turn passed) as the whole match.
        let view = Box::new(match kind {
            MatchKind::Move => MatchBody::Move(m.move_view(now)),
            _ => MatchBody::Full(m.view(now)),
        });
        let table = self.tables[t].id;
        let mut effects = vec![Effect::Persist(Write::Entry(row))];
        effects.extend(self.turn_write(t).map(Effect::Persist));
        let (played, side) = match played {
            Some(p) => (Some(p.mv.to_string()), Some(p.side)),
            None => (None, None),
        };
        self.emit(
            &mut effects,
            Event::Match {
                table,
                kind,
                played,
                side,
                view,
            },
        );
        if over {
            self.end_hints(t, &mut effects);
            self.finish(t, now, &mut effects);
        } else {
            self.emit_away_changes(away_before, now, &mut effects);
            // The last person left a game the computers would play on by
            // themselves: it ends drawn (`abandon`, nobody scores), so no
            // unattended game holds the room and the search slots.
            if matches!(step, Step::Forfeit { .. }) && self.only_computers_play(t) {
                let ended = self.change(
                    t,
                    Change::Draw {
                        reason: EndReason::Abandon,
                    },
                    now,
                )?;
                effects.extend(ended);
                return Ok(effects);
            }
        }
        self.think(t, now, &mut effects);
        Ok(effects)
    }

    /// Whether every side still in table `t`'s running game is the
    /// computer's alone.
    fn only_computers_play(&self, t: usize) -> bool {
        let Some(m) = self.tables.get(t).and_then(|x| x.running()) else {
            return false;
        };
        m.sides
            .iter()
            .enumerate()
            .filter(|(i, _)| !m.gone[*i])
            .all(|(_, team)| team.iter().all(|p| p.computer.is_some()))
    }

    /// Who played each side of `m`, with the account each was signed in
    /// as (what the record and the ratings keep).
    fn side_players(&self, m: &Match) -> Vec<Vec<SidePlayer>> {
        let account = |member: MemberId| {
            let x = self.members.iter().find(|x| x.id == member)?;
            Some(x.account.as_ref()?.id)
        };
        m.sides
            .iter()
            .map(|team| {
                team.iter()
                    .map(|p| SidePlayer {
                        member: p.member,
                        account: account(p.member),
                    })
                    .collect()
            })
            .collect()
    }

    /// Table `t`'s game just ended: score it, store it, and count down to
    /// the next one if the room starts games by itself.
    fn finish(&mut self, t: usize, now: u64, effects: &mut Vec<Effect>) {
        let Some(m) = self.tables[t].current.clone() else {
            return;
        };
        let Some(outcome) = m.game.outcome().cloned() else {
            return;
        };
        let knockout = self.is_knockout_table(t);
        if !knockout {
            self.record_scores(&m, effects);
        }
        let mut finished = FinishedGame {
            id: m.id,
            room: self.code.clone(),
            number: m.number,
            game: m.game.kind(),
            options: m.options.clone(),
            players: m.side_names(),
            sides: self.side_players(&m),
            moves: m.moves.clone(),
            leaves: m.leaves.clone(),
            takebacks: m.takebacks.clone(),
            outcome,
            started_at: m.started_at,
            ended_at: now,
            rated: false,
        };
        // Rated: the host marked the room rated, no computer plays, and
        // the game is two signed-in people's (two accounts), with a result.
        let computer = m.sides.iter().flatten().any(|p| p.computer.is_some());
        finished.rated = self.rated && !computer && rated_pair(&finished).is_some();
        let rated = finished.rated;
        if rated {
            self.rate_members(&finished);
        }
        effects.push(Effect::Persist(Write::GameEnded(finished)));
        if rated {
            // The new ratings beside the players' names.
            self.emit_members(effects);
        }
        // A game against the computer does not start again by itself: the
        // person asks for another (the host's `start`, "Play again").
        if knockout {
            self.knockout_game_over(t, now, effects);
        } else if self.autostart && !self.busy() && !computer && self.options.days().is_none() {
            self.countdown = Some(Countdown::Running {
                at_ms: now + self.config.autostart_after_ms,
            });
            let autostart = self.autostart_view(now);
            self.emit(effects, Event::Autostart { autostart });
        }
    }

    /// The ratings the room shows move as the store's do: both players'
    /// cached ratings at the game, rated with the same function (from
    /// the same values, unless one of them finished another rated game
    /// elsewhere since their hello; the store's are the ones that count).
    fn rate_members(&mut self, f: &FinishedGame) {
        let Some((a, b, score)) = rated_pair(f) else {
            return;
        };
        let game = f.game;
        let current = |state: &RoomState, account: i64| {
            state
                .members
                .iter()
                .find(|m| m.account.as_ref().is_some_and(|x| x.id == account))
                .and_then(|m| m.ratings.iter().find(|(g, _)| *g == game))
                .map(|(_, r)| *r)
                .unwrap_or_default()
        };
        let (ra, rb) = (current(self, a), current(self, b));
        let (na, nb) = rate(&ra, &rb, score, f.ended_at);
        for (account, new) in [(a, na), (b, nb)] {
            for m in self
                .members
                .iter_mut()
                .filter(|m| m.account.as_ref().is_some_and(|x| x.id == account))
            {
                match m.ratings.iter_mut().find(|(g, _)| *g == game) {
                    Some((_, r)) => *r = new,
                    None => m.ratings.push((game, new)),
                }
            }
        }
    }

    /// After anything that may change whose turn it is at table `t`: if
    /// the computer is to move, ask for its search (replacing any other);
    /// otherwise make sure none runs.
    pub fn think(&mut self, t: usize, now: u64, effects: &mut Vec<Effect>) {
        let table = &mut self.tables[t];
        let was_thinking = table.thinking.take().is_some();
        let wanted = table.running().and_then(|m| {
            let side = m.game.to_move()?;
            let level = m.player(side)?.computer?;
            let mut budget_ms = self.config.bot_budget_ms;
            if m.clock.control() != TimeControl::Unlimited {
                // Never let the computer think itself out of time: at most
                // a tenth of what it has left.
                budget_ms = budget_ms.min(m.clock.remaining(side, now) / 10);
            }
            let among_computers = m.sides.iter().flatten().all(|p| p.computer.is_some());
            // The search is its game's first person's: their share of the
            // cores. A game between computers only is nobody's (not the
            // host's: the host role can be given to anyone); the slots
            // kept for such games bound it (`bots::Slots`).
            let person = m.sides.iter().flatten().find(|p| p.computer.is_none());
            let person = person.map(|p| p.member);
            Some((
                Box::new(m.game.clone()),
                level,
                budget_ms,
                among_computers,
                person,
            ))
        });
        let id = table.id;
        match wanted {
            Some((game, level, budget_ms, among_computers, person)) => {
                let client = match person {
                    Some(member) => self.search_client(member),
                    None => crate::bots::SearchClient::default(),
                };
                self.thinks_started += 1;
                let think = self.thinks_started;
                self.tables[t].thinking = Some(think);
                effects.push(Effect::Think {
                    table: id,
                    think,
                    game,
                    level,
                    budget_ms,
                    among_computers,
                    client,
                });
            }
            None if was_thinking => effects.push(Effect::StopThinking { table: id }),
            None => {}
        }
    }

    /// A computer's search for `table` finished. Only the search the table
    /// waits for may move; anything else answers a position that is gone.
    pub fn bot_move(
        &mut self,
        table: crate::model::ids::TableId,
        think: u64,
        result: Option<AnyMove>,
        now: u64,
    ) -> Vec<Effect> {
        let Some(t) = self.tables.iter().position(|x| x.id == table) else {
            return Vec::new();
        };
        if self.tables[t].thinking != Some(think) {
            return Vec::new();
        }
        self.tables[t].thinking = None;
        let Some(m) = self.tables[t].running() else {
            return Vec::new();
        };
        let Some(side) = m.game.to_move() else {
            return Vec::new();
        };
        let first = m.game.legal_moves().first().copied();
        let Some(mv) = result.or(first) else {
            return Vec::new();
        };
        match self.change(
            t,
            Change::Move {
                side,
                mv,
                lag_ms: 0,
            },
            now,
        ) {
            Ok(effects) => effects,
            // The search answered a move the rules refuse: play the first
            // legal one rather than stall the game.
            Err(refusal) if refusal.code == Code::IllegalMove => first
                .and_then(|mv| {
                    self.change(
                        t,
                        Change::Move {
                            side,
                            mv,
                            lag_ms: 0,
                        },
                        now,
                    )
                    .ok()
                })
                .unwrap_or_default(),
            // `late`: the clock ran out first; the timer ends the game.
            Err(_) => Vec::new(),
        }
    }
}
