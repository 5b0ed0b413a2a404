//! Issue 24, over the real HTTP and WebSocket API: no request chooses the
//! host of a link (mail, invite, QR, snapshot); a page of another origin
//! changes nothing; answers over TLS carry HSTS; concurrent wrong
//! passwords get at most the burst of checks; the confirmation mails per
//! account; and ending a session signs its open
//! sockets out (close 4001).

use crate::common;

use common::browser::{a_password_change_closes_the_other_socket, Browser};
use common::smtp::{confirm, link_token, register, reset, FakeSmtp};
use common::{Client, TestServer};
use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

/// `method path` with extra headers and a JSON body; the status and body.
async fn send(
    server: &TestServer,
    method: reqwest::Method,
    path: &str,
    headers: &[(&str, &str)],
    body: Value,
) -> (u16, Value, reqwest::header::HeaderMap) {
    let mut req = reqwest::Client::new().request(method, format!("{}{path}", server.base));
    for (name, value) in headers {
        req = req.header(*name, *value);
    }
    let resp = req.json(&body).send().await.expect("request");
    let status = resp.status().as_u16();
    let headers = resp.headers().clone();
    let text = resp.text().await.expect("body");
    (
        status,
        serde_json::from_str(&text).unwrap_or(Value::Null),
        headers,
    )
}

async fn post(
    server: &TestServer,
    path: &str,
    headers: &[(&str, &str)],
    body: Value,
) -> (u16, Value) {
    let (status, body, _) = send(server, reqwest::Method::POST, path, headers, body).await;
    (status, body)
}

async fn with_mail(tweak: impl FnOnce(&mut server::Config)) -> (TestServer, FakeSmtp) {
    let smtp = FakeSmtp::start().await;
    let url = smtp.url.clone();
    let server = TestServer::start_with(move |c| {
        c.smtp_url = Some(url);
        tweak(c);
    })
    .await;
    (server, smtp)
}

/// Registers `name` with `email` and confirms it by the mailed link.
async fn confirmed(server: &TestServer, smtp: &mut FakeSmtp, name: &str, email: &str) {
    let mut b = Browser::new(server);
    register(&mut b, name, email).await;
    let token = link_token(&smtp.next().await, "/account#confirm=");
    confirm(&mut b, &token).await;
}

/// The link of a mail, soft line breaks undone.
fn mail_text(mail: &str) -> String {
    mail.replace("=\n", "").replace("=3D", "=")
}

#[tokio::test]
async fn a_hostile_host_never_gets_a_mailed_link() {
    // No --public-url, no --allowed-host: no mail leaves at all, whatever
    // the Host (the links go to the log).
    let (server, mut smtp) = with_mail(|_| {}).await;
    let (status, body) = post(
        &server,
        "/api/accounts",
        &[("Host", "evil.example")],
        json!({"username": "minh", "password": "password1", "email": "minh@example.org"}),
    )
    .await;
    assert_eq!(status, 201, "{body}");
    let (status, _) = post(
        &server,
        "/api/recover",
        &[("Host", "evil.example")],
        json!({"email": "minh@example.org"}),
    )
    .await;
    assert_eq!(status, 202);
    assert!(smtp.nothing_for(800).await, "no mail without a fixed host");

    // --allowed-host: a request's Host is used only if it is allowed; any
    // other gets the first allowed host.
    let (server, mut smtp) =
        with_mail(|c| c.allowed_hosts = vec!["games.example:8080".into()]).await;
    confirmed(&server, &mut smtp, "lan", "lan@example.org").await;
    let (status, _) = post(
        &server,
        "/api/recover",
        &[("Host", "evil.example")],
        json!({"email": "lan@example.org"}),
    )
    .await;
    assert_eq!(status, 202);
    let mail = mail_text(&smtp.next().await);
    assert!(!mail.contains("evil.example"), "{mail}");
    assert!(mail.contains("http://games.example:8080/reset#"), "{mail}");

    // --public-url: always that.
    let (server, mut smtp) =
        with_mail(|c| c.public_url = Some("https://play.example".into())).await;
    confirmed(&server, &mut smtp, "khoa", "khoa@example.org").await;
    for host in ["evil.example", "games.example:8080"] {
        let (status, _) = post(
            &server,
            "/api/recover",
            &[("Host", host)],
            json!({"email": "khoa@example.org"}),
        )
        .await;
        assert_eq!(status, 202);
        let mail = mail_text(&smtp.next().await);
        assert!(!mail.contains(host), "{mail}");
        assert!(mail.contains("https://play.example/reset#"), "{mail}");
    }
}

