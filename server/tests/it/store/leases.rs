//! Leases and fencing between nodes.

use super::fixtures::*;
use server::store::{Fence, Store, StoreError, Write};
use tokio::task::JoinSet;

/// `node` asks for the lease on room `code` at `now`, for 3 s.
async fn acquire(store: &Store, code: &str, node: &str, now: u64) -> Option<Fence> {
    store
        .acquire(code, node, now, 3_000)
        .await
        .expect("acquire")
}

/// Leases and fencing: one node holds a room at a time; a take raises the
/// token; a write with a stale token stores nothing; renew and release
/// work only for the holder.
async fn leases_fence_stale_owners(store: &Store) {
    let room = new_room(store, "ls").await;
    let code = room.code.clone();
    let t0 = 1_000_000u64;
    let a = acquire(store, &code, "node-a", t0)
        .await
        .expect("a free room is taken");
    assert_eq!(
        acquire(store, &code, "node-b", t0 + 1_000).await,
        None,
        "a live lease keeps another node out"
    );
    let lease = store.lease(&code).await.expect("lease").expect("stored");
    assert_eq!(
        (lease.node.as_str(), lease.token, lease.expires_at),
        ("node-a", a.0, t0 + 3_000)
    );
    store
        .write_as(&code, Some(a), vec![Write::Chat(chat(1, "by a", 1))])
        .await
        .expect("the holder writes");
    let renewed = store
        .renew_all("node-a", t0 + 2_000, 3_000)
        .await
        .expect("renew_all");
    assert_eq!(
        renewed,
        vec![(code.clone(), a)],
        "the holder renews its lease"
    );
    assert_eq!(
        acquire(store, &code, "node-b", t0 + 4_000).await,
        None,
        "a renewed lease runs to its new end"
    );

    // node-a stops renewing (paused); node-b takes the room after expiry.
    let b = acquire(store, &code, "node-b", t0 + 5_000)
        .await
        .expect("an expired lease is taken");
    assert!(b.0 > a.0, "the token goes up: {a:?} then {b:?}");
    // node-a wakes up: its writes, renewals and releases do nothing.
    let stale = store
        .write_as(&code, Some(a), vec![Write::Chat(chat(1, "stale", 2))])
        .await
        .expect_err("a stale token cannot write");
    assert!(
        matches!(stale, StoreError::Fenced(ref c) if *c == code),
        "{stale:?}"
    );
    let renewed = store
        .renew_all("node-a", t0 + 5_500, 3_000)
        .await
        .expect("renew_all");
    assert!(
        renewed.is_empty(),
        "a lost lease is not renewed: {renewed:?}"
    );
    store.release(&code, a).await.expect("release");
    assert_eq!(
        store.lease(&code).await.expect("lease").map(|l| l.token),
        Some(b.0)
    );
    // A stale write in a batch with good ones fails alone.
    let mut pending = JoinSet::new();
    for (fence, text) in [
        (Some(a), "stale again"),
        (Some(b), "by b"),
        (None, "unfenced"),
    ] {
        let store = store.clone();
        let code = code.clone();
        pending.spawn(async move {
            let done = store
                .write_as(&code, fence, vec![Write::Chat(chat(2, text, 3))])
                .await;
            (text, done.is_ok())
        });
    }
    let mut results = Vec::new();
    while let Some(done) = pending.join_next().await {
        results.push(done.expect("task"));
    }
    results.sort();
    assert_eq!(
        results,
        vec![("by b", true), ("stale again", false), ("unfenced", true)]
    );
    let texts: Vec<String> = saved(store, &code)
        .await
        .chat
        .into_iter()
        .map(|c| c.text)
        .collect();
    assert!(texts.contains(&"by a".to_string()) && texts.contains(&"by b".to_string()));
    assert!(!texts.iter().any(|t| t.starts_with("stale")), "{texts:?}");

    // A release hands the room over at once.
    store.release(&code, b).await.expect("release");
    let c = acquire(store, &code, "node-c", t0 + 5_600)
        .await
        .expect("a released room is free");
    assert!(c.0 > b.0);
    // A room nobody ever took has no lease to write with.
    let other = new_room(store, "ls").await;
    let unleased = store
        .write_as(&other.code, Some(c), vec![Write::Chat(chat(1, "x", 1))])
        .await
        .expect_err("no lease, no fenced write");
    assert!(matches!(unleased, StoreError::Fenced(_)));
}

on_both!(leases_fence_stale_owners);

