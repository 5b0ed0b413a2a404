use super::*;
use crate::limits::client_ip::too_many;
use axum::http::{header, HeaderValue, StatusCode};

fn ip(text: &str) -> IpAddr {
    text.parse().unwrap()
}

fn proxy(text: &str) -> TrustedProxy {
    text.parse().unwrap()
}

fn peer(text: &str) -> SocketAddr {
    SocketAddr::new(ip(text), 40_000)
}

fn headers(pairs: &[(&str, &str)]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.append(
            axum::http::HeaderName::from_bytes(name.as_bytes()).unwrap(),
            HeaderValue::from_str(value).unwrap(),
        );
    }
    map
}

#[test]
fn a_burst_then_one_per_interval() {
    let limiter = Limiter::new(3, Duration::from_secs(6), 100);
    let (a, b) = (ip("10.0.0.1"), ip("10.0.0.2"));
    let t0 = Instant::now();
    for _ in 0..3 {
        assert!(limiter.apply(a, t0, Op::Take).is_ok());
    }
    let wait = limiter.apply(a, t0, Op::Take).unwrap_err();
    assert_eq!(wait, Duration::from_secs(6));
    // Another address has its own bucket.
    assert!(limiter.apply(b, t0, Op::Take).is_ok());
    // Half an interval later: still refused, half the wait.
    let wait = limiter
        .apply(a, t0 + Duration::from_secs(3), Op::Take)
        .unwrap_err();
    assert!((wait.as_secs_f64() - 3.0).abs() < 0.01, "{wait:?}");
    assert!(limiter
        .apply(a, t0 + Duration::from_secs(6), Op::Take)
        .is_ok());
    assert!(limiter
        .apply(a, t0 + Duration::from_secs(6), Op::Take)
        .is_err());
}

#[test]
fn check_does_not_spend_and_spend_never_refuses() {
    let limiter = Limiter::new(2, Duration::from_secs(60), 100);
    let a = ip("10.0.0.1");
    let t0 = Instant::now();
    for _ in 0..5 {
        assert!(limiter.apply(a, t0, Op::Check).is_ok());
    }
    assert_eq!(limiter.len(), 0, "checking a new address stores nothing");
    let _ = limiter.apply(a, t0, Op::Spend);
    let _ = limiter.apply(a, t0, Op::Spend);
    let _ = limiter.apply(a, t0, Op::Spend);
    assert!(limiter.apply(a, t0, Op::Check).is_err());
    // Spending past zero did not dig a hole: one interval brings one back.
    assert!(limiter
        .apply(a, t0 + Duration::from_secs(60), Op::Check)
        .is_ok());
}

#[test]
fn failed_logins_use_up_an_addresss_allowance_only() {
    let limiter = Limiter::new(LOGIN_BURST, LOGIN_INTERVAL, 100);
    let (a, b) = (ip("10.0.0.1"), ip("10.0.0.2"));
    let t0 = Instant::now();
    for _ in 0..LOGIN_BURST {
        assert!(limiter.apply(a, t0, Op::Check).is_ok());
        let _ = limiter.apply(a, t0, Op::Spend);
    }
    assert_eq!(limiter.apply(a, t0, Op::Check), Err(LOGIN_INTERVAL));
    assert!(limiter.apply(b, t0, Op::Check).is_ok());
}

#[test]
fn zero_burst_or_interval_turns_a_limit_off() {
    for limiter in [
        Limiter::new(0, Duration::from_secs(6), 1),
        Limiter::new(5, Duration::ZERO, 1),
    ] {
        assert!(limiter.is_off());
        for n in 0..100u8 {
            assert!(limiter.take(IpAddr::from([10, 0, 0, n])).is_ok());
        }
        assert!(limiter.is_empty());
    }
}