/// The SVG the server draws for `link`.
fn qr_of(link: &str) -> String {
    qrcode::QrCode::new(link.as_bytes())
        .unwrap()
        .render::<qrcode::render::svg::Color>()
        .min_dimensions(200, 200)
        .quiet_zone(true)
        .build()
}

/// A socket to `code` sent with `headers` (Host, Origin, …), or the
/// upgrade's refusal status.
async fn socket_with(
    server: &TestServer,
    code: &str,
    headers: &[(&str, &str)],
) -> Result<Client, u16> {
    let url = format!("{}/ws/{code}", server.base.replace("http://", "ws://"));
    let mut request = url.into_client_request().unwrap();
    for (name, value) in headers {
        request.headers_mut().insert(
            tokio_tungstenite::tungstenite::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(value).unwrap(),
        );
    }
    match tokio_tungstenite::connect_async(request).await {
        Ok((ws, _)) => Ok(Client::new(ws)),
        Err(tokio_tungstenite::tungstenite::Error::Http(resp)) => Err(resp.status().as_u16()),
        Err(e) => panic!("{e}"),
    }
}

/// PROTOCOL.md, "Links and origins": every loopback name or address on
/// our port names the links as the request wrote it, in lower case (any
/// of 127.0.0.0/8, `[::1]`, IPv4-mapped, `localhost` in any case); an
/// address outside loopback does not.
#[tokio::test]
async fn any_loopback_host_on_our_port_names_the_links() {
    let server = TestServer::start().await;
    let own = server.base.clone();
    let port = own.rsplit(':').next().unwrap().to_string();
    for (host, named) in [
        ("127.0.0.2", true),
        ("127.255.255.254", true),
        ("[::1]", true),
        ("[::ffff:127.0.0.1]", true),
        ("LocalHost", true),
        ("128.0.0.1", false),
    ] {
        let host = format!("{host}:{port}");
        let (status, room) = post(&server, "/api/rooms", &[("Host", &host)], json!({})).await;
        assert_eq!(status, 201, "{host}: {room}");
        let code = room["code"].as_str().unwrap();
        let base = if named {
            format!("http://{}", host.to_ascii_lowercase())
        } else {
            own.clone()
        };
        assert_eq!(room["link"], format!("{base}/r/{code}"), "{host}");
    }
}

