//! What one address can hold, and how long the server waits for a silent
//! peer, over real sockets: the per-address WebSocket cap, the `hello`
//! deadline, the HTTP header timeout (slowloris, silent and idle
//! connections), keepalive pings, and a node that stops while its NATS is
//! gone.

use crate::common;

use std::time::Duration;

use common::browser::{upgrade_from, Browser};
use common::{postgres, TestServer};
use futures_util::StreamExt;
use serde_json::{json, Value};
use tokio::io::{AsyncReadExt, AsyncWriteExt};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::{Error as WsError, Message};

async fn room(server: &TestServer) -> String {
    let (status, room) = server
        .create_room(json!({"game": "crossyray", "options": null}))
        .await;
    assert_eq!(status, 201, "{room}");
    room["code"].as_str().unwrap().to_string()
}

fn ws_url(server: &TestServer, code: &str) -> String {
    format!("{}/ws/{code}", server.base.replace("http://", "ws://"))
}

/// The close frame the server sends next (skipping pings and messages).
async fn close_frame(
    ws: &mut tokio_tungstenite::WebSocketStream<
        tokio_tungstenite::MaybeTlsStream<tokio::net::TcpStream>,
    >,
    within: Duration,
) -> (u16, String) {
    tokio::time::timeout(within, async {
        while let Some(frame) = ws.next().await {
            if let Message::Close(frame) = frame.expect("no socket error") {
                let frame = frame.expect("a close code");
                return (u16::from(frame.code), frame.reason.to_string());
            }
        }
        panic!("the socket ended without a close frame");
    })
    .await
    .expect("a close frame within the wait")
}

/// Whether the server closes `tcp` (end of stream or reset) within
/// `within`, reading and dropping whatever it sends.
async fn closed_within(tcp: &mut TcpStream, within: Duration) -> bool {
    tokio::time::timeout(within, async {
        let mut buf = [0u8; 1024];
        loop {
            match tcp.read(&mut buf).await {
                Ok(0) | Err(_) => return,
                Ok(_) => {}
            }
        }
    })
    .await
    .is_ok()
}

/// Waits (15 s at most) for a `members` event showing `member` offline.
async fn shown_offline(watcher: &mut common::Client, member: &Value) {
    let offline = watcher.member_until("id", member, |m| m["online"] == false);
    tokio::time::timeout(Duration::from_secs(15), offline)
        .await
        .expect("the silent peer is shown offline");
}

