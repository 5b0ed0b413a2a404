//! Tests of the AnimalChess adapter: notation both ways, rules compared.

use super::{disagreement, from_peer, to_peer, Verdict};
use rules::game::Side;
use rules::jungle::{Jungle, Move};

fn mv(text: &str) -> Move {
    text.parse().expect("reads")
}

#[test]
fn start_moves_are_the_ids_animal_chess_lists() {
    // AnimalChess's README: `generate_all_steps()` from its start FEN.
    let mut theirs = vec![
        24688, 24673, 24656, 25202, 25187, 25185, 25716, 25701, 25699, 26230, 26198, 26213, 29057,
        29042, 29025, 29040, 30085, 30070, 30053, 30068, 32897, 32880, 34422, 34437,
    ];
    let game = Jungle::start();
    let mut ours: Vec<u16> = game.legal().iter().map(to_peer).collect();
    theirs.sort_unstable();
    ours.sort_unstable();
    assert_eq!(ours, theirs);
    for id in theirs {
        assert_eq!(to_peer(&from_peer(id, &game).expect("legal")), id);
    }
    assert_eq!(to_peer(&mv("8 a3-a4")), 0x6050);
    assert_eq!(from_peer(0x6050, &game).expect("legal"), mv("8 a3-a4"));
}

#[test]
fn jumps_and_captures_translate_both_ways() {
    // A Blue lion on a4 next to a Red tiger on d4 across the river.
    let game = Jungle::from_position("l6/7/7/7/7/L2t3/7/7/7 b 0 1").expect("position");
    let capture = mv("7 a4xd4");
    assert_eq!(to_peer(&capture), 0x5053);
    assert_eq!(from_peer(0x5053, &game).expect("legal"), capture);
    assert_eq!(to_peer(&mv("7 b3-b7")), 0x6121);
    assert!(from_peer(0x9050, &game).is_err(), "row 9 is off the board");
    assert!(from_peer(0x5057, &game).is_err(), "col 7 is off the board");
}

#[test]
fn a_rat_capture_from_the_water_is_refused() {
    // A Red rat in the water on b5, a Blue rat ashore on a5, Red to
    // move: AnimalChess lets the rat take from the water, we do not.
    let game = Jungle::from_position("l6/7/7/7/Rr5/7/7/7/6L r 0 1").expect("position");
    let id = (0x41 << 8) | 0x40;
    assert!(from_peer(id, &game).is_err());
    assert_eq!(to_peer(&mv("1 b5-b4")), 0x4151);
}

#[test]
fn a_move_our_shuttle_limit_bans_is_refused_and_named() {
    // RULES.md's example: Blue's elephant went a3-a4-a3-a4.
    let mut game = Jungle::start();
    for text in [
        "8 a3-a4", "8 g7-g6", "8 a4-a3", "8 g6-g7", "8 a3-a4", "8 g7-g6",
    ] {
        game.play_move(mv(text)).expect("legal");
    }
    let back = to_peer(&mv("8 a4-a3"));
    let e = from_peer(back, &game).expect_err("banned");
    assert!(e.contains("shuttle"), "{e}");
    assert_eq!(
        from_peer(to_peer(&mv("8 a4-a5")), &game).expect("legal"),
        mv("8 a4-a5")
    );
}

#[test]
fn the_rules_are_compared_before_every_move() {
    let game = Jungle::start();
    let on = Verdict {
        winner: None,
        legal: 24,
    };
    assert_eq!(disagreement(&game, &on), None);
    let won = Verdict {
        winner: Some(Side(1)),
        legal: 0,
    };
    assert!(disagreement(&game, &won)
        .expect("differs")
        .contains("repetition"));
    // Den entry: both rules say Blue won.
    let mut den = Jungle::from_position("2d4/3R3/7/7/7/7/7/7/l6 b 0 1").expect("position");
    den.play_move(mv("1 d8-d9")).expect("legal");
    let blue = Verdict {
        winner: Some(Side(0)),
        legal: 0,
    };
    assert_eq!(disagreement(&den, &blue), None);
    assert!(disagreement(
        &den,
        &Verdict {
            winner: None,
            legal: 3
        }
    )
    .is_some());
}
