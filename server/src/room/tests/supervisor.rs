//! The registry's supervisor, through a real room task on a real SQLite
//! store: a task that dies is started again from the store, its
//! connections are closed with 1011, and nothing acknowledged is lost.

use std::time::Duration;

use serde_json::Value;

use super::super::cmd::{self, Command};
use super::crossyray;
use crate::room::{close, Closer, ConnId, RoomHandle};

const HOST: &str = "host-token-0123456789abcdef";

struct Conn {
    rx: crate::room::Queue,
    closer: Closer,
}

impl Conn {
    async fn next(&mut self) -> Value {
        let text = tokio::time::timeout(Duration::from_secs(5), self.rx.recv_async())
            .await
            .expect("a message in time")
            .expect("the room keeps the queue");
        serde_json::from_str(text.as_str()).expect("JSON")
    }

    /// Reads until the answer to `id`, returning it.
    async fn answer(&mut self, id: i64) -> Value {
        loop {
            let msg = self.next().await;
            if msg["id"] == id && matches!(msg["type"].as_str(), Some("ack" | "error")) {
                return msg;
            }
        }
    }
}

async fn attach(room: &RoomHandle, conn: u64) -> (Conn, Value) {
    let (rx, closer) = super::hello_real(room, conn, HOST, Some("Minh")).await;
    let mut c = Conn { rx, closer };
    assert_eq!(c.answer(1).await["type"], "ack");
    let snapshot = c.next().await;
    assert_eq!(snapshot["type"], "snapshot");
    (c, snapshot)
}

#[tokio::test]
async fn a_room_task_that_panics_is_started_again_from_the_store() {
    let dir = tempfile::tempdir().unwrap();
    let (registry, room) = super::real_room(dir.path(), HOST).await;
    let (mut c, first) = attach(&room, 1).await;
    assert_eq!(first["you"]["host"], true);
    let sit = Command::Sit(cmd::Sit { seat: 0 });
    room.command(ConnId(1), 2, sit).await.unwrap();
    assert_eq!(c.answer(2).await["type"], "ack");
    let chat = Command::Chat(cmd::Chat {
        text: "before the crash".to_string(),
    });
    room.command(ConnId(1), 3, chat).await.unwrap();
    assert_eq!(c.answer(3).await["type"], "ack");

    room.inject_panic().await.unwrap();
    tokio::time::timeout(Duration::from_secs(5), c.closer.closed())
        .await
        .expect("the connection is closed");
    assert_eq!(
        c.closer.frame().map(|(code, _)| code),
        Some(close::INTERNAL)
    );

    // The same handle reaches the room started again, with everything
    // that was acknowledged.
    let (_c, again) = attach(&room, 2).await;
    assert_eq!(again["you"]["host"], true);
    assert_eq!(again["you"]["seat"], 0);
    assert_eq!(again["you"]["member"], first["you"]["member"]);
    assert_eq!(again["room"]["chat"][0]["text"], "before the crash");
    assert!(!room.is_closed());
    assert_eq!(registry.open_rooms(), 1);
}

/// A registry on a fresh SQLite store in `dir`: rooms unload after
/// `idle_after` with nobody online, at most `max_rooms` joined.
async fn registry_in(
    dir: &std::path::Path,
    idle_after: Duration,
    max_rooms: usize,
) -> crate::room::Registry {
    let store = crate::store::Store::open(None, dir).await.unwrap();
    let settings = crate::room::RoomSettings {
        config: crate::room::RoomConfig::default(),
        idle_after,
        public_url: None,
    };
    crate::room::Registry::new(store, settings, max_rooms)
}

/// A room nobody joined leaves memory after a twentieth of the idle time
/// (so rooms made in bulk cannot hold `--max-rooms`); one that a socket
/// joined keeps the whole idle time after its last socket leaves.
#[tokio::test]
async fn a_room_nobody_joined_leaves_memory_sooner() {
    let dir = tempfile::tempdir().unwrap();
    let registry = registry_in(dir.path(), Duration::from_secs(4), 10).await;
    let code = registry.create(crossyray(), HOST, false).await.unwrap();
    assert_eq!(registry.open_rooms(), 1);
    // 4 s / 20 = 200 ms.
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert_eq!(registry.open_rooms(), 0, "unloaded, never joined");
    // Stored: it loads again for its first socket, which then leaves.
    let room = registry.get(&code).await.unwrap();
    let (_c, snapshot) = attach(&room, 1).await;
    assert_eq!(snapshot["you"]["host"], true);
    room.detach(ConnId(1)).await.unwrap();
    tokio::time::sleep(Duration::from_millis(1_000)).await;
    assert_eq!(registry.open_rooms(), 1, "joined: the whole idle time");
}

/// Only rooms in use (a socket attached, or a game on its clock) count
/// against `--max-rooms`: rooms made and never opened, or joined and
/// left, do not keep anyone from making theirs, and past the same number
/// of them the oldest leave memory (stored: they load again for their
/// next socket).
#[tokio::test]
async fn rooms_not_in_use_do_not_fill_the_cap_and_the_oldest_make_room() {
    let dir = tempfile::tempdir().unwrap();
    let registry = registry_in(dir.path(), Duration::from_secs(600), 2).await;
    let mut codes = Vec::new();
    for _ in 0..5 {
        let code = registry
            .create(crossyray(), HOST, false)
            .await
            .expect("never-joined rooms do not fill the cap");
        codes.push(code);
        tokio::time::sleep(Duration::from_millis(10)).await;
    }
    tokio::time::sleep(Duration::from_millis(200)).await;
    assert_eq!(registry.open_rooms(), 2, "the three oldest left memory");
    assert!(registry.running(&codes[0]).is_none());
    assert!(registry.running(&codes[4]).is_some());
    // Rooms in use count: two with a socket each, the next is refused.
    let mut conns = Vec::new();
    let mut rooms = Vec::new();
    for (i, code) in codes[..2].iter().enumerate() {
        let room = registry.get(code).await.expect("loads again");
        conns.push(attach(&room, 10 + i as u64).await);
        rooms.push(room);
    }
    let refused = registry.create(crossyray(), HOST, false).await;
    assert!(
        matches!(refused, Err(crate::room::RegistryError::Full)),
        "two joined rooms fill a cap of two"
    );
    assert!(
        registry.get(&codes[2]).await.is_err(),
        "nor is a third loaded"
    );
    // Nor opened while in memory: a room made earlier and not in use
    // counts once asked for (an outside check went past the cap so).
    let made_before = codes[4].clone();
    assert!(registry.running(&made_before).is_some());
    assert!(
        matches!(
            registry.get(&made_before).await,
            Err(crate::room::RegistryError::Full)
        ),
        "in memory, not in use: refused at the cap"
    );
    // The ones in use stay however many others come.
    assert!(registry.running(&codes[0]).is_some());
    assert!(registry.running(&codes[1]).is_some());
    // Its socket gone, a room no longer counts: joining and leaving
    // rooms holds none of the cap.
    rooms[0].detach(ConnId(10)).await.unwrap();
    tokio::time::sleep(Duration::from_millis(100)).await;
    registry
        .create(crossyray(), HOST, false)
        .await
        .expect("one room in use of two");
}
