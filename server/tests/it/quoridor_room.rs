//! Quoridor rooms through the real server: free-for-all and teams, the
//! game's own scoring on the room scoreboard, the per-move timer, and the
//! auto-start countdown between games.

use crate::common;

use std::time::Duration;

use common::{follow, local_game, next_match_of, table_of, Client, Table, TestServer};
use rules::quoridor::{scores, Options, Quoridor};
use rules::Game;
use serde_json::{json, Value};

/// Side 0 (Red, from e1) walks up the e-file to e9; side 1 (Yellow, from
/// e9) steps aside to the d-file, comes down to d7, places a harmless
/// wall and then passes. Red wins on its 8th move.
const RED_LINE: [&str; 8] = ["e2", "e3", "e4", "e5", "e6", "e7", "e8", "e9"];
const YELLOW_LINE: [&str; 7] = ["d9", "d8", "d7", "a2h", "pass", "pass", "pass"];

/// The points the rules give each side after the two lines above.
fn expected_points(options: &Options) -> Vec<u32> {
    let mut game = Quoridor::new(options).unwrap();
    for ply in 0..15 {
        let mv = if ply % 2 == 0 {
            RED_LINE[ply / 2]
        } else {
            YELLOW_LINE[ply / 2]
        };
        game.play(&mv.parse().unwrap()).unwrap();
    }
    assert!(game.outcome().is_some());
    scores(&game).unwrap()
}

/// A fresh turn: the side to move has (about) the whole turn time; the
/// running side's time is as of sending, so a few milliseconds may be gone.
fn assert_turn_time(clock: &Value, full: u64) {
    let running = clock["running"].as_u64().unwrap() as usize;
    let left = clock["remaining_ms"][running].as_u64().unwrap();
    assert!(left <= full && left + 100 >= full, "{clock}");
}

fn points_of(scores: &Value, name: &str) -> u64 {
    scores
        .as_array()
        .unwrap()
        .iter()
        .find(|row| row["name"] == name)
        .unwrap_or_else(|| panic!("{name} on the scoreboard: {scores}"))["points"]
        .as_u64()
        .unwrap()
}

/// Creates a room, seats the named people in the given seats (the first is
/// the host), and returns the clients with their member tags.
async fn seated(
    server: &TestServer,
    options: Value,
    people: &[(&str, usize)],
) -> (String, Vec<(Client, Value)>) {
    let (code, host) = server
        .new_room(json!({"game": "quoridor", "options": options}))
        .await;
    let mut clients = Vec::new();
    for (i, &(name, seat)) in people.iter().enumerate() {
        let token = (i == 0).then_some(host.as_str());
        let (mut client, _, snap) = server.join(&code, token, Some(name)).await;
        assert_eq!(snap["you"]["host"], i == 0);
        client.ok(json!({"type": "sit", "seat": seat})).await;
        clients.push((client, snap["you"]["member"].clone()));
    }
    (code, clients)
}

