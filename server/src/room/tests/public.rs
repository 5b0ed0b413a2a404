//! `public`: the host lists the room; the lobby line follows seats and
//! presence.

use super::*;
use crate::games::GameKind;
use crate::protocol::Code;
use crate::room::cmd;
use crate::room::Command;
use serde_json::Value;

#[test]
fn the_host_lists_the_room_and_the_lobby_line_follows_it() {
    let mut room = room(GameKind::CrossyRay, Value::Null);
    let host = join(&mut room, HOST, Some("Minh"), 0);
    assert!(room.lobby_entry(0).is_none(), "not public yet");
    let effects = room
        .apply(host, Command::Public(cmd::Public { on: true }), 0)
        .expect("the host lists the room");
    assert!(effects.iter().any(|e| tag(e) == "store:room"));
    assert!(effects.iter().any(|e| tag(e) == "send:public"));
    assert!(room.row().public);
    let entry = room
        .lobby_entry(0)
        .expect("listed while the host is online");
    assert_eq!(entry.seats, 2);
    assert_eq!(entry.free, 2);
    assert!(!entry.running);
    // The same again changes nothing.
    assert!(room
        .apply(host, Command::Public(cmd::Public { on: true }), 0)
        .expect("again")
        .is_empty());
    ok(&mut room, host, sit(0), 0);
    let entry = room.lobby_entry(0).expect("listed");
    assert_eq!(entry.free, 1);
    assert_eq!(entry.players.len(), 1);
    assert_eq!(entry.players[0].seat, 0);
    ok(
        &mut room,
        host,
        Command::Public(cmd::Public { on: false }),
        0,
    );
    assert!(room.lobby_entry(0).is_none());
    // Nobody online: not listed even when public.
    ok(
        &mut room,
        host,
        Command::Public(cmd::Public { on: true }),
        0,
    );
    let conns = room.members.iter().map(|m| m.id).collect::<Vec<_>>();
    for m in &mut room.members {
        m.conns = 0;
    }
    assert!(!conns.is_empty());
    assert!(room.lobby_entry(0).is_none(), "nobody online");
}

#[test]
fn only_the_host_lists_and_never_a_solo_room() {
    let mut room = room(GameKind::CrossyRay, Value::Null);
    let host = join(&mut room, HOST, Some("Minh"), 0);
    let guest = join(&mut room, &token(1), Some("Lan"), 0);
    let refused = room
        .apply(guest, Command::Public(cmd::Public { on: true }), 0)
        .unwrap_err();
    assert_eq!(refused.code, Code::NotHost);
    room.solo = true;
    let refused = room
        .apply(host, Command::Public(cmd::Public { on: true }), 0)
        .unwrap_err();
    assert_eq!(refused.code, Code::SoloRoom);
    assert!(!room.row().public);
}
