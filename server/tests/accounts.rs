//! Accounts over the real HTTP API: register, log in and out, "me", and
//! a guest who registers keeping their seat in a room.

mod common;

use common::TestServer;
use serde_json::{json, Value};

async fn post(server: &TestServer, path: &str, body: Value) -> (u16, Value) {
    server.post(path, body).await
}

/// `GET /api/me` with a bearer token.
async fn me(server: &TestServer, token: &str) -> (u16, Value) {
    let resp = reqwest::Client::new()
        .get(format!("{}/api/me", server.base))
        .header("Authorization", format!("Bearer {token}"))
        .send()
        .await
        .expect("request");
    let status = resp.status().as_u16();
    (status, resp.json().await.expect("JSON body"))
}

async fn register(server: &TestServer, body: Value) -> (u16, Value) {
    post(server, "/api/accounts", body).await
}

#[tokio::test]
async fn register_then_me_knows_the_account_and_never_shows_the_password() {
    let server = TestServer::start().await;
    let (status, body) = register(
        &server,
        json!({"username": "Minh_01", "password": "correct horse", "email": "minh@example.org"}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["username"], "Minh_01");
    let token = body["token"].as_str().expect("token").to_string();
    assert!(!body.to_string().contains("correct horse"));
    assert!(!body.to_string().contains("argon2"));

    let (status, who) = me(&server, &token).await;
    assert_eq!(status, 200, "{who}");
    assert_eq!(who["username"], "Minh_01");
    assert_eq!(who["email"], "minh@example.org");
    assert!(!who.to_string().contains("argon2"));

    // The scheme is case-insensitive, `?token=` works too; no token or an
    // unknown one is 401.
    let resp = reqwest::Client::new()
        .get(format!("{}/api/me", server.base))
        .header("Authorization", format!("bearer {token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 200);
    let (status, who) = server.get(&format!("/api/me?token={token}")).await;
    assert_eq!(status, 200, "{who}");
    let (status, body) = server.get("/api/me").await;
    assert_eq!(status, 401, "{body}");
    let (status, body) = me(&server, "0123456789abcdef0123456789abcdef").await;
    assert_eq!(status, 401);
    assert_eq!(body["error"], "not_signed_in");

    // Without an email, `email` is null.
    let (status, body) =
        register(&server, json!({"username": "lan", "password": "12345678"})).await;
    assert_eq!(status, 201, "{body}");
    let (_, who) = me(&server, body["token"].as_str().unwrap()).await;
    assert_eq!(who["username"], "lan");
    assert_eq!(who["email"], Value::Null);
}

#[tokio::test]
async fn a_username_is_taken_in_any_case() {
    let server = TestServer::start().await;
    let (status, _) = register(
        &server,
        json!({"username": "Khoa", "password": "password1"}),
    )
    .await;
    assert_eq!(status, 201);
    for name in ["Khoa", "khoa", "KHOA"] {
        let (status, body) =
            register(&server, json!({"username": name, "password": "password2"})).await;
        assert_eq!(status, 409, "{name}: {body}");
        assert_eq!(body["error"], "username_taken");
        assert!(body["message"].as_str().unwrap().contains("taken"));
    }
}

#[tokio::test]
async fn bad_usernames_passwords_and_emails_are_refused_clearly() {
    let server = TestServer::start().await;
    let cases = [
        (
            json!({"username": "ab", "password": "password1"}),
            "bad_username",
            "3 to 20",
        ),
        (
            json!({"username": "x".repeat(21), "password": "password1"}),
            "bad_username",
            "3 to 20",
        ),
        (
            json!({"username": "a b c", "password": "password1"}),
            "bad_username",
            "letters",
        ),
        (
            json!({"username": "Nguyễn", "password": "password1"}),
            "bad_username",
            "letters",
        ),
        (
            json!({"username": "minh", "password": "short"}),
            "bad_password",
            "at least 8",
        ),
        (
            json!({"username": "minh", "password": "p".repeat(129)}),
            "bad_password",
            "at most 128",
        ),
        (
            json!({"username": "minh", "password": "password1", "email": "no-at-sign"}),
            "bad_email",
            "email",
        ),
        (
            json!({"username": "minh", "password": "password1", "email": "a@b@c"}),
            "bad_email",
            "email",
        ),
        (
            json!({"username": "minh", "password": "password1", "email": format!("{}@x.org", "a".repeat(250))}),
            "bad_email",
            "email",
        ),
    ];
    for (body, code, words) in cases {
        let (status, answer) = register(&server, body.clone()).await;
        assert_eq!(status, 400, "{body}: {answer}");
        assert_eq!(answer["error"], code, "{body}: {answer}");
        let message = answer["message"].as_str().unwrap();
        assert!(message.contains(words), "{body}: {message}");
    }
    // Not JSON at all.
    let resp = reqwest::Client::new()
        .post(format!("{}/api/accounts", server.base))
        .header("Content-Type", "application/json")
        .body("{nope")
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 400);
    // Nothing above created an account.
    let (status, _) = register(
        &server,
        json!({"username": "minh", "password": "password1"}),
    )
    .await;
    assert_eq!(status, 201);
}

#[tokio::test]
async fn login_right_and_wrong_and_logout() {
    let server = TestServer::start().await;
    let (status, _) = register(
        &server,
        json!({"username": "Thao", "password": "secret-pass"}),
    )
    .await;
    assert_eq!(status, 201);

    // Any case of the username logs in; the answer names the account.
    let (status, body) = post(
        &server,
        "/api/login",
        json!({"username": "thao", "password": "secret-pass"}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["username"], "Thao");
    let token = body["token"].as_str().unwrap().to_string();
    assert_eq!(me(&server, &token).await.0, 200);

    // A wrong password and an unknown user get the very same answer.
    let (s1, wrong) = post(
        &server,
        "/api/login",
        json!({"username": "Thao", "password": "secret-pasS"}),
    )
    .await;
    let (s2, unknown) = post(
        &server,
        "/api/login",
        json!({"username": "Nobody", "password": "secret-pass"}),
    )
    .await;
    assert_eq!((s1, s2), (401, 401));
    assert_eq!(wrong, unknown);
    assert_eq!(wrong["error"], "bad_login");

    // Logging out ends that session only.
    let (_, other) = post(
        &server,
        "/api/login",
        json!({"username": "Thao", "password": "secret-pass"}),
    )
    .await;
    let other = other["token"].as_str().unwrap().to_string();
    assert_ne!(other, token);
    let (status, body) = post(&server, "/api/logout", json!({"token": token})).await;
    assert_eq!(status, 204, "{body}");
    assert_eq!(me(&server, &token).await.0, 401);
    assert_eq!(me(&server, &other).await.0, 200);
}

#[tokio::test]
async fn logging_in_binds_the_browsers_token() {
    let server = TestServer::start().await;
    let (status, _) = register(
        &server,
        json!({"username": "binh", "password": "password1"}),
    )
    .await;
    assert_eq!(status, 201);
    let guest = "guestTOKEN_0123456789-abcdef";
    let (status, body) = post(
        &server,
        "/api/login",
        json!({"username": "binh", "password": "password1", "token": guest}),
    )
    .await;
    assert_eq!(status, 200, "{body}");
    assert_eq!(body["token"], guest);
    assert_eq!(me(&server, guest).await.1["username"], "binh");
    // A malformed token is not reused: a fresh one is issued.
    let (_, body) = post(
        &server,
        "/api/login",
        json!({"username": "binh", "password": "password1", "token": "bad token!"}),
    )
    .await;
    assert_ne!(body["token"], "bad token!");
    assert_eq!(body["token"].as_str().unwrap().len(), 32);
}

#[tokio::test]
async fn failed_logins_from_one_address_are_limited() {
    let server = TestServer::start().await;
    let (status, _) = register(&server, json!({"username": "hoa", "password": "password1"})).await;
    assert_eq!(status, 201);
    let wrong = json!({"username": "hoa", "password": "wrong-one"});
    // Ten failures pass; then one more every 6 s. A slow machine may earn
    // a refill while it hashes, so count how many pass before the refusal
    // instead of expecting it at exactly the eleventh.
    let mut refused_at = None;
    for attempt in 1..=30 {
        let (status, body) = post(&server, "/api/login", wrong.clone()).await;
        if status == 429 {
            assert_eq!(body["error"], "rate_limited");
            refused_at = Some(attempt);
            break;
        }
        assert_eq!(status, 401, "{body}");
    }
    let refused_at = refused_at.expect("failed logins are limited");
    assert!(
        refused_at > 10,
        "ten failures are allowed first; refused at {refused_at}"
    );
    // Even the right password waits now.
    let right = json!({"username": "hoa", "password": "password1"});
    assert_eq!(post(&server, "/api/login", right).await.0, 429);
}

#[tokio::test]
async fn a_guest_who_registers_keeps_the_seat_and_shows_as_an_account() {
    let server = TestServer::start().await;
    let (_, room) = server.create_room(json!({})).await;
    let code = room["code"].as_str().unwrap().to_string();
    let host_token = room["token"].as_str().unwrap().to_string();
    let (mut host, _, _) = server.join(&code, Some(&host_token), Some("Minh")).await;
    let (mut guest, guest_token, snap) = server.join(&code, None, Some("Lan")).await;
    assert_eq!(snap["you"]["account"], Value::Null);
    let member = snap["you"]["member"].clone();
    guest.ok(json!({"type": "sit", "seat": 1})).await;
    guest.close().await;
    // The host sees the guest go offline (so older events are behind us).
    loop {
        let event = host.next_of("members").await;
        let offline = event["members"]
            .as_array()
            .unwrap()
            .iter()
            .any(|m| m["id"] == member && m["online"] == false);
        if offline {
            break;
        }
    }

    // The guest registers from the same browser: the token stays.
    let (status, body) = register(
        &server,
        json!({"username": "lan_99", "password": "password1", "token": guest_token}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["token"], guest_token.as_str());

    let (_guest, _, snap) = server.join(&code, Some(&guest_token), None).await;
    assert_eq!(snap["you"]["member"], member);
    assert_eq!(snap["you"]["seat"], 1);
    assert_eq!(snap["you"]["name"], "Lan");
    assert_eq!(snap["you"]["account"], "lan_99");
    let members = snap["room"]["members"].as_array().unwrap();
    let me_view = members.iter().find(|m| m["id"] == member).unwrap();
    assert_eq!(me_view["account"], "lan_99");
    assert_eq!(me_view["seat"], 1);
    let host_view = members.iter().find(|m| m["name"] == "Minh").unwrap();
    assert_eq!(host_view["account"], Value::Null);

    // Everyone else sees the flag in the members event.
    let seen = loop {
        let event = host.next_of("members").await;
        let m = event["members"]
            .as_array()
            .unwrap()
            .iter()
            .find(|m| m["id"] == member)
            .cloned();
        if let Some(m) = m.filter(|m| m["online"] == true) {
            break m;
        }
    };
    assert_eq!(seen["account"], "lan_99");
}

#[tokio::test]
async fn an_account_without_a_name_takes_its_username_in_a_room() {
    let server = TestServer::start().await;
    let (_, body) = register(
        &server,
        json!({"username": "Tuan", "password": "password1"}),
    )
    .await;
    let token = body["token"].as_str().unwrap().to_string();
    let (_, room) = server.create_room(json!({"token": token})).await;
    let code = room["code"].as_str().unwrap();
    assert_eq!(room["token"], token.as_str());
    let (_client, _, snap) = server.join(code, Some(&token), None).await;
    assert_eq!(snap["you"]["name"], "Tuan");
    assert_eq!(snap["you"]["host"], true);
    assert_eq!(snap["you"]["account"], "Tuan");

    // After logging out the same browser token is a guest again.
    let (status, _) = post(&server, "/api/logout", json!({"token": token})).await;
    assert_eq!(status, 204);
    let (_again, _, snap) = server.join(code, Some(&token), None).await;
    assert_eq!(snap["you"]["account"], Value::Null);
    assert_eq!(snap["you"]["name"], "Tuan");
}

#[tokio::test]
async fn the_stored_password_is_an_argon2_phc_string() {
    let server = TestServer::start().await;
    let (status, body) = register(
        &server,
        json!({"username": "vyvy", "password": "my long password"}),
    )
    .await;
    assert_eq!(status, 201);
    let token = body["token"].as_str().unwrap().to_string();
    let db = server.dir.path().join("site.db");
    let pool = sqlx::SqlitePool::connect(&format!("sqlite:{}", db.display()))
        .await
        .expect("open the database");
    let hash: String =
        sqlx::query_scalar("SELECT password_hash FROM accounts WHERE username = 'vyvy'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert!(hash.starts_with("$argon2id$v=19$"), "{hash}");
    assert!(!hash.contains("my long password"));
    // Two accounts with one password get different salts.
    register(
        &server,
        json!({"username": "vyvy2", "password": "my long password"}),
    )
    .await;
    let other: String =
        sqlx::query_scalar("SELECT password_hash FROM accounts WHERE username = 'vyvy2'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_ne!(hash, other);
    // Sessions keep only a hash of the token.
    let stored: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM sessions")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(stored.len(), 2);
    assert!(stored.iter().all(|h| h.len() == 64 && *h != token));
}
