//! The board: its size and walls, as bitboards, and every question about
//! movement that does not depend on whose turn it is: which steps a wall
//! blocks, where a pawn may go, whether a cell set can reach another, how
//! far a goal is, and which free wall slots could possibly cut a path.
//!
//! Each wall blocks two cell edges; walls never overlap, so every edge is
//! blocked by at most one wall and removing a wall (for make/unmake in
//! perft) simply clears its bits.

use super::bitboard::{Bitboard, STRIDE};
use super::cell::{Cell, Direction};
use super::wall::{Orientation, Wall};

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Board {
    size: u8,
    /// The wall slots (named by the cell below-left of the centre).
    slots: Bitboard,
    /// The corner points on the border of the board.
    frame: Bitboard,
    /// Walls placed, indexed by [`Orientation::index`].
    walls: [Bitboard; 2],
    /// Per [`Direction`] (in `Direction::ALL` order): cells whose step that
    /// way is blocked by a wall or by the edge of the board.
    blocked: [Bitboard; 4],
}

/// The corner points covered by horizontal walls `h` and vertical walls `v`.
#[inline]
fn wall_points(h: Bitboard, v: Bitboard) -> Bitboard {
    h.shl::<16>() | h.shl::<17>() | h.shl::<18>() | v.shl::<1>() | v.shl::<17>() | v.shl::<33>()
}

#[inline]
fn dir_index(d: Direction) -> usize {
    match d {
        Direction::Up => 0,
        Direction::Down => 1,
        Direction::Left => 2,
        Direction::Right => 3,
    }
}

impl Board {
    /// An empty `size`×`size` board (`size` at most 13).
    pub fn new(size: u8) -> Board {
        let row = |rank: u8| Bitboard::rectangle(size, rank + 1) & !Bitboard::rectangle(size, rank);
        let column =
            |file: u8| Bitboard::rectangle(file + 1, size) & !Bitboard::rectangle(file, size);
        Board {
            size,
            slots: Bitboard::rectangle(size - 1, size - 1),
            frame: Bitboard::rectangle(size + 1, size + 1)
                & !(Bitboard::rectangle(size, size)
                    & !Bitboard::rectangle(1, size)
                    & !Bitboard::rectangle(size, 1)),
            walls: [Bitboard::EMPTY; 2],
            blocked: [row(size - 1), row(0), column(0), column(size - 1)],
        }
    }

    pub fn size(&self) -> u8 {
        self.size
    }

