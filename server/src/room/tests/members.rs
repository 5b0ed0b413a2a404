//! `hello`, `disconnect`, the member cap, and the commands anyone may
//! send: name, sit, stand, chat, ping.

use super::*;

#[test]
fn hello_makes_a_member_and_the_same_token_finds_it_again() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let (id, effects) = join_as(&mut state, greeting(HOST, Some("Minh"), None), 5);
    assert_eq!(id, MemberId(1));
    assert_eq!(
        tags(&effects),
        ["store:room", "store:member", "send:members"]
    );
    match writes(&effects)[..] {
        [Write::Room(room), Write::Member(row)] => {
            assert_eq!(room.next_member, 2, "the room row keeps the next id");
            assert_eq!(row.id, id);
            assert_eq!(row.name.as_deref(), Some("Minh"));
            assert!(row.host);
        }
        ref other => panic!("{other:?}"),
    }
    assert_eq!(sent(&effects)[0]["members"][0]["host"], true);
    assert_eq!(sent(&effects)[0]["spectators"], 1);

    // A second tab of the same browser: the same member, nothing to store
    // and nothing to announce.
    let (again, effects) = join_as(&mut state, greeting(HOST, Some("Other"), None), 6);
    assert_eq!(again, id);
    assert!(effects.is_empty(), "{:?}", tags(&effects));
    let me = member(&state, id);
    assert_eq!((me.conns, me.name.as_deref()), (2, Some("Minh")));

    // Another browser, with no name: a watcher, listed but not stored.
    let (guest, effects) = join_as(&mut state, greeting(&token(1), None, None), 7);
    assert_eq!(guest, MemberId(2));
    assert_eq!(tags(&effects), ["send:members"]);
    assert!(!member(&state, guest).host);
    assert!(!member(&state, guest).stored);
    assert_eq!(member(&state, guest).name, None);
    assert_eq!(state.members.len(), 2);
    assert_eq!(state.version, 2);

    // Taking a name stores it, with the room's next id.
    let effects = ok(
        &mut state,
        guest,
        Command::Name(cmd::Name { name: "Lan".into() }),
        8,
    );
    assert_eq!(
        tags(&effects),
        ["store:room", "store:member", "send:members"]
    );
    assert!(member(&state, guest).stored);
}

#[test]
fn disconnect_counts_connections_and_marks_the_member_offline() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let id = join(&mut state, HOST, Some("Minh"), 0);
    join(&mut state, HOST, None, 1);
    let v = state.version;
    let effects = state.disconnect(id, 10);
    check_versions(v, &effects, &state);
    assert!(
        effects.is_empty(),
        "one of two tabs closing changes nothing shown"
    );
    assert_eq!(
        member(&state, id).offline_since,
        None,
        "one tab is still open"
    );
    state.disconnect(id, 20);
    assert_eq!(member(&state, id).offline_since, Some(20));
    assert!(!member(&state, id).online());
    // The host is shown offline (other offline members without a seat
    // are not: room/tests/away.rs).
    let view = state.members_view();
    assert_eq!((view.len(), view[0].online), (1, false));
    // Unknown members change nothing.
    let v = state.version;
    assert!(state.disconnect(MemberId(99), 30).is_empty());
    assert_eq!(state.version, v);
    // Coming back clears it.
    join(&mut state, HOST, None, 40);
    assert_eq!(member(&state, id).offline_since, None);
}

