//! One WebSocket connection: the upgrade checks, a reader that enforces the
//! limits and forwards commands to the room, and a writer fed by a bounded
//! queue.
//!
//! Bounds on a socket that costs a file descriptor and memory while it
//! does nothing: at most `--max-sockets-per-addr` per client address
//! ([`SocketsPerAddr`]), `hello` within `--hello-timeout-secs`, and, where
//! the WebSocket is on this node, a ping every `--ping-secs`: a peer that
//! sends nothing for twice that is gone ([`Silence`]).

use std::collections::HashMap;
use std::net::IpAddr;
use std::pin::Pin;
use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, PoisonError};
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use futures_util::{Sink, SinkExt, Stream, StreamExt};
use tokio::sync::{mpsc, OwnedSemaphorePermit};
use tokio::time::{Instant, Sleep};
use tracing::debug;

use crate::app::{json_error, App, Base};
use crate::games::GameKind;
use crate::limits::{bucket_key, ClientIp};
use crate::model::{now_millis, ConnId};
use crate::protocol::{self, Code, Refusal};
use crate::ratings::Rating;
use crate::room::{close, Attach, Closer, Command, RoomHandle, Route, SayHello};
use crate::store::{Account, SignedIn};

/// Messages queued for one client before it counts as too slow and is
/// dropped: a snapshot plus a burst of events fits easily.
pub(crate) const SEND_QUEUE: usize = 256;
/// Hard cap on a frame; larger ones close the connection with 1009.
/// Between `protocol::MAX_MESSAGE_BYTES` and this, the client gets
/// `too_large`.
const MAX_FRAME_BYTES: usize = 64 * 1024;
/// What the WebSocket library buffers at most; frames between
/// `MAX_FRAME_BYTES` and this get our own 1009 with a reason.
const LIBRARY_FRAME_BYTES: usize = 128 * 1024;
/// Bytes of queued messages gathered into one write to the socket.
const WRITE_GATHER: usize = 4 * 1024;
/// Queued messages gathered after the first, at most, before a flush.
const GATHER_MESSAGES: usize = 16;
/// A client that takes longer than this to take one message is gone.
pub(crate) const WRITE_TIMEOUT: std::time::Duration = std::time::Duration::from_secs(10);
/// After a close: how long queued messages may take to go out, and how
/// long the client has to answer the close frame.
pub(crate) const CLOSE_GRACE: std::time::Duration = std::time::Duration::from_secs(3);

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// A connection id unique in this process.
pub(crate) fn next_conn() -> ConnId {
    ConnId(NEXT_CONN.fetch_add(1, Ordering::Relaxed))
}

