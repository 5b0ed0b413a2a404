//! The daily check-in: coins once per UTC day, more for a streak.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::json;

use super::session::Session;
use super::{internal, not_signed_in};
use crate::app::state::App;
use crate::model::now_millis;

/// Days since 1970-01-01 (UTC) at `ms`.
pub fn utc_day(ms: u64) -> i64 {
    (ms / (24 * 60 * 60 * 1000)) as i64
}

/// `POST /api/checkin`: the daily check-in. Once per UTC day it adds
/// coins (more for each day of a streak, up to a cap); again the same
/// day, it adds nothing.
pub async fn check_in(State(app): State<App>, current: Session) -> Response {
    let Some(me) = current.signed_in else {
        return not_signed_in();
    };
    let now = now_millis();
    match app
        .registry
        .store()
        .check_in(me.account.id, utc_day(now), now)
        .await
    {
        Ok(c) => Json(json!({
            "added": c.added,
            "streak": c.streak,
            "coins": c.balance,
        }))
        .into_response(),
        Err(e) => internal(e),
    }
}
