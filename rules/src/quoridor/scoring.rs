//! Points for the room's scoreboard (RULES.md §2, "Scoring").
//!
//! When a pawn reaches its goal every pawn's distance is measured (fewest
//! steps around walls, pawns ignored; the winner's is 0). Ranked nearest
//! to farthest, the pawn at rank i of n scores twice the distance of the
//! pawn at rank n-1-i (the mirror rule); pawns at equal distance all score
//! what the worst rank among them would. With two pawns the winner scores
//! twice the loser's distance and the loser 0, which is the same rule.
//! Winning because everyone else left scores [`DEFAULT_WIN_POINTS`].
//!
//! ```
//! use rules::quoridor::mirror_points;
//!
//! assert_eq!(mirror_points(&[0, 1, 4, 9]), [18, 8, 2, 0]);
//! assert_eq!(mirror_points(&[0, 3, 3]), [6, 0, 0]);
//! ```

use super::position::Quoridor;
use crate::game::{EndReason, Game, Outcome};

/// Points for winning because every other side left (at least two moves
/// having been made; otherwise the game is aborted).
pub const DEFAULT_WIN_POINTS: u32 = 10;

/// The mirror rule on a list of distances (any order): the points of each
/// pawn, in the same order.
pub fn mirror_points(distances: &[u32]) -> Vec<u32> {
    let mut sorted = distances.to_vec();
    sorted.sort_unstable();
    let n = sorted.len();
    distances
        .iter()
        .map(|d| {
            // The worst (highest) rank among the pawns at this distance.
            let worst = sorted.partition_point(|x| x <= d) - 1;
            2 * sorted[n - 1 - worst]
        })
        .collect()
}

/// Each side's points for a finished game (indexed by side), or `None`
/// while it goes on. A goal win uses the mirror rule among the pawns still
/// on the board; removed pawns score 0. A win by default scores
/// [`DEFAULT_WIN_POINTS`] for the winner. Draws and aborted games score
/// nothing. In a team game every member scores their side's points.
pub fn scores(game: &Quoridor) -> Option<Vec<u32>> {
    let outcome = game.outcome()?;
    let mut points = vec![0; game.sides()];
    match outcome {
        Outcome::Win {
            winner,
            reason: EndReason::Default,
        } => points[winner.index()] = DEFAULT_WIN_POINTS,
        Outcome::Win { .. } => {
            let sides: Vec<_> = game.active_sides().collect();
            let distances: Vec<u32> = sides
                .iter()
                .map(|&s| game.distance(s).expect("every pawn has a path"))
                .collect();
            for (s, p) in sides.iter().zip(mirror_points(&distances)) {
                points[s.index()] = p;
            }
        }
        Outcome::Draw { .. } | Outcome::Aborted { .. } => {}
    }
    Some(points)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::game::Side;
    use crate::quoridor::options::opts;
    use crate::quoridor::{GoalMode, Options};

    #[test]
    fn mirror_rule_scores_distances_0_1_4_9_as_18_8_2_0() {
        assert_eq!(mirror_points(&[0, 1, 4, 9]), [18, 8, 2, 0]);
        assert_eq!(mirror_points(&[9, 0, 4, 1]), [0, 18, 2, 8]);
    }

    #[test]
    fn tied_pawns_score_the_worst_rank_among_them() {
        // Ranks 2 and 3 tie: both score what rank 3 would (0), not the
        // 2 × 1 that rank 2 alone would get.
        assert_eq!(mirror_points(&[0, 1, 4, 4]), [8, 8, 0, 0]);
        // Ties at the bottom score 0 together.
        assert_eq!(mirror_points(&[0, 5, 5]), [10, 0, 0]);
        // Middle ties in five pawns: 0, 2, 2, 2, 7 -> 14, 4, 4, 4, 0.
        assert_eq!(mirror_points(&[0, 2, 2, 2, 7]), [14, 4, 4, 4, 0]);
    }

    #[test]
    fn two_player_winner_scores_twice_the_losers_distance() {
        assert_eq!(mirror_points(&[0, 6]), [12, 0]);
        let mut q = Quoridor::new(&Options::default()).unwrap();
        for m in "e2 e8 e3 e7 e4 e6 e5 d6 e6 d5 e7 d4 e8 d3 e9".split(' ') {
            q.play(&m.parse().unwrap()).unwrap();
        }
        assert_eq!(q.outcome().unwrap().winner(), Some(Side(0)));
        // Yellow on d3 is 2 steps from rank 1.
        assert_eq!(scores(&q), Some(vec![4, 0]));
    }

    #[test]
    fn last_player_standing_scores_ten_points() {
        let mut q = Quoridor::new(&opts(9, 3, GoalMode::Edge)).unwrap();
        assert_eq!(scores(&q), None);
        for m in ["e2", "b5", "e8"] {
            q.play(&m.parse().unwrap()).unwrap();
        }
        q.forfeit(Side(0), EndReason::Abandon);
        assert!(!q.is_over());
        q.forfeit(Side(2), EndReason::Abandon);
        assert_eq!(scores(&q), Some(vec![0, DEFAULT_WIN_POINTS, 0]));
    }
}