    /// The walls placed, horizontal ones first, each group by cell.
    pub fn walls(&self) -> impl Iterator<Item = Wall> + '_ {
        Orientation::BOTH.into_iter().flat_map(move |o| {
            self.walls[o.index()].map(move |i| Wall::new(Cell::from_index(i), o))
        })
    }

    pub fn has_wall(&self, w: Wall) -> bool {
        self.walls[w.orientation.index()].contains(w.cell.index())
    }

    /// Whether a step from `c` in direction `d` is blocked by a wall or
    /// the edge.
    #[inline]
    pub fn is_blocked(&self, c: Cell, d: Direction) -> bool {
        self.blocked[dir_index(d)].contains(c.index())
    }

    /// Free wall slots: on the board, not overlapping a parallel wall and
    /// not crossing a perpendicular one at the same centre. Indexed by
    /// [`Orientation::index`].
    #[inline]
    pub fn free_slots(&self) -> [Bitboard; 2] {
        let [h, v] = self.walls;
        [
            self.slots & !(h | h.shl::<1>() | h.shr::<1>() | v),
            self.slots & !(v | v.shl::<STRIDE>() | v.shr::<STRIDE>() | h),
        ]
    }

    /// Why `w` cannot be placed whatever the pawns: `Some(true)` if it
    /// overlaps a parallel wall, `Some(false)` if it crosses one, `None` if
    /// its slot is free. `w` must be on the board.
    pub fn conflict(&self, w: Wall) -> Option<bool> {
        let i = w.cell.index();
        let same = self.walls[w.orientation.index()];
        let other = self.walls[w.orientation.other().index()];
        let along = match w.orientation {
            Orientation::Horizontal => same | same.shl::<1>() | same.shr::<1>(),
            Orientation::Vertical => same | same.shl::<STRIDE>() | same.shr::<STRIDE>(),
        };
        if along.contains(i) {
            Some(true)
        } else if other.contains(i) {
            Some(false)
        } else {
            None
        }
    }

    /// Wall slots where a new wall could close a loop of barriers (the
    /// border and the walls placed). Only such a wall can cut any cell off
    /// from any other, so every other free wall is harmless to every pawn.
    ///
    /// A wall is a path of three corner points; it closes a loop exactly
    /// when two of them are already joined by barriers: the border and the
    /// walls chained to it, or one group of walls chained together away
    /// from the border.
    ///
    /// Corner points are indexed like cells, point `(x, y)` being the
    /// bottom-left corner of cell `(x, y)`; the slot of cell `(f, r)` has
    /// its centre at point `(f+1, r+1)`. A horizontal wall at slot `s`
    /// covers points `s+16`, `s+17`, `s+18`; a vertical one `s+1`, `s+17`,
    /// `s+33`.
    #[inline]
    pub fn loop_closing_slots(&self) -> [Bitboard; 2] {
        let [h, v] = self.walls;
        if h.is_empty() && v.is_empty() {
            return [Bitboard::EMPTY; 2];
        }
        let (border, [mut h_left, mut v_left]) = self.barrier_from(self.frame, [h, v]);
        let [mut closing_h, mut closing_v] = self.two_points_in(border);
        // Away from the border a loop takes four walls, the new one
        // included, so only groups of three or more walls matter.
        while h_left.count() + v_left.count() >= 3 {
            let seed = match h_left.clone().next() {
                Some(i) => [Bitboard::from_index(i), Bitboard::EMPTY],
                None => [
                    Bitboard::EMPTY,
                    Bitboard::from_index(v_left.clone().next().expect("walls left")),
                ],
            };
            let (group, left) = self.barrier_from(wall_points(seed[0], seed[1]), [h_left, v_left]);
            let size = h_left.count() + v_left.count() - left[0].count() - left[1].count();
            [h_left, v_left] = left;
            if size >= 3 {
                let [gh, gv] = self.two_points_in(group);
                closing_h |= gh;
                closing_v |= gv;
            }
        }
        [closing_h, closing_v]
    }

    /// The points of the barrier grown from `points` along the walls
    /// `[h, v]`, and the walls not reached.
    #[inline]
    fn barrier_from(
        &self,
        mut points: Bitboard,
        [h, v]: [Bitboard; 2],
    ) -> (Bitboard, [Bitboard; 2]) {
        let (mut h_in, mut v_in) = (Bitboard::EMPTY, Bitboard::EMPTY);
        loop {
            let th = h & (points.shr::<16>() | points.shr::<17>() | points.shr::<18>());
            let tv = v & (points.shr::<1>() | points.shr::<17>() | points.shr::<33>());
            if th == h_in && tv == v_in {
                return (points, [h & !h_in, v & !v_in]);
            }
            h_in = th;
            v_in = tv;
            points |= wall_points(th, tv);
        }
    }

    /// Slots whose wall would have at least two of its points in `points`.
    #[inline]
    fn two_points_in(&self, points: Bitboard) -> [Bitboard; 2] {
        let majority = |a: Bitboard, b: Bitboard, c: Bitboard| (a & b) | (a & c) | (b & c);
        let ph = points.shr::<16>();
        let pv = points.shr::<1>();
        [
            self.slots & majority(ph, ph.shr::<1>(), ph.shr::<2>()),
            self.slots & majority(pv, pv.shr::<16>(), pv.shr::<32>()),
        ]
    }

    /// Places `w`, which must be on the board and free.
    pub fn place(&mut self, w: Wall) {
        debug_assert!(self.conflict(w).is_none());
        self.walls[w.orientation.index()].insert(w.cell.index());
        for (d, cell) in Self::blocked_edges(w) {
            self.blocked[dir_index(d)].insert(cell);
        }
    }

    /// Removes `w`, which must have been placed.
    pub fn remove(&mut self, w: Wall) {
        debug_assert!(self.has_wall(w));
        self.walls[w.orientation.index()].remove(w.cell.index());
        for (d, cell) in Self::blocked_edges(w) {
            self.blocked[dir_index(d)].remove(cell);
        }
    }

    /// The four (direction, cell) steps a wall blocks.
    fn blocked_edges(w: Wall) -> [(Direction, u8); 4] {
        let s = w.cell.index();
        let up = STRIDE as u8;
        match w.orientation {
            Orientation::Horizontal => [
                (Direction::Up, s),
                (Direction::Up, s + 1),
                (Direction::Down, s + up),
                (Direction::Down, s + up + 1),
            ],
            Orientation::Vertical => [
                (Direction::Right, s),
                (Direction::Right, s + up),
                (Direction::Left, s + 1),
                (Direction::Left, s + up + 1),
            ],
        }
    }

    /// The cells one step from `set`, walls permitting, plus `set`.
    #[inline]
    fn expand(&self, set: Bitboard) -> Bitboard {
        let [up, down, left, right] = self.blocked;
        set | (set & !up).shl::<STRIDE>()
            | (set & !down).shr::<STRIDE>()
            | (set & !left).shr::<1>()
            | (set & !right).shl::<1>()
    }

    /// Whether some cell of `goal` can be walked to from `from`, around
    /// walls, ignoring pawns.
    pub fn reaches(&self, from: Bitboard, goal: Bitboard) -> bool {
        let mut seen = from;
        loop {
            if (seen & goal).any() {
                return true;
            }
            let next = self.expand(seen);
            if next == seen {
                return false;
            }
            seen = next;
        }
    }

    /// Whether `goal` can be walked to from `from` by plain steps that
    /// never enter a cell of `avoid` (other pawns, say).
    pub fn reaches_avoiding(&self, from: Cell, goal: Bitboard, avoid: Bitboard) -> bool {
        let mut seen = Bitboard::from_index(from.index());
        loop {
            if (seen & goal).any() {
                return true;
            }
            let next = self.expand(seen) & !avoid | seen;
            if next == seen {
                return false;
            }
            seen = next;
        }
    }

    /// The fewest steps from `from` to any cell of `goal` around walls,
    /// ignoring pawns; `None` if walled off.
    pub fn distance(&self, from: Cell, goal: Bitboard) -> Option<u32> {
        let mut seen = Bitboard::from_index(from.index());
        let mut steps = 0;
        loop {
            if (seen & goal).any() {
                return Some(steps);
            }
            let next = self.expand(seen);
            if next == seen {
                return None;
            }
            seen = next;
            steps += 1;
        }
    }

    /// The fewest steps from `from` to `goal` around walls (pawns
    /// ignored) and the cells that lie on at least one such shortest way,
    /// `from` and the goal cell included; `None` if walled off.
    ///
    /// Floods forward from `from` level by level, then walks back from the
    /// goal cells reached first, keeping at each level only the cells next
    /// to the way already found.
    pub fn shortest_ways(&self, from: Cell, goal: Bitboard) -> Option<(u32, Bitboard)> {
        const MAX_LEVELS: usize = 13 * 13;
        let mut levels = [Bitboard::EMPTY; MAX_LEVELS];
        levels[0] = Bitboard::from_index(from.index());
        let mut seen = levels[0];
        let mut d = 0;
        while (levels[d] & goal).is_empty() {
            let next = self.expand(seen);
            if next == seen {
                return None;
            }
            d += 1;
            levels[d] = next & !seen;
            seen = next;
        }
        let mut on_way = levels[d] & goal;
        let mut layer = on_way;
        for level in levels[..d].iter().rev() {
            layer = self.expand(layer) & *level;
            on_way |= layer;
        }
        Some((d as u32, on_way))
    }

    /// The regions wall `w`, already placed, has closed off: the pieces
    /// its face of the board fell into, all but one (the unnamed rest).
    ///
    /// Every piece holds one of the four cells beside the wall (before the
    /// wall the face was connected, so each piece touches a blocked edge).
    /// Those cells are joined pairwise by flooding both ends in lockstep:
    /// a detour costs about its length, a closed piece the size of the
    /// smaller side; the whole board is never searched.
    pub fn split_by(&self, w: Wall) -> [Option<Bitboard>; 3] {
        let s = w.cell.index();
        let up = STRIDE as u8;
        // Round the wall: two neighbours on one side, then across the far
        // edge, then back along the other side. Joining neighbours is
        // usually one step, so a wall that splits nothing costs one detour.
        let ends = match w.orientation {
            Orientation::Horizontal => [s, s + 1, s + up + 1, s + up],
            Orientation::Vertical => [s, s + up, s + up + 1, s + 1],
        };
        let mut regions = [None; 3];
        let mut found = 0;
        let mut closed = Bitboard::EMPTY;
        // The last cell known to lie in the piece that may still be the
        // rest (joining the next cell to it is joining it to that piece).
        let mut rest: Option<u8> = None;
        for c in ends {
            if closed.contains(c) {
                continue;
            }
            let Some(r) = rest else {
                rest = Some(c);
                continue;
            };
            match self.separate(r, c) {
                None => rest = Some(c),
                Some(piece) => {
                    regions[found] = Some(piece);
                    found += 1;
                    closed |= piece;
                    if piece.contains(r) {
                        rest = Some(c);
                    }
                }
            }
        }
        regions
    }

    /// Floods from cells `a` and `b` in turn until they meet (`None`) or
    /// one of them fills a closed region, which is returned.
    fn separate(&self, a: u8, b: u8) -> Option<Bitboard> {
        let mut sa = Bitboard::from_index(a);
        let mut sb = Bitboard::from_index(b);
        loop {
            let na = self.expand(sa);
            if (na & sb).any() {
                return None;
            }
            if na == sa {
                return Some(sa);
            }
            sa = na;
            let nb = self.expand(sb);
            if (nb & sa).any() {
                return None;
            }
            if nb == sb {
                return Some(sb);
            }
            sb = nb;
        }
    }

    /// Where a pawn on `from` may go when the cells in `occupied` hold
    /// other pawns: steps, straight jumps over one pawn, and diagonal
    /// moves beside a pawn whose far side is a wall, the edge or a pawn.
    #[inline]
    pub fn pawn_targets(&self, from: Cell, occupied: Bitboard) -> Bitboard {
        let mut targets = Bitboard::EMPTY;
        for d in Direction::ALL {
            if self.is_blocked(from, d) {
                continue;
            }
            let n = from.step(d);
            if !occupied.contains(n.index()) {
                targets.insert(n.index());
                continue;
            }
            if !self.is_blocked(n, d) && !occupied.contains(n.step(d).index()) {
                targets.insert(n.step(d).index());
                continue;
            }
            for e in d.perpendicular() {
                if !self.is_blocked(n, e) && !occupied.contains(n.step(e).index()) {
                    targets.insert(n.step(e).index());
                }
            }
        }
        targets
    }

    /// Whether a pawn on `from` can get to `goal` by its own legal moves
    /// while the pawns on `occupied` stand still.
    pub fn pawn_reaches(&self, from: Cell, occupied: Bitboard, goal: Bitboard) -> bool {
        let mut seen = Bitboard::from_index(from.index());
        let mut todo = seen;
        while let Some(i) = todo.next() {
            if goal.contains(i) {
                return true;
            }
            let fresh = self.pawn_targets(Cell::from_index(i), occupied) & !seen;
            seen |= fresh;
            todo |= fresh;
        }
        false
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn cell(s: &str) -> Cell {
        s.parse().unwrap()
    }

    fn wall(s: &str) -> Wall {
        s.parse().unwrap()
    }

    /// Asserts that on `b` every side in `blocked` (a cell and the way
    /// out of it) is blocked and every one in `open` is not.
    fn assert_sides(b: &Board, blocked: &[(&str, Direction)], open: &[(&str, Direction)]) {
        for &(c, dir) in blocked {
            assert!(b.is_blocked(cell(c), dir), "{c} {dir:?} is blocked");
        }
        for &(c, dir) in open {
            assert!(!b.is_blocked(cell(c), dir), "{c} {dir:?} is open");
        }
    }

    #[test]
    fn edges_block_like_walls() {
        use Direction::*;
        let b = Board::new(9);
        assert_sides(
            &b,
            &[("a1", Left), ("a1", Down), ("i9", Up), ("i9", Right)],
            &[("e5", Up)],
        );
    }

    #[test]
    fn horizontal_wall_blocks_two_columns_between_two_ranks() {
        use Direction::*;
        let mut b = Board::new(9);
        b.place(wall("e3h"));
        assert_sides(
            &b,
            &[("e3", Up), ("f3", Up), ("e4", Down), ("f4", Down)],
            &[("d3", Up), ("g3", Up)],
        );
        b.remove(wall("e3h"));
        assert_eq!(b, Board::new(9));
    }

    #[test]
    fn vertical_wall_blocks_two_ranks_between_two_files() {
        use Direction::*;
        let mut b = Board::new(9);
        b.place(wall("e3v"));
        assert_sides(
            &b,
            &[("e3", Right), ("e4", Right), ("f3", Left), ("f4", Left)],
            &[("e5", Right)],
        );
    }

    #[test]
    fn free_slots_exclude_overlap_and_crossing() {
        let mut b = Board::new(9);
        assert_eq!(b.free_slots()[0].count(), 64);
        b.place(wall("e3h"));
        let [h, v] = b.free_slots();
        for taken in ["d3", "e3", "f3"] {
            assert!(!h.contains(cell(taken).index()));
        }
        assert!(h.contains(cell("c3").index()) && h.contains(cell("g3").index()));
        assert!(!v.contains(cell("e3").index()));
        assert!(v.contains(cell("e2").index()) && v.contains(cell("e4").index()));
        assert_eq!(b.conflict(wall("f3h")), Some(true));
        assert_eq!(b.conflict(wall("e3v")), Some(false));
        assert_eq!(b.conflict(wall("e4v")), None);
    }

    #[test]
    fn only_walls_joining_two_points_of_one_barrier_can_close_a_loop() {
        let mut b = Board::new(9);
        // No wall touches the border at two points.
        assert!(b.loop_closing_slots().iter().all(|s| s.is_empty()));
        b.place(wall("a1h"));
        let [h, v] = b.loop_closing_slots();
        // c1h touches a1h's end and nothing else: one point.
        assert!(!h.contains(cell("c1").index()));
        // b1v runs along x = 2 from the border (y = 0) through a1h's end
        // (y = 1), both on the border's component: it would shut a1-b1.
        assert!(v.contains(cell("b1").index()));
        // Walls away from the border are grouped by what they chain to:
        // d6v would touch e5h and e7h at their left ends, but those are two
        // separate walls, so it closes nothing...
        let mut b = Board::new(9);
        b.place(wall("e5h"));
        b.place(wall("e7h"));
        assert!(!b.loop_closing_slots()[1].contains(cell("d6").index()));
        // ...until f6v chains them into one group on the right.
        b.place(wall("f6v"));
        let [_, v] = b.loop_closing_slots();
        assert!(v.contains(cell("d6").index()));
        assert!(!v.contains(cell("d3").index()));
    }

    #[test]
    fn split_by_finds_the_region_a_wall_closes() {
        let mut b = Board::new(9);
        b.place(wall("a1h"));
        let open = wall("c1h");
        b.place(open);
        // c1h leaves every cell joined.
        assert_eq!(b.split_by(open), [None; 3]);
        b.remove(open);
        let shut = wall("b1v");
        b.place(shut);
        // b1v shuts {a1, b1}; c1, c2 and b2 stay joined.
        let pocket =
            Bitboard::from_index(cell("a1").index()) | Bitboard::from_index(cell("b1").index());
        assert_eq!(b.split_by(shut), [Some(pocket), None, None]);
    }

    #[test]
    fn shortest_ways_hold_every_cell_of_every_shortest_way_and_no_other() {
        let mut b = Board::new(9);
        let top = Bitboard::rectangle(9, 9) & !Bitboard::rectangle(9, 8);
        let (d, way) = b.shortest_ways(cell("e1"), top).unwrap();
        assert_eq!(d, 8);
        // Straight up file e: the only shortest way on an empty board.
        assert_eq!(way.count(), 9);
        assert!((1..=9).all(|r| way.contains(cell(&format!("e{r}")).index())));
        // A wall above e1-f1 and one to e1's left: round by g1.
        b.place(wall("e1h"));
        b.place(wall("d1v"));
        let (d, way) = b.shortest_ways(cell("e1"), top).unwrap();
        assert_eq!(d, 10);
        // e1, f1, then straight up file g: no other way is as short.
        assert_eq!(way.count(), 11);
        for c in ["e1", "f1", "g1", "g2", "g9"] {
            assert!(way.contains(cell(c).index()), "{c}");
        }
        for c in ["d1", "e2", "f2", "h1"] {
            assert!(!way.contains(cell(c).index()), "{c}");
        }
        assert_eq!(b.distance(cell("e1"), top), Some(d));
    }

    #[test]
    fn distance_goes_around_walls() {
        let mut b = Board::new(9);
        let top = Bitboard::rectangle(9, 9) & !Bitboard::rectangle(9, 8);
        assert_eq!(b.distance(cell("e1"), top), Some(8));
        b.place(wall("d1h"));
        b.place(wall("e1v"));
        // From e1 the way up and right is shut: go round by c1.
        assert_eq!(b.distance(cell("e1"), top), Some(10));
    }
}
