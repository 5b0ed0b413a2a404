//! A fake SMTP server for tests: accepts every message on 127.0.0.1 and
//! hands each one's text (headers and body) to the test. Just enough of
//! RFC 5321 for lettre's client: EHLO, MAIL, RCPT, DATA, RSET, NOOP, QUIT.

use tokio::io::{AsyncBufReadExt, AsyncWriteExt, BufReader};
use tokio::net::TcpListener;
use tokio::sync::mpsc;

pub struct FakeSmtp {
    /// `smtp://127.0.0.1:PORT`, for `--smtp-url`.
    pub url: String,
    pub received: mpsc::UnboundedReceiver<String>,
}

impl FakeSmtp {
    pub async fn start() -> FakeSmtp {
        let listener = TcpListener::bind("127.0.0.1:0").await.expect("bind");
        let url = format!("smtp://{}", listener.local_addr().expect("addr"));
        let (tx, received) = mpsc::unbounded_channel();
        tokio::spawn(async move {
            while let Ok((stream, _)) = listener.accept().await {
                let tx = tx.clone();
                tokio::spawn(async move {
                    let (read, mut write) = stream.into_split();
                    let mut lines = BufReader::new(read).lines();
                    let _ = write.write_all(b"220 fake ESMTP\r\n").await;
                    while let Ok(Some(line)) = lines.next_line().await {
                        let verb = line.get(..4).unwrap_or("").to_ascii_uppercase();
                        let reply: &[u8] = match verb.as_str() {
                            "EHLO" => b"250-fake\r\n250 8BITMIME\r\n",
                            "HELO" | "MAIL" | "RCPT" | "RSET" | "NOOP" => b"250 ok\r\n",
                            "DATA" => {
                                let _ = write.write_all(b"354 go on\r\n").await;
                                let mut text = String::new();
                                while let Ok(Some(l)) = lines.next_line().await {
                                    if l == "." {
                                        break;
                                    }
                                    text.push_str(&l);
                                    text.push('\n');
                                }
                                let _ = tx.send(text);
                                b"250 queued\r\n"
                            }
                            "QUIT" => {
                                let _ = write.write_all(b"221 bye\r\n").await;
                                break;
                            }
                            _ => b"502 no\r\n",
                        };
                        if write.write_all(reply).await.is_err() {
                            break;
                        }
                    }
                });
            }
        });
        FakeSmtp { url, received }
    }

    /// The next message, within 10 s.
    pub async fn next(&mut self) -> String {
        tokio::time::timeout(std::time::Duration::from_secs(10), self.received.recv())
            .await
            .expect("a mail within 10 s")
            .expect("the fake server runs")
    }

    /// No message within `ms` milliseconds.
    pub async fn nothing_for(&mut self, ms: u64) -> bool {
        tokio::time::timeout(std::time::Duration::from_millis(ms), self.received.recv())
            .await
            .is_err()
    }
}

/// The token of the link `…{marker}TOKEN` in a mail (quoted-printable
/// soft line breaks undone).
pub fn link_token(mail: &str, marker: &str) -> String {
    let text = mail.replace("=\n", "").replace("=3D", "=");
    let start = text.find(marker).expect("the link") + marker.len();
    text[start..]
        .chars()
        .take_while(|c| c.is_ascii_alphanumeric())
        .collect()
}

/// Registers `name` with `email` in `b` (a new account, signed in).
pub async fn register(b: &mut super::browser::Browser, name: &str, email: &str) {
    b.register_with(serde_json::json!({"username": name, "password": "password1", "email": email}))
        .await;
}

/// `POST /api/reset` from `b`: the mailed link's `token` and a new
/// `password`.
pub async fn reset(
    b: &mut super::browser::Browser,
    token: &str,
    password: &str,
) -> super::browser::Answer {
    b.post(
        "/api/reset",
        serde_json::json!({"token": token, "password": password}),
    )
    .await
}

/// Confirms the address of `b`'s account by the token of its mailed link.
pub async fn confirm(b: &mut super::browser::Browser, token: &str) {
    let a = b
        .post("/api/email/confirm", serde_json::json!({"token": token}))
        .await;
    assert_eq!(a.status, 200, "{}", a.body);
}
