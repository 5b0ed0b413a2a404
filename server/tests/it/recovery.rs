//! Email recovery over the real HTTP API, with the mail going through
//! lettre to a fake SMTP server started here: confirming an address, the
//! one-time recovery link (works once, expires, the same answer for an
//! unknown address), and the limits per account.

use crate::common;

use common::browser::Browser;
use common::smtp::{confirm, link_token, register, reset, FakeSmtp};
use common::TestServer;
use serde_json::json;

async fn site() -> (TestServer, FakeSmtp) {
    let smtp = FakeSmtp::start().await;
    let url = smtp.url.clone();
    let server = TestServer::start_with(move |c| {
        c.smtp_url = Some(url);
        // Mail is only sent when the operator fixed the links' host.
        c.public_url = Some("http://games.example".into());
        c.mail_from = "Board games <games@example.org>".into();
    })
    .await;
    (server, smtp)
}

/// `POST /api/recover` for `email`, without a browser.
async fn recover(server: &TestServer, email: &str) -> (u16, serde_json::Value) {
    server.post("/api/recover", json!({"email": email})).await
}

/// Registers `name` with `email` and confirms the address by the mailed
/// link.
async fn confirmed(server: &TestServer, smtp: &mut FakeSmtp, name: &str, email: &str) -> Browser {
    let mut b = Browser::new(server);
    register(&mut b, name, email).await;
    let me = b.get("/api/me").await.body;
    assert_eq!(me["email"], email);
    assert_eq!(me["email_confirmed"], false, "not confirmed yet");
    let mail = smtp.next().await;
    assert!(
        mail.contains("From: \"Board games\" <games@example.org>"),
        "{mail}"
    );
    assert!(mail.contains(&format!("To: {email}")), "{mail}");
    let token = link_token(&mail, "/account#confirm=");
    confirm(&mut b, &token).await;
    assert_eq!(b.get("/api/me").await.body["email_confirmed"], true);
    // A confirmation link works once.
    let again = b.post("/api/email/confirm", json!({"token": token})).await;
    assert_eq!(again.status, 400);
    assert_eq!(again.body["error"], "bad_link");
    b
}

#[tokio::test]
async fn a_recovery_link_works_once_and_only_the_hash_is_stored() {
    let (server, mut smtp) = site().await;
    let mut old = confirmed(&server, &mut smtp, "minh", "minh@example.org").await;

    let mut lost = Browser::new(&server);
    let a = lost
        .post("/api/recover", json!({"email": "MINH@example.org"}))
        .await;
    assert_eq!(a.status, 202, "{}", a.body);
    let mail = smtp.next().await;
    assert!(mail.contains("Subject: Choose a new password"), "{mail}");
    // To the address as the account stored it, not as it was typed.
    assert!(mail.contains("To: minh@example.org"), "{mail}");
    assert!(!mail.contains("MINH@"), "{mail}");
    let token = link_token(&mail, "/reset#");
    assert_eq!(token.len(), 32);

    // Only the token's hash is in the database.
    let db = server.dir.path().join("site.db");
    let pool = sqlx::SqlitePool::connect(&format!("sqlite:{}", db.display()))
        .await
        .unwrap();
    let stored: Vec<String> =
        sqlx::query_scalar("SELECT token_hash FROM email_tokens WHERE purpose = 'recover'")
            .fetch_all(&pool)
            .await
            .unwrap();
    assert_eq!(
        stored,
        vec![server::model::TokenHash::of(&token).as_str().to_string()]
    );

    // A bad new password changes nothing and keeps the link.
    let a = reset(&mut lost, &token, "short").await;
    assert_eq!(a.status, 400);
    assert_eq!(a.body["error"], "bad_password");
    let a = reset(&mut lost, &token, "brand-new-pass").await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(a.body["username"], "minh");
    assert_eq!(
        lost.get("/api/me").await.status,
        200,
        "signed in by the reset"
    );
    assert_eq!(
        old.get("/api/me").await.status,
        401,
        "every other session ended"
    );
    // Once only.
    let a = reset(&mut lost, &token, "another-pass").await;
    assert_eq!(a.status, 400);
    assert_eq!(a.body["error"], "bad_link");
    let (status, _) = server.log_in("minh", "brand-new-pass").await;
    assert_eq!(status, 200);
    let (status, _) = server.log_in("minh", "password1").await;
    assert_eq!(status, 401);
    pool.close().await;
}

