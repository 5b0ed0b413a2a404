//! Quoridor speed: perft(3) and perft(4) from the 2-player 9×9 start (the
//! make/unmake perft with bulk counting at the last ply, and the generic
//! clone-per-node `game::perft` for reference), and legal-move generation
//! on a mid-game 13×13 position with 8 pawns.
//!
//! ```text
//! cargo bench -p rules --bench quoridor
//! ```

mod common;

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rules::game::Game;
use rules::quoridor::{perft, GoalMode, Move, Options, Quoridor, WallStock};

fn bench_perft(c: &mut Criterion) {
    let game = Quoridor::new(&Options::default()).expect("default options are valid");
    common::perft_group(c, "quoridor_perft", &game, perft, &[3, 4], 2);
}

/// A 13×13 game with 8 pawns and 10 walls each, after `plies` plies of a
/// fixed pseudo-random line: a wall or a pawn move (or pass), about half
/// and half.
fn game_13x13(plies: usize) -> Quoridor {
    let mut game = Quoridor::new(&Options {
        size: 13,
        players: 8,
        walls: WallStock::Fixed(10),
        goal: GoalMode::Edge,
        ..Options::default()
    })
    .expect("valid options");
    let mut x: u64 = 0x9E37_79B9_7F4A_7C15;
    for _ in 0..plies {
        x = x
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        let r = (x >> 33) as usize;
        let moves = game.legal_moves();
        let (walls, steps): (Vec<Move>, Vec<Move>) =
            moves.iter().partition(|m| matches!(m, Move::Wall(_)));
        let mv = if r.is_multiple_of(2) && !walls.is_empty() {
            walls[r / 2 % walls.len()]
        } else {
            steps[r / 2 % steps.len()]
        };
        game.play(&mv).expect("listed moves are legal");
        assert!(!game.is_over(), "the bench line must stay in mid-game");
    }
    game
}

fn bench_movegen(c: &mut Criterion) {
    let mut group = c.benchmark_group("quoridor_movegen");
    // Mid-game: 6 turns per pawn; late game: 12 turns per pawn.
    for (name, plies) in [("mid", 48), ("late", 96)] {
        let game = game_13x13(plies);
        let moves = game.legal_moves().len();
        eprintln!(
            "13×13 {name}-game: {} walls on the board, {moves} legal moves for the side to move",
            game.walls().len(),
        );
        group.throughput(Throughput::Elements(moves as u64));
        group.bench_function(format!("legal_moves/13x13_8_pawns_{name}"), |b| {
            b.iter(|| black_box(&game).legal_moves())
        });
        group.bench_function(format!("count/13x13_8_pawns_{name}"), |b| {
            b.iter(|| perft(black_box(&game), 1))
        });
    }
    group.finish();
}

criterion_group!(benches, bench_perft, bench_movegen);
criterion_main!(benches);
