//! Taking moves back ([`Game::undo`]) on random games of every shape of
//! board: each move taken back gives the position it was played from.

use super::{mv, new_game};
use crate::crossyray::CrossyRay;
use crate::game::Game;
use crate::rng::Rng;
use crate::undo::check::{check_line, random_line};

#[test]
fn play_then_undo_gives_the_position_before_on_random_games() {
    let mut rng = Rng::new(26);
    let sizes = [(9, 7), (7, 9), (5, 7), (25, 23), (13, 5), (7, 5), (11, 13)];
    for i in 0..28 {
        let (width, height) = sizes[i % sizes.len()];
        let start = new_game(width, height);
        // Long enough on the big boards to wrap past the 19.
        let len = rng.below(if width * height > 300 { 120 } else { 60 });
        let line = random_line(
            &start,
            len,
            &mut rng,
            (0.0, 0.0),
            |_, _, _| None,
            |_| vec![],
        );
        check_line(&start, &line, CrossyRay::position_string, &mut rng);
    }
}

#[test]
fn a_finished_game_and_a_game_read_from_its_view_take_nothing_back() {
    let mut game = new_game(9, 7);
    assert!(!game.undo(), "nothing played yet");
    for text in ["f4", "h4", "i4"] {
        game.play(&mv(text)).unwrap();
    }
    assert_eq!(game.takebacks(), 3);
    let read: CrossyRay = serde_json::from_value(serde_json::to_value(&game).unwrap()).unwrap();
    assert_eq!(read, game, "the same position");
    assert_eq!(read.takebacks(), 0, "but not how it was reached");
    let mut read = read;
    assert!(!read.undo());
    game.play(&mv("goal:right")).unwrap();
    let over = game.clone();
    assert_eq!(game.takebacks(), 0);
    assert!(!game.undo());
    assert_eq!(game.outcome(), over.outcome());
    assert_eq!(game.position_string(), over.position_string());
}
