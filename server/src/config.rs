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

    /// This node's id in the cluster: 1 to 64 letters, digits, `-` or `_`
    /// (it names the node's NATS subjects, where `.`, `*` and `>` mean
    /// something else). Default: a fresh UUID each start.
    #[arg(long, env = "NODE_ID", value_parser = node_id)]
    pub node_id: Option<String>,

    /// Folder of the static web client. Default: `./web` when it holds
    /// `index.html`, else the `web/` of the source tree the binary was
    /// built from (so `cargo run` works from any directory). The server
    /// does not start when the folder has no `index.html`.
    #[arg(long, env = "WEB_DIR")]
    pub web_dir: Option<PathBuf>,

    /// Public base URL of every link the server writes (invite links, the
    /// QR image, mailed links): `http://` or `https://` and a host, with
    /// a port or not, e.g. `https://games.example.org`; no path (the site
    /// is served at the root of its host), query or fragment. Without it
    /// (and without `--allowed-host`), links point at `http://` and
    /// `--addr`, and mail is not sent (each link goes to the log).
    #[arg(long, env = "PUBLIC_URL", value_parser = public_url)]
    pub public_url: Option<String>,

    /// A `host[:port]` whose name a request's `Host` header may give the
    /// links written for it, when `--public-url` is not set (the first one
    /// is used for any other `Host`). Repeatable. Loopback names on the
    /// listening port are always allowed.
    #[arg(
        long = "allowed-host",
        env = "ALLOWED_HOSTS",
        value_delimiter = ',',
        value_parser = host_and_port
    )]
    pub allowed_hosts: Vec<String>,

    /// Seconds between the checks of the open sockets' login sessions
    /// (a socket whose session expired is signed out,
    /// `accounts/sockets.rs`). Not a flag: tests shorten it.
    #[arg(skip = 60_u64)]
    pub session_sweep_secs: u64,

    /// Extra origins allowed to open WebSockets and send state-changing
    /// requests, as `http://` or `https://` and `host[:port]` (the
    /// server's own origins always may: see `app/hosts.rs`). Repeatable.
    #[arg(
        long = "allowed-origin",
        env = "ALLOWED_ORIGINS",
        value_delimiter = ',',
        value_parser = origin
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
    /// an account. Only the schemes `smtp` and `smtps` (and, for `smtp`,
    /// `?tls=required` or `?tls=opportunistic`), as the mailer reads them.
    #[arg(long = "smtp-url", env = "SMTP_URL", value_parser = SmtpUrl)]
    pub smtp_url: Option<String>,

    /// The `From` of the mail the site sends: an address, with a name
    /// before it in `<…>` or not.
    #[arg(
        long = "mail-from",
        env = "MAIL_FROM",
        default_value = "Board games <noreply@localhost>",
        value_parser = mailbox
    )]
    pub mail_from: String,

    /// Rooms that may be open in memory and in use at once: a socket
    /// attached (checked at the upgrade and at each hello) or a game on
    /// its clock; at most as many more, not in use, stay loaded (at
    /// least 1).
    #[arg(
        long,
        env = "MAX_ROOMS",
        default_value_t = 10_000,
        value_parser = at_least_one,
        allow_negative_numbers = true
    )]
    pub max_rooms: usize,

    /// WebSocket connections that may be open at once (at least 1). At
    /// start the soft file-descriptor limit is raised to the hard one, and
    /// this is lowered, with a warning, to what that limit leaves after
    /// 256 descriptors and `--max-http-connections` (`serve.rs`).
    #[arg(
        long,
        env = "MAX_CONNECTIONS",
        default_value_t = 20_000,
        value_parser = at_least_one,
        allow_negative_numbers = true
    )]
    pub max_connections: usize,

    /// TCP connections the node may hold open before they are upgraded to
    /// WebSockets (plain HTTP, keep-alive, heads still arriving), over
    /// every address; past it, one is closed to make room: the address
    /// holding the most gives one up, or, all holding one, the one idle
    /// longest (`limits/http.rs`).
    /// Lowered at start, with `--max-connections`, to fit the
    /// file-descriptor limit (at most a quarter of it). At least 1.
    #[arg(
        long,
        env = "MAX_HTTP_CONNECTIONS",
        default_value_t = 4_096,
        value_parser = at_least_one,
        allow_negative_numbers = true
    )]
    pub max_http_connections: usize,

    /// TCP connections one peer address (an IPv6 /64) may hold open at
    /// once before its requests are read (plain HTTP, and WebSockets until
    /// their upgrade); the next is closed at once. Not counted for a
    /// `--trusted-proxy` peer, which carries everyone's. 0 turns the limit
    /// off (for load tests).
    #[arg(long, env = "MAX_CONNECTIONS_PER_ADDR", default_value_t = 500)]
    pub max_connections_per_addr: usize,

    /// WebSockets one client address (an IPv6 /64) may hold open at once
    /// on this node, and so may one account over all its addresses; the
    /// next upgrade is refused with `429 too_many_sockets`. 0 turns the
    /// limit off (for load tests).
    #[arg(long, env = "MAX_SOCKETS_PER_ADDR", default_value_t = 50)]
    pub max_sockets_per_addr: usize,

    /// Seconds a new WebSocket has to send `hello`; then it is closed
    /// with 1008 (at least 1).
    #[arg(long, env = "HELLO_TIMEOUT_SECS", default_value_t = 10, value_parser = seconds_at_least_one)]
    pub hello_timeout_secs: u64,

    /// Seconds an HTTP connection has to send a request's headers (from
    /// its first byte, or from the end of the previous answer on a
    /// keep-alive connection: it is also the idle timeout), and again its
    /// body; then it is closed (at least 1).
    #[arg(long, env = "HEADER_TIMEOUT_SECS", default_value_t = 10, value_parser = seconds_at_least_one)]
    pub header_timeout_secs: u64,

    /// Seconds between the server's pings on each WebSocket; one that
    /// sends nothing (no pong, no message) for twice this is closed with
    /// 1008. 0 turns pings off.
    #[arg(long, env = "PING_SECS", default_value_t = 20, value_parser = seconds)]
    pub ping_secs: u64,

    /// Seconds a player may stay offline during their game before they
    /// forfeit by abandoning.
    #[arg(long, env = "ABANDON_SECS", default_value_t = 60, value_parser = seconds)]
    pub abandon_secs: u64,

    /// Seconds the opponents of a player who is offline during their game
    /// wait before they may claim the win or call it a draw (the abandon
    /// rule ends the game by itself after `--abandon-secs`).
    #[arg(long, env = "CLAIM_SECS", default_value_t = 15, value_parser = seconds)]
    pub claim_secs: u64,

    /// Seconds a room's host may stay offline before the host role passes
    /// to the member who has been in the room longest (signed-in members
    /// first, then seated guests). 0: never.
    #[arg(long, env = "HOST_HANDOVER_SECS", default_value_t = 60, value_parser = seconds)]
    pub host_handover_secs: u64,

    /// Milliseconds of a move's measured network lag (half the round trip
    /// of the server's pings) that the mover's clock is not charged, at
    /// most, per move. 0: clocks charge the arrival time.
    #[arg(long, env = "LAG_COMP_MS", default_value_t = 500, value_parser = millis)]
    pub lag_comp_ms: u64,

    /// Seconds a room with nobody online stays in memory (it is reloaded
    /// from the database when someone comes back).
    #[arg(long, env = "ROOM_IDLE_SECS", default_value_t = 600, value_parser = seconds)]
    pub room_idle_secs: u64,

    /// Milliseconds the computer thinks per move at Master level; the
    /// weaker levels take a share of it.
    #[arg(long, env = "BOT_MS", default_value_t = 2000, value_parser = millis)]
    pub bot_ms: u64,

    /// Milliseconds the analysis of a finished game searches each of its
    /// positions (Master level).
    #[arg(long, env = "ANALYSIS_MS", default_value_t = 400, value_parser = millis)]
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
    #[arg(long, env = "AUTOSTART_SECS", default_value_t = 30, value_parser = seconds)]
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
    #[arg(long, env = "MESSAGE_RATE", default_value_t = 20.0, value_parser = rate)]
    pub message_rate: f64,

    /// Messages a connection may send at once before `--message-rate`
    /// applies (at least 1).
    #[arg(long, env = "MESSAGE_BURST", default_value_t = 40.0, value_parser = burst)]
    pub message_burst: f64,

    /// Rooms one client address may create at once (`POST /api/rooms`);
    /// then one more every `--room-every-secs`. 0 turns the limit off.
    #[arg(long, env = "ROOM_BURST", default_value_t = 10)]
    pub room_burst: u32,

    /// Seconds for one more room creation to come back to an address
    /// (and to an account). 0 turns the limit off, as `--room-burst 0`.
    #[arg(long, env = "ROOM_EVERY_SECS", default_value_t = 6, value_parser = seconds)]
    pub room_every_secs: u64,

    /// Games one client address (and one account) may start at once with
    /// `start` or `rematch` (each is a stored game once it ends); then
    /// one more every `--game-every-secs`. 0 turns the limit off.
    #[arg(long, env = "GAME_BURST", default_value_t = 60)]
    pub game_burst: u32,

    /// Seconds for one more game start to come back to an address (and
    /// to an account). 0 turns the limit off, as `--game-burst 0`.
    #[arg(long, env = "GAME_EVERY_SECS", default_value_t = 2, value_parser = seconds)]
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

    /// Seconds for one more registration to come back to an address. 0
    /// turns the limit off, as `--register-burst 0`.
    #[arg(long, env = "REGISTER_EVERY_SECS", default_value_t = 60, value_parser = seconds)]
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
    #[arg(long, env = "TURN_SWEEP_SECS", default_value_t = 5, value_parser = seconds)]
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

