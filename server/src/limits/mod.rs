//! Per-client limits on the requests that cost the server something:
//! creating a room (a slot of `--max-rooms` for `--room-idle-secs`),
//! registering (an argon2 hash and a database row), failing to log in (an
//! argon2 verification, and a password guess), and the rest below; and on
//! what a client holds open at once (sockets, seeks: [`open`]).
//!
//! A client is its address ([`Who::Addr`]) and, when it is signed in, its
//! account too ([`Who::Account`]): a signed-in request counts against
//! both ([`Limiter::take_both`]), so neither many addresses behind one
//! account nor many accounts behind one address get past a limit.
//!
//! Each limit is a token bucket per client: `burst` requests at once,
//! then one more every `interval`. The buckets of one limit live in one
//! map with a hard bound: when it is full, buckets that have refilled
//! completely are forgotten (they carry no information), and if none has,
//! a new address is refused rather than remembered, so a crowd of
//! addresses cannot grow the map, nor reset its own counts by pushing
//! itself out.
//!
//! Who the client is: the TCP peer, unless that peer is a reverse proxy
//! the operator named with `--trusted-proxy` (an address or a CIDR range,
//! [`TrustedProxy`]); then the address the proxy reports (see
//! [`address::client_ip`]). IPv6 clients are counted per /64 prefix,
//! since one host commonly holds a whole /64.
//!
//! We keep our own small bucket map instead of `governor`'s keyed limiter:
//! its keyed state stores grow without bound (they can only be shrunk
//! afterwards), a store cannot refuse a new key, and it cannot give a
//! token back, which the failed-login limit needs: only failures count,
//! yet a login must hold its token while its password is checked, or
//! concurrent guesses would all pass ([`Limiter::give_back`]).

pub mod address;
pub mod client_ip;
pub mod http;
pub mod open;

use std::collections::HashMap;
use std::net::{IpAddr, SocketAddr};
use std::sync::{Mutex, PoisonError};
use std::time::{Duration, Instant};

use axum::http::HeaderMap;

use crate::config::Config;
use address::{bucket_key, client_ip, trusts, TrustedProxy};

/// Failed logins an address may make at once, and how fast that allowance
/// comes back (one every 6 s: 10 a minute).
pub const LOGIN_BURST: u32 = 10;
pub const LOGIN_INTERVAL: Duration = Duration::from_secs(6);

/// Password checks (logins, right or wrong) an address, or an account,
/// may ask for at once, and how fast that allowance comes back (one
/// every 3 s): each is an argon2 verification, tens of milliseconds of a
/// core, so even right passwords are bounded.
pub const PASSWORD_CHECK_BURST: u32 = 60;
pub const PASSWORD_CHECK_INTERVAL: Duration = Duration::from_secs(3);

/// Email links (recovery, confirmation) an address may ask for at once,
/// and how fast that allowance comes back (one a minute).
pub const MAIL_BURST: u32 = 5;
pub const MAIL_INTERVAL: Duration = Duration::from_secs(60);

/// Game imports (`POST /api/games/import`: every move replayed by the
/// rules) an address may make at once, and how fast that allowance comes
/// back (one every 3 s: 20 a minute).
pub const IMPORT_BURST: u32 = 20;
pub const IMPORT_INTERVAL: Duration = Duration::from_secs(3);

/// Hints (the room command `hint`: up to a second of a search slot each)
/// an address may ask for at once, over all its rooms and sockets, and
/// how fast that allowance comes back (one every 3 s: at most a third of
/// a core for one address).
pub const HINT_BURST: u32 = 10;
pub const HINT_INTERVAL: Duration = Duration::from_secs(3);

/// Challenges (`POST /api/challenges`) an address may make at once, and
/// how fast that allowance comes back (one every 3 min: 20 an hour).
pub const CHALLENGE_BURST: u32 = 20;
pub const CHALLENGE_INTERVAL: Duration = Duration::from_secs(180);

/// Replays (`GET /api/games/ID`, `GET /api/position`: every move played
/// again by the rules) an address may ask for, in units of
/// [`REPLAY_UNIT_MOVES`] moves (at least one a request): this many at
/// once, and one more every [`REPLAY_INTERVAL`] (10 a second: about a
/// hundredth of a core's replaying for one address).
pub const REPLAY_BURST: u32 = 600;
pub const REPLAY_INTERVAL: Duration = Duration::from_millis(100);
pub const REPLAY_UNIT_MOVES: usize = 100;

