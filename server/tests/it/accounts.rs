//! Accounts over the real HTTP API: register, log in and out, "me", the
//! session cookie and its flags, sessions that expire or are ended from
//! another browser, a password change, host accounts, the security
//! headers, and a guest who registers keeping their seat in a room.

use crate::common;

use common::browser::Browser;
use common::TestServer;
use serde_json::{json, Value};

async fn post(server: &TestServer, path: &str, body: Value) -> (u16, Value) {
    server.post(path, body).await
}

async fn register(server: &TestServer, body: Value) -> (u16, Value) {
    post(server, "/api/accounts", body).await
}

/// Registers `username` with `password` without a browser (no one keeps
/// the session); the answer. Panics unless the server says 201.
async fn registered(server: &TestServer, username: &str, password: &str) -> Value {
    let (status, body) =
        register(server, json!({"username": username, "password": password})).await;
    assert_eq!(status, 201, "{body}");
    body
}

#[tokio::test]
async fn register_then_me_knows_the_account_and_never_shows_the_password() {
    let server = TestServer::start().await;
    let mut minh = Browser::new(&server);
    let answer = minh.register_with(json!({"username": "Minh_01", "password": "correct horse", "email": "minh@example.org"})).await;
    assert_eq!(answer["username"], "Minh_01");
    let secret = minh.session.clone().expect("a session cookie");
    assert!(
        !answer.to_string().contains(&secret),
        "the secret is only in the cookie"
    );
    assert!(!answer.to_string().contains("correct horse"));
    assert!(!answer.to_string().contains("argon2"));

    let who = minh.get("/api/me").await;
    assert_eq!(who.status, 200, "{}", who.body);
    assert_eq!(who.body["username"], "Minh_01");
    assert_eq!(who.body["email"], "minh@example.org");
    assert!(!who.body.to_string().contains("argon2"));
    // "me" sends the cookie again, so a session in use stays in the browser.
    assert!(who.set_cookie.expect("refreshed").contains(&secret));

    // The browser token is not a session: neither as a bearer token nor
    // as `?token=`. No cookie, or an unknown one, is 401.
    let token = answer["token"].as_str().expect("token");
    let resp = reqwest::Client::new()
        .get(format!("{}/api/me?token={token}", server.base))
        .header("Authorization", format!("Bearer {token}"))
        .send()
        .await
        .unwrap();
    assert_eq!(resp.status().as_u16(), 401);
    let (status, body) = server.get("/api/me").await;
    assert_eq!(status, 401, "{body}");
    let mut stranger = Browser::new(&server);
    stranger.session = Some("0123456789abcdef0123456789abcdef".into());
    let who = stranger.get("/api/me").await;
    assert_eq!(who.status, 401);
    assert_eq!(who.body["error"], "not_signed_in");

    // Without an email, `email` is null.
    let mut lan = Browser::new(&server);
    lan.register("lan", "12345678").await;
    let who = lan.get("/api/me").await;
    assert_eq!(who.body["username"], "lan");
    assert_eq!(who.body["email"], Value::Null);
}

/// `POST path` for minh (password1) with `X-Forwarded-Proto: https`:
/// the status and the `Set-Cookie` header.
async fn over_https(server: &TestServer, path: &str) -> (u16, String) {
    let resp = reqwest::Client::new()
        .post(format!("{}{path}", server.base))
        .header("X-Forwarded-Proto", "https")
        .json(&json!({"username": "minh", "password": "password1"}))
        .send()
        .await
        .unwrap();
    let cookie = resp.headers()["set-cookie"].to_str().unwrap().to_string();
    (resp.status().as_u16(), cookie)
}

