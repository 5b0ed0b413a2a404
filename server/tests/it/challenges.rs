//! Challenges over the real HTTP API and sockets: made, listed, accepted
//! (one room with both seated, whose game starts when both say hello),
//! declined, cancelled; every refusal and both caps.

use crate::common;

use common::browser::{Answer, Browser};
use common::TestServer;
use serde_json::{json, Value};
use tokio::task::JoinSet;

/// A registered browser and its browser token.
async fn player(server: &TestServer, username: &str) -> (Browser, String) {
    let mut b = Browser::new(server);
    let body = b.register(username, "password1").await;
    let token = body["token"].as_str().expect("token").to_string();
    (b, token)
}

async fn challenge(b: &mut Browser, token: &str, body: Value) -> Answer {
    let mut body = body;
    body["token"] = json!(token);
    b.post("/api/challenges", body).await
}

fn ids(list: &Value, key: &str) -> Vec<i64> {
    list[key]
        .as_array()
        .expect("list")
        .iter()
        .map(|c| c["id"].as_i64().expect("id"))
        .collect()
}

fn find(list: &Value, key: &str, id: i64) -> Value {
    list[key]
        .as_array()
        .expect("list")
        .iter()
        .find(|c| c["id"] == id)
        .cloned()
        .unwrap_or_else(|| panic!("no challenge {id} in {list}"))
}

#[tokio::test]
async fn a_challenge_is_listed_accepted_and_both_players_sit_in_a_rated_room_that_starts() {
    let server = TestServer::start().await;
    let (mut minh, minh_token) = player(&server, "Minh").await;
    let (mut lan, lan_token) = player(&server, "Lan").await;
    let made = challenge(
        &mut minh,
        &minh_token,
        json!({"to": "lan", "game": "jungle", "options": {}, "rated": true}),
    )
    .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let id = made.body["id"].as_i64().expect("id");

    // Both see it: incoming for Lan, outgoing for Minh.
    let theirs = lan.get("/api/challenges").await;
    assert_eq!(theirs.status, 200, "{}", theirs.body);
    let c = find(&theirs.body, "incoming", id);
    assert_eq!(c["from"]["username"], "Minh");
    assert_eq!(c["to"]["username"], "Lan");
    assert_eq!(c["game"], "jungle");
    assert_eq!(c["rated"], true);
    assert_eq!(c["status"], "open");
    assert_eq!(c["options"]["mode"], "single");
    assert!(c.get("from_token").is_none(), "no token in the list: {c}");
    assert!(!theirs.body.to_string().contains(&minh_token));
    assert!(ids(&theirs.body, "outgoing").is_empty());
    let mine = minh.get("/api/challenges").await;
    assert_eq!(ids(&mine.body, "outgoing"), vec![id]);

    // Only the challenged player accepts.
    let wrong = minh
        .post(
            &format!("/api/challenges/{id}/accept"),
            json!({"token": minh_token}),
        )
        .await;
    assert_eq!(
        (wrong.status, wrong.body["error"].as_str()),
        (404, Some("no_challenge"))
    );
    let accepted = lan
        .post(
            &format!("/api/challenges/{id}/accept"),
            json!({"token": lan_token}),
        )
        .await;
    assert_eq!(accepted.status, 200, "{}", accepted.body);
    let code = accepted.body["code"].as_str().expect("code").to_string();
    // The challenger learns it from the list.
    let mine = minh.get("/api/challenges").await;
    let c = find(&mine.body, "outgoing", id);
    assert_eq!(
        (c["status"].as_str(), c["code"].as_str()),
        (Some("accepted"), Some(code.as_str()))
    );
    // Answered once.
    let again = lan
        .post(&format!("/api/challenges/{id}/decline"), json!({}))
        .await;
    assert_eq!(again.body["error"], "no_challenge");

    // The room: both seated, rated, no game until both are online.
    let (mut a, _, snapshot) = minh.join(&code, Some(&minh_token), None).await;
    assert_eq!(snapshot["room"]["rated"], true, "{snapshot}");
    let members = snapshot["room"]["members"].as_array().expect("members");
    let seated: Vec<(&str, i64)> = members
        .iter()
        .filter_map(|m| Some((m["account"].as_str()?, m["seat"].as_i64()?)))
        .collect();
    assert_eq!(seated.len(), 2, "{members:?}");
    assert!(seated.iter().any(|(n, _)| *n == "Minh") && seated.iter().any(|(n, _)| *n == "Lan"));
    assert_eq!(snapshot["you"]["account"], "Minh");
    let (_b, _, theirs) = lan.join(&code, Some(&lan_token), None).await;
    let start = loop {
        let e = a.recv().await;
        if e["kind"] == "start" {
            break e;
        }
    };
    assert_eq!(start["kind"], "start", "{start}");
    // The last to arrive finds the game under way in its snapshot.
    let id = start["match"]["id"].as_str().expect("match id");
    assert!(theirs.to_string().contains(id), "{theirs}");
    let players = start["match"]["players"].as_array().expect("players");
    assert_eq!(players.len(), 2);
}

