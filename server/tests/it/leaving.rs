//! When people leave, through the real server: the host role passes on
//! from a host who stays offline (and stays passed after a restart), and
//! a player whose opponent left sees the countdowns and claims the win or
//! a draw (docs/PROTOCOL.md, "Table manners").

use crate::common;

use std::time::Duration;

use common::{next_match_of, table_of, TestServer};
use serde_json::{json, Value};

#[tokio::test]
async fn an_offline_host_hands_the_room_to_the_seated_guest_and_it_stays_after_a_restart() {
    let server = TestServer::start_with(|c| c.host_handover_secs = 1).await;
    let mut t = table_of(&server, "crossyray", Value::Null).await;
    let (host, guest) = (t.host_member.clone(), t.guest_member.clone());
    t.host.close().await;
    // The offline host is still listed, as the host.
    let listed = loop {
        let members = t.guest.next_of("members").await;
        let listed = members["members"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == host)
            .cloned()
            .expect("the host is listed");
        if listed["online"] == false {
            break listed;
        }
    };
    assert_eq!(listed["host"], true, "{listed}");
    // A second later the role passes on, and everyone is told.
    for c in [&mut t.guest, &mut t.spectator] {
        let notice = c.next_of("notice").await;
        assert_eq!(
            (notice["kind"].clone(), notice["member"].clone()),
            (json!("host"), guest.clone()),
            "{notice}"
        );
        assert_eq!(notice["name"], "Lan");
    }
    // The new host's commands are the host's.
    t.guest
        .ok(json!({"type": "autostart", "enabled": false}))
        .await;
    t.spectator
        .refused(json!({"type": "autostart", "enabled": true}), "not_host")
        .await;

    // After a restart the new host is still the host; the old one is not.
    let code = t.code.clone();
    let (host_token, guest_token) = (t.host_token.clone(), t.guest_token.clone());
    t.guest.close().await;
    t.spectator.close().await;
    let dir = server.stop().await;
    let server = TestServer::start_in(dir, |c| c.host_handover_secs = 1).await;
    let (mut old, _, snap) = server.join(&code, Some(&host_token), None).await;
    assert_eq!(snap["you"]["host"], false, "{}", snap["you"]);
    old.refused(json!({"type": "host", "member": host}), "not_host")
        .await;
    let (mut new, _, snap) = server.join(&code, Some(&guest_token), None).await;
    assert_eq!(snap["you"]["host"], true);
    // The new host gives the role back.
    new.ok(json!({"type": "host", "member": host})).await;
    let notice = old.next_of("notice").await;
    assert_eq!(
        (notice["kind"].clone(), notice["member"].clone()),
        (json!("host"), host.clone())
    );
    new.refused(json!({"type": "host", "member": guest}), "not_host")
        .await;
}

#[tokio::test]
async fn a_jungle_player_whose_opponent_left_sees_the_countdown_and_claims_a_draw() {
    let server = TestServer::start_with(|c| c.claim_secs = 1).await;
    let mut t = table_of(&server, "jungle", Value::Null).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    let table = next_match_of(&mut t.spectator, "start").await["table"].clone();
    t.host
        .refused(json!({"type": "claim", "action": "win"}), "no_claim")
        .await;
    t.guest.close().await;
    for c in [&mut t.host, &mut t.spectator] {
        let away = c.next_of("away").await;
        assert_eq!(away["table"], table);
        assert_eq!(away["away"][0]["side"], 1, "{away}");
        let claim = away["away"][0]["claim_ms"].as_u64().unwrap();
        let abandon = away["away"][0]["abandon_ms"].as_u64().unwrap();
        assert!(
            claim <= 1_000 && abandon > 50_000 && abandon <= 60_000,
            "{away}"
        );
    }
    let early = t
        .host
        .refused(json!({"type": "claim", "action": "draw"}), "no_claim")
        .await;
    assert!(early.contains("claim in"), "{early}");
    t.spectator
        .refused(json!({"type": "claim", "action": "win"}), "no_game")
        .await;
    // A snapshot carries the list too.
    let (_, _, snap) = server.join(&t.code, None, Some("Vy")).await;
    assert_eq!(snap["room"]["tables"][0]["away"][0]["side"], 1);

    tokio::time::sleep(Duration::from_millis(1_100)).await;
    t.host.ok(json!({"type": "claim", "action": "draw"})).await;
    let end = next_match_of(&mut t.spectator, "end").await;
    assert_eq!(
        end["match"]["outcome"],
        json!({"kind": "draw", "reason": "abandon"})
    );
    let (status, body) = server.get(&format!("/api/rooms/{}/games", t.code)).await;
    assert_eq!(status, 200);
    let games: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        games["games"][0]["outcome"],
        json!({"kind": "draw", "reason": "abandon"})
    );
}

#[tokio::test]
async fn a_crossyray_player_claims_the_win_and_a_return_in_time_empties_the_list() {
    let server = TestServer::start_with(|c| c.claim_secs = 1).await;
    let mut t = table_of(&server, "crossyray", Value::Null).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut t.spectator, "start").await;
    t.guest.close().await;
    assert_eq!(t.spectator.next_of("away").await["away"][0]["side"], 1);
    // Back in time: the list empties and the claim waits again.
    let (guest, _, _) = server.join(&t.code, Some(&t.guest_token), None).await;
    assert_eq!(t.spectator.next_of("away").await["away"], json!([]));
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    t.host
        .refused(json!({"type": "claim", "action": "win"}), "no_claim")
        .await;
    guest.close().await;
    t.spectator.next_of("away").await;
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    t.host
        .refused(json!({"type": "claim", "action": "draw"}), "no_draws")
        .await;
    t.host.ok(json!({"type": "claim", "action": "win"})).await;
    let end = next_match_of(&mut t.spectator, "end").await;
    assert_eq!(
        end["match"]["outcome"],
        json!({"kind": "win", "winner": 0, "reason": "abandon"})
    );
}

