//! A greedy Quoridor player, written from RULES.md §2 for the ladder's
//! `--match greedy` (issue 28: the kind of simple player that beat our
//! Master with four pawns): it takes a win; otherwise it steps along its
//! shortest way, unless that lets the next pawn in turn order reach its
//! goal at once, or the next pawn is ahead of it in the race — then it
//! walls the next pawn (the legal wall that lengthens its way most, never
//! one that leaves it a win at once), if it has a wall that helps. No
//! search, no look beyond the next pawn.

use rules::game::{Game, Side};
use rules::quoridor::{Move, Quoridor};
use rules::rng::Rng;

/// Whether the side to move in `g` can reach its goal with its next move.
fn wins_at_once(g: &Quoridor) -> bool {
    g.legal_moves().iter().any(|mv| {
        let mut next = g.clone();
        next.play(mv).is_ok() && next.outcome().is_some_and(|o| o.winner().is_some())
    })
}

/// `g` after `mv`.
fn after(g: &Quoridor, mv: &Move) -> Quoridor {
    let mut next = g.clone();
    next.play(mv).expect("a legal move");
    next
}

/// The greedy player's move in `game` (ties broken by `rng`).
pub fn greedy_move(game: &Quoridor, rng: &mut Rng) -> Move {
    let legal = game.legal_moves();
    let me = game.to_move().expect("a game under way");
    let steps: Vec<Move> = legal
        .iter()
        .copied()
        .filter(|m| matches!(m, Move::Pawn(_)))
        .collect();
    // A win at once.
    if let Some(win) = steps.iter().find(|mv| {
        after(game, mv)
            .outcome()
            .is_some_and(|o| o.winner() == Some(me))
    }) {
        return *win;
    }
    // The step that shortens its own way most.
    let mine = |g: &Quoridor| g.distance(me).unwrap_or(u32::MAX);
    let best_step = steps.iter().map(|mv| mine(&after(game, mv))).min();
    let good_steps: Vec<Move> = steps
        .iter()
        .copied()
        .filter(|mv| Some(mine(&after(game, mv))) == best_step)
        .collect();
    let step = (!good_steps.is_empty()).then(|| good_steps[rng.below(good_steps.len())]);
    let next_side = |g: &Quoridor| g.to_move();
    let step_is_safe = step.is_some_and(|mv| !wins_at_once(&after(game, &mv)));
    // The next pawn in turn order, and how far it is from its goal.
    let next = step.map_or_else(
        || next_side(&after(game, &legal[0])),
        |mv| next_side(&after(game, &mv)),
    );
    let ahead = next.is_some_and(|n: Side| {
        game.distance(n).unwrap_or(u32::MAX) < game.distance(me).unwrap_or(u32::MAX)
    });
    if step_is_safe && !ahead {
        return step.expect("safe");
    }
    // Wall the next pawn: the wall that lengthens its way most and leaves
    // it no win at once.
    if let Some(n) = next {
        let theirs = |g: &Quoridor| g.distance(n).unwrap_or(0);
        let walls: Vec<(Move, u32)> = legal
            .iter()
            .filter(|m| matches!(m, Move::Wall(_)))
            .map(|mv| {
                let g = after(game, mv);
                (*mv, if wins_at_once(&g) { 0 } else { theirs(&g) + 1 })
            })
            .collect();
        let now = theirs(game) + 1;
        if let Some(&(_, top)) = walls.iter().max_by_key(|(_, d)| *d) {
            let helps = if step_is_safe { top > now } else { top > 0 };
            if helps {
                let best: Vec<Move> = walls
                    .iter()
                    .filter(|(_, d)| *d == top)
                    .map(|(m, _)| *m)
                    .collect();
                return best[rng.below(best.len())];
            }
        }
    }
    step.unwrap_or(legal[rng.below(legal.len())])
}

#[cfg(test)]
mod tests {
    use super::*;
    use rules::quoridor::Options;

    /// A 4-pawn game after the moves of `line`.
    fn four(line: &str) -> Quoridor {
        let options = Options {
            players: 4,
            ..Options::default()
        };
        let mut game = Quoridor::new(&options).unwrap();
        for mv in line.split_whitespace() {
            game.play(&mv.parse().unwrap()).unwrap();
        }
        game
    }

    /// Issue 28's position: side 0 (d8) to move; side 1 (h4) and side 2
    /// (d2) are each a step from their goals.
    const ISSUE_28: &str =
        "e2 b5 e8 h5 e3 c5 e7 g5 e4 d5 e6 f5 e5 e4 d5 e6 e7 f4 d4 d6 e8 g4 d3 d8h d8 h4 d2 c6";

    #[test]
    fn it_walls_the_next_pawn_rather_than_leave_it_a_win() {
        let game = four(ISSUE_28);
        let mv = greedy_move(&game, &mut Rng::new(1));
        assert!(matches!(mv, Move::Wall(_)), "{mv}");
        assert!(
            !wins_at_once(&after(&game, &mv)),
            "{mv} leaves side 1 a win"
        );
    }

    #[test]
    fn it_takes_a_win() {
        let game = four(&format!("{ISSUE_28} c8"));
        assert_eq!(greedy_move(&game, &mut Rng::new(1)).to_string(), "i4");
    }
}