#[tokio::test]
async fn the_session_cookie_is_http_only_lax_and_secure_over_tls() {
    let server = TestServer::start().await;
    let mut minh = Browser::new(&server);
    let answer = minh
        .sign_up(json!({"username": "minh", "password": "password1"}))
        .await;
    let cookie = answer.set_cookie.expect("Set-Cookie");
    let secret = minh.session.clone().unwrap();
    assert!(
        cookie.starts_with(&format!("session={secret};")),
        "{cookie}"
    );
    assert_eq!(secret.len(), 32, "128 random bits in hex");
    for flag in ["HttpOnly", "SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(cookie.contains(flag), "{cookie} has {flag}");
    }
    assert!(
        !cookie.contains("Secure"),
        "plain HTTP: not Secure: {cookie}"
    );
    // Beside it, the pages' hint: the same life, readable by scripts.
    assert_eq!(answer.set_cookies.len(), 2, "{:?}", answer.set_cookies);
    let hint = &answer.set_cookies[1];
    assert!(hint.starts_with("signed_in=1;"), "{hint}");
    for flag in ["SameSite=Lax", "Path=/", "Max-Age=2592000"] {
        assert!(hint.contains(flag), "{hint} has {flag}");
    }
    assert!(!hint.contains("HttpOnly"), "{hint}");
    // A forwarding header from anyone but a trusted proxy is ignored.
    let (_, cookie) = over_https(&server, "/api/login").await;
    assert!(!cookie.contains("Secure"), "{cookie}");

    // Over TLS (a trusted proxy says so, or the public URL is https) the
    // cookie is Secure.
    let proxied =
        TestServer::start_with(|c| c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()]).await;
    let (status, cookie) = over_https(&proxied, "/api/accounts").await;
    assert_eq!(status, 201);
    assert!(cookie.contains("; Secure"), "{cookie}");
    let public =
        TestServer::start_with(|c| c.public_url = Some("https://games.example".into())).await;
    let mut b = Browser::new(&public);
    let answer = b
        .sign_up(json!({"username": "minh", "password": "password1"}))
        .await;
    assert!(answer.set_cookie.unwrap().contains("; Secure"));

    // Logging out clears the cookie.
    let answer = minh.post("/api/logout", json!({})).await;
    assert_eq!(answer.status, 204);
    let cleared = answer.set_cookie.expect("Set-Cookie");
    assert!(
        cleared.starts_with("session=;") && cleared.contains("Max-Age=0"),
        "{cleared}"
    );
    let hint = &answer.set_cookies[1];
    assert!(
        hint.starts_with("signed_in=;") && hint.contains("Max-Age=0"),
        "{hint}"
    );
    assert!(minh.session.is_none());
}

/// Sets the sessions' `last_seen` as if they were last used `days` ago.
async fn age_sessions(server: &TestServer, days: u64) {
    server.age_sessions(days * 24 * 60 * 60 * 1000).await;
}

#[tokio::test]
async fn a_session_unused_for_30_days_is_over_and_one_in_use_lives_on() {
    let server = TestServer::start().await;
    let mut minh = Browser::new(&server);
    minh.register("minh", "password1").await;
    age_sessions(&server, 29).await;
    assert_eq!(minh.get("/api/me").await.status, 200, "29 days: still open");
    // That use counted: another 29 days later it is still open.
    age_sessions(&server, 29).await;
    assert_eq!(minh.get("/api/me").await.status, 200);
    age_sessions(&server, 30).await;
    let who = minh.get("/api/me").await;
    assert_eq!(who.status, 401, "30 days unused: over");
    assert_eq!(who.body["error"], "not_signed_in");
    // Not listed either, and a room socket with it is a guest's.
    let code = &server.new_room(json!({})).await.0;
    let (_c, _, snap) = minh.join(code, None, Some("Minh")).await;
    assert_eq!(snap["you"]["account"], Value::Null);
}