/// In a Quoridor game of three, a pawn whose player is away and is
/// claimed out leaves the game, which goes on: its side leaves the away
/// list too, and everyone is told (an outside check found the list kept
/// until the next side left).
#[tokio::test]
async fn a_pawn_claimed_out_of_a_game_that_goes_on_leaves_the_away_list() {
    let server = TestServer::start_with(|c| c.claim_secs = 1).await;
    let (status, room) = server
        .create_room(json!({"game": "quoridor", "options": {"players": 3}}))
        .await;
    assert_eq!(status, 201, "{room}");
    let code = room["code"].as_str().unwrap().to_string();
    let (mut host, _, _) = server
        .join(&code, room["token"].as_str(), Some("Minh"))
        .await;
    let (mut second, _, _) = server.join(&code, None, Some("Lan")).await;
    let (third, _, _) = server.join(&code, None, Some("Khoa")).await;
    let mut third = third;
    host.ok(json!({"type": "sit", "seat": 0})).await;
    second.ok(json!({"type": "sit", "seat": 1})).await;
    third.ok(json!({"type": "sit", "seat": 2})).await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut second, "start").await;
    host.ok(json!({"type": "move", "move": "e2"})).await;
    third.close().await;
    for c in [&mut host, &mut second] {
        let away = c.next_of("away").await;
        assert_eq!(away["away"][0]["side"], 2, "{away}");
    }
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    // Side 1 is due: it claims side 2 out.
    second.ok(json!({"type": "claim", "action": "win"})).await;
    let forfeit = next_match_of(&mut host, "forfeit").await;
    assert_eq!(
        forfeit["match"]["state"]["pawns"][2],
        Value::Null,
        "{forfeit}"
    );
    let away = host.next_of("away").await;
    assert_eq!(away["away"], json!([]), "{away}");
    assert_eq!(second.next_of("away").await["away"], json!([]));
}

/// A Quoridor team of a person and a computer is away once its person
/// left (the computer does not keep it in): after the claim time the
/// other team claims the win, and the mixed team leaves with reason
/// `abandon`; before it, the claim says how long to wait.
#[tokio::test]
async fn a_team_left_with_only_its_computer_may_be_claimed_out() {
    let server = TestServer::start_with(|c| {
        c.claim_secs = 1;
        c.bot_ms = 30;
    })
    .await;
    let (status, room) = server
        .create_room(json!({"game": "quoridor", "options": {"mode": "teams"}}))
        .await;
    assert_eq!(status, 201, "{room}");
    let code = room["code"].as_str().unwrap().to_string();
    let (mut minh, _, _) = server
        .join(&code, room["token"].as_str(), Some("Minh"))
        .await;
    let (mut lan, _, _) = server.join(&code, None, Some("Lan")).await;
    // Red: Lan alone; Yellow: Minh (seat 4) and a computer (seat 5).
    lan.ok(json!({"type": "sit", "seat": 0})).await;
    minh.ok(json!({"type": "sit", "seat": 4})).await;
    minh.ok(json!({"type": "computer", "seat": 5, "level": "beginner"}))
        .await;
    minh.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut lan, "start").await;
    lan.ok(json!({"type": "move", "move": "e2"})).await;
    minh.ok(json!({"type": "move", "move": "e8"})).await;
    lan.refused(json!({"type": "claim", "action": "win"}), "no_claim")
        .await;
    // Minh leaves; his computer is still seated for Yellow.
    minh.close().await;
    let away = lan.next_of("away").await;
    assert_eq!(away["away"].as_array().unwrap().len(), 1, "{away}");
    assert_eq!(away["away"][0]["side"], 1, "{away}");
    let early = lan
        .refused(json!({"type": "claim", "action": "win"}), "no_claim")
        .await;
    assert!(early.contains("claim in"), "{early}");
    // Yellow's computer plays its own turn meanwhile.
    lan.ok(json!({"type": "move", "move": "e3"})).await;
    let moved = loop {
        let event = next_match_of(&mut lan, "move").await;
        if event["match"]["ply"] == 4 {
            break event;
        }
    };
    assert_eq!(moved["side"], 1, "{moved}");
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    lan.refused(json!({"type": "claim", "action": "draw"}), "no_draws")
        .await;
    lan.ok(json!({"type": "claim", "action": "win"})).await;
    let end = next_match_of(&mut lan, "end").await;
    assert_eq!(
        end["match"]["outcome"],
        json!({"kind": "win", "winner": 0, "reason": "default"})
    );
    let (status, body) = server.get(&format!("/api/rooms/{code}/games")).await;
    assert_eq!(status, 200, "{body}");
    let games: Value = serde_json::from_str(&body).unwrap();
    let id = games["games"][0]["id"].as_str().unwrap().to_string();
    let (_, body) = server.get(&format!("/api/games/{id}")).await;
    let game: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        game["leaves"],
        json!([{"ply": 4, "sides": [1], "reason": "abandon"}]),
        "{game}"
    );
}
