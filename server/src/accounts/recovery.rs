//! Email on an account: add, change or remove it (a link confirms a new
//! address), and "forgot password" (a one-time link, valid one hour, to the
//! confirmed address). Every link is a fresh 128-bit token kept only as its
//! hash (`store/recovery.rs`). A recovery request gets the same answer
//! whether or not the address is known, and the mail leaves in the
//! background, so neither the answer nor its timing tells. Requests are
//! limited per client address (`limits.mail`) and per account (a few
//! links an hour).

use axum::extract::State;
use axum::http::{HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde::Deserialize;
use serde_json::json;

use super::session::Opening;
use super::{check_email, check_password, internal, not_signed_in, session};
use super::{Session, PASSWORD_MAX};
use crate::app::error::{json_error, ApiJson};
use crate::app::hosts::Base;
use crate::app::state::App;
use crate::limits::client_ip::{too_many, ClientIp};
use crate::mail::Mail;
use crate::model::now_millis;
use crate::model::{is_valid_token, new_token};
use crate::store::{LinkPurpose, NewLink};

/// A recovery link works for an hour.
pub const RECOVER_TTL_MS: u64 = 60 * 60 * 1000;
/// A confirmation link works for a day.
pub const CONFIRM_TTL_MS: u64 = 24 * 60 * 60 * 1000;
/// Links of one kind an account may be sent in an hour.
pub const LINKS_PER_HOUR: i64 = 3;

#[derive(Deserialize)]
pub struct EmailBody {
    #[serde(default)]
    email: Option<String>,
}

#[derive(Deserialize)]
pub struct TokenBody {
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    token: String,
}

#[derive(Deserialize)]
pub struct ResetBody {
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    token: String,
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    password: String,
}

fn bad_link() -> Response {
    json_error(
        StatusCode::BAD_REQUEST,
        "bad_link",
        "This link has expired or was already used; ask for a new one.",
    )
}

/// Sends the link that confirms `email` for the account; with `change`,
/// `email` becomes the account's unconfirmed address in the same
/// transaction. `Ok(false)`, and nothing changed, when the account was
/// sent enough of them this hour.
async fn send_confirmation(
    app: &App,
    base: &str,
    account_id: i64,
    username: &str,
    email: &str,
    change: bool,
) -> Result<bool, Response> {
    let secret = new_token();
    let now = now_millis();
    let link = NewLink {
        purpose: LinkPurpose::Confirm,
        account_id,
        email,
        secret: &secret,
        now,
        expires_at: now + CONFIRM_TTL_MS,
        per_hour: LINKS_PER_HOUR,
    };
    let store = app.registry.store();
    let stored = if change {
        store.change_email(link).await
    } else {
        store.add_link(link).await
    }
    .map_err(internal)?;
    if stored {
        let link = format!("{base}/account#confirm={secret}");
        let mail = Mail {
            to: email.to_string(),
            subject: "Confirm your email address".into(),
            body: format!(
                "Hello {username},\n\nTo use this address to recover your account, open this link within a day:\n\n{link}\n\nIf you did not ask for this, ignore this mail.\n"
            ),
            link,
        };
        let mailer = app.mailer.clone();
        tokio::spawn(async move { mailer.send(mail).await });
    }
    Ok(stored)
}

/// After a registration with an email: its confirmation link.
pub async fn confirm_new_account(
    app: &App,
    base: &str,
    account_id: i64,
    username: &str,
    email: &str,
) {
    if let Err(e) = send_confirmation(app, base, account_id, username, email, false).await {
        tracing::warn!(status = %e.status(), "could not send the confirmation link");
    }
}

/// `POST /api/email` `{"email": "…"}`: a new address, confirmed through a
/// link sent to it; empty or `null` removes the email.
pub async fn set_email(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    current: Session,
    Base(base): Base,
    ApiJson(req): ApiJson<EmailBody>,
) -> Response {
    let Some(me) = current.signed_in else {
        return not_signed_in();
    };
    let email = match check_email(req.email.as_deref()) {
        Ok(e) => e,
        Err(m) => return json_error(StatusCode::BAD_REQUEST, "bad_email", m),
    };
    let store = app.registry.store();
    let Some(email) = email else {
        return match store.set_email(me.account.id, None).await {
            Ok(()) => Json(json!({"email": null, "email_confirmed": false})).into_response(),
            Err(e) => internal(e),
        };
    };
    if let Err(wait) = app.limits.mail.take(ip) {
        return too_many(wait, "Too many mails asked for from your address");
    }
    // The address changes only with its link stored: a refusal for the
    // hour's links changes nothing.
    let (id, username) = (me.account.id, &me.account.username);
    match send_confirmation(&app, &base, id, username, &email, true).await {
        Ok(true) => (
            StatusCode::ACCEPTED,
            Json(json!({"email": email, "email_confirmed": false})),
        )
            .into_response(),
        Ok(false) => too_many(
            std::time::Duration::from_secs(3600),
            "Enough confirmation mails for this account this hour",
        ),
        Err(e) => e,
    }
}

/// `POST /api/email/confirm` `{"token": "…"}`: the link from the mail.
pub async fn confirm_email(State(app): State<App>, ApiJson(req): ApiJson<TokenBody>) -> Response {
    if !is_valid_token(&req.token) {
        return bad_link();
    }
    match app
        .registry
        .store()
        .confirm_email(&req.token, now_millis())
        .await
    {
        Ok(Some(account)) => {
            tracing::info!(account = account.id, "email confirmed");
            Json(json!({"username": account.username, "email": account.email, "email_confirmed": true}))
                .into_response()
        }
        Ok(None) => bad_link(),
        Err(e) => internal(e),
    }
}

/// `POST /api/recover` `{"email": "…"}`: a recovery link to each account
/// whose confirmed address it is. The same answer whatever happens.
pub async fn recover(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    Base(base): Base,
    ApiJson(req): ApiJson<EmailBody>,
) -> Response {
    let email = match check_email(req.email.as_deref()) {
        Ok(Some(e)) => e,
        Ok(None) | Err(_) => {
            return json_error(
                StatusCode::BAD_REQUEST,
                "bad_email",
                "Type the email address of your account.",
            )
        }
    };
    if let Err(wait) = app.limits.mail.take(ip) {
        return too_many(wait, "Too many mails asked for from your address");
    }
    // The lookup and the mail run after the answer: an unknown address
    // and a known one look alike, in words and in time.
    tokio::spawn(async move {
        if let Err(e) = send_recovery(&app, &base, &email).await {
            tracing::error!(error = %e, "recovery failed");
        }
    });
    (
        StatusCode::ACCEPTED,
        Json(json!({
            "message": "If an account has this confirmed address, a link to choose a new password is on its way. It works once, for one hour."
        })),
    )
        .into_response()
}

async fn send_recovery(app: &App, base: &str, email: &str) -> Result<(), crate::store::StoreError> {
    let store = app.registry.store();
    for account in store.accounts_by_email(email).await? {
        // The address as the account stored it, not as the request typed
        // it (the lookup ignores case; mail servers need not).
        let email = account.email.as_deref().unwrap_or(email);
        let secret = new_token();
        let now = now_millis();
        let stored = store
            .add_link(NewLink {
                purpose: LinkPurpose::Recover,
                account_id: account.id,
                email,
                secret: &secret,
                now,
                expires_at: now + RECOVER_TTL_MS,
                per_hour: LINKS_PER_HOUR,
            })
            .await?;
        if !stored {
            tracing::info!(account = account.id, "recovery limited for this account");
            continue;
        }
        let link = format!("{base}/reset#{secret}");
        app.mailer
            .send(Mail {
                to: email.to_string(),
                subject: "Choose a new password".into(),
                body: format!(
                    "Hello {},\n\nSomeone (hopefully you) asked to recover your account. Open this link within one hour to choose a new password; it works once:\n\n{link}\n\nIf it was not you, ignore this mail: your password stays as it is.\n",
                    account.username
                ),
                link,
            })
            .await;
    }
    Ok(())
}

/// `POST /api/reset` `{"token": "…", "password": "…"}`: the recovery
/// link's new password. Every session of the account ends, and this
/// browser is signed in with a new one.
pub async fn reset(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    current: Session,
    headers: HeaderMap,
    ApiJson(req): ApiJson<ResetBody>,
) -> Response {
    if let Err(m) = check_password(&req.password) {
        return json_error(StatusCode::BAD_REQUEST, "bad_password", m);
    }
    if !is_valid_token(&req.token) || req.password.chars().count() > PASSWORD_MAX {
        return bad_link();
    }
    // The new password's hash is a password check's work: in the
    // address's allowance of them, as a login is, and spent only on a
    // link that works (an attack round starved every login with bad
    // links, each a hash).
    if let Err(wait) = app.limits.logins.take(ip) {
        return too_many(wait, "Too many password checks from your address");
    }
    match app
        .registry
        .store()
        .recovery_link_valid(&req.token, now_millis())
        .await
    {
        Ok(true) => {}
        Ok(false) => return bad_link(),
        Err(e) => return internal(e),
    }
    let Some(hash) = app.accounts.hash(req.password).await else {
        return internal("password hashing failed");
    };
    let opening = Opening::for_browser(&headers);
    match app
        .registry
        .store()
        .reset_password(&req.token, &hash, opening.at(now_millis()))
        .await
    {
        Ok(Some((account, session))) => {
            tracing::info!(
                account = account.id,
                "password reset through a recovery link"
            );
            let others = super::sockets::Ended::Account {
                account: account.id,
                except: Some(session),
            };
            super::signout::ended(&app, others).await;
            (
                session::set_cookies(&opening.secret, current.tls),
                Json(json!({"username": account.username})),
            )
                .into_response()
        }
        Ok(None) => bad_link(),
        Err(e) => internal(e),
    }
}
