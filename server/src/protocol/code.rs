//! The protocol's error codes and the refusal that carries one.

use serde::{Deserialize, Serialize};

/// The protocol's error codes (docs/PROTOCOL.md), one per kind of
/// refusal; programs match on these, people read the message. The
/// names are serde's (`bad_message`), in logs as on the wire.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Code {
    BadMessage,
    TooLarge,
    RateLimited,
    HelloFirst,
    BadName,
    BadText,
    NotHost,
    NoSeat,
    GameRunning,
    NoGame,
    NotYourTurn,
    IllegalMove,
    BadOptions,
    NotReady,
    Late,
    NoCountdown,
    NoTable,
    RoomFull,
    Internal,
    NoDraws,
    /// `takeback`: nothing of one's own to take back, asked already at
    /// this move, a rated or tournament room (against a person), a game
    /// not of two players, or moves the log cannot take back.
    NoTakeback,
    DrawOffered,
    NoOffer,
    NoMember,
    Removed,
    NotInVoice,
    BadSignal,
    /// `voice`: only a member with a name (or an account) joins voice.
    NameFirst,
    /// `claim`: no opponent has been away long enough.
    NoClaim,
    /// `public`: a solo room (a game against the computer) is never
    /// listed.
    SoloRoom,
    /// Lobby `seek`: an unknown game or time control, or a bad range.
    BadSeek,
    /// Lobby `seek`: a rated seek needs a signed-in account.
    SignInToRate,
    /// Lobby `seek`: this socket already has an open seek.
    SeekOpen,
    /// Lobby `seek`: the account or address has too many open seeks.
    TooManySeeks,
    /// Lobby `cancel`: no open seek on this socket.
    NoSeek,
    /// `hint`: not a player of a running game in which every other seat
    /// is the computer.
    NoHint,
    /// `hint`: the member's last hint is still being searched.
    HintBusy,
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(rules::serde_name::variant_name(self))
    }
}

/// Why a command was refused. The code is for programs, the message for
/// people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: Code,
    pub message: String,
}

/// The `error` answer as it goes out.
#[derive(Serialize)]
#[serde(tag = "type", rename = "error")]
struct ErrorFrame<'a> {
    id: Option<i64>,
    code: Code,
    message: &'a str,
}

impl Refusal {
    pub fn new(code: Code, message: impl Into<String>) -> Refusal {
        Refusal {
            code,
            message: message.into(),
        }
    }

    /// The `error` answer to command `id` (`None` when the id could not be
    /// read).
    pub fn to_message(&self, id: Option<i64>) -> String {
        let frame = ErrorFrame {
            id,
            code: self.code,
            message: &self.message,
        };
        serde_json::to_string(&frame).expect("an error frame serialises")
    }
}

impl From<crate::games::MoveError> for Refusal {
    fn from(e: crate::games::MoveError) -> Refusal {
        Refusal::new(Code::IllegalMove, e.to_string())
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::{json, Value};

    #[test]
    fn a_code_prints_as_it_travels() {
        for code in [Code::BadMessage, Code::NameFirst, Code::NotYourTurn] {
            assert_eq!(json!(code), json!(code.to_string()));
        }
    }

    #[test]
    fn an_error_names_its_command() {
        let text = Refusal::new(Code::NoSeat, "Taken.").to_message(Some(4));
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(
            v,
            json!({"type": "error", "id": 4, "code": "no_seat", "message": "Taken."})
        );
        let text = Refusal::new(Code::BadMessage, "?").to_message(None);
        let v: Value = serde_json::from_str(&text).unwrap();
        assert_eq!(v["id"], Value::Null);
    }
}