#[tokio::test]
async fn two_players_race_to_the_far_edge_and_score_by_the_mirror_rule() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "quoridor", Value::Null).await;
    let (start, host_first) = t.start().await;
    assert_eq!(start["state"]["size"], 9);
    assert_eq!(start["state"]["pawns"], json!(["e1", "e9"]));
    assert_eq!(start["state"]["walls_left"], json!([10, 10]));
    assert_turn_time(&start["clock"], 30_000);
    assert!(start["legal"].as_array().unwrap().contains(&json!("e3h")));
    assert_eq!(start["to_play"], start["players"][0]["member"]);

    // An illegal wall (off the board) and an overlapping one are refused
    // and change nothing.
    let (red, yellow) = if host_first {
        (&mut t.host, &mut t.guest)
    } else {
        (&mut t.guest, &mut t.host)
    };
    red.refused(json!({"type": "move", "move": "i9h"}), "illegal_move")
        .await;
    red.refused(json!({"type": "move", "move": "e9"}), "illegal_move")
        .await;
    yellow
        .refused(json!({"type": "move", "move": "e8"}), "not_your_turn")
        .await;

    let mut last = Value::Null;
    for ply in 0..15 {
        let (mover, mv) = if ply % 2 == 0 {
            (&mut *red, RED_LINE[ply / 2])
        } else {
            (&mut *yellow, YELLOW_LINE[ply / 2])
        };
        mover.ok(json!({"type": "move", "move": mv})).await;
        if mv == "a2h" {
            // Overlaps the wall just placed: refused, nothing changes.
            red.refused(json!({"type": "move", "move": "b2h"}), "illegal_move")
                .await;
        }
        let watched = t.spectator.next_match().await;
        assert_eq!(watched["kind"], "move", "{watched}");
        assert_eq!(watched["move"], mv);
        assert_eq!(watched["side"], json!(ply % 2));
        assert_eq!(watched["match"]["state"]["ply"], json!(ply + 1));
        last = watched;
    }
    let state = &last["match"]["state"];
    // A move event leaves the walls out (the client keeps them); the
    // room's own view has them.
    assert!(state.get("walls").is_none(), "{state}");
    let (_, _, snapshot) = server.join(&t.code, None, None).await;
    assert_eq!(
        snapshot["room"]["tables"][0]["match"]["state"]["walls"],
        json!(["a2h"])
    );
    assert_eq!(state["walls_left"], json!([10, 9]));
    assert_eq!(state["pawns"], json!(["e9", "d7"]));
    assert_eq!(
        last["match"]["outcome"],
        json!({"kind": "win", "winner": 0, "reason": "goal"})
    );
    assert_eq!(last["match"]["legal"], json!([]));

    // Yellow is 6 steps from rank 1: Red scores twice that, Yellow 0.
    let expected = expected_points(&Options::default());
    assert_eq!(expected, vec![12, 0]);
    let scores = t.spectator.next_of("scores").await;
    let (red_name, yellow_name) = if host_first {
        ("Minh", "Lan")
    } else {
        ("Lan", "Minh")
    };
    assert_eq!(points_of(&scores["scores"], red_name), 12);
    assert_eq!(points_of(&scores["scores"], yellow_name), 0);
    assert_eq!(scores["scores"][0]["wins"], 1);
}

#[tokio::test]
async fn in_a_four_player_game_a_leaver_loses_only_their_pawn() {
    let server = TestServer::start_with(|c| c.abandon_secs = 1).await;
    let (_code, clients) = seated(
        &server,
        json!({"players": 4}),
        &[("Minh", 0), ("Lan", 1), ("Khoa", 2), ("Hoa", 3)],
    )
    .await;
    let mut clients: Vec<(Client, Value)> = clients;
    clients[0]
        .0
        .ok(json!({"type": "start", "order": "seats"}))
        .await;
    let start = clients[0].0.next_match().await;
    assert_eq!(start["kind"], "start");
    assert_eq!(
        start["match"]["state"]["pawns"],
        json!(["e1", "a5", "e9", "i5"])
    );
    assert_eq!(start["match"]["state"]["walls_left"], json!([5, 5, 5, 5]));
    // Two moves, so leaving is a forfeit rather than an aborted game.
    clients[0].0.ok(json!({"type": "move", "move": "e2"})).await;
    clients[1].0.ok(json!({"type": "move", "move": "b5"})).await;
    // Khoa (side 2, to move) leaves.
    let (khoa, _) = clients.remove(2);
    khoa.close().await;
    let forfeit = next_match_of(&mut clients[0].0, "forfeit").await;
    let m = &forfeit["match"];
    assert_eq!(m["outcome"], Value::Null, "the game goes on");
    assert_eq!(m["state"]["pawns"], json!(["e2", "b5", null, "i5"]));
    assert_eq!(m["state"]["to_move"], 3, "Hoa plays next");
    // Hoa (now clients[2]) moves, and the game goes round without side 2.
    clients[2].0.ok(json!({"type": "move", "move": "h5"})).await;
    clients[0].0.ok(json!({"type": "move", "move": "e3"})).await;
    // Lan follows the match event by event, as a client does.
    let mut held = Value::Null;
    let after = loop {
        let event = clients[1].0.next_match().await;
        held = follow(&held, &event);
        if event["move"] == "e3" {
            break held;
        }
    };
    assert_eq!(after["state"]["to_move"], 1);
    assert_eq!(after["outcome"], Value::Null);
    assert_eq!(after["to_play"], clients[1].1, "Lan's copy: Lan plays next");
    assert!(
        after["legal"].as_array().unwrap().len() > 64,
        "with its long legal list"
    );
    // The move list says who played each move: side 2 is skipped.
    assert_eq!(after["move_sides"], json!([0, 1, 3, 0]));
}

