//! The lobby: public rooms listed live (`GET /api/lobby`, `rooms` on
//! `/ws/lobby`), and quick pairing over real lobby sockets: presets,
//! rated seeks, ranges, caps, seeks that vanish with their socket, 200
//! concurrent seekers paired exactly once, and two real nodes on
//! PostgreSQL and NATS.

use std::collections::HashMap;
use std::time::Duration;

use crate::common::browser::{socket, Browser};
use crate::common::process::Proc;
use crate::common::{postgres, Client, TestServer};
use serde_json::{json, Value};

/// A lobby socket to `base` (with a session cookie if given), hello said.
async fn lobby_at(
    base: &str,
    session: Option<&str>,
    token: Option<&str>,
    name: Option<&str>,
) -> Client {
    let url = format!("{}/ws/lobby", base.replace("http://", "ws://"));
    let mut client = socket(&url, session).await;
    let ack = client
        .command(json!({"type": "hello", "token": token, "name": name}))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    assert!(ack["token"].is_string(), "{ack}");
    client
}

async fn guest(server: &TestServer, name: &str) -> Client {
    lobby_at(&server.base, None, None, Some(name)).await
}

fn seek(game: &str, preset: &str) -> Value {
    json!({"type": "seek", "game": game, "preset": preset})
}

#[tokio::test]
async fn a_public_room_is_listed_live_and_leaves_the_list() {
    let server = TestServer::start().await;
    let mut watcher = guest(&server, "Lan").await;
    let first = watcher.next_of("rooms").await;
    assert_eq!(first["rooms"], json!([]), "{first}");
    let (code, token) = server.new_room(json!({"game": "jungle"})).await;
    let (mut host, _, snapshot) = server.join(&code, Some(&token), Some("Minh")).await;
    assert_eq!(snapshot["room"]["public"], false);
    host.ok(json!({"type": "sit", "seat": 0})).await;
    host.ok(json!({"type": "public", "on": true})).await;
    let listed = crate::common::wait_for(&mut watcher, |m| {
        m["type"] == "rooms" && m["rooms"].as_array().is_some_and(|r| !r.is_empty())
    })
    .await;
    let room = &listed["rooms"][0];
    assert_eq!(room["code"], code.as_str());
    assert_eq!(room["game"], "jungle");
    assert_eq!(room["seats"], 2);
    assert_eq!(room["free"], 1);
    assert_eq!(room["players"][0]["name"], "Minh");
    let (status, body) = server.get("/api/lobby").await;
    assert_eq!(status, 200);
    let body: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(body["rooms"][0]["code"], code.as_str());
    // A guest who is not the host cannot list or unlist it.
    let (mut other, _, _) = server.join(&code, None, Some("Hoa")).await;
    other
        .refused(json!({"type": "public", "on": false}), "not_host")
        .await;
    // The last seat taken: off the list (no seat free).
    other.ok(json!({"type": "sit", "seat": 1})).await;
    crate::common::wait_for(&mut watcher, |m| {
        m["type"] == "rooms" && m["rooms"] == json!([])
    })
    .await;
    other.ok(json!({"type": "stand"})).await;
    crate::common::wait_for(&mut watcher, |m| {
        m["type"] == "rooms" && m["rooms"].as_array().is_some_and(|r| r.len() == 1)
    })
    .await;
    host.ok(json!({"type": "public", "on": false})).await;
    crate::common::wait_for(&mut watcher, |m| {
        m["type"] == "rooms" && m["rooms"] == json!([])
    })
    .await;
}

