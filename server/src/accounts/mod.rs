//! Free accounts: register, log in, log out, "who am I"; the account's
//! open sessions (`open_sessions.rs`), a password change (`password.rs`)
//! and the daily check-in (`checkin.rs`) beside them.
//!
//! A login session is a secret of its own in an `HttpOnly` cookie
//! (`session.rs`), apart from the browser token that identifies the
//! browser in rooms: a guest who registers or logs in keeps that token,
//! and so their seats and host rights, while page scripts never see the
//! session. Passwords are hashed with argon2id (PHC string, random salt)
//! on the blocking pool, at most one hash per core at a time; they and
//! their hashes are never logged or sent.

pub mod challenges;
pub mod checkin;
pub mod hashing;
pub mod open_sessions;
pub mod password;
pub mod recovery;
pub mod session;
pub mod shop;
pub mod signout;
pub mod sockets;

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use crate::app::error::{json_error, ApiJson};
use crate::app::hosts::Base;
use crate::app::state::App;
use crate::limits::client_ip::{too_many, ClientIp};
use crate::limits::Who;
use crate::model::now_millis;
use crate::model::{is_valid_token, new_token};
use crate::store::{Account, SignedIn};
use checkin::utc_day;
use session::Opening;
pub use session::Session;

pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 20;
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;
pub const EMAIL_MAX: usize = 254;

/// A username: 3-20 characters of `[A-Za-z0-9_-]`.
pub fn check_username(input: &str) -> Result<String, String> {
    let name = input.trim();
    let len = name.chars().count();
    if !(USERNAME_MIN..=USERNAME_MAX).contains(&len) {
        return Err(format!(
            "A username has {USERNAME_MIN} to {USERNAME_MAX} characters."
        ));
    }
    if !name
        .bytes()
        .all(|b| b.is_ascii_alphanumeric() || b == b'_' || b == b'-')
    {
        return Err("A username may only use letters A-Z, digits, _ and -.".into());
    }
    Ok(name.to_string())
}

/// A password: 8-128 characters, anything else goes.
pub fn check_password(password: &str) -> Result<(), String> {
    let len = password.chars().count();
    if len < PASSWORD_MIN {
        return Err(format!(
            "A password needs at least {PASSWORD_MIN} characters."
        ));
    }
    if len > PASSWORD_MAX {
        return Err(format!(
            "A password can have at most {PASSWORD_MAX} characters."
        ));
    }
    Ok(())
}

/// An optional email, loosely checked: one `@` with text on both sides,
/// no spaces, control or invisible format characters, at most 254
/// characters. Empty means none.
pub fn check_email(input: Option<&str>) -> Result<Option<String>, String> {
    let Some(email) = input.map(str::trim).filter(|e| !e.is_empty()) else {
        return Ok(None);
    };
    let ok = email.len() <= EMAIL_MAX
        && email.matches('@').count() == 1
        && !email.starts_with('@')
        && !email.ends_with('@')
        && !email
            .chars()
            .any(|c| c.is_whitespace() || c.is_control() || crate::validate::is_format(c));
    if ok {
        Ok(Some(email.to_string()))
    } else {
        Err("That email address does not look right (or leave it empty).".into())
    }
}

#[derive(Deserialize)]
pub struct Register {
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    username: String,
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    password: String,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    token: Option<String>,
}

#[derive(Deserialize)]
pub struct Login {
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    username: String,
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    password: String,
    #[serde(default)]
    token: Option<String>,
}

pub(crate) fn internal(e: impl std::fmt::Display) -> Response {
    tracing::error!(error = %e, "account store error");
    json_error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "Something went wrong on our side.",
    )
}

/// `401 not_signed_in`.
pub fn not_signed_in() -> Response {
    json_error(
        StatusCode::UNAUTHORIZED,
        "not_signed_in",
        "You are not signed in.",
    )
}

