//! Refusals during a tournament change nothing.

use super::*;

pub(super) fn refusal_of(
    cup: &mut Cup,
    member: MemberId,
    command: Command,
) -> crate::protocol::Refusal {
    crate::room::tests::refused(&mut cup.state, member, command, cup.now)
}

#[test]
pub(super) fn refusals_during_a_tournament_change_nothing() {
    let mut cup = Cup::new(GameKind::Quoridor, quoridor(2), 5, 5);
    let (host, guest) = (cup.host(), cup.players[1]);
    assert_eq!(cup.code(host, Command::Stop), Code::NoGame, "no tournament");
    assert_eq!(cup.code(guest, Command::Stop), Code::NotHost);
    cup.ok(host, start(Order::Random));
    let round = cup.round();
    let (p, q, bye) = (
        round.pairings[0].clone(),
        round.pairings[1].clone(),
        round.bye.unwrap(),
    );
    let a = p.players[0];
    let elsewhere = |table| {
        Command::Move(cmd::Move {
            mv: "e2".into(),
            table: Some(table),
            lag_ms: 0,
        })
    };
    // Not at one's own table.
    assert_eq!(cup.code(a, elsewhere(q.table)), Code::NotYourTurn);
    assert_eq!(
        cup.code(
            a,
            Command::Resign(cmd::Resign {
                table: Some(q.table)
            })
        ),
        Code::NoGame
    );
    assert_eq!(cup.code(a, elsewhere(TableId::new())), Code::NoTable);
    assert_eq!(cup.code(bye, elsewhere(p.table)), Code::NotYourTurn);
    assert_eq!(
        cup.code(
            bye,
            Command::Move(cmd::Move {
                mv: "e2".into(),
                table: None,
                lag_ms: 0
            })
        ),
        Code::NotYourTurn
    );
    // Host commands while the round is played.
    let knockout = || options(None, quoridor(3));
    assert_eq!(cup.code(host, knockout()), Code::GameRunning);
    assert_eq!(cup.code(host, Command::Stop), Code::GameRunning);
    assert_eq!(cup.code(guest, Command::Stop), Code::NotHost);
    assert_eq!(cup.code(host, start(Order::Random)), Code::GameRunning);
    assert_eq!(cup.code(guest, start(Order::Random)), Code::NotHost);
    // One match over, the other still on: the round is still played.
    cup.resign(p.table, p.players[1]);
    assert_eq!(
        cup.code(
            a,
            Command::Move(cmd::Move {
                mv: "e2".into(),
                table: Some(p.table),
                lag_ms: 0
            })
        ),
        Code::NoGame
    );
    assert_eq!(cup.code(host, Command::Stop), Code::GameRunning);
    assert_eq!(cup.code(host, knockout()), Code::GameRunning);
    cup.resign(q.table, q.players[1]);
    // Between rounds: no options (not even another game), no stop but
    // the host's.
    assert_eq!(cup.bracket().status, Status::BetweenRounds);
    assert_eq!(cup.code(host, knockout()), Code::GameRunning);
    assert_eq!(
        cup.code(host, options(Some("jungle"), json!({"mode": "knockout"}))),
        Code::GameRunning
    );
    assert_eq!(cup.code(guest, Command::Stop), Code::NotHost);

    // The host stops it: recorded as stopped, the countdown dropped, the
    // points kept.
    let scores = cup.state.scores.clone();
    let at = cup.countdown_at();
    let effects = cup.ok(host, Command::Stop);
    assert_eq!(cup.bracket().status, Status::Stopped);
    assert_eq!(cup.state.countdown, None);
    assert_eq!(cup.state.scores, scores);
    assert_eq!(
        tags(&effects),
        ["store:tournament", "send:tournament", "send:autostart"],
        "the dropped countdown is announced"
    );
    assert_eq!(
        sent(&effects)[0]["tournament"]["status"],
        json!({"kind": "stopped"})
    );
    assert_eq!(cup.store.tournament.as_ref(), Some(cup.bracket()));
    assert!(cup.fire(Timer::Countdown, at).is_empty());
    assert_eq!(cup.round().number, 1, "no round 2 after a stop");
    assert_eq!(cup.code(host, Command::Stop), Code::NoGame);
    // Options may change again; back to single games, the room plays at
    // its own table and the bracket goes.
    cup.ok(host, options(None, json!({"mode": "ffa"})));
    let effects = cup.ok(host, start(Order::Seats));
    assert!(cup.state.tournament.is_none());
    assert_eq!(cup.state.tables.len(), 1);
    assert_eq!(cup.state.tables[0].id, cup.state.main_table);
    let events = sent(&effects);
    assert_eq!(events[0]["type"], "tournament");
    assert_eq!(events[0]["tournament"], Value::Null);
    assert_eq!(cup.store.tournament, None);
}
