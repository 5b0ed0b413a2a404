//! Reading commands from frames: each command's fields, and the frames
//! that are no command.

use serde_json::json;

use super::*;
use crate::bots::Level;
use crate::games::GameKind;
use crate::protocol::{
    parse, Code, DrawAction, Envelope, Order, Refusal, Signal, MAX_MESSAGE_BYTES,
};

fn read(text: &str) -> Result<Envelope<Command>, (Option<i64>, Refusal)> {
    parse(text)
}

#[test]
fn reads_a_move_command() {
    let env = read(r#"{"id":6,"type":"move","move":"e5"}"#).unwrap();
    assert_eq!(env.id, 6);
    assert!(
        matches!(env.command, Command::Move(Move { mv, table: None, lag_ms: 0 }) if mv == "e5")
    );
}

#[test]
fn start_reads_an_optional_order() {
    let plain = read(r#"{"id":1,"type":"start"}"#).unwrap();
    assert!(matches!(
        plain.command,
        Command::Start(Start {
            order: Order::Random
        })
    ));
    let fixed = read(r#"{"id":2,"type":"start","order":"seats"}"#).unwrap();
    assert!(matches!(
        fixed.command,
        Command::Start(Start {
            order: Order::Seats
        })
    ));
    assert!(read(r#"{"id":3,"type":"start","order":"alphabetical"}"#).is_err());
}

#[test]
fn computer_reads_a_level_or_none() {
    let add = read(r#"{"id":1,"type":"computer","seat":1,"level":"master"}"#).unwrap();
    assert!(matches!(
        add.command,
        Command::Computer(Computer {
            seat: 1,
            level: Some(Level::Master)
        })
    ));
    let remove = read(r#"{"id":2,"type":"computer","seat":0,"level":null}"#).unwrap();
    assert!(matches!(
        remove.command,
        Command::Computer(Computer {
            seat: 0,
            level: None
        })
    ));
    let (id, refusal) = read(r#"{"id":3,"type":"computer","seat":0,"level":"god"}"#).unwrap_err();
    assert_eq!((id, refusal.code), (Some(3), Code::BadMessage));
}

#[test]
fn options_may_switch_the_game() {
    let env =
        read(r#"{"id":1,"type":"options","game":"jungle","options":{"clock":[3,2]}}"#).unwrap();
    match env.command {
        Command::Options(Options { game, options }) => {
            assert_eq!(game, Some(Ok(GameKind::Jungle)));
            assert_eq!(options.json(), Ok(&json!({"clock": [3, 2]})));
        }
        other => panic!("{other:?}"),
    }
    // A key given twice in the options, which a JSON value would read as
    // its last, is kept as the host's `bad_options` too, at any depth.
    for (frame, path) in [
        (
            r#"{"id":4,"type":"options","options":{"width":9,"width":11}}"#,
            "width",
        ),
        (
            r#"{"id":5,"type":"options","game":"jungle","options":{"clock":{"minutes":3,"increment":2,"minutes":5}}}"#,
            "clock.minutes",
        ),
    ] {
        let env = read(frame).unwrap();
        match env.command {
            Command::Options(Options { options, .. }) => assert_eq!(
                options.json(),
                Err(format!("Bad options: `{path}` is given twice."))
            ),
            other => panic!("{other:?}"),
        }
    }
    // An unknown game is the host's to hear about (`bad_options`), after
    // the checks that come first.
    let env = read(r#"{"id":2,"type":"options","game":"chess"}"#).unwrap();
    assert!(matches!(
        env.command,
        Command::Options(Options { game: Some(Err(m)), .. }) if m.contains("chess")
    ));
    let (id, refusal) = read(r#"{"id":3,"type":"options","game":5}"#).unwrap_err();
    assert_eq!((id, refusal.code), (Some(3), Code::BadMessage));
}

#[test]
fn signal_reads_a_description_or_a_candidate() {
    let offer = read(r#"{"id":1,"type":"signal","to":"m2","kind":"offer","sdp":"v=0"}"#).unwrap();
    assert!(matches!(
        offer.command,
        Command::Signal(SendSignal { to: MemberId(2), signal: Signal::Offer { ref sdp } }) if sdp == "v=0"
    ));
    let ice = read(
        r#"{"id":2,"type":"signal","to":"m3","kind":"candidate","candidate":"candidate:1","mid":"0","line":0}"#,
    )
    .unwrap();
    assert!(matches!(
        ice.command,
        Command::Signal(SendSignal {
            signal: Signal::Candidate { line: Some(0), .. },
            ..
        })
    ));
    // Relayed as sent: a candidate without `mid` and `line` leaves them out.
    let bare = Signal::Candidate {
        candidate: String::new(),
        mid: None,
        line: None,
    };
    assert_eq!(
        serde_json::to_value(&bare).unwrap(),
        serde_json::json!({"kind": "candidate", "candidate": ""})
    );
    for bad in [
        r#"{"id":3,"type":"signal","to":"m2","kind":"hug","sdp":"v=0"}"#,
        r#"{"id":3,"type":"signal","to":"x2","kind":"offer","sdp":"v=0"}"#,
        r#"{"id":3,"type":"signal","to":"m2","kind":"offer"}"#,
    ] {
        let (id, refusal) = read(bad).unwrap_err();
        assert_eq!((id, refusal.code), (Some(3), Code::BadMessage), "{bad}");
    }
}

#[test]
fn draw_reads_its_action() {
    let env = read(r#"{"id":1,"type":"draw","action":"offer"}"#).unwrap();
    assert!(matches!(
        env.command,
        Command::Draw(Draw {
            action: DrawAction::Offer,
            table: None
        })
    ));
    assert!(read(r#"{"id":2,"type":"draw","action":"maybe"}"#).is_err());
}

#[test]
fn malformed_json_has_no_id() {
    let (id, refusal) = read("{nope").unwrap_err();
    assert_eq!(id, None);
    assert_eq!(refusal.code, Code::BadMessage);
    assert!(
        refusal.message.starts_with("Not valid JSON: "),
        "{refusal:?}"
    );
    let (_, refusal) = read("").unwrap_err();
    assert_eq!(
        refusal.message,
        "Not valid JSON: EOF while parsing a value at line 1 column 0."
    );
    let (id, _) = read(r#"{"id":1,"type":"ping"} x"#).unwrap_err();
    assert_eq!(id, None);
}

#[test]
fn unknown_type_keeps_the_id() {
    let (id, refusal) = read(r#"{"id":3,"type":"fly"}"#).unwrap_err();
    assert_eq!(id, Some(3));
    assert_eq!(refusal.code, Code::BadMessage);
    assert!(refusal
        .message
        .starts_with("Cannot read command: unknown variant `fly`"));
}

#[test]
fn missing_field_is_refused() {
    let (id, refusal) = read(r#"{"id":4,"type":"sit"}"#).unwrap_err();
    assert_eq!(id, Some(4));
    assert_eq!(
        refusal.message,
        "Cannot read command: missing field `seat`."
    );
}

#[test]
fn every_command_needs_an_integer_id() {
    for bad in [
        r#"{"type":"ping"}"#,
        r#"{"id":"7","type":"ping"}"#,
        r#"{"id":1.5,"type":"ping"}"#,
        r#"{"id":1.0,"type":"ping"}"#,
        r#"{"id":1e3,"type":"ping"}"#,
        r#"{"id":9223372036854775808,"type":"ping"}"#,
        r#"{"id":18446744073709551615,"type":"ping"}"#,
        r#"{"id":-9223372036854775809,"type":"ping"}"#,
        r#"[1]"#,
    ] {
        let (id, refusal) = read(bad).unwrap_err();
        assert_eq!(id, None, "{bad}");
        assert_eq!(
            refusal.message,
            "Every command needs an integer \"id\" from -9223372036854775808 to 9223372036854775807."
        );
    }
}

#[test]
fn a_tag_that_is_not_a_string_is_no_command() {
    // serde reads a buffered tag from a number as the variant's index:
    // `"type":6` was `resign`, wherever the id stands.
    for bad in [
        r#"{"id":5,"type":6}"#,
        r#"{"type":6,"id":5}"#,
        r#"{"id":5,"type":null,"seat":0}"#,
        r#"{"id":5,"type":["sit"],"seat":0}"#,
        r#"{"id":5,"seat":0}"#,
    ] {
        let (id, refusal) = read(bad).unwrap_err();
        assert_eq!(id, Some(5), "{bad}");
        assert_eq!(
            refusal.message, "Every command needs a string \"type\".",
            "{bad}"
        );
    }
    for bad in [
        r#"{"id":5,"type":"signal","to":"m2","kind":0,"sdp":"v=0"}"#,
        r#"{"id":5,"type":"signal","to":"m2","kind":null,"sdp":"v=0"}"#,
        r#"{"id":5,"type":"signal","to":"m2","sdp":"v=0"}"#,
    ] {
        let (id, refusal) = read(bad).unwrap_err();
        assert_eq!(id, Some(5), "{bad}");
        assert_eq!(
            refusal.message, "Every command needs a string \"kind\".",
            "{bad}"
        );
    }
    // Elsewhere `kind` is no tag: a command that does not read it ignores it.
    let env = read(r#"{"id":5,"type":"ping","kind":0}"#).unwrap();
    assert!(matches!(env.command, Command::Ping));
}

#[test]
fn escaped_names_read_as_the_names() {
    let env = read(r#"{"\u0069d":8,"type":"s\u0069t","seat":1}"#).unwrap();
    assert_eq!(env.id, 8);
    assert!(matches!(env.command, Command::Sit(Sit { seat: 1 })));
}

#[test]
fn oversized_text_is_refused_unparsed() {
    let big = format!(
        r#"{{"id":1,"type":"chat","text":"{}"}}"#,
        "x".repeat(MAX_MESSAGE_BYTES)
    );
    assert_eq!(read(&big).unwrap_err().1.code, Code::TooLarge);
}

#[test]
fn kind_is_the_name_on_the_wire() {
    for (text, kind) in [
        (
            r#"{"id":1,"type":"voice_mute","member":"m2","muted":true}"#,
            "voice_mute",
        ),
        (r#"{"id":1,"type":"stand"}"#, "stand"),
        (r#"{"id":1,"type":"countdown","paused":true}"#, "countdown"),
    ] {
        assert_eq!(read(text).unwrap().command.kind(), kind);
    }
}

#[test]
fn hint_carries_nothing() {
    let env = read(r#"{"id":3,"type":"hint"}"#).unwrap();
    assert_eq!(env.id, 3);
    assert!(matches!(env.command, Command::Hint));
    assert_eq!(env.command.kind(), "hint");
}
