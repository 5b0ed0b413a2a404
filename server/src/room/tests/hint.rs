//! `hint`: the engine's move for the asker's turn in a game against the
//! computer alone, answered to the asker only; refused anywhere a person
//! plays too, off turn, while a hint is searched, and too often.

use std::time::Duration;

use rules::Level;

use super::*;
use crate::room::cmd::HINT_EVERY_MS;

fn computer(seat: usize) -> Command {
    Command::Computer(cmd::Computer {
        seat,
        level: Some(Level::Beginner),
    })
}

/// Minh (seat 0) against the computer (seat 1), started: Minh to move.
fn against_computer(kind: GameKind) -> (RoomState, MemberId) {
    against_computer_with(kind, Value::Null)
}

fn against_computer_with(kind: GameKind, options: Value) -> (RoomState, MemberId) {
    let mut state = room(kind, options);
    let host = join(&mut state, HOST, Some("Minh"), 0);
    ok(&mut state, host, sit(0), 0);
    ok(&mut state, host, computer(1), 0);
    ok(&mut state, host, start(Order::Seats), 0);
    (state, host)
}

/// The hint search one accepted `hint` asked for: its id, position and
/// budget.
fn search(effects: &[Effect], member: MemberId) -> (u64, crate::games::AnyGame, u64) {
    match effects {
        [Effect::Hint {
            member: m,
            hint,
            game,
            budget_ms,
            ..
        }] if *m == member => (*hint, (**game).clone(), *budget_ms),
        other => panic!("one hint search for {member}: {:?}", tags(other)),
    }
}

/// Runs the search as the task would (a shorter budget: a test).
fn engine(game: &crate::games::AnyGame) -> crate::games::AnyMove {
    let think = rules::Think::uncancelled(Level::Master, Duration::from_millis(100), 7);
    crate::bots::choose(game, &think).expect("a move")
}

fn directs(effects: &[Effect]) -> Vec<(MemberId, Value)> {
    effects
        .iter()
        .filter_map(|e| match e {
            Effect::Direct { member, message } => {
                Some((*member, serde_json::to_value(message).unwrap()))
            }
            _ => None,
        })
        .collect()
}

#[test]
fn against_the_computer_a_hint_is_a_legal_move_for_the_current_ply_sent_to_the_asker_only() {
    for kind in [GameKind::CrossyRay, GameKind::Quoridor, GameKind::Jungle] {
        let (mut state, host) = against_computer(kind);
        let watcher = join(&mut state, &token(5), Some("Vy"), 0);
        let effects = ok(&mut state, host, Command::Hint, 1_000);
        let (id, game, budget_ms) = search(&effects, host);
        assert_eq!(budget_ms, 1_000, "{kind:?}: at most a second");
        assert_eq!(
            serde_json::to_value(&game).unwrap(),
            serde_json::to_value(&current(&state).game).unwrap(),
            "{kind:?}: the position shown"
        );
        let found = engine(&game);
        let effects = state.hint_found(host, id, Some(found));
        let answer = json!({"type": "hint", "ply": 0, "move": found.to_string()});
        assert_eq!(directs(&effects), [(host, answer)], "{kind:?}");
        assert!(!directs(&effects).iter().any(|(m, _)| *m == watcher));
        // The move is one the rules take.
        ok(&mut state, host, mv(&found.to_string()), 1_500);
        assert_eq!(current(&state).moves, [found.to_string()]);
        // The answer counts once.
        assert!(state.hint_found(host, id, Some(found)).is_empty());
    }
}

#[test]
fn the_hint_budget_is_the_computers_when_shorter() {
    let mut state = room_with(
        GameKind::Jungle,
        Value::Null,
        RoomConfig {
            bot_budget_ms: 300,
            ..config()
        },
    );
    let host = join(&mut state, HOST, Some("Minh"), 0);
    ok(&mut state, host, sit(0), 0);
    ok(&mut state, host, computer(1), 0);
    ok(&mut state, host, start(Order::Seats), 0);
    let effects = ok(&mut state, host, Command::Hint, 1_000);
    assert_eq!(search(&effects, host).2, 300);
}

#[test]
fn no_hint_between_people_for_a_spectator_with_no_game_nor_with_a_person_partner() {
    let (mut state, host, guest) = two_seated(GameKind::Jungle, Value::Null, 0);
    assert_eq!(code(&mut state, host, Command::Hint, 0), Code::NoHint);
    ok(&mut state, host, start(Order::Seats), 0);
    assert_eq!(code(&mut state, host, Command::Hint, 10), Code::NoHint);
    assert_eq!(code(&mut state, guest, Command::Hint, 10), Code::NoHint);
    let watcher = join(&mut state, &token(5), Some("Vy"), 0);
    assert_eq!(code(&mut state, watcher, Command::Hint, 10), Code::NoHint);

    // Against the computer, a spectator still gets none.
    let (mut state, _) = against_computer(GameKind::CrossyRay);
    let watcher = join(&mut state, &token(5), Some("Vy"), 0);
    assert_eq!(code(&mut state, watcher, Command::Hint, 10), Code::NoHint);

    // A team game: a person as partner (or opponent) means no hint.
    let mut state = room(GameKind::Quoridor, json!({"mode": "teams"}));
    let [host, _, _] = teams_started(&mut state);
    assert_eq!(code(&mut state, host, Command::Hint, 10), Code::NoHint);
}

