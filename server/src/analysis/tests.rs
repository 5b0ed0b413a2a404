use rules::EndReason;
use serde_json::json;

use super::*;

fn stored(moves: &[&str], positions: Vec<Value>) -> StoredAnalysis {
    StoredAnalysis {
        id: "g".into(),
        game: "jungle".into(),
        options: json!({}),
        moves: moves.iter().map(|m| m.to_string()).collect(),
        leaves: json!([]),
        total: moves.len() + 1,
        positions,
        status: "running".into(),
    }
}

fn at(ply: usize, to_move: u8, best: &str, mover: f64) -> Value {
    let c = if to_move == 0 {
        [mover, 1.0 - mover]
    } else {
        [1.0 - mover, mover]
    };
    json!({"ply": ply, "to_move": to_move, "chances": c, "standing": c, "best": best, "score": 0, "depth": 3})
}

#[test]
fn moves_are_graded_by_the_drop_in_their_players_chance() {
    // Side 0 at 60 % plays b (best a) and is at 45 % after: a drop of 15
    // points; side 1 then plays its best; side 0 drops 35 points.
    let a = stored(
        &["b", "x", "c"],
        vec![
            at(0, 0, "a", 0.6),
            at(1, 1, "x", 0.55),
            at(2, 0, "d", 0.45),
            at(3, 1, "y", 0.9),
        ],
    );
    let r = report(&a, 2);
    assert_eq!(
        (r["total"].clone(), r["analysed"].clone()),
        (json!(3), json!(3))
    );
    let grades: Vec<Value> = r["moves"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["grade"].clone())
        .collect();
    assert_eq!(
        grades,
        vec![json!("inaccuracy"), Value::Null, json!("blunder")]
    );
    assert_eq!(r["moves"][0]["drop"], 0.15);
    assert_eq!(r["moves"][1]["drop"], 0.0, "the best move drops nothing");
    assert_eq!(r["moves"][2]["best"], "d");
    let p0 = &r["players"][0];
    assert_eq!(
        (
            p0["inaccuracies"].clone(),
            p0["blunders"].clone(),
            p0["mistakes"].clone()
        ),
        (json!(1), json!(1), json!(0))
    );
    assert_eq!(r["players"][1]["accuracy"], 100.0);
    assert!(p0["accuracy"].as_f64().unwrap() < 70.0);
    assert!(r["positions"][0].get("standing").is_none());
}

#[test]
fn an_unfinished_analysis_grades_the_moves_it_has_both_sides_of() {
    let a = stored(&["b", "x"], vec![at(0, 0, "b", 0.5), at(1, 1, "x", 0.5)]);
    let r = report(&a, 2);
    assert_eq!(
        (r["total"].clone(), r["analysed"].clone()),
        (json!(2), json!(1))
    );
    assert_eq!(r["players"][1]["accuracy"], Value::Null);
}

#[test]
fn a_resignation_is_no_position_but_a_pawn_that_leaves_is() {
    let two = games_of(
        GameKind::Jungle,
        &json!({}),
        &["8 a3-a4".to_string()],
        &[Leave {
            ply: 1,
            sides: vec![Side(0)],
            reason: EndReason::Resign,
        }],
    );
    assert_eq!(two.len(), 2);
    assert!(!two[1].is_over(), "judged as the resignation left it");
    let three = games_of(
        GameKind::Quoridor,
        &json!({"players": 3}),
        &["e2".to_string(), "e8".to_string()],
        &[Leave {
            ply: 1,
            sides: vec![Side(1)],
            reason: EndReason::Abandon,
        }],
    );
    assert_eq!(three.len(), 3, "the move after the leave replays");
    assert_eq!(three[1].to_move(), Some(Side(2)));
}

/// After a pawn leaves a game of three, the two left are judged by the
/// search: the side that left has 0 and the others share the rest, the
/// search's chance going to the side to move (an outside check found the
/// two-sided result spread over the wrong sides).
#[test]
fn a_side_that_left_has_no_chance_and_the_others_share_it() {
    let games = games_of(
        GameKind::Quoridor,
        &json!({"players": 3}),
        &["e2", "b5", "e8", "e3", "e7"].map(String::from),
        &[Leave {
            ply: 3,
            sides: vec![Side(1)],
            reason: EndReason::Resign,
        }],
    );
    assert_eq!(games.len(), 6);
    let never = AtomicBool::new(false);
    for game in &games[3..] {
        let judged = judge(game, Duration::from_millis(30), &never).unwrap();
        let c = chances(&judged, "chances");
        assert_eq!(c[1], 0.0, "side 1 left: {judged}");
        assert!((c.iter().sum::<f64>() - 1.0).abs() < 1e-3, "{judged}");
        let me = judged["to_move"].as_u64().unwrap() as usize;
        assert!(me == 0 || me == 2);
        if judged["score"].is_i64() {
            let mine = 1.0 / (1.0 + (-judged["score"].as_f64().unwrap() / 150.0).exp());
            assert!((c[me] - mine).abs() < 1e-3, "the mover's chance: {judged}");
        }
    }
}

/// A turn-based timeout that ends the game is its end (judged as over);
/// a resignation that ends it is not.
#[test]
fn a_timeout_that_ends_the_game_is_its_last_position() {
    let games = games_of(
        GameKind::Quoridor,
        &json!({"players": 3}),
        &["d1".to_string()],
        &[
            Leave {
                ply: 1,
                sides: vec![Side(1)],
                reason: EndReason::Timeout,
            },
            Leave {
                ply: 1,
                sides: vec![Side(2)],
                reason: EndReason::Timeout,
            },
        ],
    );
    assert_eq!(games.len(), 2);
    assert!(games[1].is_over(), "the end, nobody to move");
    let never = AtomicBool::new(false);
    let end = judge(&games[1], Duration::from_millis(30), &never).unwrap();
    assert_eq!(end["to_move"], Value::Null);
    assert_eq!(end["best"], Value::Null);
    assert_eq!(chances(&end, "chances"), vec![1.0, 0.0, 0.0]);
}
