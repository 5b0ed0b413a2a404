//! Quick pairing's seeks: placed and paired in one transaction, a seek
//! claimed once, ranges both ways, never the same browser or account,
//! stale and withdrawn seeks ignored, the per-account cap; and many
//! placements at once pair each seek exactly once.

use std::collections::HashMap;

use server::store::seeks::{NewSeek, Placed};
use server::store::Store;

fn seek(id: &str, rating: i64, range: i64) -> NewSeek {
    NewSeek {
        id: format!("{id}-{}", &server::model::new_token()[..8]),
        node: "n".to_string(),
        game: "jungle".to_string(),
        preset: "5+3".to_string(),
        rated: false,
        account: None,
        token_hash: format!("hash-{id}-{}", &server::model::new_token()[..8]),
        rating,
        range_lo: rating - range,
        range_hi: rating + range,
    }
}

async fn place(store: &Store, s: &NewSeek, now: u64) -> Placed {
    store
        .place_seek(s, now, now.saturating_sub(10_000), 3)
        .await
        .expect("place")
}

async fn pairs_by_game_preset_range_and_person(store: &Store) {
    let now = 1_000_000;
    // Each test run its own game name, so runs sharing a database do
    // not meet.
    let game = format!("g{}", &server::model::new_token()[..8]);
    let mk = |id: &str, rating, range| NewSeek {
        game: game.clone(),
        ..seek(id, rating, range)
    };
    let a = mk("a", 1500, 100);
    assert_eq!(place(store, &a, now).await, Placed::Waiting);
    // Another preset, or a rated seek, does not meet it.
    let other = NewSeek {
        preset: "3+2".into(),
        ..mk("b", 1500, 100)
    };
    assert_eq!(place(store, &other, now).await, Placed::Waiting);
    let rated = NewSeek {
        rated: true,
        account: Some(1),
        ..mk("c", 1500, 100)
    };
    assert_eq!(place(store, &rated, now).await, Placed::Waiting);
    // Outside a's range (a wants 1400-1600), or a outside its range.
    let d = mk("d", 1700, 500);
    assert_eq!(place(store, &d, now).await, Placed::Waiting);
    assert_eq!(place(store, &mk("e", 1550, 20), now).await, Placed::Waiting);
    // The same browser.
    let same = NewSeek {
        token_hash: a.token_hash.clone(),
        ..mk("f", 1500, 100)
    };
    assert_eq!(place(store, &same, now).await, Placed::Waiting);
    store.cancel_seek(&same.id).await.unwrap();
    // d (1700 ± 500) and e (1550 ± 20) and a (1500 ± 100): g at 1590 ± 300
    // meets a first (the oldest compatible).
    match place(store, &mk("g", 1590, 300), now).await {
        Placed::Paired(p) => assert_eq!(p.id, a.id),
        other => panic!("g pairs with a: {other:?}"),
    }
    // a is taken: h, a copy of a, meets d (1700 ± 500, h at 1500 ± 300).
    match place(store, &mk("h", 1500, 300), now).await {
        Placed::Paired(p) => assert_eq!(p.id, d.id, "e's range leaves h out"),
        other => panic!("h pairs: {other:?}"),
    }
    // A withdrawn seek and a stale one are never paired.
    let i = mk("i", 1000, 50);
    assert_eq!(place(store, &i, now).await, Placed::Waiting);
    assert!(store.cancel_seek(&i.id).await.unwrap());
    assert_eq!(
        place(store, &mk("j", 1000, 50), now + 20_000).await,
        Placed::Waiting
    );
    assert_eq!(
        place(store, &mk("k", 1000, 50), now + 40_000).await,
        Placed::Waiting,
        "j is stale"
    );
    // The same account never meets itself; three open seeks at most.
    let acct = 9_000 + (rand_id() % 1000);
    let mine = |id: &str| NewSeek {
        rated: true,
        account: Some(acct),
        ..mk(id, 1500, 100)
    };
    for id in ["m1", "m2", "m3"] {
        assert_eq!(place(store, &mine(id), now + 40_000).await, Placed::Waiting);
    }
    assert_eq!(
        place(store, &mine("m4"), now + 40_000).await,
        Placed::TooMany
    );
}
on_both!(pairs_by_game_preset_range_and_person);

fn rand_id() -> i64 {
    i64::from_str_radix(&server::model::new_token()[..6], 16).unwrap()
}

async fn concurrent_placements_pair_each_seek_once(store: &Store) {
    let now = 2_000_000;
    let game = format!("g{}", &server::model::new_token()[..8]);
    let tasks: Vec<_> = (0..60)
        .map(|i| {
            let store = store.clone();
            let s = NewSeek {
                game: game.clone(),
                ..seek(&format!("s{i}"), 1500, 100)
            };
            tokio::spawn(async move { (s.id.clone(), place(&store, &s, now).await) })
        })
        .collect();
    let mut partner_of: HashMap<String, String> = HashMap::new();
    for t in tasks {
        let (id, placed) = t.await.unwrap();
        if let Placed::Paired(p) = placed {
            assert!(partner_of.insert(id.clone(), p.id.clone()).is_none());
            assert!(
                partner_of.insert(p.id, id).is_none(),
                "a seek claimed twice"
            );
        }
    }
    assert_eq!(partner_of.len(), 60, "every seek paired");
}
on_both!(
    concurrent_placements_pair_each_seek_once,
    tokio::test(flavor = "multi_thread", worker_threads = 4)
);
