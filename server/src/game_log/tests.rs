use rules::Outcome;
use serde_json::{json, Value};

use super::*;
use crate::games::GameKind;

fn log(kind: GameKind, options: Value) -> GameLog {
    GameLog::new(&GameOptions::parse(kind, &options).unwrap()).unwrap()
}

#[test]
fn a_move_out_of_turn_is_refused_and_changes_nothing() {
    let mut log = log(GameKind::Jungle, Value::Null);
    let Step::Move { notation: mv, .. } = log.read_move("8 a3-a4").unwrap() else {
        panic!("a move");
    };
    let out_of_turn = Step::Move {
        side: Side(1),
        notation: mv,
    };
    assert_eq!(log.apply(&out_of_turn), Err(LogError::NotYourTurn(Side(1))));
    assert!(log.moves.is_empty() && log.game.ply() == 0);
    let played = log
        .apply(&Step::Move {
            side: Side(0),
            notation: mv,
        })
        .unwrap();
    assert_eq!(played, Some(Played { side: Side(0), mv }));
    assert_eq!(
        (log.moves.as_slice(), log.move_sides.as_slice()),
        (["8 a3-a4".to_string()].as_slice(), [Side(0)].as_slice())
    );
}

#[test]
fn a_quoridor_timeout_records_the_pass_the_rules_play() {
    let mut log = log(GameKind::Quoridor, json!({"mode": "ffa"}));
    let played = log.apply(&Step::Timeout { side: Side(0) }).unwrap();
    assert_eq!(played.map(|p| p.mv.to_string()), Some("pass".to_string()));
    assert_eq!(log.moves, ["pass"]);
    assert_eq!(log.game.to_move(), Some(Side(1)));
}

#[test]
fn a_leave_is_recorded_after_the_moves_played_so_far() {
    let mut log = log(GameKind::Quoridor, json!({"mode": "ffa", "players": 3}));
    let step = log.read_move("e2").unwrap();
    log.apply(&step).unwrap();
    let leave = Step::Forfeit {
        sides: vec![Side(1)],
        reason: EndReason::Abandon,
    };
    assert_eq!(log.apply(&leave), Ok(None));
    assert_eq!(
        log.leaves,
        [Leave {
            ply: 1,
            sides: vec![Side(1)],
            reason: EndReason::Abandon
        }]
    );
    assert_eq!(log.gone, [false, true, false]);
    assert_eq!(
        log.game.to_move(),
        Some(Side(2)),
        "the pawn left, its turn too"
    );
}

#[test]
fn an_agreed_draw_only_where_the_rules_have_one() {
    let mut crossy = log(GameKind::CrossyRay, Value::Null);
    assert_eq!(
        crossy.apply(&Step::Draw {
            reason: EndReason::Agreement
        }),
        Err(LogError::NoDraws)
    );
    let mut jungle = log(GameKind::Jungle, Value::Null);
    assert_eq!(
        jungle.apply(&Step::Draw {
            reason: EndReason::Agreement
        }),
        Ok(None)
    );
    assert_eq!(
        jungle.game.outcome(),
        Some(&Outcome::Draw {
            reason: EndReason::Agreement
        })
    );
}

#[test]
fn a_finished_game_refuses_a_move_in_the_rules_words() {
    let mut log = log(GameKind::Jungle, Value::Null);
    log.apply(&Step::Draw {
        reason: EndReason::Agreement,
    })
    .unwrap();
    let step = log.read_move("8 a3-a4").unwrap();
    assert!(matches!(
        log.apply(&step),
        Err(LogError::Illegal(MoveError::Jungle(_)))
    ));
}
