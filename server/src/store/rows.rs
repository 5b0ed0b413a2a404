//! Reading the rows back into records. A row that no
//! longer reads (written by another version) is skipped or defaulted, never
//! a reason to refuse the whole room.

use serde::de::DeserializeOwned;
use serde_json::Value;
use sqlx::any::AnyRow;
use sqlx::Row;

use crate::games::{GameKind, GameOptions};
use crate::model::records::{AccountRef, Person, ScoreRow};
use crate::model::records::{LiveGame, MemberRow, RoomRow};
use crate::model::{MemberId, TableId, TokenHash};

pub(super) fn json<T: DeserializeOwned>(row: &AnyRow, column: &str) -> Option<T> {
    serde_json::from_str(row.try_get::<&str, _>(column).ok()?).ok()
}

pub(super) fn room_of(row: &AnyRow) -> RoomRow {
    let game: String = row.get("game");
    let kind = GameKind::parse(&game).unwrap_or(GameKind::CrossyRay);
    let options = json::<Value>(row, "options")
        .and_then(|v| GameOptions::parse(kind, &v).ok())
        .or_else(|| GameOptions::parse(kind, &Value::Null).ok())
        .expect("every game has default options");
    RoomRow {
        code: row.get("code"),
        options,
        host: row
            .get::<Option<String>, _>("host_hash")
            .map(TokenHash::from_stored),
        autostart: row.get::<i64, _>("autostart") != 0,
        solo: row.get::<i64, _>("solo") != 0,
        rated: row.get::<i64, _>("rated") != 0,
        start_when_seated: row.get::<i64, _>("start_when_seated") != 0,
        public: row.get::<i64, _>("public") != 0,
        games_played: row.get::<i64, _>("games_played") as u32,
        next_member: row.get::<i64, _>("next_member").max(1) as u32,
        table: row
            .get::<Option<String>, _>("table_id")
            .and_then(|t| t.parse().ok())
            .unwrap_or_default(),
    }
}

pub(super) fn member_of(row: &AnyRow) -> MemberRow {
    let account = match (
        row.get::<Option<i64>, _>("account_id"),
        row.get::<Option<String>, _>("account_name"),
    ) {
        (Some(id), Some(username)) => Some(AccountRef {
            id,
            display_name: row
                .get::<Option<String>, _>("display_name")
                .unwrap_or_else(|| username.clone()),
            username,
        }),
        _ => None,
    };
    MemberRow {
        id: MemberId(row.get::<i64, _>("id") as u32),
        token: row
            .get::<Option<String>, _>("token_hash")
            .map(TokenHash::from_stored),
        name: row.get("name"),
        seat: row.get::<Option<i64>, _>("seat").map(|s| s as usize),
        host: row.get::<i64, _>("host") != 0,
        computer: row
            .get::<Option<String>, _>("computer")
            .and_then(|l| l.parse().ok()),
        account,
        removed: row.get::<i64, _>("removed") != 0,
    }
}

pub(super) fn score_of(row: &AnyRow) -> Option<ScoreRow> {
    Some(ScoreRow {
        person: Person::from_key(row.get("person"))?,
        name: row.get("name"),
        account: row.get("account"),
        points: row.get::<i64, _>("points") as u32,
        wins: row.get::<i64, _>("wins") as u32,
        draws: row.get::<i64, _>("draws") as u32,
        losses: row.get::<i64, _>("losses") as u32,
    })
}

pub(super) fn live_of(row: &AnyRow) -> Option<LiveGame> {
    let kind = GameKind::parse(row.get("game")).ok()?;
    Some(LiveGame {
        id: row.get::<String, _>("id").parse().ok()?,
        table: row.get::<String, _>("table_id").parse::<TableId>().ok()?,
        number: row.get::<i64, _>("number") as u32,
        options: GameOptions::parse(kind, &json(row, "options")?).ok()?,
        sides: json(row, "sides")?,
        order: json(row, "play_order")?,
        started_at: row.get::<i64, _>("started_at") as u64,
        deadline: row
            .try_get::<Option<i64>, _>("deadline")
            .ok()
            .flatten()
            .map(|d| d as u64),
    })
}