#[tokio::test]
async fn sessions_are_listed_and_logging_out_everywhere_ends_the_others() {
    let server = TestServer::start().await;
    let mut here = Browser::new(&server);
    here.register("Thao", "secret-pass").await;
    let mut phone = Browser::new(&server);
    let mut laptop = Browser::new(&server);
    for b in [&mut phone, &mut laptop] {
        let a = b.log_in("thao", "secret-pass").await;
        assert_eq!(a.status, 200, "{}", a.body);
    }
    let list = here.get("/api/sessions").await;
    assert_eq!(list.status, 200, "{}", list.body);
    let sessions = list.body["sessions"].as_array().unwrap().clone();
    assert_eq!(sessions.len(), 3, "{}", list.body);
    assert_eq!(sessions.iter().filter(|s| s["current"] == true).count(), 1);
    for s in &sessions {
        assert_eq!(s["agent"], "TestBrowser/1.0");
        assert!(s["id"].is_i64() && s["last_seen"].is_u64() && s["created_at"].is_u64());
        assert!(!s.to_string().contains(here.session.as_deref().unwrap()));
    }
    // End one other session by its id (the phone's: it used the site last
    // but one).
    let phone_id = {
        phone.get("/api/me").await;
        let list = phone.get("/api/sessions").await;
        list.body["sessions"]
            .as_array()
            .unwrap()
            .iter()
            .find(|s| s["current"] == true)
            .unwrap()["id"]
            .as_i64()
            .unwrap()
    };
    let a = here.delete(&format!("/api/sessions/{phone_id}")).await;
    assert_eq!(a.status, 204, "{}", a.body);
    assert_eq!(phone.get("/api/me").await.status, 401);
    let a = here.delete(&format!("/api/sessions/{phone_id}")).await;
    assert_eq!(a.status, 404);
    assert_eq!(a.body["error"], "no_session");
    assert_eq!(here.delete("/api/sessions/nonsense").await.status, 404);
    // Someone else's session cannot be ended.
    let mut other = Browser::new(&server);
    other.register("someone", "password1").await;
    let here_id = sessions.iter().find(|s| s["current"] == true).unwrap()["id"].clone();
    assert_eq!(
        other
            .delete(&format!("/api/sessions/{here_id}"))
            .await
            .status,
        404
    );
    assert_eq!(here.get("/api/me").await.status, 200);

    // Log out everywhere else: the laptop is out, this browser stays.
    let a = here.delete("/api/sessions").await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["ended"], 1);
    assert_eq!(laptop.get("/api/me").await.status, 401);
    assert_eq!(here.get("/api/me").await.status, 200);
    assert_eq!(
        here.get("/api/sessions").await.body["sessions"]
            .as_array()
            .unwrap()
            .len(),
        1
    );

    // Without a session, the session endpoints are 401.
    let mut guest = Browser::new(&server);
    assert_eq!(guest.get("/api/sessions").await.status, 401);
    assert_eq!(guest.delete("/api/sessions").await.status, 401);
    assert_eq!(guest.delete("/api/sessions/1").await.status, 401);
}

#[tokio::test]
async fn changing_the_password_ends_the_other_sessions() {
    let server = TestServer::start().await;
    let mut here = Browser::new(&server);
    here.register("binh", "password1").await;
    let mut there = Browser::new(&server);
    there.log_in("binh", "password1").await;
    assert_eq!(there.get("/api/me").await.status, 200);

    // A wrong current password or a bad new one changes nothing.
    let a = here.change_password("password2", "new-password").await;
    assert_eq!(a.status, 403, "{}", a.body);
    assert_eq!(a.body["error"], "wrong_password");
    let a = here.change_password("password1", "short").await;
    assert_eq!(a.status, 400);
    assert_eq!(a.body["error"], "bad_password");
    assert_eq!(there.get("/api/me").await.status, 200);
    let mut guest = Browser::new(&server);
    let a = guest.change_password("password1", "new-password").await;
    assert_eq!(a.status, 401);

    let a = here.change_password("password1", "new-password").await;
    assert_eq!(a.status, 204, "{}", a.body);
    assert_eq!(
        there.get("/api/me").await.status,
        401,
        "the other session ended"
    );
    assert_eq!(here.get("/api/me").await.status, 200, "this one stays");
    let (status, _) = server.log_in("binh", "password1").await;
    assert_eq!(status, 401, "the old password no longer works");
    let (status, _) = server.log_in("binh", "new-password").await;
    assert_eq!(status, 200);
}

#[tokio::test]
async fn a_guest_cannot_host_unless_guest_hosts_but_can_play_the_computer() {
    let server = TestServer::start_with(|c| c.guest_hosts = false).await;
    let (status, body) = server.create_room(json!({"game": "jungle"})).await;
    assert_eq!(status, 401, "{body}");
    assert_eq!(body["error"], "account_needed");
    assert!(body["message"].as_str().unwrap().contains("Sign in"));
    // A stale cookie is no account either.
    let mut stale = Browser::new(&server);
    stale.session = Some("0123456789abcdef0123456789abcdef".into());
    assert_eq!(stale.post("/api/rooms", json!({})).await.status, 401);

    // An account can.
    let mut host = Browser::new(&server);
    host.register("host_1", "password1").await;
    let a = host.post("/api/rooms", json!({"game": "jungle"})).await;
    assert_eq!(a.status, 201, "{}", a.body);
    let code = a.body["code"].as_str().unwrap().to_string();
    let token = a.body["token"].as_str().unwrap().to_string();
    let (_h, _, snap) = host.join(&code, Some(&token), None).await;
    assert_eq!(snap["you"]["host"], true);
    assert_eq!(snap["you"]["account"], "host_1");
    // A guest joins it by the link with only a name, and sits.
    let (mut guest, _, _) = server.join(&code, None, Some("Lan")).await;
    guest.ok(json!({"type": "sit", "seat": 1})).await;

    // A guest's solo game against the computer needs no account; nobody
    // but its host sits there.
    let (code, mut me) = server
        .against_the_computer(json!({"game": "jungle", "solo": true}), "Khoa")
        .await;
    let (mut watcher, _, _) = server.join(&code, None, Some("Vy")).await;
    me.ok(json!({"type": "computer", "seat": 1})).await;
    let why = watcher
        .refused(json!({"type": "sit", "seat": 1}), "not_host")
        .await;
    assert!(why.contains("watch"), "{why}");
}

