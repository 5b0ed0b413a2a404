//! Whole games move by move, the scoreboard, the computer, and bringing
//! a stored room back with `restore`.

use rules::{EndReason, Level, Outcome, Side};

use super::*;

/// A room whose every write goes to a [`Store`], and whose versions are
/// checked across calls.
pub struct Recorded {
    pub state: RoomState,
    pub store: Store,
}

impl Recorded {
    pub fn new(state: RoomState) -> Recorded {
        let store = Store::new(&state);
        Recorded { state, store }
    }

    pub fn hello(&mut self, hello: Hello, now: u64) -> MemberId {
        let (id, effects) = join_as(&mut self.state, hello, now);
        self.store.apply(&effects);
        id
    }

    pub fn ok(&mut self, member: MemberId, command: Command, now: u64) -> Vec<Effect> {
        let effects = ok(&mut self.state, member, command, now);
        self.store.apply(&effects);
        effects
    }

    pub fn fire(&mut self, timer: Timer, now: u64) -> Vec<Effect> {
        let before = self.state.version;
        let effects = self.state.fire(timer, now);
        check_versions(before, &effects, &self.state);
        self.store.apply(&effects);
        effects
    }

    /// The member due to move plays `text`.
    pub fn play(&mut self, text: &str, now: u64) -> Vec<Effect> {
        let due = current(&self.state).due().expect("someone to move").member;
        self.ok(due, mv(text), now)
    }
}

/// A small deterministic generator (xorshift), to pick legal moves.
struct Pick(u64);

impl Pick {
    fn next(&mut self, n: usize) -> usize {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as usize
    }
}

#[test]
fn a_crossyray_game_is_played_to_the_end_move_by_move() {
    for seed in 1..=20u64 {
        let (state, host, guest) = two_seated(GameKind::CrossyRay, Value::Null, 0);
        let mut room = Recorded::new(state);
        let mut pick = Pick(seed.wrapping_mul(0x9E37_79B9_7F4A_7C15));
        let start_effects = room.ok(host, start(Order::Seats), 100);
        let game = current(&room.state).id;
        let mut v = sent(&start_effects)[0]["v"].as_u64().unwrap();
        let mut played = Vec::new();
        let mut last = Vec::new();
        while current(&room.state).is_running() {
            let legal = current(&room.state).game.legal();
            assert!(!legal.is_empty());
            let text = legal[pick.next(legal.len())].clone();
            let now = 1_000 + played.len() as u64;
            last = room.play(&text, now);
            let events = sent(&last);
            assert_eq!(events[0]["v"], v + 1, "each move is the next version");
            assert_eq!(events[0]["move"], json!(text));
            v = room.state.version;
            let rows = entries(&last);
            assert_eq!(rows.len(), 1);
            assert_eq!((rows[0].game, rows[0].seq), (game, played.len() as u32));
            played.push(text);
            assert!(played.len() <= 63, "a CrossyRay board fills up");
        }
        let m = current(&room.state);
        assert_eq!(m.moves, played);
        assert_eq!(m.entries as usize, played.len());
        let outcome = m.game.outcome().unwrap();
        let end = tags(&last);
        assert!(end.contains(&"store:game_ended".to_string()), "{end:?}");
        assert_eq!(end.last().unwrap(), "send:autostart");
        // The finished game stays on show until the table's next game.
        assert!(room.store.live.iter().all(|(g, _)| g.id == m.id));
        let finished = &room.store.finished[0];
        assert_eq!(
            (finished.moves.clone(), finished.outcome.clone()),
            (played.clone(), outcome.clone())
        );
        assert_eq!(finished.players, ["Minh", "Lan"]);
        // A row per player; the winner has a point.
        assert_eq!(room.store.scores.len(), 2);
        let row = |id| {
            room.state
                .scores
                .iter()
                .find(|r| r.person == Person::Member(id))
                .unwrap()
        };
        let (h, g) = (row(host), row(guest));
        match outcome.winner() {
            Some(Side(0)) => assert_eq!((h.wins, h.points, g.losses, g.points), (1, 1, 1, 0)),
            Some(_) => assert_eq!((g.wins, g.points, h.losses, h.points), (1, 1, 1, 0)),
            None => assert_eq!((h.draws, g.draws), (1, 1)),
        }
        assert_eq!(room.store.scores, room.state.scores);
        assert_eq!(
            room.state.countdown,
            Some(Countdown::Running {
                at_ms: 1_000 + played.len() as u64 - 1 + 30_000
            })
        );
    }
}