#[tokio::test]
async fn a_recovery_link_expires_after_an_hour() {
    let (server, mut smtp) = site().await;
    confirmed(&server, &mut smtp, "lan", "lan@example.org").await;
    let (status, _) = recover(&server, "lan@example.org").await;
    assert_eq!(status, 202);
    let token = link_token(&smtp.next().await, "/reset#");
    let db = server.dir.path().join("site.db");
    let pool = sqlx::SqlitePool::connect(&format!("sqlite:{}", db.display()))
        .await
        .unwrap();
    // The link was made an hour ago.
    let hour = 60 * 60 * 1000;
    sqlx::query("UPDATE email_tokens SET expires_at = expires_at - ?, created_at = created_at - ?")
        .bind(hour)
        .bind(hour)
        .execute(&pool)
        .await
        .unwrap();
    pool.close().await;
    let (status, body) = server
        .post(
            "/api/reset",
            json!({"token": token, "password": "brand-new-pass"}),
        )
        .await;
    assert_eq!(status, 400, "{body}");
    assert_eq!(body["error"], "bad_link");
    let (status, _) = server.log_in("lan", "password1").await;
    assert_eq!(status, 200, "the password did not change");
}

#[tokio::test]
async fn an_unknown_or_unconfirmed_address_gets_the_same_answer_and_no_mail() {
    let (server, mut smtp) = site().await;
    confirmed(&server, &mut smtp, "khoa", "khoa@example.org").await;
    let mut unconfirmed = Browser::new(&server);
    unconfirmed
        .register_with(
            json!({"username": "vyvy", "password": "password1", "email": "vy@example.org"}),
        )
        .await;
    smtp.next().await; // vy's confirmation link, left unused

    let (s1, known) = recover(&server, "khoa@example.org").await;
    let (s2, unknown) = recover(&server, "nobody@example.org").await;
    let (s3, pending) = recover(&server, "vy@example.org").await;
    assert_eq!((s1, s2, s3), (202, 202, 202));
    assert_eq!(known, unknown);
    assert_eq!(known, pending);
    let mail = smtp.next().await;
    assert!(mail.contains("To: khoa@example.org"), "{mail}");
    assert!(smtp.nothing_for(500).await, "no mail for the others");

    // Not an address at all is a clear error.
    let (status, body) = recover(&server, "khoa").await;
    assert_eq!(status, 400);
    assert_eq!(body["error"], "bad_email");
}

#[tokio::test]
async fn recovery_is_limited_per_account_and_per_address() {
    let (server, mut smtp) = site().await;
    confirmed(&server, &mut smtp, "thao", "thao@example.org").await;
    // Three links an hour for one account; the answer stays the same.
    for _ in 0..3 {
        let (status, _) = recover(&server, "thao@example.org").await;
        assert_eq!(status, 202);
        smtp.next().await;
    }
    let (status, _) = recover(&server, "thao@example.org").await;
    assert_eq!(status, 202);
    assert!(
        smtp.nothing_for(500).await,
        "the fourth link this hour is not sent"
    );
    // One client address: 5 requests at once (4 so far), then 429.
    let (status, _) = recover(&server, "other@example.org").await;
    assert_eq!(status, 202);
    let (status, body) = recover(&server, "other@example.org").await;
    assert_eq!(status, 429, "{body}");
    assert_eq!(body["error"], "rate_limited");
}

#[tokio::test]
async fn an_email_is_changed_by_confirming_the_new_one_and_removed() {
    let (server, mut smtp) = site().await;
    let mut b = confirmed(&server, &mut smtp, "binh", "binh@example.org").await;
    let a = b
        .post("/api/email", json!({"email": "binh@new.example"}))
        .await;
    assert_eq!(a.status, 202, "{}", a.body);
    let me = b.get("/api/me").await.body;
    assert_eq!(me["email"], "binh@new.example");
    assert_eq!(me["email_confirmed"], false);
    let token = link_token(&smtp.next().await, "/account#confirm=");
    // Confirmed by the link, whoever opens it.
    let mut elsewhere = Browser::new(&server);
    let a = elsewhere
        .post("/api/email/confirm", json!({"token": token}))
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(b.get("/api/me").await.body["email_confirmed"], true);
    // A bad address is refused and changes nothing.
    let a = b
        .post("/api/email", json!({"email": "not an address"}))
        .await;
    assert_eq!(a.status, 400);
    assert_eq!(b.get("/api/me").await.body["email"], "binh@new.example");
    // Removed.
    let a = b.post("/api/email", json!({"email": ""})).await;
    assert_eq!(a.status, 200);
    let me = b.get("/api/me").await.body;
    assert_eq!(me["email"], serde_json::Value::Null);
    let (status, _) = recover(&server, "binh@new.example").await;
    assert_eq!(status, 202);
    assert!(
        smtp.nothing_for(500).await,
        "a removed address gets nothing"
    );
    // Signed out: 401.
    let mut guest = Browser::new(&server);
    assert_eq!(
        guest
            .post("/api/email", json!({"email": "x@y.z"}))
            .await
            .status,
        401
    );
}

