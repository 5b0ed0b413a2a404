//! The one transition, end to end: random games of every game and mode
//! (single, free-for-all of 3 and 4 pawns, Quoridor's centre race, teams,
//! knockout matches), with timeouts, resignations, agreed draws and
//! players who go offline (the abandon timer forfeits their side; in a
//! team game the turn passes to a teammate) mixed in where the game has
//! them, played live on a [`RoomState`] whose writes go to a real SQLite
//! store. At every step the room brought back from that store holds the
//! same game; once the game is over, the replay of the stored record and
//! the import of its export give the position live play had at every ply.
//!
//! A replay knows moves and leaves only: an agreed draw or a lost timeout
//! ends the game without a ply, so the positions compared are those after
//! each move and each leave.

use proptest::prelude::*;
use rules::{EndReason, Side};

use super::*;
use crate::history::export::{export, import};
use crate::history::replay::positions;
use crate::store::Store as Db;

/// A game and mode, its options and how many people sit down (at which
/// seats).
fn setups() -> Vec<(GameKind, Value, Vec<usize>)> {
    let clock = json!({"mode": "single", "clock": {"minutes": 3, "increment": 2}});
    vec![
        (GameKind::CrossyRay, clock.clone(), vec![0, 1]),
        (
            GameKind::CrossyRay,
            json!({"mode": "knockout"}),
            vec![0, 1, 2],
        ),
        (
            GameKind::Jungle,
            json!({"mode": "single", "clock": [3, 2]}),
            vec![0, 1],
        ),
        (GameKind::Jungle, json!({"mode": "single"}), vec![0, 1]),
        (GameKind::Jungle, json!({"mode": "knockout"}), vec![0, 1, 2]),
        (
            GameKind::Quoridor,
            json!({"mode": "ffa", "players": 2}),
            vec![0, 1],
        ),
        (
            GameKind::Quoridor,
            json!({"mode": "ffa", "players": 4}),
            vec![0, 1, 2],
        ),
        (
            GameKind::Quoridor,
            json!({"mode": "ffa", "players": 4}),
            vec![0, 1, 2, 3],
        ),
        (GameKind::Quoridor, json!({"mode": "teams"}), vec![0, 1, 4]),
        (
            GameKind::Quoridor,
            json!({"mode": "ffa", "goal": "centre", "players": 2}),
            vec![0, 1],
        ),
        (
            GameKind::Quoridor,
            json!({"mode": "ffa", "goal": "centre", "players": 4}),
            vec![0, 1, 2, 3],
        ),
        (
            GameKind::Quoridor,
            json!({"mode": "knockout"}),
            vec![0, 1, 2],
        ),
    ]
}

/// One thing that happens at the table; the numbers pick among what is
/// possible then.
#[derive(Clone, Debug)]
enum Act {
    Move(usize),
    Timeout,
    Resign(usize),
    Draw,
    /// A player goes offline, the abandon or turn-pass timer fires if it
    /// comes before the clock, and the player comes back.
    Away(usize),
}

fn act() -> impl Strategy<Value = Act> {
    prop_oneof![
        12 => any::<usize>().prop_map(Act::Move),
        2 => Just(Act::Timeout),
        1 => any::<usize>().prop_map(Act::Resign),
        1 => Just(Act::Draw),
        2 => any::<usize>().prop_map(Act::Away),
    ]
}

struct Table {
    state: RoomState,
    db: Db,
    rt: tokio::runtime::Runtime,
    now: u64,
    /// The position after each ply as live play had it.
    plies: Vec<Value>,
    /// Each person's browser token, to come back with.
    tokens: Vec<(MemberId, String)>,
    /// The abandon and turn-pass timers that changed the game.
    fired: Vec<Timer>,
}

impl Table {
    fn t(&self) -> usize {
        self.state
            .tables
            .iter()
            .position(|t| t.current.is_some())
            .expect("a table with a game")
    }

    fn m(&self) -> &Match {
        self.state.tables[self.t()].current.as_ref().unwrap()
    }

    fn store(&mut self, effects: &[Effect]) {
        let writes: Vec<Write> = writes(effects).into_iter().cloned().collect();
        let code = self.state.code.clone();
        self.rt.block_on(self.db.write(&code, writes)).unwrap();
    }

    fn command(&mut self, member: MemberId, command: Command) -> bool {
        self.now += 1_000;
        match self.state.apply(member, command, self.now) {
            Ok(effects) => {
                self.store(&effects);
                true
            }
            Err(_) => false,
        }
    }