/// 40 rooms of node-a store a move each at once (one batch, or a few:
/// their entries in one statement, their fences in one check); node-b
/// took one of them over first. That room's move is refused as fenced
/// and stores nothing; every other room's is stored.
async fn a_fenced_room_among_moves_fails_alone(store: &Store) {
    const ROOMS: usize = 40;
    let t0 = 1_000_000u64;
    let mut rooms = Vec::new();
    for _ in 0..ROOMS {
        let room = new_room(store, "fm").await;
        let fence = acquire(store, &room.code, "node-a", t0)
            .await
            .expect("a free room is taken");
        let game = live_game(room.table, 1, crossyray_options());
        store
            .write_as(
                &room.code,
                Some(fence),
                vec![Write::GameStarted(game.clone())],
            )
            .await
            .expect("game stored");
        rooms.push((room.code, fence, game));
    }
    let lost = ROOMS / 3;
    acquire(store, &rooms[lost].0, "node-b", t0 + 5_000)
        .await
        .expect("node-b takes an expired lease");
    let mut set = JoinSet::new();
    for (i, (code, fence, game)) in rooms.iter().enumerate() {
        let (store, code, fence, game) = (store.clone(), code.clone(), *fence, game.clone());
        set.spawn(async move {
            let writes = vec![Write::Entry(entry(&game, 0)), Write::Entry(entry(&game, 1))];
            (i, store.write_as(&code, Some(fence), writes).await)
        });
    }
    while let Some(joined) = set.join_next().await {
        let (i, result) = joined.expect("task");
        if i == lost {
            let err = result.expect_err("a stale owner's move");
            assert!(
                matches!(err, StoreError::Fenced(ref c) if *c == rooms[lost].0),
                "{err:?}"
            );
        } else {
            result.unwrap_or_else(|e| panic!("room {i}: {e:?}"));
        }
    }
    for (i, (code, _, game)) in rooms.iter().enumerate() {
        let want = if i == lost {
            vec![]
        } else {
            vec![entry(game, 0), entry(game, 1)]
        };
        assert_live_eq(&saved(store, code).await.live, &[(game, want)]);
    }
}

on_both!(
    a_fenced_room_among_moves_fails_alone,
    tokio::test(flavor = "multi_thread", worker_threads = 2)
);

/// PostgreSQL: the fence check and a takeover wait for each other. The
/// writer's check locks no lease rows (migration `fence_locks`), so this
/// pins what the locks it takes instead must give: a node taking a room
/// over waits for a batch that has checked the old token and not yet
/// committed, and a batch waits for a token change under way, then is
/// refused, storing nothing.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_takeover_and_a_fenced_batch_wait_for_each_other() {
    use sqlx::Connection;
    use std::time::Duration;
    let Some(schema) = crate::common::postgres::schema().await else {
        return;
    };
    let store = schema.open().await;
    let room = new_room(&store, "tw").await;
    let code = room.code.clone();
    let t0 = 1_000_000u64;
    let a = acquire(&store, &code, "node-a", t0).await.expect("taken");
    let mut other = sqlx::PgConnection::connect(&schema.url)
        .await
        .expect("a second connection");

    // A batch of node-a's has checked its fence and is still open.
    let mut batch = other.begin().await.expect("begin");
    sqlx::query("SELECT check_fences($1, $2)")
        .bind(vec![code.clone()])
        .bind(vec![a.0])
        .execute(&mut *batch)
        .await
        .expect("node-a's fence holds");
    // node-a's lease has run out; node-b takes the room over.
    let take = tokio::spawn({
        let (store, code) = (store.clone(), code.clone());
        async move { store.acquire(&code, "node-b", t0 + 5_000, 3_000).await }
    });
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(!take.is_finished(), "the takeover waits for the open batch");
    batch.commit().await.expect("commit");
    let b = take
        .await
        .expect("task")
        .expect("acquire")
        .expect("taken over once the batch is done");
    assert!(b.0 > a.0, "{a:?} then {b:?}");

    // Now a token change is under way (node-c taking the room), not yet
    // committed: node-b's write waits for it, then is refused.
    let mut change = other.begin().await.expect("begin");
    sqlx::query("UPDATE room_leases SET token = token + 1, node = 'node-c' WHERE room_code = $1")
        .bind(&code)
        .execute(&mut *change)
        .await
        .expect("the token changes");
    let write = tokio::spawn({
        let (store, code) = (store.clone(), code.clone());
        async move {
            store
                .write_as(&code, Some(b), vec![Write::Chat(chat(1, "by b", 1))])
                .await
        }
    });
    tokio::time::sleep(Duration::from_millis(400)).await;
    assert!(!write.is_finished(), "the batch waits for the token change");
    change.commit().await.expect("commit");
    let refused = write.await.expect("task");
    assert!(
        matches!(refused, Err(StoreError::Fenced(_))),
        "node-b no longer owns the room: {refused:?}"
    );
    assert!(saved(&store, &code).await.chat.is_empty(), "nothing stored");
    store.close().await;
    schema.drop().await;
}
