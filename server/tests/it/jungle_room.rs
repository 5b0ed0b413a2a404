//! Jungle rooms through the real server: two people, a spectator, and the
//! computer in a seat, every move checked by the rules crate.

use crate::common;

use std::time::Duration;

use common::{next_match_of, table_of, Client, TestServer};
use rules::jungle::{Jungle, Move};
use rules::Game;
use serde_json::{json, Value};

/// A Jungle room with the host (named Minh) seated at `host_seat` and the
/// computer at `level` in the other seat. Returns the host's client and
/// the room code.
async fn solo(server: &TestServer, host_seat: usize, level: &str) -> (Client, String) {
    let (code, token) = server
        .new_room(json!({"game": "jungle", "options": null}))
        .await;
    let (mut host, _, snap) = server.join(&code, Some(&token), Some("Minh")).await;
    assert_eq!(snap["room"]["game"], "jungle");
    assert_eq!(snap["room"]["seats"], 2);
    host.ok(json!({"type": "sit", "seat": host_seat})).await;
    host.ok(json!({"type": "computer", "seat": 1 - host_seat, "level": level}))
        .await;
    (host, code)
}

/// [`solo`], and the game started in seat order: the host's client and
/// the `start` match event.
async fn solo_started(server: &TestServer, host_seat: usize, level: &str) -> (Client, Value) {
    let (mut host, _) = solo(server, host_seat, level).await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = host.next_match().await;
    assert_eq!(start["kind"], "start");
    (host, start)
}

fn legal_of(m: &Value) -> Vec<String> {
    m["legal"]
        .as_array()
        .expect("legal list")
        .iter()
        .map(|v| v.as_str().unwrap().to_string())
        .collect()
}

#[tokio::test]
async fn two_people_play_jungle_moves_and_a_spectator_sees_them() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "jungle", json!({"clock": [3, 2]})).await;
    // Fixed order: the host's seat 0 plays Blue (side 0), who moves first.
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = t.host.next_match().await;
    assert_eq!(start["kind"], "start");
    let m = &start["match"];
    assert_eq!(m["players"][0]["member"], t.host_member);
    assert_eq!(m["players"][1]["member"], t.guest_member);
    assert_eq!(m["players"][0]["computer"], Value::Null);
    assert_eq!(m["state"]["pieces"].as_array().unwrap().len(), 16);
    assert_eq!(m["state"]["to_move"], 0);
    assert_eq!(legal_of(m).len(), 24);
    // The running side's time is as of sending: a millisecond may have gone.
    let left = m["clock"]["remaining_ms"].clone();
    assert_eq!(left[1], 180_000, "{left}");
    assert!(
        (179_900..=180_000).contains(&left[0].as_u64().unwrap()),
        "{left}"
    );
    for other in [&mut t.guest, &mut t.spectator] {
        assert_eq!(other.next_match().await["kind"], "start");
    }

    // Elephants walk, then Blue's elephant takes nothing yet; Red's rat
    // steps; each move checked against the rules crate's own game.
    let line = ["8 a3-a4", "8 g7-g6", "8 a4-a5", "1 a7-a6", "6 a1-a2"];
    let mut shadow = Jungle::start();
    for (ply, mv) in line.iter().enumerate() {
        let parsed: Move = mv.parse().unwrap();
        shadow.play(&parsed).expect("the line is legal");
        let (mover, waiter) = if ply % 2 == 0 {
            (&mut t.host, &mut t.guest)
        } else {
            (&mut t.guest, &mut t.host)
        };
        mover.ok(json!({"type": "move", "move": mv})).await;
        for player in [mover, waiter] {
            let event = player.next_match().await;
            assert_eq!(event["kind"], "move");
            assert_eq!(event["move"], *mv);
            assert_eq!(event["side"], json!(ply % 2));
        }
        let watched = t.spectator.next_match().await;
        assert_eq!(watched["move"], *mv);
        assert_eq!(watched["match"]["state"]["last_move"], *mv);
        assert_eq!(
            watched["match"]["state"]["position"],
            shadow.position_string()
        );
        let expected: Vec<String> = shadow.legal_moves().iter().map(|m| m.to_string()).collect();
        assert_eq!(legal_of(&watched["match"]), expected);
    }

    // The guest (Red) resigns: Blue wins, the scoreboard says so.
    t.guest.ok(json!({"type": "resign"})).await;
    let end = t.spectator.next_match().await;
    assert_eq!(end["kind"], "end");
    assert_eq!(
        end["match"]["outcome"],
        json!({"kind": "win", "winner": 0, "reason": "resign"})
    );
    assert_eq!(end["match"]["moves"], json!(line));
    let scores = t.spectator.next_of("scores").await;
    assert_eq!(scores["scores"][0]["name"], "Minh");
}

