//! Jungle speed: perft (make/unmake, every rule applied) and the bot's
//! search, both in nodes per second.
//!
//! ```text
//! cargo bench -p rules --bench jungle
//! ```
//!
//! The search benchmark runs a fixed-depth search from the start position
//! (no time limit, fresh tables each time), so its node count is the same
//! on every run and the throughput is nodes per second.

mod common;

use std::hint::black_box;
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use rules::jungle::bot::{search, Level, Limits};
use rules::jungle::{perft, Jungle};

fn bench_perft(c: &mut Criterion) {
    let game = Jungle::start();
    common::perft_group(c, "jungle_perft", &game, perft, &[5, 6], 4);
}

fn bench_search(c: &mut Criterion) {
    let game = Jungle::start();
    let settings = Level::Master.settings();
    let limits = Limits {
        max_depth: 10,
        time: Duration::from_secs(3600),
        noise: 0,
        contempt: settings.contempt,
        tt_bits: settings.tt_bits,
        seed: 0,
        ..Limits::default()
    };
    let cancel = AtomicBool::new(false);
    let nodes = search(&game, game.legal(), &limits, &cancel).nodes;
    let mut group = c.benchmark_group("jungle_search");
    group.sample_size(10);
    group.throughput(Throughput::Elements(nodes));
    group.bench_function("master/start/depth10", |b| {
        b.iter(|| search(black_box(&game), game.legal(), &limits, &cancel))
    });
    group.finish();
}

criterion_group!(benches, bench_perft, bench_search);
criterion_main!(benches);
