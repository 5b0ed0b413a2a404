//! Several nodes: two server processes on 127.0.0.1 sharing this machine's
//! PostgreSQL (a fresh schema per test) and NATS, as in docker-compose.yml
//! but as plain processes. Players and spectators sit on different nodes;
//! the owner of a room is killed (`kill -9`), paused (SIGSTOP) or stopped
//! (SIGTERM), and the game goes on on the other node with every
//! acknowledged move.
//!
//! Without PostgreSQL or NATS the tests are skipped, saying so, except
//! under CI (`CI` set), where they fail.

use crate::common;

use std::time::{Duration, Instant};

use common::browser::{a_password_change_closes_the_other_socket, Browser};
use common::process::Proc;
use common::{follow, keep_going, local_game, next_match_of, postgres, wait_for, Client};
use serde_json::{json, Value};
use server::games::AnyGame;

fn nats_url() -> String {
    std::env::var("TEST_NATS_URL").unwrap_or_else(|_| "nats://127.0.0.1:4222".to_string())
}

/// NATS answers, or the test is skipped (failed under CI).
async fn nats_up() -> bool {
    match async_nats::connect(nats_url()).await {
        Ok(_) => true,
        Err(e) if std::env::var_os("CI").is_none() => {
            eprintln!("skipped: no NATS at {} ({e})", nats_url());
            false
        }
        Err(e) => panic!("NATS at {} is needed under CI: {e}", nats_url()),
    }
}

/// Two nodes, `a` and `b`, on one fresh schema.
struct Pair {
    a: Proc,
    b: Proc,
    /// A's node id.
    a_id: String,
    /// B's node id.
    b_id: String,
    schema: postgres::Schema,
}

impl Pair {
    /// A new room (`body`) created on A and taken by A: a new room runs on
    /// the first node asked for it (here A's `GET /api/rooms/CODE`), so
    /// sockets opened through B are relayed to A. Its code and host token.
    async fn room_on_a(&self, body: Value) -> (String, String) {
        let (code, token) = self.a.s().new_room(body).await;
        let (status, info) = self.a.s().get(&format!("/api/rooms/{code}")).await;
        assert_eq!(status, 200, "{info}");
        (code, token)
    }
}

async fn node(url: &str, id: &str) -> Proc {
    let dir = tempfile::tempdir().expect("temp dir");
    let nats = nats_url();
    Proc::launch_with(
        dir,
        &[
            "--database-url",
            url,
            "--nats-url",
            &nats,
            "--node-id",
            id,
            // Tournament rounds follow each other after 1 s.
            "--autostart-secs",
            "1",
        ],
    )
    .await
}

async fn pair() -> Option<Pair> {
    if !nats_up().await {
        return None;
    }
    let schema = postgres::schema().await?;
    // Node ids are unique per test: the tests share one NATS server.
    let run = &server::model::new_token()[..10];
    let a_id = format!("a-{run}");
    let a = node(&schema.url, &a_id).await;
    let b_id = format!("b-{run}");
    let b = node(&schema.url, &b_id).await;
    Some(Pair {
        a,
        b,
        a_id,
        b_id,
        schema,
    })
}

/// A Jungle room created on node A, with the host on A, the guest and a
/// spectator on B; the game started (host plays side 0).
struct Game {
    code: String,
    host: Client,
    host_token: String,
    host_member: Value,
    guest: Client,
    guest_token: String,
    spectator: Client,
    local: AnyGame,
    last: Value,
    moves: Vec<String>,
}

const OPTIONS: &str = r#"{"clock": {"minutes": 10, "increment": 5}}"#;

async fn start_game(p: &Pair) -> Game {
    let options: Value = serde_json::from_str(OPTIONS).unwrap();
    let (code, host_token) = p
        .room_on_a(json!({"game": "jungle", "options": options}))
        .await;
    // The room, run by A, is opened through B.
    let (status, info) = p.b.s().get(&format!("/api/rooms/{code}")).await;
    assert_eq!(status, 200, "{info}");
    let info: Value = serde_json::from_str(&info).unwrap();
    assert_eq!(info["code"], code);
    assert_eq!(info["game"], "jungle");

    let (mut host, _, snap) = p.a.s().join(&code, Some(&host_token), Some("Minh")).await;
    assert_eq!(snap["you"]["host"], true);
    let host_member = snap["you"]["member"].clone();
    let (mut guest, guest_token, _) = p.b.s().join(&code, None, Some("Lan")).await;
    let (spectator, _, snap) = p.b.s().join(&code, None, Some("Khoa")).await;
    assert_eq!(
        snap["room"]["members"].as_array().unwrap().len(),
        3,
        "{snap}"
    );
    host.ok(json!({"type": "sit", "seat": 0})).await;
    guest.ok(json!({"type": "sit", "seat": 1})).await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = next_match_of(&mut host, "start").await;
    Game {
        code,
        host,
        host_token,
        host_member,
        guest,
        guest_token,
        spectator,
        local: local_game("jungle", &options),
        last: start["match"].clone(),
        moves: Vec::new(),
    }
}