/// The browser's token if it sent a well-formed one, else a fresh one.
fn browser_token(token: Option<String>) -> String {
    token
        .filter(|t| is_valid_token(t))
        .unwrap_or_else(new_token)
}

/// The answer to a registration or login: the account's name, the
/// browser's token, and the new session's cookie.
fn signed_in(
    status: StatusCode,
    account: &Account,
    token: &str,
    secret: &str,
    tls: bool,
) -> Response {
    (
        status,
        session::set_cookies(secret, tls),
        Json(json!({"username": account.username, "token": token})),
    )
        .into_response()
}

/// `POST /api/accounts`.
pub async fn register(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    current: Session,
    Base(base): Base,
    headers: HeaderMap,
    ApiJson(req): ApiJson<Register>,
) -> Response {
    let username = match check_username(&req.username) {
        Ok(u) => u,
        Err(m) => return json_error(StatusCode::BAD_REQUEST, "bad_username", m),
    };
    if let Err(m) = check_password(&req.password) {
        return json_error(StatusCode::BAD_REQUEST, "bad_password", m);
    }
    let email = match check_email(req.email.as_deref()) {
        Ok(e) => e,
        Err(m) => return json_error(StatusCode::BAD_REQUEST, "bad_email", m),
    };
    // Counted once the form is valid, before the name lookup and the hash.
    if let Err(wait) = app.limits.registrations.take(ip) {
        tracing::debug!(%ip, "registration rate limited");
        return too_many(wait, "Too many new accounts from your address");
    }
    let store = app.registry.store();
    // Refuse a taken name before paying for a hash (the insert below
    // still decides races).
    match store.credentials(&username).await {
        Ok(Some(_)) => return taken(),
        Ok(None) => {}
        Err(e) => return internal(e),
    }
    let Some(hash) = app.accounts.hash(req.password).await else {
        return internal("password hashing failed");
    };
    let token = browser_token(req.token);
    let opening = Opening::for_browser(&headers);
    let now = now_millis();
    match store
        .create_account(
            &username,
            &hash,
            email.as_deref(),
            Some(opening.at(now)),
            now,
        )
        .await
    {
        Ok(Some((account, _))) => {
            tracing::info!(account = account.id, "account created");
            if let Some(email) = &account.email {
                recovery::confirm_new_account(&app, &base, account.id, &username, email).await;
            }
            end_replaced(&app, &current).await;
            signed_in(
                StatusCode::CREATED,
                &account,
                &token,
                &opening.secret,
                current.tls,
            )
        }
        Ok(None) => taken(),
        Err(e) => internal(e),
    }
}

/// A browser that signs in again ends the session it had (and signs
/// out the sockets it opened).
async fn end_replaced(app: &App, current: &Session) {
    if let Some(secret) = &current.secret {
        if let Err(e) = app.registry.store().end_session_by_secret(secret).await {
            tracing::warn!(error = %e, "could not end the replaced session");
        }
    }
    if let Some(me) = &current.signed_in {
        signout::ended(app, sockets::Ended::Session(me.session)).await;
    }
}

fn taken() -> Response {
    json_error(
        StatusCode::CONFLICT,
        "username_taken",
        "That username is taken; pick another.",
    )
}

/// Checks `password` against `hash`, or against a decoy when there is no
/// account, so both take the same time.
pub(super) async fn password_matches(app: &App, password: String, hash: Option<String>) -> bool {
    match hash {
        Some(hash) => app.accounts.verify(password, hash).await,
        None => {
            if let Some(decoy) = app.accounts.decoy().await {
                app.accounts.verify(password, decoy).await;
            }
            false
        }
    }
}

