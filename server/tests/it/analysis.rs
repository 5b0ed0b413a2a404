//! The analysis of finished games through the real server: every game's
//! job judged and graded, cached, followed as events, resumed after a
//! restart, never in the way of a live computer player, bounded per
//! address and in all; imported games too.

use std::time::{Duration, Instant};

use crate::common;

use common::{next_match_of, table_of, TestServer};
use serde_json::{json, Value};

/// A short game of each: the moves, and whether the host then resigns
/// (CrossyRay's last move wins it).
const GAMES: [(&str, &[&str], bool); 3] = [
    ("crossyray", &["f4", "h4", "goal:right"], false),
    ("quoridor", &["e2", "e8", "e3", "e7", "e4", "e6"], true),
    ("jungle", &["8 a3-a4", "8 g7-g6", "8 a4-a5"], true),
];

/// Plays `moves` in a new room of `game` and ends it; the game's id.
async fn finished(server: &TestServer, game: &str, moves: &[&str], resign: bool) -> String {
    let mut t = table_of(server, game, Value::Null).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut t.spectator, "start").await;
    for (i, mv) in moves.iter().enumerate() {
        let player = if i % 2 == 0 {
            &mut t.host
        } else {
            &mut t.guest
        };
        player.ok(json!({"type": "move", "move": mv})).await;
    }
    if resign {
        t.host.ok(json!({"type": "resign"})).await;
    }
    let until = Instant::now() + Duration::from_secs(10);
    loop {
        let (_, list) = get_json(server, &format!("/api/rooms/{}/games", t.code)).await;
        if let Some(id) = list["games"][0]["id"].as_str() {
            return id.to_string();
        }
        assert!(Instant::now() < until, "the game is stored");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
}

/// `POST /api/analysis` with a game's text.
async fn ask_text(server: &TestServer, body: String) -> (u16, Value) {
    let resp = reqwest::Client::new()
        .post(format!("{}/api/analysis", server.base))
        .body(body)
        .send()
        .await
        .unwrap();
    (resp.status().as_u16(), resp.json::<Value>().await.unwrap())
}

async fn get_json(server: &TestServer, path: &str) -> (u16, Value) {
    let (status, body) = server.get(path).await;
    (status, serde_json::from_str(&body).unwrap_or(Value::Null))
}