/// A pair of nodes and a game started on them, `plies` moves in; `None`
/// without PostgreSQL or NATS.
async fn game_after(plies: usize) -> Option<(Pair, Game)> {
    let p = pair().await?;
    let mut g = start_game(&p).await;
    for ply in 0..plies {
        g.play(ply).await;
    }
    Some((p, g))
}

impl Game {
    /// Whoever is to play sends a move that keeps the game going; the
    /// event is awaited on the host's socket.
    async fn play(&mut self, ply: usize) {
        let mv = keep_going(&self.local, &self.last["legal"], ply);
        let notation = self.local.play_text(&mv).expect("legal locally");
        let mover = if self.last["to_play"] == self.host_member {
            &mut self.host
        } else {
            &mut self.guest
        };
        mover.ok(json!({"type": "move", "move": mv})).await;
        let event = next_match_of(&mut self.host, "move").await;
        assert_eq!(event["move"], notation, "{event}");
        self.moves.push(notation);
        self.last = follow(&self.last, &event);
    }

    /// The move the next player would send now.
    fn next_move(&self, ply: usize) -> String {
        keep_going(&self.local, &self.last["legal"], ply)
    }

    fn host_to_play(&self) -> bool {
        self.last["to_play"] == self.host_member
    }
}

/// The `v` of every versioned message a client kept, in arrival order.
fn versions(events: &[Value]) -> Vec<u64> {
    events.iter().filter_map(|e| e["v"].as_u64()).collect()
}

/// The moves of every `match` move event a client kept.
fn moves_seen(events: &[Value]) -> Vec<String> {
    events
        .iter()
        .filter(|e| e["type"] == "match" && e["kind"] == "move")
        .map(|e| e["move"].as_str().unwrap().to_string())
        .collect()
}

/// Joins `code` on `node` until the room answers (while it moves, the
/// socket may be closed with a code, as a browser would see it; the
/// browser then tries again, and so does this): the client and its
/// snapshot.
async fn rejoin(node: &Proc, code: &str, token: &str) -> (Client, Value) {
    let deadline = Instant::now() + Duration::from_secs(10);
    loop {
        assert!(Instant::now() < deadline, "the room never came back");
        let url = node.s().ws_url(code);
        let Ok((ws, _)) = tokio_tungstenite::connect_async(url).await else {
            tokio::time::sleep(Duration::from_millis(100)).await;
            continue;
        };
        let mut client = Client::new(ws);
        let id = client.take_id();
        let hello = json!({"id": id, "type": "hello", "token": token});
        if client.send_text_checked(hello.to_string()).await.is_err() {
            continue;
        }
        // Read until the snapshot, or the socket ends.
        match client.until("snapshot", Duration::from_secs(5)).await {
            Ok(snapshot) => {
                let acked = client
                    .events
                    .iter()
                    .any(|e| e["type"] == "ack" && e["id"] == id);
                assert!(acked, "a snapshot follows the hello's ack");
                client.events.clear();
                return (client, snapshot);
            }
            Err(common::Ending::Open) => panic!("no snapshot within 5 s"),
            Err(_) => tokio::time::sleep(Duration::from_millis(100)).await,
        }
    }
}

