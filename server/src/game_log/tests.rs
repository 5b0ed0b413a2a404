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

// ---- takebacks ----------------------------------------------------------------

/// A game of each kind (and Quoridor with four pawns racing to the
/// centre), to take moves back in.
fn every_game() -> Vec<(GameKind, Value)> {
    vec![
        (GameKind::CrossyRay, Value::Null),
        (GameKind::Jungle, Value::Null),
        (GameKind::Quoridor, json!({"mode": "ffa"})),
        (
            GameKind::Quoridor,
            json!({"mode": "ffa", "players": 4, "goal": "centre"}),
        ),
    ]
}

/// `n` steps from the start of `kind`: moves that do not end the game,
/// picked by `seed`, and in Quoridor a timeout every third step (the pass
/// or step aside the rules play is a move of the record).
fn line(kind: GameKind, options: &Value, n: usize, seed: usize) -> Vec<Step> {
    let mut scratch = log(kind, options.clone());
    let mut steps = Vec::new();
    for i in 0..n {
        let step = if kind == GameKind::Quoridor && i % 3 == 2 {
            Step::Timeout {
                side: scratch.game.to_move().unwrap(),
            }
        } else {
            let legal = scratch.game.legal();
            (0..legal.len())
                .map(|k| {
                    scratch
                        .read_move(&legal[(k + seed * 7 + i) % legal.len()])
                        .unwrap()
                })
                .find(|step| {
                    let mut after = scratch.clone();
                    after.apply(step).is_ok() && !after.game.is_over()
                })
                .expect("a move that does not end the game")
        };
        scratch.apply(&step).unwrap();
        steps.push(step);
    }
    steps
}

fn played(kind: GameKind, options: &Value, steps: &[Step]) -> GameLog {
    let mut log = log(kind, options.clone());
    for step in steps {
        log.apply(step).unwrap();
    }
    log
}

/// The same record and the same position (view, legal moves, and what can
/// be taken back further).
fn assert_same(a: &GameLog, b: &GameLog, what: &str) {
    assert_eq!(
        (&a.moves, &a.move_sides, &a.leaves, &a.gone),
        (&b.moves, &b.move_sides, &b.leaves, &b.gone),
        "{what}: the record"
    );
    assert_eq!(
        serde_json::to_value(&a.game).unwrap(),
        serde_json::to_value(&b.game).unwrap(),
        "{what}: the position"
    );
    assert_eq!(a.game.legal(), b.game.legal(), "{what}: the legal moves");
    assert_eq!(a.game.takebacks(), b.game.takebacks(), "{what}");
}

#[test]
fn a_takeback_gives_the_position_and_record_of_fewer_moves() {
    for (kind, options) in every_game() {
        let steps = line(kind, &options, 6, 1);
        for plies in [1, 2] {
            let mut log = played(kind, &options, &steps);
            assert_eq!(log.apply(&Step::Takeback { plies }), Ok(None));
            let fewer = played(kind, &options, &steps[..6 - plies]);
            assert_same(&log, &fewer, &format!("{kind}, {plies} back"));
            // And the game goes on from there as if they were never played.
            let next = log.read_move(&log.game.legal()[0]).unwrap();
            let mut fewer = fewer;
            log.apply(&next).unwrap();
            fewer.apply(&next).unwrap();
            assert_same(&log, &fewer, &format!("{kind}, {plies} back and on"));
        }
    }
}

#[test]
fn a_takeback_is_stored_as_its_kind_and_plies() {
    let log = log(GameKind::Jungle, Value::Null);
    let step = Step::Takeback { plies: 2 };
    let written = step.written();
    assert_eq!(
        serde_json::to_value(&written).unwrap(),
        json!({"kind": "takeback", "plies": 2})
    );
    let stored: Step<String> =
        serde_json::from_str(&serde_json::to_string(&written).unwrap()).unwrap();
    assert_eq!(log.read(&stored), Ok(step));
}

#[test]
fn a_takeback_that_does_not_fit_is_refused_and_changes_nothing() {
    let refused = |log: &mut GameLog, plies: usize, why: NoTakeback| {
        let before = log.clone();
        assert_eq!(
            log.apply(&Step::Takeback { plies }),
            Err(LogError::NoTakeback(why))
        );
        assert_same(log, &before, &format!("{plies} refused"));
    };
    let options = json!({"mode": "ffa", "players": 3});
    let mut log = played(
        GameKind::Quoridor,
        &options,
        &line(GameKind::Quoridor, &options, 2, 0),
    );
    refused(&mut log, 0, NoTakeback::Nothing);
    refused(&mut log, 3, NoTakeback::TooFew { plies: 3, moves: 2 });
    // Side 2 leaves after two moves; one more is played.
    log.apply(&Step::Forfeit {
        sides: vec![Side(2)],
        reason: EndReason::Abandon,
    })
    .unwrap();
    let next = log.read_move(&log.game.legal()[0]).unwrap();
    log.apply(&next).unwrap();
    refused(&mut log, 2, NoTakeback::AfterLeave);
    assert_eq!(log.apply(&Step::Takeback { plies: 1 }), Ok(None));
    assert_eq!(log.moves.len(), 2);
    assert_eq!(
        log.game.to_move(),
        Some(Side(0)),
        "side 2's pawn stays gone"
    );
    refused(&mut log, 1, NoTakeback::AfterLeave);

    // A game takes MAX_TAKEBACKS takebacks, no more.
    let mut again = log_after(GameKind::Jungle, &[]);
    for _ in 0..MAX_TAKEBACKS {
        again.apply(&again.read_move("8 a3-a4").unwrap()).unwrap();
        assert_eq!(again.apply(&Step::Takeback { plies: 1 }), Ok(None));
    }
    again.apply(&again.read_move("8 a3-a4").unwrap()).unwrap();
    refused(&mut again, 1, NoTakeback::TooMany);
    assert_eq!(again.takebacks.len(), MAX_TAKEBACKS);

    let mut jungle = log_after(GameKind::Jungle, &["8 a3-a4", "8 g7-g6"]);
    jungle
        .apply(&Step::Draw {
            reason: EndReason::Agreement,
        })
        .unwrap();
    refused(&mut jungle, 1, NoTakeback::Over);

    let refusal = crate::protocol::Refusal::from(LogError::NoTakeback(NoTakeback::Over));
    assert_eq!(refusal.code, crate::protocol::Code::NoTakeback);
    assert_eq!(refusal.message, "No takeback: the game is over.");
}