/// `--public-url`: `http://` or `https://`, a [`host_and_port`], and
/// nothing after it but the slashes it may end with, which are dropped
/// (`https://games.example.org/` gives `https://games.example.org/r/CODE`,
/// not `…org//r/CODE`). No path: the pages ask for `/api/…` and `/js/…`
/// at the root of the host, so links under a path would lead where the
/// site is not. No user, query or fragment: everything here is copied
/// into invite links, mail and QR images.
fn public_url(text: &str) -> Result<String, String> {
    let url = text.trim_end_matches('/');
    let (scheme, rest) = url
        .split_once("://")
        .ok_or("not an absolute URL: give http:// or https:// and a host")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Err(format!(
            "the scheme {scheme:?} is not http or https (links are opened by browsers)"
        ));
    }
    if rest.contains(['/', '?', '#']) {
        return Err(
            "only a scheme and host[:port]: no path (the site is served at the root of its \
             host), query or fragment"
                .to_string(),
        );
    }
    host_and_port(rest)?;
    Ok(url.to_string())
}

/// `--allowed-host` (and the host of the URLs): a DNS name (letters,
/// digits, `-` and `_`, in dot-separated labels), an IPv4 address or an
/// IPv6 one in brackets, then `:PORT` or not, the port written plainly
/// (1 to 65535, no leading zero: it is compared with `Host` headers as
/// text, and copied into links).
fn host_and_port(text: &str) -> Result<String, String> {
    if text.contains('@') {
        return Err("no user or password before the host (no @)".to_string());
    }
    let (host, port) = if let Some(inner) = text.strip_prefix('[') {
        let (v6, after) = inner
            .split_once(']')
            .ok_or("an IPv6 address in [ ] lacks its ]")?;
        v6.parse::<std::net::Ipv6Addr>()
            .map_err(|_| format!("[{v6}] is not an IPv6 address"))?;
        match after {
            "" => (text, None),
            _ => match after.strip_prefix(':') {
                Some(port) => (&text[..text.len() - after.len()], Some(port)),
                None => return Err(format!("{after:?} after [{v6}] is not :PORT")),
            },
        }
    } else {
        let (host, port) = match text.rsplit_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (text, None),
        };
        let label_ok = |label: &str| {
            !label.is_empty()
                && label.len() <= 63
                && label
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_')
        };
        if host.is_empty() {
            return Err("no host".to_string());
        }
        if host.len() > 253 || !host.split('.').all(label_ok) {
            return Err(format!(
                "{host:?} is not a host name (letters, digits, - and _ between dots; an IPv6 \
                 address goes in [ ])"
            ));
        }
        (host, port)
    };
    if let Some(port) = port {
        let plain = port
            .parse::<u16>()
            .ok()
            .filter(|p| *p > 0 && p.to_string() == port);
        if plain.is_none() {
            return Err(format!(
                "the port {port:?} of {host} is not a number from 1 to 65535 written plainly"
            ));
        }
    }
    Ok(text.to_string())
}

