//! `GET /ws/CODE`: the checks before a socket opens (origin, room, the
//! caps per address and per account, a connection permit), the account its session cookie
//! signs in, and the hand-over to the reader and writer, or to the node
//! that runs the room.

use axum::extract::ws::{WebSocket, WebSocketUpgrade};
use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::Response;
use futures_util::StreamExt;
use tokio::sync::OwnedSemaphorePermit;

use crate::accounts::session::NotLookedUp;
use crate::app::error::{json_error, ApiPath};
use crate::app::hosts::Base;
use crate::app::state::App;
use crate::limits::client_ip::ClientIp;
use crate::limits::open::Place;
use crate::room::{Closer, RoomHandle, Route};
use crate::store::{Account, SignedIn};

use super::reader::{serve, Link};
use super::*;

/// `GET /ws/CODE`. The `session` cookie, if any, says which account the
/// socket is signed in to (see `accounts/session.rs`).
pub async fn upgrade(
    ws: WebSocketUpgrade,
    ApiPath(code): ApiPath<String>,
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
    let mut slot = match socket_slot(&app, client) {
        Ok(slot) => slot,
        Err(refused) => return *refused,
    };
    let route = match app.registry.route(&code).await {
        Ok(route) => route,
        Err(e) => return crate::app::error::registry_error(e),
    };
    let permit = match connection_permit(&app) {
        Ok(permit) => permit,
        Err(refused) => return *refused,
    };
    let signed_in = match signed_in_account(&app, client, &headers).await {
        Ok(signed_in) => signed_in,
        Err(refused) => return *refused,
    };
    if let Err(refused) = account_place(&app, &mut slot, signed_in.as_ref()) {
        return *refused;
    }
    // Buffers sized to the protocol: a client's command is a few hundred
    // bytes, so the read buffer starts at 512 bytes (a larger frame
    // grows it, and costs one read more). Messages queued together (a
    // move's answer and its event) are gathered up to 4 KiB and written
    // at once, by the room into a lent socket or by `write_loop`, which
    // flushes as soon as its queue is empty. Measured with `bench idle`:
    // 31.6 KiB of server memory per idle socket with 8 KiB buffers, 25.5
    // KiB with a 2 KiB read buffer (bench/HISTORY.md, "Memory per
    // socket"); 11.7 KiB with 1 KiB, the queue and the task made small
    // (BENCHMARKS.md, "Memory per socket, and a cheaper move"); 11.3-11.5
    // with 512 bytes and the socket's shelf (`room::Outbox`; "Players'
    // messages written by the room").
    ws.max_message_size(LIBRARY_FRAME_BYTES)
        .max_frame_size(LIBRARY_FRAME_BYTES)
        .read_buffer_size(512)
        .write_buffer_size(WRITE_GATHER)
        .max_write_buffer_size(256 * 1024)
        .on_upgrade(move |socket| async move {
            // Ending the session closes the socket (`accounts/sockets.rs`).
            let closer = Closer::new();
            let _watch = match &signed_in {
                Some(s) => Some(Box::pin(crate::accounts::signout::watch(&app, s, &closer)).await),
                None => None,
            };
            let account = signed_in.map(|s| s.account);
            let link = Link {
                closer,
                ping: app.config.ping_every(),
                client: Some(client),
                via: None,
            };
            match (route, app.cluster.clone()) {
                (Route::Local(room), _) => {
                    Box::pin(connection(socket, app, room, base, account, link, permit)).await
                }
                (Route::Remote(owner), Some(cluster)) => {
                    let account = account.map(|a| a.id);
                    // Boxed: the relay's future would otherwise size every
                    // local socket's task too.
                    let bucket = crate::ws::reader::TokenBucket::for_config(&app.config);
                    let relayed = cluster.forward(socket, owner, code, base, account, link, bucket);
                    Box::pin(relayed).await;
                    drop(permit);
                }
                (Route::Remote(_), None) => {}
            }
            drop(slot);
        })
}

/// A place of `--max-sockets-per-addr` for `client`, or the `429
/// too_many_sockets` answer: every WebSocket (a room's, the lobby's)
/// takes one before its upgrade, and counts against its account too once
/// its session is read ([`account_place`]).
pub(super) fn socket_slot(app: &App, client: std::net::IpAddr) -> Result<Place, Box<Response>> {
    app.sockets
        .try_open(client, None, app.config.max_sockets_per_addr)
        .ok_or_else(|| too_many_sockets(app, "This address"))
}

/// Counts `slot` against the socket's account as well: the `429
/// too_many_sockets` answer when the account holds
/// `--max-sockets-per-addr` sockets already (from any addresses).
pub(super) fn account_place(
    app: &App,
    slot: &mut Place,
    signed_in: Option<&SignedIn>,
) -> Result<(), Box<Response>> {
    match signed_in {
        Some(s) if !slot.add_account(s.account.id, app.config.max_sockets_per_addr) => {
            Err(too_many_sockets(app, "Your account"))
        }
        _ => Ok(()),
    }
}

fn too_many_sockets(app: &App, who: &str) -> Box<Response> {
    Box::new(json_error(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_sockets",
        format!(
            "{who} already has {} sockets open; close one first.",
            app.config.max_sockets_per_addr
        ),
    ))
}

/// A `--max-connections` permit, or the `503 full` answer.
pub(super) fn connection_permit(app: &App) -> Result<OwnedSemaphorePermit, Box<Response>> {
    app.connections.clone().try_acquire_owned().map_err(|_| {
        Box::new(json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "full",
            "Too many connections; try again in a minute.",
        ))
    })
}

/// The account the request's session cookie signs in, looked up here,
/// off the room's task, so a slow disk never stalls the room. The lookup
/// spends one of the session lookups of the `client` address and of the
/// account (`Limits::sessions`): past either, the `429 rate_limited`
/// answer and no socket. A lookup the store fails attaches the socket as
/// a guest.
pub(super) async fn signed_in_account(
    app: &App,
    client: std::net::IpAddr,
    headers: &HeaderMap,
) -> Result<Option<SignedIn>, Box<Response>> {
    let Some(secret) = crate::accounts::session::secret_of(headers) else {
        return Ok(None);
    };
    match crate::accounts::session::look_up(app, client, &secret).await {
        Ok(signed_in) => Ok(signed_in),
        Err(NotLookedUp::Limited(answer)) => Err(answer),
        Err(NotLookedUp::Store(e)) => {
            tracing::warn!(error = %e, "session lookup failed; attaching as a guest");
            Ok(None)
        }
    }
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
    let open = app.stopping.open.clone();
    open.track_future(serve(stream, sink, app, room, base_url, account, link))
        .await;
}
