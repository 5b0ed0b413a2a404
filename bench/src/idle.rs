//! `idle`: N sockets (spectators that said `hello` and read their
//! snapshot) spread over some rooms; the server's resident memory before
//! and after, per socket.

use std::time::Duration;

use crate::client::{create_room, open_spectators};
use crate::target::Target;

#[derive(clap::Args)]
pub struct Args {
    /// Rooms the sockets are spread over.
    #[arg(long, default_value_t = 100)]
    rooms: usize,
    /// Sockets to open.
    #[arg(long, default_value_t = 10_000)]
    sockets: usize,
    /// Sockets opening at once.
    #[arg(long, default_value_t = 100)]
    at_once: usize,
    /// Seconds to keep the sockets open after measuring.
    #[arg(long, default_value_t = 0)]
    hold: u64,
}

pub async fn run(target: Target, args: Args) -> anyhow::Result<()> {
    let http = reqwest::Client::new();
    let mut codes = Vec::new();
    for _ in 0..args.rooms.max(1) {
        codes.push(
            create_room(&http, &target.base, "crossyray", serde_json::Value::Null)
                .await?
                .0,
        );
    }
    tokio::time::sleep(Duration::from_millis(500)).await;
    println!(
        "idle: {} sockets over {} rooms against {}",
        args.sockets,
        codes.len(),
        target.describe()
    );
    let open = open_spectators(&target, &codes, args.sockets, args.at_once).await?;
    if args.hold > 0 {
        tokio::time::sleep(Duration::from_secs(args.hold)).await;
    }
    for mut ws in open {
        let _ = ws.close(None).await;
    }
    Ok(())
}
