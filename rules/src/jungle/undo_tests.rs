//! Taking moves back ([`Game::undo`]): on random games with captures,
//! animals shuttling (up to the shuttle limit) and positions repeating
//! (up to the draw), each move taken back gives the position it was
//! played from, history and legal moves included.

use super::*;
use crate::game::{EndReason, Game, Outcome};
use crate::rng::Rng;
use crate::undo::check::{check_line, random_line};

fn mv(text: &str) -> Move {
    text.parse().unwrap()
}

/// A capture most of the time there is one; else, half the time, the
/// side's last move back the other way (the shuttle, and repetitions).
fn captures_and_shuttles(game: &Jungle, moves: &[Move], rng: &mut Rng) -> Option<Move> {
    let captures: Vec<Move> = moves.iter().copied().filter(|m| m.capture).collect();
    if !captures.is_empty() && rng.chance(0.7) {
        return Some(captures[rng.below(captures.len())]);
    }
    let entries = game.history().entries();
    let back = entries.len().checked_sub(2).map(|i| entries[i].mv)?;
    let reverse = moves
        .iter()
        .copied()
        .find(|m| m.role == back.role && m.from == back.to && m.to == back.from);
    reverse.filter(|_| rng.chance(0.5))
}

#[test]
fn play_then_undo_gives_the_position_before_on_random_games() {
    let mut rng = Rng::new(26);
    let starts = [
        Jungle::start(),
        // 90 moves without a capture already: lines run up to the draw.
        Jungle::from_position("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 90 50").unwrap(),
    ];
    let (mut shuttled, mut repeated, mut captured) = (false, false, false);
    for i in 0..24 {
        let start = &starts[i % 2];
        let len = rng.below(120);
        let line = random_line(
            start,
            len,
            &mut rng,
            (0.0, 0.0),
            captures_and_shuttles,
            |_| vec![],
        );
        let mut game = start.clone();
        for ply in &line {
            let crate::undo::check::Ply::Play(m) = ply else {
                unreachable!("moves only")
            };
            game.play(m).unwrap();
            shuttled |= game.shuttle_ban().is_some();
            repeated |= game.history().repetitions(game.position().hash()) == REPETITION_LIMIT - 1;
            captured |= m.capture;
        }
        check_line(start, &line, Jungle::position_string, &mut rng);
    }
    assert!(
        shuttled && repeated && captured,
        "{shuttled} {repeated} {captured}"
    );
}

#[test]
fn a_shuttle_ban_and_a_repetition_come_back_as_they_were() {
    let mut game = Jungle::start();
    for text in [
        "8 a3-a4", "8 g7-g6", "8 a4-a3", "8 g6-g7", "8 a3-a4", "8 g7-g6",
    ] {
        game.play(&mv(text)).unwrap();
    }
    assert_eq!(game.shuttle_ban(), Some(mv("8 a4-a3")));
    let banned = game.clone();
    game.play(&mv("8 a4-a5")).unwrap();
    assert_eq!(
        game.shuttle_ban(),
        Some(mv("8 g6-g7")),
        "Red's turn, Red's ban"
    );
    assert!(game.undo());
    assert_eq!(game, banned);
    assert_eq!(game.shuttle_ban(), Some(mv("8 a4-a3")));
    assert_eq!(game.legal_moves(), banned.legal_moves());
    // Back to before the third a3-a4: the elephant may go back again.
    assert!(game.undo() && game.undo());
    assert_eq!(game.shuttle_ban(), None);
    assert!(game.legal_moves().contains(&mv("8 a3-a4")));

    // The third occurrence draws: not taken back; the second is.
    let mut game = Jungle::start();
    for text in [
        "8 a3-a4", "8 g7-g6", "8 a4-a3", "8 g6-g7", "6 a1-b1", "6 g9-f9", "6 b1-a1",
    ] {
        game.play(&mv(text)).unwrap();
    }
    let before = game.clone();
    game.play(&mv("6 f9-g9")).unwrap();
    assert_eq!(
        game.outcome().map(Outcome::reason),
        Some(EndReason::Repetition)
    );
    assert!(!game.undo());
    // Three moves back: the start again, its second time.
    let mut game = before;
    assert!(game.undo() && game.undo() && game.undo());
    assert_eq!(game.history().repetitions(game.position().hash()), 2);
    for text in ["6 a1-b1", "6 g9-f9", "6 b1-a1", "6 f9-g9"] {
        game.play(&mv(text)).unwrap();
    }
    assert_eq!(
        game.outcome().map(Outcome::reason),
        Some(EndReason::Repetition)
    );
}

#[test]
fn a_capture_comes_back_with_the_no_capture_count() {
    let mut game =
        Jungle::from_position("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 98 50").unwrap();
    let start = game.clone();
    game.play(&mv("8 a3-a4")).unwrap();
    assert_eq!(game.history().no_capture(), 99);
    assert_eq!(game.takebacks(), 1);
    assert!(game.undo());
    assert_eq!(game, start);
    assert_eq!(game.position_string(), start.position_string());
    assert!(!game.undo(), "a game set up from a position starts there");
}