/// `GET /ws/CODE`. The `session` cookie, if any, says which account the
/// socket is signed in to (see `accounts/session.rs`).
pub async fn upgrade(
    ws: WebSocketUpgrade,
    Path(code): Path<String>,
    State(app): State<App>,
    Base(base): Base,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
) -> Response {
    if !crate::app::hosts::from_us(&app.config, &headers) {
        return json_error(
            StatusCode::FORBIDDEN,
            "bad_origin",
            "This page may not open a game socket here.",
        );
    }
    let Some(code) = crate::code::normalize(&code) else {
        return json_error(
            StatusCode::NOT_FOUND,
            "no_room",
            format!("There is no room {code}."),
        );
    };
    let Some(slot) = app
        .sockets
        .try_open(client, app.config.max_sockets_per_addr)
    else {
        return json_error(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_sockets",
            format!(
                "This address already has {} sockets open; close one first.",
                app.config.max_sockets_per_addr
            ),
        );
    };
    let route = match app.registry.route(&code).await {
        Ok(route) => route,
        Err(e) => return crate::app::registry_error(e),
    };
    let Ok(permit) = app.connections.clone().try_acquire_owned() else {
        return json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "full",
            "Too many connections; try again in a minute.",
        );
    };
    let signed_in = signed_in_account(&app, &headers).await;
    // Buffers sized to the protocol: a client's command is a few hundred
    // bytes, so the read buffer starts at 2 KiB (it grows for a larger
    // frame). Messages queued together (a move's answer and its event)
    // are gathered up to 4 KiB and written at once by `write_loop`,
    // which flushes as soon as its queue is empty. Measured with `bench
    // idle`: 31.6 KiB of server memory per idle socket with 8 KiB
    // buffers, 25.5 KiB with a 2 KiB read buffer (BENCHMARKS.md, "Memory
    // per socket").
    ws.max_message_size(LIBRARY_FRAME_BYTES)
        .max_frame_size(LIBRARY_FRAME_BYTES)
        .read_buffer_size(2 * 1024)
        .write_buffer_size(WRITE_GATHER)
        .max_write_buffer_size(256 * 1024)
        .on_upgrade(move |socket| async move {
            // Ending the session closes the socket (`accounts/sockets.rs`).
            let closer = Closer::new();
            let _watch = match &signed_in {
                Some(s) => Some(crate::accounts::sockets::watch(&app, s, &closer).await),
                None => None,
            };
            let account = signed_in.map(|s| s.account);
            let link = Link {
                closer,
                ping: app.config.ping_every(),
                client: Some(client),
            };
            match (route, app.cluster.clone()) {
                (Route::Local(room), _) => {
                    connection(socket, app, room, base, account, link, permit).await
                }
                (Route::Remote(owner), Some(cluster)) => {
                    let account = account.map(|a| a.id);
                    cluster
                        .forward(socket, owner, code, base, account, link)
                        .await;
                    drop(permit);
                }
                (Route::Remote(_), None) => {}
            }
            drop(slot);
        })
}

/// The account the request's session cookie signs in, looked up here,
/// off the room's task, so a slow disk never stalls the room. A failed
/// lookup attaches the socket as a guest.
async fn signed_in_account(app: &App, headers: &HeaderMap) -> Option<SignedIn> {
    let secret = crate::accounts::session::secret_of(headers)?;
    match app
        .registry
        .store()
        .session_account(&secret, now_millis())
        .await
    {
        Ok(signed_in) => signed_in,
        Err(e) => {
            tracing::warn!(error = %e, "session lookup failed; attaching as a guest");
            None
        }
    }
}

/// The account's ratings per game as of now, looked up here, off the
/// room's task, for the names shown in the room. A failed lookup shows
/// none (the room still rates its games through the store).
async fn ratings_of(app: &App, account: i64) -> Vec<(GameKind, Rating)> {
    match app.registry.store().ratings(account).await {
        Ok(list) => {
            let now = now_millis();
            list.into_iter()
                .filter_map(|(game, r)| Some((GameKind::parse(&game).ok()?, r.at(now))))
                .collect()
        }
        Err(e) => {
            tracing::warn!(error = %e, "ratings lookup failed");
            Vec::new()
        }
    }
}

/// How a client reaches a room served here: what its reader and writer
/// need besides the frames.
pub struct Link {
    /// Closes the connection from outside (a session that ended).
    pub closer: Closer,
    /// The interval of keepalive pings, for a real WebSocket here (`None`
    /// for a relayed client: its relaying node pings it).
    pub ping: Option<Duration>,
    /// The client's address (`limits::client_ip`, on the node that holds
    /// the WebSocket: a relayed socket's comes over NATS).
    pub client: Option<IpAddr>,
}

async fn connection(
    socket: WebSocket,
    app: App,
    room: RoomHandle,
    base_url: String,
    account: Option<Account>,
    link: Link,
    _permit: OwnedSemaphorePermit,
) {
    let (sink, stream) = socket.split();
    serve(stream, sink, app, room, base_url, account, link).await;
}

