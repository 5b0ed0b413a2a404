//! Challenges: stored, listed for both accounts, answered once.

use super::fixtures::new_account;
use serde_json::json;
use server::model::now_millis;
use server::store::challenges::Inserted;
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
    let Inserted::Id(id) = store.insert_challenge(&new(now), 2).await.unwrap() else {
        panic!("stored");
    };
    let listed = store.challenges_of(b.id, now).await.unwrap();
    assert_eq!(listed.len(), 1);
    assert_eq!(
        (listed[0].from.id, listed[0].to.id, listed[0].rated),
        (a.id, b.id, true)
    );
    assert_eq!(listed[0].status, "open");
    assert_eq!(store.challenges_of(a.id, now).await.unwrap()[0].id, id);
    // One open to the same player at once.
    assert_eq!(
        store.insert_challenge(&new(now), 2).await.unwrap(),
        Inserted::AlreadyOpen
    );
    // An old one, already expired: not counted, not answerable.
    let c = new_account(store, "Third_", now).await;
    let d = new_account(store, "Fourth_", now).await;
    let to = |account: i64, at: u64| NewChallenge {
        to: account,
        ..new(at)
    };
    let Inserted::Id(old) = store
        .insert_challenge(&to(c.id, now - 25 * 3600 * 1000), 2)
        .await
        .unwrap()
    else {
        panic!("stored");
    };
    // The challenger's cap (2 here) holds over all its opponents.
    assert!(matches!(
        store.insert_challenge(&to(c.id, now), 2).await.unwrap(),
        Inserted::Id(_)
    ));
    assert_eq!(
        store.insert_challenge(&to(d.id, now), 2).await.unwrap(),
        Inserted::TooMany,
        "capped"
    );
    assert!(store
        .answer_challenge(old, c.id, "accepted", now)
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

/// Challenges received never push the account's own out of its list.
async fn the_list_bounds_made_and_received_apart(store: &Store) {
    let now = now_millis();
    let me = new_account(store, "Me_", now).await;
    let friend = new_account(store, "Friend_", now).await;
    let options = json!(null);
    let challenge = |from: i64, to: i64| NewChallenge {
        from,
        to,
        game: "jungle",
        options: &options,
        rated: false,
        from_token: "challenger-token-0001",
        now,
    };
    let Inserted::Id(mine) = store
        .insert_challenge(&challenge(me.id, friend.id), 10)
        .await
        .unwrap()
    else {
        panic!("stored");
    };
    for n in 0..60 {
        let sender = new_account(store, &format!("S{n}_"), now).await;
        let sent = store
            .insert_challenge(&challenge(sender.id, me.id), 10)
            .await
            .unwrap();
        assert!(matches!(sent, Inserted::Id(_)));
    }
    let list = store.challenges_of(me.id, now).await.unwrap();
    assert!(list.iter().any(|c| c.id == mine), "my own is listed");
    let received = list.iter().filter(|c| c.to.id == me.id).count();
    assert_eq!(received, 50, "received, at most 50");
    // A friend's open one, then 60 challenged and cancelled: the open
    // one stays listed.
    let friendly = store
        .insert_challenge(&challenge(friend.id, me.id), 10)
        .await
        .unwrap();
    let Inserted::Id(friendly) = friendly else {
        panic!("stored");
    };
    for n in 0..60 {
        let sender = new_account(store, &format!("C{n}_"), now).await;
        let Inserted::Id(id) = store
            .insert_challenge(&challenge(sender.id, me.id), 10)
            .await
            .unwrap()
        else {
            panic!("stored");
        };
        store
            .answer_challenge(id, sender.id, "cancelled", now)
            .await
            .unwrap();
    }
    let list = store.challenges_of(me.id, now).await.unwrap();
    assert!(
        list.iter().any(|c| c.id == friendly),
        "the open one is listed"
    );
}

on_both!(the_list_bounds_made_and_received_apart);