#[tokio::test]
async fn invite_links_qr_and_snapshots_ignore_a_hostile_host() {
    let server = TestServer::start().await;
    let own = server.base.clone(); // http://127.0.0.1:PORT, the listening address
    let (status, room) = post(
        &server,
        "/api/rooms",
        &[("Host", "evil.example")],
        json!({}),
    )
    .await;
    assert_eq!(status, 201, "{room}");
    let code = room["code"].as_str().unwrap().to_string();
    assert_eq!(room["link"], format!("{own}/r/{code}"));
    // A loopback name on our port is the visitor's own machine: allowed.
    let port = own.rsplit(':').next().unwrap();
    let local = format!("localhost:{port}");
    let (_, room2) = post(&server, "/api/rooms", &[("Host", &local)], json!({})).await;
    let code2 = room2["code"].as_str().unwrap();
    assert_eq!(room2["link"], format!("http://{local}/r/{code2}"));
    // A loopback name on another port is not.
    let (_, room3) = post(&server, "/api/rooms", &[("Host", "localhost:1")], json!({})).await;
    let code3 = room3["code"].as_str().unwrap();
    assert_eq!(room3["link"], format!("{own}/r/{code3}"));

    let (status, _, headers) = send(
        &server,
        reqwest::Method::GET,
        &format!("/api/rooms/{code}/qr.svg"),
        &[("Host", "evil.example")],
        Value::Null,
    )
    .await;
    assert_eq!(status, 200);
    let resp = reqwest::Client::new()
        .get(format!("{}/api/rooms/{code}/qr.svg", server.base))
        .header("Host", "evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(
        resp.text().await.unwrap(),
        qr_of(&format!("{own}/r/{code}"))
    );
    let cache = headers["cache-control"].to_str().unwrap();
    assert!(cache.starts_with("private"), "{cache}");
    let vary = headers
        .get_all("vary")
        .iter()
        .map(|v| v.to_str().unwrap().to_lowercase())
        .collect::<Vec<_>>()
        .join(",");
    assert!(vary.contains("host"), "{vary}");

    // The snapshot's link too.
    let client = socket_with(&server, &code, &[("Host", "evil.example")])
        .await
        .expect("upgrade");
    let (_, _, snapshot) = client.hello(None, Some("Minh")).await;
    assert_eq!(
        snapshot["room"]["link"],
        format!("{own}/r/{code}"),
        "{snapshot}"
    );

    // With --public-url, everything uses it.
    let public =
        TestServer::start_with(|c| c.public_url = Some("https://play.example".into())).await;
    for host in ["evil.example", local.as_str()] {
        let (_, room) = post(&public, "/api/rooms", &[("Host", host)], json!({})).await;
        let code = room["code"].as_str().unwrap();
        assert_eq!(room["link"], format!("https://play.example/r/{code}"));
        let svg = reqwest::Client::new()
            .get(format!("{}/api/rooms/{code}/qr.svg", public.base))
            .header("Host", host)
            .send()
            .await
            .unwrap()
            .text()
            .await
            .unwrap();
        assert_eq!(svg, qr_of(&format!("https://play.example/r/{code}")));
        let client = socket_with(&public, code, &[("Host", host)]).await.unwrap();
        let (_, _, snapshot) = client.hello(None, Some("Lan")).await;
        assert_eq!(
            snapshot["room"]["link"],
            format!("https://play.example/r/{code}")
        );
    }
}

/// Every route that changes something, with a body it accepts in shape.
fn changing_routes() -> Vec<(reqwest::Method, &'static str, Value)> {
    use reqwest::Method;
    vec![
        (Method::POST, "/api/rooms", json!({})),
        (Method::POST, "/api/games/import", json!({})),
        (
            Method::POST,
            "/api/accounts",
            json!({"username": "mallory", "password": "password1"}),
        ),
        (
            Method::POST,
            "/api/login",
            json!({"username": "victim", "password": "password1"}),
        ),
        (Method::POST, "/api/logout", json!({})),
        (Method::DELETE, "/api/sessions", json!({})),
        (Method::DELETE, "/api/sessions/1", json!({})),
        (
            Method::POST,
            "/api/password",
            json!({"current": "password1", "new": "password2"}),
        ),
        (Method::POST, "/api/checkin", json!({})),
        (
            Method::POST,
            "/api/shop/buy",
            json!({"item": "jungle-drawn"}),
        ),
        (
            Method::POST,
            "/api/shop/choose",
            json!({"item": "jungle-drawn"}),
        ),
        (
            Method::POST,
            "/api/email",
            json!({"email": "x@example.org"}),
        ),
        (
            Method::POST,
            "/api/email/confirm",
            json!({"token": "0123456789abcdef0123456789abcdef"}),
        ),
        (
            Method::POST,
            "/api/recover",
            json!({"email": "x@example.org"}),
        ),
        (
            Method::POST,
            "/api/reset",
            json!({"token": "0123456789abcdef0123456789abcdef", "password": "password2"}),
        ),
    ]
}

