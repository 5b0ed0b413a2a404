//! What a solo room (a game against the computer, which a guest may
//! create) and the computer seats never become, through the real server:
//! a room where people play each other without an account, or a game of
//! computers only (docs/PROTOCOL.md, "Hosts", `computer`, `start`).

use crate::common;

use std::time::Duration;

use common::browser::Browser;
use common::{member_where, TestServer};
use serde_json::{json, Value};

/// The room as a newcomer's snapshot shows it.
async fn room_of(server: &TestServer, code: &str) -> Value {
    let (c, _, snap) = server.join(code, None, None).await;
    c.close().await;
    snap["room"].clone()
}

#[tokio::test]
async fn a_solo_rooms_host_role_never_moves_and_it_stays_one_person_against_the_computer() {
    let server = TestServer::start_with(|c| {
        c.guest_hosts = false;
        c.host_handover_secs = 1;
    })
    .await;
    // No solo room is created as a tournament or a turn-based game, and
    // nothing is created.
    for options in [json!({"mode": "knockout"}), json!({"days": 1})] {
        let (status, body) = server
            .create_room(json!({"game": "jungle", "options": options, "solo": true}))
            .await;
        assert_eq!(
            (status, &body["error"]),
            (400, &json!("solo_room")),
            "{body}"
        );
        assert!(
            body["message"].as_str().unwrap().contains("computer"),
            "{body}"
        );
        assert!(body.get("code").is_none(), "{body}");
    }
    // A guest's solo room: the guest sits, a signed-in member watches.
    let (code, token) = server
        .new_room(json!({"game": "jungle", "solo": true}))
        .await;
    let (mut host, _, snap) = server.join(&code, Some(&token), Some("A")).await;
    let host_id = snap["you"]["member"].clone();
    // The snapshot says so, for the pages to offer none of the refused.
    assert_eq!(snap["room"]["solo"], true, "{}", snap["room"]);
    host.ok(json!({"type": "sit", "seat": 0})).await;
    let mut b = Browser::new(&server);
    b.register("watcher_b", "password1").await;
    let other = b.post("/api/rooms", json!({"game": "jungle"})).await;
    assert_eq!(other.status, 201, "{}", other.body);
    let other = other.body["code"].as_str().unwrap().to_string();
    let (_, _, snap) = b.join(&other, None, Some("C")).await;
    assert_eq!(snap["room"]["solo"], false, "{}", snap["room"]);
    let (mut watcher, _, snap) = b.join(&code, None, Some("B")).await;
    assert!(snap["you"]["account"].is_string(), "{}", snap["you"]);
    let watcher_id = snap["you"]["member"].clone();
    watcher
        .refused(json!({"type": "sit", "seat": 1}), "not_host")
        .await;
    // The host cannot give the role away, not even to a member who does
    // not exist.
    let why = host
        .refused(json!({"type": "host", "member": watcher_id}), "solo_room")
        .await;
    assert!(why.contains("computer"), "{why}");
    host.refused(json!({"type": "host", "member": "m999"}), "solo_room")
        .await;
    // Nor make the room a tournament, a turn-based game or rated.
    for options in [json!({"mode": "knockout"}), json!({"days": 1})] {
        host.refused(json!({"type": "options", "options": options}), "solo_room")
            .await;
    }
    host.refused(
        json!({"type": "options", "game": "quoridor", "options": {"mode": "knockout"}}),
        "solo_room",
    )
    .await;
    host.refused(json!({"type": "rated", "rated": true}), "solo_room")
        .await;
    // Other options are the host's as in any room.
    host.ok(json!({"type": "rated", "rated": false})).await;
    host.ok(json!({"type": "computer", "seat": 1, "level": "beginner"}))
        .await;
    host.ok(json!({"type": "computer", "seat": 1})).await;
    let room = room_of(&server, &code).await;
    assert_eq!(room["game"], "jungle");
    assert_ne!(room["options"]["mode"], "knockout", "{}", room["options"]);
    assert!(room["options"]["days"].is_null(), "{}", room["options"]);
    assert_eq!(room["rated"], false);
    assert_eq!(member_where(&room, "id", &host_id).unwrap()["host"], true);
    assert_eq!(
        member_where(&room, "id", &watcher_id).unwrap()["host"],
        false
    );

    // The host goes offline: past the hand-over time the role stays
    // theirs, and the signed-in watcher can still only watch.
    host.close().await;
    watcher
        .silent_for("notice", Duration::from_millis(2_500))
        .await;
    watcher
        .refused(json!({"type": "remove", "member": host_id}), "not_host")
        .await;
    watcher
        .refused(
            json!({"type": "computer", "seat": 1, "level": "beginner"}),
            "not_host",
        )
        .await;
    watcher
        .refused(json!({"type": "sit", "seat": 1}), "not_host")
        .await;
    let room = room_of(&server, &code).await;
    let host_now = member_where(&room, "id", &host_id).unwrap();
    assert_eq!(
        (&host_now["host"], &host_now["online"]),
        (&json!(true), &json!(false)),
        "{host_now}"
    );
    assert_eq!(
        member_where(&room, "id", &watcher_id).unwrap()["host"],
        false
    );
}

