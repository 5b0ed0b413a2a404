//! Durable rooms: what survives a crash (`kill -9` of the real binary), a
//! SIGTERM, an idle unload and a restart: members, seats, host, chat,
//! the scoreboard, clocks and the game in progress, game numbers; and what
//! must never be stored (plaintext tokens).

use crate::common;

use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

use common::browser::Browser;
use common::process::Proc;
use common::{follow, keep_going, local_game, member, next_match_of, table_of, TestServer};
use serde_json::{json, Value};
use server::games::AnyGame;
use server::store::Store;

// ---------------------------------------------------------------------
// Shared helpers.

/// The match of a snapshot (the room's first table).
fn match_of(snapshot: &Value) -> &Value {
    &snapshot["room"]["tables"][0]["match"]
}

fn texts(chat: &Value) -> Vec<(String, String)> {
    chat.as_array()
        .expect("chat list")
        .iter()
        .map(|line| {
            (
                line["from"].as_str().expect("from").to_string(),
                line["text"].as_str().expect("text").to_string(),
            )
        })
        .collect()
}

/// The side (0/1) `member` plays in `m`.
fn side_of(m: &Value, member: &Value) -> u64 {
    m["players"]
        .as_array()
        .unwrap()
        .iter()
        .position(|p| p["member"] == *member)
        .unwrap_or_else(|| panic!("{member} plays in {m}")) as u64
}

// ---------------------------------------------------------------------
// 1. Crash (kill -9) and recovery, for each game.