#[tokio::test]
async fn an_illegal_jungle_move_is_refused_and_changes_nothing() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "jungle", Value::Null).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = t.host.next_match().await;
    let v = start["v"].as_i64().unwrap();
    // Only the rat may enter the water; a wolf may not.
    let why = t
        .host
        .refused(json!({"type": "move", "move": "4 c3-c4"}), "illegal_move")
        .await;
    assert!(!why.is_empty());
    // Red's piece, moved by Blue; and text that is no move at all.
    t.host
        .refused(json!({"type": "move", "move": "8 g7-g6"}), "illegal_move")
        .await;
    t.host
        .refused(json!({"type": "move", "move": "e5"}), "illegal_move")
        .await;
    // Blue's first move with a space around it is unreadable (RULES.md).
    for text in [" 8 a3-a4", "8 a3-a4 "] {
        t.host
            .refused(json!({"type": "move", "move": text}), "illegal_move")
            .await;
    }
    // Red may not move on Blue's turn.
    t.guest
        .refused(json!({"type": "move", "move": "8 g7-g6"}), "not_your_turn")
        .await;

    // Nothing changed: a newcomer's snapshot is the untouched start, and
    // the next legal move is the very next version.
    let (_newcomer, _, snap) = server.join(&t.code, None, None).await;
    let m = &snap["room"]["tables"][0]["match"];
    assert_eq!(m["moves"], json!([]));
    assert_eq!(m["state"]["to_move"], 0);
    assert_eq!(m["state"]["position"], Jungle::start().position_string());
    t.host.ok(json!({"type": "move", "move": "8 a3-a4"})).await;
    let moved = t.host.next_match().await;
    assert_eq!(moved["kind"], "move");
    // Joining added one `members` event; the refusals added none.
    assert_eq!(moved["v"].as_i64().unwrap(), v + 2);
}

#[tokio::test]
async fn the_computer_answers_a_move_with_a_legal_move() {
    let server = TestServer::start_with(|c| c.bot_ms = 40).await;
    let (mut host, code) = solo(&server, 0, "beginner").await;
    // The last `members` event (after `computer`) shows it seated.
    let computer = loop {
        let members = host.next_of("members").await;
        if let Some(c) = members["members"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["seat"] == 1)
        {
            break c.clone();
        }
    };
    assert_eq!(computer["computer"], "beginner");
    assert_eq!(computer["online"], true);
    assert_eq!(computer["name"], "Computer (Beginner)");

    // A spectator watches; the computer is no spectator.
    let (mut watcher, _, snap) = server.join(&code, None, Some("Khoa")).await;
    assert_eq!(snap["room"]["spectators"], 1);

    host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = host.next_match().await;
    assert_eq!(start["match"]["players"][1]["computer"], "beginner");
    let mut shadow = Jungle::start();
    for preferred in ["8 a3-a4", "8 a4-a5", "6 a1-a2"] {
        // The preferred move if the computer's answers left it legal.
        let legal: Vec<String> = shadow.legal_moves().iter().map(|m| m.to_string()).collect();
        let mv = if legal.iter().any(|m| m == preferred) {
            preferred.to_string()
        } else {
            legal[0].clone()
        };
        host.ok(json!({"type": "move", "move": mv})).await;
        let mine = host.next_match().await;
        assert_eq!(mine["kind"], "move");
        assert_eq!(mine["side"], 0);
        shadow.play(&mv.parse().unwrap()).unwrap();
        let legal_for_red = legal_of(&mine["match"]);
        let answer = host.next_match().await;
        assert_eq!(answer["kind"], "move", "{answer}");
        assert_eq!(answer["side"], 1);
        let reply = answer["move"].as_str().unwrap();
        assert!(legal_for_red.iter().any(|m| m == reply), "{reply} is legal");
        shadow.play(&reply.parse().unwrap()).unwrap();
        assert_eq!(answer["match"]["state"]["to_move"], 0);
        assert_eq!(
            answer["match"]["state"]["position"],
            shadow.position_string()
        );
    }
    // The spectator saw the computer's moves too.
    let seen = watcher.next_match().await;
    assert_eq!(seen["kind"], "start");
    let seen = watcher.next_match().await;
    assert_eq!(seen["move"], "8 a3-a4");
    let seen = watcher.next_match().await;
    assert_eq!(seen["side"], 1);
}