/// The seat numbers of the computers seated in `room`.
fn computer_seats(room: &Value) -> Vec<u64> {
    let mut seats: Vec<u64> = room["members"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| !m["computer"].is_null())
        .filter_map(|m| m["seat"].as_u64())
        .collect();
    seats.sort_unstable();
    seats
}

#[tokio::test]
async fn no_game_of_computers_only_starts_outside_a_knockout() {
    let server = TestServer::start_with(|c| c.autostart_secs = 2).await;
    // A guest's solo free-for-all: the host seats seven computers, then
    // stands.
    let (code, token) = server
        .new_room(json!({"game": "quoridor", "options": {"players": 8, "size": 13}, "solo": true}))
        .await;
    let (mut host, _, _) = server.join(&code, Some(&token), Some("A")).await;
    host.ok(json!({"type": "sit", "seat": 0})).await;
    for seat in 1..8 {
        host.ok(json!({"type": "computer", "seat": seat, "level": "master"}))
            .await;
    }
    host.ok(json!({"type": "stand"})).await;
    for order in ["seats", "random"] {
        let why = host
            .refused(json!({"type": "start", "order": order}), "not_ready")
            .await;
        assert!(why.contains("person"), "{why}");
    }
    host.silent_for("match", Duration::from_millis(500)).await;
    let room = room_of(&server, &code).await;
    assert!(room["tables"][0]["match"].is_null(), "{}", room["tables"]);
    assert_eq!(computer_seats(&room), (1..8).collect::<Vec<u64>>());
    // The host sits again: the game is theirs against the computers.
    host.ok(json!({"type": "sit", "seat": 0})).await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    assert_eq!(host.next_match().await["kind"], "start");
    host.close().await;

    // Nor does the auto-start countdown start one: two people play, and
    // while the countdown runs the host seats two computers and both
    // people stand.
    let (code, token) = server
        .new_room(json!({"game": "quoridor", "options": {"players": 4}}))
        .await;
    let (mut host, _, _) = server.join(&code, Some(&token), Some("Minh")).await;
    let (mut guest, _, _) = server.join(&code, None, Some("Lan")).await;
    host.ok(json!({"type": "sit", "seat": 0})).await;
    guest.ok(json!({"type": "sit", "seat": 1})).await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    assert_eq!(host.next_match().await["kind"], "start");
    host.ok(json!({"type": "move", "move": "e2"})).await;
    guest.ok(json!({"type": "move", "move": "e8"})).await;
    guest.ok(json!({"type": "resign"})).await;
    let countdown = host.next_of("autostart").await;
    assert!(
        countdown["autostart"]["remaining_ms"].as_u64().is_some(),
        "{countdown}"
    );
    for seat in [2, 3] {
        host.ok(json!({"type": "computer", "seat": seat, "level": "beginner"}))
            .await;
    }
    host.ok(json!({"type": "stand"})).await;
    guest.ok(json!({"type": "stand"})).await;
    // The countdown runs out and is dropped; no game starts.
    host.events.clear();
    let dropped = host.next_of("autostart").await;
    assert!(dropped["autostart"]["remaining_ms"].is_null(), "{dropped}");
    host.silent_for("match", Duration::from_millis(1_000)).await;
    let room = room_of(&server, &code).await;
    assert_eq!(computer_seats(&room), vec![2, 3]);
    let last = &room["tables"][0]["match"];
    assert!(
        last.is_null() || !last["outcome"].is_null(),
        "the last game stays over: {last}"
    );
    // Nor the host's start.
    host.refused(json!({"type": "start"}), "not_ready").await;
}
