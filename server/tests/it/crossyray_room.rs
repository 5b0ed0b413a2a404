//! CrossyRay rooms through the real server: HTTP to create, WebSocket to
//! play, every move checked by the rules crate.

use crate::common;

use common::{follow, member, next_match_of, table, TestServer};
use rules::crossyray::{CrossyRay, Move, Options};
use rules::{EndReason, Game, Outcome};
use serde_json::{json, Value};

/// The shortest line from `game` that ends with the mover entering the
/// opponent's goal (iterative deepening over the real rules).
fn goal_line(game: &CrossyRay, max_depth: usize) -> Vec<Move> {
    fn search(game: &CrossyRay, depth: usize, line: &mut Vec<Move>) -> bool {
        if depth == 0 {
            return false;
        }
        for mv in game.legal_moves() {
            let mut next = game.clone();
            next.play(&mv).unwrap();
            line.push(mv);
            match next.outcome() {
                Some(Outcome::Win {
                    reason: EndReason::Goal,
                    ..
                }) => return true,
                Some(_) => {}
                None => {
                    if search(&next, depth - 1, line) {
                        return true;
                    }
                }
            }
            line.pop();
        }
        false
    }
    for depth in 1..=max_depth {
        let mut line = Vec::new();
        if search(game, depth, &mut line) {
            return line;
        }
    }
    panic!("no goal line within {max_depth} moves");
}

#[tokio::test]
async fn two_guests_play_to_a_goal_win_watched_by_a_spectator() {
    let server = TestServer::start().await;
    let mut t = table(&server, Value::Null).await;
    let (start, host_first) = t.start().await;
    assert_eq!(start["state"]["origin"], "e4");
    assert_eq!(start["legal"].as_array().unwrap().len(), 4);

    let line = goal_line(&CrossyRay::new(&Options::default()).unwrap(), 8);
    let mut seen_by_spectator = Vec::new();
    // The match as the spectator holds it, move after move.
    let mut last = start.clone();
    for (ply, mv) in line.iter().enumerate() {
        let host_moves = (ply % 2 == 0) == host_first;
        let (mover, waiter) = if host_moves {
            (&mut t.host, &mut t.guest)
        } else {
            (&mut t.guest, &mut t.host)
        };
        mover
            .ok(json!({"type": "move", "move": mv.to_string()}))
            .await;
        for player in [mover, waiter] {
            let event = player.next_match().await;
            assert_eq!(event["kind"], "move");
            assert_eq!(event["move"], mv.to_string());
            assert_eq!(event["side"], json!(ply % 2));
        }
        let watched = t.spectator.next_match().await;
        seen_by_spectator.push(watched["move"].as_str().unwrap().to_string());
        assert_eq!(watched["match"]["state"]["last_move"], mv.to_string());
        assert_eq!(watched["match"]["ply"], json!(ply + 1));
        assert!(
            watched["match"].get("moves").is_none(),
            "a move carries only what changed"
        );
        last = follow(&last, &watched);
    }
    let expected: Vec<String> = line.iter().map(ToString::to_string).collect();
    assert_eq!(
        seen_by_spectator, expected,
        "the spectator saw every move in order"
    );

    let outcome = &last["outcome"];
    assert_eq!(outcome["kind"], "win");
    assert_eq!(outcome["reason"], "goal");
    let winner_side = (line.len() - 1) % 2;
    assert_eq!(outcome["winner"], json!(winner_side));
    assert_eq!(last["legal"], json!([]));
    assert_eq!(last["moves"], json!(expected));

    // The scoreboard counts the win for the right name.
    let scores = t.spectator.next_of("scores").await;
    let winner_name = if (winner_side == 0) == host_first {
        "Minh"
    } else {
        "Lan"
    };
    assert_eq!(scores["scores"][0]["name"], winner_name);
    assert_eq!(scores["scores"][0]["wins"], 1);
    // A player who renames keeps their row, under the new name, and
    // everyone is told.
    t.guest.ok(json!({"type": "name", "name": "Lan Anh"})).await;
    let scores = t.spectator.next_of("scores").await;
    let names: Vec<&str> = scores["scores"]
        .as_array()
        .unwrap()
        .iter()
        .filter_map(|r| r["name"].as_str())
        .collect();
    assert!(
        names.contains(&"Lan Anh") && !names.contains(&"Lan"),
        "{scores}"
    );

    // The finished game is stored with every move.
    let code = t.code.clone();
    let dir = server.stop().await;
    let store = server::store::Store::open(None, dir.path()).await.unwrap();
    let games = store.games(&code).await.unwrap();
    assert_eq!(games.len(), 1);
    assert_eq!(games[0].moves, expected);
    assert_eq!(games[0].outcome["reason"], "goal");
}

