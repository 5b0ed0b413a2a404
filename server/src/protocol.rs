//! The messages of `docs/PROTOCOL.md`: what clients send, and the error
//! codes the server answers with. Outgoing events are typed in
//! `room/event.rs` (views of the room's state) and serialised once per
//! event by the room's task.

use serde::{Deserialize, Serialize};
use serde_json::{json, Value};

use crate::bots::Level;
use crate::room::{MemberId, TableId};

/// Largest text frame the server reads; anything larger gets `too_large`
/// without being parsed, so a client cannot make the server allocate or
/// parse big documents.
pub const MAX_MESSAGE_BYTES: usize = 16 * 1024;

/// A command from a client, with the id it will be answered under.
#[derive(Debug, Deserialize)]
pub struct Envelope {
    pub id: i64,
    #[serde(flatten)]
    pub command: Command,
}

/// Where a client's view of a room stands: the `epoch` of its last
/// snapshot and the version `v` of the last event it applied.
#[derive(Clone, Debug, Deserialize, PartialEq, Eq)]
#[serde(deny_unknown_fields)]
pub struct Since {
    pub epoch: String,
    pub v: u64,
}

#[derive(Debug, Deserialize)]
#[serde(tag = "type", rename_all = "snake_case")]
pub enum Command {
    Hello {
        #[serde(default)]
        token: Option<String>,
        #[serde(default)]
        name: Option<String>,
        /// A reconnecting client's last event: the room sends the events it
        /// missed instead of a snapshot, if it still has them.
        #[serde(default)]
        since: Option<Since>,
    },
    Name {
        name: String,
    },
    Sit {
        seat: usize,
    },
    Stand,
    /// `order`: `"random"` (default) draws who plays side 0; `"seats"`
    /// gives seat `i` side `i`.
    Start {
        #[serde(default)]
        order: Order,
    },
    /// `table`: the table to play on (default: the one where the member
    /// plays).
    Move {
        #[serde(rename = "move")]
        mv: String,
        #[serde(default)]
        table: Option<TableId>,
    },
    Resign {
        #[serde(default)]
        table: Option<TableId>,
    },
    /// `game` switches the room to another game (between games).
    Options {
        #[serde(default)]
        game: Option<String>,
        #[serde(default)]
        options: Value,
    },
    /// Puts the computer in a free seat at `level`, or takes it out of
    /// the seat when `level` is missing or null.
    Computer {
        seat: usize,
        #[serde(default)]
        level: Option<Level>,
    },
    Chat {
        text: String,
    },
    Ping,
    /// The host pauses (`true`) or resumes the auto-start countdown.
    Countdown {
        paused: bool,
    },
    /// The host turns the room's auto-start on or off.
    Autostart {
        enabled: bool,
    },
    /// The host stops the knockout tournament (between rounds).
    Stop,
    /// A draw offer at `table` (default: where the member plays), or the
    /// answer to the opponent's.
    Draw {
        action: DrawAction,
        #[serde(default)]
        table: Option<TableId>,
    },
    /// A player of the last game asks for another at once.
    Rematch,
    /// The host takes `member` out of their seat (between games).
    Unseat {
        member: MemberId,
    },
    /// The host removes `member` from the room; their browser stays out
    /// until let back in.
    Remove {
        member: MemberId,
    },
    /// The host lets a removed member back in.
    Readmit {
        member: MemberId,
    },
    /// Joins (`true`) or leaves voice chat.
    Voice {
        join: bool,
    },
    /// Mutes or unmutes one's own voice.
    Mute {
        muted: bool,
    },
    /// The host mutes (or unmutes) `member`'s voice for everyone.
    VoiceMute {
        member: MemberId,
        muted: bool,
    },
    /// WebRTC signalling for voice chat, relayed to `to` only.
    Signal {
        to: MemberId,
        #[serde(flatten)]
        signal: Signal,
    },
    /// The host marks the room's games rated, or not (between games).
    Rated {
        rated: bool,
    },
}

/// What a `draw` command does.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum DrawAction {
    Offer,
    Accept,
    Decline,
}

/// One WebRTC signalling message (docs/PROTOCOL.md, "Voice chat"): a
/// session description, or one ICE candidate (`candidate` empty: the end
/// of the candidates). The server checks its size and form, never its
/// meaning.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Signal {
    Offer {
        sdp: String,
    },
    Answer {
        sdp: String,
    },
    Candidate {
        candidate: String,
        #[serde(default)]
        mid: Option<String>,
        #[serde(default)]
        line: Option<u16>,
    },
}

