//! Wire-level defects, through real sockets: a flooding client that stops
//! reading, the members cap, answers that must never go missing silently,
//! and the details of frames, names and outcomes.

use crate::common;

use std::collections::HashMap;
use std::time::{Duration, Instant};

use common::typed::read;
use common::{next_match_of, table_of, Client, Ending, TestServer};
use futures_util::stream::SplitStream;
use futures_util::{SinkExt, StreamExt};
use serde_json::{json, Value};
use server::games::GameKind;
use server::protocol::Code;
use server::room::{MatchKind, WireSnapshot};
use tokio::net::TcpStream;
use tokio_tungstenite::tungstenite::protocol::frame::coding::{Data, OpCode};
use tokio_tungstenite::tungstenite::protocol::frame::Frame;
use tokio_tungstenite::tungstenite::Message;
use tokio_tungstenite::{MaybeTlsStream, WebSocketStream};

/// Reads `stream` on a task of its own until it ends or is quiet for
/// `quiet`: the messages read, and how the socket ended.
fn read_until_quiet(
    mut stream: SplitStream<WebSocketStream<MaybeTlsStream<TcpStream>>>,
    quiet: Duration,
) -> tokio::task::JoinHandle<(Vec<Value>, Ending)> {
    tokio::spawn(async move {
        let mut messages = Vec::new();
        loop {
            match tokio::time::timeout(quiet, stream.next()).await {
                Ok(Some(Ok(Message::Text(text)))) => {
                    messages.push(serde_json::from_str::<Value>(text.as_str()).unwrap())
                }
                Ok(Some(Ok(Message::Close(Some(frame))))) => {
                    return (
                        messages,
                        Ending::Closed(frame.code.into(), frame.reason.to_string()),
                    )
                }
                Ok(Some(Ok(Message::Close(None)))) => return (messages, Ending::ClosedNoCode),
                Ok(Some(Ok(_))) => {}
                Ok(other) => return (messages, Ending::Dropped(format!("{other:?}"))),
                Err(_) => return (messages, Ending::Open),
            }
        }
    })
}

/// A socket to room `code` says hello as `name` and is closed with 1008
/// within 5 s: the client (what it read is in its events), the hello's
/// id, and the ending.
async fn hello_closed_with_1008(
    server: &TestServer,
    code: &str,
    name: &str,
) -> (Client, i64, Ending) {
    let mut client = server.socket(code).await;
    let hello = client.take_id();
    client
        .send_text(json!({"id": hello, "type": "hello", "name": name}).to_string())
        .await;
    let ending = client.ending(Duration::from_secs(5)).await;
    assert_eq!(ending.code(), Some(1008), "{ending:?}");
    (client, hello, ending)
}

/// How many answers (`ack` or `error` with an id) each id got, among
/// `messages`.
fn answer_counts(messages: &[Value]) -> HashMap<i64, usize> {
    let mut counts = HashMap::new();
    for msg in messages {
        if matches!(msg["type"].as_str(), Some("ack" | "error")) {
            if let Some(id) = msg["id"].as_i64() {
                *counts.entry(id).or_default() += 1;
            }
        }
    }
    counts
}

/// Sends `text` and gives up (returning false) if the socket refuses or
/// the send does not finish within 2 s.
async fn try_send(client: &mut Client, text: String) -> bool {
    matches!(
        tokio::time::timeout(Duration::from_secs(2), client.send_text_checked(text)).await,
        Ok(Ok(()))
    )
}

// ---------------------------------------------------------------------
// Defect 1: a flooding client that stops reading must not hurt the room.

