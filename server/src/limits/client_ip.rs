//! The client's address as an extractor for handlers ([`ClientIp`]), and
//! the answer when one of its limits is spent ([`too_many`]).

use std::net::{IpAddr, SocketAddr};
use std::time::Duration;

use axum::extract::{ConnectInfo, FromRequestParts};
use axum::http::request::Parts;
use axum::http::{header, HeaderValue, StatusCode};
use axum::response::Response;

use crate::app::error::json_error;
use crate::app::state::App;

/// Extracts the client address of a request ([`super::Limits::client_ip`]).
/// Without connection info (a router served without
/// `into_make_service_with_connect_info`), every request counts as
/// `0.0.0.0`.
pub struct ClientIp(pub IpAddr);

impl FromRequestParts<App> for ClientIp {
    type Rejection = std::convert::Infallible;

    async fn from_request_parts(parts: &mut Parts, app: &App) -> Result<Self, Self::Rejection> {
        let peer = parts
            .extensions
            .get::<ConnectInfo<SocketAddr>>()
            .map_or(SocketAddr::from(([0, 0, 0, 0], 0)), |c| c.0);
        Ok(ClientIp(app.limits.client_ip(peer, &parts.headers)))
    }
}

/// `429 {"error":"rate_limited","message":…}` with `Retry-After` in whole
/// seconds (at least 1).
pub fn too_many(retry_after: Duration, what: &str) -> Response {
    let secs = retry_after.as_secs_f64().ceil().max(1.0) as u64;
    let mut response = json_error(
        StatusCode::TOO_MANY_REQUESTS,
        "rate_limited",
        format!("{what}; try again in {secs} s."),
    );
    response
        .headers_mut()
        .insert(header::RETRY_AFTER, HeaderValue::from(secs));
    response
}