#[tokio::test]
async fn decline_and_cancel_are_told_to_the_other_and_an_unrated_challenge_makes_an_unrated_room() {
    let server = TestServer::start().await;
    let (mut minh, minh_token) = player(&server, "Minh").await;
    let (mut lan, lan_token) = player(&server, "Lan").await;
    let body = json!({"to": "Lan", "game": "crossyray", "options": null});
    let one = challenge(&mut minh, &minh_token, body.clone()).await.body["id"]
        .as_i64()
        .unwrap();
    // One open challenge to a player at a time.
    let again = challenge(&mut minh, &minh_token, body.clone()).await;
    assert_eq!(
        (again.status, again.body["error"].as_str()),
        (429, Some("too_many_challenges")),
        "{}",
        again.body
    );
    let d = lan
        .post(&format!("/api/challenges/{one}/decline"), json!({}))
        .await;
    assert_eq!(
        (d.status, d.body["status"].as_str()),
        (200, Some("declined"))
    );
    let two = challenge(&mut minh, &minh_token, body.clone()).await.body["id"]
        .as_i64()
        .unwrap();
    // Only the challenger cancels.
    let c = lan
        .post(&format!("/api/challenges/{two}/cancel"), json!({}))
        .await;
    assert_eq!(c.body["error"], "no_challenge");
    let c = minh
        .post(&format!("/api/challenges/{two}/cancel"), json!({}))
        .await;
    assert_eq!(c.body["status"], "cancelled");
    let three = challenge(&mut minh, &minh_token, body).await.body["id"]
        .as_i64()
        .unwrap();
    let mine = minh.get("/api/challenges").await;
    assert_eq!(find(&mine.body, "outgoing", one)["status"], "declined");
    assert_eq!(find(&mine.body, "outgoing", two)["status"], "cancelled");
    let theirs = lan.get("/api/challenges").await;
    assert_eq!(find(&theirs.body, "incoming", two)["status"], "cancelled");
    assert_eq!(find(&theirs.body, "incoming", three)["rated"], false);
    let code = lan
        .post(
            &format!("/api/challenges/{three}/accept"),
            json!({"token": lan_token}),
        )
        .await
        .body["code"]
        .as_str()
        .expect("code")
        .to_string();
    let (_, _, snapshot) = lan.join(&code, Some(&lan_token), None).await;
    assert_eq!(snapshot["room"]["rated"], false);
}

#[tokio::test]
async fn two_accepts_at_once_make_one_room() {
    let server = TestServer::start().await;
    let (mut minh, minh_token) = player(&server, "Minh").await;
    let (lan, lan_token) = player(&server, "Lan").await;
    let id = challenge(
        &mut minh,
        &minh_token,
        json!({"to": "Lan", "game": "quoridor", "options": {"players": 2}}),
    )
    .await
    .body["id"]
        .as_i64()
        .unwrap();
    let mut set = JoinSet::new();
    for _ in 0..8 {
        let mut b = lan.clone();
        let token = lan_token.clone();
        set.spawn(async move {
            b.post(
                &format!("/api/challenges/{id}/accept"),
                json!({"token": token}),
            )
            .await
        });
    }
    let mut codes = Vec::new();
    let mut refused = 0;
    while let Some(done) = set.join_next().await {
        let a = done.expect("task");
        match a.status {
            200 => codes.push(a.body["code"].as_str().unwrap().to_string()),
            _ => {
                assert_eq!(a.body["error"], "no_challenge", "{}", a.body);
                refused += 1;
            }
        }
    }
    assert_eq!((codes.len(), refused), (1, 7), "{codes:?}");
}

#[tokio::test]
async fn every_bad_challenge_is_refused_with_its_reason_and_changes_nothing() {
    let server = TestServer::start().await;
    let (mut minh, minh_token) = player(&server, "Minh").await;
    let (mut lan, _) = player(&server, "Lan").await;
    let cases = [
        (json!({"to": "Nobody", "game": "jungle"}), 404, "no_player"),
        (
            json!({"to": "MINH", "game": "jungle"}),
            400,
            "self_challenge",
        ),
        (json!({"to": "Lan", "game": "chess"}), 400, "bad_options"),
        (
            json!({"to": "Lan", "game": "jungle", "options": {"mode": "teams"}}),
            400,
            "bad_options",
        ),
        (
            json!({"to": "Lan", "game": "quoridor", "options": {"players": 4}}),
            400,
            "bad_options",
        ),
        (
            json!({"to": "Lan", "game": "crossyray", "options": {"size": "huge"}}),
            400,
            "bad_options",
        ),
        // A start already decided, refused as a room refuses it.
        (
            json!({"to": "Lan", "game": "jungle", "options": {"start": "7/7/7/7/7/7/7/7/7 b 0 1"}}),
            400,
            "bad_options",
        ),
    ];
    for (body, status, code) in cases {
        let a = challenge(&mut minh, &minh_token, body.clone()).await;
        assert_eq!(
            (a.status, a.body["error"].as_str()),
            (status, Some(code)),
            "{body}: {}",
            a.body
        );
        assert!(a.body["message"].as_str().is_some_and(|m| !m.is_empty()));
    }
    // No browser token, a bad body, a guest.
    let a = minh
        .post("/api/challenges", json!({"to": "Lan", "game": "jungle"}))
        .await;
    assert_eq!(a.body["error"], "no_token");
    let a = minh.post("/api/challenges", json!({"to": 5})).await;
    assert_eq!(a.body["error"], "bad_message");
    let mut guest = Browser::new(&server);
    let a = challenge(
        &mut guest,
        &minh_token,
        json!({"to": "Lan", "game": "jungle"}),
    )
    .await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (401, Some("not_signed_in"))
    );
    assert_eq!(guest.get("/api/challenges").await.status, 401);
    for path in [
        "/api/challenges/99999/accept",
        "/api/challenges/x/decline",
        "/api/challenges/1/cancel",
    ] {
        let a = lan.post(path, json!({"token": minh_token})).await;
        assert_eq!(
            (a.status, a.body["error"].as_str()),
            (404, Some("no_challenge")),
            "{path}"
        );
    }
    let theirs = lan.get("/api/challenges").await;
    assert!(ids(&theirs.body, "incoming").is_empty(), "nothing stored");
}

