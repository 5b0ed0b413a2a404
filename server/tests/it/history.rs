//! History, replay and export: a person's finished games (guest and
//! account), paging and filters, a room's games, one game by link, and the
//! text export read back by the import.

use crate::common;

use common::browser::Browser;
use common::{follow, Client, TestServer};
use serde_json::{json, Value};

/// Two people seated at a fresh room of `game`, auto-start off.
struct Pair {
    code: String,
    host: Client,
    guest: Client,
}

async fn pair(server: &TestServer, game: &str, host: &str, guest: &str) -> Pair {
    pair_as(server, game, host, guest, None).await
}

/// A pair whose guest's browser is `signed_in` (its socket carries the
/// session cookie).
async fn pair_as(
    server: &TestServer,
    game: &str,
    host: &str,
    guest: &str,
    signed_in: Option<&Browser>,
) -> Pair {
    let (code, _) = server.new_room(json!({"game": game, "token": host})).await;
    let (mut h, _, _) = server.join(&code, Some(host), Some("Minh")).await;
    let (mut g, _, _) = match signed_in {
        Some(browser) => browser.join(&code, Some(guest), Some("Lan")).await,
        None => server.join(&code, Some(guest), Some("Lan")).await,
    };
    h.ok(json!({"type": "autostart", "enabled": false})).await;
    h.ok(json!({"type": "sit", "seat": 0})).await;
    g.ok(json!({"type": "sit", "seat": 1})).await;
    Pair {
        code,
        host: h,
        guest: g,
    }
}

/// Plays one game: `plies` legal moves (the first legal one each time),
/// then the host (`host_loses`) or the guest resigns. The host plays side 0.
/// Returns the match as it ended.
async fn play(p: &mut Pair, plies: usize, host_loses: bool) -> Value {
    p.host.ok(json!({"type": "start", "order": "seats"})).await;
    let mut last = p.host.next_match().await["match"].clone();
    p.guest.next_match().await;
    for ply in 0..plies {
        let mv = last["legal"][0].as_str().unwrap().to_string();
        let (mover, waiter) = if ply % 2 == 0 {
            (&mut p.host, &mut p.guest)
        } else {
            (&mut p.guest, &mut p.host)
        };
        mover.ok(json!({"type": "move", "move": mv})).await;
        mover.next_match().await;
        // The waiter plays next: their copy has the legal list (a long
        // one, Quoridor's, is only in theirs).
        let moved = waiter.next_match().await;
        last = follow(&last, &moved);
    }
    let loser = if host_loses {
        &mut p.host
    } else {
        &mut p.guest
    };
    loser.ok(json!({"type": "resign"})).await;
    let end = p.host.next_match().await;
    assert_eq!(end["kind"], "end", "{end}");
    p.guest.next_match().await;
    end["match"].clone()
}

async fn get_json(server: &TestServer, path: &str) -> (u16, Value) {
    let (status, text) = server.get(path).await;
    (status, serde_json::from_str(&text).unwrap_or(Value::Null))
}

/// `GET PATH` with the browser token as a bearer token.
async fn get_as(server: &TestServer, token: &str, path: &str) -> (u16, Value) {
    let resp = reqwest::Client::new()
        .get(format!("{}{path}", server.base))
        .bearer_auth(token)
        .send()
        .await
        .unwrap();
    (
        resp.status().as_u16(),
        resp.json().await.unwrap_or(Value::Null),
    )
}

/// `GET /api/games?QUERY` with the browser token as a bearer token.
async fn history_answer(server: &TestServer, token: &str, query: &str) -> (u16, Value) {
    get_as(server, token, &format!("/api/games?{query}")).await
}

async fn history(server: &TestServer, token: &str, query: &str) -> Value {
    let (status, body) = history_answer(server, token, query).await;
    assert_eq!(status, 200, "{body}");
    body
}

/// The history `browser` sees with its session cookie and `token`.
async fn history_as(browser: &mut Browser, token: &str, query: &str) -> Value {
    let answer = browser
        .get_with(
            &format!("/api/games?{query}"),
            &[("authorization", &format!("Bearer {token}"))],
        )
        .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    answer.body
}