impl Command {
    /// Name used in logs and tracing spans.
    pub fn kind(&self) -> &'static str {
        match self {
            Command::Hello { .. } => "hello",
            Command::Name { .. } => "name",
            Command::Sit { .. } => "sit",
            Command::Stand => "stand",
            Command::Start { .. } => "start",
            Command::Move { .. } => "move",
            Command::Resign { .. } => "resign",
            Command::Options { .. } => "options",
            Command::Computer { .. } => "computer",
            Command::Chat { .. } => "chat",
            Command::Ping => "ping",
            Command::Countdown { .. } => "countdown",
            Command::Autostart { .. } => "autostart",
            Command::Stop => "stop",
            Command::Draw { .. } => "draw",
            Command::Rematch => "rematch",
            Command::Unseat { .. } => "unseat",
            Command::Remove { .. } => "remove",
            Command::Readmit { .. } => "readmit",
            Command::Voice { .. } => "voice",
            Command::Mute { .. } => "mute",
            Command::VoiceMute { .. } => "voice_mute",
            Command::Signal { .. } => "signal",
            Command::Rated { .. } => "rated",
        }
    }
}

/// Who plays which side when a game starts (RULES.md: random unless the
/// host fixes it).
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum Order {
    #[default]
    Random,
    Seats,
}

/// The protocol's error codes (docs/PROTOCOL.md), one per kind of
/// refusal; programs match on these, people read the message.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
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
    DrawOffered,
    NoOffer,
    NoMember,
    Removed,
    NotInVoice,
    BadSignal,
    /// `voice`: only a member with a name (or an account) joins voice.
    NameFirst,
}

impl Code {
    pub fn as_str(self) -> &'static str {
        match self {
            Code::BadMessage => "bad_message",
            Code::TooLarge => "too_large",
            Code::RateLimited => "rate_limited",
            Code::HelloFirst => "hello_first",
            Code::BadName => "bad_name",
            Code::BadText => "bad_text",
            Code::NotHost => "not_host",
            Code::NoSeat => "no_seat",
            Code::GameRunning => "game_running",
            Code::NoGame => "no_game",
            Code::NotYourTurn => "not_your_turn",
            Code::IllegalMove => "illegal_move",
            Code::BadOptions => "bad_options",
            Code::NotReady => "not_ready",
            Code::Late => "late",
            Code::NoCountdown => "no_countdown",
            Code::NoTable => "no_table",
            Code::RoomFull => "room_full",
            Code::Internal => "internal",
            Code::NoDraws => "no_draws",
            Code::DrawOffered => "draw_offered",
            Code::NoOffer => "no_offer",
            Code::NoMember => "no_member",
            Code::Removed => "removed",
            Code::NotInVoice => "not_in_voice",
            Code::BadSignal => "bad_signal",
            Code::NameFirst => "name_first",
        }
    }
}

impl std::fmt::Display for Code {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Why a command was refused. The code is for programs, the message for
/// people.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Refusal {
    pub code: Code,
    pub message: String,
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
        json!({"type": "error", "id": id, "code": self.code, "message": self.message}).to_string()
    }
}

impl From<crate::games::MoveError> for Refusal {
    fn from(e: crate::games::MoveError) -> Refusal {
        Refusal::new(Code::IllegalMove, e.to_string())
    }
}

/// Reads a text frame into a command. On failure, returns the id if it
/// could be read, so the error can still be matched to the command.
pub fn parse(text: &str) -> Result<Envelope, (Option<i64>, Refusal)> {
    if text.len() > MAX_MESSAGE_BYTES {
        return Err((
            None,
            Refusal::new(
                Code::TooLarge,
                format!(
                    "Message too large ({} bytes; the limit is {MAX_MESSAGE_BYTES}).",
                    text.len()
                ),
            ),
        ));
    }
    let value: Value = serde_json::from_str(text).map_err(|e| {
        (
            None,
            Refusal::new(Code::BadMessage, format!("Not valid JSON: {e}.")),
        )
    })?;
    let id = value.get("id").and_then(Value::as_i64);
    if id.is_none() {
        return Err((
            None,
            Refusal::new(Code::BadMessage, "Every command needs an integer \"id\"."),
        ));
    }
    // serde reads an internally tagged enum's tag from a number as the
    // variant's index (`"type":6` would be `resign`): only the documented
    // names are commands, so the tags (`type`, and a signal's `kind`) must
    // be JSON strings.
    let is_signal = value.get("type").and_then(Value::as_str) == Some("signal");
    let tags: &[&str] = if is_signal {
        &["type", "kind"]
    } else {
        &["type"]
    };
    for tag in tags {
        if !value.get(*tag).is_some_and(Value::is_string) {
            return Err((
                id,
                Refusal::new(
                    Code::BadMessage,
                    format!("Every command needs a string \"{tag}\"."),
                ),
            ));
        }
    }
    serde_json::from_value(value).map_err(|e| {
        (
            id,
            Refusal::new(Code::BadMessage, format!("Cannot read command: {e}.")),
        )
    })
}