#[tokio::test]
async fn every_answer_carries_the_security_headers() {
    let server = TestServer::start().await;
    let code = &server.new_room(json!({})).await.0;
    for path in [
        "/",
        "/js/home.js",
        "/api/me",
        &format!("/r/{code}"),
        "/api/rooms/ZZZZZZ",
    ] {
        let resp = reqwest::get(format!("{}{path}", server.base))
            .await
            .unwrap();
        let h = resp.headers();
        let csp = h["content-security-policy"].to_str().unwrap();
        common::assert_contains_all(
            path,
            csp,
            &[
                "default-src 'self'",
                "script-src 'self'",
                "style-src 'self'",
                "connect-src 'self'",
                "frame-ancestors 'self'",
            ],
        );
        assert!(!csp.contains("unsafe"), "{path}: {csp}");
        assert_eq!(h["x-content-type-options"], "nosniff", "{path}");
        assert_eq!(h["referrer-policy"], "same-origin", "{path}");
        assert_eq!(h["x-frame-options"], "SAMEORIGIN", "{path}");
    }
}

#[tokio::test]
async fn a_username_is_taken_in_any_case() {
    let server = TestServer::start().await;
    registered(&server, "Khoa", "password1").await;
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
    registered(&server, "minh", "password1").await;
}

#[tokio::test]
async fn login_right_and_wrong_and_logout() {
    let server = TestServer::start().await;
    let mut first = Browser::new(&server);
    first.register("Thao", "secret-pass").await;

    // Any case of the username logs in; the answer names the account.
    let mut second = Browser::new(&server);
    let a = second.log_in("thao", "secret-pass").await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["username"], "Thao");
    assert_eq!(second.get("/api/me").await.status, 200);
    assert_ne!(first.session, second.session, "one session per browser");

    // A wrong password and an unknown user get the very same answer, and
    // no cookie.
    let mut third = Browser::new(&server);
    let wrong = third.log_in("Thao", "secret-pasS").await;
    let unknown = third.log_in("Nobody", "secret-pass").await;
    assert_eq!((wrong.status, unknown.status), (401, 401));
    assert_eq!(wrong.body, unknown.body);
    assert_eq!(wrong.body["error"], "bad_login");
    assert!(wrong.set_cookie.is_none() && unknown.set_cookie.is_none());
    // A `null` field reads as one left out: an empty password.
    let (status, body) = post(
        &server,
        "/api/login",
        json!({"username": "Thao", "password": null}),
    )
    .await;
    assert_eq!(
        (status, &body["error"]),
        (401, &json!("bad_login")),
        "{body}"
    );

    // Logging out ends that session only.
    let ended = second.session.clone();
    let a = second.post("/api/logout", json!({})).await;
    assert_eq!(a.status, 204, "{}", a.body);
    assert_eq!(second.get("/api/me").await.status, 401);
    second.session = ended;
    assert_eq!(
        second.get("/api/me").await.status,
        401,
        "the old cookie is dead"
    );
    assert_eq!(first.get("/api/me").await.status, 200);

    // Logging in again from a signed-in browser replaces its session.
    let before = first.session.clone();
    first.log_in("Thao", "secret-pass").await;
    assert_ne!(first.session, before);
    let mut old = Browser::new(&server);
    old.session = before;
    assert_eq!(old.get("/api/me").await.status, 401);
}

