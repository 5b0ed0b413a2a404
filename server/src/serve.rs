//! The accept loop: our own instead of `axum::serve`, which runs hyper
//! without a timer, so a connection that sends its headers slowly (or
//! nothing at all) stays open for good.
//!
//! Each TCP connection is served by hyper's HTTP/1 connection
//! (`hyper::server::conn::http1`, with `TokioTimer` from `hyper-util`):
//! - its request headers must arrive within `--header-timeout-secs`,
//!   counted from the moment the connection waits for them: from the
//!   accept for the first request (a connection that never sends a byte
//!   is closed then), from the end of the previous answer on a keep-alive
//!   connection (so this is the idle timeout too);
//! - a request's body must arrive within the same time again
//!   (`tower_http`'s `DeadlineBody`: one deadline for the whole body, so a
//!   body sent a byte at a time cannot stretch it);
//! - a WebSocket upgrade is one request whose headers are bound by the
//!   same timeout (the handshake timeout); the socket's own deadlines are
//!   in `ws/` (`hello` in `reader.rs`, pings in `silence.rs`).
//!
//! HTTP/1 only, not `hyper_util`'s `auto` builder: the latter first reads
//! a connection's opening bytes to tell HTTP/2 from HTTP/1 with no
//! timeout at all (a client that sends `P` and stops holds its connection
//! forever), and HTTP/2 in clear text is never used by browsers (they
//! speak HTTP/2 over TLS only, which the reverse proxy ends).
//!
//! Like axum's loop it sets `TCP_NODELAY`, gives handlers the peer as
//! `ConnectInfo<SocketAddr>`, and shuts down gracefully: on the signal it
//! stops accepting, closes idle keep-alive connections, and waits for the
//! requests in progress (upgraded WebSockets are no longer HTTP
//! connections: their rooms close them, with 1012).
//!
//! `accept` errors: one that concerns a single connection (reset before
//! it was accepted) is skipped; any other, such as `EMFILE`/`ENFILE` when
//! the process is out of file descriptors, pauses accepting for
//! [`ACCEPT_PAUSE`] (the connections already open keep working, and the
//! header timeout frees descriptors meanwhile), logged at most once per
//! [`ACCEPT_LOG_EVERY`].

use std::io;
use std::net::IpAddr;
use std::sync::Arc;
use std::time::{Duration, Instant};

use axum::body::Body;
use axum::extract::ConnectInfo;
use axum::http::Request;
use axum::Router;
use hyper::body::Incoming;
use hyper_util::rt::{TokioIo, TokioTimer};
use tokio::net::TcpListener;
use tokio::sync::oneshot;
use tokio_util::sync::CancellationToken;
use tokio_util::task::TaskTracker;
use tower::ServiceExt;
use tower_http::timeout::DeadlineBody;

use crate::limits::http::HttpConnections;
use crate::limits::open::{OpenPerClient, Place};
use crate::limits::Limits;

/// The most a request's line and headers may take (hyper's read buffer;
/// its default, about 400 KiB, let half-sent headers hold that much each
/// for the whole header timeout). Browsers send a few KiB.
pub const MAX_HEAD_BYTES: usize = 32 * 1024;

/// The size of a request's head as sent: its request line and header
/// lines (each with its line end), and the blank line.
fn head_bytes(req: &axum::extract::Request) -> usize {
    // "GET " + target + " HTTP/1.1\r\n"
    let line = req.method().as_str().len() + 1 + req.uri().to_string().len() + 11;
    let headers: usize = req
        .headers()
        .iter()
        .map(|(name, value)| name.as_str().len() + 2 + value.len() + 2)
        .sum();
    line + headers + 2
}