fn match_of(snapshot: &Value) -> &Value {
    &snapshot["room"]["tables"][0]["match"]
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn players_and_a_spectator_on_two_nodes_see_every_event_in_order() {
    let Some(p) = pair().await else { return };
    let mut g = start_game(&p).await;
    for ply in 0..12 {
        g.play(ply).await;
    }
    // Every client on B saw every move, in order, with versions rising.
    for client in [&mut g.guest, &mut g.spectator] {
        client.silent_for("none", Duration::from_millis(500)).await;
        assert_eq!(moves_seen(&client.events), g.moves, "every move, in order");
        let v = versions(&client.events);
        assert!(v.windows(2).all(|w| w[1] > w[0]), "disorder: {v:?}");
    }
    // Chat from B reaches A, and the other way round.
    g.guest
        .ok(json!({"type": "chat", "text": "xin chào từ B"}))
        .await;
    let line = g.host.next_of("chat").await;
    assert_eq!(line["message"]["text"], "xin chào từ B", "{line}");
    g.host
        .ok(json!({"type": "chat", "text": "hello from A"}))
        .await;
    assert_eq!(
        g.spectator.next_of("chat").await["message"]["text"],
        "xin chào từ B"
    );
    assert_eq!(
        g.spectator.next_of("chat").await["message"]["text"],
        "hello from A"
    );

    // The guest resigns: the result, then the auto-start countdown, on
    // both nodes.
    g.guest.ok(json!({"type": "resign"})).await;
    for client in [&mut g.host, &mut g.guest, &mut g.spectator] {
        let end = next_match_of(client, "end").await;
        assert_eq!(end["match"]["outcome"]["reason"], "resign");
        let countdown = client.next_of("autostart").await;
        assert!(
            countdown["autostart"]["remaining_ms"].as_u64().unwrap() > 0,
            "{countdown}"
        );
    }
    p.schema.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_computer_plays_for_a_player_on_another_node() {
    let Some(p) = pair().await else { return };
    let (code, token) = p.room_on_a(json!({"game": "jungle", "options": {}})).await;
    // The host (owner of the room's lease: A) plays from B.
    let (mut host, _, _) = p.b.s().join(&code, Some(&token), Some("Minh")).await;
    host.ok(json!({"type": "sit", "seat": 0})).await;
    host.ok(json!({"type": "computer", "seat": 1, "level": "beginner"}))
        .await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = next_match_of(&mut host, "start").await;
    let mut local = local_game("jungle", &json!({}));
    let mut last = start["match"].clone();
    for ply in 0..3 {
        let mv = keep_going(&local, &last["legal"], ply);
        local.play_text(&mv).unwrap();
        host.ok(json!({"type": "move", "move": mv})).await;
        last = follow(&last, &next_match_of(&mut host, "move").await);
        let reply = next_match_of(&mut host, "move").await;
        assert_eq!(reply["side"], 1, "the computer answered: {reply}");
        local.play_text(reply["move"].as_str().unwrap()).unwrap();
        last = follow(&last, &reply);
    }
    p.schema.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn kill_9_of_the_owner_mid_game_the_other_node_takes_over_within_5_s() {
    let Some((mut p, mut g)) = game_after(8).await else {
        return;
    };
    let killed = Instant::now();
    p.a.child.kill().expect("SIGKILL");
    p.a.child.wait().expect("reaped");

    // B notices and closes its relayed sockets, which reconnect to B.
    let ending = g.guest.ending(Duration::from_secs(5)).await;
    assert_eq!(ending.code(), Some(1012), "{ending:?}");
    let (mut guest, snap) = rejoin(&p.b, &g.code, &g.guest_token).await;
    let took = killed.elapsed();
    assert!(took < Duration::from_secs(5), "the takeover took {took:?}");
    let m = match_of(&snap);
    assert_eq!(
        m["moves"],
        json!(g.moves),
        "every acknowledged move is kept"
    );
    assert_eq!(m["outcome"], Value::Null);

    // The host's browser reconnects (to B) and the game goes on.
    let (host, snap) = rejoin(&p.b, &g.code, &g.host_token).await;
    assert_eq!(snap["you"]["member"], g.host_member);
    g.host = host;
    std::mem::swap(&mut g.guest, &mut guest);
    for ply in 8..12 {
        g.play(ply).await;
    }
    let (_, snap) = rejoin(&p.b, &g.code, &g.guest_token).await;
    assert_eq!(match_of(&snap)["moves"], json!(g.moves));
    p.schema.drop().await;
}

/// The owner killed and started again at once under the same
/// `--node-id` (what `restart: unless-stopped` with a fixed `NODE_ID`
/// does): the new run holds none of the old run's rooms, so it lets their
/// leases go at start and loads the game in progress; through the other
/// node the room answers within 5 s with every acknowledged move (it used
/// to answer "moving" for as long as the new run renewed the old leases).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn the_owner_killed_and_started_again_under_its_id_gives_its_rooms_back_within_5_s() {
    let Some((mut p, g)) = game_after(6).await else {
        return;
    };
    p.a.child.kill().expect("SIGKILL");
    p.a.child.wait().expect("reaped");
    let killed = Instant::now();
    let a = node(&p.schema.url, &p.a_id).await;
    let (mut guest, snap) = rejoin(&p.b, &g.code, &g.guest_token).await;
    let took = killed.elapsed();
    assert!(
        took < Duration::from_secs(5),
        "the room came back after {took:?}"
    );
    assert_eq!(
        match_of(&snap)["moves"],
        json!(g.moves),
        "every acknowledged move is kept"
    );
    assert_eq!(match_of(&snap)["outcome"], Value::Null);
    // And it plays on: after six plies the host (side 0) is to move.
    let (mut host, snap) = rejoin(&a, &g.code, &g.host_token).await;
    assert_eq!(snap["you"]["member"], g.host_member);
    assert_eq!(match_of(&snap)["to_play"], g.host_member);
    let mv = keep_going(&g.local, &match_of(&snap)["legal"], 6);
    host.ok(json!({"type": "move", "move": mv})).await;
    let event = next_match_of(&mut guest, "move").await;
    assert_eq!(event["match"]["ply"], 7, "{event}");
    drop(a);
    p.schema.drop().await;
}

/// A relayed client's frames that need no room are answered by the node
/// its socket is on, as a local socket's are: frames over 16 KiB
/// (`too_large`) and commands past the connection's rate
/// (`rate_limited`, with their ids) put nothing on NATS (they all did, so
/// one socket could push hundreds of MB a second to the owner).
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_relayed_clients_refused_frames_never_cross_to_the_owner() {
    use futures_util::StreamExt;
    let Some(p) = pair().await else {
        return;
    };
    let (code, _) = p.room_on_a(json!({"game": "jungle"})).await;
    let (mut guest, _, _) = p.b.s().join(&code, None, Some("Lan")).await;
    // Everything that crosses to A's rooms, counted while the guest floods.
    let nats = async_nats::connect(nats_url()).await.expect("nats");
    let mut to_a = nats
        .subscribe(format!("bg.node.{}.room", p.a_id))
        .await
        .expect("subscribe");
    nats.flush().await.expect("flush");
    let counted = tokio::spawn(async move {
        let mut bytes = 0;
        while let Ok(Some(msg)) = tokio::time::timeout(Duration::from_secs(2), to_a.next()).await {
            bytes += msg.payload.len();
        }
        bytes
    });
    let big = json!({"id": 0, "type": "chat", "text": "x".repeat(17_000)}).to_string();
    for _ in 0..30 {
        guest.send_text(big.clone()).await;
    }
    for id in 1..=100 {
        let sit = json!({"id": id, "type": "sit", "seat": 7});
        guest.send_text(sit.to_string()).await;
    }
    let (mut too_large, mut limited, mut others) = (0, Vec::new(), 0);
    while too_large + limited.len() + others < 130 {
        let msg = guest.recv().await;
        match (msg["type"].as_str(), msg["code"].as_str()) {
            (Some("error"), Some("too_large")) => too_large += 1,
            (Some("error"), Some("rate_limited")) => {
                limited.push(msg["id"].as_i64().expect("its id"))
            }
            (Some("ack" | "error"), _) => others += 1,
            _ => {}
        }
    }
    assert_eq!(too_large, 30);
    assert!(limited.len() >= 50, "{} refused for rate", limited.len());
    assert!(
        limited.iter().all(|id| (1..=100).contains(id)),
        "{limited:?}"
    );
    let bytes = counted.await.expect("counted");
    assert!(
        bytes < 30_000,
        "{bytes} bytes crossed to the owner for {others} commands it answered"
    );
    p.schema.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_paused_owner_whose_lease_ran_out_cannot_write() {
    let Some(p) = pair().await else { return };
    let mut g = start_game(&p).await;
    for ply in 0..6 {
        g.play(ply).await;
    }
    if !g.host_to_play() {
        g.play(6).await;
    }
    assert!(g.host_to_play());
    let stale = g.next_move(99);
    p.a.signal("STOP");
    // The host's move reaches A's socket while A is paused.
    let id = g.host.take_id();
    g.host
        .send_text(json!({"id": id, "type": "move", "move": stale}).to_string())
        .await;
    // B takes the room over once A's lease has run out.
    let (mut guest, snap) = rejoin(&p.b, &g.code, &g.guest_token).await;
    assert_eq!(match_of(&snap)["moves"], json!(g.moves));
    p.a.signal("CONT");
    // A wakes up: the move it then reads is never acknowledged.
    let ending = g.host.ending(Duration::from_secs(5)).await;
    assert!(
        ending.code().is_some(),
        "A closes the host's socket: {ending:?}"
    );
    assert!(
        !g.host
            .events
            .iter()
            .any(|e| e["type"] == "ack" && e["id"] == id),
        "a fenced node acknowledged a move: {:?}",
        g.host.events
    );
    guest.silent_for("match", Duration::from_millis(1500)).await;
    let (_, snap) = rejoin(&p.b, &g.code, &g.guest_token).await;
    assert_eq!(
        match_of(&snap)["moves"],
        json!(g.moves),
        "nothing A wrote after its lease"
    );
    // The host plays the move again, on B.
    let (host, _) = rejoin(&p.b, &g.code, &g.host_token).await;
    g.host = host;
    g.guest = guest;
    g.play(99).await;
    p.schema.drop().await;
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn sigterm_hands_the_rooms_over_without_losing_a_move() {
    let Some((mut p, mut g)) = game_after(9).await else {
        return;
    };
    let signalled = Instant::now();
    p.a.signal("TERM");
    let ending = g.guest.ending(Duration::from_secs(5)).await;
    assert_eq!(ending.code(), Some(1012), "{ending:?}");
    let (_, snap) = rejoin(&p.b, &g.code, &g.guest_token).await;
    let took = signalled.elapsed();
    // The lease was released: no waiting for it to run out.
    assert!(
        took < Duration::from_millis(2500),
        "the hand-over took {took:?}"
    );
    assert_eq!(match_of(&snap)["moves"], json!(g.moves));
    let status = p.a.exited(Duration::from_secs(10)).await.expect("A exits");
    assert!(status.success(), "{status}");
    p.schema.drop().await;
}

fn tournament_is(status: &'static str, rounds: usize) -> impl Fn(&Value) -> bool {
    move |e| {
        e["type"] == "tournament"
            && e["tournament"]["status"]["kind"] == status
            && e["tournament"]["rounds"].as_array().map(Vec::len) == Some(rounds)
    }
}

/// A three-player knockout with players on both nodes: round 1 (one
/// match, one bye), the countdown, the final, the champion; every player
/// sees every step.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_knockout_tournament_is_played_across_nodes() {
    let Some(p) = pair().await else { return };
    let (code, host_token) =
        p.a.s()
            .new_room(json!({"game": "crossyray", "options": {"mode": "knockout"}}))
            .await;
    let mut clients = Vec::new();
    let mut members = Vec::new();
    for (i, name) in ["Minh", "Lan", "Khoa"].iter().enumerate() {
        let (node, token) = match i {
            0 => (&p.a, Some(host_token.as_str())),
            _ => (&p.b, None),
        };
        let (mut client, _, snap) = node.s().join(&code, token, Some(name)).await;
        client.ok(json!({"type": "sit", "seat": i})).await;
        members.push(snap["you"]["member"].clone());
        clients.push(client);
    }
    clients[0].ok(json!({"type": "start"})).await;
    for round in 1..=2 {
        let playing = wait_for(&mut clients[0], tournament_is("playing", round)).await;
        let pairing = playing["tournament"]["rounds"][round - 1]["pairings"]
            .as_array()
            .unwrap()
            .iter()
            .find(|p| p["players"].as_array().map(Vec::len) == Some(2))
            .expect("a match")
            .clone();
        // The second player resigns at the match's table.
        let loser = members
            .iter()
            .position(|m| *m == pairing["players"][1])
            .unwrap();
        wait_for(&mut clients[loser], |e| {
            e["type"] == "match" && e["kind"] == "start" && e["table"] == pairing["table"]
        })
        .await;
        clients[loser]
            .ok(json!({"type": "resign", "table": pairing["table"]}))
            .await;
    }
    for client in &mut clients {
        let done = wait_for(client, tournament_is("finished", 2)).await;
        assert!(
            done["tournament"]["status"]["champion"].is_string(),
            "{done}"
        );
    }
    p.schema.drop().await;
}

/// Nodes of a new site start at once on an empty database: one migrates
/// it, the others wait, and all come up.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn nodes_starting_at_once_on_an_empty_database_all_come_up() {
    if !nats_up().await {
        return;
    }
    let Some(schema) = postgres::schema().await else {
        return;
    };
    let run = &server::model::new_token()[..10];
    let ids: Vec<String> = (0..3).map(|i| format!("n{i}-{run}")).collect();
    let nodes = futures_util::future::join_all(ids.iter().map(|id| node(&schema.url, id))).await;
    for n in &nodes {
        let (status, _) = n.s().get("/healthz").await;
        assert_eq!(status, 200);
    }
    drop(nodes);
    schema.drop().await;
}

/// Voice signalling takes the same socket path as every command: from a
/// page on node B to the room's node A and back out to the member
/// addressed, on either node, and to nobody else.
#[tokio::test]
async fn voice_signalling_crosses_nodes_to_the_addressed_member_only() {
    let Some(p) = pair().await else { return };
    let mut g = start_game(&p).await;
    // The host plays side 0 (order "seats"), the guest side 1.
    let guest = g.last["players"][1]["member"].clone();
    assert_ne!(guest, g.host_member);
    for client in [&mut g.host, &mut g.guest, &mut g.spectator] {
        client.ok(json!({"type": "voice", "join": true})).await;
    }
    let sdp = "v=0\r\no=- 1 2 IN IP4 127.0.0.1\r\ns=-\r\n";
    // B (relayed) to A (the owner's own socket).
    g.guest
        .ok(json!({"type": "signal", "to": g.host_member, "kind": "offer", "sdp": sdp}))
        .await;
    let got = g.host.next_of("signal").await;
    assert_eq!(
        (got["from"].clone(), got["sdp"].clone()),
        (guest.clone(), json!(sdp))
    );
    // A to B, through the relay.
    g.host
        .ok(json!({"type": "signal", "to": guest, "kind": "answer", "sdp": sdp}))
        .await;
    let got = g.guest.next_of("signal").await;
    assert_eq!(got["from"], g.host_member);
    assert_eq!(got["kind"], "answer");
    // The spectator on B, in voice too, received neither.
    g.spectator
        .silent_for("signal", Duration::from_millis(500))
        .await;
    let refused = g
        .guest
        .command(json!({"type": "signal", "to": g.host_member, "kind": "offer", "sdp": "x"}))
        .await;
    assert_eq!(refused["code"], "bad_signal", "{refused}");
    p.schema.drop().await;
}

// Ending a session signs its sockets out on every node (issue 24, item
// 5): a browser's socket is on one node, and it logs out (or changes its
// password) through the other; the end travels on `bg.sessions.ended`.

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_session_ended_on_one_node_closes_its_socket_on_the_other() {
    let Some(Pair {
        a,
        b,
        schema: _schema,
        ..
    }) = pair().await
    else {
        return;
    };

    // Signed in on A; its socket on B (a room of B, and one of A relayed
    // through B); the logout goes to A.
    let mut on_a = Browser::new(a.s());
    on_a.register("minh", "password1").await;
    let mut on_b = Browser::new(b.s());
    on_b.session = on_a.session.clone();
    let mut local = on_b.signed_in_socket(b.s()).await;
    let mut relayed = on_b.signed_in_socket(a.s()).await;
    assert_eq!(on_a.post("/api/logout", json!({})).await.status, 204);
    assert_eq!(local.close_code().await, Some(4001));
    assert_eq!(relayed.close_code().await, Some(4001));

    // A password change through B closes the other session's socket on A,
    // and leaves its own.
    a_password_change_closes_the_other_socket(b.s(), a.s()).await;
}

// The cap on new members per address holds for sockets relayed from
// another node too (issue 24, item 6): the relaying node sends the
// client's address with the socket.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn members_per_address_are_capped_through_the_other_node_too() {
    let Some(p) = pair().await else { return };
    let (code, _) = p.room_on_a(json!({"game": "crossyray"})).await;
    let code = code.as_str();
    // The default cap is 20: twenty named guests through B (all from
    // 127.0.0.1, relayed to A, the owner) get in, the next is refused.
    let mut ours = Vec::new();
    for i in 0..20 {
        let (client, _, _) = p.b.s().join(code, None, Some(&format!("g{i}"))).await;
        ours.push(client);
    }
    let mut next = p.b.s().socket(code).await;
    let answer = next
        .command(json!({"type": "hello", "name": "one too many"}))
        .await;
    assert_eq!(answer["code"], "room_full", "{answer}");
    p.schema.drop().await;
}

/// A new room is taken by the first node asked for it, not by the node
/// that created it: a proxy that sends every request of a room code to
/// one node (`deploy/nginx.conf` hashes the code) keeps all the room's
/// sockets on its owner, with nothing relayed.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_new_room_runs_on_the_first_node_asked_for_it() {
    let Some(p) = pair().await else { return };
    let store = p.schema.open().await;
    let (code, token) = p.a.s().new_room(json!({"game": "crossyray"})).await;
    assert_eq!(
        store.lease(&code).await.unwrap(),
        None,
        "no node took the room when it was created"
    );
    let (mut host, _, snap) = p.b.s().join(&code, Some(&token), Some("Minh")).await;
    assert_eq!(snap["you"]["host"], true, "{snap}");
    let lease = store.lease(&code).await.unwrap().expect("a lease");
    assert_eq!(lease.node, p.b_id, "the first node asked took the room");
    let (mut guest, _, _) = p.b.s().join(&code, None, Some("Lan")).await;
    host.ok(json!({"type": "sit", "seat": 0})).await;
    guest.ok(json!({"type": "sit", "seat": 1})).await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = next_match_of(&mut guest, "start").await;
    let local = local_game("crossyray", &json!({}));
    let mv = keep_going(&local, &start["match"]["legal"], 0);
    host.ok(json!({"type": "move", "move": mv})).await;
    let seen = next_match_of(&mut guest, "move").await;
    assert_eq!(seen["move"], mv.as_str());
    // Asked through A, the room answers from B, and stays there.
    let (status, info) = p.a.s().get(&format!("/api/rooms/{code}")).await;
    assert_eq!(status, 200, "{info}");
    let info: Value = serde_json::from_str(&info).unwrap();
    assert_eq!(info["players"], 2, "{info}");
    let still = store.lease(&code).await.unwrap().expect("a lease");
    assert_eq!((still.node, still.token), (p.b_id.clone(), lease.token));
    p.schema.drop().await;
}

