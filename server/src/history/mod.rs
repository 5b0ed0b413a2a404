//! Finished games over HTTP: a person's history, a room's games, one game,
//! and the text export and import (`export.rs`).

pub mod export;
pub mod profile;
pub mod queue;
pub mod ratings;
pub mod replay;

use queue::{HistoryTurn, NoTurn};

use std::collections::HashMap;

use axum::extract::rejection::StringRejection;
use axum::extract::State;
use axum::http::{header, HeaderMap, StatusCode};
use axum::response::{IntoResponse, Response};
use axum::Json;
use serde_json::{json, Value};

use crate::app::error::{json_error, ApiPath, ApiQuery};
use crate::app::state::App;
use crate::games::GameKind;
use crate::limits::client_ip::{too_many, ClientIp};
use crate::model::records::GameRecord;
use crate::model::{is_valid_token, TokenHash};
use crate::store::{HistoryQuery, StoreError, PAGE_SIZE};

/// The results a history can be filtered by.
const RESULTS: [&str; 4] = ["win", "loss", "draw", "aborted"];

pub(crate) fn internal(e: StoreError) -> Response {
    tracing::error!(error = %e, "database error");
    json_error(
        StatusCode::INTERNAL_SERVER_ERROR,
        "internal",
        "Something went wrong on our side.",
    )
}

fn bad_query(message: impl Into<String>) -> Response {
    json_error(StatusCode::BAD_REQUEST, "bad_query", message)
}

/// One of `Limits::profiles` spent for a read from `ip`, or the `429`
/// answer (a profile, a rating history and a history each spend one).
fn take_read(app: &App, ip: std::net::IpAddr) -> Result<(), Box<Response>> {
    app.limits.profiles.take(ip).map_err(|wait| {
        Box::new(too_many(
            wait,
            "Too many profile and history reads from your address",
        ))
    })
}

/// A turn among the [`queue::Histories`] for the client `ip` (and `account`),
/// after spending one of its reads; or the `429` or `503` answer.
async fn history_turn<'a>(
    app: &'a App,
    ip: std::net::IpAddr,
    account: Option<i64>,
    token: &TokenHash,
) -> Result<HistoryTurn<'a>, Box<Response>> {
    take_read(app, ip)?;
    app.histories.turn(ip, account, token).await.map_err(|no| {
        Box::new(match no {
            NoTurn::PerClient => too_many(
                std::time::Duration::from_secs(1),
                "Your address, account or browser is already reading two histories",
            ),
            NoTurn::Busy => {
                let mut answer = json_error(
                    StatusCode::SERVICE_UNAVAILABLE,
                    "busy",
                    "Too many histories are being read; try again in a few seconds.",
                );
                answer
                    .headers_mut()
                    .insert(header::RETRY_AFTER, header::HeaderValue::from_static("5"));
                answer
            }
        })
    })
}

/// Longer than any username: not looked up.
const MAX_NAME: usize = 64;

fn no_player(name: &str) -> Response {
    json_error(
        StatusCode::NOT_FOUND,
        "no_player",
        format!("There is no player {name}."),
    )
}

pub(crate) fn no_game(id: &str) -> Response {
    json_error(
        StatusCode::NOT_FOUND,
        "no_game",
        format!("There is no finished game {id}."),
    )
}

/// `?page=N` (from 1; default 1); `None` when it is not a page number.
fn page_of(query: &HashMap<String, String>) -> Option<u32> {
    match query.get("page") {
        None => Some(1),
        Some(p) => p.parse::<u32>().ok().filter(|&p| p >= 1),
    }
}

const BAD_PAGE: &str = "page must be a whole number from 1";

fn pages(total: u64) -> u64 {
    total.div_ceil(u64::from(PAGE_SIZE)).max(1)
}

/// A game in a list; `result` is the caller's, when known.
fn summary(g: &GameRecord, result: Option<&str>) -> Value {
    let mut v = json!({
        "id": g.id,
        "game": g.game,
        "room": g.room_code,
        "number": g.number,
        "players": g.players,
        "outcome": g.outcome,
        "ended_at": g.ended_at,
    });
    if let Some(result) = result {
        v["result"] = json!(result);
    }
    v
}

