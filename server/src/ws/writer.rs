//! The writer of one client: the queue's messages in order, gathered into
//! few socket writes, pings, and a close that lets what is queued go out.

use std::sync::Arc;
use std::time::Duration;

use axum::extract::ws::{CloseFrame, Message, Utf8Bytes};
use futures_util::{Sink, SinkExt};

use crate::model::now_millis;
use crate::room::{Closer, Queue};

use super::lag::Lag;
use super::silence::*;
use super::*;

/// Sends the queue's messages in order. When the connection is closed
/// with a reason, what is already queued (an answer such as `room_full`
/// that explains the close) still goes out, for at most `CLOSE_GRACE`,
/// then the close frame.
/// With `ping`, a ping goes out at that interval.
pub(crate) async fn write_loop<Si>(
    mut sink: Si,
    queue: Queue,
    closer: Closer,
    ping: Option<Duration>,
    lag: Arc<Lag>,
) where
    Si: Sink<Message, Error = axum::Error> + Unpin,
{
    let closed = closer.closed();
    tokio::pin!(closed);
    let mut pings = ping_timer(ping);
    loop {
        let text = tokio::select! {
            biased;
            _ = &mut closed => break,
            text = queue.recv_async() => text.ok(),
            _ = next_ping(&mut pings) => {
                let stamp = lag.ping(now_millis());
                let sent = sink.send(Message::Ping(bytes::Bytes::copy_from_slice(&stamp)));
                match tokio::time::timeout(WRITE_TIMEOUT, sent).await {
                    Ok(Ok(())) => continue,
                    Ok(Err(_)) | Err(_) => return,
                }
            }
        };
        let Some(text) = text else {
            break;
        };
        // What else is queued already goes out in the same write.
        let sent = async {
            sink.feed(Message::Text(text)).await?;
            for _ in 0..GATHER_MESSAGES {
                let Ok(text) = queue.try_recv() else {
                    break;
                };
                sink.feed(Message::Text(text)).await?;
            }
            sink.flush().await
        };
        match tokio::time::timeout(WRITE_TIMEOUT, sent).await {
            Ok(Ok(())) => {}
            // The client stopped reading altogether, or the socket broke.
            Ok(Err(_)) | Err(_) => return,
        }
    }
    let flush = async {
        while let Ok(text) = queue.try_recv() {
            if sink.send(Message::Text(text)).await.is_err() {
                return;
            }
        }
    };
    let _ = tokio::time::timeout(CLOSE_GRACE, flush).await;
    let frame = closer.frame().map(|(code, reason)| CloseFrame {
        code,
        reason: Utf8Bytes::from(reason),
    });
    let _ = tokio::time::timeout(WRITE_TIMEOUT, sink.send(Message::Close(frame))).await;
    let _ = tokio::time::timeout(WRITE_TIMEOUT, sink.close()).await;
}
