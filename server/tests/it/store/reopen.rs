//! Everything is there in a reopened store.

use std::time::Duration;

use super::fixtures::*;
use super::sqlite as open_sqlite;
use crate::common::postgres;
use server::model::now_millis;
use server::model::records::{ChatLine, Person};
use server::model::records::{EntryRow, MemberRow};
use server::model::{new_token, MemberId};
use server::store::Store;
use server::store::Write;
use tokio::task::JoinSet;

/// Everything written before `close()` is there in a store reopened on the
/// same database; a write after `close()` errs (it does not hang).
async fn a_reopened_store_has_everything(store: Store, reopen: impl AsyncFnOnce() -> Store) {
    let room = new_room(&store, "ro").await;
    let code = room.code.clone();
    let host = MemberRow {
        host: true,
        seat: Some(0),
        ..member(1, "Minh")
    };
    let g1 = live_game(room.table, 1, crossyray_options());
    let g2 = live_game(room.table, 2, crossyray_options());
    let log2: Vec<EntryRow> = (0..5).map(|seq| entry(&g2, seq)).collect();
    let mut row = room.clone();
    row.games_played = 2;
    row.next_member = 3;
    row.autostart = true;
    let scores = vec![
        score(Person::Member(MemberId(1)), "Minh", 1, 1),
        score(Person::Account(5), "Lan", 0, 0),
    ];
    let lines: Vec<ChatLine> = (0..3).map(|i| chat(1, &format!("c{i}"), i)).collect();
    let mut writes = vec![
        Write::Member(host.clone()),
        Write::Member(member(2, "Lan")),
        Write::GameStarted(g1.clone()),
        Write::GameEnded(finished(&code, &g1, &["m0"])),
        Write::Room(row.clone()),
        Write::GameStarted(g2.clone()),
        Write::RemoveMember(MemberId(2)),
    ];
    writes.extend(scores.iter().cloned().map(Write::Score));
    writes.extend(lines.iter().cloned().map(Write::Chat));
    store.write(&code, writes).await.expect("write");
    // The log as separate requests, and other rooms writing at once.
    for e in log2.iter().cloned() {
        store
            .write(&code, vec![Write::Entry(e)])
            .await
            .expect("entry");
    }
    let mut late = Vec::new();
    for _ in 0..5 {
        late.push(new_room(&store, "ro").await);
    }
    let mut pending = JoinSet::new();
    for other in late.iter().cloned() {
        let store = store.clone();
        pending.spawn(async move {
            store
                .write(&other.code, vec![Write::Chat(chat(1, "late", 1))])
                .await
        });
    }
    while let Some(done) = pending.join_next().await {
        done.expect("task").expect("concurrent write");
    }
    let tokens = accounts_and_sessions_for_reopen(&store).await;

    store.close().await;
    let after = tokio::time::timeout(
        Duration::from_secs(10),
        store.write(&code, vec![Write::Chat(chat(1, "after close", 9))]),
    )
    .await
    .expect("a write after close() returns");
    assert!(after.is_err(), "a write after close() must fail");

    let store = reopen().await;
    let back = saved(&store, &code).await;
    assert_room_eq(&back.room, &row);
    assert_eq!(back.members, vec![host]);
    assert_eq!(sorted_scores(&back.scores), sorted_scores(&scores));
    assert_eq!(back.chat, lines);
    assert_live_eq(&back.live, &[(&g2, log2)]);
    let games = store.games(&code).await.expect("games");
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].id, Some(g1.id.to_string()));
    for other in &late {
        assert_eq!(
            saved(&store, &other.code).await.chat,
            vec![chat(1, "late", 1)]
        );
    }
    let (name, token, id) = tokens;
    let c = store
        .credentials(&name)
        .await
        .expect("credentials")
        .expect("the account survives");
    assert_eq!(c.account.id, id);
    assert_eq!(
        store
            .session_account(&token, now_millis())
            .await
            .expect("session")
            .map(|s| s.account.id),
        Some(id),
        "the session survives"
    );
    store.close().await;
}

async fn accounts_and_sessions_for_reopen(store: &Store) -> (String, String, i64) {
    let name = format!("Khoa_{}", &new_token()[..8]);
    let token = new_token();
    let now = now_millis();
    let (account, _) = store
        .create_account(&name, "hash", None, Some(open(&token, now)), now)
        .await
        .expect("create_account")
        .expect("free");
    (name, token, account.id)
}

#[tokio::test]
async fn sqlite() {
    let dir = tempfile::tempdir().expect("temp dir");
    let store = open_sqlite(dir.path()).await;
    a_reopened_store_has_everything(store, async || open_sqlite(dir.path()).await).await;
}

#[tokio::test]
async fn postgres() {
    if let Some(schema) = postgres::schema().await {
        let store = schema.open().await;
        a_reopened_store_has_everything(store, async || schema.open().await).await;
        schema.drop().await;
    }
}