/// A request announcing a body over `MAX_BODY` is answered `413` at
/// once; one whose head is over [`MAX_HEAD_BYTES`] is answered `431`
/// (in the API's JSON shape, with every answer's headers) and its
/// connection closed. hyper's own buffer limit (the same number) reads
/// in chunks and refuses only some way past it; this makes the limit the
/// one PROTOCOL.md states wherever the head's last chunk ends.
pub async fn head_limit(
    req: axum::extract::Request,
    next: axum::middleware::Next,
) -> axum::response::Response {
    // A body announced larger than any the server reads is refused at
    // once, not after waiting the body's deadline for bytes it would
    // refuse anyway.
    let announced = req
        .headers()
        .get(axum::http::header::CONTENT_LENGTH)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<u64>().ok());
    if announced.is_some_and(|n| n > crate::app::error::MAX_BODY as u64) {
        let mut answer = crate::app::error::body_too_large();
        answer.headers_mut().insert(
            axum::http::header::CONNECTION,
            axum::http::HeaderValue::from_static("close"),
        );
        return answer;
    }
    if head_bytes(&req) <= MAX_HEAD_BYTES {
        return next.run(req).await;
    }
    let mut answer = crate::app::error::json_error(
        axum::http::StatusCode::REQUEST_HEADER_FIELDS_TOO_LARGE,
        "too_large",
        format!(
            "A request's line and headers can take at most {} KiB.",
            MAX_HEAD_BYTES / 1024
        ),
    );
    answer.headers_mut().insert(
        axum::http::header::CONNECTION,
        axum::http::HeaderValue::from_static("close"),
    );
    answer
}

/// How long accepting pauses after an error that is not one connection's.
pub const ACCEPT_PAUSE: Duration = Duration::from_millis(100);
/// At most one log line per this while `accept` keeps failing.
pub const ACCEPT_LOG_EVERY: Duration = Duration::from_secs(10);

/// File descriptors kept for everything but WebSockets: the listener,
/// the database's connections, NATS, static files, and plain HTTP
/// requests in progress.
pub const FD_HEADROOM: u64 = 256;

/// `--max-connections-per-addr`: the TCP connections each peer address
/// holds, counted from `accept` until the connection ends or is upgraded
/// to a WebSocket (which `--max-sockets-per-addr` counts from then on).
pub struct PeerCap {
    pub open: Arc<OpenPerClient>,
    /// 0: no limit.
    pub max: usize,
    /// Whose peers are `--trusted-proxy`s (not counted).
    pub limits: Arc<Limits>,
    /// `--max-http-connections`, over every address (trusted proxies
    /// included: each of their connections holds a descriptor too).
    pub http: Arc<HttpConnections>,
}

impl PeerCap {
    /// The connection's place, `Some(None)` when it is not counted, or
    /// `None`: the peer holds its most already.
    fn place(&self, peer: IpAddr) -> Option<Option<Place>> {
        if self.max == 0 || self.limits.is_trusted_proxy(peer) {
            return Some(None);
        }
        self.open.try_open(peer, None, self.max).map(Some)
    }
}