/// `--allowed-origin`: an origin as browsers write it, `http://` or
/// `https://` and [`host_and_port`] (a slash after it is dropped). Other
/// schemes are never allowed (`app/hosts.rs`), so one here would be a
/// setting that does nothing.
fn origin(text: &str) -> Result<String, String> {
    let origin = text.strip_suffix('/').unwrap_or(text);
    let (scheme, rest) = origin
        .split_once("://")
        .ok_or("not an origin: give http:// or https:// and host[:port]")?;
    if !scheme.eq_ignore_ascii_case("http") && !scheme.eq_ignore_ascii_case("https") {
        return Err(format!("the scheme {scheme:?} is not http or https"));
    }
    if rest.contains(['/', '?', '#']) {
        return Err("an origin is scheme://host[:port], with no path, query or fragment".into());
    }
    host_and_port(rest)?;
    Ok(origin.to_string())
}

/// `--node-id`: 1 to 64 of `A-Z`, `a-z`, `0-9`, `-` and `_`. The id is
/// part of the node's NATS subjects (`bg.node.ID.room`): a `.` would
/// split it, `*` and `>` are wildcards (another node's traffic), and an
/// empty one or a space is no subject at all.
fn node_id(text: &str) -> Result<String, String> {
    let ok = (1..=64).contains(&text.len())
        && text
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if ok {
        Ok(text.to_string())
    } else {
        Err("a node id is 1 to 64 letters (A-Z, a-z), digits, - or _".to_string())
    }
}