#[test]
fn the_map_never_grows_past_its_cap() {
    const CAP: usize = 50;
    let limiter = Limiter::new(10, Duration::from_secs(6), CAP);
    let t0 = Instant::now();
    let addr = |n: u32| IpAddr::from((0x0a00_0000 + n).to_be_bytes());
    // Every address spends a token, so none is full and none may be
    // forgotten: the first CAP get in, the rest are refused.
    for n in 0..CAP as u32 {
        assert!(limiter.apply(addr(n), t0, Op::Take).is_ok());
    }
    for n in CAP as u32..(3 * CAP) as u32 {
        let wait = limiter.apply(addr(n), t0, Op::Take).unwrap_err();
        // The first bucket is full again after one interval.
        assert!(wait <= Duration::from_secs(6), "{wait:?}");
        // A failure spent by a refused address is not stored either.
        limiter.apply(addr(n), t0, Op::Spend).unwrap_err();
        assert_eq!(limiter.len(), CAP);
    }
    // A known address still gets its own tokens.
    assert!(limiter.apply(addr(0), t0, Op::Take).is_ok());
    // Once buckets have refilled they are forgotten, making room.
    let later = t0 + Duration::from_secs(60);
    assert!(limiter.apply(addr(1000), later, Op::Take).is_ok());
    assert!(limiter.len() <= CAP);
    assert_eq!(limiter.len(), 1);
}

#[test]
fn a_crowded_map_refuses_until_the_first_bucket_can_be_full() {
    let limiter = Limiter::new(2, Duration::from_secs(10), 2);
    let t0 = Instant::now();
    limiter.apply(ip("10.0.0.1"), t0, Op::Take).unwrap();
    limiter.apply(ip("10.0.0.2"), t0, Op::Take).unwrap();
    limiter.apply(ip("10.0.0.2"), t0, Op::Take).unwrap();
    let wait = limiter.apply(ip("10.0.0.3"), t0, Op::Take).unwrap_err();
    assert_eq!(wait, Duration::from_secs(10));
    let t1 = t0 + Duration::from_secs(4);
    let wait = limiter.apply(ip("10.0.0.3"), t1, Op::Check).unwrap_err();
    assert_eq!(wait, Duration::from_secs(6));
    // 10.0.0.1 is full again at t0 + 10 s and makes room.
    let t2 = t0 + Duration::from_secs(10);
    limiter.apply(ip("10.0.0.3"), t2, Op::Take).unwrap();
    assert_eq!(limiter.len(), 2);
}

#[test]
fn ipv6_is_counted_per_64() {
    let limiter = Limiter::new(1, Duration::from_secs(60), 100);
    let t0 = Instant::now();
    limiter.apply(ip("2001:db8:1:2::1"), t0, Op::Take).unwrap();
    assert!(limiter
        .apply(ip("2001:db8:1:2::ffff"), t0, Op::Take)
        .is_err());
    assert!(limiter.apply(ip("2001:db8:1:3::1"), t0, Op::Take).is_ok());
    // IPv4-mapped IPv6 is the IPv4 address.
    limiter.apply(ip("192.0.2.7"), t0, Op::Take).unwrap();
    assert!(limiter.apply(ip("::ffff:192.0.2.7"), t0, Op::Take).is_err());
}

#[test]
fn forwarding_headers_count_only_from_a_trusted_proxy() {
    let trusted = [proxy("10.0.0.9")];
    let xff = headers(&[("X-Forwarded-For", "203.0.113.5")]);
    // Not from the proxy: the header is anyone's to forge.
    assert_eq!(
        client_ip(peer("198.51.100.1"), &xff, &trusted),
        ip("198.51.100.1")
    );
    assert_eq!(client_ip(peer("10.0.0.9"), &xff, &[]), ip("10.0.0.9"));
    // From the proxy: the address it appended.
    assert_eq!(
        client_ip(peer("10.0.0.9"), &xff, &trusted),
        ip("203.0.113.5")
    );
    // IPv4-mapped peer address of the proxy.
    assert_eq!(
        client_ip(peer("::ffff:10.0.0.9"), &xff, &trusted),
        ip("203.0.113.5")
    );
}

