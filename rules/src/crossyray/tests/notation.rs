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