#[tokio::test]
async fn team_members_take_turns_in_rotation_and_share_the_points() {
    let server = TestServer::start().await;
    // Minh and Lan are team 1 (seats 1-4), Khoa alone is team 2.
    let (_code, mut c) = seated(
        &server,
        json!({"mode": "teams", "players": 5}),
        &[("Minh", 0), ("Lan", 1), ("Khoa", 4)],
    )
    .await;
    let snap_seats = c[0].0.command(json!({"type": "sit", "seat": 8})).await;
    assert_eq!(snap_seats["code"], "no_seat", "8 seats: {snap_seats}");
    c[0].0.ok(json!({"type": "start", "order": "seats"})).await;
    let start = c[0].0.next_match().await;
    let m = &start["match"];
    assert_eq!(m["state"]["pawns"].as_array().unwrap().len(), 2);
    assert_eq!(m["teams"][0].as_array().unwrap().len(), 2);
    assert_eq!(m["teams"][1][0]["member"], c[2].1);
    assert_eq!(m["to_play"], c[0].1, "Minh plays the team's first turn");
    assert_eq!(c[2].0.next_match().await["kind"], "start");

    let mut last = Value::Null;
    for ply in 0..15 {
        let red_turn = ply / 2;
        let (mover, other, mv) = if ply % 2 == 0 {
            // Red: Minh, Lan, Minh, Lan…
            let (m, o) = if red_turn % 2 == 0 { (0, 1) } else { (1, 0) };
            (m, Some(o), RED_LINE[red_turn])
        } else {
            (2, None, YELLOW_LINE[ply / 2])
        };
        if let Some(other) = other {
            c[other]
                .0
                .refused(json!({"type": "move", "move": mv}), "not_your_turn")
                .await;
        }
        c[mover].0.ok(json!({"type": "move", "move": mv})).await;
        last = c[2].0.next_match().await;
        assert_eq!(last["move"], mv);
        if last["match"]["outcome"].is_null() && ply % 2 == 0 {
            let next_red = if red_turn % 2 == 0 { 1 } else { 0 };
            // Yellow to move now; Red's next turn belongs to the other member.
            assert_eq!(last["match"]["players"][0]["member"], c[next_red].1);
        }
    }
    assert_eq!(last["match"]["outcome"]["winner"], 0);
    let expected = expected_points(&Options::default());
    let scores = c[2].0.next_of("scores").await;
    assert_eq!(points_of(&scores["scores"], "Minh"), u64::from(expected[0]));
    assert_eq!(points_of(&scores["scores"], "Lan"), u64::from(expected[0]));
    assert_eq!(points_of(&scores["scores"], "Khoa"), 0);
}

#[tokio::test]
async fn switching_to_quoridor_sets_the_seats_for_everyone() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "crossyray", Value::Null).await;
    t.host
        .ok(json!({"type": "options", "game": "quoridor", "options": {"players": 4}}))
        .await;
    let event = t.spectator.next_of("options").await;
    assert_eq!(event["game"], "quoridor");
    assert_eq!(event["seats"], 4);
    assert_eq!(event["team_seats"], Value::Null);
    assert_eq!(event["options"]["mode"], "ffa");
    t.host
        .ok(json!({"type": "options", "options": {"mode": "teams"}}))
        .await;
    let event = t.spectator.next_of("options").await;
    assert_eq!(event["seats"], 8);
    assert_eq!(event["team_seats"], 4);
    t.host
        .refused(
            json!({"type": "options", "options": {"mode": "solo"}}),
            "bad_options",
        )
        .await;
    // Both players keep their seats 1 and 2, both on the first team.
    t.host.refused(json!({"type": "start"}), "not_ready").await;
    t.guest.ok(json!({"type": "sit", "seat": 4})).await;
    t.host.ok(json!({"type": "start"})).await;
}

#[tokio::test]
async fn a_team_game_needs_a_member_on_each_team() {
    let server = TestServer::start().await;
    let (_code, mut c) = seated(
        &server,
        json!({"mode": "teams"}),
        &[("Minh", 0), ("Lan", 2)],
    )
    .await;
    let message = c[0].0.refused(json!({"type": "start"}), "not_ready").await;
    assert!(message.contains("team"), "{message}");
    c[1].0.ok(json!({"type": "sit", "seat": 7})).await;
    c[0].0.ok(json!({"type": "start"})).await;
}