/// The replay units a request for `moves` moves costs.
pub fn replay_cost(moves: usize) -> u32 {
    u32::try_from(moves / REPLAY_UNIT_MOVES + 1).unwrap_or(u32::MAX)
}

/// Reads whose cost grows with an account's games (`GET /api/players/NAME`,
/// `GET /api/games`, a rating history) an address may make at once, and
/// how fast that allowance comes back (two a second).
pub const PROFILE_BURST: u32 = 60;
pub const PROFILE_INTERVAL: Duration = Duration::from_millis(500);

/// Requests with a session cookie (`GET /api/me`, `/api/sessions`,
/// `/api/turns`, … every request whose session is looked up, and the
/// WebSocket upgrades that sign a socket in) an address may make at
/// once, and how fast that allowance comes back (10 a second, as room lookups); and as
/// many for one account from any addresses. Each lookup is a store write
/// (the session's `last_seen`), so the address's allowance is spent
/// before the session is looked up; the account's, once it is known.
/// The web client asks `GET /api/me` once a page and polls at most every
/// 3 s (challenges), so people browsing never come near it.
pub const SESSION_BURST: u32 = 600;
pub const SESSION_INTERVAL: Duration = Duration::from_millis(100);

/// The limits of one server, built from its [`Config`].
pub struct Limits {
    /// `--trusted-proxy`: peers whose forwarding headers we believe.
    trusted_proxies: Vec<TrustedProxy>,
    /// `POST /api/rooms`.
    pub rooms: Limiter,
    /// `POST /api/accounts`.
    pub registrations: Limiter,
    /// `POST /api/login` answered `bad_login` (and wrong current
    /// passwords), per address and per account.
    pub failed_logins: Limiter,
    /// Every `POST /api/login`, right or wrong, per address and per
    /// account.
    pub logins: Limiter,
    /// `POST /api/recover` and `POST /api/email`: mail sent on request.
    pub mail: Limiter,
    /// Room lookups by code: `GET /api/rooms/CODE`, its `qr.svg` and
    /// `games`, and `GET /ws/CODE` (`--lookup-burst`, `--lookup-rate`).
    pub lookups: Limiter,
    /// `POST /api/games/import`.
    pub imports: Limiter,
    /// `POST /api/challenges`.
    pub challenges: Limiter,
    /// The room command `hint`, over every socket of an address.
    pub hints: Limiter,
    /// Replays of games and positions, by their length.
    pub replays: Limiter,
    /// The room commands `start` and `rematch` (`--game-burst`).
    pub games: Limiter,
    /// Profiles, histories and rating histories.
    pub profiles: Limiter,
    /// Session lookups: every request with a session cookie, per address
    /// and per account.
    pub sessions: Limiter,
}

impl Limits {
    pub fn new(config: &Config) -> Limits {
        let max = config.rate_limit_max_addrs;
        Limits {
            trusted_proxies: config.trusted_proxies.clone(),
            rooms: Limiter::new(
                config.room_burst,
                Duration::from_secs(config.room_every_secs),
                max,
            ),
            registrations: Limiter::new(
                config.register_burst,
                Duration::from_secs(config.register_every_secs),
                max,
            ),
            failed_logins: Limiter::new(LOGIN_BURST, LOGIN_INTERVAL, max),
            logins: Limiter::new(PASSWORD_CHECK_BURST, PASSWORD_CHECK_INTERVAL, max),
            mail: Limiter::new(MAIL_BURST, MAIL_INTERVAL, max),
            lookups: Limiter::new(
                config.lookup_burst,
                match config.lookup_rate {
                    0 => Duration::ZERO,
                    rate => Duration::from_secs(1) / rate,
                },
                max,
            ),
            imports: Limiter::new(IMPORT_BURST, IMPORT_INTERVAL, max),
            challenges: Limiter::new(CHALLENGE_BURST, CHALLENGE_INTERVAL, max),
            hints: Limiter::new(HINT_BURST, HINT_INTERVAL, max),
            replays: Limiter::new(REPLAY_BURST, REPLAY_INTERVAL, max),
            games: Limiter::new(
                config.game_burst,
                Duration::from_secs(config.game_every_secs),
                max,
            ),
            profiles: Limiter::new(PROFILE_BURST, PROFILE_INTERVAL, max),
            sessions: Limiter::new(SESSION_BURST, SESSION_INTERVAL, max),
        }
    }

