//! Rooms, their members, scores and chat.

use super::fixtures::*;
use rules::Level;
use server::model::records::MemberRow;
use server::model::records::{AccountRef, ChatLine, Person, ScoreRow, CHAT_HISTORY};
use server::model::{MemberId, TableId, TokenHash};
use server::store::Write;
use server::store::{Store, StoreError};

/// insert_room, then room and load_room give the same row back; a code is
/// taken once; an unknown code is None.
async fn rooms_round_trip(store: &Store) {
    let mut row = room_row(&fresh("rt"));
    row.options = quoridor_teams_options();
    row.autostart = true;
    row.solo = true;
    row.start_when_seated = true;
    row.public = true;
    row.games_played = 7;
    row.next_member = 12;
    store.insert_room(&row).await.expect("insert_room");

    let got = stored_room(store, &row.code).await;
    assert_room_eq(&got, &row);
    let all = saved(store, &row.code).await;
    assert_room_eq(&all.room, &row);
    assert!(all.members.is_empty(), "{:?}", all.members);
    assert!(all.scores.is_empty(), "{:?}", all.scores);
    assert!(all.chat.is_empty(), "{:?}", all.chat);
    assert!(all.live.is_empty(), "{:?}", all.live);
    assert!(store.games(&row.code).await.expect("games").is_empty());

    // A room without a host (a host hash is optional).
    let mut hostless = room_row(&fresh("rt"));
    hostless.host = None;
    hostless.autostart = true;
    store.insert_room(&hostless).await.expect("insert_room");
    let got = stored_room(store, &hostless.code).await;
    assert_room_eq(&got, &hostless);

    // The same code twice: Conflict, and the first row is untouched.
    let mut again = room_row(&row.code);
    again.autostart = false;
    match store.insert_room(&again).await {
        Err(StoreError::Conflict) => {}
        other => panic!("a taken code must be a Conflict, got {other:?}"),
    }
    let got = stored_room(store, &row.code).await;
    assert_room_eq(&got, &row);

    // Unknown codes.
    let unknown = fresh("none");
    assert!(store.room(&unknown).await.expect("room").is_none());
    assert!(store.load_room(&unknown).await.expect("load").is_none());
    assert!(store.games(&unknown).await.expect("games").is_empty());

    // Write::Room updates the row.
    let mut updated = row.clone();
    updated.options = crossyray_options();
    updated.host = Some(TokenHash::of("a new host"));
    updated.autostart = false;
    updated.rated = true;
    updated.start_when_seated = false;
    updated.public = false;
    updated.games_played = 8;
    updated.next_member = 13;
    updated.table = TableId::new();
    store
        .write(&row.code, vec![Write::Room(updated.clone())])
        .await
        .expect("write");
    let got = stored_room(store, &row.code).await;
    assert_room_eq(&got, &updated);
    assert_room_eq(&saved(store, &row.code).await.room, &updated);
}

/// Members are upserted by id and removed by RemoveMember.
async fn members_round_trip(store: &Store) {
    let room = new_room(store, "mb").await;
    let code = &room.code;
    let host = MemberRow {
        seat: Some(0),
        host: true,
        account: Some(AccountRef {
            id: 41,
            username: "minh".to_string(),
            display_name: "Minh N.".to_string(),
        }),
        ..member(1, "Minh")
    };
    let guest = member(2, "Lan");
    let computer = MemberRow {
        id: MemberId(3),
        token: None,
        name: None,
        seat: Some(1),
        host: false,
        computer: Some(Level::Master),
        account: None,
        removed: false,
    };
    store
        .write(
            code,
            vec![
                Write::Member(guest.clone()),
                Write::Member(host.clone()),
                Write::Member(computer.clone()),
            ],
        )
        .await
        .expect("write members");
    assert_eq!(
        saved(store, code).await.members,
        vec![host.clone(), guest.clone(), computer.clone()],
        "members come back whole, by id"
    );

    // Upsert: the guest renames and sits; the computer leaves. (A member
    // the host removed keeps the mark: it is what keeps them out.)
    let guest2 = MemberRow {
        name: Some("Lan B.".to_string()),
        seat: Some(1),
        removed: true,
        ..guest.clone()
    };
    store
        .write(
            code,
            vec![
                Write::RemoveMember(computer.id),
                Write::Member(guest2.clone()),
            ],
        )
        .await
        .expect("write");
    assert_eq!(saved(store, code).await.members, vec![host.clone(), guest2]);

    // Removing an unknown member is no error; a removed id may come back.
    store
        .write(
            code,
            vec![
                Write::RemoveMember(MemberId(99)),
                Write::RemoveMember(MemberId(2)),
            ],
        )
        .await
        .expect("write");
    assert_eq!(saved(store, code).await.members, vec![host.clone()]);

    // Another room's members are its own.
    let other = new_room(store, "mb").await;
    store
        .write(&other.code, vec![Write::Member(member(1, "Other"))])
        .await
        .expect("write");
    assert_eq!(saved(store, code).await.members, vec![host]);
    assert_eq!(
        saved(store, &other.code).await.members,
        vec![member(1, "Other")]
    );
}

