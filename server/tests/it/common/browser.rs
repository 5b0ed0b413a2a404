//! One browser over HTTP: it keeps the `session` cookie the server sets,
//! as a browser does, and sends it back with every request and on the
//! WebSocket upgrade.

use serde_json::{json, Value};
use tokio_tungstenite::tungstenite::client::IntoClientRequest;
use tokio_tungstenite::tungstenite::http::HeaderValue;

use super::{Client, TestServer};

/// An answer: status, JSON body (`null` when empty) and the raw
/// `Set-Cookie` header, if any.
pub struct Answer {
    pub status: u16,
    pub body: Value,
    pub set_cookie: Option<String>,
}

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
        let set_cookie = resp
            .headers()
            .get("set-cookie")
            .map(|v| v.to_str().expect("ASCII cookie").to_string());
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
        let answer = self
            .post(
                "/api/accounts",
                json!({"username": username, "password": password}),
            )
            .await;
        assert_eq!(answer.status, 201, "register {username}: {}", answer.body);
        answer.body
    }

    /// Opens a socket to room `code` with the session cookie and says
    /// hello; returns the client, its token and the snapshot.
    pub async fn join(
        &self,
        code: &str,
        token: Option<&str>,
        name: Option<&str>,
    ) -> (Client, String, Value) {
        let url = format!("{}/ws/{code}", self.base.replace("http://", "ws://"));
        let mut request = url.into_client_request().expect("ws request");
        if let Some(secret) = &self.session {
            request.headers_mut().insert(
                "cookie",
                HeaderValue::from_str(&format!("session={secret}")).expect("cookie"),
            );
        }
        let (ws, _) = tokio_tungstenite::connect_async(request)
            .await
            .expect("ws connects");
        Client::new(ws).hello(token, name).await
    }
}
