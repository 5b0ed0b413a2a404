//! The players' commands: start, move, resign.

use rules::{EndReason, Outcome, Side};

use super::*;

#[test]
fn only_the_host_starts_and_only_when_every_seat_is_ready() {
    let mut state = room(GameKind::CrossyRay, Value::Null);
    let host = join(&mut state, HOST, Some("Minh"), 0);
    let guest = join(&mut state, &token(1), Some("Lan"), 0);
    ok(&mut state, host, sit(0), 0);
    assert_eq!(
        code(&mut state, guest, start(Order::Seats), 0),
        Code::NotHost
    );
    let empty = refused(&mut state, host, start(Order::Seats), 0);
    assert_eq!(empty.code, Code::NotReady);
    assert!(empty.message.contains("Seat 2"), "{}", empty.message);
    ok(&mut state, guest, sit(1), 0);
    state.disconnect(guest, 1);
    let offline = refused(&mut state, host, start(Order::Seats), 2);
    assert_eq!(offline.code, Code::NotReady);
    assert!(offline.message.contains("Lan"), "{}", offline.message);
    join(&mut state, &token(1), None, 3);

    let effects = ok(&mut state, host, start(Order::Seats), 4);
    assert_eq!(
        tags(&effects),
        ["store:room", "store:game_started", "send:match/start"]
    );
    match writes(&effects)[..] {
        [Write::Room(room), Write::GameStarted(game)] => {
            assert_eq!(room.games_played, 1);
            assert_eq!(game.number, 1);
            assert_eq!(game.order, Order::Seats);
            assert_eq!(game.started_at, 4);
            assert_eq!(game.table, state.tables[0].id);
            assert_eq!(game.sides[0][0].member, host);
            assert_eq!(game.sides[1][0].member, guest);
        }
        ref other => panic!("{other:?}"),
    }
    let event = &sent(&effects)[0];
    assert_eq!(event["match"]["number"], 1);
    assert_eq!(event["match"]["to_play"], "m1");
    assert_eq!(event["match"]["moves"], json!([]));
    assert_eq!(event["match"]["legal"], json!(["e5", "e3", "d4", "f4"]));
    assert_eq!(
        code(&mut state, host, start(Order::Seats), 5),
        Code::GameRunning
    );
}

#[test]
fn a_team_game_needs_a_member_on_each_team() {
    let mut state = room(GameKind::Quoridor, json!({"mode": "teams"}));
    let host = join(&mut state, HOST, Some("Minh"), 0);
    let a = join(&mut state, &token(1), Some("Lan"), 0);
    let b = join(&mut state, &token(2), Some("Hoa"), 0);
    ok(&mut state, host, sit(0), 0);
    ok(&mut state, a, sit(2), 0);
    let refusal = refused(&mut state, host, start(Order::Seats), 0);
    assert_eq!(refusal.code, Code::NotReady);
    assert!(refusal.message.contains("team"), "{}", refusal.message);
    ok(&mut state, b, sit(6), 0);
    ok(&mut state, host, start(Order::Seats), 0);
    let m = current(&state);
    let team = |s: usize| m.sides[s].iter().map(|p| p.member).collect::<Vec<_>>();
    assert_eq!((team(0), team(1)), (vec![host, a], vec![b]));
}

#[test]
fn random_order_draws_who_plays_first_seats_order_does_not() {
    let (mut state, host, guest) = two_seated(GameKind::Jungle, Value::Null, 0);
    let mut firsts = Vec::new();
    for (i, order) in [Order::Seats; 5]
        .into_iter()
        .chain([Order::Random; 40])
        .enumerate()
    {
        let now = i as u64 * 10;
        ok(&mut state, host, start(order), now);
        let m = current(&state);
        assert_eq!(m.order, order);
        let first = m.sides[0][0].member;
        assert_eq!(
            m.sides[1][0].member,
            if first == host { guest } else { host }
        );
        if order == Order::Seats {
            assert_eq!(first, host, "seat 1 plays side 0");
        } else {
            firsts.push(first);
        }
        ok(
            &mut state,
            host,
            Command::Resign(cmd::Resign { table: None }),
            now + 1,
        );
    }
    assert!(
        firsts.contains(&host) && firsts.contains(&guest),
        "{firsts:?}"
    );
    assert_eq!(state.games_played, 45);
}

