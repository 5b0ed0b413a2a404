//! Command-line flags and environment variables of the server.

use std::net::SocketAddr;
use std::path::PathBuf;
use std::time::Duration;

use clap::Parser;

#[derive(Parser, Debug, Clone)]
#[command(
    name = "server",
    about = "Board-game site: rooms, games, WebSocket play."
)]
pub struct Config {
    /// Address to listen on (port 0 picks a free port; the chosen address
    /// is logged as `listening on http://…`).
    #[arg(long, env = "ADDR", default_value = "127.0.0.1:8080")]
    pub addr: SocketAddr,

    /// Folder for the embedded SQLite database (`site.db`).
    #[arg(long, env = "DATA_DIR", default_value = "./data")]
    pub data_dir: PathBuf,

    /// Database URL; overrides `--data-dir`: `sqlite:` or `postgres://`.
    #[arg(long, env = "DATABASE_URL")]
    pub database_url: Option<String>,

    /// NATS server of a cluster (e.g. `nats://127.0.0.1:4222`). With it,
    /// this is one node of several sharing a PostgreSQL `--database-url`:
    /// each room runs on one node, and the others forward its sockets.
    #[arg(long, env = "NATS_URL")]
    pub nats_url: Option<String>,

    /// This node's id in the cluster (default: a fresh UUID each start).
    #[arg(long, env = "NODE_ID")]
    pub node_id: Option<String>,

    /// Folder of the static web client. Defaults to `web/` next to the
    /// workspace, so `cargo run` works from any directory.
    #[arg(long, env = "WEB_DIR")]
    pub web_dir: Option<PathBuf>,

    /// Public base URL of every link the server writes (invite links, the
    /// QR image, mailed links), e.g. `https://games.example.org`. Without
    /// it (and without `--allowed-host`), links point at `http://` and
    /// `--addr`, and mail is not sent (each link goes to the log).
    #[arg(long, env = "PUBLIC_URL", value_parser = without_trailing_slash)]
    pub public_url: Option<String>,

    /// A `host[:port]` whose name a request's `Host` header may give the
    /// links written for it, when `--public-url` is not set (the first one
    /// is used for any other `Host`). Repeatable. Loopback names on the
    /// listening port are always allowed.
    #[arg(long = "allowed-host", env = "ALLOWED_HOSTS", value_delimiter = ',')]
    pub allowed_hosts: Vec<String>,

    /// Seconds between the checks of the open sockets' login sessions
    /// (a socket whose session expired is signed out,
    /// `accounts/sockets.rs`). Not a flag: tests shorten it.
    #[arg(skip = 60_u64)]
    pub session_sweep_secs: u64,

