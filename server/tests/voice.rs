//! Voice chat through the real server: who is in voice, muting, and the
//! WebRTC signalling relayed only to the addressed member of the same
//! room, checked for size and form like every message.

mod common;

use std::time::Duration;

use common::{Client, TestServer};
use serde_json::{json, Value};

const OFFER: &str =
    "v=0\r\no=- 46117 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n";

/// A room with the host and `names` joined; returns the code and the
/// clients with their member ids, the host first.
async fn room(server: &TestServer, names: &[&str]) -> (String, Vec<(Client, Value)>) {
    let (status, room) = server
        .create_room(json!({"game": "crossyray", "options": null}))
        .await;
    assert_eq!(status, 201, "{room}");
    let code = room["code"].as_str().unwrap().to_string();
    let mut clients = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let token = (i == 0).then(|| room["token"].as_str().unwrap());
        let (client, _, snap) = server.join(&code, token, Some(name)).await;
        assert_eq!(snap["room"]["voice"], json!([]));
        clients.push((client, snap["you"]["member"].clone()));
    }
    (code, clients)
}

/// The next `voice` event's list, as (member, speaker, muted, host_muted).
async fn voice(c: &mut Client) -> Vec<(String, bool, bool, bool)> {
    let ev = c.next_of("voice").await;
    assert!(ev["v"].is_u64(), "a room event: {ev}");
    ev["voice"]
        .as_array()
        .unwrap()
        .iter()
        .map(|v| {
            (
                v["member"].as_str().unwrap().to_string(),
                v["speaker"].as_bool().unwrap(),
                v["muted"].as_bool().unwrap(),
                v["host_muted"].as_bool().unwrap(),
            )
        })
        .collect()
}

#[tokio::test]
async fn signalling_goes_only_to_the_addressed_member_of_the_same_room() {
    let server = TestServer::start().await;
    let (_, mut c) = room(&server, &["Minh", "Lan", "Khoa"]).await;
    let (_, mut other) = room(&server, &["Outsider"]).await;
    let ids: Vec<Value> = c.iter().map(|(_, id)| id.clone()).collect();
    let signal = |to: &Value| json!({"type": "signal", "to": to, "kind": "offer", "sdp": OFFER});

    // Nobody signals before joining voice, nor to someone not in it.
    c[0].0.refused(signal(&ids[1]), "not_in_voice").await;
    for (client, _) in c.iter_mut() {
        client.ok(json!({"type": "voice", "join": true})).await;
    }
    let list = voice(&mut c[2].0).await;
    assert_eq!(list.len(), 1);
    c[1].0.ok(json!({"type": "voice", "join": false})).await;
    c[0].0.refused(signal(&ids[1]), "not_in_voice").await;
    c[1].0.ok(json!({"type": "voice", "join": true})).await;

    // Minh's offer reaches Lan alone, without a version, from Minh.
    c[0].0.ok(signal(&ids[1])).await;
    let got = c[1].0.next_of("signal").await;
    assert_eq!(got["from"], ids[0]);
    assert_eq!(got["kind"], "offer");
    assert_eq!(got["sdp"], OFFER);
    assert!(got.get("v").is_none(), "not a room event: {got}");
    let candidate = json!({"type": "signal", "to": ids[0], "kind": "candidate",
        "candidate": "candidate:1 1 udp 2122260223 192.168.1.5 53421 typ host", "mid": "0", "line": 0});
    c[1].0.ok(candidate).await;
    let got = c[0].0.next_of("signal").await;
    assert_eq!(
        (
            got["from"].clone(),
            got["kind"].clone(),
            got["mid"].clone(),
            got["line"].clone()
        ),
        (ids[1].clone(), json!("candidate"), json!("0"), json!(0))
    );
    // Khoa, in voice too, hears none of it; nor does the other room.
    c[2].0
        .silent_for("signal", Duration::from_millis(300))
        .await;
    other[0]
        .0
        .silent_for("signal", Duration::from_millis(100))
        .await;
    // A member of another room (or no one) is not addressable from here.
    other[0].0.ok(json!({"type": "voice", "join": true})).await;
    let outsider = json!({"type": "signal", "to": "m40", "kind": "offer", "sdp": OFFER});
    c[0].0.refused(outsider, "not_in_voice").await;
    other[0].0.refused(signal(&ids[1]), "not_in_voice").await;
    c[1].0
        .silent_for("signal", Duration::from_millis(200))
        .await;
    // Nor oneself.
    c[0].0.refused(signal(&ids[0]), "bad_signal").await;

    // Leaving (or closing the page) leaves voice, and the signalling stops.
    let (closing, _) = c.remove(2);
    closing.close().await;
    let list = voice(&mut c[0].0).await;
    assert!(list.iter().all(|(m, ..)| *m != ids[2]), "{list:?}");
    c[0].0.refused(signal(&ids[2]), "not_in_voice").await;
}

