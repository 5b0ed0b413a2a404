//! A knockout room driven through its state, and the scoreboard the rules expect.

use super::*;

// ---------------------------------------------------------------------
// The room running a tournament.

/// Quoridor knockout options; a game is drawn once each pawn made
/// `limit` moves.
pub(super) fn quoridor(limit: u16) -> Value {
    json!({"mode": "knockout", "move_limit": limit})
}

pub(super) fn browser(i: usize) -> String {
    if i == 0 {
        HOST.to_string()
    } else {
        token(i)
    }
}

/// A knockout room whose every write goes to a [`Store`]; `players[0]`
/// is the host. Commands are applied 10 ms apart.
pub(super) struct Cup {
    pub(super) state: RoomState,
    pub(super) store: Store,
    pub(super) players: Vec<MemberId>,
    pub(super) now: u64,
}

/// How a match is to go (a win: the loser resigns after a move each).
#[derive(Clone, Copy, Debug)]
pub(super) enum Plan {
    /// `players[i]` wins the first game.
    Win(usize),
    /// A draw, then `players[i]` wins the replay.
    DrawThenWin(usize),
    /// Two draws: the coin decides.
    Coin,
}

/// The scoreboard as the rules make it: per member, points, wins, draws
/// and losses.
#[derive(Clone, Debug, Default)]
pub(super) struct Tally(pub(super) BTreeMap<MemberId, [u32; 4]>);

impl Tally {
    pub(super) fn add(&mut self, member: MemberId, row: [u32; 4]) {
        let had = self.0.entry(member).or_default();
        for (h, r) in had.iter_mut().zip(row) {
            *h += r;
        }
    }

    /// The room's scoreboard (its rows and the view) is this one.
    pub(super) fn check(&self, state: &RoomState) {
        let rows: BTreeMap<MemberId, [u32; 4]> = state
            .scores
            .iter()
            .map(|r| match r.person {
                Person::Member(m) => (m, [r.points, r.wins, r.draws, r.losses]),
                Person::Account(_) => panic!("no accounts here"),
            })
            .collect();
        assert_eq!(rows, self.0, "the scoreboard");
        let view: BTreeMap<MemberId, [u32; 4]> = state
            .scores_view()
            .iter()
            .map(|v| (v.member.unwrap(), [v.points, v.wins, v.draws, v.losses]))
            .collect();
        assert_eq!(view, self.0, "the scoreboard as sent");
    }
}

impl Cup {
    /// `members` browsers "P1"… join, the first `seated` sit in seats 0….
    pub(super) fn new(kind: GameKind, opts: Value, members: usize, seated: usize) -> Cup {
        Cup::with_config(kind, opts, members, seated, config())
    }

    pub(super) fn with_config(
        kind: GameKind,
        opts: Value,
        members: usize,
        seated: usize,
        config: RoomConfig,
    ) -> Cup {
        let mut state = room_with(kind, opts, config);
        let mut store = Store::new(&state);
        let mut players = Vec::new();
        for i in 0..members {
            let name = format!("P{}", i + 1);
            let (id, effects) = join_as(&mut state, greeting(&browser(i), Some(&name), None), 0);
            store.apply(&effects);
            if i < seated {
                store.apply(&ok(&mut state, id, sit(i), 0));
            }
            players.push(id);
        }
        Cup {
            state,
            store,
            players,
            now: 1_000,
        }
    }

    pub(super) fn host(&self) -> MemberId {
        self.players[0]
    }

    pub(super) fn ok(&mut self, member: MemberId, command: Command) -> Vec<Effect> {
        self.now += 10;
        let effects = ok(&mut self.state, member, command, self.now);
        self.store.apply(&effects);
        effects
    }

    /// A refusal that changes nothing; its code.
    pub(super) fn code(&mut self, member: MemberId, command: Command) -> Code {
        code(&mut self.state, member, command, self.now)
    }

    pub(super) fn fire(&mut self, timer: Timer, now: u64) -> Vec<Effect> {
        self.now = self.now.max(now);
        let before = self.state.version;
        let effects = self.state.fire(timer, now);
        check_versions(before, &effects, &self.state);
        self.store.apply(&effects);
        effects
    }

    pub(super) fn disconnect(&mut self, member: MemberId) -> Vec<Effect> {
        self.now += 10;
        let effects = self.state.disconnect(member, self.now);
        self.store.apply(&effects);
        effects
    }

    pub(super) fn bracket(&self) -> &Bracket {
        self.state.tournament.as_ref().expect("a tournament")
    }

    pub(super) fn round(&self) -> Round {
        self.bracket().current().expect("a round").clone()
    }

    pub(super) fn pairing(&self, table: TableId) -> Pairing {
        self.bracket()
            .pairing_at(table)
            .expect("a match there")
            .clone()
    }