/// `--mail-from`: a mailbox as the mail's `From` takes it
/// (`noreply@example.org`, or `Name <noreply@example.org>`), checked at
/// start rather than at the first mail.
fn mailbox(text: &str) -> Result<String, String> {
    text.parse::<lettre::message::Mailbox>().map_err(|e| {
        format!("not a mail address (`name@example.org` or `Name <name@example.org>`): {e}")
    })?;
    Ok(text.to_string())
}

/// The longest time any flag sets: a year. Past it a time would only
/// overflow the clock's arithmetic (a ping every 2^62 s panicked every
/// socket), and no setting needs more.
const LONGEST_SECS: u64 = 365 * 24 * 60 * 60;

/// A number of seconds, 0 to a year.
fn seconds(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n <= LONGEST_SECS => Ok(n),
        Ok(_) => Err(format!("at most {LONGEST_SECS} (a year)")),
        Err(_) => Err("not a whole number of seconds".to_string()),
    }
}

/// A number of seconds, 1 to a year: a timeout of 0 would close every
/// connection at once.
fn seconds_at_least_one(text: &str) -> Result<u64, String> {
    match seconds(text)? {
        0 => Err("0 would close every connection at once: give at least 1".to_string()),
        n => Ok(n),
    }
}

/// A number of milliseconds, 0 to a year.
fn millis(text: &str) -> Result<u64, String> {
    match text.parse::<u64>() {
        Ok(n) if n <= LONGEST_SECS * 1000 => Ok(n),
        Ok(_) => Err(format!("at most {} (a year)", LONGEST_SECS * 1000)),
        Err(_) => Err("not a whole number of milliseconds".to_string()),
    }
}

/// Messages a second: a number from 0 (no limit) to a million.
fn rate(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(r) if (0.0..=1_000_000.0).contains(&r) => Ok(r),
        _ => Err("a number of messages a second from 0 to 1000000".to_string()),
    }
}

/// Messages at once: a number from 1 to a million.
fn burst(text: &str) -> Result<f64, String> {
    match text.parse::<f64>() {
        Ok(b) if (1.0..=1_000_000.0).contains(&b) => Ok(b),
        _ => Err("a number of messages from 1 to 1000000".to_string()),
    }
}

/// A count that 0 would make useless (every room, or every socket,
/// refused as full): at least 1.
fn at_least_one(text: &str) -> Result<usize, String> {
    match text.parse::<usize>() {
        Ok(0) => Err("0 would refuse every one: give at least 1".to_string()),
        Ok(n) => Ok(n),
        Err(_) => Err("not a whole number of at least 1".to_string()),
    }
}

/// `--smtp-url`, as the mailer reads it (`lettre`'s
/// `AsyncSmtpTransport::from_url`): `smtp://` (plain, or with
/// `?tls=required` / `?tls=opportunistic` STARTTLS) or `smtps://`, and a
/// host. Its own parser, not a function: clap's error for a function
/// repeats the value, and this one may hold the SMTP password.
#[derive(Clone)]
struct SmtpUrl;