#[tokio::test]
async fn a_flooding_client_that_stops_reading_is_answered_or_closed_with_1008_and_the_room_keeps_everything(
) {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "quoridor", Value::Null).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut t.host, "start").await;
    // Red (the host) and Yellow walk back and forth; every move is legal.
    let line = ["e2", "e8", "e3", "e7", "e2", "e8", "e3", "e7"];
    let mut played = Vec::new();
    let play = |n: usize| line[n % line.len()];

    let mut flooder = server.socket(&t.code).await;
    let pad = "x".repeat(14 * 1024);
    let mut sent = Vec::new();
    let mut hello = None;
    let began = Instant::now();
    // Part 1: unknown types with a 14 KB pad, 20 a second, never reading;
    // after 3 s a hello, and the game goes on meanwhile.
    while began.elapsed() < Duration::from_secs(5) {
        let id = flooder.take_id();
        if hello.is_none() && began.elapsed() > Duration::from_secs(3) {
            let text = json!({"id": id, "type": "hello", "name": "Flood"}).to_string();
            assert!(try_send(&mut flooder, text).await, "hello sent");
            hello = Some(id);
            continue;
        }
        let text = json!({"id": id, "type": "fly", "pad": pad}).to_string();
        assert!(try_send(&mut flooder, text).await, "the server reads");
        sent.push(id);
        if hello.is_some() && sent.len() % 4 == 0 {
            let mv = play(played.len());
            t.play_ply(played.len(), mv).await;
            played.push(mv.to_string());
        }
        tokio::time::sleep(Duration::from_millis(50)).await;
    }
    let hello = hello.expect("hello sent");
    assert!(sent.len() >= 80, "{} sent", sent.len());
    assert!(played.len() >= 3, "the game went on: {played:?}");

    // The flooder reads again: every command it sent is answered exactly
    // once (nothing overflowed at this pace), or it was closed with 1008.
    let deadline = Instant::now() + Duration::from_secs(10);
    let ending = loop {
        let counts = answer_counts(&flooder.events);
        if sent
            .iter()
            .chain([&hello])
            .all(|id| counts.contains_key(id))
        {
            break None;
        }
        let left = deadline.saturating_duration_since(Instant::now());
        match flooder.ending(left.min(Duration::from_millis(200))).await {
            Ending::Open if Instant::now() < deadline => continue,
            Ending::Open => panic!("answers missing on an open socket: {counts:?}"),
            other => break Some(other),
        }
    };
    let counts = answer_counts(&flooder.events);
    assert!(
        counts.values().all(|&n| n == 1),
        "answered twice: {counts:?}"
    );
    let open = ending.is_none();
    match ending {
        None => {
            for msg in &flooder.events {
                if msg["type"] == "error" {
                    assert_eq!(msg["code"], "bad_message", "{msg}");
                }
            }
            let ack = flooder
                .events
                .iter()
                .find(|m| m["id"] == hello)
                .expect("hello answered");
            assert_eq!(ack["type"], "ack", "{ack}");
            assert!(flooder.events.iter().any(|m| m["type"] == "snapshot"));
        }
        Some(ending) => assert_eq!(ending.code(), Some(1008), "{ending:?}"),
    }

    // Part 2: a burst of 600 more, still without reading. The connection's
    // queue fills; the server stops reading the flooder (backpressure)
    // rather than drop an answer. When it reads again, every command is
    // answered exactly once, or (had it stayed away past the write
    // timeout) the socket was closed with 1008: never open with gaps.
    let mut burst = Vec::new();
    if open {
        for _ in 0..600 {
            let id = flooder.take_id();
            if !try_send(&mut flooder, json!({"id": id, "type": "fly"}).to_string()).await {
                break;
            }
            burst.push(id);
        }
        let deadline = Instant::now() + Duration::from_secs(15);
        let ending = loop {
            let counts = answer_counts(&flooder.events);
            if burst.iter().all(|id| counts.contains_key(id)) {
                break None;
            }
            match flooder.ending(Duration::from_millis(200)).await {
                Ending::Open if Instant::now() < deadline => continue,
                Ending::Open => panic!("answers missing on an open socket"),
                other => break Some(other),
            }
        };
        if let Some(ending) = ending {
            assert_eq!(ending.code(), Some(1008), "{ending:?} (not a silent drop)");
        }
        let counts = answer_counts(&flooder.events);
        assert!(
            counts.values().all(|&n| n == 1),
            "answered twice: {counts:?}"
        );
    }

    // The room lost nothing: everyone else is still connected, the game
    // goes on, and a newcomer sees the seats and the moves.
    t.host.ok(json!({"type": "ping"})).await;
    t.spectator.ok(json!({"type": "ping"})).await;
    let mv = play(played.len());
    t.play_ply(played.len(), mv).await;
    played.push(mv.to_string());
    let (_late, _, snap) = server.join(&t.code, None, Some("Late")).await;
    let m = &snap["room"]["tables"][0]["match"];
    assert_eq!(m["moves"], json!(played));
    assert_eq!(m["outcome"], Value::Null);
    let seats: Vec<Value> = snap["room"]["members"]
        .as_array()
        .unwrap()
        .iter()
        .filter(|m| m["seat"].is_u64())
        .map(|m| json!([m["id"], m["seat"], m["online"]]))
        .collect();
    assert_eq!(
        seats,
        vec![
            json!([t.host_member, 0, true]),
            json!([t.guest_member, 1, true])
        ]
    );
    assert!(began.elapsed() < Duration::from_secs(20));
}

// ---------------------------------------------------------------------
// Defect 2: guest members are bounded.

/// Members stored for room `code` (read with a second connection to the
/// running server's database).
async fn stored_members(server: &TestServer, code: &str) -> Vec<server::model::records::MemberRow> {
    // By its file's URL: the folder itself is the running server's.
    let url = format!("sqlite://{}", server.dir.path().join("site.db").display());
    let store = server::store::Store::open(Some(&url), server.dir.path())
        .await
        .expect("store");
    let saved = store.load_room(code).await.expect("load").expect("room");
    store.close().await;
    saved.members
}