/// `GET /api/games` with `Authorization: Bearer TOKEN` (never in the
/// URL: a `?token=` is ignored), and optional `game`, `result` and `page`: the games the caller played, newest first:
/// the browser's, and the account's when the session cookie signs one in.
pub async fn history(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    session: crate::accounts::session::Session,
    headers: HeaderMap,
    ApiQuery(query): ApiQuery,
) -> Response {
    let Reader {
        token: Some(token),
        account,
    } = Reader::of(&headers, &session)
    else {
        return json_error(
            StatusCode::UNAUTHORIZED,
            "no_token",
            "Send your browser token in an Authorization: Bearer TOKEN header.",
        );
    };
    let _turn = match history_turn(&app, ip, account, &token).await {
        Ok(turn) => turn,
        Err(refused) => return *refused,
    };
    let game = match query.get("game") {
        None => None,
        Some(g) => match GameKind::parse(g) {
            Ok(kind) => Some(kind.name().to_string()),
            Err(e) => return bad_query(e),
        },
    };
    let result = match query.get("result") {
        Some(r) if !RESULTS.contains(&r.as_str()) => {
            return bad_query("result must be win, loss, draw or aborted")
        }
        r => r.cloned(),
    };
    let Some(page) = page_of(&query) else {
        return bad_query(BAD_PAGE);
    };
    let store = app.registry.store();
    let q = HistoryQuery {
        account,
        token,
        game,
        result,
        page,
    };
    let found = match store.history(&q).await {
        Ok(found) => found,
        Err(e) => return internal(e),
    };
    let mut games: Vec<Value> = found
        .games
        .iter()
        .map(|(g, r)| summary(g, Some(r)))
        .collect();
    if let Err(e) = ratings::with_changes(store, &mut games).await {
        return internal(e);
    }
    Json(json!({
        "games": games,
        "page": page,
        "pages": pages(found.total),
        "total": found.total,
    }))
    .into_response()
}

/// `GET /api/rooms/CODE/games?page=N`: a room's finished games, newest
/// first.
pub async fn room_games(
    State(app): State<App>,
    ApiPath(code): ApiPath<String>,
    ApiQuery(query): ApiQuery,
) -> Response {
    let no_room = || {
        json_error(
            StatusCode::NOT_FOUND,
            "no_room",
            format!("There is no room {code}."),
        )
    };
    let Some(norm) = crate::code::normalize(&code) else {
        return no_room();
    };
    let Some(page) = page_of(&query) else {
        return bad_query(BAD_PAGE);
    };
    let store = app.registry.store();
    match store.room(&norm).await {
        Ok(Some(_)) => {}
        Ok(None) => return no_room(),
        Err(e) => return internal(e),
    }
    let (games, total) = match store.games_page(&norm, page).await {
        Ok(page) => page,
        Err(e) => return internal(e),
    };
    let mut list: Vec<Value> = games.iter().map(|g| summary(g, None)).collect();
    if let Err(e) = ratings::with_changes(store, &mut list).await {
        return internal(e);
    }
    Json(json!({"games": list, "page": page, "pages": pages(total), "total": total}))
        .into_response()
}

pub(crate) async fn find(app: &App, id: &str) -> Result<Option<GameRecord>, StoreError> {
    if id.len() > 64 {
        return Ok(None);
    }
    app.registry.store().game(id).await
}

/// Spends the replay units of `moves` moves from `ip`'s allowance
/// (`Limits::replays`), or the `429` answer.
fn replay_allowed(app: &App, ip: std::net::IpAddr, moves: usize) -> Result<(), Box<Response>> {
    take_replay_units(app, ip, crate::limits::replay_cost(moves))
}

/// A stored game's read from `ip`: one replay unit before the lookup, so
/// an id that names no game costs as much as one that does (an outside
/// check read unknown ids without end), then the rest of the game's cost
/// once it is found; `Ok(None)` when there is no such game.
async fn find_to_replay(
    app: &App,
    ip: std::net::IpAddr,
    id: &str,
) -> Result<Option<GameRecord>, Box<Response>> {
    take_replay_units(app, ip, 1)?;
    let Some(g) = find(app, id).await.map_err(|e| Box::new(internal(e)))? else {
        return Ok(None);
    };
    match crate::limits::replay_cost(g.moves.len()) - 1 {
        0 => {}
        rest => take_replay_units(app, ip, rest)?,
    }
    Ok(Some(g))
}

fn take_replay_units(app: &App, ip: std::net::IpAddr, units: u32) -> Result<(), Box<Response>> {
    app.limits
        .replays
        .take_n(ip, units)
        .map_err(|wait| Box::new(too_many(wait, "Too many replays from your address")))
}

/// Who reads a game: the browser token of an `Authorization: Bearer`
/// header and the signed-in account, either or both unknown.
pub(crate) struct Reader {
    token: Option<TokenHash>,
    account: Option<i64>,
}

impl Reader {
    pub(crate) fn of(headers: &HeaderMap, session: &crate::accounts::session::Session) -> Reader {
        Reader {
            token: bearer_token(headers)
                .filter(|t| is_valid_token(t))
                .map(|t| TokenHash::of(&t)),
            account: session.signed_in.as_ref().map(|s| s.account.id),
        }
    }
}