fn results(page: &Value) -> Vec<String> {
    page["games"]
        .as_array()
        .unwrap()
        .iter()
        .map(|g| g["result"].as_str().unwrap().to_string())
        .collect()
}

const HOST: &str = "history-host-token-0001";
const GUEST: &str = "history-guest-token-0001";
const OTHER: &str = "history-other-token-0001";

#[tokio::test]
async fn a_guest_sees_their_games_others_open_them_by_link() {
    let server = TestServer::start().await;
    let mut p = pair(&server, "crossyray", HOST, GUEST).await;
    play(&mut p, 2, false).await; // game 1: the host wins
    play(&mut p, 3, true).await; // game 2: the guest wins

    let guest = history(&server, GUEST, "").await;
    assert_eq!(guest["total"], 2, "{guest}");
    assert_eq!(
        (guest["page"].clone(), guest["pages"].clone()),
        (json!(1), json!(1))
    );
    assert_eq!(results(&guest), ["win", "loss"]);
    let newest = &guest["games"][0];
    assert_eq!(newest["number"], 2);
    assert_eq!(newest["game"], "crossyray");
    assert_eq!(newest["room"], p.code);
    assert_eq!(newest["players"], json!(["Minh", "Lan"]));
    assert_eq!(newest["outcome"]["kind"], "win");
    assert_eq!(newest["outcome"]["reason"], "resign");
    assert!(newest["ended_at"].as_i64().unwrap() > 0);

    // The host: the other way round.
    assert_eq!(results(&history(&server, HOST, "").await), ["loss", "win"]);
    // The token never travels in a URL: `?token=` is not read.
    let (status, body) = get_json(&server, &format!("/api/games?token={HOST}")).await;
    assert_eq!((status, body["error"].as_str()), (401, Some("no_token")));
    // Filters.
    let wins = history(&server, HOST, "result=win").await;
    assert_eq!(wins["total"], 1);
    assert_eq!(wins["games"][0]["number"], 1);
    assert_eq!(history(&server, HOST, "game=jungle").await["total"], 0);
    assert_eq!(
        history(&server, HOST, "game=crossyray&result=loss").await["total"],
        1
    );
    // A key given twice is refused, whichever value is good.
    for bad in [
        "game=chess",
        "result=won",
        "page=0",
        "page=x",
        "page=1&page=2",
        "game=jungle&game=jungle",
    ] {
        let (status, body) = history_answer(&server, HOST, bad).await;
        assert_eq!(
            (status, body["error"].as_str()),
            (400, Some("bad_query")),
            "{bad}"
        );
    }
    let (status, body) = get_json(&server, "/api/games").await;
    assert_eq!((status, body["error"].as_str()), (401, Some("no_token")));

    // Another browser played nothing, but the link opens the game.
    assert_eq!(history(&server, OTHER, "").await["total"], 0);
    let id = newest["id"].as_str().unwrap();
    let (status, game) = get_json(&server, &format!("/api/games/{id}")).await;
    assert_eq!(status, 200);
    assert_eq!(game["id"], id);
    assert_eq!(game["moves"].as_array().unwrap().len(), 3);
    assert_eq!(game["options"]["width"], 9, "{game}");
    assert!(game.get("result").is_none());
    // A private room's code is its invitation: not shown to a stranger
    // (an attack round read profiles' games to join private rooms and
    // read their chat), shown to a member of the room, and to anyone
    // once the room is listed publicly.
    assert_eq!(game["room"], Value::Null, "{game}");
    let path = format!("/api/games/{id}");
    assert_eq!(get_as(&server, GUEST, &path).await.1["room"], p.code);
    assert_eq!(get_as(&server, OTHER, &path).await.1["room"], Value::Null);
    // Nor in the game's text: its [Room] header goes under the same rule.
    let export = format!("/api/games/{id}/export");
    let room_line = format!("[Room \"{}\"]", p.code);
    let (status, text) = server.get(&export).await;
    assert_eq!(status, 200);
    assert!(text.starts_with("[Game \"crossyray\"]\n[Number "), "{text}");
    assert!(!text.contains(&p.code), "{text}");
    let member_text = reqwest::Client::new()
        .get(format!("{}{export}", server.base))
        .bearer_auth(GUEST)
        .send()
        .await
        .unwrap()
        .text()
        .await
        .unwrap();
    assert!(member_text.contains(&room_line), "{member_text}");
    p.host.ok(json!({"type": "public", "on": true})).await;
    assert_eq!(
        get_json(&server, &format!("/api/games/{id}")).await.1["room"],
        p.code
    );
    assert!(server.get(&export).await.1.contains(&room_line));
    let (status, missing) = get_json(&server, "/api/games/nope").await;
    assert_eq!((status, missing["error"].as_str()), (404, Some("no_game")));

    // The room's games, newest first, for anyone.
    let (status, room) = get_json(&server, &format!("/api/rooms/{}/games", p.code)).await;
    assert_eq!(status, 200);
    assert_eq!(room["total"], 2);
    assert_eq!(room["games"][0]["number"], 2);
    assert_eq!(room["games"][1]["number"], 1);
    let (status, _) = get_json(&server, "/api/rooms/ZZZZZZ/games").await;
    assert_eq!(status, 404);
}

