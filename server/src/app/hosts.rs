//! Which host the links the server writes point at, which origins are
//! ours, and the guard every request passes: a state-changing request from
//! a page that is not ours is refused, and answers over TLS carry HSTS.
//!
//! **Links.** Invite links, the QR image and mailed links (confirmation,
//! recovery) start with [`Base`]: `--public-url` when set; else the
//! request's `Host` only if the operator allowed it (`--allowed-host`), or
//! if it is a loopback name on the port we listen on (a link to the
//! visitor's own machine, which leads nobody elsewhere); else the first
//! `--allowed-host`, else `http://` and `--addr`. So no request chooses a
//! host of its own. Mail is only sent when the links are fixed by the
//! operator (`--public-url` or `--allowed-host`, see `mail::mail_links_fixed`);
//! otherwise the mailer writes each link to the log.
//!
//! **Origins.** A browser sends `Origin` with every `POST`, `PUT`,
//! `DELETE` and WebSocket upgrade. Ours are: the origin of `--public-url`,
//! `http(s)://` and each allowed host (and each loopback name on our port),
//! every `--allowed-origin`, and `http(s)://` and the request's own
//! `Host`. The last one is safe: a browser writes both headers itself, from
//! the address it loads, so they differ for every page of another origin
//! (another site, or another port of the same host); a DNS-rebound name
//! matches, but such a page has neither our cookies nor our storage. A
//! request without `Origin` is not from a browser page (curl, bots), unless
//! `Sec-Fetch-Site` says `cross-site` or `same-site`.
//!
//! The origin parsing is hand-written: an origin is `scheme://host[:port]`,
//! compared as text without case, so a URL parser would add a dependency
//! for one `split`.

use std::net::{IpAddr, SocketAddr};

use axum::extract::{ConnectInfo, FromRequestParts, Request, State};
use axum::http::request::Parts;
use axum::http::{header, HeaderMap, HeaderValue, Method, StatusCode};
use axum::middleware::Next;
use axum::response::Response;

use super::error::json_error;
use super::state::App;
use crate::config::Config;

/// `Strict-Transport-Security` of answers over TLS: a year, this host only
/// (other hosts of the domain may not serve TLS).
pub const HSTS: &str = "max-age=31536000";

/// The base of the links written for a request: `scheme://host[:port]`,
/// no trailing slash (see the module doc).
pub struct Base(pub String);

impl FromRequestParts<App> for Base {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        Ok(Base(base_url(app, peer_of(parts), &parts.headers)))
    }
}

fn peer_of(parts: &Parts) -> SocketAddr {
    parts
        .extensions
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(SocketAddr::from(([0, 0, 0, 0], 0)), |c| c.0)
}

/// The base of the links for a request from `peer` with `headers`.
pub fn base_url(app: &App, peer: SocketAddr, headers: &HeaderMap) -> String {
    let config = &app.config;
    if let Some(url) = &config.public_url {
        return url.trim_end_matches('/').to_string();
    }
    let scheme = if app.limits.forwarded_https(peer, headers) {
        "https"
    } else {
        "http"
    };
    let host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .filter(|h| host_allowed(config, h))
        .or(config.allowed_hosts.first().map(String::as_str));
    match host {
        Some(host) => format!("{scheme}://{}", host.to_ascii_lowercase()),
        None => format!("http://{}", listen_host(config.addr)),
    }
}

/// `--addr` as a host for links: an unspecified address (`0.0.0.0`,
/// `[::]`) becomes the loopback one.
fn listen_host(addr: SocketAddr) -> SocketAddr {
    match addr.ip() {
        IpAddr::V4(ip) if ip.is_unspecified() => SocketAddr::from(([127, 0, 0, 1], addr.port())),
        IpAddr::V6(ip) if ip.is_unspecified() => {
            SocketAddr::from((std::net::Ipv6Addr::LOCALHOST, addr.port()))
        }
        _ => addr,
    }
}

/// Whether links may use `host` (a `Host` header): one of
/// `--allowed-host`, or a loopback name or address with the port we
/// listen on.
pub fn host_allowed(config: &Config, host: &str) -> bool {
    config
        .allowed_hosts
        .iter()
        .any(|h| h.eq_ignore_ascii_case(host))
        || is_own_loopback(config, host)
}

fn is_own_loopback(config: &Config, host: &str) -> bool {
    let (name, port) = match host.rsplit_once(':') {
        // The port as written plainly: `+8080` or `08080` would be copied
        // into the links as they are.
        Some((name, port)) if !port.contains(']') => (
            name,
            port.parse::<u16>().ok().filter(|p| p.to_string() == port),
        ),
        _ => (host, Some(80)),
    };
    if port != Some(config.addr.port()) {
        return false;
    }
    let bare = name
        .strip_prefix('[')
        .and_then(|n| n.strip_suffix(']'))
        .unwrap_or(name);
    bare.eq_ignore_ascii_case("localhost")
        || bare
            .parse::<IpAddr>()
            .is_ok_and(|ip| ip.to_canonical().is_loopback())
}

/// `scheme://host[:port]` of a URL, lower case.
fn origin_of(url: &str) -> String {
    let url = url.trim().to_ascii_lowercase();
    match url.split_once("://") {
        Some((scheme, rest)) => {
            let authority = rest.split(['/', '?', '#']).next().unwrap_or("");
            format!("{scheme}://{authority}")
        }
        None => url,
    }
}

