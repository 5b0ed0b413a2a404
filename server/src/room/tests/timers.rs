//! Timers driven by the time passed in: clocks, the per-move timer,
//! abandoning, a team's turn passing, the auto-start countdown.

use rules::{EndReason, Outcome, Side};

use super::*;

/// Fires `timer` at `now`; checks its versions, and that a timer not yet
/// due changes nothing.
fn fire(state: &mut RoomState, timer: Timer, now: u64) -> Vec<Effect> {
    let due = state
        .deadlines()
        .iter()
        .any(|&(at, t)| t == timer && at <= now);
    let before = fingerprint(state, MemberId(1), now);
    let effects = state.fire(timer, now);
    check_versions(before.0, &effects, state);
    if !due {
        assert!(effects.is_empty(), "{timer:?} is not due at {now}");
        assert_eq!(fingerprint(state, MemberId(1), now), before);
    }
    effects
}

#[test]
fn a_crossyray_clock_flags_at_its_deadline() {
    let (mut state, host, guest) = two_seated(GameKind::CrossyRay, crossy_clock(), 0);
    let table = state.tables[0].id;
    assert_eq!(state.next_deadline(), None);
    ok(&mut state, host, start(Order::Seats), 1_000);
    assert_eq!(state.deadlines(), [(181_000, Timer::Clock(table))]);
    assert!(fire(&mut state, Timer::Clock(table), 180_999).is_empty());
    assert!(fire(&mut state, Timer::Clock(TableId::new()), 500_000).is_empty());

    ok(&mut state, host, mv("f4"), 11_000);
    assert_eq!(state.next_deadline(), Some((191_000, Timer::Clock(table))));
    assert!(fire(&mut state, Timer::Clock(table), 190_999).is_empty());
    let effects = fire(&mut state, Timer::Clock(table), 191_000);
    assert_eq!(
        tags(&effects),
        [
            "store:entry",
            "send:match/timeout",
            "store:score",
            "store:score",
            "send:scores",
            "store:game_ended",
            "send:autostart"
        ]
    );
    let row = &entries(&effects)[0];
    assert_eq!(row.entry, Entry::Timeout { side: Side(1) });
    assert_eq!((row.seq, row.clock.clone()), (1, vec![172_000, 0]));
    let won = Outcome::Win {
        winner: Side(0),
        reason: EndReason::Timeout,
    };
    assert_eq!(current(&state).game.outcome().cloned(), Some(won.clone()));
    assert_eq!(
        sent(&effects)[0]["match"]["outcome"],
        json!({"kind": "win", "winner": 0, "reason": "timeout"})
    );
    assert!(
        matches!(writes(&effects)[3], Write::GameEnded(g) if g.outcome == won && g.ended_at == 191_000)
    );
    assert_eq!(code(&mut state, guest, mv("h4"), 191_000), Code::NoGame);
    // Only the countdown is left.
    assert_eq!(state.deadlines(), [(221_000, Timer::Countdown)]);
    assert!(fire(&mut state, Timer::Clock(table), 300_000).is_empty());
}

#[test]
fn a_quoridor_turn_that_runs_out_is_a_pass_and_the_game_goes_on() {
    let (mut state, host, guest) = two_seated(GameKind::Quoridor, Value::Null, 0);
    let table = state.tables[0].id;
    ok(&mut state, host, start(Order::Seats), 0);
    assert_eq!(state.next_deadline(), Some((30_000, Timer::Clock(table))));
    assert!(fire(&mut state, Timer::Clock(table), 29_999).is_empty());
    let effects = fire(&mut state, Timer::Clock(table), 30_000);
    assert_eq!(tags(&effects), ["store:entry", "send:match/timeout"]);
    let event = &sent(&effects)[0];
    assert_eq!(
        (event["move"].clone(), event["side"].clone()),
        (json!("pass"), json!(0))
    );
    assert_eq!(event["match"]["outcome"], Value::Null);
    assert_eq!(
        event["match"]["clock"],
        json!({"remaining_ms": [0, 30_000], "running": 1})
    );
    assert_eq!(entries(&effects)[0].entry, Entry::Timeout { side: Side(0) });
    let m = current(&state);
    assert!(m.is_running());
    assert_eq!(
        (m.moves.clone(), m.game.to_move()),
        (vec!["pass".to_string()], Some(Side(1)))
    );
    assert_eq!(state.next_deadline(), Some((60_000, Timer::Clock(table))));
    // The next side moves with a fresh turn, and so does the first again.
    ok(&mut state, guest, mv("e8"), 45_000);
    assert_eq!(state.next_deadline(), Some((75_000, Timer::Clock(table))));
    ok(&mut state, host, mv("e2"), 46_000);
    assert_eq!(current(&state).moves, ["pass", "e8", "e2"]);
}