/// Plays 10 moves of `game`, kills the server with SIGKILL, starts it again
/// on the same folder and checks everything came back; then finishes the
/// game, starts game 2, crashes again, and reads the stored history.
async fn crash_and_recover(game: &str, options: Value, resign_reason: &str) {
    let p = Proc::launch(tempfile::tempdir().expect("temp dir")).await;
    let (status, room) = p
        .s()
        .create_room(json!({"game": game, "options": options}))
        .await;
    assert_eq!(status, 201, "{room}");
    let code = room["code"].as_str().unwrap().to_string();
    let host_token = room["token"].as_str().unwrap().to_string();
    let (mut host, _, snap) = p.s().join(&code, Some(&host_token), Some("Minh")).await;
    assert_eq!(snap["you"]["host"], true);
    let host_member = snap["you"]["member"].clone();
    let room_options = snap["room"]["options"].clone();
    let (mut guest, guest_token, snap) = p.s().join(&code, None, Some("Lan")).await;
    let guest_member = snap["you"]["member"].clone();
    let (mut spectator, spectator_token, snap) = p.s().join(&code, None, Some("Khoa")).await;
    let spectator_member = snap["you"]["member"].clone();
    host.ok(json!({"type": "sit", "seat": 0})).await;
    guest.ok(json!({"type": "sit", "seat": 1})).await;

    let said = [
        ("Minh", "xin chào"),
        ("Lan", "chào anh"),
        ("Khoa", "good luck to you both"),
        ("Minh", "ready?"),
        ("Lan", "ready 🙂"),
    ];
    for (who, text) in said {
        let client = match who {
            "Minh" => &mut host,
            "Lan" => &mut guest,
            _ => &mut spectator,
        };
        client.ok(json!({"type": "chat", "text": text})).await;
    }

    host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = next_match_of(&mut host, "start").await;
    assert_eq!(start["match"]["players"][0]["member"], host_member);
    assert_eq!(start["match"]["number"], 1);
    let mut local = local_game(game, &options);
    let mut last = start["match"].clone();
    let mut moves: Vec<String> = Vec::new();
    for ply in 0..10 {
        assert_eq!(last["outcome"], Value::Null, "still going: {last}");
        let mv = keep_going(&local, &last["legal"], ply);
        let notation = local.play_text(&mv).expect("legal locally");
        let mover = if last["to_play"] == host_member {
            &mut host
        } else {
            assert_eq!(last["to_play"], guest_member);
            &mut guest
        };
        mover.ok(json!({"type": "move", "move": mv})).await;
        let to_host = next_match_of(&mut host, "move").await;
        let to_guest = next_match_of(&mut guest, "move").await;
        assert_eq!(to_host["move"], notation, "{to_host}");
        // The copy of whoever plays next has the legal list (a long one,
        // Quoridor's, is only in theirs).
        let event = if to_host["match"]["to_play"] == guest_member {
            to_guest
        } else {
            to_host
        };
        moves.push(notation);
        last = follow(&last, &event);
    }
    assert_eq!(last["moves"], json!(moves));
    let last_clock = last["clock"].clone();
    assert!(last_clock.is_object(), "{game} has a clock: {last}");

    // Crash: nothing is drained. The downtime must not be charged.
    let dir = p.kill9();
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let p = Proc::launch(dir).await;

    // The host first: the snapshot right after the room reloads.
    let (mut host, _, snap) = p.s().join(&code, Some(&host_token), None).await;
    assert_eq!(snap["you"]["member"], host_member);
    assert_eq!(snap["you"]["host"], true);
    assert_eq!(snap["you"]["seat"], 0);
    assert_eq!(snap["you"]["name"], "Minh");
    let m = match_of(&snap);
    assert_eq!(m["number"], 1, "{m}");
    assert_eq!(m["moves"], json!(moves), "every move is back");
    assert_eq!(m["outcome"], Value::Null);
    assert_eq!(m["to_play"], last["to_play"]);
    assert_eq!(m["state"]["to_move"], last["state"]["to_move"]);
    assert_eq!(m["legal"], last["legal"]);
    assert_eq!(m["legal"], json!(local.legal()));
    assert_eq!(m["move_sides"], last["move_sides"]);
    let clock = &m["clock"];
    let running = last_clock["running"].as_u64().expect("a side runs") as usize;
    assert_eq!(clock["running"], last_clock["running"], "{clock}");
    for side in 0..2 {
        let before = last_clock["remaining_ms"][side].as_u64().unwrap();
        let after = clock["remaining_ms"][side].as_u64().unwrap();
        if side == running {
            // As of the last move, less only the moments since the reload:
            // not the ~2 s the server was away.
            assert!(
                after <= before && before - after < 700,
                "{game}: the running side had {before} ms at the last move and {after} ms after the restart"
            );
        } else {
            assert_eq!(after, before, "{game}: the waiting side's time");
        }
    }
    let said_lines: Vec<(String, String)> = said
        .iter()
        .map(|(from, text)| (from.to_string(), text.to_string()))
        .collect();
    assert_eq!(texts(&snap["room"]["chat"]), said_lines, "the chat tail");
    assert_eq!(snap["room"]["scores"], json!([]));
    assert_eq!(snap["room"]["game"], game);
    assert_eq!(snap["room"]["options"], room_options);

    let (mut guest, _, snap) = p.s().join(&code, Some(&guest_token), None).await;
    assert_eq!(snap["you"]["member"], guest_member);
    assert_eq!(snap["you"]["host"], false);
    assert_eq!(snap["you"]["seat"], 1);
    assert_eq!(snap["you"]["name"], "Lan");
    let (spectator, _, snap) = p.s().join(&code, Some(&spectator_token), None).await;
    assert_eq!(snap["you"]["member"], spectator_member);
    assert_eq!(snap["you"]["seat"], Value::Null);
    assert_eq!(snap["you"]["host"], false);
    let members: Vec<Value> = snap["room"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| json!([m["id"], m["name"], m["seat"], m["host"], m["online"]]))
        .collect();
    assert_eq!(
        members,
        vec![
            json!([host_member, "Minh", 0, true, true]),
            json!([guest_member, "Lan", 1, false, true]),
            json!([spectator_member, "Khoa", null, false, true]),
        ]
    );
    assert_eq!(snap["room"]["spectators"], 1);

    // The game goes on where it stopped: the side to move resigns.
    let to_play = match_of(&snap)["to_play"].clone();
    let (resigner, winner) = if to_play == host_member {
        (&mut host, guest_member.clone())
    } else {
        (&mut guest, host_member.clone())
    };
    resigner.ok(json!({"type": "resign"})).await;
    let end = next_match_of(&mut host, "end").await;
    let winner_side = side_of(&end["match"], &winner);
    assert_eq!(
        end["match"]["outcome"],
        json!({"kind": "win", "winner": winner_side, "reason": resign_reason}),
        "{game}"
    );
    assert_eq!(end["match"]["moves"], json!(moves));
    let scores = host.next_of("scores").await["scores"].clone();
    assert_eq!(scores.as_array().unwrap().len(), 2, "{scores}");
    assert_eq!(scores[0]["member"], winner, "{scores}");
    assert_eq!(scores[0]["wins"], 1);
    assert_eq!(scores[1]["losses"], 1);

    // The next game is number 2; crash again: the scoreboard and the new
    // game survive.
    host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = next_match_of(&mut host, "start").await;
    assert_eq!(start["match"]["number"], 2);
    drop((host, guest, spectator));
    let dir = p.kill9();
    let p = Proc::launch(dir).await;
    let (_host, _, snap) = p.s().join(&code, Some(&host_token), None).await;
    assert_eq!(snap["room"]["scores"], scores, "the scoreboard survives");
    let m = match_of(&snap);
    assert_eq!(m["number"], 2, "{m}");
    assert_eq!(m["moves"], json!([]));
    assert_eq!(m["outcome"], Value::Null);
    assert_eq!(snap["room"]["chat"].as_array().unwrap().len(), said.len());

    let dir = p.kill9();
    let store = Store::open(None, dir.path()).await.expect("store opens");
    let games = store.games(&code).await.expect("games");
    store.close().await;
    assert_eq!(games.len(), 1, "only game 1 is finished");
    assert_eq!(games[0].number, 1);
    assert_eq!(games[0].game, game);
    assert_eq!(games[0].moves, moves);
    assert_eq!(
        games[0].players,
        vec!["Minh".to_string(), "Lan".to_string()]
    );
    assert_eq!(
        games[0].outcome,
        json!({"kind": "win", "winner": winner_side, "reason": resign_reason})
    );
}