#[tokio::test]
async fn the_socket_cap_per_address_refuses_the_next_and_frees_a_slot_on_close() {
    let server = TestServer::start_with(|c| c.max_sockets_per_addr = 3).await;
    let code = room(&server).await;
    let url = ws_url(&server, &code);
    let mut open = Vec::new();
    for _ in 0..3 {
        let (ws, _) = tokio_tungstenite::connect_async(&url)
            .await
            .expect("within the cap");
        open.push(ws);
    }
    match tokio_tungstenite::connect_async(&url).await {
        Err(WsError::Http(response)) => {
            assert_eq!(response.status().as_u16(), 429);
            let body: Value =
                serde_json::from_slice(response.body().as_deref().expect("a body")).unwrap();
            assert_eq!(body["error"], "too_many_sockets", "{body}");
        }
        other => panic!("the fourth socket should be refused: {other:?}"),
    }
    // Plain HTTP from the same address is not affected.
    let (status, _) = server.get(&format!("/api/rooms/{code}")).await;
    assert_eq!(status, 200);

    // One closes: its slot comes back (once the server has seen the close).
    let mut first = open.remove(0);
    first.close(None).await.expect("close");
    while first.next().await.is_some() {}
    let again = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if let Ok((ws, _)) = tokio_tungstenite::connect_async(&url).await {
                return ws;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("a slot comes back after a close");
    open.push(again);
    assert!(
        tokio_tungstenite::connect_async(&url).await.is_err(),
        "still three at most"
    );
    server.stop().await;
}

/// The `429` body of a refused upgrade.
fn refused_upgrade(result: Result<common::Client, WsError>) -> Value {
    match result {
        Err(WsError::Http(response)) => {
            assert_eq!(response.status().as_u16(), 429);
            serde_json::from_slice(response.body().as_deref().expect("a body")).unwrap()
        }
        Err(e) => panic!("refused otherwise: {e}"),
        Ok(_) => panic!("the upgrade should be refused"),
    }
}

#[tokio::test]
async fn the_socket_cap_holds_per_account_over_all_its_addresses() {
    let server = TestServer::start_with(|c| c.max_sockets_per_addr = 2).await;
    let code = room(&server).await;
    let url = ws_url(&server, &code);
    let mut minh = Browser::new(&server);
    minh.register("minh", "password1").await;
    let session = minh.session.clone();
    let session = session.as_deref();
    // The account's two sockets from two addresses...
    let first = upgrade_from(&url, "127.0.0.2", session).await.expect("one");
    let _second = upgrade_from(&url, "127.0.0.3", session).await.expect("two");
    // ...and a third from a fresh address is refused as the account's.
    let body = refused_upgrade(upgrade_from(&url, "127.0.0.4", session).await);
    assert_eq!(body["error"], "too_many_sockets", "{body}");
    assert!(
        body["message"].as_str().unwrap().contains("Your account"),
        "{body}"
    );
    // The refusal took nothing from that address: a guest and another
    // account fill it, and only then is it full.
    let mut lan = Browser::new(&server);
    lan.register("lan", "password1").await;
    let _guest = upgrade_from(&url, "127.0.0.4", None)
        .await
        .expect("a guest");
    let _lan = upgrade_from(&url, "127.0.0.4", lan.session.as_deref())
        .await
        .expect("another account");
    let body = refused_upgrade(upgrade_from(&url, "127.0.0.4", None).await);
    assert!(
        body["message"].as_str().unwrap().contains("This address"),
        "{body}"
    );
    // The lobby's sockets count too.
    let lobby = format!("{}/ws/lobby", server.base.replace("http://", "ws://"));
    let body = refused_upgrade(upgrade_from(&lobby, "127.0.0.5", session).await);
    assert_eq!(body["error"], "too_many_sockets", "{body}");
    // One of the account's sockets closes: its place comes back.
    let mut first = first;
    first.ws.close(None).await.expect("close");
    while first.ws.next().await.is_some() {}
    tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            if upgrade_from(&url, "127.0.0.5", session).await.is_ok() {
                return;
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
    })
    .await
    .expect("a place comes back after a close");
    server.stop().await;
}

#[tokio::test]
async fn a_socket_that_never_says_hello_is_closed_after_the_deadline() {
    let server = TestServer::start_with(|c| c.hello_timeout_secs = 1).await;
    let code = room(&server).await;
    let mut silent = server.socket(&code).await;
    let (close, reason) = close_frame(&mut silent.ws, Duration::from_secs(10)).await;
    assert_eq!(close, 1008, "{reason}");
    assert_eq!(reason, "No hello within 1 s.");

    // One that says hello in time stays past the deadline.
    let (mut talker, _, _) = server.join(&code, None, Some("Lan")).await;
    tokio::time::sleep(Duration::from_millis(1500)).await;
    talker
        .ok(json!({"type": "chat", "text": "still here"}))
        .await;
    server.stop().await;
}