#[test]
fn a_player_offline_past_the_grace_time_forfeits() {
    let (mut state, host, guest) = two_seated(GameKind::Jungle, Value::Null, 0);
    let table = state.tables[0].id;
    ok(&mut state, host, start(Order::Seats), 0);
    assert_eq!(state.next_deadline(), None, "no clock in this game");
    let gone = Timer::Abandon(table, Side(1));
    state.disconnect(guest, 5_000);
    assert_eq!(state.deadlines(), [(65_000, gone)]);
    // Coming back in time cancels it.
    join(&mut state, &token(1), None, 6_000);
    assert_eq!(state.deadlines(), []);
    assert!(fire(&mut state, gone, 65_000).is_empty());

    ok(&mut state, host, mv("8 a3-a4"), 7_000);
    state.disconnect(guest, 10_000);
    assert!(fire(&mut state, gone, 69_999).is_empty());
    let effects = fire(&mut state, gone, 70_000);
    assert_eq!(tags(&effects)[..2], ["store:entry", "send:match/end"]);
    assert!(tags(&effects).contains(&"store:game_ended".to_string()));
    assert_eq!(
        entries(&effects)[0].entry,
        Entry::Forfeit {
            sides: vec![Side(1)],
            reason: EndReason::Abandon
        }
    );
    assert_eq!(
        current(&state).game.outcome().cloned(),
        Some(Outcome::Win {
            winner: Side(0),
            reason: EndReason::Abandon
        })
    );
    assert_eq!(state.deadlines(), [(100_000, Timer::Countdown)]);
}

#[test]
fn a_teams_turn_passes_to_a_teammate_who_is_here() {
    let mut state = room_with(
        GameKind::Quoridor,
        json!({"mode": "teams"}),
        RoomConfig {
            abandon_after_ms: 10_000,
            ..config()
        },
    );
    let [host, mate, _] = teams_started(&mut state);
    let table = state.tables[0].id;
    let pass = Timer::TurnPass(table, Side(0));

    state.disconnect(host, 1_000);
    let mut due = state.deadlines();
    due.sort_by_key(|d| d.0);
    // The host role would pass on a minute later (room/tests/away.rs).
    assert_eq!(
        due,
        [
            (11_000, pass),
            (30_000, Timer::Clock(table)),
            (61_000, Timer::HostHandover)
        ]
    );
    assert!(fire(&mut state, pass, 10_999).is_empty());
    let effects = fire(&mut state, pass, 11_000);
    assert_eq!(tags(&effects), ["store:entry", "send:match/turn"]);
    let row = &entries(&effects)[0];
    assert_eq!(
        (row.entry.clone(), row.turn.clone()),
        (Entry::Turn, vec![1, 0])
    );
    assert_eq!(row.clock, [19_000, 30_000], "the side's time goes on");
    assert_eq!(sent(&effects)[0]["match"]["to_play"], json!(mate));
    assert_eq!(current(&state).due().unwrap().member, mate);
    assert_eq!(
        state.deadlines(),
        [(30_000, Timer::Clock(table)), (61_000, Timer::HostHandover)]
    );
    ok(&mut state, mate, mv("e2"), 12_000);

    // With the whole team gone, the side is abandoned instead.
    state.disconnect(mate, 13_000);
    assert_eq!(
        state.deadlines(),
        [
            (42_000, Timer::Clock(table)),
            (23_000, Timer::Abandon(table, Side(0))),
            (61_000, Timer::HostHandover)
        ]
    );
    let effects = fire(&mut state, Timer::Abandon(table, Side(0)), 23_000);
    assert_eq!(
        entries(&effects)[0].entry,
        Entry::Forfeit {
            sides: vec![Side(0)],
            reason: EndReason::Abandon
        }
    );
    // One move was made: the game ends without a result.
    assert_eq!(
        current(&state).game.outcome().cloned(),
        Some(Outcome::Aborted {
            reason: EndReason::Abandon
        })
    );
    assert!(!tags(&effects).contains(&"store:score".to_string()));
}

/// CrossyRay's shortest game, started by the host with `order`; it ends
/// at `now`.
fn play_a_game(state: &mut RoomState, host: MemberId, order: Order, now: u64) {
    ok(state, host, start(order), now);
    for text in CROSSY_LINE {
        let due = current(state).due().unwrap().member;
        ok(state, due, mv(text), now);
    }
    assert!(!current(state).is_running());
}

#[test]
fn the_countdown_starts_the_next_game_with_the_last_order() {
    for order in [Order::Seats, Order::Random] {
        let (mut state, host, guest) = two_seated(GameKind::CrossyRay, Value::Null, 0);
        play_a_game(&mut state, host, order, 1_000);
        assert_eq!(state.next_deadline(), Some((31_000, Timer::Countdown)));
        assert!(fire(&mut state, Timer::Countdown, 30_999).is_empty());
        let effects = fire(&mut state, Timer::Countdown, 31_000);
        assert_eq!(
            tags(&effects),
            ["store:room", "store:game_started", "send:match/start"]
        );
        assert_eq!(state.countdown, None);
        let m = current(&state);
        assert_eq!((m.number, m.order, m.started_at), (2, order, 31_000));
        assert!(m.is_running());
        if order == Order::Seats {
            assert_eq!((m.sides[0][0].member, m.sides[1][0].member), (host, guest));
        }
    }
}

