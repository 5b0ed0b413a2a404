//! The room under random steps for `props.rs`: runs each step, keeps
//! the writes, and checks the invariants.

use std::collections::HashMap;

use rules::Side;

use super::props::{setup, Act, Cmd};
use super::*;

pub struct Sim {
    pub state: RoomState,
    pub store: Store,
    pub tokens: Vec<String>,
    pub now: u64,
    /// The last version sent, across every call.
    pub v: u64,
    /// Entries stored per game.
    pub logs: HashMap<GameId, u32>,
    /// When the table's game last changed (for comparing clocks).
    pub changed_at: u64,
    /// Whether the host may seat the computer.
    pub computers: bool,
}

impl Sim {
    fn id(&self, w: usize) -> MemberId {
        let hash = TokenHash::of(&self.tokens[w]);
        self.state
            .members
            .iter()
            .find(|m| m.token.as_ref() == Some(&hash))
            .map_or(MemberId(999), |m| m.id)
    }

    /// Checks and keeps what a call returned.
    fn took(&mut self, effects: &[Effect]) {
        for e in effects {
            match e {
                Effect::Broadcast(stamped) => {
                    assert_eq!(stamped.v, self.v + 1, "versions go up one at a time");
                    self.v = stamped.v;
                }
                Effect::Persist(Write::GameStarted(g)) => {
                    assert!(self.logs.insert(g.id, 0).is_none());
                    self.changed_at = self.now;
                }
                Effect::Persist(Write::Entry(row)) => {
                    let seq = self.logs.get_mut(&row.game).expect("a started game");
                    assert_eq!(row.seq, *seq, "entries are numbered 0, 1, 2…");
                    *seq += 1;
                    self.changed_at = self.now;
                }
                _ => {}
            }
        }
        assert_eq!(self.state.version, self.v);
        self.store.apply(effects);
        // A removed member's pages are closed (the task's `drop_conn`).
        for e in effects {
            if let Effect::Close { member, .. } = e {
                while self.state.member(*member).is_some_and(|m| m.conns > 0) {
                    let more = self.state.disconnect(*member, self.now);
                    self.took(&more);
                }
            }
        }
    }

    /// A command: accepted, or refused without a change.
    fn apply(&mut self, member: MemberId, command: Command) -> bool {
        let due = self.state.tables[0]
            .running()
            .and_then(|m| m.due())
            .map(|p| p.member);
        let is_move = matches!(command, Command::Move(cmd::Move { .. }));
        let before = fingerprint(&self.state, member, self.now);
        match self.state.apply(member, command, self.now) {
            Ok(effects) => {
                assert!(!is_move || due == Some(member), "only the member due moves");
                self.took(&effects);
                true
            }
            Err(_) => {
                assert_eq!(
                    fingerprint(&self.state, member, self.now),
                    before,
                    "a refusal changes nothing"
                );
                false
            }
        }
    }

