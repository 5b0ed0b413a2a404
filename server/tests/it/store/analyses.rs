//! Analysis jobs in the store: asked once, bounded per address and in all,
//! claimed by one worker of many, saved only under their claim, released
//! at a node's start.

use serde_json::json;
use server::store::{Asked, NewAnalysis, Store};

fn job<'a>(
    id: &'a str,
    by: &'a str,
    moves: &'a [String],
    options: &'a serde_json::Value,
) -> NewAnalysis<'a> {
    NewAnalysis {
        id,
        game: "quoridor",
        options,
        moves,
        leaves: &serde_json::Value::Null,
        total: moves.len() + 1,
        requested_by: by,
        now: 1_000,
    }
}

async fn analyses_are_asked_claimed_and_saved_under_their_claim(store: &Store) {
    let tag = uuid::Uuid::now_v7().simple().to_string();
    let (a, b, c) = (format!("a{tag}"), format!("b{tag}"), format!("c{tag}"));
    let by = format!("10.0.0.{}", tag.len());
    let moves = vec!["e2".to_string(), "e8".to_string()];
    let options = json!({});
    assert_eq!(
        store
            .ask_analysis(&job(&a, &by, &moves, &options), 2, 1000)
            .await
            .unwrap(),
        Asked::New
    );
    assert_eq!(
        store
            .ask_analysis(&job(&a, &by, &moves, &options), 2, 1000)
            .await
            .unwrap(),
        Asked::Existing
    );
    assert_eq!(
        store
            .ask_analysis(&job(&b, &by, &moves, &options), 2, 1000)
            .await
            .unwrap(),
        Asked::New
    );
    assert_eq!(
        store
            .ask_analysis(&job(&c, &by, &moves, &options), 2, 1000)
            .await
            .unwrap(),
        Asked::AddressFull
    );
    assert_eq!(
        store
            .ask_analysis(&job(&c, "other", &moves, &options), 9, 2)
            .await
            .unwrap(),
        Asked::QueueFull
    );
    let stored = store.analysis(&a).await.unwrap().unwrap();
    assert_eq!(
        (stored.status.as_str(), stored.total, stored.moves.clone()),
        ("queued", 3, moves.clone())
    );
    // Eight workers ask at once: each job goes to one of them.
    let claims: Vec<_> = futures_util::future::join_all((0..8).map(|w| {
        let claim = format!("w{w}");
        async move {
            store
                .claim_analysis(&claim, 2_000, 60_000)
                .await
                .unwrap()
                .map(|j| (claim, j.id))
        }
    }))
    .await
    .into_iter()
    .flatten()
    .filter(|(_, id)| *id == a || *id == b)
    .collect();
    assert_eq!(claims.len(), 2, "{claims:?}");
    let (holder, id) = claims.iter().find(|(_, id)| *id == a).unwrap().clone();
    let p = vec![json!({"ply": 0}), json!({"ply": 1})];
    assert!(!store
        .save_analysis(&id, "someone-else", &p, false, 60_000, 2_000)
        .await
        .unwrap());
    assert!(store
        .save_analysis(&id, &holder, &p, false, 60_000, 2_000)
        .await
        .unwrap());
    assert_eq!(
        store.analysis_progress(&id).await.unwrap(),
        Some((2, false))
    );
    // Released at its node's start: claimed again at once, where it was.
    assert!(store.release_analyses(&holder).await.unwrap() >= 1);
    let again = loop {
        let j = store
            .claim_analysis("next", 3_000, 60_000)
            .await
            .unwrap()
            .expect("a job");
        if j.id == id {
            break j;
        }
    };
    assert_eq!(again.positions, p);
    assert!(store
        .save_analysis(&id, "next", &p, true, 0, 4_000)
        .await
        .unwrap());
    assert_eq!(store.analysis(&id).await.unwrap().unwrap().status, "done");
    assert!(
        !store
            .save_analysis(&id, "next", &p, false, 0, 4_000)
            .await
            .unwrap(),
        "done stays done"
    );
}

on_both!(analyses_are_asked_claimed_and_saved_under_their_claim);

/// Eight asks from one address at once: each is answered (none fails on a
/// locked database), and no more than the others let in are new.
async fn asks_at_once_are_all_answered(store: &Store) {
    let tag = uuid::Uuid::now_v7().simple().to_string();
    let by = format!("10.1.{}", &tag[..8]);
    let moves = vec!["e2".to_string()];
    let options = json!({});
    let ids: Vec<String> = (0..8).map(|k| format!("{k}{tag}")).collect();
    let answers = futures_util::future::join_all(ids.iter().map(|id| {
        let new = job(id, &by, &moves, &options);
        async move { store.ask_analysis(&new, 2, 1000).await }
    }))
    .await;
    let answers: Vec<Asked> = answers
        .into_iter()
        .map(|a| a.expect("every ask is answered"))
        .collect();
    let new = answers.iter().filter(|a| **a == Asked::New).count();
    let full = answers.iter().filter(|a| **a == Asked::AddressFull).count();
    assert_eq!(new + full, 8, "{answers:?}");
    assert!(new >= 2, "{answers:?}");
}

on_both!(
    asks_at_once_are_all_answered,
    tokio::test(flavor = "multi_thread", worker_threads = 4)
);