#[tokio::test]
async fn crossyray_with_a_clock_survives_kill_9() {
    crash_and_recover(
        "crossyray",
        json!({"width": 9, "height": 7, "clock": {"minutes": 3, "increment": 2}}),
        "resign",
    )
    .await;
}

#[tokio::test]
async fn quoridor_survives_kill_9() {
    // Two pawns: the resigner's leaves and the other wins by default.
    crash_and_recover("quoridor", json!({}), "default").await;
}

#[tokio::test]
async fn jungle_with_a_clock_survives_kill_9() {
    crash_and_recover("jungle", json!({"clock": [5, 3]}), "resign").await;
}

// ---------------------------------------------------------------------
// 2. SIGTERM drains.

#[tokio::test]
async fn sigterm_closes_sockets_with_1012_exits_0_and_keeps_every_acknowledged_move() {
    let p = Proc::launch(tempfile::tempdir().expect("temp dir")).await;
    let mut t = table_of(p.s(), "crossyray", Value::Null).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    let mut last = next_match_of(&mut t.host, "start").await["match"].clone();
    let mut local = local_game("crossyray", &Value::Null);
    let mut acked: Vec<String> = Vec::new();
    for ply in 0..6 {
        acked.push(play_one(&mut t, &mut local, &mut last, ply).await);
    }
    // One more move in flight as the signal arrives: if its ack is seen,
    // it must be stored too.
    let mv = keep_going(&local, &last["legal"], 6);
    let in_flight = local.play_text(&mv).expect("legal");
    let id = t.host.take_id();
    // Sockets no room holds yet: a room's before its hello, and the
    // lobby's, said hello or not.
    let mut silent = p.s().socket(&t.code).await;
    let lobby_url = format!("{}/ws/lobby", p.s().base.replace("http://", "ws://"));
    let mut lobby_quiet = common::browser::socket(&lobby_url, None).await;
    let mut lobby = common::browser::socket(&lobby_url, None).await;
    let ack = lobby.command(json!({"type": "hello", "name": "Vy"})).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    t.host
        .send_text(json!({"id": id, "type": "move", "move": mv}).to_string())
        .await;
    p.sigterm();
    let signalled = Instant::now();

    let mut p = p;
    for (who, client) in [
        ("host", &mut t.host),
        ("guest", &mut t.guest),
        ("spectator", &mut t.spectator),
        ("a room's socket before its hello", &mut silent),
        ("a lobby socket before its hello", &mut lobby_quiet),
        ("a lobby socket", &mut lobby),
    ] {
        let ending = client.ending(Duration::from_secs(10)).await;
        assert_eq!(ending.code(), Some(1012), "{who}: {ending:?}");
    }
    let in_flight_acked = t
        .host
        .events
        .iter()
        .any(|e| e["type"] == "ack" && e["id"] == id);
    let status = p
        .exited(Duration::from_secs(5))
        .await
        .unwrap_or_else(|| panic!("still running 5 s after SIGTERM:\n{}", p.log_tail()));
    assert!(status.success(), "exit status {status}:\n{}", p.log_tail());
    let took = signalled.elapsed();
    assert!(took < Duration::from_secs(5), "{took:?}");

    let p = Proc::launch(p.into_dir()).await;
    let (_host, _, snap) = p.s().join(&t.code, Some(&t.host_token), None).await;
    let stored: Vec<String> = serde_json::from_value(match_of(&snap)["moves"].clone()).unwrap();
    if in_flight_acked {
        acked.push(in_flight);
        assert_eq!(stored, acked);
    } else {
        // Not acknowledged: it may or may not have been stored.
        let mut with = acked.clone();
        with.push(in_flight);
        assert!(stored == acked || stored == with, "{stored:?} vs {acked:?}");
    }
    assert_eq!(match_of(&snap)["outcome"], Value::Null);
}