#[tokio::test]
async fn slow_silent_and_idle_http_connections_are_closed_after_the_header_timeout() {
    let server = TestServer::start_with(|c| c.header_timeout_secs = 1).await;
    let addr = server.running.as_ref().unwrap().addr;

    // Never sends a byte.
    let mut silent = TcpStream::connect(addr).await.unwrap();
    // Half a request line, then nothing.
    let mut half = TcpStream::connect(addr).await.unwrap();
    half.write_all(b"GET /healthz HT").await.unwrap();
    // One header line at a time, too slowly (slowloris).
    let mut slow = TcpStream::connect(addr).await.unwrap();
    slow.write_all(b"GET /healthz HTTP/1.1\r\n").await.unwrap();
    let trickle = async {
        for i in 0..40 {
            tokio::time::sleep(Duration::from_millis(250)).await;
            let line = format!("X-Slow-{i}: 1\r\n");
            if slow.write_all(line.as_bytes()).await.is_err() {
                return true;
            }
        }
        false
    };
    let (cut, silent_closed, half_closed) = tokio::join!(
        trickle,
        closed_within(&mut silent, Duration::from_secs(8)),
        closed_within(&mut half, Duration::from_secs(8)),
    );
    assert!(silent_closed, "a silent connection is closed");
    assert!(half_closed, "half a request line is closed");
    assert!(
        cut || closed_within(&mut slow, Duration::from_millis(100)).await,
        "headers sent a line every 250 ms are cut off"
    );

    // A keep-alive connection that has been answered and then idles.
    let mut idle = TcpStream::connect(addr).await.unwrap();
    idle.write_all(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        .await
        .unwrap();
    let mut buf = [0u8; 512];
    let n = idle.read(&mut buf).await.unwrap();
    assert!(buf[..n].starts_with(b"HTTP/1.1 200"), "answered first");
    assert!(
        closed_within(&mut idle, Duration::from_secs(8)).await,
        "an idle keep-alive connection is closed"
    );

    // A body that stops halfway, JSON or an import's text: refused once
    // the deadline passes.
    let stalled: [&[u8]; 2] = [
        b"POST /api/rooms HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n\
          Content-Length: 100\r\n\r\n{\"game\":",
        b"POST /api/games/import HTTP/1.1\r\nHost: x\r\nContent-Type: text/plain\r\n\
          Content-Length: 100\r\n\r\n[Game",
    ];
    for request in stalled {
        let mut body = TcpStream::connect(addr).await.unwrap();
        body.write_all(request).await.unwrap();
        let mut answer = Vec::new();
        let read =
            tokio::time::timeout(Duration::from_secs(8), body.read_to_end(&mut answer)).await;
        assert!(read.is_ok(), "a stalled body is cut off");
        let answer = String::from_utf8_lossy(&answer);
        assert!(answer.starts_with("HTTP/1.1 400"), "{answer}");
        assert!(answer.contains("bad_message"), "{answer}");
    }

    // A request sent in time is answered as before.
    let (status, body) = server.get("/healthz").await;
    assert_eq!((status, body.as_str()), (200, "ok"));
    server.stop().await;
}

#[tokio::test]
async fn pings_arrive_and_a_peer_that_stops_answering_goes_offline() {
    let server = TestServer::start_with(|c| c.ping_secs = 2).await;
    let code = room(&server).await;
    let (mut host, _, _) = server.join(&code, None, Some("Minh")).await;
    let (mut gone, _, snap) = server.join(&code, None, Some("Lan")).await;
    let member = snap["you"]["member"].clone();
    // A seated player stays listed while offline.
    gone.ok(json!({"type": "sit", "seat": 1})).await;
    // From here `gone` is not read, so its library never answers a ping.

    // The host reads, so its pings are answered; it sees them arrive.
    let ping = tokio::time::timeout(Duration::from_secs(10), async {
        loop {
            match host.ws.next().await.expect("open").expect("no error") {
                Message::Ping(_) => return,
                Message::Text(text) => host.events.push(serde_json::from_str(&text).unwrap()),
                _ => {}
            }
        }
    })
    .await;
    assert!(ping.is_ok(), "the server pings");

    // The silent peer is shown offline to the others.
    shown_offline(&mut host, &member).await;
    // Its socket was closed with 1008 and a reason.
    let (close, reason) = close_frame(&mut gone.ws, Duration::from_secs(5)).await;
    assert_eq!(close, 1008, "{reason}");
    assert_eq!(reason, "No answer to pings for 4 s.");
    // The host, which answered its pings, is still connected.
    host.ok(json!({"type": "chat", "text": "still here"})).await;
    server.stop().await;
}

/// A private `nats-server` on a free port, killed on drop.
struct Nats {
    child: std::process::Child,
    url: String,
}

impl Nats {
    /// Starts one, or `None` (the test is skipped, failed under CI)
    /// without the binary.
    async fn start() -> Option<Nats> {
        let bin = std::env::var("NATS_SERVER").unwrap_or_else(|_| "/usr/sbin/nats-server".into());
        if !std::path::Path::new(&bin).exists() {
            assert!(std::env::var_os("CI").is_none(), "{bin} is needed under CI");
            eprintln!("skipped: no {bin}");
            return None;
        }
        let port = std::net::TcpListener::bind("127.0.0.1:0")
            .unwrap()
            .local_addr()
            .unwrap()
            .port();
        let child = std::process::Command::new(bin)
            .args(["-a", "127.0.0.1", "-p", &port.to_string()])
            .stdout(std::process::Stdio::null())
            .stderr(std::process::Stdio::null())
            .spawn()
            .expect("nats-server starts");
        // Killed and waited for on drop, whatever happens next.
        let nats = Nats {
            child,
            url: format!("nats://127.0.0.1:{port}"),
        };
        for _ in 0..100 {
            if TcpStream::connect(("127.0.0.1", port)).await.is_ok() {
                return Some(nats);
            }
            tokio::time::sleep(Duration::from_millis(50)).await;
        }
        panic!("nats-server did not listen on {port}");
    }

    fn kill(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

impl Drop for Nats {
    fn drop(&mut self) {
        self.kill();
    }
}

#[tokio::test]
async fn a_node_whose_nats_is_gone_still_stops_within_seconds() {
    let Some(schema) = postgres::schema().await else {
        return;
    };
    let Some(mut nats) = Nats::start().await else {
        schema.drop().await;
        return;
    };
    let url = schema.url.clone();
    let nats_url = nats.url.clone();
    let server = TestServer::start_with(|c| {
        c.database_url = Some(url);
        c.nats_url = Some(nats_url);
    })
    .await;
    let code = room(&server).await;
    let (mut player, _, _) = server.join(&code, None, Some("Lan")).await;
    player.ok(json!({"type": "chat", "text": "hello"})).await;

    nats.kill();
    tokio::time::sleep(Duration::from_millis(300)).await;
    let stopped = tokio::time::timeout(Duration::from_secs(15), server.stop()).await;
    assert!(stopped.is_ok(), "the node stops although NATS is gone");
    schema.drop().await;
}

/// Reads `client`'s socket for `long` (so its library answers pings)
/// without sending anything, keeping its messages.
async fn listen_for(client: &mut common::Client, long: Duration) {
    let _ = tokio::time::timeout(long, async {
        while let Some(Ok(frame)) = client.ws.next().await {
            if let Message::Text(text) = frame {
                client.events.push(serde_json::from_str(&text).unwrap());
            }
        }
    })
    .await;
}

#[tokio::test]
async fn a_relayed_peer_is_pinged_by_its_own_node_and_goes_offline_when_silent() {
    let Some(schema) = postgres::schema().await else {
        return;
    };
    let Some(nats) = Nats::start().await else {
        schema.drop().await;
        return;
    };
    let node = |schema: &postgres::Schema| {
        let url = schema.url.clone();
        let nats_url = nats.url.clone();
        TestServer::start_with(move |c| {
            c.database_url = Some(url);
            c.nats_url = Some(nats_url);
            c.ping_secs = 2;
        })
    };
    let owner = node(&schema).await;
    let relay = node(&schema).await;
    // The room runs on `owner`, where it was created; its host is there.
    let code = room(&owner).await;
    let (mut host, _, _) = owner.join(&code, None, Some("Minh")).await;
    // Two players reach it through `relay`.
    let (mut gone, _, snap) = relay.join(&code, None, Some("Lan")).await;
    let member = snap["you"]["member"].clone();
    gone.ok(json!({"type": "sit", "seat": 1})).await;
    let (mut quiet, _, _) = relay.join(&code, None, Some("Hoa")).await;

    // `quiet` reads but sends nothing for twice the silence limit (4 s):
    // its node pings it and hears the pongs; the owner does not close it.
    // (The host reads meanwhile, so that it answers its own pings.)
    tokio::join!(
        listen_for(&mut quiet, Duration::from_secs(9)),
        listen_for(&mut host, Duration::from_secs(9)),
    );
    quiet
        .ok(json!({"type": "chat", "text": "still here"}))
        .await;

    // `gone` was not read all that time: its node closed it, and the
    // owner's room shows it offline.
    shown_offline(&mut host, &member).await;
    // Its socket is closed: with 1008, or already dropped, the close's
    // answer having been waited for in vain.
    let ended = tokio::time::timeout(Duration::from_secs(5), async {
        loop {
            match gone.ws.next().await {
                Some(Ok(Message::Close(frame))) => return frame.map(|f| u16::from(f.code)),
                Some(Ok(_)) => continue,
                Some(Err(_)) | None => return None,
            }
        }
    })
    .await
    .expect("the socket is closed");
    assert!(matches!(ended, None | Some(1008)), "{ended:?}");
    relay.stop().await;
    owner.stop().await;
    schema.drop().await;
}

/// Runs in a child process of the test binary (it lowers the process's
/// file-descriptor limit, which would starve the other tests).
const FD_CHILD: &str = "CONNECTIONS_FD_CHILD";

#[tokio::test]
async fn out_of_file_descriptors_the_open_connections_carry_on_and_accepting_resumes() {
    if std::env::var_os(FD_CHILD).is_none() {
        let name = "out_of_file_descriptors_the_open_connections_carry_on_and_accepting_resumes";
        let status = tokio::process::Command::new(std::env::current_exe().unwrap())
            .args([name, "--exact", "--nocapture", "--test-threads=1"])
            .env(FD_CHILD, "1")
            .status()
            .await
            .expect("the test binary runs");
        assert!(status.success(), "the child test failed: {status}");
        return;
    }
    let server = TestServer::start_with(|c| c.header_timeout_secs = 2).await;
    let addr = server.running.as_ref().unwrap().addr;
    let request = b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n";
    async fn answered(tcp: &mut TcpStream, request: &[u8]) -> bool {
        if tcp.write_all(request).await.is_err() {
            return false;
        }
        let mut buf = [0u8; 512];
        match tokio::time::timeout(Duration::from_secs(5), tcp.read(&mut buf)).await {
            Ok(Ok(n)) => buf[..n].starts_with(b"HTTP/1.1 200"),
            _ => false,
        }
    }
    // A keep-alive connection opened before the descriptors run out.
    let mut kept = TcpStream::connect(addr).await.unwrap();
    assert!(answered(&mut kept, request).await);

    // Leave room for a few descriptors only, and take them all with
    // connections to the server (each costs this process two: ours, and
    // the server's when it accepts).
    let open = std::fs::read_dir("/proc/self/fd").unwrap().count() as u64;
    let (_, hard) = rlimit::getrlimit(rlimit::Resource::NOFILE).unwrap();
    rlimit::setrlimit(rlimit::Resource::NOFILE, open + 8, hard).unwrap();
    let mut hogs = Vec::new();
    loop {
        match TcpStream::connect(addr).await {
            Ok(tcp) => hogs.push(tcp),
            Err(e) => {
                assert_eq!(e.raw_os_error(), Some(24), "EMFILE: {e}");
                break;
            }
        }
        assert!(hogs.len() < 64, "the limit was not reached");
    }
    // Connections the server cannot accept now: each takes the
    // descriptor of a hog on our side and waits in the listen queue,
    // while the server's accept fails with EMFILE.
    let mut waiting = Vec::new();
    for _ in 0..3 {
        hogs.pop();
        let mut tcp = TcpStream::connect(addr)
            .await
            .expect("a descriptor was freed");
        tcp.write_all(request).await.unwrap();
        waiting.push(tcp);
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    assert!(
        answered(&mut kept, request).await,
        "an open connection is still served"
    );

    // Descriptors come back: the waiting connections are accepted and
    // answered.
    drop(hogs);
    for tcp in &mut waiting {
        let mut buf = [0u8; 512];
        let n = tokio::time::timeout(Duration::from_secs(10), tcp.read(&mut buf))
            .await
            .expect("accepting resumes")
            .unwrap();
        assert!(
            buf[..n].starts_with(b"HTTP/1.1 200"),
            "answered once accepted"
        );
    }
    rlimit::setrlimit(rlimit::Resource::NOFILE, hard, hard).unwrap();
    server.stop().await;
}

/// A TCP connection to `server` from the local address `from`.
async fn tcp_from(server: &TestServer, from: &str) -> TcpStream {
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(std::net::SocketAddr::new(from.parse().unwrap(), 0))
        .expect("bind");
    let addr = server.base.trim_start_matches("http://").parse().unwrap();
    socket.connect(addr).await.expect("connects")
}

#[tokio::test]
async fn one_address_holds_a_bounded_number_of_connections_until_their_upgrade() {
    let server = TestServer::start_with(|c| c.max_connections_per_addr = 3).await;
    let soon = Duration::from_millis(500);
    let mut held = Vec::new();
    for _ in 0..3 {
        held.push(tcp_from(&server, "127.0.0.2").await);
    }
    // The fourth is closed at once; another address is not.
    let mut fourth = tcp_from(&server, "127.0.0.2").await;
    assert!(
        closed_within(&mut fourth, soon).await,
        "the fourth is closed"
    );
    let mut other = tcp_from(&server, "127.0.0.3").await;
    assert!(
        !closed_within(&mut other, soon).await,
        "another address's stays"
    );
    // One closes: its place comes back.
    drop(held.pop());
    let mut again = tcp_from(&server, "127.0.0.2").await;
    tokio::time::sleep(Duration::from_millis(100)).await;
    let mut again_retry = None;
    if closed_within(&mut again, Duration::from_millis(200)).await {
        // The server may not have seen the close yet: once more.
        tokio::time::sleep(Duration::from_millis(300)).await;
        again_retry = Some(tcp_from(&server, "127.0.0.2").await);
    }
    if let Some(mut retry) = again_retry {
        assert!(!closed_within(&mut retry, soon).await, "a place came back");
    }
    // WebSockets count until their upgrade only (then the socket cap does).
    let code = room(&server).await;
    let url = ws_url(&server, &code);
    let mut sockets = Vec::new();
    for _ in 0..4 {
        let ws = upgrade_from(&url, "127.0.0.4", None)
            .await
            .expect("upgraded");
        sockets.push(ws);
    }
    let mut plain = tcp_from(&server, "127.0.0.4").await;
    assert!(!closed_within(&mut plain, soon).await, "upgraded ones left");
    server.stop().await;
}

#[tokio::test]
async fn request_headers_past_32_kib_are_refused_and_the_connection_closed() {
    let server = TestServer::start().await;
    let mut tcp = tcp_from(&server, "127.0.0.1").await;
    let filler = "x".repeat(40 * 1024);
    let head = format!("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: {filler}\r\n");
    // Sent without the blank line that would end the headers: refused
    // as soon as the buffer is full, not after the header timeout.
    let _ = tcp.write_all(head.as_bytes()).await;
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(3), tcp.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "closed at once, not after the header timeout");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 431"), "{text}");
    // A whole head past 32 KiB sent at once (hyper's buffer takes up to
    // about 48 KiB in its reads): the API's 431, with every answer's
    // headers, and the connection closed.
    for size in [33 * 1024, 40 * 1024, 47 * 1024] {
        let mut tcp = tcp_from(&server, "127.0.0.1").await;
        let filler = "x".repeat(size);
        let head =
            format!("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nX-Filler: {filler}\r\n\r\n");
        let _ = tcp.write_all(head.as_bytes()).await;
        let mut answer = Vec::new();
        let read = tokio::time::timeout(Duration::from_secs(3), tcp.read_to_end(&mut answer)).await;
        assert!(read.is_ok(), "{size}: closed at once");
        let text = String::from_utf8_lossy(&answer).to_lowercase();
        assert!(text.starts_with("http/1.1 431"), "{size}: {text}");
        // At 40 KiB hyper takes the whole head: the answer is ours.
        if size == 40 * 1024 {
            assert!(text.contains("content-security-policy"), "{text}");
            assert!(text.contains("\"too_large\""), "{text}");
        }
    }
    // A body announced past 16 KiB: 413 at once, not after the body's
    // deadline.
    let mut tcp = tcp_from(&server, "127.0.0.1").await;
    tcp.write_all(
        b"POST /api/games/import HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: text/plain\r\n\
          Content-Length: 99999999\r\n\r\n[Game",
    )
    .await
    .unwrap();
    let mut answer = Vec::new();
    let read = tokio::time::timeout(Duration::from_secs(3), tcp.read_to_end(&mut answer)).await;
    assert!(read.is_ok(), "answered and closed at once");
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 413"), "{text}");
    assert!(text.contains("too_large"), "{text}");
    // Just under 32 KiB in all is answered.
    let mut tcp = tcp_from(&server, "127.0.0.1").await;
    let filler = "x".repeat(31 * 1024);
    let head = format!("GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\nConnection: close\r\nX-Filler: {filler}\r\n\r\n");
    tcp.write_all(head.as_bytes()).await.unwrap();
    let mut answer = Vec::new();
    let _ = tokio::time::timeout(Duration::from_secs(3), tcp.read_to_end(&mut answer)).await;
    let text = String::from_utf8_lossy(&answer);
    assert!(text.starts_with("HTTP/1.1 200"), "{text}");
    // A request with headers of a usual size is answered.
    let (status, _) = server.get("/healthz").await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn past_the_nodes_http_connections_the_longest_silent_one_makes_room() {
    let server = TestServer::start_with(|c| c.max_http_connections = 8).await;
    let soon = Duration::from_millis(500);
    // Eight silent connections from many addresses fill the node's bound.
    let mut silent = Vec::new();
    for i in 0..8 {
        silent.push(tcp_from(&server, &format!("127.0.1.{}", i + 1)).await);
        // Accepted in this order (the oldest is evicted first).
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // An honest request on a new connection is answered...
    let mut honest = tcp_from(&server, "127.0.2.1").await;
    let answer = healthz_on(&mut honest).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "answered: {answer}");
    // ...and the connection that had waited longest was closed for it,
    // the others kept.
    assert!(
        closed_within(&mut silent[0], soon).await,
        "the oldest silent one is closed"
    );
    for tcp in &mut silent[1..] {
        assert!(!closed_within(tcp, Duration::from_millis(50)).await);
    }
    // The honest one, idle again after its answer, is the newest: two
    // more connections close the next two oldest, not it.
    let _a = tcp_from(&server, "127.0.2.2").await;
    let _b = tcp_from(&server, "127.0.2.3").await;
    assert!(closed_within(&mut silent[1], soon).await);
    assert!(closed_within(&mut silent[2], soon).await);
    let answer = healthz_on(&mut honest).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "kept alive: {answer}");
    server.stop().await;
}

/// `GET /healthz` on a kept-alive connection: the whole answer (head and
/// its `Content-Length` of body), within 3 s.
async fn healthz_on(tcp: &mut TcpStream) -> String {
    tcp.write_all(b"GET /healthz HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        .await
        .unwrap();
    let mut got = Vec::new();
    tokio::time::timeout(Duration::from_secs(3), async {
        let mut buf = [0u8; 4096];
        loop {
            let text = String::from_utf8_lossy(&got).to_string();
            if let Some(end) = text.find("\r\n\r\n") {
                let length = text[..end]
                    .lines()
                    .find_map(|l| {
                        let (name, value) = l.split_once(':')?;
                        name.eq_ignore_ascii_case("content-length")
                            .then(|| value.trim().parse::<usize>().ok())?
                    })
                    .unwrap_or(0);
                if got.len() >= end + 4 + length {
                    return;
                }
            }
            let n = tcp.read(&mut buf).await.expect("read");
            assert!(n > 0, "closed before the whole answer");
            got.extend_from_slice(&buf[..n]);
        }
    })
    .await
    .expect("answered within 3 s");
    String::from_utf8_lossy(&got).to_string()
}

/// A crowd from one address whose requests are all in progress (slow
/// bodies) does not keep a newcomer out: its own oldest request makes
/// room (an attack round held every place with 200 slow bodies).
#[tokio::test]
async fn a_crowds_slow_bodies_make_room_for_a_newcomer() {
    let server = TestServer::start_with(|c| c.max_http_connections = 8).await;
    let mut crowd = Vec::new();
    for _ in 0..8 {
        let mut tcp = tcp_from(&server, "127.0.3.1").await;
        tcp.write_all(
            b"POST /api/rooms HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n\
              Content-Length: 1000\r\n\r\n{",
        )
        .await
        .unwrap();
        crowd.push(tcp);
        tokio::time::sleep(Duration::from_millis(20)).await;
    }
    // Each has its head read and its body under way.
    tokio::time::sleep(Duration::from_millis(200)).await;
    let mut honest = tcp_from(&server, "127.0.4.1").await;
    let answer = healthz_on(&mut honest).await;
    assert!(answer.starts_with("HTTP/1.1 200"), "answered: {answer}");
    assert!(
        closed_within(&mut crowd[0], Duration::from_millis(500)).await,
        "the crowd's oldest request made room"
    );
    drop(crowd);
    server.stop().await;
}

/// The WebSocket upgrade of room `code`: the socket, or the refusal's
/// HTTP status.
async fn try_socket(server: &TestServer, code: &str) -> Result<common::Client, u16> {
    match tokio_tungstenite::connect_async(ws_url(server, code)).await {
        Ok((ws, _)) => Ok(common::Client::new(ws)),
        Err(WsError::Http(answer)) => Err(answer.status().as_u16()),
        Err(e) => panic!("upgrade of {code}: {e}"),
    }
}

/// Retries the upgrade of `code` (for up to 10 s) until it opens: rooms
/// just left count as in use until their task has seen the sockets go.
async fn socket_once_free(server: &TestServer, code: &str) -> common::Client {
    let deadline = tokio::time::Instant::now() + Duration::from_secs(10);
    loop {
        match try_socket(server, code).await {
            Ok(client) => return client,
            Err(503) if tokio::time::Instant::now() < deadline => {
                tokio::time::sleep(Duration::from_millis(50)).await
            }
            Err(status) => panic!("upgrade of {code}: {status}"),
        }
    }
}

/// `--max-rooms` holds for rooms held in memory and left by everyone:
/// sockets upgraded to them before any said hello open no more rooms
/// than the cap; the hello past it closes its socket with 1013 and the
/// `full` reason.
#[tokio::test]
async fn max_rooms_holds_for_sockets_upgraded_before_their_hello() {
    let server = TestServer::start_with(|c| c.max_rooms = 2).await;
    let a = room(&server).await;
    let b = room(&server).await;
    let c = room(&server).await;
    for code in [&a, &b] {
        let (client, _, _) = server.join(code, None, Some("Minh")).await;
        client.close().await;
    }
    // Two in use; the third is refused at its upgrade.
    let (_in_c, _, _) = socket_once_free(&server, &c)
        .await
        .hello(None, Some("Lan"))
        .await;
    let (_in_a, _, _) = socket_once_free(&server, &a)
        .await
        .hello(None, Some("Lan"))
        .await;
    assert_eq!(try_socket(&server, &b).await.err(), Some(503));
    drop((_in_c, _in_a));
    // Three sockets upgraded while no room is in use, then their hellos:
    // two rooms open, the third hello is refused.
    let mut sockets = Vec::new();
    for code in [&a, &c, &b] {
        sockets.push(socket_once_free(&server, code).await);
    }
    let mut sockets = sockets.into_iter();
    let (_first, _, _) = sockets.next().unwrap().hello(None, Some("Ana")).await;
    let (_second, _, _) = sockets.next().unwrap().hello(None, Some("Bao")).await;
    let mut third = sockets.next().unwrap();
    third
        .send_text(json!({"type": "hello", "id": 1, "token": null, "name": "Chi"}).to_string())
        .await;
    let (mut code, mut reason) = (None, String::new());
    while let Some(frame) = third.ws.next().await {
        match frame {
            Ok(Message::Close(frame)) => {
                let frame = frame.expect("a close frame with a code");
                (code, reason) = (Some(u16::from(frame.code)), frame.reason.to_string());
                break;
            }
            Ok(Message::Text(text)) => panic!("the third hello was answered: {text}"),
            Ok(_) => continue,
            Err(e) => panic!("{e}"),
        }
    }
    assert_eq!(code, Some(1013), "{reason}");
    assert!(reason.contains("full"), "{reason}");
}