/// Blanks the `room` of the game summaries in `games` whose room `reader`
/// may not see ([`crate::store::Store::room_shown_to`]: public rooms, and
/// rooms the reader was a member of).
pub(crate) async fn hide_rooms(
    app: &App,
    reader: &Reader,
    games: &mut [Value],
) -> Result<(), StoreError> {
    let mut shown: HashMap<String, bool> = HashMap::new();
    for g in games.iter_mut() {
        let Some(code) = g["room"].as_str().map(str::to_string) else {
            continue;
        };
        let see = match shown.get(&code) {
            Some(&see) => see,
            None => {
                let see = app
                    .registry
                    .store()
                    .room_shown_to(&code, reader.token.as_ref(), reader.account)
                    .await?;
                shown.insert(code, see);
                see
            }
        };
        if !see {
            g["room"] = Value::Null;
        }
    }
    Ok(())
}

/// `GET /api/games/ID`: one finished game with its moves; its `room` only
/// for a reader who may see it ([`hide_rooms`]).
pub async fn game(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    session: crate::accounts::session::Session,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Response {
    let reader = Reader::of(&headers, &session);
    match find_to_replay(&app, ip, &id).await {
        Ok(Some(g)) => {
            let mut v = [summary(&g, None)];
            if let Err(e) = ratings::with_changes(app.registry.store(), &mut v).await {
                return internal(e);
            }
            if let Err(e) = hide_rooms(&app, &reader, &mut v).await {
                return internal(e);
            }
            let [mut v] = v;
            v["options"] = g.options.clone();
            v["moves"] = json!(g.moves);
            v["leaves"] = json!(g.leaves);
            v["takebacks"] = json!(g.takebacks);
            v["started_at"] = json!(g.started_at);
            // Whether its analysis was asked for: a page reads it only then.
            v["analysis"] = match app.registry.store().analysis_status(&id).await {
                Ok(status) => json!(status),
                Err(e) => return internal(e),
            };
            // Every position played again: off the async workers.
            let positions = tokio::task::spawn_blocking(move || match GameKind::parse(&g.game) {
                Ok(kind) => json!(replay::positions(kind, &g.options, &g.moves, &g.leaves)),
                Err(_) => json!([]),
            });
            v["positions"] = match positions.await {
                Ok(positions) => positions,
                Err(e) => {
                    tracing::error!(error = %e, "replay failed");
                    return json_error(
                        StatusCode::INTERNAL_SERVER_ERROR,
                        "internal",
                        "Something went wrong on our side.",
                    );
                }
            };
            Json(v).into_response()
        }
        Ok(None) => no_game(&id),
        Err(refused) => *refused,
    }
}

/// `GET /api/position?game=G&options=JSON&moves=M1,M2`: the position
/// after `moves` played from a fresh game of `game` with `options` (both
/// optional), with the legal moves there and, once the game is over, each
/// side's scoreboard points: the rules pages draw their diagrams from
/// these, so every diagram is a position the rules reach.
pub async fn position(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    ApiQuery(query): ApiQuery,
) -> Response {
    let kind = match GameKind::parse(query.get("game").map_or("", String::as_str)) {
        Ok(kind) => kind,
        Err(e) => return bad_query(e),
    };
    // Read as the rooms read them: a key given twice is refused too.
    let options = match query
        .get("options")
        .map(|o| serde_json::from_str::<crate::games::SentOptions>(o))
    {
        None => Value::Null,
        Some(Ok(sent)) => match sent.json() {
            Ok(o) => o.clone(),
            Err(e) => return bad_query(e),
        },
        Some(Err(e)) => return bad_query(format!("options are not JSON: {e}")),
    };
    let parsed = match crate::games::GameOptions::parse(kind, &options) {
        Ok(o) => o,
        Err(e) => return bad_query(e),
    };
    let mut replay = match replay::Replay::new(&parsed) {
        Ok(r) => r,
        Err(e) => return bad_query(e.to_string()),
    };
    // `moves=` alone is no moves; an empty item between commas is an
    // unreadable move like any other, refused with its number.
    let moves: Vec<&str> = query
        .get("moves")
        .filter(|m| !m.is_empty())
        .map(|m| m.split(',').collect())
        .unwrap_or_default();
    if let Err(refused) = replay_allowed(&app, ip, moves.len()) {
        return *refused;
    }
    let mut played = Vec::with_capacity(moves.len());
    for (i, mv) in moves.iter().enumerate() {
        match replay.play(mv) {
            Ok(mv) => played.push(mv),
            Err(e) => return bad_query(format!("move {}: illegal move {mv:?}: {e}", i + 1)),
        }
    }
    let game = &replay.log().game;
    Json(json!({
        "game": kind.name(),
        "options": parsed.to_json(),
        "moves": played,
        "state": game,
        "legal": game.legal(),
        "points": game.points(),
    }))
    .into_response()
}

/// `GET /api/games/ID/export`: the game as text; its `[Room]` only for a
/// reader who may see the room (as [`hide_rooms`] decides), and spent from the
/// address's replays as a replay of it.
pub async fn export_game(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    session: crate::accounts::session::Session,
    headers: HeaderMap,
    ApiPath(id): ApiPath<String>,
) -> Response {
    let reader = Reader::of(&headers, &session);
    let mut g = match find_to_replay(&app, ip, &id).await {
        Ok(Some(g)) => g,
        Ok(None) => return no_game(&id),
        Err(refused) => return *refused,
    };
    match app
        .registry
        .store()
        .room_shown_to(&g.room_code, reader.token.as_ref(), reader.account)
        .await
    {
        Ok(true) => {}
        Ok(false) => g.room_code.clear(),
        Err(e) => return internal(e),
    }
    (
        [
            (header::CONTENT_TYPE, "text/plain; charset=utf-8"),
            (
                header::CONTENT_DISPOSITION,
                &format!("attachment; filename=\"{}-{}.txt\"", g.game, g.number),
            ),
        ],
        export::export(&g),
    )
        .into_response()
}

/// `POST /api/games/import` with the text as the body: the game, every
/// move replayed, or `400 bad_import` naming the first bad line; `429`
/// past the address's allowance (`Limits::imports`), `413 too_large` for a
/// text or an answer past the bounds of `export.rs`.
pub async fn import_game(
    State(app): State<App>,
    ClientIp(ip): ClientIp,
    body: Result<String, StringRejection>,
) -> Response {
    let g = match read_import(&app, ip, body) {
        Ok(g) => g,
        Err(refused) => return *refused,
    };
    let answer = json!({
        "game": g.game.name(),
        "options": g.options,
        "players": g.players,
        "moves": g.moves,
        "leaves": g.leaves,
        "outcome": g.outcome,
        "positions": g.positions,
    })
    .to_string();
    if answer.len() > export::MAX_IMPORT_ANSWER {
        return json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!(
                "The replayed game is too large to send ({} KiB; at most {} KiB).",
                answer.len() / 1024,
                export::MAX_IMPORT_ANSWER / 1024
            ),
        );
    }
    ([(header::CONTENT_TYPE, "application/json")], answer).into_response()
}

