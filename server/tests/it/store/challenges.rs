//! Challenges: stored, listed for both accounts, answered once.

use super::fixtures::new_account;
use serde_json::json;
use server::model::now_millis;
use server::store::{NewChallenge, Store};

/// A challenge is listed for both sides, its cap holds, exactly one of
/// concurrent answers wins, and an expired one cannot be answered.
async fn challenges_are_answered_once(store: &Store) {
    let now = now_millis();
    let a = new_account(store, "From_", now).await;
    let b = new_account(store, "To_", now).await;
    let options = json!({"mode": "single"});
    let new = |at| NewChallenge {
        from: a.id,
        to: b.id,
        game: "jungle",
        options: &options,
        rated: true,
        from_token: "challenger-token-0001",
        now: at,
    };
    let id = store
        .insert_challenge(&new(now), 2)
        .await
        .unwrap()
        .expect("stored");
    let listed = store.challenges_of(b.id, now).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].from.id, listed[0].to.id, listed[0].rated),
        (a.id, b.id, true)
    );
    assert_eq!(listed[0].status, "open");
    assert_eq!(store.challenges_of(a.id, now).await.unwrap()[0].id, id);
    // An old one, already expired: not counted, not answerable.
    let old = store
        .insert_challenge(&new(now - 25 * 3600 * 1000), 2)
        .await
        .unwrap()
        .expect("stored");
    assert!(store
        .insert_challenge(&new(now), 2)
        .await
        .unwrap()
        .is_some());
    assert!(
        store
            .insert_challenge(&new(now), 2)
            .await
            .unwrap()
            .is_none(),
        "capped"
    );
    assert!(store
        .answer_challenge(old, b.id, "accepted", now)
        .await
        .unwrap()
        .is_none());
    assert_eq!(
        store.challenge(old, now).await.unwrap().unwrap().status,
        "expired"
    );
    // The challenger cannot accept; of many answers one wins.
    assert!(store
        .answer_challenge(id, a.id, "accepted", now)
        .await
        .unwrap()
        .is_none());
    let mut set = tokio::task::JoinSet::new();
    for _ in 0..10 {
        let store = store.clone();
        let account = b.id;
        set.spawn(async move { store.answer_challenge(id, account, "accepted", now).await });
    }
    let mut won = 0;
    while let Some(done) = set.join_next().await {
        if let Some(c) = done.unwrap().unwrap() {
            assert_eq!(c.from_token, "challenger-token-0001");
            won += 1;
        }
    }
    assert_eq!(won, 1);
    store.set_challenge_room(id, "ABCDEF").await.unwrap();
    let c = store.challenge(id, now).await.unwrap().unwrap();
    assert_eq!(
        (
            c.status.as_str(),
            c.room_code.as_deref(),
            c.from_token.as_str()
        ),
        ("accepted", Some("ABCDEF"), "")
    );
}

on_both!(challenges_are_answered_once);