#[tokio::test]
async fn bad_input_gets_a_clear_error_and_changes_nothing() {
    let server = TestServer::start().await;
    let mut t = table(&server, Value::Null).await;
    let (start, host_first) = t.start().await;
    let (mut mover, mut other) = if host_first {
        (t.host, t.guest)
    } else {
        (t.guest, t.host)
    };

    // A move out of turn.
    let msg = other
        .refused(json!({"type": "move", "move": "e5"}), "not_your_turn")
        .await;
    assert!(msg.contains("not your turn"), "{msg}");
    // An illegal move (out of range for the 1), unreadable notation, a
    // leap off the board outside a goal.
    let msg = mover
        .refused(json!({"type": "move", "move": "e6"}), "illegal_move")
        .await;
    assert!(!msg.is_empty());
    mover
        .refused(json!({"type": "move", "move": "zz99"}), "illegal_move")
        .await;
    mover
        .refused(
            json!({"type": "move", "move": "goal:right"}),
            "illegal_move",
        )
        .await;
    // Malformed JSON, an unknown command, a missing field.
    mover.send_text("{not json".into()).await;
    let answer = mover.answer(None).await;
    assert_eq!(answer["code"], "bad_message");
    mover
        .refused(json!({"type": "teleport"}), "bad_message")
        .await;
    mover.refused(json!({"type": "move"}), "bad_message").await;
    // An oversized message (over 16 KiB) is refused unread.
    mover
        .send_text(json!({"id": 99, "type": "chat", "text": "x".repeat(20_000)}).to_string())
        .await;
    let answer = mover.answer(None).await;
    assert_eq!(answer["code"], "too_large");
    // Things only the host may do, or not during a game.
    other
        .refused(
            json!({"type": "options", "options": {"width": 11, "height": 7}}),
            if host_first {
                "not_host"
            } else {
                "game_running"
            },
        )
        .await;
    mover
        .refused(json!({"type": "stand"}), "game_running")
        .await;

    // Nothing changed: a newcomer's snapshot shows the starting position,
    // and no event was sent since the start.
    let (_, _, snap) = server.join(&t.code, None, None).await;
    assert_eq!(snap["room"]["tables"][0]["match"]["state"], start["state"]);
    assert_eq!(snap["room"]["tables"][0]["match"]["moves"], json!([]));
    assert!(
        mover.events.iter().all(|e| e["type"] != "match"),
        "no match event after refusals"
    );

    // The socket still works: a legal move goes through.
    mover.ok(json!({"type": "move", "move": "e5"})).await;
}

#[tokio::test]
async fn commands_before_hello_are_refused() {
    let server = TestServer::start().await;
    let (_, room) = server.create_room(json!({})).await;
    let mut client = server.socket(room["code"].as_str().unwrap()).await;
    client
        .refused(json!({"type": "sit", "seat": 0}), "hello_first")
        .await;
    client.ok(json!({"type": "hello"})).await;
    client
        .refused(json!({"type": "hello"}), "bad_message")
        .await;
}