    /// Extra origins allowed to open WebSockets and send state-changing
    /// requests (the server's own origins always may: see
    /// `app/hosts.rs`). Repeatable.
    #[arg(
        long = "allowed-origin",
        env = "ALLOWED_ORIGINS",
        value_delimiter = ','
    )]
    pub allowed_origins: Vec<String>,

    /// Let guests (browsers not signed in to an account) create rooms,
    /// for a private server. Without it, `POST /api/rooms` needs a signed-in
    /// account, except for a solo game against the computer.
    #[arg(long = "guest-hosts", env = "GUEST_HOSTS")]
    pub guest_hosts: bool,

    /// A STUN or TURN server for voice chat, given to the browsers:
    /// `stun:stun.example.org:3478`, or with credentials
    /// `turn:turn.example.org:3478,USERNAME,CREDENTIAL`. Repeatable (in
    /// `ICE_SERVERS`, separated by spaces). None by default: voice then
    /// connects browsers that can reach each other directly (one local
    /// network).
    #[arg(long = "ice-server", env = "ICE_SERVERS", value_delimiter = ' ')]
    pub ice_servers: Vec<IceServer>,

    /// SMTP server for the confirmation and recovery links, as a URL:
    /// `smtps://user:password@mail.example.org` (TLS),
    /// `smtp://user:password@mail.example.org?tls=required` (STARTTLS) or
    /// `smtp://127.0.0.1:25` (plain, a local relay). Without it, each link
    /// is written to the log instead, so a self-hoster can still recover
    /// an account.
    #[arg(long = "smtp-url", env = "SMTP_URL")]
    pub smtp_url: Option<String>,

    /// The `From` of the mail the site sends.
    #[arg(
        long = "mail-from",
        env = "MAIL_FROM",
        default_value = "Board games <noreply@localhost>"
    )]
    pub mail_from: String,

    /// Rooms that may be open in memory at once.
    #[arg(long, env = "MAX_ROOMS", default_value_t = 10_000)]
    pub max_rooms: usize,

    /// WebSocket connections that may be open at once. At start the soft
    /// file-descriptor limit is raised to the hard one, and this is
    /// lowered, with a warning, to that limit less 256 (`serve.rs`).
    #[arg(long, env = "MAX_CONNECTIONS", default_value_t = 20_000)]
    pub max_connections: usize,

    /// TCP connections the node may hold open before they are upgraded to
    /// WebSockets (plain HTTP, keep-alive, heads still arriving), over
    /// every address; past it, one is closed to make room: the address
    /// holding the most gives one up, or, all holding one, the one idle
    /// longest (`limits/http.rs`).
    /// Lowered at start, with `--max-connections`, to fit the
    /// file-descriptor limit (at most a quarter of it).
    #[arg(long, env = "MAX_HTTP_CONNECTIONS", default_value_t = 4_096)]
    pub max_http_connections: usize,

    /// TCP connections one peer address (an IPv6 /64) may hold open at
    /// once before its requests are read (plain HTTP, and WebSockets until
    /// their upgrade); the next is closed at once. Not counted for a
    /// `--trusted-proxy` peer, which carries everyone's. 0 turns the limit
    /// off (for load tests).
    #[arg(long, env = "MAX_CONNECTIONS_PER_ADDR", default_value_t = 500)]
    pub max_connections_per_addr: usize,

    /// WebSockets one client address (an IPv6 /64) may hold open at once
    /// on this node; the next upgrade is refused with
    /// `429 too_many_sockets`. 0 turns the limit off (for load tests).
    #[arg(long, env = "MAX_SOCKETS_PER_ADDR", default_value_t = 50)]
    pub max_sockets_per_addr: usize,

    /// Seconds a new WebSocket has to send `hello`; then it is closed
    /// with 1008 (at least 1).
    #[arg(long, env = "HELLO_TIMEOUT_SECS", default_value_t = 10)]
    pub hello_timeout_secs: u64,

    /// Seconds an HTTP connection has to send a request's headers (from
    /// its first byte, or from the end of the previous answer on a
    /// keep-alive connection: it is also the idle timeout), and again its
    /// body; then it is closed (at least 1).
    #[arg(long, env = "HEADER_TIMEOUT_SECS", default_value_t = 10)]
    pub header_timeout_secs: u64,

    /// Seconds between the server's pings on each WebSocket; one that
    /// sends nothing (no pong, no message) for twice this is closed with
    /// 1008. 0 turns pings off.
    #[arg(long, env = "PING_SECS", default_value_t = 20)]
    pub ping_secs: u64,

    /// Seconds a player may stay offline during their game before they
    /// forfeit by abandoning.
    #[arg(long, env = "ABANDON_SECS", default_value_t = 60)]
    pub abandon_secs: u64,

    /// Seconds the opponents of a player who is offline during their game
    /// wait before they may claim the win or call it a draw (the abandon
    /// rule ends the game by itself after `--abandon-secs`).
    #[arg(long, env = "CLAIM_SECS", default_value_t = 15)]
    pub claim_secs: u64,

    /// Seconds a room's host may stay offline before the host role passes
    /// to the member who has been in the room longest (signed-in members
    /// first, then seated guests). 0: never.
    #[arg(long, env = "HOST_HANDOVER_SECS", default_value_t = 60)]
    pub host_handover_secs: u64,

    /// Milliseconds of a move's measured network lag (half the round trip
    /// of the server's pings) that the mover's clock is not charged, at
    /// most, per move. 0: clocks charge the arrival time.
    #[arg(long, env = "LAG_COMP_MS", default_value_t = 500)]
    pub lag_comp_ms: u64,

    /// Seconds a room with nobody online stays in memory (it is reloaded
    /// from the database when someone comes back).
    #[arg(long, env = "ROOM_IDLE_SECS", default_value_t = 600)]
    pub room_idle_secs: u64,

    /// Milliseconds the computer thinks per move at Master level; the
    /// weaker levels take a share of it.
    #[arg(long, env = "BOT_MS", default_value_t = 2000)]
    pub bot_ms: u64,

    /// Milliseconds the analysis of a finished game searches each of its
    /// positions (Master level).
    #[arg(long, env = "ANALYSIS_MS", default_value_t = 400)]
    pub analysis_ms: u64,

    /// Analyses this node runs at once (each takes one search slot while
    /// no computer player waits for it; 0: this node runs none).
    #[arg(long, env = "ANALYSIS_WORKERS", default_value_t = 1)]
    pub analysis_workers: usize,

    /// Analyses waiting or running at most, over all nodes; past it a new
    /// one is refused `503 analysis_busy`.
    #[arg(long, env = "ANALYSIS_QUEUE", default_value_t = 32)]
    pub analysis_queue: i64,

    /// Analyses one client address may have waiting or running at once
    /// (`429 too_many_analyses` past it).
    #[arg(long, env = "ANALYSES_PER_ADDR", default_value_t = 2)]
    pub analyses_per_addr: i64,

    /// Seconds between the end of a game and the automatic start of the
    /// next (rooms with auto-start on, every seat still taken and online).
    #[arg(long, env = "AUTOSTART_SECS", default_value_t = 30)]
    pub autostart_secs: u64,

    /// Members a room keeps (people who gave a name, signed in, sat or
    /// host, and computer players). Past it, offline guests with no seat,
    /// no score and no host role make room for newcomers; if none can go,
    /// `hello` is refused with `room_full`.
    #[arg(long, env = "MAX_MEMBERS", default_value_t = 200)]
    pub max_members: usize,

    /// Watchers a room takes at once: online browsers with no name, no
    /// account and no host role, which are counted but not kept. Past it,
    /// a watcher's `hello` is refused with `room_full`.
    #[arg(long, env = "MAX_WATCHERS", default_value_t = 20_000)]
    pub max_watchers: usize,

    /// Kept members that browsers from one client address (IPv6: one /64)
    /// may add to a room; past it, their `hello` (or a watcher's `name`)
    /// is refused with `room_full`. Removed members do not count. 0 turns
    /// the limit off.
    #[arg(long, env = "MEMBERS_PER_ADDR", default_value_t = 20)]
    pub members_per_addr: usize,

    /// Open quick-pairing seeks that lobby sockets from one client
    /// address (an IPv6 /64) may hold at once on this node; past it a
    /// `seek` is refused with `too_many_seeks`. 0 turns the limit off.
    #[arg(long, env = "SEEKS_PER_ADDR", default_value_t = 4)]
    pub seeks_per_addr: usize,

    /// Messages one WebSocket connection may send per second on average;
    /// past it they get `rate_limited` errors. 0 turns the limit off
    /// (for load tests; a public server keeps it).
    #[arg(long, env = "MESSAGE_RATE", default_value_t = 20.0)]
    pub message_rate: f64,

    /// Messages a connection may send at once before `--message-rate`
    /// applies (at least 1).
    #[arg(long, env = "MESSAGE_BURST", default_value_t = 40.0)]
    pub message_burst: f64,

    /// Rooms one client address may create at once (`POST /api/rooms`);
    /// then one more every `--room-every-secs`. 0 turns the limit off.
    #[arg(long, env = "ROOM_BURST", default_value_t = 10)]
    pub room_burst: u32,

    /// Seconds for one more room creation to come back to an address.
    #[arg(long, env = "ROOM_EVERY_SECS", default_value_t = 6)]
    pub room_every_secs: u64,

    /// Games one client address (and one account) may start at once with
    /// `start` or `rematch` (each is a stored game once it ends); then
    /// one more every `--game-every-secs`. 0 turns the limit off.
    #[arg(long, env = "GAME_BURST", default_value_t = 60)]
    pub game_burst: u32,

    /// Seconds for one more game start to come back to an address.
    #[arg(long, env = "GAME_EVERY_SECS", default_value_t = 2)]
    pub game_every_secs: u64,

    /// Room lookups one client address may make at once: `GET
    /// /api/rooms/CODE` (and its `qr.svg` and `games`) and the WebSocket
    /// upgrade `/ws/CODE`, found or not; then `--lookup-rate` more a
    /// second. Past it, `429 rate_limited`, so room codes cannot be
    /// guessed quickly. 0 turns the limit off (for load tests).
    #[arg(long, env = "LOOKUP_BURST", default_value_t = 600)]
    pub lookup_burst: u32,

    /// Room lookups a second that come back to an address (0: no limit).
    #[arg(long, env = "LOOKUP_RATE", default_value_t = 10)]
    pub lookup_rate: u32,

    /// Accounts one client address may register at once
    /// (`POST /api/accounts`); then one more every
    /// `--register-every-secs`. 0 turns the limit off.
    #[arg(long, env = "REGISTER_BURST", default_value_t = 5)]
    pub register_burst: u32,

    /// Seconds for one more registration to come back to an address.
    #[arg(long, env = "REGISTER_EVERY_SECS", default_value_t = 60)]
    pub register_every_secs: u64,

    /// Client addresses each rate limit remembers at most; when a limit's
    /// table is full of addresses still counting down, new addresses are
    /// refused (429) until one has waited long enough to be forgotten.
    #[arg(long, env = "RATE_LIMIT_MAX_ADDRS", default_value_t = 10_000)]
    pub rate_limit_max_addrs: usize,

    /// Address of a reverse proxy in front of the server, or a CIDR range
    /// of them (`172.28.0.0/16`). Requests whose TCP peer is one of these
    /// are counted against the client address the proxy reports (the
    /// rightmost untrusted `X-Forwarded-For` entry, or `X-Real-IP` without
    /// one) instead of the proxy's. Repeatable or comma separated. Without
    /// it, forwarding headers are ignored.
    #[arg(long = "trusted-proxy", env = "TRUSTED_PROXY", value_delimiter = ',')]
    pub trusted_proxies: Vec<crate::limits::address::TrustedProxy>,

    // --- Turn-based games (days per move) ---
    /// Seconds between two sweeps of the turn-based games: a passed
    /// deadline ends its game (the room is loaded from the store if
    /// needed), and the "your turn" emails go.
    #[arg(long, env = "TURN_SWEEP_SECS", default_value_t = 5)]
    pub turn_sweep_secs: u64,

    /// Minutes a turn-based game waits for a player's move before the
    /// "your turn" email goes (to players who turned it on; one a day).
    #[arg(long, env = "TURN_MAIL_AFTER_MINS", default_value_t = 60)]
    pub turn_mail_after_mins: u64,

    /// FOR TESTS ONLY: enables `POST /api/test/clock`, which moves the
    /// server's clock forward. Never on a real site.
    #[arg(long, hide = true, default_value_t = false)]
    pub test_clock: bool,
}

