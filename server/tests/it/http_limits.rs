//! HTTP limits over the real server: per-address rate limits on room
//! creation, registration and failed logins (`429` with `Retry-After`),
//! who the client is behind `--trusted-proxy`, the bounded address table,
//! and `413` for an oversized body.

use crate::common;

use common::browser::Browser;
use common::TestServer;
use serde_json::{json, Value};

/// A server whose room creation allows `burst` rooms at once and one more
/// every `every_secs`, with `more` of its own settings.
async fn rooms_limited(
    burst: u32,
    every_secs: u64,
    more: impl FnOnce(&mut server::Config),
) -> TestServer {
    TestServer::start_with(|c| {
        c.room_burst = burst;
        c.room_every_secs = every_secs;
        more(c);
    })
    .await
}

/// `127.0.0.1` (where the tests' requests come from) as a trusted proxy.
fn behind_local_proxy(c: &mut server::Config) {
    c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
}

struct Answer {
    status: u16,
    retry_after: Option<u64>,
    body: Value,
}

async fn post_with(
    server: &TestServer,
    path: &str,
    body: String,
    headers: &[(&str, &str)],
) -> Answer {
    let mut request = reqwest::Client::new()
        .post(format!("{}{path}", server.base))
        .header("Content-Type", "application/json")
        .body(body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    Answer::read(request.send().await.expect("request")).await
}

impl Answer {
    /// The status, Retry-After and body of `resp` (`null` for an empty
    /// body, a string for one that is not JSON).
    async fn read(resp: reqwest::Response) -> Answer {
        let status = resp.status().as_u16();
        let retry_after = resp
            .headers()
            .get("retry-after")
            .map(|v| v.to_str().unwrap().parse().expect("Retry-After in seconds"));
        let text = resp.text().await.expect("body");
        let body = match text.as_str() {
            "" => Value::Null,
            _ => serde_json::from_str(&text).unwrap_or(Value::String(text)),
        };
        Answer {
            status,
            retry_after,
            body,
        }
    }
}

async fn post(server: &TestServer, path: &str, body: Value) -> Answer {
    post_with(server, path, body.to_string(), &[]).await
}

/// `POST path` (`/api/accounts` or `/api/login`) with a username and a
/// password.
async fn post_credentials(
    server: &TestServer,
    path: &str,
    username: &str,
    password: &str,
) -> Answer {
    post(
        server,
        path,
        json!({"username": username, "password": password}),
    )
    .await
}

async fn create_from(server: &TestServer, headers: &[(&str, &str)]) -> Answer {
    post_with(server, "/api/rooms", json!({}).to_string(), headers).await
}

fn assert_limited(answer: &Answer, max_wait: u64) {
    assert_eq!(answer.status, 429, "{}", answer.body);
    assert_eq!(answer.body["error"], "rate_limited", "{}", answer.body);
    assert!(answer.body["message"]
        .as_str()
        .is_some_and(|m| !m.is_empty()));
    let wait = answer.retry_after.expect("a Retry-After header");
    assert!((1..=max_wait).contains(&wait), "Retry-After {wait}");
}

#[tokio::test]
async fn room_creation_allows_ten_at_once_then_one_every_six_seconds() {
    let server = TestServer::start().await;
    // Ten at once; an eleventh only if the ten took over 6 s (slow CI).
    let mut created = 0;
    let refused = loop {
        let answer = post(&server, "/api/rooms", json!({})).await;
        if answer.status != 201 {
            break answer;
        }
        assert_eq!(answer.retry_after, None);
        created += 1;
        assert!(created <= 11, "never limited");
    };
    assert!(created >= 10, "{created}");
    assert_limited(&refused, 6);
    // Other endpoints are not affected.
    let (status, _) = server.get("/healthz").await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn room_creation_limit_is_configurable_and_refills() {
    let server = rooms_limited(2, 3, |_| {}).await;
    for _ in 0..2 {
        assert_eq!(post(&server, "/api/rooms", json!({})).await.status, 201);
    }
    assert_limited(&post(&server, "/api/rooms", json!({})).await, 3);
    tokio::time::sleep(std::time::Duration::from_millis(3100)).await;
    let again = post(&server, "/api/rooms", json!({})).await;
    assert_eq!(again.status, 201, "{}", again.body);
    assert_limited(&post(&server, "/api/rooms", json!({})).await, 3);
}

#[tokio::test]
async fn refused_options_spend_none_of_the_rooms_allowance() {
    let server = rooms_limited(2, 60, |_| {}).await;
    for _ in 0..5 {
        let answer = post(
            &server,
            "/api/rooms",
            json!({"game": "crossyray", "options": {"width": 8}}),
        )
        .await;
        assert_eq!(answer.status, 400, "{}", answer.body);
        assert_eq!(answer.body["error"], "bad_options");
        let unknown = post(&server, "/api/rooms", json!({"game": "chess"})).await;
        assert_eq!(unknown.body["error"], "bad_options");
    }
    for _ in 0..2 {
        let answer = post(&server, "/api/rooms", json!({"game": "crossyray"})).await;
        assert_eq!(answer.status, 201, "{}", answer.body);
    }
    assert_limited(&post(&server, "/api/rooms", json!({})).await, 60);
}

#[tokio::test]
async fn a_zero_burst_turns_room_limit_off() {
    let server = TestServer::start_with(|c| c.room_burst = 0).await;
    for _ in 0..25 {
        assert_eq!(post(&server, "/api/rooms", json!({})).await.status, 201);
    }
}

#[tokio::test]
async fn registration_allows_five_at_once_then_one_a_minute() {
    let server = TestServer::start().await;
    // Forms refused before any lookup or hash do not count.
    for _ in 0..8 {
        let answer = post_credentials(&server, "/api/accounts", "minh", "short").await;
        assert_eq!(answer.status, 400, "{}", answer.body);
        assert_eq!(answer.body["error"], "bad_password");
    }
    for n in 0..5 {
        let name = format!("player_{n}");
        let answer = post_credentials(&server, "/api/accounts", &name, "correct horse").await;
        assert_eq!(answer.status, 201, "account {n}: {}", answer.body);
    }
    let refused = post_credentials(&server, "/api/accounts", "player_5", "correct horse").await;
    assert_limited(&refused, 60);
    // Refused before the account was made.
    let login = post_credentials(&server, "/api/login", "player_5", "correct horse").await;
    assert_eq!(login.status, 401, "{}", login.body);
}

#[tokio::test]
async fn one_account_gets_no_more_rooms_from_many_addresses() {
    let server = rooms_limited(2, 3600, behind_local_proxy).await;
    let mut minh = Browser::new(&server);
    minh.register("minh", "password1").await;
    assert_eq!(create_as(&mut minh, "203.0.113.1").await.status, 201);
    assert_eq!(create_as(&mut minh, "203.0.113.2").await.status, 201);
    // The account's two are spent, whichever address asks next.
    let refused = create_as(&mut minh, "203.0.113.3").await;
    assert_eq!(refused.status, 429, "{}", refused.body);
    assert_eq!(refused.body["error"], "rate_limited");
    assert!(
        refused.body["message"]
            .as_str()
            .unwrap()
            .contains("account"),
        "{}",
        refused.body
    );
    // That refusal spent nothing of 203.0.113.3's own two.
    let guest = [("X-Forwarded-For", "203.0.113.3")];
    assert_eq!(create_from(&server, &guest).await.status, 201);
    assert_eq!(create_from(&server, &guest).await.status, 201);
    assert_limited(&create_from(&server, &guest).await, 3600);
    // Another account from a fresh address has its own.
    let mut lan = Browser::new(&server);
    lan.register("lan", "password1").await;
    let answer = create_as(&mut lan, "203.0.113.4").await;
    assert_eq!(answer.status, 201, "{}", answer.body);
}

/// `POST /api/rooms` by `browser` (signed in) from the forwarded client
/// address `ip`.
async fn create_as(browser: &mut Browser, ip: &str) -> common::browser::Answer {
    browser
        .send_with(
            reqwest::Method::POST,
            "/api/rooms",
            Some(json!({})),
            &[("X-Forwarded-For", ip)],
        )
        .await
}

#[tokio::test]
async fn forwarding_headers_are_ignored_without_a_trusted_proxy() {
    let server = rooms_limited(1, 3600, |_| {}).await;
    let first = create_from(&server, &[("X-Forwarded-For", "203.0.113.1")]).await;
    assert_eq!(first.status, 201);
    // A client cannot get a fresh allowance by naming another address.
    for headers in [
        [("X-Forwarded-For", "203.0.113.2")],
        [("X-Real-IP", "203.0.113.3")],
    ] {
        assert_limited(&create_from(&server, &headers).await, 3600);
    }
}

#[tokio::test]
async fn behind_a_trusted_proxy_each_forwarded_client_has_its_own_allowance() {
    let server = rooms_limited(1, 3600, behind_local_proxy).await;
    let a = [("X-Forwarded-For", "203.0.113.1")];
    assert_eq!(create_from(&server, &a).await.status, 201);
    assert_limited(&create_from(&server, &a).await, 3600);
    let b = [("X-Forwarded-For", "203.0.113.2")];
    assert_eq!(create_from(&server, &b).await.status, 201);
    // A client that writes its own X-Forwarded-For only adds entries to the
    // left of the one the proxy appends: the rightmost still counts.
    let spoof = [("X-Forwarded-For", "198.51.100.77, 203.0.113.1")];
    assert_limited(&create_from(&server, &spoof).await, 3600);
    // X-Real-IP when the proxy sends no X-Forwarded-For.
    let real = [("X-Real-IP", "203.0.113.3")];
    assert_eq!(create_from(&server, &real).await.status, 201);
    assert_limited(&create_from(&server, &real).await, 3600);
    // No header at all: the proxy's own address.
    assert_eq!(create_from(&server, &[]).await.status, 201);
    assert_limited(&create_from(&server, &[]).await, 3600);
}

#[tokio::test]
async fn a_full_address_table_refuses_new_addresses_instead_of_growing() {
    let server = rooms_limited(2, 3600, |c| {
        c.rate_limit_max_addrs = 3;
        behind_local_proxy(c);
    })
    .await;
    for n in 1..=3 {
        let from = format!("203.0.113.{n}");
        let answer = create_from(&server, &[("X-Forwarded-For", &from)]).await;
        assert_eq!(answer.status, 201, "{from}: {}", answer.body);
    }
    for n in 4..=10 {
        let from = format!("203.0.113.{n}");
        let answer = create_from(&server, &[("X-Forwarded-For", &from)]).await;
        // The first bucket is full again after one interval.
        assert_limited(&answer, 3600);
    }
    // The addresses already counted keep their allowance.
    let again = create_from(&server, &[("X-Forwarded-For", "203.0.113.1")]).await;
    assert_eq!(again.status, 201, "{}", again.body);
}

#[tokio::test]
async fn failed_logins_are_counted_per_forwarded_client() {
    let server = TestServer::start_with(behind_local_proxy).await;
    let wrong = json!({"username": "nobody", "password": "wrong password"}).to_string();
    let a = [("X-Forwarded-For", "203.0.113.1")];
    // Ten failures at once, give or take one refilled by a slow hash.
    let mut failures = 0;
    let refused = loop {
        let answer = post_with(&server, "/api/login", wrong.clone(), &a).await;
        if answer.status == 429 {
            break answer;
        }
        assert_eq!(answer.status, 401, "{}", answer.body);
        failures += 1;
        assert!(failures <= 12, "never limited");
    };
    assert!(failures >= 10, "{failures}");
    assert_limited(&refused, 6);
    let b = [("X-Forwarded-For", "203.0.113.2")];
    let other = post_with(&server, "/api/login", wrong, &b).await;
    assert_eq!(other.status, 401, "{}", other.body);
}

#[tokio::test]
async fn an_oversized_body_is_413_too_large_on_every_post() {
    let server = TestServer::start().await;
    let big = json!({"token": "x".repeat(20 * 1024)}).to_string();
    for path in ["/api/rooms", "/api/accounts", "/api/login", "/api/password"] {
        let answer = post_with(&server, path, big.clone(), &[]).await;
        assert_eq!(answer.status, 413, "{path}: {}", answer.body);
        assert_eq!(answer.body["error"], "too_large", "{path}");
        assert!(answer.body["message"].is_string(), "{path}");
        // Malformed JSON under the limit is still 400, and so is JSON
        // that is not an object (serde would read `[]` as `{}`).
        for bad in ["{not json", "[]", "[\"Minh\", \"x\"]", "\"text\"", "null"] {
            let answer = post_with(&server, path, bad.into(), &[]).await;
            assert_eq!(answer.status, 400, "{path} {bad}: {}", answer.body);
            assert_eq!(answer.body["error"], "bad_message", "{path} {bad}");
        }
    }
    // A path under /api/ that names nothing: the API's 404, not a page's.
    let (status, body) = server.get("/api/nonexistent").await;
    assert_eq!(status, 404);
    let body: serde_json::Value = serde_json::from_str(&body).expect("a JSON 404");
    assert_eq!(body["error"], "not_found");
    // So is the test clock on a server without --test-clock, either way.
    let answer = post_with(&server, "/api/test/clock", "{\"advance_ms\":1}".into(), &[]).await;
    assert_eq!(answer.status, 404);
    assert_eq!(answer.body["error"], "not_found", "{}", answer.body);
    let (status, _) = server.get("/api/test/clock").await;
    assert_eq!(status, 404);
    // A path part that is not UTF-8 once decoded: the API's 400.
    for path in [
        "/api/rooms/%FF%FE",
        "/api/rooms/%FF/qr.svg",
        "/api/games/%C3%28",
    ] {
        let (status, body) = server.get(path).await;
        assert_eq!(status, 400, "{path}");
        let body: serde_json::Value = serde_json::from_str(&body).expect("JSON");
        assert_eq!(body["error"], "bad_message", "{path}");
    }
    // Just under the limit is read (and judged on its content).
    let fits = json!({"token": "x".repeat(15 * 1024)}).to_string();
    let answer = post_with(&server, "/api/login", fits, &[]).await;
    assert_eq!(answer.status, 401, "{}", answer.body);
    assert_eq!(answer.body["error"], "bad_login");
}

// ---------------------------------------------------------------------
// Room lookups and game imports are limited per address.

/// `GET path` from the loopback address `from` (any 127.x.y.z reaches
/// the server): status, Retry-After and body.
async fn get_from(server: &TestServer, path: &str, from: [u8; 4]) -> Answer {
    let client = reqwest::Client::builder()
        .local_address(std::net::IpAddr::from(from))
        .build()
        .expect("client");
    let resp = client
        .get(format!("{}{path}", server.base))
        .send()
        .await
        .expect("request");
    Answer::read(resp).await
}

const HOME: [u8; 4] = [127, 0, 0, 1];

/// Sends with `send` until an answer is `429`; each before it must be
/// `status` with `error`, and at most `most` may pass. Returns how many
/// passed, and the refusal.
async fn count_until_limited<F, Fut>(
    most: usize,
    status: u16,
    error: &str,
    mut send: F,
) -> (usize, Answer)
where
    F: FnMut() -> Fut,
    Fut: std::future::Future<Output = Answer>,
{
    let mut passed = 0;
    loop {
        let answer = send().await;
        if answer.status == 429 {
            return (passed, answer);
        }
        assert_eq!(answer.status, status, "{}", answer.body);
        assert_eq!(answer.body["error"], error, "{}", answer.body);
        passed += 1;
        assert!(passed <= most, "never limited");
    }
}

/// A well-formed room code that names no room.
fn missing_code(taken: &str) -> String {
    ["AAAAAA", "BBBBBB"]
        .into_iter()
        .find(|c| *c != taken)
        .unwrap()
        .to_string()
}

#[tokio::test]
async fn room_lookups_are_limited_per_address_found_or_not_with_retry_after() {
    let server = TestServer::start_with(|c| {
        c.lookup_burst = 20;
        c.lookup_rate = 1;
    })
    .await;
    let (status, room) = server.create_room(json!({})).await;
    assert_eq!(status, 201);
    let code = room["code"].as_str().unwrap().to_string();
    let missing = missing_code(&code);
    // Guessing: misses until the address's lookups run out (give or take
    // one refilled on a slow machine).
    let path = format!("/api/rooms/{missing}");
    let (misses, refused) =
        count_until_limited(30, 404, "no_room", || get_from(&server, &path, HOME)).await;
    assert!(misses >= 20, "{misses}");
    assert_limited(&refused, 1);
    // Every lookup by code is refused now, found or not: a limited
    // guesser learns nothing, whatever the path.
    for path in [
        format!("/api/rooms/{code}"),
        format!("/api/rooms/{code}/qr.svg"),
        format!("/api/rooms/{code}/games"),
        format!("/api/rooms/{missing}/games"),
        format!("/ws/{missing}"),
        format!("/ws/{code}"),
    ] {
        let answer = get_from(&server, &path, HOME).await;
        assert_eq!(answer.status, 429, "{path}: {}", answer.body);
        assert_eq!(answer.body["error"], "rate_limited", "{path}");
    }
    // The WebSocket upgrade itself is refused over a real socket.
    let refused = tokio_tungstenite::connect_async(server.ws_url(&code)).await;
    match refused {
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
            assert_eq!(resp.status().as_u16(), 429)
        }
        other => panic!(
            "upgrade should be refused with 429: {:?}",
            other.map(|_| ())
        ),
    }
    // Another address looks the room up as before; other routes are open.
    let other = get_from(&server, &format!("/api/rooms/{code}"), [127, 0, 0, 2]).await;
    assert_eq!(other.status, 200, "{}", other.body);
    assert_eq!(get_from(&server, "/healthz", HOME).await.status, 200);
}

#[tokio::test]
async fn room_lookups_allow_a_generous_burst_by_default() {
    let server = TestServer::start().await;
    let path = format!("/api/rooms/{}", missing_code(""));
    // 600 at once, and 10 more each second the loop takes.
    let (misses, refused) =
        count_until_limited(1200, 404, "no_room", || get_from(&server, &path, HOME)).await;
    assert!(misses >= 600, "{misses}");
    assert_limited(&refused, 1);
}

/// `POST /api/games/import` with `text` from this address.
async fn import(server: &TestServer, text: String) -> Answer {
    post_with(
        server,
        "/api/games/import",
        text,
        &[("Content-Type", "text/plain")],
    )
    .await
}

#[tokio::test]
async fn imports_allow_twenty_at_once_then_one_every_three_seconds() {
    let server = TestServer::start().await;
    let text = "[Game \"nothing\"]\n\n1. e5\n";
    let (imported, refused) =
        count_until_limited(21, 400, "bad_import", || import(&server, text.into())).await;
    assert!(imported >= 20, "{imported}");
    assert_limited(&refused, 3);
}

#[tokio::test]
async fn an_import_of_more_than_1000_moves_is_413_before_any_replay() {
    let server = TestServer::start().await;
    // Moves that would be refused at their second line if replayed: the
    // count is checked first.
    let mut text = String::from("[Game \"crossyray\"]\n[Result \"draw (agreement)\"]\n\n");
    for n in 1..=1001 {
        text.push_str(&format!("{n}. e5\n"));
    }
    assert!(text.len() < 16 * 1024);
    let answer = import(&server, text).await;
    assert_eq!(answer.status, 413, "{}", answer.body);
    assert_eq!(answer.body["error"], "too_large");
    assert!(
        answer.body["message"].as_str().unwrap().contains("1000"),
        "{}",
        answer.body
    );
    // A text over 16 KiB is not read at all.
    let big = format!("[Game \"crossyray\"]\n\n{}", "1. e5\n".repeat(3000));
    let answer = import(&server, big).await;
    assert_eq!(answer.status, 413, "{}", answer.body);
    assert_eq!(answer.body["error"], "too_large");
    // A short game still imports.
    let answer = import(
        &server,
        "[Game \"crossyray\"]\n[Result \"side 1 wins (resign)\"]\n\n1. e5\n".into(),
    )
    .await;
    assert_eq!(answer.status, 200, "{}", answer.body);
    assert_eq!(answer.body["moves"], json!(["e5"]));
}

#[tokio::test]
async fn replays_are_limited_per_address_by_their_length() {
    let server = TestServer::start().await;
    // 120 moves (pawns stepping back and forth to the game's last ply):
    // 2 units of the address's 600.
    let moves = vec!["e2,e8,e1,e9"; 30].join(",");
    let path = format!("/api/position?game=quoridor&moves={moves}");
    let client = reqwest::Client::new();
    let mut answered = 0;
    let refused = loop {
        let resp = client
            .get(format!("{}{path}", server.base))
            .send()
            .await
            .expect("request");
        if resp.status() == 429 {
            break resp;
        }
        let body: Value = resp.json().await.unwrap();
        assert_eq!(body["moves"].as_array().map(Vec::len), Some(120), "{body}");
        answered += 1;
        assert!(answered <= 400, "never limited");
    };
    // 600 / 2 at once, and what came back meanwhile (10 units a second).
    assert!((300..=340).contains(&answered), "{answered} answered");
    assert_eq!(refused.status(), 429);
    let wait: u64 = refused.headers()["retry-after"]
        .to_str()
        .unwrap()
        .parse()
        .unwrap();
    assert!((1..=2).contains(&wait), "Retry-After {wait}");
    let body: Value = refused.json().await.unwrap();
    assert_eq!(body["error"], "rate_limited", "{body}");
    // A short one costs one unit: it passes once a unit is back.
    tokio::time::sleep(std::time::Duration::from_millis(300)).await;
    let (status, _) = server.get("/api/position?game=jungle").await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn reads_of_game_ids_that_name_no_game_spend_a_replay_unit_each() {
    let server = TestServer::start().await;
    // An outside check read unknown ids 2000 times without a 429: each
    // costs one unit now, found or not, the export too.
    let mut answered = 0;
    let refused = loop {
        let id = format!("01a25335-3813-7483-8016-{answered:012x}");
        let path = if answered % 2 == 0 {
            format!("/api/games/{id}")
        } else {
            format!("/api/games/{id}/export")
        };
        let (status, body) = server.get(&path).await;
        if status == 429 {
            break body;
        }
        assert_eq!(status, 404, "{body}");
        assert!(body.contains("no_game"), "{body}");
        answered += 1;
        assert!(answered <= 700, "never limited");
    };
    assert!((600..=640).contains(&answered), "{answered} answered");
    assert!(refused.contains("rate_limited"), "{refused}");
}

#[tokio::test]
async fn profile_and_history_reads_are_limited_per_address() {
    let server = TestServer::start().await;
    let mut minh = Browser::new(&server);
    minh.register("minh", "password1").await;
    let mut answered = 0;
    let refused = loop {
        let (status, body) = server.get("/api/players/minh").await;
        if status == 429 {
            break body;
        }
        assert_eq!(status, 200, "{body}");
        answered += 1;
        assert!(answered <= 100, "never limited");
    };
    let burst = server::limits::PROFILE_BURST as usize;
    assert!((burst..=burst + 10).contains(&answered), "{answered}");
    assert!(refused.contains("rate_limited"), "{refused}");
    // Histories and rating histories spend from the same allowance (two
    // come back a second: of three asked at once, one is refused even
    // on a slow machine).
    let mut statuses = Vec::new();
    for _ in 0..3 {
        statuses.push(server.get("/api/players/minh/ratings/jungle").await.0);
    }
    assert!(statuses.contains(&429), "{statuses:?}");
}

// ---------------------------------------------------------------------
// Requests with a session cookie (each one a store write: the session's
// `last_seen`) are limited per address and per account.

/// `GET path` from the loopback address `from` with the session cookie
/// `secret`.
async fn get_signed_in(server: &TestServer, path: &str, secret: &str, from: [u8; 4]) -> Answer {
    let client = reqwest::Client::builder()
        .local_address(std::net::IpAddr::from(from))
        .build()
        .expect("client");
    let resp = client
        .get(format!("{}{path}", server.base))
        .header("Cookie", format!("session={secret}"))
        .send()
        .await
        .expect("request");
    Answer::read(resp).await
}

/// `GET /api/me` from `from` with `secret` until it is refused; each
/// before must be `200` for `username`, at most `most` of them. Returns
/// how many passed, and the refusal.
async fn me_until_limited(
    server: &TestServer,
    secret: &str,
    username: &str,
    from: [u8; 4],
    most: usize,
) -> (usize, Answer) {
    let mut passed = 0;
    loop {
        let answer = get_signed_in(server, "/api/me", secret, from).await;
        if answer.status == 429 {
            return (passed, answer);
        }
        assert_eq!(answer.status, 200, "{}", answer.body);
        assert_eq!(answer.body["username"], username, "{}", answer.body);
        passed += 1;
        assert!(passed <= most, "never limited");
    }
}

/// Every session's `(id, last_seen)` in the server's SQLite file.
async fn sessions_last_seen(server: &TestServer) -> Vec<(i64, i64)> {
    let db = server.dir.path().join("site.db");
    let pool = sqlx::SqlitePool::connect(&format!("sqlite:{}", db.display()))
        .await
        .expect("open the database");
    let rows = sqlx::query_as("SELECT id, last_seen FROM sessions ORDER BY id")
        .fetch_all(&pool)
        .await
        .expect("sessions");
    pool.close().await;
    rows
}

fn is_limited(answer: &Answer) -> bool {
    answer.status == 429 && answer.body["error"] == "rate_limited"
}

#[tokio::test]
async fn signed_in_requests_are_limited_per_address_and_a_refusal_writes_nothing() {
    let server = TestServer::start().await;
    let mut minh = Browser::new(&server);
    minh.register("Minh", "password1").await;
    let minh = minh.session.expect("Minh's session");
    let mut lan = Browser::new(&server);
    lan.register("Lan", "password1").await;
    let lan = lan.session.expect("Lan's session");
    let burst = server::limits::SESSION_BURST as usize;

    // One address asks `GET /api/me` with one session: the burst passes
    // (and what comes back while the loop runs, 4 a second), then `429`.
    // (The account's own allowance, as large, runs out with it: either
    // may refuse first.)
    let (passed, refused) = me_until_limited(&server, &minh, "Minh", HOME, 2 * burst).await;
    assert!(passed >= burst, "{passed}");
    assert_limited(&refused, 1);

    // Every request of that address with a session cookie is refused
    // now, whichever route, another account's too, and one whose secret
    // signs nobody in (its lookup is a write all the same); the lobby's
    // socket too. One comes back every 250 ms: of three asked at once,
    // one is refused even on a slow machine.
    let nobody = "0123456789abcdef0123456789abcdef";
    for (path, secret) in [
        ("/api/me", lan.as_str()),
        ("/api/sessions", &lan),
        ("/api/turns", &lan),
        ("/api/shop", &lan),
        ("/api/challenges", &lan),
        ("/api/me", nobody),
    ] {
        let mut answers = Vec::new();
        for _ in 0..3 {
            answers.push(get_signed_in(&server, path, secret, HOME).await);
        }
        let Some(refused) = answers.iter().find(|a| is_limited(a)) else {
            panic!(
                "{path}: {:?}",
                answers.iter().map(|a| a.status).collect::<Vec<_>>()
            );
        };
        assert_limited(refused, 1);
        let message = refused.body["message"].as_str().unwrap();
        assert!(message.contains("your address"), "{path}: {message}");
    }
    let lobby = format!("{}/ws/lobby", server.base.replace("http://", "ws://"));
    let mut upgrades = Vec::new();
    for _ in 0..3 {
        match common::browser::upgrade_from(&lobby, "127.0.0.1", Some(&lan)).await {
            Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => {
                upgrades.push(resp.status().as_u16())
            }
            Ok(socket) => {
                socket.close().await;
                upgrades.push(101);
            }
            Err(e) => panic!("the upgrade fails otherwise: {e}"),
        }
    }
    assert!(upgrades.contains(&429), "{upgrades:?}");

    // A guest's requests from that address spend nothing of it.
    let guest = get_from(&server, "/api/me", HOME).await;
    assert_eq!(guest.status, 401, "{}", guest.body);
    assert_eq!(guest.body["error"], "not_signed_in");
    assert_eq!(get_from(&server, "/api/site", HOME).await.status, 200);

    // Another address signs in as before.
    let other = get_signed_in(&server, "/api/me", &lan, [127, 0, 0, 2]).await;
    assert_eq!(other.status, 200, "{}", other.body);
    assert_eq!(other.body["username"], "Lan");

    // A refused request marks no session used: with every session aged
    // an hour, one refused request leaves them as they were. (If the
    // address's next lookup came back meanwhile, the request passes and
    // writes; spend the address again and retry.)
    let mut refusals = 0;
    for _ in 0..5 {
        me_until_limited(&server, &minh, "Minh", HOME, burst).await;
        server.age_sessions(3_600_000).await;
        let aged = sessions_last_seen(&server).await;
        let answer = get_signed_in(&server, "/api/sessions", &lan, HOME).await;
        let after = sessions_last_seen(&server).await;
        if is_limited(&answer) {
            assert_eq!(after, aged, "a refused request wrote a last_seen");
            refusals += 1;
            break;
        }
        assert_eq!(answer.status, 200, "{}", answer.body);
        assert_ne!(after, aged, "a lookup that passes marks its session used");
    }
    assert_eq!(refusals, 1, "never refused");

    // The allowance comes back after the Retry-After, and the request
    // that passes is a lookup again: its session is marked used.
    let aged = sessions_last_seen(&server).await;
    tokio::time::sleep(std::time::Duration::from_millis(1100)).await;
    let again = get_signed_in(&server, "/api/me", &minh, HOME).await;
    assert_eq!(again.status, 200, "{}", again.body);
    assert_eq!(again.body["username"], "Minh");
    let after = sessions_last_seen(&server).await;
    assert_ne!(after, aged, "the session's last_seen moves again");
}

#[tokio::test]
async fn one_account_gets_no_more_session_lookups_from_many_addresses() {
    let server = TestServer::start().await;
    let mut here = Browser::new(&server);
    here.register("Minh", "password1").await;
    let here = here.session.expect("a session");
    let there = Browser::logged_in(&server, "minh", "password1")
        .await
        .session
        .expect("another session");
    let mut lan = Browser::new(&server);
    lan.register("Lan", "password1").await;
    let lan = lan.session.expect("Lan's session");
    let burst = server::limits::SESSION_BURST as usize;

    let (passed, _) = me_until_limited(&server, &here, "Minh", HOME, 2 * burst).await;
    assert!(passed >= burst, "{passed}");
    // The account's allowance went with it: from a fresh address, its
    // other session gets only what came back since (a few at most), then
    // the account's refusal.
    let elsewhere = [127, 0, 0, 2];
    let (passed, refused) = me_until_limited(&server, &there, "Minh", elsewhere, burst).await;
    assert!(passed <= 5, "{passed}");
    assert_limited(&refused, 1);
    let message = refused.body["message"].as_str().unwrap();
    assert!(message.contains("this account"), "{message}");
    // Another account from that address is not held back.
    let other = get_signed_in(&server, "/api/me", &lan, elsewhere).await;
    assert_eq!(other.status, 200, "{}", other.body);
    assert_eq!(other.body["username"], "Lan");
}

/// PROTOCOL.md, "Limits on HTTP requests": a field left out, or `null`,
/// reads as its empty value, on every JSON body of every route (but the
/// two required fields named there): `null` in each field gets the very
/// answer the field left out gets, never `400 bad_message`.
#[tokio::test]
async fn a_null_field_reads_as_one_left_out_on_every_route() {
    let server = TestServer::start().await;
    let mut me = Browser::new(&server);
    me.register("nullish", "password1").await;
    let routes: [(&str, &[&str]); 12] = [
        ("/api/rooms", &["game", "options", "token", "solo"]),
        (
            "/api/challenges",
            &["to", "game", "options", "rated", "token"],
        ),
        (
            "/api/challenges/00000000-0000-0000-0000-000000000000/accept",
            &["token"],
        ),
        ("/api/shop/buy", &["item"]),
        ("/api/shop/choose", &["item"]),
        ("/api/accounts", &["username", "password", "email", "token"]),
        ("/api/login", &["username", "password", "token"]),
        ("/api/password", &["current", "new"]),
        ("/api/email", &["email"]),
        ("/api/email/confirm", &["token"]),
        ("/api/recover", &["email"]),
        ("/api/reset", &["token", "password"]),
    ];
    for (path, fields) in routes {
        let left_out = me.post(path, json!({})).await;
        let mut all_null = serde_json::Map::new();
        for field in fields {
            all_null.insert(field.to_string(), Value::Null);
            let one = me.post(path, json!({ *field: null })).await;
            assert_eq!(
                (one.status, &one.body["error"]),
                (left_out.status, &left_out.body["error"]),
                "{path} {field}: null: {}; left out: {}",
                one.body,
                left_out.body
            );
        }
        let null = me.post(path, Value::Object(all_null)).await;
        assert_ne!(null.body["error"], "bad_message", "{path}: {}", null.body);
        assert_eq!(
            (null.status, &null.body["error"]),
            (left_out.status, &left_out.body["error"]),
            "{path}: every field null: {}; left out: {}",
            null.body,
            left_out.body
        );
    }
    // `"game": null` is the game left out: CrossyRay.
    let made = me
        .post("/api/rooms", json!({"game": null, "solo": null}))
        .await;
    assert_eq!(made.status, 201, "{}", made.body);
    let code = made.body["code"].as_str().unwrap();
    let info = me.get(&format!("/api/rooms/{code}")).await;
    assert_eq!(info.body["game"], "crossyray", "{}", info.body);
}