#[tokio::test]
async fn a_room_keeps_at_most_max_members_and_never_evicts_the_seated_host() {
    let server = TestServer::start_with(|c| c.max_members = 5).await;
    let (status, room) = server.create_room(json!({"game": "crossyray"})).await;
    assert_eq!(status, 201);
    let code = room["code"].as_str().unwrap().to_string();
    let host_token = room["token"].as_str().unwrap().to_string();
    let (mut host, _, snap) = server.join(&code, Some(&host_token), Some("Minh")).await;
    let host_member = snap["you"]["member"].clone();
    host.ok(json!({"type": "sit", "seat": 0})).await;

    // With the host watching: 20 guests come and go, one at a time.
    let mut guest_members = Vec::new();
    for i in 0..20 {
        let (guest, _, snap) = server.join(&code, None, Some(&format!("G{i}"))).await;
        let member = snap["you"]["member"].clone();
        assert_ne!(member, host_member);
        guest.close().await;
        // Wait until the host sees them gone.
        loop {
            let members = host.next_of("members").await;
            if !members["members"]
                .as_array()
                .unwrap()
                .iter()
                .any(|m| m["id"] == member)
            {
                break;
            }
        }
        guest_members.push(member);
    }
    let rows = stored_members(&server, &code).await;
    assert!(rows.len() <= 5, "{} members stored", rows.len());

    // The host goes offline (still seated): 10 more guests come and go,
    // and the host is never the one let go.
    host.close().await;
    tokio::time::sleep(Duration::from_millis(200)).await;
    for i in 20..30 {
        let (guest, _, snap) = server.join(&code, None, Some(&format!("G{i}"))).await;
        assert_ne!(snap["you"]["member"], host_member);
        guest.close().await;
        tokio::time::sleep(Duration::from_millis(150)).await;
    }
    let rows = stored_members(&server, &code).await;
    assert!(rows.len() <= 5, "{} members stored", rows.len());
    assert!(
        rows.iter().any(|r| r.host && r.seat == Some(0)),
        "the seated host is kept"
    );
    let (mut host, _, snap) = server.join(&code, Some(&host_token), None).await;
    assert_eq!(snap["you"]["member"], host_member);
    assert_eq!(snap["you"]["host"], true);
    assert_eq!(snap["you"]["seat"], 0);
    assert_eq!(snap["you"]["name"], "Minh");

    // Five online (the host and four guests): nobody can go, so a sixth
    // newcomer is refused with `room_full` and closed with 1008.
    let mut online = Vec::new();
    for i in 0..4 {
        let (guest, token, _) = server.join(&code, None, Some(&format!("On{i}"))).await;
        online.push((guest, token));
    }
    let rows = stored_members(&server, &code).await;
    assert_eq!(rows.len(), 5);
    let (sixth, hello, ending) = hello_closed_with_1008(&server, &code, "Six").await;
    assert!(
        !sixth.events.iter().any(|m| m["type"] == "snapshot"),
        "{:?}",
        sixth.events
    );
    // The answer comes before the close, and says why.
    let answer = sixth
        .events
        .iter()
        .find(|m| m["id"] == hello)
        .expect("the hello is answered before the close");
    assert_eq!(answer["code"], "room_full", "{answer}");
    let Ending::Closed(_, reason) = &ending else {
        unreachable!()
    };
    assert!(reason.contains("full"), "{reason}");

    // A known member's second tab is not a newcomer.
    let (_tab, _, snap) = server.join(&code, Some(&online[0].1), None).await;
    assert_eq!(snap["you"]["name"], "On0");
    host.ok(json!({"type": "ping"})).await;
    let rows = stored_members(&server, &code).await;
    assert_eq!(rows.len(), 5);
}

#[tokio::test]
async fn a_refused_hello_is_answered_with_room_full_before_the_close() {
    let server = TestServer::start_with(|c| c.max_members = 2).await;
    let (_, room) = server.create_room(json!({"game": "crossyray"})).await;
    let code = room["code"].as_str().unwrap().to_string();
    let token = room["token"].as_str().unwrap().to_string();
    let (_host, _, _) = server.join(&code, Some(&token), Some("Minh")).await;
    let (_guest, _, _) = server.join(&code, None, Some("Lan")).await;
    let (third, hello, ending) = hello_closed_with_1008(&server, &code, "Khoa").await;
    let answer = third.events.iter().find(|m| m["id"] == hello);
    let answer = answer.unwrap_or_else(|| panic!("no answer to the refused hello: {ending:?}"));
    assert_eq!(answer["type"], "error", "{answer}");
    assert_eq!(answer["code"], "room_full", "{answer}");
}

// ---------------------------------------------------------------------
// Defect 6: an answer is never silently dropped.

/// Sends `n` pings as fast as it can without reading (stopping at the
/// first send the server refuses), then reads everything. Returns the ids
/// sent, the answers per id, and how the socket ended.
async fn pings_without_reading(
    client: &mut Client,
    n: usize,
) -> (Vec<i64>, HashMap<i64, usize>, Ending) {
    let mut sent = Vec::new();
    for _ in 0..n {
        let id = client.take_id();
        if !try_send(client, json!({"id": id, "type": "ping"}).to_string()).await {
            break;
        }
        sent.push(id);
    }
    let ending = client.ending(Duration::from_secs(3)).await;
    (sent, answer_counts(&client.events), ending)
}

/// Every answer is for a ping that was sent, each at most once; if any is
/// missing, the socket was closed with a frame carrying 1008.
fn no_gaps_or_a_close_code(sent: &[i64], counts: &HashMap<i64, usize>, ending: &Ending) {
    for (id, n) in counts {
        assert!(sent.contains(id), "an answer to {id}, never sent");
        assert_eq!(*n, 1, "ping {id} answered {n} times");
    }
    let missing = sent.iter().filter(|id| !counts.contains_key(id)).count();
    if missing > 0 {
        assert_eq!(
            ending.code(),
            Some(1008),
            "{missing} of {} pings unanswered, and the socket ended {ending:?}",
            sent.len()
        );
    } else {
        assert!(
            matches!(ending, Ending::Open) || ending.code().is_some(),
            "{ending:?}"
        );
    }
}

