//! Takebacks through the real server, in every game: asked, seen by
//! everyone, accepted, and still taken back after a restart (the step is
//! stored like a move); a declined one changes nothing.

use crate::common;

use std::time::Duration;

use common::process::Proc;
use common::{next_match_of, table_of, Table, TestServer};
use serde_json::{json, Value};

/// Both players' first moves in each game.
const OPENINGS: [(&str, [&str; 2]); 3] = [
    ("crossyray", ["f4", "h4"]),
    ("quoridor", ["e2", "e8"]),
    ("jungle", ["8 a3-a4", "8 g7-g6"]),
];

async fn started(server: &TestServer, game: &str) -> Table {
    let mut t = table_of(server, game, Value::Null).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut t.spectator, "start").await;
    t
}

#[tokio::test]
async fn a_takeback_accepted_in_every_game_survives_a_restart() {
    let server = TestServer::start().await;
    let mut rooms = Vec::new();
    for (game, [first, reply]) in OPENINGS {
        let mut t = started(&server, game).await;
        t.host.ok(json!({"type": "move", "move": first})).await;
        t.guest.ok(json!({"type": "move", "move": reply})).await;
        t.host
            .ok(json!({"type": "takeback", "action": "offer"}))
            .await;
        let asked = t.guest.next_of("takeback").await;
        assert_eq!(
            (asked["kind"].clone(), asked["side"].clone()),
            (json!("offer"), json!(0)),
            "{game}: {asked}"
        );
        assert_eq!(asked["member"], t.host_member);
        t.guest
            .ok(json!({"type": "takeback", "action": "accept"}))
            .await;
        let back = next_match_of(&mut t.spectator, "takeback").await;
        assert_eq!(back["match"]["moves"], json!([]), "{game}: {back}");
        assert_eq!(back["match"]["takeback_offer"], Value::Null);
        assert_eq!(back["match"]["to_play"], t.host_member);
        // The game goes on from there: the same first move is legal again.
        t.host.ok(json!({"type": "move", "move": first})).await;
        rooms.push((game, t.code.clone(), t.host_token.clone(), first));
    }
    let dir = server.stop().await;
    let server = TestServer::start_in(dir, |_| {}).await;
    for (game, code, token, first) in rooms {
        let (mut host, _, snap) = server.join(&code, Some(&token), None).await;
        let m = &snap["room"]["tables"][0]["match"];
        assert_eq!(m["moves"], json!([first]), "{game}: {m}");
        assert_eq!(m["move_sides"], json!([0]));
        // The finished game keeps the moves that stood and those taken back.
        host.ok(json!({"type": "resign"})).await;
        let (_, list) = server.get(&format!("/api/rooms/{code}/games")).await;
        let list: Value = serde_json::from_str(&list).unwrap();
        let id = list["games"][0]["id"].as_str().unwrap().to_string();
        let (status, body) = server.get(&format!("/api/games/{id}")).await;
        assert_eq!(status, 200);
        let record: Value = serde_json::from_str(&body).unwrap();
        let (_, [_, reply]) = OPENINGS.iter().find(|(g, _)| *g == game).unwrap();
        assert_eq!(record["moves"], json!([first]), "{game}");
        assert_eq!(
            record["takebacks"],
            json!([{"ply": 0, "moves": [first, reply]}]),
            "{game}"
        );
    }
}

#[tokio::test]
async fn a_declined_takeback_changes_nothing_and_answers_are_checked() {
    let server = TestServer::start().await;
    let mut t = started(&server, "jungle").await;
    t.host
        .refused(
            json!({"type": "takeback", "action": "offer"}),
            "no_takeback",
        )
        .await;
    t.host.ok(json!({"type": "move", "move": "8 a3-a4"})).await;
    t.guest
        .refused(json!({"type": "takeback", "action": "accept"}), "no_offer")
        .await;
    t.spectator
        .refused(json!({"type": "takeback", "action": "offer"}), "no_game")
        .await;
    t.host
        .ok(json!({"type": "takeback", "action": "offer"}))
        .await;
    t.guest
        .ok(json!({"type": "takeback", "action": "decline"}))
        .await;
    let declined = loop {
        let e = t.spectator.next_of("takeback").await;
        if e["kind"] == "decline" {
            break e;
        }
    };
    assert_eq!(declined["side"], 1);
    t.host
        .refused(
            json!({"type": "takeback", "action": "offer"}),
            "no_takeback",
        )
        .await;
    let (_, _, snap) = server.join(&t.code, None, Some("Vy")).await;
    assert_eq!(
        snap["room"]["tables"][0]["match"]["moves"],
        json!(["8 a3-a4"])
    );
    assert_eq!(
        snap["room"]["tables"][0]["match"]["takeback_offer"],
        Value::Null
    );
}

/// With a Quoridor turn timer the side to move after a takeback gets a
/// fresh turn, also when it was to move already (two plies back): an
/// outside check found its half-spent turn kept, the flag falling 30 s
/// later. A server process of its own: the test clock is the process's.
#[tokio::test]
async fn a_takeback_gives_the_side_to_move_a_fresh_quoridor_turn() {
    let p = Proc::launch_with(tempfile::tempdir().unwrap(), &["--test-clock"]).await;
    let server = p.s();
    let mut t = table_of(server, "quoridor", json!({"turn_seconds": 60})).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut t.spectator, "start").await;
    t.host.ok(json!({"type": "move", "move": "e2"})).await;
    t.guest.ok(json!({"type": "move", "move": "e8"})).await;
    // Half of Red's turn goes by.
    let (status, body) = server
        .post("/api/test/clock", json!({"advance_ms": 30_000}))
        .await;
    assert_eq!(status, 200, "{body}");
    let (_, _, snap) = server.join(&t.code, None, Some("Vy")).await;
    let clock = &snap["room"]["tables"][0]["match"]["clock"];
    assert_eq!(clock["running"], 0, "{clock}");
    assert!(
        clock["remaining_ms"][0].as_u64().unwrap() <= 30_500,
        "{clock}"
    );
    // Red takes its move back; with Yellow's answer, Red is to move again.
    t.host
        .ok(json!({"type": "takeback", "action": "offer"}))
        .await;
    t.guest
        .ok(json!({"type": "takeback", "action": "accept"}))
        .await;
    let back = next_match_of(&mut t.spectator, "takeback").await;
    let m = &back["match"];
    assert_eq!(m["moves"], json!([]), "{back}");
    assert_eq!(m["to_play"], t.host_member);
    assert_eq!(m["clock"]["running"], 0, "{back}");
    let red = m["clock"]["remaining_ms"][0].as_u64().unwrap();
    assert!((59_000..=60_000).contains(&red), "a fresh turn: {back}");
    // The flag does not fall when the old turn would have ended.
    server
        .post("/api/test/clock", json!({"advance_ms": 31_000}))
        .await;
    t.spectator
        .silent_for("match", Duration::from_millis(1_000))
        .await;
    t.host.ok(json!({"type": "move", "move": "e2"})).await;
}