#[test]
fn the_countdown_is_dropped_when_a_seat_is_empty_or_offline() {
    let (mut state, host, guest) = two_seated(GameKind::CrossyRay, Value::Null, 0);
    play_a_game(&mut state, host, Order::Seats, 0);
    ok(&mut state, guest, Command::Stand, 1);
    let effects = fire(&mut state, Timer::Countdown, 30_000);
    assert_eq!(tags(&effects), ["send:autostart"]);
    assert_eq!(
        sent(&effects)[0]["autostart"],
        json!({"enabled": true, "remaining_ms": null, "paused": false})
    );
    assert_eq!((state.countdown, state.games_played), (None, 1));
    assert_eq!(state.next_deadline(), None);

    ok(&mut state, guest, sit(1), 40_000);
    play_a_game(&mut state, host, Order::Seats, 40_000);
    state.disconnect(guest, 41_000);
    let effects = fire(&mut state, Timer::Countdown, 70_000);
    assert_eq!(tags(&effects), ["send:autostart"]);
    assert_eq!((state.countdown, state.games_played), (None, 2));
}

#[test]
fn a_paused_countdown_has_no_deadline() {
    let (mut state, host, _) = two_seated(GameKind::CrossyRay, Value::Null, 0);
    play_a_game(&mut state, host, Order::Seats, 0);
    ok(
        &mut state,
        host,
        Command::Countdown(cmd::PauseCountdown { paused: true }),
        10_000,
    );
    assert_eq!(state.deadlines(), []);
    assert!(fire(&mut state, Timer::Countdown, 1_000_000).is_empty());
    ok(
        &mut state,
        host,
        Command::Countdown(cmd::PauseCountdown { paused: false }),
        2_000_000,
    );
    assert_eq!(state.deadlines(), [(2_020_000, Timer::Countdown)]);
    let effects = fire(&mut state, Timer::Countdown, 2_020_000);
    assert_eq!(tags(&effects)[2], "send:match/start");
}

#[test]
fn a_movers_network_lag_is_not_charged_to_their_clock_up_to_the_quota() {
    let (mut state, host, guest) = lag_quota(GameKind::CrossyRay, crossy_clock(), 500);
    let table = state.tables[0].id;
    ok(&mut state, host, start(Order::Seats), 1_000);
    // 10 s on the clock, 300 ms of them the network's: 9.7 s charged,
    // then the 2 s increment.
    let effects = ok(&mut state, host, lagged("f4", 300), 11_000);
    assert_eq!(entries(&effects)[0].clock, vec![172_300, 180_000]);
    // A lag past the quota (500 ms a move) is credited 500 ms only.
    let effects = ok(&mut state, guest, lagged("h4", 5_000), 21_000);
    assert_eq!(entries(&effects)[0].clock, vec![172_300, 172_500]);
    // The next side's time runs from the arrival, not from the credit;
    // the flag falls the quota after its deadline, so that a move sent
    // in time has the quota to arrive.
    assert_eq!(state.next_deadline(), Some((193_800, Timer::Clock(table))));

    // A move that arrives after the flag but whose lag covers it counts:
    // the host has 172.3 s; at 193.5 s after its turn began, with 400 ms
    // of lag, it moved with 200 ms left.
    let mut late = state.clone();
    assert_eq!(
        code(&mut late, host, lagged("i4", 0), 193_500),
        Code::Late,
        "without lag it is late"
    );
    ok(&mut state, host, lagged("i4", 400), 193_500);
    // Past the quota, the flag.
    let mut flagged = late.clone();
    assert!(!flagged
        .fire(Timer::Clock(table), 193_799)
        .iter()
        .any(|e| tag(e).starts_with("send:match")));
    let effects = flagged.fire(Timer::Clock(table), 193_800);
    assert_eq!(tags(&effects)[..2], ["store:entry", "send:match/timeout"]);
}

#[test]
fn without_a_quota_the_clock_charges_the_arrival() {
    let options = json!({"clock": {"minutes": 3, "increment": 2}});
    let (mut state, host, _) = lag_quota(GameKind::Jungle, options, 0);
    ok(&mut state, host, start(Order::Seats), 0);
    let effects = ok(&mut state, host, lagged("8 a3-a4", 300), 10_000);
    assert_eq!(entries(&effects)[0].clock, vec![172_000, 180_000]);
}

/// Two seated players in a room whose lag quota is `lag_comp_ms`.
fn lag_quota(kind: GameKind, options: Value, lag_comp_ms: u64) -> (RoomState, MemberId, MemberId) {
    let config = RoomConfig {
        lag_comp_ms,
        ..config()
    };
    let mut state = room_with(kind, options, config);
    let host = join(&mut state, HOST, Some("Minh"), 0);
    let guest = join(&mut state, &token(1), Some("Lan"), 0);
    ok(&mut state, host, sit(0), 0);
    ok(&mut state, guest, sit(1), 0);
    (state, host, guest)
}
