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