#[tokio::test]
async fn a_turn_that_runs_out_is_a_pass_and_the_game_goes_on() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "quoridor", json!({"turn_seconds": 15})).await;
    let (start, _) = t.start().await;
    assert_turn_time(&start["clock"], 15_000);
    // Real time: every move is stored before it is sent, and a paused
    // runtime clock would jump past the database's own timers.
    t.spectator.wait = Duration::from_secs(20);
    let timeout = t.spectator.next_match().await;
    assert_eq!(timeout["kind"], "timeout", "{timeout}");
    assert_eq!(timeout["move"], "pass");
    assert_eq!(timeout["side"], 0);
    let m = &timeout["match"];
    assert_eq!(m["outcome"], Value::Null);
    assert_eq!(m["state"]["to_move"], 1);
    assert_eq!(m["state"]["last_move"], "pass");
    assert_eq!(m["moves"], json!(["pass"]));
    assert_eq!(m["clock"]["running"], 1);
    assert_turn_time(&m["clock"], 15_000);
}

/// Plays two moves and resigns, so the game ends with a result.
async fn play_a_short_game(
    host: &mut Client,
    guest: &mut Client,
    host_member: &Value,
    number: u64,
) {
    let start = next_start(host, number).await;
    let host_first = start["match"]["players"][0]["member"] == *host_member;
    let (first, second) = if host_first {
        (&mut *host, &mut *guest)
    } else {
        (&mut *guest, &mut *host)
    };
    first.ok(json!({"type": "move", "move": "e2"})).await;
    second.ok(json!({"type": "move", "move": "e8"})).await;
    second.ok(json!({"type": "resign"})).await;
}

/// The `start` event of game `number`, skipping earlier events.
async fn next_start(client: &mut Client, number: u64) -> Value {
    loop {
        let event = client.next_match().await;
        if event["kind"] == "start" && event["match"]["number"] == number {
            return event;
        }
    }
}

/// A server that starts the next game after a second, and a Quoridor
/// table on it whose first (short) game has been played.
async fn one_game_played() -> (TestServer, Table) {
    let server = TestServer::start_with(|c| c.autostart_secs = 1).await;
    let mut t = table_of(&server, "quoridor", Value::Null).await;
    let host_member = t.host_member.clone();
    t.host.ok(json!({"type": "start"})).await;
    play_a_short_game(&mut t.host, &mut t.guest, &host_member, 1).await;
    (server, t)
}

#[tokio::test]
async fn the_next_game_starts_by_itself_unless_the_host_pauses_the_countdown() {
    let (server, mut t) = one_game_played().await;
    let host_member = t.host_member.clone();
    let countdown = t.spectator.next_of("autostart").await;
    assert_eq!(countdown["autostart"]["enabled"], true);
    assert_eq!(countdown["autostart"]["paused"], false);
    let left = countdown["autostart"]["remaining_ms"].as_u64().unwrap();
    assert!(left <= 1000, "{countdown}");
    // About a second later, game 2 starts with nobody pressing Start.
    let next = next_start(&mut t.spectator, 2).await;
    assert_eq!(next["match"]["number"], 2);

    // Game 2 ends; the host pauses the countdown: no game 3 starts.
    play_a_short_game(&mut t.host, &mut t.guest, &host_member, 2).await;
    t.host.next_of("autostart").await;
    t.host
        .ok(json!({"type": "countdown", "paused": true}))
        .await;
    let paused = t.spectator.next_of("autostart").await;
    let paused = if paused["autostart"]["paused"] == true {
        paused
    } else {
        t.spectator.next_of("autostart").await
    };
    assert_eq!(paused["autostart"]["paused"], true);
    let left = paused["autostart"]["remaining_ms"].as_u64().unwrap();
    assert!(left > 0 && left <= 1000, "{paused}");
    t.spectator.events.clear();
    t.spectator
        .silent_for("match", Duration::from_millis(1800))
        .await;
    let (_, _, snap) = server.join(&t.code, None, Some("Hoa")).await;
    assert_eq!(snap["room"]["autostart"]["paused"], true);
    assert_eq!(snap["room"]["tables"][0]["match"]["number"], 2);
    t.guest
        .refused(json!({"type": "countdown", "paused": false}), "not_host")
        .await;
    // Resumed, it starts game 3.
    t.host
        .ok(json!({"type": "countdown", "paused": false}))
        .await;
    let next = next_start(&mut t.spectator, 3).await;
    assert_eq!(next["match"]["number"], 3);

    // With auto-start off, no countdown follows the game.
    t.host
        .ok(json!({"type": "autostart", "enabled": false}))
        .await;
    play_a_short_game(&mut t.host, &mut t.guest, &host_member, 3).await;
    while t.spectator.next_match().await["kind"] != "end" {}
    t.spectator.events.clear();
    t.spectator
        .silent_for("match", Duration::from_millis(1800))
        .await;
    assert!(
        t.spectator
            .events
            .iter()
            .all(|e| e["type"] != "autostart" || e["autostart"]["remaining_ms"].is_null()),
        "{:?}",
        t.spectator.events
    );
    t.host
        .refused(json!({"type": "countdown", "paused": true}), "no_countdown")
        .await;
}