#[test]
fn a_team_of_a_person_and_the_computer_against_computers_gets_hints_on_the_persons_turns() {
    let mut state = room(GameKind::Quoridor, json!({"mode": "teams"}));
    let host = join(&mut state, HOST, Some("Minh"), 0);
    ok(&mut state, host, sit(0), 0);
    for seat in [1, 4, 5] {
        ok(&mut state, host, computer(seat), 0);
    }
    ok(&mut state, host, start(Order::Seats), 0);
    let m = current(&state);
    assert_eq!(m.due().map(|p| p.member), Some(host), "Minh opens");
    let effects = ok(&mut state, host, Command::Hint, 100);
    let (id, game, _) = search(&effects, host);
    let found = engine(&game);
    assert_eq!(directs(&state.hint_found(host, id, Some(found))).len(), 1);
    ok(&mut state, host, mv(&found.to_string()), 200);
    // The computers' turns now (the opponent's, then Minh's partner's).
    assert_eq!(
        code(&mut state, host, Command::Hint, 5_000),
        Code::NotYourTurn
    );
}

#[test]
fn not_on_the_computers_turn() {
    let (mut state, host) = against_computer(GameKind::CrossyRay);
    ok(&mut state, host, mv("f4"), 1_000);
    assert!(state.tables[0].thinking.is_some(), "the computer thinks");
    assert_eq!(
        code(&mut state, host, Command::Hint, 1_500),
        Code::NotYourTurn
    );
}

#[test]
fn one_hint_search_at_once_and_one_hint_every_two_seconds() {
    let (mut state, host) = against_computer(GameKind::Quoridor);
    let (id, game, _) = search(&ok(&mut state, host, Command::Hint, 1_000), host);
    assert_eq!(
        code(&mut state, host, Command::Hint, 9_000),
        Code::HintBusy,
        "busy however long it takes"
    );
    let found = engine(&game);
    assert_eq!(directs(&state.hint_found(host, id, Some(found))).len(), 1);
    assert_eq!(
        code(&mut state, host, Command::Hint, 1_000 + HINT_EVERY_MS - 1),
        Code::RateLimited
    );
    ok(&mut state, host, Command::Hint, 1_000 + HINT_EVERY_MS);
}

#[test]
fn a_hint_for_a_position_gone_names_its_ply_and_the_end_of_the_game_stops_it() {
    let (mut state, host) = against_computer(GameKind::CrossyRay);
    let table = state.tables[0].id;
    let (id, game, _) = search(&ok(&mut state, host, Command::Hint, 1_000), host);
    let found = engine(&game);
    // Minh moves before the answer, and the computer answers.
    ok(&mut state, host, mv("f4"), 1_200);
    let think = state.tables[0].thinking.unwrap();
    state.bot_move(table, think, None, 1_300);
    assert_eq!(current(&state).moves.len(), 2);
    let effects = state.hint_found(host, id, Some(found));
    assert_eq!(
        directs(&effects),
        [(
            host,
            json!({"type": "hint", "ply": 0, "move": found.to_string()})
        )],
        "the answer names the ply it was for"
    );

    // Asked, then the game ends: the search stops, nothing is sent.
    let (id, game, _) = search(&ok(&mut state, host, Command::Hint, 4_000), host);
    let resign = Command::Resign(cmd::Resign { table: None });
    let effects = ok(&mut state, host, resign, 4_100);
    assert!(
        tags(&effects).contains(&format!("stop_hint:{host}")),
        "{:?}",
        tags(&effects)
    );
    assert!(state.hint_found(host, id, Some(engine(&game))).is_empty());
    // Not busy any more; and no game to hint at.
    assert_eq!(code(&mut state, host, Command::Hint, 9_000), Code::NoHint);
}

#[test]
fn a_hint_for_a_position_taken_back_and_played_again_to_the_same_ply_is_not_sent() {
    let (mut state, host) = against_computer(GameKind::CrossyRay);
    let table = state.tables[0].id;
    let (id, game, _) = search(&ok(&mut state, host, Command::Hint, 1_000), host);
    ok(&mut state, host, mv("f4"), 1_100);
    let takeback = Command::Takeback(cmd::Takeback {
        action: DrawAction::Offer,
        table: None,
    });
    ok(&mut state, host, takeback, 1_200);
    assert!(current(&state).moves.is_empty());
    assert!(state.hint_found(host, id, Some(engine(&game))).is_empty());
    // A position replaced at another ply still gets its (stale) answer.
    let (id, game, _) = search(&ok(&mut state, host, Command::Hint, 4_000), host);
    ok(&mut state, host, mv("f4"), 4_100);
    let think = state.tables[0].thinking.unwrap();
    state.bot_move(table, think, None, 4_200);
    assert_eq!(
        directs(&state.hint_found(host, id, Some(engine(&game)))).len(),
        1
    );
}

#[test]
fn a_game_lost_on_time_stops_the_hint_search() {
    let (mut state, host) = against_computer_with(GameKind::CrossyRay, crossy_clock());
    let table = state.tables[0].id;
    let (id, game, _) = search(&ok(&mut state, host, Command::Hint, 1_000), host);
    let effects = state.fire(crate::room::Timer::Clock(table), 200_000);
    assert!(
        tags(&effects).contains(&format!("stop_hint:{host}")),
        "{:?}",
        tags(&effects)
    );
    assert!(state.hint_found(host, id, Some(engine(&game))).is_empty());
    assert!(state.hints_in_flight().is_empty());
}
