//! The binary's log (stderr) as an operator sees it: nobody reading it
//! any more costs no request and no clean stop; a stop that takes a
//! while logs no failure of the store it closed; a `503 full` is a
//! refusal, not an error.

use std::io::{Read, Write};
use std::time::{Duration, Instant};

use serde_json::json;

use crate::common::browser::Browser;
use crate::common::process::{log_path, Proc};

/// `server … 2>&1 | head -1`: stderr is a pipe whose reader went away,
/// so every log line fails (`EPIPE`). Requests that log are answered
/// all the same, and SIGTERM still closes the sockets with 1012 and
/// exits 0.
#[tokio::test]
async fn the_server_goes_on_when_nobody_reads_its_log() {
    let (reader, writer) = std::io::pipe().expect("a pipe");
    drop(reader);
    let dir = tempfile::tempdir().unwrap();
    // `debug`: every request logs, besides `room created` at `info`.
    let mut p = Proc::launch_logging(dir, &[], &[("RUST_LOG", "debug")], writer.into()).await;
    let mut b = Browser::new(p.s());
    let mut made = Vec::new();
    for _ in 0..3 {
        let a = b
            .post("/api/rooms", json!({"game": "jungle", "options": null}))
            .await;
        assert_eq!(a.status, 201, "{}", a.body);
        made.push(a.body);
    }
    let code = made[0]["code"].as_str().unwrap();
    let token = made[0]["token"].as_str().unwrap();
    let (mut socket, _, snap) = b.join(code, Some(token), Some("Minh")).await;
    assert_eq!(snap["you"]["name"], "Minh");
    assert_eq!(p.s().get("/healthz").await.0, 200);

    p.sigterm();
    assert_eq!(socket.close_code().await, Some(1012));
    let status = p
        .exited(Duration::from_secs(15))
        .await
        .expect("the server exits");
    assert_eq!(status.code(), Some(0), "a clean stop: {status}");
}

/// A stop that waits seconds for a request still in progress (its body
/// arriving slowly) closes the store first: the lobby's heartbeat stops
/// before it, so the log shows no `could not renew the seeks … closed
/// pool`, and no error at all.
#[tokio::test]
async fn a_long_stop_logs_no_failure_of_the_closed_store() {
    let dir = tempfile::tempdir().unwrap();
    let mut p = Proc::launch_with(dir, &["--header-timeout-secs", "4"]).await;
    let addr = p.s().base.trim_start_matches("http://").to_string();
    // The head, and one byte of a body of 100: the request is in
    // progress until its body's deadline (4 s).
    let mut slow = std::net::TcpStream::connect(&addr).expect("connect");
    write!(
        slow,
        "POST /api/rooms HTTP/1.1\r\nHost: {addr}\r\nContent-Type: application/json\r\nContent-Length: 100\r\n\r\n{{"
    )
    .unwrap();
    slow.flush().unwrap();
    tokio::time::sleep(Duration::from_millis(300)).await;

    let asked = Instant::now();
    p.sigterm();
    let status = p
        .exited(Duration::from_secs(20))
        .await
        .expect("the server exits");
    let took = asked.elapsed();
    assert_eq!(status.code(), Some(0), "{status}");
    assert!(
        took > Duration::from_millis(2_500),
        "the stop waited for the request (more than one heartbeat): {took:?}"
    );
    // The slow request got its answer (or its connection closed).
    slow.set_read_timeout(Some(Duration::from_secs(1))).unwrap();
    let _ = slow.read(&mut [0; 512]);

    let dir = p.into_dir();
    let log = std::fs::read_to_string(log_path(dir.path())).unwrap();
    assert!(log.contains("shutting down"), "{log}");
    assert!(!log.contains("could not renew the seeks"), "{log}");
    assert!(!log.contains("closed pool"), "{log}");
    assert!(!log.contains("ERROR"), "{log}");
}

/// `503 full` (past `--max-rooms`) is the server refusing, as it should:
/// not an `ERROR` line in the log.
#[tokio::test]
async fn a_503_full_is_not_logged_as_an_error() {
    let dir = tempfile::tempdir().unwrap();
    let p = Proc::launch_with(dir, &["--max-rooms", "1"]).await;
    let mut b = Browser::new(p.s());
    let a = b
        .post("/api/rooms", json!({"game": "jungle", "options": null}))
        .await;
    assert_eq!(a.status, 201, "{}", a.body);
    let code = a.body["code"].as_str().unwrap().to_string();
    let token = a.body["token"].as_str().unwrap().to_string();
    // In use: a socket is attached.
    let (_socket, _, _) = b.join(&code, Some(&token), Some("Minh")).await;
    let full = b
        .post("/api/rooms", json!({"game": "jungle", "options": null}))
        .await;
    assert_eq!(full.status, 503, "{}", full.body);
    assert_eq!(full.body["error"], "full");
    // A request after it: its line, if any, is written by now.
    assert_eq!(p.s().get("/healthz").await.0, 200);
    let log = std::fs::read_to_string(log_path(p.s().dir.path())).unwrap();
    assert!(log.contains("listening on"), "{log}");
    assert!(!log.contains("ERROR"), "{log}");
}
