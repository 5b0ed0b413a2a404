//! The reader of one client: size and rate limits, parsing, `hello` first,
//! then commands to the room; its answers go into the writer's queue.

use std::net::IpAddr;
use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{Message, Utf8Bytes};
use futures_util::{Sink, Stream, StreamExt};
use tokio::time::Instant;
use tracing::debug;

use crate::app::state::App;
use crate::games::GameKind;
use crate::model::now_millis;
use crate::protocol::{self, Code, Refusal};
use crate::ratings::Rating;
use crate::room::{close, Attach, Closer, Command, Outbox, RoomHandle, SayHello};
use crate::store::Account;

use super::lag::Lag;
use super::silence::*;
use super::writer::write_loop;
use super::*;

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
    /// For a relayed client, the node that holds its WebSocket.
    pub via: Option<Arc<str>>,
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
        via,
    } = link;
    let conn = next_conn();
    // A socket of this node lends itself to the room while its writer
    // is idle (`room::Outbox`); a relayed one has its own batching.
    let (outbox, queue, shelf) = match via {
        None => {
            let (outbox, queue, shelf) = crate::room::socket_outbox(SEND_QUEUE);
            (outbox, queue, Some(shelf))
        }
        Some(_) => {
            let (outbox, queue) = crate::room::outbox(SEND_QUEUE);
            (outbox, queue, None)
        }
    };
    let lag = Lag::shared();
    let writer = tokio::spawn(write_loop(
        sink,
        queue,
        shelf,
        closer.clone(),
        ping,
        lag.clone(),
    ));
    let mut silence = Silence::new(ping);
    let hello_timeout = app.config.hello_timeout();
    let hello_deadline = tokio::time::sleep(hello_timeout);
    tokio::pin!(hello_deadline);

    let mut attached = false;
    // Commands per second a connection may send on average, and its
    // burst (`--message-rate`, `--message-burst`; a rate of 0: no limit).
    let mut bucket = TokenBucket::for_config(&app.config);
    // The client's own pings, at the same rate, a bucket of their own.
    let mut pings = bucket.clone();
    // Made once: the close signal's waiter is registered once for the
    // whole connection, not again for every frame.
    let closed = closer.closed();
    tokio::pin!(closed);
    // A stop closes a socket no room holds yet; the room closes the others.
    let stopping = app.stopping.token.clone();
    loop {
        let frame = tokio::select! {
            biased;
            _ = &mut closed => break,
            _ = stopping.cancelled(), if !attached => {
                closer.close(close::RESTART, close::RESTART_REASON);
                break;
            }
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
            Some(Ok(Message::Pong(payload))) => {
                // Ours answered, or unasked: counted with the pings.
                if pings.as_mut().is_some_and(|b| !b.take()) {
                    closer.close(close::POLICY, TOO_MANY_PINGS);
                    break;
                }
                lag.pong_now(&payload);
                continue;
            }
            Some(Ok(Message::Ping(_))) => {
                // Answered by the library; bounded as messages are.
                if pings.as_mut().is_some_and(|b| !b.take()) {
                    closer.close(close::POLICY, TOO_MANY_PINGS);
                    break;
                }
                continue;
            }
        };
        if closed_if_too_big(&closer, text.len()) {
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
            let text = too_many_messages(id);
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
        // A command bounded per client (its address and account, over
        // every socket and room of either) once that is spent.
        let spent = attached
            .then(|| per_client_limit(&app, &envelope.command, client, account.as_ref()))
            .flatten();
        if let Some(message) = spent {
            let text = Refusal::new(Code::RateLimited, message).to_message(Some(id));
            if !reply(&outbox, &closer, text).await {
                break;
            }
            continue;
        }
        match envelope.command {
            Command::Hello(SayHello { token, name, since }) if !attached => {
                let ratings = match &account {
                    // Boxed, like the room lookup below: a store query's
                    // future is large, and an unboxed one would be part of
                    // every connection's task for the socket's whole life
                    // (BENCHMARKS.md, "Memory per socket").
                    Some(a) => Box::pin(ratings_of(&app, a.id)).await,
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
                    via: via.clone(),
                };
                // At `--max-rooms`, a room not in use (left by everyone,
                // or loaded by an upgrade and not yet joined) is not
                // opened by a hello either.
                if !admitted(&app, &room, &closer) {
                    break;
                }
                if Box::pin(room.attach(attach())).await.is_err() {
                    // The room went idle between the upgrade and now.
                    match Box::pin(app.registry.get(room.code())).await {
                        Ok(fresh) => room = fresh,
                        Err(_) => {
                            closer.close(close::TRY_AGAIN, "The room is not available; try again.");
                            break;
                        }
                    }
                    if !admitted(&app, &room, &closer) {
                        break;
                    }
                    if Box::pin(room.attach(attach())).await.is_err() {
                        closer.close(close::TRY_AGAIN, "The room is not available; try again.");
                        break;
                    }
                }
                attached = true;
            }
            mut command if attached => {
                // A move carries the connection's lag, for the clock.
                if let Command::Move(m) = &mut command {
                    m.lag_ms = lag.one_way_ms();
                }
                if Box::pin(room.command(conn, id, command)).await.is_err() {
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
    Box::pin(finish(
        stream, outbox, writer, room, conn, attached, &closer,
    ))
    .await;
}

/// Whether the registry lets this socket's hello into `room` at
/// `--max-rooms` ([`crate::room::Registry::admit`]); if not, the socket
/// is closed with 1013 and the reason the `503 full` answer gives.
fn admitted(app: &App, room: &RoomHandle, closer: &Closer) -> bool {
    match app.registry.admit(room) {
        Ok(()) => true,
        Err(e) => {
            closer.close(close::TRY_AGAIN, &e.to_string());
            false
        }
    }
}

/// The end of a connection: the room lets it go, the client's close frame
/// is awaited, and the writer sends what is queued.
/// The refusal of a command that a limit per client bounds, when the
/// socket's address (or account) has spent it: a hint is a search
/// (`limits::HINT_BURST`), and every new game ends as a stored row
/// (`--game-burst`). `None` for any other command, or one still allowed
/// (which this spends).
fn per_client_limit(
    app: &App,
    command: &Command,
    client: Option<IpAddr>,
    account: Option<&Account>,
) -> Option<&'static str> {
    let (limiter, message) = match command {
        Command::Hint => (
            &app.limits.hints,
            "Too many hints from your address or account; wait a few seconds.",
        ),
        Command::Start(_) | Command::Rematch => (
            &app.limits.games,
            "Too many new games from your address or account; wait a few seconds.",
        ),
        _ => return None,
    };
    let ip = client?;
    let account = account.map(|a| a.id);
    limiter.take_both(ip, account).is_err().then_some(message)
}

async fn finish<St>(
    mut stream: St,
    outbox: Outbox,
    writer: tokio::task::JoinHandle<()>,
    room: RoomHandle,
    conn: crate::model::ids::ConnId,
    attached: bool,
    closer: &Closer,
) where
    St: Stream<Item = Result<Message, axum::Error>> + Unpin + Send,
{
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

/// The connection's own answer (a parse error, a rate limit, `hello_first`)
/// goes into the same queue as the room's messages. When the queue is
/// full the reader waits for room, which stops it reading the client: a
/// client that sends faster than it reads is slowed down, not dropped. One
/// that does not read at all for `WRITE_TIMEOUT` is closed with 1008.
/// Returns false when the connection is over. Boxed, as every await of
/// the reader's loop but the next frame: the connection's task then holds
/// only the loop's own state for the socket's whole life.
fn reply<'a>(
    outbox: &'a Outbox,
    closer: &'a Closer,
    text: String,
) -> futures_util::future::BoxFuture<'a, bool> {
    Box::pin(reply_now(outbox, closer, text))
}

pub(super) async fn reply_now(outbox: &Outbox, closer: &Closer, text: String) -> bool {
    match tokio::time::timeout(WRITE_TIMEOUT, outbox.send_async(Utf8Bytes::from(text))).await {
        Ok(Ok(())) => true,
        Ok(Err(_)) => false,
        Err(_) => {
            closer.close(close::POLICY, close::NOT_READING);
            false
        }
    }
}

/// The close code and reason for a frame the library refused to read.
pub(crate) fn read_error(e: &axum::Error) -> (u16, &'static str) {
    let text = e.to_string();
    if text.contains("UTF-8") || text.contains("utf-8") || text.contains("Utf8") {
        (close::BAD_DATA, "Text frames must be valid UTF-8.")
    } else if text.to_ascii_lowercase().contains("control frame") {
        // A ping, pong or close of more than 125 bytes breaks RFC 6455
        // (§5.5); it is no message over the size limit.
        (
            close::PROTOCOL,
            "Protocol error: a control frame carries at most 125 bytes.",
        )
    } else if text.contains("too long") || text.contains("too big") || text.contains("Space limit")
    {
        (
            close::TOO_BIG,
            "Message too big (the hard limit is 65536 bytes).",
        )
    } else {
        (close::PROTOCOL, "Protocol error.")
    }
}

/// Closes the connection (1009) when a text of `len` bytes is over the
/// hard frame limit (what a library set to it would have refused);
/// whether it did.
pub(crate) fn closed_if_too_big(closer: &Closer, len: usize) -> bool {
    if len <= MAX_FRAME_BYTES {
        return false;
    }
    let reason = format!("Message too big ({len} bytes; the hard limit is {MAX_FRAME_BYTES}).");
    closer.close(close::TOO_BIG, &reason);
    true
}

/// The answer to a command past the connection's rate (room sockets,
/// relayed ones, the lobby's).
pub(crate) fn too_many_messages(id: Option<i64>) -> String {
    Refusal::new(Code::RateLimited, "Too many messages; slow down.").to_message(id)
}

/// The per-connection rate limit: `rate` tokens a second, at most `burst`
/// saved up.
#[derive(Clone)]
pub(crate) struct TokenBucket {
    rate: f64,
    burst: f64,
    tokens: f64,
    last: Instant,
}

/// Why a socket sending pings past `--message-rate` is closed (1008).
pub(crate) const TOO_MANY_PINGS: &str = "Too many pings; slow down.";

impl TokenBucket {
    /// A connection's bucket (`--message-rate`, `--message-burst`), or
    /// none when the rate is 0 (no limit).
    pub(crate) fn for_config(config: &crate::Config) -> Option<TokenBucket> {
        (config.message_rate > 0.0)
            .then(|| TokenBucket::new(config.message_rate, config.message_burst.max(1.0)))
    }

    pub(crate) fn new(rate: f64, burst: f64) -> TokenBucket {
        TokenBucket {
            rate,
            burst,
            tokens: burst,
            last: Instant::now(),
        }
    }

    pub(crate) fn take(&mut self) -> bool {
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
    use tokio_tungstenite::tungstenite::error::{CapacityError, Error, ProtocolError};

    use super::*;

    /// A ping of 126 bytes is a protocol error (1002), not a message over
    /// the size limit (an outside check got 1009 and "Message too big").
    #[test]
    fn a_long_control_frame_is_a_protocol_error_not_a_big_message() {
        let control = axum::Error::new(Error::Protocol(ProtocolError::ControlFrameTooBig));
        assert_eq!(read_error(&control).0, 1002);
        let big = axum::Error::new(Error::Capacity(CapacityError::MessageTooLong {
            size: 70_000,
            max_size: 65_536,
        }));
        assert_eq!(read_error(&big).0, close::TOO_BIG);
    }
}
