//! Many rooms writing at once: batches, a bad request failing alone,
//! races for one game number, other calls committing at the same moment.

use super::fixtures::*;
use server::model::now_millis;
use server::model::records::Person;
use server::model::records::{EntryRow, LiveGame, RoomRow};
use server::model::{new_token, MemberId};
use server::store::Store;
use server::store::Write;
use tokio::task::JoinSet;

/// What a good request of the group-commit check writes for its room.
fn good_request(code: &str, room: &RoomRow, i: u32) -> Vec<Write> {
    let g = live_game(room.table, 1, crossyray_options());
    let mut row = room.clone();
    row.games_played = 1;
    row.next_member = 2;
    vec![
        Write::Room(row),
        Write::Member(member(1, &format!("Player {i}"))),
        Write::Chat(chat(1, &format!("hello from {i}"), u64::from(i))),
        Write::Score(score(Person::Member(MemberId(1)), "P", i, 1)),
        Write::GameStarted(g.clone()),
        Write::Entry(entry(&g, 0)),
        Write::GameEnded(finished(code, &g, &["m0"])),
    ]
}

async fn assert_good_request_stored(store: &Store, room: &RoomRow, i: u32) {
    let code = &room.code;
    let back = saved(store, code).await;
    assert_eq!(back.room.games_played, 1, "room {i}");
    assert_eq!(back.room.next_member, 2, "room {i}");
    assert_eq!(back.members, vec![member(1, &format!("Player {i}"))]);
    assert_eq!(
        back.chat,
        vec![chat(1, &format!("hello from {i}"), u64::from(i))],
        "room {i}: stored exactly once"
    );
    assert_eq!(
        back.scores,
        vec![score(Person::Member(MemberId(1)), "P", i, 1)]
    );
    assert_eq!(back.live.len(), 1, "room {i}");
    assert_eq!(back.live[0].1.len(), 1, "room {i}");
    let games = store.games(code).await.expect("games");
    assert_eq!(games.len(), 1, "room {i}: {games:?}");
    assert_eq!(games[0].number, 1);
}

/// `n` new rooms (codes starting `prefix`), each with its game 1 stored
/// and that game's first `moves` entries.
async fn rooms_playing(
    store: &Store,
    n: usize,
    prefix: &str,
    moves: u32,
) -> Vec<(RoomRow, LiveGame)> {
    let mut rooms = Vec::new();
    for _ in 0..n {
        let room = new_room(store, prefix).await;
        let game = live_game(room.table, 1, crossyray_options());
        let mut writes = vec![Write::GameStarted(game.clone())];
        writes.extend((0..moves).map(|s| Write::Entry(entry(&game, s))));
        store.write(&room.code, writes).await.expect("game stored");
        rooms.push((room, game));
    }
    rooms
}

/// 300 rooms play at once: each stores its game, then three requests of
/// moves (two entries, then one, then two). Batches carry many rooms'
/// entries in one statement; every room gets its own five, in order.
async fn many_rooms_moves_in_batches(store: &Store) {
    let rooms = rooms_playing(store, 300, "mv", 0).await;
    let mut set = JoinSet::new();
    for (room, game) in &rooms {
        let (store, code, game) = (store.clone(), room.code.clone(), game.clone());
        set.spawn(async move {
            for seqs in [&[0, 1][..], &[2], &[3, 4]] {
                let writes = seqs
                    .iter()
                    .map(|&s| Write::Entry(entry(&game, s)))
                    .collect();
                store.write(&code, writes).await.expect("moves stored");
            }
        });
    }
    while let Some(done) = set.join_next().await {
        done.expect("task");
    }
    for (room, game) in &rooms {
        let back = saved(store, &room.code).await;
        let want: Vec<EntryRow> = (0..5).map(|s| entry(game, s)).collect();
        assert_live_eq(&back.live, &[(game, want)]);
    }
}

