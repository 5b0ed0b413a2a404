//! `GET /ws/lobby`: the lobby's socket. The same checks before it opens
//! as a room's (origin, the per-address socket cap, a connection permit,
//! the session cookie's account), then: `hello` first (a guest's name
//! and the browser's token), the public rooms (`rooms`, again whenever
//! they change), and the socket's one seek (`seek`, `cancel`) until
//! `paired` names the room. The seek goes with the socket.

use axum::extract::ws::{Message, WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use futures_util::StreamExt;
use serde::Deserialize;
use serde_json::{json, Value};

use crate::app::error::json_error;
use crate::app::state::App;
use crate::limits::client_ip::ClientIp;
use crate::lobby::{SeekHandle, SeekRequest, Seeker};
use crate::model::ids::{is_valid_token, new_token};
use crate::protocol::{ack, Code, Refusal};
use crate::room::{close, Closer};
use crate::store::Account;

use super::lag::Lag;
use super::reader::{read_error, reply_now, TokenBucket};
use super::silence::Silence;
use super::writer::write_loop;
use super::{MAX_FRAME_BYTES, SEND_QUEUE};

/// What a lobby socket may send.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case", deny_unknown_fields)]
enum LobbyCommand {
    Hello {
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        name: Option<String>,
    },
    Seek {
        #[serde(flatten)]
        seek: SeekFields,
    },
    Cancel,
    Ping,
}

#[derive(Debug, Deserialize)]
struct SeekFields {
    game: String,
    preset: String,
    /// Left out or `null`: not rated.
    #[serde(default, deserialize_with = "crate::lobby::pairing::false_if_null")]
    rated: bool,
    #[serde(default)]
    range: Option<i64>,
}

/// `GET /ws/lobby`.
pub async fn upgrade(
    ws: WebSocketUpgrade,
    State(app): State<App>,
    ClientIp(client): ClientIp,
    headers: HeaderMap,
) -> Response {
    if !crate::app::hosts::from_us(&app.config, &headers) {
        return json_error(
            StatusCode::FORBIDDEN,
            "bad_origin",
            "This page may not open a lobby socket here.",
        );
    }
    let mut slot = match super::upgrade::socket_slot(&app, client) {
        Ok(slot) => slot,
        Err(refused) => return *refused,
    };
    let permit = match super::upgrade::connection_permit(&app) {
        Ok(permit) => permit,
        Err(refused) => return *refused,
    };
    let signed_in = match super::upgrade::signed_in_account(&app, client, &headers).await {
        Ok(signed_in) => signed_in,
        Err(refused) => return *refused,
    };
    if let Err(refused) = super::upgrade::account_place(&app, &mut slot, signed_in.as_ref()) {
        return *refused;
    }
    ws.max_message_size(super::LIBRARY_FRAME_BYTES)
        .max_frame_size(super::LIBRARY_FRAME_BYTES)
        .on_upgrade(move |socket| async move {
            let closer = Closer::new();
            let _watch = match &signed_in {
                Some(s) => Some(crate::accounts::signout::watch(&app, s, &closer).await),
                None => None,
            };
            let open = app.stopping.open.clone();
            open.track_future(serve(
                socket,
                app,
                signed_in.map(|s| s.account),
                client,
                closer,
            ))
            .await;
            drop((permit, slot));
        })
}

fn refuse(code: Code, message: impl Into<String>, id: Option<i64>) -> String {
    Refusal::new(code, message).to_message(id)
}

/// One lobby socket's life.
async fn serve(
    socket: WebSocket,
    app: App,
    account: Option<Account>,
    client: std::net::IpAddr,
    closer: Closer,
) {
    let (sink, mut stream) = socket.split();
    let (outbox, queue) = crate::room::outbox(SEND_QUEUE);
    let ping = app.config.ping_every();
    let writer = tokio::spawn(write_loop(
        sink,
        queue,
        None,
        closer.clone(),
        ping,
        Lag::shared(),
    ));
    let mut silence = Silence::new(ping);
    let hello_deadline = tokio::time::sleep(app.config.hello_timeout());
    tokio::pin!(hello_deadline);
    let mut bucket = TokenBucket::for_config(&app.config);
    let mut pings = bucket.clone();
    let closed = closer.closed();
    tokio::pin!(closed);
    let mut rooms = app.lobby.rooms();
    let mut me: Option<Seeker> = None;
    let mut seek: Option<SeekHandle> = None;
    // Answers wait for room in the queue as a room socket's do (the
    // socket is not read meanwhile), for up to its write timeout; then the
    // connection closes with 1008 and a reason, never dropping one.
    let send = |text: String| reply_now(&outbox, &closer, text);
    loop {
        let frame = tokio::select! {
            biased;
            _ = &mut closed => break,
            _ = app.stopping.token.cancelled() => {
                closer.close(close::RESTART, close::RESTART_REASON);
                break;
            }
            code = async { (&mut seek.as_mut().expect("guarded").paired).await }, if seek.is_some() => {
                let handle = seek.take();
                let text = match code {
                    Ok(code) => json!({"type": "paired", "code": code}).to_string(),
                    Err(_) => refuse(Code::Internal, "The pairing failed; seek again.", None),
                };
                // Paired: the row is gone already; the handle's drop
                // only forgets it.
                drop(handle);
                if !send(text).await { break }
                continue;
            }
            changed = rooms.changed(), if me.is_some() => {
                if changed.is_err() { break }
                let list = rooms.borrow_and_update().clone();
                if !send(json!({"type": "rooms", "rooms": *list}).to_string()).await { break }
                continue;
            }
            _ = &mut hello_deadline, if me.is_none() => {
                // The room socket's words (`reader.rs`).
                let reason = format!("No hello within {} s.", app.config.hello_timeout().as_secs());
                closer.close(close::POLICY, &reason);
                break;
            }
            _ = silence.expired() => {
                closer.close(close::POLICY, &silence.reason());
                break;
            }
            frame = stream.next() => frame,
        };
        silence.heard();
        let text = match frame {
            None | Some(Ok(Message::Close(_))) => break,
            Some(Err(e)) => {
                // As a room socket: 1007 for bad UTF-8, 1009 for a frame
                // over the hard limit, 1002 otherwise.
                let (code, reason) = read_error(&e);
                closer.close(code, reason);
                break;
            }
            Some(Ok(Message::Text(text))) => text,
            Some(Ok(Message::Binary(_))) => {
                if !send(refuse(Code::BadMessage, "Send JSON text frames.", None)).await {
                    break;
                }
                continue;
            }
            Some(Ok(Message::Ping(_) | Message::Pong(_))) => {
                // As a room's socket: pings, and pongs ours answered or
                // unasked, are bounded as messages are.
                if pings.as_mut().is_some_and(|b| !b.take()) {
                    closer.close(close::POLICY, super::reader::TOO_MANY_PINGS);
                    break;
                }
                continue;
            }
        };
        if text.len() > MAX_FRAME_BYTES {
            closer.close(close::TOO_BIG, "Message too big.");
            break;
        }
        // As a room's socket: past 16 KiB `too_large`, unparsed.
        if text.len() > crate::protocol::MAX_MESSAGE_BYTES {
            let message = format!(
                "Message too large ({} bytes; the limit is {}).",
                text.len(),
                crate::protocol::MAX_MESSAGE_BYTES
            );
            if !send(refuse(Code::TooLarge, &message, None)).await {
                break;
            }
            continue;
        }
        let value: Option<Value> = serde_json::from_str(text.as_str()).ok();
        let id = value
            .as_ref()
            .and_then(|v| v.get("id"))
            .and_then(Value::as_i64);
        if bucket.as_mut().is_some_and(|b| !b.take()) {
            if !send(super::reader::too_many_messages(id)).await {
                break;
            }
            continue;
        }
        let kind = value
            .as_ref()
            .and_then(|v| v.get("type"))
            .and_then(Value::as_str)
            .map(str::to_string);
        // A seek's range that is no whole number, named as such.
        let bad_range = value
            .as_ref()
            .and_then(|v| v.get("range"))
            .filter(|r| !r.is_null() && !r.is_i64())
            .cloned();
        let command = value.map(|mut v| {
            if let Some(fields) = v.as_object_mut() {
                fields.remove("id");
            }
            serde_json::from_value::<LobbyCommand>(v)
        });
        let command = match command {
            Some(Ok(command)) => command,
            refused => {
                // A seek with a field of the wrong kind says which.
                let message = match (kind.as_deref(), refused) {
                    (Some("seek"), Some(Err(_))) if bad_range.is_some() => format!(
                        "A rating range is a whole number of points, not {}.",
                        bad_range.unwrap_or_default()
                    ),
                    (Some("seek"), Some(Err(e))) => format!("That is not a seek: {e}."),
                    _ => "That is not a lobby command.".to_string(),
                };
                if !send(refuse(Code::BadMessage, &message, id)).await {
                    break;
                }
                continue;
            }
        };
        let answer = match command {
            LobbyCommand::Hello { token, name } if me.is_none() => {
                let token = token
                    .filter(|t| is_valid_token(t))
                    .unwrap_or_else(new_token);
                let name = match (name, &account) {
                    (_, Some(a)) => Ok(a.display_name.clone()),
                    (Some(n), None) => crate::validate::name(&n),
                    (None, None) => Ok(String::new()),
                };
                match name {
                    Err(m) => refuse(Code::BadName, m, id),
                    Ok(name) => {
                        // The first `rooms` follows: the list as of now.
                        app.lobby.refresh().await;
                        me = Some(Seeker {
                            token: token.clone(),
                            name,
                            account: account.as_ref().map(crate::lobby::pairing_account),
                            addr: Some(client),
                        });
                        ack(
                            id,
                            Some(json!({"token": token, "signed_in": account.is_some()})),
                        )
                    }
                }
            }
            LobbyCommand::Hello { .. } => refuse(Code::BadMessage, "You already said hello.", id),
            _ if me.is_none() => refuse(Code::HelloFirst, "Send hello first.", id),
            LobbyCommand::Ping => ack(id, None),
            LobbyCommand::Cancel => match seek.take() {
                None => refuse(Code::NoSeek, "You have no open seek.", id),
                Some(handle) => {
                    drop(handle);
                    ack(id, None)
                }
            },
            LobbyCommand::Seek { .. } if seek.is_some() => {
                refuse(Code::SeekOpen, "You are seeking already; cancel first.", id)
            }
            LobbyCommand::Seek { seek: f } => {
                let seeker = me.clone().expect("said hello");
                let account = seeker.account.as_ref().map(|a| a.id);
                if seeker.name.is_empty() {
                    refuse(Code::BadName, "Please type a name first.", id)
                } else if let Err(wait) = app.limits.rooms.take_both(client, account) {
                    // A seek may make a room: it counts against the
                    // address's and the account's room creations
                    // (`--room-burst`), as `POST /api/rooms` does.
                    refuse(
                        Code::RateLimited,
                        format!(
                            "Too many games asked for from your address or account; try again in {} s.",
                            wait.as_secs().max(1)
                        ),
                        id,
                    )
                } else {
                    let request = SeekRequest {
                        game: f.game,
                        preset: f.preset,
                        rated: f.rated,
                        range: f.range,
                    };
                    match app.lobby.seek(seeker, &request).await {
                        Ok(handle) => {
                            let answer = ack(id, Some(json!({"seek": handle.id()})));
                            seek = Some(handle);
                            answer
                        }
                        Err(refusal) => {
                            // Refused: no room can come of it.
                            app.limits.rooms.give_back_both(client, account);
                            refusal.to_message(id)
                        }
                    }
                }
            }
        };
        if !send(answer).await {
            break;
        }
    }
    drop(seek);
    drop(outbox);
    let _ = tokio::time::timeout(super::WRITE_TIMEOUT, writer).await;
}
