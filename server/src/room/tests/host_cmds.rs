//! The host's commands between games: options, computer, countdown,
//! autostart.

use rules::Level;

use super::*;

fn computer(seat: usize, level: Option<Level>) -> Command {
    Command::Computer(cmd::Computer { seat, level })
}

#[test]
fn the_host_changes_options_between_games() {
    let (mut state, host, guest) = two_seated(GameKind::CrossyRay, Value::Null, 0);
    let bad = [
        (None, json!({"width": 8})),
        (None, json!({"clock": {"minutes": 4, "increment": 4}})),
        (Some("chess"), Value::Null),
        (Some("quoridor"), json!({"mode": "single"})),
        (Some("jungle"), json!({"mode": "teams"})),
        (Some("jungle"), json!([1])),
    ];
    for (game, opts) in bad {
        assert_eq!(
            code(&mut state, host, options(game, opts), 0),
            Code::BadOptions
        );
    }
    assert_eq!(
        code(&mut state, guest, options(None, Value::Null), 0),
        Code::NotHost
    );
    let effects = ok(&mut state, host, options(None, json!({"width": 11})), 0);
    assert_eq!(
        tags(&effects),
        ["store:room", "send:options", "send:members"]
    );
    let event = &sent(&effects)[0];
    assert_eq!(event["game"], "crossyray");
    assert_eq!(event["options"]["width"], 11);
    assert_eq!(
        (event["seats"].clone(), event["team_seats"].clone()),
        (json!(2), Value::Null)
    );
    ok(&mut state, host, start(Order::Seats), 0);
    assert_eq!(
        code(&mut state, host, options(None, Value::Null), 1),
        Code::GameRunning
    );
}

#[test]
fn switching_games_frees_the_seats_beyond_the_count() {
    let mut state = room(GameKind::Quoridor, json!({"players": 4}));
    let ids: Vec<MemberId> = (0..4)
        .map(|i| {
            let t = if i == 0 { HOST.to_string() } else { token(i) };
            let id = join(&mut state, &t, Some(&format!("P{i}")), 0);
            ok(&mut state, id, sit(i), 0);
            id
        })
        .collect();
    let effects = ok(
        &mut state,
        ids[0],
        options(Some("crossyray"), Value::Null),
        0,
    );
    assert_eq!(
        tags(&effects),
        [
            "store:room",
            "store:member",
            "store:member",
            "send:options",
            "send:members"
        ]
    );
    let freed: Vec<MemberId> = writes(&effects)
        .iter()
        .filter_map(|w| match w {
            Write::Member(row) if row.seat.is_none() => Some(row.id),
            _ => None,
        })
        .collect();
    assert_eq!(freed, [ids[2], ids[3]]);
    assert_eq!(state.seats(), 2);
    assert_eq!(member(&state, ids[1]).seat, Some(1));
    assert_eq!(state.game(), GameKind::CrossyRay);

    // Teams have eight seats; everyone keeps theirs.
    let effects = ok(
        &mut state,
        ids[0],
        options(Some("quoridor"), json!({"mode": "teams"})),
        0,
    );
    assert_eq!(sent(&effects)[0]["team_seats"], 4);
    assert_eq!(state.seats(), 8);
}

#[test]
fn computers_fill_every_seat_of_any_game_but_the_last_a_person_could_take() {
    // Free-for-all Quoridor: three computers beside one person.
    let mut state = room(GameKind::Quoridor, json!({"players": 4}));
    let host = join(&mut state, HOST, Some("Minh"), 0);
    ok(&mut state, host, sit(0), 0);
    for seat in 1..4 {
        ok(&mut state, host, computer(seat, Some(Level::Amateur)), 0);
    }
    assert_eq!(state.members.len(), 4);
    // A computer on the host's own seat: refused for the seat's person,
    // the first reason, not for the seat a person needs.
    let taken = refused(&mut state, host, computer(0, Some(Level::Master)), 0);
    assert_eq!(taken.code, Code::NoSeat);
    assert_eq!(taken.message, "Minh already sits there.");
    // The host may stand up, but no fourth computer takes the seat.
    ok(&mut state, host, Command::Stand, 0);
    assert_eq!(
        code(&mut state, host, computer(0, Some(Level::Master)), 0),
        Code::NoSeat
    );
    // Teams: eight seats, seven computers at most.
    ok(&mut state, host, options(None, json!({"mode": "teams"})), 0);
    for seat in 4..8 {
        ok(&mut state, host, computer(seat, Some(Level::Beginner)), 0);
    }
    assert_eq!(
        code(&mut state, host, computer(0, Some(Level::Beginner)), 0),
        Code::NoSeat
    );
    // CrossyRay and Jungle: the computer plays either side.
    for game in ["crossyray", "jungle"] {
        ok(&mut state, host, options(Some(game), Value::Null), 0);
        let seated: Vec<usize> = state.members.iter().filter_map(|m| m.seat).collect();
        assert_eq!(seated, [1], "{game}: the computer in seat 2 stays");
        ok(&mut state, host, sit(0), 0);
        ok(&mut state, host, computer(1, Some(Level::Professional)), 0);
        ok(&mut state, host, Command::Stand, 0);
    }
}

