//! `restore`: a room brought back from the writes it produced is the room
//! it was, its clocks charge nobody for the time it was away, and its
//! game goes on.

use rules::{Level, Side, TimeControl};

use super::game::Recorded;
use super::*;

/// Everything stored about a room is the same in `b` (restored at `at_b`)
/// as in `a` (as of `at_a`, its game's last change). The countdown is not
/// stored; a per-move timer gives the side to move a fresh turn.
pub fn assert_same_room(a: &RoomState, at_a: u64, b: &RoomState, at_b: u64) {
    assert_eq!(
        (&b.code, &b.options, b.seating, &b.host, b.autostart),
        (&a.code, &a.options, a.seating, &a.host, a.autostart)
    );
    assert_eq!(b.games_played, a.games_played);
    // Watchers are not stored: the restored room has the kept members,
    // and hands out ids after theirs (a forgotten watcher's may come
    // again).
    let rows = |s: &RoomState| {
        s.members
            .iter()
            .filter(|m| m.stored)
            .map(Member::row)
            .collect::<Vec<_>>()
    };
    assert_eq!(rows(b), rows(a), "members, seats, host, names, accounts");
    assert!(b.next_member <= a.next_member);
    assert!(b.members.iter().all(|m| m.id.0 < b.next_member));
    let mut scores = (a.scores.clone(), b.scores.clone());
    scores.0.sort_by_key(|r| r.person.key());
    scores.1.sort_by_key(|r| r.person.key());
    assert_eq!(scores.1, scores.0);
    assert_eq!(b.chat, a.chat);
    let tables = |s: &RoomState| s.tables.iter().map(|t| t.id).collect::<Vec<_>>();
    assert_eq!(tables(b), tables(a));
    for (ta, tb) in a.tables.iter().zip(&b.tables) {
        let (Some(ma), Some(mb)) = (ta.running(), tb.running()) else {
            assert_eq!(ta.running().is_some(), tb.running().is_some());
            continue;
        };
        assert_eq!(
            (mb.id, mb.number, mb.order, mb.started_at),
            (ma.id, ma.number, ma.order, ma.started_at)
        );
        assert_eq!(
            (&mb.sides, &mb.turn, &mb.gone, &mb.leaves),
            (&ma.sides, &ma.turn, &ma.gone, &ma.leaves)
        );
        assert_eq!(
            (&mb.moves, &mb.move_sides, mb.entries),
            (&ma.moves, &ma.move_sides, ma.entries)
        );
        assert_eq!(mb.options, ma.options);
        assert_eq!(
            serde_json::to_value(&mb.game).unwrap(),
            serde_json::to_value(&ma.game).unwrap(),
            "the position"
        );
        assert_eq!(mb.game.legal(), ma.game.legal());
        assert_eq!(mb.clock.running(), ma.clock.running());
        let mut left = ma.clock.all_remaining(at_a);
        if let (TimeControl::PerMove { seconds }, Some(side)) =
            (mb.clock.control(), mb.clock.running())
        {
            left[side.index()] = u64::from(seconds) * 1_000;
        }
        assert_eq!(
            mb.clock.all_remaining(at_b),
            left,
            "the time left as of the last change: the downtime is charged to nobody"
        );
    }
}

#[test]
fn a_restored_room_is_the_room_it_stored_and_its_game_goes_on() {
    let mut room = Recorded::new(super::room(GameKind::CrossyRay, crossy_clock()));
    let account = AccountRef {
        id: 9,
        username: "lan".into(),
        display_name: "Lan".into(),
    };
    let host = room.hello(greeting(HOST, Some("Minh"), None), 0);
    let guest = room.hello(greeting(&token(1), None, Some(account.clone())), 0);
    let watcher = room.hello(greeting(&token(2), Some("Hoa"), None), 0);
    room.ok(host, sit(0), 0);
    room.ok(guest, sit(1), 0);
    room.ok(
        host,
        Command::Autostart(cmd::Autostart { enabled: false }),
        0,
    );
    // A first game, for the scoreboard; then some chat.
    room.ok(host, start(Order::Seats), 1_000);
    for text in CROSSY_LINE {
        room.play(text, 2_000);
    }
    for i in 0..3 {
        let text = format!("line {i}");
        room.ok(watcher, Command::Chat(cmd::Chat { text }), 3_000 + i);
    }
    // The second game stops after two moves.
    room.ok(host, start(Order::Random), 10_000);
    room.play("f4", 20_000);
    room.play("h4", 35_000);
    let m = current(&room.state);
    assert_eq!(m.clock.all_remaining(35_000), [172_000, 167_000]);
    assert_eq!(m.entries, 2);

    let later = 5_000_000;
    let (mut state, effects) = RoomState::restore(room.store.saved(), config(), later);
    assert!(effects.is_empty(), "nobody to think for");
    assert_same_room(&room.state, 35_000, &state, later);
    assert_eq!(state.scores.len(), 2);
    assert_eq!(state.chat.len(), 3);
    // Everyone is offline until they come back; the clock runs from now.
    assert!(state
        .members
        .iter()
        .all(|m| m.conns == 0 && m.offline_since == Some(later)));
    let table = state.tables[0].id;
    assert!(state
        .deadlines()
        .contains(&(later + 172_000, Timer::Clock(table))));

    // The same browsers are the same members; the host is the host.
    let (back, _) = join_as(&mut state, greeting(HOST, None, None), later + 1);
    assert_eq!(back, host);
    assert!(member(&state, host).host);
    let (lan, _) = join_as(
        &mut state,
        greeting(&token(1), None, Some(account)),
        later + 1,
    );
    assert_eq!(lan, guest);
    assert_eq!(member(&state, lan).name.as_deref(), Some("Lan"));
    let newcomer = join(&mut state, &token(3), Some("Vy"), later + 1);
    assert_eq!(newcomer, MemberId(4), "ids go on where they stopped");

    // The game goes on to its end and is stored as finished.
    let mut store = room.store;
    let side0 = current(&state).sides[0][0].member;
    for text in &CROSSY_LINE[2..] {
        let due = current(&state).due().unwrap().member;
        let effects = ok(&mut state, due, mv(text), later + 10_000);
        store.apply(&effects);
    }
    let m = current(&state);
    assert_eq!(m.moves, CROSSY_LINE);
    assert_eq!(m.game.outcome().unwrap().winner(), Some(Side(0)));
    assert_eq!(store.live.len(), 1, "the last game stays on show");
    assert_eq!(store.finished.len(), 2);
    assert_eq!(store.finished[1].moves, CROSSY_LINE);
    let wins = |id| {
        state
            .scores
            .iter()
            .find(|r| r.person == state.person_of(id))
            .unwrap()
            .wins
    };
    assert_eq!(wins(side0), if side0 == host { 2 } else { 1 });
    assert_eq!(wins(host) + wins(guest), 2);
}

