//! A password change: the current password checked as a login checks it
//! (against the same failed-login allowance), then every other session
//! ends.

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use serde::Deserialize;

use super::session::Session;
use super::{
    check_password, internal, not_signed_in, password_matches, signout, sockets, PASSWORD_MAX,
};
use crate::app::error::{json_error, ApiJson};
use crate::app::state::App;
use crate::limits::client_ip::{too_many, ClientIp};

#[derive(Deserialize)]
pub struct ChangePassword {
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    current: String,
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    new: String,
}

/// `POST /api/password`: a new password, given the current one; every
/// other session ends.
pub async fn change_password(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    current: Session,
    ApiJson(req): ApiJson<ChangePassword>,
) -> Response {
    let Some(me) = current.signed_in else {
        return not_signed_in();
    };
    if let Err(m) = check_password(&req.new) {
        return json_error(StatusCode::BAD_REQUEST, "bad_password", m);
    }
    // Two password hashes (the current one checked, the new one made):
    // in the allowance of password checks per address and per account,
    // right or wrong, as a login is (an attack round changed a password
    // to itself 8 times a second, slowing everyone's logins).
    let both = (ip, Some(me.account.id));
    if let Err(wait) = app.limits.logins.take_both(both.0, both.1) {
        return too_many(
            wait,
            "Too many password checks from your address or account",
        );
    }
    // Held while checked, as for a login.
    if let Err(wait) = app.limits.failed_logins.take_both(both.0, both.1) {
        return too_many(
            wait,
            "Too many wrong passwords from your address or account",
        );
    }
    let store = app.registry.store();
    let hash = match store.credentials_by_id(me.account.id).await {
        Ok(c) => c.map(|c| c.password_hash),
        Err(e) => {
            app.limits.failed_logins.give_back_both(both.0, both.1);
            return internal(e);
        }
    };
    let ok = req.current.chars().count() <= PASSWORD_MAX
        && password_matches(&app, req.current, hash).await;
    if !ok {
        return json_error(
            StatusCode::FORBIDDEN,
            "wrong_password",
            "That is not your current password.",
        );
    }
    app.limits.failed_logins.give_back_both(both.0, both.1);
    let Some(hash) = app.accounts.hash(req.new).await else {
        return internal("password hashing failed");
    };
    match store
        .change_password(me.account.id, &hash, me.session)
        .await
    {
        Ok(()) => {
            tracing::info!(account = me.account.id, "password changed");
            let others = sockets::Ended::Account {
                account: me.account.id,
                except: Some(me.session),
            };
            signout::ended(&app, others).await;
            StatusCode::NO_CONTENT.into_response()
        }
        Err(e) => internal(e),
    }
}
