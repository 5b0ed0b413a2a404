//! Ratings that change with the stored game, and a person's history.

use super::fixtures::*;
use rules::{EndReason, Outcome};
use server::model::now_millis;
use server::store::{HistoryQuery, Store, Write};

/// A rated game changes both players' ratings in the transaction that
/// stores it: a request that fails stores neither the game nor the
/// change; an unrated game changes nothing; the profile counts both.
async fn ratings_change_with_the_stored_game(store: &Store) {
    let now = now_millis();
    let mut ids = Vec::new();
    for name in ["Rate_a", "Rate_b"] {
        let account = new_account(store, name, now).await;
        ids.push(account.id);
    }
    let room = new_room(store, "ra").await;
    let code = &room.code;
    let rated = |number: u32, rated: bool| {
        let g = live_game(room.table, number, crossyray_options());
        let mut f = finished(code, &g, &["m0"]);
        for (side, id) in f.sides.iter_mut().zip(&ids) {
            side[0].account = Some(*id);
        }
        f.rated = rated;
        f
    };
    // Side 0 resigned: the second account won.
    store
        .write(code, vec![Write::GameEnded(rated(1, true))])
        .await
        .expect("game 1");
    let a = store.ratings(ids[0]).await.expect("ratings");
    let b = store.ratings(ids[1]).await.expect("ratings");
    assert_eq!(a.len(), 1);
    assert_eq!(a[0].0, "crossyray");
    assert_eq!(format!("{:.2}", a[0].1.rating), "1337.69");
    assert_eq!(format!("{:.2}", b[0].1.rating), "1662.31");
    assert_eq!(format!("{:.2}", b[0].1.deviation), "290.32");
    assert_eq!((a[0].1.games, b[0].1.games), (1, 1));

    // A failing request (game 1 again) rates nobody.
    let err = store
        .write(
            code,
            vec![
                Write::GameEnded(rated(2, true)),
                Write::GameEnded(rated(1, true)),
            ],
        )
        .await
        .expect_err("a repeated game number must fail");
    assert!(is_refusal(&err), "{err:?}");
    assert_eq!(store.ratings(ids[1]).await.expect("ratings")[0].1.games, 1);
    // An unrated game changes nothing.
    store
        .write(code, vec![Write::GameEnded(rated(2, false))])
        .await
        .expect("game 2");
    assert_eq!(store.ratings(ids[0]).await.expect("ratings"), a);
    // A second rated game moves both again.
    store
        .write(code, vec![Write::GameEnded(rated(3, true))])
        .await
        .expect("game 3");
    let b3 = store.ratings(ids[1]).await.expect("ratings");
    assert_eq!(b3[0].1.games, 2);
    assert!(b3[0].1.rating > b[0].1.rating && b3[0].1.deviation < b[0].1.deviation);

    let username = store
        .account(ids[1])
        .await
        .expect("account")
        .expect("exists")
        .username;
    let p = store
        .profile(&username.to_uppercase(), 1)
        .await
        .expect("profile")
        .expect("found by any case");
    assert_eq!(p.total, 3);
    assert_eq!((p.tallies[0].wins, p.tallies[0].losses), (3, 0));
    assert_eq!(p.recent.len(), 3);
    assert_eq!(p.recent[0].1, "win");
    let board = store
        .leaderboard("crossyray", 2, now)
        .await
        .expect("leaderboard");
    assert!(board.iter().all(|r| r.rating.games >= 2));
}

/// A person's history: the games their member played, newest first, with
/// their result, filtered by game and result, a page at a time.
async fn history_of_a_member(store: &Store) {
    let room = new_room(store, "hi").await;
    let code = room.code.clone();
    let minh = member(1, "Minh");
    let token = minh.token.clone().expect("a guest's token");
    let mut writes = vec![Write::Member(minh)];
    let mut games = Vec::new();
    // Member 1 (side 0) loses games 1-3 (side 1 wins); game 4 is a draw.
    for number in 1..=4 {
        let g = live_game(room.table, number, crossyray_options());
        let mut done = finished(&code, &g, &["m0"]);
        if number == 4 {
            done.outcome = Outcome::Draw {
                reason: EndReason::Agreement,
            };
        }
        writes.push(Write::GameStarted(g.clone()));
        writes.push(Write::GameEnded(done));
        games.push(g);
    }
    store.write(&code, writes).await.expect("write");
    let query = |result: Option<&str>, page: u32| HistoryQuery {
        account: None,
        token: token.clone(),
        game: Some("crossyray".to_string()),
        result: result.map(str::to_string),
        page,
    };
    let all = store.history(&query(None, 1)).await.expect("history");
    assert_eq!(all.total, 4);
    let ids: Vec<Option<String>> = all.games.iter().map(|(g, _)| g.id.clone()).collect();
    let newest_first: Vec<Option<String>> =
        games.iter().rev().map(|g| Some(g.id.to_string())).collect();
    assert_eq!(ids, newest_first);
    let results: Vec<&str> = all.games.iter().map(|(_, r)| r.as_str()).collect();
    assert_eq!(results, ["draw", "loss", "loss", "loss"]);
    let losses = store
        .history(&query(Some("loss"), 1))
        .await
        .expect("history");
    assert_eq!(losses.total, 3);
    assert!(losses.games.iter().all(|(_, r)| r == "loss"));
    assert_eq!(
        store
            .history(&query(Some("win"), 1))
            .await
            .expect("history")
            .total,
        0
    );
    let past_the_end = store.history(&query(None, 2)).await.expect("history");
    assert_eq!((past_the_end.total, past_the_end.games.len()), (4, 0));
    let other_game = HistoryQuery {
        game: Some("jungle".to_string()),
        ..query(None, 1)
    };
    assert_eq!(store.history(&other_game).await.expect("history").total, 0);
}