/// A room whose every socket comes through one other node (it was taken
/// over while the proxy's node for it was down, say) moves to that node
/// between games: it lets its lease go and closes its sockets with 1012,
/// and they reconnect there. Never during a game.
#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_room_moves_to_the_node_all_its_sockets_come_from_between_games() {
    let Some(p) = pair().await else { return };
    let store = p.schema.open().await;
    let (code, host_token) = p.room_on_a(json!({"game": "jungle", "options": {}})).await;
    let (mut host, _, _) = p.b.s().join(&code, Some(&host_token), Some("Minh")).await;
    let (mut guest, guest_token, _) = p.b.s().join(&code, None, Some("Lan")).await;
    host.ok(json!({"type": "sit", "seat": 0})).await;
    guest.ok(json!({"type": "sit", "seat": 1})).await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut guest, "start").await;
    // A game under way: the room stays on A past the hand-over delay (10 s).
    tokio::time::sleep(Duration::from_secs(12)).await;
    host.ok(json!({"type": "ping"})).await;
    assert_eq!(store.lease(&code).await.unwrap().unwrap().node, p.a_id);
    // Over, with no countdown to the next game (none moves either):
    // within the delay and a little, A lets the room go.
    host.ok(json!({"type": "autostart", "enabled": false}))
        .await;
    guest.ok(json!({"type": "resign"})).await;
    let ended = Instant::now();
    let ending = host.ending(Duration::from_secs(15)).await;
    assert_eq!(ending.code(), Some(1012), "{ending:?}");
    assert!(
        ended.elapsed() < Duration::from_secs(14),
        "{:?}",
        ended.elapsed()
    );
    let (_host, snap) = rejoin(&p.b, &code, &host_token).await;
    assert_eq!(snap["you"]["seat"], 0, "{snap}");
    let (_guest, _) = rejoin(&p.b, &code, &guest_token).await;
    let lease = store.lease(&code).await.unwrap().expect("a lease");
    assert_eq!(lease.node, p.b_id, "the room runs where its sockets are");
    p.schema.drop().await;
}