#[tokio::test]
async fn a_change_of_address_refused_for_the_hour_changes_nothing() {
    let (server, mut smtp) = site().await;
    let mut b = Browser::new(&server);
    // Registering with an address sent the account its first link.
    register(&mut b, "khoa", "khoa0@example.org").await;
    smtp.next().await;
    for n in 1..3 {
        let email = format!("khoa{n}@example.org");
        let a = b.post("/api/email", json!({"email": email})).await;
        assert_eq!(a.status, 202, "{}", a.body);
    }
    // The two mails may arrive in either order: the last address's link
    // is the one sent to it.
    let mails = [smtp.next().await, smtp.next().await];
    let to_last = mails
        .iter()
        .find(|m| m.contains("khoa2@example.org"))
        .expect("a mail to the last address");
    let last = link_token(to_last, "/account#confirm=");
    // A fourth link this hour: refused, and the address stays the last
    // one, whose link still works.
    let a = b
        .post("/api/email", json!({"email": "khoa3@example.org"}))
        .await;
    assert_eq!(a.status, 429, "{}", a.body);
    assert_eq!(a.body["error"], "rate_limited");
    assert!(smtp.nothing_for(300).await, "no mail for a refused change");
    let me = b.get("/api/me").await.body;
    assert_eq!(me["email"], "khoa2@example.org", "{me}");
    assert_eq!(me["email_confirmed"], false);
    confirm(&mut b, &last).await;
    let me = b.get("/api/me").await.body;
    assert_eq!(
        (me["email"].as_str(), me["email_confirmed"].as_bool()),
        (Some("khoa2@example.org"), Some(true))
    );
}

/// Mails a recovery link for `email`; its token.
async fn recovery_link(server: &TestServer, smtp: &mut FakeSmtp, email: &str) -> String {
    assert_eq!(recover(server, email).await.0, 202);
    link_token(&smtp.next().await, "/reset#")
}

/// A recovery link stops working when its owner removes or changes the
/// address it went to (an attack round took over an account with a link
/// sent before the owner dropped a compromised mailbox).
#[tokio::test]
async fn a_recovery_link_dies_with_the_address_it_went_to() {
    let (server, mut smtp) = site().await;
    let mut minh = confirmed(&server, &mut smtp, "minh", "minh@example.org").await;
    let token = recovery_link(&server, &mut smtp, "minh@example.org").await;
    let removed = minh.post("/api/email", json!({"email": ""})).await;
    assert!(removed.status < 300, "{}", removed.body);
    let mut thief = Browser::new(&server);
    let a = reset(&mut thief, &token, "hijacked-pass").await;
    assert_eq!(
        (a.status, a.body["error"].clone()),
        (400, json!("bad_link"))
    );

    let mut lan = confirmed(&server, &mut smtp, "lan", "lan@example.org").await;
    let token = recovery_link(&server, &mut smtp, "lan@example.org").await;
    let changed = lan
        .post("/api/email", json!({"email": "lan2@example.org"}))
        .await;
    assert!(changed.status < 300, "{}", changed.body);
    let a = reset(&mut thief, &token, "hijacked-pass").await;
    assert_eq!(
        (a.status, a.body["error"].clone()),
        (400, json!("bad_link"))
    );
    let (status, _) = server.log_in("lan", "password1").await;
    assert_eq!(status, 200, "the password stands");
}

/// A password change voids the recovery links sent before it; a reset
/// is a password check of its address (bounded as logins are), and a
/// link that does not work costs no hash.
#[tokio::test]
async fn a_password_change_voids_recovery_links_and_resets_are_bounded() {
    let (server, mut smtp) = site().await;
    let mut hoa = confirmed(&server, &mut smtp, "hoa", "hoa@example.org").await;
    let token = recovery_link(&server, &mut smtp, "hoa@example.org").await;
    let changed = hoa
        .post(
            "/api/password",
            json!({"current": "password1", "new": "password2"}),
        )
        .await;
    assert_eq!(changed.status, 204, "{}", changed.body);
    let mut thief = Browser::new(&server);
    let a = reset(&mut thief, &token, "hijacked-pass").await;
    assert_eq!(
        (a.status, a.body["error"].clone()),
        (400, json!("bad_link"))
    );
    let (status, _) = server.log_in("hoa", "password2").await;
    assert_eq!(status, 200);

    // Links that do not work, from one address: refused quickly, then
    // limited with the address's password checks.
    let started = std::time::Instant::now();
    let mut limited = None;
    for n in 1..=80 {
        let a = reset(&mut thief, &"ab".repeat(16), "whatever-pass").await;
        if a.status == 429 {
            limited = Some(n);
            break;
        }
        assert_eq!(a.body["error"], "bad_link");
    }
    let burst = server::limits::PASSWORD_CHECK_BURST as usize;
    let refills = (started.elapsed().as_secs_f64() / 3.0).ceil() as usize;
    let limited = limited.expect("resets are bounded");
    // Two logins above spent two of the address's checks, the password
    // change one more.
    assert!(
        limited <= burst + refills + 1,
        "limited at {limited} after {:?}",
        started.elapsed()
    );
}
