//! Every event and the snapshot read back from their JSON as they were
//! written: the types a test or the bench reads are the ones the room
//! sends (a game's view and options as JSON, see `views.rs`).

use std::collections::BTreeSet;

use serde::de::DeserializeOwned;
use serde::Serialize;

use super::super::event::{Direct, DrawKind, NoticeKind};
use super::super::views::Snapshot;
use super::*;
use crate::protocol::Signal;

/// `value` written, read back as `R`, and written again: the same JSON.
fn round_trip<T: Serialize, R: DeserializeOwned + Serialize>(value: &T) -> R {
    let text = serde_json::to_string(value).unwrap();
    let read: R = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{e}: {text}"));
    assert_eq!(
        serde_json::to_value(&read).unwrap(),
        serde_json::from_str::<Value>(&text).unwrap(),
        "{text}"
    );
    read
}

fn stamped(v: u64, event: Event) -> Stamped {
    Stamped { v, event }
}

#[test]
fn every_event_reads_back_as_it_was_written() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let host = join(&mut state, HOST, Some("Minh"), 0);
    let guest = join(&mut state, &token(1), Some("Lan"), 0);
    let watcher = join(&mut state, &token(2), Some("Hoa"), 0);
    let mut effects = Vec::new();
    let mut run = |state: &mut RoomState, member, command, now| {
        effects.extend(ok(state, member, command, now));
    };
    run(&mut state, host, options(None, json!({"clock": [5, 3]})), 1);
    run(&mut state, host, sit(0), 1);
    run(&mut state, guest, sit(1), 1);
    run(
        &mut state,
        watcher,
        Command::Chat(cmd::Chat {
            text: "chào".into(),
        }),
        2,
    );
    run(
        &mut state,
        host,
        Command::Rated(cmd::Rated { rated: false }),
        2,
    );
    let autostart = Command::Autostart(cmd::Autostart { enabled: true });
    run(&mut state, host, autostart, 2);
    run(&mut state, host, start(Order::Seats), 3);
    let draw = Command::Draw(cmd::Draw {
        action: DrawAction::Offer,
        table: None,
    });
    run(&mut state, host, draw, 4);
    let legal = state.tables[0].running().unwrap().game.legal();
    run(&mut state, host, mv(&legal[0]), 5);
    run(
        &mut state,
        guest,
        Command::Resign(cmd::Resign { table: None }),
        6,
    );
    run(&mut state, host, Command::Rematch, 7);
    run(
        &mut state,
        watcher,
        Command::Voice(cmd::JoinVoice { join: true }),
        8,
    );
    run(
        &mut state,
        host,
        Command::Unseat(cmd::Unseat { member: guest }),
        9,
    );
    run(
        &mut state,
        host,
        Command::Remove(cmd::Remove { member: watcher }),
        10,
    );

    let table = state.tables[0].id;
    let mut events: Vec<Stamped> = effects
        .into_iter()
        .filter_map(|e| match e {
            Effect::Broadcast(s) => Some(s),
            _ => None,
        })
        .collect();
    // What the commands above do not reach.
    events.extend([
        stamped(
            90,
            Event::Spectators {
                spectators: 3,
                unlisted: 1,
            },
        ),
        stamped(91, Event::Tournament { tournament: None }),
        stamped(
            92,
            Event::CoinToss {
                table,
                players: [host, guest],
                winner: guest,
            },
        ),
        stamped(
            93,
            Event::Draw {
                table,
                kind: DrawKind::Decline,
                side: rules::Side(1),
                member: guest,
            },
        ),
        stamped(
            94,
            Event::Notice {
                kind: NoticeKind::LetIn,
                member: watcher,
                name: None,
            },
        ),
    ]);
    let mut kinds = BTreeSet::new();
    for event in &events {
        let read: Stamped<Value, Value> = round_trip(event);
        assert_eq!(read.v, event.v);
        let json = serde_json::to_value(event).unwrap();
        kinds.insert(json["type"].as_str().unwrap().to_string());
        if let Some(kind) = json["kind"].as_str() {
            kinds.insert(format!("{}/{kind}", json["type"].as_str().unwrap()));
        }
    }
    for kind in [
        "members",
        "spectators",
        "match",
        "match/start",
        "match/move",
        "match/end",
        "options",
        "scores",
        "chat",
        "autostart",
        "rated",
        "tournament",
        "coin_toss",
        "draw",
        "draw/offer",
        "draw/decline",
        "rematch",
        "notice",
        "notice/unseated",
        "notice/removed",
        "notice/let_in",
        "removed",
        "voice",
    ] {
        assert!(kinds.contains(kind), "{kind} not covered: {kinds:?}");
    }

    let snapshot = state.snapshot(host, "https://example.test", 11);
    let read: Snapshot<Value, Value> = round_trip(&snapshot);
    assert_eq!(read.you.member, host);
    assert_eq!(serde_json::to_value(&snapshot).unwrap()["type"], "snapshot");

    let signal = Direct::Signal {
        from: guest,
        signal: Signal::Candidate {
            candidate: String::new(),
            mid: None,
            line: Some(0),
        },
    };
    let _: Direct = round_trip(&signal);
}

#[test]
fn a_move_event_costs_the_same_at_any_length_of_game() {
    // Jungle's view lists every move and the legal moves again; a move
    // event's state leaves both out (the snapshot keeps them).
    let (mut state, host, guest) = two_seated(GameKind::Jungle, Value::Null, 0);
    ok(&mut state, host, start(Order::Seats), 0);
    let mut sizes = Vec::new();
    let mut ply = 0;
    while ply < 90 {
        let m = current(&state);
        if m.game.is_over() {
            break;
        }
        let legal = m.game.legal();
        let mv = legal[(ply * 7 + 3) % legal.len()].clone();
        let who = if ply % 2 == 0 { host } else { guest };
        let effects = ok(&mut state, who, super::mv(&mv), ply as u64);
        let event = sent(&effects)[0].clone();
        assert_eq!(event["kind"], "move");
        let view = event["match"]["state"].as_object().unwrap();
        assert!(
            !view.contains_key("moves") && !view.contains_key("legal_moves"),
            "{view:?}"
        );
        assert!(view.contains_key("pieces") && view.contains_key("position"));
        sizes.push(event.to_string().len());
        ply += 1;
    }
    assert!(ply >= 60, "the game went on: {ply} plies");
    let (early, late) = (sizes[4] as f64, *sizes.last().unwrap() as f64);
    assert!(
        late <= early * 1.1,
        "ply 5: {early} bytes, ply {ply}: {late} bytes"
    );
    // The snapshot's match is whole.
    let snap = serde_json::to_value(state.snapshot(host, "http://x", 100)).unwrap();
    let whole = &snap["room"]["tables"][0]["match"]["state"];
    assert_eq!(whole["moves"].as_array().unwrap().len(), ply);
    assert!(whole["legal_moves"].is_array());
}