/// A TCP forwarder to `to` (`host:port`) that can be cut: once cut it
/// takes no more connections and drops every one it carries, as a
/// network between a node and its database that fails.
struct Forwarder {
    port: u16,
    cut: tokio::sync::watch::Sender<bool>,
}

async fn forwarder(to: &str) -> Forwarder {
    let listener = tokio::net::TcpListener::bind("127.0.0.1:0").await.unwrap();
    let port = listener.local_addr().unwrap().port();
    let (cut, watch) = tokio::sync::watch::channel(false);
    let to = to.to_string();
    tokio::spawn(async move {
        let mut stop = watch.clone();
        loop {
            let (mut inbound, _) = tokio::select! {
                _ = stop.wait_for(|c| *c) => return,
                accepted = listener.accept() => match accepted {
                    Ok(a) => a,
                    Err(_) => return,
                },
            };
            let (to, mut stop) = (to.clone(), watch.clone());
            tokio::spawn(async move {
                let Ok(mut outbound) = tokio::net::TcpStream::connect(&to).await else {
                    return;
                };
                tokio::select! {
                    _ = tokio::io::copy_bidirectional(&mut inbound, &mut outbound) => {}
                    _ = stop.wait_for(|c| *c) => {}
                }
            });
        }
    });
    Forwarder { port, cut }
}

