//! Typed reads of what the server sends, for tests that check fields
//! rather than walk `["field"]` paths: the server's own types (events and
//! the snapshot with the game's view as JSON, the error codes).

use serde::de::DeserializeOwned;
use serde::Deserialize;
use serde_json::{Map, Value};
use server::model::TableId;
use server::protocol::Code;
use server::room::{Event, MatchBody, MatchKind, WireEvent, WireSnapshot};

use super::Client;

/// The answer to a command.
#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Answer {
    Ack {
        id: i64,
        /// What some acks carry (`hello`: `token`, `member`).
        #[serde(flatten)]
        extra: Map<String, Value>,
    },
    Error {
        id: Option<i64>,
        code: Code,
        message: String,
    },
}

impl Answer {
    /// The refusal's code, or `None` for an ack.
    pub fn code(&self) -> Option<Code> {
        match self {
            Answer::Ack { .. } => None,
            Answer::Error { code, .. } => Some(*code),
        }
    }
}

/// A `match` event, typed (the game's view as JSON).
#[derive(Debug)]
pub struct MatchEvent {
    pub v: u64,
    pub table: TableId,
    pub kind: MatchKind,
    pub played: Option<String>,
    pub body: MatchBody<Value>,
}

/// `value` read as `T`, or the test fails naming what did not read.
pub fn read<T: DeserializeOwned>(value: Value) -> T {
    let text = value.to_string();
    serde_json::from_value(value).unwrap_or_else(|e| panic!("{e}: {text}"))
}

impl Client {
    /// Sends `command` and reads its answer typed.
    pub async fn answer_to(&mut self, command: Value) -> Answer {
        read(self.command(command).await)
    }

    /// Asserts that `command` is refused with `code`; returns the message.
    pub async fn refused_with(&mut self, command: Value, code: Code) -> String {
        match self.answer_to(command.clone()).await {
            Answer::Error {
                code: got, message, ..
            } => {
                assert_eq!(got, code, "{command}: {message}");
                message
            }
            ack => panic!("{command} should be refused: {ack:?}"),
        }
    }

    /// The next event of `kind` (its `type`), typed.
    pub async fn next_event(&mut self, kind: &str) -> WireEvent {
        read(self.next_of(kind).await)
    }

    /// The next snapshot, typed.
    pub async fn next_snapshot(&mut self) -> WireSnapshot {
        read(self.next_of("snapshot").await)
    }

    /// The next `match` event of `kind`, skipping other `match` events.
    pub async fn next_match_event(&mut self, kind: MatchKind) -> MatchEvent {
        loop {
            let stamped = self.next_event("match").await;
            let Event::Match {
                table,
                kind: got,
                played,
                view,
                ..
            } = stamped.event
            else {
                unreachable!("a match event");
            };
            if got == kind {
                return MatchEvent {
                    v: stamped.v,
                    table,
                    kind,
                    played,
                    body: *view,
                };
            }
        }
    }
}