#[test]
fn the_rightmost_untrusted_forwarded_address_is_the_client() {
    let trusted = [proxy("10.0.0.9"), proxy("10.0.0.8")];
    let from = peer("10.0.0.9");
    // The client wrote "1.1.1.1" itself; the proxy appended its peer.
    let h = headers(&[("X-Forwarded-For", "1.1.1.1, 203.0.113.5")]);
    assert_eq!(client_ip(from, &h, &trusted), ip("203.0.113.5"));
    // Two trusted proxies in a row: skip the inner one.
    let h = headers(&[("X-Forwarded-For", "1.1.1.1, 203.0.113.5, 10.0.0.8")]);
    assert_eq!(client_ip(from, &h, &trusted), ip("203.0.113.5"));
    // Several header lines are one list, in order.
    let h = headers(&[
        ("X-Forwarded-For", "1.1.1.1"),
        ("X-Forwarded-For", "203.0.113.6"),
    ]);
    assert_eq!(client_ip(from, &h, &trusted), ip("203.0.113.6"));
    // Ports and brackets.
    let h = headers(&[("X-Forwarded-For", "[2001:db8::7]:443")]);
    assert_eq!(client_ip(from, &h, &trusted), ip("2001:db8::7"));
    let h = headers(&[("X-Forwarded-For", "203.0.113.5:1234")]);
    assert_eq!(client_ip(from, &h, &trusted), ip("203.0.113.5"));
    // Garbage where the proxy's entry should be: the proxy's address.
    let h = headers(&[("X-Forwarded-For", "203.0.113.5, nonsense")]);
    assert_eq!(client_ip(from, &h, &trusted), ip("10.0.0.9"));
    // Only trusted hops: the leftmost of them.
    let h = headers(&[("X-Forwarded-For", "10.0.0.8")]);
    assert_eq!(client_ip(from, &h, &trusted), ip("10.0.0.8"));
    // A byte that is not visible ASCII in the client's own entry (what
    // nginx's `$proxy_add_x_forwarded_for` passes on) spoils that entry
    // only: the proxy's entry still names the client.
    let mut h = HeaderMap::new();
    h.append(
        "x-forwarded-for",
        HeaderValue::from_bytes(b"\x80\xff, 203.0.113.5").unwrap(),
    );
    assert_eq!(client_ip(from, &h, &trusted), ip("203.0.113.5"));
}

#[test]
fn x_real_ip_counts_only_without_x_forwarded_for() {
    let trusted = [proxy("10.0.0.9")];
    let from = peer("10.0.0.9");
    let h = headers(&[("X-Real-IP", "203.0.113.5")]);
    assert_eq!(client_ip(from, &h, &trusted), ip("203.0.113.5"));
    let h = headers(&[
        ("X-Real-IP", "203.0.113.5"),
        ("X-Forwarded-For", "198.51.100.2"),
    ]);
    assert_eq!(client_ip(from, &h, &trusted), ip("198.51.100.2"));
    let h = headers(&[("X-Real-IP", "bogus")]);
    assert_eq!(client_ip(from, &h, &trusted), ip("10.0.0.9"));
    assert_eq!(client_ip(from, &HeaderMap::new(), &trusted), ip("10.0.0.9"));
    assert_eq!(
        client_ip(
            peer("198.51.100.1"),
            &headers(&[("X-Real-IP", "203.0.113.5")]),
            &trusted
        ),
        ip("198.51.100.1")
    );
}