#[tokio::test]
async fn two_compatible_seekers_are_paired_into_a_room_that_starts() {
    let server = TestServer::start().await;
    let (ta, tb) = ("lobby-browser-minh-01", "lobby-browser-lan-001");
    let mut a = lobby_at(&server.base, None, Some(ta), Some("Minh")).await;
    let mut b = lobby_at(&server.base, None, Some(tb), Some("Lan")).await;
    let mut c = guest(&server, "Hoa").await;
    // A different time control or game does not pair.
    a.ok(seek("jungle", "5+3")).await;
    c.ok(seek("jungle", "3+2")).await;
    b.ok(seek("quoridor", "30s")).await;
    a.silent_for("paired", Duration::from_millis(300)).await;
    b.ok(json!({"type": "cancel"})).await;
    b.refused(json!({"type": "cancel"}), "no_seek").await;
    // `rated` and `range` may be null: not rated, anyone.
    let mut nulls = seek("jungle", "5+3");
    nulls["rated"] = Value::Null;
    nulls["range"] = Value::Null;
    b.ok(nulls).await;
    let pa = a.next_of("paired").await;
    let pb = b.next_of("paired").await;
    assert_eq!(pa["code"], pb["code"]);
    c.silent_for("paired", Duration::from_millis(200)).await;
    // Both go to the room (their browser tokens) and the game starts.
    let code = pa["code"].as_str().unwrap();
    let (mut ra, _, snap) = server.join(code, Some(ta), None).await;
    assert!(snap["you"]["seat"].is_number(), "seated by token: {snap}");
    assert_eq!(snap["you"]["name"], "Minh");
    assert_eq!(snap["room"]["options"]["clock"]["minutes"], 5);
    let (mut rb, _, snap) = server.join(code, Some(tb), None).await;
    assert!(snap["you"]["seat"].is_number(), "{snap}");
    // The second hello started the game: its snapshot has the match,
    // and the first player hears of it.
    assert!(snap["room"]["tables"][0]["match"].is_object(), "{snap}");
    let start = ra.next_match().await;
    assert_eq!(start["kind"], "start", "{start}");
    let _ = &mut rb;
}

#[tokio::test]
async fn bad_seeks_are_refused_with_their_codes() {
    let server = TestServer::start().await;
    let mut a = guest(&server, "Minh").await;
    a.refused(seek("chess", "5+3"), "bad_seek").await;
    a.refused(seek("jungle", "7+7"), "bad_seek").await;
    a.refused(seek("quoridor", "none"), "bad_seek").await;
    a.refused(
        json!({"type": "seek", "game": "jungle", "preset": "5+3", "range": 5}),
        "bad_seek",
    )
    .await;
    // A range that is no whole number is no seek (`bad_message`), said in words.
    let message = a
        .refused(
            json!({"type": "seek", "game": "jungle", "preset": "5+3", "range": 50.5}),
            "bad_message",
        )
        .await;
    assert_eq!(
        message,
        "A rating range is a whole number of points, not 50.5."
    );
    let message = a
        .refused(json!({"type": "seek", "game": "jungle"}), "bad_message")
        .await;
    assert!(message.starts_with("That is not a seek: "), "{message}");
    assert!(message.contains("preset"), "{message}");
    a.refused(
        json!({"type": "seek", "game": "jungle", "preset": "5+3", "rated": true}),
        "sign_in_to_rate",
    )
    .await;
    a.ok(seek("jungle", "none")).await;
    a.refused(seek("jungle", "none"), "seek_open").await;
    a.refused(json!({"type": "nonsense"}), "bad_message").await;
    // The `id` is optional: without one, the answer's is null.
    a.send_text(json!({"type": "ping"}).to_string()).await;
    let answer = a.answer(None).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    assert!(
        answer["id"].is_null() && answer.get("id").is_some(),
        "{answer}"
    );
    a.send_text(json!({"type": "cancel"}).to_string()).await;
    assert_eq!(a.answer(None).await["type"], "ack");
    a.send_text(json!({"type": "cancel"}).to_string()).await;
    assert_eq!(a.answer(None).await["code"], "no_seek");
    // Past 16 KiB, as in a room: `too_large`, unread (so its id is null).
    let big = json!({"id": 90, "type": "ping", "pad": "x".repeat(20 * 1024)});
    a.send_text(big.to_string()).await;
    let answer = a.answer(None).await;
    assert_eq!(answer["code"], "too_large", "{answer}");
    // Without a name a guest watches the lobby but cannot seek.
    let mut nameless = lobby_at(&server.base, None, None, None).await;
    nameless.refused(seek("jungle", "none"), "bad_name").await;
    // Before hello, nothing.
    let url = format!("{}/ws/lobby", server.base.replace("http://", "ws://"));
    let (ws, _) = tokio_tungstenite::connect_async(url).await.unwrap();
    let mut early = Client::new(ws);
    early.refused(seek("jungle", "none"), "hello_first").await;
}

