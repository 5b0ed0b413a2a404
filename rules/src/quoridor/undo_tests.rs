//! Taking moves back ([`Game::undo`]): on random games of every board
//! size, 2 to 8 pawns, either goal, with walls, timeouts (passes and steps
//! aside), near the move limit and with pawns leaving, each move or
//! timeout taken back gives the position it was played from.

use super::*;
use crate::game::{EndReason, Game, Side};
use crate::rng::Rng;
use crate::undo::check::{check_line, random_line};

fn position_string(q: &Quoridor) -> String {
    // Quoridor has no position string of its own: its view is the
    // position.
    serde_json::to_string(&View::from(q)).unwrap()
}

fn random_options(rng: &mut Rng) -> Options {
    let goal = [GoalMode::Edge, GoalMode::Centre][rng.below(2)];
    let size = SIZES[rng.below(SIZES.len())];
    let players = 2 + rng.below(7) as u8;
    let walls = match rng.below(3) {
        0 => WallStock::Auto,
        _ => WallStock::Fixed(WALL_CHOICES[rng.below(WALL_CHOICES.len())]),
    };
    // Often a short limit, so that lines run up to it.
    let move_limit = rng.chance(0.4).then(|| 2 + rng.below(12) as u16);
    Options {
        walls,
        move_limit,
        ..super::options::opts(size, players, goal)
    }
}

#[test]
fn play_then_undo_gives_the_position_before_on_random_games() {
    let mut rng = Rng::new(26);
    let mut seen_leave = false;
    for _ in 0..30 {
        let options = random_options(&mut rng);
        let start = Quoridor::new(&options).unwrap();
        let len = rng.below(50);
        // Walls two times in three, when there is one to place.
        let walls = |_: &Quoridor, moves: &[Move], rng: &mut Rng| {
            let walls: Vec<Move> = moves
                .iter()
                .copied()
                .filter(|m| matches!(m, Move::Wall(_)))
                .collect();
            (rng.chance(0.66) && !walls.is_empty()).then(|| walls[rng.below(walls.len())])
        };
        let on_board = |q: &Quoridor| q.active_sides().collect::<Vec<Side>>();
        let line = random_line(&start, len, &mut rng, (0.15, 0.03), walls, on_board);
        seen_leave |= line
            .iter()
            .any(|p| matches!(p, crate::undo::check::Ply::Leave(_)));
        check_line(&start, &line, position_string, &mut rng);
    }
    assert!(seen_leave, "some line has a pawn leaving");
}

#[test]
fn a_pawn_that_left_stops_the_takebacks_and_a_finished_game_takes_none() {
    let mut q = Quoridor::new(&super::options::opts(9, 3, GoalMode::Edge)).unwrap();
    for m in ["e2", "e3h"] {
        q.play(&m.parse().unwrap()).unwrap();
    }
    q.timeout();
    assert_eq!(q.takebacks(), 3, "two moves and the pass a timeout played");
    q.forfeit(Side(1), EndReason::Abandon);
    assert_eq!(q.takebacks(), 0);
    assert!(!q.undo());
    q.play(&"e3".parse().unwrap()).unwrap();
    let before = q.clone();
    q.play(&"a1h".parse().unwrap()).unwrap();
    assert_eq!(q.takebacks(), 2);
    assert!(q.undo());
    assert_eq!(q, before);
    assert!(q.undo());
    assert!(!q.undo(), "not past the leave");
    assert_eq!(q.pawn(Side(1)), None);
    q.forfeit(Side(2), EndReason::Resign);
    assert!(q.is_over());
    assert_eq!(q.takebacks(), 0);
}
