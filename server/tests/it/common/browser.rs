//! One browser over HTTP: it keeps the `session` cookie the server sets,
//! as a browser does, and sends it back with every request and on the
//! WebSocket upgrade.

use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

use super::{Client, Joined, TestServer};

/// An answer: status, JSON body (`null` when empty) and the raw
/// `Set-Cookie` header, if any.
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub set_cookie: Option<String>,
    /// Every `Set-Cookie` of the answer, in order.
    pub set_cookies: Vec<String>,
}

#[derive(Clone)]
pub struct Browser {
    pub base: String,
    /// The `session` cookie's value, while the browser has one.
    pub session: Option<String>,
    http: reqwest::Client,
}

impl Browser {
    pub fn new(server: &TestServer) -> Browser {
        Browser {
            base: server.base.clone(),
            session: None,
            http: reqwest::Client::new(),
        }
    }

    /// Sends a request with the session cookie; keeps (or forgets) the
    /// cookie as `Set-Cookie` says.
    pub async fn send(
        &mut self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
    ) -> Answer {
        self.send_with(method, path, body, &[]).await
    }

    /// [`send`](Self::send) with extra request headers.
    pub async fn send_with(
        &mut self,
        method: reqwest::Method,
        path: &str,
        body: Option<Value>,
        headers: &[(&str, &str)],
    ) -> Answer {
        let mut req = self
            .http
            .request(method, format!("{}{path}", self.base))
            .header("User-Agent", "TestBrowser/1.0");
        for (name, value) in headers {
            req = req.header(*name, *value);
        }
        if let Some(secret) = &self.session {
            req = req.header("Cookie", format!("other=1; session={secret}"));
        }
        if let Some(body) = body {
            req = req.json(&body);
        }
        let resp = req.send().await.expect("request");
        let status = resp.status().as_u16();
        let set_cookies: Vec<String> = resp
            .headers()
            .get_all("set-cookie")
            .iter()
            .map(|v| v.to_str().expect("ASCII cookie").to_string())
            .collect();
        let set_cookie = set_cookies.first().cloned();
        if let Some(cookie) = &set_cookie {
            let value = cookie
                .split(';')
                .next()
                .and_then(|kv| kv.trim().strip_prefix("session="))
                .expect("a session cookie");
            let forget = cookie.contains("Max-Age=0") || value.is_empty();
            self.session = (!forget).then(|| value.to_string());
        }
        let text = resp.text().await.expect("body");
        let body = if text.is_empty() {
            Value::Null
        } else {
            serde_json::from_str(&text).expect("JSON body")
        };
        Answer {
            status,
            body,
            set_cookie,
            set_cookies,
        }
    }

    pub async fn post(&mut self, path: &str, body: Value) -> Answer {
        self.send(reqwest::Method::POST, path, Some(body)).await
    }

    pub async fn get(&mut self, path: &str) -> Answer {
        self.send(reqwest::Method::GET, path, None).await
    }

    pub async fn get_with(&mut self, path: &str, headers: &[(&str, &str)]) -> Answer {
        self.send_with(reqwest::Method::GET, path, None, headers)
            .await
    }

    pub async fn delete(&mut self, path: &str) -> Answer {
        self.send(reqwest::Method::DELETE, path, None).await
    }

    /// Registers `username` with `password`; the browser is then signed
    /// in. Panics unless the server says 201.
    pub async fn register(&mut self, username: &str, password: &str) -> Value {
        self.register_with(json!({"username": username, "password": password}))
            .await
    }

    /// `POST /api/accounts` with `body` (an email or a browser token
    /// besides the username and password); the answer's body. Panics
    /// unless the server says 201.
    pub async fn register_with(&mut self, body: Value) -> Value {
        let answer = self.sign_up(body.clone()).await;
        assert_eq!(answer.status, 201, "register {body}: {}", answer.body);
        answer.body
    }

    /// `POST /api/accounts` with `body`, whatever the answer.
    pub async fn sign_up(&mut self, body: Value) -> Answer {
        self.post("/api/accounts", body).await
    }

    /// `POST /api/login` as `username` with `password`.
    pub async fn log_in(&mut self, username: &str, password: &str) -> Answer {
        self.log_in_with(json!({"username": username, "password": password}))
            .await
    }

    /// `POST /api/login` with `body` (a browser token besides the
    /// username and password, say).
    pub async fn log_in_with(&mut self, body: Value) -> Answer {
        self.post("/api/login", body).await
    }

    /// A new browser on `server`, logged in as `username` with
    /// `password`. Panics unless the server says 200.
    pub async fn logged_in(server: &TestServer, username: &str, password: &str) -> Browser {
        let mut browser = Browser::new(server);
        let answer = browser.log_in(username, password).await;
        assert_eq!(answer.status, 200, "log in {username}: {}", answer.body);
        browser
    }

    /// `POST /api/password` from `current` to `new`.
    pub async fn change_password(&mut self, current: &str, new: &str) -> Answer {
        self.post("/api/password", json!({"current": current, "new": new}))
            .await
    }

