//! The moves: range, blocks, goals, own goals, lock, the number cycle, and
//! what happens once the game is over.

use super::{arrange, cell, legal, mv, new_game};
use crate::crossyray::{Edge, Move, Number, PlayError};
use crate::game::{EndReason, Game, Outcome, Side, TimeoutEffect};

/// Plays `text`, expecting `play` to refuse it without touching the state.
fn refused(game: &crate::crossyray::CrossyRay, text: &str) -> PlayError {
    let mut copy = game.clone();
    let err = copy.play(&mv(text)).unwrap_err();
    assert_eq!(&copy, game, "a refused move changed the state");
    assert!(!game.legal_moves().contains(&mv(text)));
    err
}

/// [`refused`], with the error's message.
fn refused_saying(game: &crate::crossyray::CrossyRay, text: &str, message: &str) {
    assert_eq!(refused(game, text).to_string(), message, "{text}");
}

#[test]
fn first_move_places_the_two_next_to_the_one() {
    let mut game = new_game(9, 7);
    assert_eq!(legal(&game), ["e5", "e3", "d4", "f4"]);
    game.play(&mv("f4")).unwrap();
    assert_eq!(game.board().get(cell("f4")), Number::new(2));
    assert_eq!(game.origin(), cell("f4"));
    assert_eq!(game.current(), Number::new(2).unwrap());
    assert_eq!(game.to_move(), Some(Side(1)));
    assert_eq!(game.ply(), 1);
    assert_eq!(game.last_move(), Some(mv("f4")));
}

#[test]
fn range_is_one_to_current_number_orthogonally() {
    let game = arrange(9, 7, &[("e4", 3)], "e4", 0);
    assert_eq!(
        legal(&game),
        ["e5", "e6", "e7", "e3", "e2", "e1", "d4", "c4", "b4", "f4", "g4", "h4"]
    );
    refused_saying(&game, "i4", "i4 is out of range: the current number is 3");
    assert!(matches!(refused(&game, "f5"), PlayError::NotInLine { .. }));
    assert!(matches!(refused(&game, "e8"), PlayError::OffBoard { .. }));
    assert!(matches!(refused(&game, "e4"), PlayError::Occupied { .. }));
}

#[test]
fn ray_is_blocked_by_a_number() {
    let game = arrange(9, 7, &[("e4", 5), ("g4", 7)], "e4", 0);
    let moves = legal(&game);
    assert!(moves.contains(&"f4".to_string()));
    assert!(!moves.contains(&"g4".to_string()));
    refused_saying(&game, "g4", "g4 is taken: the 7 stands there");
    refused_saying(&game, "h4", "that ray is blocked by the 7 at g4");
}

#[test]
fn cells_behind_a_block_are_unreachable_from_here_but_not_forever() {
    let mut game = arrange(9, 7, &[("e4", 5), ("f4", 2)], "e4", 0);
    for behind in ["g4", "h4", "i4"] {
        assert_eq!(
            refused(&game, behind),
            PlayError::Blocked {
                number: Number::new(2).unwrap(),
                at: cell("f4")
            }
        );
    }
    // From another origin the same cells are in reach.
    game.play(&mv("e5")).unwrap(); // the 6
    game.play(&mv("g5")).unwrap(); // the 7
    assert!(legal(&game).contains(&"g4".to_string()));
    game.play(&mv("g4")).unwrap();
}

#[test]
fn goal_needs_range_j_plus_one() {
    // c4 is 2 cells from the left edge cell a4: j = 2 needs k >= 3.
    let short = arrange(9, 7, &[("c4", 2)], "c4", 1);
    assert!(!short.legal_moves().contains(&Move::Goal(Edge::Left)));
    refused_saying(
        &short,
        "goal:left",
        "the left goal is out of range: the current number is 2",
    );
    let mut enough = arrange(9, 7, &[("c4", 3)], "c4", 1);
    assert!(enough.legal_moves().contains(&Move::Goal(Edge::Left)));
    enough.play(&mv("goal:left")).unwrap();
    assert_eq!(enough.outcome(), Some(&Outcome::win(1, EndReason::Goal)));
}

#[test]
fn goal_move_from_an_edge_cell_needs_no_free_cell() {
    // j = 0: the 1 on the edge cell of each goal row steps straight in.
    for origin in ["a3", "a4", "a5"] {
        let game = arrange(9, 7, &[(origin, 1)], origin, 1);
        assert!(legal(&game).contains(&"goal:left".to_string()), "{origin}");
    }
    for origin in ["i3", "i4", "i5"] {
        let game = arrange(9, 7, &[(origin, 1)], origin, 0);
        assert!(legal(&game).contains(&"goal:right".to_string()), "{origin}");
    }
}

