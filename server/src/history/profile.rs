//! `GET /api/players/NAME`: an account's public profile (the page at
//! `/u/NAME` draws it): its display name, its games per game with wins,
//! draws and losses, and a page of its recent games with their replays.

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::{bad_query, internal, no_player, page_of, summary, take_read, BAD_PAGE, MAX_NAME};
use crate::app::error::{ApiPath, ApiQuery};
use crate::app::state::App;
use crate::games::GameKind;
use crate::limits::client_ip::ClientIp;
use crate::model::now_millis;
use crate::ratings::{computer_rating, LEADERBOARD_MIN_GAMES};
use crate::store::PROFILE_GAMES;
use rules::Level;

/// `GET /api/players/NAME?page=N`: the profile of the account NAME (any
/// case), for anyone.
pub async fn profile(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    session: crate::accounts::session::Session,
    headers: axum::http::HeaderMap,
    ApiPath(name): ApiPath<String>,
    ApiQuery(query): ApiQuery,
) -> Response {
    let reader = super::Reader::of(&headers, &session);
    let Some(page) = page_of(&query) else {
        return bad_query(BAD_PAGE);
    };
    if name.len() > MAX_NAME {
        return no_player(&name);
    }
    if let Err(refused) = take_read(&app, ip) {
        return *refused;
    }
    let found = match app.registry.store().profile(&name, page).await {
        Ok(Some(p)) => p,
        Ok(None) => return no_player(&name),
        Err(e) => return internal(e),
    };
    let ratings = match app.registry.store().ratings(found.account.id).await {
        Ok(r) => r,
        Err(e) => return internal(e),
    };
    let now = now_millis();
    let games: Vec<Value> = found
        .tallies
        .iter()
        .map(|t| {
            let rating = ratings
                .iter()
                .find(|(g, _)| *g == t.game)
                .map(|(_, r)| r.view(now));
            json!({
                "game": t.game,
                "played": t.played,
                "wins": t.wins,
                "draws": t.draws,
                "losses": t.losses,
                "aborted": t.aborted,
                "rating": rating,
            })
        })
        .collect();
    let mut recent: Vec<Value> = found
        .recent
        .iter()
        .map(|(g, r)| summary(g, Some(r)))
        .collect();
    if let Err(e) = super::ratings::with_changes(app.registry.store(), &mut recent).await {
        return internal(e);
    }
    // A private room's code is its invitation: shown only to its members.
    if let Err(e) = super::hide_rooms(&app, &reader, &mut recent).await {
        return internal(e);
    }
    Json(json!({
        "username": found.account.username,
        "name": found.account.display_name,
        "since": found.created_at,
        "games": games,
        "recent": recent,
        "page": page,
        "pages": found.total.div_ceil(u64::from(PROFILE_GAMES)).max(1),
        "total": found.total,
    }))
    .into_response()
}

/// `GET /api/leaderboard/GAME`: the best-rated active players of a game
/// (at least [`LEADERBOARD_MIN_GAMES`] rated games, the last within 90
/// days), best first, with the computer levels' fixed ratings beside them.
pub async fn leaderboard(State(app): State<App>, ApiPath(game): ApiPath<String>) -> Response {
    let kind = match GameKind::parse(&game) {
        Ok(kind) => kind,
        Err(e) => return bad_query(e),
    };
    let now = now_millis();
    let ranked = match app
        .registry
        .store()
        .leaderboard(kind.name(), LEADERBOARD_MIN_GAMES, now)
        .await
    {
        Ok(list) => list,
        Err(e) => return internal(e),
    };
    let players: Vec<Value> = ranked
        .iter()
        .map(|p| {
            let v = p.rating.view(now);
            json!({
                "username": p.username,
                "name": p.display_name,
                "rating": v.rating,
                "deviation": v.deviation,
                "games": v.games,
            })
        })
        .collect();
    let computers: Vec<Value> = Level::ALL
        .iter()
        .map(|&level| json!({"level": level, "rating": computer_rating(kind, level)}))
        .collect();
    Json(json!({
        "game": kind.name(),
        "min_games": LEADERBOARD_MIN_GAMES,
        "players": players,
        "computers": computers,
    }))
    .into_response()
}
