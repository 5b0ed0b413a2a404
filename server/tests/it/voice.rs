//! Voice chat through the real server: who is in voice, muting, and the
//! WebRTC signalling relayed only to the addressed member of the same
//! room, checked for size and form like every message.

use crate::common;

use std::time::Duration;

use common::browser::upgrade_from;
use common::{Client, TestServer};
use serde_json::{json, Value};

const OFFER: &str =
    "v=0\r\no=- 46117 2 IN IP4 127.0.0.1\r\ns=-\r\nt=0 0\r\nm=audio 9 UDP/TLS/RTP/SAVPF 111\r\n";

/// A room with the host and `names` joined; returns the code and the
/// clients with their member ids, the host first.
async fn room(server: &TestServer, names: &[&str]) -> (String, Vec<(Client, Value)>) {
    let (code, host) = server
        .new_room(json!({"game": "crossyray", "options": null}))
        .await;
    let mut clients = Vec::new();
    for (i, name) in names.iter().enumerate() {
        let token = (i == 0).then_some(host.as_str());
        let (client, _, snap) = server.join(&code, token, Some(name)).await;
        assert_eq!(snap["room"]["voice"], json!([]));
        clients.push((client, snap["you"]["member"].clone()));
    }
    (code, clients)
}

/// One member's voice state: (member, speaker, muted, host_muted).
type Entry = (String, bool, bool, bool);

/// A voice state as the server sends it, read as an [`Entry`].
fn entry(v: &Value) -> Entry {
    (
        v["member"].as_str().unwrap().to_string(),
        v["speaker"].as_bool().unwrap(),
        v["muted"].as_bool().unwrap(),
        v["host_muted"].as_bool().unwrap(),
    )
}