/// `--public-url` as links are written from it: without the slashes it
/// may end with (`https://games.example.org/` gives
/// `https://games.example.org/r/CODE`, not `…org//r/CODE`).
fn without_trailing_slash(url: &str) -> Result<String, String> {
    Ok(url.trim_end_matches('/').to_string())
}

impl Config {
    /// A configuration for tests: ephemeral port, the given data folder,
    /// guests may host (the tests of hosting turn that off).
    pub fn for_tests(data_dir: PathBuf) -> Config {
        let mut config = Config::parse_from(["server", "--addr", "127.0.0.1:0", "--guest-hosts"]);
        config.data_dir = data_dir;
        // The tests open many sockets from 127.0.0.1; those of the cap
        // set it.
        config.max_sockets_per_addr = 0;
        config.max_connections_per_addr = 0;
        config.seeks_per_addr = 0;
        config
    }

    pub fn abandon_after(&self) -> Duration {
        Duration::from_secs(self.abandon_secs)
    }

    pub fn bot_budget(&self) -> Duration {
        Duration::from_millis(self.bot_ms)
    }

    pub fn autostart_after(&self) -> Duration {
        Duration::from_secs(self.autostart_secs)
    }

    pub fn hello_timeout(&self) -> Duration {
        Duration::from_secs(self.hello_timeout_secs.max(1))
    }

