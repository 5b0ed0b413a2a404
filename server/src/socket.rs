//! One WebSocket connection: the upgrade checks, a reader that enforces the
//! limits and forwards commands to the room, and a writer fed by a bounded
//! queue.

use std::sync::atomic::{AtomicU64, Ordering};

use axum::extract::ws::{Message, Utf8Bytes, WebSocket, WebSocketUpgrade};
use axum::extract::{Path, State};
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::Response;
use futures_util::{SinkExt, StreamExt};
use tokio::sync::{mpsc, OwnedSemaphorePermit};
use tokio::time::Instant;
use tokio_util::sync::CancellationToken;
use tracing::debug;

use crate::app::{base_url, json_error, App};
use crate::protocol::{self, Command, Refusal};
use crate::room::{RoomCommand, RoomHandle};

/// Messages queued for one client before it counts as too slow and is
/// dropped: a snapshot plus a burst of events fits easily.
const SEND_QUEUE: usize = 128;
/// Hard cap on a frame; larger ones close the connection. Between
/// `protocol::MAX_MESSAGE_BYTES` and this, the client gets `too_large`.
const MAX_FRAME_BYTES: usize = 64 * 1024;
/// Commands per second a connection may send on average, and its burst.
const RATE_PER_SEC: f64 = 20.0;
const RATE_BURST: f64 = 40.0;

static NEXT_CONN: AtomicU64 = AtomicU64::new(1);

/// `GET /ws/CODE`.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    Path(code): Path<String>,
    State(app): State<App>,
    headers: HeaderMap,
) -> Response {
    if !origin_allowed(&app, &headers) {
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
    let room = match app.registry.get(&code).await {
        Ok(room) => room,
        Err(e) => return crate::app::registry_error(e),
    };
    let Ok(permit) = app.connections.clone().try_acquire_owned() else {
        return json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "full",
            "Too many connections; try again in a minute.",
        );
    };
    let base = base_url(&app, &headers);
    ws.max_message_size(MAX_FRAME_BYTES)
        .max_frame_size(MAX_FRAME_BYTES)
        .read_buffer_size(8 * 1024)
        .write_buffer_size(8 * 1024)
        .max_write_buffer_size(256 * 1024)
        .on_upgrade(move |socket| connection(socket, app, room, base, permit))
}

/// Browsers always send `Origin` on a WebSocket upgrade; a page from
/// another site must not drive a player's seat. Clients without an
/// `Origin` (tests, bots) are not browsers and are allowed.
fn origin_allowed(app: &App, headers: &HeaderMap) -> bool {
    let Some(origin) = headers.get(header::ORIGIN).and_then(|v| v.to_str().ok()) else {
        return true;
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .unwrap_or("");
    let own = [format!("http://{host}"), format!("https://{host}")];
    own.iter().any(|o| o == origin)
        || app.config.public_url.as_deref() == Some(origin)
        || app.config.allowed_origins.iter().any(|o| o == origin)
}

async fn connection(
    socket: WebSocket,
    app: App,
    mut room: RoomHandle,
    base_url: String,
    _permit: OwnedSemaphorePermit,
) {
    let conn = NEXT_CONN.fetch_add(1, Ordering::Relaxed);
    let (mut sink, mut stream) = socket.split();
    let (outbox, mut queue) = mpsc::channel::<Utf8Bytes>(SEND_QUEUE);
    let kick = CancellationToken::new();

    let writer = tokio::spawn(async move {
        while let Some(text) = queue.recv().await {
            if sink.send(Message::Text(text)).await.is_err() {
                break;
            }
        }
        let _ = sink.close().await;
    });

    let mut attached = false;
    let mut bucket = TokenBucket::new(RATE_PER_SEC, RATE_BURST);
    let reply = |text: String| {
        // The reader's own answers (parse errors) share the queue; if it is
        // full the client is not reading and will be dropped anyway.
        let _ = outbox.try_send(Utf8Bytes::from(text));
    };
    loop {
        let frame = tokio::select! {
            frame = stream.next() => frame,
            _ = kick.cancelled() => break,
        };
        let text = match frame {
            None | Some(Err(_)) => break,
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Binary(_))) => {
                reply(
                    Refusal::new("bad_message", "Send JSON text frames, not binary.")
                        .to_message(None),
                );
                continue;
            }
            Some(Ok(Message::Close(_))) => break,
            Some(Ok(_)) => continue, // ping/pong are answered by the library
        };
        // Parse before refusing for rate, so even that refusal carries the
        // command's id (frames are at most 16 KiB, so parsing is cheap).
        let parsed = protocol::parse(text.as_str());
        if !bucket.take() {
            let id = match &parsed {
                Ok(envelope) => Some(envelope.id),
                Err((id, _)) => *id,
            };
            reply(Refusal::new("rate_limited", "Too many messages; slow down.").to_message(id));
            continue;
        }
        let envelope = match parsed {
            Ok(envelope) => envelope,
            Err((id, refusal)) => {
                reply(refusal.to_message(id));
                continue;
            }
        };
        let id = envelope.id;
        match envelope.command {
            Command::Hello { token, name } if !attached => {
                // A logged-in browser: its session is looked up here, off
                // the room's task, so a slow disk never stalls the room.
                let account = match token.as_deref().filter(|t| crate::room::is_valid_token(t)) {
                    Some(t) => match app.registry.store().session_account(t).await {
                        Ok(account) => account,
                        Err(e) => {
                            tracing::warn!(error = %e, "session lookup failed; attaching as a guest");
                            None
                        }
                    },
                    None => None,
                };
                let attach = || RoomCommand::Attach {
                    conn,
                    id,
                    token: token.clone(),
                    name: name.clone(),
                    outbox: outbox.clone(),
                    kick: kick.clone(),
                    base_url: base_url.clone(),
                    account: account.clone(),
                };
                if room.send(attach()).await.is_err() {
                    // The room went idle between the upgrade and now.
                    match app.registry.get(room.code()).await {
                        Ok(fresh) => room = fresh,
                        Err(_) => break,
                    }
                    if room.send(attach()).await.is_err() {
                        break;
                    }
                }
                attached = true;
            }
            command if attached => {
                if room
                    .send(RoomCommand::Client { conn, id, command })
                    .await
                    .is_err()
                {
                    break;
                }
            }
            _ => reply(Refusal::new("hello_first", "Send hello first.").to_message(Some(id))),
        }
    }
    debug!(conn, "connection closed");
    if attached {
        let _ = room.send(RoomCommand::Detach { conn }).await;
    }
    drop(outbox);
    let _ = writer.await;
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
