//! Properties over random legal games on every board size and pawn count.
//! Case counts are kept small so the debug test suite stays fast.

use proptest::prelude::*;
use proptest::sample::Index;

use super::bitboard::Bitboard;
use super::*;
use crate::game::{EndReason, Game, Side};

/// 24 cases by default; `PROPTEST_CASES=2000 cargo test --release ...`
/// for a deeper run.
pub(super) fn cases() -> u32 {
    std::env::var("PROPTEST_CASES")
        .ok()
        .and_then(|v| v.parse().ok())
        .unwrap_or(24)
}

fn any_options() -> impl Strategy<Value = Options> {
    options_with(prop::sample::select(vec![
        WallStock::Auto,
        WallStock::Fixed(20),
    ]))
}

/// Options on any board size, with 2 to 8 pawns, either goal, and the
/// wall stock `walls` picks.
pub(super) fn options_with(
    walls: impl Strategy<Value = WallStock>,
) -> impl Strategy<Value = Options> {
    (
        prop::sample::select(SIZES.to_vec()),
        2u8..=8,
        prop::sample::select(vec![GoalMode::Edge, GoalMode::Centre]),
        walls,
    )
        .prop_map(|(size, players, goal, walls)| Options {
            walls,
            ..super::options::opts(size, players, goal)
        })
}

/// Walls are what make positions interesting, so pick one 3 times in 4
/// when there is one.
fn pick(moves: &[Move], i: &Index, wall_bias: bool) -> Move {
    let walls: Vec<Move> = moves
        .iter()
        .copied()
        .filter(|m| matches!(m, Move::Wall(_)))
        .collect();
    if wall_bias && !walls.is_empty() {
        walls[i.index(walls.len())]
    } else {
        moves[i.index(moves.len())]
    }
}

/// Plays a random legal game; checks every step with `each`.
fn random_game(
    options: &Options,
    choices: &[(Index, u8)],
    mut each: impl FnMut(&Quoridor, Move),
) -> Quoridor {
    let mut q = Quoridor::new(options).unwrap();
    for (i, bias) in choices {
        let moves = q.legal_moves();
        if moves.is_empty() {
            break;
        }
        let mv = pick(&moves, i, *bias % 4 != 0);
        each(&q, mv);
        q.play(&mv)
            .unwrap_or_else(|e| panic!("generated move {mv} refused: {e}"));
    }
    q
}

fn every_pawn_reaches_its_goal(q: &Quoridor) -> bool {
    q.active_sides().all(|s| {
        let c = q.pawn(s).unwrap();
        q.board
            .reaches(Bitboard::from_index(c.index()), q.goals[s.index()])
    })
}