#[tokio::test]
async fn seeks_count_against_the_addresss_room_creations() {
    // The default limit: 10 rooms at once from one address.
    let server = TestServer::start().await;
    let mut a = guest(&server, "Minh").await;
    // A refused seek makes no room and costs nothing.
    for _ in 0..3 {
        a.refused(seek("chess", "5+3"), "bad_seek").await;
    }
    for _ in 0..10 {
        a.ok(seek("jungle", "none")).await;
        a.ok(json!({"type": "cancel"})).await;
    }
    let why = a.refused(seek("jungle", "none"), "rate_limited").await;
    assert!(why.contains("try again in"), "{why}");
    // The address's room creations are the same budget.
    let (status, body) = server
        .create_room(json!({"game": "jungle", "solo": true}))
        .await;
    assert_eq!(status, 429, "{body}");
}

#[tokio::test]
async fn one_browser_never_pairs_with_itself_and_a_closed_socket_seeks_no_more() {
    let server = TestServer::start().await;
    let token = "same-browser-token-0001";
    let mut a = lobby_at(&server.base, None, Some(token), Some("Minh")).await;
    let mut a2 = lobby_at(&server.base, None, Some(token), Some("Minh")).await;
    a.ok(seek("crossyray", "none")).await;
    a2.ok(seek("crossyray", "none")).await;
    a.silent_for("paired", Duration::from_millis(300)).await;
    a.close().await;
    a2.close().await;
    tokio::time::sleep(Duration::from_millis(300)).await;
    // Their seeks went with their sockets: two newcomers pair with each
    // other, not with a ghost.
    let mut b = guest(&server, "Lan").await;
    let mut c = guest(&server, "Hoa").await;
    b.ok(seek("crossyray", "none")).await;
    c.ok(seek("crossyray", "none")).await;
    let pb = b.next_of("paired").await;
    let pc = c.next_of("paired").await;
    assert_eq!(pb["code"], pc["code"]);
}

#[tokio::test]
async fn rated_seeks_pair_signed_in_accounts_within_their_ranges() {
    let server = TestServer::start().await;
    let mut minh = Browser::new(&server);
    minh.register("minh", "password1").await;
    let mut lan = Browser::new(&server);
    lan.register("lan", "password1").await;
    let mut a = lobby_at(&server.base, minh.session.as_deref(), None, None).await;
    let mut a2 = lobby_at(&server.base, minh.session.as_deref(), None, None).await;
    let mut b = lobby_at(&server.base, lan.session.as_deref(), None, None).await;
    let rated =
        json!({"type": "seek", "game": "jungle", "preset": "10+5", "rated": true, "range": 100});
    a.ok(rated.clone()).await;
    // The same account in another browser is never its own opponent.
    a2.ok(rated.clone()).await;
    a.silent_for("paired", Duration::from_millis(300)).await;
    // An unrated seek never meets a rated one.
    b.ok(json!({"type": "seek", "game": "jungle", "preset": "10+5"}))
        .await;
    a.silent_for("paired", Duration::from_millis(300)).await;
    b.ok(json!({"type": "cancel"})).await;
    b.ok(rated).await;
    let pb = b.next_of("paired").await;
    let code = pb["code"].as_str().unwrap().to_string();
    // One of minh's two sockets was paired (the older seek), once.
    let pa = a.next_of("paired").await;
    assert_eq!(pa["code"], code.as_str());
    a2.silent_for("paired", Duration::from_millis(200)).await;
    let (_, _, snap) = lan.join(&code, None, None).await;
    assert_eq!(snap["room"]["rated"], true, "{snap}");
}

