use super::*;
use rules::{EndReason, Game, Side, TimeControl};
use serde_json::{json, Value};

fn setup(kind: GameKind, options: Value) -> Result<(GameOptions, AnyGame), String> {
    let options = GameOptions::parse(kind, &options)?;
    let game = AnyGame::new(&options).map_err(|e| e.to_string())?;
    Ok((options, game))
}

#[test]
fn jungle_rooms_take_the_clock_presets_only() {
    let (options, game) = setup(GameKind::Jungle, json!({"clock": [5, 3]})).unwrap();
    assert_eq!(game.sides(), 2);
    assert_eq!(
        game.time_control(),
        TimeControl::Clock {
            minutes: 5,
            increment: 3
        }
    );
    assert_eq!(
        options.to_json()["clock"],
        json!({"minutes": 5, "increment": 3})
    );
    assert!(setup(GameKind::Jungle, json!({"clock": [4, 4]})).is_err());
    assert!(setup(GameKind::Jungle, json!({"width": 9})).is_err());
    let (_, plain) = setup(GameKind::Jungle, Value::Null).unwrap();
    assert_eq!(plain.time_control(), TimeControl::Unlimited);
    assert_eq!(plain.legal().len(), 24);
}

#[test]
fn a_jungle_move_is_read_from_its_notation() {
    let (_, mut game) = setup(GameKind::Jungle, Value::Null).unwrap();
    assert!(matches!(
        game.play_text(" 8 a3-a4 ").unwrap_err(),
        MoveError::Notation(_)
    ));
    assert_eq!(game.play_text("8 a3-a4").unwrap(), "8 a3-a4");
    assert_eq!(game.to_move(), Some(Side(1)));
    let err = game.play_text("8 a4-a5").unwrap_err();
    assert!(
        matches!(err, MoveError::Jungle(_)),
        "a typed rule error: {err:?}"
    );
    assert!(matches!(
        game.play_text("elephant to the moon").unwrap_err(),
        MoveError::Notation(_)
    ));
    assert_eq!(serde_json::to_value(&game).unwrap()["last_move"], "8 a3-a4");
}

#[test]
fn unknown_games_are_refused_by_name() {
    let err = GameKind::parse("chess").unwrap_err();
    assert!(err.contains("crossyray, quoridor, jungle"), "{err}");
    assert_eq!(GameKind::parse("quoridor"), Ok(GameKind::Quoridor));
    assert_eq!(
        serde_json::to_value(GameKind::CrossyRay).unwrap(),
        "crossyray"
    );
}

#[test]
fn quoridor_modes_set_the_seats_and_never_reach_the_engine() {
    let (ffa, _) = setup(GameKind::Quoridor, json!({"players": 4, "size": 11})).unwrap();
    assert_eq!(ffa.seating(), Seating::PerSide(4));
    assert_eq!(ffa.to_json()["mode"], "ffa");
    assert_eq!(ffa.to_json()["size"], 11);
    let (teams, game) = setup(GameKind::Quoridor, json!({"mode": "teams", "players": 6})).unwrap();
    assert_eq!(teams.seating(), Seating::Teams);
    assert_eq!(teams.seating().seats(), 8);
    assert_eq!(game.sides(), 2);
    assert_eq!(teams.to_json()["players"], 2);
    assert_eq!(teams.to_json()["mode"], "teams");
    assert_eq!(
        GameOptions::parse(GameKind::Quoridor, &teams.to_json()).unwrap(),
        teams,
        "stored options read back the same"
    );
    assert!(setup(GameKind::Quoridor, json!({"mode": "single"})).is_err());
    let (knockout, game) =
        setup(GameKind::Quoridor, json!({"mode": "knockout", "size": 11})).unwrap();
    assert_eq!(knockout.seating(), Seating::Knockout);
    assert_eq!(game.sides(), 2, "a tournament match is a two-pawn game");
    let (crossy, _) = setup(GameKind::CrossyRay, json!({"mode": "knockout"})).unwrap();
    assert_eq!(crossy.seating().seats(), 32);
    assert_eq!(crossy.to_json()["mode"], "knockout");
    assert!(setup(GameKind::Jungle, json!({"mode": "teams"})).is_err());
    // A `players` out of 2..8 is refused in every mode (RULES.md §2),
    // though teams and tournaments play two pawns whatever it says.
    for mode in ["teams", "knockout"] {
        for players in [0, 1, 9, 100] {
            let options = json!({"mode": mode, "players": players});
            assert!(
                setup(GameKind::Quoridor, options.clone()).is_err(),
                "{options}"
            );
        }
    }
    // `walls` on the wire: "auto" itself or a number.
    for walls in [json!("Auto"), json!("AUTO"), json!("3"), json!("10")] {
        let options = json!({"walls": walls});
        assert!(
            setup(GameKind::Quoridor, options.clone()).is_err(),
            "{options}"
        );
    }
    assert!(setup(GameKind::Quoridor, json!({"walls": "auto"})).is_ok());
    assert!(setup(GameKind::Quoridor, json!({"walls": 10})).is_ok());
    assert!(setup(GameKind::Quoridor, json!({"colour": "red"})).is_err());
    assert!(setup(GameKind::Quoridor, json!([1])).is_err());
    assert_eq!(
        setup(GameKind::Quoridor, Value::Null)
            .unwrap()
            .1
            .time_control(),
        TimeControl::PerMove { seconds: 30 }
    );
}

