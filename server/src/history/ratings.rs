//! Rating history over HTTP: `GET /api/players/NAME/ratings/GAME` (the
//! points of the profile's rating graph), and the rating changes that
//! every game of a list or a replay carries ([`with_changes`]).

use axum::extract::State;
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use super::{bad_query, internal, no_player, take_read, MAX_NAME};
use crate::app::error::ApiPath;
use crate::app::state::App;
use crate::games::GameKind;
use crate::limits::client_ip::ClientIp;
use crate::model::now_millis;
use crate::store::{RatingChange, Store, StoreResult, RATING_POINTS};

/// A rating as people read it: a whole number.
fn whole(x: f64) -> i64 {
    x.round() as i64
}

/// One rated player's change in a game, as the lists carry it: `change`
/// is `after − before` of the whole numbers shown, so the changes of an
/// account's games add up to its rating less the start (1500).
fn change_json(c: &RatingChange) -> Value {
    let (before, after) = (whole(c.rating_before), whole(c.rating_after));
    json!({
        "side": c.side,
        "before": before,
        "after": after,
        "change": after - before,
        "deviation_before": whole(c.deviation_before),
        "deviation_after": whole(c.deviation_after),
    })
}

/// Sets `rating_changes` on each game summary of `games` (by its `id`):
/// one entry per rated player, by side; `[]` for a game that was not
/// rated.
pub async fn with_changes(store: &Store, games: &mut [Value]) -> StoreResult<()> {
    let ids: Vec<String> = games
        .iter()
        .filter_map(|g| g["id"].as_str().map(str::to_string))
        .collect();
    let changes = store.rating_changes(&ids).await?;
    for g in games.iter_mut() {
        let id = g["id"].as_str().unwrap_or_default().to_string();
        let mine: Vec<Value> = changes
            .iter()
            .filter(|c| c.game_id == id)
            .map(change_json)
            .collect();
        g["rating_changes"] = Value::Array(mine);
    }
    Ok(())
}

/// `GET /api/players/NAME/ratings/GAME`: the account's rating after each
/// of its latest [`RATING_POINTS`] rated games of GAME, oldest first,
/// with its current rating (`null` before its first rated game).
pub async fn rating_history(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    ApiPath((name, game)): ApiPath<(String, String)>,
) -> Response {
    let kind = match GameKind::parse(&game) {
        Ok(kind) => kind,
        Err(e) => return bad_query(e),
    };
    if name.len() > MAX_NAME {
        return no_player(&name);
    }
    if let Err(refused) = take_read(&app, ip) {
        return *refused;
    }
    let store = app.registry.store();
    let account = match store.credentials(&name).await {
        Ok(Some(c)) => c.account,
        Ok(None) => return no_player(&name),
        Err(e) => return internal(e),
    };
    let (points, total) = match store
        .rating_history(account.id, kind.name(), RATING_POINTS)
        .await
    {
        Ok(found) => found,
        Err(e) => return internal(e),
    };
    let rating = match store.ratings(account.id).await {
        Ok(all) => all
            .into_iter()
            .find(|(g, _)| g == kind.name())
            .map(|(_, r)| r.view(now_millis())),
        Err(e) => return internal(e),
    };
    let points: Vec<Value> = points
        .iter()
        .map(|c| {
            let (before, after) = (whole(c.rating_before), whole(c.rating_after));
            json!({
                "at": c.ended_at,
                "game_id": c.game_id,
                "rating": after,
                "deviation": whole(c.deviation_after),
                "change": after - before,
            })
        })
        .collect();
    Json(json!({
        "username": account.username,
        "name": account.display_name,
        "game": kind.name(),
        "rating": rating,
        "points": points,
        "total": total,
        "limit": RATING_POINTS,
    }))
    .into_response()
}
