//! Table manners through the real server: draw offers (Jungle only),
//! rematches, and the host taking a member out of a seat or out of the
//! room (kept out across a restart until let back in).

use crate::common;

use std::time::Duration;

use common::{member, next_match_of, table_of, Client, Table, TestServer};
use serde_json::{json, Value};

/// A Jungle table started with the host as Blue (side 0, first to move).
async fn jungle(server: &TestServer) -> Table {
    let mut t = table_of(server, "jungle", Value::Null).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    for c in [&mut t.host, &mut t.guest, &mut t.spectator] {
        assert_eq!(c.next_match().await["kind"], "start");
    }
    t
}

/// `c` sends the draw `action` (offer, accept, decline), and it is
/// done.
async fn draw_ok(c: &mut Client, action: &str) {
    c.ok(json!({"type": "draw", "action": action})).await;
}

/// `c` sends the draw `action`, refused with `code`: the message.
async fn draw_refused(c: &mut Client, action: &str, code: &str) -> String {
    c.refused(json!({"type": "draw", "action": action}), code)
        .await
}

/// `mover` plays `mv`; everyone sees it. Returns the move event.
async fn play(t: &mut Table, host_moves: bool, mv: &str) -> Value {
    let mover = if host_moves {
        &mut t.host
    } else {
        &mut t.guest
    };
    mover.ok(json!({"type": "move", "move": mv})).await;
    let event = next_match_of(&mut t.host, "move").await;
    next_match_of(&mut t.guest, "move").await;
    next_match_of(&mut t.spectator, "move").await;
    event
}

#[tokio::test]
async fn an_accepted_draw_offer_ends_the_game_drawn_by_agreement_and_is_stored() {
    let server = TestServer::start().await;
    let mut t = jungle(&server).await;
    play(&mut t, true, "8 a3-a4").await;
    // Red offers on its own turn; everyone hears of it.
    draw_ok(&mut t.guest, "offer").await;
    for c in [&mut t.host, &mut t.guest, &mut t.spectator] {
        let offer = c.next_of("draw").await;
        assert_eq!(offer["kind"], "offer", "{offer}");
        assert_eq!(offer["side"], 1);
        assert_eq!(offer["member"], t.guest_member);
        assert!(offer["v"].is_u64());
    }
    // The offerer cannot accept their own offer; a spectator cannot answer.
    draw_refused(&mut t.guest, "accept", "no_offer").await;
    draw_refused(&mut t.spectator, "accept", "no_game").await;
    draw_ok(&mut t.host, "accept").await;
    for c in [&mut t.host, &mut t.guest, &mut t.spectator] {
        let end = next_match_of(c, "end").await;
        assert_eq!(
            end["match"]["outcome"],
            json!({"kind": "draw", "reason": "agreement"})
        );
        assert_eq!(end["match"]["draw_offer"], Value::Null);
    }
    let scores = t.host.next_of("scores").await;
    for row in scores["scores"].as_array().unwrap() {
        assert_eq!(
            (row["draws"].as_u64(), row["points"].as_u64()),
            (Some(1), Some(0)),
            "{row}"
        );
    }
    // Stored like every other ending: in the room's finished games.
    let (status, body) = server.get(&format!("/api/rooms/{}/games", t.code)).await;
    assert_eq!(status, 200);
    let games: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        games["games"][0]["outcome"],
        json!({"kind": "draw", "reason": "agreement"}),
        "{games}"
    );
    assert_eq!(games["total"], 1);
}

#[tokio::test]
async fn a_declined_offer_goes_and_a_side_offers_once_between_moves() {
    let server = TestServer::start().await;
    let mut t = jungle(&server).await;
    draw_ok(&mut t.host, "offer").await;
    draw_refused(&mut t.host, "offer", "draw_offered").await;
    draw_ok(&mut t.guest, "decline").await;
    let declined = t.spectator.next_of("draw").await;
    assert_eq!(declined["kind"], "offer");
    let declined = t.spectator.next_of("draw").await;
    assert_eq!(declined["kind"], "decline");
    assert_eq!(declined["side"], 1);
    draw_refused(&mut t.guest, "accept", "no_offer").await;
    // Declined at this move: the host offers again only after a move,
    // which a page loaded now reads from the snapshot.
    draw_refused(&mut t.host, "offer", "draw_offered").await;
    let (_, _, snap) = server.join(&t.code, None, None).await;
    let m = &snap["room"]["tables"][0]["match"];
    assert_eq!(m["draw_offer"], Value::Null, "{m}");
    assert_eq!(m["draw_asked"], json!([0]), "{m}");
    assert_eq!(m["takeback_asked"], json!([]), "{m}");
    play(&mut t, true, "8 a3-a4").await;
    let (_, _, snap) = server.join(&t.code, None, None).await;
    assert_eq!(snap["room"]["tables"][0]["match"]["draw_asked"], json!([]));
    draw_ok(&mut t.host, "offer").await;
    // Offering back while an offer stands agrees to it.
    draw_ok(&mut t.guest, "offer").await;
    let end = next_match_of(&mut t.spectator, "end").await;
    assert_eq!(end["match"]["outcome"]["reason"], "agreement");
}