impl SmtpUrl {
    /// Why `url` is not one the mailer can use; the message never
    /// repeats it.
    fn check(url: &str) -> Result<(), String> {
        let scheme = url.split_once("://").map(|(s, _)| s.to_ascii_lowercase());
        let tls = url
            .split_once('?')
            .map(|(_, query)| query)
            .into_iter()
            .flat_map(|q| q.split('&'))
            .find_map(|pair| pair.strip_prefix("tls="));
        match (scheme.as_deref(), tls) {
            (Some("smtp"), None | Some("required" | "opportunistic")) | (Some("smtps"), _) => {}
            (Some("smtp"), Some(_)) => {
                return Err("tls= is `required` (STARTTLS) or `opportunistic`".to_string())
            }
            _ => return Err("the scheme is smtp:// or smtps://".to_string()),
        }
        lettre::AsyncSmtpTransport::<lettre::Tokio1Executor>::from_url(url)
            .map(|_| ())
            .map_err(|e| e.to_string())
    }
}

impl clap::builder::TypedValueParser for SmtpUrl {
    type Value = String;

    fn parse_ref(
        &self,
        cmd: &clap::Command,
        arg: Option<&clap::Arg>,
        value: &std::ffi::OsStr,
    ) -> Result<String, clap::Error> {
        let name = arg.map_or("--smtp-url".to_string(), |a| a.to_string());
        let refuse = |why: String| {
            clap::Error::raw(
                clap::error::ErrorKind::ValueValidation,
                format!("invalid value for '{name}' (not shown: it may hold a password): {why}\n"),
            )
            .with_cmd(cmd)
        };
        let url = value
            .to_str()
            .ok_or_else(|| refuse("not UTF-8".to_string()))?;
        SmtpUrl::check(url).map_err(refuse)?;
        Ok(url.to_string())
    }
}

/// `DATABASE_URL` for the messages about it: a PostgreSQL URL as
/// `database NAME on HOST:PORT`, read as the store's writer reads it
/// (`tokio_postgres`), never with its password; an SQLite one as given
/// (it holds no password). An error names what the writer refuses: a
/// parameter it does not know, a bad value.
pub fn database_target(url: &str) -> Result<String, String> {
    if !url.starts_with("postgres://") && !url.starts_with("postgresql://") {
        return Ok(format!("the SQLite database {url}"));
    }
    let config: tokio_postgres::Config = url.parse().map_err(|e: tokio_postgres::Error| {
        // "invalid connection string" alone; its source names the
        // parameter ("unknown option `bogus`").
        match std::error::Error::source(&e) {
            Some(why) => format!("--database-url: {e}: {why}"),
            None => format!("--database-url: {e}"),
        }
    })?;
    let hosts: Vec<String> = config
        .get_hosts()
        .iter()
        .enumerate()
        .map(|(i, host)| {
            let port = config
                .get_ports()
                .get(i)
                .or(config.get_ports().first())
                .copied()
                .unwrap_or(5432);
            match host {
                tokio_postgres::config::Host::Tcp(name) => format!("{name}:{port}"),
                #[cfg(unix)]
                tokio_postgres::config::Host::Unix(dir) => format!("{}", dir.display()),
            }
        })
        .collect();
    let hosts = if hosts.is_empty() {
        "the default host".to_string()
    } else {
        hosts.join(",")
    };
    let name = config
        .get_dbname()
        .or(config.get_user())
        .unwrap_or("(default)");
    Ok(format!("the PostgreSQL database {name:?} on {hosts}"))
}