/// A score row is upserted by person (account or member).
async fn scores_upsert_by_person(store: &Store) {
    let room = new_room(store, "sc").await;
    let code = &room.code;
    let guest = score(Person::Member(MemberId(1)), "Minh", 1, 1);
    let same_name = score(Person::Member(MemberId(2)), "Minh", 0, 0);
    let account = ScoreRow {
        account: Some("lan".to_string()),
        ..score(Person::Account(77), "Lan", 2, 2)
    };
    store
        .write(
            code,
            vec![
                Write::Score(guest.clone()),
                Write::Score(same_name.clone()),
                Write::Score(account.clone()),
            ],
        )
        .await
        .expect("write");
    assert_eq!(
        sorted_scores(&saved(store, code).await.scores),
        sorted_scores(&[guest.clone(), same_name.clone(), account.clone()])
    );

    // The same people again: their rows change, no row is added.
    let guest2 = ScoreRow {
        name: "Minh (renamed)".to_string(),
        points: 3,
        wins: 2,
        draws: 1,
        losses: 4,
        ..guest
    };
    let account2 = ScoreRow {
        points: 5,
        wins: 3,
        ..account
    };
    store
        .write(code, vec![Write::Score(guest2.clone())])
        .await
        .expect("write");
    store
        .write(code, vec![Write::Score(account2.clone())])
        .await
        .expect("write");
    assert_eq!(
        sorted_scores(&saved(store, code).await.scores),
        sorted_scores(&[guest2, same_name, account2])
    );
}

/// Only the last CHAT_HISTORY (50) lines are kept, oldest first.
async fn chat_keeps_the_last_50_lines_in_order(store: &Store) {
    assert_eq!(CHAT_HISTORY, 50);
    let room = new_room(store, "ch").await;
    let code = &room.code;
    let lines: Vec<ChatLine> = (0..60)
        .map(|i| {
            chat(
                i % 3 + 1,
                &format!("line {i}: héllo ✓"),
                1_000 + u64::from(i),
            )
        })
        .collect();
    // 40 lines one request each (as a room writes them), then 20 in one.
    for line in &lines[..40] {
        store
            .write(code, vec![Write::Chat(line.clone())])
            .await
            .expect("write chat");
    }
    let back = saved(store, code).await.chat;
    assert_eq!(back, lines[..40].to_vec(), "under the limit, all lines");
    store
        .write(code, lines[40..].iter().cloned().map(Write::Chat).collect())
        .await
        .expect("write chat");
    let back = saved(store, code).await.chat;
    assert_eq!(back.len(), CHAT_HISTORY);
    assert_eq!(back, lines[10..].to_vec(), "the last 50, oldest first");

    // Another room's chat is untouched by this one's trimming.
    let other = new_room(store, "ch").await;
    store
        .write(&other.code, vec![Write::Chat(chat(1, "hi", 5))])
        .await
        .expect("write");
    store
        .write(code, vec![Write::Chat(chat(1, "one more", 2_000))])
        .await
        .expect("write");
    assert_eq!(saved(store, &other.code).await.chat, vec![chat(1, "hi", 5)]);
    let back = saved(store, code).await.chat;
    assert_eq!(back.len(), CHAT_HISTORY);
    assert_eq!(back[..49], lines[11..]);
    assert_eq!(back[49], chat(1, "one more", 2_000));
}

on_both!(rooms_round_trip);

on_both!(members_round_trip);

on_both!(scores_upsert_by_person);

on_both!(chat_keeps_the_last_50_lines_in_order);