#[tokio::test]
async fn oversized_or_malformed_signalling_is_refused_with_a_clear_error() {
    let server = TestServer::start().await;
    let (_, mut c) = room(&server, &["Minh", "Lan"]).await;
    let lan = c[1].1.clone();
    for (client, _) in c.iter_mut() {
        client.ok(json!({"type": "voice", "join": true})).await;
    }
    let minh = &mut c[0].0;
    let big = format!("{OFFER}{}", "a=x\r\n".repeat(2000));
    let message = minh
        .refused(
            json!({"type": "signal", "to": lan, "kind": "offer", "sdp": big}),
            "bad_signal",
        )
        .await;
    assert!(message.contains("8192"), "{message}");
    for (body, code) in [
        (
            json!({"type": "signal", "to": lan, "kind": "offer", "sdp": "hello"}),
            "bad_signal",
        ),
        (
            json!({"type": "signal", "to": lan, "kind": "answer", "sdp": "v=0\u{0}"}),
            "bad_signal",
        ),
        (
            json!({"type": "signal", "to": lan, "kind": "candidate", "candidate": "evil"}),
            "bad_signal",
        ),
        (
            json!({"type": "signal", "to": lan, "kind": "candidate", "candidate": "candidate:1\n2"}),
            "bad_signal",
        ),
        (
            json!({"type": "signal", "to": lan, "kind": "candidate", "candidate": "candidate:1", "mid": "x".repeat(65)}),
            "bad_signal",
        ),
        (
            json!({"type": "signal", "to": lan, "kind": "hug", "sdp": OFFER}),
            "bad_message",
        ),
        (
            json!({"type": "signal", "to": "Lan", "kind": "offer", "sdp": OFFER}),
            "bad_message",
        ),
        (
            json!({"type": "signal", "to": lan, "kind": "offer"}),
            "bad_message",
        ),
        (
            json!({"type": "signal", "kind": "offer", "sdp": OFFER}),
            "bad_message",
        ),
    ] {
        minh.refused(body, code).await;
    }
    // A frame over 16 KiB is not even read.
    let huge = json!({"id": 99, "type": "signal", "to": lan, "kind": "offer",
        "sdp": format!("v=0{}", "x".repeat(17_000))});
    minh.send_text(huge.to_string()).await;
    let answer = minh.answer(None).await;
    assert_eq!(answer["code"], "too_large", "{answer}");
    // None of it reached Lan.
    c[1].0
        .silent_for("signal", Duration::from_millis(300))
        .await;
}

#[tokio::test]
async fn members_mute_themselves_and_the_host_mutes_a_member_for_everyone() {
    let server = TestServer::start().await;
    let (code, mut c) = room(&server, &["Minh", "Lan"]).await;
    let (minh, lan) = (
        c[0].1.as_str().unwrap().to_string(),
        c[1].1.as_str().unwrap().to_string(),
    );
    c[1].0
        .refused(json!({"type": "mute", "muted": true}), "not_in_voice")
        .await;
    c[1].0.ok(json!({"type": "voice", "join": true})).await;
    assert_eq!(
        voice(&mut c[0].0).await,
        vec![(lan.clone(), true, false, false)]
    );
    c[1].0.ok(json!({"type": "mute", "muted": true})).await;
    assert_eq!(
        voice(&mut c[0].0).await,
        vec![(lan.clone(), true, true, false)]
    );
    c[1].0.ok(json!({"type": "mute", "muted": false})).await;
    voice(&mut c[0].0).await;
    // Only the host mutes others, and only members in voice.
    c[1].0
        .refused(
            json!({"type": "voice_mute", "member": minh, "muted": true}),
            "not_host",
        )
        .await;
    c[0].0
        .refused(
            json!({"type": "voice_mute", "member": minh, "muted": true}),
            "not_in_voice",
        )
        .await;
    c[0].0
        .ok(json!({"type": "voice_mute", "member": lan, "muted": true}))
        .await;
    // Lan's page sees every change in order: join, mute, unmute, the host's.
    let mut seen = Vec::new();
    for _ in 0..4 {
        seen.push(voice(&mut c[1].0).await);
    }
    assert_eq!(
        seen,
        [false, true, false, false]
            .iter()
            .zip([false, false, false, true])
            .map(|(&muted, host)| vec![(lan.clone(), true, muted, host)])
            .collect::<Vec<_>>()
    );
    // A snapshot has the list too.
    let (_, _, snap) = server.join(&code, None, None).await;
    assert_eq!(snap["room"]["voice"][0]["host_muted"], true);
}

#[tokio::test]
async fn the_first_eight_speak_and_the_ninth_listens_until_a_seat_frees() {
    let server = TestServer::start().await;
    let names = ["A", "B", "C", "D", "E", "F", "G", "H", "I"];
    let (_, mut c) = room(&server, &names).await;
    for (client, _) in c.iter_mut() {
        client.ok(json!({"type": "voice", "join": true})).await;
    }
    let mut list = Vec::new();
    for _ in 0..9 {
        list = voice(&mut c[0].0).await;
    }
    assert_eq!(list.len(), 9);
    assert_eq!(list.iter().filter(|v| v.1).count(), 8);
    assert!(!list[8].1, "the ninth listens: {list:?}");
    // A speaker leaves: the listener speaks.
    c[0].0.ok(json!({"type": "voice", "join": false})).await;
    let list = voice(&mut c[1].0).await;
    assert!(
        list.iter().all(|v| v.1),
        "the listener speaks now: {list:?}"
    );
}

#[tokio::test]
async fn the_site_names_the_operators_ice_servers() {
    let plain = TestServer::start().await;
    let (status, body) = plain.get("/api/site").await;
    assert_eq!(status, 200);
    let site: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(site["ice_servers"], json!([]), "none by default");
    let server = TestServer::start_with(|config| {
        config.ice_servers = vec![
            "stun:stun.example.org:3478".parse().unwrap(),
            "turn:turn.example.org:3478,lan,s3cret".parse().unwrap(),
        ];
    })
    .await;
    let (_, body) = server.get("/api/site").await;
    let site: Value = serde_json::from_str(&body).unwrap();
    assert_eq!(
        site["ice_servers"],
        json!([{"urls": "stun:stun.example.org:3478"},
               {"urls": "turn:turn.example.org:3478", "username": "lan", "credential": "s3cret"}])
    );
}