#[tokio::test]
async fn three_thousand_pings_unread_are_answered_once_each_or_closed_with_1008() {
    let server = TestServer::start().await;
    let code = &server.new_room(json!({})).await.0;
    let (mut client, _, _) = server.join(code, None, None).await;
    let (sent, counts, ending) = pings_without_reading(&mut client, 3000).await;
    assert!(!sent.is_empty());
    no_gaps_or_a_close_code(&sent, &counts, &ending);
}

#[tokio::test]
async fn a_client_with_a_full_window_also_gets_the_close_frame() {
    let server = TestServer::start().await;
    let code = &server.new_room(json!({})).await.0;
    // A small receive buffer: the server's answers back up at once, as
    // with a slow phone.
    let mut client = server.socket_with_small_buffer(code, 4096).await;
    let ack = client.command(json!({"type": "hello"})).await;
    assert_eq!(ack["type"], "ack");
    let (sent, counts, ending) = pings_without_reading(&mut client, 3000).await;
    no_gaps_or_a_close_code(&sent, &counts, &ending);
}

#[tokio::test]
async fn the_lobby_socket_answers_unread_pings_or_closes_with_1008_and_closes_bad_frames_as_a_room_does(
) {
    let server = TestServer::start().await;
    // `/ws/lobby` over a small receive buffer: its answers back up.
    let mut client = server.socket_with_small_buffer("lobby", 4096).await;
    let ack = client
        .command(json!({"type": "hello", "name": "Lan"}))
        .await;
    assert_eq!(ack["type"], "ack", "{ack}");
    let (sent, counts, ending) = pings_without_reading(&mut client, 3000).await;
    assert!(!sent.is_empty());
    no_gaps_or_a_close_code(&sent, &counts, &ending);
    // A text frame that is not UTF-8: 1007; a frame over 64 KiB: 1009.
    let mut bad = server.socket("lobby").await;
    let frame = Frame::message(vec![0xff, 0xfe], OpCode::Data(Data::Text), true);
    bad.ws.send(Message::Frame(frame)).await.expect("sent");
    let ending = bad.ending(Duration::from_secs(5)).await;
    assert_eq!(ending.code(), Some(1007), "{ending:?}");
    let mut big = server.socket("lobby").await;
    big.send_text("x".repeat(100 * 1024)).await;
    let ending = big.ending(Duration::from_secs(5)).await;
    assert_eq!(ending.code(), Some(1009), "{ending:?}");
}

#[tokio::test]
async fn a_reading_client_that_bursts_gets_rate_limited_errors_not_a_close() {
    let server = TestServer::start().await;
    let code = &server.new_room(json!({})).await.0;
    let (client, _, _) = server.join(code, None, None).await;
    let (mut sink, stream) = client.ws.split();
    // Reads all the time.
    let reader = read_until_quiet(stream, Duration::from_secs(3));
    for id in 1000..1600 {
        let text = json!({"id": id, "type": "ping"}).to_string();
        if sink.send(Message::Text(text.into())).await.is_err() {
            break;
        }
    }
    let (messages, ending) = reader.await.unwrap();
    let counts = answer_counts(&messages);
    assert_eq!(ending, Ending::Open, "after {} answers", counts.len());
    assert_eq!(counts.len(), 600);
    assert!(counts.values().all(|&n| n == 1));
}

#[tokio::test]
async fn steady_pings_among_fast_chat_are_each_answered_exactly_once() {
    let server = TestServer::start().await;
    let (code, _) = server.new_room(json!({})).await;
    let run_for = Duration::from_secs(4);
    let until = Instant::now() + run_for;

    // Three chatters, as fast as they can (past the rate limit), each
    // reading its answers.
    let mut chatters = Vec::new();
    for i in 0..3 {
        let (mut c, _, _) = server.join(&code, None, Some(&format!("Chat{i}"))).await;
        chatters.push(tokio::spawn(async move {
            let text = format!("{i}: {}", "bla ".repeat(70));
            let (mut acks, mut limited) = (0, 0);
            while Instant::now() < until {
                let answer = c.command(json!({"type": "chat", "text": text})).await;
                match answer["type"].as_str() {
                    Some("ack") => acks += 1,
                    _ => {
                        assert_eq!(answer["code"], "rate_limited", "{answer}");
                        limited += 1;
                    }
                }
                c.events.clear();
                tokio::time::sleep(Duration::from_millis(20)).await;
            }
            (acks, limited)
        }));
    }

    // The pinger: a ping every 70 ms, reading all the time.
    let (pinger, _, _) = server.join(&code, None, Some("Ping")).await;
    let (mut sink, stream) = pinger.ws.split();
    let reader = read_until_quiet(stream, Duration::from_secs(2));
    let mut sent = Vec::new();
    for id in 1_i64.. {
        if Instant::now() >= until {
            break;
        }
        let text = json!({"id": id, "type": "ping"}).to_string();
        if sink.send(Message::Text(text.into())).await.is_err() {
            break;
        }
        sent.push(id);
        tokio::time::sleep(Duration::from_millis(70)).await;
    }
    let mut chat_answers = (0, 0);
    for c in chatters {
        let (acks, limited) = c.await.unwrap();
        chat_answers.0 += acks;
        chat_answers.1 += limited;
    }
    let (messages, ending) = reader.await.unwrap();
    // Answered either way (past the chat budget, `rate_limited`).
    assert!(
        chat_answers.0 > 20 && chat_answers.0 + chat_answers.1 > 100,
        "the chat ran: {chat_answers:?}"
    );
    let counts = answer_counts(&messages);
    no_gaps_or_a_close_code(&sent, &counts, &ending);
    // At a steady 14 a second the pinger is within its rate and reads
    // everything: it should have every answer, all acks.
    assert_eq!(counts.len(), sent.len(), "{ending:?}");
    for msg in &messages {
        if msg["id"].is_i64() {
            assert_eq!(msg["type"], "ack", "{msg}");
        }
    }
    assert!(
        // One address's chat budget: 30 at once, then 6 a second.
        messages.iter().filter(|m| m["type"] == "chat").count() > 30,
        "the pinger saw the chat"
    );
}