// ---------------------------------------------------------------------
// 3. Idle unload.

/// Starts game `number` with `order: seats` (the host plays side 0), plays
/// two moves (host, guest) and has the host resign; returns the `end`
/// match and the scores that follow.
/// Ply `ply` of a game the host (even plies) and the guest play on `t`:
/// a move that keeps it going, followed on `local` and in `last` (the
/// match as the host's socket shows it). The move's notation.
async fn play_one(
    t: &mut common::Table,
    local: &mut AnyGame,
    last: &mut Value,
    ply: usize,
) -> String {
    let mv = keep_going(local, &last["legal"], ply);
    let notation = local.play_text(&mv).expect("legal");
    t.play_ply(ply, &mv).await;
    *last = follow(last, &next_match_of(&mut t.host, "move").await);
    notation
}

async fn short_game(t: &mut common::Table, options: &Value, number: u64) -> (Value, Value) {
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = next_match_of(&mut t.host, "start").await;
    assert_eq!(start["match"]["number"], number);
    let mut last = start["match"].clone();
    let mut local = local_game("crossyray", options);
    for ply in 0..2 {
        play_one(t, &mut local, &mut last, ply).await;
    }
    t.host.ok(json!({"type": "resign"})).await;
    let end = next_match_of(&mut t.host, "end").await;
    let scores = t.host.next_of("scores").await;
    (end, scores["scores"].clone())
}

