//! The static evaluation: how good a quiet position is for the side to
//! move, in hundredths of a cat-ish pawn.
//!
//! Terms, all precomputed per (colour, animal, square) except the last two:
//! - **material**: the animals' values (the rat is worth more than its rank
//!   because it takes the elephant and blocks river jumps);
//! - **distance to the enemy den**: a bonus growing steeply as an animal
//!   closes in, weighted by how dangerous the animal is as an attacker;
//! - **den and trap defence**: small animals near their own den and next
//!   to their own traps (where they can take any intruder);
//! - **river control**: a rat in the water (safe from land pieces, blocks
//!   jumps) and lions/tigers on a jumping bank;
//! - **threats**: several attackers near the enemy den at once, and enemy
//!   animals next to the own den (they will enter it unless taken);
//! - optional **noise** for the weaker levels: a pseudo-random number per
//!   position, fixed for a given seed, so the search stays consistent while
//!   misjudging positions like a human would.

use crate::jungle::{Bitboard, Color, Position, Role, Square};

use crate::rng::mix;

/// Values of rat, cat, dog, wolf, leopard, tiger, lion, elephant.
pub const MATERIAL: [i32; 8] = [400, 200, 250, 300, 450, 750, 850, 950];

/// Bonus by Manhattan distance to the enemy den (index 0 is the den
/// itself, never evaluated: entering it ends the game).
const ADVANCE: [i32; 16] = [0, 180, 100, 64, 44, 32, 24, 18, 13, 9, 6, 4, 2, 1, 0, 0];

/// How much each animal's advance counts, in eighths.
const ATTACK_WEIGHT: [i32; 8] = [6, 3, 4, 5, 6, 8, 8, 8];

/// The evaluation's weights.
#[derive(Clone, Debug, PartialEq)]
pub struct EvalParams {
    /// Values of rat, cat, dog, wolf, leopard, tiger, lion, elephant.
    pub material: [i32; 8],
    /// Scale of the distance-to-den bonus, in percent.
    pub advance: i32,
    /// Bonus for cat, dog and wolf within two squares of their den.
    pub defence: i32,
    /// Bonus per attacker beyond the first within two squares of the
    /// enemy den.
    pub pressure: i32,
    /// Points per square an animal can reach (0: not computed).
    pub mobility: i32,
}

impl Default for EvalParams {
    fn default() -> Self {
        EvalParams {
            material: MATERIAL,
            advance: 100,
            defence: 50,
            pressure: 40,
            mobility: 0,
        }
    }
}

/// The evaluation tables and noise settings of one search.
pub struct Eval {
    /// `table[colour][role][square]`, from Blue's point of view sign aside.
    table: Box<[[[i32; 63]; 8]; 2]>,
    noise: i32,
    seed: u64,
    mobility: i32,
    pressure: i32,
}

impl Eval {
    /// `noise` is the half-width of the per-position noise (0 for none).
    pub fn new(params: &EvalParams, noise: i32, seed: u64) -> Eval {
        let mut table = Box::new([[[0i32; 63]; 8]; 2]);
        for color in Color::BOTH {
            for role in Role::ALL {
                for sq in Square::all() {
                    table[color.index()][role.index()][sq.index()] =
                        square_value(params, color, role, sq);
                }
            }
        }
        Eval {
            table,
            noise: noise.max(0),
            seed: mix(seed ^ 0xA5A5_5A5A_DEAD_BEEF),
            mobility: params.mobility,
            pressure: params.pressure,
        }
    }

    /// The score of `pos` for the side to move.
    pub fn evaluate(&self, pos: &Position) -> i32 {
        let board = pos.board();
        let mut score = [0i32; 2];
        let mut near_den = [0i32; 2];
        for (sq, piece) in board.pieces() {
            let c = piece.color.index();
            score[c] += self.table[c][piece.role.index()][sq.index()];
            if sq.distance(piece.color.other().den()) <= 2 {
                near_den[c] += 1;
            }
        }
        for color in Color::BOTH {
            let c = color.index();
            // Two or more attackers around the enemy den are hard to hold.
            if near_den[c] >= 2 {
                score[c] += self.pressure * (near_den[c] - 1);
            }
        }
        let us = pos.turn();
        let mut total = score[us.index()] - score[us.other().index()];
        // An enemy next to our den wins next move unless we take it: the
        // search sees it, but a quiet evaluation must not ignore it.
        let threat = Position::neighbours(us.den()) & board.by_color(us.other());
        if threat.any() {
            total -= 150 * threat.count() as i32;
        }
        if self.mobility != 0 {
            let m = pos.mobility(us) as i32 - pos.mobility(us.other()) as i32;
            total += self.mobility * m;
        }
        total += 10; // the move
        if self.noise > 0 {
            let r = mix(pos.hash() ^ self.seed);
            total += (r % (2 * self.noise as u64 + 1)) as i32 - self.noise;
        }
        total
    }
}

fn square_value(params: &EvalParams, color: Color, role: Role, sq: Square) -> i32 {
    let mut v = params.material[role.index()];
    let to_enemy = sq.distance(color.other().den()) as usize;
    let to_own = sq.distance(color.den());
    v += ADVANCE[to_enemy.min(15)] * ATTACK_WEIGHT[role.index()] * params.advance / 800;
    if matches!(role, Role::Cat | Role::Dog | Role::Wolf) {
        if to_own <= 2 {
            v += params.defence;
        }
        let traps = Bitboard::traps(color);
        if traps.contains(sq) || (Position::neighbours(sq) & traps).any() {
            v += 10;
        }
    }
    if role == Role::Rat && Bitboard::WATER.contains(sq) {
        v += 25;
    }
    let on_bank =
        !Bitboard::WATER.contains(sq) && (Position::neighbours(sq) & Bitboard::WATER).any();
    if role.jumps() && on_bank {
        v += 10;
    }
    v
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::jungle::Setup;

    /// The default evaluation, without noise, of a position given in the
    /// setup notation.
    fn score(setup: &str) -> i32 {
        let setup: Setup = setup.parse().unwrap();
        Eval::new(&EvalParams::default(), 0, 0).evaluate(&setup.position())
    }

    #[test]
    fn start_position_is_balanced() {
        assert_eq!(
            score(&Setup::start().to_string()),
            10,
            "symmetric apart from the move bonus"
        );
    }

    #[test]
    fn extra_material_is_better() {
        assert!(score("l5t/1d3c1/r1p1w2/7/7/7/E1W1P1R/1C3D1/T5L b 0 1") > 800);
    }

    #[test]
    fn closer_to_enemy_den_is_better() {
        let far = score("l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L b 0 1");
        let near = score("l5t/1d3c1/r1p1w1e/E6/7/7/2W1P1R/1C3D1/T5L b 0 1");
        assert!(near > far);
    }

    #[test]
    fn noise_stays_within_its_width() {
        let plain = Eval::new(&EvalParams::default(), 0, 0);
        let noisy = Eval::new(&EvalParams::default(), 30, 42);
        let pos = Setup::start().position();
        let d = noisy.evaluate(&pos) - plain.evaluate(&pos);
        assert!(d.abs() <= 30);
    }
}