/// Open WebSockets per client address (IPv4 address, IPv6 /64), for
/// `--max-sockets-per-addr`. An address is in the map only while it has a
/// socket open, so the map is bounded by the open sockets.
#[derive(Default)]
pub struct SocketsPerAddr {
    open: Mutex<HashMap<IpAddr, usize>>,
}

impl SocketsPerAddr {
    /// A slot for one more socket of `client`, if it has fewer than `max`
    /// open (`max` 0: no limit). The slot is given back when dropped.
    pub fn try_open(self: &Arc<Self>, client: IpAddr, max: usize) -> Option<AddrSlot> {
        if max == 0 {
            return Some(AddrSlot { owner: None });
        }
        let key = bucket_key(client);
        let mut open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        let count = open.entry(key).or_insert(0);
        if *count >= max {
            return None;
        }
        *count += 1;
        Some(AddrSlot {
            owner: Some((self.clone(), key)),
        })
    }

    /// Sockets `client`'s address holds open now.
    pub fn open(&self, client: IpAddr) -> usize {
        let open = self.open.lock().unwrap_or_else(PoisonError::into_inner);
        open.get(&bucket_key(client)).copied().unwrap_or(0)
    }
}

/// One socket's place in [`SocketsPerAddr`].
pub struct AddrSlot {
    owner: Option<(Arc<SocketsPerAddr>, IpAddr)>,
}

impl Drop for AddrSlot {
    fn drop(&mut self) {
        let Some((owner, key)) = self.owner.take() else {
            return;
        };
        let mut open = owner.open.lock().unwrap_or_else(PoisonError::into_inner);
        if let Some(count) = open.get_mut(&key) {
            *count -= 1;
            if *count == 0 {
                open.remove(&key);
            }
        }
    }
}

/// Watches a WebSocket for silence: [`Silence::expired`] resolves once
/// nothing has been heard for `limit` (twice the ping interval: a live
/// peer answers every ping with a pong). Hearing a frame only stores the
/// time; the timer is re-armed when it fires, not for every frame.
pub(crate) struct Silence {
    limit: Option<Duration>,
    last: Instant,
    timer: Pin<Box<Sleep>>,
}

impl Silence {
    /// With pings every `ping` (none: never expires).
    pub(crate) fn new(ping: Option<Duration>) -> Silence {
        let limit = ping.map(|p| p * 2);
        let last = Instant::now();
        let first = limit.unwrap_or(Duration::from_secs(86_400));
        Silence {
            limit,
            last,
            timer: Box::pin(tokio::time::sleep_until(last + first)),
        }
    }

    /// The peer sent a frame (any frame, a pong included).
    pub(crate) fn heard(&mut self) {
        self.last = Instant::now();
    }

    /// Resolves when the peer has been silent for the limit.
    pub(crate) async fn expired(&mut self) {
        let Some(limit) = self.limit else {
            return std::future::pending().await;
        };
        loop {
            self.timer.as_mut().await;
            let due = self.last + limit;
            if due <= Instant::now() {
                return;
            }
            self.timer.as_mut().reset(due);
        }
    }

    /// The reason a silent socket is closed with.
    pub(crate) fn reason(&self) -> String {
        let secs = self.limit.unwrap_or_default().as_secs();
        format!("No answer to pings for {secs} s.")
    }
}

/// A ping every `ping`, the first one `ping` from now (none: never).
pub(crate) fn ping_timer(ping: Option<Duration>) -> Option<tokio::time::Interval> {
    ping.map(|p| {
        let mut every = tokio::time::interval_at(Instant::now() + p, p);
        every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        every
    })
}

/// The next tick of a [`ping_timer`].
pub(crate) async fn next_ping(timer: &mut Option<tokio::time::Interval>) {
    match timer {
        Some(every) => {
            every.tick().await;
        }
        None => std::future::pending().await,
    }
}