#[tokio::test]
async fn an_offer_expires_when_the_opponent_plays_on() {
    let server = TestServer::start().await;
    let mut t = jungle(&server).await;
    // Blue offers, then moves: the offer stands through Red's turn.
    draw_ok(&mut t.host, "offer").await;
    let moved = play(&mut t, true, "8 a3-a4").await;
    assert_eq!(moved["match"]["draw_offer"], 0, "{moved}");
    // Red plays on instead of answering: the offer is gone.
    let moved = play(&mut t, false, "8 g7-g6").await;
    assert_eq!(moved["match"]["draw_offer"], Value::Null, "{moved}");
    draw_refused(&mut t.guest, "accept", "no_offer").await;
    // A snapshot shows a standing offer too.
    draw_ok(&mut t.guest, "offer").await;
    let (_, _, snap) = server.join(&t.code, None, Some("Late")).await;
    assert_eq!(snap["room"]["tables"][0]["match"]["draw_offer"], 1);
}

/// PROTOCOL.md, "Draw offers": an accepted takeback ends a standing
/// offer (`draw_offer` null in the takeback's `match` event, no `draw`
/// event), and the offerer stays in `draw_asked` until the next move.
#[tokio::test]
async fn an_accepted_takeback_ends_a_standing_offer_without_a_draw_event() {
    let server = TestServer::start().await;
    let mut t = jungle(&server).await;
    play(&mut t, true, "8 a3-a4").await;
    draw_ok(&mut t.host, "offer").await;
    let offered = t.spectator.next_of("draw").await;
    assert_eq!(
        (offered["kind"].clone(), offered["side"].clone()),
        (json!("offer"), json!(0))
    );
    t.host
        .ok(json!({"type": "takeback", "action": "offer"}))
        .await;
    t.guest
        .ok(json!({"type": "takeback", "action": "accept"}))
        .await;
    let back = next_match_of(&mut t.spectator, "takeback").await;
    assert_eq!(back["match"]["moves"], json!([]), "{back}");
    assert_eq!(back["match"]["draw_offer"], Value::Null, "{back}");
    assert_eq!(back["match"]["draw_asked"], json!([0]), "{back}");
    t.spectator
        .silent_for("draw", Duration::from_millis(300))
        .await;
    draw_refused(&mut t.guest, "accept", "no_offer").await;
    draw_refused(&mut t.host, "offer", "draw_offered").await;
    let (_, _, snap) = server.join(&t.code, None, None).await;
    let m = &snap["room"]["tables"][0]["match"];
    assert_eq!(
        (m["draw_offer"].clone(), m["draw_asked"].clone()),
        (Value::Null, json!([0])),
        "{m}"
    );
    // The next move lets the host offer again.
    play(&mut t, true, "8 a3-a4").await;
    draw_ok(&mut t.host, "offer").await;
}

#[tokio::test]
async fn no_draw_offers_where_the_rules_have_no_draws() {
    let server = TestServer::start().await;
    // CrossyRay has no draws (RULES.md §1), clock or not.
    let mut t = table_of(&server, "crossyray", json!({"clock": [3, 2]})).await;
    t.start().await;
    draw_refused(&mut t.host, "offer", "no_draws").await;
    // Quoridor's only draw is the move limit.
    let mut q = table_of(&server, "quoridor", Value::Null).await;
    q.start().await;
    draw_refused(&mut q.guest, "offer", "no_draws").await;
    // The computer plays every Jungle game to its end.
    let (_code, mut host) = server
        .against_the_computer(json!({"game": "jungle", "options": null}), "Minh")
        .await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    draw_refused(&mut host, "offer", "no_draws").await;
    // And no game, no offer.
    let mut idle = table_of(&server, "jungle", Value::Null).await;
    draw_refused(&mut idle.host, "offer", "no_game").await;
}

