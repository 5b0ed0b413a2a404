//! The small JSON API for rooms (create one, look one up, its invite as a
//! QR code), the site's settings for the pages, and the rules as text.

use axum::extract::{Request, State};
use axum::http::{header, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::error::{json_error, registry_error, ApiJson, ApiPath};
use super::hosts::Base;
use super::state::App;
use crate::accounts::session::Session;
use crate::code;
use crate::limits::client_ip::{too_many, ClientIp};
use crate::room::{RegistryError, Route};

/// Room lookups by code, per client address (`Limits::lookups`): one
/// token each, found or not, so that guessing codes is slow; over the
/// limit `429 rate_limited` before the room is looked up.
pub(super) async fn limit_lookups(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    req: Request,
    next: axum::middleware::Next,
) -> Response {
    match app.limits.lookups.take(ip) {
        Ok(()) => next.run(req).await,
        Err(wait) => too_many(wait, "Too many room lookups from your address"),
    }
}

#[derive(Deserialize)]
pub(super) struct CreateRoom {
    /// Left out or `null`: CrossyRay.
    #[serde(default = "default_game", deserialize_with = "game_or_default")]
    game: String,
    /// Read with a key given twice kept as a refusal (`bad_options`).
    #[serde(default)]
    options: crate::games::SentOptions,
    #[serde(default)]
    token: Option<String>,
    /// A solo game against the computer: guests may create one, and only
    /// its host may sit.
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    solo: bool,
}

fn default_game() -> String {
    crate::games::GameKind::CrossyRay.name().to_string()
}

/// `"game": null` reads as the field left out (PROTOCOL.md, "HTTP").
fn game_or_default<'de, D: serde::Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    Ok(<Option<String> as Deserialize>::deserialize(d)?.unwrap_or_else(default_game))
}

/// `GET /api/site`: what the pages need to know about this server's
/// settings: whether guests may create rooms (`--guest-hosts`), and the
/// STUN/TURN servers voice chat uses (`--ice-server`).
pub(super) async fn site(State(app): State<App>) -> Response {
    Json(json!({
        "guest_hosts": app.config.guest_hosts,
        "ice_servers": app.config.ice_servers,
    }))
    .into_response()
}

/// `GET /rules.md`: the developers' text of the games' rules
/// (`docs/RULES.md`, which travels with the site beside the web folder),
/// as plain text. Players read `/rules`, the illustrated rules pages.
pub(super) async fn rules_text(State(app): State<App>) -> Response {
    let path = app.config.web_dir().join("../docs/RULES.md");
    match tokio::fs::read_to_string(&path).await {
        Ok(text) => (
            [
                (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
                (header::CACHE_CONTROL, "public, max-age=3600"),
            ],
            text,
        )
            .into_response(),
        Err(e) => {
            tracing::warn!(path = %path.display(), error = %e, "rules not found");
            json_error(
                StatusCode::NOT_FOUND,
                "no_rules",
                "The rules are not installed on this server.",
            )
        }
    }
}

/// `POST /api/rooms`.
pub(super) async fn create_room(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    session: Session,
    Base(base): Base,
    ApiJson(req): ApiJson<CreateRoom>,
) -> Response {
    if session.signed_in.is_none() && !req.solo && !app.config.guest_hosts {
        return json_error(
            StatusCode::UNAUTHORIZED,
            "account_needed",
            "Sign in or register to create a room (joining one needs no account).",
        );
    }
    // Options that are refused (a solo room's too) spend nothing of the
    // address's rooms.
    let options = match crate::room::Registry::parse_options(&req.game, &req.options)
        .and_then(|o| crate::room::Registry::check_solo(&o, req.solo).map(|()| o))
    {
        Ok(options) => options,
        Err(e) => return registry_error(e),
    };
    let account = session.signed_in.as_ref().map(|s| s.account.id);
    if let Err(wait) = app.limits.rooms.take_both(ip, account) {
        tracing::debug!(%ip, ?account, "room creation rate limited");
        return too_many(wait, "Too many new rooms from your address or account");
    }
    let token = req
        .token
        .filter(|t| crate::model::is_valid_token(t))
        .unwrap_or_else(crate::model::new_token);
    match app.registry.create(options, &token, req.solo).await {
        Ok(code) => {
            let link = format!("{base}/r/{code}");
            tracing::info!(room = code, game = %req.game, "room created");
            (
                StatusCode::CREATED,
                Json(json!({"code": code, "link": link, "qr": format!("/api/rooms/{code}/qr.svg"), "token": token})),
            )
                .into_response()
        }
        Err(e) => registry_error(e),
    }
}

/// `GET /api/rooms/CODE`.
pub(super) async fn room_info(State(app): State<App>, ApiPath(code): ApiPath<String>) -> Response {
    let Some(code) = code::normalize(&code) else {
        return json_error(
            StatusCode::NOT_FOUND,
            "no_room",
            format!("There is no room {code}."),
        );
    };
    // A room that is not in memory is loaded (it goes again when idle), so
    // the answer counts its stored seats too. A room another node runs
    // answers from there.
    let room = match app.registry.route(&code).await {
        Ok(Route::Local(room)) => room,
        Ok(Route::Remote(owner)) => {
            return match app.cluster.as_ref() {
                Some(cluster) => match cluster.info(&owner, &code).await {
                    Some(info) => {
                        ([(header::CONTENT_TYPE, "application/json")], info).into_response()
                    }
                    None => registry_error(RegistryError::Moving),
                },
                None => registry_error(RegistryError::Moving),
            };
        }
        Err(e) => return registry_error(e),
    };
    match room.info().await {
        Ok(info) => Json(info).into_response(),
        Err(_) => json_error(
            StatusCode::SERVICE_UNAVAILABLE,
            "full",
            "The room is reloading; try again in a moment.",
        ),
    }
}

/// `GET /api/rooms/CODE/qr.svg`: the invite link as a QR code.
pub(super) async fn room_qr(
    State(app): State<App>,
    ApiPath(code): ApiPath<String>,
    Base(base): Base,
) -> Response {
    let Some(code) = code::normalize(&code) else {
        return json_error(
            StatusCode::NOT_FOUND,
            "no_room",
            format!("There is no room {code}."),
        );
    };
    match app.registry.store().room(&code).await {
        Ok(Some(_)) => {}
        Ok(None) => return registry_error(RegistryError::NoRoom(code)),
        Err(e) => return registry_error(e.into()),
    }
    let link = format!("{base}/r/{code}");
    match qrcode::QrCode::new(link.as_bytes()) {
        Ok(qr) => {
            let svg = qr
                .render::<qrcode::render::svg::Color>()
                .min_dimensions(200, 200)
                .quiet_zone(true)
                .build();
            (
                [
                    (header::CONTENT_TYPE, "image/svg+xml"),
                    // The link's host can follow the request's `Host`
                    // (an allowed one): no shared cache keeps one
                    // host's image for another.
                    (header::CACHE_CONTROL, "private, max-age=86400"),
                    (header::VARY, "host"),
                ],
                svg,
            )
                .into_response()
        }
        Err(e) => json_error(StatusCode::INTERNAL_SERVER_ERROR, "internal", e.to_string()),
    }
}

/// `GET /api/lobby`: the open public rooms, newest change first.
pub(super) async fn lobby_rooms(State(app): State<App>) -> Response {
    match app.registry.store().lobby_rooms().await {
        Ok(rooms) => Json(json!({ "rooms": rooms })).into_response(),
        Err(e) => {
            tracing::warn!(error = %e, "could not read the lobby");
            json_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "Something went wrong on our side.",
            )
        }
    }
}