// ---------------------------------------------------------------------
// Defect 8: frames, names and outcomes.

#[tokio::test]
async fn a_frame_over_64_kib_closes_with_1009() {
    let server = TestServer::start().await;
    let code = &server.new_room(json!({})).await.0;
    for size in [100 * 1024, 200 * 1024] {
        let (mut client, _, _) = server.join(code, None, None).await;
        client.send_text("x".repeat(size)).await;
        let ending = client.ending(Duration::from_secs(5)).await;
        assert_eq!(ending.code(), Some(1009), "{size} bytes: {ending:?}");
    }
    // Between 16 and 64 KiB: a `too_large` error, and the socket stays.
    let (mut client, _, _) = server.join(code, None, None).await;
    client.send_text("y".repeat(20 * 1024)).await;
    let answer = client.answer(None).await;
    assert_eq!(answer["code"], "too_large", "{answer}");
    client.ok(json!({"type": "ping"})).await;
}

/// A frame whose header announces more than 64 KiB closes the socket
/// with 1009 at once, on its header: the server waits for no payload (a
/// room's socket and the lobby's alike). 64 KiB itself is read, and is
/// `too_large` like anything over 16 KiB.
#[tokio::test]
async fn a_frame_announced_over_64_kib_closes_at_once_without_its_payload() {
    use tokio::io::AsyncWriteExt;
    let server = TestServer::start().await;
    let code = &server.new_room(json!({})).await.0;
    for (path, size) in [
        (code.as_str(), 64 * 1024 + 1),
        (code.as_str(), 100 * 1024),
        (code.as_str(), 127 * 1024),
        ("lobby", 100 * 1024),
    ] {
        let mut client = server.socket(path).await;
        // A masked text frame's header with a 64-bit length, then only
        // a few bytes of its payload.
        let mut header = vec![0x81, 0x80 | 127];
        header.extend_from_slice(&(size as u64).to_be_bytes());
        header.extend_from_slice(&[1, 2, 3, 4, b'x', b'y']);
        let MaybeTlsStream::Plain(tcp) = client.ws.get_mut() else {
            panic!("plain TCP");
        };
        tcp.write_all(&header).await.expect("header sent");
        tcp.flush().await.expect("flushed");
        let ending = client.ending(Duration::from_secs(3)).await;
        assert_eq!(ending.code(), Some(1009), "{path} {size}: {ending:?}");
    }
    // 64 KiB exactly is read whole: `too_large`, and the socket stays.
    let (mut client, _, _) = server.join(code, None, None).await;
    client.send_text("z".repeat(64 * 1024)).await;
    let answer = client.answer(None).await;
    assert_eq!(answer["code"], "too_large", "{answer}");
    client.ok(json!({"type": "ping"})).await;
}

#[tokio::test]
async fn a_text_frame_that_is_not_utf8_closes_with_1007() {
    let server = TestServer::start().await;
    let code = &server.new_room(json!({})).await.0;
    let (mut client, _, _) = server.join(code, None, None).await;
    // A raw text frame (opcode 0x1) whose payload is not UTF-8; the client
    // library masks it like any other frame.
    let frame = Frame::message(vec![0xff, 0xfe], OpCode::Data(Data::Text), true);
    client.ws.send(Message::Frame(frame)).await.expect("sent");
    let ending = client.ending(Duration::from_secs(5)).await;
    assert_eq!(ending.code(), Some(1007), "{ending:?}");
}

#[tokio::test]
async fn a_name_with_a_right_to_left_override_is_refused() {
    let server = TestServer::start().await;
    let code = &server.new_room(json!({})).await.0;
    let (mut client, _, _) = server.join(code, None, None).await;
    client
        .refused(
            json!({"type": "name", "name": "Minh\u{202E}gnp.exe"}),
            "bad_name",
        )
        .await;
    client
        .refused(json!({"type": "name", "name": "\u{202E}"}), "bad_name")
        .await;
    // In `hello`, a bad name is not taken either.
    let (_other, _, snap) = server.join(code, None, Some("Lan\u{202E}nahK")).await;
    assert_eq!(snap["you"]["name"], Value::Null);
    client.ok(json!({"type": "name", "name": "Minh"})).await;
}

