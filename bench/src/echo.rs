//! The ceiling: a minimal tokio-tungstenite echo server on this machine,
//! driven by as many clients as the scenario had, each sending a message
//! of a move's size and waiting for it to come back, as a player sends a
//! move and waits for the ack. The server's figure divided by this one
//! says how close to the bare WebSocket cost it runs.

use std::net::SocketAddr;
use std::time::Instant;

use futures_util::{SinkExt, StreamExt};
use tokio::net::TcpListener;
use tokio_tungstenite::tungstenite::Message;

async fn serve() -> anyhow::Result<SocketAddr> {
    let listener = TcpListener::bind("127.0.0.1:0").await?;
    let addr = listener.local_addr()?;
    tokio::spawn(async move {
        while let Ok((tcp, _)) = listener.accept().await {
            let _ = tcp.set_nodelay(true);
            tokio::spawn(async move {
                let Ok(mut ws) = tokio_tungstenite::accept_async(tcp).await else {
                    return;
                };
                while let Some(Ok(msg)) = ws.next().await {
                    if msg.is_text() && ws.send(msg).await.is_err() {
                        break;
                    }
                }
            });
        }
    });
    Ok(addr)
}

/// Round trips a second with `clients` clients doing `each` round trips
/// of `message` one after another.
pub async fn ceiling(clients: usize, each: usize, message: &str) -> anyhow::Result<f64> {
    let addr = serve().await?;
    let mut sockets = Vec::with_capacity(clients);
    for _ in 0..clients {
        let (ws, _) =
            tokio_tungstenite::connect_async_with_config(format!("ws://{addr}/"), None, true)
                .await?;
        sockets.push(ws);
    }
    let started = Instant::now();
    let tasks: Vec<_> = sockets
        .into_iter()
        .map(|mut ws| {
            let message = message.to_string();
            tokio::spawn(async move {
                for _ in 0..each {
                    ws.send(Message::Text(message.clone().into())).await?;
                    ws.next()
                        .await
                        .ok_or_else(|| anyhow::anyhow!("echo closed"))??;
                }
                anyhow::Ok(())
            })
        })
        .collect();
    for task in tasks {
        task.await??;
    }
    Ok((clients * each) as f64 / started.elapsed().as_secs_f64())
}
