//! Rating history (`GET /api/players/NAME/ratings/GAME`) and the rating
//! change every listed game carries (`rating_changes`), from rated games
//! played between two signed-in accounts over real sockets.

use crate::common;
use crate::profile::{duel, minh_and_lan, profile, resign_game};

use common::TestServer;
use serde_json::{json, Value};

async fn get(server: &TestServer, path: &str) -> (u16, Value) {
    let (status, text) = server.get(path).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn rated_games_make_the_rating_history_and_each_game_carries_its_change() {
    let server = TestServer::start().await;
    let (minh, lan) = minh_and_lan(&server).await;
    let mut d = duel(&server, "jungle", &minh, &lan, json!({})).await;
    // An unrated game, three rated ones (Minh wins, loses, wins), then
    // an unrated one again.
    let unrated_first = resign_game(&mut d, false).await["id"].clone();
    d.a.ok(json!({"type": "rated", "rated": true})).await;
    let mut rated = Vec::new();
    for a_loses in [false, true, false] {
        rated.push(resign_game(&mut d, a_loses).await["id"].clone());
    }
    d.a.ok(json!({"type": "rated", "rated": false})).await;
    let unrated_last = resign_game(&mut d, true).await["id"].clone();

    let (status, h) = get(&server, "/api/players/minh/ratings/jungle").await;
    assert_eq!(status, 200, "{h}");
    assert_eq!(h["username"], "Minh");
    assert_eq!(h["game"], "jungle");
    assert_eq!(h["total"], 3);
    assert_eq!(h["limit"], 500);
    let points = h["points"].as_array().unwrap();
    assert_eq!(points.len(), 3, "one point per rated game: {h}");
    let ids: Vec<&Value> = points.iter().map(|p| &p["game_id"]).collect();
    assert_eq!(ids, rated.iter().collect::<Vec<_>>(), "oldest first");
    assert_eq!(
        (
            &points[0]["rating"],
            &points[0]["deviation"],
            &points[0]["change"]
        ),
        (&json!(1662), &json!(290), &json!(162))
    );
    assert!(points[1]["change"].as_i64().unwrap() < 0, "{h}");
    assert!(points[2]["change"].as_i64().unwrap() > 0, "{h}");
    assert!(points
        .windows(2)
        .all(|w| w[0]["at"].as_u64() <= w[1]["at"].as_u64()));
    // The changes add up: each point is the last one plus its change,
    // from 1500, to the rating the profile shows.
    let mut r = 1500;
    for p in points {
        r += p["change"].as_i64().unwrap();
        assert_eq!(p["rating"], r, "{h}");
    }
    assert_eq!(h["rating"]["rating"], r);
    assert_eq!(h["rating"]["games"], 3);
    let (_, p) = profile(&server, "Minh", "").await;
    let jungle = &p["games"][0];
    assert_eq!(jungle["rating"]["rating"], r, "{p}");
    assert_eq!(jungle["played"], 5);

    // Lan's history mirrors Minh's.
    let (_, l) = get(&server, "/api/players/Lan/ratings/jungle").await;
    let lan_points = l["points"].as_array().unwrap();
    assert_eq!(lan_points.len(), 3);
    assert_eq!(lan_points[0]["rating"], 1338);
    assert_eq!(lan_points[0]["change"], -162);
    let lan_sum: i64 = lan_points
        .iter()
        .map(|p| p["change"].as_i64().unwrap())
        .sum();
    assert_eq!(l["rating"]["rating"], 1500 + lan_sum);

    // Every list carries each rated game's changes by side, and none for
    // the unrated games: the profile's recent games…
    let check = |games: &Value, what: &str| {
        let games = games
            .as_array()
            .unwrap_or_else(|| panic!("{what}: {games}"));
        assert_eq!(games.len(), 5, "{what}");
        for g in games {
            let changes = g["rating_changes"].as_array().expect(what);
            if g["id"] == unrated_first || g["id"] == unrated_last {
                assert!(changes.is_empty(), "{what}: {g}");
                continue;
            }
            let i = rated.iter().position(|id| *id == g["id"]).expect(what);
            assert_eq!(changes.len(), 2, "{what}: {g}");
            assert_eq!(changes[0]["side"], 0);
            assert_eq!(changes[0]["change"], points[i]["change"], "{what}: {g}");
            assert_eq!(changes[0]["after"], points[i]["rating"], "{what}: {g}");
            assert_eq!(changes[1]["side"], 1);
            assert_eq!(changes[1]["change"], lan_points[i]["change"], "{what}: {g}");
            let c = &changes[0];
            assert_eq!(
                c["after"].as_i64().unwrap() - c["before"].as_i64().unwrap(),
                c["change"].as_i64().unwrap()
            );
        }
    };
    check(&p["recent"], "profile");
    // …the room's games, the caller's history…
    let (_, room) = get(&server, &format!("/api/rooms/{}/games", d.code)).await;
    check(&room["games"], "room games");
    let mut me = minh;
    let mine = me
        .get_with(
            "/api/games",
            &[("authorization", "Bearer duel-host-token-00001")],
        )
        .await;
    assert_eq!(mine.status, 200, "{}", mine.body);
    check(&mine.body["games"], "history");
    // …and one game's replay.
    let (_, first) = get(
        &server,
        &format!("/api/games/{}", rated[0].as_str().unwrap()),
    )
    .await;
    assert_eq!(
        first["rating_changes"],
        json!([
            {"side": 0, "before": 1500, "after": 1662, "change": 162,
             "deviation_before": 350, "deviation_after": 290},
            {"side": 1, "before": 1500, "after": 1338, "change": -162,
             "deviation_before": 350, "deviation_after": 290},
        ])
    );
    let (_, plain) = get(
        &server,
        &format!("/api/games/{}", unrated_first.as_str().unwrap()),
    )
    .await;
    assert_eq!(plain["rating_changes"], json!([]));

    // A game never played rated has no points; an unknown player or game
    // is refused.
    let (status, none) = get(&server, "/api/players/Minh/ratings/quoridor").await;
    assert_eq!(status, 200);
    assert_eq!(
        (&none["points"], &none["rating"], &none["total"]),
        (&json!([]), &Value::Null, &json!(0))
    );
    let (status, e) = get(&server, "/api/players/nobody/ratings/jungle").await;
    assert_eq!((status, &e["error"]), (404, &json!("no_player")), "{e}");
    let (status, e) = get(&server, "/api/players/Minh/ratings/chess").await;
    assert_eq!((status, &e["error"]), (400, &json!("bad_query")), "{e}");
}
