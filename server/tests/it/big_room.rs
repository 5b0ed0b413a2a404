//! A room that many people watch: joining costs a bounded amount of
//! presence data whatever the room's size (watchers past the list's cap
//! are only counted, in a `spectators` event at most once a second), and
//! a move reaches every spectator.

use crate::common;

use std::time::Duration;

use common::{table, Client, TestServer};
use futures_util::future::join_all;
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::Message;

const SPECTATORS: usize = 500;
/// Members without a seat the list names (docs/PROTOCOL.md).
const LISTED: usize = 20;

/// Every message already waiting on `client`'s socket (reading until it
/// has been quiet for `quiet`): the messages, and their bytes.
async fn drain(client: &mut Client, quiet: Duration) -> (Vec<Value>, usize) {
    let mut messages = Vec::new();
    let mut bytes = 0;
    while let Ok(Some(Ok(msg))) = tokio::time::timeout(quiet, client.ws.next()).await {
        if let Message::Text(text) = msg {
            bytes += text.len();
            messages.push(serde_json::from_str(text.as_str()).unwrap());
        }
    }
    (messages, bytes)
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn five_hundred_spectators_join_with_bounded_presence_and_all_see_a_move() {
    let server = TestServer::start().await;
    let mut t = table(&server, json!({"clock": null})).await;
    let (start, host_first) = t.start().await;
    // What the players have received so far is not counted.
    drain(&mut t.host, Duration::from_millis(200)).await;

    let join = |_: usize| {
        let (server, code) = (&server, t.code.clone());
        async move {
            let (mut client, _, snapshot) = server.join(&code, None, None).await;
            client.wait = Duration::from_secs(30);
            (client, snapshot.to_string().len())
        }
    };

    // The first 100: the list names the first 20 members without a seat
    // (Khoa, the table's spectator, is one of them), then only counts.
    let mut spectators = Vec::new();
    for i in 0..100 {
        spectators.push(join(i).await.0);
    }
    let (early, _) = drain(&mut t.host, Duration::from_millis(300)).await;
    let members = early.iter().filter(|e| e["type"] == "members").count();
    assert_eq!(members, LISTED - 1, "one members event per listed join");
    let last = early.iter().rev().find(|e| e["type"] == "members").unwrap();
    assert_eq!(last["members"].as_array().unwrap().len(), 2 + LISTED);

    // The next 400, 50 at a time: no members event at all, and the
    // presence data the host receives is a few coalesced counts.
    let mut largest_snapshot = 0;
    for batch in 0..8 {
        let joined = join_all((0..50).map(|i| join(100 + batch * 50 + i))).await;
        for (client, snapshot) in joined {
            largest_snapshot = largest_snapshot.max(snapshot);
            spectators.push(client);
        }
    }
    tokio::time::sleep(Duration::from_millis(1_100)).await;
    let (late, bytes) = drain(&mut t.host, Duration::from_millis(300)).await;
    assert!(
        late.iter().all(|e| e["type"] == "spectators"),
        "only counts: {:?}",
        late.iter().map(|e| &e["type"]).collect::<Vec<_>>()
    );
    assert!(!late.is_empty(), "the counts were announced");
    assert!(
        bytes < 400 * 8,
        "{bytes} bytes of presence for 400 joins: not O(1) per join"
    );
    let counts = late.last().unwrap();
    assert_eq!(counts["spectators"], SPECTATORS + 1);
    assert_eq!(counts["unlisted"], SPECTATORS + 1 - LISTED);
    // A newcomer's snapshot does not grow with the room either.
    assert!(
        largest_snapshot < 16_000,
        "snapshot of {largest_snapshot} bytes"
    );

    // A move reaches every spectator.
    let mover = if host_first {
        &mut t.host
    } else {
        &mut t.guest
    };
    let mv = start["legal"][0].as_str().unwrap().to_string();
    mover.ok(json!({"type": "move", "move": mv})).await;
    let seen = join_all(spectators.iter_mut().map(|c| async {
        let event = c.next_match().await;
        (event["kind"].clone(), event["move"].clone())
    }))
    .await;
    assert_eq!(seen.len(), SPECTATORS);
    assert!(seen
        .iter()
        .all(|(kind, m)| kind == "move" && m == &json!(mv)));
}