#[tokio::test]
async fn a_page_of_another_origin_changes_nothing() {
    let server = TestServer::start().await;
    let port = server.base.rsplit(':').next().unwrap().to_string();
    let mut victim = Browser::new(&server);
    victim.register("victim", "password1").await;
    let cookie = format!("session={}", victim.session.clone().unwrap());
    let foreign = [
        vec![("Origin", "http://localhost:3000".to_string())],
        vec![("Origin", "https://evil.example".to_string())],
        vec![("Origin", "null".to_string())],
        vec![("Sec-Fetch-Site", "same-site".to_string())],
        vec![("Sec-Fetch-Site", "cross-site".to_string())],
    ];
    for (method, path, body) in changing_routes() {
        for extra in &foreign {
            let mut headers: Vec<(&str, &str)> = vec![("Cookie", &cookie)];
            headers.extend(extra.iter().map(|(n, v)| (*n, v.as_str())));
            let (status, answer, _) =
                send(&server, method.clone(), path, &headers, body.clone()).await;
            assert_eq!(
                (status, answer["error"].as_str()),
                (403, Some("bad_origin")),
                "{method} {path} with {extra:?}: {answer}"
            );
        }
    }
    // Nothing happened: still signed in, no coins checked in.
    let me = victim.get("/api/me").await;
    assert_eq!(me.status, 200, "the forged logout did nothing");
    assert_eq!(me.body["checked_in_today"], false);
    // Our own origins pass: the page's own host, a loopback name on our
    // port, and a request with no Origin (not a browser page).
    let own = server.base.clone();
    let local = format!("http://localhost:{port}");
    for origin in [own.as_str(), local.as_str()] {
        let (status, body, _) = send(
            &server,
            reqwest::Method::POST,
            "/api/checkin",
            &[("Cookie", &cookie), ("Origin", origin)],
            json!({}),
        )
        .await;
        assert_eq!(status, 200, "{origin}: {body}");
    }
    let (status, _, _) = send(
        &server,
        reqwest::Method::POST,
        "/api/logout",
        &[("Cookie", &cookie), ("Sec-Fetch-Site", "same-origin")],
        json!({}),
    )
    .await;
    assert_eq!(status, 204);

    // The socket upgrade follows the same rule.
    let (_, room) = post(&server, "/api/rooms", &[], json!({})).await;
    let code = room["code"].as_str().unwrap();
    assert_eq!(
        socket_with(&server, code, &[("Origin", "http://localhost:3000")])
            .await
            .err(),
        Some(403)
    );
    assert!(socket_with(&server, code, &[("Origin", &local)])
        .await
        .is_ok());
}

#[tokio::test]
async fn answers_over_tls_carry_hsts() {
    let get_hsts = |server: &TestServer, headers: Vec<(&'static str, &'static str)>| {
        let url = format!("{}/api/site", server.base);
        async move {
            let mut req = reqwest::Client::new().get(url);
            for (n, v) in headers {
                req = req.header(n, v);
            }
            let resp = req.send().await.unwrap();
            resp.headers()
                .get("strict-transport-security")
                .map(|v| v.to_str().unwrap().to_string())
        }
    };
    let plain = TestServer::start().await;
    assert_eq!(get_hsts(&plain, vec![]).await, None);
    assert_eq!(
        get_hsts(&plain, vec![("X-Forwarded-Proto", "https")]).await,
        None,
        "only a trusted proxy's word counts"
    );
    let public =
        TestServer::start_with(|c| c.public_url = Some("https://play.example".into())).await;
    assert_eq!(
        get_hsts(&public, vec![]).await.as_deref(),
        Some("max-age=31536000")
    );
    let proxied =
        TestServer::start_with(|c| c.trusted_proxies = vec!["127.0.0.1".parse().unwrap()]).await;
    assert_eq!(get_hsts(&proxied, vec![]).await, None);
    assert_eq!(
        get_hsts(&proxied, vec![("X-Forwarded-Proto", "https")])
            .await
            .as_deref(),
        Some("max-age=31536000")
    );
}