#[test]
fn a_win_scores_one_except_in_quoridor() {
    let (_, mut jungle) = setup(GameKind::Jungle, Value::Null).unwrap();
    assert_eq!(jungle.points(), None);
    jungle.play_text("8 a3-a4").unwrap();
    jungle.play_text("8 g7-g6").unwrap();
    jungle.forfeit(Side(1), EndReason::Resign);
    assert_eq!(jungle.points(), Some(vec![1, 0]));
    let (_, mut q) = setup(GameKind::Quoridor, Value::Null).unwrap();
    q.play_text("e2").unwrap();
    q.play_text("e8").unwrap();
    q.forfeit(Side(0), EndReason::Resign);
    assert_eq!(q.points(), Some(vec![0, 10]));
}

#[test]
fn a_move_with_spaces_around_it_is_unreadable_in_every_game() {
    for (kind, mv) in [
        (GameKind::CrossyRay, "f4"),
        (GameKind::Quoridor, "e2"),
        (GameKind::Jungle, "8 a3-a4"),
    ] {
        let (_, game) = setup(kind, Value::Null).unwrap();
        assert!(game.parse_move(mv).is_ok(), "{kind:?} {mv}");
        for text in [format!(" {mv}"), format!("{mv} "), format!("{mv}\n")] {
            assert!(game.parse_move(&text).is_err(), "{kind:?} {text:?}");
        }
    }
}

#[test]
fn a_move_is_typed_in_the_game_it_is_read_in_and_refused_in_another() {
    let (_, mut jungle) = setup(GameKind::Jungle, Value::Null).unwrap();
    let (_, quoridor) = setup(GameKind::Quoridor, Value::Null).unwrap();
    let mv = jungle.parse_move("8 a3-a4").unwrap();
    assert_eq!(mv.kind(), GameKind::Jungle);
    assert_eq!(mv.to_string(), "8 a3-a4");
    assert!(jungle.legal_moves().contains(&mv));
    let pawn = quoridor.parse_move("e2").unwrap();
    assert_eq!(
        jungle.play(&pawn),
        Err(MoveError::OtherGame {
            game: GameKind::Jungle,
            mv: GameKind::Quoridor
        })
    );
    assert_eq!(jungle.ply(), 0, "a refused move changes nothing");
    jungle.play(&mv).unwrap();
    assert_eq!(jungle.ply(), 1);
}

#[test]
fn a_game_reads_back_from_its_view() {
    for kind in GameKind::ALL {
        let (_, mut game) = setup(kind, Value::Null).unwrap();
        let first = game.legal_moves()[0];
        game.play(&first).unwrap();
        let view = serde_json::to_value(&game).unwrap();
        let back: AnyGame = serde_json::from_value(view.clone()).unwrap();
        assert_eq!(back.kind(), kind);
        assert_eq!(serde_json::to_value(&back).unwrap(), view);
    }
}

/// RULES.md §2: `null` is no value of Quoridor's options, `mode` and
/// `move_limit` included (an outside check found those two taken as the
/// default); in CrossyRay and Jungle `mode: null` still reads as `single`.
#[test]
fn null_is_no_value_of_quoridors_options() {
    for field in [
        "mode",
        "move_limit",
        "size",
        "players",
        "walls",
        "goal",
        "turn_seconds",
    ] {
        let options = serde_json::json!({ field: null });
        assert!(
            setup(GameKind::Quoridor, options).is_err(),
            "{field}: null is refused"
        );
    }
    assert!(setup(GameKind::Quoridor, serde_json::json!({"move_limit": 5})).is_ok());
    assert!(setup(GameKind::Jungle, serde_json::json!({"mode": null})).is_ok());
}