#[tokio::test]
async fn a_rematch_starts_at_once_when_every_player_asked() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "crossyray", Value::Null).await;
    t.host.refused(json!({"type": "rematch"}), "no_game").await;
    t.start().await;
    t.host
        .refused(json!({"type": "rematch"}), "game_running")
        .await;
    t.host.ok(json!({"type": "resign"})).await;
    for c in [&mut t.host, &mut t.guest, &mut t.spectator] {
        next_match_of(c, "end").await;
    }
    let countdown = t.guest.next_of("autostart").await;
    assert_eq!(countdown["autostart"]["remaining_ms"], 30_000);
    // A spectator did not play.
    t.spectator
        .refused(json!({"type": "rematch"}), "no_game")
        .await;
    t.guest.ok(json!({"type": "rematch"})).await;
    let asked = t.host.next_of("rematch").await;
    assert_eq!(asked["rematch"], json!([t.guest_member]));
    // Half of the table asked: nothing starts, the countdown runs on.
    t.guest.ok(json!({"type": "rematch"})).await;
    t.host.silent_for("match", Duration::from_millis(300)).await;
    let (_, _, snap) = server.join(&t.code, None, Some("Late")).await;
    assert_eq!(snap["room"]["rematch"], json!([t.guest_member]));
    assert!(snap["room"]["autostart"]["remaining_ms"].as_u64().unwrap() > 20_000);
    // The other player asks too: the next game starts at once.
    t.host.ok(json!({"type": "rematch"})).await;
    for c in [&mut t.host, &mut t.guest, &mut t.spectator] {
        let start = c.next_match().await;
        assert_eq!(start["kind"], "start", "{start}");
        assert_eq!(start["match"]["number"], 2);
    }
    let (_, _, snap) = server.join(&t.code, None, Some("Later")).await;
    assert_eq!(snap["room"]["rematch"], json!([]));
    assert_eq!(snap["room"]["autostart"]["remaining_ms"], Value::Null);

    // Both ask again, but one stood up and someone else sat down: no
    // game with a person who did not ask (an outside check found one).
    t.host.ok(json!({"type": "resign"})).await;
    for c in [&mut t.host, &mut t.guest, &mut t.spectator] {
        next_match_of(c, "end").await;
    }
    t.host.ok(json!({"type": "rematch"})).await;
    t.guest.ok(json!({"type": "stand"})).await;
    t.spectator.ok(json!({"type": "sit", "seat": 1})).await;
    t.guest.ok(json!({"type": "rematch"})).await;
    t.host.ok(json!({"type": "rematch"})).await;
    t.host.silent_for("match", Duration::from_millis(300)).await;
}

/// Waits until the server closes `client`'s socket, returning the error
/// it sent first.
async fn closed_with(client: &mut Client, code: &str) -> u16 {
    use futures_util::StreamExt;
    use tokio_tungstenite::tungstenite::Message;
    let mut seen = false;
    loop {
        let msg = tokio::time::timeout(Duration::from_secs(10), client.ws.next())
            .await
            .expect("closed in time");
        match msg {
            Some(Ok(Message::Text(text))) => {
                let v: Value = serde_json::from_str(text.as_str()).unwrap();
                if v["type"] == "error" {
                    assert_eq!(v["code"], code, "{v}");
                    seen = true;
                }
            }
            Some(Ok(Message::Close(frame))) => {
                assert!(seen, "the error came before the close");
                return frame.map_or(0, |f| u16::from(f.code));
            }
            Some(Ok(_)) => {}
            other => panic!("socket ended without a close frame: {other:?}"),
        }
    }
}

/// A hello with `token` is refused with `removed`, and the socket closes.
async fn refused_at_the_door(server: &TestServer, code: &str, token: &str) {
    let mut c = server.socket(code).await;
    let answer = c.command(json!({"type": "hello", "token": token})).await;
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "removed", "{answer}");
    assert!(answer["message"].as_str().unwrap().contains("host"));
}