#[tokio::test]
async fn concurrent_wrong_passwords_get_at_most_the_burst_of_checks() {
    let server = TestServer::start().await;
    let mut owner = Browser::new(&server);
    owner.register("target", "password1").await;
    let tries = 30;
    let answers = futures_util::future::join_all((0..tries).map(|i| {
        let server = &server;
        async move {
            post(
                server,
                "/api/login",
                &[],
                json!({"username": "target", "password": format!("wrong-guess-{i}")}),
            )
            .await
            .0
        }
    }))
    .await;
    let checked = answers.iter().filter(|s| **s == 401).count();
    let limited = answers.iter().filter(|s| **s == 429).count();
    assert_eq!(checked + limited, tries, "{answers:?}");
    assert_eq!(checked, server::limits::LOGIN_BURST as usize, "{answers:?}");

    // The same for /api/password, from another address's allowance (a
    // fresh server: the login allowance above is spent).
    let server = TestServer::start().await;
    let mut owner = Browser::new(&server);
    owner.register("target", "password1").await;
    let cookie = format!("session={}", owner.session.clone().unwrap());
    let answers = futures_util::future::join_all((0..tries).map(|i| {
        let (server, cookie) = (&server, &cookie);
        async move {
            post(
                server,
                "/api/password",
                &[("Cookie", cookie)],
                json!({"current": format!("wrong-guess-{i}"), "new": "password2"}),
            )
            .await
            .0
        }
    }))
    .await;
    let checked = answers.iter().filter(|s| **s == 403).count();
    let limited = answers.iter().filter(|s| **s == 429).count();
    assert_eq!(checked + limited, tries, "{answers:?}");
    assert_eq!(checked, server::limits::LOGIN_BURST as usize, "{answers:?}");
}

#[tokio::test]
async fn a_right_password_gives_its_token_back() {
    let server = TestServer::start().await;
    Browser::new(&server).register("minh", "password1").await;
    // Many right logins in a row never run into the failed-login limit.
    for _ in 0..(server::limits::LOGIN_BURST + 3) {
        let (status, body) = post(
            &server,
            "/api/login",
            &[],
            json!({"username": "minh", "password": "password1"}),
        )
        .await;
        assert_eq!(status, 200, "{body}");
    }
}

#[tokio::test]
async fn an_account_gets_three_confirmation_mails_an_hour() {
    let (server, mut smtp) = with_mail(|c| c.public_url = Some("http://play.example".into())).await;
    let mut b = Browser::new(&server);
    b.register("thao", "password1").await;
    for i in 0..3 {
        let a = b
            .post(
                "/api/email",
                json!({"email": format!("thao{i}@example.org")}),
            )
            .await;
        assert_eq!(a.status, 202, "{}", a.body);
        assert!(smtp.next().await.contains(&format!("thao{i}@example.org")));
    }
    let a = b
        .post("/api/email", json!({"email": "thao3@example.org"}))
        .await;
    assert_eq!(a.status, 429, "{}", a.body);
    assert_eq!(a.body["error"], "rate_limited");
    assert!(smtp.nothing_for(500).await, "the fourth is not sent");

    // Concurrent requests for one account do not get past it either (a
    // fresh server: this address's mail allowance is spent).
    let (server, _smtp) = with_mail(|c| c.public_url = Some("http://play.example".into())).await;
    let mut b = Browser::new(&server);
    b.register("khoa", "password1").await;
    let cookie = format!("session={}", b.session.clone().unwrap());
    let answers = futures_util::future::join_all((0..5).map(|i| {
        let (server, cookie) = (&server, &cookie);
        async move {
            post(
                server,
                "/api/email",
                &[("Cookie", cookie)],
                json!({"email": format!("khoa{i}@example.org")}),
            )
            .await
            .0
        }
    }))
    .await;
    let sent = answers.iter().filter(|s| **s == 202).count();
    assert_eq!(sent, 3, "{answers:?}");
    assert_eq!(answers.iter().filter(|s| **s == 429).count(), 2);
}