#[tokio::test]
async fn a_player_who_reconnects_gets_the_same_seat_and_state() {
    let server = TestServer::start().await;
    let mut t = table(&server, Value::Null).await;
    let (_, host_first) = t.start().await;
    let common::Table {
        code,
        host,
        guest,
        host_token,
        guest_token,
        host_member,
        guest_member,
        mut spectator,
        ..
    } = t;
    let (mut mover, leaver, leaver_token, leaver_member) = if host_first {
        (host, guest, guest_token, guest_member)
    } else {
        (guest, host, host_token, host_member)
    };
    mover.ok(json!({"type": "move", "move": "f4"})).await;
    let before = mover.next_match().await;

    // The side to move now loses its connection; its seat waits for it.
    leaver.close().await;
    let offline = loop {
        let members = spectator.next_of("members").await;
        let row = member(&members, &leaver_member)
            .expect("a seated player stays listed while offline")
            .clone();
        if row["online"] == false {
            break row;
        }
    };
    assert!(offline["seat"].is_number());

    // It comes back with the same token: same member, same seat, same
    // game, and plays on.
    let (mut back, _, snap) = server.join(&code, Some(&leaver_token), None).await;
    assert_eq!(snap["you"]["member"], leaver_member);
    let me = member(&snap["room"], &leaver_member).unwrap();
    assert_eq!(me["online"], true);
    assert_eq!(me["seat"], offline["seat"]);
    assert_eq!(
        snap["room"]["tables"][0]["match"]["state"],
        before["match"]["state"]
    );
    assert_eq!(
        snap["room"]["tables"][0]["match"]["legal"],
        before["match"]["legal"]
    );
    let reply = before["match"]["legal"][0].as_str().unwrap().to_string();
    back.ok(json!({"type": "move", "move": reply})).await;
}

#[tokio::test]
async fn a_clock_game_ends_on_timeout() {
    let server = TestServer::start().await;
    let mut t = table(
        &server,
        json!({"width": 9, "height": 7, "clock": {"minutes": 3, "increment": 2}}),
    )
    .await;
    let (start, host_first) = t.start().await;
    // The running side's time is as of sending: a millisecond may have gone.
    let left = start["clock"]["remaining_ms"].clone();
    assert_eq!(left[1], 180_000, "{left}");
    assert!(
        (179_900..=180_000).contains(&left[0].as_u64().unwrap()),
        "{left}"
    );
    assert_eq!(start["clock"]["running"], 0);
    let mover = if host_first {
        &mut t.host
    } else {
        &mut t.guest
    };
    mover.ok(json!({"type": "move", "move": "e5"})).await;
    let after = mover.next_match().await;
    assert_eq!(after["match"]["clock"]["running"], 1);
    let left = after["match"]["clock"]["remaining_ms"][0].as_u64().unwrap();
    assert!(
        left > 180_000 && left <= 182_000,
        "the increment was added: {left}"
    );
    // Side 1's flag falls after three minutes: the timer itself is tested
    // on the room's state (`room::tests`, time passed in), and through the
    // real server by Quoridor's 15-second turn timer.
}

#[tokio::test]
async fn chat_reaches_everyone_and_long_lines_are_refused() {
    let server = TestServer::start().await;
    let mut t = table(&server, Value::Null).await;
    t.guest
        .ok(json!({"type": "chat", "text": "chào cả nhà"}))
        .await;
    let got = t.spectator.next_of("chat").await;
    assert_eq!(got["message"]["from"], "Lan");
    assert_eq!(got["message"]["text"], "chào cả nhà");
    t.guest
        .refused(json!({"type": "chat", "text": "x".repeat(301)}), "bad_text")
        .await;
    t.guest
        .refused(json!({"type": "chat", "text": "   "}), "bad_text")
        .await;
    // Newcomers get the history.
    let (_, _, snap) = server.join(&t.code, None, None).await;
    assert_eq!(snap["room"]["chat"][0]["text"], "chào cả nhà");
}

