//! Turn-based games over HTTP: the "your turn" list (`GET /api/turns`),
//! the "your turn" email setting (`GET`/`POST /api/turn-mail`), the
//! unsubscribe link (`POST /api/unsubscribe`), and, for tests only
//! (`--test-clock`), `POST /api/test/clock`, which moves the server's
//! clock forward. The sweeper (`sweep.rs`) keeps deadlines and sends mail.

pub mod sweep;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::accounts::session::Session;
use crate::app::error::{json_error, ApiJson};
use crate::app::state::App;
use crate::history::bearer_token;
use crate::model::time::now_millis;
use crate::model::{is_valid_token, TokenHash};

/// The longest a test may move the clock at once: 30 days.
const MAX_ADVANCE_MS: u64 = 30 * 86_400_000;

fn internal(e: impl std::fmt::Display) -> Response {
    tracing::error!(error = %e, "turns: store error");
    json_error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "Something went wrong.",
    )
}

fn signed_out() -> Response {
    json_error(StatusCode::UNAUTHORIZED, "not_signed_in", "Sign in first.")
}

/// `GET /api/turns`: the turn-based games waiting for the caller's move:
/// the signed-in account's, and the browser's (`Authorization: Bearer
/// TOKEN`, optional), the nearest deadline first; and the live games the
/// caller plays now (`playing`), so another device finds them.
pub async fn turns(State(app): State<App>, session: Session, headers: HeaderMap) -> Response {
    let account = session.signed_in.map(|s| s.account.id);
    let token = bearer_token(&headers)
        .filter(|t| is_valid_token(t))
        .map(|t| TokenHash::of(&t));
    if account.is_none() && token.is_none() {
        return json_error(
            StatusCode::UNAUTHORIZED,
            "no_token",
            "Sign in, or send your browser token in an Authorization: Bearer TOKEN header.",
        );
    }
    let now = now_millis();
    let store = app.registry.store();
    let playing = match store.playing_for(account, token.as_ref()).await {
        Ok(items) => items,
        Err(e) => return internal(e),
    };
    match store.turns_for(account, token.as_ref()).await {
        Ok(items) => Json(json!({
            "now": now,
            "turns": items.iter().map(|t| json!({
                "room": t.room,
                "game": t.game,
                "number": t.number,
                "players": t.sides,
                "deadline": t.deadline,
                "left_ms": t.deadline.saturating_sub(now),
            })).collect::<Vec<_>>(),
            "playing": playing.iter().map(|p| json!({
                "room": p.room,
                "game": p.game,
                "number": p.number,
                "players": p.sides,
                "started_at": p.started_at,
            })).collect::<Vec<_>>(),
        }))
        .into_response(),
        Err(e) => internal(e),
    }
}

/// `GET /api/turn-mail`: whether the signed-in account gets the "your
/// turn" email.
pub async fn turn_mail(State(app): State<App>, session: Session) -> Response {
    let Some(signed) = session.signed_in else {
        return signed_out();
    };
    match app.registry.store().turn_mail(signed.account.id).await {
        Ok(on) => Json(json!({ "turn_mail": on })).into_response(),
        Err(e) => internal(e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct TurnMailBody {
    turn_mail: bool,
}

/// `POST /api/turn-mail {"turn_mail": true|false}`.
pub async fn set_turn_mail(
    State(app): State<App>,
    session: Session,
    ApiJson(body): ApiJson<TurnMailBody>,
) -> Response {
    let Some(signed) = session.signed_in else {
        return signed_out();
    };
    match app
        .registry
        .store()
        .set_turn_mail(signed.account.id, body.turn_mail)
        .await
    {
        Ok(()) => Json(json!({ "turn_mail": body.turn_mail })).into_response(),
        Err(e) => internal(e),
    }
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct UnsubscribeBody {
    token: String,
}

/// `POST /api/unsubscribe {"token": T}`: the token of a "your turn"
/// mail's link turns that email off, without signing in.
pub async fn unsubscribe(
    State(app): State<App>,
    ApiJson(body): ApiJson<UnsubscribeBody>,
) -> Response {
    if body.token.is_empty() || body.token.len() > 64 {
        return bad_link();
    }
    match app
        .registry
        .store()
        .unsubscribe(&TokenHash::of(&body.token))
        .await
    {
        Ok(true) => Json(json!({ "turn_mail": false })).into_response(),
        Ok(false) => bad_link(),
        Err(e) => internal(e),
    }
}

fn bad_link() -> Response {
    json_error(
        StatusCode::BAD_REQUEST,
        "bad_link",
        "This link has expired or was already used; ask for a new one.",
    )
}

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
pub struct AdvanceBody {
    advance_ms: u64,
}

/// The routes for tests: `POST /api/test/clock` when `test_clock`, else a
/// bare 404 there.
pub fn test_routes(test_clock: bool) -> axum::Router<App> {
    // Without the flag the path is not routed: the API's JSON
    // `404 not_found`, as for any path that names no endpoint.
    let router = axum::Router::new();
    if test_clock {
        router.route("/api/test/clock", axum::routing::post(advance_clock))
    } else {
        router
    }
}

/// `POST /api/test/clock {"advance_ms": N}` (only with `--test-clock`:
/// otherwise not routed, 404): moves the server's clock `N` ms forward; the rooms and
/// the sweeper see it within a fraction of a second.
async fn advance_clock(ApiJson(body): ApiJson<AdvanceBody>) -> Response {
    if body.advance_ms > MAX_ADVANCE_MS {
        return json_error(
            StatusCode::BAD_REQUEST,
            "bad_message",
            "advance_ms is at most 30 days.",
        );
    }
    let skew = crate::model::time::advance(body.advance_ms);
    sweep::poke();
    Json(json!({ "skew_ms": skew, "now": now_millis() })).into_response()
}