/// `n` guests on `bases` (round robin) seek the same game at once; each
/// gets one `paired`, and every room code names exactly two of them.
async fn pair_many(bases: &[String], n: usize) {
    let mut clients = Vec::new();
    for i in 0..n {
        let base = &bases[i % bases.len()];
        clients.push(lobby_at(base, None, None, Some(&format!("P{i}"))).await);
    }
    let tasks: Vec<_> = clients
        .into_iter()
        .map(|mut c| {
            tokio::spawn(async move {
                c.wait = Duration::from_secs(60);
                c.ok(seek("jungle", "3+2")).await;
                let paired = c.next_of("paired").await;
                // Never a second one.
                c.silent_for("paired", Duration::from_millis(500)).await;
                paired["code"].as_str().unwrap().to_string()
            })
        })
        .collect();
    let mut codes: HashMap<String, usize> = HashMap::new();
    for t in tasks {
        *codes.entry(t.await.expect("a seeker")).or_default() += 1;
    }
    assert_eq!(codes.len(), n / 2, "{codes:?}");
    assert!(codes.values().all(|&k| k == 2), "{codes:?}");
}

#[tokio::test]
async fn two_hundred_concurrent_seekers_pair_each_exactly_once() {
    // All from 127.0.0.1: the seeks' room limit is lifted.
    let server = TestServer::start_with(|c| c.room_burst = 0).await;
    pair_many(std::slice::from_ref(&server.base), 200).await;
}

#[tokio::test]
async fn seekers_on_two_nodes_pair_each_exactly_once() {
    if async_nats::connect(
        std::env::var("TEST_NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".into()),
    )
    .await
    .is_err()
        && std::env::var_os("CI").is_none()
    {
        eprintln!("skipped: no NATS");
        return;
    }
    let Some(schema) = postgres::schema().await else {
        return;
    };
    let nats = std::env::var("TEST_NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".into());
    let run = &server::model::new_token()[..10];
    let mut nodes = Vec::new();
    for id in ["a", "b"] {
        let dir = tempfile::tempdir().expect("temp dir");
        let node_id = format!("{id}-{run}");
        nodes.push(
            Proc::launch_with(
                dir,
                &[
                    "--database-url",
                    &schema.url,
                    "--nats-url",
                    &nats,
                    "--node-id",
                    &node_id,
                    "--max-sockets-per-addr",
                    "0",
                    "--seeks-per-addr",
                    "0",
                    "--room-burst",
                    "0",
                    "--message-rate",
                    "0",
                ],
            )
            .await,
        );
    }
    let bases: Vec<String> = nodes.iter().map(|n| n.s().base.clone()).collect();
    // One seeker on each node: paired across them.
    let (ta, tb) = ("lobby-browser-minh-02", "lobby-browser-lan-0002");
    let mut a = lobby_at(&bases[0], None, Some(ta), Some("Minh")).await;
    let mut b = lobby_at(&bases[1], None, Some(tb), Some("Lan")).await;
    a.ok(seek("quoridor", "60s")).await;
    b.ok(seek("quoridor", "60s")).await;
    let pa = a.next_of("paired").await;
    let pb = b.next_of("paired").await;
    assert_eq!(pa["code"], pb["code"]);
    // The paired room is left to the first node asked for it (here B,
    // whichever node paired them), and its game starts there once both
    // are in.
    let code = pa["code"].as_str().unwrap();
    let store = schema.open().await;
    let first = store
        .lease(code)
        .await
        .unwrap()
        .expect("the lease its members were written under");
    assert_eq!(first.expires_at, 0, "let go at once: {first:?}");
    let (mut ra, _, snap) = nodes[1].s().join(code, Some(ta), None).await;
    assert!(snap["you"]["seat"].is_number(), "seated by token: {snap}");
    let lease = store.lease(code).await.unwrap().expect("a lease");
    assert_eq!(lease.node, format!("b-{run}"));
    let (_rb, _, snap) = nodes[1].s().join(code, Some(tb), None).await;
    assert!(snap["room"]["tables"][0]["match"].is_object(), "{snap}");
    assert_eq!(ra.next_match().await["kind"], "start");
    pair_many(&bases, 60).await;
    drop(nodes);
    schema.drop().await;
}

