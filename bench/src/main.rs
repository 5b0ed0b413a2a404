//! The load tool: runs the site's scenarios by name against a server and
//! prints their figures, with latencies from an HDR histogram.
//!
//! ```text
//! cargo run --release -p bench -- many-rooms --rooms 100 --games 3
//! cargo run --release -p bench -- idle --url http://127.0.0.1:8098 --pid 1234 --sockets 10000
//! cargo run --release -p bench -- big-room --url http://127.0.0.1:8098 --pid 1234 --spectators 10000
//! cargo run --release -p bench -- mixed --url http://127.0.0.1:8098 --pid 1234 --games 5000 --sockets 10000 --seconds 300
//! cargo run --release -p bench -- abuse --seconds 20
//! cargo run --release -p bench -- analysis --game jungle --plies 60
//! ```
//!
//! Without `--url` a scenario starts the server in this process on an
//! ephemeral port with a temporary database (the clients then share the
//! process, its cores and its memory figures). With `--url`, traffic only
//! goes to that address, which should be on this machine, and `--pid`
//! names the server's process for its memory and CPU; start that server
//! with `--room-burst 0 --game-burst 0 --lookup-burst 0 --message-rate 0
//! --max-sockets-per-addr 0 --max-connections-per-addr 0 --guest-hosts`, or the limits meant for
//! people (rooms and games an address may start, room lookups, 50 sockets
//! an address, 20 messages a second a connection) are what the scenario
//! measures. Every loop is bounded by
//! the scenario's arguments.

/// The same allocator as the server's (`server/src/main.rs`), so the
/// tool's own share of a shared machine stays small.
#[cfg(not(target_env = "msvc"))]
#[global_allocator]
static ALLOCATOR: tikv_jemallocator::Jemalloc = tikv_jemallocator::Jemalloc;

mod abuse;
mod analysis;
mod big_room;
mod client;
mod echo;
mod idle;
mod many_rooms;
mod mixed;
mod play;
mod report;
mod schedule;
mod stats;
mod target;
mod turn_based;

use clap::{Parser, Subcommand};

use target::{Target, TargetArgs};

#[derive(Parser)]
#[command(name = "bench", about = "The site's load scenarios")]
struct Cli {
    /// Threads the tool runs on (0: one per core). On a machine the tool
    /// shares with the server, `--threads 1` takes less of it (no work
    /// stealing between threads); the in-process server and echo server
    /// then share that thread too.
    #[arg(long, global = true, default_value_t = 0)]
    threads: usize,
    #[command(subcommand)]
    scenario: Scenario,
}

/// A scenario's arguments: where the load goes, then its own.
#[derive(clap::Args)]
struct On<A: clap::Args> {
    #[command(flatten)]
    target: TargetArgs,
    #[command(flatten)]
    args: A,
}

#[derive(Subcommand)]
enum Scenario {
    /// N rooms × 2 players playing CrossyRay at full speed or at a set
    /// rate; then the same round trips against an echo server (the
    /// ceiling).
    ManyRooms(On<many_rooms::Args>),
    /// N idle sockets (spectators that said hello) over some rooms; the
    /// server's memory per socket.
    Idle(On<idle::Args>),
    /// One room, S spectators and 2 players: the join rate, and how long
    /// a move takes to reach every spectator.
    BigRoom(On<big_room::Args>),
    /// A realistic mix: many live games with a move every few seconds,
    /// spectators spread over them, for a while; latency and CPU.
    Mixed(On<mixed::Args>),
    /// Two players play while one hostile address opens silent sockets to
    /// its cap, holds slowloris connections and floods voice and chat:
    /// the players' latency and whether any honest client was dropped.
    Abuse(On<abuse::Args>),
    /// N turn-based rooms with a move each, left to go idle: the server's
    /// memory before, with them loaded, and after they unloaded.
    TurnBased(On<turn_based::Args>),
    /// Whole games of P plies analysed one after the other (imported
    /// texts): the time per game and the server's CPU per position.
    Analysis(On<analysis::Args>),
}

fn main() -> anyhow::Result<()> {
    let cli = Cli::parse();
    let mut runtime = match cli.threads {
        1 => tokio::runtime::Builder::new_current_thread(),
        _ => tokio::runtime::Builder::new_multi_thread(),
    };
    if cli.threads > 1 {
        runtime.worker_threads(cli.threads);
    }
    runtime.enable_all().build()?.block_on(async {
        match cli.scenario {
            Scenario::ManyRooms(on) => {
                many_rooms::run(Target::new(&on.target).await?, on.args).await
            }
            Scenario::Idle(on) => idle::run(Target::new(&on.target).await?, on.args).await,
            Scenario::BigRoom(on) => big_room::run(Target::new(&on.target).await?, on.args).await,
            Scenario::Mixed(on) => mixed::run(Target::new(&on.target).await?, on.args).await,
            Scenario::TurnBased(on) => turn_based::run(&on.target, on.args).await,
            Scenario::Analysis(on) => analysis::run(&on.target, on.args).await,
            Scenario::Abuse(on) => {
                abuse::run(Target::with_limits(&on.target).await?, on.args).await
            }
        }
    })
}