#[tokio::test]
async fn an_idle_room_unloads_and_comes_back_with_everything() {
    let server = TestServer::start_with(|c| c.room_idle_secs = 1).await;
    let mut t = table_of(&server, "crossyray", Value::Null).await;
    let (end, scores) = short_game(&mut t, &Value::Null, 1).await;
    assert_eq!(end["match"]["outcome"]["reason"], "resign");
    for (i, who) in [0, 1, 2, 0].iter().enumerate() {
        let client = match who {
            0 => &mut t.host,
            1 => &mut t.guest,
            _ => &mut t.spectator,
        };
        client
            .ok(json!({"type": "chat", "text": format!("line {i}")}))
            .await;
    }
    // Room settings too: options and auto-start are stored.
    t.host
        .ok(json!({"type": "options", "options": {"width": 11, "height": 7, "clock": null}}))
        .await;
    t.host
        .ok(json!({"type": "autostart", "enabled": false}))
        .await;
    // A second tab of the host's, for the room as it stands.
    let (tab, _, before) = server.join(&t.code, Some(&t.host_token), None).await;
    let v_before = before["v"].as_u64().unwrap();
    let chat_before = texts(&before["room"]["chat"]);
    assert_eq!(chat_before.len(), 4);

    let code = t.code.clone();
    let (host_token, guest_token) = (t.host_token.clone(), t.guest_token.clone());
    let (host_member, guest_member) = (t.host_member.clone(), t.guest_member.clone());
    tab.close().await;
    t.host.close().await;
    t.guest.close().await;
    t.spectator.close().await;
    // Idle after 1 s with nobody online; give it 3.
    tokio::time::sleep(Duration::from_secs(3)).await;

    let (mut host, _, snap) = server.join(&code, Some(&host_token), None).await;
    assert!(
        snap["v"].as_u64().unwrap() < v_before,
        "the room was reloaded (versions start again): {} vs {v_before}",
        snap["v"]
    );
    assert_eq!(snap["you"]["member"], host_member);
    assert_eq!(snap["you"]["host"], true);
    assert_eq!(snap["you"]["seat"], 0);
    assert_eq!(snap["room"]["scores"], scores);
    assert_eq!(texts(&snap["room"]["chat"]), chat_before);
    assert_eq!(
        snap["room"]["options"],
        json!({"mode": "single", "width": 11, "height": 7, "clock": null})
    );
    assert_eq!(snap["room"]["autostart"]["enabled"], false);
    let guest_seen = member(&snap["room"], &guest_member).expect("the seated guest is listed");
    assert_eq!(guest_seen["seat"], 1);
    assert_eq!(guest_seen["online"], false);
    assert_eq!(guest_seen["name"], "Lan");

    // A game in progress comes back too (a room with a running game stays
    // loaded; either way nothing is lost).
    let (mut guest, _, snap) = server.join(&code, Some(&guest_token), None).await;
    assert_eq!(snap["you"]["member"], guest_member);
    assert_eq!(snap["you"]["seat"], 1);
    host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = next_match_of(&mut host, "start").await;
    assert_eq!(start["match"]["number"], 2);
    let mut last = start["match"].clone();
    let mut local = local_game("crossyray", &json!({"width": 11, "height": 7}));
    let mut moves = Vec::new();
    for ply in 0..3 {
        let mv = keep_going(&local, &last["legal"], ply);
        moves.push(local.play_text(&mv).expect("legal"));
        let mover = if ply % 2 == 0 { &mut host } else { &mut guest };
        mover.ok(json!({"type": "move", "move": mv})).await;
        last = follow(&last, &next_match_of(&mut host, "move").await);
    }
    host.close().await;
    guest.close().await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (_host, _, snap) = server.join(&code, Some(&host_token), None).await;
    let m = match_of(&snap);
    assert_eq!(m["number"], 2);
    assert_eq!(m["moves"], json!(moves));
    assert_eq!(m["outcome"], Value::Null);
    assert_eq!(snap["room"]["scores"], scores);
}