/// A game's text read and replayed as `POST /api/games/import` reads it
/// (also for the analysis of an imported game), or the refusal to answer:
/// `429` past the address's allowance (`Limits::imports`), `413
/// too_large` past the bounds of `export.rs`, `400 bad_import` naming the
/// first bad line.
pub(crate) fn read_import(
    app: &App,
    ip: std::net::IpAddr,
    body: Result<String, StringRejection>,
) -> Result<export::Imported, Box<Response>> {
    if let Err(wait) = app.limits.imports.take(ip) {
        return Err(Box::new(too_many(
            wait,
            "Too many imports from your address",
        )));
    }
    let body = match body {
        Ok(body) => body,
        Err(e) if e.status() == StatusCode::PAYLOAD_TOO_LARGE => {
            return Err(Box::new(crate::app::error::body_too_large()))
        }
        // The body came too late, or not whole: as for every body.
        Err(StringRejection::FailedToBufferBody(e)) => {
            return Err(Box::new(json_error(
                StatusCode::BAD_REQUEST,
                "bad_message",
                e.body_text(),
            )))
        }
        Err(e) => {
            return Err(Box::new(json_error(
                StatusCode::BAD_REQUEST,
                "bad_import",
                e.body_text(),
            )))
        }
    };
    let moves = export::move_lines(&body);
    if moves > export::MAX_IMPORT_MOVES {
        return Err(Box::new(json_error(
            StatusCode::PAYLOAD_TOO_LARGE,
            "too_large",
            format!(
                "An import has at most {} moves; this one has {moves}.",
                export::MAX_IMPORT_MOVES
            ),
        )));
    }
    export::import(&body).map_err(|e| {
        Box::new(json_error(
            StatusCode::BAD_REQUEST,
            "bad_import",
            e.to_string(),
        ))
    })
}

/// The token of an `Authorization: Bearer TOKEN` header (any case of
/// "Bearer"), if the request has one.
pub fn bearer_token(headers: &HeaderMap) -> Option<String> {
    headers
        .get(header::AUTHORIZATION)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.split_once(' '))
        .filter(|(scheme, _)| scheme.eq_ignore_ascii_case("bearer"))
        .map(|(_, t)| t.trim().to_string())
}
