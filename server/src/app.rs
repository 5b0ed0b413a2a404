//! The HTTP side: routes, shared state, and the small JSON API for rooms.

pub mod hosts;

use std::sync::Arc;

use axum::extract::rejection::JsonRejection;
use axum::extract::{DefaultBodyLimit, Path, Request, State};
use axum::http::HeaderValue;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::routing::{delete, get, post, MethodRouter};
use axum::{Json, Router};
use serde::Deserialize;
use serde_json::{json, Value};
use tokio::sync::Semaphore;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

use crate::accounts::Session;
use crate::config::Config;
use crate::limits::{too_many, ClientIp};
use crate::pages::Pages;
use crate::room::{Registry, RegistryError, Route};
use crate::{code, socket};
pub use hosts::{base_url, Base};

/// Shared by every request: cheap to clone.
#[derive(Clone)]
pub struct App {
    pub config: Arc<Config>,
    pub registry: Registry,
    /// One permit per open WebSocket (`--max-connections`).
    pub connections: Arc<Semaphore>,
    /// Open WebSockets per client address (`--max-sockets-per-addr`).
    pub sockets: Arc<socket::SocketsPerAddr>,
    /// Password hashing slots.
    pub accounts: Arc<crate::accounts::Accounts>,
    /// Per-address limits on room creation, registration and failed
    /// logins, and who the client is behind `--trusted-proxy`.
    pub limits: Arc<crate::limits::Limits>,
    /// This node's link to the others, when it is one of several.
    pub cluster: Option<crate::cluster::Cluster>,
    /// Where the confirmation and recovery links go.
    pub mailer: Arc<crate::mail::Mailer>,
    /// The sockets each login session signed in, to sign them out when
    /// it ends.
    pub sessions: Arc<crate::accounts::sockets::SessionSockets>,
}

/// Largest HTTP request body we read (room creation is a few hundred
/// bytes); a larger one is answered `413 too_large`.
pub const MAX_BODY: usize = 16 * 1024;

pub fn router(app: App) -> Router {
    let pages = Arc::new(Pages::load(&app.config.web_dir()));
    let lookups = axum::middleware::from_fn_with_state(app.clone(), limit_lookups);
    Router::new()
        .route("/api/rooms", post(create_room))
        .route(
            "/api/rooms/{code}",
            get(room_info).route_layer(lookups.clone()),
        )
        .route(
            "/api/rooms/{code}/qr.svg",
            get(room_qr).route_layer(lookups.clone()),
        )
        .route(
            "/api/rooms/{code}/games",
            get(crate::history::room_games).route_layer(lookups.clone()),
        )
        .route("/api/games", get(crate::history::history))
        .route("/api/games/import", post(crate::history::import_game))
        .route("/api/games/{id}", get(crate::history::game))
        .route("/api/games/{id}/export", get(crate::history::export_game))
        .route("/api/position", get(crate::history::position))
        .route(
            "/api/players/{username}",
            get(crate::history::profile::profile),
        )
        .route(
            "/api/leaderboard/{game}",
            get(crate::history::profile::leaderboard),
        )
        .route("/api/accounts", post(crate::accounts::register))
        .route("/api/login", post(crate::accounts::login))
        .route("/api/logout", post(crate::accounts::logout))
        .route("/api/me", get(crate::accounts::me))
        .route(
            "/api/sessions",
            get(crate::accounts::sessions).delete(crate::accounts::end_other_sessions),
        )
        .route("/api/sessions/{id}", delete(crate::accounts::end_session))
        .route("/api/password", post(crate::accounts::change_password))
        .route("/api/site", get(site))
        .route("/api/checkin", post(crate::accounts::check_in))
        .route("/api/shop", get(crate::accounts::shop::shop))
        .route("/api/shop/buy", post(crate::accounts::shop::buy))
        .route("/api/shop/choose", post(crate::accounts::shop::choose))
        .route("/api/email", post(crate::accounts::recovery::set_email))
        .route(
            "/api/email/confirm",
            post(crate::accounts::recovery::confirm_email),
        )
        .route("/api/recover", post(crate::accounts::recovery::recover))
        .route("/api/reset", post(crate::accounts::recovery::reset))
        .route("/ws/{code}", get(socket::upgrade).route_layer(lookups))
        .route("/healthz", get(|| async { "ok" }))
        .route("/", page(&pages, "index.html"))
        .route("/r/{code}", page(&pages, "room.html"))
        .route("/g/{id}", page(&pages, "game.html"))
        .route("/import", page(&pages, "game.html"))
        .route("/games", page(&pages, "games.html"))
        .route("/account", page(&pages, "account.html"))
        .route("/u/{username}", page(&pages, "profile.html"))
        .route("/leaderboard", page(&pages, "leaderboard.html"))
        .route("/reset", page(&pages, "reset.html"))
        .route("/rules", get(rules))
        .route("/rules/{game}", page(&pages, "rules.html"))
        .route("/v/{version}/{*path}", {
            let pages = pages.clone();
            get(
                move |Path((version, _)): Path<(String, String)>, req: Request| async move {
                    pages.asset(&version, req).await
                },
            )
        })
        .fallback(move |req: Request| async move { pages.file(req).await })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        // Foreign origins may change nothing; HSTS over TLS.
        .layer(axum::middleware::from_fn_with_state(
            app.clone(),
            hosts::guard,
        ))
        .layer(security_header("content-security-policy", CSP))
        .layer(security_header("x-content-type-options", "nosniff"))
        .layer(security_header("referrer-policy", "same-origin"))
        .layer(security_header("x-frame-options", "SAMEORIGIN"))
        // gzip or brotli, as the client accepts, for answers of more
        // than 32 bytes that are not already compressed images; the
        // WebSocket upgrade has no body and passes untouched.
        .layer(CompressionLayer::new())
        // The request's method and path only: never its query or
        // headers, so no token or cookie reaches a log at any level.
        .layer(TraceLayer::new_for_http().make_span_with(
            |req: &Request| tracing::debug_span!("request", method = %req.method(), path = req.uri().path()),
        ))
        .with_state(app)
}