#[test]
fn leaving_through_a_non_goal_edge_is_refused() {
    // a2 is on the left edge but below the goal rows 3..=5.
    let game = arrange(9, 7, &[("a2", 9)], "a2", 0);
    assert!(legal(&game).iter().all(|m| !m.starts_with("goal:")));
    refused_saying(
        &game,
        "goal:left",
        "you can only leave the board through a goal",
    );
    // The top and bottom of a wide board have no goal at all.
    let top = arrange(9, 7, &[("e7", 9)], "e7", 0);
    assert!(legal(&top).iter().all(|m| !m.starts_with("goal:")));
    assert_eq!(
        refused(&top, "goal:top"),
        PlayError::NoGoalOnSide { edge: Edge::Top }
    );
    assert_eq!(
        refused(&top, "goal:bottom"),
        PlayError::NoGoalOnSide { edge: Edge::Bottom }
    );
}

#[test]
fn goal_ray_is_blocked_by_a_number() {
    let game = arrange(9, 7, &[("e4", 9), ("b4", 3)], "e4", 0);
    assert!(!legal(&game).contains(&"goal:left".to_string()));
    refused_saying(&game, "goal:left", "that ray is blocked by the 3 at b4");
    assert!(legal(&game).contains(&"goal:right".to_string()));
}

#[test]
fn entering_the_opponents_goal_wins_without_placing_a_number() {
    let mut game = arrange(9, 7, &[("h4", 2)], "h4", 0);
    let before = game.board().clone();
    game.play(&mv("goal:right")).unwrap();
    assert_eq!(game.outcome(), Some(&Outcome::win(0, EndReason::Goal)));
    assert_eq!(game.board(), &before);
    assert_eq!(game.to_move(), None);
    assert_eq!(game.ply(), 1);
    assert_eq!(game.last_move(), Some(mv("goal:right")));
    assert!(game.legal_moves().is_empty());
}

#[test]
fn own_goal_is_legal_and_gives_the_opponent_the_win() {
    let mut game = arrange(9, 7, &[("b3", 2)], "b3", 0);
    assert!(legal(&game).contains(&"goal:left".to_string()));
    game.play(&mv("goal:left")).unwrap();
    assert_eq!(game.outcome(), Some(&Outcome::win(1, EndReason::OwnGoal)));

    let mut game = arrange(9, 7, &[("h5", 2)], "h5", 1);
    game.play(&mv("goal:right")).unwrap();
    assert_eq!(game.outcome(), Some(&Outcome::win(0, EndReason::OwnGoal)));
}

#[test]
fn tall_board_goals_are_top_and_bottom() {
    // 7 wide × 11 tall: goals above and below files c, d, e.
    let game = arrange(7, 11, &[("d11", 1)], "d11", 0);
    assert_eq!(legal(&game), ["goal:top", "d10", "c11", "e11"]);
    assert_eq!(
        refused(&game, "goal:left"),
        PlayError::NoGoalOnSide { edge: Edge::Left }
    );
    let mut own = game.clone();
    own.play(&mv("goal:top")).unwrap();
    assert_eq!(own.outcome(), Some(&Outcome::win(1, EndReason::OwnGoal)));

    let mut attack = arrange(7, 11, &[("e3", 3)], "e3", 0);
    attack.play(&mv("goal:bottom")).unwrap();
    assert_eq!(attack.outcome(), Some(&Outcome::win(0, EndReason::Goal)));

    // b1 is on the bottom edge but beside the goal.
    let beside = arrange(7, 11, &[("b1", 5)], "b1", 0);
    refused_saying(
        &beside,
        "goal:bottom",
        "you can only leave the board through a goal",
    );
}

#[test]
fn lock_the_opponent_and_win() {
    // The 7 goes to the corner a1: a2 and b1 are taken, and the corner's
    // edges are outside the goal rows. Side 1 has no move: side 0 wins.
    let mut game = arrange(9, 7, &[("a2", 6), ("b1", 3)], "a2", 0);
    game.play(&mv("a1")).unwrap();
    assert_eq!(game.outcome(), Some(&Outcome::win(0, EndReason::Lock)));
    assert_eq!(game.to_move(), None);
    assert_eq!(game.board().get(cell("a1")), Number::new(7));
}

#[test]
fn a_single_legal_move_is_not_a_lock() {
    // As in the lock, but b1 is free (c1 stops the ray behind it).
    let mut game = arrange(9, 7, &[("a2", 6), ("c1", 3)], "a2", 0);
    game.play(&mv("a1")).unwrap();
    assert_eq!(game.outcome(), None);
    assert_eq!(legal(&game), ["b1"]);
}

