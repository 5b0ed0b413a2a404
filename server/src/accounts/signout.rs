//! What ends a session's sockets: the end of a session here and on every
//! node ([`ended`]), the check when a socket signs in ([`watch`]), and the
//! sweep that catches what was missed ([`sweep`]). The sockets themselves
//! are kept in `sockets.rs`, which knows nothing of the server's state.

use std::time::Duration;

use super::sockets::{Ended, Registration, SIGNED_OUT, SIGNED_OUT_REASON};
use crate::app::state::App;
use crate::model::now_millis;
use crate::room::Closer;
use crate::store::SignedIn;

/// Sessions checked per query of the sweep.
const SWEEP_CHUNK: usize = 200;

/// Sessions ended: closes their sockets here, and on every other node.
pub async fn ended(app: &App, ended: Ended) {
    let here = app.sessions.close(ended);
    if here > 0 {
        tracing::debug!(?ended, sockets = here, "signed out open sockets");
    }
    if let Some(cluster) = &app.cluster {
        cluster.sessions_ended(ended).await;
    }
}

/// Registers a socket and checks its session once more (see the module
/// doc): the socket is closed at once if the session ended meanwhile.
pub async fn watch(app: &App, signed_in: &SignedIn, closer: &Closer) -> Registration {
    let registration = app.sessions.register(signed_in, closer.clone());
    match app
        .registry
        .store()
        .live_sessions(&[signed_in.session], now_millis())
        .await
    {
        Ok(live) if live.is_empty() => closer.close(SIGNED_OUT, SIGNED_OUT_REASON),
        Ok(_) => {}
        Err(e) => tracing::warn!(error = %e, "session check failed; the sweep checks again"),
    }
    registration
}

/// Every `session_sweep_secs`, closes the sockets whose sessions are no
/// longer live. Runs while the server does.
pub async fn sweep(app: App) {
    let every = Duration::from_secs(app.config.session_sweep_secs.max(1));
    let mut every = tokio::time::interval(every);
    every.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
    every.tick().await;
    loop {
        every.tick().await;
        sweep_once(&app).await;
    }
}

/// One pass of [`sweep`]: how many sockets it closed.
async fn sweep_once(app: &App) -> usize {
    let now = now_millis();
    let mut closed = 0;
    for chunk in app.sessions.sessions().chunks(SWEEP_CHUNK) {
        let live = match app.registry.store().live_sessions(chunk, now).await {
            Ok(live) => live,
            Err(e) => {
                tracing::warn!(error = %e, "session sweep failed");
                return closed;
            }
        };
        for session in chunk.iter().filter(|s| !live.contains(s)) {
            closed += app.sessions.close(Ended::Session(*session));
        }
    }
    closed
}