    pub fn header_timeout(&self) -> Duration {
        Duration::from_secs(self.header_timeout_secs.max(1))
    }

    /// The interval of WebSocket pings, if any.
    pub fn ping_every(&self) -> Option<Duration> {
        (self.ping_secs > 0).then(|| Duration::from_secs(self.ping_secs))
    }

    pub fn idle_after(&self) -> Duration {
        Duration::from_secs(self.room_idle_secs)
    }

    pub fn web_dir(&self) -> PathBuf {
        self.web_dir.clone().unwrap_or_else(|| {
            let local = PathBuf::from("web");
            if local.join("index.html").exists() {
                local
            } else {
                PathBuf::from(concat!(env!("CARGO_MANIFEST_DIR"), "/../web"))
            }
        })
    }
}

/// A STUN/TURN server for WebRTC, as browsers take it
/// (`RTCIceServer`: `urls`, and for TURN `username` and `credential`).
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct IceServer {
    pub urls: String,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub username: Option<String>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub credential: Option<String>,
}

impl std::str::FromStr for IceServer {
    type Err = String;

    /// `URL` or `URL,USERNAME,CREDENTIAL`; the URL's scheme is `stun:`,
    /// `stuns:`, `turn:` or `turns:`.
    fn from_str(text: &str) -> Result<IceServer, String> {
        let mut parts = text.split(',');
        let urls = parts.next().unwrap_or_default().trim().to_string();
        let scheme_ok = ["stun:", "stuns:", "turn:", "turns:"]
            .iter()
            .any(|s| urls.starts_with(s) && urls.len() > s.len());
        if !scheme_ok {
            return Err(format!(
                "{urls:?} is not a STUN or TURN URL (stun:, stuns:, turn:, turns:)"
            ));
        }
        let rest: Vec<String> = parts.map(|p| p.to_string()).collect();
        let (username, credential) = match rest.as_slice() {
            [] => (None, None),
            [user, pass] if !user.is_empty() => (Some(user.clone()), Some(pass.clone())),
            _ => return Err("an ICE server is URL or URL,USERNAME,CREDENTIAL".to_string()),
        };
        Ok(IceServer {
            urls,
            username,
            credential,
        })
    }
}

#[cfg(test)]
mod ice_tests {
    use super::IceServer;

    #[test]
    fn ice_servers_read_with_or_without_credentials() {
        let stun: IceServer = "stun:stun.example.org:3478".parse().unwrap();
        assert_eq!(stun.username, None);
        let turn: IceServer = "turn:turn.example.org:3478,lan,s3cret".parse().unwrap();
        assert_eq!(
            (
                turn.urls.as_str(),
                turn.username.as_deref(),
                turn.credential.as_deref()
            ),
            ("turn:turn.example.org:3478", Some("lan"), Some("s3cret"))
        );
        for bad in ["http://x", "stun:", "turn:x,onlyuser", "turn:x,,pass", ""] {
            assert!(bad.parse::<IceServer>().is_err(), "{bad}");
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_public_url_ending_in_a_slash_is_read_without_it() {
        for given in ["https://games.example.org/", "https://games.example.org//"] {
            let config = Config::parse_from(["server", "--public-url", given]);
            let url = config.public_url.as_deref();
            assert_eq!(url, Some("https://games.example.org"));
        }
    }
}