    /// The members still playing the current game.
    fn players(&self) -> Vec<MemberId> {
        let m = self.m();
        (0..m.sides.len())
            .filter(|&s| !m.gone[s])
            .flat_map(|s| m.sides[s].iter().map(|p| p.member))
            .collect()
    }

    /// `member` goes offline; the first of this table's timers fires if
    /// it is an abandon or a turn pass; `member` comes back. Returns
    /// whether the game changed.
    fn away(&mut self, member: MemberId) -> bool {
        let id = self.state.tables[self.t()].id;
        self.now += 1_000;
        let effects = self.state.disconnect(member, self.now);
        self.store(&effects);
        let first = self
            .state
            .deadlines()
            .into_iter()
            .filter(|(_, timer)| match *timer {
                Timer::Clock(t) | Timer::Abandon(t, _) | Timer::TurnPass(t, _) => t == id,
                _ => false,
            })
            .min_by_key(|(at, _)| *at);
        let mut changed = false;
        if let Some((at, timer @ (Timer::Abandon(..) | Timer::TurnPass(..)))) = first {
            self.now = self.now.max(at);
            let effects = self.state.fire(timer, self.now);
            self.store(&effects);
            changed = !effects.is_empty();
            if changed {
                self.fired.push(timer);
            }
        }
        let token = self
            .tokens
            .iter()
            .find(|(m, _)| *m == member)
            .unwrap()
            .1
            .clone();
        self.now += 1_000;
        let (back, effects) = self
            .state
            .hello(greeting(&token, None, None), self.now)
            .unwrap();
        assert_eq!(back, member, "the same member comes back");
        self.store(&effects);
        changed
    }

    /// Plays one act; returns whether it changed the game.
    fn play(&mut self, act: &Act) -> bool {
        let m = self.m();
        let table = Some(self.state.tables[self.t()].id);
        match *act {
            Act::Move(k) => {
                let legal = m.game.legal();
                let due = m.due().expect("someone is due").member;
                let mv = legal[k % legal.len()].clone();
                assert!(self.command(
                    due,
                    Command::Move(cmd::Move {
                        mv,
                        table,
                        lag_ms: 0
                    })
                ));
                true
            }
            Act::Timeout => {
                let id = self.state.tables[self.t()].id;
                let Some(at) = self
                    .state
                    .deadlines()
                    .into_iter()
                    .find(|(_, timer)| *timer == Timer::Clock(id))
                    .map(|(at, _)| at)
                else {
                    return false;
                };
                self.now = self.now.max(at);
                let effects = self.state.fire(Timer::Clock(id), self.now);
                self.store(&effects);
                !effects.is_empty()
            }
            Act::Resign(k) => {
                let players = self.players();
                let member = players[k % players.len()];
                self.command(member, Command::Resign(cmd::Resign { table }))
            }
            Act::Away(k) => {
                let players = self.players();
                self.away(players[k % players.len()])
            }
            Act::Draw => {
                if !m.game.draw_by_agreement() {
                    return false;
                }
                let (a, b) = (m.sides[0][0].member, m.sides[1][0].member);
                let offer = Command::Draw(cmd::Draw {
                    action: DrawAction::Offer,
                    table,
                });
                let accept = Command::Draw(cmd::Draw {
                    action: DrawAction::Accept,
                    table,
                });
                self.command(a, offer) && self.command(b, accept)
            }
        }
    }

    /// Keeps the live position of the current ply: a move starts a ply,
    /// a leave changes the last one; an agreed draw or a lost timeout is
    /// no ply of the record.
    fn note_ply(&mut self) {
        let m = self.m();
        let view = m.game.replay_view();
        let ended_outside = m
            .game
            .outcome()
            .is_some_and(|o| matches!(o.reason(), EndReason::Agreement | EndReason::Timeout));
        if m.moves.len() + 1 > self.plies.len() {
            self.plies.push(view);
        } else if !ended_outside {
            *self.plies.last_mut().unwrap() = view;
        }
    }

    /// The room brought back from the store holds the same game.
    fn check_restore(&self) {
        let saved = self
            .rt
            .block_on(self.db.load_room(&self.state.code))
            .unwrap()
            .expect("the room is stored");
        let (back, _) = RoomState::restore(saved, config(), self.now);
        let (ma, t) = (self.m(), self.t());
        let mb = back.tables[t].current.as_ref().expect("the game is back");
        assert_eq!(
            (&mb.moves, &mb.move_sides, &mb.leaves, &mb.gone, mb.entries),
            (&ma.moves, &ma.move_sides, &ma.leaves, &ma.gone, ma.entries)
        );
        assert_eq!(
            serde_json::to_value(&mb.game).unwrap(),
            serde_json::to_value(&ma.game).unwrap(),
            "the restored position"
        );
    }
}

