//! Fan-out of one move event to N sockets, as the room does it
//! (`Encoded::of` once, the same bytes handed to every socket's queue)
//! against serialising the event for each socket. The event is a real
//! one: a Quoridor move from a `RoomState`, with its legal list sent
//! only to the player due (so the room makes two copies).
//!
//! ```text
//! cargo bench -p server --bench fanout
//! ```

use criterion::{criterion_group, criterion_main, BenchmarkId, Criterion, Throughput};
use serde_json::json;
use server::games::{GameKind, GameOptions};
use server::model::{MemberId, TokenHash};
use server::room::cmd::{self, Command};
use server::room::{Effect, Encoded, Hello, RoomConfig, RoomState, Stamped};
use tokio::sync::mpsc;

/// A move event of a 2-player Quoridor game, 10 plies in.
fn move_event() -> Stamped {
    let options = GameOptions::parse(GameKind::Quoridor, &json!({"players": 2})).unwrap();
    let host = "host-token-0123456789";
    let mut room = RoomState::new(
        "BENCH1",
        options,
        Some(TokenHash::of(host)),
        RoomConfig::default(),
    );
    let mut members = Vec::new();
    for (token, name) in [(host, "Minh"), ("guest-token-0123456789", "Lan")] {
        let hello = Hello {
            token: TokenHash::of(token),
            name: Some(name.into()),
            account: None,
            ratings: Vec::new(),
            addr: None,
        };
        members.push(room.hello(hello, 0).unwrap().0);
    }
    for (seat, &m) in members.iter().enumerate() {
        room.apply(m, Command::Sit(cmd::Sit { seat }), 0).unwrap();
    }
    room.apply(
        members[0],
        Command::Start(cmd::Start {
            order: server::protocol::Order::Seats,
        }),
        0,
    )
    .unwrap();
    let line = [
        "e2", "e8", "e3", "e7", "a3h", "a6h", "c3h", "c6h", "g3h", "g6h", "e4",
    ];
    let mut last = None;
    for (ply, mv) in line.iter().enumerate() {
        let effects = room
            .apply(
                members[ply % 2],
                Command::Move(cmd::Move {
                    mv: mv.to_string(),
                    table: None,
                    lag_ms: 0,
                }),
                ply as u64,
            )
            .unwrap();
        last = effects.into_iter().rev().find_map(|e| match e {
            Effect::Broadcast(s) => Some(s),
            _ => None,
        });
    }
    last.expect("a move event")
}

fn fanout(c: &mut Criterion) {
    let event = move_event();
    let mut group = c.benchmark_group("fanout");
    for sockets in [10usize, 100, 1_000, 10_000] {
        // Each socket's queue; what is sent is taken out at once, so
        // both ways pay the same for the queues.
        let mut queues: Vec<_> = (0..sockets).map(|_| mpsc::channel(4)).collect();
        let member = |i: usize| MemberId(i as u32 + 1);
        group.throughput(Throughput::Elements(sockets as u64));
        group.bench_with_input(
            BenchmarkId::new("serialised_once", sockets),
            &sockets,
            |b, _| {
                b.iter(|| {
                    let encoded = Encoded::of(event.clone());
                    for (i, (tx, rx)) in queues.iter_mut().enumerate() {
                        tx.try_send(encoded.for_member(member(i))).unwrap();
                        rx.try_recv().unwrap();
                    }
                })
            },
        );
        group.bench_with_input(
            BenchmarkId::new("serialised_per_socket", sockets),
            &sockets,
            |b, _| {
                b.iter(|| {
                    for (i, (tx, rx)) in queues.iter_mut().enumerate() {
                        tx.try_send(Encoded::of(event.clone()).for_member(member(i)))
                            .unwrap();
                        rx.try_recv().unwrap();
                    }
                })
            },
        );
    }
    group.finish();
}

criterion_group!(benches, fanout);
criterion_main!(benches);
