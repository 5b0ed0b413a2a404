//! A game's life in the store: started, its log, ended; game numbers.

use super::fixtures::*;
use serde_json::json;
use server::model::records::EntryRow;
use server::model::records::Person;
use server::model::{GameId, MemberId, TableId};
use server::store::Store;
use server::store::Write;

/// A game in progress is its start and its log, in order; once over it is
/// in `games()`, and its log stays until the table's next game starts.
async fn live_game_lifecycle(store: &Store) {
    let room = new_room(store, "lg").await;
    let code = &room.code;
    let table = room.table;

    let g1 = live_game(table, 1, crossyray_options());
    store
        .write(code, vec![Write::GameStarted(g1.clone())])
        .await
        .expect("start");
    assert_live_eq(&saved(store, code).await.live, &[(&g1, vec![])]);

    // Entries one request at a time, then several in one.
    let log: Vec<EntryRow> = (0..7).map(|seq| entry(&g1, seq)).collect();
    for e in &log[..3] {
        store
            .write(code, vec![Write::Entry(e.clone())])
            .await
            .expect("entry");
    }
    store
        .write(code, log[3..].iter().cloned().map(Write::Entry).collect())
        .await
        .expect("entries");
    assert_live_eq(&saved(store, code).await.live, &[(&g1, log.clone())]);

    // The game ends (with the room's row, as a room writes it).
    let f1 = finished(code, &g1, &["m0", "m1", "m4", "m5"]);
    let mut played = room.clone();
    played.games_played = 1;
    store
        .write(
            code,
            vec![Write::Room(played.clone()), Write::GameEnded(f1.clone())],
        )
        .await
        .expect("end");
    let games = store.games(code).await.expect("games");
    assert_eq!(games.len(), 1, "{games:?}");
    let g = &games[0];
    assert_eq!(g.id.as_deref(), Some(g1.id.to_string().as_str()));
    assert_eq!(g.room_code, *code);
    assert_eq!(g.number, 1);
    assert_eq!(g.game, "crossyray");
    assert_eq!(g.options, g1.options.to_json());
    assert_eq!(g.players, f1.players);
    assert_eq!(g.moves, f1.moves);
    assert_eq!(g.leaves, f1.leaves, "who left, and when");
    assert_eq!(
        g.outcome,
        json!({"kind": "win", "winner": 1, "reason": "resign"})
    );
    assert_eq!(g.started_at, f1.started_at as i64);
    assert_eq!(g.ended_at, f1.ended_at as i64);
    // The finished game still shows, with its whole log.
    let back = saved(store, code).await;
    assert_eq!(back.room.games_played, 1);
    assert_live_eq(&back.live, &[(&g1, log.clone())]);

    // A second table's game does not replace the first table's.
    let table2 = TableId::new();
    let other = live_game(table2, 2, quoridor_teams_options());
    let other_log = vec![entry(&other, 0)];
    store
        .write(
            code,
            vec![
                Write::GameStarted(other.clone()),
                Write::Entry(other_log[0].clone()),
            ],
        )
        .await
        .expect("start at table 2");
    assert_live_eq(
        &saved(store, code).await.live,
        &[(&g1, log.clone()), (&other, other_log.clone())],
    );

    // The table's next game replaces the finished one (and its log).
    let g3 = live_game(table, 3, crossyray_options());
    let log3 = vec![entry(&g3, 0), entry(&g3, 1)];
    store
        .write(
            code,
            vec![
                Write::GameStarted(g3.clone()),
                Write::Entry(log3[0].clone()),
                Write::Entry(log3[1].clone()),
            ],
        )
        .await
        .expect("next game");
    assert_live_eq(
        &saved(store, code).await.live,
        &[(&other, other_log), (&g3, log3)],
    );
    // History keeps game 1.
    let numbers: Vec<u32> = store
        .games(code)
        .await
        .expect("games")
        .iter()
        .map(|g| g.number)
        .collect();
    assert_eq!(numbers, vec![1]);

    // Game 3 ends, then game 4 starts at once in the same request (an
    // auto-start): history 1, 3; live: table 2's game and game 4.
    let f3 = finished(code, &g3, &["m0", "m1"]);
    let g4 = live_game(table, 4, crossyray_options());
    store
        .write(
            code,
            vec![Write::GameEnded(f3), Write::GameStarted(g4.clone())],
        )
        .await
        .expect("end and start");
    let games = store.games(code).await.expect("games");
    let numbers: Vec<u32> = games.iter().map(|g| g.number).collect();
    assert_eq!(numbers, vec![1, 3], "oldest first");
    let live = saved(store, code).await.live;
    let ids: Vec<GameId> = live.iter().map(|(g, _)| g.id).collect();
    assert_eq!(ids, vec![other.id, g4.id]);
    assert!(live[1].1.is_empty());
}

/// A room's game numbers are unique: a second GameEnded with a number the
/// room has already recorded fails, and nothing of its request is stored.
async fn a_repeated_game_number_fails_the_whole_request(store: &Store) {
    let room = new_room(store, "dup").await;
    let code = &room.code;
    let g1 = live_game(room.table, 1, crossyray_options());
    let f1 = finished(code, &g1, &["m0"]);
    store
        .write(
            code,
            vec![Write::GameStarted(g1.clone()), Write::GameEnded(f1.clone())],
        )
        .await
        .expect("game 1");

    // Another room may have its own game 1.
    let other = new_room(store, "dup").await;
    let og = live_game(other.table, 1, crossyray_options());
    store
        .write(
            &other.code,
            vec![Write::GameEnded(finished(&other.code, &og, &[]))],
        )
        .await
        .expect("another room's game 1");

    // A request that changes everything, then repeats game 1.
    let mut changed = room.clone();
    changed.games_played = 9;
    changed.autostart = true;
    let again = live_game(room.table, 1, crossyray_options());
    let g2 = live_game(room.table, 2, crossyray_options());
    let bad = vec![
        Write::Room(changed),
        Write::Member(member(1, "Minh")),
        Write::Score(score(Person::Member(MemberId(1)), "Minh", 1, 1)),
        Write::Chat(chat(1, "gg", 10)),
        Write::GameStarted(g2.clone()),
        Write::Entry(entry(&g2, 0)),
        Write::GameEnded(finished(code, &again, &["x"])),
    ];
    let err = store
        .write(code, bad)
        .await
        .expect_err("a repeated game number must fail");
    assert!(is_refusal(&err), "Conflict or Database, got {err:?}");

    let back = saved(store, code).await;
    assert_room_eq(&back.room, &room);
    assert!(back.members.is_empty(), "rolled back: {:?}", back.members);
    assert!(back.scores.is_empty(), "rolled back: {:?}", back.scores);
    assert!(back.chat.is_empty(), "rolled back: {:?}", back.chat);
    assert_live_eq(&back.live, &[(&g1, vec![])]);
    let games = store.games(code).await.expect("games");
    assert_eq!(games.len(), 1, "{games:?}");
    assert_eq!(
        games[0].id,
        Some(g1.id.to_string()),
        "game 1 is the first one"
    );
    assert_eq!(games[0].moves, vec!["m0".to_string()]);

    // The room still writes afterwards.
    store
        .write(code, vec![Write::Chat(chat(1, "still here", 11))])
        .await
        .expect("write after a failed one");
    assert_eq!(
        saved(store, code).await.chat,
        vec![chat(1, "still here", 11)]
    );
}

on_both!(live_game_lifecycle);

on_both!(a_repeated_game_number_fails_the_whole_request);