/// `POST /api/login`.
pub async fn login(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    current: Session,
    headers: HeaderMap,
    ApiJson(req): ApiJson<Login>,
) -> Response {
    // Every login is a password check: bounded per address, right or
    // wrong. A failed-login token is held while the password is checked,
    // and given back if it was right: concurrent guesses cannot all pass
    // the check.
    if let Err(wait) = app.limits.logins.take(ip) {
        return too_many(wait, "Too many logins from your address");
    }
    if let Err(wait) = app.limits.failed_logins.take(ip) {
        return too_many(wait, "Too many failed logins from your address");
    }
    let store = app.registry.store();
    // Malformed names and passwords get the same answer as wrong ones.
    let credentials = match check_username(&req.username) {
        Ok(name) if req.password.chars().count() <= PASSWORD_MAX => {
            match store.credentials(&name).await {
                Ok(c) => c,
                Err(e) => {
                    app.limits.failed_logins.give_back(ip);
                    return internal(e);
                }
            }
        }
        _ => None,
    };
    let (account, hash) = match credentials {
        Some(c) => (Some(c.account), Some(c.password_hash)),
        None => (None, None),
    };
    // The same bounds per account, whatever addresses the guesses come
    // from (an unknown name is checked against a decoy: no account).
    if let Some(id) = account.as_ref().map(|a| Who::Account(a.id)) {
        if let Err(wait) = app.limits.logins.take(id) {
            app.limits.failed_logins.give_back(ip);
            return too_many(wait, "Too many logins to this account");
        }
        if let Err(wait) = app.limits.failed_logins.take(id) {
            app.limits.failed_logins.give_back(ip);
            return too_many(wait, "Too many failed logins to this account");
        }
    }
    let ok = password_matches(&app, req.password, hash).await;
    let Some(account) = account.filter(|_| ok) else {
        return json_error(
            StatusCode::UNAUTHORIZED,
            "bad_login",
            "Wrong username or password.",
        );
    };
    app.limits
        .failed_logins
        .give_back_both(ip, Some(account.id));
    let opening = Opening::for_browser(&headers);
    match store
        .start_session(opening.at(now_millis()), account.id)
        .await
    {
        Ok((_, evicted)) => {
            tracing::info!(account = account.id, "logged in");
            end_replaced(&app, &current).await;
            // Past the account's sessions, the least recently used ended.
            for session in evicted {
                signout::ended(&app, sockets::Ended::Session(session)).await;
            }
            let token = browser_token(req.token);
            signed_in(
                StatusCode::OK,
                &account,
                &token,
                &opening.secret,
                current.tls,
            )
        }
        Err(e) => internal(e),
    }
}

/// `POST /api/logout`: ends the cookie's session and clears the cookie
/// (204 even if there was none).
pub async fn logout(State(app): State<App>, current: Session) -> Response {
    if let Some(secret) = &current.secret {
        if let Err(e) = app.registry.store().end_session_by_secret(secret).await {
            return internal(e);
        }
    }
    if let Some(me) = &current.signed_in {
        signout::ended(&app, sockets::Ended::Session(me.session)).await;
    }
    (StatusCode::NO_CONTENT, session::clear_cookies(current.tls)).into_response()
}

/// `GET /api/me`: the signed-in account, its coins and its chosen
/// cosmetics. The cookie is
/// sent again, so a session in use keeps its 30 days in the browser too.
pub async fn me(State(app): State<App>, current: Session) -> Response {
    let (Some(SignedIn { account: a, .. }), Some(secret)) = (&current.signed_in, &current.secret)
    else {
        return not_signed_in();
    };
    let store = app.registry.store();
    let ((coins, last_day, streak), chosen) =
        match tokio::try_join!(store.coins(a.id), store.chosen(a.id)) {
            Ok(c) => c,
            Err(e) => return internal(e),
        };
    (
        session::set_cookies(secret, current.tls),
        Json(json!({
            "username": a.username,
            "name": a.display_name,
            "email": a.email,
            "email_confirmed": a.email_confirmed,
            "coins": coins,
            "checked_in_today": last_day == utc_day(now_millis()),
            "streak": streak,
            "cosmetics": shop::chosen_map(&chosen),
        })),
    )
        .into_response()
}

#[cfg(test)]
mod tests;
