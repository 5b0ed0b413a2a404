//! Public profiles (`GET /api/players/NAME`): an account's games per game
//! with its results and its recent games, for anyone.

use crate::common;

use common::browser::Browser;
use common::{Client, TestServer};
use serde_json::{json, Value};

/// Two players seated at a fresh room of `game` (auto-start off): the
/// host `a` (side 0 with `order: seats`) and `b`, each with the session
/// of its browser when it has one.
pub(crate) struct Duel {
    pub(crate) code: String,
    pub(crate) a: Client,
    pub(crate) b: Client,
}

pub(crate) async fn duel(
    server: &TestServer,
    game: &str,
    a: &Browser,
    b: &Browser,
    room: Value,
) -> Duel {
    let mut host = Browser::new(server);
    host.session = a.session.clone();
    let mut body = json!({"game": game, "token": "duel-host-token-00001"});
    if let (Some(body), Some(extra)) = (body.as_object_mut(), room.as_object()) {
        body.extend(extra.clone());
    }
    let created = host.post("/api/rooms", body).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let code = created.body["code"].as_str().unwrap().to_string();
    let (mut a, _, _) = a
        .join(&code, Some("duel-host-token-00001"), Some("A"))
        .await;
    let (mut b, _, _) = b
        .join(&code, Some("duel-guest-token-0001"), Some("B"))
        .await;
    a.ok(json!({"type": "autostart", "enabled": false})).await;
    a.ok(json!({"type": "sit", "seat": 0})).await;
    b.ok(json!({"type": "sit", "seat": 1})).await;
    Duel { code, a, b }
}

/// One game at the duel's table in which the loser (`a` or, if
/// `a_loses` is false, `b`) resigns at once. Returns the finished match.
pub(crate) async fn resign_game(d: &mut Duel, a_loses: bool) -> Value {
    d.a.ok(json!({"type": "start", "order": "seats"})).await;
    d.a.next_match().await;
    d.b.next_match().await;
    let loser = if a_loses { &mut d.a } else { &mut d.b };
    loser.ok(json!({"type": "resign"})).await;
    let end = d.a.next_match().await;
    assert_eq!(end["kind"], "end", "{end}");
    d.b.next_match().await;
    end["match"].clone()
}

/// Two browsers signed in to new accounts: Minh's and Lan's.
pub(crate) async fn minh_and_lan(server: &TestServer) -> (Browser, Browser) {
    let mut minh = Browser::new(server);
    minh.register("Minh", "correct horse").await;
    let mut lan = Browser::new(server);
    lan.register("Lan", "battery staple").await;
    (minh, lan)
}

pub(crate) async fn profile(server: &TestServer, name: &str, query: &str) -> (u16, Value) {
    let (status, text) = server.get(&format!("/api/players/{name}{query}")).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

#[tokio::test]
async fn a_profile_counts_an_accounts_games_and_links_its_replays() {
    let server = TestServer::start().await;
    let (mut minh, lan) = minh_and_lan(&server).await;
    let guest = Browser::new(&server);

    // Minh against Lan at Jungle: Minh wins twice, loses once.
    let mut d = duel(&server, "jungle", &minh, &lan, json!({})).await;
    for a_loses in [false, true, false] {
        resign_game(&mut d, a_loses).await;
    }
    // Minh against a guest at CrossyRay: Minh loses.
    let mut g = duel(&server, "crossyray", &minh, &guest, json!({})).await;
    let last = resign_game(&mut g, true).await;

    let (status, p) = profile(&server, "minh", "").await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["username"], "Minh");
    assert_eq!(p["name"], "Minh");
    assert_eq!(p["total"], 4);
    assert_eq!(p["pages"], 1);
    let games = p["games"].as_array().unwrap();
    assert_eq!(games.len(), 2, "{p}");
    assert_eq!(games[0]["game"], "crossyray");
    assert_eq!(
        (&games[0]["played"], &games[0]["wins"], &games[0]["losses"]),
        (&json!(1), &json!(0), &json!(1))
    );
    assert_eq!(games[1]["game"], "jungle");
    assert_eq!(
        (
            &games[1]["played"],
            &games[1]["wins"],
            &games[1]["draws"],
            &games[1]["losses"]
        ),
        (&json!(3), &json!(2), &json!(0), &json!(1))
    );
    // Recent games, newest first, each with Minh's result and the id its
    // replay opens by.
    let recent = p["recent"].as_array().unwrap();
    assert_eq!(recent.len(), 4);
    assert_eq!(recent[0]["id"], last["id"]);
    // The room's code only for its members: a stranger reads `null`,
    // Minh (signed in) the code.
    assert_eq!(recent[0]["room"], Value::Null);
    let mine = minh.get("/api/players/minh").await.body;
    assert_eq!(mine["recent"][0]["room"], g.code.as_str());
    let results: Vec<&str> = recent
        .iter()
        .map(|g| g["result"].as_str().unwrap())
        .collect();
    assert_eq!(results, ["loss", "win", "loss", "win"]);
    let (status, replay) = profile_game(&server, recent[1]["id"].as_str().unwrap()).await;
    assert_eq!(status, 200);
    assert_eq!(
        replay["room"],
        Value::Null,
        "a private room, read by a stranger"
    );

    // Lan's side of the same games.
    let (_, p) = profile(&server, "Lan", "").await;
    assert_eq!(p["total"], 3);
    assert_eq!(p["games"][0]["wins"], 1);
    assert_eq!(p["games"][0]["losses"], 2);

    // A page past the end is empty; a bad page and an unknown name are
    // refused.
    let (_, p2) = profile(&server, "Minh", "?page=2").await;
    assert_eq!(p2["recent"], json!([]));
    assert_eq!(p2["total"], 4);
    assert_eq!(profile(&server, "Minh", "?page=0").await.0, 400);
    let (status, twice) = profile(&server, "Minh", "?page=1&page=1").await;
    assert_eq!((status, twice["error"].as_str()), (400, Some("bad_query")));
    let (status, none) = profile(&server, "nobody", "").await;
    assert_eq!(status, 404);
    assert_eq!(none["error"], "no_player");

    // The page itself.
    let (status, html) = server.get("/u/Minh").await;
    assert_eq!(status, 200);
    assert!(html.contains("/js/profile.js"), "{html}");
}

