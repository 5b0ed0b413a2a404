//! Clock lag compensation through the real server: a player whose
//! connection answers the server's ping late (the ping waits 400 ms
//! unread, as on a slow network) is not charged the measured one-way lag on their
//! clock; with `--lag-comp-ms 0` they are (docs/PROTOCOL.md, "Clocks and
//! lag").

use crate::common;

use std::time::{Duration, Instant};

use common::{table, TestServer};
use futures_util::{SinkExt, StreamExt};
use serde_json::json;
use tokio_tungstenite::tungstenite::Message;

/// Side 0's clock after its first move, made right after a ping that
/// its socket answered 400 ms late, and the time the test itself saw pass between the start and the move.
async fn clock_after_a_slow_pong(lag_comp_ms: u64) -> (u64, u64) {
    let server = TestServer::start_with(|c| {
        c.ping_secs = 1;
        c.lag_comp_ms = lag_comp_ms;
    })
    .await;
    let mut t = table(&server, json!({"clock": {"minutes": 3, "increment": 2}})).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    let started = Instant::now();
    // A fresh socket of the host's, so that its first ping (a second
    // after it opens) is the one measured: the host does not read for
    // 1.4 s, so the ping waits unread for 400 ms, as on a slow network;
    // it answers as soon as it reads it.
    let (mut host, _, _) = server.join(&t.code, Some(&t.host_token), None).await;
    tokio::time::sleep(Duration::from_millis(1_400)).await;
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match host.ws.next().await.expect("open").expect("no error") {
                Message::Ping(_) => return,
                Message::Text(text) => host.events.push(serde_json::from_str(&text).unwrap()),
                _ => {}
            }
        }
    })
    .await
    .expect("the server pings");
    // The library answers with the next read or flush: now.
    host.ws.flush().await.expect("the pong goes out");
    let elapsed = started.elapsed().as_millis() as u64;
    host.ok(json!({"type": "move", "move": "e5"})).await;
    let moved = loop {
        let m = host.next_match().await;
        if m["kind"] == "move" {
            break m;
        }
    };
    let left = moved["match"]["clock"]["remaining_ms"][0].as_u64().unwrap();
    (left, elapsed)
}

#[tokio::test]
async fn a_slow_pong_is_not_charged_to_the_movers_clock_within_the_quota() {
    // Without compensation the clock charges at least the time the test
    // saw pass: 180 s + 2 s increment − elapsed, or less.
    let (left, elapsed) = clock_after_a_slow_pong(0).await;
    assert!(
        left <= 182_000 - elapsed,
        "charged in full: {left} ms left after {elapsed} ms"
    );
    // With it, about half the 400 ms round trip comes back (at least
    // 100 ms of it, whatever the machine's load added to the way).
    let (left, elapsed) = clock_after_a_slow_pong(500).await;
    assert!(
        left >= 182_000 - elapsed + 100,
        "credited the lag: {left} ms left after {elapsed} ms"
    );
    assert!(
        left <= 182_000 - elapsed + 500,
        "never more than the quota: {left}"
    );
}