/// A URL for messages: the user and password (or token) before an `@`
/// left out, for each of a comma-separated list (NATS takes several).
pub fn without_credentials(url: &str) -> String {
    url.split(',')
        .map(|one| match one.split_once("://") {
            Some((scheme, rest)) => {
                let end = rest.find(['/', '?', '#']).unwrap_or(rest.len());
                match rest[..end].rfind('@') {
                    Some(at) => format!("{scheme}://…@{}", &rest[at + 1..]),
                    None => one.to_string(),
                }
            }
            None => one.to_string(),
        })
        .collect::<Vec<_>>()
        .join(",")
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

    /// The web folder: `--web-dir`, else `./web` when it holds
    /// `index.html`, else [`BUILT_WEB_DIR`]. [`Config::checked_web_dir`]
    /// says whether it holds the client.
    pub fn web_dir(&self) -> PathBuf {
        self.web_dir.clone().unwrap_or_else(|| {
            let local = PathBuf::from("web");
            if local.join("index.html").is_file() {
                local
            } else {
                PathBuf::from(BUILT_WEB_DIR)
            }
        })
    }

    /// [`Config::web_dir`], or why it is not the client's folder: one
    /// without `index.html` would serve a site whose every page is 404
    /// while `/healthz` says all is well, so the server refuses to start.
    pub fn checked_web_dir(&self) -> Result<PathBuf, String> {
        let dir = self.web_dir();
        let problem = match std::fs::metadata(&dir) {
            Err(e) => e.to_string(),
            Ok(meta) if !meta.is_dir() => "not a folder".to_string(),
            Ok(_) if !dir.join("index.html").is_file() => "no index.html in it".to_string(),
            Ok(_) => return Ok(dir),
        };
        Err(match &self.web_dir {
            Some(_) => format!(
                "--web-dir {}: {problem}; give the folder of the web client (`web/` of the \
                 source, with index.html)",
                dir.display()
            ),
            None => format!(
                "no web client: ./web has no index.html, and {}: {problem}; give its folder with \
                 --web-dir (WEB_DIR)",
                dir.display()
            ),
        })
    }
}