#[tokio::test]
async fn the_computer_moves_first_when_it_holds_blue_with_fixed_order() {
    let server = TestServer::start_with(|c| c.bot_ms = 40).await;
    let (mut host, start) = solo_started(&server, 1, "amateur").await;
    assert_eq!(start["match"]["players"][0]["computer"], "amateur");
    assert_eq!(start["match"]["players"][1]["name"], "Minh");
    let first = host.next_match().await;
    assert_eq!(first["kind"], "move");
    assert_eq!(first["side"], 0);
    let mv = first["move"].as_str().unwrap();
    assert!(legal_of(&start["match"]).iter().any(|m| m == mv), "{mv}");
    assert_eq!(first["match"]["state"]["to_move"], 1);
    // Now it is the person's turn, and the computer waits.
    host.silent_for("match", Duration::from_millis(300)).await;
    let reply = legal_of(&first["match"])[0].clone();
    host.ok(json!({"type": "move", "move": reply})).await;
}

/// The command that puts the computer, at `level`, in `seat`.
fn computer(seat: u32, level: &str) -> Value {
    json!({"type": "computer", "seat": seat, "level": level})
}

#[tokio::test]
async fn computer_is_refused_for_non_hosts_and_on_a_person() {
    let server = TestServer::start().await;
    let mut j = table_of(&server, "jungle", Value::Null).await;
    j.guest.ok(json!({"type": "stand"})).await;
    j.guest.refused(computer(1, "master"), "not_host").await;
    // The host may not put the computer on a person.
    for (command, code) in [
        (computer(0, "master"), "no_seat"),
        (computer(2, "master"), "no_seat"),
        (json!({"type": "computer", "seat": 1}), "no_seat"),
        (computer(1, "grandmaster"), "bad_message"),
    ] {
        j.host.refused(command, code).await;
    }
    // The computer never takes every seat.
    j.host.ok(json!({"type": "stand"})).await;
    j.host.ok(computer(0, "master")).await;
    j.host.refused(computer(1, "master"), "no_seat").await;
    j.host.ok(computer(0, "beginner")).await;
    j.host.ok(json!({"type": "computer", "seat": 0})).await;
    j.host.ok(json!({"type": "sit", "seat": 0})).await;
    // Seated, re-levelled, then taken out again.
    for level in [json!("master"), json!("professional"), Value::Null] {
        j.host
            .ok(json!({"type": "computer", "seat": 1, "level": level}))
            .await;
    }
    let (_, _, snap) = server.join(&j.code, None, None).await;
    let members = snap["room"]["members"].as_array().unwrap();
    assert!(
        members.iter().all(|m| m["computer"].is_null()),
        "{members:?}"
    );
    assert!(members.iter().all(|m| m["seat"] != 1));
}

