use std::sync::atomic::AtomicBool;

use super::*;
use crate::crossyray::CrossyRay;
use crate::game::Game;
use crate::jungle::Jungle;
use crate::quoridor::{Options, Quoridor};

const BUDGET: Duration = Duration::from_millis(100);

fn played<G: Game>(mut g: G, moves: &str) -> G {
    for text in moves.split_whitespace() {
        let mv = g.parse_move(text).unwrap();
        g.play(&mv).unwrap();
    }
    g
}

/// The drop of `text` played in `game` by the side to move.
fn drop_of_move<G: Coach>(game: &G, text: &str) -> f64 {
    drop_after(game, &assess(game, BUDGET, None).unwrap(), text)
}

/// The drop of `text` played in `game`, judged `before`.
fn drop_after<G: Coach>(game: &G, before: &Assessment<G::Move>, text: &str) -> f64 {
    let side = game.to_move().unwrap();
    let mv = game.parse_move(text).unwrap();
    let after = assess(&played(game.clone(), text), BUDGET, None).unwrap();
    drop_of(
        side,
        &before.chances,
        &after.standing,
        before.best == Some(mv),
    )
}

#[test]
fn grades_start_at_ten_twenty_and_thirty_points() {
    assert_eq!(grade(0.0), None);
    assert_eq!(grade(0.099), None);
    assert_eq!(grade(0.10), Some(Grade::Inaccuracy));
    assert_eq!(grade(0.199), Some(Grade::Inaccuracy));
    assert_eq!(grade(0.20), Some(Grade::Mistake));
    assert_eq!(grade(0.30), Some(Grade::Blunder));
    assert_eq!(grade(1.0), Some(Grade::Blunder));
}

#[test]
fn accuracy_is_full_for_no_drop_and_falls_with_it() {
    assert!((accuracy(0.0) - 100.0).abs() < 0.01);
    let mut last = 101.0;
    for k in 0..=8 {
        let a = accuracy(f64::from(k) / 10.0);
        assert!(a < last && (0.0..=100.0).contains(&a), "{k}: {a}");
        last = a;
    }
    assert_eq!(accuracy(1.0).round(), 0.0);
}

#[test]
fn a_score_becomes_a_chance_on_the_games_scale() {
    assert_eq!(chance::<Jungle>(0), 0.5);
    assert!((chance::<Jungle>(333) - 0.731).abs() < 0.001);
    assert!((chance::<Jungle>(-333) - 0.269).abs() < 0.001);
    assert_eq!(chance::<Quoridor>(crate::quoridor::bot::WIN_BOUND), 1.0);
    assert_eq!(chance::<CrossyRay>(-crate::crossyray::bot::WIN_BOUND), 0.0);
}

#[test]
fn the_end_is_judged_by_its_outcome() {
    // CrossyRay: after f4 h4 side 0 reaches the right goal.
    let g = played(
        CrossyRay::new(&Default::default()).unwrap(),
        "f4 h4 goal:right",
    );
    let a = assess(&g, BUDGET, None).unwrap();
    assert_eq!((a.best, a.chances), (None, vec![1.0, 0.0]));
}

#[test]
fn a_move_that_lets_the_opponent_win_at_once_is_a_blunder() {
    // After f4, side 1's h4 hands side 0 the right goal (rules::triage).
    let g = played(CrossyRay::new(&Default::default()).unwrap(), "f4");
    let drop = drop_of_move(&g, "h4");
    assert_eq!(grade(drop), Some(Grade::Blunder), "drop {drop}");
    // The engine's own move drops nothing (judged by the same search
    // that chose it: another, timed, may reach another depth and prefer
    // another move).
    let before = assess(&g, BUDGET, None).unwrap();
    let best = before.best.unwrap().to_string();
    assert_eq!(drop_after(&g, &before, &best), 0.0);
}

#[test]
fn a_win_at_once_is_certain_and_its_best_move_is_the_win() {
    let g = played(CrossyRay::new(&Default::default()).unwrap(), "f4 h4");
    let a = assess(&g, BUDGET, None).unwrap();
    assert_eq!(a.best.unwrap().to_string(), "goal:right");
    assert_eq!(a.chances, vec![1.0, 0.0]);
}

/// The position of issue 28: four pawns, side 0 on d8 to move; `c8` lets
/// side 1 win with i4, `h4v` stops it.
const FOUR: &str =
    "e2 b5 e8 h5 e3 c5 e7 g5 e4 d5 e6 f5 e5 e4 d5 e6 e7 f4 d4 d6 e8 g4 d3 d8h d8 h4 d2 c6";

#[test]
fn with_four_pawns_the_race_judges_and_the_move_that_lets_the_next_pawn_win_is_graded() {
    let g = played(
        Quoridor::new(&Options {
            players: 4,
            ..Options::default()
        })
        .unwrap(),
        FOUR,
    );
    let a = assess(&g, BUDGET, None).unwrap();
    assert_eq!(a.chances.len(), 4);
    assert!((a.chances.iter().sum::<f64>() - 1.0).abs() < 1e-9);
    assert_eq!(a.score, None, "the race, not a two-sided score");
    // Two pawns are a step from their goals: side 0 stands badly anyway,
    // but c8 throws away what it has, h4v keeps most of it.
    let (c8, h4v) = (drop_of_move(&g, "c8"), drop_of_move(&g, "h4v"));
    assert!(grade(c8).is_some() && c8 > h4v + 0.05, "c8 {c8}, h4v {h4v}");
    // The standing race after c8: side 1 wins at once.
    let after = assess(&played(g.clone(), "c8"), BUDGET, None).unwrap();
    assert_eq!(after.standing, vec![0.0, 1.0, 0.0, 0.0]);
    assert_ne!(a.best.unwrap().to_string(), "c8");
}

#[test]
fn two_sided_chances_sum_to_one_in_every_game() {
    let j = assess(&Jungle::new(&Default::default()).unwrap(), BUDGET, None).unwrap();
    let q = assess(&Quoridor::new(&Options::default()).unwrap(), BUDGET, None).unwrap();
    let c = assess(&CrossyRay::new(&Default::default()).unwrap(), BUDGET, None).unwrap();
    for (name, a) in [
        ("jungle", &j.chances),
        ("quoridor", &q.chances),
        ("crossyray", &c.chances),
    ] {
        assert_eq!(a.len(), 2, "{name}");
        assert!((a[0] + a[1] - 1.0).abs() < 1e-9, "{name}: {a:?}");
        assert!(
            a[0] > 0.2 && a[0] < 0.8,
            "{name}: the start is about even: {a:?}"
        );
    }
    assert!(j.score.is_some() && j.depth > 0);
}

#[test]
fn a_cancelled_search_judges_nothing() {
    let cancel = AtomicBool::new(true);
    let g = Jungle::new(&Default::default()).unwrap();
    assert_eq!(assess(&g, BUDGET, Some(&cancel)), None);
}