on_both!(ratings_change_with_the_stored_game);

on_both!(history_of_a_member);

/// An account's games (`account_games`, written with each game): the
/// profile counts each game once, at the first side the account played;
/// a history joins them to the browser's guest games, each once, with
/// the account's result where the account played.
async fn an_accounts_games_and_a_browsers_guest_games(store: &Store) {
    let now = now_millis();
    let a = new_account(store, "Acc_g", now).await.id;
    let room = new_room(store, "ag").await;
    let code = room.code.clone();
    let minh = member(1, "Minh");
    let token = minh.token.clone().expect("a guest's token");
    let mut writes = vec![Write::Member(minh), Write::Member(member(2, "Lan"))];
    // (account on side 0, account on side 1, outcome): side 1 wins
    // unless drawn.
    let draw = Outcome::Draw {
        reason: EndReason::Agreement,
    };
    let games = [
        (Some(a), None, None),    // 1: the account loses on side 0
        (Some(a), Some(a), None), // 2: both sides: counted once, side 0
        (None, None, Some(draw)), // 3: a guest game of the browser
        (None, Some(a), None),    // 4: the account wins on side 1
    ];
    let mut ids = Vec::new();
    for (i, (first, second, outcome)) in games.into_iter().enumerate() {
        let g = live_game(room.table, i as u32 + 1, crossyray_options());
        let mut f = finished(&code, &g, &["m0"]);
        f.sides[0][0].account = first;
        f.sides[1][0].account = second;
        if let Some(outcome) = outcome {
            f.outcome = outcome;
        }
        ids.push(g.id.to_string());
        writes.push(Write::GameStarted(g));
        writes.push(Write::GameEnded(f));
    }
    store.write(&code, writes).await.expect("write");
    let username = store
        .account(a)
        .await
        .expect("account")
        .expect("exists")
        .username;
    let p = store
        .profile(&username, 1)
        .await
        .expect("profile")
        .expect("found");
    assert_eq!(p.total, 3);
    assert_eq!(p.tallies.len(), 1);
    let t = &p.tallies[0];
    assert_eq!(
        (
            t.game.as_str(),
            t.played,
            t.wins,
            t.draws,
            t.losses,
            t.aborted
        ),
        ("crossyray", 3, 1, 0, 2, 0)
    );
    let recent: Vec<(String, &str)> = p
        .recent
        .iter()
        .map(|(g, r)| (g.id.clone().expect("an id"), r.as_str()))
        .collect();
    let want = |rows: &[(usize, &'static str)]| -> Vec<(String, &'static str)> {
        rows.iter().map(|&(n, r)| (ids[n - 1].clone(), r)).collect()
    };
    assert_eq!(recent, want(&[(4, "win"), (2, "loss"), (1, "loss")]));
    assert!(store
        .profile(&username, 2)
        .await
        .expect("profile")
        .expect("found")
        .recent
        .is_empty());

    let history = |account: Option<i64>, result: Option<&str>| HistoryQuery {
        account,
        token: token.clone(),
        game: None,
        result: result.map(str::to_string),
        page: 1,
    };
    let listed = |page: server::store::HistoryPage| -> (u64, Vec<(String, String)>) {
        let rows = page
            .games
            .into_iter()
            .map(|(g, r)| (g.id.expect("an id"), r))
            .collect();
        (page.total, rows)
    };
    let owned = |rows: Vec<(String, &str)>| -> Vec<(String, String)> {
        rows.into_iter().map(|(g, r)| (g, r.to_string())).collect()
    };
    // Signed in: the account's three and the browser's guest game.
    let signed_in = listed(
        store
            .history(&history(Some(a), None))
            .await
            .expect("history"),
    );
    assert_eq!(
        signed_in,
        (
            4,
            owned(want(&[(4, "win"), (3, "draw"), (2, "loss"), (1, "loss")]))
        )
    );
    let losses = listed(
        store
            .history(&history(Some(a), Some("loss")))
            .await
            .expect("history"),
    );
    assert_eq!(losses, (2, owned(want(&[(2, "loss"), (1, "loss")]))));
    let draws = listed(
        store
            .history(&history(Some(a), Some("draw")))
            .await
            .expect("history"),
    );
    assert_eq!(draws, (1, owned(want(&[(3, "draw")]))));
    // The browser alone: its member's side 0 in all four.
    let guest = listed(store.history(&history(None, None)).await.expect("history"));
    assert_eq!(
        guest,
        (
            4,
            owned(want(&[(4, "loss"), (3, "draw"), (2, "loss"), (1, "loss")]))
        )
    );
}

on_both!(an_accounts_games_and_a_browsers_guest_games);