/// Serves `router` on `listener` until `shutdown` fires (or its sender is
/// dropped), then drains as described in the module doc.
pub async fn run(
    listener: TcpListener,
    router: Router,
    header_timeout: Duration,
    cap: PeerCap,
    mut shutdown: oneshot::Receiver<()>,
) -> io::Result<()> {
    // Told to stop, and every connection's task.
    let stopping = CancellationToken::new();
    let tasks = TaskTracker::new();
    let mut failures = AcceptFailures::default();
    loop {
        let accepted = tokio::select! {
            biased;
            _ = &mut shutdown => break,
            accepted = listener.accept() => accepted,
        };
        let (tcp, peer) = match accepted {
            Ok(accepted) => accepted,
            Err(e) => {
                if let Some(pause) = failures.pause(&e, Instant::now()) {
                    tokio::select! {
                        biased;
                        _ = &mut shutdown => break,
                        _ = tokio::time::sleep(pause) => {}
                    }
                }
                continue;
            }
        };
        let Some(place) = cap.place(peer.ip()) else {
            // Closed at once: the peer holds its most connections.
            tracing::debug!(%peer, "too many connections from this address; closed");
            drop(tcp);
            continue;
        };
        let Some(held) = cap.http.admit(peer.ip()) else {
            // The node holds its most, and none may go for this one
            // (`limits/http.rs`).
            tracing::debug!(%peer, "--max-http-connections reached, all busy; closed");
            drop(tcp);
            continue;
        };
        let held = Arc::new(held);
        // Game messages are small and latency-bound: send them at once
        // instead of letting Nagle's algorithm wait for more bytes.
        if let Err(e) = tcp.set_nodelay(true) {
            tracing::debug!(error = %e, "could not set TCP_NODELAY");
        }
        let router = router.clone();
        let in_service = held.clone();
        let service = hyper::service::service_fn(move |mut req: Request<Incoming>| {
            // Not evicted while the request is answered.
            let busy = in_service.busy();
            req.extensions_mut().insert(ConnectInfo(peer));
            let req = req.map(|body| Body::new(DeadlineBody::new(header_timeout, body)));
            let answer = router.clone().oneshot(req);
            async move {
                let answer = answer.await;
                drop(busy);
                answer
            }
        });
        let conn = hyper::server::conn::http1::Builder::new()
            .timer(TokioTimer::new())
            .header_read_timeout(header_timeout)
            .max_buf_size(MAX_HEAD_BYTES)
            .serve_connection(TokioIo::new(tcp), service)
            .with_upgrades();
        let stopping = stopping.clone();
        tasks.spawn(async move {
            tokio::pin!(conn);
            let ended = tokio::select! {
                ended = conn.as_mut() => ended,
                _ = stopping.cancelled() => {
                    // Finish the request in progress, then close.
                    conn.as_mut().graceful_shutdown();
                    conn.await
                }
                _ = held.evicted().cancelled() => {
                    // Closed at once to make room for a newer connection
                    // (`limits/http.rs` chose it: a crowd's, or the one
                    // idle longest).
                    tracing::debug!(%peer, "closed to make room at --max-http-connections");
                    Ok(())
                }
            };
            if let Err(e) = ended {
                tracing::debug!(%peer, error = %e, "connection ended");
            }
            drop(place);
            drop(held);
        });
    }
    drop(listener);
    stopping.cancel();
    tasks.close();
    tasks.wait().await;
    Ok(())
}

/// Whether an `accept` error concerns only the connection it would have
/// returned (skip it, accept the next at once), or the process (out of
/// file descriptors or memory: pause).
pub fn accept_pause(e: &io::Error) -> Option<Duration> {
    use io::ErrorKind::*;
    match e.kind() {
        ConnectionAborted | ConnectionReset | ConnectionRefused | Interrupted | WouldBlock => None,
        _ => Some(ACCEPT_PAUSE),
    }
}

/// Counts `accept` errors between two log lines.
#[derive(Default)]
pub struct AcceptFailures {
    last_log: Option<Instant>,
    since_log: u64,
}

impl AcceptFailures {
    /// The pause after `e` (see [`accept_pause`]); logs the error if
    /// nothing was logged in the last [`ACCEPT_LOG_EVERY`], with the count
    /// of errors since the last line. Returns whether it logged too.
    pub fn pause(&mut self, e: &io::Error, now: Instant) -> Option<Duration> {
        let pause = accept_pause(e)?;
        self.since_log += 1;
        if self.should_log(now) {
            tracing::warn!(
                error = %e,
                failures = self.since_log,
                "accept failed (out of file descriptors?); pausing new connections"
            );
            self.since_log = 0;
        }
        Some(pause)
    }

    /// Whether a line is due at `now` (and marks it written).
    pub fn should_log(&mut self, now: Instant) -> bool {
        let due = self
            .last_log
            .is_none_or(|last| now.duration_since(last) >= ACCEPT_LOG_EVERY);
        if due {
            self.last_log = Some(now);
        }
        due
    }
}

