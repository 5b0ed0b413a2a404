//! The login session cookie: `session=SECRET; Path=/; HttpOnly;
//! SameSite=Lax; Max-Age=2592000` (and `Secure` over TLS). The secret is
//! 128 random bits; the store keeps only its hash. Page scripts never see
//! it, and cross-site requests never carry it except top-level
//! navigations (`Lax`), which change nothing.
//!
//! Beside it goes `signed_in=1` (the same path, life and flags, but
//! readable by the page's scripts, and no secret in it): it only tells a
//! page that asking `GET /api/me` is worth it, so a guest's pages ask
//! nothing whose answer would be a `401`. Both are set and cleared
//! together.
//!
//! Looking a session up writes its `last_seen`, so every lookup spends
//! one of the client address's `Limits::sessions` first, and one of the
//! account's once it is known ([`look_up`]): past either, `429
//! rate_limited`, and the request goes no further.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue};
use axum::response::{AppendHeaders, Response};
use cookie::{Cookie, SameSite};

use crate::app::state::App;
use crate::limits::client_ip::too_many;
use crate::limits::Who;
use crate::model::now_millis;
use crate::model::{is_valid_token, new_token};
use crate::store::{NewSession, SignedIn, StoreError, SESSION_IDLE_MS};

/// The cookie's name.
pub const COOKIE: &str = "session";

/// The request's session cookie, looked up. `signed_in` is `None` for a
/// guest: no cookie, or one whose session ended or expired.
pub struct Session {
    /// The cookie's secret, when the request had a well-formed one.
    pub secret: Option<String>,
    pub signed_in: Option<SignedIn>,
    /// Whether the request reached us over TLS (the cookie is then
    /// `Secure`).
    pub tls: bool,
}

impl FromRequestParts<App> for Session {
    type Rejection = Response;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(SocketAddr::from(([0, 0, 0, 0], 0)), |c| c.0);
        let tls = over_tls(app, peer, &parts.headers);
        let secret = secret_of(&parts.headers);
        let signed_in = match &secret {
            Some(secret) => {
                let ip = app.limits.client_ip(peer, &parts.headers);
                match look_up(app, ip, secret).await {
                    Ok(signed_in) => signed_in,
                    Err(NotLookedUp::Limited(answer)) => return Err(*answer),
                    Err(NotLookedUp::Store(e)) => return Err(super::internal(e)),
                }
            }
            None => None,
        };
        Ok(Session {
            secret,
            signed_in,
            tls,
        })
    }
}

/// Why [`look_up`] found no answer.
pub enum NotLookedUp {
    /// The address's or the account's session lookups are spent: the
    /// `429 rate_limited` answer.
    Limited(Box<Response>),
    Store(StoreError),
}

/// Who the session `secret` signs in, for a request from the client
/// address `ip`. One of the address's session lookups
/// (`Limits::sessions`) is spent before the store is asked, since the
/// lookup writes the session's `last_seen` (a well-formed secret that
/// signs nobody in spends one too); one of the account's once the
/// account is known, so many addresses get no more for one account.
pub async fn look_up(app: &App, ip: IpAddr, secret: &str) -> Result<Option<SignedIn>, NotLookedUp> {
    let limit = &app.limits.sessions;
    limit.take(ip).map_err(|wait| {
        NotLookedUp::Limited(Box::new(too_many(
            wait,
            "Too many signed-in requests from your address",
        )))
    })?;
    let signed_in = app
        .registry
        .store()
        .session_account(secret, now_millis())
        .await
        .map_err(NotLookedUp::Store)?;
    if let Some(me) = &signed_in {
        limit.take(Who::Account(me.account.id)).map_err(|wait| {
            NotLookedUp::Limited(Box::new(too_many(
                wait,
                "Too many signed-in requests to this account",
            )))
        })?;
    }
    Ok(signed_in)
}

/// The secret of the `session` cookie in `headers`, if one is well formed.
pub fn secret_of(headers: &HeaderMap) -> Option<String> {
    headers
        .get_all(header::COOKIE)
        .iter()
        .filter_map(|v| v.to_str().ok())
        .flat_map(Cookie::split_parse)
        .filter_map(Result::ok)
        .find(|c| c.name() == COOKIE && is_valid_token(c.value()))
        .map(|c| c.value().to_string())
}

/// Whether the client reached us over TLS: the operator's `--public-url`
/// is `https://`, or a `--trusted-proxy` says `X-Forwarded-Proto: https`.
pub fn over_tls(app: &App, peer: SocketAddr, headers: &HeaderMap) -> bool {
    app.config
        .public_url
        .as_deref()
        .is_some_and(|u| u.starts_with("https://"))
        || app.limits.forwarded_https(peer, headers)
}

