//! When people leave: the host role passing on from an offline host, the
//! `away` list of a running game and the `claim` of a win or a draw from
//! opponents who left.

use rules::{EndReason, Outcome, Side};

use super::*;

fn give_host(member: MemberId) -> Command {
    Command::Host(cmd::GiveHost { member })
}

fn claim(action: crate::protocol::ClaimAction) -> Command {
    Command::Claim(cmd::Claim {
        action,
        table: None,
    })
}

fn hosts(state: &RoomState) -> Vec<MemberId> {
    state
        .members
        .iter()
        .filter(|m| m.host)
        .map(|m| m.id)
        .collect()
}

fn account(id: i64, username: &str) -> AccountRef {
    AccountRef {
        id,
        username: username.into(),
        display_name: username.into(),
    }
}

#[test]
fn an_offline_host_stays_listed_and_the_role_passes_to_the_longest_here() {
    let mut state = room(GameKind::CrossyRay, Value::Null);
    let host = join(&mut state, HOST, Some("Minh"), 0);
    // A seated guest who came first, an unseated guest, then a signed-in
    // member: the account comes first, however late it came.
    let seated = join(&mut state, &token(1), Some("Lan"), 1_000);
    ok(&mut state, seated, sit(1), 1_000);
    let _idle = join(&mut state, &token(2), Some("Hoa"), 2_000);
    let (signed, _) = join_as(
        &mut state,
        greeting(&token(3), None, Some(account(7, "khoa"))),
        3_000,
    );
    assert_eq!(state.next_deadline(), None, "the host is here");

    let effects = state.disconnect(host, 10_000);
    let members = &sent(&effects)[0]["members"];
    let listed = members
        .as_array()
        .unwrap()
        .iter()
        .find(|m| m["id"] == host.to_string())
        .expect("the offline host is still listed");
    assert_eq!(
        (listed["online"].clone(), listed["host"].clone()),
        (json!(false), json!(true))
    );
    assert_eq!(state.next_deadline(), Some((70_000, Timer::HostHandover)));
    assert!(state.fire(Timer::HostHandover, 69_999).is_empty());
    assert_eq!(hosts(&state), [host]);

    let effects = state.fire(Timer::HostHandover, 70_000);
    assert_eq!(hosts(&state), [signed]);
    let events = sent(&effects);
    assert_eq!(
        events.last().unwrap(),
        &json!({"type": "notice", "v": state.version, "kind": "host", "member": signed.to_string(), "name": "khoa"})
    );
    assert!(events.iter().any(|e| e["type"] == "members"));
    // Stored: the room's host token and both members' rows.
    let stored = writes(&effects);
    assert!(stored
        .iter()
        .any(|w| matches!(w, Write::Room(r) if r.host == Some(TokenHash::of(&token(3))))));
    assert!(stored
        .iter()
        .any(|w| matches!(w, Write::Member(m) if m.id == host && !m.host)));
    assert!(stored
        .iter()
        .any(|w| matches!(w, Write::Member(m) if m.id == signed && m.host)));

    // The old host comes back a member; only the new host gives it back.
    join(&mut state, HOST, None, 80_000);
    assert_eq!(hosts(&state), [signed]);
    assert_eq!(
        code(&mut state, host, start(Order::Seats), 80_000),
        Code::NotHost
    );
    assert_eq!(
        code(&mut state, host, give_host(host), 80_000),
        Code::NotHost
    );
    ok(&mut state, signed, give_host(host), 81_000);
    assert_eq!(hosts(&state), [host]);
    assert_eq!(state.host, Some(TokenHash::of(HOST)));
}

#[test]
fn without_an_account_a_seated_guest_takes_the_role_and_nobody_gets_it_while_none_is_here() {
    let mut state = room(GameKind::Jungle, Value::Null);
    let host = join(&mut state, HOST, Some("Minh"), 0);
    let idle = join(&mut state, &token(1), Some("Hoa"), 0);
    state.disconnect(host, 1_000);
    assert_eq!(
        state.next_deadline(),
        None,
        "an unseated guest does not take it"
    );
    let seated = join(&mut state, &token(2), Some("Lan"), 2_000);
    ok(&mut state, seated, sit(0), 2_000);
    assert_eq!(state.next_deadline(), Some((61_000, Timer::HostHandover)));
    // Gone again before it is due: nobody can take it, nothing fires.
    state.disconnect(seated, 30_000);
    assert_eq!(state.next_deadline(), None);
    assert!(state.fire(Timer::HostHandover, 61_000).is_empty());
    join(&mut state, &token(2), None, 62_000);
    state.fire(Timer::HostHandover, 62_000);
    assert_eq!(hosts(&state), [seated]);
    let _ = idle;
}