/// Whether `origin` (an `Origin` header) is one of ours for a request
/// with `headers` (see the module doc).
pub fn origin_allowed(config: &Config, headers: &HeaderMap, origin: &str) -> bool {
    let origin = origin.trim().trim_end_matches('/').to_ascii_lowercase();
    let Some((scheme, host)) = origin.split_once("://") else {
        return false;
    };
    if scheme != "http" && scheme != "https" {
        return false;
    }
    let own_host = headers
        .get(header::HOST)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|h| h.eq_ignore_ascii_case(host));
    own_host
        || host_allowed(config, host)
        || config
            .public_url
            .as_deref()
            .is_some_and(|u| origin_of(u) == origin)
        || config
            .allowed_origins
            .iter()
            .any(|o| origin_of(o) == origin)
}

/// Whether a request with `headers` may come from a browser page: its
/// `Origin` is ours, or it has none and `Sec-Fetch-Site` does not say it
/// comes from another site.
pub fn from_us(config: &Config, headers: &HeaderMap) -> bool {
    if let Some(origin) = headers.get(header::ORIGIN) {
        return origin
            .to_str()
            .is_ok_and(|o| origin_allowed(config, headers, o));
    }
    !headers
        .get("sec-fetch-site")
        .and_then(|v| v.to_str().ok())
        .is_some_and(|s| {
            let s = s.trim();
            s.eq_ignore_ascii_case("cross-site") || s.eq_ignore_ascii_case("same-site")
        })
}

/// `403 bad_origin`.
pub fn bad_origin() -> Response {
    json_error(
        StatusCode::FORBIDDEN,
        "bad_origin",
        "This page may not send requests to this site.",
    )
}

/// The guard in front of every route: a `POST`, `PUT`, `PATCH` or
/// `DELETE` that is not [`from_us`] is answered `403 bad_origin` and
/// reaches no handler; an answer to a request over TLS (`--public-url` is
/// `https://`, or a trusted proxy says `X-Forwarded-Proto: https`)
/// carries [`HSTS`].
pub async fn guard(State(app): State<App>, req: Request, next: Next) -> Response {
    let changes = matches!(
        *req.method(),
        Method::POST | Method::PUT | Method::PATCH | Method::DELETE
    );
    if changes && !from_us(&app.config, req.headers()) {
        tracing::debug!(method = %req.method(), path = req.uri().path(), "foreign origin refused");
        return bad_origin();
    }
    let peer = req
        .extensions()
        .get::<ConnectInfo<SocketAddr>>()
        .map_or(SocketAddr::from(([0, 0, 0, 0], 0)), |c| c.0);
    let tls = crate::accounts::session::over_tls(&app, peer, req.headers());
    let mut response = next.run(req).await;
    if tls {
        response
            .headers_mut()
            .entry(header::STRICT_TRANSPORT_SECURITY)
            .or_insert(HeaderValue::from_static(HSTS));
    }
    response
}

#[cfg(test)]
mod tests {
    use super::*;
    use clap::Parser;

    fn config(args: &[&str]) -> Config {
        let mut all = vec!["server", "--addr", "0.0.0.0:8080"];
        all.extend_from_slice(args);
        Config::parse_from(all)
    }

    fn with_host(host: &str) -> HeaderMap {
        let mut h = HeaderMap::new();
        h.insert(header::HOST, HeaderValue::from_str(host).unwrap());
        h
    }

    #[test]
    fn only_loopback_on_our_port_and_allowed_hosts_name_links() {
        let c = config(&["--allowed-host", "Games.example:8443"]);
        assert!(host_allowed(&c, "localhost:8080"));
        assert!(host_allowed(&c, "127.0.0.1:8080"));
        assert!(host_allowed(&c, "[::1]:8080"));
        assert!(host_allowed(&c, "games.example:8443"));
        assert!(!host_allowed(&c, "localhost:3000"));
        assert!(!host_allowed(&c, "localhost"));
        assert!(!host_allowed(&c, "evil.example:8080"));
        assert!(!host_allowed(&c, "games.example"));
        assert!(!host_allowed(&c, "10.0.0.1:8080"));
        assert!(!host_allowed(&c, "localhost:+8080"), "a port written oddly");
        assert!(!host_allowed(&c, "localhost:08080"));
    }

    #[test]
    fn origins_are_ours_by_host_lists_or_our_own_host() {
        let c = config(&[
            "--public-url",
            "https://play.example/",
            "--allowed-origin",
            "http://dev.example:5173",
        ]);
        let h = with_host("lan-box:8080");
        for ok in [
            "https://play.example",
            "http://dev.example:5173",
            "http://lan-box:8080",
            "http://localhost:8080",
        ] {
            assert!(origin_allowed(&c, &h, ok), "{ok}");
        }
        for bad in [
            "http://localhost:3000",
            "https://evil.example",
            "null",
            "http://play.example",
            "ftp://lan-box:8080",
        ] {
            assert!(!origin_allowed(&c, &h, bad), "{bad}");
        }
        let mut h = HeaderMap::new();
        assert!(from_us(&c, &h), "no Origin: not a browser page");
        h.insert("sec-fetch-site", HeaderValue::from_static("same-site"));
        assert!(!from_us(&c, &h));
        h.insert("sec-fetch-site", HeaderValue::from_static("same-origin"));
        assert!(from_us(&c, &h));
    }

    #[test]
    fn an_unspecified_listen_address_links_to_loopback() {
        assert_eq!(
            listen_host("0.0.0.0:8080".parse().unwrap()).to_string(),
            "127.0.0.1:8080"
        );
        assert_eq!(
            listen_host("192.0.2.7:80".parse().unwrap()).to_string(),
            "192.0.2.7:80"
        );
        assert_eq!(
            origin_of("HTTPS://Play.example/x?y"),
            "https://play.example"
        );
    }
}
