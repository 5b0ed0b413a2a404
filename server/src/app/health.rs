//! `GET /healthz`: whether this node can serve, for a container's health
//! check and a proxy. `200 ok` when its store answers a query and, on
//! several nodes, its NATS connection is up; otherwise `503` naming what
//! is down (`database`, `nats`). A node that answers pages but cannot
//! reach its database would otherwise look healthy while every write
//! fails and its rooms' leases run out.
//!
//! The check runs at most once a second whatever the number of asks (one
//! asker runs it, the others wait for its answer), so a flood of health
//! checks costs the store one query a second.

use std::time::Duration;

use axum::extract::State;
use axum::http::StatusCode;
use axum::response::{IntoResponse, Response};
use tokio::sync::Mutex;
use tokio::time::Instant;

use super::state::App;

/// How long an answer stands before the next ask checks again.
const FRESH: Duration = Duration::from_secs(1);

/// How long the store has to answer.
const STORE_WAIT: Duration = Duration::from_secs(2);

/// The last check: when, and what was down (empty: nothing).
#[derive(Default)]
pub struct Health {
    last: Mutex<Option<(Instant, Vec<&'static str>)>>,
}

impl Health {
    /// What is down now (at most `FRESH` old).
    async fn down(&self, app: &App) -> Vec<&'static str> {
        let mut last = self.last.lock().await;
        if let Some((at, down)) = &*last {
            if at.elapsed() < FRESH {
                return down.clone();
            }
        }
        let mut down = Vec::new();
        let store = tokio::time::timeout(STORE_WAIT, app.registry.store().ping()).await;
        if !matches!(store, Ok(Ok(()))) {
            down.push("database");
        }
        if app.cluster.as_ref().is_some_and(|c| !c.connected()) {
            down.push("nats");
        }
        *last = Some((Instant::now(), down.clone()));
        down
    }
}

/// `GET /healthz`.
pub async fn healthz(State(app): State<App>, health: std::sync::Arc<Health>) -> Response {
    let down = health.down(&app).await;
    if down.is_empty() {
        return "ok".into_response();
    }
    tracing::warn!(down = ?down, "health check: not ready");
    (
        StatusCode::SERVICE_UNAVAILABLE,
        format!("down: {}", down.join(", ")),
    )
        .into_response()
}