#[tokio::test]
async fn an_account_sees_its_games_from_every_browser_and_pages() {
    let server = TestServer::start().await;
    let mut lan = Browser::new(&server);
    lan.register_with(json!({"username": "Lan", "password": "correct horse", "token": GUEST}))
        .await;
    let mut p = pair_as(&server, "jungle", HOST, GUEST, Some(&lan)).await;
    for i in 0..23 {
        play(&mut p, 0, i % 3 == 0).await;
    }
    // A second browser logs in: the account's games are its history too.
    let mut other = Browser::new(&server);
    let a = other
        .log_in_with(json!({"username": "lan", "password": "correct horse", "token": OTHER}))
        .await;
    assert_eq!(a.status, 200);
    for (browser, token) in [(&mut lan, GUEST), (&mut other, OTHER)] {
        let first = history_as(browser, token, "").await;
        assert_eq!(first["total"], 23, "{first}");
        assert_eq!(first["pages"], 2);
        assert_eq!(first["games"].as_array().unwrap().len(), 20);
        assert_eq!(first["games"][0]["number"], 23);
        let second = history_as(browser, token, "page=2").await;
        assert_eq!(second["page"], 2);
        let numbers: Vec<_> = second["games"]
            .as_array()
            .unwrap()
            .iter()
            .map(|g| g["number"].clone())
            .collect();
        assert_eq!(numbers, [json!(3), json!(2), json!(1)]);
        // The guest won when the host resigned: games 1, 4, …, 22.
        let wins = history_as(browser, token, "result=win&game=jungle").await;
        assert_eq!(wins["total"], 8);
        assert_eq!(history_as(browser, token, "result=loss").await["total"], 15);
        assert_eq!(
            history_as(browser, token, "page=3").await["games"],
            json!([])
        );
    }
    // Without the cookie, the second browser's token has played nothing.
    assert_eq!(history(&server, OTHER, "").await["total"], 0);
    // The host is a guest: only their own browser sees their games.
    assert_eq!(history(&server, HOST, "").await["total"], 23);
    assert_eq!(
        history(&server, "someone-else-token-01", "").await["total"],
        0
    );
}

async fn export_text(server: &TestServer, id: &str) -> String {
    let resp = reqwest::get(format!("{}/api/games/{id}/export", server.base))
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let kind = resp.headers()["content-type"].to_str().unwrap().to_string();
    assert_eq!(kind, "text/plain; charset=utf-8");
    let file = resp.headers()["content-disposition"].to_str().unwrap();
    assert!(file.starts_with("attachment; filename=\""), "{file}");
    resp.text().await.unwrap()
}

async fn import(server: &TestServer, text: &str) -> (u16, Value) {
    let resp = reqwest::Client::new()
        .post(format!("{}/api/games/import", server.base))
        .header("content-type", "text/plain")
        .body(text.to_string())
        .send()
        .await
        .unwrap();
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap())
}