#[tokio::test]
async fn the_countdown_is_dropped_when_a_seat_empties() {
    let (_server, mut t) = one_game_played().await;
    t.guest.ok(json!({"type": "stand"})).await;
    // The countdown runs out, finds an empty seat and stops.
    let stopped = loop {
        let event = t.spectator.next_of("autostart").await;
        if event["autostart"]["remaining_ms"].is_null() {
            break event;
        }
    };
    assert_eq!(stopped["autostart"]["enabled"], true);
    t.spectator.events.clear();
    t.spectator
        .silent_for("match", Duration::from_millis(300))
        .await;
}

#[tokio::test]
async fn a_team_goes_on_while_a_member_is_here_and_forfeits_when_all_left() {
    let server = TestServer::start_with(|c| c.abandon_secs = 1).await;
    let (_code, mut c) = seated(
        &server,
        json!({"mode": "teams"}),
        &[("Minh", 0), ("Lan", 1), ("Khoa", 4)],
    )
    .await;
    c[0].0.ok(json!({"type": "start", "order": "seats"})).await;
    c[0].0.ok(json!({"type": "move", "move": "e2"})).await;
    // Lan, next in Red's rotation, leaves for good.
    let (lan, _) = c.remove(1);
    lan.close().await;
    c[1].0.ok(json!({"type": "move", "move": "e8"})).await;
    // Lan was due to play Red's turn: past the grace time it passes to
    // Minh, and Red has not forfeited.
    let turn = next_match_of(&mut c[0].0, "turn").await;
    assert_eq!(turn["match"]["to_play"], c[0].1);
    assert_eq!(turn["match"]["outcome"], Value::Null);
    c[0].0.ok(json!({"type": "move", "move": "e3"})).await;
    let after = loop {
        let event = c[1].0.next_match().await;
        if event["move"] == "e3" {
            break event;
        }
    };
    assert_eq!(after["match"]["outcome"], Value::Null);
    assert_eq!(after["match"]["state"]["pawns"], json!(["e3", "e8"]));
    c[1].0.ok(json!({"type": "move", "move": "e7"})).await;
    let next = loop {
        let event = c[0].0.next_match().await;
        if event["move"] == "e7" {
            break event;
        }
    };
    assert_eq!(next["match"]["to_play"], c[0].1, "Lan is skipped");
    // Khoa, Yellow's only member, leaves: Yellow forfeits, Red wins.
    let (khoa, _) = c.remove(1);
    khoa.close().await;
    let end = next_match_of(&mut c[0].0, "end").await;
    assert_eq!(
        end["match"]["outcome"],
        json!({"kind": "win", "winner": 0, "reason": "default"})
    );
    let scores = c[0].0.next_of("scores").await;
    assert_eq!(points_of(&scores["scores"], "Minh"), 10);
    assert_eq!(points_of(&scores["scores"], "Lan"), 10);
}