    /// Opens a socket to room `code` with the session cookie and says
    /// hello; returns the client, its token and the snapshot.
    pub async fn join(&self, code: &str, token: Option<&str>, name: Option<&str>) -> Joined {
        let url = format!("{}/ws/{code}", self.base.replace("http://", "ws://"));
        socket(&url, self.session.as_deref())
            .await
            .hello(token, name)
            .await
    }

    /// A socket, with this browser's session, to a new room on `server`
    /// (another node's, say); panics unless the snapshot names the
    /// account.
    pub async fn signed_in_socket(&self, server: &TestServer) -> Client {
        let (status, room) = server.create_room(json!({})).await;
        assert_eq!(status, 201, "{room}");
        let code = room["code"].as_str().unwrap();
        let (client, _, snapshot) = self.join(code, None, Some("Minh")).await;
        assert!(
            snapshot["you"]["account"].is_string(),
            "signed in: {snapshot}"
        );
        client
    }
}

/// A password change closes the other sessions' sockets and keeps its
/// own: registers `lan` (password `password1`) on `here`, logs it in on
/// `there` too (another node, or the same server), opens a signed-in
/// socket on each and changes the password to `password2` from `here`.
/// Gives back that browser and its socket, still open.
pub async fn a_password_change_closes_the_other_socket(
    here: &TestServer,
    there: &TestServer,
) -> (Browser, Client) {
    let mut mine = Browser::new(here);
    mine.register("lan", "password1").await;
    let theirs = Browser::logged_in(there, "lan", "password1").await;
    let mut their_socket = theirs.signed_in_socket(there).await;
    let mut my_socket = mine.signed_in_socket(here).await;
    let changed = mine.change_password("password1", "password2").await;
    assert_eq!(changed.status, 204, "{}", changed.body);
    assert_eq!(their_socket.close_code().await, Some(4001));
    let answer = my_socket
        .command(json!({"type": "chat", "text": "still here"}))
        .await;
    assert_eq!(answer["type"], "ack", "{answer}");
    (mine, my_socket)
}

/// The WebSocket upgrade to `url` (a room's or the lobby's) from the local
/// address `from` (any of 127.0.0.0/8: each is its own client address),
/// with the session cookie `session` when given: the socket, or the
/// upgrade's refusal.
pub async fn upgrade_from(
    url: &str,
    from: &str,
    session: Option<&str>,
) -> Result<Client, tokio_tungstenite::tungstenite::Error> {
    let mut request = url.into_client_request().expect("ws request");
    if let Some(secret) = session {
        request.headers_mut().insert(
            "cookie",
            HeaderValue::from_str(&format!("session={secret}")).expect("cookie"),
        );
    }
    let server: std::net::SocketAddr = url
        .trim_start_matches("ws://")
        .split('/')
        .next()
        .and_then(|host| host.parse().ok())
        .expect("url is ws://host:port/…");
    let socket = tokio::net::TcpSocket::new_v4().expect("socket");
    socket
        .bind(std::net::SocketAddr::new(
            from.parse().expect("an IPv4 address"),
            0,
        ))
        .expect("bind the local address");
    let tcp = socket.connect(server).await.expect("tcp connects");
    let (ws, _) =
        tokio_tungstenite::client_async(request, tokio_tungstenite::MaybeTlsStream::Plain(tcp))
            .await?;
    Ok(Client::new(ws))
}

/// A room of `game` against the computer, created by `browser` (its
/// account's, or a guest's without a session), its host "Minh" joining
/// from the local address `from` with the browser's session, seated
/// against the Beginner: the host's client (no game started).
pub async fn against_the_computer_from(
    server: &TestServer,
    browser: &mut Browser,
    game: &str,
    from: &str,
) -> Client {
    let created = browser.post("/api/rooms", json!({"game": game})).await;
    assert_eq!(created.status, 201, "{}", created.body);
    let code = created.body["code"].as_str().unwrap();
    let token = created.body["token"].as_str().unwrap();
    let socket = upgrade_from(&server.ws_url(code), from, browser.session.as_deref())
        .await
        .expect("the socket opens");
    let (mut host, _, _) = socket.hello(Some(token), Some("Minh")).await;
    host.ok(json!({"type": "sit", "seat": 0})).await;
    host.ok(json!({"type": "computer", "seat": 1, "level": "beginner"}))
        .await;
    host
}

/// A WebSocket to `url` (a room's or the lobby's), sending the session
/// cookie `session` when given.
pub async fn socket(url: &str, session: Option<&str>) -> Client {
    let mut request = url.into_client_request().expect("ws request");
    if let Some(secret) = session {
        request.headers_mut().insert(
            "cookie",
            HeaderValue::from_str(&format!("session={secret}")).expect("cookie"),
        );
    }
    let (ws, _) = tokio_tungstenite::connect_async(request)
        .await
        .expect("ws connects");
    Client::new(ws)
}