    /// Whether a `--trusted-proxy` `peer` says the client reached it over
    /// TLS (`X-Forwarded-Proto: https`). Anyone else's word is ignored.
    pub fn forwarded_https(&self, peer: SocketAddr, headers: &HeaderMap) -> bool {
        trusts(&self.trusted_proxies, peer.ip())
            && headers
                .get("x-forwarded-proto")
                .and_then(|v| v.to_str().ok())
                .is_some_and(|p| p.trim().eq_ignore_ascii_case("https"))
    }

    /// Whether `peer` is a `--trusted-proxy` (its connections carry
    /// everyone's requests).
    pub fn is_trusted_proxy(&self, peer: IpAddr) -> bool {
        trusts(&self.trusted_proxies, peer)
    }

    /// The client's address for a request from `peer` with `headers`.
    pub fn client_ip(&self, peer: SocketAddr, headers: &HeaderMap) -> IpAddr {
        client_ip(peer, headers, &self.trusted_proxies)
    }
}

/// Who a limit counts: a client address (an IPv6 address by its /64,
/// [`address::bucket_key`]), a signed-in account (by its id), or a
/// browser (by its token's hash: a guest's history is its browser's,
/// which any address may ask for).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Who {
    Addr(IpAddr),
    Account(i64),
    /// The first 16 bytes of the browser token's SHA-256.
    Browser([u8; 16]),
}

impl Who {
    /// The browser whose token hashes to `token`.
    pub fn browser(token: &crate::model::ids::TokenHash) -> Who {
        let hex = token.as_str().as_bytes();
        let mut key = [0u8; 16];
        for (i, byte) in key.iter_mut().enumerate() {
            let pair = hex.get(2 * i..2 * i + 2).unwrap_or_default();
            *byte = std::str::from_utf8(pair)
                .ok()
                .and_then(|p| u8::from_str_radix(p, 16).ok())
                .unwrap_or(0);
        }
        Who::Browser(key)
    }
}

impl From<IpAddr> for Who {
    fn from(ip: IpAddr) -> Who {
        Who::Addr(bucket_key(ip))
    }
}

/// Token buckets per client (address or account), at most `max_addrs`
/// of them.
pub struct Limiter {
    burst: f64,
    /// One token comes back every `interval`.
    interval: Duration,
    max_addrs: usize,
    state: Mutex<Buckets>,
}

struct Buckets {
    map: HashMap<Who, Bucket>,
    /// When the map was last found full with no bucket to forget: no
    /// bucket can be full again before this instant, so new addresses are
    /// refused until then without looking through the map again.
    crowded_until: Option<Instant>,
}

#[derive(Clone, Copy)]
struct Bucket {
    tokens: f64,
    last: Instant,
}

#[derive(Clone, Copy, PartialEq)]
enum Op {
    /// Would a request pass? Changes nothing.
    Check,
    /// Spend a token if there is one; refuse otherwise.
    Take,
    /// Spend a token if there is one (a failure that already happened).
    Spend,
}

impl Limiter {
    /// `burst` requests at once, then one more every `interval`. A burst
    /// of 0 or an interval of 0 means no limit.
    pub fn new(burst: u32, interval: Duration, max_addrs: usize) -> Limiter {
        // Longer makes no sense and keeps the arithmetic far from overflow.
        const YEAR: Duration = Duration::from_secs(365 * 24 * 3600);
        Limiter {
            burst: f64::from(burst),
            interval: interval.min(YEAR),
            max_addrs: max_addrs.max(1),
            state: Mutex::new(Buckets {
                map: HashMap::new(),
                crowded_until: None,
            }),
        }
    }

    pub fn is_off(&self) -> bool {
        self.burst < 1.0 || self.interval.is_zero()
    }

    /// Spends one of `who`'s tokens, or says how long until it has one.
    pub fn take(&self, who: impl Into<Who>) -> Result<(), Duration> {
        self.apply(who, Instant::now(), Op::Take)
    }

    /// Spends `n` of `who`'s tokens (at most the whole burst: a request
    /// dearer than that costs the burst), or says how long until it has
    /// them; refused, it spends nothing.
    pub fn take_n(&self, who: impl Into<Who>, n: u32) -> Result<(), Duration> {
        let n = f64::from(n.max(1)).min(self.burst);
        self.apply_n(who, Instant::now(), Op::Take, n)
    }