#[test]
fn only_the_player_to_move_moves_and_a_refused_move_changes_nothing() {
    let (mut state, host, guest) = two_seated(GameKind::Jungle, Value::Null, 0);
    let watcher = join(&mut state, &token(2), Some("Hoa"), 0);
    assert_eq!(code(&mut state, host, mv("8 a3-a4"), 0), Code::NoGame);
    ok(&mut state, host, start(Order::Seats), 0);
    assert_eq!(code(&mut state, guest, mv("8 g7-g6"), 1), Code::NotYourTurn);
    assert_eq!(
        code(&mut state, watcher, mv("8 a3-a4"), 1),
        Code::NotYourTurn
    );
    for illegal in ["8 a3-a5", "7 a3-a4", "8 a3xa4", "8 g7-g6", "elephant", ""] {
        assert_eq!(
            code(&mut state, host, mv(illegal), 1),
            Code::IllegalMove,
            "{illegal}"
        );
    }
    let table = Some(TableId::new());
    let elsewhere = Command::Move(cmd::Move {
        mv: "8 a3-a4".into(),
        table,
        lag_ms: 0,
    });
    assert_eq!(code(&mut state, host, elsewhere, 1), Code::NoTable);

    // Spaces around a move make it unreadable (RULES.md).
    assert_eq!(
        code(&mut state, host, mv(" 8 a3-a4 "), 2),
        Code::IllegalMove
    );
    let effects = ok(&mut state, host, mv("8 a3-a4"), 2);
    assert_eq!(tags(&effects), ["store:entry", "send:match/move"]);
    let row = &entries(&effects)[0];
    assert_eq!((row.seq, row.game), (0, current(&state).id));
    assert_eq!(
        row.entry,
        Entry::Move {
            side: Side(0),
            notation: "8 a3-a4".into()
        }
    );
    let event = &sent(&effects)[0];
    assert_eq!(
        (event["move"].clone(), event["side"].clone()),
        (json!("8 a3-a4"), json!(0))
    );
    assert_eq!(event["match"]["to_play"], "m2");
    let by_table = Command::Move(cmd::Move {
        mv: "8 g7-g6".into(),
        table: Some(state.tables[0].id),
        lag_ms: 0,
    });
    ok(&mut state, guest, by_table, 3);
    assert_eq!(current(&state).moves, ["8 a3-a4", "8 g7-g6"]);
    assert_eq!(current(&state).move_sides, [Side(0), Side(1)]);
}

#[test]
fn a_move_after_the_flag_is_late() {
    let (mut state, host, guest) = two_seated(GameKind::CrossyRay, crossy_clock(), 0);
    ok(&mut state, host, start(Order::Seats), 1_000);
    let effects = ok(&mut state, host, mv("f4"), 11_000);
    assert_eq!(entries(&effects)[0].clock, [172_000, 180_000]);
    let deadline = 11_000 + 180_000;
    assert_eq!(code(&mut state, guest, mv("h4"), deadline), Code::Late);
    assert_eq!(code(&mut state, guest, mv("h4"), deadline + 5), Code::Late);
    ok(&mut state, guest, mv("h4"), deadline - 1);
    assert_eq!(
        current(&state).clock.all_remaining(deadline - 1),
        [172_000, 2_001]
    );
}

