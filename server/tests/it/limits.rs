//! Per-connection limits: what a flooding or oversized client gets.

use crate::common;

use common::TestServer;
use serde_json::json;

/// Joins a new room of `server` and sends 100 pings at once; returns how
/// many were acknowledged and how many refused with `rate_limited`, each
/// answer matched to its command. Refusals for rate come from the
/// connection itself and may overtake the room's acks, so answers are
/// collected in any order.
async fn flood(server: &TestServer) -> (usize, usize) {
    let (_, room) = server.create_room(json!({})).await;
    let (mut client, _, _) = server
        .join(room["code"].as_str().unwrap(), None, None)
        .await;
    for id in 1000..1100 {
        client
            .send_text(json!({"id": id, "type": "ping"}).to_string())
            .await;
    }
    let (mut acks, mut limited) = (0, 0);
    let mut seen = std::collections::HashSet::new();
    while seen.len() < 100 {
        let msg = client.recv().await;
        let Some(id) = msg["id"].as_i64() else {
            continue;
        };
        assert!((1000..1100).contains(&id) && seen.insert(id), "{msg}");
        match msg["type"].as_str() {
            Some("ack") => acks += 1,
            _ => {
                assert_eq!(msg["code"], "rate_limited", "{msg}");
                limited += 1;
            }
        }
    }
    (acks, limited)
}

#[tokio::test]
async fn a_flood_is_refused_with_rate_limited_errors_that_keep_their_ids() {
    let server = TestServer::start().await;
    // The burst allowance (40) passes, the rest are refused.
    let (acks, limited) = flood(&server).await;
    // The hello took one token of the burst; a few more refill meanwhile.
    assert!((39..60).contains(&acks), "{acks} acks");
    assert_eq!(acks + limited, 100);
    assert!(limited > 0);
}

/// `--message-rate 0` (for load tests) lifts the limit: the same flood is
/// answered in full; `--message-burst` sets the allowance (the hello takes
/// one of it).
#[tokio::test]
async fn the_message_rate_is_the_servers_to_set() {
    for (rate, burst, want_acks) in [(0.0, 40.0, 100..=100), (1.0, 10.0, 9..=11)] {
        let server = TestServer::start_with(|c| {
            c.message_rate = rate;
            c.message_burst = burst;
        })
        .await;
        let (acks, limited) = flood(&server).await;
        assert!(want_acks.contains(&acks), "rate {rate}: {acks} acks");
        assert_eq!(acks + limited, 100);
    }
}

#[tokio::test]
async fn a_frame_over_the_hard_cap_closes_the_connection() {
    let server = TestServer::start().await;
    let (_, room) = server.create_room(json!({})).await;
    let (mut client, _, _) = server
        .join(room["code"].as_str().unwrap(), None, None)
        .await;
    client.send_text("x".repeat(100 * 1024)).await;
    use futures_util::StreamExt;
    // Events already on their way may arrive first; then the socket closes.
    let closed = async {
        loop {
            match client.ws.next().await {
                None | Some(Err(_)) => return,
                Some(Ok(msg)) if msg.is_close() => return,
                Some(Ok(_)) => continue,
            }
        }
    };
    tokio::time::timeout(std::time::Duration::from_secs(5), closed)
        .await
        .expect("the server closes the socket");
}

/// A guest's room of Jungle against the computer, hosted from the local
/// address `from`, its host seated: the host's client.
async fn solo_from(server: &TestServer, from: &str) -> common::Client {
    let mut guest = common::browser::Browser::new(server);
    common::browser::against_the_computer_from(server, &mut guest, "jungle", from).await
}

#[tokio::test]
async fn new_games_are_bounded_per_address_over_all_its_rooms() {
    let server = TestServer::start_with(|c| {
        c.game_burst = 3;
        c.game_every_secs = 3600;
    })
    .await;
    let mut first = solo_from(&server, "127.0.0.2").await;
    first.ok(json!({"type": "start", "order": "seats"})).await;
    first.ok(json!({"type": "resign"})).await;
    // A refused start (a game runs, or none is over) spends one too.
    first.ok(json!({"type": "start", "order": "seats"})).await;
    first
        .refused(json!({"type": "rematch"}), "game_running")
        .await;
    // The address's three are spent, in this room or another.
    let mut second = solo_from(&server, "127.0.0.2").await;
    let message = second
        .refused(json!({"type": "start", "order": "seats"}), "rate_limited")
        .await;
    assert!(message.contains("new games"), "{message}");
    // Another address starts its own.
    let mut other = solo_from(&server, "127.0.0.3").await;
    other.ok(json!({"type": "start", "order": "seats"})).await;
}

/// A client's own pings count as messages do (an outside check sent
/// millions a second from 20 sockets, never reading the pongs, and took a
/// core): past `--message-rate`'s burst the socket is closed with 1008.
/// A few pings are answered as before.
#[tokio::test]
async fn a_ping_flood_closes_the_socket() {
    use futures_util::SinkExt;
    use tokio_tungstenite::tungstenite::Message;
    let server = TestServer::start_with(|c| {
        c.message_rate = 20.0;
        c.message_burst = 40.0;
    })
    .await;
    let (_, room) = server.create_room(json!({})).await;
    let code = room["code"].as_str().unwrap();
    let (mut calm, _, _) = server.join(code, None, None).await;
    for _ in 0..5 {
        calm.ws.send(Message::Ping(vec![1].into())).await.unwrap();
    }
    calm.ok(json!({"type": "ping"})).await;
    let (mut flood, _, _) = server.join(code, None, None).await;
    for _ in 0..200 {
        if flood.ws.send(Message::Ping(vec![1].into())).await.is_err() {
            break;
        }
    }
    assert_eq!(flood.close_code().await, Some(1008));
    calm.ok(json!({"type": "ping"})).await;
    // Pongs nobody asked for count with the pings (an outside check sent
    // a thousand a second, never refused).
    let (mut pongs, _, _) = server.join(code, None, None).await;
    for _ in 0..200 {
        if pongs.ws.send(Message::Pong(vec![1].into())).await.is_err() {
            break;
        }
    }
    assert_eq!(pongs.close_code().await, Some(1008));
    calm.ok(json!({"type": "ping"})).await;
}