    /// Spends one token of the address `ip` and one of `account` when
    /// the request is signed in; refused by either, it spends nothing.
    pub fn take_both(&self, ip: IpAddr, account: Option<i64>) -> Result<(), Duration> {
        self.take(ip)?;
        if let Some(account) = account {
            if let Err(wait) = self.take(Who::Account(account)) {
                self.give_back(ip);
                return Err(wait);
            }
        }
        Ok(())
    }

    /// Returns the tokens [`take_both`](Self::take_both) spent.
    pub fn give_back_both(&self, ip: IpAddr, account: Option<i64>) {
        self.give_back(ip);
        if let Some(account) = account {
            self.give_back(Who::Account(account));
        }
    }

    /// Whether [`take`](Self::take) would pass now, without spending.
    pub fn check(&self, who: impl Into<Who>) -> Result<(), Duration> {
        self.apply(who, Instant::now(), Op::Check)
    }

    /// Spends one of `who`'s tokens if it has one left.
    pub fn spend(&self, who: impl Into<Who>) {
        let _ = self.apply(who, Instant::now(), Op::Spend);
    }

    /// Returns a token [`take`](Self::take) spent on a request that, in
    /// the end, does not count (a login that succeeded). Taking first and
    /// giving back after is what keeps concurrent requests from all
    /// passing a limit that only failures spend: each holds its token
    /// while it is decided.
    pub fn give_back(&self, who: impl Into<Who>) {
        if self.is_off() {
            return;
        }
        let now = Instant::now();
        let mut state = self.lock();
        if let Some(bucket) = state.map.get_mut(&who.into()) {
            self.refill(bucket, now);
            bucket.tokens = (bucket.tokens + 1.0).min(self.burst);
        }
    }

    /// Addresses remembered now.
    pub fn len(&self) -> usize {
        self.lock().map.len()
    }

    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Buckets> {
        // The map is valid after any panic (every update is one
        // assignment), so a poisoned lock is still used.
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }

    fn apply(&self, who: impl Into<Who>, now: Instant, op: Op) -> Result<(), Duration> {
        self.apply_n(who, now, op, 1.0)
    }

    fn apply_n(&self, who: impl Into<Who>, now: Instant, op: Op, n: f64) -> Result<(), Duration> {
        if self.is_off() {
            return Ok(());
        }
        let key = who.into();
        let mut state = self.lock();
        if !state.map.contains_key(&key) {
            if state.map.len() >= self.max_addrs {
                self.make_room(&mut state, now)?;
            }
            if op == Op::Check {
                // A new address has its whole burst.
                return Ok(());
            }
            state.map.insert(
                key,
                Bucket {
                    tokens: self.burst,
                    last: now,
                },
            );
        }
        let Some(bucket) = state.map.get_mut(&key) else {
            return Ok(());
        };
        self.refill(bucket, now);
        if bucket.tokens >= n {
            if op != Op::Check {
                bucket.tokens -= n;
            }
            Ok(())
        } else {
            Err(self.interval.mul_f64(n - bucket.tokens))
        }
    }

    fn refill(&self, bucket: &mut Bucket, now: Instant) {
        let elapsed = now.saturating_duration_since(bucket.last);
        bucket.last = now;
        bucket.tokens =
            (bucket.tokens + elapsed.as_secs_f64() / self.interval.as_secs_f64()).min(self.burst);
    }

    /// Forgets the buckets that have refilled completely; if none has,
    /// refuses with the time until the first one will.
    fn make_room(&self, state: &mut Buckets, now: Instant) -> Result<(), Duration> {
        if let Some(until) = state.crowded_until {
            if now < until {
                return Err(until - now);
            }
        }
        let mut soonest = Duration::MAX;
        state.map.retain(|_, bucket| {
            self.refill(bucket, now);
            let missing = self.burst - bucket.tokens;
            if missing <= 0.0 {
                return false;
            }
            soonest = soonest.min(self.interval.mul_f64(missing));
            true
        });
        if state.map.len() < self.max_addrs {
            state.crowded_until = None;
            Ok(())
        } else {
            state.crowded_until = now.checked_add(soonest);
            Err(soonest)
        }
    }
}

#[cfg(test)]
mod tests;