#[test]
fn the_member_cap_lets_offline_guests_with_nothing_to_keep_go() {
    let mut state = room_with(
        GameKind::Jungle,
        Value::Null,
        RoomConfig {
            max_members: 5,
            ..config()
        },
    );
    let host = join(&mut state, HOST, Some("Minh"), 0);
    let seated = join(&mut state, &token(1), Some("Lan"), 0);
    let scored = join(&mut state, &token(2), Some("Hoa"), 0);
    let idle = join(&mut state, &token(3), Some("Tuan"), 0);
    let online = join(&mut state, &token(4), Some("Ha"), 0);
    ok(&mut state, seated, sit(1), 0);
    state.scores.push(ScoreRow {
        person: Person::Member(scored),
        name: "Hoa".into(),
        account: None,
        points: 1,
        wins: 1,
        draws: 0,
        losses: 0,
    });
    for m in [host, seated, scored, idle] {
        state.disconnect(m, 10);
    }

    // Full: the one offline guest with nothing to keep makes room.
    let (newcomer, effects) = join_as(&mut state, greeting(&token(5), Some("Vy"), None), 20);
    assert_eq!(newcomer, MemberId(6));
    assert_eq!(
        tags(&effects),
        [
            "store:remove_member",
            "store:room",
            "store:member",
            "send:members"
        ]
    );
    assert!(matches!(writes(&effects)[0], Write::RemoveMember(id) if *id == idle));
    assert!(state.member(idle).is_none());
    assert_eq!(state.members.len(), 5);

    // Nobody else can go: the host, a seated player, a guest with a
    // score, two online members.
    let before = fingerprint(&state, online, 30);
    let refusal = state
        .hello(greeting(&token(6), Some("Khoa"), None), 30)
        .unwrap_err();
    assert_eq!(refusal.code, Code::RoomFull);
    assert_eq!(fingerprint(&state, online, 30), before);

    // Known browsers still come back at the cap.
    let (back, _) = join_as(&mut state, greeting(HOST, None, None), 40);
    assert_eq!(back, host);
    // And the guest who went is a newcomer when they return.
    state.disconnect(online, 50);
    let (idle_again, _) = join_as(&mut state, greeting(&token(3), Some("Tuan"), None), 60);
    assert_eq!(idle_again, MemberId(7), "ids are never reused");
    assert!(state.member(online).is_none());
}

/// The computer is a member the cap does not stop, so a room can be over
/// its cap; then `hello` may evict one guest, find no second one, and
/// refuse: the refusal's effects (the `RemoveMember` write) are dropped
/// but the guest is gone from the state.
#[test]
fn a_room_full_refusal_evicts_nobody() {
    let mut state = room_with(
        GameKind::Jungle,
        Value::Null,
        RoomConfig {
            max_members: 2,
            ..config()
        },
    );
    let host = join(&mut state, HOST, Some("Minh"), 0);
    ok(&mut state, host, sit(0), 0);
    let idle = join(&mut state, &token(1), Some("Lan"), 0);
    state.disconnect(idle, 1);
    ok(
        &mut state,
        host,
        Command::Computer(cmd::Computer {
            seat: 1,
            level: Some(rules::Level::Beginner),
        }),
        2,
    );
    assert_eq!(state.members.len(), 3, "the computer is over the cap");
    let before = fingerprint(&state, host, 3);
    let refusal = state
        .hello(greeting(&token(2), Some("Vy"), None), 3)
        .unwrap_err();
    assert_eq!(refusal.code, Code::RoomFull);
    assert!(state.member(idle).is_some(), "the guest was evicted");
    assert_eq!(fingerprint(&state, host, 3), before);
}

#[test]
fn commands_need_a_hello_and_hello_comes_once() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let host = join(&mut state, HOST, Some("Minh"), 0);
    assert_eq!(
        code(&mut state, MemberId(9), Command::Ping, 0),
        Code::HelloFirst
    );
    assert_eq!(
        code(&mut state, MemberId(9), mv("8 a3-a4"), 0),
        Code::HelloFirst
    );
    let hello = Command::Hello(cmd::SayHello {
        token: Some(HOST.into()),
        name: None,
        since: None,
    });
    assert_eq!(code(&mut state, host, hello, 0), Code::BadMessage);
}

#[test]
fn names_are_checked_and_stored() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let id = join(&mut state, HOST, None, 0);
    for bad in [
        "",
        "   ",
        "abcdefghijklmnopqrstuvwxy",
        "Lan\u{202E}nim",
        "\u{202E}",
        "Lan\u{200B}",
        "Lan\nMinh",
        "Lan\u{2028}Minh",
        "Lan\u{7}",
        "\u{2066}Lan",
    ] {
        let name = Command::Name(cmd::Name { name: bad.into() });
        assert_eq!(code(&mut state, id, name, 0), Code::BadName, "{bad:?}");
    }
    let effects = ok(
        &mut state,
        id,
        Command::Name(cmd::Name {
            name: " Nguyễn Thị Minh Khai  ".into(),
        }),
        0,
    );
    assert_eq!(tags(&effects), ["store:member", "send:members"]);
    assert!(
        matches!(writes(&effects)[0], Write::Member(row) if row.name.as_deref() == Some("Nguyễn Thị Minh Khai"))
    );
    // The same name again (as typed, or trimmed): acknowledged, nothing sent or stored.
    for same in ["Nguyễn Thị Minh Khai", " Nguyễn Thị Minh Khai "] {
        let name = Command::Name(cmd::Name { name: same.into() });
        assert!(ok(&mut state, id, name, 0).is_empty(), "{same:?}");
    }
    let long = "a".repeat(24);
    ok(
        &mut state,
        id,
        Command::Name(cmd::Name { name: long.clone() }),
        0,
    );
    assert_eq!(member(&state, id).name, Some(long));
}