#[tokio::test]
async fn the_last_finished_game_is_still_shown_after_an_idle_unload() {
    let server = TestServer::start_with(|c| c.room_idle_secs = 1).await;
    let mut t = table_of(&server, "crossyray", Value::Null).await;
    let (end, _) = short_game(&mut t, &Value::Null, 1).await;
    let code = t.code.clone();
    let host_token = t.host_token.clone();
    t.host.close().await;
    t.guest.close().await;
    t.spectator.close().await;
    tokio::time::sleep(Duration::from_secs(3)).await;
    let (_host, _, snap) = server.join(&code, Some(&host_token), None).await;
    let m = match_of(&snap);
    assert_eq!(m["number"], 1, "{snap}");
    assert_eq!(m["outcome"], end["match"]["outcome"]);
    assert_eq!(m["moves"], end["match"]["moves"]);
}

// ---------------------------------------------------------------------
// 4. Game numbers after a restart (defect 7).

#[tokio::test]
async fn game_numbers_keep_going_after_a_restart() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "crossyray", Value::Null).await;
    let (end, _) = short_game(&mut t, &Value::Null, 1).await;
    assert_eq!(end["match"]["number"], 1);
    let code = t.code.clone();
    let (host_token, guest_token) = (t.host_token.clone(), t.guest_token.clone());
    drop(t);
    let dir = server.stop().await;

    let server = TestServer::start_in(dir, |_| {}).await;
    let mut t = common::Table::rejoin(&server, &code, &host_token, &guest_token).await;
    let (end, _) = short_game(&mut t, &Value::Null, 2).await;
    assert_eq!(end["match"]["number"], 2);
    drop(t);
    let dir = server.stop().await;

    let store = Store::open(None, dir.path()).await.expect("store");
    let games = store.games(&code).await.expect("games");
    store.close().await;
    let numbers: Vec<u32> = games.iter().map(|g| g.number).collect();
    assert_eq!(numbers, vec![1, 2]);
}