#[test]
fn in_a_team_the_member_due_moves_not_a_teammate() {
    let mut state = room(GameKind::Quoridor, json!({"mode": "teams"}));
    let [host, mate, other] = teams_started(&mut state);
    let refusal = refused(&mut state, mate, mv("e2"), 1);
    assert_eq!(refusal.code, Code::NotYourTurn);
    assert!(refusal.message.contains("Minh"), "{}", refusal.message);
    // Unreadable notation is read first: `illegal_move` from the
    // teammate who is not due too (PROTOCOL.md).
    assert_eq!(code(&mut state, mate, mv("E2"), 1), Code::IllegalMove);
    ok(&mut state, host, mv("e2"), 1);
    ok(&mut state, other, mv("e8"), 2);
    assert_eq!(code(&mut state, host, mv("e3"), 3), Code::NotYourTurn);
    let effects = ok(&mut state, mate, mv("e3"), 3);
    assert_eq!(entries(&effects)[0].turn, [0, 0], "the host is next again");
    assert_eq!(current(&state).turn, [0, 0]);
}

#[test]
fn resigning_ends_a_two_player_game() {
    let (mut state, host, guest) = two_seated(GameKind::Jungle, Value::Null, 0);
    let watcher = join(&mut state, &token(2), Some("Hoa"), 0);
    assert_eq!(
        code(
            &mut state,
            host,
            Command::Resign(cmd::Resign { table: None }),
            0
        ),
        Code::NoGame
    );
    ok(&mut state, host, start(Order::Seats), 0);
    ok(&mut state, host, mv("8 a3-a4"), 1);
    ok(&mut state, guest, mv("8 g7-g6"), 2);
    let resign = || Command::Resign(cmd::Resign { table: None });
    assert_eq!(code(&mut state, watcher, resign(), 3), Code::NoGame);
    let effects = ok(&mut state, guest, resign(), 3);
    assert_eq!(
        tags(&effects),
        [
            "store:entry",
            "send:match/end",
            "store:score",
            "store:score",
            "send:scores",
            "store:game_ended",
            "send:autostart"
        ]
    );
    let won = Outcome::Win {
        winner: Side(0),
        reason: EndReason::Resign,
    };
    assert_eq!(current(&state).game.outcome().cloned(), Some(won.clone()));
    assert_eq!(
        entries(&effects)[0].entry,
        Entry::Forfeit {
            sides: vec![Side(1)],
            reason: EndReason::Resign
        }
    );
    match writes(&effects)[3] {
        Write::GameEnded(game) => {
            assert_eq!(game.outcome, won);
            assert_eq!(game.players, ["Minh", "Lan"]);
            assert_eq!(game.moves, ["8 a3-a4", "8 g7-g6"]);
            assert_eq!((game.started_at, game.ended_at), (0, 3));
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(code(&mut state, guest, resign(), 4), Code::NoGame);
}

#[test]
fn with_three_pawns_a_resigner_leaves_and_the_game_goes_on() {
    let mut state = room(GameKind::Quoridor, json!({"players": 3}));
    let ids: Vec<MemberId> = [HOST.to_string(), token(1), token(2)]
        .iter()
        .enumerate()
        .map(|(i, t)| {
            let id = join(&mut state, t, Some(&format!("P{i}")), 0);
            ok(&mut state, id, sit(i), 0);
            id
        })
        .collect();
    ok(&mut state, ids[0], start(Order::Seats), 0);
    let effects = ok(
        &mut state,
        ids[1],
        Command::Resign(cmd::Resign { table: None }),
        1,
    );
    assert_eq!(tags(&effects), ["store:entry", "send:match/forfeit"]);
    assert!(current(&state).is_running());
    assert_eq!(current(&state).gone, [false, true, false]);
    assert_eq!(
        code(
            &mut state,
            ids[1],
            Command::Resign(cmd::Resign { table: None }),
            2
        ),
        Code::NoGame
    );
    let first = current(&state).game.legal()[0].clone();
    ok(&mut state, ids[0], mv(&first), 3);
    assert_eq!(
        current(&state).game.to_move(),
        Some(Side(2)),
        "side 1 is skipped"
    );
    assert_eq!(code(&mut state, ids[1], mv("e8"), 4), Code::NotYourTurn);
}
