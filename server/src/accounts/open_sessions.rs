//! The account's open sessions (one per signed-in browser): listed, one
//! ended, or every other one ended. An ended session's sockets are
//! signed out at once (`signout.rs`).

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::session::{self, Session};
use super::{internal, not_signed_in, signout, sockets};
use crate::app::error::{json_error, ApiPath};
use crate::app::state::App;
use crate::model::now_millis;

/// `GET /api/sessions`: the account's open sessions, most recent first.
pub async fn sessions(State(app): State<App>, current: Session) -> Response {
    let Some(me) = current.signed_in else {
        return not_signed_in();
    };
    match app
        .registry
        .store()
        .sessions(me.account.id, now_millis())
        .await
    {
        Ok(list) => Json(json!({
            "sessions": list.iter().map(|s| json!({
                "id": s.id,
                "agent": s.agent,
                "created_at": s.created_at,
                "last_seen": s.last_seen,
                "current": s.id == me.session,
            })).collect::<Vec<_>>(),
        }))
        .into_response(),
        Err(e) => internal(e),
    }
}

/// `DELETE /api/sessions/ID`: ends one of the account's sessions (this
/// one too: then the cookie is cleared).
pub async fn end_session(
    State(app): State<App>,
    current: Session,
    ApiPath(id): ApiPath<String>,
) -> Response {
    let Some(me) = current.signed_in else {
        return not_signed_in();
    };
    let no_session = || {
        json_error(
            StatusCode::NOT_FOUND,
            "no_session",
            format!("You have no open session {id}."),
        )
    };
    let Ok(number) = id.parse::<i64>() else {
        return no_session();
    };
    let done = app
        .registry
        .store()
        .end_session(me.account.id, number)
        .await;
    if let Ok(true) = done {
        signout::ended(&app, sockets::Ended::Session(number)).await;
    }
    match done {
        Ok(true) if number == me.session => {
            (StatusCode::NO_CONTENT, session::clear_cookies(current.tls)).into_response()
        }
        Ok(true) => StatusCode::NO_CONTENT.into_response(),
        Ok(false) => no_session(),
        Err(e) => internal(e),
    }
}

/// `DELETE /api/sessions`: logs out everywhere else; this session stays.
pub async fn end_other_sessions(State(app): State<App>, current: Session) -> Response {
    let Some(me) = current.signed_in else {
        return not_signed_in();
    };
    match app
        .registry
        .store()
        .end_other_sessions(me.account.id, me.session)
        .await
    {
        Ok(ended) => {
            tracing::info!(account = me.account.id, ended, "logged out elsewhere");
            let others = sockets::Ended::Account {
                account: me.account.id,
                except: Some(me.session),
            };
            signout::ended(&app, others).await;
            Json(json!({"ended": ended})).into_response()
        }
        Err(e) => internal(e),
    }
}
