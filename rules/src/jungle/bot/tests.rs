//! The bot's promises at every level: legal moves, den entry in one found,
//! an immediate loss avoided. Budgets are tiny so the suite stays fast.

use serde::Deserialize;
use std::sync::atomic::AtomicBool;
use std::time::{Duration, Instant};

use super::*;
use crate::game::{EndReason, Game, Side};
use crate::jungle::Jungle;

const BUDGET: Duration = Duration::from_millis(40);

fn pick(game: &Jungle, level: Level, seed: u64) -> Move {
    game.choose_move(&Think::uncancelled(level, BUDGET, seed))
        .expect("a move")
}

/// Asserts that every level plays `expected` in the position `setup`,
/// with each of seeds 0 to 7.
fn every_level_plays(setup: &str, expected: &str) {
    let game = Jungle::from_position(setup).unwrap();
    for level in Level::ALL {
        for seed in 0..8 {
            let mv = pick(&game, level, seed);
            assert_eq!(mv.to_string(), expected, "{level} seed {seed}");
        }
    }
}

#[test]
fn bot_always_returns_a_legal_move() {
    for level in Level::ALL {
        let mut game = Jungle::start();
        let mut plies = 0;
        while !game.is_over() && plies < 16 {
            let mv = pick(&game, level, plies);
            assert!(game.legal_moves().contains(&mv), "{level}: {mv}");
            game.play(&mv).unwrap();
            plies += 1;
        }
    }
}

#[test]
fn bot_finds_den_entry_in_one_at_every_level() {
    // Blue's cat on e9 can step into d9; a Red elephant threatens nothing.
    every_level_plays("4C2/7/6e/7/7/7/7/7/T6 b 0 1", "2 e9-d9");
}

#[test]
fn bot_wins_by_leaving_no_moves() {
    // Red's only animal, a cat on a9, is boxed in once Blue's tiger goes to b9.
    let game = Jungle::from_position("c6/E1T4/7/7/7/7/7/7/6L b 0 1").unwrap();
    for level in Level::ALL {
        let mut after = game.clone();
        after.play(&pick(&game, level, 3)).unwrap();
        assert_eq!(
            after.outcome().map(|o| o.reason()),
            Some(EndReason::NoMoves),
            "{level}"
        );
    }
}

#[test]
fn bot_avoids_an_immediate_loss_at_every_level() {
    // Red's rat on d2 is about to enter Blue's den: only the cat taking it
    // on Blue's trap saves the game.
    every_level_plays("6l/7/7/E6/7/7/7/2Cr3/7 b 0 1", "2 c2xd2");
}

#[test]
fn bot_moves_even_when_every_move_loses() {
    // Two Red animals next to Blue's den: nothing saves Blue.
    let game = Jungle::from_position("6l/7/7/E6/7/7/7/3r3/2c4 b 0 1").unwrap();
    for level in Level::ALL {
        let mv = pick(&game, level, 1);
        assert!(game.legal_moves().contains(&mv));
    }
}

#[test]
fn master_finds_a_forced_den_attack() {
    // Blue's lion d7 and tiger f8 against a lone Red dog on d9's left:
    // whatever Red does, one of them gets in within three plies.
    let game = Jungle::from_position("2d4/5T1/3L3/7/7/7/7/7/6l b 0 1").unwrap();
    let (mv, result) = game
        .analyse(&Think::uncancelled(
            Level::Master,
            Duration::from_millis(200),
            0,
        ))
        .unwrap();
    let result = result.expect("a search");
    assert!(result.score >= WIN_BOUND, "{mv} scored {}", result.score);
    let mut after = game.clone();
    after.play(&mv).unwrap();
    assert!(!after.is_over() || after.outcome().unwrap().winner() == Some(Side(0)));
}

#[test]
fn cancelled_search_still_returns_a_legal_move_quickly() {
    let game = Jungle::start();
    let cancel = AtomicBool::new(true);
    let t = Instant::now();
    let mv = game
        .choose_move(&Think {
            level: Level::Master,
            budget: Duration::from_secs(60),
            cancel: &cancel,
            seed: 0,
        })
        .unwrap();
    assert!(t.elapsed() < Duration::from_secs(5));
    assert!(game.legal_moves().contains(&mv));
}

#[test]
fn bot_returns_none_once_the_game_is_over() {
    let mut game = Jungle::start();
    game.forfeit(Side(0), EndReason::Resign);
    assert_eq!(
        game.choose_move(&Think::uncancelled(Level::Master, BUDGET, 0)),
        None
    );
}

#[test]
fn levels_have_snake_case_names() {
    use serde::de::{value::StrDeserializer, IntoDeserializer};
    for (name, level) in [("beginner", Level::Beginner), ("master", Level::Master)] {
        let de: StrDeserializer<serde::de::value::Error> = name.into_deserializer();
        assert_eq!(Level::deserialize(de).unwrap(), level);
        assert_eq!(name.parse::<Level>(), Ok(level));
    }
}

#[test]
fn stronger_levels_think_deeper_longer_and_cleaner() {
    for pair in Level::ALL.windows(2) {
        let (weak, strong) = (pair[0].settings(), pair[1].settings());
        assert!(strong.max_depth > weak.max_depth, "{:?}", pair);
        assert!(strong.time_share > weak.time_share, "{:?}", pair);
        assert!(
            strong.noise <= weak.noise && strong.blunder <= weak.blunder,
            "{:?}",
            pair
        );
    }
}

#[test]
fn search_respects_the_depth_limit() {
    let game = Jungle::start();
    let limits = Limits {
        max_depth: 3,
        time: Duration::from_secs(30),
        ..Limits::default()
    };
    let result = search(&game, game.legal(), &limits, &AtomicBool::new(false));
    assert_eq!(result.depth, 3);
    assert!(game.legal().contains(&result.best.unwrap()));
}

#[test]
fn master_sees_a_repetition_that_walks_into_the_shuttle_limit() {
    // Blue's cat guards trap c1 against Red's elephant by shuttling c1-c2.
    // A third c1-c2 repeats a position, but then the shuttle limit forbids
    // c2xc1 and the elephant walks c1-d1. (Found in a ladder game: scoring
    // the repetition as a draw hid the loss.)
    let mut game = Jungle::from_position("1l5/3c3/7/7/7/T1r4/5E1/3WD2/1eC4 b 0 1").unwrap();
    for text in ["2 c1-c2", "8 b1-b2", "2 c2-c1", "8 b2-b1"] {
        game.play(&text.parse().unwrap()).unwrap();
    }
    let repeat: Move = "2 c1-c2".parse().unwrap();
    let limits = Limits {
        max_depth: 8,
        time: Duration::from_secs(30),
        ..Limits::default()
    };
    let result = search(&game, &[repeat], &limits, &AtomicBool::new(false));
    assert!(result.score <= -WIN_BOUND, "scored {}", result.score);
    let mv = game.choose_move(&Think::uncancelled(
        Level::Master,
        Duration::from_millis(500),
        7,
    ));
    assert_ne!(mv, Some(repeat));
}