/// `--max-connections` and `--max-http-connections` fitted to a soft
/// file-descriptor limit of `nofile`: the HTTP connections at most a
/// quarter of the descriptors left after [`FD_HEADROOM`], the WebSockets
/// at most the rest, so that both full never run out. An error when
/// fewer than 16 are left.
pub fn fit_connections(
    max_connections: usize,
    max_http: usize,
    nofile: u64,
) -> Result<(usize, usize), String> {
    let usable = nofile.saturating_sub(FD_HEADROOM);
    if usable < 16 {
        return Err(format!(
            "the file-descriptor limit is {nofile}, which leaves no room for sockets \
             ({FD_HEADROOM} are kept for the database, files and requests): raise it (ulimit -n)"
        ));
    }
    let usable = usize::try_from(usable).unwrap_or(usize::MAX);
    let http = max_http.clamp(1, usable / 4);
    Ok((max_connections.min(usable - http), http))
}

/// Raises the soft file-descriptor limit to the hard one, and lowers
/// `--max-connections` and `--max-http-connections`, with a warning, to
/// what it leaves room for ([`fit_connections`]).
pub fn connections_for_fd_limit(config: &mut crate::config::Config) -> anyhow::Result<()> {
    let nofile = match rlimit::increase_nofile_limit(u64::MAX) {
        Ok(n) => n,
        Err(e) => {
            tracing::warn!(error = %e, "could not read the file-descriptor limit");
            return Ok(());
        }
    };
    let (max_connections, max_http) = (config.max_connections, config.max_http_connections);
    let (sockets, http) =
        fit_connections(max_connections, max_http, nofile).map_err(anyhow::Error::msg)?;
    if (sockets, http) != (max_connections, max_http) {
        tracing::warn!(
            "--max-connections {max_connections} and --max-http-connections {max_http} do not \
             fit the file-descriptor limit {nofile} ({FD_HEADROOM} kept for the rest): using \
             {sockets} and {http}; raise the hard limit (ulimit -Hn, LimitNOFILE=) to allow more"
        );
    }
    config.max_connections = sockets;
    config.max_http_connections = http;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn connections_fit_the_descriptor_limit() {
        assert_eq!(
            fit_connections(20_000, 4_096, 1_048_576),
            Ok((20_000, 4_096))
        );
        // 19 744 usable: the HTTP connections first, the sockets the rest.
        assert_eq!(fit_connections(20_000, 4_096, 20_000), Ok((15_648, 4_096)));
        // 768 usable: a quarter for HTTP.
        assert_eq!(fit_connections(20_000, 4_096, 1_024), Ok((576, 192)));
        assert_eq!(fit_connections(100, 4_096, 1_024), Ok((100, 192)));
        assert_eq!(fit_connections(20_000, 0, 1_024), Ok((767, 1)));
        assert_eq!(fit_connections(20_000, 4_096, 272), Ok((12, 4)));
        assert!(fit_connections(20_000, 4_096, 271).is_err());
        assert!(fit_connections(20_000, 4_096, 0).is_err());
    }

    #[test]
    fn accept_pauses_on_resource_errors_only() {
        // EMFILE, ENFILE, ENOBUFS, ENOMEM on Linux.
        for errno in [24, 23, 105, 12] {
            let e = io::Error::from_raw_os_error(errno);
            assert_eq!(accept_pause(&e), Some(ACCEPT_PAUSE), "{e}");
        }
        for kind in [
            io::ErrorKind::ConnectionAborted,
            io::ErrorKind::ConnectionReset,
            io::ErrorKind::Interrupted,
        ] {
            assert_eq!(accept_pause(&io::Error::from(kind)), None, "{kind:?}");
        }
    }

    #[test]
    fn accept_errors_are_logged_once_in_a_while() {
        let mut failures = AcceptFailures::default();
        let emfile = io::Error::from_raw_os_error(24);
        let t0 = Instant::now();
        assert!(failures.pause(&emfile, t0).is_some());
        assert_eq!(failures.since_log, 0, "the first failure is logged");
        for ms in 1..100 {
            failures.pause(&emfile, t0 + Duration::from_millis(ms));
        }
        assert_eq!(
            failures.since_log, 99,
            "the next ones wait for the next line"
        );
        failures.pause(&emfile, t0 + ACCEPT_LOG_EVERY);
        assert_eq!(failures.since_log, 0, "one line after ACCEPT_LOG_EVERY");
    }
}
