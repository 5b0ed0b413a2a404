//! Coins and purchases: never lost, never spent twice.

use super::fixtures::new_account;
use server::model::now_millis;
use server::store::{SpendRefused, Store};
use tokio::task::JoinSet;

/// Coins: a check-in counts once a day and grows with the streak up to
/// the cap; 50 concurrent purchases with coins for one: exactly one goes
/// through, the item is bought once, and the ledger sums to the balance.
async fn coins_are_never_lost_or_spent_twice(store: &Store) {
    use server::store::coins::{checkin_coins, CHECKIN_MAX};
    let now = now_millis();
    let account = new_account(store, "Coin_", now).await;
    let id = account.id;
    let day = 20_000;
    let first = store.check_in(id, day, now).await.expect("check in");
    assert_eq!((first.added, first.streak, first.balance), (10, 1, 10));
    let again = store.check_in(id, day, now).await.expect("check in");
    assert_eq!((again.added, again.balance), (0, 10), "once a day");
    let next = store.check_in(id, day + 1, now).await.expect("check in");
    assert_eq!((next.added, next.streak, next.balance), (12, 2, 22));
    let gap = store.check_in(id, day + 3, now).await.expect("check in");
    assert_eq!((gap.added, gap.streak), (10, 1), "a missed day starts over");
    assert_eq!(checkin_coins(100), CHECKIN_MAX, "capped");

    // 50 purchases at once of items costing the whole balance.
    let price = gap.balance;
    let mut set = JoinSet::new();
    for i in 0..50 {
        let store = store.clone();
        set.spawn(async move { store.spend(id, price, &format!("buy item-{i}"), now).await });
    }
    let mut bought = 0;
    while let Some(done) = set.join_next().await {
        match done.expect("task").expect("no store error") {
            Ok(balance) => {
                assert_eq!(balance, 0);
                bought += 1;
            }
            Err(why) => assert_eq!(why, SpendRefused::TooFew),
        }
    }
    assert_eq!(bought, 1, "exactly one purchase with coins for one");
    // An item is bought once.
    let more = store.check_in(id, day + 4, now).await.expect("check in");
    let bought_item = store
        .ledger(id)
        .await
        .expect("ledger")
        .into_iter()
        .find(|(d, _, _)| *d < 0)
        .expect("the purchase")
        .1;
    assert_eq!(
        store.spend(id, 1, &bought_item, now).await.expect("spend"),
        Err(SpendRefused::AlreadyDone)
    );
    let (balance, _, _) = store.coins(id).await.expect("coins");
    assert_eq!(balance, more.balance, "a refused spend changes nothing");
    let ledger = store.ledger(id).await.expect("ledger");
    assert_eq!(ledger.iter().map(|(d, _, _)| d).sum::<i64>(), balance);
    assert_eq!(ledger.last().expect("rows").2, balance);
}

/// A purchase: 20 concurrent buys of one item with coins for several:
/// one pays and the item is owned once; without the coins nothing is
/// owned; a choice is one row per slot, the latest wins.
async fn an_item_is_bought_once_with_its_coins(store: &Store) {
    let now = now_millis();
    let account = new_account(store, "Shop_", now).await;
    let id = account.id;
    assert_eq!(
        store.buy(id, "jungle-drawn", 10, now).await.expect("buy"),
        Err(SpendRefused::TooFew)
    );
    assert!(store.owned(id).await.expect("owned").is_empty());
    for day in [30_000, 30_001, 30_002] {
        store.check_in(id, day, now).await.expect("check in");
    }
    let (before, _, _) = store.coins(id).await.expect("coins");
    assert!(before >= 30, "{before}");
    let mut set = JoinSet::new();
    for _ in 0..20 {
        let store = store.clone();
        set.spawn(async move { store.buy(id, "quoridor-sea", 10, now).await });
    }
    let mut paid = 0;
    while let Some(done) = set.join_next().await {
        match done.expect("task").expect("no store error") {
            Ok(balance) => {
                assert_eq!(balance, before - 10);
                paid += 1;
            }
            Err(why) => assert_eq!(why, SpendRefused::AlreadyDone),
        }
    }
    assert_eq!(paid, 1, "one purchase of one item");
    assert_eq!(store.owned(id).await.expect("owned"), vec!["quoridor-sea"]);
    let (balance, _, _) = store.coins(id).await.expect("coins");
    assert_eq!(balance, before - 10);
    let ledger = store.ledger(id).await.expect("ledger");
    assert_eq!(ledger.iter().map(|(d, _, _)| d).sum::<i64>(), balance);
    assert_eq!(
        ledger
            .iter()
            .filter(|(_, r, _)| r == "buy quoridor-sea")
            .count(),
        1
    );

    store
        .choose(id, "quoridor_board", "quoridor-sea")
        .await
        .expect("choose");
    store
        .choose(id, "jungle_pieces", "jungle-emoji")
        .await
        .expect("choose");
    store
        .choose(id, "quoridor_board", "quoridor-classic")
        .await
        .expect("choose again");
    assert_eq!(
        store.chosen(id).await.expect("chosen"),
        vec![
            ("jungle_pieces".to_string(), "jungle-emoji".to_string()),
            ("quoridor_board".to_string(), "quoridor-classic".to_string()),
        ]
    );
}

on_both!(coins_are_never_lost_or_spent_twice);

on_both!(
    an_item_is_bought_once_with_its_coins,
    tokio::test(flavor = "multi_thread", worker_threads = 4)
);
