//! Challenges: a signed-in player asks another, by username, to a game
//! with options; the other accepts (a room is made where both sit, its
//! first game starting once both are online) or declines, or the
//! challenger cancels. Pages learn of new challenges and answers by
//! polling `GET /api/challenges` (small, indexed, with an `ETag`), which
//! works the same on every node.
//!
//! Limits: [`MAX_OPEN`] open challenges per challenger, and
//! `limits.challenges` per client address.

use axum::extract::State;
use axum::http::{header, HeaderMap, HeaderValue, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use rand::RngExt;
use serde::Deserialize;
use serde_json::{json, Value};

use super::{internal, not_signed_in, Session};
use crate::app::error::{json_error, registry_error, ApiJson, ApiPath};
use crate::app::state::App;
use crate::games::{GameKind, GameOptions, SentOptions};
use crate::limits::client_ip::ClientIp;
use crate::model::records::AccountRef;
use crate::model::{is_valid_token, now_millis};
use crate::room::Invitee;
use crate::store::challenges::Inserted;
use crate::store::{Challenge, NewChallenge, Party};

/// Open challenges one account may have made at a time.
pub const MAX_OPEN: i64 = 10;

#[derive(Deserialize)]
pub struct ChallengeBody {
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    to: String,
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    game: String,
    /// Read with a key given twice kept as a refusal (`bad_options`).
    #[serde(default)]
    options: SentOptions,
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    rated: bool,
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    token: String,
}

#[derive(Deserialize, Default)]
pub struct TokenBody {
    #[serde(default, deserialize_with = "crate::app::error::default_if_null")]
    token: String,
}

fn refuse(status: StatusCode, code: &str, message: impl Into<String>) -> Response {
    json_error(status, code, message)
}

fn too_many_challenges(message: String, retry_after: Option<u64>) -> Response {
    let mut r = refuse(
        StatusCode::TOO_MANY_REQUESTS,
        "too_many_challenges",
        message,
    );
    if let Some(secs) = retry_after {
        r.headers_mut()
            .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    }
    r
}

fn bad_token() -> Response {
    refuse(
        StatusCode::BAD_REQUEST,
        "no_token",
        "Send this browser's token (it seats you in the room).",
    )
}

fn no_challenge() -> Response {
    refuse(
        StatusCode::NOT_FOUND,
        "no_challenge",
        "There is no such open challenge for you (it may have been answered or expired).",
    )
}

/// `POST /api/challenges` `{"to","game","options","rated","token"}`.
pub async fn create(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    session: Session,
    ApiJson(req): ApiJson<ChallengeBody>,
) -> Response {
    let Some(me) = session.signed_in else {
        return not_signed_in();
    };
    if !is_valid_token(&req.token) {
        return bad_token();
    }
    let options = match GameKind::parse(&req.game)
        .and_then(|kind| {
            let sent = req.options.json()?;
            GameOptions::parse_for_play(kind, sent)
        })
        .and_then(|o| crate::room::seated::check(&o, 2).map(|()| o))
    {
        Ok(o) => o,
        Err(m) => return refuse(StatusCode::BAD_REQUEST, "bad_options", m),
    };
    let store = app.registry.store();
    let to = match store.party(req.to.trim()).await {
        Ok(Some(p)) => p,
        Ok(None) => {
            return refuse(
                StatusCode::NOT_FOUND,
                "no_player",
                format!(
                    "There is no player {:?}.",
                    req.to.chars().take(40).collect::<String>()
                ),
            )
        }
        Err(e) => return internal(e),
    };
    if to.id == me.account.id {
        return refuse(
            StatusCode::BAD_REQUEST,
            "self_challenge",
            "You cannot challenge yourself.",
        );
    }
    if let Err(wait) = app.limits.challenges.take_both(ip, Some(me.account.id)) {
        let secs = wait.as_secs_f64().ceil().max(1.0) as u64;
        return too_many_challenges(
            format!("Too many challenges from your address or account; try again in {secs} s."),
            Some(secs),
        );
    }
    let now = now_millis();
    let new = NewChallenge {
        from: me.account.id,
        to: to.id,
        game: options.kind().name(),
        options: &options.to_json(),
        rated: req.rated,
        from_token: &req.token,
        now,
    };
    let inserted = store.insert_challenge(&new, MAX_OPEN).await;
    if !matches!(inserted, Ok(Inserted::Id(_))) {
        // Refused by the open count (or failed): no challenge was made,
        // so none of the hour's allowance is spent.
        app.limits
            .challenges
            .give_back_both(ip, Some(me.account.id));
    }
    match inserted {
        Ok(Inserted::Id(id)) => {
            tracing::info!(id, game = new.game, "challenge made");
            (StatusCode::CREATED, Json(json!({"id": id}))).into_response()
        }
        Ok(Inserted::TooMany) => too_many_challenges(
            format!("You have {MAX_OPEN} open challenges already: cancel one or wait for answers."),
            None,
        ),
        Ok(Inserted::AlreadyOpen) => too_many_challenges(
            format!(
                "You have a challenge open to {} already: cancel it or wait for an answer.",
                to.username
            ),
            None,
        ),
        Err(e) => internal(e),
    }
}

fn party_json(p: &Party) -> Value {
    json!({"username": p.username, "name": p.display_name})
}

fn challenge_json(c: &Challenge) -> Value {
    json!({
        "id": c.id,
        "from": party_json(&c.from),
        "to": party_json(&c.to),
        "game": c.game,
        "options": c.options,
        "rated": c.rated,
        "status": c.status,
        "code": c.room_code,
        "created_at": c.created_at,
        "expires_at": c.expires_at,
    })
}

/// `GET /api/challenges`: `{"incoming":[…],"outgoing":[…]}`, with an
/// `ETag`; `304` when `If-None-Match` names it.
pub async fn list(State(app): State<App>, session: Session, headers: HeaderMap) -> Response {
    let Some(me) = session.signed_in else {
        return not_signed_in();
    };
    let all = match app
        .registry
        .store()
        .challenges_of(me.account.id, now_millis())
        .await
    {
        Ok(all) => all,
        Err(e) => return internal(e),
    };
    let (incoming, outgoing): (Vec<_>, Vec<_>) = all.iter().partition(|c| c.to.id == me.account.id);
    let body = json!({
        "incoming": incoming.iter().map(|c| challenge_json(c)).collect::<Vec<_>>(),
        "outgoing": outgoing.iter().map(|c| challenge_json(c)).collect::<Vec<_>>(),
    })
    .to_string();
    let tag = format!("\"{}\"", &crate::model::TokenHash::of(&body).as_str()[..16]);
    let private = (
        header::CACHE_CONTROL,
        HeaderValue::from_static("private, no-cache"),
    );
    let etag = HeaderValue::from_str(&tag).unwrap_or(HeaderValue::from_static("\"\""));
    let matches = crate::pages::none_match(&headers, &tag);
    if matches {
        return (StatusCode::NOT_MODIFIED, [private, (header::ETAG, etag)]).into_response();
    }
    (
        [
            private,
            (header::ETAG, etag),
            (
                header::CONTENT_TYPE,
                HeaderValue::from_static("application/json"),
            ),
        ],
        body,
    )
        .into_response()
}

fn account_ref(p: &Party) -> AccountRef {
    AccountRef {
        id: p.id,
        username: p.username.clone(),
        display_name: p.display_name.clone(),
    }
}

/// `POST /api/challenges/ID/accept` `{"token"}`: `{"code"}` of the room
/// made for both.
pub async fn accept(
    State(app): State<App>,
    session: Session,
    ApiPath(id): ApiPath<String>,
    ApiJson(req): ApiJson<TokenBody>,
) -> Response {
    let Some(me) = session.signed_in else {
        return not_signed_in();
    };
    if !is_valid_token(&req.token) {
        return bad_token();
    }
    let Ok(id) = id.parse::<i64>() else {
        return no_challenge();
    };
    let store = app.registry.store();
    let now = now_millis();
    let c = match store
        .answer_challenge(id, me.account.id, "accepted", now)
        .await
    {
        Ok(Some(c)) => c,
        Ok(None) => return no_challenge(),
        Err(e) => return internal(e),
    };
    let parsed = GameKind::parse(&c.game).and_then(|k| GameOptions::parse_for_play(k, &c.options));
    let options = match parsed {
        Ok(o) => o,
        Err(m) => return refuse(StatusCode::BAD_REQUEST, "bad_options", m),
    };
    let mut players = vec![
        Invitee {
            token: c.from_token.clone(),
            name: c.from.display_name.clone(),
            account: Some(account_ref(&c.from)),
        },
        Invitee {
            token: req.token.clone(),
            name: c.to.display_name.clone(),
            account: Some(account_ref(&c.to)),
        },
    ];
    if rand::rng().random_bool(0.5) {
        players.swap(0, 1);
    }
    match app.registry.create_seated(&options, c.rated, players).await {
        Ok(code) => {
            if let Err(e) = store.set_challenge_room(id, &code).await {
                return internal(e);
            }
            tracing::info!(id, room = %code, "challenge accepted");
            Json(json!({"code": code})).into_response()
        }
        Err(e) => {
            // The server could not make the room: the challenge stays open.
            let _ = store.reopen_challenge(id, &c.from_token).await;
            registry_error(e)
        }
    }
}

/// `POST /api/challenges/ID/decline`.
pub async fn decline(
    State(app): State<App>,
    session: Session,
    ApiPath(id): ApiPath<String>,
) -> Response {
    answer(app, session, id, "declined").await
}

/// `POST /api/challenges/ID/cancel` (the challenger).
pub async fn cancel(
    State(app): State<App>,
    session: Session,
    ApiPath(id): ApiPath<String>,
) -> Response {
    answer(app, session, id, "cancelled").await
}

async fn answer(app: App, session: Session, id: String, status: &str) -> Response {
    let Some(me) = session.signed_in else {
        return not_signed_in();
    };
    let Ok(id) = id.parse::<i64>() else {
        return no_challenge();
    };
    match app
        .registry
        .store()
        .answer_challenge(id, me.account.id, status, now_millis())
        .await
    {
        Ok(Some(_)) => Json(json!({"id": id, "status": status})).into_response(),
        Ok(None) => no_challenge(),
        Err(e) => internal(e),
    }
}
