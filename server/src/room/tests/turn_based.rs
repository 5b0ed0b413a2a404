//! Turn-based games (days per move), with the time passed in: the option,
//! the deadline of each move, the time loss, no abandon or auto-start, and
//! a restored room keeping its stored deadline.

use rules::{EndReason, Outcome, Side};
use serde_json::json;

use super::game::Recorded;
use super::*;
use crate::games::{GameOptions, DAY_MS};
use crate::model::records::TurnRow;

fn turn_rows(effects: &[Effect]) -> Vec<TurnRow> {
    writes(effects)
        .into_iter()
        .filter_map(|w| match w {
            Write::Turn(t) => Some(t.clone()),
            _ => None,
        })
        .collect()
}

#[test]
fn days_per_move_are_1_2_3_or_7_in_every_game_and_replace_the_clock() {
    for kind in [GameKind::CrossyRay, GameKind::Quoridor, GameKind::Jungle] {
        for days in [1, 2, 3, 7] {
            let o = GameOptions::parse(kind, &json!({ "days": days })).unwrap();
            assert_eq!(o.days(), Some(days));
            assert_eq!(o.to_json()["days"], json!(days));
        }
        for bad in [
            json!(0),
            json!(5),
            json!(14),
            json!("1"),
            json!(1.5),
            json!(-1),
        ] {
            let err = GameOptions::parse(kind, &json!({ "days": bad })).unwrap_err();
            assert!(err.contains("days must be 1, 2, 3 or 7"), "{err}");
        }
        let err = GameOptions::parse(kind, &json!({ "days": 1, "mode": "knockout" })).unwrap_err();
        assert!(err.contains("tournament"), "{err}");
        let live = GameOptions::parse(kind, &json!({})).unwrap();
        assert_eq!((live.days(), live.to_json().get("days")), (None, None));
    }
    // The game's own clock goes: no chess clock, no Quoridor turn timer.
    let o = GameOptions::parse(GameKind::Jungle, &json!({"days": 2, "clock": [3, 2]})).unwrap();
    let game = crate::games::AnyGame::new(&o).unwrap();
    assert_eq!(o.time_control(&game), rules::TimeControl::Unlimited);
    let q = GameOptions::parse(GameKind::Quoridor, &json!({"days": 2, "players": 3})).unwrap();
    let game = crate::games::AnyGame::new(&q).unwrap();
    assert_eq!(q.time_control(&game), rules::TimeControl::Unlimited);
    let q = GameOptions::parse(GameKind::Quoridor, &json!({"days": 3, "mode": "teams"})).unwrap();
    assert_eq!(q.days(), Some(3));
}

#[test]
fn each_move_is_due_within_the_days_and_the_player_to_move_loses_on_time() {
    let (mut state, host, guest) = two_seated(GameKind::CrossyRay, json!({"days": 1}), 0);
    let table = state.tables[0].id;
    let lag = state.config.lag_comp_ms;
    let effects = ok(&mut state, host, start(Order::Seats), 1_000);
    // The first move is due a day after the start, and stored so.
    let turn = &turn_rows(&effects)[0];
    assert_eq!((turn.deadline, turn.since), (Some(1_000 + DAY_MS), 1_000));
    assert_eq!(turn.token, Some(TokenHash::of(HOST)));
    assert_eq!(
        state.deadlines(),
        [(1_000 + DAY_MS + lag, Timer::Turn(table))]
    );
    assert_eq!(current(&state).view(1_000).turn_left_ms, Some(DAY_MS));
    assert_eq!(current(&state).view(1_000).days, Some(1));
    assert!(current(&state).view(1_000).clock.is_none());

    // A move a little less than a day later: the next is due a day after it.
    let at = 1_000 + DAY_MS - 1;
    let effects = ok(&mut state, host, mv("f4"), at);
    let turn = &turn_rows(&effects)[0];
    assert_eq!(turn.deadline, Some(at + DAY_MS));
    assert_eq!(turn.token, Some(TokenHash::of(&token(1))));
    assert_eq!(state.deadlines(), [(at + DAY_MS + lag, Timer::Turn(table))]);
    assert!(state
        .fire(Timer::Turn(table), at + DAY_MS + lag - 1)
        .is_empty());

    // A move after the deadline is late (the timer fires right after).
    assert_eq!(
        code(&mut state, guest, mv("h4"), at + DAY_MS + 1),
        Code::Late
    );
    let effects = state.fire(Timer::Turn(table), at + DAY_MS + lag);
    let won = Outcome::Win {
        winner: Side(0),
        reason: EndReason::Timeout,
    };
    assert_eq!(current(&state).game.outcome().cloned(), Some(won));
    assert_eq!(turn_rows(&effects)[0].deadline, None);
    assert!(tags(&effects).contains(&"store:game_ended".to_string()));
    // Auto-start is on by default, but a turn-based game does not start
    // the next one by itself.
    assert!(!tags(&effects).contains(&"send:autostart".to_string()));
    assert_eq!(state.countdown, None);
    assert_eq!(state.next_deadline(), None);
}