/// The `ack` answer to command `id`, with optional extra fields.
pub fn ack(id: i64, extra: Option<Value>) -> String {
    let mut msg = json!({"type": "ack", "id": id});
    if let (Some(Value::Object(extra)), Value::Object(map)) = (extra, &mut msg) {
        map.extend(extra);
    }
    msg.to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn reads_a_move_command() {
        let env = parse(r#"{"id":6,"type":"move","move":"e5"}"#).unwrap();
        assert_eq!(env.id, 6);
        assert!(matches!(env.command, Command::Move { mv, table: None } if mv == "e5"));
    }

    #[test]
    fn start_reads_an_optional_order() {
        let plain = parse(r#"{"id":1,"type":"start"}"#).unwrap();
        assert!(matches!(
            plain.command,
            Command::Start {
                order: Order::Random
            }
        ));
        let fixed = parse(r#"{"id":2,"type":"start","order":"seats"}"#).unwrap();
        assert!(matches!(
            fixed.command,
            Command::Start {
                order: Order::Seats
            }
        ));
        assert!(parse(r#"{"id":3,"type":"start","order":"alphabetical"}"#).is_err());
    }

    #[test]
    fn computer_reads_a_level_or_none() {
        let add = parse(r#"{"id":1,"type":"computer","seat":1,"level":"master"}"#).unwrap();
        assert!(matches!(
            add.command,
            Command::Computer {
                seat: 1,
                level: Some(Level::Master)
            }
        ));
        let remove = parse(r#"{"id":2,"type":"computer","seat":0,"level":null}"#).unwrap();
        assert!(matches!(
            remove.command,
            Command::Computer {
                seat: 0,
                level: None
            }
        ));
        let (id, refusal) =
            parse(r#"{"id":3,"type":"computer","seat":0,"level":"god"}"#).unwrap_err();
        assert_eq!((id, refusal.code), (Some(3), Code::BadMessage));
    }

    #[test]
    fn options_may_switch_the_game() {
        let env = parse(r#"{"id":1,"type":"options","game":"jungle","options":{"clock":[3,2]}}"#)
            .unwrap();
        match env.command {
            Command::Options { game, options } => {
                assert_eq!(game.as_deref(), Some("jungle"));
                assert_eq!(options, json!({"clock": [3, 2]}));
            }
            other => panic!("{other:?}"),
        }
    }

    #[test]
    fn signal_reads_a_description_or_a_candidate() {
        let offer =
            parse(r#"{"id":1,"type":"signal","to":"m2","kind":"offer","sdp":"v=0"}"#).unwrap();
        assert!(matches!(
            offer.command,
            Command::Signal { to: MemberId(2), signal: Signal::Offer { ref sdp } } if sdp == "v=0"
        ));
        let ice = parse(
            r#"{"id":2,"type":"signal","to":"m3","kind":"candidate","candidate":"candidate:1","mid":"0","line":0}"#,
        )
        .unwrap();
        assert!(matches!(
            ice.command,
            Command::Signal {
                signal: Signal::Candidate { line: Some(0), .. },
                ..
            }
        ));
        for bad in [
            r#"{"id":3,"type":"signal","to":"m2","kind":"hug","sdp":"v=0"}"#,
            r#"{"id":3,"type":"signal","to":"x2","kind":"offer","sdp":"v=0"}"#,
            r#"{"id":3,"type":"signal","to":"m2","kind":"offer"}"#,
        ] {
            let (id, refusal) = parse(bad).unwrap_err();
            assert_eq!((id, refusal.code), (Some(3), Code::BadMessage), "{bad}");
        }
    }

    #[test]
    fn draw_reads_its_action() {
        let env = parse(r#"{"id":1,"type":"draw","action":"offer"}"#).unwrap();
        assert!(matches!(
            env.command,
            Command::Draw {
                action: DrawAction::Offer,
                table: None
            }
        ));
        assert!(parse(r#"{"id":2,"type":"draw","action":"maybe"}"#).is_err());
    }

    #[test]
    fn malformed_json_has_no_id() {
        let (id, refusal) = parse("{nope").unwrap_err();
        assert_eq!(id, None);
        assert_eq!(refusal.code, Code::BadMessage);
    }

    #[test]
    fn unknown_type_keeps_the_id() {
        let (id, refusal) = parse(r#"{"id":3,"type":"fly"}"#).unwrap_err();
        assert_eq!(id, Some(3));
        assert_eq!(refusal.code, Code::BadMessage);
    }

    #[test]
    fn missing_field_is_refused() {
        let (id, _) = parse(r#"{"id":4,"type":"sit"}"#).unwrap_err();
        assert_eq!(id, Some(4));
    }

    #[test]
    fn oversized_text_is_refused_unparsed() {
        let big = format!(
            r#"{{"id":1,"type":"chat","text":"{}"}}"#,
            "x".repeat(MAX_MESSAGE_BYTES)
        );
        assert_eq!(parse(&big).unwrap_err().1.code, Code::TooLarge);
    }

    #[test]
    fn ack_carries_extra_fields() {
        let v: Value = serde_json::from_str(&ack(1, Some(json!({"member": "m1"})))).unwrap();
        assert_eq!(v, json!({"type": "ack", "id": 1, "member": "m1"}));
    }
}