/// One client of a room running here: read its frames from `stream`
/// (limits, parsing, `hello`, commands to the room) and write the room's
/// messages to `sink`. The client is a WebSocket on this node, or one on
/// another node whose frames come over NATS (`cluster/hosted.rs`);
/// `account` is the one its session cookie signed in at the upgrade;
/// `link` says how the client reached us ([`Link`]).
pub(crate) async fn serve<St, Si>(
    mut stream: St,
    sink: Si,
    app: App,
    mut room: RoomHandle,
    base_url: String,
    account: Option<Account>,
    link: Link,
) where
    St: Stream<Item = Result<Message, axum::Error>> + Unpin + Send,
    Si: Sink<Message, Error = axum::Error> + Unpin + Send + 'static,
{
    let Link {
        closer,
        ping,
        client,
    } = link;
    let conn = next_conn();
    let (outbox, queue) = mpsc::channel::<Utf8Bytes>(SEND_QUEUE);
    let writer = tokio::spawn(write_loop(sink, queue, closer.clone(), ping));
    let mut silence = Silence::new(ping);
    let hello_timeout = app.config.hello_timeout();
    let hello_deadline = tokio::time::sleep(hello_timeout);
    tokio::pin!(hello_deadline);

    let mut attached = false;
    // Commands per second a connection may send on average, and its
    // burst (`--message-rate`, `--message-burst`; a rate of 0: no limit).
    let mut bucket = (app.config.message_rate > 0.0)
        .then(|| TokenBucket::new(app.config.message_rate, app.config.message_burst.max(1.0)));
    // Made once: the close signal's waiter is registered once for the
    // whole connection, not again for every frame.
    let closed = closer.closed();
    tokio::pin!(closed);
    loop {
        let frame = tokio::select! {
            biased;
            _ = &mut closed => break,
            frame = stream.next() => frame,
            _ = &mut hello_deadline, if !attached => {
                let reason = format!("No hello within {} s.", hello_timeout.as_secs());
                closer.close(close::POLICY, &reason);
                break;
            }
            _ = silence.expired() => {
                closer.close(close::POLICY, &silence.reason());
                break;
            }
        };
        silence.heard();
        let text = match frame {
            None => break,
            Some(Err(e)) => {
                let (code, reason) = read_error(&e);
                debug!(conn = conn.0, error = %e, "read error");
                closer.close(code, reason);
                break;
            }
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Binary(_))) => {
                let text = Refusal::new(Code::BadMessage, "Send JSON text frames, not binary.")
                    .to_message(None);
                if !reply(&outbox, &closer, text).await {
                    break;
                }
                continue;
            }
            Some(Ok(Message::Close(_))) => break,
            Some(Ok(_)) => continue, // ping/pong are answered by the library
        };
        if text.len() > MAX_FRAME_BYTES {
            closer.close(
                close::TOO_BIG,
                &format!(
                    "Message too big ({} bytes; the hard limit is {MAX_FRAME_BYTES}).",
                    text.len()
                ),
            );
            break;
        }
        // Parse before refusing for rate, so even that refusal carries the
        // command's id (frames are at most 64 KiB, so parsing is cheap).
        let parsed = protocol::parse(text.as_str());
        if bucket.as_mut().is_some_and(|b| !b.take()) {
            let id = match &parsed {
                Ok(envelope) => Some(envelope.id),
                Err((id, _)) => *id,
            };
            let text =
                Refusal::new(Code::RateLimited, "Too many messages; slow down.").to_message(id);
            if !reply(&outbox, &closer, text).await {
                break;
            }
            continue;
        }
        let envelope = match parsed {
            Ok(envelope) => envelope,
            Err((id, refusal)) => {
                if !reply(&outbox, &closer, refusal.to_message(id)).await {
                    break;
                }
                continue;
            }
        };
        let id = envelope.id;
        match envelope.command {
            Command::Hello(SayHello { token, name, since }) if !attached => {
                let ratings = match &account {
                    Some(a) => ratings_of(&app, a.id).await,
                    None => Vec::new(),
                };
                let attach = || Attach {
                    conn,
                    id,
                    token: token.clone(),
                    name: name.clone(),
                    outbox: outbox.clone(),
                    closer: closer.clone(),
                    base_url: base_url.clone(),
                    account: account.clone(),
                    ratings: ratings.clone(),
                    since: since.clone(),
                    addr: client,
                };
                if room.attach(attach()).await.is_err() {
                    // The room went idle between the upgrade and now.
                    match app.registry.get(room.code()).await {
                        Ok(fresh) => room = fresh,
                        Err(_) => {
                            closer.close(close::TRY_AGAIN, "The room is not available; try again.");
                            break;
                        }
                    }
                    if room.attach(attach()).await.is_err() {
                        closer.close(close::TRY_AGAIN, "The room is not available; try again.");
                        break;
                    }
                }
                attached = true;
            }
            command if attached => {
                if room.command(conn, id, command).await.is_err() {
                    closer.close(close::TRY_AGAIN, "The room restarted; reconnect.");
                    break;
                }
            }
            _ => {
                let text = Refusal::new(Code::HelloFirst, "Send hello first.").to_message(Some(id));
                if !reply(&outbox, &closer, text).await {
                    break;
                }
            }
        }
    }

    debug!(conn = conn.0, "connection closed");
    if attached {
        let _ = room.detach(conn).await;
    }
    if closer.is_closed() {
        // Keep reading (and dropping) what the client still sends until it
        // answers the close frame: dropping a socket with unread data
        // resets it, and the close frame would be lost.
        let _ = tokio::time::timeout(CLOSE_GRACE, async {
            while let Some(Ok(frame)) = stream.next().await {
                if matches!(frame, Message::Close(_)) {
                    break;
                }
            }
        })
        .await;
    }
    drop(outbox);
    if !closer.is_closed() {
        // The client left (or closed): let the writer finish the queue.
        let _ = writer.await;
    } else {
        let _ = tokio::time::timeout(WRITE_TIMEOUT, writer).await;
    }
}