/// A person cannot take the computer's name (the pages would show them
/// as the computer), in English or Vietnamese, numbered or not, nor a
/// name with a lone "+" (a team's names are joined with " + " in the
/// stored record): `name` and a lobby `hello` are refused with
/// `bad_name`, a room `hello` joins without the name.
#[tokio::test]
async fn a_person_cannot_take_the_computer_s_name_nor_a_lone_plus() {
    let server = TestServer::start().await;
    let code = &server.new_room(json!({})).await.0;
    let (mut client, _, _) = server.join(code, None, None).await;
    for taken in [
        "Computer (Master)",
        "Computer (Beginner) 2",
        "computer (amateur)",
        "Máy (Bậc thầy)",
        "Máy (Chuyên nghiệp) 3",
        "A + B",
        "Lan +",
    ] {
        let message = client
            .refused(json!({"type": "name", "name": taken}), "bad_name")
            .await;
        assert!(
            message.contains("computer's") || message.contains('+'),
            "{taken}: {message}"
        );
        let (_other, _, snap) = server.join(code, None, Some(taken)).await;
        assert_eq!(snap["you"]["name"], Value::Null, "{taken}");
        let url = format!("{}/ws/lobby", server.base.replace("http://", "ws://"));
        let mut lobby = common::browser::socket(&url, None).await;
        lobby
            .refused(
                json!({"type": "hello", "token": null, "name": taken}),
                "bad_name",
            )
            .await;
    }
    client
        .ok(json!({"type": "name", "name": "Computer fan"}))
        .await;
    client.ok(json!({"type": "name", "name": "C++"})).await;
}

/// Names that look blank or hide characters are `bad_name`: Hangul
/// fillers, the braille blank, the combining grapheme joiner, Khmer
/// inherent vowels, combining marks alone (every Default_Ignorable_Code_Point
/// but a variation selector after a visible character, and a name must show
/// something). A room's `name` and a lobby `hello` are refused, a room
/// `hello` joins without the name; the members list never shows them. Names
/// that show themselves stay, decomposed Vietnamese and "❤️" among them.
#[tokio::test]
async fn blank_looking_and_invisible_names_are_refused() {
    let server = TestServer::start().await;
    let code = &server.new_room(json!({})).await.0;
    let (mut client, _, snap) = server.join(code, None, Some("Minh")).await;
    let me = snap["you"]["member"].clone();
    let lobby_url = format!("{}/ws/lobby", server.base.replace("http://", "ws://"));
    for blank in [
        "\u{3164}",
        "\u{FFA0}",
        "\u{2800}",
        "a\u{034F}b",
        "\u{17B4}",
        "\u{0301}\u{0301}",
        "\u{115F}\u{1160}",
        "Lan\u{3164}",
        "\u{FE0F}",
        "La\u{180E}n",
    ] {
        let message = client
            .refused(json!({"type": "name", "name": blank}), "bad_name")
            .await;
        assert!(message.contains("visible"), "{blank:?}: {message}");
        let (_other, _, snap) = server.join(code, None, Some(blank)).await;
        assert_eq!(snap["you"]["name"], Value::Null, "{blank:?}");
        let mut lobby = common::browser::socket(&lobby_url, None).await;
        lobby
            .refused(
                json!({"type": "hello", "token": null, "name": blank}),
                "bad_name",
            )
            .await;
        // The hello was not taken: the socket cannot seek.
        lobby
            .refused(
                json!({"type": "seek", "game": "jungle", "preset": "none"}),
                "hello_first",
            )
            .await;
    }
    // Nothing refused reached the members list: the name is still Minh.
    client.ok(json!({"type": "ping"})).await;
    for members in client.events.drain(..).filter(|e| e["type"] == "members") {
        for m in members["members"].as_array().expect("members") {
            if m["id"] == me {
                assert_eq!(m["name"], "Minh", "{members}");
            }
        }
    }
    for fine in ["Nguye\u{0302}\u{0303}n", "Lan ❤\u{FE0F}", "⠇⠁⠝\u{2800}⠍⠊⠝⠓"] {
        client.ok(json!({"type": "name", "name": fine})).await;
        let members = client.next_of("members").await;
        let mine = members["members"]
            .as_array()
            .expect("members")
            .iter()
            .find(|m| m["id"] == me)
            .unwrap_or_else(|| panic!("{me} in {members}"));
        assert_eq!(mine["name"], fine, "{members}");
        let mut lobby = common::browser::socket(&lobby_url, None).await;
        lobby
            .ok(json!({"type": "hello", "token": null, "name": fine}))
            .await;
        lobby
            .ok(json!({"type": "seek", "game": "jungle", "preset": "none"}))
            .await;
        lobby.ok(json!({"type": "cancel"})).await;
    }
}

#[tokio::test]
async fn a_two_player_quoridor_resignation_is_a_win_by_default() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "quoridor", Value::Null).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut t.host, "start").await;
    for (host_moves, mv) in [(true, "e2"), (false, "e8"), (true, "e3"), (false, "e7")] {
        let mover = if host_moves {
            &mut t.host
        } else {
            &mut t.guest
        };
        mover.ok(json!({"type": "move", "move": mv})).await;
    }
    t.host.ok(json!({"type": "resign"})).await;
    let end = next_match_of(&mut t.spectator, "end").await;
    // What the server sends today: the other pawn is the last one left, so
    // the game is won by `default` (not `resign`).
    assert_eq!(
        end["match"]["outcome"],
        json!({"kind": "win", "winner": 1, "reason": "default"})
    );
    assert_eq!(end["match"]["moves"], json!(["e2", "e8", "e3", "e7"]));
}