fn any_move() -> impl Strategy<Value = Move> {
    prop_oneof![
        (0u8..13, 0u8..13).prop_map(|(f, r)| Move::Pawn(Cell::new(f, r).unwrap())),
        (0u8..12, 0u8..12, any::<bool>()).prop_map(|(f, r, h)| {
            let o = if h {
                Orientation::Horizontal
            } else {
                Orientation::Vertical
            };
            Move::Wall(Wall::new(Cell::new(f, r).unwrap(), o))
        }),
        Just(Move::Pass),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: cases(), ..ProptestConfig::default() })]

    #[test]
    fn random_games_keep_every_pawn_connected_and_accept_generated_moves(
        options in any_options(),
        choices in prop::collection::vec((any::<Index>(), any::<u8>()), 0..60),
    ) {
        let q = random_game(&options, &choices, |q, _| {
            assert!(every_pawn_reaches_its_goal(q));
        });
        prop_assert!(every_pawn_reaches_its_goal(&q));
        // A game in progress always has a move.
        prop_assert!(q.is_over() || !q.legal_moves().is_empty());
        // The timeout move is a pass or one of the pawn's legal moves, and
        // it is what a timeout plays.
        if !q.is_over() {
            let mv = q.timeout_move();
            prop_assert!(mv == Move::Pass || q.legal_moves().contains(&mv));
            let mut timed_out = q.clone();
            prop_assert_eq!(timed_out.timeout(), crate::game::TimeoutEffect::Played(mv));
            prop_assert_eq!(timed_out.ply(), q.ply() + 1);
        }
        // Legal moves list each move once.
        let moves = q.legal_moves();
        let mut unique = moves.clone();
        unique.sort();
        unique.dedup();
        prop_assert_eq!(unique.len(), moves.len());
    }

    #[test]
    fn fast_wall_filter_agrees_with_checking_every_wall(
        options in any_options(),
        choices in prop::collection::vec((any::<Index>(), any::<u8>()), 0..50),
    ) {
        let q = random_game(&options, &choices, |_, _| {});
        if !q.is_over() {
            let n = q.size();
            let mut brute = Vec::new();
            for o in Orientation::BOTH {
                for rank in 0..n - 1 {
                    for file in 0..n - 1 {
                        let w = Wall::new(Cell::new(file, rank).unwrap(), o);
                        if q.check(&Move::Wall(w)).is_ok() {
                            brute.push(w);
                        }
                    }
                }
            }
            let mut fast = q.legal_walls();
            fast.sort();
            brute.sort();
            prop_assert_eq!(fast, brute);
        }
    }

    #[test]
    fn rejected_moves_leave_the_state_unchanged(
        options in any_options(),
        choices in prop::collection::vec((any::<Index>(), any::<u8>()), 0..40),
        tries in prop::collection::vec(any_move(), 1..30),
    ) {
        let q = random_game(&options, &choices, |_, _| {});
        let legal = q.legal_moves();
        for mv in tries {
            let mut after = q.clone();
            match after.play(&mv) {
                Ok(()) => prop_assert!(legal.contains(&mv), "{} accepted but not listed", mv),
                Err(_) => {
                    prop_assert!(!legal.contains(&mv), "{} listed but refused", mv);
                    prop_assert_eq!(&after, &q);
                }
            }
        }
    }

    #[test]
    fn notation_round_trips(mv in any_move()) {
        let text = mv.to_string();
        prop_assert_eq!(text.parse::<Move>().unwrap(), mv);
    }

    #[test]
    fn view_round_trips(
        options in any_options(),
        choices in prop::collection::vec((any::<Index>(), any::<u8>()), 0..30),
        leaver in 0u8..8,
    ) {
        let mut q = random_game(&options, &choices, |_, _| {});
        q.forfeit(Side(leaver % options.players), EndReason::Abandon);
        let back = Quoridor::try_from(View::from(&q)).unwrap();
        prop_assert_eq!(back, q);
    }

    #[test]
    fn scoring_totals_are_consistent(
        mut distances in prop::collection::vec(1u32..40, 1..8),
    ) {
        distances.insert(0, 0); // the winner
        let points = mirror_points(&distances);
        let max = *distances.iter().max().unwrap();
        prop_assert_eq!(points[0], 2 * max);
        for (d, p) in distances.iter().zip(&points) {
            if *d == max {
                prop_assert_eq!(*p, 0);
            }
            // Nearer never scores less.
            for (d2, p2) in distances.iter().zip(&points) {
                if d < d2 {
                    prop_assert!(p >= p2);
                }
                if d == d2 {
                    prop_assert_eq!(p, p2);
                }
            }
        }
        let total: u32 = points.iter().sum();
        let mut sorted = distances.clone();
        sorted.sort();
        sorted.dedup();
        if sorted.len() == distances.len() {
            prop_assert_eq!(total, 2 * distances.iter().sum::<u32>());
        } else {
            prop_assert!(total <= 2 * distances.iter().sum::<u32>());
        }
    }

    #[test]
    fn random_games_score_consistently_when_finished(
        options in any_options(),
        choices in prop::collection::vec((any::<Index>(), any::<u8>()), 0..40),
    ) {
        let mut q = random_game(&options, &choices, |_, _| {});
        // Random games rarely finish: end this one by forfeits unless a
        // pawn got home or the move limit struck first.
        if !q.is_over() {
            let sides: Vec<Side> = q.active_sides().collect();
            for s in &sides[1..] {
                q.forfeit(*s, EndReason::Abandon);
            }
        }
        let points = scores(&q).unwrap();
        prop_assert_eq!(points.len(), options.players as usize);
        match q.outcome().unwrap() {
            crate::game::Outcome::Win { winner, reason: EndReason::Default } => {
                prop_assert_eq!(points.iter().sum::<u32>(), DEFAULT_WIN_POINTS);
                prop_assert_eq!(points[winner.index()], DEFAULT_WIN_POINTS);
            }
            crate::game::Outcome::Win { winner, .. } => {
                let far = q.active_sides().filter_map(|s| q.distance(s)).max().unwrap();
                prop_assert_eq!(points[winner.index()], 2 * far);
                prop_assert!(points.iter().all(|p| *p <= points[winner.index()]));
            }
            _ => prop_assert!(points.iter().all(|p| *p == 0)),
        }
    }
}
