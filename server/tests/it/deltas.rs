//! Move events carry only what a move changed (docs/PROTOCOL.md): for
//! every game, a spectator that applies them to the match it holds ends
//! with the match a fresh snapshot shows.

use crate::common;

use common::{follow, keep_going, local_game, table_of, TestServer};
use serde_json::{json, Value};

/// The match without `legal`, which a spectator's copy leaves out when
/// it is long (Quoridor with walls), without the time left on the
/// running clock, which goes on between the event and the snapshot, and
/// without the lists a Jungle `state` repeats from the match (`moves`,
/// `legal_moves`), which a move event's state leaves out.
fn comparable(m: &Value) -> Value {
    let mut m = m.clone();
    m.as_object_mut().unwrap().remove("legal");
    if let Some(state) = m["state"].as_object_mut() {
        state.remove("moves");
        state.remove("legal_moves");
    }
    if let Some(running) = m["clock"]["running"].as_u64() {
        m["clock"]["remaining_ms"][running as usize] = Value::Null;
    }
    m
}

async fn followed_equals_snapshot(game: &str, options: Value, moves: usize) {
    let server = TestServer::start().await;
    let mut t = table_of(&server, game, options.clone()).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = t.spectator.next_match().await;
    assert_eq!(start["kind"], "start");
    let mut held = follow(&Value::Null, &start);
    let mut local = local_game(game, &held["state"]["options"]);
    let mut full_legal = held["legal"].clone();
    for ply in 0..moves {
        let mv = keep_going(&local, &full_legal, ply);
        t.play_ply(ply, &mv).await;
        local.play_text(&mv).unwrap();
        let event = t.spectator.next_match().await;
        assert_eq!(event["kind"], "move");
        held = follow(&held, &event);
        full_legal = json!(local.legal());
        if full_legal.as_array().unwrap().len() <= 64 {
            assert_eq!(
                held["legal"], full_legal,
                "a short legal list reaches everyone"
            );
        }
    }
    let (_, _, snapshot) = server.join(&t.code, None, None).await;
    let fresh = &snapshot["room"]["tables"][0]["match"];
    assert_eq!(fresh["moves"].as_array().unwrap().len(), moves);
    assert_eq!(comparable(&held), comparable(fresh), "{game}");
    assert_eq!(fresh["legal"], full_legal);
}

#[tokio::test]
async fn crossyray_moves_applied_give_the_snapshot() {
    followed_equals_snapshot("crossyray", json!({"clock": null}), 12).await;
}

#[tokio::test]
async fn quoridor_moves_applied_give_the_snapshot() {
    followed_equals_snapshot("quoridor", json!({"players": 2}), 12).await;
}

#[tokio::test]
async fn jungle_moves_applied_give_the_snapshot() {
    followed_equals_snapshot("jungle", json!({"clock": null}), 12).await;
}

/// The size of a move event as a spectator receives it (compact JSON).
fn size(event: &Value) -> usize {
    event.to_string().len()
}

/// Plays `plies` moves that keep the game going and returns the sizes of
/// the spectator's move events at plies 5 and `plies` (from 1), checking
/// on the way that the events applied still give the snapshot's match.
async fn event_sizes(game: &str, options: Value, plies: usize) -> (usize, usize) {
    // As fast as the sockets go: no message rate.
    let server = TestServer::start_with(|c| c.message_rate = 0.0).await;
    let mut t = table_of(&server, game, options).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    let start = t.spectator.next_match().await;
    let mut held = follow(&Value::Null, &start);
    let mut local = local_game(game, &held["state"]["options"]);
    let mut sizes = Vec::new();
    for ply in 0..plies {
        let mv = keep_going(&local, &json!(local.legal()), ply);
        t.play_ply(ply, &mv).await;
        local.play_text(&mv).unwrap();
        let event = t.spectator.next_match().await;
        assert_eq!(event["kind"], "move", "{game} at {ply}: {event}");
        sizes.push(size(&event));
        held = follow(&held, &event);
    }
    let (_, _, snapshot) = server.join(&t.code, None, None).await;
    assert_eq!(
        comparable(&held),
        comparable(&snapshot["room"]["tables"][0]["match"]),
        "{game}"
    );
    (sizes[4], sizes[plies - 1])
}

#[tokio::test]
async fn a_move_costs_the_same_to_send_at_ply_300_as_at_ply_5() {
    // Quoridor with a move limit that lets 300 plies be played; its walls
    // (all 20 placed by then) are not in the events.
    for (game, options) in [
        ("quoridor", json!({"move_limit": 200})),
        ("jungle", json!({"clock": null})),
    ] {
        let (early, late) = event_sizes(game, options, 300).await;
        assert!(
            late as f64 <= early as f64 * 1.1,
            "{game}: {early} bytes at ply 5, {late} at ply 300"
        );
    }
}
