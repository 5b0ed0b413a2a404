//! What the games' benchmarks share: perft speed measured the same way
//! for each game, so that their figures compare.

use std::hint::black_box;

use criterion::{Criterion, Throughput};
use rules::game::Game;

/// The criterion group `name`: the game's own make/unmake perft `fast`
/// from `game` at each of `fast_depths` (`fast/depthN`), and the generic
/// clone-per-node `game::perft` at `generic_depth` (`generic/depthN`), for
/// reference; each in nodes per second.
pub fn perft_group<G: Game>(
    c: &mut Criterion,
    name: &str,
    game: &G,
    fast: fn(&G, u32) -> u64,
    fast_depths: &[u32],
    generic_depth: u32,
) {
    let mut group = c.benchmark_group(name);
    group.sample_size(10);
    for &depth in fast_depths {
        group.throughput(Throughput::Elements(fast(game, depth)));
        group.bench_function(format!("fast/depth{depth}"), |b| {
            b.iter(|| fast(black_box(game), black_box(depth)))
        });
    }
    let depth = generic_depth;
    group.throughput(Throughput::Elements(rules::game::perft(game, depth)));
    group.bench_function(format!("generic/depth{depth}"), |b| {
        b.iter(|| rules::game::perft(black_box(game), black_box(depth)))
    });
    group.finish();
}