/// 60 rooms each end a game and start the next at once, with moves on
/// both sides of that in the same request: the last move of game 1, its
/// end, game 2 (which forgets game 1's log), two moves of game 2. The
/// batches mix the rooms' entries, but each room's writes land in the
/// order it made them: a move of game 1 stored after game 2 started
/// would fail (its game is gone), and one of game 2 stored before it
/// started too. Three chat lines come between them, each numbered from
/// the lines before it: on PostgreSQL a batch's writes are sent without
/// waiting (`store/pg.rs`), so that read must first wait for them, or
/// the second line would take the first one's number and fail.
async fn a_rooms_writes_keep_their_order_in_a_batch(store: &Store) {
    let rooms = rooms_playing(store, 60, "or", 1).await;
    let mut set = JoinSet::new();
    for (room, first) in &rooms {
        let (store, code, first) = (store.clone(), room.code.clone(), first.clone());
        let second = live_game(room.table, 2, crossyray_options());
        set.spawn(async move {
            let writes = vec![
                Write::Entry(entry(&first, 1)),
                Write::Chat(chat(1, "one", 1)),
                Write::GameEnded(finished(&code, &first, &["m0", "m1"])),
                Write::Chat(chat(1, "two", 2)),
                Write::GameStarted(second.clone()),
                Write::Entry(entry(&second, 0)),
                Write::Chat(chat(1, "three", 3)),
                Write::Entry(entry(&second, 1)),
            ];
            store.write(&code, writes).await.expect("stored in order");
            (code, first, second)
        });
    }
    while let Some(done) = set.join_next().await {
        let (code, first, second) = done.expect("task");
        let back = saved(store, &code).await;
        assert_live_eq(
            &back.live,
            &[(&second, vec![entry(&second, 0), entry(&second, 1)])],
        );
        let texts: Vec<&str> = back.chat.iter().map(|c| c.text.as_str()).collect();
        assert_eq!(texts, ["one", "two", "three"], "room {code}");
        let games = store.games(&code).await.expect("games");
        assert_eq!(games.len(), 1, "{games:?}");
        assert_eq!(games[0].id, Some(first.id.to_string()));
    }
}

/// A tournament's next round forgets the live games of the tables that
/// are not in it: the room's own table and the round's stay, with their
/// logs; an earlier round's table goes, with its log.
async fn a_new_round_forgets_the_earlier_rounds_tables(store: &Store) {
    use server::model::bracket::{Bracket, Pairing, PairingState, Round, Status};
    use server::model::TableId;
    let room = new_room(store, "kr").await;
    let (earlier, current) = (TableId::new(), TableId::new());
    let games: Vec<LiveGame> = [room.table, earlier, current]
        .iter()
        .zip(1..)
        .map(|(&table, number)| live_game(table, number, crossyray_options()))
        .collect();
    let mut writes = Vec::new();
    for g in &games {
        writes.push(Write::GameStarted(g.clone()));
        writes.push(Write::Entry(entry(g, 0)));
    }
    store.write(&room.code, writes).await.expect("three tables");
    let round = Round {
        number: 2,
        pairings: vec![Pairing {
            table: current,
            players: [MemberId(1), MemberId(2)],
            games: Vec::new(),
            state: PairingState::Playing,
        }],
        bye: None,
    };
    let bracket = Bracket {
        entrants: Vec::new(),
        rounds: vec![round],
        byes: Vec::new(),
        status: Status::Playing,
    };
    store
        .write(&room.code, vec![Write::Tournament(Some(bracket))])
        .await
        .expect("the next round");
    let back = saved(store, &room.code).await;
    assert_live_eq(
        &back.live,
        &[
            (&games[0], vec![entry(&games[0], 0)]),
            (&games[2], vec![entry(&games[2], 0)]),
        ],
    );
}

