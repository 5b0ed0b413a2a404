//! The analysis workers of one node (`--analysis-workers`): each takes the
//! waiting job with the fewest positions left from the store and judges
//! its positions in order, one search at a time in a background search
//! slot (`bots::Slots`: a live computer player waiting for a slot stops
//! the search, and that position is judged again once live play leaves a
//! slot free), saving every judgement under its lease as it goes. After
//! each position, a worker whose job has more left than one waiting gives
//! its job back and takes the shorter one: a short game is never stuck
//! behind long ones (an address's two 400-move games held the only
//! worker for six minutes).

use std::sync::atomic::AtomicBool;
use std::sync::{Arc, OnceLock};
use std::time::Duration;

use tokio::sync::Notify;
use tokio::task::JoinHandle;

use super::{games_of, judge};
use crate::app::state::App;
use crate::game_log::Leave;
use crate::games::GameKind;
use crate::model::time::now_millis;
use crate::store::StoredAnalysis;

/// A job's lease, renewed with every position saved.
pub const LEASE_MS: u64 = 30_000;

/// How often an idle worker looks for a job (it is also woken when one
/// is asked on this node).
const IDLE_POLL: Duration = Duration::from_secs(2);

fn notify() -> &'static Notify {
    static WAKE: OnceLock<Notify> = OnceLock::new();
    WAKE.get_or_init(Notify::new)
}

/// Wakes this node's workers (a job was asked).
pub fn wake() {
    notify().notify_waiters();
}

/// The name this node's claims carry: its cluster id, or `local`.
pub fn claim_of(app: &App) -> String {
    match &app.cluster {
        Some(cluster) => cluster.node().to_string(),
        None => "local".to_string(),
    }
}

/// Lets go of this node's earlier claims and starts its workers.
pub async fn start(app: &App) -> Vec<JoinHandle<()>> {
    let claim = claim_of(app);
    match app.registry.store().release_analyses(&claim).await {
        Ok(0) => {}
        Ok(n) => tracing::info!(jobs = n, "resuming analyses"),
        Err(e) => tracing::warn!(error = %e, "could not release earlier analyses"),
    }
    (0..app.config.analysis_workers)
        .map(|_| tokio::spawn(run(app.clone(), claim.clone())))
        .collect()
}

async fn run(app: App, claim: String) {
    loop {
        let wake = notify().notified();
        let now = now_millis();
        match app
            .registry
            .store()
            .claim_analysis(&claim, now, now + LEASE_MS)
            .await
        {
            Ok(Some(job)) => {
                work(&app, &claim, job).await;
                continue;
            }
            Ok(None) => {}
            Err(e) => tracing::warn!(error = %e, "could not look for analyses"),
        }
        tokio::select! {
            _ = wake => {}
            _ = tokio::time::sleep(IDLE_POLL) => {}
        }
    }
}

/// What stands for a position the engine failed on: even chances, no
/// move.
fn unjudged(game: &crate::games::AnyGame) -> serde_json::Value {
    use rules::Game;
    let n = game.sides().max(1);
    let even = vec![1.0 / n as f64; n];
    serde_json::json!({
        "ply": game.ply(),
        "to_move": game.to_move().map(|s| s.0),
        "chances": even,
        "standing": even,
        "best": null,
        "score": null,
        "depth": 0,
    })
}

/// Judges the rest of `job`'s positions, saving each.
async fn work(app: &App, claim: &str, job: StoredAnalysis) {
    let store = app.registry.store();
    let budget = Duration::from_millis(app.config.analysis_ms.max(1));
    let games = match GameKind::parse(&job.game) {
        Ok(kind) => {
            let leaves: Vec<Leave> = serde_json::from_value(job.leaves.clone()).unwrap_or_default();
            let (options, moves) = (job.options.clone(), job.moves.clone());
            tokio::task::spawn_blocking(move || games_of(kind, &options, &moves, &leaves))
                .await
                .unwrap_or_default()
        }
        Err(_) => Vec::new(),
    };
    let mut positions = job.positions;
    positions.truncate(games.len());
    loop {
        let done = positions.len() >= games.len();
        if !done {
            let game = games[positions.len()].clone();
            let cancel = Arc::new(AtomicBool::new(false));
            let Some(slot) = crate::bots::slots().background(&cancel).await else {
                return;
            };
            let flag = cancel.clone();
            let unjudged = unjudged(&game);
            let judged = tokio::task::spawn_blocking(move || judge(&game, budget, &flag)).await;
            drop(slot);
            match judged {
                Ok(Some(p)) => positions.push(p),
                // Live play took the slot: judge it again.
                Ok(None) => continue,
                // The engine failed on it (a bug): say so and go on, even.
                Err(e) => {
                    tracing::error!(id = %job.id, ply = positions.len(), error = %e, "analysis search failed");
                    positions.push(unjudged);
                }
            }
        }
        let done = positions.len() >= games.len();
        let now = now_millis();
        match store
            .save_analysis(&job.id, claim, &positions, done, now + LEASE_MS, now)
            .await
        {
            Ok(true) if !done => {
                let left = games.len() - positions.len();
                match store.shorter_analysis_waits(&job.id, left, now).await {
                    Ok(false) => {}
                    Ok(true) => {
                        if let Err(e) = store.give_back_analysis(&job.id, claim).await {
                            tracing::warn!(id = %job.id, error = %e, "could not give an analysis back");
                        }
                        return;
                    }
                    Err(e) => tracing::warn!(error = %e, "could not look for shorter analyses"),
                }
            }
            Ok(true) => return,
            Ok(false) => {
                tracing::warn!(id = %job.id, "analysis taken over by another worker");
                return;
            }
            Err(e) => {
                tracing::warn!(id = %job.id, error = %e, "could not save an analysis");
                return;
            }
        }
    }
}