/// A session about to be stored for a browser that signs in: a new
/// secret for its cookie, and the browser's User-Agent, which labels the
/// session on the account page.
pub(super) struct Opening {
    pub(super) secret: String,
    agent: String,
}

impl Opening {
    pub(super) fn for_browser(headers: &HeaderMap) -> Opening {
        let agent = headers
            .get(header::USER_AGENT)
            .and_then(|v| v.to_str().ok())
            .unwrap_or("");
        Opening {
            secret: new_secret(),
            agent: agent.to_string(),
        }
    }

    /// The row to store, opened at `now`.
    pub(super) fn at(&self, now: u64) -> NewSession<'_> {
        NewSession {
            secret: &self.secret,
            agent: &self.agent,
            now,
        }
    }
}

/// A fresh session secret.
pub fn new_secret() -> String {
    new_token()
}

/// The cookie pages may read, beside the session's: `signed_in=1`.
pub const HINT: &str = "signed_in";

/// The two `Set-Cookie` headers of a response.
pub type SetCookies = AppendHeaders<[(header::HeaderName, HeaderValue); 2]>;

/// `Set-Cookie` for a session with `secret`, kept as long as a session
/// lasts unused, and its hint for the page's scripts.
pub fn set_cookies(secret: &str, tls: bool) -> SetCookies {
    let max_age = cookie::time::Duration::milliseconds(SESSION_IDLE_MS as i64);
    both(
        base(COOKIE, secret, tls).http_only(true).max_age(max_age),
        base(HINT, "1", tls).max_age(max_age),
    )
}

/// `Set-Cookie` that makes the browser forget the session and its hint.
pub fn clear_cookies(tls: bool) -> SetCookies {
    let gone = cookie::time::Duration::ZERO;
    both(
        base(COOKIE, "", tls).http_only(true).max_age(gone),
        base(HINT, "", tls).max_age(gone),
    )
}

fn base(name: &'static str, value: &str, tls: bool) -> cookie::CookieBuilder<'static> {
    Cookie::build((name, value.to_string()))
        .path("/")
        .same_site(SameSite::Lax)
        .secure(tls)
}

fn both(session: cookie::CookieBuilder<'_>, hint: cookie::CookieBuilder<'_>) -> SetCookies {
    AppendHeaders([
        (header::SET_COOKIE, header_value(session.build())),
        (header::SET_COOKIE, header_value(hint.build())),
    ])
}

fn header_value(cookie: Cookie<'_>) -> HeaderValue {
    // The name and a hex secret are plain ASCII, so this cannot fail.
    HeaderValue::from_str(&cookie.to_string()).unwrap_or_else(|_| HeaderValue::from_static(""))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The two headers' values, as text.
    fn texts(cookies: SetCookies) -> [String; 2] {
        cookies.0.map(|(name, value)| {
            assert_eq!(name, header::SET_COOKIE);
            value.to_str().unwrap().to_string()
        })
    }

    #[test]
    fn the_cookie_is_http_only_lax_and_secure_only_over_tls() {
        let [plain, hint] = texts(set_cookies("abcdef0123456789abcdef0123456789", false));
        assert!(plain.starts_with("session=abcdef0123456789abcdef0123456789;"));
        for part in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
            assert!(plain.contains(part), "{plain} has {part}");
        }
        assert!(!plain.contains("Secure"), "{plain}");
        // The page's hint: the same life, readable by scripts, no secret.
        assert!(hint.starts_with("signed_in=1;"), "{hint}");
        for part in ["SameSite=Lax", "Path=/", "Max-Age=2592000"] {
            assert!(hint.contains(part), "{hint} has {part}");
        }
        assert!(!hint.contains("HttpOnly"), "{hint}");
        for cookie in texts(set_cookies("abcdef0123456789abcdef0123456789", true)) {
            assert!(cookie.contains("Secure"), "{cookie}");
        }
        let [gone, hint_gone] = texts(clear_cookies(false));
        assert!(
            gone.starts_with("session=;") && gone.contains("Max-Age=0"),
            "{gone}"
        );
        assert!(
            hint_gone.starts_with("signed_in=;") && hint_gone.contains("Max-Age=0"),
            "{hint_gone}"
        );
    }

    #[test]
    fn the_secret_is_read_among_other_cookies_and_checked() {
        let mut headers = HeaderMap::new();
        headers.insert(
            header::COOKIE,
            HeaderValue::from_static("a=1; session=abcdef0123456789abcdef0123456789; b=2"),
        );
        assert_eq!(
            secret_of(&headers).as_deref(),
            Some("abcdef0123456789abcdef0123456789")
        );
        headers.insert(header::COOKIE, HeaderValue::from_static("session=short"));
        assert_eq!(secret_of(&headers), None);
        headers.insert(header::COOKIE, HeaderValue::from_static("garbage;;=;"));
        assert_eq!(secret_of(&headers), None);
    }
}