#[test]
fn a_restored_team_game_keeps_its_rotation_and_a_fresh_turn() {
    let config = RoomConfig {
        abandon_after_ms: 10_000,
        ..config()
    };
    let mut room = Recorded::new(room_with(
        GameKind::Quoridor,
        json!({"mode": "teams"}),
        config.clone(),
    ));
    let host = room.hello(greeting(HOST, Some("Minh"), None), 0);
    let mate = room.hello(greeting(&token(1), Some("Lan"), None), 0);
    let other = room.hello(greeting(&token(2), Some("Hoa"), None), 0);
    room.ok(host, sit(0), 0);
    room.ok(mate, sit(1), 0);
    room.ok(other, sit(4), 0);
    room.ok(host, start(Order::Seats), 0);
    room.play("e2", 1_000);
    room.play("e8", 2_000);
    assert_eq!(current(&room.state).due().unwrap().member, mate);
    room.state.disconnect(mate, 3_000);
    let table = room.state.tables[0].id;
    let effects = room.fire(Timer::TurnPass(table, Side(0)), 13_000);
    assert_eq!(entries(&effects)[0].entry, Entry::Turn);
    assert_eq!(current(&room.state).turn, [0, 0]);
    assert_eq!(current(&room.state).entries, 3);

    let later = 900_000;
    let (state, _) = RoomState::restore(room.store.saved(), config, later);
    let m = current(&state);
    assert_eq!(
        (m.turn.clone(), m.entries, m.moves.clone()),
        (vec![0, 0], 3, vec!["e2".to_string(), "e8".to_string()])
    );
    assert_eq!(m.due().unwrap().member, host);
    assert_eq!(
        m.clock.all_remaining(later),
        [30_000, 29_000],
        "a fresh turn"
    );
    assert_eq!(
        state.next_deadline(),
        Some((later + 10_000, Timer::Abandon(table, Side(0))))
    );
}

#[test]
fn a_restored_room_asks_the_computer_to_move() {
    let mut room = Recorded::new(super::room(GameKind::Jungle, Value::Null));
    let host = room.hello(greeting(HOST, Some("Minh"), None), 0);
    room.ok(host, sit(1), 0);
    room.ok(
        host,
        Command::Computer(cmd::Computer {
            seat: 0,
            level: Some(Level::Professional),
        }),
        0,
    );
    let effects = room.ok(host, start(Order::Seats), 0);
    assert_eq!(tags(&effects).last().unwrap(), "think");

    let (mut state, effects) = RoomState::restore(room.store.saved(), config(), 100_000);
    let table = state.tables[0].id;
    let [Effect::Think {
        think,
        level,
        table: t,
        ..
    }] = &effects[..]
    else {
        panic!("{:?}", tags(&effects))
    };
    assert_eq!((*level, *t), (Level::Professional, table));
    assert_eq!(state.tables[0].thinking, Some(*think));
    let bot = current(&state).sides[0][0].member;
    assert!(
        member(&state, bot).online(),
        "the computer is never offline"
    );
    let effects = state.bot_move(table, *think, None, 100_001);
    assert_eq!(tags(&effects), ["store:entry", "send:match/move"]);
    assert_eq!(current(&state).due().unwrap().member, host);
}

#[test]
fn a_stored_game_that_no_longer_replays_is_dropped() {
    let (state, host, _) = two_seated(GameKind::Jungle, Value::Null, 0);
    let mut room = Recorded::new(state);
    // The seats were taken before the store was watching: store them.
    for m in &room.state.members {
        room.store.members.push(m.row());
    }
    room.ok(host, start(Order::Seats), 0);
    room.play("8 a3-a4", 1);
    let mut saved = room.store.saved();
    assert!(RoomState::restore(saved.clone(), config(), 10).0.tables[0]
        .current
        .is_some());
    saved.live[0].1[0].entry = Entry::Move {
        side: Side(0),
        notation: "8 a3-a9".into(),
    };
    let (state, effects) = RoomState::restore(saved, config(), 10);
    assert!(effects.is_empty());
    assert!(state.tables[0].current.is_none());
    assert_eq!(state.games_played, 1);
    assert_eq!(state.members.len(), 2);
}
