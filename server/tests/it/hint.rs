//! Hints through the real server: against the computer, in every game,
//! the answer is a move the rules and the server take, sent to the asker
//! only; between people, or while a hint is searched, none.

use std::time::Duration;

use crate::common;

use common::browser::{against_the_computer_from, Browser};
use common::{local_game, next_match_of, table_of, TestServer};
use serde_json::{json, Value};

#[tokio::test]
async fn against_the_computer_every_game_hints_a_legal_move_that_the_server_plays() {
    let server = TestServer::start_with(|c| c.bot_ms = 300).await;
    for game in ["crossyray", "quoridor", "jungle"] {
        let (code, mut host) = server
            .against_the_computer(json!({"game": game}), "Minh")
            .await;
        let (mut watcher, _, _) = server.join(&code, None, Some("Vy")).await;
        host.ok(json!({"type": "start", "order": "seats"})).await;
        let start = next_match_of(&mut host, "start").await;
        assert_eq!(start["match"]["moves"], json!([]), "{game}: Minh opens");
        host.ok(json!({"type": "hint"})).await;
        let hint = host.next_of("hint").await;
        assert_eq!(hint["ply"], 0, "{game}: {hint}");
        let hinted = hint["move"].as_str().expect("a move").to_string();
        let legal = start["match"]["legal"].as_array().expect("legal list");
        assert!(legal.contains(&json!(hinted)), "{game}: {hinted} is legal");
        let mut local = local_game(game, &Value::Null);
        assert!(
            local.play_text(&hinted).is_ok(),
            "{game}: the rules take {hinted}"
        );
        // Only the asker heard it.
        watcher.silent_for("hint", Duration::from_millis(300)).await;
        host.ok(json!({"type": "move", "move": hinted})).await;
        let played = next_match_of(&mut watcher, "move").await;
        assert_eq!(played["move"], json!(hinted), "{game}");
    }
}

#[tokio::test]
async fn a_second_hint_waits_for_the_first_and_then_for_two_seconds() {
    let server = TestServer::start_with(|c| c.bot_ms = 2_000).await;
    let (_, mut host) = server
        .against_the_computer(json!({"game": "quoridor"}), "Minh")
        .await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut host, "start").await;
    host.ok(json!({"type": "hint"})).await;
    // The search takes a second: asked again meanwhile, refused.
    host.refused(json!({"type": "hint"}), "hint_busy").await;
    let hint = host.next_of("hint").await;
    assert_eq!(hint["ply"], 0, "{hint}");
    host.refused(json!({"type": "hint"}), "rate_limited").await;
}

#[tokio::test]
async fn no_hint_between_people_nor_for_a_spectator() {
    let server = TestServer::start().await;
    let mut t = table_of(&server, "jungle", Value::Null).await;
    t.host.refused(json!({"type": "hint"}), "no_hint").await;
    t.host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut t.spectator, "start").await;
    for client in [&mut t.host, &mut t.guest, &mut t.spectator] {
        client.refused(json!({"type": "hint"}), "no_hint").await;
    }
}

#[tokio::test]
async fn hints_are_bounded_per_address_over_all_its_rooms() {
    let server = TestServer::start_with(|c| c.bot_ms = 100).await;
    let (_, mut first) = server
        .against_the_computer(json!({"game": "crossyray"}), "Minh")
        .await;
    first.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut first, "start").await;
    // Ten asks at once spend the address's allowance, whatever the room
    // answers them.
    for _ in 0..server::limits::HINT_BURST {
        first.command(json!({"type": "hint"})).await;
    }
    let (_, mut second) = server
        .against_the_computer(json!({"game": "jungle"}), "Lan")
        .await;
    second.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut second, "start").await;
    let message = second
        .refused(json!({"type": "hint"}), "rate_limited")
        .await;
    assert!(message.contains("your address"), "{message}");
}

/// [`against_the_computer_from`], its game started.
async fn started_from(
    server: &TestServer,
    browser: &mut Browser,
    game: &str,
    from: &str,
) -> common::Client {
    let mut host = against_the_computer_from(server, browser, game, from).await;
    host.ok(json!({"type": "start", "order": "seats"})).await;
    next_match_of(&mut host, "start").await;
    host
}

#[tokio::test]
async fn hints_are_bounded_per_account_over_all_its_addresses() {
    let server = TestServer::start_with(|c| c.bot_ms = 100).await;
    let mut minh = Browser::new(&server);
    minh.register("minh", "password1").await;
    let mut first = started_from(&server, &mut minh, "crossyray", "127.0.0.2").await;
    for _ in 0..server::limits::HINT_BURST {
        first.command(json!({"type": "hint"})).await;
    }
    // The account asks from another address: its allowance is spent.
    let mut second = started_from(&server, &mut minh, "jungle", "127.0.0.3").await;
    let message = second
        .refused(json!({"type": "hint"}), "rate_limited")
        .await;
    assert!(message.contains("account"), "{message}");
    // A guest from that address still has the address's own.
    let mut guest = Browser::new(&server);
    let mut vy = started_from(&server, &mut guest, "jungle", "127.0.0.3").await;
    vy.ok(json!({"type": "hint"})).await;
    let hint = vy.next_of("hint").await;
    assert!(hint["move"].is_string(), "{hint}");
}