/// Reads the next `voice` event, checks that it is one room event about
/// one member (their state, or `null`: they left), applies it to `list`
/// as a page does, and returns the member it was about.
async fn voice(c: &mut Client, list: &mut Vec<Entry>) -> String {
    let ev = c.next_of("voice").await;
    assert!(ev["v"].is_u64(), "a room event: {ev}");
    let member = ev["member"].as_str().expect("one member").to_string();
    let state = &ev["voice"];
    let fields: Vec<&String> = ev.as_object().unwrap().keys().collect();
    assert_eq!(fields, ["member", "type", "v", "voice"], "{ev}");
    match state {
        Value::Null => list.retain(|e| e.0 != member),
        Value::Object(_) => {
            assert_eq!(state["member"], member.as_str(), "{ev}");
            let entry = entry(state);
            match list.iter_mut().find(|e| e.0 == member) {
                Some(held) => *held = entry,
                None => list.push(entry),
            }
        }
        other => panic!("voice is a member's state or null: {other}"),
    }
    member
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
    // Khoa's page sees Minh join first: one member's state.
    let mut list = Vec::new();
    voice(&mut c[2].0, &mut list).await;
    assert_eq!(
        list,
        vec![(ids[0].as_str().unwrap().to_string(), true, false, false)]
    );
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
    let mut list = Vec::new();
    while voice(&mut c[0].0, &mut list).await != ids[2] || list.iter().any(|e| e.0 == ids[2]) {}
    assert_eq!(list.len(), 2, "{list:?}");
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
        // Line breaks are an SDP's only: a mid has none.
        (
            json!({"type": "signal", "to": lan, "kind": "candidate", "candidate": "candidate:1", "mid": "a\n"}),
            "bad_signal",
        ),
        (
            json!({"type": "signal", "to": lan, "kind": "candidate", "candidate": "candidate:1", "mid": "\r\n"}),
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
    let mut list = Vec::new();
    voice(&mut c[0].0, &mut list).await;
    assert_eq!(list, vec![(lan.clone(), true, false, false)]);
    c[1].0.ok(json!({"type": "mute", "muted": true})).await;
    voice(&mut c[0].0, &mut list).await;
    assert_eq!(list, vec![(lan.clone(), true, true, false)]);
    c[1].0.ok(json!({"type": "mute", "muted": false})).await;
    voice(&mut c[0].0, &mut list).await;
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
    // Lan's page sees every change in order: join, mute, unmute, the host's
    // (a host-muted member listens: Lan gives the speaker's place up).
    let mut seen = Vec::new();
    let mut list = Vec::new();
    for _ in 0..4 {
        voice(&mut c[1].0, &mut list).await;
        seen.push(list.clone());
    }
    assert_eq!(
        seen,
        [
            (true, false, false),
            (true, true, false),
            (true, false, false),
            (false, false, true)
        ]
        .iter()
        .map(|&(speaker, muted, host)| vec![(lan.clone(), speaker, muted, host)])
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
        voice(&mut c[0].0, &mut list).await;
    }
    assert_eq!(list.len(), 9);
    assert_eq!(list.iter().filter(|v| v.1).count(), 8);
    assert!(!list[8].1, "the ninth listens: {list:?}");
    // A speaker leaves: the listener speaks (two changes: the leaver's,
    // then the listener's).
    let mut list = Vec::new();
    for _ in 0..9 {
        voice(&mut c[1].0, &mut list).await;
    }
    c[0].0.ok(json!({"type": "voice", "join": false})).await;
    voice(&mut c[1].0, &mut list).await;
    voice(&mut c[1].0, &mut list).await;
    assert_eq!(list.len(), 8);
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

/// A TURN server without its username and credential (browsers throw on
/// it) is refused before the binary starts, naming the flag: exit 2, as
/// its variable `ICE_SERVERS` too.
#[tokio::test]
async fn a_turn_server_without_credentials_stops_the_binary_at_start() {
    let dir = tempfile::tempdir().unwrap();
    let (status, said) =
        common::process::refused_start(dir.path(), &["--ice-server", "turn:turn.example.org:3478"])
            .await;
    assert_eq!(status.code(), Some(2), "{said}");
    assert!(said.contains("--ice-server"), "{said}");
    assert!(said.contains("USERNAME,CREDENTIAL"), "{said}");
    assert!(
        !dir.path().join("site.db").exists(),
        "refused before anything starts"
    );
}

// ---------------------------------------------------------------------
// Issue 24, item 3: voice cannot be used to amplify traffic.

#[tokio::test]
async fn a_watcher_without_a_name_cannot_join_voice() {
    let server = TestServer::start().await;
    let (code, mut c) = room(&server, &["Minh"]).await;
    let (mut watcher, _, snap) = server.join(&code, None, None).await;
    assert_eq!(snap["you"]["name"], Value::Null);
    let message = watcher
        .refused(json!({"type": "voice", "join": true}), "name_first")
        .await;
    assert!(message.contains("name"), "{message}");
    // Nothing changed: nobody is in voice, and no voice event went out.
    c[0].0.silent_for("voice", Duration::from_millis(300)).await;
    let (_, _, snap) = server.join(&code, None, Some("Late")).await;
    assert_eq!(snap["room"]["voice"], json!([]));
    // Named, the same member joins.
    watcher.ok(json!({"type": "name", "name": "Lan"})).await;
    watcher.ok(json!({"type": "voice", "join": true})).await;
    let mut list = Vec::new();
    voice(&mut c[0].0, &mut list).await;
    assert_eq!(list.len(), 1);
}

#[tokio::test]
async fn a_mute_in_voice_of_a_hundred_sends_one_members_state_not_the_list() {
    let server = TestServer::start_with(|config| config.members_per_addr = 0).await;
    let names: Vec<String> = (0..100).map(|i| format!("P{i}")).collect();
    let names: Vec<&str> = names.iter().map(String::as_str).collect();
    let (code, mut c) = room(&server, &names).await;
    for (client, _) in c.iter_mut() {
        client.ok(json!({"type": "voice", "join": true})).await;
    }
    let (mut observer, _, snap) = server.join(&code, None, Some("Observer")).await;
    assert_eq!(snap["room"]["voice"].as_array().unwrap().len(), 100);
    for (client, _) in c.iter_mut() {
        client.ok(json!({"type": "mute", "muted": true})).await;
    }
    // Each mute is one event about one member, the same small size at the
    // hundredth as at the first (the whole list would be ~7 KB).
    let mut list = Vec::new();
    for (_, id) in &c {
        let ev = observer.next_of("voice").await;
        assert_eq!(ev["member"], *id, "{ev}");
        assert_eq!(ev["voice"]["muted"], true, "{ev}");
        let bytes = ev.to_string().len();
        assert!(bytes < 160, "{bytes} bytes: {ev}");
        observer.events.insert(0, ev);
        voice(&mut observer, &mut list).await;
    }
    assert_eq!(list.len(), 100);
    // Muting again changes nothing and sends nothing.
    c[5].0.ok(json!({"type": "mute", "muted": true})).await;
    observer
        .silent_for("voice", Duration::from_millis(300))
        .await;
}

#[tokio::test]
async fn a_signalling_flood_is_refused_past_the_senders_budget_and_others_still_signal() {
    let server = TestServer::start().await;
    let (code, mut c) = room(&server, &["Minh", "Lan"]).await;
    let lan = c[1].1.clone();
    let (khoa, khoa_token, snap) = server.join(&code, None, Some("Khoa")).await;
    let khoa_id = snap["you"]["member"].clone();
    // Khoa floods Lan from four pages, each under the per-connection
    // limit (bursts of 40): the budget is Khoa's, not a page's.
    let mut pages = vec![khoa];
    for _ in 0..3 {
        let (page, _, snap) = server.join(&code, Some(&khoa_token), None).await;
        assert_eq!(snap["you"]["member"], khoa_id);
        pages.push(page);
    }
    for client in c
        .iter_mut()
        .map(|(client, _)| client)
        .chain(&mut pages[..1])
    {
        client.ok(json!({"type": "voice", "join": true})).await;
    }
    let signal = json!({"type": "signal", "to": lan, "kind": "candidate", "candidate": "candidate:1 1 udp 1 10.0.0.1 9 typ host"});
    let (mut passed, mut refused) = (0, 0);
    for round in 0..30 {
        for page in pages.iter_mut() {
            let answer = page.command(signal.clone()).await;
            match answer["type"].as_str() {
                Some("ack") => passed += 1,
                _ => {
                    assert_eq!(answer["code"], "rate_limited", "round {round}: {answer}");
                    refused += 1;
                }
            }
        }
    }
    assert_eq!(passed + refused, 120);
    assert!(refused > 0, "120 signals in a burst all passed");
    // The budget: 60 at once, 10 more a second while the flood lasted.
    assert!(passed < 100, "{passed} passed");
    // Lan received exactly the ones that passed.
    let mut relayed = 0;
    while relayed < passed {
        let got = c[1].0.next_of("signal").await;
        assert_eq!(got["from"], khoa_id);
        relayed += 1;
    }
    c[1].0
        .silent_for("signal", Duration::from_millis(300))
        .await;
    // Minh's budget is his own: his signal to Lan passes.
    let offer = json!({"type": "signal", "to": lan, "kind": "offer", "sdp": OFFER});
    c[0].0.ok(offer).await;
    let got = c[1].0.next_of("signal").await;
    assert_eq!(got["from"], c[0].1);
}

#[tokio::test]
async fn the_hosts_mute_takes_the_speakers_place_back_and_a_resumed_page_converges() {
    let server = TestServer::start().await;
    let names = ["A", "B", "C", "D", "E", "F", "G", "H", "I"];
    let (code, mut c) = room(&server, &names).await;
    // A page that leaves before everything and resumes after (`since`).
    let (mut away, away_token, snap) = server.join(&code, None, Some("Away")).await;
    let since = json!({"epoch": snap["epoch"], "v": snap["v"]});
    let _ = away.ws.close(None).await;
    let ids: Vec<String> = c
        .iter()
        .map(|(_, id)| id.as_str().unwrap().to_string())
        .collect();
    for (client, _) in c.iter_mut() {
        client.ok(json!({"type": "voice", "join": true})).await;
    }
    let mut list = Vec::new();
    for _ in 0..9 {
        voice(&mut c[0].0, &mut list).await;
    }
    assert!(!list[8].1, "the ninth listens: {list:?}");
    // The host mutes B: B listens, and I takes the place.
    c[0].0
        .ok(json!({"type": "voice_mute", "member": ids[1], "muted": true}))
        .await;
    assert_eq!(voice(&mut c[0].0, &mut list).await, ids[1]);
    assert_eq!(voice(&mut c[0].0, &mut list).await, ids[8]);
    assert_eq!(list[1], (ids[1].clone(), false, false, true));
    assert_eq!(list[8], (ids[8].clone(), true, false, false));
    assert_eq!(list.iter().filter(|v| v.1).count(), 8);
    // Leaving voice and joining again does not lift the host's mute.
    c[1].0.ok(json!({"type": "voice", "join": false})).await;
    c[1].0.ok(json!({"type": "voice", "join": true})).await;
    assert_eq!(voice(&mut c[0].0, &mut list).await, ids[1]);
    assert_eq!(voice(&mut c[0].0, &mut list).await, ids[1]);
    let b = |list: &[Entry]| list.iter().find(|e| e.0 == ids[1]).unwrap().clone();
    assert_eq!(b(&list), (ids[1].clone(), false, false, true));
    assert_eq!(
        list.last().unwrap().0,
        ids[1],
        "joined again: last in the list"
    );
    // I speaks now: it may signal another listener (B), which two
    // listeners could not.
    let to_b = json!({"type": "signal", "to": ids[1], "kind": "offer", "sdp": OFFER});
    c[8].0.ok(to_b).await;
    // Unmuted, B listens until a place frees: no one loses theirs.
    c[0].0
        .ok(json!({"type": "voice_mute", "member": ids[1], "muted": false}))
        .await;
    voice(&mut c[0].0, &mut list).await;
    assert_eq!(b(&list), (ids[1].clone(), false, false, false));
    c[2].0.ok(json!({"type": "voice", "join": false})).await;
    assert_eq!(voice(&mut c[0].0, &mut list).await, ids[2]);
    assert_eq!(voice(&mut c[0].0, &mut list).await, ids[1]);
    assert_eq!(b(&list), (ids[1].clone(), true, false, false));

    // The resumed page replays the small changes onto its snapshot's
    // (empty) list and holds what a fresh snapshot holds.
    let (_, _, fresh) = server.join(&code, None, Some("Fresh")).await;
    let now = fresh["v"].as_u64().unwrap();
    let mut away = server.socket(&code).await;
    let ack = away
        .command(json!({"type": "hello", "token": away_token, "since": since}))
        .await;
    assert_eq!(ack["resumed"], true, "{ack}");
    let mut replayed = Vec::new();
    loop {
        let ev = away.recv().await;
        let v = ev["v"].as_u64().expect("a room event");
        if ev["type"] == "voice" {
            away.events.push(ev);
            voice(&mut away, &mut replayed).await;
        }
        if v >= now {
            break;
        }
    }
    let expected: Vec<Entry> = fresh["room"]["voice"]
        .as_array()
        .unwrap()
        .iter()
        .map(entry)
        .collect();
    assert_eq!(replayed.len(), 8);
    assert_eq!(replayed, expected);
}

/// A member named `name` joining room `code` from the local address
/// `from`, in voice: its client.
async fn in_voice_from(server: &TestServer, code: &str, name: &str, from: &str) -> Client {
    let socket = upgrade_from(&server.ws_url(code), from, None)
        .await
        .expect("the socket opens");
    let (mut client, _, _) = socket.hello(None, Some(name)).await;
    client.ok(json!({"type": "voice", "join": true})).await;
    client
}

/// Sends `n` signals from `client` to `to`: how many passed (the rest
/// were `rate_limited`).
async fn signals(client: &mut Client, to: &Value, n: usize) -> usize {
    let signal = json!({"type": "signal", "to": to, "kind": "candidate", "candidate": "candidate:1 1 udp 1 10.0.0.1 9 typ host"});
    let mut passed = 0;
    for _ in 0..n {
        let answer = client.command(signal.clone()).await;
        match answer["type"].as_str() {
            Some("ack") => passed += 1,
            _ => assert_eq!(answer["code"], "rate_limited", "{answer}"),
        }
    }
    passed
}

#[tokio::test]
async fn leaving_voice_keeps_the_signalling_budget_and_an_address_shares_one() {
    // Without the per-connection rate: the room's budgets are measured.
    let server = TestServer::start_with(|c| c.message_rate = 0.0).await;
    let (code, mut c) = room(&server, &["Minh", "Lan"]).await;
    for (client, _) in c.iter_mut() {
        client.ok(json!({"type": "voice", "join": true})).await;
    }
    let lan = c[1].1.clone();
    // Khoa spends his 60, leaves voice and joins again: nothing refilled
    // but the little the time gave back.
    let mut khoa = in_voice_from(&server, &code, "Khoa", "127.0.0.2").await;
    let first = signals(&mut khoa, &lan, 70).await;
    assert!((60..=64).contains(&first), "{first} passed");
    khoa.ok(json!({"type": "voice", "join": false})).await;
    khoa.ok(json!({"type": "voice", "join": true})).await;
    let again = signals(&mut khoa, &lan, 30).await;
    assert!(again <= 5, "{again} passed after joining again");
    // Four members from one address share three members' worth (180).
    let mut total = 0;
    for name in ["Vy", "Thu", "Hai", "Tuan"] {
        let mut member = in_voice_from(&server, &code, name, "127.0.0.3").await;
        total += signals(&mut member, &lan, 60).await;
    }
    assert!(
        (180..=200).contains(&total),
        "{total} passed from one address"
    );
}
