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

/// An unknown field is refused naming every field the options are read
/// with: the room's (`mode`, `days`) and the game's, each of which reads.
#[test]
fn an_unknown_field_names_every_field_read() {
    let sample = |field: &str| match field {
        "mode" => json!("knockout"),
        "days" => json!(1),
        "width" => json!(11),
        "height" => json!(11),
        "clock" => json!([3, 2]),
        "start" => json!(null),
        "size" => json!(11),
        "players" => json!(3),
        "walls" => json!(5),
        "goal" => json!("centre"),
        "turn_seconds" => json!(20),
        "move_limit" => json!(50),
        other => panic!("no sample for {other}"),
    };
    for (kind, named) in [
        (
            GameKind::CrossyRay,
            "`mode`, `days`, `width`, `height`, `clock`",
        ),
        (GameKind::Jungle, "`mode`, `days`, `clock`, `start`"),
        (
            GameKind::Quoridor,
            "`mode`, `days`, `size`, `players`, `walls`, `goal`, `turn_seconds`, `move_limit`",
        ),
    ] {
        assert_eq!(
            GameOptions::parse(kind, &json!({"width": 9, "foo": 1})).unwrap_err(),
            format!("Bad options: unknown field `foo`, expected one of {named}.")
        );
        for field in super::options::fields(kind) {
            let options = json!({ field: sample(field) });
            assert!(
                GameOptions::parse(kind, &options).is_ok(),
                "{kind:?} {options}"
            );
        }
    }
}

/// `mode` is its name alone: not serde's `{"teams": null}`.
#[test]
fn a_mode_is_only_its_name() {
    for bad in [
        json!({"teams": null}),
        json!({}),
        json!(["teams"]),
        json!(1),
    ] {
        assert_eq!(
            GameOptions::parse(GameKind::Quoridor, &json!({ "mode": bad })).unwrap_err(),
            format!("Bad options: mode must be \"ffa\" or \"teams\" or \"knockout\", not {bad}.")
        );
    }
    let teams = GameOptions::parse(GameKind::Quoridor, &json!({"mode": "teams"})).unwrap();
    assert_eq!(teams.mode(), Mode::Teams);
}

/// A number out of any range is refused in the words of one out of the
/// rule's range, and both as options (`Bad options: ….`).
#[test]
fn numbers_out_of_any_range_get_the_rules_words() {
    for (kind, options, message) in [
        (
            GameKind::Quoridor,
            json!({"size": 10}),
            "the board must be 9×9, 11×11 or 13×13, not 10×10",
        ),
        (
            GameKind::Quoridor,
            json!({"size": 256}),
            "the board must be 9×9, 11×11 or 13×13, not 256×256",
        ),
        (
            GameKind::Quoridor,
            json!({"players": 300}),
            "Quoridor is for 2 to 8 players, not 300",
        ),
        (
            GameKind::Quoridor,
            json!({"mode": "teams", "players": 300}),
            "Quoridor is for 2 to 8 players, not 300",
        ),
        (
            GameKind::Quoridor,
            json!({"move_limit": null}),
            "move_limit must be a number from 1 to 200, not null (leave it out for its default)",
        ),
        (
            GameKind::Quoridor,
            json!({"goal": {"centre": null}}),
            "goal must be \"edge\" or \"centre\", not an object",
        ),
        (
            GameKind::CrossyRay,
            json!({"width": 4_294_967_305_u64}),
            "the board must be 5 to 25 cells wide and 5 to 25 tall, not 4294967305 × 7",
        ),
        (
            GameKind::Jungle,
            json!({"clock": [5_000_000_000_u64, 3]}),
            "5000000000+3 is not a clock preset: choose one of 3+2, 5+3, 10+5, 15+10",
        ),
    ] {
        assert_eq!(
            GameOptions::parse(kind, &options).unwrap_err(),
            format!("Bad options: {message}."),
            "{options}"
        );
    }
}

/// A key given twice is kept from the request as the options' refusal.
#[test]
fn a_key_given_twice_is_refused_by_name() {
    let sent: SentOptions = serde_json::from_str(r#"{"width":9,"width":11}"#).unwrap();
    assert_eq!(
        sent.json(),
        Err("Bad options: `width` is given twice.".to_string())
    );
    let nested: SentOptions =
        serde_json::from_str(r#"{"clock":[3,2],"x":[{"a":1,"a":1}]}"#).unwrap();
    assert_eq!(
        nested.json(),
        Err("Bad options: `x.0.a` is given twice.".to_string())
    );
    let once: SentOptions = serde_json::from_str(
        r#"{"width":11,"clock":{"minutes":3,"increment":2},"x":[1.5,null,true,"s"]}"#,
    )
    .unwrap();
    assert_eq!(
        once.json(),
        Ok(
            &json!({"width": 11, "clock": {"minutes": 3, "increment": 2}, "x": [1.5, null, true, "s"]})
        )
    );
    assert_eq!(SentOptions::default().json(), Ok(&Value::Null));
}