    pub fn step(&mut self, act: Act, n: usize) {
        let now = self.now;
        match act {
            Act::Hello(w, name) => {
                let w = w % n;
                let before = fingerprint(&self.state, MemberId(0), now);
                match self
                    .state
                    .hello(greeting(&self.tokens[w].clone(), name, None), now)
                {
                    Ok((_, effects)) => self.took(&effects),
                    Err(refusal) => {
                        assert!(matches!(refusal.code, Code::RoomFull | Code::Removed));
                        assert_eq!(fingerprint(&self.state, MemberId(0), now), before);
                    }
                }
            }
            Act::Leave(w) => {
                let id = self.id(w % n);
                if self.state.member(id).is_some_and(|m| m.conns > 0) {
                    let effects = self.state.disconnect(id, now);
                    self.took(&effects);
                }
            }
            Act::SitDown => {
                let teams = self.state.team_seats().is_some();
                for w in 0..n {
                    let seat = if teams { (w % 2) * 4 + w / 2 } else { w };
                    if seat < self.state.seats() {
                        let member = self.id(w);
                        self.apply(member, Command::Sit(cmd::Sit { seat }));
                    }
                }
            }
            Act::Due(k) => {
                let Some(m) = self.state.tables[0].running() else {
                    return;
                };
                let due = m.due().expect("someone is due");
                if due.computer.is_some() {
                    return;
                }
                let legal = m.game.legal();
                let (member, text) = (due.member, legal[k % legal.len()].clone());
                assert!(
                    self.apply(member, mv(&text)),
                    "the member due plays a legal move"
                );
            }
            Act::Try(w, k) => {
                let member = self.id(w % n);
                let text = self.state.tables[0]
                    .running()
                    .map_or("e2".to_string(), |m| {
                        let legal = m.game.legal();
                        legal[k % legal.len()].clone()
                    });
                self.apply(member, mv(&text));
            }
            Act::Junk(w, text) => {
                let member = self.id(w % n);
                self.apply(member, mv(text));
            }
            Act::Cmd(w, cmd) => {
                // The host sends a good share of the commands.
                let member = self.id(if w >= 5 { 0 } else { w % n });
                // Seats 1 to `seats`, and sometimes one too far.
                let seat = |k: usize| k % (self.state.seats() + 1);
                let command = match cmd {
                    Cmd::Name(name) => Command::Name(cmd::Name { name: name.into() }),
                    Cmd::Sit(k) => Command::Sit(cmd::Sit { seat: seat(k) }),
                    Cmd::Stand => Command::Stand,
                    Cmd::Start(seats) => start(if seats { Order::Seats } else { Order::Random }),
                    Cmd::Resign => Command::Resign(cmd::Resign { table: None }),
                    Cmd::Options(i) => {
                        let (game, opts) = setup(i);
                        options(game, opts)
                    }
                    // Half the time the first free seat.
                    Cmd::Computer(..) if !self.computers => Command::Ping,
                    Cmd::Computer(k, level) => Command::Computer(cmd::Computer {
                        seat: (0..self.state.seats())
                            .find(|&s| {
                                k % 2 == 0 && self.state.members.iter().all(|m| m.seat != Some(s))
                            })
                            .unwrap_or_else(|| seat(k / 2)),
                        level,
                    }),
                    Cmd::Chat(text) => Command::Chat(cmd::Chat { text: text.into() }),
                    Cmd::Countdown(paused) => Command::Countdown(cmd::PauseCountdown { paused }),
                    Cmd::Autostart(enabled) => Command::Autostart(cmd::Autostart { enabled }),
                    Cmd::Ping => Command::Ping,
                    Cmd::Draw(a) => Command::Draw(cmd::Draw {
                        action: [DrawAction::Offer, DrawAction::Accept, DrawAction::Decline]
                            [usize::from(a % 3)],
                        table: None,
                    }),
                    Cmd::Takeback(a) => Command::Takeback(cmd::Takeback {
                        action: [DrawAction::Offer, DrawAction::Accept, DrawAction::Decline]
                            [usize::from(a % 3)],
                        table: None,
                    }),
                    Cmd::Claim(win) => Command::Claim(cmd::Claim {
                        action: if win {
                            crate::protocol::ClaimAction::Win
                        } else {
                            crate::protocol::ClaimAction::Draw
                        },
                        table: None,
                    }),
                    Cmd::Host(k) => Command::Host(cmd::GiveHost {
                        member: self.id(k % n),
                    }),
                    Cmd::Rematch => Command::Rematch,
                    Cmd::Hint => Command::Hint,
                    Cmd::Unseat(k) => Command::Unseat(cmd::Unseat {
                        member: self.id(k % n),
                    }),
                    Cmd::Remove(k) => Command::Remove(cmd::Remove {
                        member: self.id(k % n),
                    }),
                    Cmd::Readmit(k) => Command::Readmit(cmd::Readmit {
                        member: self.id(k % n),
                    }),
                    Cmd::Voice(join) => Command::Voice(cmd::JoinVoice { join }),
                    Cmd::Mute(muted) => Command::Mute(cmd::Mute { muted }),
                    Cmd::VoiceMute(k, muted) => Command::VoiceMute(cmd::VoiceMute {
                        member: self.id(k % n),
                        muted,
                    }),
                };
                self.apply(member, command);
            }
            Act::Tick(ms) => {
                self.now += ms;
                for _ in 0..100 {
                    let Some((at, timer)) = self.state.next_deadline() else {
                        break;
                    };
                    if at > self.now {
                        break;
                    }
                    let effects = self.state.fire(timer, self.now);
                    assert!(!effects.is_empty(), "a timer that is due acts: {timer:?}");
                    self.took(&effects);
                }
                assert!(
                    self.state
                        .next_deadline()
                        .is_none_or(|(at, _)| at > self.now),
                    "timers keep firing"
                );
            }
            Act::Stray(k) => {
                let table = self.state.tables[0].id;
                let side = Side((k % 4) as u8);
                let timer = [
                    Timer::Clock(table),
                    Timer::Abandon(table, side),
                    Timer::TurnPass(table, side),
                    Timer::Countdown,
                    Timer::Clock(TableId::new()),
                ][k % 5];
                let due = self
                    .state
                    .deadlines()
                    .iter()
                    .any(|&(at, t)| t == timer && at <= now);
                let before = fingerprint(&self.state, MemberId(0), now);
                let effects = self.state.fire(timer, now);
                if due {
                    self.took(&effects);
                } else {
                    assert!(effects.is_empty());
                    assert_eq!(fingerprint(&self.state, MemberId(0), now), before);
                }
            }
            Act::Bot(pick, junk, stale) => {
                let table = self.state.tables[0].id;
                let Some(think) = self.state.tables[0].thinking else {
                    return;
                };
                let game = &current(&self.state).game;
                let legal = game.legal_moves();
                let result = match (pick, junk) {
                    (_, true) => Some(foreign_move(game)),
                    (Some(k), false) => Some(legal[k % legal.len()]),
                    (None, false) => None,
                };
                let before = fingerprint(&self.state, MemberId(0), now);
                let effects = self
                    .state
                    .bot_move(table, think + u64::from(stale), result, now);
                if stale {
                    assert!(effects.is_empty());
                    assert_eq!(fingerprint(&self.state, MemberId(0), now), before);
                } else {
                    assert!(!effects.is_empty(), "the awaited search moves");
                    self.took(&effects);
                }
            }
        }
    }