/// `GET` page `name` of the client (see [`crate::pages`]).
fn page(pages: &Arc<Pages>, name: &'static str) -> MethodRouter<App> {
    let pages = pages.clone();
    get(move |req: Request| async move { pages.page(name, &req) })
}

/// The Content-Security-Policy of every answer: scripts, styles,
/// fonts and sockets from this site only (`connect-src 'self'` covers
/// `ws:`/`wss:` to the same host), images also as `data:` URLs, no
/// plugins, no `<base>`, forms post only here, and no other site may
/// frame ours (the room frames its own rules page).
pub const CSP: &str = "default-src 'self'; script-src 'self'; style-src 'self'; \
    img-src 'self' data:; font-src 'self'; connect-src 'self'; object-src 'none'; \
    base-uri 'none'; form-action 'self'; frame-ancestors 'self'";

/// A security header every answer carries unless its handler set one.
/// The router adds [`CSP`], `X-Content-Type-Options: nosniff`,
/// `Referrer-Policy: same-origin` (a recovery link's token never leaves
/// in a `Referer`), and `X-Frame-Options: SAMEORIGIN` for browsers that predate
/// `frame-ancestors`.
fn security_header(name: &'static str, value: &'static str) -> SetResponseHeaderLayer<HeaderValue> {
    SetResponseHeaderLayer::if_not_present(
        header::HeaderName::from_static(name),
        HeaderValue::from_static(value),
    )
}

/// The token of an `Authorization: Bearer TOKEN` header (any case of
/// "Bearer"), if the request has one.
pub fn bearer_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim().to_string())
}

/// `{"error": code, "message": text}` with `status`.
pub fn json_error(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
    (
        status,
        Json(json!({"error": code, "message": message.into()})),
    )
        .into_response()
}

/// The answer to a JSON body that could not be read: `413 too_large` for
/// one over [`MAX_BODY`], `400 bad_message` for anything else.
pub fn body_error(e: JsonRejection) -> Response {
    if e.status() == StatusCode::PAYLOAD_TOO_LARGE {
        json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!("A request body can have at most {} KiB.", MAX_BODY / 1024),
        )
    } else {
        json_error(StatusCode::BAD_REQUEST, "bad_message", e.body_text())
    }
}

pub fn registry_error(e: RegistryError) -> Response {
    match e {
        RegistryError::NoRoom(_) => json_error(StatusCode::NOT_FOUND, "no_room", e.to_string()),
        RegistryError::Full => json_error(StatusCode::SERVICE_UNAVAILABLE, "full", e.to_string()),
        RegistryError::Moving => {
            json_error(StatusCode::SERVICE_UNAVAILABLE, "moving", e.to_string())
        }
        RegistryError::BadOptions(m) => json_error(StatusCode::BAD_REQUEST, "bad_options", m),
        RegistryError::Store(e) => {
            tracing::error!(error = %e, "database error");
            json_error(
                StatusCode::INTERNAL_SERVER_ERROR,
                "internal",
                "Something went wrong on our side.",
            )
        }
    }
}

/// Room lookups by code, per client address (`Limits::lookups`): one
/// token each, found or not, so that guessing codes is slow; over the
/// limit `429 rate_limited` before the room is looked up.
async fn limit_lookups(
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
struct CreateRoom {
    #[serde(default = "default_game")]
    game: String,
    #[serde(default)]
    options: Value,
    #[serde(default)]
    token: Option<String>,
    /// A solo game against the computer: guests may create one, and only
    /// its host may sit.
    #[serde(default)]
    solo: bool,
}

fn default_game() -> String {
    crate::games::GameKind::CrossyRay.name().to_string()
}

/// `GET /api/site`: what the pages need to know about this server's
/// settings: whether guests may create rooms (`--guest-hosts`), and the
/// STUN/TURN servers voice chat uses (`--ice-server`).
async fn site(State(app): State<App>) -> Response {
    Json(json!({
        "guest_hosts": app.config.guest_hosts,
        "ice_servers": app.config.ice_servers,
    }))
    .into_response()
}

/// `GET /rules`: the rules of the games (`docs/RULES.md`, which travels
/// with the site beside the web folder), as plain text.
async fn rules(State(app): State<App>) -> Response {
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
async fn create_room(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    session: Session,
    Base(base): Base,
    body: Result<Json<CreateRoom>, JsonRejection>,
) -> Response {
    let Json(req) = match body {
        Ok(body) => body,
        Err(e) => return body_error(e),
    };
    if session.signed_in.is_none() && !req.solo && !app.config.guest_hosts {
        return json_error(
            StatusCode::UNAUTHORIZED,
            "account_needed",
            "Sign in or register to create a room (joining one needs no account).",
        );
    }
    if let Err(wait) = app.limits.rooms.take(ip) {
        tracing::debug!(%ip, "room creation rate limited");
        return too_many(wait, "Too many new rooms from your address");
    }
    let token = req
        .token
        .filter(|t| crate::model::is_valid_token(t))
        .unwrap_or_else(crate::model::new_token);
    match app
        .registry
        .create(&req.game, &req.options, &token, req.solo)
        .await
    {
        Ok(room) => {
            let code = room.code();
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
async fn room_info(State(app): State<App>, Path(code): Path<String>) -> Response {
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
async fn room_qr(State(app): State<App>, Path(code): Path<String>, Base(base): Base) -> Response {
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