/// Plays `acts` in setup `setup` and checks every ply; returns the
/// abandon and turn-pass timers that changed the game.
fn run(setup: usize, acts: &[Act]) -> Vec<Timer> {
    let (kind, options, seats) = setups().swap_remove(setup % setups().len());
    let rt = tokio::runtime::Builder::new_multi_thread()
        .worker_threads(1)
        .enable_all()
        .build()
        .unwrap();
    let dir = tempfile::tempdir().unwrap();
    let db = rt.block_on(Db::open(None, dir.path())).unwrap();
    // A short grace time, so that an abandon often comes before a clock.
    let short = RoomConfig {
        abandon_after_ms: 5_000,
        ..config()
    };
    let state = room_with(kind, options, short);
    rt.block_on(db.insert_room(&state.row())).unwrap();
    let mut table = Table {
        state,
        db,
        rt,
        now: 1_000,
        plies: Vec::new(),
        tokens: Vec::new(),
        fired: Vec::new(),
    };
    let mut people = Vec::new();
    for (i, &seat) in seats.iter().enumerate() {
        let tok = if i == 0 { HOST.to_string() } else { token(i) };
        let (id, effects) = table
            .state
            .hello(greeting(&tok, Some(&format!("P{i}")), None), table.now)
            .unwrap();
        table.store(&effects);
        assert!(table.command(id, sit(seat)));
        people.push(id);
        table.tokens.push((id, tok));
    }
    table.now += 1_000;
    let effects = table
        .state
        .apply(people[0], start(Order::Seats), table.now)
        .unwrap_or_else(|r| panic!("start refused: {r:?}"));
    table.store(&effects);
    table.plies.push(table.m().game.replay_view());
    let game = table.m().id;
    for act in acts {
        if table.m().id != game || !table.m().is_running() {
            break;
        }
        if table.play(act) {
            if table.m().id != game {
                // A drawn knockout match is played again at once: the
                // game followed is over.
                break;
            }
            table.note_ply();
            if table.m().is_running() {
                table.check_restore();
            }
        }
    }
    // Whatever is left, the players resign until the game is over.
    let mut k = 0;
    while table.m().id == game && table.m().is_running() {
        table.play(&Act::Resign(k));
        table.note_ply();
        k += 1;
    }
    let id = game.to_string();
    let record = table
        .rt
        .block_on(table.db.game(&id))
        .unwrap()
        .expect("the finished game is stored");
    assert_eq!(
        record.moves.len() + 1,
        table.plies.len(),
        "the stored moves"
    );
    assert_eq!(
        positions(kind, &record.options, &record.moves, &record.leaves),
        table.plies,
        "the replay's positions"
    );
    let imported = import(&export(&record)).expect("the export imports");
    assert_eq!(imported.moves, record.moves);
    assert_eq!(
        serde_json::to_value(&imported.outcome).unwrap(),
        record.outcome
    );
    assert_eq!(imported.positions, table.plies, "the import's positions");
    table.fired
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 40, ..ProptestConfig::default() })]

    #[test]
    fn live_play_restore_replay_and_import_agree_at_every_ply(
        setup in 0usize..100,
        acts in proptest::collection::vec(act(), 0..40),
    ) {
        let _ = run(setup, &acts);
    }
}

#[test]
fn every_setup_plays_through() {
    let acts: Vec<Act> = (0..30)
        .map(|i| match i % 9 {
            4 => Act::Timeout,
            7 => Act::Draw,
            8 => Act::Away(i),
            _ => Act::Move(i * 7),
        })
        .collect();
    for setup in 0..setups().len() {
        let _ = run(setup, &acts);
    }
}

#[test]
fn a_player_away_passes_a_teams_turn_and_abandons_a_side() {
    let teams = setups()
        .iter()
        .position(|(kind, o, _)| *kind == GameKind::Quoridor && o["mode"] == "teams")
        .unwrap();
    // The host plays first for side 0 and goes away: the turn passes to
    // the teammate; later the other side's only player goes away for good.
    let fired = run(
        teams,
        &[Act::Away(0), Act::Move(0), Act::Move(1), Act::Away(2)],
    );
    assert!(
        matches!(
            fired[..],
            [Timer::TurnPass(_, Side(0)), Timer::Abandon(_, Side(1))]
        ),
        "{fired:?}"
    );
}