#[tokio::test]
async fn seats_names_and_host_rights_are_enforced() {
    let server = TestServer::start().await;
    let (_, room) = server.create_room(json!({})).await;
    let code = room["code"].as_str().unwrap();
    let (mut guest, _, snap) = server.join(code, None, None).await;
    assert_eq!(snap["room"]["seats"], 2);
    guest
        .refused(json!({"type": "sit", "seat": 0}), "bad_name")
        .await;
    guest
        .refused(json!({"type": "name", "name": "a\u{0007}b"}), "bad_name")
        .await;
    guest
        .refused(json!({"type": "name", "name": "x".repeat(25)}), "bad_name")
        .await;
    guest.ok(json!({"type": "name", "name": "Lan"})).await;
    guest
        .refused(json!({"type": "sit", "seat": 2}), "no_seat")
        .await;
    guest.ok(json!({"type": "sit", "seat": 0})).await;
    guest.refused(json!({"type": "start"}), "not_host").await;
    let (mut other, _, _) = server.join(code, None, Some("Khoa")).await;
    let msg = other
        .refused(json!({"type": "sit", "seat": 0}), "no_seat")
        .await;
    assert!(msg.contains("Lan"), "{msg}");
    let (mut host, _, _) = server
        .join(code, room["token"].as_str(), Some("Minh"))
        .await;
    host.refused(json!({"type": "start"}), "not_ready").await;
    host.refused(
        json!({"type": "options", "options": {"width": 8, "height": 7}}),
        "bad_options",
    )
    .await;
    host.ok(json!({"type": "options", "options": {"width": 11, "height": 9}}))
        .await;
    let event = other.next_of("options").await;
    assert_eq!(event["options"]["width"], 11);
}

#[tokio::test]
async fn room_api_codes_links_and_qr() {
    let server = TestServer::start().await;
    let (status, room) = server.create_room(json!({"game": "crossyray"})).await;
    assert_eq!(status, 201);
    let code = room["code"].as_str().unwrap();
    assert_eq!(code.len(), 6);
    assert!(room["link"]
        .as_str()
        .unwrap()
        .ends_with(&format!("/r/{code}")));
    let (status, info) = server
        .get(&format!("/api/rooms/{}", code.to_lowercase()))
        .await;
    assert_eq!(status, 200, "codes are case-insensitive");
    assert!(info.contains("crossyray"));
    let (status, svg) = server.get(&format!("/api/rooms/{code}/qr.svg")).await;
    assert_eq!(status, 200);
    assert!(svg.contains("<svg"), "{svg}");
    let (status, body) = server.get("/api/rooms/ZZZZZZ").await;
    assert_eq!(status, 404);
    assert!(body.contains("no_room"));
    let (status, _) = server.get("/api/rooms/0OIL1!").await;
    assert_eq!(status, 404);
    let (status, _) = server.create_room(json!({"game": "chess"})).await;
    assert_eq!(status, 400);
    let (status, body) = server
        .create_room(json!({"options": {"width": 9, "height": 9}}))
        .await;
    assert_eq!(status, 400);
    assert!(
        body["message"].as_str().unwrap().contains("square"),
        "{body}"
    );
    let (status, page) = server.get(&format!("/r/{code}")).await;
    assert_eq!(status, 200);
    // The rules travel with the site (the developers' text at /rules.md;
    // pages.rs checks /rules, the players' index).
    let (status, rules) = server.get("/rules.md").await;
    assert_eq!(status, 200);
    assert!(
        rules.contains("CrossyRay") && rules.contains("Jungle"),
        "the rules text"
    );
    assert!(page.contains("<html") || page.contains("<!doctype") || page.contains("<!DOCTYPE"));
}