/// 50 rooms store a move each at once, one of them a move already
/// stored (a repeated entry number). On SQLite the batch runs on the
/// writer's own connection (`store/lite.rs`); the bad one still fails
/// alone and the others are stored, each exactly once.
async fn a_bad_move_among_moves_fails_alone(store: &Store) {
    const ROOMS: usize = 50;
    let rooms = rooms_playing(store, ROOMS, "bm", 1).await;
    let bad_at = ROOMS / 2;
    let mut set = JoinSet::new();
    for (i, (room, game)) in rooms.iter().enumerate() {
        let (store, code, game) = (store.clone(), room.code.clone(), game.clone());
        set.spawn(async move {
            let seq = if i == bad_at { 0 } else { 1 };
            (
                i,
                store
                    .write(&code, vec![Write::Entry(entry(&game, seq))])
                    .await,
            )
        });
    }
    while let Some(joined) = set.join_next().await {
        let (i, result) = joined.expect("task");
        if i == bad_at {
            let err = result.expect_err("the repeated move fails");
            assert!(is_refusal(&err), "Conflict or Database, got {err:?}");
        } else {
            result.unwrap_or_else(|e| panic!("room {i}: {e:?}"));
        }
    }
    for (i, (room, game)) in rooms.iter().enumerate() {
        let back = saved(store, &room.code).await;
        let want: Vec<EntryRow> = if i == bad_at {
            vec![entry(game, 0)]
        } else {
            vec![entry(game, 0), entry(game, 1)]
        };
        assert_live_eq(&back.live, &[(game, want)]);
    }
}

/// The schema's references hold on every path: a move of a game that
/// was never started (no `live_games` row) is refused and stores
/// nothing, on SQLite's write connection as on PostgreSQL.
async fn a_move_of_no_live_game_is_refused(store: &Store) {
    let room = new_room(store, "nl").await;
    let never_started = live_game(room.table, 1, crossyray_options());
    let err = store
        .write(&room.code, vec![Write::Entry(entry(&never_started, 0))])
        .await
        .expect_err("a move of no live game fails");
    assert!(is_refusal(&err), "Conflict or Database, got {err:?}");
    assert!(saved(store, &room.code).await.live.is_empty());
    // The room still takes good writes after it.
    let game = live_game(room.table, 1, crossyray_options());
    store
        .write(
            &room.code,
            vec![
                Write::GameStarted(game.clone()),
                Write::Entry(entry(&game, 0)),
            ],
        )
        .await
        .expect("a started game's move is stored");
    assert_live_eq(
        &saved(store, &room.code).await.live,
        &[(&game, vec![entry(&game, 0)])],
    );
}

/// ~50 rooms write at once (one batch, if the backend groups them); one
/// request is bad. The good ones are all stored, the bad one errs and
/// leaves nothing.
async fn group_commit_isolates_a_bad_request(store: &Store) {
    const ROOMS: u32 = 50;
    for bad_at in [0, ROOMS / 2, ROOMS - 1] {
        let mut rooms = Vec::new();
        for _ in 0..ROOMS {
            rooms.push(new_room(store, "gc").await);
        }
        // The bad room has its game 1 already.
        let bad_room = rooms[bad_at as usize].clone();
        let done = live_game(bad_room.table, 1, crossyray_options());
        store
            .write(
                &bad_room.code,
                vec![Write::GameEnded(finished(&bad_room.code, &done, &[]))],
            )
            .await
            .expect("bad room's game 1");

        let mut set = JoinSet::new();
        for (i, room) in rooms.iter().enumerate() {
            let store = store.clone();
            let room = room.clone();
            let i = i as u32;
            set.spawn(async move {
                let writes = good_request(&room.code, &room, i);
                let result = store.write(&room.code, writes).await;
                (i, result)
            });
        }
        let mut results = Vec::new();
        while let Some(joined) = set.join_next().await {
            results.push(joined.expect("task"));
        }
        results.sort_by_key(|(i, _)| *i);
        assert_eq!(results.len(), ROOMS as usize);
        for (i, result) in &results {
            if *i == bad_at {
                let err = result.as_ref().expect_err("the bad request fails");
                assert!(is_refusal(err), "Conflict or Database, got {err:?}");
            } else {
                assert!(result.is_ok(), "room {i}: {result:?}");
            }
        }
        for (i, room) in rooms.iter().enumerate() {
            let i = i as u32;
            if i == bad_at {
                let back = saved(store, &room.code).await;
                assert_room_eq(&back.room, room);
                assert!(back.members.is_empty(), "{:?}", back.members);
                assert!(back.chat.is_empty(), "{:?}", back.chat);
                assert!(back.scores.is_empty(), "{:?}", back.scores);
                assert!(back.live.is_empty(), "{:?}", back.live);
                let games = store.games(&room.code).await.expect("games");
                assert_eq!(games.len(), 1);
                assert_eq!(games[0].id, Some(done.id.to_string()));
            } else {
                assert_good_request_stored(store, room, i).await;
            }
        }
    }
}