#[tokio::test]
async fn logging_in_keeps_the_browsers_token() {
    let server = TestServer::start().await;
    registered(&server, "binh", "password1").await;
    let guest = "guestTOKEN_0123456789-abcdef";
    let mut b = Browser::new(&server);
    let a = b
        .log_in_with(json!({"username": "binh", "password": "password1", "token": guest}))
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["token"], guest);
    assert_ne!(
        b.session.as_deref(),
        Some(guest),
        "the session is a secret of its own"
    );
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
    registered(&server, "hoa", "password1").await;
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
async fn the_account_that_made_a_room_hosts_it_whichever_of_its_browsers_comes_first() {
    let server = TestServer::start_with(|c| c.guest_hosts = false).await;
    let mut laptop = Browser::new(&server);
    laptop.register("host_2", "password1").await;
    let made = laptop.post("/api/rooms", json!({"game": "jungle"})).await;
    assert_eq!(made.status, 201, "{}", made.body);
    let code = made.body["code"].as_str().unwrap().to_string();
    let token = made.body["token"].as_str().unwrap().to_string();
    // Another browser of the account opens the room first: one member
    // for the account, not yet the host (the link alone makes nobody host).
    let phone = Browser::logged_in(&server, "host_2", "password1").await;
    let (mut on_phone, _, snap) = phone.join(&code, None, None).await;
    let member = snap["you"]["member"].clone();
    assert_eq!(snap["you"]["host"], false, "{snap}");
    // The browser that made the room comes: the same member, now the host
    // (an outside check found the room left with no host at all).
    let (mut on_laptop, _, snap) = laptop.join(&code, Some(&token), None).await;
    assert_eq!(snap["you"]["member"], member, "{snap}");
    assert_eq!(snap["you"]["host"], true, "{snap}");
    on_phone
        .member_until("id", &member, |m| m["host"] == true)
        .await;
    on_laptop.ok(json!({"type": "sit", "seat": 0})).await;
    on_phone
        .ok(json!({"type": "computer", "seat": 1, "level": "beginner"}))
        .await;
    // The creator's token made a host once: a browser signed in to no
    // account that says it is a guest, not a second host.
    let (_, _, snap) = server.join(&code, Some(&token), Some("Lan")).await;
    assert_ne!(snap["you"]["member"], member);
    assert_eq!(snap["you"]["host"], false, "{snap}");
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
    host.member_until("id", &member, |m| m["online"] == false)
        .await;

    // The guest registers from the same browser: the token stays.
    let mut browser = Browser::new(&server);
    let a = browser
        .register_with(json!({"username": "lan_99", "password": "password1", "token": guest_token}))
        .await;
    assert_eq!(a["token"], guest_token.as_str());

    let (_guest, _, snap) = browser.join(&code, Some(&guest_token), None).await;
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
    let seen = host
        .member_until("id", &member, |m| m["online"] == true)
        .await;
    assert_eq!(seen["account"], "lan_99");

    // Her phone: logged in, a browser token of its own. The room knows
    // the account: the same member, in her seat, and she may move there.
    let phone = Browser::logged_in(&server, "lan_99", "password1").await;
    let (mut on_phone, phone_token, snap) = phone.join(&code, None, None).await;
    assert_ne!(phone_token, guest_token);
    assert_eq!(snap["you"]["member"], member, "{snap}");
    assert_eq!(snap["you"]["seat"], 1);
    on_phone.ok(json!({"type": "stand"})).await;
    // A guest on another browser is someone else.
    let (_, _, snap) = server.join(&code, None, Some("Lan")).await;
    assert_ne!(snap["you"]["member"], member);
}

#[tokio::test]
async fn an_account_without_a_name_takes_its_username_in_a_room() {
    let server = TestServer::start().await;
    let mut browser = Browser::new(&server);
    let body = browser.register("Tuan", "password1").await;
    let token = body["token"].as_str().unwrap().to_string();
    let room = browser
        .post("/api/rooms", json!({"token": token}))
        .await
        .body;
    let code = room["code"].as_str().unwrap();
    assert_eq!(room["token"], token.as_str());
    let (_client, _, snap) = browser.join(code, Some(&token), None).await;
    assert_eq!(snap["you"]["name"], "Tuan");
    assert_eq!(snap["you"]["host"], true);
    assert_eq!(snap["you"]["account"], "Tuan");

    // After logging out the same browser token is a guest again.
    assert_eq!(browser.post("/api/logout", json!({})).await.status, 204);
    let (_again, _, snap) = browser.join(code, Some(&token), None).await;
    assert_eq!(snap["you"]["account"], Value::Null);
    assert_eq!(snap["you"]["name"], "Tuan");
}