#[tokio::test]
async fn unknown_rooms_and_foreign_origins_cannot_open_a_socket() {
    let server = TestServer::start().await;
    let ws = server.base.replace("http://", "ws://");
    let err = tokio_tungstenite::connect_async(format!("{ws}/ws/ZZZZZZ"))
        .await
        .unwrap_err();
    assert!(err.to_string().contains("404"), "{err}");

    let code = &server.new_room(json!({})).await.0;
    use tokio_tungstenite::tungstenite::client::IntoClientRequest;
    let mut request = format!("{ws}/ws/{code}").into_client_request().unwrap();
    request
        .headers_mut()
        .insert("origin", "http://evil.example".parse().unwrap());
    let err = tokio_tungstenite::connect_async(request).await.unwrap_err();
    assert!(err.to_string().contains("403"), "{err}");

    let mut request = format!("{ws}/ws/{code}").into_client_request().unwrap();
    let own = server.base.clone();
    request.headers_mut().insert("origin", own.parse().unwrap());
    assert!(tokio_tungstenite::connect_async(request).await.is_ok());
}

#[tokio::test]
async fn rooms_survive_a_restart() {
    let server = TestServer::start().await;
    let (_, room) = server
        .create_room(json!({"options": {"width": 11, "height": 7}}))
        .await;
    let code = room["code"].as_str().unwrap().to_string();
    let dir = server.stop().await;
    let server = TestServer::start_in(dir, |_| {}).await;
    let (_, _, snap) = server
        .join(&code, room["token"].as_str(), Some("Minh"))
        .await;
    assert_eq!(snap["you"]["host"], true, "the creator is still the host");
    assert_eq!(snap["room"]["options"]["width"], 11);
}

#[tokio::test]
async fn a_player_offline_past_the_grace_time_forfeits_by_abandon() {
    let server = TestServer::start_with(|c| c.abandon_secs = 1).await;
    let mut t = table(&server, Value::Null).await;
    let (_, host_first) = t.start().await;
    let common::Table {
        host,
        guest,
        mut spectator,
        ..
    } = t;
    // The side-0 player stays, the other one leaves.
    let (stayer, leaver) = if host_first {
        (host, guest)
    } else {
        (guest, host)
    };
    leaver.close().await;
    let end = next_match_of(&mut spectator, "end").await;
    assert_eq!(end["match"]["outcome"]["kind"], "win");
    assert_eq!(end["match"]["outcome"]["reason"], "abandon");
    assert_eq!(end["match"]["outcome"]["winner"], json!(0));
    stayer.close().await;
}