#[test]
fn sitting_needs_a_name_a_seat_that_exists_and_is_free_and_no_game() {
    let mut state = room(GameKind::CrossyRay, Value::Null);
    let host = join(&mut state, HOST, None, 0);
    let guest = join(&mut state, &token(1), Some("Lan"), 0);
    assert_eq!(code(&mut state, host, sit(0), 0), Code::BadName);
    ok(
        &mut state,
        host,
        Command::Name(cmd::Name {
            name: "Minh".into(),
        }),
        0,
    );
    assert_eq!(code(&mut state, host, sit(2), 0), Code::NoSeat);
    let effects = ok(&mut state, host, sit(0), 0);
    assert_eq!(tags(&effects), ["store:member", "send:members"]);
    assert_eq!(sent(&effects)[0]["members"][0]["seat"], 0);
    let refusal = refused(&mut state, guest, sit(0), 0);
    assert_eq!(refusal.code, Code::NoSeat);
    assert!(refusal.message.contains("Minh"), "{}", refusal.message);
    // Sitting again where one sits is fine; moving seats too.
    ok(&mut state, host, sit(0), 0);
    ok(&mut state, host, sit(1), 0);
    ok(&mut state, guest, sit(0), 0);
    assert_eq!(member(&state, host).seat, Some(1));
    ok(&mut state, host, start(Order::Seats), 0);
    assert_eq!(code(&mut state, guest, sit(1), 0), Code::GameRunning);
    assert_eq!(
        code(&mut state, guest, Command::Stand, 0),
        Code::GameRunning
    );
}

#[test]
fn standing_frees_the_seat() {
    let (mut state, host, guest) = two_seated(GameKind::Jungle, Value::Null, 0);
    let effects = ok(&mut state, guest, Command::Stand, 0);
    assert_eq!(tags(&effects), ["store:member", "send:members"]);
    assert!(matches!(writes(&effects)[0], Write::Member(row) if row.seat.is_none()));
    assert_eq!(member(&state, guest).seat, None);
    assert_eq!(code(&mut state, guest, Command::Stand, 0), Code::NoSeat);
    ok(&mut state, host, sit(1), 0);
}

#[test]
fn chat_needs_a_name_and_a_line_within_the_limits() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let id = join(&mut state, HOST, None, 0);
    let say = |text: &str| Command::Chat(cmd::Chat { text: text.into() });
    assert_eq!(code(&mut state, id, say("hi"), 0), Code::BadName);
    ok(
        &mut state,
        id,
        Command::Name(cmd::Name {
            name: "Minh".into(),
        }),
        0,
    );
    for bad in [
        String::new(),
        "  \n ".into(),
        "x".repeat(301),
        "abc\u{202E}def".into(),
        "bell\u{7}".into(),
    ] {
        assert_eq!(code(&mut state, id, say(&bad), 0), Code::BadText, "{bad:?}");
    }
    let effects = ok(&mut state, id, say("xin chào 👋🏽\nbạn"), 42);
    assert_eq!(tags(&effects), ["store:chat", "send:chat"]);
    let line = ChatLine {
        from: "Minh".into(),
        member: id,
        text: "xin chào 👋🏽 bạn".into(),
        at: 42,
    };
    assert!(matches!(writes(&effects)[0], Write::Chat(stored) if *stored == line));
    assert_eq!(sent(&effects)[0]["message"]["text"], line.text);
    ok(&mut state, id, say(&"y".repeat(300)), 43);
    assert_eq!(state.chat.len(), 2);
}

