//! No secret in a log line at any level (issue 24): with `RUST_LOG=trace`
//! (the binary's own filter, `server::log_filter`), a signed-in browser's
//! requests, its history by bearer token, the old `?token=` form, and a
//! room socket's `hello` leave neither the token, the session secret nor
//! the password in the log. Alone in its binary, so the subscriber can be
//! the process's.

#[path = "it/common/mod.rs"]
mod common;

use std::sync::{Arc, Mutex};

use common::browser::Browser;
use common::TestServer;

/// A writer for a tracing subscriber that keeps every line.
#[derive(Clone, Default)]
struct Captured(Arc<Mutex<Vec<u8>>>);

impl std::io::Write for Captured {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        self.0.lock().unwrap().extend_from_slice(buf);
        Ok(buf.len())
    }
    fn flush(&mut self) -> std::io::Result<()> {
        Ok(())
    }
}

#[tokio::test]
async fn no_token_or_cookie_reaches_a_log_line_at_any_level() {
    let captured = Captured::default();
    let writer = captured.clone();
    // As the binary sets it up (`main.rs`): its filter, and the records
    // of libraries that log through the `log` crate (tungstenite) brought
    // in. The only test of this binary: the subscriber is the process's.
    tracing_subscriber::fmt()
        .with_env_filter(server::log_filter(Some("trace".into())))
        .with_writer(move || writer.clone())
        .try_init()
        .unwrap();
    let server = TestServer::start().await;
    let mut b = Browser::new(&server);
    b.register("minh", "password1").await;
    let session = b.session.clone().unwrap();
    let token = "5ec2e75ec2e75ec2e75ec2e75ec2e7aa";
    // The old URL form is not read at all…
    let (status, _) = server
        .get(&format!("/api/games?game=x&token={token}"))
        .await;
    assert_eq!(status, 401);
    // …and the header form works.
    let a = b
        .get_with(
            "/api/games?game=jungle",
            &[("authorization", &format!("Bearer {token}"))],
        )
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    // A signed-in socket says hello with the browser's token (the
    // WebSocket library writes whole frames at trace, unless held back).
    let (code, _) = server.new_room(serde_json::json!({})).await;
    let (mut socket, _, _) = b.join(&code, Some(token), Some("Minh")).await;
    socket
        .ok(serde_json::json!({"type": "chat", "text": "hello"}))
        .await;
    drop(server);
    let log = String::from_utf8(captured.0.lock().unwrap().clone()).unwrap();
    assert!(log.contains("/api/games"), "requests are traced: {log}");
    assert!(log.contains("DEBUG"), "the debug lines are written");
    assert!(!log.contains(token), "the token is in the log:\n{log}");
    assert!(!log.contains(&session), "the session is in the log:\n{log}");
    assert!(
        !log.contains("password1"),
        "a password is in the log:\n{log}"
    );
}