/// A client that comes back saying where it stood (`since`) gets the events
/// it missed, in order, and no snapshot; one whose epoch is not the room's
/// gets a snapshot; a malformed `since` is refused.
#[tokio::test]
async fn a_client_that_says_where_it_stood_gets_the_events_it_missed() {
    let server = TestServer::start().await;
    let mut t = table(&server, Value::Null).await;
    let (start, host_first) = t.start().await;
    let (watcher, token, snap) = server.join(&t.code, None, Some("Mai")).await;
    let epoch = snap["epoch"].as_str().expect("an epoch").to_string();
    assert!(!epoch.is_empty());
    let v = snap["v"].as_u64().unwrap();
    let mut held = snap["room"]["tables"][0]["match"].clone();
    watcher.close().await;

    // Two moves while the watcher is away.
    let mut last = start;
    let mut played = Vec::new();
    for ply in 0..2 {
        let mv = last["legal"][0].as_str().unwrap().to_string();
        let mover = if (ply % 2 == 0) == host_first {
            &mut t.host
        } else {
            &mut t.guest
        };
        mover.ok(json!({"type": "move", "move": mv})).await;
        last = follow(&last, &t.spectator.next_match().await);
        played.push(mv);
    }

    let mut back = server.socket(&t.code).await;
    let ack = back
        .command(json!({"type": "hello", "token": token, "since": {"epoch": epoch, "v": v}}))
        .await;
    assert_eq!(ack["resumed"], true, "{ack}");
    // Everything since v, in order: the moves, and the members events of
    // leaving and coming back.
    let mut versions = Vec::new();
    let mut moves = Vec::new();
    while moves.len() < 2 {
        let msg = back.recv().await;
        assert_ne!(msg["type"], "snapshot", "no snapshot when resumed");
        versions.push(msg["v"].as_u64().expect("an event"));
        if msg["type"] == "match" {
            held = follow(&held, &msg);
            moves.push(msg["move"].as_str().unwrap().to_string());
        }
    }
    assert_eq!(moves, played);
    assert_eq!(held["moves"], json!(played));
    let expected: Vec<u64> = (v + 1..=v + versions.len() as u64).collect();
    assert_eq!(versions, expected, "every version after {v}, in order");
    back.silent_for("snapshot", std::time::Duration::from_millis(300))
        .await;

    // Another epoch (the room reloaded since): a snapshot.
    let mut stale = server.socket(&t.code).await;
    let ack = stale
        .command(json!({"type": "hello", "token": token, "since": {"epoch": "another", "v": v}}))
        .await;
    assert_eq!(ack["resumed"], false, "{ack}");
    let snap = stale.next_of("snapshot").await;
    assert_eq!(snap["room"]["tables"][0]["match"]["moves"], json!(played));

    // A watcher without a name is forgotten when it leaves: back with
    // `since`, it is a new member, so a snapshot (with its new `you`),
    // not a resume.
    let (quiet, quiet_token, snap) = server.join(&t.code, None, None).await;
    let epoch = snap["epoch"].as_str().expect("an epoch").to_string();
    let v = snap["v"].as_u64().unwrap();
    let was = snap["you"]["member"].clone();
    quiet.close().await;
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let mut again = server.socket(&t.code).await;
    let ack = again
        .command(json!({"type": "hello", "token": quiet_token, "since": {"epoch": epoch, "v": v}}))
        .await;
    assert_eq!(ack["resumed"], false, "{ack}");
    let snap = again.next_of("snapshot").await;
    assert_ne!(snap["you"]["member"], was, "{snap}");
    assert_eq!(snap["you"]["member"], ack["member"]);

    // A `since` that is not {epoch, v}: refused, and nothing attached.
    let mut bad = server.socket(&t.code).await;
    let answer = bad
        .command(json!({"type": "hello", "token": token, "since": {"v": "x"}}))
        .await;
    assert_eq!(answer["code"], "bad_message", "{answer}");
}