/// A teammate who goes offline keeps the team's turn until the grace
/// time, counted from when they went offline, has passed: the rotation
/// after a move does not skip them at once (an outside check found it
/// did, with no `turn` event); the `turn` event passes it on after the
/// grace time.
#[tokio::test]
async fn a_teammate_just_gone_keeps_the_turn_until_the_grace_time() {
    let grace = Duration::from_secs(2);
    let server = TestServer::start_with(|c| c.abandon_secs = 2).await;
    // Red: Minh (seat 0) and Lan (seat 1); Yellow: Khoa (4) and Vy (5).
    let (_code, mut c) = seated(
        &server,
        json!({"mode": "teams", "turn_seconds": 60}),
        &[("Minh", 0), ("Lan", 1), ("Khoa", 4), ("Vy", 5)],
    )
    .await;
    c[0].0.ok(json!({"type": "start", "order": "seats"})).await;
    let start = next_match_of(&mut c[0].0, "start").await;
    assert_eq!(start["match"]["to_play"], c[0].1, "Minh opens for Red");
    let lan = c[1].1.clone();
    let (lan_client, _) = c.remove(1);
    lan_client.close().await;
    let gone = std::time::Instant::now();
    // The room has seen her go before anyone moves.
    c[0].0
        .member_until("id", &lan, |m| m["online"] == false)
        .await;
    // Minh (Red) and Khoa (Yellow) play at once: Red's next turn is
    // Lan's, offline for well under the grace time.
    c[0].0.ok(json!({"type": "move", "move": "e2"})).await;
    c[1].0.ok(json!({"type": "move", "move": "e8"})).await;
    let moved = loop {
        let event = next_match_of(&mut c[0].0, "move").await;
        if event["move"] == "e8" {
            break event;
        }
    };
    assert!(gone.elapsed() < grace, "the moves came in time");
    assert_eq!(moved["match"]["players"][0]["member"], lan, "{moved}");
    assert_eq!(moved["match"]["to_play"], lan, "{moved}");
    c[0].0
        .refused(json!({"type": "move", "move": "e3"}), "not_your_turn")
        .await;
    // The grace time passes: the turn goes to Minh, with a `turn` event.
    let turn = next_match_of(&mut c[0].0, "turn").await;
    assert!(
        gone.elapsed() >= grace - Duration::from_millis(300),
        "the turn passed after {:?}",
        gone.elapsed()
    );
    assert_eq!(turn["match"]["to_play"], c[0].1, "{turn}");
    assert_eq!(turn["match"]["players"][0]["member"], c[0].1);
    assert_eq!(turn["match"]["outcome"], Value::Null);
    c[0].0.ok(json!({"type": "move", "move": "e3"})).await;
}

#[tokio::test]
async fn three_computers_and_a_person_play_a_free_for_all_to_the_end() {
    let server = TestServer::start_with(|c| c.bot_ms = 30).await;
    let options = json!({"players": 4, "move_limit": 20});
    let (_, mut clients) = seated(&server, options.clone(), &[("Minh", 0)]).await;
    let (host, _) = &mut clients[0];
    for (seat, level) in [(1, "beginner"), (2, "amateur"), (3, "master")] {
        host.ok(json!({"type": "computer", "seat": seat, "level": level}))
            .await;
    }
    host.ok(json!({"type": "start", "order": "seats"})).await;
    let latest = host.next_match().await;
    assert_eq!(latest["kind"], "start");
    let players = latest["match"]["players"].as_array().unwrap().clone();
    let levels: Vec<&Value> = players.iter().map(|p| &p["computer"]).collect();
    assert_eq!(
        levels,
        [
            &Value::Null,
            &json!("beginner"),
            &json!("amateur"),
            &json!("master")
        ]
    );
    let mut moves_by_side = [0; 4];
    // Every move is checked on a local copy of the game (the person sees
    // the legal list only on their own turn).
    let mut local = local_game("quoridor", &options);
    let mut latest = latest["match"].clone();
    while latest["outcome"].is_null() {
        let legal: Vec<String> = local.legal();
        let side = latest["state"]["to_move"].as_u64().unwrap() as usize;
        if side == 0 {
            assert_eq!(latest["legal"], json!(legal), "the person's own list");
            // The person passes when allowed, and leaves the race to the
            // computers.
            let mv = if legal.iter().any(|m| m == "pass") {
                "pass"
            } else {
                &legal[0]
            };
            host.ok(json!({"type": "move", "move": mv})).await;
        }
        let next = host.next_match().await;
        assert_eq!(next["kind"], "move", "{next}");
        assert_eq!(next["side"], side);
        let played = next["move"].as_str().unwrap();
        assert!(legal.iter().any(|m| m == played), "{played} was legal");
        local.play_text(played).expect("legal locally");
        moves_by_side[side] += 1;
        latest = follow(&latest, &next);
    }
    let outcome = &latest["outcome"];
    match outcome["kind"].as_str() {
        Some("win") => {
            assert_eq!(outcome["reason"], "goal");
            assert_ne!(outcome["winner"], 0, "the person only passed");
        }
        _ => assert_eq!(outcome["reason"], "move_limit", "{outcome}"),
    }
    assert!(
        moves_by_side[1..].iter().all(|&n| n >= 5),
        "every computer played: {moves_by_side:?}"
    );
    assert_eq!(
        latest["state"]["ply"],
        json!(moves_by_side.iter().sum::<usize>())
    );
    assert_eq!(
        latest["moves"].as_array().unwrap().len(),
        moves_by_side.iter().sum::<usize>()
    );
}