/// The `host:port` of a `postgres://[user@]host:port/db…` URL.
fn host_port(url: &str) -> &str {
    let rest = url.split_once("://").map_or(url, |(_, r)| r);
    let rest = rest.rsplit_once('@').map_or(rest, |(_, r)| r);
    rest.split(['/', '?']).next().unwrap_or(rest)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn a_node_cut_off_from_the_database_stops_serving_its_rooms_and_says_so() {
    if !nats_up().await {
        return;
    }
    let Some(schema) = postgres::schema().await else {
        return;
    };
    // A reaches the database through a forwarder; B directly.
    let target = host_port(&schema.url).to_string();
    let link = forwarder(&target).await;
    let a_url = schema
        .url
        .replacen(&target, &format!("127.0.0.1:{}", link.port), 1);
    let run = &server::model::new_token()[..10];
    let a = node(&a_url, &format!("a-{run}")).await;
    let b = node(&schema.url, &format!("b-{run}")).await;
    let (code, host_token) = a.s().new_room(json!({"game": "crossyray"})).await;
    let (status, _) = a.s().get(&format!("/api/rooms/{code}")).await;
    assert_eq!(status, 200);
    let (mut host, _, _) = a.s().join(&code, Some(&host_token), Some("Minh")).await;
    let (mut guest, guest_token, _) = a.s().join(&code, None, Some("Lan")).await;
    host.ok(json!({"type": "sit", "seat": 0})).await;
    guest.ok(json!({"type": "sit", "seat": 1})).await;
    assert_eq!(a.s().get("/healthz").await, (200, "ok".to_string()));

    // The link fails: within the lease's few seconds A stops the room
    // (its sockets are closed with a code) rather than serve a copy that
    // B may have taken over, and its health check says what is down.
    let _ = link.cut.send(true);
    let cut = Instant::now();
    for client in [&mut host, &mut guest] {
        let ending = client.ending(Duration::from_secs(8)).await;
        assert!(
            ending.code().is_some(),
            "A closes the room's sockets: {ending:?}"
        );
    }
    assert!(cut.elapsed() < Duration::from_secs(8));
    let (status, body) = a.s().get("/healthz").await;
    assert_eq!((status, body.as_str()), (503, "down: database"));
    // B serves the room, the seats as they were.
    let (_, snap) = rejoin(&b, &code, &guest_token).await;
    let seated: Vec<&str> = snap["room"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"].is_number())
        .map(|m| m["name"].as_str().unwrap())
        .collect();
    assert_eq!(seated.len(), 2, "{snap}");
    drop((a, b));
    schema.drop().await;
}

#[tokio::test]
async fn a_second_node_with_a_running_nodes_id_refuses_to_start() {
    if !nats_up().await {
        return;
    }
    let Some(schema) = postgres::schema().await else {
        return;
    };
    let id = format!("twin-{}", &server::model::new_token()[..10]);
    let first = node(&schema.url, &id).await;
    let dir = tempfile::tempdir().unwrap();
    let (status, said) = common::process::refused_start(
        dir.path(),
        &[
            "--database-url",
            &schema.url,
            "--nats-url",
            &nats_url(),
            "--node-id",
            &id,
        ],
    )
    .await;
    assert!(!status.success());
    assert!(
        said.contains(&format!("another node already runs as --node-id {id}")),
        "{said}"
    );
    // The first goes on.
    assert_eq!(first.s().get("/healthz").await, (200, "ok".to_string()));
    drop(first);
    schema.drop().await;
}