/// Options are refused in words, the same at `POST /api/rooms`
/// (`bad_options`) and `GET /api/position` (`bad_query`): an unknown field
/// names every field read, the room's too; a value of serde's own forms
/// (`{"centre": null}` for a name) is none; a number no option holds
/// gets the words of its rule, `null` where no value is `null` says so.
#[tokio::test]
async fn options_are_refused_in_the_words_of_their_rules() {
    let server = TestServer::start().await;
    let refusals = [
        (
            "crossyray",
            json!({"foo": 1}),
            "unknown field `foo`, expected one of `mode`, `days`, `width`, `height`, `clock`",
        ),
        (
            "jungle",
            json!({"foo": 1}),
            "unknown field `foo`, expected one of `mode`, `days`, `clock`, `start`",
        ),
        (
            "quoridor",
            json!({"foo": 1}),
            "unknown field `foo`, expected one of `mode`, `days`, `size`, `players`, \
             `walls`, `goal`, `turn_seconds`, `move_limit`",
        ),
        (
            "quoridor",
            json!({"goal": {"centre": null}}),
            "goal must be \"edge\" or \"centre\", not an object",
        ),
        (
            "quoridor",
            json!({"goal": null}),
            "goal must be \"edge\" or \"centre\", not null (leave it out for its default)",
        ),
        (
            "quoridor",
            json!({"mode": {"teams": null}}),
            "mode must be \"ffa\" or \"teams\" or \"knockout\", not {\"teams\":null}",
        ),
        (
            "quoridor",
            json!({"size": 256}),
            "the board must be 9×9, 11×11 or 13×13, not 256×256",
        ),
        (
            "quoridor",
            json!({"size": 10}),
            "the board must be 9×9, 11×11 or 13×13, not 10×10",
        ),
        (
            "quoridor",
            json!({"players": 300}),
            "Quoridor is for 2 to 8 players, not 300",
        ),
        (
            "quoridor",
            json!({"move_limit": null}),
            "move_limit must be a number from 1 to 200, not null (leave it out for its default)",
        ),
        (
            "crossyray",
            json!({"width": 4_294_967_305_u64}),
            "the board must be 5 to 25 cells wide and 5 to 25 tall, not 4294967305 × 7",
        ),
        (
            "jungle",
            json!({"clock": [3, 2.5]}),
            "3+2.5 is not a clock preset: choose one of 3+2, 5+3, 10+5, 15+10",
        ),
    ];
    for (game, options, words) in refusals {
        let message = format!("Bad options: {words}.");
        let (status, body) = server
            .create_room(json!({"game": game, "options": options}))
            .await;
        assert_eq!(status, 400, "{game} {options}: {body}");
        assert_eq!(body["error"], "bad_options", "{body}");
        assert_eq!(body["message"], message.as_str(), "{game} {options}");
        let encoded: String =
            form_urlencoded::byte_serialize(options.to_string().as_bytes()).collect();
        let (status, text) = server
            .get(&format!("/api/position?game={game}&options={encoded}"))
            .await;
        let body: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(status, 400, "{game} {options}: {body}");
        assert_eq!(body["error"], "bad_query", "{body}");
        assert_eq!(body["message"], message.as_str(), "{game} {options}");
    }
    // The room's fields are read at both.
    let options = json!({"mode": "knockout", "days": null, "width": 11});
    let (status, body) = server
        .create_room(json!({"game": "crossyray", "options": options}))
        .await;
    assert_eq!(status, 201, "{body}");
    let encoded: String = form_urlencoded::byte_serialize(options.to_string().as_bytes()).collect();
    let (status, _) = server
        .get(&format!("/api/position?game=crossyray&options={encoded}"))
        .await;
    assert_eq!(status, 200);
}

/// A key given twice in `options`, which a JSON value would read as the
/// last, is `bad_options` naming it, in `POST /api/rooms` and the host's
/// `options`, and changes nothing.
#[tokio::test]
async fn an_option_given_twice_is_refused_by_name() {
    let server = TestServer::start().await;
    let resp = reqwest::Client::new()
        .post(format!("{}/api/rooms", server.base))
        .header("content-type", "application/json")
        .body(r#"{"game":"crossyray","options":{"width":9,"width":11}}"#)
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 400);
    let body: Value = resp.json().await.unwrap();
    assert_eq!(body["error"], "bad_options", "{body}");
    assert_eq!(body["message"], "Bad options: `width` is given twice.");
    // The rules pages' positions read options alike.
    let (status, body) = server
        .get("/api/position?game=crossyray&options=%7B%22width%22%3A9%2C%22width%22%3A11%7D")
        .await;
    assert_eq!(status, 400, "{body}");
    assert!(body.contains("bad_query"), "{body}");
    assert!(body.contains("`width` is given twice"), "{body}");

    let (code, token) = server.new_room(json!({"game": "crossyray"})).await;
    let (mut host, _, _) = server.join(&code, Some(&token), Some("Minh")).await;
    host.send_text(
        r#"{"id":901,"type":"options","game":"jungle","options":{"clock":{"minutes":3,"increment":2,"minutes":5}}}"#
            .to_string(),
    )
    .await;
    let answer = host.answer(Some(901)).await;
    assert_eq!(answer["code"], "bad_options", "{answer}");
    assert_eq!(
        answer["message"],
        "Bad options: `clock.minutes` is given twice."
    );
    host.ok(json!({"type": "options", "options": {"width": 11}}))
        .await;
}
