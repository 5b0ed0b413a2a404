//! The order in which a real room task (on a real SQLite store) queues a
//! move for its connections: the players' pages and the mover's `ack`
//! before the spectators'. On a one-thread runtime each queue's reader
//! runs in the order the room woke it, so the readers' log is the order
//! of the room's pushes.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use serde_json::{json, Value};

use super::super::cmd::Command;
use crate::room::{ConnId, Queue, RoomHandle};

const HOST: &str = "host-token-0123456789abcdef";
const GUEST: &str = "guest-token-0123456789abcde";
const SPECTATORS: u64 = 40;

/// Attaches connection `conn` with `token` (and `name`), reads its `ack`
/// and snapshot; its queue.
async fn attach(room: &RoomHandle, conn: u64, token: &str, name: Option<&str>) -> Queue {
    let (rx, _) = super::hello_real(room, conn, token, name).await;
    for _ in 0..2 {
        next(&rx).await;
    }
    rx
}

async fn next(rx: &Queue) -> Value {
    let text = tokio::time::timeout(Duration::from_secs(5), rx.recv_async())
        .await
        .expect("a message in time")
        .expect("the room keeps the queue");
    serde_json::from_str(text.as_str()).expect("JSON")
}

async fn command(room: &RoomHandle, conn: u64, id: i64, command: Value) {
    let command: Command = serde_json::from_value(command).expect("a command");
    room.command(ConnId(conn), id, command).await.unwrap();
}

/// Reads `rx` up to the game's start; that event.
async fn started(rx: &Queue) -> Value {
    loop {
        let e = next(rx).await;
        if e["type"] == "match" && e["kind"] == "start" {
            return e;
        }
    }
}

/// Everything waiting in `rx`, after the room has had time to send it.
async fn drain(rx: &Queue) -> Vec<Value> {
    tokio::time::sleep(Duration::from_millis(50)).await;
    let mut all = Vec::new();
    while let Ok(text) = rx.try_recv() {
        all.push(serde_json::from_str(text.as_str()).unwrap());
    }
    all
}

#[tokio::test(flavor = "current_thread")]
async fn the_players_and_the_movers_ack_are_queued_before_the_spectators() {
    let dir = tempfile::tempdir().unwrap();
    let (_registry, room) = super::real_room(dir.path(), HOST).await;
    let host = attach(&room, 1, HOST, Some("Minh")).await;
    let guest = attach(&room, 2, GUEST, Some("Lan")).await;
    let mut spectators = Vec::new();
    for i in 0..SPECTATORS {
        let token = format!("watcher-token-{i:013}");
        spectators.push(attach(&room, 100 + i, &token, None).await);
    }
    command(&room, 1, 2, json!({"type": "sit", "seat": 0})).await;
    command(&room, 2, 2, json!({"type": "sit", "seat": 1})).await;
    command(&room, 1, 3, json!({"type": "start", "order": "seats"})).await;
    // Every page reads up to the game's start (however slow the machine),
    // then whatever followed it.
    let start = started(&host).await;
    let mv = start["match"]["legal"][0].as_str().unwrap().to_string();
    started(&guest).await;
    for s in &spectators {
        started(s).await;
    }
    drain(&host).await;
    drain(&guest).await;
    for s in &spectators {
        drain(s).await;
    }

    // Each queue's reader logs what it gets, in the order the room woke
    // the readers (one thread: they run in that order).
    let log: Arc<Mutex<Vec<(u64, String)>>> = Arc::default();
    let mut queues = vec![(1, host), (2, guest)];
    queues.extend((100..).zip(spectators));
    for (conn, rx) in queues {
        let log = log.clone();
        tokio::spawn(async move {
            while let Ok(text) = rx.recv_async().await {
                let msg: Value = serde_json::from_str(text.as_str()).unwrap();
                let what = msg["type"].as_str().unwrap_or_default().to_string();
                log.lock().unwrap().push((conn, what));
            }
        });
    }
    tokio::task::yield_now().await;
    command(&room, 1, 4, json!({"type": "move", "move": mv})).await;
    // Until every page has the move (the mover its ack too), or 10 s.
    let until = tokio::time::Instant::now() + Duration::from_secs(10);
    while log.lock().unwrap().len() < SPECTATORS as usize + 3 && tokio::time::Instant::now() < until
    {
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(50)).await;

    let log = log.lock().unwrap().clone();
    let spectators_got = log.iter().filter(|(conn, _)| *conn >= 100).count();
    assert_eq!(
        spectators_got as u64, SPECTATORS,
        "every spectator got the move: {log:?}"
    );
    let first_spectator = log.iter().position(|(conn, _)| *conn >= 100).unwrap();
    let players: Vec<&(u64, String)> = log[..first_spectator].iter().collect();
    assert!(
        players.contains(&&(1, "match".to_string()))
            && players.contains(&&(1, "ack".to_string()))
            && players.contains(&&(2, "match".to_string())),
        "the players' move events and the mover's ack come before any spectator's: {log:?}"
    );
    let mover: Vec<&str> = log
        .iter()
        .filter(|(conn, _)| *conn == 1)
        .map(|(_, what)| what.as_str())
        .collect();
    assert_eq!(mover, ["match", "ack"], "the move's event, then its ack");
}