#[tokio::test]
async fn export_then_import_gives_the_game_back_for_every_game() {
    let server = TestServer::start().await;
    for (n, game) in ["crossyray", "quoridor", "jungle"].into_iter().enumerate() {
        let host = format!("export-host-token-{n:04}");
        let guest = format!("export-guest-token-{n:04}");
        let mut p = pair(&server, game, &host, &guest).await;
        let live = play(&mut p, 6, true).await;
        let list = history(&server, &host, "").await;
        let id = list["games"][0]["id"].as_str().unwrap().to_string();
        let (_, stored) = get_json(&server, &format!("/api/games/{id}")).await;

        // Each ply's position, replayed by the rules; the last is the
        // room's own state at the end, the resignation included (less
        // Jungle's move lists).
        let positions = stored["positions"].as_array().unwrap();
        assert_eq!(positions.len(), 7, "{game}: the start and six plies");
        for (n, pos) in positions.iter().enumerate() {
            assert_eq!(pos["ply"], n, "{game} ply {n}");
            let last_move = if n == 0 {
                Value::Null
            } else {
                stored["moves"][n - 1].clone()
            };
            assert_eq!(pos["last_move"], last_move, "{game} ply {n}");
            assert_eq!(
                pos["position"].is_string(),
                game != "quoridor",
                "{game}: {pos}"
            );
        }
        let mut state = live["state"].clone();
        if let Some(fields) = state.as_object_mut() {
            fields.remove("moves");
            fields.remove("legal_moves");
        }
        assert_eq!(
            positions[6], state,
            "{game}: the replay ends where the room was"
        );
        assert_eq!(positions[6]["outcome"], stored["outcome"], "{game}");
        assert_eq!(
            stored["leaves"],
            json!([{"ply": 6, "sides": [0], "reason": "resign"}]),
            "{game}: the resignation, after the sixth move"
        );
        let text = export_text(&server, &id).await;
        assert!(text.starts_with(&format!("[Game \"{game}\"]\n")), "{text}");
        assert!(
            text.contains("[Side0 \"Minh\"]\n[Side1 \"Lan\"]\n"),
            "{text}"
        );
        assert!(text.contains("[Result \"side 1 wins ("), "{text}");
        assert!(text.contains(")\"]\n\n1. "), "{text}");
        assert!(text.ends_with("\nside 0 leaves (resign)\n"), "{text}");
        assert!(text.contains("\n[Date \"20"), "{text}");
        let (status, back) = import(&server, &text).await;
        assert_eq!(status, 200, "{back}");
        assert_eq!(back["game"], game);
        assert_eq!(back["options"], stored["options"]);
        assert_eq!(back["players"], json!(["Minh", "Lan"]));
        assert_eq!(back["moves"], stored["moves"]);
        assert_eq!(back["moves"].as_array().unwrap().len(), 6);
        assert_eq!(back["outcome"], stored["outcome"]);
        assert_eq!(back["leaves"], stored["leaves"]);
        assert_eq!(
            back["positions"], stored["positions"],
            "{game}: the import replays to the same positions"
        );
    }
}