/// The first `rooms` after `hello` is the list as of that moment, also
/// when nobody was watching the lobby (its reader then reads nothing)
/// and right after a room was listed.
#[tokio::test]
async fn the_first_rooms_after_hello_is_the_list_as_of_now() {
    let server = TestServer::start().await;
    // A watcher comes and goes: the reader read the empty list then.
    let mut early = guest(&server, "Lan").await;
    assert_eq!(early.next_of("rooms").await["rooms"], json!([]));
    drop(early);
    tokio::time::sleep(Duration::from_millis(1500)).await;
    let (code, token) = server.new_room(json!({"game": "jungle"})).await;
    let (mut host, _, _) = server.join(&code, Some(&token), Some("Minh")).await;
    host.ok(json!({"type": "sit", "seat": 0})).await;
    host.ok(json!({"type": "public", "on": true})).await;
    let mut late = guest(&server, "Hoa").await;
    let first = late.next_of("rooms").await;
    assert_eq!(first["rooms"][0]["code"], code.as_str(), "{first}");
    // And with a watcher listening, a room listed just now.
    host.ok(json!({"type": "public", "on": false})).await;
    host.ok(json!({"type": "public", "on": true})).await;
    let mut next = guest(&server, "Tam").await;
    let first = next.next_of("rooms").await;
    assert_eq!(first["rooms"][0]["code"], code.as_str(), "{first}");
}

/// SIGTERM with seeks open: each is withdrawn before the store closes
/// (their sockets close with 1012 as the server stops), so the log holds
/// no warning or error, the stopped node leaves no seek row behind, and
/// after a restart nobody is paired with one. Many seeks, so their
/// withdrawals are still waiting for the database when the stop gets
/// to the store (one browser's: they do not pair with each other).
#[tokio::test]
async fn a_seek_open_at_sigterm_is_withdrawn_before_the_store_closes() {
    let dir = tempfile::tempdir().unwrap();
    let args = ["--seeks-per-addr", "0", "--room-burst", "100"];
    let mut p = Proc::launch_with(dir, &args).await;
    let mut seekers = Vec::new();
    for _ in 0..40 {
        let mut seeker = lobby_at(&p.s().base, None, Some(SEEKER), Some("Vy")).await;
        seeker.ok(seek("jungle", "5+3")).await;
        seekers.push(seeker);
    }
    p.sigterm();
    for seeker in &mut seekers {
        let ending = seeker.ending(Duration::from_secs(10)).await;
        assert_eq!(ending.code(), Some(1012), "{ending:?}");
    }
    let status = p
        .exited(Duration::from_secs(10))
        .await
        .unwrap_or_else(|| panic!("still running 10 s after SIGTERM:\n{}", p.log_tail()));
    assert!(status.success(), "exit status {status}:\n{}", p.log_tail());
    let dir = p.into_dir();
    let log = std::fs::read_to_string(crate::common::process::log_path(dir.path())).unwrap();
    let (_, stopping) = log.split_once("shutting down").expect("the stop is logged");
    for bad in ["WARN", "ERROR", "seek", "pool"] {
        assert!(!stopping.contains(bad), "{bad:?} after the signal:\n{log}");
    }
    // The row went with its socket, before the store closed (not left
    // for the next start's clean-up).
    let store = server::store::Store::open(None, dir.path()).await.unwrap();
    assert_eq!(store.open_seeks(0).await.unwrap(), 0, "{log}");
    store.close().await;
    drop(store);

    let p = Proc::launch(dir).await;
    let mut other = guest(p.s(), "Lan").await;
    other.ok(seek("jungle", "5+3")).await;
    other.silent_for("paired", Duration::from_millis(500)).await;
}

/// One browser's token, for seeks that must not pair with each other.
const SEEKER: &str = "one-seeking-browser-token-0001";