#[tokio::test]
async fn ending_a_session_signs_its_sockets_out() {
    let server = TestServer::start().await;
    // Logout.
    let mut minh = Browser::new(&server);
    minh.register("minh", "password1").await;
    let mut socket = minh.signed_in_socket(&server).await;
    assert_eq!(minh.post("/api/logout", json!({})).await.status, 204);
    assert_eq!(socket.close_code().await, Some(4001));

    // A password change: the other sessions' sockets close, this one's
    // stays.
    let (mut here, mut mine) = a_password_change_closes_the_other_socket(&server, &server).await;

    // Log out everywhere else, and ending one session by id.
    let mut other = Browser::new(&server);
    other.log_in("lan", "password2").await;
    let mut theirs = other.signed_in_socket(&server).await;
    assert_eq!(here.delete("/api/sessions").await.status, 200);
    assert_eq!(theirs.close_code().await, Some(4001));
    let answer = mine.command(json!({"type": "chat", "text": "still"})).await;
    assert_eq!(answer["type"], "ack", "{answer}");
    let list = here.get("/api/sessions").await.body;
    let id = list["sessions"][0]["id"].as_i64().unwrap();
    assert_eq!(
        here.delete(&format!("/api/sessions/{id}")).await.status,
        204
    );
    assert_eq!(mine.close_code().await, Some(4001));

    // A socket opened with a session that has since ended is a guest's.
    let (_, room) = post(&server, "/api/rooms", &[], json!({})).await;
    let code = room["code"].as_str().unwrap();
    let (_, _, snapshot) = here.join(code, None, Some("Lan")).await;
    assert!(snapshot["you"]["account"].is_null(), "{snapshot}");
}

#[tokio::test]
async fn a_password_reset_signs_out_every_socket_of_the_account() {
    let (server, mut smtp) = with_mail(|c| c.public_url = Some("http://play.example".into())).await;
    confirmed(&server, &mut smtp, "khoa", "khoa@example.org").await;
    let mut old = Browser::new(&server);
    old.log_in("khoa", "password1").await;
    let mut socket = old.signed_in_socket(&server).await;
    post(
        &server,
        "/api/recover",
        &[],
        json!({"email": "khoa@example.org"}),
    )
    .await;
    let token = link_token(&smtp.next().await, "/reset#");
    let mut lost = Browser::new(&server);
    let a = reset(&mut lost, &token, "brand-new-pass").await;
    assert_eq!(a.status, 200, "{}", a.body);
    assert_eq!(socket.close_code().await, Some(4001));
}

#[tokio::test]
async fn expired_and_ended_sessions_are_not_live() {
    // What the periodic sweep asks the store: only live sessions come
    // back.
    let dir = tempfile::tempdir().unwrap();
    let store = server::store::Store::open(None, dir.path()).await.unwrap();
    let now = server::model::now_millis();
    let mut ids = Vec::new();
    for (i, name) in ["aa1", "bb2", "cc3"].iter().enumerate() {
        let secret = format!("{:032x}", i + 1);
        let session = server::store::NewSession {
            secret: &secret,
            agent: "test",
            now,
        };
        let (account, id) = store
            .create_account(name, "hash", None, Some(session), now)
            .await
            .unwrap()
            .unwrap();
        ids.push((account.id, id.unwrap()));
    }
    let all: Vec<i64> = ids.iter().map(|(_, s)| *s).collect();
    assert_eq!(store.live_sessions(&all, now).await.unwrap().len(), 3);
    store.end_session(ids[1].0, ids[1].1).await.unwrap();
    let later = now + server::store::SESSION_IDLE_MS + 1;
    assert_eq!(
        store.live_sessions(&all, now).await.unwrap(),
        vec![all[0], all[2]]
    );
    assert!(store.live_sessions(&all, later).await.unwrap().is_empty());
}

#[tokio::test]
async fn a_session_that_expires_signs_its_socket_out() {
    let server = TestServer::start_with(|c| c.session_sweep_secs = 1).await;
    let mut minh = Browser::new(&server);
    minh.register("minh", "password1").await;
    let mut socket = minh.signed_in_socket(&server).await;
    // The session was last used 30 days and a minute ago.
    server
        .age_sessions(server::store::SESSION_IDLE_MS + 60_000)
        .await;
    assert_eq!(socket.close_code().await, Some(4001));
}