#[test]
fn an_own_goal_counts_as_a_legal_move_against_lock() {
    // Side 1 puts the 7 on a4 (a goal row); side 0 can only score in its
    // own goal, which is still a move, so the game goes on.
    let mut game = arrange(9, 7, &[("a5", 6), ("a3", 2), ("b4", 3)], "a5", 1);
    game.play(&mv("a4")).unwrap();
    assert_eq!(game.outcome(), None);
    assert_eq!(legal(&game), ["goal:left"]);
    game.play(&mv("goal:left")).unwrap();
    assert_eq!(game.outcome(), Some(&Outcome::win(1, EndReason::OwnGoal)));
}

#[test]
fn nineteen_is_followed_by_one() {
    let mut game = arrange(9, 7, &[("e4", 18)], "e4", 0);
    game.play(&mv("e6")).unwrap();
    assert_eq!(game.board().get(cell("e6")), Number::new(19));
    game.play(&mv("a6")).unwrap();
    assert_eq!(game.board().get(cell("a6")), Number::new(1));
    assert_eq!(game.current(), Number::ONE);
    // Range is back to 1.
    assert_eq!(legal(&game), ["a7", "a5", "b6"]);
}

#[test]
fn numbers_cycle_through_nineteen_in_a_long_game() {
    let mut game = new_game(25, 23);
    let mut placed = Vec::new();
    for _ in 0..25 {
        // Always the first legal placement: the game here is about the
        // cycle, not about winning.
        let Some(&place) = game
            .legal_moves()
            .iter()
            .find(|m| matches!(m, Move::Place(_)))
        else {
            break;
        };
        game.play(&place).unwrap();
        placed.push(game.current().get());
        if game.is_over() {
            break;
        }
    }
    let expected: Vec<u8> = (2..=19).chain(1..=7).take(placed.len()).collect();
    assert_eq!(placed, expected);
    assert!(placed.len() > 19, "the game got past 19: {placed:?}");
}

#[test]
fn timeout_loses_for_the_side_to_move() {
    let mut game = new_game(9, 7);
    game.play(&mv("e5")).unwrap();
    assert_eq!(game.timeout(), TimeoutEffect::Lost);
    assert_eq!(game.outcome(), Some(&Outcome::win(0, EndReason::Timeout)));
    assert_eq!(game.to_move(), None);
}

#[test]
fn forfeit_gives_the_other_side_the_win() {
    let mut game = new_game(9, 7);
    game.forfeit(Side(0), EndReason::Resign);
    assert_eq!(game.outcome(), Some(&Outcome::win(1, EndReason::Resign)));

    let mut game = new_game(9, 7);
    game.forfeit(Side(1), EndReason::Abandon);
    assert_eq!(game.outcome(), Some(&Outcome::win(0, EndReason::Abandon)));
}

#[test]
fn nothing_changes_or_panics_after_the_game_is_over() {
    let mut game = arrange(9, 7, &[("h4", 2)], "h4", 0);
    game.play(&mv("goal:right")).unwrap();
    let over = game.clone();
    for text in ["goal:right", "h3", "z9", "goal:top"] {
        if let Ok(m) = text.parse() {
            assert_eq!(game.play(&m), Err(PlayError::GameOver));
        }
    }
    assert_eq!(PlayError::GameOver.to_string(), "the game is over");
    assert_eq!(game.timeout(), TimeoutEffect::Lost);
    game.forfeit(Side(0), EndReason::Resign);
    game.forfeit(Side(1), EndReason::Abandon);
    game.forfeit(Side(7), EndReason::Abandon);
    assert_eq!(game, over);
    assert!(game.legal_moves().is_empty());
}

#[test]
fn forfeit_by_an_unknown_side_is_ignored() {
    let mut game = new_game(9, 7);
    let before = game.clone();
    game.forfeit(Side(2), EndReason::Resign);
    assert_eq!(game, before);
}

#[test]
fn every_listed_move_is_unique() {
    let game = arrange(9, 7, &[("e4", 19)], "e4", 0);
    let moves = game.legal_moves();
    let mut unique = moves.clone();
    unique.sort_by_key(|m| m.to_string());
    unique.dedup();
    assert_eq!(unique.len(), moves.len());
    // Rays to the edges, plus both goals from the middle row.
    assert_eq!(moves.len(), 3 + 3 + 4 + 4 + 2);
}

#[test]
fn there_are_no_draws_so_none_by_agreement() {
    let mut game = new_game(9, 7);
    assert!(!game.draw_by_agreement());
    assert!(!game.agree_draw(EndReason::Agreement));
    assert_eq!(game.outcome(), None);
}