#[tokio::test]
async fn the_host_switches_the_room_between_games() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "crossyray", Value::Null).await;
    t.host
        .ok(json!({"type": "options", "game": "jungle", "options": {"clock": [5, 3]}}))
        .await;
    let event = t.spectator.next_of("options").await;
    assert_eq!(event["game"], "jungle");
    assert_eq!(
        event["options"]["clock"],
        json!({"minutes": 5, "increment": 3})
    );
    // Nobody left their seat: the Jungle game starts at once.
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = t.host.next_match().await;
    assert_eq!(
        start["match"]["state"]["pieces"].as_array().unwrap().len(),
        16
    );
    t.host.ok(json!({"type": "resign"})).await;

    // Bad options for the new game change nothing.
    t.host
        .refused(
            json!({"type": "options", "game": "jungle", "options": {"clock": [1, 0]}}),
            "bad_options",
        )
        .await;
    t.host
        .refused(
            json!({"type": "options", "game": "chess", "options": null}),
            "bad_options",
        )
        .await;
    t.guest
        .refused(
            json!({"type": "options", "game": "crossyray", "options": null}),
            "not_host",
        )
        .await;

    // The computer seated in Jungle stays for CrossyRay: every game has
    // one.
    t.guest.ok(json!({"type": "stand"})).await;
    t.host
        .ok(json!({"type": "computer", "seat": 1, "level": "beginner"}))
        .await;
    t.host
        .ok(json!({"type": "options", "game": "crossyray", "options": {"width": 9, "height": 7}}))
        .await;
    let (_, _, snap) = server.join(&t.code, None, None).await;
    assert_eq!(snap["room"]["game"], "crossyray");
    let members = snap["room"]["members"].as_array().unwrap();
    let computer = members.iter().find(|m| !m["computer"].is_null());
    assert_eq!(
        computer.map(|m| (&m["seat"], &m["computer"])),
        Some((&json!(1), &json!("beginner"))),
        "{members:?}"
    );
    let (status, body) = server.get(&format!("/api/rooms/{}", t.code)).await;
    assert_eq!(status, 200);
    assert!(body.contains("\"game\":\"crossyray\""), "{body}");
}

#[tokio::test]
async fn a_resignation_while_the_computer_thinks_ends_the_game_and_its_late_move_is_ignored() {
    // Master with a long budget: it is surely still thinking when the
    // resignation arrives.
    let server = TestServer::start_with(|c| c.bot_ms = 5_000).await;
    let (mut host, _) = solo_started(&server, 0, "master").await;
    host.ok(json!({"type": "move", "move": "8 a3-a4"})).await;
    assert_eq!(host.next_match().await["kind"], "move");
    // Resign and start the next game at once, in one burst: a late
    // result from the first game's search must not become a move in the
    // second (where it is the person's turn).
    host.send_text(json!({"id": 100, "type": "resign"}).to_string())
        .await;
    host.send_text(json!({"id": 101, "type": "start", "order": "seats"}).to_string())
        .await;
    assert_eq!(host.answer(Some(100)).await["type"], "ack");
    assert_eq!(host.answer(Some(101)).await["type"], "ack");
    let end = host.next_match().await;
    assert_eq!(end["kind"], "end");
    assert_eq!(
        end["match"]["outcome"],
        json!({"kind": "win", "winner": 1, "reason": "resign"})
    );
    assert_eq!(end["match"]["moves"], json!(["8 a3-a4"]));
    let again = host.next_match().await;
    assert_eq!(again["kind"], "start");
    assert_eq!(again["match"]["number"], 2);
    // No move from the cancelled search, in either game.
    host.silent_for("match", Duration::from_millis(1_500)).await;
    host.ok(json!({"type": "move", "move": "8 a3-a4"})).await;
    let mine = host.next_match().await;
    assert_eq!(mine["move"], "8 a3-a4");
    assert_eq!(mine["match"]["ply"], 1, "the first move of game 2: {mine}");
    assert_eq!(mine["match"]["id"], again["match"]["id"]);
}

/// A game against the computer does not start again by itself: no
/// countdown after it ends, and the host's `start` plays again.
#[tokio::test]
async fn a_game_against_the_computer_waits_for_play_again() {
    let server = TestServer::start_with(|c| c.autostart_secs = 1).await;
    let (mut host, _) = solo_started(&server, 0, "beginner").await;
    host.ok(json!({"type": "resign"})).await;
    let end = host.next_match().await;
    assert_eq!(end["kind"], "end", "{end}");
    // Auto-start is on, with a 1 s countdown for games between people.
    host.silent_for("autostart", Duration::from_millis(2_000))
        .await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    let again = host.next_match().await;
    assert_eq!(again["kind"], "start");
    assert_eq!(again["match"]["number"], 2);
}