/// Waits until analysis `id` is done (or fails after `within`).
async fn done(server: &TestServer, id: &str, within: Duration) -> Value {
    let until = Instant::now() + within;
    loop {
        let (status, a) = get_json(server, &format!("/api/analysis/{id}")).await;
        assert_eq!(status, 200, "{a}");
        if a["status"] == "done" {
            return a;
        }
        assert!(Instant::now() < until, "not done in {within:?}: {a}");
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
}

/// Checks a finished analysis of `moves`: a judged position per ply,
/// chances that add up, best moves the rules accept, every move graded.
async fn check(server: &TestServer, game: &str, moves: &[&str], a: &Value) {
    assert_eq!(a["total"], moves.len(), "{a}");
    assert_eq!(a["analysed"], moves.len(), "{a}");
    let positions = a["positions"].as_array().unwrap();
    assert_eq!(positions.len(), moves.len() + 1);
    for (n, p) in positions.iter().enumerate() {
        assert_eq!(p["ply"], n, "{p}");
        let sum: f64 = p["chances"]
            .as_array()
            .unwrap()
            .iter()
            .map(|c| c.as_f64().unwrap())
            .sum();
        assert!((sum - 1.0).abs() < 0.001, "{game} {n}: {p}");
        assert!(p.get("standing").is_none());
        if let Some(best) = p["best"].as_str() {
            // The engine's move is legal where it was judged.
            let path = format!(
                "/api/position?game={game}&moves={}",
                moves[..n]
                    .iter()
                    .chain([&best])
                    .map(|m| m.replace(' ', "%20"))
                    .collect::<Vec<_>>()
                    .join(",")
            );
            let (status, answer) = get_json(server, &path).await;
            assert_eq!(status, 200, "{game} {n}: best {best} is legal: {answer}");
        }
    }
    let graded = a["moves"].as_array().unwrap();
    for (k, m) in graded.iter().enumerate() {
        assert_eq!(
            (m["ply"].clone(), m["move"].clone()),
            (json!(k + 1), json!(moves[k]))
        );
        assert_eq!(m["side"], k % 2);
        let drop = m["drop"].as_f64().unwrap();
        assert!((0.0..=1.0).contains(&drop));
        let grade = match drop {
            d if d >= 0.3 => json!("blunder"),
            d if d >= 0.2 => json!("mistake"),
            d if d >= 0.1 => json!("inaccuracy"),
            _ => Value::Null,
        };
        assert_eq!(m["grade"], grade, "{m}");
        if m["move"] == m["best"] {
            assert_eq!(drop, 0.0);
        }
    }
    let players = a["players"].as_array().unwrap();
    assert_eq!(players.len(), 2);
    assert!(players[0]["accuracy"]
        .as_f64()
        .is_some_and(|x| (0.0..=100.0).contains(&x)));
}

#[tokio::test]
async fn a_finished_game_of_every_game_is_analysed_graded_and_cached() {
    let server = TestServer::start_with(|c| c.analysis_ms = 30).await;
    for (game, moves, resign) in GAMES {
        let id = finished(&server, game, moves, resign).await;
        // The game says whether its analysis was asked for.
        let (_, g) = get_json(&server, &format!("/api/games/{id}")).await;
        assert_eq!(g["analysis"], Value::Null, "{g}");
        let (status, asked) = server
            .post(&format!("/api/games/{id}/analysis"), Value::Null)
            .await;
        assert_eq!(status, 200, "{asked}");
        assert_eq!(asked["id"], id.as_str());
        assert_eq!(asked["game"], game);
        let a = done(&server, &id, Duration::from_secs(30)).await;
        check(&server, game, moves, &a).await;
        let (_, g) = get_json(&server, &format!("/api/games/{id}")).await;
        assert_eq!(g["analysis"], "done", "{g}");
        // CrossyRay's last move won: the end is side 0's.
        if !resign {
            assert_eq!(a["positions"][moves.len()]["chances"], json!([1.0, 0.0]));
        }
        // Asked again: the same analysis, done at once.
        let (status, again) = server
            .post(&format!("/api/games/{id}/analysis"), Value::Null)
            .await;
        assert_eq!((status, &again), (200, &a));
    }
    let (status, none) = get_json(&server, "/api/analysis/nothing-here").await;
    assert_eq!((status, none["error"].clone()), (404, json!("no_analysis")));
    let (status, none) = server
        .post("/api/games/nothing-here/analysis", Value::Null)
        .await;
    assert_eq!((status, none["error"].clone()), (404, json!("no_game")));
}

#[tokio::test]
async fn an_analysis_is_followed_as_events_until_it_is_done() {
    // Positions judged in 400 ms each; events go at most once a second.
    let server = TestServer::start_with(|c| c.analysis_ms = 400).await;
    let (game, moves, resign) = GAMES[1];
    let id = finished(&server, game, moves, resign).await;
    server
        .post(&format!("/api/games/{id}/analysis"), Value::Null)
        .await;
    let mut resp = reqwest::get(format!("{}/api/analysis/{id}/events", server.base))
        .await
        .unwrap();
    assert_eq!(resp.status(), 200);
    assert!(resp.headers()["content-type"]
        .to_str()
        .unwrap()
        .starts_with("text/event-stream"));
    let mut text = String::new();
    let mut seen: Vec<u64> = Vec::new();
    let until = Instant::now() + Duration::from_secs(30);
    'read: while let Ok(Some(chunk)) = tokio::time::timeout_at(until.into(), resp.chunk())
        .await
        .unwrap()
    {
        text.push_str(&String::from_utf8_lossy(&chunk));
        while let Some(end) = text.find("\n\n") {
            let event: String = text.drain(..end + 2).collect();
            let Some(data) = event.lines().find_map(|l| l.strip_prefix("data:")) else {
                continue;
            };
            assert!(
                event.contains("event: analysis") || event.contains("event:analysis"),
                "{event}"
            );
            let a: Value = serde_json::from_str(data.trim()).unwrap();
            seen.push(a["analysed"].as_u64().unwrap());
            if a["status"] == "done" {
                break 'read;
            }
        }
    }
    assert_eq!(seen.last(), Some(&(moves.len() as u64)), "{seen:?}");
    assert!(seen.len() >= 3, "progress pushed as it goes: {seen:?}");
    assert!(seen.windows(2).all(|w| w[0] <= w[1]), "{seen:?}");
    // The stream ended after the last.
    assert!(matches!(resp.chunk().await, Ok(None) | Err(_)));
}

#[tokio::test]
async fn a_restart_in_the_middle_resumes_where_it_stopped() {
    let dir = tempfile::tempdir().unwrap();
    let server = TestServer::start_in(dir, |c| c.analysis_ms = 400).await;
    let (game, moves, resign) = GAMES[1];
    let id = finished(&server, game, moves, resign).await;
    server
        .post(&format!("/api/games/{id}/analysis"), Value::Null)
        .await;
    let until = Instant::now() + Duration::from_secs(30);
    let before = loop {
        let (_, a) = get_json(&server, &format!("/api/analysis/{id}")).await;
        if a["positions"].as_array().unwrap().len() >= 2 {
            break a;
        }
        assert!(Instant::now() < until);
        tokio::time::sleep(Duration::from_millis(20)).await;
    };
    assert_ne!(before["status"], "done");
    let dir = server.stop().await;
    let server = TestServer::start_in(dir, |c| c.analysis_ms = 30).await;
    let a = done(&server, &id, Duration::from_secs(10)).await;
    check(&server, game, moves, &a).await;
    // What was judged before the restart stands: resumed, not begun again
    // (a 30 ms search is not as deep as those of 400 ms).
    let kept = before["positions"].as_array().unwrap();
    assert_eq!(
        &a["positions"].as_array().unwrap()[..kept.len()],
        kept.as_slice()
    );
}

#[tokio::test]
async fn a_live_computer_player_answers_within_its_time_while_analyses_run() {
    // Analyses on every core, each search 5 s: without live play first a
    // computer's move would wait for one to end.
    let server = TestServer::start_with(|c| {
        c.analysis_ms = 5_000;
        c.analysis_workers = 4;
        c.analyses_per_addr = 10;
        c.bot_ms = 300;
    })
    .await;
    let (game, moves, resign) = GAMES[1];
    let mut ids = Vec::new();
    for _ in 0..4 {
        let id = finished(&server, game, moves, resign).await;
        server
            .post(&format!("/api/games/{id}/analysis"), Value::Null)
            .await;
        ids.push(id);
    }
    // Every worker is in a search.
    tokio::time::sleep(Duration::from_millis(500)).await;
    for id in &ids {
        let (_, a) = get_json(&server, &format!("/api/analysis/{id}")).await;
        assert_eq!(a["status"], "running", "{a}");
    }
    let (_, mut host) = server
        .against_the_computer(json!({"game": "quoridor", "options": {}}), "Lan")
        .await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut host, "start").await;
    host.ok(json!({"type": "move", "move": "e2"})).await;
    let sent = Instant::now();
    next_match_of(&mut host, "move").await;
    next_match_of(&mut host, "move").await;
    let took = sent.elapsed();
    // Beginner thinks 5 % of 300 ms; a slot must come free at once.
    assert!(
        took < Duration::from_millis(1_500),
        "the computer took {took:?}"
    );
    // The analyses went on.
    for id in &ids {
        let (_, a) = get_json(&server, &format!("/api/analysis/{id}")).await;
        assert_ne!(a["status"], "queued", "{a}");
    }
}

