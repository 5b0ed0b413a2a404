//! A node starts answering the others: pings, clients to host for them,
//! frames for the clients it relays, the watch on its peers, and the
//! sessions that ended elsewhere.

use std::sync::Arc;

use futures_util::StreamExt;
use tracing::warn;

use super::SESSIONS_ENDED;
use super::{
    conn_subject, hosted, pair_subject, ping_subject, relay, room_subject, watch_peers, Cluster,
};
use crate::app::state::App;
use bytes::Bytes;

impl Cluster {
    /// Starts answering other nodes: pings, clients to host, frames for
    /// relayed clients; and the watch on peers.
    pub async fn start(&self, app: App) -> anyhow::Result<()> {
        let sessions = app.sessions.clone();
        let nats = &self.inner.nats;
        let mut pings = nats.subscribe(ping_subject(&self.inner.node)).await?;
        let pong = nats.clone();
        tokio::spawn(async move {
            while let Some(msg) = pings.next().await {
                if let Some(reply) = msg.reply {
                    let _ = pong.publish(reply, Bytes::from_static(b"pong")).await;
                }
            }
        });
        let mut pairs = nats.subscribe(pair_subject(&self.inner.node)).await?;
        let lobby = app.lobby.clone();
        let answer = nats.clone();
        tokio::spawn(async move {
            while let Some(msg) = pairs.next().await {
                let (lobby, answer) = (lobby.clone(), answer.clone());
                tokio::spawn(async move {
                    let reply = lobby.remote_pair(&msg.payload).await;
                    if let Some(to) = msg.reply {
                        let _ = answer.publish(to, reply).await;
                    }
                });
            }
        });
        let cluster = self.clone();
        app.lobby
            .set_remote(std::sync::Arc::new(move |node, payload| {
                let cluster = cluster.clone();
                Box::pin(async move { cluster.pair(&node, payload).await })
            }));
        let to_owner = nats.subscribe(room_subject(&self.inner.node)).await?;
        tokio::spawn(hosted::dispatch(self.clone(), app, to_owner));
        let to_relay = nats.subscribe(conn_subject(&self.inner.node)).await?;
        tokio::spawn(relay::dispatch(self.clone(), to_relay));
        tokio::spawn(watch_peers(Arc::downgrade(&self.inner)));
        let mut ended = nats.subscribe(SESSIONS_ENDED).await?;
        tokio::spawn(async move {
            while let Some(msg) = ended.next().await {
                let text = String::from_utf8_lossy(&msg.payload);
                match crate::accounts::sockets::Ended::parse(&text) {
                    Some(ended) => {
                        sessions.close(ended);
                    }
                    None => warn!("an unreadable sessions.ended message"),
                }
            }
        });
        Ok(())
    }
}