/// A Quoridor game of three in which one player resigns part-way: the
/// stored game keeps the leave, so its replay removes the pawn there and
/// goes on to the end, and the text export carries it through an import.
#[tokio::test]
async fn a_game_with_a_leave_replays_past_it() {
    let server = TestServer::start().await;
    let host = "leave-host-token-0001";
    let (code, _) = server
        .new_room(json!({"game": "quoridor", "options": {"players": 3}, "token": host}))
        .await;
    let mut seats = Vec::new();
    for (seat, (token, name)) in [
        (host, "Minh"),
        ("leave-guest-token-0002", "Lan"),
        ("leave-third-token-0003", "Khoa"),
    ]
    .into_iter()
    .enumerate()
    {
        let (mut c, _, _) = server.join(&code, Some(token), Some(name)).await;
        c.ok(json!({"type": "sit", "seat": seat})).await;
        seats.push(c);
    }
    seats[0]
        .ok(json!({"type": "autostart", "enabled": false}))
        .await;
    seats[0]
        .ok(json!({"type": "start", "order": "seats"}))
        .await;
    // Side 1 resigns after three moves; sides 2 and 0 play on; then side 0
    // resigns and side 2 wins by default.
    let script: [(usize, Value); 9] = [
        (0, json!({"type": "move", "move": "e2"})),
        (1, json!({"type": "move", "move": "b5"})),
        (2, json!({"type": "move", "move": "e8"})),
        (1, json!({"type": "resign"})),
        (0, json!({"type": "move", "move": "e3"})),
        (2, json!({"type": "move", "move": "e7"})),
        (0, json!({"type": "move", "move": "e4"})),
        (2, json!({"type": "move", "move": "e6"})),
        (0, json!({"type": "resign"})),
    ];
    for (seat, command) in script {
        seats[seat].ok(command).await;
    }
    let mut end = seats[2].next_match().await;
    while end["kind"] != "end" {
        end = seats[2].next_match().await;
    }
    let list = history(&server, host, "").await;
    let id = list["games"][0]["id"].as_str().unwrap().to_string();
    let (_, g) = get_json(&server, &format!("/api/games/{id}")).await;
    assert_eq!(
        g["outcome"],
        json!({"kind": "win", "winner": 2, "reason": "default"})
    );
    assert_eq!(
        g["moves"],
        json!(["e2", "b5", "e8", "e3", "e7", "e4", "e6"])
    );
    assert_eq!(
        g["leaves"],
        json!([
            {"ply": 3, "sides": [1], "reason": "resign"},
            {"ply": 7, "sides": [0], "reason": "resign"}
        ])
    );
    let positions = g["positions"].as_array().unwrap();
    assert_eq!(positions.len(), 8, "the start and every move: {g}");
    assert_eq!(positions[2]["pawns"], json!(["e2", "b5", "e9"]));
    assert_eq!(
        positions[3]["pawns"],
        json!(["e2", null, "e8"]),
        "gone after move 3"
    );
    assert_eq!(positions[3]["to_move"], 0);
    assert_eq!(positions[6]["pawns"], json!(["e4", null, "e7"]));
    // The last position is the room's own at the end.
    let state = &end["match"]["state"];
    assert_eq!(state["pawns"], json!([null, null, "e6"]));
    assert_eq!(&positions[7], state);

    // The export writes each leave after the move it followed; the import
    // reads it back to the same game.
    let text = export_text(&server, &id).await;
    assert!(
        text.contains("\n3. e8\nside 1 leaves (resign)\n4. e3\n"),
        "{text}"
    );
    assert!(
        text.ends_with("\n7. e6\nside 0 leaves (resign)\n"),
        "{text}"
    );
    let (status, back) = import(&server, &text).await;
    assert_eq!(status, 200, "{back}");
    assert_eq!(back["leaves"], g["leaves"]);
    assert_eq!(back["outcome"], g["outcome"]);
    assert_eq!(back["positions"], g["positions"]);
}

