//! The analysis API (PROTOCOL.md "Analysis"): ask for the analysis of a
//! stored game or of a game's text, read it, and follow it as it goes
//! (Server-Sent Events). Each request is counted in the address's lookup
//! bucket (the routes' `limit_lookups`); an address has at most
//! `--analyses-per-addr` jobs unfinished and the whole queue
//! `--analysis-queue`; an event stream takes one of the address's socket
//! slots (`--max-sockets-per-addr`, shared with its WebSockets).

use std::convert::Infallible;
use std::time::Duration;

use axum::extract::rejection::StringRejection;
use axum::extract::State;
use axum::http::StatusCode;
use axum::response::sse::{Event, KeepAlive, Sse};
use axum::response::{IntoResponse, Response};
use axum::Json;
use futures_util::stream::{self, Stream};
use serde_json::{json, Value};
use sha2::{Digest, Sha256};

use super::{games_of, report, worker};
use crate::app::error::{json_error, ApiPath};
use crate::app::state::App;
use crate::games::{AnyGame, GameKind, GameOptions};
use crate::history::{find, internal, no_game, read_import};
use crate::limits::address::bucket_key;
use crate::limits::client_ip::ClientIp;
use crate::model::time::now_millis;
use crate::store::{Asked, NewAnalysis, StoredAnalysis};
use rules::Game;

/// How often an event stream looks at the store for progress.
const POLL: Duration = Duration::from_millis(250);

/// An event stream sends at most one event this often: each carries the
/// whole analysis (up to a few hundred KiB for a long game), so a stream
/// costs at most that a second, however fast the positions are judged.
const EVENT_EVERY: Duration = Duration::from_secs(1);

/// Event streams one client address may follow at once.
pub const STREAMS_PER_ADDR: usize = 4;

/// An event stream ends after this long even if the job has not (the
/// browser's `EventSource` reconnects).
const STREAM_FOR: Duration = Duration::from_secs(15 * 60);

fn no_analysis(id: &str) -> Response {
    json_error(
        StatusCode::NOT_FOUND,
        "no_analysis",
        format!("Nobody asked for an analysis of {id}."),
    )
}

/// The number of sides of `game` with `options` (the start's own count).
fn sides(game: &str, options: &Value) -> usize {
    GameKind::parse(game)
        .ok()
        .and_then(|k| GameOptions::parse(k, options).ok())
        .and_then(|o| AnyGame::new(&o).ok())
        .map_or(2, |g| g.sides())
}

fn answer(a: &StoredAnalysis) -> Response {
    Json(report(a, sides(&a.game, &a.options))).into_response()
}

/// The game whose analysis is asked for.
struct Job<'a> {
    id: &'a str,
    kind: GameKind,
    options: &'a Value,
    moves: &'a [String],
    leaves: &'a [crate::game_log::Leave],
}

/// Stores `job` (unless it is there) and answers its analysis.
async fn ask(app: &App, ip: std::net::IpAddr, job: Job<'_>) -> Response {
    let store = app.registry.store();
    // Asked again (the page opened, the button pressed): the analysis as
    // it stands, without replaying the game to count its positions.
    match store.analysis(job.id).await {
        Ok(Some(a)) => return answer(&a),
        Ok(None) => {}
        Err(e) => return internal(e),
    }
    let total = {
        let (kind, options, moves, leaves) = (
            job.kind,
            job.options.clone(),
            job.moves.to_vec(),
            job.leaves.to_vec(),
        );
        tokio::task::spawn_blocking(move || games_of(kind, &options, &moves, &leaves).len())
            .await
            .unwrap_or(0)
    };
    let by = bucket_key(ip).to_string();
    let new = NewAnalysis {
        id: job.id,
        game: job.kind.name(),
        options: job.options,
        moves: job.moves,
        leaves: &json!(job.leaves),
        total,
        requested_by: &by,
        now: now_millis(),
    };
    match store
        .ask_analysis(
            &new,
            app.config.analyses_per_addr,
            app.config.analysis_queue,
        )
        .await
    {
        Ok(Asked::New) => worker::wake(),
        Ok(Asked::Existing) => {}
        Ok(Asked::AddressFull) => {
            return json_error(
                StatusCode::TOO_MANY_REQUESTS,
                "too_many_analyses",
                format!(
                    "Your address has {} analyses waiting or running; ask again when one is done.",
                    app.config.analyses_per_addr
                ),
            )
        }
        Ok(Asked::QueueFull) => {
            return json_error(
                StatusCode::SERVICE_UNAVAILABLE,
                "analysis_busy",
                "The server has too many analyses waiting; try again in a few minutes.",
            )
        }
        Err(e) => return internal(e),
    }
    match store.analysis(job.id).await {
        Ok(Some(a)) => answer(&a),
        Ok(None) => no_analysis(job.id),
        Err(e) => internal(e),
    }
}