#[test]
fn fewer_seats_send_away_the_computers_that_would_fill_them_all() {
    let mut state = room(GameKind::Quoridor, json!({"players": 4}));
    let host = join(&mut state, HOST, Some("Minh"), 0);
    for seat in 0..3 {
        ok(&mut state, host, computer(seat, Some(Level::Amateur)), 0);
    }
    // Two seats left, both held by computers: the one in seat 2 leaves.
    let effects = ok(&mut state, host, options(None, json!({"players": 2})), 0);
    assert_eq!(
        tags(&effects),
        [
            "store:room",
            "store:remove_member",
            "store:remove_member",
            "send:options",
            "send:members"
        ]
    );
    let seated: Vec<Option<usize>> = state.members.iter().map(|m| m.seat).collect();
    assert_eq!(seated, [None, Some(0)]);
}

#[test]
fn computers_of_one_level_are_numbered_so_they_can_be_told_apart() {
    let mut state = room(GameKind::Quoridor, json!({"players": 4}));
    let host = join(&mut state, HOST, Some("Minh"), 0);
    ok(&mut state, host, sit(3), 0);
    for seat in 0..3 {
        ok(&mut state, host, computer(seat, Some(Level::Beginner)), 0);
    }
    let name_at = |state: &RoomState, seat: usize| {
        let m = state.members.iter().find(|m| m.seat == Some(seat)).unwrap();
        m.name.clone().unwrap()
    };
    let names: Vec<String> = (0..3).map(|s| name_at(&state, s)).collect();
    assert_eq!(
        names,
        [
            "Computer (Beginner)",
            "Computer (Beginner) 2",
            "Computer (Beginner) 3"
        ]
    );
    // Another level: its own name; back again, the first number free.
    ok(&mut state, host, computer(1, Some(Level::Master)), 0);
    assert_eq!(name_at(&state, 1), "Computer (Master)");
    ok(&mut state, host, computer(0, Some(Level::Master)), 0);
    assert_eq!(name_at(&state, 0), "Computer (Master) 2");
    ok(&mut state, host, computer(1, Some(Level::Beginner)), 0);
    assert_eq!(name_at(&state, 1), "Computer (Beginner)");
    // The host's commands on a person say the computer is not one.
    let bot = state.members.iter().find(|m| m.seat == Some(2)).unwrap().id;
    let refusal = refused(
        &mut state,
        host,
        Command::Unseat(cmd::Unseat { member: bot }),
        0,
    );
    assert_eq!(refusal.code, Code::NoMember);
    assert!(refusal.message.contains("computer"), "{}", refusal.message);
}

#[test]
fn the_computer_sits_only_where_it_may() {
    let (mut state, host, guest) = two_seated(GameKind::Jungle, Value::Null, 0);
    assert_eq!(
        code(&mut state, guest, computer(1, Some(Level::Master)), 0),
        Code::NotHost
    );
    assert_eq!(
        code(&mut state, host, computer(2, Some(Level::Master)), 0),
        Code::NoSeat
    );
    let taken = refused(&mut state, host, computer(1, Some(Level::Master)), 0);
    assert_eq!(taken.code, Code::NoSeat);
    assert!(taken.message.contains("Lan"), "{}", taken.message);
    assert_eq!(code(&mut state, host, computer(1, None), 0), Code::NoSeat);
    ok(&mut state, guest, Command::Stand, 0);
    assert_eq!(code(&mut state, host, computer(1, None), 0), Code::NoSeat);

    let effects = ok(&mut state, host, computer(1, Some(Level::Beginner)), 0);
    assert_eq!(
        tags(&effects),
        ["store:room", "store:member", "send:members"]
    );
    let bot = match writes(&effects)[..] {
        [Write::Room(room), Write::Member(row)] => {
            assert_eq!(room.next_member, 4);
            assert_eq!(row.computer, Some(Level::Beginner));
            assert_eq!(row.name.as_deref(), Some("Computer (Beginner)"));
            assert_eq!(
                (row.seat, row.token.clone(), row.host),
                (Some(1), None, false)
            );
            row.id
        }
        ref other => panic!("{other:?}"),
    };
    assert!(member(&state, bot).online(), "the computer is always here");

    // A new level on the same seat.
    let effects = ok(&mut state, host, computer(1, Some(Level::Master)), 0);
    assert_eq!(tags(&effects), ["store:member", "send:members"]);
    assert_eq!(
        member(&state, bot).name.as_deref(),
        Some("Computer (Master)")
    );
    assert_eq!(state.members.len(), 3);

    // The last seat stays for a person.
    ok(&mut state, host, Command::Stand, 0);
    let last = refused(&mut state, host, computer(0, Some(Level::Master)), 0);
    assert_eq!(last.code, Code::NoSeat);
    assert!(last.message.contains("person"), "{}", last.message);

    ok(&mut state, host, sit(0), 0);
    ok(&mut state, host, start(Order::Seats), 0);
    assert_eq!(
        code(&mut state, host, computer(1, None), 0),
        Code::GameRunning
    );
    ok(
        &mut state,
        host,
        Command::Resign(cmd::Resign { table: None }),
        1,
    );

    let effects = ok(&mut state, host, computer(1, None), 2);
    assert_eq!(tags(&effects), ["store:remove_member", "send:members"]);
    assert!(state.member(bot).is_none());
}