    /// Table `id`'s current (or last) game.
    pub(super) fn game(&self, id: TableId) -> &Match {
        self.state
            .tables
            .iter()
            .find(|t| t.id == id)
            .and_then(|t| t.current.as_ref())
            .expect("a game at the table")
    }

    /// Who plays side 0 and side 1 at table `id`.
    pub(super) fn sides_at(&self, id: TableId) -> [MemberId; 2] {
        let m = self.game(id);
        assert_eq!(m.sides.len(), 2, "a 1-v-1 game");
        assert!(m.sides.iter().all(|s| s.len() == 1), "one player a side");
        [m.sides[0][0].member, m.sides[1][0].member]
    }

    /// The player due at table `id` plays `text` there.
    pub(super) fn play(&mut self, id: TableId, text: &str) -> Vec<Effect> {
        let due = self.game(id).due().expect("someone to move").member;
        self.ok(
            due,
            Command::Move(cmd::Move {
                mv: text.to_string(),
                table: Some(id),
                lag_ms: 0,
            }),
        )
    }

    /// A drawn Quoridor game at table `id` (move limit 2): two steps a
    /// pawn, forward and back.
    pub(super) fn draw(&mut self, id: TableId) -> Vec<Effect> {
        let mut effects = Vec::new();
        for text in ["e2", "e8", "e1", "e9"] {
            effects = self.play(id, text);
        }
        let done = self.store.finished.last().expect("the game is stored");
        assert!(matches!(done.outcome, Outcome::Draw { .. }), "{done:?}");
        effects
    }

    pub(super) fn resign(&mut self, id: TableId, member: MemberId) -> Vec<Effect> {
        self.ok(member, Command::Resign(cmd::Resign { table: Some(id) }))
    }

    /// The round under way has just started: the bracket was sent, then a
    /// game at each match's own table with its first player moving first.
    pub(super) fn check_round_started(&self, effects: &[Effect]) {
        let round = self.round();
        assert_eq!(self.bracket().status, Status::Playing);
        let events = sent(effects);
        let bracket = serde_json::to_value(self.bracket()).unwrap();
        let at = events
            .iter()
            .position(|e| e["type"] == "tournament")
            .expect("the bracket is sent");
        assert_eq!(events[at]["tournament"], bracket);
        let starts: Vec<&Value> = events[at..]
            .iter()
            .filter(|e| e["type"] == "match" && e["kind"] == "start")
            .collect();
        assert_eq!(starts.len(), round.pairings.len());
        let tables: Vec<TableId> = self.state.tables.iter().map(|t| t.id).collect();
        let wanted: Vec<TableId> = round.pairings.iter().map(|p| p.table).collect();
        assert_eq!(tables, wanted, "a table per match, in bracket order");
        for (p, start) in round.pairings.iter().zip(starts) {
            assert_eq!(start["table"], json!(p.table));
            assert_eq!(start["match"]["players"][0]["member"], json!(p.players[0]));
            assert_eq!(self.sides_at(p.table), p.players);
            assert!(self.game(p.table).is_running());
            assert!(p.games.is_empty());
        }
        let stored = tags(effects);
        assert!(stored.contains(&"store:tournament".to_string()));
        assert_eq!(
            stored.iter().filter(|t| *t == "store:game_started").count(),
            round.pairings.len()
        );
        assert_eq!(self.store.tournament.as_ref(), Some(self.bracket()));
        assert_eq!(self.state.countdown, None);
    }

