//! Board sizes, clock presets and the starting position.

use std::ops::RangeInclusive;

use super::new_game;
use crate::crossyray::{ClockSetting, CrossyRay, Edge, Number, Options};
use crate::game::{Game, Side, TimeControl};

fn options(width: u32, height: u32) -> Options {
    Options {
        width,
        height,
        clock: None,
    }
}

#[test]
fn default_board_is_9_wide_7_tall_without_clock() {
    let o = Options::default();
    assert_eq!((o.width, o.height, o.clock), (9, 7, None));
    let game = CrossyRay::new(&o).unwrap();
    assert_eq!(game.time_control(), TimeControl::Unlimited);
}

#[test]
fn number_one_starts_on_the_centre() {
    let game = new_game(9, 7);
    assert_eq!(game.origin().to_string(), "e4");
    assert_eq!(game.current(), Number::ONE);
    let numbers: Vec<_> = game.board().numbers().collect();
    assert_eq!(numbers, [(game.origin(), Number::ONE)]);
    assert_eq!(new_game(7, 11).origin().to_string(), "d6");
    assert_eq!(new_game(25, 5).origin().to_string(), "m3");
}

#[test]
fn side_zero_moves_first() {
    let game = new_game(9, 7);
    assert_eq!(game.to_move(), Some(Side(0)));
    assert_eq!(game.ply(), 0);
    assert_eq!(game.outcome(), None);
    assert_eq!(game.sides(), 2);
}

#[test]
fn square_board_is_refused() {
    for n in [5, 9, 25] {
        let err = CrossyRay::new(&options(n, n)).unwrap_err();
        assert!(err.0.contains("square board has no short sides"), "{err}");
    }
}

#[test]
fn even_width_or_height_is_refused() {
    for (w, h) in [(8, 7), (9, 6), (10, 12)] {
        let err = CrossyRay::new(&options(w, h)).unwrap_err();
        assert!(err.0.contains("odd"), "{w}×{h}: {err}");
    }
}

#[test]
fn sides_outside_5_to_25_are_refused() {
    for (w, h) in [(3, 7), (9, 3), (27, 7), (7, 27), (0, 0), (u32::MAX, 7)] {
        let err = CrossyRay::new(&options(w, h)).unwrap_err();
        assert!(err.0.contains("5 to 25"), "{w}×{h}: {err}");
    }
    assert!(CrossyRay::new(&options(5, 25)).is_ok());
    assert!(CrossyRay::new(&options(25, 23)).is_ok());
}

#[test]
fn unknown_clock_preset_is_refused() {
    for (minutes, increment) in [(3, 1), (1, 0), (0, 0), (15, 5)] {
        let o = Options {
            clock: Some(ClockSetting { minutes, increment }),
            ..Options::default()
        };
        let err = CrossyRay::new(&o).unwrap_err();
        assert!(err.0.contains("not a clock preset"), "{err}");
        assert!(
            err.0.contains("10+5"),
            "the message lists the presets: {err}"
        );
    }
}

#[test]
fn clock_presets_give_a_clock_time_control() {
    for (minutes, increment) in crate::game::CLOCK_PRESETS {
        let o = Options {
            clock: Some(ClockSetting { minutes, increment }),
            ..Options::default()
        };
        let game = CrossyRay::new(&o).unwrap();
        assert_eq!(
            game.time_control(),
            TimeControl::Clock { minutes, increment }
        );
    }
}

/// Asserts that on a `width` × `height` board side 0 defends `defended[0]`
/// and side 1 `defended[1]`, that the other two sides have no goal, and
/// that the goals span `lines` (rows or files).
fn assert_goals(width: u32, height: u32, defended: [Edge; 2], lines: RangeInclusive<u8>) {
    let game = new_game(width, height);
    for (side, edge) in [Side(0), Side(1)].into_iter().zip(defended) {
        assert_eq!(game.defends(side), edge);
        assert_eq!(game.goal_owner(edge), Some(side));
    }
    for edge in Edge::ALL.into_iter().filter(|e| !defended.contains(e)) {
        assert_eq!(game.goal_owner(edge), None, "{edge}");
    }
    assert_eq!(game.board().goal_lines(), lines);
}

#[test]
fn wide_board_goals_are_left_and_right_side_zero_defends_left() {
    // Rows mid-1..=mid+1 of 7 rows: ranks 3, 4, 5.
    assert_goals(9, 7, [Edge::Left, Edge::Right], 2..=4);
}

#[test]
fn tall_board_goals_are_top_and_bottom_side_zero_defends_top() {
    // Columns mid-1..=mid+1 of 7 files: c, d, e.
    assert_goals(7, 11, [Edge::Top, Edge::Bottom], 2..=4);
}