#[test]
fn a_trusted_proxy_is_an_address_or_a_cidr_range() {
    let xff = headers(&[("X-Forwarded-For", "203.0.113.5")]);
    // An IPv4 range: every peer in it is a proxy, the ones beside it are not.
    let v4 = [proxy("172.28.0.0/16")];
    for inside in ["172.28.0.1", "172.28.255.254", "::ffff:172.28.3.4"] {
        assert_eq!(
            client_ip(peer(inside), &xff, &v4),
            ip("203.0.113.5"),
            "{inside}"
        );
    }
    for outside in ["172.29.0.1", "172.27.255.255", "10.0.0.1"] {
        assert_eq!(
            client_ip(peer(outside), &xff, &v4),
            ip(outside),
            "{outside}"
        );
    }
    // An IPv6 range.
    let v6 = [proxy("fd00:1:2::/48")];
    assert_eq!(
        client_ip(peer("fd00:1:2:3::9"), &xff, &v6),
        ip("203.0.113.5")
    );
    assert_eq!(client_ip(peer("fd00:1:3::9"), &xff, &v6), ip("fd00:1:3::9"));
    // A forwarded hop inside the range is a proxy too: skipped.
    let h = headers(&[("X-Forwarded-For", "203.0.113.5, 172.28.9.9")]);
    assert_eq!(client_ip(peer("172.28.0.1"), &h, &v4), ip("203.0.113.5"));
    // An IPv4-mapped IPv6 range is its IPv4 range; host bits are dropped.
    assert_eq!(proxy("::ffff:172.28.0.0/112"), v4[0]);
    assert_eq!(proxy("172.28.1.2/16"), v4[0]);
    // A plain address is a range of one, either family.
    assert_eq!(proxy("10.0.0.9"), proxy("10.0.0.9/32"));
    assert_eq!(proxy("::ffff:10.0.0.9"), proxy("10.0.0.9/32"));
    assert_eq!(proxy("::1"), proxy("::1/128"));
    // The private blocks are the widest ranges taken; wider ones hold
    // clients (everyone, with 0.0.0.0/0, could choose their own address).
    assert!(proxy("10.0.0.0/8").contains(ip("10.200.0.1")));
    assert!(proxy("fc00::/7").contains(ip("fd12::1")));
    // Anything else is refused, with the text in the message.
    for bad in [
        "0.0.0.0/0",
        "::/0",
        "128.0.0.0/1",
        "::ffff:0.0.0.0/96",
        "10.0.0.0/33",
        "fd00::/129",
        "10.0.0",
        "example.com",
        "",
        "10.0.0.0/",
    ] {
        let e = bad.parse::<TrustedProxy>().unwrap_err();
        assert!(e.contains(&format!("{bad:?}")), "{bad}: {e}");
    }
}

#[test]
fn retry_after_is_whole_seconds_rounded_up() {
    let r = too_many(Duration::from_millis(5_200), "Too many new rooms");
    assert_eq!(r.status(), StatusCode::TOO_MANY_REQUESTS);
    assert_eq!(r.headers()[header::RETRY_AFTER], "6");
    let r = too_many(Duration::ZERO, "Too many new rooms");
    assert_eq!(r.headers()[header::RETRY_AFTER], "1");
}

#[test]
fn a_token_given_back_can_be_taken_again_but_never_past_the_burst() {
    let limiter = Limiter::new(2, Duration::from_secs(3600), 100);
    let a = ip("10.0.0.9");
    assert!(limiter.take(a).is_ok());
    assert!(limiter.take(a).is_ok());
    assert!(limiter.take(a).is_err(), "both tokens held");
    limiter.give_back(a);
    assert!(limiter.take(a).is_ok(), "one came back");
    assert!(limiter.take(a).is_err());
    for _ in 0..5 {
        limiter.give_back(a);
    }
    assert!(limiter.take(a).is_ok());
    assert!(limiter.take(a).is_ok());
    assert!(limiter.take(a).is_err(), "no more than the burst");
}

#[test]
fn a_dear_request_spends_its_cost_or_nothing() {
    let limiter = Limiter::new(10, Duration::from_secs(1), 100);
    let a = ip("192.0.2.1");
    assert!(limiter.take_n(a, 6).is_ok());
    // 4 left: a request of 6 is refused, spends nothing, and says when
    // the two missing come back.
    let wait = limiter.take_n(a, 6).unwrap_err();
    assert!(wait > Duration::from_millis(1900) && wait <= Duration::from_secs(2));
    assert!(limiter.take_n(a, 4).is_ok());
    // Dearer than the whole burst: it costs the burst.
    let b = ip("192.0.2.2");
    assert!(limiter.take_n(b, 1000).is_ok());
    assert!(limiter.take(b).is_err());
    assert_eq!(super::replay_cost(0), 1);
    assert_eq!(super::replay_cost(99), 1);
    assert_eq!(super::replay_cost(1000), 11);
}