// ---------------------------------------------------------------------
// A `type` that is not a string is no command (serde would read a number
// as the variant's index: `"type":6` resigned the game).

/// How many commands `Command` has: `type` 0..COMMANDS were variant indexes.
const COMMANDS: i64 = 24;

#[tokio::test]
async fn a_type_that_is_not_a_string_is_bad_message_and_changes_nothing() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "quoridor", Value::Null).await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    t.guest.next_match_event(MatchKind::Start).await;
    t.host.next_match_event(MatchKind::Start).await;
    let started = t.spectator.next_match_event(MatchKind::Start).await.v;
    let guest = t.guest_member.clone();
    // Every field any command reads, so that each variant index would
    // have found what it needs.
    let fields = json!({
        "name": "Hacked", "seat": 0, "order": "seats", "move": "e2",
        "game": "crossyray", "options": {}, "text": "hi", "paused": true,
        "enabled": true, "action": "offer", "member": guest, "join": true,
        "muted": true, "to": guest, "kind": "offer", "sdp": "v=0\r\n",
        "rated": true, "level": "easy",
    });
    let mut types: Vec<Value> = (0..COMMANDS).map(Value::from).collect();
    types.extend([
        json!(6.0),
        json!(-1),
        json!(true),
        json!(false),
        Value::Null,
        json!({"resign": null}),
        json!(["resign"]),
    ]);
    for kind in types {
        let mut command = fields.clone();
        command["type"] = kind.clone();
        t.host.refused_with(command, Code::BadMessage).await;
    }
    // A signal's `kind` is a tag too.
    for kind in [json!(0), json!(1), json!(2), Value::Null] {
        let command =
            json!({"type": "signal", "to": t.host_member, "kind": kind, "sdp": "v=0\r\n"});
        t.guest.refused_with(command, Code::BadMessage).await;
    }
    // Nothing happened: the next event the others see is the host's move.
    t.host.ok(json!({"type": "move", "move": "e2"})).await;
    let moved = t.spectator.next_match_event(MatchKind::Move).await;
    assert_eq!(moved.played.as_deref(), Some("e2"));
    for events in [&t.spectator.events, &t.guest.events] {
        let others: Vec<&Value> = events
            .iter()
            .filter(|e| e["v"].as_u64() > Some(started) && e["type"] != "match")
            .collect();
        assert!(others.is_empty(), "unexpected events: {others:?}");
    }
    let (_, _, snap) = server.join(&t.code, None, Some("Late")).await;
    let room = read::<WireSnapshot>(snap).room;
    let current = room.tables[0].current.as_ref().expect("the game");
    assert_eq!(current.moves, ["e2"]);
    assert_eq!(current.outcome, None);
    assert_eq!(current.draw_offer, None);
    assert_eq!(room.game, GameKind::Quoridor);
    assert!(!room.rated);
    assert!(room.chat.is_empty());
    assert!(room.removed.is_empty());
    assert!(room.voice.is_empty());
    let named: Vec<(Option<&str>, Option<usize>)> = room
        .members
        .iter()
        .map(|m| (m.name.as_deref(), m.seat))
        .collect();
    assert!(named.contains(&(Some("Minh"), Some(0))), "{named:?}");
    assert!(named.contains(&(Some("Lan"), Some(1))), "{named:?}");
}

// ---------------------------------------------------------------------
// A room cannot be shut to newcomers: one address adds at most
// `--members-per-addr` members, and removed members do not fill the cap.

/// Opens a socket to room `code` from the loopback address `from` (any
/// 127.x.y.z reaches the server on 127.0.0.1): another client address.
async fn socket_from(server: &TestServer, code: &str, from: [u8; 4]) -> Client {
    server
        .socket_over(code, |socket| {
            socket
                .bind(std::net::SocketAddr::from((from, 0)))
                .expect("bind the client address");
        })
        .await
}

/// Says hello on `client` and returns the answer (an `ack`, or the
/// refusal that precedes the close).
async fn hello_answer(client: &mut Client, token: Option<&str>, name: Option<&str>) -> Value {
    client
        .command(json!({"type": "hello", "token": token, "name": name}))
        .await
}

const HOME: [u8; 4] = [127, 0, 0, 1];
const OTHER: [u8; 4] = [127, 0, 0, 2];