fn log_after(kind: GameKind, moves: &[&str]) -> GameLog {
    let mut log = log(kind, Value::Null);
    for text in moves {
        let step = log.read_move(text).unwrap();
        log.apply(&step).unwrap();
    }
    log
}

/// What happens to a log, picked at random.
#[derive(Clone, Debug)]
enum Act {
    Move(usize),
    Timeout,
    Takeback(usize),
    Leave(usize),
}

fn act() -> impl proptest::strategy::Strategy<Value = Act> {
    use proptest::prelude::*;
    prop_oneof![
        8 => any::<usize>().prop_map(Act::Move),
        1 => Just(Act::Timeout),
        3 => (0usize..4).prop_map(Act::Takeback),
        1 => any::<usize>().prop_map(Act::Leave),
    ]
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig::with_cases(48))]

    /// Random logs with takebacks (some refused), timeouts and leaves:
    /// after each takeback the position is the one the log had at that
    /// move; the steps written and read back build the same log; and the
    /// record left (moves and leaves, as a finished game keeps them)
    /// replays to the same position.
    #[test]
    fn takebacks_agree_with_the_record_and_survive_the_store(
        game in 0usize..5,
        acts in proptest::collection::vec(act(), 0..40),
    ) {
        let mut games = every_game();
        games.push((GameKind::Quoridor, json!({"mode": "ffa", "players": 4})));
        let (kind, options) = games.swap_remove(game);
        let mut log = log(kind, options.clone());
        // The position after each number of moves (and the leaves after
        // them), and the steps accepted, as stored.
        let mut at = vec![serde_json::to_value(&log.game).unwrap()];
        let mut stored: Vec<String> = Vec::new();
        for act in &acts {
            if log.game.is_over() {
                break;
            }
            let step = match *act {
                Act::Move(k) => {
                    let legal = log.game.legal();
                    log.read_move(&legal[k % legal.len()]).unwrap()
                }
                Act::Timeout => Step::Timeout { side: log.game.to_move().unwrap() },
                Act::Takeback(plies) => Step::Takeback { plies },
                Act::Leave(k) => Step::Forfeit {
                    sides: vec![Side((k % log.game.sides()) as u8)],
                    reason: EndReason::Abandon,
                },
            };
            let before = log.clone();
            match log.apply(&step) {
                Ok(_) => stored.push(serde_json::to_string(&step.written()).unwrap()),
                Err(e) => {
                    assert!(matches!(step, Step::Takeback { .. }), "{step:?}: {e}");
                    assert_same(&log, &before, "a refused takeback");
                    continue;
                }
            }
            at.truncate(log.moves.len() + 1);
            let now = serde_json::to_value(&log.game).unwrap();
            match step {
                Step::Takeback { .. } => assert_eq!(&now, at.last().unwrap(), "{step:?}"),
                _ if at.len() == log.moves.len() => at.push(now),
                _ => *at.last_mut().unwrap() = now,
            }
        }
        // The store's steps, read back one by one as a restore does.
        let mut restored = GameLog::new(&GameOptions::parse(kind, &options).unwrap()).unwrap();
        for text in &stored {
            let entry: Step<String> = serde_json::from_str(text).unwrap();
            let step = restored.read(&entry).unwrap();
            restored.apply(&step).unwrap();
        }
        assert_same(&restored, &log, "restored");
        // The record: each move, with the leaves after it.
        let mut record = GameLog::new(&GameOptions::parse(kind, &options).unwrap()).unwrap();
        let leave_due = |record: &mut GameLog| {
            let played = record.moves.len();
            for leave in log.leaves.iter().filter(|l| l.ply == played) {
                record.apply(&Step::Forfeit { sides: leave.sides.clone(), reason: leave.reason }).unwrap();
            }
        };
        leave_due(&mut record);
        for (text, side) in log.moves.iter().zip(&log.move_sides) {
            let notation = record.game.parse_move(text).unwrap();
            record.apply(&Step::Move { side: *side, notation }).unwrap();
            leave_due(&mut record);
        }
        assert_eq!(
            (&record.moves, &record.move_sides, &record.leaves),
            (&log.moves, &log.move_sides, &log.leaves)
        );
        if !log.game.is_over() {
            assert_eq!(
                serde_json::to_value(&record.game).unwrap(),
                serde_json::to_value(&log.game).unwrap(),
                "the record replays to the position"
            );
        }
    }
}
