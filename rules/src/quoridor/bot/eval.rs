//! What the search measures: the race (shortest ways, turn order, walls
//! left) and which walls are worth trying.

use super::super::bitboard::Bitboard;
use super::super::board::Board;
use super::super::cell::Cell;
use super::super::moves::Move;
use super::super::options::MAX_PAWNS;
use super::super::position::Quoridor;
use super::super::wall::{Orientation, Wall};
use crate::game::Side;

/// One step of the race, the unit of every score.
pub const STEP: i32 = 100;

/// With three pawns or more, the steps a wall in the hand of the pawn
/// moving just before another is taken to cost that other (in hundredths
/// of a step): the opponents wall one another too, so the pawn after ours,
/// walled by nobody else, is the one to hold off. Measured in
/// BENCHMARKS.md (issue 28).
pub const OTHERS_WALL: i32 = 2 * STEP;

/// The fewest steps each side's pawn needs to its goal around the walls
/// (pawns ignored); `None` for a pawn no longer on the board.
pub(super) fn distances(g: &Quoridor) -> [Option<u32>; MAX_PAWNS] {
    let mut d = [None; MAX_PAWNS];
    for s in g.active_sides() {
        d[s.index()] = g.distance(s);
    }
    d
}

/// The position for `me`, in hundredths of a step.
///
/// The race: a pawn `d` steps from its goal gets there on its `d`-th turn
/// from now, so with `n` pawns taking turns from the side to move, pawn
/// `s` arrives at ply `(d - 1) * n + k` where `k` is its place in the turn
/// order. The score is how many plies the first opponent home arrives after
/// `me`, per round of turns: a step ahead is worth [`STEP`], moving first
/// between equals a share of it. With three pawns or more, an opponent
/// more than a step from its goal whose predecessor in turn order is
/// another opponent with walls left counts [`OTHERS_WALL`] further away.
/// Each wall in hand is worth `wall_value` against the best-stocked
/// opponent's.
pub(super) fn evaluate(g: &Quoridor, me: Side, wall_value: i32) -> i32 {
    let d = distances(g);
    let n = g.active_sides().count() as i32;
    let mut arrival = [i32::MAX; MAX_PAWNS];
    let mut place = 0;
    let sides = g.sides;
    for k in 0..sides {
        let s = (g.to_move + k) % sides;
        if let Some(dist) = d[s as usize] {
            // In plies, in hundredths (STEP per ply).
            let mut a = ((dist.max(1) as i32 - 1) * n + place) * STEP;
            if n >= 3 && s != me.0 && dist > 1 {
                // The pawn before `s` in turn order walls it, unless that
                // is us or it has no wall left.
                let before = (1..sides)
                    .map(|j| (s + sides - j) % sides)
                    .find(|&p| d[p as usize].is_some())
                    .unwrap_or(s);
                if before != me.0 && g.walls_left[before as usize] > 0 {
                    a += OTHERS_WALL * n;
                }
            }
            arrival[s as usize] = a;
            place += 1;
        }
    }
    let mine = arrival[me.index()];
    let mut first_other = i32::MAX;
    let mut their_walls = 0;
    for s in g.active_sides().filter(|&s| s != me) {
        first_other = first_other.min(arrival[s.index()]);
        their_walls = their_walls.max(i32::from(g.walls_left[s.index()]));
    }
    if first_other == i32::MAX {
        return 0;
    }
    (first_other - mine) / n + wall_value * (i32::from(g.walls_left[me.index()]) - their_walls)
}

/// The wall slots that could cut a shortest way of the pawn on `from` to
/// `goal`: a horizontal wall whose two columns hold such a way's cells on
/// both ranks it separates, a vertical one likewise across its two files.
pub(super) fn slots_across(board: &Board, from: Cell, goal: Bitboard) -> [Bitboard; 2] {
    let Some((_, way)) = board.shortest_ways(from, goal) else {
        return [Bitboard::EMPTY; 2];
    };
    let up = way & way.shr::<16>();
    let right = way & way.shr::<1>();
    [up | up.shr::<1>(), right | right.shr::<16>()]
}

/// Walls `mover` may place that lengthen the way of at least one of
/// `targets`, best first (steps added to the targets' ways, less steps
/// added to `mover`'s own), at most `max` of them, appended to `out`.
pub(super) fn wall_moves(
    g: &Quoridor,
    mover: Side,
    targets: &[Side],
    max: usize,
    out: &mut Vec<Move>,
) {
    if max == 0 || g.walls_left[mover.index()] == 0 {
        return;
    }
    let mut slots = [Bitboard::EMPTY; 2];
    let mut before = [0u32; MAX_PAWNS];
    for &t in targets {
        let Some(c) = g.pawn(t) else { continue };
        let [h, v] = slots_across(&g.board, c, g.goals[t.index()]);
        slots[0] |= h;
        slots[1] |= v;
        before[t.index()] = g.distance(t).unwrap_or(0);
    }
    let own_before = g.distance(mover).unwrap_or(0);
    let legal = g.legal_walls_within(slots);
    let mut scored: Vec<(i32, Wall)> = Vec::new();
    for o in Orientation::BOTH {
        for s in legal[o.index()] {
            let wall = Wall::new(Cell::from_index(s), o);
            let mut board = g.board;
            board.place(wall);
            let gain: u32 = targets
                .iter()
                .filter_map(|&t| {
                    let c = g.pawn(t)?;
                    let after = board.distance(c, g.goals[t.index()])?;
                    Some(after - before[t.index()])
                })
                .sum();
            if gain == 0 {
                continue;
            }
            let own = g
                .pawn(mover)
                .and_then(|c| board.distance(c, g.goals[mover.index()]));
            let cost = own.map_or(0, |d| d - own_before);
            scored.push((gain as i32 - cost as i32, wall));
        }
    }
    scored.sort_by_key(|s| std::cmp::Reverse(s.0));
    out.extend(scored.into_iter().take(max).map(|(_, w)| Move::Wall(w)));
}

/// `side`'s pawn moves, nearest its goal first (ties in board order).
pub(super) fn pawn_moves(g: &Quoridor, side: Side, out: &mut Vec<Move>) {
    let Some(from) = g.pawn(side) else { return };
    let goal = g.goals[side.index()];
    let mut scored: Vec<(u32, Cell)> = g
        .board
        .pawn_targets(from, g.occupied)
        .map(|i| {
            let c = Cell::from_index(i);
            (g.board.distance(c, goal).unwrap_or(u32::MAX), c)
        })
        .collect();
    scored.sort();
    out.extend(scored.into_iter().map(|(_, c)| Move::Pawn(c)));
}