/// The connection's own answer (a parse error, a rate limit, `hello_first`)
/// goes into the same queue as the room's messages. When the queue is
/// full the reader waits for room, which stops it reading the client: a
/// client that sends faster than it reads is slowed down, not dropped. One
/// that does not read at all for `WRITE_TIMEOUT` is closed with 1008.
/// Returns false when the connection is over.
async fn reply(outbox: &mpsc::Sender<Utf8Bytes>, closer: &Closer, text: String) -> bool {
    match tokio::time::timeout(WRITE_TIMEOUT, outbox.send(Utf8Bytes::from(text))).await {
        Ok(Ok(())) => true,
        Ok(Err(_)) => false,
        Err(_) => {
            closer.close(
                close::POLICY,
                "Too many messages waiting: the connection is not reading. Reconnect to resync.",
            );
            false
        }
    }
}

/// Sends the queue's messages in order. When the connection is closed
/// with a reason, what is already queued (an answer such as `room_full`
/// that explains the close) still goes out, for at most `CLOSE_GRACE`,
/// then the close frame.
/// With `ping`, a ping goes out at that interval.
async fn write_loop<Si>(
    mut sink: Si,
    mut queue: mpsc::Receiver<Utf8Bytes>,
    closer: Closer,
    ping: Option<Duration>,
) where
    Si: Sink<Message, Error = axum::Error> + Unpin,
{
    let closed = closer.closed();
    tokio::pin!(closed);
    let mut pings = ping_timer(ping);
    loop {
        let text = tokio::select! {
            biased;
            _ = &mut closed => break,
            text = queue.recv() => text,
            _ = next_ping(&mut pings) => {
                let sent = sink.send(Message::Ping(bytes::Bytes::new()));
                match tokio::time::timeout(WRITE_TIMEOUT, sent).await {
                    Ok(Ok(())) => continue,
                    Ok(Err(_)) | Err(_) => return,
                }
            }
        };
        let Some(text) = text else {
            break;
        };
        // What else is queued already goes out in the same write.
        let sent = async {
            sink.feed(Message::Text(text)).await?;
            for _ in 0..GATHER_MESSAGES {
                let Ok(text) = queue.try_recv() else {
                    break;
                };
                sink.feed(Message::Text(text)).await?;
            }
            sink.flush().await
        };
        match tokio::time::timeout(WRITE_TIMEOUT, sent).await {
            Ok(Ok(())) => {}
            // The client stopped reading altogether, or the socket broke.
            Ok(Err(_)) | Err(_) => return,
        }
    }
    let flush = async {
        while let Ok(text) = queue.try_recv() {
            if sink.send(Message::Text(text)).await.is_err() {
                return;
            }
        }
    };
    let _ = tokio::time::timeout(CLOSE_GRACE, flush).await;
    let frame = closer.frame().map(|(code, reason)| CloseFrame {
        code,
        reason: Utf8Bytes::from(reason),
    });
    let _ = tokio::time::timeout(WRITE_TIMEOUT, sink.send(Message::Close(frame))).await;
    let _ = tokio::time::timeout(WRITE_TIMEOUT, sink.close()).await;
}