/// Two requests of one room end game 1 at the same moment (the same
/// batch, if the backend groups them): exactly one is stored, whole.
async fn two_requests_racing_for_one_game_number(store: &Store) {
    for _ in 0..3 {
        let room = new_room(store, "two").await;
        let a = live_game(room.table, 1, crossyray_options());
        let b = live_game(room.table, 1, crossyray_options());
        let request = |g: &LiveGame, who: u32| {
            vec![
                Write::Chat(chat(who, &format!("request {who}"), u64::from(who))),
                Write::GameEnded(finished(&room.code, g, &[])),
            ]
        };
        let (ra, rb) = tokio::join!(
            store.write(&room.code, request(&a, 1)),
            store.write(&room.code, request(&b, 2)),
        );
        let (winner, who) = match (&ra, &rb) {
            (Ok(()), Err(e)) => {
                assert!(is_refusal(e), "{e:?}");
                (&a, 1)
            }
            (Err(e), Ok(())) => {
                assert!(is_refusal(e), "{e:?}");
                (&b, 2)
            }
            other => panic!("exactly one request may end game 1: {other:?}"),
        };
        let games = store.games(&room.code).await.expect("games");
        assert_eq!(games.len(), 1, "{games:?}");
        assert_eq!(games[0].id, Some(winner.id.to_string()));
        assert_eq!(
            saved(store, &room.code).await.chat,
            vec![chat(who, &format!("request {who}"), u64::from(who))],
            "only the stored request's chat line"
        );
    }
}

/// Rooms write while other calls (new rooms, logins, session checks)
/// commit at the same moment: no call fails because of another.
async fn concurrent_calls_do_not_fail_each_other(store: &Store) {
    const ROUNDS: u32 = 40;
    let mut rooms = Vec::new();
    for _ in 0..20 {
        rooms.push(new_room(store, "cc").await);
    }
    let account = new_account(store, "cc_", now_millis()).await;
    let mut set: JoinSet<Result<(), String>> = JoinSet::new();
    for round in 0..ROUNDS {
        for room in &rooms {
            let store = store.clone();
            let code = room.code.clone();
            set.spawn(async move {
                let line = chat(1, &format!("round {round}"), u64::from(round));
                store
                    .write(&code, vec![Write::Chat(line)])
                    .await
                    .map_err(|e| format!("write (chat) to {code}: {e:?}"))
            });
        }
        let store2 = store.clone();
        set.spawn(async move {
            store2
                .insert_room(&room_row(&fresh("cc")))
                .await
                .map_err(|e| format!("insert_room: {e:?}"))
        });
        let store3 = store.clone();
        let id = account.id;
        set.spawn(async move {
            let token = new_token();
            store3
                .start_session(open(&token, now_millis()), id)
                .await
                .map_err(|e| format!("start_session: {e:?}"))?;
            match store3.session_account(&token, now_millis()).await {
                Ok(Some(_)) => Ok(()),
                other => Err(format!("session_account: {other:?}")),
            }
        });
        tokio::task::yield_now().await;
    }
    let mut errors = Vec::new();
    while let Some(done) = set.join_next().await {
        if let Err(e) = done.expect("task") {
            errors.push(e);
        }
    }
    assert!(
        errors.is_empty(),
        "{} calls failed, first: {}",
        errors.len(),
        errors[0]
    );
    for room in &rooms {
        let mut texts: Vec<String> = saved(store, &room.code)
            .await
            .chat
            .into_iter()
            .map(|l| l.text)
            .collect();
        texts.sort();
        let mut want: Vec<String> = (0..ROUNDS).map(|r| format!("round {r}")).collect();
        want.sort();
        assert_eq!(texts, want, "room {}", room.code);
    }
}