/// The auto-start countdown only starts a live game at the room's
/// table: options that make the next game a knockout tournament or a
/// turn-based game cancel it (an `autostart` event with `remaining_ms`
/// null, after `options` and `members`), and when its time would have
/// run out nothing starts; the host's `start` still does. An outside
/// check found the countdown starting a tournament (after a computer
/// sat down as its third entrant) and a turn-based game by itself.
#[tokio::test]
async fn options_for_a_tournament_or_a_turn_based_game_cancel_the_countdown() {
    let server = TestServer::start_with(|c| c.autostart_secs = 2).await;
    for options in [json!({"mode": "knockout"}), json!({"days": 1})] {
        let mut t = table_of(&server, "jungle", Value::Null).await;
        t.host.ok(json!({"type": "start", "order": "seats"})).await;
        next_match_of(&mut t.spectator, "start").await;
        t.guest.ok(json!({"type": "resign"})).await;
        next_match_of(&mut t.spectator, "end").await;
        let countdown = t.spectator.next_of("autostart").await;
        assert!(
            countdown["autostart"]["remaining_ms"].as_u64().is_some(),
            "{countdown}"
        );
        // What the host was sent up to the countdown is read and dropped.
        t.host.next_of("autostart").await;
        t.host.events.clear();
        t.host
            .ok(json!({"type": "options", "options": options}))
            .await;
        let order: Vec<&str> = t
            .host
            .events
            .iter()
            .filter_map(|e| e["type"].as_str())
            .collect();
        assert_eq!(order, ["options", "members", "autostart"], "{options}");
        let cancelled = t.host.latest("autostart").unwrap();
        assert_eq!(cancelled["autostart"]["remaining_ms"], Value::Null);
        assert_eq!(cancelled["autostart"]["enabled"], true);
        let knockout = options["mode"] == "knockout";
        if knockout {
            // The tournament's third entrant.
            t.host
                .ok(json!({"type": "computer", "seat": 2, "level": "beginner"}))
                .await;
        }
        // Past the countdown's end: nothing started by itself.
        t.spectator.events.clear();
        t.spectator
            .silent_for("match", Duration::from_millis(3_000))
            .await;
        assert!(t.spectator.latest("tournament").is_none(), "{options}");
        let (_, _, snap) = server.join(&t.code, None, Some("Vy")).await;
        assert_eq!(snap["room"]["autostart"]["remaining_ms"], Value::Null);
        assert_eq!(snap["room"]["tables"][0]["match"]["number"], 1);
        // The host's `start` starts it.
        t.host.ok(json!({"type": "start", "order": "seats"})).await;
        let start = next_match_of(&mut t.spectator, "start").await;
        if knockout {
            assert!(t.spectator.latest("tournament").is_some(), "{start}");
        } else {
            assert_eq!(start["match"]["days"], 1, "{start}");
        }
    }
}

/// A start position already decided would begin a game that is over
/// before its first move (never stored, scored or followed by anything,
/// and a tournament's match that never ends): refused, as a room's
/// options and as the host's `options`, in single and knockout rooms.
#[tokio::test]
async fn a_start_position_already_decided_is_refused() {
    let server = TestServer::start().await;
    let decided = [
        ("4l2/7/7/7/7/7/7/7/3e3 b 0 1", "den"),
        ("7/7/7/7/7/7/7/7/7 b 0 1", "no_moves"),
        ("4l2/7/7/7/7/7/7/7/6L b 100 1", "no_capture"),
    ];
    for (start, reason) in decided {
        for mode in ["single", "knockout"] {
            let (status, body) = server
                .create_room(json!({"game": "jungle", "options": {"mode": mode, "start": start}}))
                .await;
            assert_eq!(status, 400, "{start} {mode}: {body}");
            assert_eq!(body["error"], "bad_options", "{body}");
            assert!(body["message"].as_str().unwrap().contains(reason), "{body}");
        }
    }
    // A position one move from the end is a game.
    let (code, token) = server
        .new_room(json!({"game": "jungle", "options": {"start": "4l2/7/7/7/7/7/7/3E3/7 b 0 1"}}))
        .await;
    let (mut host, _, _) = server.join(&code, Some(&token), Some("Minh")).await;
    let msg = host
        .refused(
            json!({"type": "options", "options": {"start": decided[0].0}}),
            "bad_options",
        )
        .await;
    assert!(msg.contains("den"), "{msg}");
}