#[tokio::test]
async fn analyses_are_bounded_per_address_and_in_all() {
    let server = TestServer::start_with(|c| {
        c.analysis_ms = 2_000;
        c.analyses_per_addr = 1;
        c.analysis_workers = 0;
    })
    .await;
    let (game, moves, resign) = GAMES[1];
    let first = finished(&server, game, moves, resign).await;
    let second = finished(&server, game, moves, resign).await;
    let (status, a) = server
        .post(&format!("/api/games/{first}/analysis"), Value::Null)
        .await;
    assert_eq!((status, a["status"].clone()), (200, json!("queued")), "{a}");
    // The same one again is no new job.
    let (status, _) = server
        .post(&format!("/api/games/{first}/analysis"), Value::Null)
        .await;
    assert_eq!(status, 200);
    let (status, refused) = server
        .post(&format!("/api/games/{second}/analysis"), Value::Null)
        .await;
    assert_eq!(
        (status, refused["error"].clone()),
        (429, json!("too_many_analyses"))
    );
    let (status, _) = get_json(&server, &format!("/api/analysis/{second}")).await;
    assert_eq!(status, 404, "a refused one is not stored");
    let dir = server.stop().await;
    let server = TestServer::start_in(dir, |c| {
        c.analysis_workers = 0;
        c.analysis_queue = 1;
    })
    .await;
    let (status, refused) = server
        .post(&format!("/api/games/{second}/analysis"), Value::Null)
        .await;
    assert_eq!(
        (status, refused["error"].clone()),
        (503, json!("analysis_busy"))
    );
}

