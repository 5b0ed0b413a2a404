//! Properties over random games on random board sizes.

use proptest::prelude::*;

use super::new_game;
use crate::crossyray::{perft, Cell, CrossyRay, Edge, Move, Number};
use crate::game::{self, EndReason, Game, Side};

/// A valid board size: odd sides in 5..=25 that differ.
fn board_size() -> impl Strategy<Value = (u32, u32)> {
    (0u32..11, 0u32..11)
        .prop_filter("square boards have no goals", |(w, h)| w != h)
        .prop_map(|(w, h)| (5 + 2 * w, 5 + 2 * h))
}

/// Plays the moves picked by `choices` (index modulo the legal moves),
/// stopping when the game ends; calls `each` on every position reached.
fn random_game(
    (width, height): (u32, u32),
    choices: &[usize],
    mut each: impl FnMut(&CrossyRay),
) -> CrossyRay {
    let mut game = new_game(width, height);
    each(&game);
    for &choice in choices {
        let moves = game.legal_moves();
        if moves.is_empty() {
            break;
        }
        game.play(&moves[choice % moves.len()]).unwrap();
        each(&game);
    }
    game
}

/// `check(game, mv, copy)` for every legal move `mv` of every position
/// [`random_game`] reaches, `copy` a clone of that position to try it on.
fn each_legal_move(
    size: (u32, u32),
    choices: &[usize],
    mut check: impl FnMut(&CrossyRay, Move, CrossyRay),
) {
    random_game(size, choices, |game| {
        for mv in game.legal_moves() {
            check(game, mv, game.clone());
        }
    });
}

/// Every move anyone could type on any board: all 625 cells and 4 goals.
fn every_move() -> impl Iterator<Item = Move> {
    let cells = (0..25).flat_map(|f| (0..25).map(move |r| Move::Place(Cell::new(f, r).unwrap())));
    cells.chain(Edge::ALL.into_iter().map(Move::Goal))
}

fn any_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        (0u8..25, 0u8..25).prop_map(|(f, r)| Move::Place(Cell::new(f, r).unwrap())),
        prop::sample::select(Edge::ALL.to_vec()).prop_map(Move::Goal),
    ]
}

fn check_consistent(game: &CrossyRay) {
    // Over exactly when nobody is to move; otherwise sides alternate.
    assert_eq!(game.to_move().is_none(), game.outcome().is_some());
    if let Some(side) = game.to_move() {
        assert_eq!(side, Side((game.ply() % 2) as u8));
        // A game still running always has a move: locks end it at once.
        assert!(!game.legal_moves().is_empty());
    } else {
        assert!(game.legal_moves().is_empty());
    }
    // The current number stands on the origin.
    assert_eq!(game.board().get(game.origin()), Some(game.current()));
    // One number per placement, plus the 1 from the start.
    let placements = game.ply() - usize::from(matches!(game.last_move(), Some(Move::Goal(_))));
    assert_eq!(game.board().numbers().count(), placements + 1);
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(96))]

    #[test]
    fn every_generated_legal_move_is_accepted_by_play(
        size in board_size(),
        choices in prop::collection::vec(any::<usize>(), 0..40),
    ) {
        // Plain asserts: proptest catches the panic and shrinks.
        each_legal_move(size, &choices, |game, mv, mut child| {
            assert_eq!(child.play(&mv), Ok(()), "{mv} listed but refused");
            assert_eq!(child.ply(), game.ply() + 1);
            assert_eq!(child.last_move(), Some(mv));
            check_consistent(&child);
        });
    }

    #[test]
    fn moves_not_in_legal_moves_are_refused_and_change_nothing(
        size in board_size(),
        choices in prop::collection::vec(any::<usize>(), 0..30),
    ) {
        let game = random_game(size, &choices, |_| {});
        let legal = game.legal_moves();
        let mut accepted = 0;
        for mv in every_move() {
            let mut copy = game.clone();
            match copy.play(&mv) {
                Ok(()) => {
                    prop_assert!(legal.contains(&mv), "{} was accepted but not listed", mv);
                    accepted += 1;
                }
                Err(_) => {
                    prop_assert!(!legal.contains(&mv), "{} was listed but refused", mv);
                    prop_assert_eq!(&copy, &game);
                }
            }
        }
        prop_assert_eq!(accepted, legal.len());
    }

    #[test]
    fn random_games_stay_consistent_until_they_end(
        size in board_size(),
        choices in prop::collection::vec(any::<usize>(), 0..120),
    ) {
        let game = random_game(size, &choices, check_consistent);
        if choices.len() > game.ply() {
            prop_assert!(game.is_over());
        }
    }

    /// The bot's make/unmake: every legal move, ending ones included,
    /// taken back gives the position it was played from.
    #[test]
    fn unmake_takes_back_every_move(
        size in board_size(),
        choices in prop::collection::vec(any::<usize>(), 0..80),
    ) {
        each_legal_move(size, &choices, |game, mv, mut copy| {
            let undo = copy.make(mv);
            copy.unmake(mv, undo);
            assert_eq!(&copy, game, "{mv}");
        });
    }

    #[test]
    fn fast_perft_matches_generic_perft(
        size in board_size(),
        choices in prop::collection::vec(any::<usize>(), 0..40),
        depth in 1u32..=3,
    ) {
        let game = random_game(size, &choices, |_| {});
        prop_assert_eq!(perft(&game, depth), game::perft(&game, depth));
    }

    #[test]
    fn move_notation_round_trips(mv in any_move()) {
        let text = mv.to_string();
        prop_assert_eq!(text.parse::<Move>(), Ok(mv));
    }

    #[test]
    fn any_text_that_parses_prints_back_the_same(text in "(goal:)?[a-zA-Z0-9:]{0,4}") {
        if let Ok(mv) = text.parse::<Move>() {
            prop_assert_eq!(mv.to_string(), text);
        }
    }

    #[test]
    fn numbers_cycle_with_period_nineteen(n in 1u8..=19) {
        let start = Number::new(n).unwrap();
        let mut k = start;
        for _ in 0..19 {
            k = k.next();
            prop_assert!(Number::new(k.get()).is_some());
        }
        prop_assert_eq!(k, start);
    }
}

/// The random games above are only as good as the positions they reach:
/// check that such games (same picking rule, fixed seeds) end in every
/// way the rules allow and run past the 19.
#[test]
fn random_play_reaches_every_kind_of_ending_and_wraps_past_nineteen() {
    let mut seed: u64 = 0x9e37_79b9_7f4a_7c15;
    let mut next = move || {
        // xorshift64: deterministic, no dependency.
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed as usize
    };
    let mut reasons = Vec::new();
    let mut wrapped = false;
    for i in 0..400 {
        let size = [(9, 7), (7, 11), (5, 7), (25, 23), (13, 5)][i % 5];
        let choices: Vec<usize> = (0..200).map(|_| next()).collect();
        let game = random_game(size, &choices, |g| {
            wrapped |= g.ply() > 18 && g.current() < Number::new(5).unwrap();
        });
        if let Some(outcome) = game.outcome() {
            reasons.push(outcome.reason());
        }
    }
    for reason in [EndReason::Goal, EndReason::OwnGoal, EndReason::Lock] {
        assert!(
            reasons.contains(&reason),
            "no random game ended by {reason}"
        );
    }
    assert!(wrapped, "no random game got past the 19");
}