/// The `web/` folder of the source tree the binary was built from: the
/// last default of `--web-dir`, so `cargo run` works from any directory.
pub const BUILT_WEB_DIR: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/../web");

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
    /// `stuns:`, `turn:` or `turns:`. A TURN server needs both its
    /// username and credential: browsers refuse one without
    /// (`RTCPeerConnection` throws `InvalidAccessError`).
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
            [user, pass] if !user.is_empty() && !pass.is_empty() => {
                (Some(user.clone()), Some(pass.clone()))
            }
            _ => return Err("an ICE server is URL or URL,USERNAME,CREDENTIAL".to_string()),
        };
        if username.is_none() && (urls.starts_with("turn:") || urls.starts_with("turns:")) {
            return Err(format!(
                "a TURN server needs a username and a credential: {urls},USERNAME,CREDENTIAL"
            ));
        }
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
        let turns: IceServer = "turns:turn.example.org:5349,lan,s3cret".parse().unwrap();
        assert_eq!(turns.credential.as_deref(), Some("s3cret"));
        for bad in [
            "http://x",
            "stun:",
            "turn:x,onlyuser",
            "turn:x,,pass",
            "turn:x,user,",
            "",
            // TURN without credentials: browsers throw on it.
            "turn:turn.example.org:3478",
            "turns:turn.example.org:5349",
        ] {
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

    fn parsed(args: &[&str]) -> Result<Config, clap::Error> {
        Config::try_parse_from(std::iter::once("server").chain(args.iter().copied()))
    }

    /// The error of a refused flag, as clap writes it.
    fn refused(args: &[&str]) -> String {
        match parsed(args) {
            Ok(_) => panic!("{args:?} accepted"),
            Err(e) => {
                assert_eq!(e.exit_code(), 2, "{args:?}");
                e.to_string()
            }
        }
    }

    #[test]
    fn a_public_url_is_http_or_https_and_a_host_only() {
        for good in [
            "http://localhost:8080",
            "https://games.example.org",
            "HTTPS://Games.Example.org:8443/",
            "http://192.0.2.7",
            "http://[::1]:8080",
            "http://lan_box",
        ] {
            assert!(parsed(&["--public-url", good]).is_ok(), "{good}");
        }
        for bad in [
            "notaurl",
            "ftp://x.org",
            "javascript:alert(1)//",
            "http://a b.org",
            "http://",
            "https://x.org/games",
            "https://x.org?x=1",
            "https://x.org#top",
            "https://user:pass@x.org",
            "https://x.org:0",
            "https://x.org:08080",
            "https://x.org:99999",
            "https://x..org",
            "http://[::1",
            "http://[nope]:80",
            "http://x.org\u{0}",
        ] {
            let error = refused(&["--public-url", bad]);
            assert!(error.contains("--public-url"), "{error}");
        }
    }

    #[test]
    fn allowed_hosts_and_origins_are_checked() {
        let config = parsed(&[
            "--allowed-host",
            "games.example:8443,192.0.2.7,[2001:db8::1]:80",
            "--allowed-origin",
            "http://dev.example:5173,https://play.example/",
        ])
        .unwrap();
        assert_eq!(
            config.allowed_hosts,
            ["games.example:8443", "192.0.2.7", "[2001:db8::1]:80"]
        );
        // The slash browsers never write is dropped.
        assert_eq!(
            config.allowed_origins,
            ["http://dev.example:5173", "https://play.example"]
        );
        for bad in [
            "",
            "a/b",
            "x.org:",
            "x.org:0",
            "x.org:port",
            "u@x.org",
            "a b",
            "*",
        ] {
            refused(&["--allowed-host", bad]);
        }
        for bad in [
            "x.org",
            "ftp://x.org",
            "null",
            "http://x.org/path",
            "http://x.org?q",
            "http://",
            "chrome-extension://abc",
        ] {
            refused(&["--allowed-origin", bad]);
        }
    }

    #[test]
    fn the_smtp_url_is_one_the_mailer_reads_and_is_never_repeated() {
        for good in [
            "smtp://127.0.0.1:25",
            "smtps://user:password@mail.example.org",
            "smtp://user:password@mail.example.org?tls=required",
            "smtp://mail.example.org:587?tls=opportunistic",
        ] {
            assert!(parsed(&["--smtp-url", good]).is_ok(), "{good}");
        }
        for bad in [
            "ftp://user:s3cr3t@x.org",
            "mail.example.org",
            "smtp://user:s3cr3t@x.org?tls=require",
            "smtp://user:s3cr3t@",
            "smtps://",
        ] {
            let error = refused(&["--smtp-url", bad]);
            assert!(error.contains("--smtp-url"), "{error}");
            assert!(
                !error.contains("s3cr3t"),
                "the password is repeated: {error}"
            );
        }
    }

    #[test]
    fn mail_from_is_an_address() {
        for good in ["noreply@example.org", "Board games <noreply@example.org>"] {
            assert_eq!(parsed(&["--mail-from", good]).unwrap().mail_from, good);
        }
        assert!(parsed(&[]).is_ok(), "the default is an address");
        for bad in ["nobody", "", "<>", "a@b@c"] {
            refused(&["--mail-from", bad]);
        }
    }

    #[test]
    fn a_node_id_is_letters_digits_dashes_and_underscores() {
        let long = "n".repeat(64);
        for good in ["node1", "a-Z_09", long.as_str()] {
            let config = parsed(&["--node-id", good]).unwrap();
            assert_eq!(config.node_id.as_deref(), Some(good));
        }
        let too_long = "n".repeat(65);
        for bad in [
            "",
            "node 1",
            "*",
            ">",
            "a.b*>",
            "a.b",
            "é",
            too_long.as_str(),
        ] {
            let error = refused(&["--node-id", bad]);
            assert!(error.contains("1 to 64"), "{error}");
        }
    }

    #[test]
    fn counts_that_zero_would_make_useless_are_at_least_one() {
        for flag in ["--max-rooms", "--max-connections", "--max-http-connections"] {
            assert!(refused(&[flag, "0"]).contains("at least 1"), "{flag}");
            assert!(refused(&[flag, "-1"]).contains("at least 1"), "{flag}");
            assert!(parsed(&[flag, "1"]).is_ok(), "{flag}");
        }
        // A zero interval lifts its limit, as a zero burst does
        // (`limits/tests.rs`); README and --help say so.
        let config = parsed(&[
            "--room-every-secs",
            "0",
            "--register-every-secs",
            "0",
            "--game-every-secs",
            "0",
        ])
        .unwrap();
        assert_eq!((config.room_every_secs, config.register_every_secs), (0, 0));
    }

    #[test]
    fn times_and_rates_are_within_what_the_clock_and_the_buckets_take() {
        // A ping every 2^62 s started, then panicked every socket.
        for flag in ["--ping-secs", "--room-idle-secs", "--autostart-secs"] {
            assert!(
                refused(&[flag, "4611686018427387904"]).contains("a year"),
                "{flag}"
            );
            assert!(parsed(&[flag, "31536000"]).is_ok(), "{flag}");
        }
        assert!(refused(&["--bot-ms", "31536000001"]).contains("a year"));
        for flag in ["--header-timeout-secs", "--hello-timeout-secs"] {
            assert!(refused(&[flag, "0"]).contains("at least 1"), "{flag}");
            assert!(
                refused(&[flag, "18446744073709551615"]).contains("a year"),
                "{flag}"
            );
        }
        for bad in ["0", "0.5", "NaN", "inf", "-3"] {
            assert!(parsed(&["--message-burst", bad]).is_err(), "burst {bad}");
        }
        for bad in ["NaN", "inf", "-1", "1e9"] {
            assert!(parsed(&["--message-rate", bad]).is_err(), "rate {bad}");
        }
        let ok = parsed(&[
            "--message-rate",
            "0",
            "--message-burst",
            "1",
            "--ping-secs",
            "0",
        ])
        .unwrap();
        assert_eq!(
            (ok.message_rate, ok.message_burst, ok.ping_secs),
            (0.0, 1.0, 0)
        );
    }

    #[test]
    fn the_web_folder_must_hold_the_client() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("a-file");
        std::fs::write(&file, "x").unwrap();
        let missing = dir.path().join("missing");
        for (given, why) in [
            (&missing, "No such file"),
            (&file, "not a folder"),
            (&dir.path().to_path_buf(), "no index.html"),
        ] {
            let config = parsed(&["--web-dir", &given.display().to_string()]).unwrap();
            let error = config.checked_web_dir().unwrap_err();
            assert!(error.starts_with("--web-dir "), "{error}");
            assert!(error.contains(&given.display().to_string()), "{error}");
            assert!(error.contains(why), "{error}");
        }
        std::fs::write(dir.path().join("index.html"), "<!doctype html>").unwrap();
        let config = parsed(&["--web-dir", &dir.path().display().to_string()]).unwrap();
        assert_eq!(config.checked_web_dir().unwrap(), dir.path());
        // Without the flag: ./web, or the source tree's (the tests run in
        // server/, which has none).
        let config = parsed(&[]).unwrap();
        assert!(config
            .checked_web_dir()
            .unwrap()
            .join("index.html")
            .is_file());
    }

    #[test]
    fn a_database_url_is_named_without_its_password() {
        let target =
            database_target("postgres://bob:hunter2@db.example:5433/games?connect_timeout=3")
                .unwrap();
        assert_eq!(
            target,
            "the PostgreSQL database \"games\" on db.example:5433"
        );
        let target = database_target("postgresql://bob@127.0.0.1/").unwrap();
        assert_eq!(target, "the PostgreSQL database \"bob\" on 127.0.0.1:5432");
        assert_eq!(
            database_target("sqlite::memory:").unwrap(),
            "the SQLite database sqlite::memory:"
        );
        // A parameter the writer's driver does not know is named.
        let error = database_target("postgres://bob:hunter2@db/games?bogus=1").unwrap_err();
        assert!(error.contains("unknown option `bogus`"), "{error}");
        assert!(!error.contains("hunter2"), "{error}");
        let error = database_target("postgres://db/games?port=x").unwrap_err();
        assert!(error.contains("`port`"), "{error}");
    }

    #[test]
    fn a_turn_server_without_its_credentials_is_refused_naming_the_flag() {
        for bad in ["turn:turn.example.org:3478", "turns:turn.example.org:5349"] {
            let error = refused(&["--ice-server", bad]);
            assert!(error.contains("--ice-server"), "{error}");
            assert!(error.contains("USERNAME,CREDENTIAL"), "{error}");
        }
        let config = parsed(&[
            "--ice-server",
            "stun:stun.example.org:3478",
            "--ice-server",
            "turn:turn.example.org:3478,lan,s3cret",
        ])
        .unwrap();
        assert_eq!(config.ice_servers.len(), 2);
    }

    #[test]
    fn urls_in_messages_lose_their_credentials() {
        assert_eq!(
            without_credentials("nats://user:pw@nats:4222,nats://token@other:4222/x"),
            "nats://…@nats:4222,nats://…@other:4222/x"
        );
        assert_eq!(
            without_credentials("nats://127.0.0.1:4222"),
            "nats://127.0.0.1:4222"
        );
    }
}