/// `POST /api/games/ID/analysis`: analyse a stored finished game.
pub async fn analyse_game(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    ApiPath(id): ApiPath<String>,
) -> Response {
    let g = match find(&app, &id).await {
        Ok(Some(g)) => g,
        Ok(None) => return no_game(&id),
        Err(e) => return internal(e),
    };
    let Ok(kind) = GameKind::parse(&g.game) else {
        return no_game(&id);
    };
    let job = Job {
        id: &id,
        kind,
        options: &g.options,
        moves: &g.moves,
        leaves: &g.leaves,
    };
    ask(&app, ip, job).await
}

/// `POST /api/analysis` with a game's text (as `POST /api/games/import`
/// takes it): analyse an imported game. Its id is `i` and 16 hex digits
/// of a hash of the game, its options, moves and leaves, so the same game
/// imported again finds its analysis.
pub async fn analyse_import(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    body: Result<String, StringRejection>,
) -> Response {
    let g = match read_import(&app, ip, body) {
        Ok(g) => g,
        Err(refused) => return *refused,
    };
    let key = json!([g.game.name(), g.options, g.moves, g.leaves]).to_string();
    let digest = Sha256::digest(key.as_bytes());
    let id: String = std::iter::once("i".to_string())
        .chain(digest[..8].iter().map(|b| format!("{b:02x}")))
        .collect();
    let job = Job {
        id: &id,
        kind: g.game,
        options: &g.options,
        moves: &g.moves,
        leaves: &g.leaves,
    };
    ask(&app, ip, job).await
}

/// `GET /api/analysis/ID`: the analysis as far as it has gone.
pub async fn analysis(State(app): State<App>, ApiPath(id): ApiPath<String>) -> Response {
    if id.len() > 64 {
        return no_analysis(&id);
    }
    match app.registry.store().analysis(&id).await {
        Ok(Some(a)) => answer(&a),
        Ok(None) => no_analysis(&id),
        Err(e) => internal(e),
    }
}

/// `GET /api/analysis/ID/events`: the analysis now, then again each time
/// it moves on, as Server-Sent Events named `analysis`; the stream ends
/// after the one that says `done`.
pub async fn events(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    ApiPath(id): ApiPath<String>,
) -> Response {
    if id.len() > 64 {
        return no_analysis(&id);
    }
    let first = match app.registry.store().analysis(&id).await {
        Ok(Some(a)) => a,
        Ok(None) => return no_analysis(&id),
        Err(e) => return internal(e),
    };
    let Some(slot) = app
        .sockets
        .try_open(ip, None, app.config.max_sockets_per_addr)
    else {
        return json_error(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_sockets",
            "Your address has too many connections open.",
        );
    };
    let Some(stream) = app.streams.try_open(ip, None, STREAMS_PER_ADDR) else {
        return json_error(
            StatusCode::TOO_MANY_REQUESTS,
            "too_many_sockets",
            format!("Your address follows {STREAMS_PER_ADDR} analyses already; close one first."),
        );
    };
    let sides = sides(&first.game, &first.options);
    let state = Follow {
        app,
        id,
        sides,
        next: Some(first),
        seen: None,
        until: tokio::time::Instant::now() + STREAM_FOR,
        sent_at: None,
        _slot: (slot, stream),
    };
    // nginx passes the events on as they come, not when its buffer fills.
    (
        [("x-accel-buffering", "no")],
        Sse::new(follow(state)).keep_alive(KeepAlive::default()),
    )
        .into_response()
}

struct Follow {
    app: App,
    id: String,
    sides: usize,
    /// Read and not yet sent.
    next: Option<StoredAnalysis>,
    /// The progress last sent (positions, done).
    seen: Option<(i64, bool)>,
    until: tokio::time::Instant,
    /// When the last event went ([`EVENT_EVERY`]).
    sent_at: Option<tokio::time::Instant>,
    _slot: (crate::limits::open::Place, crate::limits::open::Place),
}

fn follow(state: Follow) -> impl Stream<Item = Result<Event, Infallible>> {
    stream::unfold(Some(state), |state| async move {
        let mut s = state?;
        loop {
            if let Some(a) = s.next.take() {
                // At most one event a second: the next waits, and what
                // it carries is read when it goes.
                if let Some(at) = s.sent_at {
                    let due = at + EVENT_EVERY;
                    if tokio::time::Instant::now() < due && a.status != "done" {
                        tokio::time::sleep_until(due).await;
                        let store = s.app.registry.store();
                        s.next = Some(store.analysis(&s.id).await.ok().flatten().unwrap_or(a));
                        continue;
                    }
                }
                s.sent_at = Some(tokio::time::Instant::now());
                let done = a.status == "done";
                s.seen = Some((a.positions.len() as i64, done));
                let event = Event::default()
                    .event("analysis")
                    .json_data(report(&a, s.sides))
                    .unwrap_or_default();
                return Some((Ok(event), (!done).then_some(s)));
            }
            if tokio::time::Instant::now() >= s.until {
                return None;
            }
            tokio::time::sleep(POLL).await;
            let store = s.app.registry.store();
            match store.analysis_progress(&s.id).await {
                Ok(Some(progress)) if Some(progress) != s.seen => {
                    s.next = store.analysis(&s.id).await.ok().flatten();
                }
                Ok(Some(_)) => {}
                Ok(None) => return None,
                Err(e) => tracing::debug!(error = %e, "analysis progress"),
            }
        }
    })
}
