//! The game server: an axum app whose rooms are actor tasks, checking every
//! move against the `rules` crate. See `ARCHITECTURE.md` for the path of a
//! move, and `docs/PROTOCOL.md` for the wire format.

pub mod accounts;
pub mod analysis;
pub mod app;
pub mod bots;
pub mod cluster;
pub mod code;
pub mod config;
pub mod game_log;
pub mod games;
pub mod history;
pub mod limits;
pub mod lobby;
pub mod mail;
pub mod model;
pub mod pages;
pub mod protocol;
pub mod ratings;
pub mod room;
pub mod serve;
pub mod store;
pub mod turns;
pub mod validate;
pub mod ws;

use std::net::SocketAddr;
use std::sync::Arc;
use std::time::Duration;

use tokio::net::TcpListener;
use tokio::sync::{oneshot, Semaphore};
use tokio::task::JoinHandle;

pub use config::Config;

/// A server that is listening.
pub struct Running {
    pub addr: SocketAddr,
    shutdown: oneshot::Sender<()>,
    task: JoinHandle<std::io::Result<()>>,
    registry: room::Registry,
    cluster: Option<cluster::Cluster>,
    stopping: app::state::Stopping,
    lobby: lobby::Lobby,
    /// The session and turn sweeps and the analysis workers: they end
    /// before the store closes (an analysis cut short is taken up again
    /// after the restart, as after a crash).
    sweeps: Vec<tokio::task::AbortHandle>,
}

impl Running {
    /// Stops accepting connections, closes every room's sockets (code
    /// 1012) once the commands already received are stored, waits for
    /// open requests to end, and closes the database.
    pub async fn stop(self) -> std::io::Result<()> {
        let _ = self.shutdown.send(());
        // What runs on a timer and reads the store stops before the store
        // closes (not once the last request is answered, which may take
        // seconds more).
        self.lobby.stop();
        for sweep in &self.sweeps {
            sweep.abort();
        }
        // Sockets no room holds (before their hello, the lobby's) close
        // now; rooms close theirs (here and relayed elsewhere) once their
        // writes are stored, and let their leases go, so other nodes take
        // them at once.
        self.stopping.token.cancel();
        // The lobby's sockets drop their seeks as they close: each is
        // withdrawn before the store closes (in `registry.shutdown`).
        self.lobby.withdrawn().await;
        self.registry.shutdown().await;
        // Every socket's close frame goes out before the process ends.
        self.stopping.open.close();
        let _ = tokio::time::timeout(Duration::from_secs(5), self.stopping.open.wait()).await;
        if let Some(cluster) = &self.cluster {
            cluster.shutdown().await;
        }
        self.task.await.unwrap_or(Ok(()))
    }

    /// Runs until the process receives Ctrl-C / SIGTERM, then stops.
    pub async fn until_signal(self) -> std::io::Result<()> {
        shutdown_signal().await;
        tracing::info!("shutting down: draining the rooms' writes");
        self.stop().await
    }
}

/// The log's writer: stderr, whose write errors are dropped. When nobody
/// reads stderr any more (`server 2>&1 | head -1`: `EPIPE`) or its disk
/// is full, the log is lost but the server goes on: `eprintln!`, and
/// tracing-subscriber's report of a failed write (which is
/// `eprintln!`), panic there, in whatever request or task was logging.
#[derive(Clone, Copy, Debug, Default)]
pub struct LogWriter;

impl std::io::Write for LogWriter {
    fn write(&mut self, buf: &[u8]) -> std::io::Result<usize> {
        let _ = std::io::stderr().write_all(buf);
        Ok(buf.len())
    }

    fn flush(&mut self) -> std::io::Result<()> {
        let _ = std::io::stderr().flush();
        Ok(())
    }
}

/// The log filter for `RUST_LOG` (`info`, quieter for the HTTP and SQL
/// libraries, when unset or unreadable). Whatever it asks, the WebSocket
/// and HTTP libraries never log below `info`: at `trace` they write whole
/// frames and headers, browser tokens and session cookies with them, and
/// none is ever logged (PROTOCOL.md).
pub fn log_filter(rust_log: Option<String>) -> tracing_subscriber::EnvFilter {
    use tracing_subscriber::EnvFilter;
    let base = rust_log.unwrap_or_default();
    let base = if base.trim().is_empty() {
        "info,tower_http=warn,sqlx=warn".to_string()
    } else {
        base
    };
    let quiet = "tungstenite=info,tokio_tungstenite=info,hyper=info,hyper_util=info,h2=info";
    EnvFilter::try_new(format!("{base},{quiet}"))
        .unwrap_or_else(|_| EnvFilter::new(format!("info,tower_http=warn,sqlx=warn,{quiet}")))
}