#[tokio::test]
async fn a_bad_import_names_its_first_bad_line() {
    let server = TestServer::start().await;
    let good = "[Game \"jungle\"]\n[Result \"side 0 wins (resign)\"]\n\n1. 8 a3-a4\n2. 8 g7-g6\n";
    let (status, ok) = import(&server, good).await;
    assert_eq!(status, 200, "{ok}");
    assert_eq!(ok["moves"], json!(["8 a3-a4", "8 g7-g6"]));
    assert_eq!(ok["players"], json!([]));
    assert_eq!(ok["options"]["mode"], "single");
    assert_eq!(
        ok["outcome"],
        json!({"kind": "win", "winner": 0, "reason": "resign"})
    );
    let cases = [
        (
            "[Game \"jungle\"]\n\n1. 8 a3-a4\n2. 8 a3-a4\n3. 8 a4-a5\n",
            "line 4: ",
        ),
        ("[Game \"chess\"]\n\n1. e4\n", "line 1: "),
        ("[Game \"jungle\"]\n[Options \"{oops\"]\n\n", "line 2: "),
        ("[Game \"jungle\"]\nGame jungle\n", "line 2: "),
        (
            "[Game \"jungle\"]\n[Result \"side 0 wins (resign)\"]\n\n1. 8 a3-a4\n3. 8 g7-g6\n",
            "line 5: ",
        ),
        ("[Game \"jungle\"]\n\n1. 8 a3-a4\n", "line 2: "),
        // Leaves: an unknown side, a reason that is no leaving, a move
        // after the leave that ended the game.
        (
            "[Game \"jungle\"]\n\n1. 8 a3-a4\nside 2 leaves (resign)\n",
            "line 4: side 2 cannot leave here",
        ),
        (
            "[Game \"jungle\"]\n\n1. 8 a3-a4\nside 1 leaves (goal)\n",
            "line 4: expected \"side N leaves",
        ),
        (
            "[Game \"jungle\"]\n\n1. 8 a3-a4\nside 1 leaves (abandon)\n2. 8 g7-g6\n",
            "line 5: the game is already over",
        ),
        // A side leaves once: not twice after the move that ended the
        // game, nor twice in a game that goes on.
        (
            "[Game \"jungle\"]\n[Result \"side 1 wins (resign)\"]\n\n1. 8 a3-a4\n\
             side 0 leaves (resign)\nside 0 leaves (resign)\n",
            "line 6: side 0 cannot leave here: it already left",
        ),
        (
            "[Game \"quoridor\"]\n[Options \"{\\\"players\\\":3}\"]\n\
             [Result \"side 0 wins (default)\"]\n\n\
             side 1 leaves (resign)\nside 1 leaves (abandon)\nside 2 leaves (resign)\n",
            "line 6: side 1 cannot leave here: it already left",
        ),
    ];
    let huge = format!("[Game \"jungle\"]\n\n{}", "x".repeat(20_000));
    let (status, body) = import(&server, &huge).await;
    assert_eq!((status, body["error"].as_str()), (413, Some("too_large")));
    for (text, line) in cases {
        let (status, body) = import(&server, text).await;
        assert_eq!(status, 400, "{text}: {body}");
        assert_eq!(body["error"], "bad_import");
        let message = body["message"].as_str().unwrap();
        assert!(message.starts_with(line), "{text}: {message}");
    }
}

