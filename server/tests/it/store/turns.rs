//! Turn-based games in the store: the deadline and player due written with
//! each change (`Write::Turn`), the rooms past their deadline, a player's
//! "your turn" list, and the "your turn" email's bookkeeping.

use super::fixtures::*;
use server::model::records::TurnRow;
use server::model::TokenHash;
use server::store::{Store, Write};

async fn turns_are_listed_and_deadlines_found(store: &Store) {
    let room = new_room(store, "tb").await;
    let account = new_account(store, "tb", 1).await;
    let mut game = live_game(room.table, 1, crossyray_options());
    let deadline = 5_000_000_000_000u64 + u64::from(room.code.as_bytes()[0]);
    game.deadline = Some(deadline);
    let token = TokenHash::of("browser-token-of-the-player-due");
    let turn = TurnRow {
        game: game.id,
        deadline: Some(deadline),
        since: deadline - 86_400_000,
        account: Some(account.id),
        token: Some(token.clone()),
    };
    store
        .write(
            &room.code,
            vec![Write::GameStarted(game.clone()), Write::Turn(turn.clone())],
        )
        .await
        .expect("stored");
    assert_eq!(
        saved(store, &room.code).await.live[0].0.deadline,
        Some(deadline)
    );
    for (account, token) in [(Some(account.id), None), (None, Some(&token))] {
        let list = store.turns_for(account, token).await.expect("turns");
        assert_eq!(list.len(), 1, "{list:?}");
        assert_eq!(list[0].room, room.code);
        assert_eq!(list[0].deadline, deadline);
        assert_eq!(list[0].sides, ["Minh", "Computer"]);
    }
    assert!(store.turns_for(None, None).await.unwrap().is_empty());
    let due = |now| store.rooms_past_deadline(now, 100_000);
    assert!(!due(deadline - 1).await.unwrap().contains(&room.code));
    assert!(due(deadline).await.unwrap().contains(&room.code));
    // Over: neither listed nor due.
    let over = TurnRow {
        deadline: None,
        account: None,
        token: None,
        ..turn
    };
    store
        .write(&room.code, vec![Write::Turn(over)])
        .await
        .expect("stored");
    assert!(!due(u64::MAX / 2).await.unwrap().contains(&room.code));
    assert!(store
        .turns_for(Some(account.id), Some(&token))
        .await
        .unwrap()
        .is_empty());
}
on_both!(turns_are_listed_and_deadlines_found);

async fn the_turn_mail_goes_once_a_day_and_unsubscribes(store: &Store) {
    let account = new_account(store, "tm", 1).await;
    assert!(!store.turn_mail(account.id).await.unwrap());
    store.set_turn_mail(account.id, true).await.unwrap();
    assert!(store.turn_mail(account.id).await.unwrap());
    let day = 86_400_000;
    let link = TokenHash::of(&format!("unsubscribe-{}", account.id));
    assert!(store
        .mark_turn_mailed(account.id, 10 * day, 9 * day, &link)
        .await
        .unwrap());
    // Another sweep the same day: not again.
    let other = TokenHash::of(&format!("other-{}", account.id));
    assert!(!store
        .mark_turn_mailed(account.id, 10 * day + 5, 9 * day + 5, &other)
        .await
        .unwrap());
    assert!(
        !store.unsubscribe(&other).await.unwrap(),
        "that link was never sent"
    );
    assert!(store.unsubscribe(&link).await.unwrap());
    assert!(!store.turn_mail(account.id).await.unwrap());
}
on_both!(the_turn_mail_goes_once_a_day_and_unsubscribes);