#[tokio::test]
async fn the_stored_password_is_an_argon2_phc_string() {
    let server = TestServer::start().await;
    let body = registered(&server, "vyvy", "my long password").await;
    let token = body["token"].as_str().unwrap().to_string();
    let mut browser = Browser::new(&server);
    browser.log_in("vyvy", "my long password").await;
    let secret = browser.session.clone().expect("signed in");
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
    registered(&server, "vyvy2", "my long password").await;
    let other: String =
        sqlx::query_scalar("SELECT password_hash FROM accounts WHERE username = 'vyvy2'")
            .fetch_one(&pool)
            .await
            .unwrap();
    assert_ne!(hash, other);
    // Sessions keep only a hash of their secret.
    let stored: Vec<String> = sqlx::query_scalar("SELECT token_hash FROM sessions")
        .fetch_all(&pool)
        .await
        .unwrap();
    assert_eq!(stored.len(), 3);
    assert!(stored
        .iter()
        .all(|h| h.len() == 64 && *h != token && *h != secret));
    assert!(stored.contains(&server::model::TokenHash::of(&secret).as_str().to_string()));
}

#[tokio::test]
async fn a_session_survives_a_restart() {
    let server = TestServer::start().await;
    let mut browser = Browser::new(&server);
    browser.register("keeper", "password1").await;
    let dir = server.stop().await;
    let server = TestServer::start_in(dir, |_| {}).await;
    browser.base = server.base.clone();
    let who = browser.get("/api/me").await;
    assert_eq!(who.status, 200, "{}", who.body);
    assert_eq!(who.body["username"], "keeper");
}

#[tokio::test]
async fn checking_in_twice_in_one_day_adds_coins_once() {
    let server = TestServer::start().await;
    let mut b = Browser::new(&server);
    b.register("coiner", "password1").await;
    let me = b.get("/api/me").await.body;
    assert_eq!(me["coins"], 0);
    assert_eq!(me["checked_in_today"], false);
    let first = b.post("/api/checkin", json!({})).await;
    assert_eq!(first.status, 200, "{}", first.body);
    assert_eq!(first.body["added"], 10);
    assert_eq!(first.body["streak"], 1);
    assert_eq!(first.body["coins"], 10);
    let again = b.post("/api/checkin", json!({})).await;
    assert_eq!(again.body["added"], 0);
    assert_eq!(again.body["coins"], 10);
    let me = b.get("/api/me").await.body;
    assert_eq!(me["coins"], 10);
    assert_eq!(me["checked_in_today"], true);
    // A guest has no coins to check in.
    let mut guest = Browser::new(&server);
    assert_eq!(guest.post("/api/checkin", json!({})).await.status, 401);
    // The balance survives a restart.
    let dir = server.stop().await;
    let server = TestServer::start_in(dir, |_| {}).await;
    b.base = server.base.clone();
    assert_eq!(b.get("/api/me").await.body["coins"], 10);
}

#[tokio::test]
async fn a_login_past_fifty_sessions_ends_the_least_recently_used_and_its_sockets() {
    let server = TestServer::start().await;
    let mut first = Browser::new(&server);
    first.register("Thao", "secret-pass").await;
    let mut socket = first.signed_in_socket(&server).await;
    let mut latest = Vec::new();
    for _ in 1..server::store::SESSIONS_PER_ACCOUNT {
        latest.push(Browser::logged_in(&server, "thao", "secret-pass").await);
    }
    // Fifty sessions, the first the least recently used: the next login
    // ends it, and signs its socket out.
    let mut next = Browser::logged_in(&server, "thao", "secret-pass").await;
    assert_eq!(socket.close_code().await, Some(4001));
    assert_eq!(first.get("/api/me").await.status, 401);
    assert_eq!(latest[0].get("/api/me").await.status, 200);
    let listed = next.get("/api/sessions").await;
    assert_eq!(
        listed.body["sessions"].as_array().unwrap().len(),
        server::store::SESSIONS_PER_ACCOUNT as usize,
        "{}",
        listed.body
    );
    // The one used last but one login ago stays: the next login ends the
    // least recently used (the second browser's was just used, so the
    // third's goes).
    Browser::logged_in(&server, "thao", "secret-pass").await;
    assert_eq!(latest[0].get("/api/me").await.status, 200);
    assert_eq!(latest[1].get("/api/me").await.status, 401);
}

