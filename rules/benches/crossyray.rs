//! CrossyRay perft speed: the specialised make/unmake perft and the
//! generic clone-per-node `game::perft` on the default 9 × 7 board.
//!
//! ```text
//! cargo bench -p rules --bench crossyray
//! ```

mod common;

use criterion::{criterion_group, criterion_main, Criterion};
use rules::crossyray::{perft, CrossyRay, Options};
use rules::game::Game;

fn bench_perft(c: &mut Criterion) {
    let game = CrossyRay::new(&Options::default()).expect("default options are valid");
    common::perft_group(c, "crossyray_perft", &game, perft, &[6, 7], 6);
}

criterion_group!(benches, bench_perft);
criterion_main!(benches);
