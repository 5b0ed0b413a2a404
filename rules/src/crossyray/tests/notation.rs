//! Move notation: cells and goals print and parse back.

use crate::crossyray::{Cell, Edge, Move};

#[test]
fn every_cell_and_goal_round_trips() {
    for file in 0..25 {
        for rank in 0..25 {
            let m = Move::Place(Cell::new(file, rank).unwrap());
            assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
        }
    }
    for edge in Edge::ALL {
        let m = Move::Goal(edge);
        assert_eq!(m.to_string().parse::<Move>().unwrap(), m);
    }
    assert_eq!(Move::Place(Cell::new(0, 0).unwrap()).to_string(), "a1");
    assert_eq!(Move::Place(Cell::new(24, 24).unwrap()).to_string(), "y25");
    assert_eq!(Move::Goal(Edge::Top).to_string(), "goal:top");
}

#[test]
fn files_count_from_the_left_and_ranks_from_the_bottom() {
    let c = "c7".parse::<Cell>().unwrap();
    assert_eq!((c.file(), c.rank()), (2, 6));
}

#[test]
fn malformed_moves_are_notation_errors() {
    for text in [
        "",
        "z1",
        "a0",
        "a26",
        "a01",
        "e",
        "4e",
        "E4",
        " e4",
        "e4 ",
        "e-4",
        "goal:",
        "goal:middle",
        "goal:Left",
        "goal left",
        "goal",
        "ee4",
    ] {
        let err = text.parse::<Move>().unwrap_err();
        assert_eq!(err.text, text);
        assert!(!err.reason.is_empty());
    }
}

#[test]
fn a_syntactically_valid_move_off_any_board_still_parses() {
    // Legality is play's question, not the notation's.
    assert!("y25".parse::<Move>().is_ok());
    assert!("goal:top".parse::<Move>().is_ok());
}

#[test]
fn moves_serialize_as_their_notation() {
    let m: Move = serde_json::from_str("\"goal:bottom\"").unwrap();
    assert_eq!(serde_json::to_value(m).unwrap(), "goal:bottom");
    assert!(serde_json::from_str::<Move>("\"nope\"").is_err());
}

/// RULES.md §1, "Position string": the worked examples.
#[test]
fn position_strings_write_the_board_origin_turn_and_ply() {
    use super::{arrange, mv, new_game};
    use crate::game::{EndReason, Game, Side};

    let mut game = new_game(9, 7);
    let empty = ".........";
    assert_eq!(
        game.position_string(),
        format!("{empty}/{empty}/{empty}/....1..../{empty}/{empty}/{empty} e4 0 0")
    );
    for text in ["f4", "h4", "i4"] {
        game.play(&mv(text)).unwrap();
    }
    assert_eq!(
        game.position_string(),
        format!("{empty}/{empty}/{empty}/....1,2.3,4/{empty}/{empty}/{empty} i4 1 3")
    );
    // Over: no side to move.
    game.forfeit(Side(1), EndReason::Resign);
    assert!(game.position_string().ends_with(" i4 - 3"));
    // Two-digit numbers, a tall board, the rank order (top first).
    let tall = arrange(
        5,
        7,
        &[("a1", 12), ("b1", 19), ("e7", 1), ("c4", 18)],
        "b1",
        18,
    );
    assert_eq!(
        tall.position_string(),
        "....1/...../...../..18../...../...../12,19... b1 0 18"
    );
    // The serialised view carries it.
    let view = serde_json::to_value(&tall).unwrap();
    assert_eq!(view["position"], tall.position_string());
    assert_eq!(view["origin"], "b1");
}
