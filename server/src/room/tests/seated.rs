//! A seated room (quick pairing, a challenge): the players sit from the
//! start and the first game starts once all of them are online, also
//! after a restart in between; nobody is its host.

use super::*;
use crate::room::Invitee;

fn invitees() -> Vec<Invitee> {
    vec![
        Invitee {
            token: token(1),
            name: "Khoa".to_string(),
            account: None,
        },
        Invitee {
            token: token(2),
            name: "Vy".to_string(),
            account: Some(AccountRef {
                id: 7,
                username: "vy".to_string(),
                display_name: "Vy".to_string(),
            }),
        },
    ]
}

fn seated(kind: GameKind) -> (RoomState, Store) {
    let options = GameOptions::parse(kind, &Value::Null).unwrap();
    let (state, writes) = RoomState::seated("ABCDEF", options, true, &invitees(), config(), 0);
    let mut store = Store::new(&state);
    store.apply(&writes.into_iter().map(Effect::Persist).collect::<Vec<_>>());
    (state, store)
}

#[test]
fn the_first_game_starts_when_the_last_seated_player_arrives() {
    for kind in [GameKind::CrossyRay, GameKind::Quoridor, GameKind::Jungle] {
        let (mut state, _) = seated(kind);
        assert!(state.rated);
        let khoa = join(&mut state, &token(1), None, 10);
        assert_eq!(member(&state, khoa).seat, Some(0));
        assert_eq!(member(&state, khoa).name.as_deref(), Some("Khoa"));
        assert!(!state.busy(), "{kind:?}: one player here is not enough");
        // A watcher changes nothing.
        join(&mut state, &token(3), None, 20);
        assert!(!state.busy());
        let (vy, effects) = join_as(&mut state, greeting(&token(2), None, None), 30);
        assert_eq!(member(&state, vy).seat, Some(1));
        assert!(state.busy(), "{kind:?}: both here, the game starts");
        let m = current(&state);
        assert_eq!(m.side_of(khoa), Some(rules::Side(0)), "seat i plays side i");
        assert_eq!(m.side_of(vy), Some(rules::Side(1)));
        assert!(writes(&effects)
            .iter()
            .any(|w| matches!(w, Write::Room(r) if !r.start_when_seated)));
        assert!(writes(&effects)
            .iter()
            .any(|w| matches!(w, Write::GameStarted(_))));
        // Nobody hosts it.
        assert!(state.members.iter().all(|m| !m.host));
        assert_eq!(code(&mut state, khoa, sit(1), 40), Code::GameRunning);
    }
}

#[test]
fn a_restart_before_everyone_came_keeps_the_seats_and_the_wait() {
    let (mut state, mut store) = seated(GameKind::Jungle);
    let (_, effects) = join_as(&mut state, greeting(&token(1), None, None), 10);
    store.apply(&effects);
    assert!(store.room.start_when_seated);
    let (mut state, _) = RoomState::restore(store.saved(), config(), 1_000);
    assert!(!state.busy());
    let khoa = join(&mut state, &token(1), None, 1_100);
    let vy = join(&mut state, &token(2), None, 1_200);
    assert!(state.busy());
    assert_eq!(current(&state).side_of(khoa), Some(rules::Side(0)));
    assert_eq!(current(&state).side_of(vy), Some(rules::Side(1)));
    // The second game is not automatic in this way: the first started.
    assert!(!state.start_when_seated);
}

#[test]
fn only_one_player_a_side_can_be_seated() {
    let teams = GameOptions::parse(GameKind::Quoridor, &json!({"mode": "teams"})).unwrap();
    assert!(crate::room::seated::check(&teams, 2).is_err());
    let four = GameOptions::parse(GameKind::Quoridor, &json!({"players": 4})).unwrap();
    assert!(crate::room::seated::check(&four, 2).is_err());
    assert!(crate::room::seated::check(&four, 4).is_ok());
    let jungle = GameOptions::parse(GameKind::Jungle, &Value::Null).unwrap();
    assert!(crate::room::seated::check(&jungle, 3).is_err());
    assert!(crate::room::seated::check(&jungle, 2).is_ok());
}