/// Opens the store, binds the address and starts serving. Each error
/// says what failed with what (the address, the folder, the database's
/// host, NATS's URL; never a password), for the one line `main` prints.
pub async fn start(mut config: Config) -> anyhow::Result<Running> {
    use anyhow::Context;
    // What needs nothing opened first: a server without its pages, or
    // with a database URL its writer refuses, would fail later or serve
    // nothing.
    config.web_dir = Some(config.checked_web_dir().map_err(anyhow::Error::msg)?);
    let database = match config.database_url.as_deref() {
        Some(url) => config::database_target(url).map_err(anyhow::Error::msg)?,
        None => format!(
            "the SQLite database in --data-dir {} (site.db)",
            config.data_dir.display()
        ),
    };
    serve::connections_for_fd_limit(&mut config)?;
    // Bound first: links name the port actually listened on (`--addr`
    // with port 0 picks one).
    let listener = TcpListener::bind(config.addr)
        .await
        .with_context(|| format!("could not listen on {} (--addr)", config.addr))?;
    let addr = listener.local_addr()?;
    config.addr = addr;
    let store = store::Store::open(config.database_url.as_deref(), &config.data_dir)
        .await
        .with_context(|| format!("could not open {database}"))?;
    let cluster = match &config.nats_url {
        None => None,
        Some(url) => {
            if store.backend() != store::Backend::Postgres {
                anyhow::bail!("several nodes (--nats-url) share a PostgreSQL store: set --database-url to a postgres:// URL");
            }
            let cluster = cluster::Cluster::connect(url, config.node_id.clone())
                .await
                .with_context(|| {
                    format!(
                        "could not connect to NATS at {} (--nats-url)",
                        config::without_credentials(url)
                    )
                })?;
            Some(cluster)
        }
    };
    let settings = room::settings(&config);
    let registry = room::Registry::with_owner(
        store,
        settings,
        config.max_rooms,
        cluster.as_ref().map(cluster::Cluster::owner),
    );
    if let Some(cluster) = &cluster {
        // Leases under this id are a previous run's (`Cluster::connect`
        // refused to start beside a live node of this id): let them go, so
        // their rooms are taken at once, here or by another node.
        let released = registry
            .store()
            .release_node(cluster.node())
            .await
            .context("could not release this node's old leases")?;
        if released > 0 {
            tracing::info!(
                rooms = released,
                "released the leases of this node id's previous run"
            );
        }
    }
    let mailer = mail::Mailer::for_config(&config)?;
    let lobby = lobby::Lobby::start(registry.clone(), config.seeks_per_addr).await;
    let app = app::state::App {
        lobby,
        mailer: Arc::new(mailer),
        sessions: Arc::default(),
        cluster: cluster.clone(),
        registry: registry.clone(),
        connections: Arc::new(Semaphore::new(config.max_connections)),
        sockets: Arc::default(),
        streams: Arc::default(),
        histories: Arc::default(),
        accounts: Arc::new(accounts::hashing::Accounts::new()),
        limits: Arc::new(limits::Limits::new(&config)),
        config: Arc::new(config),
        stopping: app::state::Stopping::default(),
    };
    if let Some(cluster) = &cluster {
        cluster.start(app.clone()).await.with_context(|| {
            let url = app.config.nats_url.as_deref().unwrap_or_default();
            format!(
                "could not subscribe on NATS at {} (--nats-url)",
                config::without_credentials(url)
            )
        })?;
    }
    let sweep = tokio::spawn(accounts::signout::sweep(app.clone()));
    if app.config.test_clock {
        tracing::warn!("--test-clock: the clock can be moved by POST /api/test/clock (tests only)");
        model::time::enable_test_clock();
    }
    let turn_sweep = tokio::spawn(turns::sweep::run(app.clone()));
    let analysts = analysis::worker::start(&app).await;
    tracing::info!("listening on http://{addr}");
    let (shutdown, rx) = oneshot::channel::<()>();
    let header_timeout = app.config.header_timeout();
    let cap = serve::PeerCap {
        open: Arc::default(),
        max: app.config.max_connections_per_addr,
        limits: app.limits.clone(),
        http: limits::http::HttpConnections::new(app.config.max_http_connections),
    };
    let stopping = app.stopping.clone();
    let lobby = app.lobby.clone();
    let sweeps = [sweep.abort_handle(), turn_sweep.abort_handle()]
        .into_iter()
        .chain(analysts.iter().map(JoinHandle::abort_handle))
        .collect();
    let router = app::routes::router(app);
    let task = tokio::spawn(async move {
        let served = serve::run(listener, router, header_timeout, cap, rx).await;
        sweep.abort();
        turn_sweep.abort();
        for worker in analysts {
            worker.abort();
        }
        served
    });
    Ok(Running {
        addr,
        shutdown,
        task,
        registry,
        cluster,
        stopping,
        lobby,
        sweeps,
    })
}

async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let term = async {
        if let Ok(mut s) = tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate())
        {
            s.recv().await;
        }
    };
    #[cfg(not(unix))]
    let term = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = term => {},
    }
}