/// Plays CrossyRay's shortest game: it ends at `now`.
fn finish_a_game(state: &mut RoomState, host: MemberId, guest: MemberId, now: u64) -> Vec<Effect> {
    ok(state, host, start(Order::Seats), now);
    let mut effects = Vec::new();
    for (i, text) in CROSSY_LINE.iter().enumerate() {
        let who = if i % 2 == 0 { host } else { guest };
        effects = ok(state, who, mv(text), now);
    }
    assert!(!current(state).is_running());
    effects
}

#[test]
fn the_host_pauses_and_resumes_the_countdown() {
    let (mut state, host, guest) = two_seated(GameKind::CrossyRay, Value::Null, 0);
    let pause = |paused| Command::Countdown(cmd::PauseCountdown { paused });
    assert_eq!(code(&mut state, host, pause(true), 0), Code::NoCountdown);
    ok(&mut state, host, start(Order::Seats), 0);
    assert_eq!(code(&mut state, host, pause(true), 0), Code::GameRunning);
    ok(
        &mut state,
        host,
        Command::Resign(cmd::Resign { table: None }),
        0,
    );

    let effects = finish_a_game(&mut state, host, guest, 1_000);
    assert_eq!(tags(&effects).last().unwrap(), "send:autostart");
    assert_eq!(
        sent(&effects).last().unwrap()["autostart"]["remaining_ms"],
        30_000
    );
    assert_eq!(state.countdown, Some(Countdown::Running { at_ms: 31_000 }));
    assert_eq!(code(&mut state, guest, pause(true), 2_000), Code::NotHost);

    let effects = ok(&mut state, host, pause(true), 11_000);
    assert_eq!(
        tags(&effects),
        ["send:autostart"],
        "the countdown is not stored"
    );
    assert_eq!(
        sent(&effects)[0]["autostart"],
        json!({"enabled": true, "remaining_ms": 20_000, "paused": true})
    );
    assert_eq!(state.countdown, Some(Countdown::Paused { left_ms: 20_000 }));
    assert_eq!(
        state.next_deadline(),
        None,
        "a paused countdown has no deadline"
    );
    // Pausing again changes nothing but says so.
    ok(&mut state, host, pause(true), 50_000);
    assert_eq!(state.countdown, Some(Countdown::Paused { left_ms: 20_000 }));

    ok(&mut state, host, pause(false), 100_000);
    assert_eq!(state.countdown, Some(Countdown::Running { at_ms: 120_000 }));
    assert_eq!(state.next_deadline(), Some((120_000, Timer::Countdown)));
}

#[test]
fn turning_autostart_off_cancels_the_countdown() {
    let (mut state, host, guest) = two_seated(GameKind::CrossyRay, Value::Null, 0);
    let set = |enabled| Command::Autostart(cmd::Autostart { enabled });
    assert_eq!(code(&mut state, guest, set(false), 0), Code::NotHost);
    finish_a_game(&mut state, host, guest, 0);
    assert!(state.countdown.is_some());

    let effects = ok(&mut state, host, set(false), 5);
    assert_eq!(tags(&effects), ["store:room", "send:autostart"]);
    assert!(matches!(writes(&effects)[0], Write::Room(row) if !row.autostart));
    assert_eq!(
        sent(&effects)[0]["autostart"],
        json!({"enabled": false, "remaining_ms": null, "paused": false})
    );
    assert_eq!(state.countdown, None);
    assert_eq!(state.next_deadline(), None);

    // No countdown after the next game either.
    let effects = finish_a_game(&mut state, host, guest, 10);
    assert!(!tags(&effects).contains(&"send:autostart".to_string()));
    assert_eq!(state.countdown, None);

    // On again: none until a game ends.
    let effects = ok(&mut state, host, set(true), 20);
    assert!(matches!(writes(&effects)[0], Write::Room(row) if row.autostart));
    assert_eq!(state.countdown, None);
    let effects = finish_a_game(&mut state, host, guest, 30);
    assert_eq!(tags(&effects).last().unwrap(), "send:autostart");
    assert_eq!(state.countdown, Some(Countdown::Running { at_ms: 30_030 }));
}
