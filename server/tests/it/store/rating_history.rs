//! The rating history written with each rated game's rating change.

use super::fixtures::*;
use server::model::now_millis;
use server::store::{Store, Write};

/// A rated game writes both players' rating before and after it, in the
/// transaction that rates it: a failing request writes none, an unrated
/// game none; the points come back oldest first, the latest `limit`.
async fn rated_games_write_the_rating_history(store: &Store) {
    let now = now_millis();
    let mut ids = Vec::new();
    for name in ["Hist_a", "Hist_b"] {
        ids.push(new_account(store, name, now).await.id);
    }
    let room = new_room(store, "rh").await;
    let code = &room.code;
    let game = |number: u32, rated: bool| {
        let g = live_game(room.table, number, crossyray_options());
        let mut f = finished(code, &g, &["m0"]);
        for (side, id) in f.sides.iter_mut().zip(&ids) {
            side[0].account = Some(*id);
        }
        f.rated = rated;
        f.ended_at += u64::from(number);
        f
    };
    let g1 = game(1, true);
    store
        .write(code, vec![Write::GameEnded(g1.clone())])
        .await
        .expect("game 1");
    let (points, total) = store
        .rating_history(ids[1], "crossyray", 500)
        .await
        .expect("history");
    assert_eq!((points.len(), total), (1, 1));
    let p = &points[0];
    assert_eq!(p.game_id, g1.id.to_string());
    assert_eq!((p.side, p.ended_at), (1, g1.ended_at));
    assert_eq!((p.rating_before, p.deviation_before), (1500.0, 350.0));
    assert_eq!(format!("{:.2}", p.rating_after), "1662.31");
    assert_eq!(format!("{:.2}", p.deviation_after), "290.32");

    // A failing request and an unrated game add nothing.
    store
        .write(
            code,
            vec![
                Write::GameEnded(game(2, true)),
                Write::GameEnded(game(1, true)),
            ],
        )
        .await
        .expect_err("a repeated game number must fail");
    store
        .write(code, vec![Write::GameEnded(game(2, false))])
        .await
        .expect("game 2");
    assert_eq!(
        store
            .rating_history(ids[0], "crossyray", 500)
            .await
            .expect("history")
            .1,
        1
    );

    let g3 = game(3, true);
    store
        .write(code, vec![Write::GameEnded(g3.clone())])
        .await
        .expect("game 3");
    let (points, total) = store
        .rating_history(ids[0], "crossyray", 500)
        .await
        .expect("history");
    assert_eq!((points.len(), total), (2, 2));
    assert_eq!(
        points[1].rating_before, points[0].rating_after,
        "one follows the other"
    );
    let now_rated = store.ratings(ids[0]).await.expect("ratings")[0].1;
    assert_eq!(points[1].rating_after, now_rated.rating);
    // The latest only, past the limit.
    let (latest, total) = store
        .rating_history(ids[0], "crossyray", 1)
        .await
        .expect("history");
    assert_eq!((latest.len(), total), (1, 2));
    assert_eq!(latest[0].game_id, g3.id.to_string());

    // The changes of a list of games, by game and side.
    let changes = store
        .rating_changes(&[
            g1.id.to_string(),
            game(2, false).id.to_string(),
            g3.id.to_string(),
        ])
        .await
        .expect("changes");
    assert_eq!(changes.len(), 4);
    assert!(changes.iter().all(|c| c.game == "crossyray"));
    assert_eq!(store.rating_changes(&[]).await.expect("none"), vec![]);
}

on_both!(rated_games_write_the_rating_history);
