//! Turn-based games (days per move) through real server processes with
//! the test clock (`--test-clock`, `POST /api/test/clock`): the deadline
//! fires with nobody connected and after a restart, the "your turn" list,
//! and the "your turn" email (once a day, and unsubscribe stops it).

use std::time::{Duration, Instant};

use serde_json::{json, Value};

use crate::common::browser::Browser;
use crate::common::process::Proc;
use crate::common::smtp::{confirm, link_token, register, FakeSmtp};

const DAY_MS: u64 = 86_400_000;

async fn advance(b: &mut Browser, ms: u64) {
    let a = b.post("/api/test/clock", json!({ "advance_ms": ms })).await;
    assert_eq!(a.status, 200, "{}", a.body);
}

/// Host and guest, signed in, seated at a new turn-based CrossyRay room;
/// the host (seat 0) makes the first move. Returns the room code.
async fn one_move_in(host: &mut Browser, guest: &Browser, days: u8) -> String {
    let a = host
        .post(
            "/api/rooms",
            json!({"game": "crossyray", "options": {"days": days}}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let code = a.body["code"].as_str().unwrap().to_string();
    let token = a.body["token"].as_str().unwrap().to_string();
    let (mut h, _, snap) = host.join(&code, Some(&token), None).await;
    assert_eq!(snap["room"]["options"]["days"], days);
    let (mut g, _, _) = guest.join(&code, None, None).await;
    h.ok(json!({"type": "sit", "seat": 0})).await;
    g.ok(json!({"type": "sit", "seat": 1})).await;
    h.ok(json!({"type": "start", "order": "seats"})).await;
    let start = h.next_of("match").await;
    assert_eq!(start["match"]["days"], days, "{start}");
    assert!(start["match"]["clock"].is_null(), "{start}");
    h.ok(json!({"type": "move", "move": "f4"})).await;
    h.close().await;
    g.close().await;
    code
}

async fn turns(b: &mut Browser) -> Vec<Value> {
    let a = b.get("/api/turns").await;
    assert_eq!(a.status, 200, "{}", a.body);
    a.body["turns"].as_array().unwrap().clone()
}

#[tokio::test]
async fn a_deadline_passes_after_a_restart_with_nobody_connected_and_the_game_is_lost_on_time() {
    let args = ["--test-clock", "--turn-sweep-secs", "1"];
    let p = Proc::launch_with(tempfile::tempdir().unwrap(), &args).await;
    let mut host = Browser::new(p.s());
    host.register("minh", "password1").await;
    let mut guest = Browser::new(p.s());
    guest.register("lan", "password1").await;
    let code = one_move_in(&mut host, &guest, 1).await;

    // Lan is to move: her list has the game, Minh's is empty.
    let list = turns(&mut guest).await;
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["room"], code.as_str());
    assert_eq!(list[0]["game"], "crossyray");
    assert_eq!(list[0]["players"], json!(["minh", "lan"]));
    let left = list[0]["left_ms"].as_u64().unwrap();
    assert!(left > DAY_MS - 60_000 && left <= DAY_MS, "{left}");
    assert!(turns(&mut host).await.is_empty());
    let anonymous = Browser::new(p.s()).get("/api/turns").await;
    assert_eq!(anonymous.status, 401);

    // The server restarts; nobody comes back. A day passes.
    p.sigterm();
    let mut p = p;
    assert!(p.exited(Duration::from_secs(10)).await.is_some());
    let p = Proc::launch_with(p.into_dir(), &args).await;
    for b in [&mut host, &mut guest] {
        b.base = p.s().base.clone();
    }
    assert_eq!(turns(&mut guest).await.len(), 1, "the list is the store's");
    advance(&mut host, DAY_MS + 2_000).await;
    let ended = Instant::now() + Duration::from_secs(15);
    let games = loop {
        let a = host.get(&format!("/api/rooms/{code}/games")).await;
        let games = a.body["games"].as_array().cloned().unwrap_or_default();
        if !games.is_empty() {
            break games;
        }
        assert!(
            Instant::now() < ended,
            "no time loss in the store: {}",
            a.body
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    };
    let outcome = &games[0]["outcome"];
    assert_eq!(outcome["reason"], "timeout", "{outcome}");
    assert_eq!(
        outcome["winner"], 0,
        "Lan, to move, lost on time: {outcome}"
    );
    assert!(turns(&mut guest).await.is_empty());
}

#[tokio::test]
async fn turn_based_options_drop_the_games_own_clock_and_turn_timer() {
    let p = Proc::launch(tempfile::tempdir().unwrap()).await;
    let mut b = Browser::new(p.s());
    for (game, gone) in [
        ("crossyray", "clock"),
        ("jungle", "clock"),
        ("quoridor", "turn_seconds"),
    ] {
        let options = json!({"days": 2, gone: null});
        let query = format!(
            "/api/position?game={game}&options={}",
            urlencode(&options.to_string())
        );
        let a = b.get(&query).await;
        assert_eq!(a.status, 200, "{}", a.body);
        let echoed = &a.body["options"];
        assert_eq!(echoed["days"], 2, "{echoed}");
        // CrossyRay and Jungle show `"clock":null`, Quoridor no `turn_seconds`.
        if game == "quoridor" {
            assert!(echoed.get("turn_seconds").is_none(), "{echoed}");
        } else {
            assert!(
                echoed["clock"].is_null() && echoed.get("clock").is_some(),
                "{echoed}"
            );
        }
        // A live game keeps them.
        let live = b.get(&format!("/api/position?game={game}")).await.body;
        assert!(live["options"].get(gone).is_some(), "{live}");
    }
}

fn urlencode(text: &str) -> String {
    text.bytes()
        .map(|c| match c {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' => (c as char).to_string(),
            _ => format!("%{c:02X}"),
        })
        .collect()
}

#[tokio::test]
async fn the_test_clock_is_not_there_without_its_flag() {
    let p = Proc::launch(tempfile::tempdir().unwrap()).await;
    let mut b = Browser::new(p.s());
    let a = b.post("/api/test/clock", json!({"advance_ms": 1000})).await;
    assert_eq!(a.status, 404);
    let a = b
        .post(
            "/api/rooms",
            json!({"game": "jungle", "options": {"days": 5}}),
        )
        .await;
    assert_eq!(a.status, 400, "{}", a.body);
    assert!(
        a.body["message"]
            .as_str()
            .unwrap()
            .contains("days must be 1, 2, 3 or 7"),
        "{}",
        a.body
    );
}

#[tokio::test]
async fn the_your_turn_mail_goes_once_a_day_and_unsubscribe_stops_it() {
    let mut smtp = FakeSmtp::start().await;
    let args = [
        "--test-clock",
        "--turn-sweep-secs",
        "1",
        "--smtp-url",
        &smtp.url,
        "--public-url",
        "http://games.example",
    ];
    let p = Proc::launch_with(tempfile::tempdir().unwrap(), &args).await;
    let mut host = Browser::new(p.s());
    host.register("minh", "password1").await;
    let mut guest = Browser::new(p.s());
    register(&mut guest, "lan", "lan@example.org").await;
    let token = link_token(&smtp.next().await, "/account#confirm=");
    confirm(&mut guest, &token).await;
    assert_eq!(guest.get("/api/turn-mail").await.body["turn_mail"], false);
    let a = guest
        .post("/api/turn-mail", json!({"turn_mail": true}))
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(guest.get("/api/turn-mail").await.body["turn_mail"], true);
    one_move_in(&mut host, &guest, 7).await;

    // Not before the turn has waited an hour.
    assert!(smtp.nothing_for(2_500).await);
    advance(&mut host, 61 * 60_000).await;
    let mail = smtp.next().await;
    assert!(mail.contains("To: lan@example.org"), "{mail}");
    assert!(mail.contains("Subject: Your turn"), "{mail}");
    let unsubscribe = link_token(&mail, "http://games.example/unsubscribe#t=");
    // Not twice in a day.
    advance(&mut host, 3 * 3_600_000).await;
    assert!(smtp.nothing_for(3_000).await, "a second mail the same day");
    // The next day, again.
    advance(&mut host, 21 * 3_600_000).await;
    let again = smtp.next().await;
    assert!(again.contains("Subject: Your turn"), "{again}");

    // The link turns it off without signing in.
    let mut stranger = Browser::new(p.s());
    let a = stranger
        .post("/api/unsubscribe", json!({"token": "nope"}))
        .await;
    assert_eq!(
        (a.status, a.body["error"].clone()),
        (400, json!("bad_link"))
    );
    let a = stranger
        .post("/api/unsubscribe", json!({"token": unsubscribe}))
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(guest.get("/api/turn-mail").await.body["turn_mail"], false);
    advance(&mut host, 25 * 3_600_000).await;
    assert!(smtp.nothing_for(3_000).await, "a mail after unsubscribing");
}

#[tokio::test]
async fn an_idle_turn_based_room_leaves_memory_and_its_deadline_still_fires() {
    let args = [
        "--test-clock",
        "--turn-sweep-secs",
        "1",
        "--room-idle-secs",
        "1",
    ];
    let p = Proc::launch_with(tempfile::tempdir().unwrap(), &args).await;
    let mut host = Browser::new(p.s());
    host.register("minh", "password1").await;
    let mut guest = Browser::new(p.s());
    guest.register("lan", "password1").await;
    let code = one_move_in(&mut host, &guest, 2).await;
    let unloaded = Instant::now() + Duration::from_secs(10);
    while !p
        .log_tail()
        .contains(&format!("room closed (idle) room={code}"))
    {
        assert!(
            Instant::now() < unloaded,
            "the room stays loaded:\n{}",
            p.log_tail()
        );
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
    assert_eq!(turns(&mut guest).await.len(), 1);
    advance(&mut host, 2 * DAY_MS + 2_000).await;
    let ended = Instant::now() + Duration::from_secs(15);
    loop {
        let a = host.get(&format!("/api/rooms/{code}/games")).await;
        if let Some(g) = a.body["games"].as_array().and_then(|g| g.first()) {
            assert_eq!(g["outcome"]["reason"], "timeout");
            break;
        }
        assert!(Instant::now() < ended, "no time loss: {}", a.body);
        tokio::time::sleep(Duration::from_millis(200)).await;
    }
}

/// `GET /api/turns` also lists the live games the caller plays now
/// (`playing`): another device signed in to the account finds its game,
/// a guest's browser token finds its own, and a game over leaves the list.
#[tokio::test]
async fn the_live_games_one_plays_are_listed_for_another_device() {
    let p = Proc::launch(tempfile::tempdir().unwrap()).await;
    let mut host = Browser::new(p.s());
    host.register("minh", "password1").await;
    let a = host
        .post("/api/rooms", json!({"game": "jungle", "options": null}))
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let code = a.body["code"].as_str().unwrap().to_string();
    let token = a.body["token"].as_str().unwrap().to_string();
    let (mut h, _, _) = host.join(&code, Some(&token), None).await;
    let guest = Browser::new(p.s());
    let (mut g, guest_token, _) = guest.join(&code, None, Some("Lan")).await;
    h.ok(json!({"type": "sit", "seat": 0})).await;
    g.ok(json!({"type": "sit", "seat": 1})).await;

    let playing = |a: &crate::common::browser::Answer| {
        assert_eq!(a.status, 200, "{}", a.body);
        a.body["playing"].as_array().unwrap().clone()
    };
    let mut phone = Browser::logged_in(p.s(), "minh", "password1").await;
    assert!(
        playing(&phone.get("/api/turns").await).is_empty(),
        "no game yet"
    );

    h.ok(json!({"type": "start", "order": "seats"})).await;
    h.next_of("match").await;
    let list = playing(&phone.get("/api/turns").await);
    assert_eq!(list.len(), 1, "{list:?}");
    assert_eq!(list[0]["room"], code.as_str());
    assert_eq!(list[0]["game"], "jungle");
    assert_eq!(list[0]["number"], 1);
    assert_eq!(list[0]["players"], json!(["minh", "Lan"]));
    assert!(list[0]["started_at"].as_u64().unwrap() > 0);
    let bearer = format!("Bearer {guest_token}");
    let mut other = Browser::new(p.s());
    let by_token = playing(
        &other
            .get_with("/api/turns", &[("authorization", bearer.as_str())])
            .await,
    );
    assert_eq!(by_token.len(), 1, "the guest's browser token: {by_token:?}");
    let mut stranger = Browser::new(p.s());
    stranger.register("vyvy", "password1").await;
    assert!(playing(&stranger.get("/api/turns").await).is_empty());

    g.ok(json!({"type": "resign"})).await;
    let ended = Instant::now() + Duration::from_secs(10);
    while !playing(&phone.get("/api/turns").await).is_empty() {
        assert!(Instant::now() < ended, "the game over stays listed");
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A guest whose move it is in a turn-based game registers from the same
/// browser (its token goes with the account) and says hello signed in:
/// from then on the account's "your turn" list has the game on any
/// device, not only once the next move is stored (issue: `"turns":[]`
/// for the account, the room listed only by the browser's token).
#[tokio::test]
async fn a_guest_who_registers_finds_their_turn_on_another_device() {
    let server = crate::common::TestServer::start().await;
    let mut host = Browser::new(&server);
    host.register("minh", "password1").await;
    let a = host
        .post(
            "/api/rooms",
            json!({"game": "crossyray", "options": {"days": 1}}),
        )
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let code = a.body["code"].as_str().unwrap().to_string();
    let token = a.body["token"].as_str().unwrap().to_string();
    let (mut h, _, _) = host.join(&code, Some(&token), None).await;
    let mut lan = Browser::new(&server);
    let (mut g, guest_token, _) = lan.join(&code, None, Some("Lan")).await;
    h.ok(json!({"type": "sit", "seat": 0})).await;
    g.ok(json!({"type": "sit", "seat": 1})).await;
    h.ok(json!({"type": "start", "order": "seats"})).await;
    h.next_of("match").await;
    h.ok(json!({"type": "move", "move": "f4"})).await;
    g.close().await;

    // Lan's move; her browser's token finds it.
    let bearer = format!("Bearer {guest_token}");
    let by_token = lan
        .get_with("/api/turns", &[("authorization", bearer.as_str())])
        .await;
    assert_eq!(
        by_token.body["turns"].as_array().unwrap().len(),
        1,
        "{}",
        by_token.body
    );

    // She registers from that browser, and its socket says hello signed in.
    let registered = lan
        .register_with(
            json!({"username": "LanReg", "password": "password123", "token": guest_token}),
        )
        .await;
    assert_eq!(registered["token"], guest_token.as_str());
    let (_g, _, snap) = lan.join(&code, Some(&guest_token), None).await;
    assert_eq!(snap["you"]["account"], "LanReg", "{snap}");
    assert_eq!(snap["you"]["seat"], 1);

    // Her phone, signed in to the account: the game is her turn there.
    let mut phone = Browser::logged_in(&server, "LanReg", "password123").await;
    let ended = Instant::now() + Duration::from_secs(10);
    let list = loop {
        let list = turns(&mut phone).await;
        if !list.is_empty() || Instant::now() > ended {
            break list;
        }
        tokio::time::sleep(Duration::from_millis(100)).await;
    };
    assert_eq!(list.len(), 1, "the account's turn: {list:?}");
    assert_eq!(list[0]["room"], code.as_str());
    assert_eq!(list[0]["players"], json!(["minh", "Lan"]));
    // Listed once with the account and the token together.
    let both = phone
        .get_with("/api/turns", &[("authorization", bearer.as_str())])
        .await;
    assert_eq!(
        both.body["turns"].as_array().unwrap().len(),
        1,
        "{}",
        both.body
    );
    // Minh's own list stays empty: it is not his move.
    assert!(turns(&mut host).await.is_empty());
    h.close().await;
}

/// How many times room `code` has left memory, as the server's whole log
/// says.
fn unloads(p: &Proc, code: &str) -> usize {
    let log = crate::common::process::log_path(p.s().dir.path());
    std::fs::read_to_string(log)
        .unwrap_or_default()
        .matches(&format!("room closed (idle) room={code}"))
        .count()
}

/// Waits until room `code` has left memory more than `before` times.
async fn unloaded(p: &Proc, code: &str, before: usize) -> usize {
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let now = unloads(p, code);
        if now > before {
            return now;
        }
        assert!(
            Instant::now() < until,
            "the room stays loaded:\n{}",
            p.log_tail()
        );
        tokio::time::sleep(Duration::from_millis(100)).await;
    }
}

/// A turn-based Quoridor game of two teams of two: each team's members
/// take its turns in rotation, and the rotation holds across the room
/// leaving memory between every two moves (reloaded from the store by
/// the next visitor): each turn goes to the next member of the team,
/// skipping nobody, the others are refused `not_your_turn`, and
/// `GET /api/turns` lists the game for the member due only.
#[tokio::test]
async fn a_turn_based_team_game_keeps_its_rotation_across_unloads() {
    let args = ["--room-idle-secs", "1"];
    let p = Proc::launch_with(tempfile::tempdir().unwrap(), &args).await;
    let server = p.s();
    let (code, host_token) = server
        .new_room(json!({"game": "quoridor", "options": {"mode": "teams", "days": 1}}))
        .await;
    // Red: Minh (seat 0) and Lan (1); Yellow: Khoa (4) and Vy (5).
    let people = [("Minh", 0), ("Lan", 1), ("Khoa", 4), ("Vy", 5)];
    let mut tokens = Vec::new();
    let mut ids = Vec::new();
    let mut clients = Vec::new();
    for (i, &(name, seat)) in people.iter().enumerate() {
        let token = (i == 0).then_some(host_token.as_str());
        let (mut client, token, snap) = server.join(&code, token, Some(name)).await;
        client.ok(json!({"type": "sit", "seat": seat})).await;
        tokens.push(token);
        ids.push(snap["you"]["member"].clone());
        clients.push(client);
    }
    clients[0]
        .ok(json!({"type": "start", "order": "seats"}))
        .await;
    let start = clients[0].next_of("match").await;
    assert_eq!(start["match"]["days"], 1, "{start}");
    assert_eq!(start["match"]["to_play"], ids[0], "Minh opens for Red");
    for client in clients {
        client.close().await;
    }
    let mut seen = unloaded(&p, &code, 0).await;

    // Red walks up the e-file, Yellow down the d-file; each team's two
    // members alternate: Minh, Khoa, Lan, Vy, Minh, Khoa, Lan, Vy.
    let plan = [
        (0, 2, "e2"),
        (2, 3, "d9"),
        (1, 0, "e3"),
        (3, 2, "d8"),
        (0, 1, "e4"),
        (2, 3, "d7"),
        (1, 0, "e5"),
        (3, 2, "d6"),
    ];
    for (ply, &(due, teammate, mv)) in plan.iter().enumerate() {
        // The "your turn" list, from the store: the member due only.
        for (who, token) in tokens.iter().enumerate() {
            let bearer = format!("Bearer {token}");
            let a = Browser::new(server)
                .get_with("/api/turns", &[("authorization", bearer.as_str())])
                .await;
            assert_eq!(a.status, 200, "{}", a.body);
            let turns = a.body["turns"].as_array().unwrap();
            if who == due {
                assert_eq!(turns.len(), 1, "ply {ply}, {}: {}", people[who].0, a.body);
                assert_eq!(turns[0]["room"], code.as_str());
                assert_eq!(turns[0]["players"], json!(["Minh + Lan", "Khoa + Vy"]));
            } else {
                assert!(
                    turns.is_empty(),
                    "ply {ply}: {} is not due: {}",
                    people[who].0,
                    a.body
                );
            }
        }
        // The room comes back from the store with the member due.
        let (mut mover, _, snap) = server.join(&code, Some(&tokens[due]), None).await;
        let current = &snap["room"]["tables"][0]["match"];
        assert_eq!(current["moves"].as_array().unwrap().len(), ply, "{current}");
        assert_eq!(current["to_play"], ids[due], "ply {ply}: {current}");
        let (mut other, _, _) = server.join(&code, Some(&tokens[teammate]), None).await;
        other
            .refused(json!({"type": "move", "move": mv}), "not_your_turn")
            .await;
        mover.ok(json!({"type": "move", "move": mv})).await;
        other.close().await;
        mover.close().await;
        seen = unloaded(&p, &code, seen).await;
    }
    // After the eighth move Minh is due again.
    let (_, _, snap) = server.join(&code, Some(&tokens[0]), None).await;
    let current = &snap["room"]["tables"][0]["match"];
    assert_eq!(current["moves"].as_array().unwrap().len(), 8, "{current}");
    assert_eq!(current["to_play"], ids[0], "{current}");
    assert_eq!(current["state"]["pawns"], json!(["e5", "d6"]), "{current}");
}