#[tokio::test]
async fn the_host_unseats_and_removes_a_member_who_stays_out_until_let_back_in() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "crossyray", Value::Null).await;
    let guest = t.guest_member.clone();
    let guest_id = guest.as_str().unwrap();
    // Only the host, and only between games.
    t.guest
        .refused(
            json!({"type": "unseat", "member": t.host_member}),
            "not_host",
        )
        .await;
    t.host
        .refused(json!({"type": "unseat", "member": "m99"}), "no_member")
        .await;
    t.start().await;
    t.host
        .refused(json!({"type": "unseat", "member": guest}), "game_running")
        .await;
    t.host
        .refused(json!({"type": "remove", "member": guest}), "game_running")
        .await;
    t.host.ok(json!({"type": "resign"})).await;
    t.host
        .ok(json!({"type": "autostart", "enabled": false}))
        .await;

    t.host.ok(json!({"type": "unseat", "member": guest})).await;
    let notice = t.spectator.next_of("notice").await;
    assert_eq!(
        (
            notice["kind"].as_str(),
            notice["member"].as_str(),
            notice["name"].as_str()
        ),
        (Some("unseated"), Some(guest_id), Some("Lan"))
    );
    let members = t
        .spectator
        .latest("members")
        .expect("a members event before the notice");
    let lan = member(members, &guest).unwrap();
    assert_eq!(lan["seat"], Value::Null);
    let watching = members["spectators"].as_u64().unwrap();
    t.host
        .refused(json!({"type": "unseat", "member": guest}), "no_seat")
        .await;

    // Removed: told why, then closed; the others see it in the room.
    t.host
        .refused(
            json!({"type": "remove", "member": t.host_member}),
            "no_member",
        )
        .await;
    t.host.ok(json!({"type": "remove", "member": guest})).await;
    assert_eq!(closed_with(&mut t.guest, "removed").await, 1008);
    let notice = t.spectator.next_of("notice").await;
    assert_eq!(notice["kind"], "removed");
    // The `members` before it counts the room without them, and no
    // `spectators` event comes to correct it when their socket closes.
    let members = t.spectator.latest("members").unwrap();
    assert_eq!(members["spectators"], watching - 1, "{members}");
    let removed = t.spectator.next_of("removed").await;
    assert_eq!(
        removed["removed"],
        json!([{"member": guest, "name": "Lan"}])
    );
    t.spectator
        .silent_for("spectators", Duration::from_millis(1_500))
        .await;
    t.host
        .refused(json!({"type": "remove", "member": guest}), "no_member")
        .await;
    refused_at_the_door(&server, &t.code, &t.guest_token).await;
    // Not a member any more: not listed, and the host's list has them.
    let (_, _, snap) = server.join(&t.code, Some(&t.host_token), None).await;
    assert!(snap["room"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .all(|m| m["id"] != guest));
    assert_eq!(
        snap["room"]["removed"],
        json!([{"member": guest, "name": "Lan"}])
    );

    // Kept across a restart.
    let code = t.code.clone();
    let (host_token, guest_token) = (t.host_token.clone(), t.guest_token.clone());
    drop(t);
    let dir = server.stop().await;
    let server = TestServer::start_in(dir, |_| {}).await;
    refused_at_the_door(&server, &code, &guest_token).await;
    let (mut host, _, snap) = server.join(&code, Some(&host_token), None).await;
    assert_eq!(
        snap["room"]["removed"],
        json!([{"member": guest, "name": "Lan"}])
    );
    host.refused(json!({"type": "readmit", "member": "m1"}), "no_member")
        .await;
    host.ok(json!({"type": "readmit", "member": guest})).await;
    let notice = host.next_of("notice").await;
    assert_eq!(notice["kind"], "let_in");
    assert_eq!(host.next_of("removed").await["removed"], json!([]));
    // Back in, as the same member with the same name.
    let (_, _, snap) = server.join(&code, Some(&guest_token), None).await;
    assert_eq!(snap["you"]["member"], guest);
    assert_eq!(snap["you"]["name"], "Lan");
    assert_eq!(snap["room"]["removed"], json!([]));
}

/// A member the host removes leaves the rematch list, and everyone hears
/// it: a `rematch` event with the list as it now is, before the `ack`
/// (an outside check found the list emptied silently).
#[tokio::test]
async fn removing_a_member_who_asked_for_a_rematch_announces_the_shorter_list() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "crossyray", Value::Null).await;
    let guest = t.guest_member.clone();
    t.start().await;
    t.host.ok(json!({"type": "resign"})).await;
    for c in [&mut t.host, &mut t.guest, &mut t.spectator] {
        next_match_of(c, "end").await;
    }
    t.guest.ok(json!({"type": "rematch"})).await;
    assert_eq!(t.host.next_of("rematch").await["rematch"], json!([guest]));
    assert_eq!(
        t.spectator.next_of("rematch").await["rematch"],
        json!([guest])
    );
    t.host.events.clear();
    t.host.ok(json!({"type": "remove", "member": guest})).await;
    // Before the ack, after the `removed` list.
    let order: Vec<&str> = t
        .host
        .events
        .iter()
        .filter_map(|e| e["type"].as_str())
        .filter(|k| ["removed", "rematch"].contains(k))
        .collect();
    assert_eq!(order, ["removed", "rematch"], "{:?}", t.host.events);
    assert_eq!(t.host.latest("rematch").unwrap()["rematch"], json!([]));
    let seen = t
        .spectator
        .until("rematch", Duration::from_secs(5))
        .await
        .expect("the spectator hears the list too");
    assert_eq!(seen["rematch"], json!([]));
    let (_, _, snap) = server.join(&t.code, None, Some("Late")).await;
    assert_eq!(snap["room"]["rematch"], json!([]));

    // Removing someone who did not ask changes no list: no event.
    let (mut other, _, snap) = server.join(&t.code, None, Some("Vy")).await;
    let vy = snap["you"]["member"].clone();
    other.ok(json!({"type": "ping"})).await;
    t.host.events.clear();
    t.host.ok(json!({"type": "remove", "member": vy})).await;
    assert!(
        t.host.latest("removed").is_some() && t.host.latest("rematch").is_none(),
        "{:?}",
        t.host.events
    );
}