#[test]
fn chat_keeps_the_last_fifty_lines() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let id = join(&mut state, HOST, Some("Minh"), 0);
    for i in 0..55 {
        let text = format!("line {i}");
        // One a second: within the member's chat budget.
        ok(&mut state, id, Command::Chat(cmd::Chat { text }), i * 1_000);
    }
    assert_eq!(state.chat.len(), CHAT_HISTORY);
    assert_eq!(state.chat.front().unwrap().text, "line 5");
    assert_eq!(state.chat.back().unwrap().text, "line 54");
    let snap = serde_json::to_value(state.snapshot(id, "http://x", 60_000)).unwrap();
    assert_eq!(snap["room"]["chat"].as_array().unwrap().len(), 50);
}

/// A member's chat is budgeted over all their pages (10 at once, then 2
/// a second), and an address's members together (three members' worth):
/// the per-connection rate alone let one member with 50 sockets send
/// about 1 000 lines a second. A refused line changes nothing.
#[test]
fn chat_is_budgeted_per_member_and_per_address() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let id = join(&mut state, HOST, Some("Minh"), 0);
    let say = |text: &str| {
        Command::Chat(cmd::Chat {
            text: text.to_string(),
        })
    };
    for i in 0..10 {
        ok(&mut state, id, say(&format!("line {i}")), 0);
    }
    let before = state.chat.len();
    let refusal = refused(&mut state, id, say("one more"), 0);
    assert_eq!(refusal.code, Code::RateLimited);
    assert_eq!(state.chat.len(), before, "nothing stored");
    // Half a second later, one more.
    ok(&mut state, id, say("later"), 500);
    refused(&mut state, id, say("again"), 500);
}

/// Changes seen by everyone (here renames, sits and stands) are budgeted
/// per member over all their pages: an attack round renamed 400 times a
/// second from one address and got a slow member closed. A refused one
/// changes nothing and sends nothing; one that changes nothing costs
/// nothing.
#[test]
fn changes_for_everyone_are_budgeted_per_member() {
    use crate::room::voice::CHANGE_BURST;
    let mut state = room(GameKind::Jungle, Value::Null);
    let id = join(&mut state, HOST, Some("Minh"), 0);
    let rename = |name: String| Command::Name(cmd::Name { name });
    for i in 0..CHANGE_BURST as usize {
        ok(&mut state, id, rename(format!("Minh {i}")), 0);
    }
    let before = fingerprint(&state, id, 0);
    let refusal = refused(&mut state, id, rename("Nope".to_string()), 0);
    assert_eq!(refusal.code, Code::RateLimited);
    let refusal = refused(&mut state, id, Command::Sit(cmd::Sit { seat: 0 }), 0);
    assert_eq!(
        refusal.code,
        Code::RateLimited,
        "one budget for every change"
    );
    assert_eq!(fingerprint(&state, id, 0), before, "nothing changed");
    // Half a second later, one more; the chat's own budget is whole.
    ok(&mut state, id, Command::Sit(cmd::Sit { seat: 0 }), 500);
    refused(&mut state, id, Command::Stand, 500);
    ok(
        &mut state,
        id,
        Command::Chat(cmd::Chat {
            text: "still here".to_string(),
        }),
        500,
    );
}

#[test]
fn ping_changes_nothing() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let id = join(&mut state, HOST, Some("Minh"), 0);
    let before = fingerprint(&state, id, 5);
    assert!(ok(&mut state, id, Command::Ping, 5).is_empty());
    assert_eq!(fingerprint(&state, id, 5), before);
}