/// Free-for-all starts with whoever is seated, two or more: three of four
/// seats give a three-pawn game with the Auto walls for three; one person
/// alone cannot start.
#[tokio::test]
async fn a_free_for_all_starts_with_three_of_its_four_seats_taken() {
    let server = TestServer::start().await;
    let (_code, mut c) = seated(
        &server,
        json!({"players": 4}),
        &[("Minh", 0), ("Lan", 1), ("Khoa", 3)],
    )
    .await;
    c[2].0.ok(json!({"type": "stand"})).await;
    c[1].0.ok(json!({"type": "stand"})).await;
    let message = c[0].0.refused(json!({"type": "start"}), "not_ready").await;
    assert!(message.contains("two"), "{message}");
    c[1].0.ok(json!({"type": "sit", "seat": 1})).await;
    c[2].0.ok(json!({"type": "sit", "seat": 3})).await;
    c[0].0.ok(json!({"type": "start", "order": "seats"})).await;
    let start = c[0].0.next_match().await;
    assert_eq!(start["kind"], "start");
    let m = &start["match"];
    let names = common::names(&m["players"]);
    assert_eq!(
        names,
        ["Minh", "Lan", "Khoa"],
        "in seat order, seat 2 left out"
    );
    let three = local_game("quoridor", &json!({"players": 3}));
    let expected = serde_json::to_value(&three).unwrap();
    assert_eq!(
        m["state"]["pawns"], expected["pawns"],
        "three pawns, placed for three"
    );
    assert_eq!(
        m["state"]["walls_left"], expected["walls_left"],
        "the Auto walls for three"
    );
    // The three play in turn.
    c[0].0.ok(json!({"type": "move", "move": "e2"})).await;
    let moved = next_match_of(&mut c[1].0, "move").await;
    assert_eq!(moved["side"], 0);
    assert_eq!(moved["match"]["to_play"], c[1].1, "Lan plays next");
}

/// Three of eight seats taken (the case): a three-pawn game, the
/// five empty seats left out.
#[tokio::test]
async fn a_free_for_all_starts_with_three_of_its_eight_seats_taken() {
    let server = TestServer::start().await;
    let (_code, mut c) = seated(
        &server,
        json!({"players": 8, "size": 13}),
        &[("Minh", 0), ("Lan", 4), ("Khoa", 7)],
    )
    .await;
    c[0].0.ok(json!({"type": "start", "order": "seats"})).await;
    let start = c[0].0.next_match().await;
    let m = &start["match"];
    assert_eq!(m["players"].as_array().unwrap().len(), 3, "{m}");
    let expected =
        serde_json::to_value(local_game("quoridor", &json!({"players": 3, "size": 13}))).unwrap();
    assert_eq!(m["state"]["pawns"], expected["pawns"]);
    assert_eq!(m["state"]["walls_left"], expected["walls_left"]);
    for (client, _) in &mut c[1..] {
        assert_eq!(client.next_match().await["kind"], "start");
    }
}

/// The last person leaving a free-for-all the computers would play on by
/// themselves ends it drawn with reason `abandon`, nobody scoring (an
/// outside check left such games running for minutes with no socket,
/// holding their rooms and the search slots); it is stored like any game.
#[tokio::test]
async fn a_game_left_to_the_computers_alone_ends_drawn() {
    let server = TestServer::start_with(|c| c.bot_ms = 30).await;
    let (code, mut clients) = seated(&server, json!({"players": 3}), &[("Minh", 0)]).await;
    let (host, _) = &mut clients[0];
    for seat in [1, 2] {
        host.ok(json!({"type": "computer", "seat": seat, "level": "beginner"}))
            .await;
    }
    host.ok(json!({"type": "start", "order": "seats"})).await;
    assert_eq!(host.next_match().await["kind"], "start");
    host.ok(json!({"type": "resign"})).await;
    let end = next_match_of(host, "end").await;
    let m = &end["match"];
    assert_eq!(
        m["outcome"],
        json!({"kind": "draw", "reason": "abandon"}),
        "{m}"
    );
    assert_eq!(m["to_play"], Value::Null);
    let games = loop {
        let (_, body) = server.get(&format!("/api/rooms/{code}/games")).await;
        let v: Value = serde_json::from_str(&body).unwrap();
        if v["total"] == 1 {
            break v;
        }
        tokio::time::sleep(std::time::Duration::from_millis(50)).await;
    };
    assert_eq!(games["games"][0]["outcome"]["reason"], "abandon");
    // Its export imports back as the same game.
    let id = games["games"][0]["id"].as_str().unwrap();
    let (_, text) = server.get(&format!("/api/games/{id}/export")).await;
    let resp = reqwest::Client::new()
        .post(format!("{}/api/games/import", server.base))
        .header("content-type", "text/plain")
        .body(text)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let imported: Value = resp.json().await.unwrap();
    assert_eq!(
        imported["outcome"],
        json!({"kind": "draw", "reason": "abandon"})
    );
}

