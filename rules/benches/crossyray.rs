//! CrossyRay perft speed: the specialised make/unmake perft and the
//! generic clone-per-node `game::perft` on the default 9 × 7 board.
//!
//! ```text
//! cargo bench -p rules --bench crossyray
//! ```

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rules::crossyray::{perft, CrossyRay, Options};
use rules::game::Game;

fn bench_perft(c: &mut Criterion) {
    let game = CrossyRay::new(&Options::default()).expect("default options are valid");
    let mut group = c.benchmark_group("crossyray_perft");
    group.sample_size(10);
    for depth in [6u32, 7] {
        let nodes = perft(&game, depth);
        group.throughput(Throughput::Elements(nodes));
        group.bench_function(format!("fast/depth{depth}"), |b| {
            b.iter(|| perft(black_box(&game), black_box(depth)))
        });
    }
    let depth = 6;
    group.throughput(Throughput::Elements(rules::game::perft(&game, depth)));
    group.bench_function(format!("generic/depth{depth}"), |b| {
        b.iter(|| rules::game::perft(black_box(&game), black_box(depth)))
    });
    group.finish();
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