/// Watchers (no name, no account, not the host) are counted, named in
/// the list only up to its cap, announced at most once a second past it,
/// forgotten when they leave, and capped on their own.
#[test]
fn watchers_are_counted_and_announced_at_most_once_a_second() {
    use super::super::timers::Timer;
    use super::super::views::LISTED_SPECTATORS;
    let mut state = room_with(
        GameKind::Jungle,
        Value::Null,
        RoomConfig {
            max_watchers: LISTED_SPECTATORS + 10,
            ..config()
        },
    );
    let host = join(&mut state, HOST, Some("Minh"), 0);
    let mut watchers = Vec::new();
    for i in 0..LISTED_SPECTATORS {
        let (id, effects) = join_as(&mut state, greeting(&token(i), None, None), 1);
        assert_eq!(tags(&effects), ["send:members"], "watcher {i} is listed");
        assert!(!member(&state, id).stored);
        watchers.push(id);
    }
    // Past the list's cap a join changes only the counts: nothing is
    // stored and nothing is sent at once.
    let v = state.version;
    for i in LISTED_SPECTATORS..LISTED_SPECTATORS + 10 {
        let (id, effects) = join_as(&mut state, greeting(&token(i), None, None), 2);
        assert!(effects.is_empty(), "{:?}", tags(&effects));
        watchers.push(id);
    }
    assert_eq!(state.version, v);
    assert_eq!(state.members_view().len(), 1 + LISTED_SPECTATORS);
    assert_eq!(state.next_deadline(), Some((0, Timer::Presence)));
    let effects = state.fire(Timer::Presence, 3);
    assert_eq!(tags(&effects), ["send:spectators"]);
    let event = &sent(&effects)[0];
    assert_eq!(event["spectators"], LISTED_SPECTATORS + 11);
    assert_eq!(event["unlisted"], 10);
    assert!(
        serde_json::to_string(event).unwrap().len() < 80,
        "a few bytes, whatever the room's size"
    );
    assert_eq!(state.next_deadline(), None);

    // The cap on watchers: the next one is refused and nothing changes;
    // a named newcomer is a kept member and still comes in.
    let before = fingerprint(&state, host, 4);
    let refusal = state
        .hello(greeting(&token(999), None, None), 4)
        .unwrap_err();
    assert_eq!(refusal.code, Code::RoomFull);
    assert_eq!(fingerprint(&state, host, 4), before);
    let named = join(&mut state, &token(1000), Some("Lan"), 4);
    assert!(member(&state, named).stored);

    // An unlisted watcher leaves: forgotten, announced a second after the
    // last announcement, not before.
    let last = *watchers.last().unwrap();
    assert!(state.disconnect(last, 500).is_empty());
    assert!(state.member(last).is_none(), "a watcher is not kept");
    assert_eq!(state.next_deadline(), Some((1_003, Timer::Presence)));
    assert!(state.fire(Timer::Presence, 600).is_empty(), "not due yet");
    let effects = state.fire(Timer::Presence, 1_003);
    // 10 more others online than the list names (9 watchers and Lan).
    assert_eq!(sent(&effects)[0]["unlisted"], 10);

    // A listed watcher leaves: the list changes at once, and the first
    // unlisted watcher takes the free place.
    let first = watchers[0];
    let effects = state.disconnect(first, 1_100);
    assert_eq!(tags(&effects), ["send:members"]);
    let event = &sent(&effects)[0];
    let listed: Vec<&str> = event["members"]
        .as_array()
        .unwrap()
        .iter()
        .map(|m| m["id"].as_str().unwrap())
        .collect();
    assert!(!listed.contains(&first.to_string().as_str()));
    assert!(listed.contains(&watchers[LISTED_SPECTATORS].to_string().as_str()));
    assert_eq!(event["unlisted"], 9);
    assert_eq!(state.next_deadline(), None, "the members event carried it");
}

#[test]
fn a_signed_in_person_is_one_member_on_every_browser() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let lan = AccountRef {
        id: 42,
        username: "lan".into(),
        display_name: "Lan".into(),
    };
    let (desk, _) = join_as(&mut state, greeting(&token(1), None, Some(lan.clone())), 0);
    ok(&mut state, desk, sit(1), 0);
    // Her phone, signed in, another browser token: the same member, seated.
    let (phone, _) = join_as(&mut state, greeting(&token(2), None, Some(lan.clone())), 1);
    assert_eq!(phone, desk);
    assert_eq!(member(&state, desk).seat, Some(1));
    assert_eq!(member(&state, desk).conns, 2);
    // A guest on that phone's token, or another account, is someone else.
    let (guest, _) = join_as(&mut state, greeting(&token(3), Some("Khoa"), None), 2);
    assert_ne!(guest, desk);
    let other = AccountRef {
        id: 7,
        username: "vy".into(),
        display_name: "Vy".into(),
    };
    let (vy, _) = join_as(&mut state, greeting(&token(4), None, Some(other)), 2);
    assert_ne!(vy, desk);
    // The guest's browser, seated, then signs in as Lan: it is Lan's
    // member, not a second one of hers (one account, two seats).
    ok(&mut state, guest, sit(0), 3);
    let (again, _) = join_as(&mut state, greeting(&token(3), None, Some(lan.clone())), 4);
    assert_eq!(again, desk);
    assert_eq!(member(&state, guest).account, None);
    assert_eq!(
        state
            .members
            .iter()
            .filter(|m| m.account.as_ref().is_some_and(|a| a.id == 42))
            .count(),
        1
    );
}