/// A team of a person and a computer whose person leaves is away like
/// any side whose people all left: the computer does not play on for it
/// (an outside check found such a team playing on through its computer
/// forever). The other team sees it in `away`, and after the abandon
/// time the mixed team forfeits with reason `abandon`.
#[tokio::test]
async fn a_team_of_a_person_and_a_computer_forfeits_when_its_person_left() {
    let server = TestServer::start_with(|c| {
        c.abandon_secs = 2;
        c.bot_ms = 30;
    })
    .await;
    // Red: Minh (seat 0) and a computer (seat 1); Yellow: Khoa (4), Vy (5).
    let (code, mut c) = seated(
        &server,
        json!({"mode": "teams"}),
        &[("Minh", 0), ("Khoa", 4), ("Vy", 5)],
    )
    .await;
    c[0].0
        .ok(json!({"type": "computer", "seat": 1, "level": "beginner"}))
        .await;
    c[0].0.ok(json!({"type": "start", "order": "seats"})).await;
    let start = next_match_of(&mut c[1].0, "start").await;
    let red = start["match"]["teams"][0].as_array().unwrap().clone();
    assert_eq!(red.len(), 2, "{start}");
    assert_eq!(red[1]["computer"], "beginner", "{start}");
    assert_eq!(start["match"]["to_play"], c[0].1, "Minh opens for Red");
    c[0].0.ok(json!({"type": "move", "move": "e2"})).await;
    c[1].0.ok(json!({"type": "move", "move": "d9"})).await;
    // Red's next turn is the computer's; Minh leaves for good.
    let (minh, _) = c.remove(0);
    minh.close().await;
    let gone = std::time::Instant::now();
    // The computer plays its own turn meanwhile.
    let moved = wait_for_ply(&mut c[0].0, 3).await;
    assert_eq!(moved["side"], 0, "{moved}");
    assert_eq!(moved["match"]["outcome"], Value::Null, "{moved}");
    // Yellow (side 1) is here: only Red is away, with its countdowns.
    for (client, _) in c.iter_mut() {
        let away = client.next_of("away").await;
        let list = away["away"].as_array().unwrap();
        assert_eq!(list.len(), 1, "{away}");
        assert_eq!(list[0]["side"], 0, "{away}");
        let abandon = list[0]["abandon_ms"].as_u64().unwrap();
        assert!(abandon > 1_000 && abandon <= 2_000, "{away}");
    }
    // A newcomer's snapshot carries the list too.
    let (_, _, snap) = server.join(&code, None, Some("An")).await;
    assert_eq!(
        snap["room"]["tables"][0]["away"][0]["side"], 0,
        "{}",
        snap["room"]["tables"][0]
    );
    // Nobody moves for Yellow: the abandon time passes and Red forfeits.
    let end = next_match_of(&mut c[0].0, "end").await;
    assert!(
        gone.elapsed() >= Duration::from_millis(1_700),
        "ended after {:?}",
        gone.elapsed()
    );
    assert_eq!(
        end["match"]["outcome"],
        json!({"kind": "win", "winner": 1, "reason": "default"})
    );
    let (status, body) = server.get(&format!("/api/rooms/{code}/games")).await;
    assert_eq!(status, 200, "{body}");
    let games: Value = serde_json::from_str(&body).unwrap();
    let id = games["games"][0]["id"].as_str().unwrap().to_string();
    let (status, body) = server.get(&format!("/api/games/{id}")).await;
    assert_eq!(status, 200, "{body}");
    let game: Value = serde_json::from_str(&body).unwrap();
    let leaves = game["leaves"].as_array().unwrap();
    assert_eq!(leaves.len(), 1, "{game}");
    assert_eq!(leaves[0]["sides"], json!([0]), "{game}");
    assert_eq!(leaves[0]["reason"], "abandon", "{game}");
}

/// The `move` event that makes the game `ply` moves long, skipping others.
async fn wait_for_ply(client: &mut Client, ply: u64) -> Value {
    loop {
        let event = next_match_of(client, "move").await;
        if event["match"]["ply"] == ply {
            return event;
        }
    }
}