/// The close code and reason for a frame the library refused to read.
fn read_error(e: &axum::Error) -> (u16, &'static str) {
    let text = e.to_string();
    if text.contains("UTF-8") || text.contains("utf-8") || text.contains("Utf8") {
        (close::BAD_DATA, "Text frames must be valid UTF-8.")
    } else if text.contains("too long") || text.contains("too big") || text.contains("Space limit")
    {
        (
            close::TOO_BIG,
            "Message too big (the hard limit is 65536 bytes).",
        )
    } else {
        (1002, "Protocol error.")
    }
}

/// The per-connection rate limit: `rate` tokens a second, at most `burst`
/// saved up.
struct TokenBucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

impl TokenBucket {
    fn new(rate: f64, burst: f64) -> TokenBucket {
        TokenBucket {
            rate,
            burst,
            tokens: burst,
            last: Instant::now(),
        }
    }

    fn take(&mut self) -> bool {
        let now = Instant::now();
        let elapsed = now.duration_since(self.last).as_secs_f64();
        self.last = now;
        self.tokens = (self.tokens + elapsed * self.rate).min(self.burst);
        if self.tokens >= 1.0 {
            self.tokens -= 1.0;
            true
        } else {
            false
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sockets_are_counted_per_address_and_ipv6_per_64() {
        let sockets = Arc::new(SocketsPerAddr::default());
        let a: IpAddr = "2001:db8:1:2::1".parse().unwrap();
        let same_64: IpAddr = "2001:db8:1:2:ffff::9".parse().unwrap();
        let other_64: IpAddr = "2001:db8:1:3::1".parse().unwrap();
        let first = sockets.try_open(a, 2).expect("one");
        let second = sockets.try_open(same_64, 2).expect("two in the /64");
        assert!(sockets.try_open(a, 2).is_none(), "the /64 is full");
        let other = sockets.try_open(other_64, 2).expect("another /64");
        let v4: IpAddr = "192.0.2.1".parse().unwrap();
        let mapped: IpAddr = "::ffff:192.0.2.1".parse().unwrap();
        let four = sockets.try_open(v4, 1).expect("an IPv4 address");
        assert!(sockets.try_open(mapped, 1).is_none(), "the same, mapped");
        drop(first);
        assert_eq!(sockets.open(a), 1);
        let again = sockets.try_open(a, 2).expect("a slot came back");
        drop(second);
        drop(other);
        assert_eq!(sockets.open(other_64), 0);
        assert!(sockets.try_open(a, 0).is_some(), "0: no limit");
        drop((four, again));
        assert!(sockets.open.lock().unwrap().is_empty(), "nothing kept");
    }
}
