//! Free accounts: register, log in, log out, "who am I".
//!
//! A session is the browser's own token (the one that identifies it in
//! rooms) bound to an account, so a guest who registers or logs in keeps
//! their seats and host rights: the token does not change. Passwords are
//! hashed with argon2id (PHC string, random salt) on the blocking pool,
//! at most one hash per core at a time; they and their hashes are never
//! logged or sent.

use argon2::password_hash::{PasswordHasher, PasswordVerifier};
use argon2::Argon2;
use axum::extract::rejection::JsonRejection;
use axum::extract::{Query, State};
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;
use tokio::sync::{OnceCell, Semaphore};

use crate::app::{body_error, json_error, App};
use crate::limits::{too_many, ClientIp};
use crate::room::{is_valid_token, new_token};
use crate::store::Account;

pub const USERNAME_MIN: usize = 3;
pub const USERNAME_MAX: usize = 20;
pub const PASSWORD_MIN: usize = 8;
pub const PASSWORD_MAX: usize = 128;
pub const EMAIL_MAX: usize = 254;

/// State shared by the account endpoints.
pub struct Accounts {
    /// One permit per core: argon2 is deliberately slow and memory-hungry,
    /// so a burst of logins queues instead of starving the rooms.
    hashing: Semaphore,
    /// A hash of a random password, verified against when the username
    /// does not exist, so an unknown name takes as long as a wrong
    /// password.
    decoy: OnceCell<Option<String>>,
}

impl Default for Accounts {
    fn default() -> Self {
        Accounts::new()
    }
}

impl Accounts {
    pub fn new() -> Accounts {
        let cores = std::thread::available_parallelism().map_or(1, |n| n.get());
        Accounts {
            hashing: Semaphore::new(cores),
            decoy: OnceCell::new(),
        }
    }

    async fn hash(&self, password: String) -> Option<String> {
        let _permit = self.hashing.acquire().await.ok()?;
        tokio::task::spawn_blocking(move || {
            Argon2::default()
                .hash_password(password.as_bytes())
                .ok()
                .map(|h| h.to_string())
        })
        .await
        .ok()
        .flatten()
    }

    async fn verify(&self, password: String, hash: String) -> bool {
        let Ok(_permit) = self.hashing.acquire().await else {
            return false;
        };
        tokio::task::spawn_blocking(move || {
            Argon2::default()
                .verify_password(password.as_bytes(), hash.as_str())
                .is_ok()
        })
        .await
        .unwrap_or(false)
    }

    async fn decoy(&self) -> Option<String> {
        self.decoy
            .get_or_init(|| self.hash(new_token()))
            .await
            .clone()
    }
}

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
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    email: Option<String>,
    #[serde(default)]
    token: Option<String>,
}

#[derive(Deserialize)]
pub struct Login {
    #[serde(default)]
    username: String,
    #[serde(default)]
    password: String,
    #[serde(default)]
    token: Option<String>,
}

#[derive(Deserialize)]
pub struct Logout {
    #[serde(default)]
    token: Option<String>,
}

#[derive(Deserialize)]
pub struct TokenQuery {
    #[serde(default)]
    token: Option<String>,
}

fn internal(e: impl std::fmt::Display) -> Response {
    tracing::error!(error = %e, "account store error");
    json_error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "Something went wrong on our side.",
    )
}

/// The browser's token if it sent a well-formed one, else a fresh one.
fn session_token(token: Option<String>) -> String {
    token
        .filter(|t| is_valid_token(t))
        .unwrap_or_else(new_token)
}

fn signed_in(status: StatusCode, account: &Account, token: &str) -> Response {
    (
        status,
        Json(json!({"username": account.username, "token": token})),
    )
        .into_response()
}

/// `POST /api/accounts`.
pub async fn register(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    body: Result<Json<Register>, JsonRejection>,
) -> Response {
    let Json(req) = match body {
        Ok(body) => body,
        Err(e) => return body_error(e),
    };
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
    let token = session_token(req.token);
    match store
        .create_account(&username, &hash, email.as_deref(), Some(&token))
        .await
    {
        Ok(Some(account)) => {
            tracing::info!(account = account.id, "account created");
            signed_in(StatusCode::CREATED, &account, &token)
        }
        Ok(None) => taken(),
        Err(e) => internal(e),
    }
}

fn taken() -> Response {
    json_error(
        StatusCode::CONFLICT,
        "username_taken",
        "That username is taken; pick another.",
    )
}

/// `POST /api/login`.
pub async fn login(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    body: Result<Json<Login>, JsonRejection>,
) -> Response {
    let Json(req) = match body {
        Ok(body) => body,
        Err(e) => return body_error(e),
    };
    if let Err(wait) = app.limits.failed_logins.check(ip) {
        return too_many(wait, "Too many failed logins from your address");
    }
    let store = app.registry.store();
    // Malformed names and passwords get the same answer as wrong ones.
    let credentials = match check_username(&req.username) {
        Ok(name) if req.password.chars().count() <= PASSWORD_MAX => {
            match store.credentials(&name).await {
                Ok(c) => c,
                Err(e) => return internal(e),
            }
        }
        _ => None,
    };
    let account = match credentials {
        Some(c) => app
            .accounts
            .verify(req.password, c.password_hash)
            .await
            .then_some(c.account),
        None => {
            // Spend the same time as a wrong password.
            if let Some(decoy) = app.accounts.decoy().await {
                app.accounts.verify(req.password, decoy).await;
            }
            None
        }
    };
    let Some(account) = account else {
        app.limits.failed_logins.spend(ip);
        return json_error(
            StatusCode::UNAUTHORIZED,
            "bad_login",
            "Wrong username or password.",
        );
    };
    let token = session_token(req.token);
    match store.start_session(&token, account.id).await {
        Ok(()) => {
            tracing::info!(account = account.id, "logged in");
            signed_in(StatusCode::OK, &account, &token)
        }
        Err(e) => internal(e),
    }
}

/// `POST /api/logout`: ends the session (204 even if there was none).
pub async fn logout(State(app): State<App>, body: Result<Json<Logout>, JsonRejection>) -> Response {
    let Json(req) = match body {
        Ok(body) => body,
        Err(e) => return body_error(e),
    };
    if let Some(token) = req.token.filter(|t| is_valid_token(t)) {
        if let Err(e) = app.registry.store().end_session(&token).await {
            return internal(e);
        }
    }
    StatusCode::NO_CONTENT.into_response()
}

/// `GET /api/me` with `Authorization: Bearer TOKEN` (or `?token=`).
pub async fn me(
    State(app): State<App>,
    headers: HeaderMap,
    Query(query): Query<TokenQuery>,
) -> Response {
    let bearer = crate::app::bearer_token(&headers);
    let token = bearer.or(query.token).filter(|t| is_valid_token(t));
    let account = match token {
        Some(token) => match app.registry.store().session_account(&token).await {
            Ok(account) => account,
            Err(e) => return internal(e),
        },
        None => None,
    };
    match account {
        Some(a) => Json(json!({
            "username": a.username,
            "name": a.display_name,
            "email": a.email,
        }))
        .into_response(),
        None => json_error(
            StatusCode::UNAUTHORIZED,
            "not_signed_in",
            "You are not signed in.",
        ),
    }
}

#[cfg(test)]
mod tests;
