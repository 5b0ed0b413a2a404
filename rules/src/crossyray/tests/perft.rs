//! Perft figures for the default board, and the fast perft checked against
//! the generic one wherever goals and locks happen.

use super::{arrange, new_game};
use crate::crossyray::perft;
use crate::game::{self, Game};

/// Default 9 × 7 board, depths 1 to 8 (depth 9, 64 361 152, takes about
/// 2 s in a debug build). Computed by this engine and agreed by both
/// perfts: the generic one checks depths 1 to 7 here (depth 8 too, but
/// that takes 2 s in debug). Depth 1 and 2 by hand: the 1 on e4 reaches
/// its 4 neighbours; from each, the 2 reaches 2 cells in each of the 3
/// directions not blocked by the 1: 4 × 6 = 24.
const DEFAULT_BOARD: [u64; 8] = [4, 24, 196, 1514, 12050, 103376, 899416, 7716088];

#[test]
fn perft_default_board_is_pinned() {
    let game = new_game(9, 7);
    for (depth, &nodes) in (1..).zip(DEFAULT_BOARD.iter()) {
        assert_eq!(perft(&game, depth), nodes, "depth {depth}");
    }
}

#[test]
fn generic_perft_agrees_on_the_default_board() {
    let game = new_game(9, 7);
    for (depth, &nodes) in (1..=7).zip(DEFAULT_BOARD.iter()) {
        assert_eq!(game::perft(&game, depth), nodes, "depth {depth}");
    }
}

#[test]
fn perft_depth_zero_is_one_node() {
    assert_eq!(perft(&new_game(9, 7), 0), 1);
    assert_eq!(game::perft(&new_game(9, 7), 0), 1);
}

#[test]
fn perft_counts_a_game_ending_move_only_at_the_last_ply() {
    // From h4 with the 2: h5, h6, h3, h2, g4, f4, i4 and the right goal.
    let game = arrange(9, 7, &[("h4", 2)], "h4", 0);
    assert_eq!(perft(&game, 1), 8);
    assert_eq!(game::perft(&game, 1), 8);
    // At depth 2 the goal line ended early and counts nothing.
    let without_goal: u64 = game
        .legal_moves()
        .iter()
        .filter(|m| m.to_string() != "goal:right")
        .map(|m| {
            let mut child = game.clone();
            child.play(m).unwrap();
            child.legal_moves().len() as u64
        })
        .sum();
    assert_eq!(perft(&game, 2), without_goal);
}

#[test]
fn fast_perft_matches_generic_near_goals_and_locks() {
    let positions = [
        // Goal rows within reach of both goals.
        arrange(9, 7, &[("e4", 9)], "e4", 0),
        arrange(9, 7, &[("b4", 3), ("h4", 4)], "b4", 1),
        // A crowded corner where locks happen.
        arrange(
            9,
            7,
            &[("a2", 6), ("c1", 3), ("b2", 4), ("c3", 5), ("a4", 8)],
            "a2",
            0,
        ),
        // The cycle wraps to 1 on the next move.
        arrange(9, 7, &[("a5", 19), ("b4", 2), ("a3", 3)], "a5", 1),
        // Tall and small boards.
        arrange(5, 7, &[("c6", 4), ("b5", 2)], "c6", 0),
        new_game(7, 11),
        new_game(5, 7),
        new_game(25, 5),
    ];
    for (i, game) in positions.iter().enumerate() {
        for depth in 1..=4 {
            assert_eq!(
                perft(game, depth),
                game::perft(game, depth),
                "position {i}, depth {depth}"
            );
        }
    }
}

#[test]
fn perft_of_a_finished_game_is_zero() {
    let mut game = arrange(9, 7, &[("h4", 2)], "h4", 0);
    game.play(&"goal:right".parse().unwrap()).unwrap();
    for depth in 1..=3 {
        assert_eq!(perft(&game, depth), 0);
        assert_eq!(game::perft(&game, depth), 0);
    }
}

#[test]
fn perft_cli_reads_width_and_height() {
    use crate::cli::Flags;
    let args = |a: &[&str]| Flags::parse(&a.iter().map(|s| s.to_string()).collect::<Vec<_>>());
    let flags = args(&["--width", "9", "--height", "7"]).unwrap();
    assert_eq!(crate::crossyray::perft_cli(3, &flags), Ok(196));
    assert_eq!(
        crate::crossyray::perft_cli(3, &args(&["--width", "7", "--height", "9"]).unwrap()),
        Ok(perft(&new_game(7, 9), 3))
    );
    assert!(crate::crossyray::perft_cli(3, &args(&["--size", "9"]).unwrap()).is_err());
    assert!(
        crate::crossyray::perft_cli(3, &args(&["--width", "9", "--height", "9"]).unwrap())
            .unwrap_err()
            .contains("square")
    );
}

/// Depth 9 by both perfts: too slow for every run (about 3 s in release),
/// run it with
/// `cargo test --release -p rules generic_perft_agrees_at_depth_9 -- --ignored`.
#[test]
#[ignore = "slow: about 3 s in release"]
fn generic_perft_agrees_at_depth_9() {
    let game = new_game(9, 7);
    assert_eq!(perft(&game, 9), 64_361_152);
    assert_eq!(game::perft(&game, 9), 64_361_152);
}