/// `POST /api/login` with `body` from the forwarded client address `from`.
async fn login_from(server: &TestServer, body: &Value, from: &str) -> (u16, Value) {
    let resp = reqwest::Client::new()
        .post(format!("{}/api/login", server.base))
        .header("X-Forwarded-For", from)
        .json(body)
        .send()
        .await
        .expect("request");
    let status = resp.status().as_u16();
    (status, resp.json().await.unwrap_or(Value::Null))
}

#[tokio::test]
async fn failed_logins_to_one_account_are_limited_from_any_addresses() {
    let server = TestServer::start_with(|c| {
        c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()];
    })
    .await;
    registered(&server, "hoa", "password1").await;
    registered(&server, "lan", "password1").await;
    let wrong = json!({"username": "hoa", "password": "wrong-one"});
    // One guess from each of many addresses: the account's ten, then a
    // refusal (a slow machine may earn a refill while it hashes).
    let mut refused_at = None;
    for n in 1..=30 {
        let (status, body) = login_from(&server, &wrong, &format!("203.0.113.{n}")).await;
        if status == 429 {
            assert_eq!(body["error"], "rate_limited", "{body}");
            assert!(
                body["message"].as_str().unwrap().contains("this account"),
                "{body}"
            );
            refused_at = Some(n);
            break;
        }
        assert_eq!(status, 401, "{body}");
    }
    let refused_at = refused_at.expect("failed logins per account are limited");
    assert!((11..=13).contains(&refused_at), "refused at {refused_at}");
    // The account waits, the right password too; another account at the
    // same address does not, and that address's own allowance is whole.
    let right = json!({"username": "hoa", "password": "password1"});
    assert_eq!(login_from(&server, &right, "203.0.113.99").await.0, 429);
    let lan = json!({"username": "lan", "password": "password1"});
    assert_eq!(login_from(&server, &lan, "203.0.113.1").await.0, 200);
}

#[tokio::test]
async fn logins_with_the_right_password_are_bounded_per_address_too() {
    let server = TestServer::start().await;
    registered(&server, "hoa", "password1").await;
    let right = json!({"username": "hoa", "password": "password1"});
    let mut refused_at = None;
    let started = std::time::Instant::now();
    for attempt in 1..=80 {
        let (status, body) = post(&server, "/api/login", right.clone()).await;
        if status == 429 {
            assert_eq!(body["error"], "rate_limited", "{body}");
            refused_at = Some(attempt);
            break;
        }
        assert_eq!(status, 200, "{body}");
    }
    let refused_at = refused_at.expect("logins are bounded");
    let burst = server::limits::PASSWORD_CHECK_BURST as usize;
    // One check comes back every 3 s: a slow machine's logins (argon2 in
    // a debug build) earn some while they run.
    let refills = (started.elapsed().as_secs_f64() / 3.0).ceil() as usize;
    assert!(
        (burst + 1..=burst + 1 + refills).contains(&refused_at),
        "refused at {refused_at} after {:?}",
        started.elapsed()
    );
}

/// PROTOCOL.md, "Accounts": whitespace around a username is removed at
/// registration and at login alike; inside one it is refused; the
/// password is taken as sent.
#[tokio::test]
async fn whitespace_around_a_username_is_trimmed_at_registration_and_login() {
    let server = TestServer::start().await;
    let (status, body) = post(
        &server,
        "/api/accounts",
        json!({"username": " trX\t", "password": " secret-pass "}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    assert_eq!(body["username"], "trX");
    for (username, password, expected) in [
        ("\u{a0}trx\n", " secret-pass ", 200),
        ("trX", " secret-pass ", 200),
        ("trX", "secret-pass", 401),
    ] {
        let (status, body) = post(
            &server,
            "/api/login",
            json!({"username": username, "password": password}),
        )
        .await;
        assert_eq!(status, expected, "{username:?} {password:?}: {body}");
    }
    let (status, body) = post(
        &server,
        "/api/accounts",
        json!({"username": "tr X", "password": "secret-pass"}),
    )
    .await;
    assert_eq!(
        (status, &body["error"]),
        (400, &json!("bad_username")),
        "{body}"
    );
}