    /// Plays every match of the round under way by `plan`, in bracket
    /// order, and keeps `tally`. Returns the effects of the round's last
    /// result.
    pub(super) fn play_round(
        &mut self,
        tally: &mut Tally,
        plan: impl Fn(usize, &Pairing) -> Plan,
    ) -> Vec<Effect> {
        let round = self.round();
        assert_eq!(self.bracket().status, Status::Playing);
        let mut last = Vec::new();
        for (i, pairing) in round.pairings.iter().enumerate() {
            let id = pairing.table;
            let [a, b] = pairing.players;
            let plan = plan(i, pairing);
            let draws = match plan {
                Plan::Win(_) => 0,
                Plan::DrawThenWin(_) => 1,
                Plan::Coin => 2,
            };
            for g in 0..draws {
                let number = self.game(id).number;
                last = self.draw(id);
                if g == 0 {
                    // The replay: the same table, the other player first.
                    assert_eq!(self.pairing(id).games, [GameResult::Draw]);
                    assert!(self.game(id).is_running());
                    assert_eq!(self.sides_at(id), [b, a]);
                    assert!(self.game(id).number > number);
                    let events = sent(&last);
                    let restart = events
                        .iter()
                        .find(|e| e["type"] == "match" && e["kind"] == "start")
                        .expect("the replay starts");
                    assert_eq!(restart["table"], json!(id));
                    assert_eq!(restart["match"]["players"][0]["member"], json!(b));
                    assert!(
                        !tags(&last).contains(&"store:score".to_string()),
                        "a first draw scores nothing"
                    );
                }
            }
            match plan {
                Plan::Win(w) | Plan::DrawThenWin(w) => {
                    let (winner, loser) = (pairing.players[w], pairing.players[1 - w]);
                    self.play(id, "e2");
                    self.play(id, "e8");
                    last = self.resign(id, loser);
                    assert_eq!(self.pairing(id).state, PairingState::Won { winner });
                    tally.add(winner, [MATCH_POINTS, 1, 0, 0]);
                    tally.add(loser, [0, 0, 0, 1]);
                }
                Plan::Coin => {
                    let PairingState::CoinToss { winner } = self.pairing(id).state else {
                        panic!("two draws: the coin");
                    };
                    let events = sent(&last);
                    let toss = events
                        .iter()
                        .position(|e| e["type"] == "coin_toss")
                        .expect("the coin is shown");
                    assert_eq!(
                        events[toss],
                        json!({"type": "coin_toss", "v": events[toss]["v"], "table": id,
                               "players": [a, b], "winner": winner})
                    );
                    let bracket = events
                        .iter()
                        .position(|e| e["type"] == "tournament")
                        .expect("then the bracket");
                    assert!(toss < bracket);
                    tally.add(a, [0, 0, 1, 0]);
                    tally.add(b, [0, 0, 1, 0]);
                }
            }
            assert!(!self.game(id).is_running());
        }
        last
    }

    /// The round is over and the countdown runs: when it ends.
    pub(super) fn countdown_at(&self) -> u64 {
        assert_eq!(self.bracket().status, Status::BetweenRounds);
        match self.state.countdown {
            Some(Countdown::Running { at_ms }) => at_ms,
            other => panic!("the countdown should run: {other:?}"),
        }
    }

    /// Plays the tournament under way to its champion (starting each round
    /// by the countdown), every match by `plan`; adds the champion's
    /// bonus to `tally`.
    pub(super) fn play_to_the_end(
        &mut self,
        tally: &mut Tally,
        plan: impl Fn(u32, usize, &Pairing) -> Plan,
    ) -> MemberId {
        loop {
            let number = self.round().number;
            self.play_round(tally, |i, p| plan(number, i, p));
            if let Status::Finished { champion } = self.bracket().status {
                tally.add(champion, [CHAMPION_POINTS, 0, 0, 0]);
                assert_eq!(self.state.countdown, None, "no countdown after the final");
                return champion;
            }
            let at = self.countdown_at();
            assert!(self.fire(Timer::Countdown, at - 1).is_empty());
            let effects = self.fire(Timer::Countdown, at);
            assert_eq!(self.round().number, number + 1);
            self.check_round_started(&effects);
        }
    }
}

impl Cup {
    /// One turn at table `id`: the computer's (its search answers nothing,
    /// so the room plays the first legal move) or a person's first legal
    /// move.
    pub(super) fn turn(&mut self, id: TableId) -> Vec<Effect> {
        let m = self.game(id);
        let due = m.due().expect("someone to move").clone();
        if due.computer.is_none() {
            let text = m.game.legal()[0].clone();
            return self.play(id, &text);
        }
        let t = self.state.tables.iter().position(|t| t.id == id).unwrap();
        let think = self.state.tables[t]
            .thinking
            .expect("the computer thinks when it is due");
        // The game's own bot answers, at its level, in a few milliseconds.
        let level = due.computer.expect("the computer is due");
        let ask = rules::Think::uncancelled(level, std::time::Duration::from_millis(5), self.now);
        let answer = crate::bots::choose(&m.game, &ask);
        let mv = answer.as_ref().expect("a move while the game is on");
        assert!(m.game.legal_moves().contains(mv), "{mv} is legal");
        self.now += 10;
        let before = self.state.version;
        let effects = self.state.bot_move(id, think, answer, self.now);
        check_versions(before, &effects, &self.state);
        self.store.apply(&effects);
        effects
    }

    /// The member of the computer in the room.
    pub(super) fn computer(&self) -> MemberId {
        self.state
            .members
            .iter()
            .find(|m| m.computer.is_some())
            .expect("a computer")
            .id
    }

    /// Ends every match of the round under way with a person resigning
    /// (against the computer, the person; else the second player).
    pub(super) fn humans_resign(&mut self) {
        let bot = self.state.members.iter().find(|m| m.computer.is_some());
        let bot = bot.map(|m| m.id);
        for p in self.round().pairings {
            let loser = if p.players[1] == bot.unwrap_or(MemberId(0)) {
                p.players[0]
            } else {
                p.players[1]
            };
            self.resign(p.table, loser);
        }
    }
}