    pub fn check(&self) {
        let state = &self.state;
        let mut seats: Vec<usize> = state.members.iter().filter_map(|m| m.seat).collect();
        seats.sort_unstable();
        let count = seats.len();
        seats.dedup();
        assert_eq!(seats.len(), count, "one member per seat");
        assert!(seats.iter().all(|&s| s < state.seats()), "seats exist");
        let mut ids: Vec<MemberId> = state.members.iter().map(|m| m.id).collect();
        ids.sort_unstable();
        ids.dedup();
        assert_eq!(ids.len(), state.members.len(), "member ids are unique");
        assert!(ids.iter().all(|id| id.0 < state.next_member));
        for m in state.members.iter().filter(|m| m.removed) {
            assert!(m.seat.is_none() && m.conns == 0, "a removed member is out");
            assert!(!m.host && m.computer.is_none());
        }
        for (member, table, game) in state.hints_in_flight() {
            let t = state.tables.iter().find(|t| t.id == table);
            let m = t.and_then(|t| t.running()).filter(|m| m.id == game);
            assert!(m.is_some(), "{member}'s hint search is for a running game");
        }
        let speakers = state.voice.iter().filter(|v| v.speaker).count();
        assert!(speakers <= 8);
        for v in &state.voice {
            let m = state.member(v.member).expect("voice is for members");
            assert!(m.conns > 0 && !m.removed, "only open pages are in voice");
            assert!(
                m.name.is_some() || m.account.is_some(),
                "only named members"
            );
            assert!(!(v.host_muted && v.speaker), "a host-muted member listens");
            // A free place never waits while someone could take it.
            assert!(v.speaker || v.host_muted || speakers == 8);
        }
        if let Some(m) = state.tables[0].running() {
            assert!(state.rematch.is_empty(), "no rematch pending during a game");
            if let Some(offerer) = m.draw.standing {
                assert!(m.game.draw_by_agreement() && offerer.index() < 2);
            }
        }
        assert_eq!(state.tables.len(), 1);
        let table = &state.tables[0];
        match table.running() {
            Some(m) => {
                assert!(state.countdown.is_none(), "no countdown while a game runs");
                assert_eq!(m.sides.len(), m.game.sides());
                for p in m.sides.iter().flatten() {
                    assert!(state.member(p.member).is_some(), "players stay members");
                    assert_eq!(
                        m.sides
                            .iter()
                            .flatten()
                            .filter(|q| q.member == p.member)
                            .count(),
                        1
                    );
                }
                let due = m.due().expect("someone is due");
                assert_eq!(
                    table.thinking.is_some(),
                    due.computer.is_some(),
                    "the computer thinks when it is due"
                );
                assert_eq!(self.logs[&m.id], m.entries);
            }
            None => assert_eq!(table.thinking, None),
        }
        for row in &state.scores {
            assert!(row.wins + row.draws + row.losses > 0);
        }
    }
}