#[tokio::test]
async fn open_challenges_are_capped_per_account_and_per_address() {
    let server = TestServer::start_with(|c| c.register_burst = 0).await;
    let (mut minh, minh_token) = player(&server, "Minh").await;
    let (mut lan, lan_token) = player(&server, "Lan").await;
    let mut others = Vec::new();
    for n in 0..10 {
        let name = format!("Player{n}");
        player(&server, &name).await;
        others.push(name);
    }
    let to = |name: &str| json!({"to": name, "game": "jungle"});
    let mut made = Vec::new();
    for name in &others {
        let a = challenge(&mut minh, &minh_token, to(name)).await;
        assert_eq!(a.status, 201, "{}", a.body);
        made.push(a.body["id"].as_i64().unwrap());
    }
    let a = challenge(&mut minh, &minh_token, to("Lan")).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (429, Some("too_many_challenges"))
    );
    // Cancelling one frees a place.
    minh.post(&format!("/api/challenges/{}/cancel", made[0]), json!({}))
        .await;
    let a = challenge(&mut minh, &minh_token, to(&others[0])).await;
    assert_eq!(a.status, 201, "{}", a.body);
    // 11 spent from this address (the one the open cap refused spends
    // nothing: no challenge was made). Lan, at the same address, has the
    // rest of the hour's 20.
    let mut from_lan = 0;
    loop {
        let a = challenge(&mut lan, &lan_token, to(&others[from_lan])).await;
        if a.status != 201 {
            assert_eq!(
                (a.status, a.body["error"].as_str()),
                (429, Some("too_many_challenges"))
            );
            assert!(
                a.body["message"].as_str().unwrap().contains("address"),
                "{}",
                a.body
            );
            break;
        }
        from_lan += 1;
        assert!(from_lan < 10);
    }
    assert_eq!(from_lan, 20 - 11, "20 an hour from one address");
}

#[tokio::test]
async fn an_account_sends_twenty_challenges_an_hour_from_any_addresses() {
    let server = TestServer::start_with(|c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    let (mut minh, minh_token) = player(&server, "Minh").await;
    player(&server, "Lan").await;
    let mut body = json!({"to": "Lan", "game": "jungle", "token": minh_token});
    // Twenty from twenty addresses, each cancelled to stay under the
    // account's ten open ones.
    for n in 1..=20 {
        let a = challenge_from(&mut minh, &body, n).await;
        assert_eq!(a.status, 201, "challenge {n}: {}", a.body);
        let id = a.body["id"].as_i64().unwrap();
        minh.post(&format!("/api/challenges/{id}/cancel"), json!({}))
            .await;
    }
    // The twenty-first, from a fresh address, is the account's one too many.
    let a = challenge_from(&mut minh, &body, 21).await;
    assert_eq!(
        (a.status, a.body["error"].as_str()),
        (429, Some("too_many_challenges")),
        "{}",
        a.body
    );
    assert!(
        a.body["message"].as_str().unwrap().contains("account"),
        "{}",
        a.body
    );
    // Another account at that address is not held back by it.
    let (mut vy, vy_token) = player(&server, "Vyvy").await;
    body["token"] = json!(vy_token);
    let a = challenge_from(&mut vy, &body, 21).await;
    assert_eq!(a.status, 201, "{}", a.body);
}

/// `POST /api/challenges` with `body` by `b` from the forwarded client
/// address 203.0.113.`n`.
async fn challenge_from(b: &mut Browser, body: &Value, n: usize) -> Answer {
    let from = format!("203.0.113.{n}");
    b.send_with(
        reqwest::Method::POST,
        "/api/challenges",
        Some(body.clone()),
        &[("X-Forwarded-For", from.as_str())],
    )
    .await
}