async fn board(server: &TestServer) -> Value {
    serde_json::from_str(&server.get("/api/leaderboard/jungle").await.1).unwrap()
}

async fn profile_game(server: &TestServer, id: &str) -> (u16, Value) {
    let (status, text) = server.get(&format!("/api/games/{id}")).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// The next `members` event in which `check` holds of the member named
/// `name`.
async fn members_until(c: &mut Client, name: &str, check: impl Fn(&Value) -> bool) -> Value {
    c.member_until("name", &Value::from(name), check).await
}

fn rating_of(profile: &Value, game: &str) -> Value {
    profile["games"]
        .as_array()
        .unwrap()
        .iter()
        .find(|g| g["game"] == game)
        .map(|g| g["rating"].clone())
        .unwrap_or(Value::Null)
}

/// Glicko-2 from the start ratings (1500 / 350 / 0.06, τ 0.5): the winner
/// goes to 1662.31 / 290.32, the loser to 1337.69 / 290.32 (the same
/// function as Glickman's worked example, `ratings.rs`'s unit test).
#[tokio::test]
async fn a_rated_game_updates_both_ratings_and_a_restart_keeps_them() {
    let server = TestServer::start().await;
    let (minh, lan) = minh_and_lan(&server).await;
    let mut d = duel(&server, "jungle", &minh, &lan, json!({})).await;
    // Signed-in players show the start rating; only the host marks the
    // room rated, and not during a game.
    let m = members_until(&mut d.b, "A", |m| m["rating"]["games"] == 0).await;
    assert_eq!(
        m["rating"],
        json!({"rating": 1500, "deviation": 350, "games": 0})
    );
    d.b.refused(json!({"type": "rated", "rated": true}), "not_host")
        .await;
    d.a.ok(json!({"type": "rated", "rated": true})).await;
    assert_eq!(d.b.next_of("rated").await["rated"], true);

    resign_game(&mut d, false).await;
    // The room shows both new ratings at once.
    let winner = members_until(&mut d.b, "A", |m| m["rating"]["games"] == 1).await;
    assert_eq!(
        winner["rating"],
        json!({"rating": 1662, "deviation": 290, "games": 1})
    );
    let loser = members_until(&mut d.a, "B", |m| m["rating"]["games"] == 1).await;
    assert_eq!(
        loser["rating"],
        json!({"rating": 1338, "deviation": 290, "games": 1})
    );
    let (_, p) = profile(&server, "Minh", "").await;
    assert_eq!(
        rating_of(&p, "jungle"),
        json!({"rating": 1662, "deviation": 290, "games": 1})
    );
    let (_, p) = profile(&server, "Lan", "").await;
    assert_eq!(rating_of(&p, "jungle")["rating"], 1338);

    // A restart keeps the ratings and the room's rated mark.
    let code = d.code.clone();
    drop(d);
    let dir = server.stop().await;
    let server = TestServer::start_in(dir, |_| {}).await;
    let minh = Browser::logged_in(&server, "minh", "correct horse").await;
    let (_, p) = profile(&server, "Minh", "").await;
    assert_eq!(rating_of(&p, "jungle")["rating"], 1662);
    assert_eq!(rating_of(&p, "jungle")["deviation"], 290);
    let (_, _, snapshot) = minh.join(&code, Some("duel-host-token-00001"), None).await;
    assert_eq!(snapshot["room"]["rated"], true);
    let me = snapshot["room"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["account"] == "Minh")
        .cloned()
        .unwrap();
    assert_eq!(me["rating"]["rating"], 1662, "{me}");
}

#[tokio::test]
async fn unrated_rooms_guests_and_the_computer_leave_ratings_alone() {
    let server = TestServer::start_with(|c| c.bot_ms = 20).await;
    let (minh, lan) = minh_and_lan(&server).await;
    let guest = Browser::new(&server);

    // An unrated room.
    let mut d = duel(&server, "crossyray", &minh, &lan, json!({})).await;
    resign_game(&mut d, false).await;
    // A rated room, against a guest.
    let mut g = duel(&server, "crossyray", &minh, &guest, json!({})).await;
    g.a.ok(json!({"type": "rated", "rated": true})).await;
    let m = members_until(&mut g.a, "B", |_| true).await;
    assert_eq!(m["rating"], Value::Null, "a guest has no rating");
    resign_game(&mut g, false).await;
    // A rated room, against the computer: its fixed rating shows.
    let mut host = Browser::new(&server);
    host.session = minh.session.clone();
    let created = host
        .post(
            "/api/rooms",
            json!({"game": "crossyray", "token": "solo-host-token-00001"}),
        )
        .await;
    let code = created.body["code"].as_str().unwrap().to_string();
    let (mut c, _, _) = minh
        .join(&code, Some("solo-host-token-00001"), Some("A"))
        .await;
    c.ok(json!({"type": "autostart", "enabled": false})).await;
    c.ok(json!({"type": "rated", "rated": true})).await;
    c.ok(json!({"type": "sit", "seat": 0})).await;
    c.ok(json!({"type": "computer", "seat": 1, "level": "master"}))
        .await;
    let bot = members_until(&mut c, "Computer (Master)", |m| m["seat"] == 1).await;
    assert_eq!(
        bot["rating"],
        json!({"rating": 1550, "deviation": 0, "games": 0})
    );
    c.ok(json!({"type": "start", "order": "seats"})).await;
    c.next_match().await;
    c.ok(json!({"type": "resign"})).await;
    loop {
        let ev = c.next_match().await;
        if ev["kind"] == "end" {
            break;
        }
    }
    let (_, p) = profile(&server, "Minh", "").await;
    assert_eq!(p["games"][0]["game"], "crossyray");
    assert_eq!(p["games"][0]["played"], 3, "{p}");
    assert_eq!(rating_of(&p, "crossyray"), Value::Null, "{p}");
    let (_, p) = profile(&server, "Lan", "").await;
    assert_eq!(rating_of(&p, "crossyray"), Value::Null, "{p}");
    // Nobody is on the leaderboard; the computer's fixed ratings are.
    let (status, text) = server.get("/api/leaderboard/crossyray").await;
    assert_eq!(status, 200);
    let board: Value = serde_json::from_str(&text).unwrap();
    assert_eq!(board["players"], json!([]));
    assert_eq!(
        board["computers"][3],
        json!({"level": "master", "rating": 1550})
    );
    assert_eq!(server.get("/api/leaderboard/chess").await.0, 400);
}

#[tokio::test]
async fn the_leaderboard_lists_players_with_five_rated_games_best_first() {
    let server = TestServer::start().await;
    let (minh, lan) = minh_and_lan(&server).await;
    let mut d = duel(&server, "jungle", &minh, &lan, json!({})).await;
    d.a.ok(json!({"type": "rated", "rated": true})).await;
    for i in 0..5 {
        assert_eq!(board(&server).await["players"], json!([]), "after {i}");
        resign_game(&mut d, i == 2).await;
    }
    let b = board(&server).await;
    assert_eq!(b["min_games"], 5);
    let players = b["players"].as_array().unwrap();
    assert_eq!(players.len(), 2, "{b}");
    assert_eq!(players[0]["username"], "Minh");
    assert_eq!(players[0]["games"], 5);
    assert_eq!(players[1]["username"], "Lan");
    assert!(players[0]["rating"].as_i64() > players[1]["rating"].as_i64());
    assert!(players[0]["deviation"].as_i64().unwrap() < 350);
    let (status, html) = server.get("/leaderboard").await;
    assert_eq!(status, 200);
    assert!(html.contains("/js/leaderboard.js"));
}