#[tokio::test]
async fn an_imported_game_is_analysed_under_the_hash_of_its_game() {
    let server = TestServer::start_with(|c| c.analysis_ms = 30).await;
    let text = "[Game \"jungle\"]\n\n1. 8 a3-a4\n2. 8 g7-g6\n3. 8 a4-a5\nside 1 leaves (resign)\n";
    let post = |body: &'static str| ask_text(&server, body.to_string());
    let (status, a) = post(text).await;
    assert_eq!(status, 200, "{a}");
    let id = a["id"].as_str().unwrap().to_string();
    assert!(id.len() == 17 && id.starts_with('i'), "{id}");
    let a = done(&server, &id, Duration::from_secs(30)).await;
    check(&server, "jungle", &["8 a3-a4", "8 g7-g6", "8 a4-a5"], &a).await;
    // The same game imported again finds it.
    let (_, again) = post(text).await;
    assert_eq!(again, a);
    let (status, bad) = post("[Game \"jungle\"]\n\n1. 8 a3-a9\n").await;
    assert_eq!((status, bad["error"].clone()), (400, json!("bad_import")));
}

#[tokio::test]
async fn an_address_follows_at_most_four_analyses_at_once() {
    let server = TestServer::start_with(|c| c.analysis_ms = 2_000).await;
    let (game, moves, resign) = GAMES[1];
    let id = finished(&server, game, moves, resign).await;
    server
        .post(&format!("/api/games/{id}/analysis"), Value::Null)
        .await;
    let url = format!("{}/api/analysis/{id}/events", server.base);
    let mut open = Vec::new();
    for _ in 0..server::analysis::api::STREAMS_PER_ADDR {
        let resp = reqwest::get(&url).await.unwrap();
        assert_eq!(resp.status(), 200);
        open.push(resp);
    }
    let refused = reqwest::get(&url).await.unwrap();
    assert_eq!(refused.status(), 429);
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "too_many_sockets", "{body}");
    // One closes: its place comes back.
    drop(open.pop());
    let again = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            let resp = reqwest::get(&url).await.unwrap();
            if resp.status() == 200 {
                return resp;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("a place comes back");
    open.push(again);
}

/// Waiting analyses are served shortest first: a short game asked while
/// a long one runs is done long before it (the worker gives the long one
/// back after a position), and the long one then finishes where it was.
#[tokio::test]
async fn a_short_game_is_analysed_before_a_long_one_asked_first() {
    let server = TestServer::start_with(|c| {
        c.analysis_ms = 250;
        c.analysis_workers = 1;
        c.analyses_per_addr = 4;
    })
    .await;
    // 24 moves there and back: 25 positions, about 6 s of searches.
    let long_moves: Vec<&str> = ["e2", "e8", "e1", "e9"].repeat(6);
    let mut long_text = "[Game \"quoridor\"]\n\n".to_string();
    for (i, mv) in long_moves.iter().enumerate() {
        long_text += &format!("{}. {mv}\n", i + 1);
    }
    long_text += "side 1 leaves (resign)\n";
    let (status, long) = ask_text(&server, long_text).await;
    assert_eq!(status, 200, "{long}");
    let long_id = long["id"].as_str().unwrap().to_string();
    // The long one is under way.
    let until = Instant::now() + Duration::from_secs(20);
    loop {
        let (_, a) = get_json(&server, &format!("/api/analysis/{long_id}")).await;
        if !a["positions"].as_array().unwrap().is_empty() {
            break;
        }
        assert!(Instant::now() < until, "the long one starts: {a}");
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    let short_text =
        "[Game \"jungle\"]\n\n1. 8 a3-a4\n2. 8 g7-g6\n3. 8 a4-a5\nside 1 leaves (resign)\n";
    let (status, short) = ask_text(&server, short_text.to_string()).await;
    assert_eq!(status, 200, "{short}");
    let short_id = short["id"].as_str().unwrap().to_string();
    let a = done(&server, &short_id, Duration::from_secs(20)).await;
    check(&server, "jungle", &["8 a3-a4", "8 g7-g6", "8 a4-a5"], &a).await;
    let (_, l) = get_json(&server, &format!("/api/analysis/{long_id}")).await;
    assert_ne!(l["status"], "done", "the short one came first: {l}");
    assert!(
        l["positions"].as_array().unwrap().len() < 20,
        "the long one waited: {l}"
    );
    // And the long one goes on to its end.
    let l = done(&server, &long_id, Duration::from_secs(60)).await;
    check(&server, "quoridor", &long_moves, &l).await;
}