#[tokio::test]
async fn a_position_is_played_from_its_moves_with_its_legal_moves() {
    let server = TestServer::start().await;
    // RULES.md §1, the goal example: f4, h4, then side 0 may enter the right goal.
    let (status, p) = get_json(&server, "/api/position?game=crossyray&moves=f4,h4").await;
    assert_eq!(status, 200, "{p}");
    assert_eq!(p["moves"], json!(["f4", "h4"]));
    assert_eq!(p["state"]["origin"], "h4");
    assert_eq!(p["state"]["to_move"], 0);
    assert_eq!(
        p["legal"],
        json!(["h5", "h6", "h7", "h3", "h2", "h1", "g4", "i4", "goal:right"])
    );
    assert_eq!(p["options"]["width"], 9);
    assert_eq!(p["points"], Value::Null, "no points while the game goes on");
    // An empty or blank item is an unreadable move, refused with its own
    // number; `moves=` alone is the start.
    for (moves, n) in [
        ("f4,,h4", 2),
        ("f4,%20%20,h4", 2),
        ("f4,h4,", 3),
        ("%09", 1),
    ] {
        let (status, e) = get_json(
            &server,
            &format!("/api/position?game=crossyray&moves={moves}"),
        )
        .await;
        assert_eq!(status, 400, "{moves}: {e}");
        assert_eq!(e["error"], "bad_query");
        let message = e["message"].as_str().unwrap();
        assert!(
            message.starts_with(&format!("move {n}: ")),
            "{moves}: {message}"
        );
    }
    let (status, start) = get_json(&server, "/api/position?game=crossyray&moves=").await;
    assert_eq!(status, 200, "{start}");
    assert_eq!(start["moves"], json!([]));
    // Jungle from a position string; a move with its space, URL-encoded.
    let start = "l5t/1d3c1/r1p1w1e/7/7/7/E1W1P1R/1C3D1/T5L%20b%200%201";
    let (status, j) = get_json(
        &server,
        &format!(
            "/api/position?game=jungle&options=%7B%22start%22%3A%22{start}%22%7D&moves=8%20a3-a4"
        ),
    )
    .await;
    assert_eq!(status, 200, "{j}");
    assert_eq!(
        j["state"]["position"],
        "l5t/1d3c1/r1p1w1e/7/7/E6/2W1P1R/1C3D1/T5L r 1 1"
    );
    assert!(j["legal"].as_array().is_some_and(|l| !l.is_empty()));
    // The start alone; Quoridor options.
    let (status, q) = get_json(
        &server,
        "/api/position?game=quoridor&options=%7B%22size%22%3A11%7D",
    )
    .await;
    assert_eq!(status, 200, "{q}");
    assert_eq!(q["state"]["size"], 11);
    assert_eq!(q["state"]["ply"], 0);
    // A finished game carries its scoreboard points: RULES.md §2, "a whole
    // game", where Red wins with Yellow 2 steps away (4 and 0), and the
    // mirror rule among four pawns.
    let (status, won) = get_json(
        &server,
        "/api/position?game=quoridor&moves=e2,e8,e3,e7,e4,e6,e5,d6,e6,d5,e7,d4,e8,d3,e9",
    )
    .await;
    assert_eq!(status, 200, "{won}");
    assert_eq!(won["state"]["outcome"]["reason"], "goal");
    assert_eq!(won["points"], json!([4, 0]));
    // Four pawns: Red walks up file e while the others stop 5, 6 and 8
    // steps from their goals.
    let (status, four) = get_json(
        &server,
        "/api/position?game=quoridor&options=%7B%22players%22%3A4%7D&moves=\
         e2,b5,d9,pass,e3,c5,d8,pass,e4,d5,d7,pass,e5,pass,pass,pass,e6,pass,pass,pass,\
         e7,pass,pass,pass,e8,pass,pass,pass,e9",
    )
    .await;
    assert_eq!(status, 200, "{four}");
    assert_eq!(four["state"]["pawns"], json!(["e9", "d5", "d7", "i5"]));
    assert_eq!(four["points"], json!([16, 12, 10, 0]));
    // A draw scores nothing.
    let (_, drawn) = get_json(
        &server,
        "/api/position?game=quoridor&options=%7B%22move_limit%22%3A2%7D&moves=e2,e8,e3,e7",
    )
    .await;
    assert_eq!(drawn["state"]["outcome"]["reason"], "move_limit");
    assert_eq!(drawn["points"], json!([0, 0]));
    // Refusals name what is wrong.
    for (query, wanted) in [
        ("game=chess", "Unknown game"),
        ("game=crossyray&options=%7B", "options are not JSON"),
        (
            "game=crossyray&options=%7B%22width%22%3A8%7D",
            "must be odd",
        ),
        ("game=crossyray&moves=f4,a1", "move 2: illegal move \"a1\""),
        ("game=crossyray&moves=f4,h4,goal:right,e5", "move 4"),
    ] {
        let (status, e) = get_json(&server, &format!("/api/position?{query}")).await;
        assert_eq!(
            (status, e["error"].as_str()),
            (400, Some("bad_query")),
            "{query}: {e}"
        );
        let message = e["message"].as_str().unwrap();
        assert!(message.contains(wanted), "{query}: {message}");
    }
}