#[test]
fn players_away_neither_abandon_nor_pass_and_a_restored_room_keeps_its_deadline() {
    let mut room = Recorded::new(super::room(GameKind::CrossyRay, json!({"days": 3})));
    let host = room.hello(greeting(HOST, Some("Minh"), None), 0);
    let guest = room.hello(greeting(&token(1), Some("Lan"), None), 0);
    room.ok(host, sit(0), 0);
    room.ok(guest, sit(1), 0);
    room.ok(host, start(Order::Seats), 1_000);
    room.play("f4", 5_000);
    // The opponent offline for a day: still no claim, and the refusal
    // says why.
    room.state.disconnect(guest, 6_000);
    let claim = Command::Claim(crate::room::cmd::Claim {
        action: crate::protocol::ClaimAction::Win,
        table: None,
    });
    let refusal = refused(&mut room.state, host, claim, 6_000 + DAY_MS);
    assert_eq!(refusal.code, Code::NoClaim);
    assert!(
        refusal.message.contains("turn-based"),
        "{}",
        refusal.message
    );
    let deadline = 5_000 + 3 * DAY_MS;
    // Restored a day later with everyone offline: only the stored deadline
    // is pending (no abandon, no claim), not three days from the restore.
    let later = 5_000 + DAY_MS;
    let (state, _) = RoomState::restore(room.store.saved(), config(), later);
    let table = state.tables[0].id;
    let lag = state.config.lag_comp_ms;
    assert_eq!(state.deadlines(), [(deadline + lag, Timer::Turn(table))]);
    assert!(state.away_view(&state.tables[0], later + DAY_MS).is_empty());
    assert_eq!(current(&state).view(later).turn_left_ms, Some(2 * DAY_MS));
    // Restored after the deadline: the timer is due at once.
    let (mut state, _) = RoomState::restore(room.store.saved(), config(), deadline + 10_000);
    let effects = state.fire(Timer::Turn(table), deadline + 10_000);
    assert!(tags(&effects).contains(&"store:game_ended".to_string()));
    assert_eq!(
        current(&state).game.outcome().cloned(),
        Some(Outcome::Win {
            winner: Side(0),
            reason: EndReason::Timeout
        })
    );
}

#[test]
fn a_quoridor_pawn_of_three_that_runs_out_leaves_and_the_others_play_on() {
    let mut state = super::room(GameKind::Quoridor, json!({"days": 1, "players": 3}));
    let ids: Vec<MemberId> = (0..3)
        .map(|i| {
            let t = if i == 0 { HOST.to_string() } else { token(i) };
            join(&mut state, &t, Some(&format!("P{i}")), 0)
        })
        .collect();
    for (seat, id) in ids.iter().enumerate() {
        ok(&mut state, *id, sit(seat), 0);
    }
    ok(&mut state, ids[0], start(Order::Seats), 0);
    let table = state.tables[0].id;
    let lag = state.config.lag_comp_ms;
    let effects = state.fire(Timer::Turn(table), DAY_MS + lag);
    let m = current(&state);
    assert!(m.is_running(), "two pawns play on");
    assert_eq!(m.leaves.len(), 1);
    assert_eq!(m.leaves[0].reason, EndReason::Timeout);
    assert_eq!(m.game.to_move(), Some(Side(1)));
    // The next player gets a fresh day from the time loss.
    assert_eq!(turn_rows(&effects)[0].deadline, Some(2 * DAY_MS + lag));
    assert_eq!(turn_rows(&effects)[0].token, Some(TokenHash::of(&token(1))));
}
