//! Every URL of the site and the layers in front of them: the one file
//! that imports every handler, so handlers import the state and the errors
//! and never the routes.

use std::sync::Arc;

use axum::extract::{DefaultBodyLimit, Request};
use axum::http::{header, HeaderValue, StatusCode};
use axum::routing::{delete, get, post, MethodRouter};
use axum::Router;
use tower_http::classify::ServerErrorsFailureClass;
use tower_http::compression::CompressionLayer;
use tower_http::set_header::SetResponseHeaderLayer;
use tower_http::trace::TraceLayer;

use super::error::{json_error, ApiPath, MAX_BODY};
use super::hosts;
use super::rooms::{create_room, limit_lookups, lobby_rooms, room_info, room_qr, rules_text, site};
use super::state::App;
use crate::pages::Pages;
use crate::ws;

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
        // The analysis of finished and imported games (analysis/).
        .route(
            "/api/games/{id}/analysis",
            post(crate::analysis::api::analyse_game).route_layer(lookups.clone()),
        )
        .route(
            "/api/analysis",
            post(crate::analysis::api::analyse_import).route_layer(lookups.clone()),
        )
        .route(
            "/api/analysis/{id}",
            get(crate::analysis::api::analysis).route_layer(lookups.clone()),
        )
        .route(
            "/api/analysis/{id}/events",
            get(crate::analysis::api::events).route_layer(lookups.clone()),
        )
        .route(
            "/api/players/{username}",
            get(crate::history::profile::profile),
        )
        .route(
            "/api/players/{username}/ratings/{game}",
            get(crate::history::ratings::rating_history),
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
            get(crate::accounts::open_sessions::sessions).delete(crate::accounts::open_sessions::end_other_sessions),
        )
        .route("/api/sessions/{id}", delete(crate::accounts::open_sessions::end_session))
        .route("/api/password", post(crate::accounts::password::change_password))
        .route(
            "/api/challenges",
            get(crate::accounts::challenges::list).post(crate::accounts::challenges::create),
        )
        .route(
            "/api/challenges/{id}/accept",
            post(crate::accounts::challenges::accept),
        )
        .route(
            "/api/challenges/{id}/decline",
            post(crate::accounts::challenges::decline),
        )
        .route(
            "/api/challenges/{id}/cancel",
            post(crate::accounts::challenges::cancel),
        )
        .route("/api/site", get(site))
        .route("/api/checkin", post(crate::accounts::checkin::check_in))
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
        .route("/api/lobby", get(lobby_rooms))
        .route("/ws/lobby", get(ws::lobby::upgrade))
        // Turn-based games (turns/).
        .route("/api/turns", get(crate::turns::turns))
        .route(
            "/api/turn-mail",
            get(crate::turns::turn_mail).post(crate::turns::set_turn_mail),
        )
        .route("/api/unsubscribe", post(crate::turns::unsubscribe))
        .route("/unsubscribe", page(&pages, "unsubscribe.html"))
        .route("/ws/{code}", get(ws::upgrade::upgrade).route_layer(lookups))
        .route("/healthz", {
            let health = std::sync::Arc::new(super::health::Health::default());
            get(move |state| super::health::healthz(state, health.clone()))
        })
        .route("/", page(&pages, "index.html"))
        .route("/r/{code}", page(&pages, "room.html"))
        .route("/g/{id}", page(&pages, "game.html"))
        .route("/import", page(&pages, "game.html"))
        .route("/games", page(&pages, "games.html"))
        .route("/account", page(&pages, "account.html"))
        .route("/u/{username}", page(&pages, "profile.html"))
        .route("/leaderboard", page(&pages, "leaderboard.html"))
        .route("/reset", page(&pages, "reset.html"))
        .route("/rules", page(&pages, "rules.html"))
        .route("/rules.md", get(rules_text))
        .route("/rules/{game}", {
            // Only the games this server hosts have a rules page.
            let pages = pages.clone();
            get(move |ApiPath(game): ApiPath<String>, req: Request| async move {
                match crate::games::GameKind::parse(&game) {
                    Ok(_) => pages.page("rules.html", &req),
                    Err(_) => pages.file(req).await,
                }
            })
        })
        .route("/v/{version}/{*path}", {
            let pages = pages.clone();
            get(
                move |ApiPath((version, _)): ApiPath<(String, String)>, req: Request| async move {
                    pages.asset(&version, req).await
                },
            )
        })
        // For tests only (`--test-clock`): otherwise not routed (404).
        .merge(crate::turns::test_routes(app.config.test_clock))
        .fallback(move |req: Request| async move {
            if req.uri().path().starts_with("/api/") {
                return json_error(
                    StatusCode::NOT_FOUND,
                    "not_found",
                    "There is no such API endpoint.",
                );
            }
            pages.file(req).await
        })
        .layer(DefaultBodyLimit::max(MAX_BODY))
        // Heads past 32 KiB that hyper's buffer still took (it reads in
        // chunks, so it refuses only somewhat past its limit).
        .layer(axum::middleware::from_fn(crate::serve::head_limit))
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
        .layer(
            TraceLayer::new_for_http()
                .make_span_with(
                    |req: &Request| tracing::debug_span!("request", method = %req.method(), path = req.uri().path()),
                )
                .on_failure(log_failure),
        )
        .with_state(app)
}

/// A failed answer in the log. `503` is a refusal the server chose
/// (`full`, `moving`, a busy queue, `/healthz` naming what is down):
/// `DEBUG`, as every request is; any other `5xx`, or an error, is
/// `ERROR`. (`429` and the other `4xx` are not failures.)
fn log_failure(
    class: ServerErrorsFailureClass,
    latency: std::time::Duration,
    span: &tracing::Span,
) {
    let ms = latency.as_millis() as u64;
    match class {
        ServerErrorsFailureClass::StatusCode(StatusCode::SERVICE_UNAVAILABLE) => {
            tracing::debug!(parent: span, latency_ms = ms, "refused: 503")
        }
        class => {
            tracing::error!(parent: span, classification = %class, latency_ms = ms, "response failed")
        }
    }
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