/// A move line is `N. move` exactly (PROTOCOL.md "Import"): the number
/// without a leading zero or sign, a `.` right after it, then white
/// space and the move. What an editor adds around lines is read
/// (`\r\n` line ends, white space at a line's ends, several spaces after
/// the `.`, blank lines among the moves, a byte order mark first); a
/// number written otherwise is refused, saying what is wrong.
#[tokio::test]
async fn an_import_reads_move_lines_as_documented() {
    let server = TestServer::start().await;
    let head = "[Game \"jungle\"]\n[Result \"side 0 wins (resign)\"]\n\n";
    for (moves, message) in [
        (
            "1.8 a3-a4\n",
            "line 4: expected a space after \"1.\" (\"1. 8 a3-a4\")",
        ),
        (
            "01. 8 a3-a4\n",
            "line 4: move number \"01\" has a leading zero: expected \"1. <move>\"",
        ),
        (
            "1. 8 a3-a4\n02. 8 g7-g6\n",
            "line 5: move number \"02\" has a leading zero: expected \"2. <move>\"",
        ),
        (
            "+1. 8 a3-a4\n",
            "line 4: expected \"1. <move>\": \"+1\" is not a move number",
        ),
        (
            "1 . 8 a3-a4\n",
            "line 4: expected \"1. <move>\": \"1 \" is not a move number",
        ),
        (
            "1. 8 a3-a4\n3. 8 g7-g6\n",
            "line 5: expected move number 2, not 3",
        ),
        ("1.\n", "line 4: expected a move after \"1.\""),
        ("1. 8 a3-a4\n2 8 g7-g6\n", "line 5: expected \"2. <move>\""),
        (
            "1. 8 a3-a4\nside 01 leaves (resign)\n",
            "line 5: expected \"side N leaves (resign)\"",
        ),
    ] {
        let text = format!("{head}{moves}");
        let (status, body) = import(&server, &text).await;
        assert_eq!(status, 400, "{text}: {body}");
        assert_eq!(body["error"], "bad_import", "{text}");
        let said = body["message"].as_str().unwrap();
        assert!(said.starts_with(message), "{text}: {said}");
    }
    let plain = format!("{head}1. 8 a3-a4\n2. 8 g7-g6\n");
    let (status, want) = import(&server, &plain).await;
    assert_eq!(status, 200, "{want}");
    for text in [
        plain.replace('\n', "\r\n"),
        format!("{head}1. 8 a3-a4  \n\t2. 8 g7-g6\t\n"),
        format!("{head}1.   8 a3-a4\n2.\t8 g7-g6\n"),
        format!("{head}\n1. 8 a3-a4\n\n  \n2. 8 g7-g6\n\n"),
        format!("\u{feff}{plain}"),
        format!("{}\r\n", plain.replace('\n', " \r\n").trim_end()),
    ] {
        let (status, back) = import(&server, &text).await;
        assert_eq!(status, 200, "{text:?}: {back}");
        assert_eq!(back, want, "{text:?}");
    }
    // Header values: only \" and \\ escape, no control characters, and
    // a side's name has 1-120 characters (a fresh server: the imports
    // above spent the address's allowance).
    let server = TestServer::start().await;
    let moves = "1. 8 a3-a4\n";
    for (side, message) in [
        (
            r#"[Side0 "P\n0"]"#.to_string(),
            "line 3: in a header value only",
        ),
        (
            "[Side0 \"P\u{0}0\"]".to_string(),
            "line 3: a header value holds a control character",
        ),
        (
            "[Side0 \"\"]".to_string(),
            "line 3: a side's name has 1-120 characters (0 here)",
        ),
        (
            format!("[Side0 \"{}\"]", "x".repeat(121)),
            "line 3: a side's name has 1-120 characters (121 here)",
        ),
    ] {
        let text =
            format!("[Game \"jungle\"]\n[Result \"side 0 wins (resign)\"]\n{side}\n\n{moves}");
        let (status, body) = import(&server, &text).await;
        assert_eq!(status, 400, "{text}: {body}");
        let said = body["message"].as_str().unwrap();
        assert!(said.starts_with(message), "{text}: {said}");
    }
    let text = format!(
        "[Game \"jungle\"]\n[Result \"side 0 wins (resign)\"]\n[Side0 \"Minh \\\"M\\\" \\\\ 1\"]\n[Side1 \"{}\"]\n\n{moves}",
        "y".repeat(120)
    );
    let (status, body) = import(&server, &text).await;
    assert_eq!(status, 200, "{text}: {body}");
    assert_eq!(body["players"][0], "Minh \"M\" \\ 1", "{body}");
}