#[test]
fn two_guests_with_one_name_keep_two_rows_and_an_account_keeps_one() {
    let mut state = room(GameKind::CrossyRay, Value::Null);
    let host = join(&mut state, HOST, Some("Minh"), 0);
    let twin = join(&mut state, &token(1), Some("Minh"), 0);
    ok(&mut state, host, sit(0), 0);
    ok(&mut state, twin, sit(1), 0);
    let play_line = |state: &mut RoomState, now| {
        ok(state, host, start(Order::Seats), now);
        let mut effects = Vec::new();
        for text in CROSSY_LINE {
            let due = current(state).due().unwrap().member;
            effects = ok(state, due, mv(text), now);
        }
        effects
    };
    let effects = play_line(&mut state, 0);
    let rows: Vec<ScoreRow> = writes(&effects)
        .into_iter()
        .filter_map(|w| match w {
            Write::Score(row) => Some(row.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(rows.len(), 2);
    assert_eq!(
        (rows[0].person.clone(), rows[0].name.as_str(), rows[0].wins),
        (Person::Member(host), "Minh", 1)
    );
    assert_eq!(
        (
            rows[1].person.clone(),
            rows[1].name.as_str(),
            rows[1].losses
        ),
        (Person::Member(twin), "Minh", 1)
    );
    let board = &sent(&effects)[1]["scores"];
    assert_eq!(
        *board,
        json!([
            {"name": "Minh", "member": "m1", "account": null, "points": 1, "wins": 1, "draws": 0, "losses": 0},
            {"name": "Minh", "member": "m2", "account": null, "points": 0, "wins": 0, "draws": 0, "losses": 1}
        ])
    );

    // A signed-in player's row is the account's, whichever browser.
    let account = AccountRef {
        id: 42,
        username: "lan".into(),
        display_name: "Lan".into(),
    };
    ok(&mut state, twin, Command::Stand, 1);
    for (i, t) in [token(2), token(3)].iter().enumerate() {
        let (id, _) = join_as(&mut state, greeting(t, None, Some(account.clone())), 1);
        ok(&mut state, id, sit(1), 1);
        let effects = play_line(&mut state, 10 + i as u64);
        let mine: Vec<&ScoreRow> = writes(&effects)
            .into_iter()
            .filter_map(|w| match w {
                Write::Score(row) if row.person == Person::Account(42) => Some(row),
                _ => None,
            })
            .collect();
        assert_eq!(mine.len(), 1);
        assert_eq!(
            (mine[0].account.as_deref(), mine[0].losses),
            (Some("lan"), i as u32 + 1)
        );
        ok(&mut state, id, Command::Stand, 20);
    }
    assert_eq!(state.scores.len(), 3);
    let view = state.scores_view();
    assert_eq!((view[0].name.as_str(), view[0].wins), ("Minh", 3));
    let lan = view
        .iter()
        .find(|r| r.account.as_deref() == Some("lan"))
        .unwrap();
    assert_eq!((lan.member, lan.losses), (None, 2));
}

#[test]
fn the_computers_search_counts_against_its_person_from_their_latest_page() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let account = AccountRef {
        id: 42,
        username: "minh".into(),
        display_name: "Minh".into(),
    };
    let first: std::net::IpAddr = "203.0.113.1".parse().unwrap();
    let mut hello = greeting(HOST, Some("Minh"), Some(account));
    hello.addr = Some(first);
    let (host, _) = join_as(&mut state, hello.clone(), 0);
    ok(&mut state, host, sit(1), 0);
    let computer = Command::Computer(cmd::Computer {
        seat: 0,
        level: Some(Level::Amateur),
    });
    ok(&mut state, host, computer, 0);
    let client_of = |effects: &[Effect]| match effects.last() {
        Some(Effect::Think { client, .. }) => *client,
        _ => panic!("no search: {:?}", tags(effects)),
    };
    let effects = ok(&mut state, host, start(Order::Seats), 0);
    let expected = crate::bots::SearchClient {
        addr: Some(first),
        account: Some(42),
    };
    assert_eq!(client_of(&effects), expected);
    // The same member's page from another address: its searches count
    // there from now on.
    let moved: std::net::IpAddr = "198.51.100.7".parse().unwrap();
    hello.addr = Some(moved);
    join_as(&mut state, hello, 1);
    let table = state.tables[0].id;
    let think = state.tables[0].thinking.unwrap();
    // (A search that finds nothing plays the first legal move.)
    state.bot_move(table, think, None, 2);
    let answer = current(&state).game.legal()[0].clone();
    let effects = ok(&mut state, host, mv(&answer), 3);
    let expected = crate::bots::SearchClient {
        addr: Some(moved),
        account: Some(42),
    };
    assert_eq!(client_of(&effects), expected);
}

#[test]
fn the_computer_thinks_when_it_is_to_move_and_only_its_search_counts() {
    let mut state = room(GameKind::Jungle, json!({"clock": [3, 2]}));
    let host = join(&mut state, HOST, Some("Minh"), 0);
    ok(&mut state, host, sit(1), 0);
    ok(
        &mut state,
        host,
        Command::Computer(cmd::Computer {
            seat: 0,
            level: Some(Level::Amateur),
        }),
        0,
    );
    let table = state.tables[0].id;
    let effects = ok(&mut state, host, start(Order::Seats), 0);
    assert_eq!(tags(&effects).last().unwrap(), "think");
    let Some(Effect::Think {
        table: t,
        think,
        level,
        budget_ms,
        game,
        among_computers,
        ..
    }) = effects.last()
    else {
        unreachable!()
    };
    assert_eq!((*t, *level, *budget_ms), (table, Level::Amateur, 2_000));
    assert!(!among_computers, "a person plays this game");
    assert_eq!(game.legal(), current(&state).game.legal());
    let think = *think;
    assert_eq!(state.tables[0].thinking, Some(think));
    assert_eq!(code(&mut state, host, mv("8 g7-g6"), 1), Code::NotYourTurn);

    // An answer to another search is ignored.
    let before = fingerprint(&state, host, 10);
    let read = |state: &RoomState, text: &str| current(state).game.parse_move(text).unwrap();
    let answer = read(&state, "8 a3-a4");
    assert!(state
        .bot_move(table, think + 1, Some(answer), 10)
        .is_empty());
    assert!(state
        .bot_move(TableId::new(), think, Some(answer), 10)
        .is_empty());
    assert_eq!(fingerprint(&state, host, 10), before);

    // The awaited search plays; a refused answer is replaced by the first
    // legal move.
    let first = current(&state).game.legal()[0].clone();
    let v = state.version;
    let refused = read(&state, "8 a3-a9");
    let effects = state.bot_move(table, think, Some(refused), 170_000);
    check_versions(v, &effects, &state);
    assert_eq!(tags(&effects), ["store:entry", "send:match/move"]);
    assert_eq!(current(&state).moves, [first]);
    assert_eq!(
        current(&state).clock.all_remaining(170_000),
        [12_000, 180_000]
    );
    assert_eq!(state.tables[0].thinking, None);
    assert!(
        state.bot_move(table, think, None, 170_001).is_empty(),
        "answered once"
    );

    // The host moves; the computer thinks again, within a tenth of its
    // time.
    let effects = ok(&mut state, host, mv("8 g7-g6"), 171_000);
    let Some(Effect::Think {
        think, budget_ms, ..
    }) = effects.last()
    else {
        panic!("{:?}", tags(&effects))
    };
    assert_eq!(*budget_ms, 1_200, "a tenth of the 12 s left");
    // A search that finds nothing plays the first legal move.
    let first = current(&state).game.legal()[0].clone();
    let effects = state.bot_move(table, *think, None, 172_000);
    assert_eq!(tags(&effects), ["store:entry", "send:match/move"]);
    assert_eq!(current(&state).moves.last(), Some(&first));

    // Resigning while it thinks stops its search.
    let reply = current(&state).game.legal()[0].clone();
    let effects = ok(&mut state, host, mv(&reply), 173_000);
    assert_eq!(tags(&effects).last().unwrap(), "think");
    let effects = ok(
        &mut state,
        host,
        Command::Resign(cmd::Resign { table: None }),
        173_001,
    );
    assert_eq!(tags(&effects).last().unwrap(), "stop");
    assert_eq!(state.tables[0].thinking, None);
    assert_eq!(
        current(&state).game.outcome().cloned(),
        Some(Outcome::Win {
            winner: Side(0),
            reason: EndReason::Resign
        })
    );
}
