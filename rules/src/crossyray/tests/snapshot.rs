//! Reading a serialised game back checks that it is a consistent state.

use super::{arrange, mv, new_game};
use crate::crossyray::position::Snapshot;
use crate::crossyray::{Cell, CrossyRay, Edge, Number};
use crate::game::{EndReason, Game, Side};

fn read_back(game: &CrossyRay) -> Result<CrossyRay, String> {
    CrossyRay::try_from(game.snapshot())
}

#[test]
fn a_game_reads_back_equal_at_every_stage() {
    let mut game = new_game(9, 7);
    assert_eq!(read_back(&game), Ok(game.clone()));
    for text in ["f4", "h4", "i4"] {
        game.play(&mv(text)).unwrap();
        assert_eq!(read_back(&game), Ok(game.clone()));
    }
    game.forfeit(Side(1), EndReason::Resign);
    assert_eq!(read_back(&game), Ok(game.clone()));
}

/// Breaks one thing in a good snapshot.
type Spoil = fn(&mut Snapshot);

#[test]
fn an_inconsistent_view_is_refused() {
    let game = new_game(9, 7);
    let cases: [(&str, Spoil); 9] = [
        ("square options", |s| s.options.height = 9),
        ("size", |s| s.width = 11),
        ("cells", |s| {
            s.cells.pop();
        }),
        ("number 20", |s| s.cells[0] = 20),
        ("origin", |s| s.origin = Cell::new(0, 0).unwrap()),
        ("next", |s| s.next = Number::new(5)),
        ("to_move", |s| s.to_move = Some(Side(1))),
        ("over", |s| s.to_move = None),
        ("defends", |s| s.defends = [Edge::Right, Edge::Left]),
    ];
    for (what, spoil) in cases {
        let mut snapshot = game.snapshot();
        spoil(&mut snapshot);
        assert!(CrossyRay::try_from(snapshot).is_err(), "{what}");
    }
}

#[test]
fn a_locked_position_that_is_not_over_is_refused() {
    let mut game = arrange(9, 7, &[("a1", 7), ("a2", 6), ("b1", 3)], "a1", 1);
    assert!(read_back(&game).is_err());
    game.outcome = Some(crate::game::Outcome::Win {
        winner: Side(0),
        reason: EndReason::Lock,
    });
    game.to_move = None;
    assert!(read_back(&game).is_ok());
}