#[test]
fn giving_the_host_role_is_the_hosts_and_only_to_a_person_here() {
    let (mut state, host, guest) = two_seated(GameKind::Quoridor, Value::Null, 0);
    assert_eq!(code(&mut state, guest, give_host(guest), 0), Code::NotHost);
    assert_eq!(code(&mut state, host, give_host(host), 0), Code::NoMember);
    assert_eq!(
        code(&mut state, host, give_host(MemberId(99)), 0),
        Code::NoMember
    );
    let effects = ok(&mut state, host, give_host(guest), 0);
    assert_eq!(tags(&effects).last().unwrap(), "send:notice/host");
    assert_eq!(hosts(&state), [guest]);
}

#[test]
fn a_player_may_claim_the_win_once_the_opponent_has_been_away_for_the_claim_time() {
    let (mut state, host, guest) = two_seated(GameKind::CrossyRay, Value::Null, 0);
    let table = state.tables[0].id;
    ok(&mut state, host, start(Order::Seats), 0);
    let win = crate::protocol::ClaimAction::Win;
    let refusal = refused(&mut state, host, claim(win), 1_000);
    assert_eq!(
        (refusal.code, refusal.message.as_str()),
        (Code::NoClaim, "Your opponent is here.")
    );

    // The guest leaves: everyone is told the countdowns.
    let effects = state.disconnect(guest, 10_000);
    let away = sent(&effects)
        .into_iter()
        .find(|e| e["type"] == "away")
        .unwrap();
    assert_eq!(
        away,
        json!({"type": "away", "v": state.version, "table": table,
               "away": [{"side": 1, "abandon_ms": 60_000, "claim_ms": 15_000}]})
    );
    let snap = serde_json::to_value(state.snapshot(host, "http://x", 20_000)).unwrap();
    assert_eq!(
        snap["room"]["tables"][0]["away"],
        json!([{"side": 1, "abandon_ms": 50_000, "claim_ms": 5_000}])
    );
    let refusal = refused(&mut state, host, claim(win), 20_000);
    assert_eq!(refusal.code, Code::NoClaim);
    assert!(
        refusal.message.contains("claim in 5 s"),
        "{}",
        refusal.message
    );
    // A draw where the rules have none is `no_draws` before the claim
    // time is looked at (PROTOCOL.md).
    assert_eq!(
        code(
            &mut state,
            host,
            claim(crate::protocol::ClaimAction::Draw),
            20_000
        ),
        Code::NoDraws
    );
    assert_eq!(
        code(&mut state, guest, claim(win), 25_000),
        Code::NoClaim,
        "the away side cannot claim"
    );
    // No draws in CrossyRay.
    assert_eq!(
        code(
            &mut state,
            host,
            claim(crate::protocol::ClaimAction::Draw),
            25_000
        ),
        Code::NoDraws
    );

    let effects = ok(&mut state, host, claim(win), 25_000);
    assert_eq!(tags(&effects)[..2], ["store:entry", "send:match/end"]);
    assert_eq!(
        current(&state).game.outcome(),
        Some(&Outcome::Win {
            winner: Side(0),
            reason: EndReason::Abandon
        })
    );
    assert_eq!(code(&mut state, host, claim(win), 26_000), Code::NoGame);
}

#[test]
fn a_jungle_player_may_call_it_a_draw_instead_and_a_return_cancels_the_claim() {
    let (mut state, host, guest) = two_seated(GameKind::Jungle, Value::Null, 0);
    let table = state.tables[0].id;
    ok(&mut state, host, start(Order::Seats), 0);
    state.disconnect(guest, 1_000);
    // Back before the claim time: the list empties, and the claim waits
    // for a new absence.
    let effects = join_as(&mut state, greeting(&token(1), None, None), 10_000).1;
    let away = sent(&effects)
        .into_iter()
        .find(|e| e["type"] == "away")
        .unwrap();
    assert_eq!(away["away"], json!([]));
    assert_eq!(away["table"], json!(table));
    let draw = crate::protocol::ClaimAction::Draw;
    assert_eq!(code(&mut state, host, claim(draw), 30_000), Code::NoClaim);

    state.disconnect(guest, 40_000);
    assert_eq!(code(&mut state, host, claim(draw), 54_999), Code::NoClaim);
    ok(&mut state, host, claim(draw), 55_000);
    assert_eq!(
        current(&state).game.outcome(),
        Some(&Outcome::Draw {
            reason: EndReason::Abandon
        })
    );
    // The stored entry reads back as the same step.
    let stored = &current(&state).entries;
    assert_eq!(*stored, 1);
}