#[tokio::test]
async fn one_address_adds_at_most_members_per_addr_and_other_addresses_still_join() {
    let server = TestServer::start_with(|c| c.members_per_addr = 3).await;
    let (_, room) = server.create_room(json!({"game": "crossyray"})).await;
    let code = room["code"].as_str().unwrap().to_string();
    let token = room["token"].as_str().unwrap().to_string();
    let mut host = socket_from(&server, &code, HOME).await;
    assert_eq!(
        hello_answer(&mut host, Some(&token), Some("Minh")).await["type"],
        "ack"
    );
    // Two more named members from the same address: three in all.
    let mut ours = Vec::new();
    for name in ["A", "B"] {
        let mut c = socket_from(&server, &code, HOME).await;
        assert_eq!(hello_answer(&mut c, None, Some(name)).await["type"], "ack");
        ours.push(c);
    }
    // A fourth is refused, and closed with 1008.
    let mut fourth = socket_from(&server, &code, HOME).await;
    let answer = hello_answer(&mut fourth, None, Some("C")).await;
    assert_eq!(answer["code"], "room_full", "{answer}");
    assert!(
        answer["message"].as_str().unwrap().contains("address"),
        "{answer}"
    );
    assert_eq!(
        fourth.ending(Duration::from_secs(5)).await.code(),
        Some(1008)
    );
    // A watcher from there still watches, but cannot take a name.
    let mut watcher = socket_from(&server, &code, HOME).await;
    let ack = hello_answer(&mut watcher, None, None).await;
    assert_eq!(ack["type"], "ack", "{ack}");
    watcher.next_of("snapshot").await;
    watcher
        .refused(json!({"type": "name", "name": "D"}), "room_full")
        .await;
    // Another address joins as before.
    let mut other = socket_from(&server, &code, OTHER).await;
    assert_eq!(
        hello_answer(&mut other, None, Some("Lan")).await["type"],
        "ack"
    );
    // The address's own offline guest makes room for its newcomer: the
    // cap counts what the address holds, it is not a quota for good.
    ours.pop().unwrap().close().await;
    let mut again = socket_from(&server, &code, HOME).await;
    let mut answer = hello_answer(&mut again, None, Some("E")).await;
    for _ in 0..50 {
        if answer["type"] == "ack" {
            break;
        }
        // B's close may not have reached the room yet.
        tokio::time::sleep(Duration::from_millis(50)).await;
        again = socket_from(&server, &code, HOME).await;
        answer = hello_answer(&mut again, None, Some("E")).await;
    }
    assert_eq!(answer["type"], "ack", "{answer}");
    let rows = stored_members(&server, &code).await;
    let names: Vec<Option<String>> = rows.iter().map(|r| r.name.clone()).collect();
    assert_eq!(rows.len(), 4, "{names:?}");
}

#[tokio::test]
async fn removed_members_do_not_fill_the_room_and_the_oldest_removed_is_forgotten() {
    let server = TestServer::start_with(|c| {
        c.max_members = 3;
        c.members_per_addr = 0;
    })
    .await;
    let (_, room) = server.create_room(json!({"game": "crossyray"})).await;
    let code = room["code"].as_str().unwrap().to_string();
    let token = room["token"].as_str().unwrap().to_string();
    let (mut host, _, _) = server.join(&code, Some(&token), Some("Minh")).await;
    // Four rounds: two named guests fill the room, the host removes them.
    let mut removed = Vec::new();
    for round in 0..2 {
        for i in 0..2 {
            let name = format!("R{round}{i}");
            let (guest, guest_token, snap) = server.join(&code, None, Some(&name)).await;
            removed.push((guest, guest_token, snap["you"]["member"].clone()));
        }
        // The room is full: a third guest is refused.
        let mut full = server.socket(&code).await;
        let answer = hello_answer(&mut full, None, Some("Extra")).await;
        assert_eq!(answer["code"], "room_full", "round {round}: {answer}");
        for (_, _, member) in &removed[round * 2..] {
            host.ok(json!({"type": "remove", "member": member})).await;
        }
    }
    // The room keeps at most 3 removed members: the first is forgotten
    // and may come back; the others stay out.
    let mut first = server.socket(&code).await;
    let answer = hello_answer(&mut first, Some(&removed[0].1), Some("Back")).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    for (_, t, _) in &removed[1..] {
        let mut out = server.socket(&code).await;
        let answer = hello_answer(&mut out, Some(t), None).await;
        assert_eq!(answer["code"], "removed", "{answer}");
    }
    let (_, _, snap) = server.join(&code, None, None).await;
    assert_eq!(
        snap["room"]["removed"].as_array().unwrap().len(),
        3,
        "{}",
        snap["room"]["removed"]
    );
}

/// A command's `id` is a JSON integer in the signed 64-bit range, as
/// docs/PROTOCOL.md gives it: both ends are echoed back exactly, and an
/// integer past either end (u64::MAX among them) is `bad_message` with
/// `"id":null`, the message naming the range; the socket stays usable.
#[tokio::test]
async fn a_command_id_is_any_signed_64_bit_integer_and_nothing_past_it() {
    let server = TestServer::start().await;
    let t = table_of(&server, "crossyray", Value::Null).await;
    let mut c = t.spectator;
    for id in [i64::MAX, i64::MIN, 0, -1] {
        c.send_text(format!(r#"{{"id":{id},"type":"ping"}}"#)).await;
        let answer = c.answer(Some(id)).await;
        assert_eq!(answer["type"], "ack", "{id}: {answer}");
    }
    for id in [
        "18446744073709551615",
        "9223372036854775808",
        "-9223372036854775809",
        "1.0",
        "1e3",
    ] {
        c.send_text(format!(r#"{{"id":{id},"type":"ping"}}"#)).await;
        let answer = c.answer(None).await;
        assert_eq!(answer["type"], "error", "{id}: {answer}");
        assert_eq!(answer["code"], "bad_message", "{id}: {answer}");
        assert_eq!(answer["id"], Value::Null, "{id}: {answer}");
        assert_eq!(
            answer["message"],
            "Every command needs an integer \"id\" from -9223372036854775808 to 9223372036854775807.",
            "{id}"
        );
    }
    c.ok(json!({"type": "ping"})).await;
}