/// A game in progress goes on after a restart although nobody opens its
/// room: the server loads every such room at start, so its players, all
/// offline from the restart, forfeit by abandon on time (PROTOCOL "What a
/// room keeps" and "Reconnecting": the lowest side first, the other wins).
#[tokio::test]
async fn a_game_running_at_a_restart_ends_by_abandon_with_nobody_visiting() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "jungle", Value::Null).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut t.spectator, "start").await;
    let code = t.code.clone();
    drop(t);
    let dir = server.stop().await;
    let unheld = |dir: tempfile::TempDir| async move {
        let store = Store::open(None, dir.path()).await.expect("store");
        let rooms = store
            .unheld_live_rooms(u64::MAX / 2, "", 10)
            .await
            .expect("query");
        store.close().await;
        (dir, rooms)
    };
    let (dir, rooms) = unheld(dir).await;
    assert_eq!(rooms, vec![code.clone()], "the game in progress is found");

    let server = TestServer::start_in(dir, |c| c.abandon_secs = 1).await;
    let path = format!("/api/rooms/{code}/games");
    let deadline = Instant::now() + Duration::from_secs(10);
    let games = loop {
        let (status, body) = server.get(&path).await;
        assert_eq!(status, 200, "{body}");
        let games: Value = serde_json::from_str(&body).expect("json");
        if games["games"].as_array().is_some_and(|g| !g.is_empty()) {
            break games;
        }
        assert!(
            Instant::now() < deadline,
            "the game never ended with nobody in the room: {games}"
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    assert_eq!(
        games["games"][0]["outcome"],
        json!({"kind": "win", "winner": 1, "reason": "abandon"}),
        "{games}"
    );
    // The finished game stays shown (its row kept until the next game),
    // and is no longer a game in progress to load at every sweep.
    let (_dir, rooms) = unheld(server.stop().await).await;
    assert_eq!(rooms, Vec::<String>::new());
}

// ---------------------------------------------------------------------
// 5. Scoreboard identity.

#[tokio::test]
async fn two_players_with_one_name_get_two_rows_and_a_rename_keeps_the_row() {
    let server = TestServer::start().await;
    let (status, room) = server.create_room(json!({"game": "crossyray"})).await;
    assert_eq!(status, 201);
    let code = room["code"].as_str().unwrap().to_string();
    let host_token = room["token"].as_str().unwrap().to_string();
    let (host, _, snap) = server.join(&code, Some(&host_token), Some("Minh")).await;
    let host_member = snap["you"]["member"].clone();
    let (guest, guest_token, snap) = server.join(&code, None, Some("Minh")).await;
    let guest_member = snap["you"]["member"].clone();
    let (spectator, _, _) = server.join(&code, None, Some("Khoa")).await;
    let mut t = common::Table {
        code: code.clone(),
        host,
        host_token,
        guest,
        guest_token,
        host_member: host_member.clone(),
        guest_member: guest_member.clone(),
        spectator,
    };
    t.host.ok(json!({"type": "sit", "seat": 0})).await;
    t.guest.ok(json!({"type": "sit", "seat": 1})).await;

    // Game 1: the host (side 0, to move after two moves) resigns.
    let (_, scores) = short_game(&mut t, &Value::Null, 1).await;
    let rows = scores.as_array().unwrap();
    assert_eq!(rows.len(), 2, "two people, two rows: {scores}");
    let row = |scores: &Value, member: &Value| -> Value {
        scores
            .as_array()
            .unwrap()
            .iter()
            .find(|r| r["member"] == *member)
            .cloned()
            .unwrap_or_else(|| panic!("a row for {member}: {scores}"))
    };
    let host_row = row(&scores, &host_member);
    let guest_row = row(&scores, &guest_member);
    assert_eq!(host_row["name"], "Minh");
    assert_eq!(guest_row["name"], "Minh");
    assert_eq!(
        (host_row["wins"].as_u64(), host_row["losses"].as_u64()),
        (Some(0), Some(1))
    );
    assert_eq!(
        (guest_row["wins"].as_u64(), guest_row["losses"].as_u64()),
        (Some(1), Some(0))
    );

    // The guest renames: same row, new name, and the scoreboard is sent
    // again.
    t.guest.ok(json!({"type": "name", "name": "Bảo"})).await;
    let renamed = t.host.next_of("scores").await;
    assert_eq!(row(&renamed["scores"], &guest_member)["name"], "Bảo");
    let (_, _, snap) = server.join(&code, None, Some("Vy")).await;
    let scores = &snap["room"]["scores"];
    assert_eq!(scores.as_array().unwrap().len(), 2, "{scores}");
    assert_eq!(row(scores, &guest_member)["name"], "Bảo");
    assert_eq!(row(scores, &guest_member)["wins"], 1);
    assert_eq!(row(scores, &host_member)["name"], "Minh");

    // Game 2: results go to the same two rows.
    let (_, scores) = short_game(&mut t, &Value::Null, 2).await;
    assert_eq!(scores.as_array().unwrap().len(), 2, "{scores}");
    let guest_row = row(&scores, &guest_member);
    assert_eq!(guest_row["name"], "Bảo");
    assert_eq!(guest_row["wins"], 2);
    let host_row = row(&scores, &host_member);
    assert_eq!(host_row["name"], "Minh");
    assert_eq!(host_row["losses"], 2);
}

// ---------------------------------------------------------------------
// 6. No plaintext tokens on disk (defect 4).

/// Every file under `dir` that contains one of `secrets`, with the secret.
fn files_containing(dir: &Path, secrets: &[&str]) -> Vec<(PathBuf, String)> {
    let mut found = Vec::new();
    let mut stack = vec![dir.to_path_buf()];
    while let Some(path) = stack.pop() {
        if path.is_dir() {
            for entry in std::fs::read_dir(&path).expect("read dir") {
                stack.push(entry.expect("entry").path());
            }
            continue;
        }
        let Ok(bytes) = std::fs::read(&path) else {
            continue;
        };
        for secret in secrets {
            if bytes.windows(secret.len()).any(|w| w == secret.as_bytes()) {
                found.push((path.clone(), secret.to_string()));
            }
        }
    }
    found
}

#[tokio::test]
async fn no_token_is_stored_in_the_clear() {
    let server = TestServer::start().await;
    let host_token = "host-token_0123456789abcdefABCDEF";
    let guest_token = "guest-token_0123456789abcdefABCDEF";
    let register_token = "register-token_0123456789abcdefAB";
    let login_token = "login-token_0123456789abcdefABCDEF";
    let password = "correct horse battery staple";

    let (status, room) = server
        .create_room(json!({"game": "crossyray", "token": host_token}))
        .await;
    assert_eq!(status, 201, "{room}");
    assert_eq!(room["token"], host_token);
    let code = room["code"].as_str().unwrap().to_string();

    let mut registered = Browser::new(&server);
    let a = registered
        .register_with(
            json!({"username": "Tokenless", "password": password, "token": register_token}),
        )
        .await;
    assert_eq!(a["token"], register_token);
    let mut logged_in = Browser::new(&server);
    let a = logged_in
        .log_in_with(json!({"username": "tokenless", "password": password, "token": login_token}))
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["token"], login_token);
    let mut fresh = Browser::new(&server);
    let a = fresh.log_in("Tokenless", password).await;
    assert_eq!(a.status, 200, "{}", a.body);
    let fresh_login = a.body["token"].as_str().expect("fresh token").to_string();
    let sessions: Vec<String> = [&registered, &logged_in, &fresh]
        .iter()
        .map(|b| b.session.clone().expect("a session cookie"))
        .collect();

    let (mut host, _, snap) = server.join(&code, Some(host_token), Some("Minh")).await;
    assert_eq!(snap["you"]["host"], true);
    let (mut guest, _, _) = server.join(&code, Some(guest_token), Some("Lan")).await;
    let (_issued_client, issued, _) = server.join(&code, None, Some("Khoa")).await;
    let (_signed_in, _, snap) = registered.join(&code, Some(register_token), None).await;
    assert_eq!(snap["you"]["account"], "Tokenless");
    let (_other_tab, _, _) = fresh.join(&code, Some(&fresh_login), None).await;
    host.ok(json!({"type": "sit", "seat": 0})).await;
    guest.ok(json!({"type": "sit", "seat": 1})).await;
    host.ok(json!({"type": "chat", "text": "hi"})).await;
    host.ok(json!({"type": "start", "order": "seats"})).await;

    let secrets = [
        host_token,
        guest_token,
        register_token,
        login_token,
        fresh_login.as_str(),
        issued.as_str(),
        password,
        sessions[0].as_str(),
        sessions[1].as_str(),
        sessions[2].as_str(),
    ];
    // While the server runs (the WAL holds the latest pages) …
    let found = files_containing(server.dir.path(), &secrets);
    assert!(found.is_empty(), "plaintext secrets on disk: {found:?}");
    // … and after a clean stop.
    drop((host, guest));
    let dir = server.stop().await;
    let files: Vec<_> = std::fs::read_dir(dir.path())
        .unwrap()
        .map(|e| e.unwrap().file_name())
        .collect();
    assert!(
        files.iter().any(|f| f == "site.db"),
        "the database is there: {files:?}"
    );
    let found = files_containing(dir.path(), &secrets);
    assert!(found.is_empty(), "plaintext secrets on disk: {found:?}");
}

#[tokio::test]
async fn a_second_server_on_a_running_servers_data_folder_refuses_to_start() {
    let first = Proc::launch(tempfile::tempdir().unwrap()).await;
    let folder = first.s().dir.path().to_path_buf();
    let (status, said) = common::process::refused_start(&folder, &[]).await;
    assert_eq!(status.code(), Some(1));
    assert!(
        said.contains("another server is using this data folder"),
        "{said}"
    );
    // The first goes on; once it is gone (even by kill -9) the folder is free.
    assert_eq!(first.s().get("/healthz").await, (200, "ok".to_string()));
    let dir = first.kill9();
    let again = Proc::launch(dir).await;
    assert_eq!(again.s().get("/healthz").await.0, 200);
}