on_both!(
    many_rooms_moves_in_batches,
    tokio::test(flavor = "multi_thread", worker_threads = 2)
);

on_both!(
    a_rooms_writes_keep_their_order_in_a_batch,
    tokio::test(flavor = "multi_thread", worker_threads = 2)
);

on_both!(a_new_round_forgets_the_earlier_rounds_tables);

on_both!(a_move_of_no_live_game_is_refused);

on_both!(a_bad_move_among_moves_fails_alone);

// The default (current-thread) runtime. The SQLite writer is a thread
// of its own, so how the requests form batches depends on timing; the
// retry of a failed batch request by request is checked on its own in
// `store/batch.rs`'s unit test.
on_both!(group_commit_isolates_a_bad_request);

// The same on several threads, where batches form by timing.
on_both!(group_commit_on_threads: group_commit_isolates_a_bad_request, tokio::test(flavor = "multi_thread", worker_threads = 4));

on_both!(two_requests_racing_for_one_game_number);

// Before the SQLite writer had its own connection, this failed on most
// runs: 1-5 of the 800 chat writes came back "database is locked".
on_both!(
    concurrent_calls_do_not_fail_each_other,
    tokio::test(flavor = "multi_thread", worker_threads = 4)
);

/// PostgreSQL: the writer's own connection (`store/pg.rs`) is cut
/// between two writes, as a database restart would. The next write may
/// fail (it finds the connection gone, storing nothing); the one after
/// runs on a new connection, and each line is stored once.
#[tokio::test]
async fn the_postgres_writer_connects_again_after_losing_its_connection() {
    let Some(schema) = crate::common::postgres::schema().await else {
        return;
    };
    // This store's connections, and only they, carry this name.
    let name = format!("writer_{}", new_token()[..10].to_lowercase());
    let url = format!("{}&application_name={name}", schema.url);
    let store = Store::open(Some(&url), std::path::Path::new("."))
        .await
        .expect("open");
    let room = new_room(&store, "rc").await;
    store
        .write(&room.code, vec![Write::Chat(chat(1, "before", 1))])
        .await
        .expect("the first write");
    let admin = sqlx::PgPool::connect(&schema.url).await.expect("connect");
    let cut: Vec<bool> = sqlx::query_scalar(
        "SELECT pg_terminate_backend(pid, 5000) FROM pg_stat_activity WHERE application_name = $1",
    )
    .bind(&name)
    .fetch_all(&admin)
    .await
    .expect("terminate");
    assert!(!cut.is_empty() && cut.iter().all(|&c| c), "{cut:?}");
    let mut failed = 0;
    while let Err(e) = store
        .write(&room.code, vec![Write::Chat(chat(1, "after", 2))])
        .await
    {
        failed += 1;
        assert!(failed < 2, "the writer did not connect again: {e:?}");
    }
    let texts: Vec<String> = saved(&store, &room.code)
        .await
        .chat
        .into_iter()
        .map(|c| c.text)
        .collect();
    assert_eq!(texts, vec!["before", "after"]);
    store.close().await;
    admin.close().await;
    schema.drop().await;
}
